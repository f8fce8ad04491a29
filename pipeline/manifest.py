"""Reads sources/sources.toml: which files make up the book, and what each holds.

Reads: the manifest file and the folder listing.
Writes: a list of Source, in manifest order (that order is also the priority
when two sources give the same article in different wording).
Every problem is a LawbookError naming the manifest or the file.
"""
import codecs
import re
import tomllib
from dataclasses import dataclass
from pathlib import Path

from .errors import LawbookError
from . import read

EDITIONS = ("2007", "2017")
FORMATS = ("wiki", "template", "print")
MANIFEST = "sources.toml"
# Limits of one build, checked before any source is read (docs/errors.md, "Limits", gives the
# measurements behind them). The whole book is under 1 MiB of text.
MAX_SOURCES = 10_000
MAX_TOTAL_BYTES = 16 * 1024 * 1024
# The keys a [[source]] entry may have.
KEYS = {"file", "edition", "origin", "format", "encoding"}
# Files in the sources folder that are not law text.
NOT_SOURCES = {MANIFEST, "known-missing.toml", "README.md"}


@dataclass
class Source:
    path: Path
    edition: str
    origin: str = ""
    format: str | None = None  # forced in the manifest, else detected
    encoding: str | None = None  # declared in the manifest
    detected: str | None = None  # the encoding the file was read with (set by read)

    @property
    def name(self):
        return self.path.name


def load_manifest(folder):
    folder = Path(folder)
    manifest = folder / MANIFEST
    if not folder.is_dir():
        raise LawbookError("the sources folder does not exist", file=str(folder),
                           fix="give an existing folder with --sources")
    if not manifest.is_file():
        raise LawbookError("no manifest in the sources folder", file=str(manifest),
                           fix=f"create {MANIFEST} with one [[source]] entry (file, edition) per source file")
    try:
        data = tomllib.loads(manifest.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as e:
        # Python 3.11 gives the position only in the message: "… (at line 3, column 7)".
        m = re.search(r"\(at line (\d+), column (\d+)\)", str(e))
        line = getattr(e, "lineno", None) or (int(m.group(1)) if m else None)
        what = re.sub(r"\s*\(at line \d+, column \d+\)|\s*\(at end of document\)", "", str(e))
        raise LawbookError(f"the manifest is not valid TOML: {what}", file=str(manifest), line=line,
                           fix="correct the TOML syntax at that line") from None
    except UnicodeDecodeError:
        raise LawbookError("the manifest is not UTF-8", file=str(manifest),
                           fix="save sources.toml as UTF-8") from None
    except OSError as e:
        raise LawbookError(f"cannot read the manifest: {e.strerror}", file=str(manifest),
                           fix="check that the file is readable") from None

    entries = data.get("source")
    if not isinstance(entries, list) or not entries:
        raise LawbookError("the manifest lists no sources", file=str(manifest),
                           fix="add one [[source]] table per file, with file = \"…\" and edition = \"2017\"")
    sources, seen = [], set()
    for n, entry in enumerate(entries, 1):
        where = f"[[source]] number {n}"
        if not isinstance(entry, dict) or not isinstance(entry.get("file"), str):
            raise LawbookError(f"{where} has no file name", file=str(manifest),
                               fix='give each [[source]] a file = "name.txt"')
        name = entry["file"]
        unknown = sorted(set(entry) - KEYS)
        if unknown:
            raise LawbookError(f"{where} ({name}) has unknown key {unknown[0]!r}", file=str(manifest),
                               fix=f"use only the keys {', '.join(sorted(KEYS))}")
        if not name or Path(name).name != name or name in (".", ".."):
            raise LawbookError(f"{where}: {name!r} is not a file name in the sources folder", file=str(manifest),
                               fix="give the bare file name, without a folder; the file must be in the sources folder")
        for key in ("origin", "encoding", "format"):
            if key in entry and not isinstance(entry[key], str):
                raise LawbookError(f"{where} ({name}): {key} must be a string", file=str(manifest),
                                   fix=f'write {key} = "…" in quotes')
        edition = str(entry.get("edition", ""))
        if edition not in EDITIONS:
            raise LawbookError(f"{where} ({name}) has unknown edition {edition!r}", file=str(manifest),
                               fix=f"set edition to one of {', '.join(EDITIONS)}")
        fmt = entry.get("format")
        if fmt is not None and fmt not in FORMATS:
            raise LawbookError(f"{where} ({name}) has unknown format {fmt!r}", file=str(manifest),
                               fix=f"set format to one of {', '.join(FORMATS)}, or leave it out to detect it")
        if entry.get("encoding"):
            try:
                codecs.lookup(entry["encoding"])
            except LookupError:
                raise LawbookError(f"{where} ({name}) has unknown encoding {entry['encoding']!r}", file=str(manifest),
                                   fix="use a Python codec name such as utf-8, cp1252, latin-1 or utf-16") from None
        if name in seen:
            raise LawbookError(f"{name} is listed twice", file=str(manifest), fix="list each file once")
        seen.add(name)
        path = folder / name
        if not path.is_file():
            raise LawbookError("source file listed in the manifest is missing", file=str(path),
                               fix=f"restore the file or remove its entry from {MANIFEST}")
        sources.append(Source(path=path, edition=edition, origin=str(entry.get("origin", "")),
                              format=fmt, encoding=entry.get("encoding")))

    _check_limits(sources, manifest)
    for path in sorted(folder.iterdir()):
        if path.is_file() and path.name not in seen and path.name not in NOT_SOURCES and not path.name.startswith("."):
            raise LawbookError("file is not in the manifest", file=str(path),
                               fix=f"add a [[source]] entry for {path.name} to {MANIFEST}, or move the file out of the folder")
    return sources


def _check_limits(sources, manifest):
    """Refuse a source set past the documented limits before anything is read (read.MAX_SOURCE_BYTES
    for one file, MAX_TOTAL_BYTES for all, MAX_SOURCES files)."""
    if len(sources) > MAX_SOURCES:
        raise LawbookError(f"the manifest lists {len(sources)} sources, over the limit of {MAX_SOURCES}",
                           file=str(manifest), fix="combine small sources into larger files")
    total = 0
    for source in sources:
        size = source.path.stat().st_size
        if size > read.MAX_SOURCE_BYTES:
            raise LawbookError(f"the file is {size / read.MIB:.1f} MiB, over the limit of "
                               f"{read.MAX_SOURCE_BYTES // read.MIB} MiB "
                               f"for one source", file=str(source.path),
                               fix="split the source into several files, one per part of the book")
        total += size
    if total > MAX_TOTAL_BYTES:
        raise LawbookError(f"the sources together are {total / read.MIB:.1f} MiB, over the limit of "
                           f"{MAX_TOTAL_BYTES // read.MIB} MiB for one build", file=str(manifest),
                           fix="build the editions separately, or remove sources that repeat others")
