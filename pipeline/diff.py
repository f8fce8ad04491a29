"""Edition diffs: what changed between two editions, as a redline."""


def write_diff(ctx):
    """Reads: ctx.corpus. Writes: diff/2007-2017.html, diff/2007-2017.json."""


def register(sub):
    """Adds the `diff` subcommand."""
