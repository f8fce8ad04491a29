"""The stage: every check over every edition, each finding added to the report."""
from collections.abc import Mapping, Sequence

from ...core import lang
from ...core.model import Line, Reading
from ...core.report import ERROR_KINDS, BuildLog
from ...core.tree import Element
from ...reading import repair
from .forms import Finding, Sources
from .checks import Check


def check_fidelity(corpus: Element, readings: Sequence[Reading], lines: Mapping[str, Sequence[Line]],
                   log: BuildLog, profile: lang.Profile) -> list[Finding]:
    """The stage's work (corpus/stages.py check_fidelity): every finding, each added to `log` too."""
    reported = {(e.file, e.line) for e in log.entries if e.kind in ERROR_KINDS}
    check = Check(Sources(lines), profile, reported, lambda: repair.book_vocabulary(lines, profile), log.location)
    for edition in corpus.iterchildren("edition"):
        check.edition(edition, [r for r in readings if r.edition == edition.get("id")])
    for f in check.findings:
        log.add(f.kind, f.file, f.line, f.message, f.node)
    return check.findings
