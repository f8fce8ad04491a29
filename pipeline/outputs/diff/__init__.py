"""Edition diffs: what changed between two editions of the laws, article by article, as a redline.

    words    tokens and sentences of law text; the word-level diff (difflib)
    compare  article and section matching, word diffs per node, moved sentences, changed references
    render   the comparison as JSON, HTML (templates/diff/) and terminal text

The matching rules and thresholds are in docs/diff.md.
"""
import re
import sys
from pathlib import Path

from lxml import etree

from ...core.errors import LawbookError
from ...core.memory import collector_paused
from ..serialise import parse_xml, relaxng
from ..text import profile_of
from . import render
from .compare import Comparison

# Each takes the comparison and the profile whose words it is in (JSON holds no words).
FORMATS = {"text": render.to_text, "json": lambda result, profile: render.to_json(result), "html": render.to_html}


def compare(old_edition, new_edition):
    """The comparison of two <edition> elements (read only) as a JSON-ready dict."""
    return Comparison(old_edition, new_edition).run()


@collector_paused
def write_diff(job):
    """Reads: job.corpus. Writes: diff/<old>-<new>.html and .json (e.g. diff/2007-2017.html) for every
    pair of consecutive editions; nothing when the corpus holds fewer than two editions."""
    editions = list(job.corpus.iterchildren("edition"))  # the corpus keeps them in chronological order
    if len(editions) < 2:
        return
    out = job.tmp / "diff"
    out.mkdir(parents=True, exist_ok=True)
    for old, new in zip(editions, editions[1:]):
        name = f"{old.get('id')}-{new.get('id')}"
        result = (getattr(job, "comparisons", None) or {}).get((old.get("id"), new.get("id"))) or compare(old, new)
        (out / f"{name}.json").write_text(render.to_json(result), encoding="utf-8")
        (out / f"{name}.html").write_text(render.to_html(result, profile_of(job)), encoding="utf-8")
