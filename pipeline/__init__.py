"""lawbook: the publishing pipeline for the Spelregels voor Wedstrijdbridge.

Six layers, imports pointing one way (docs/architecture.md):

    core      IDs (NodeId), the data model, the corpus tree and its inline walker, errors, the
              report, the language profiles
    reading   manifest, bytes to lines, the source formats, notes, repair
    corpus    structure, merge, finish, references: make_corpus()
    outputs   corpus.xml/json, the reference graph, Markdown, HTML, PDF, edition diffs
    build     the run, the swap, the cache and reuse of the last build
    cli       the commands (cli.py, serve.py) and the tools (bench/, screenshots)
"""
__version__ = "0.1.0"
