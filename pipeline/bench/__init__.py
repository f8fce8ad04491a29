"""Performance: the benchmark (`make bench`), the book generator and the peers comparison.

    generate   python -m pipeline.bench.generate   a book of any size in the three source formats
    __main__   python -m pipeline.bench            build times and memory, build/bench.{json,txt}
    run        one measured build in its own process (started by the benchmark)
    peers      python -m pipeline.bench.peers      pandoc and Sphinx on the Markdown edition
"""
