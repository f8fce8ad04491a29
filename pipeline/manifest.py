"""Reads sources/sources.toml: which files make up the book, and what each holds.

Reads: the manifest file and the folder listing.
Writes: a list of Source, in manifest order (that order is also the priority
when two sources give the same article in different wording).
Every problem is a LawbookError naming the manifest or the file.
"""
import tomllib
from dataclasses import dataclass
from pathlib import Path

from .errors import LawbookError

EDITIONS = ("2007", "2017")
FORMATS = ("wiki", "template", "print")
MANIFEST = "sources.toml"
# Files in the sources folder that are not law text.
NOT_SOURCES = {MANIFEST, "known-missing.toml", "README.md"}


@dataclass
class Source:
    path: Path
    edition: str
    origin: str = ""
    format: str | None = None  # forced in the manifest, else detected
    encoding: str | None = None

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
        line = getattr(e, "lineno", None)
        raise LawbookError(f"the manifest is not valid TOML ({e})", file=str(manifest), line=line,
                           fix="correct the TOML syntax at that line") from None
    except UnicodeDecodeError:
        raise LawbookError("the manifest is not UTF-8", file=str(manifest),
                           fix="save sources.toml as UTF-8") from None

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
        edition = str(entry.get("edition", ""))
        if edition not in EDITIONS:
            raise LawbookError(f"{where} ({name}) has unknown edition {edition!r}", file=str(manifest),
                               fix=f"set edition to one of {', '.join(EDITIONS)}")
        fmt = entry.get("format")
        if fmt is not None and fmt not in FORMATS:
            raise LawbookError(f"{where} ({name}) has unknown format {fmt!r}", file=str(manifest),
                               fix=f"set format to one of {', '.join(FORMATS)}, or leave it out to detect it")
        if name in seen:
            raise LawbookError(f"{name} is listed twice", file=str(manifest), fix="list each file once")
        seen.add(name)
        path = folder / name
        if not path.is_file():
            raise LawbookError("source file listed in the manifest is missing", file=str(path),
                               fix=f"restore the file or remove its entry from {MANIFEST}")
        sources.append(Source(path=path, edition=edition, origin=str(entry.get("origin", "")),
                              format=fmt, encoding=entry.get("encoding")))

    for path in sorted(folder.iterdir()):
        if path.is_file() and path.name not in seen and path.name not in NOT_SOURCES and not path.name.startswith("."):
            raise LawbookError("file is not in the manifest", file=str(path),
                               fix=f"add a [[source]] entry for {path.name} to {MANIFEST}, or move the file out of the folder")
    return sources
