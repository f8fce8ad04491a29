"""What an output stage is given: the finished corpus and what it needs besides, never the build itself.

An output stage is a function of one Job: it reads `job.corpus` (and `job.log`, `job.sources`,
`job.lines` for provenance) and writes below `job.tmp`. The build hands it a Job with a
`previous` that can copy an unchanged edition's files from the last build; anyone else (tests,
tools) makes one with Job.of(corpus context, folder), and then nothing is reused.
"""
from dataclasses import dataclass, field
from pathlib import Path

from ..core import lang
from ..core.options import Options
from ..core.report import BuildLog


class NoPrevious:
    """No earlier build to take from: a first or forced build, or a caller outside a build."""
    available = False

    def reuse(self, edition, paths):
        """Copy `paths` (below the output folder) of an unchanged `edition` from the last build: True if done."""
        return False

    def digest(self, edition):
        """This build's digest of `edition`'s content (equal digests: equal outputs)."""
        return None

    def digests(self):
        """The last build's digests, edition -> digest."""
        return {}

    def has(self, path):
        """Whether the last build holds `path` (below its output folder)."""
        return False

    def corpus_file(self):
        """The last build's corpus.xml, verified against its record; None when it cannot be trusted."""
        return None


@dataclass
class Job:
    corpus: object  # the corpus tree, read only
    tmp: Path  # the folder the outputs are written to (the build's temporary folder)
    log: BuildLog = field(default_factory=BuildLog)
    options: Options = field(default_factory=Options)
    sources: list = field(default_factory=list)  # the manifest's sources (their editions, paths, dates)
    lines: dict = field(default_factory=dict)  # file -> [Line]: the source text, for messages
    sources_dir: Path | None = None
    previous: object = field(default_factory=NoPrevious)  # what may be taken from the last build
    search_index: object = None  # the search indexer's process while it runs (outputs/html.py)
    profile: object = field(default_factory=lang.profile)  # the book's language (core/lang)

    @classmethod
    def of(cls, ctx, tmp):
        """A Job for the corpus of `ctx` (corpus/stages.make_corpus) writing into `tmp`."""
        return cls(ctx.corpus, Path(tmp), ctx.log, ctx.options, ctx.sources, ctx.lines, ctx.sources_dir,
                   profile=ctx.profile)
