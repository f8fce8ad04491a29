"""The options of one run: what the command line (or a test) asks of the build and the corpus stages.

A plain class, not a dataclass: `lawbook build` with nothing to do imports this module, and the
dataclasses module (with inspect) was a sixth of that command's time."""
import hashlib
from os import PathLike
from pathlib import Path

# Options that change nothing the build writes: a build with other values of these is the same build.
NEUTRAL = frozenset({"debug", "force", "cache_dir"})

# Every option, with its default.
FIELDS = {
    "debug": False,  # tracebacks instead of one message
    "force": False,  # ignore the previous build and the cache of readings
    "no_commentary": False,  # leave commentary out of the PDF edition
    "no_pdf": False,  # leave the PDF edition out (a quicker preview)
    "no_corrections": False,  # build the book exactly as the sources say (sources/corrections.toml unused)
    "cache_dir": None,  # where the cache of readings is (default: publish/cache.py default_folder)
    "known_missing": None,  # the known-missing list (default: SOURCES/known-missing.toml)
    "reference": None,  # the original's build folder or corpus.json: the editor's page compares with it
}


class Options:
    """The options, read-only once made: Options(no_pdf=True); unknown names are a TypeError."""
    __slots__ = tuple(FIELDS)
    # The fields of FIELDS, for the type checker (slots, not class attributes).
    debug: bool
    force: bool
    no_commentary: bool
    no_pdf: bool
    no_corrections: bool
    cache_dir: str | PathLike[str] | None
    known_missing: str | PathLike[str] | None
    reference: str | PathLike[str] | None

    def __init__(self, **values: object) -> None:
        unknown = set(values) - set(FIELDS)
        if unknown:
            raise TypeError(f"unknown option {sorted(unknown)[0]!r}")
        for name, default in FIELDS.items():
            object.__setattr__(self, name, values.get(name, default))

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"options are read-only: {name}")

    def as_dict(self) -> dict[str, object]:
        return {name: getattr(self, name) for name in FIELDS}

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Options) and self.as_dict() == other.as_dict()

    def __hash__(self) -> int:
        return hash(tuple(self.as_dict().items()))

    def __repr__(self) -> str:
        return "Options(" + ", ".join(f"{k}={v!r}" for k, v in self.as_dict().items()) + ")"

    @classmethod
    def of(cls, value: "Options | dict[str, object] | None" = None, **changes: object) -> "Options":
        """Options from Options, a dict of option names (tests, tools) or None; unknown names are a TypeError."""
        if value is None:
            value = {}
        if isinstance(value, Options):
            value = value.as_dict()
        return cls(**{**value, **changes})

    def digest_fields(self) -> dict[str, object]:
        """The options that change what the build writes, by name: part of every digest of the build.
        The reference counts by its path and its bytes, so a new build of the original rebuilds the site."""
        out = {k: v for k, v in self.as_dict().items() if k not in NEUTRAL}
        if self.reference is not None:
            out["reference"] = f"{self.reference} {_file_digest(reference_file(self.reference))}"
        return out


def reference_file(path: str | PathLike[str]) -> Path:
    """The corpus.json a --reference names: the file itself, or the one in a build folder."""
    found = Path(path)
    return found / "corpus.json" if found.is_dir() else found


def _file_digest(path: Path) -> str:
    """The reference's digest; only a regular file is read (opened without waiting for a pipe's writer),
    anything else is "unreadable" and the build says why (publish/reference.py)."""
    import os
    import stat

    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError:
        return "unreadable"
    with os.fdopen(fd, "rb") as f:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return "unreadable"
        digest = hashlib.sha256()
        try:
            for block in iter(lambda: f.read(1 << 20), b""):
                digest.update(block)
        except OSError:
            return "unreadable"
        return digest.hexdigest()
