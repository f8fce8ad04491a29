"""What an output stage is given: the finished corpus and what it needs besides, never the build itself.

An output stage is a function of one Job: it reads the corpus (`job.corpus`, the tree, and `job.log`,
`job.sources`, `job.lines` for provenance: the fields of the frozen corpus/stages.Corpus) and writes
below `job.tmp`. What one stage makes for another is in `job.made` (Made: declared, typed fields),
never in a field a stage adds to the job. The build hands it a Job with a `previous` that can copy an
unchanged edition's files from the last build; anyone else (tests, tools) makes one with
Job.of(corpus, folder), and then nothing is reused.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Mapping, Protocol

from lxml import etree

from ..core.lang.profile import Profile
from ..core.options import Options
from ..core.report import BuildLog
from ..corpus.stages import Corpus, CorpusContext
from ..reading.decode import Line
from ..reading.manifest import Source

if TYPE_CHECKING:
    from ..corpus.align import Alignment


class PreviousBuild(Protocol):
    """What an output may take from the last build (publish/run.py's Build; NoPrevious outside a build)."""

    @property
    def available(self) -> bool: ...

    def reuse(self, edition: str, paths: list[str]) -> bool: ...

    def copy_files(self, paths: list[str]) -> bool: ...

    def keys(self, output: str) -> dict[str, str]: ...

    def digest(self, edition: str) -> str | None: ...

    def digests(self) -> dict[str, str]: ...

    def has(self, path: str) -> bool: ...

    def corpus_file(self) -> Path | None: ...


class NoPrevious:
    """No earlier build to take from: a first or forced build, or a caller outside a build."""
    available = False

    def reuse(self, edition: str, paths: list[str]) -> bool:
        """Copy `paths` (below the output folder) of an unchanged `edition` from the last build: True if done."""
        return False

    def copy_files(self, paths: list[str]) -> bool:
        """Copy the files `paths` (below the output folder) from the last build, as it recorded them: True if done."""
        return False

    def keys(self, output: str) -> dict[str, str]:
        """The last build's file keys of `output` (outputs/keyed.py), path -> key."""
        return {}

    def digest(self, edition: str) -> str | None:
        """This build's digest of `edition`'s content (equal digests: equal outputs)."""
        return None

    def digests(self) -> dict[str, str]:
        """The last build's digests, edition -> digest."""
        return {}

    def has(self, path: str) -> bool:
        """Whether the last build holds `path` (below its output folder)."""
        return False

    def corpus_file(self) -> Path | None:
        """The last build's corpus.xml, verified against its record; None when it cannot be trusted."""
        return None


@dataclass
class Made:
    """What one output stage makes for another within a build; each field is declared as written by
    one stage and read by others (their Stage declarations: `made.comparisons` …)."""
    # (old edition, new edition) -> their comparison (diff.compare), made once for the diff and the site
    comparisons: dict[tuple[str, str], dict[str, Any]] | None = None
    alignment: Alignment | None = None  # the corpus against the original (build --reference; reference.py)


@dataclass(frozen=True)
class Job:
    """One output run: the corpus, the folder to write, the last build, and what the stages made."""
    context: Corpus
    tmp: Path  # the folder the outputs are written to (the build's temporary folder)
    previous: PreviousBuild = field(default_factory=NoPrevious)
    made: Made = field(default_factory=Made)
    # What compiles the PDF's books (pdf.Compiles when None): watch mode keeps warm compilers (publish/watch.py).
    compiles: Callable[[list[Any]], Any] | None = None

    # The corpus's fields, read as the outputs always read them.
    @property
    def corpus(self) -> etree._Element:
        """The corpus tree, read only."""
        return self.context.tree

    @property
    def log(self) -> BuildLog:
        return self.context.log

    @property
    def options(self) -> Options:
        return self.context.options

    @property
    def sources(self) -> tuple[Source, ...]:
        return self.context.sources

    @property
    def lines(self) -> Mapping[str, list[Line]]:
        return self.context.lines

    @property
    def sources_dir(self) -> Path | None:
        return self.context.sources_dir

    @property
    def profile(self) -> Profile:
        return self.context.profile

    @classmethod
    def of(cls, corpus: Corpus | CorpusContext, tmp: Path | str, previous: PreviousBuild | None = None) -> Job:
        """A Job for `corpus` (a Corpus, or the context corpus/stages.make_corpus returns) writing into `tmp`."""
        context = corpus.frozen() if isinstance(corpus, CorpusContext) else corpus
        return cls(context, Path(tmp), previous if previous is not None else NoPrevious())

    @classmethod
    def of_tree(cls, tree: etree._Element, tmp: Path | str, profile: Profile,
                log: BuildLog | None = None) -> Job:
        """A Job for a corpus tree made by hand (tests): no sources, default options."""
        return cls(Corpus(tree, profile, log if log is not None else BuildLog()), Path(tmp))
