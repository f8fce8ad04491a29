"""Cross-references: find every citation in the corpus text and mark it up in place.

Reads: ctx.corpus. Writes: <ref> elements in paragraphs and notes (see the ref
element in schema/corpus.rng).
"""


def find_references(ctx):
    """Reads: ctx.corpus (text). Writes: <ref to=… status=…> around the citing words."""
