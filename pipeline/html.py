"""The HTML edition: a static reader's site per edition in build/html/."""


def write_html(ctx):
    """Reads: ctx.corpus, ctx.log. Writes: html/ (pages, graph SVG, editor's report)."""


def write_search_index(ctx):
    """Reads: html/. Writes: html/pagefind/ (the search index)."""


def register(sub):
    """Adds the `serve` subcommand."""
