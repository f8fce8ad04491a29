"""Layer 4, build: runs the corpus stages and the outputs into a fresh folder and swaps it in.

    run.py      the stages in order, the swap, what may be reused from the last build
    cache.py    the readings of earlier builds, the stamp of the last build, the code version
    outdir.py   which folders are the build's own, and the marker that says so

Imports every layer below; only the command line imports it.
"""
