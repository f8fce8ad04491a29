"""Layer 4, build: runs the corpus stages and the outputs into a fresh folder and swaps it in.

    run.py      the chain of stages and its runner (build, make_corpus)
    state.py    a build's own state, and what it may reuse from the last build
    lanes.py    the output stages in this process or a forked child
    swap.py     the finished folder put in place, and a failed build's report
    cache.py    the readings of earlier builds, the stamp of the last build, the code version
    outdir/     which folders are the build's own: the marker, the ledger of files, safe removal, the target

Imports every layer below; only the command line imports it.
"""
