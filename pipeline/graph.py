"""The reference graph and the dangling-reference check (`python -m pipeline check`)."""


def write_graph(ctx):
    """Reads: ctx.corpus with refs. Writes: refs.graphml, refs.json."""


def register(sub):
    """Adds the `check` subcommand."""
