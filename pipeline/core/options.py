"""The options of one run: what the command line (or a test) asks of the build and the corpus stages."""
import hashlib
from dataclasses import asdict, dataclass, fields
from pathlib import Path

# Options that change nothing the build writes: a build with other values of these is the same build.
NEUTRAL = frozenset({"debug", "force", "cache_dir"})


@dataclass(frozen=True)
class Options:
    debug: bool = False  # tracebacks instead of one message
    force: bool = False  # ignore the previous build and the cache of readings
    no_commentary: bool = False  # leave commentary out of the PDF edition
    no_pdf: bool = False  # leave the PDF edition out (a quicker preview)
    no_corrections: bool = False  # build the book exactly as the sources say (sources/corrections.toml unused)
    cache_dir: str | None = None  # where the cache of readings is (default: beside the sources folder)
    known_missing: str | None = None  # the known-missing list (default: SOURCES/known-missing.toml)
    reference: str | None = None  # the original's build folder or corpus.json: the editor's page compares with it

    @classmethod
    def of(cls, value=None, **changes):
        """Options from Options, a dict of option names (tests, tools) or None; unknown names are a TypeError."""
        if value is None:
            value = {}
        if isinstance(value, Options):
            value = asdict(value)
        unknown = set(value) - {f.name for f in fields(cls)}
        if unknown:
            raise TypeError(f"unknown option {sorted(unknown)[0]!r}")
        return cls(**{**value, **changes})

    def digest_fields(self):
        """The options that change what the build writes, by name: part of every digest of the build.
        The reference counts by its path and its bytes, so a new build of the original rebuilds the site."""
        out = {k: v for k, v in asdict(self).items() if k not in NEUTRAL}
        if self.reference is not None:
            out["reference"] = f"{self.reference} {_file_digest(reference_file(self.reference))}"
        return out


def reference_file(path):
    """The corpus.json a --reference names: the file itself, or the one in a build folder."""
    path = Path(path)
    return path / "corpus.json" if path.is_dir() else path


def _file_digest(path):
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()
    except OSError:
        return "unreadable"  # the build runs and says why (build/reference.py)
