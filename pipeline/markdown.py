"""The Markdown edition: build/<edition>/lawbook.md, for wikis and other tools."""


def write_markdown(ctx):
    """Reads: ctx.corpus. Writes: <edition>/lawbook.md per edition."""
