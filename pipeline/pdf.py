"""The PDF edition: a print-ready book per edition, typeset with Typst."""


def write_pdf(ctx):
    """Reads: ctx.corpus. Writes: pdf/spelregels-<edition>.pdf."""
