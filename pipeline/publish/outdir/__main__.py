"""python -m pipeline.publish.outdir clean FOLDER (the Makefile's `make clean`)."""
import sys

from .removal import clean

if len(sys.argv) != 3 or sys.argv[1] != "clean":
    sys.exit("usage: python -m pipeline.publish.outdir clean FOLDER")
clean(sys.argv[2])
