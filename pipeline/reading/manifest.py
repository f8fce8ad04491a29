"""Reads sources/sources.toml: which files make up the book, and what each holds.

Reads: the manifest file (UTF-8, a byte order mark allowed) and the folder listing.
Writes: a Manifest: the list of Source, in manifest order (that order is also the priority
when two sources give the same article in different wording), and the book's language
(the top-level `language = "nl"`, optional, "nl" by default), which picks the language
profile every stage reads and writes the words of the law with (core/lang).
Every problem is a LawbookError naming the manifest (and the line of the entry) or the file.
An `encoding = …` must be one of read.ALLOWED_ENCODINGS (docs/errors.md, "Encodings"), checked here
with the entry's line.
A source is a regular file in the folder itself: a symbolic link (even to a file beside it), a
folder, a named pipe, a socket or a device is refused, listed or not (see _refuse_unlisted).
"""
import os
import re
import stat
import tomllib
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from os import PathLike
from pathlib import Path

from ..core import lang
from ..core import report
from ..core.errors import LawbookError
from . import decode as read, formats

EDITIONS = ("2007", "2017")
FORMATS = formats.NAMES  # the registry's
MANIFEST = "sources.toml"
# Limits of one build, checked before any source is read (docs/errors.md, "Limits", gives the
# measurements behind them). The whole book is under 1 MiB of text.
MAX_SOURCES = 10_000
MAX_TOTAL_BYTES = 16 * 1024 * 1024
# The keys a [[source]] entry may have.
KEYS = {"file", "edition", "origin", "description", "format", "encoding"}
# Files in the sources folder that are not law text.
NOT_SOURCES = {MANIFEST, "known-missing.toml", "known-missing.example.toml", "corrections.toml", "README.md"}


@dataclass
class Source:
    path: Path
    edition: str
    origin: str = ""
    format: str | None = None  # forced in the manifest, else detected
    encoding: str | None = None  # declared in the manifest
    budget: read.Budget | None = field(default=None, repr=False, compare=False)  # the build's total, shared
    # The book's, from the manifest (its `language`, or the documented default when it gives none): what the
    # source is read in. Required: a source made outside a manifest names its book's language.
    language: str = field(kw_only=True)
    publisher: str = ""  # the book's, from the manifest's top-level `publisher`; "" for the profile's (the NBB)
    # For readers, in the book's language: what the PDF's colophon names the source by ("" when the manifest
    # gives none: the colophon counts it). `origin` is the editor's note, and stays on the editor's page.
    description: str = ""
    copyright: str = ""  # the book's, from the manifest's top-level `copyright`: the colophon's line; "" for none

    @property
    def name(self) -> str:
        return self.path.name


class Manifest(list[Source]):
    """The sources, in manifest order (a list, as the callers that only need the sources use it),
    and the language of the book."""

    def __init__(self, sources: Iterable[Source], language: str) -> None:
        super().__init__(sources)
        self.language = language

    @property
    def sources(self) -> list[Source]:
        return list(self)

    @property
    def profile(self) -> lang.Profile:
        return lang.profile(self.language)


def load_manifest(folder_name: str | PathLike[str]) -> Manifest:
    folder = Path(folder_name)
    manifest = folder / MANIFEST
    if not folder.is_dir():
        raise LawbookError("the sources folder does not exist", file=str(folder),
                           fix="give an existing folder with --sources")
    text = _read_manifest(manifest)
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        # Python 3.11 gives the position only in the message: "… (at line 3, column 7)".
        m = re.search(r"\(at line (\d+), column (\d+)\)", str(e))
        line = getattr(e, "lineno", None) or (int(m.group(1)) if m else None)
        what = re.sub(r"\s*\(at line \d+, column \d+\)|\s*\(at end of document\)", "", str(e))
        raise LawbookError(f"the manifest is not valid TOML: {what}", file=str(manifest), line=line,
                           fix="correct the TOML syntax at that line") from None

    language = _language(data, text, manifest)
    publisher = _book_text(data, text, manifest, "publisher", "World Bridge Federation")
    copyright_line = _book_text(data, text, manifest, "copyright", "© 2017 World Bridge Federation")
    entries = data.get("source")
    if not isinstance(entries, list) or not entries:
        raise LawbookError("the manifest lists no sources", file=str(manifest),
                           fix="add one [[source]] table per file, with file = \"…\" and edition = \"2017\"")
    line_of = _entry_lines(text, len(entries))
    budget = read.Budget(MAX_TOTAL_BYTES, str(manifest))
    sources: list[Source] = []
    sizes: list[int] = []
    seen: set[str] = set()
    for n, entry in enumerate(entries, 1):
        where = f"[[source]] number {n}"

        def refuse(message: str, fix: str | None, key: str | None = None) -> LawbookError:
            return LawbookError(message, file=str(manifest), line=line_of(n, key), fix=fix)

        if not isinstance(entry, dict) or not isinstance(entry.get("file"), str):
            raise refuse(f"{where} has no file name", 'give each [[source]] a file = "name.txt"', "file")
        # Any name a file may have is a source's name, spaces, tabs, line breaks and every letter included
        # (the corpus writes it escaped: core/tree.py); a character a source's text may not hold is refused
        # here, at its line, by the same rule (decode.refused_in), before the name is shown anywhere.
        bad_char = read.refused_in(entry["file"], one_line=False)
        if bad_char:
            at, what, why, fix = bad_char
            raise refuse(f"{where}: the file name {entry['file']!r} holds {what} at character {at}"
                         + (f": {why}" if why else ""), f"rename the file without it, and write its new name here",
                         "file")
        name = entry["file"]
        shown = report.shown_name(name)
        unknown = sorted(set(entry) - KEYS)
        if unknown:
            raise refuse(f"{where} ({shown}) has unknown key {unknown[0]!r}",
                         f"use only the keys {', '.join(sorted(KEYS))}", unknown[0])
        if not name or Path(name).name != name or name in (".", "..") or "\0" in name:
            raise refuse(f"{where}: {name!r} is not a file name in the sources folder",
                         "give the bare file name, without a folder; the file must be in the sources folder", "file")
        for key in ("edition", "origin", "description", "encoding", "format"):
            value = entry.get(key, "")
            if not isinstance(value, str):
                # edition = 2017 is a TOML integer: say how to write it, not only that it is wrong.
                example = value if isinstance(value, int) and not isinstance(value, bool) else "…"
                raise refuse(f"{where} ({shown}): {key} must be a string", f'write {key} = "{example}" in quotes', key)
            # The editor's page shows the origin, the PDF's colophon the description: text as a source's is.
            bad_char = read.refused_in(value, one_line=False)
            if bad_char:
                at, what, why, fix = bad_char
                raise refuse(f"{where} ({shown}): {key} holds {what} at character {at} of its value"
                             + (f": {why}" if why else ""), fix, key)
        edition = entry.get("edition")
        if edition is None:
            raise refuse(f"{where} ({shown}) has no edition", f'add edition = "…", one of {", ".join(EDITIONS)}')
        if edition not in EDITIONS:
            raise refuse(f"{where} ({shown}) has unknown edition {edition!r}",
                         f"set edition to one of {', '.join(EDITIONS)}", "edition")
        fmt = entry.get("format")
        if fmt is not None and fmt not in FORMATS:
            raise refuse(f"{where} ({shown}) has unknown format {fmt!r}",
                         f"set format to one of {', '.join(FORMATS)}, or leave it out to detect it", "format")
        if entry.get("encoding"):
            try:
                read.text_codec(entry["encoding"], str(manifest))
            except LawbookError as e:
                raise refuse(f"{where} ({shown}): {e.message}", e.fix, "encoding") from None
        if name in seen:
            raise refuse(f"{shown} is listed twice", "list each file once", "file")
        seen.add(name)
        path = folder / name
        sizes.append(_regular_file_size(path))
        sources.append(Source(path=path, edition=edition, origin=entry.get("origin", ""),
                              format=fmt, encoding=entry.get("encoding"), budget=budget, language=language,
                              publisher=publisher, description=" ".join(entry.get("description", "").split()),
                              copyright=copyright_line))

    _check_limits(sources, sizes, manifest)
    _refuse_unlisted(folder, seen)
    return Manifest(sources, language)


def _top_level_line(text: str, key: str) -> int | None:
    """The line of a top-level `key = …` (before the first table), for the messages; None when there is none."""
    for n, raw in enumerate(text.split("\n"), 1):
        if raw.lstrip().startswith("["):
            break
        if re.match(rf"""\s*({key}|"{key}"|'{key}')\s*=""", raw):
            return n
    return None


def _book_text(data: dict[str, object], text: str, manifest: Path, key: str, example: str) -> str:
    """A top-level line of text about the whole book (`publisher`, `copyright`): a string on one line,
    its runs of spaces made one; "" when left out."""
    value = data.get(key, "")
    line = _top_level_line(text, key)
    if not isinstance(value, str):
        raise LawbookError(f"the manifest's {key} must be a string", file=str(manifest), line=line,
                           fix=f'write {key} = "{example}" in quotes, or leave it out')
    if "\n" in value.strip():
        raise LawbookError(f"the manifest's {key} must be one line", file=str(manifest), line=line,
                           fix=f'write {key} = "{example}" on one line')
    bad_char = read.refused_in(value, one_line=False)
    if bad_char:
        at, what, why, fix = bad_char
        raise LawbookError(f"the manifest's {key} holds {what} at character {at} of its value"
                           + (f": {why}" if why else ""), file=str(manifest), line=line, fix=fix)
    return " ".join(value.split())


def _language(data: dict[str, object], text: str, manifest: Path) -> str:
    """The top-level `language = "nl"`: the code of a known language profile; the default when left out."""
    language = data.get("language", lang.DEFAULT)
    # A top-level key stands before the first table: its line is the first `language =` there.
    line = None
    for n, raw in enumerate(text.split("\n"), 1):
        if raw.lstrip().startswith("["):
            break
        if re.match(r"""\s*(language|"language"|'language')\s*=""", raw):
            line = n
            break
    if not isinstance(language, str):
        raise LawbookError("the manifest's language must be a string", file=str(manifest), line=line,
                           fix=f'write language = "{lang.DEFAULT}" in quotes (one of {", ".join(lang.codes())})')
    lang.profile(language, where=str(manifest), line=line)
    return language


def _read_manifest(manifest: Path) -> str:
    """The manifest's text: a regular UTF-8 file (a byte order mark at its start is allowed)."""
    def refuse(kind: str) -> LawbookError:
        return LawbookError(f"the manifest is {kind}, not a regular file", file=str(manifest),
                            fix=f"make {MANIFEST} a regular file in the sources folder (a copy, not a link)")
    try:
        with read.open_regular(manifest, refuse) as f:
            data = f.read()
    except FileNotFoundError:
        raise LawbookError("no manifest in the sources folder", file=str(manifest),
                           fix=f"create {MANIFEST} with one [[source]] entry (file, edition) per source file") from None
    except OSError as e:
        raise LawbookError(f"cannot read the manifest: {e.strerror}", file=str(manifest),
                           fix="check that the file is readable") from None
    try:
        return data.decode("utf-8-sig")  # editors on Windows write a BOM; TOML itself does not allow one
    except UnicodeDecodeError as e:
        raise LawbookError("the manifest is not UTF-8", file=str(manifest), line=read.line_of(data, e.start),
                           fix="save sources.toml as UTF-8") from None


# A [[source]] header on a line of its own, as a manifest writes one.
HEADER = re.compile(r"""\s*\[\[\s*(source|"source"|'source')\s*\]\]\s*(#.*)?$""")


# The line of a [[source]] entry (number n from 1) or of its `key = …`; None when unknown.
LineOf = Callable[[int, str | None], int | None]


def _entry_lines(text: str, count: int) -> LineOf:
    """line_of(n, key): the line of entry n's `key = …` (or of its [[source]] header), for the messages.

    Only when the text holds exactly one header per entry; else (a header inside a multi-line string,
    entries written as an inline array) the messages give no line rather than a wrong one.
    """
    lines = text.split("\n")
    starts = [i for i, line in enumerate(lines) if HEADER.match(line)]
    if len(starts) != count:
        return lambda n, key: None
    ends = starts[1:] + [len(lines)]

    def line_of(n: int, key: str | None = None) -> int | None:
        start, end = starts[n - 1], ends[n - 1]
        if key:
            assign = re.compile(rf"""\s*({re.escape(key)}|"{re.escape(key)}"|'{re.escape(key)}')\s*=""")
            found = [i for i in range(start + 1, end) if assign.match(lines[i])]
            if len(found) == 1:
                return found[0] + 1
        return start + 1
    return line_of


def _regular_file_size(path: Path) -> int:
    """The size of a listed source, which must be a regular file in the folder: a link (even to a
    file beside it), a folder, a pipe, a socket or a device is refused, and never opened."""
    try:
        info = os.lstat(path)
    except FileNotFoundError:
        raise LawbookError("source file listed in the manifest is missing", file=str(path),
                           fix=f"restore the file or remove its entry from {MANIFEST}") from None
    except OSError as e:
        raise LawbookError(f"cannot read the file: {e.strerror}", file=str(path),
                           fix="check that the file exists and is readable") from None
    kind = read.file_kind(info.st_mode)
    if kind:
        raise read.not_a_file(path, kind)
    return info.st_size


def _refuse_unlisted(folder: Path, listed: set[str]) -> None:
    """Every entry of the folder is a listed source, a known file (NOT_SOURCES), hidden (a dot name)
    or a folder (never read: the sources are the folder's own files). Anything else is refused by name:
    a file missing from the manifest, and a link, pipe, socket or device, which cannot be a source."""
    for path in sorted(folder.iterdir()):
        if path.name in listed or path.name in NOT_SOURCES or path.name.startswith("."):
            continue
        not_utf8 = read.refused_in(path.name, one_line=False)
        if not_utf8 and read.NOT_UTF8.fullmatch(path.name[not_utf8[0] - 1]):  # TOML text is UTF-8: no entry can name it
            raise LawbookError(f"the name of this file holds {not_utf8[1]}, so sources.toml cannot list it",
                               file=str(path),
                               fix="rename it in UTF-8 (e.g. convmv -f cp1252 -t utf-8 --notest FILE), or move "
                                   "it out of the folder")
        try:
            mode = os.lstat(path).st_mode
        except FileNotFoundError:  # removed while we looked
            continue
        if stat.S_ISDIR(mode):
            continue
        kind = read.file_kind(mode)
        if kind:
            raise read.not_a_file(path, kind, listed=False)
        raise LawbookError("file is not in the manifest", file=str(path),
                           fix=f"add a [[source]] entry for {path.name} to {MANIFEST}, or move the file out of the folder")


def _check_limits(sources: list[Source], sizes: list[int], manifest: Path) -> None:
    """Refuse a source set past the documented limits before anything is read (read.MAX_SOURCE_BYTES
    for one file, MAX_TOTAL_BYTES for all, MAX_SOURCES files), by the sizes the file system gives;
    read.read_bytes enforces the same limits on the bytes it reads."""
    if len(sources) > MAX_SOURCES:
        raise LawbookError(f"the manifest lists {len(sources)} sources, over the limit of {MAX_SOURCES}",
                           file=str(manifest), fix="combine small sources into larger files")
    for source, size in zip(sources, sizes):
        if size > read.MAX_SOURCE_BYTES:
            raise LawbookError(f"the file is {read.size_text(size)}, over the limit of "
                               f"{read.limit_text(read.MAX_SOURCE_BYTES)} for one source", file=str(source.path),
                               fix="split the source into several files, one per part of the book")
    total = sum(sizes)
    if total > MAX_TOTAL_BYTES:
        raise LawbookError(f"the sources together are {read.size_text(total)}, over the limit of "
                           f"{read.limit_text(MAX_TOTAL_BYTES)} for one build", file=str(manifest),
                           fix="build the editions separately, or remove sources that repeat others")
