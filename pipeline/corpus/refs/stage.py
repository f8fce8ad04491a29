"""What the references stage and the reading of references back ask of a build."""
from pathlib import Path
from typing import Protocol

from ...core import lang
from ...core.options import Options
from ...core.report import BuildLog
from ...core.tree import Element
from ...reading.decode import Line


class CorpusOf(Protocol):
    """The corpus stages' context (stages.CorpusContext) or an output's Job."""
    corpus: Element
    sources_dir: Path
    options: Options
    lines: dict[str, list[Line]]
    profile: lang.Profile
    log: BuildLog
