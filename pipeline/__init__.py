"""lawbook: the publishing pipeline for the Spelregels voor Wedstrijdbridge.

The stages, each a module with one job:

    manifest   sources.toml        -> list of Source (file, edition, format)
    read       bytes               -> decoded lines (encoding, line endings)
    formats/*  lines               -> blocks (one reader per source format)
    notes      inline note forms   -> one note model (all footnote handling)
    repair     block text          -> repaired text, every repair logged
    structure  blocks              -> article trees (lxml) with IDs and inferred numbering
    merge      trees per source    -> one tree per edition; variants and conflicts
    serialise  corpus tree         -> corpus.xml, corpus.json, validated against schema/
    report     log of the build    -> report.json, report.txt
"""
__version__ = "0.1.0"
