"""Layer 3, outputs: every file written from the finished corpus (XML/JSON, graph, Markdown, HTML, PDF, diff).

Imports core, reading and corpus; never the build that runs it."""
