"""Edition diffs: what changed between two editions of the laws, article by article, as a redline.

    words    tokens and sentences of law text; the word-level diff (difflib)
    compare  article and section matching, word diffs per node, moved sentences, changed references
    segments the redline of one node pair: words, label, notes, tables row by row
    render   the comparison as JSON, HTML (templates/diff/) and terminal text

The matching rules and thresholds are in docs/diff.md. An article pair compared before in the same
process (a rebuild in watch mode) is taken from a memo keyed by the two articles' XML (compare.py,
Comparison.article).
"""
import re
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from lxml import etree

from ...core import tree
from ...core.errors import LawbookError
from ...core.memory import collector_paused
from ...core.stage import SIDE, Stage
from ...core.view import CorpusView
from ..serialise import parse_xml, relaxng
from ..text import profile_of
from . import render
from .compare import Comparison, Result

if TYPE_CHECKING:
    from ..job import Job

# Each takes the comparison and the profile whose words it is in (JSON holds no words).
FORMATS = {"text": render.to_text, "json": lambda result, profile: render.to_json(result), "html": render.to_html}


def compare(old_edition: tree.Element, new_edition: tree.Element) -> Result:
    """The comparison of two <edition> elements (read only) as a JSON-ready dict."""
    return Comparison(old_edition, new_edition).run()


@collector_paused
def compare_editions(job: "Job") -> None:
    """Reads: job.corpus. Keeps in job.made.comparisons the comparison of every two consecutive editions,
    made here once, before the site's child is forked, for both the diff (write_diff) and the site's pages."""
    editions = CorpusView(job.corpus).editions
    job.made.comparisons = {(a.id, b.id): compare(a.element, b.element) for a, b in zip(editions, editions[1:])}


@collector_paused
def write_diff(job: "Job") -> None:
    """Reads: job.corpus, the comparisons compare_editions made (job.made.comparisons; made here when
    there are none). Writes: diff/<old>-<new>.html and .json (e.g. diff/2007-2017.html) for every pair
    of consecutive editions; nothing when the corpus holds fewer than two editions."""
    editions = CorpusView(job.corpus).editions  # the corpus keeps them in chronological order
    if len(editions) < 2:
        return
    out = job.tmp / "diff"
    out.mkdir(parents=True, exist_ok=True)
    for old, new in zip(editions, editions[1:]):
        name = f"{old.id}-{new.id}"
        result = (job.made.comparisons or {}).get((old.id, new.id)) or compare(old.element, new.element)
        (out / f"{name}.json").write_text(render.to_json(result), encoding="utf-8")
        (out / f"{name}.html").write_text(render.to_html(result, profile_of(job)), encoding="utf-8")


STAGES = [Stage("compare_editions", compare_editions, reads=("corpus",), writes=("made.comparisons",)),
          Stage("write_diff", write_diff, reads=("corpus", "made.comparisons", "profile", "tmp"),
                files=("diff/<old>-<new>.html", "diff/<old>-<new>.json"), lane=SIDE)]
