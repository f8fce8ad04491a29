"""Bytes to lines: encodings, line endings and characters that are not text.

Reads: a source file's bytes: a regular file only, never a symbolic link, folder, pipe or device
(so nothing outside the sources folder is read and nothing blocks), and at most MAX_SOURCE_BYTES
of it, counted as read (the size the file system reports is not trusted: a file can grow while
it is read).
Writes: a list of Line (file name, 1-based number, text without line ending) and the
encoding used (read_source returns both; the Source is never written to).
Encodings (docs/errors.md, "Encodings"): a declared encoding must be one of ALLOWED_ENCODINGS (real text
encodings; never one that makes text of escapes, as unicode_escape does), and a file declared in a
single-byte encoding that holds UTF-8 sequences is refused (read as declared, "é" would be "Ã©").
Guarantees: the same text whatever the line endings (LF, CRLF, CR) and whether the
file is UTF-8 (with or without BOM), UTF-16 with BOM or cp1252; anything else is a
LawbookError that names the file and line and suggests declaring the encoding in
the manifest. Line numbers are those an editor sees: every LF, CRLF or CR ends a line,
nothing else does.

Characters (see docs/errors.md, "Characters"):
  - a form feed or vertical tab (page breaks of a PDF extraction) is read as a space,
    so a line holding only a page break is blank; each is logged as a repair;
  - any other control character (C0, DEL, C1), a bidirectional override, a
    private-use character (the pipeline marks note positions with one) or a
    noncharacter (U+FFFE, U+FFFF; not allowed in XML) is refused: it is never law
    text, and is usually a sign of a wrong encoding or binary data.
"""
import codecs
import errno
import os
import re
import stat
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, field
from os import PathLike
from pathlib import Path
from typing import IO, NoReturn, Protocol

from ..core.errors import LawbookError
from ..core.model import Line as Line  # what this module makes of a source, re-exported for its readers
from ..core.report import BuildLog, shown_name

MIB = 1024 * 1024
# Past this a source is refused rather than read (docs/errors.md, "Limits": the numbers behind it).
MAX_SOURCE_BYTES = 8 * MIB
# Page breaks of a text extraction: read as a space.
PAGE_BREAK = re.compile(r"[\x0b\x0c]")
# Never law text. Tab, LF and CR are text; form feed and vertical tab are handled as PAGE_BREAK.
REFUSED = re.compile("[\x00-\x08\x0e-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\ue000-\uf8ff\ufffe\uffff]")
# A UTF-8 multibyte sequence: its presence means the file was meant as UTF-8, never as cp1252.
UTF8_MULTIBYTE = re.compile(rb"[\xc2-\xdf][\x80-\xbf]|[\xe0-\xef][\x80-\xbf]{2}|[\xf0-\xf4][\x80-\xbf]{3}")
# The start of a UTF-8 sequence cut short: "\xc3" alone (cp1252 "Ã", the first byte of a UTF-8 é, ë, ï …;
# "\xc2", "Â", likewise) or a lead byte with fewer continuation bytes than it needs ("\xe2\x80", "â€").
# Found in a file that is not declared, it is a UTF-8 file damaged there, not cp1252 (docs/errors.md, "Encodings").
UTF8_CUT = re.compile(rb"[\xc2\xc3](?![\x80-\xbf])|[\xe0-\xef][\x80-\xbf](?![\x80-\xbf])"
                      rb"|[\xf0-\xf4][\x80-\xbf]{1,2}(?![\x80-\xbf])")
# The encodings a source may declare (encoding = … in sources.toml), by Python's name of the codec, so
# any alias counts ("latin-1", "iso-8859-1", "windows-1252" …): the encodings law text is exported in.
# Codecs that turn escapes or markup into characters (unicode_escape, raw_unicode_escape, punycode, idna,
# utf-7) are refused: they make text the file does not show, e.g. a literal "\n" becomes a line break.
ALLOWED_ENCODINGS = ("utf-8", "utf-8-sig", "utf-16", "utf-16-le", "utf-16-be", "utf-32", "utf-32-le", "utf-32-be",
                     "ascii", "cp1252", "iso8859-1", "iso8859-15", "cp1250", "iso8859-2", "mac-roman")
# What the messages suggest: the same list by its everyday names.
ALLOWED_SHOWN = "utf-8, utf-8-sig, utf-16(-le/-be), utf-32(-le/-be), ascii, cp1252, latin-1 (iso-8859-1), " \
                "iso-8859-15, cp1250, iso-8859-2, mac-roman"


# What a directory entry that is not a regular file is, in the words of the messages.
KINDS = ((stat.S_ISLNK, "a symbolic link"), (stat.S_ISDIR, "a folder"), (stat.S_ISFIFO, "a named pipe (FIFO)"),
         (stat.S_ISSOCK, "a socket"), (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"))


def file_kind(mode: int) -> str | None:
    """None for a regular file; else what it is ("a symbolic link", "a folder", …), from an lstat mode."""
    if stat.S_ISREG(mode):
        return None
    return next((kind for test, kind in KINDS if test(mode)), "not a regular file")


def not_a_file(path: str | PathLike[str], kind: str, listed: bool = True) -> LawbookError:
    """The error for a source that is `kind` (see file_kind) instead of a regular file; `listed`: named in
    the manifest, else only found in the sources folder."""
    message = f"this is {kind}, not a regular file: sources are read only from regular files in the sources folder"
    if not listed:
        fix = "move it out of the sources folder; a source must be a regular file listed in sources.toml"
    elif kind == "a symbolic link":
        fix = "replace the link by a copy of the file it points to (cp --remove-destination TARGET LINK), " \
              "or remove its entry from sources.toml"
    else:
        fix = "put the text in a regular file and list that, or remove the entry from sources.toml"
    return LawbookError(message, file=str(path), fix=fix)


@dataclass
class Budget:
    """The bytes all sources of one build may hold together, counted as they are read (the manifest
    makes one per build and gives it to each Source)."""
    limit: int
    manifest: str  # named by the error
    read: dict[str, int] = field(default_factory=dict)  # file name -> bytes read
    total: int = 0

    def left(self, name: str) -> int:
        """How many bytes source `name` may still hold (a source read again counts once)."""
        return self.limit - self.total + self.read.get(name, 0)

    def take(self, name: str, size: int) -> None:
        self.total += size - self.read.get(name, 0)
        self.read[name] = size


class SourceFile(Protocol):
    """What reading a source asks of it (manifest.Source, which imports this module, has it)."""
    path: Path
    encoding: str | None  # declared in the manifest
    budget: "Budget | None"

    @property
    def name(self) -> str: ...


def line_of(data: bytes, offset: int) -> int:
    """1-based line of a byte offset, counting LF, CRLF and CR as an editor does."""
    head = data[:offset]
    return head.count(b"\n") + head.count(b"\r") - head.count(b"\r\n") + 1


def decode(data: bytes, name: str, declared: str | None = None) -> tuple[str, str]:
    """Decode `data` (the bytes of source `name`); returns (text, encoding used).

    `declared` is the manifest's encoding = …; without it UTF-8 (BOM or not),
    UTF-16 with BOM and cp1252 are recognised. A file that holds UTF-8 sequences
    but is not valid UTF-8 is damaged or mixes encodings: it is refused, never
    silently read as cp1252.
    """
    utf16 = data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE))
    if declared:
        codec = text_codec(declared, name)
        if not codec.name.startswith(("utf-", "ascii")):
            _refuse_utf8_declared_single_byte(data, declared, codec.name, name)
        try:
            return data.decode(codec.name), declared
        except UnicodeDecodeError as e:
            # Some codecs (idna) decode piece by piece: the position is then in the piece, not in the file.
            line = line_of(data, e.start) if e.object == data else None
            raise LawbookError(f"the file is not {declared}: byte {e.object[e.start]:#04x} cannot be decoded",
                               file=name, line=line,
                               fix="correct the encoding = … entry for this file in sources.toml") from None
        except UnicodeError as e:  # a codec that refuses without a position ("undefined")
            raise LawbookError(f"the file cannot be read as {declared}: {e}", file=name,
                               fix="correct the encoding = … entry for this file in sources.toml") from None
    if b"\x00" in data and not utf16:
        if _looks_like_utf16(data):
            raise LawbookError("the file looks like UTF-16 without a byte order mark", file=name,
                               fix='declare it in sources.toml: encoding = "utf-16-le" (or "utf-16-be"), '
                                   'or save the file as UTF-8')
        raise LawbookError("this is a binary file, not text (it contains NUL bytes)", file=name,
                           line=line_of(data, data.index(b"\x00")),
                           fix="replace it with the text export of the source, or remove it from the manifest")
    if data.startswith(codecs.BOM_UTF8):
        data = data[len(codecs.BOM_UTF8):]
        try:
            return data.decode("utf-8"), "utf-8-sig"
        except UnicodeDecodeError as e:
            _refuse_bad_utf8(data, e, name)
    if utf16:
        try:
            return data.decode("utf-16"), "utf-16"
        except UnicodeDecodeError as e:
            raise LawbookError(f"the file starts as UTF-16 but byte {e.start} cannot be decoded (cut off or damaged)",
                               file=name, fix="export the source again, or save it as UTF-8") from None
    try:
        return data.decode("utf-8"), "utf-8"
    except UnicodeDecodeError as e:
        utf8_error = e
    # Valid UTF-8 up to a sequence cut at the end, or UTF-8 elsewhere in the file: never cp1252.
    if utf8_error.reason == "unexpected end of data" or UTF8_MULTIBYTE.search(data):
        _refuse_bad_utf8(data, utf8_error, name)
    cut = UTF8_CUT.search(data)
    if cut:
        raise LawbookError(f"bytes {cut.group().hex(' ')} are the start of a UTF-8 character cut short "
                           f"(cp1252 would read them as {cut.group().decode('cp1252', 'replace')!r}): the file is "
                           "damaged UTF-8, not cp1252", file=name, line=line_of(data, cut.start()),
                           fix="export the source again as UTF-8, or, when the file really is cp1252, declare "
                               'encoding = "cp1252" in sources.toml')
    try:
        text = data.decode("cp1252")
    except UnicodeDecodeError:
        text = None
    if text is not None:
        return text, "cp1252"
    raise LawbookError(f"unknown encoding: byte {data[utf8_error.start]:#04x} is neither UTF-8 nor cp1252 text",
                       file=name, line=line_of(data, utf8_error.start),
                       fix='declare it in sources.toml, e.g. encoding = "latin-1", or save the file as UTF-8')


def text_codec(encoding: str, name: str) -> codecs.CodecInfo:
    """The codec of `encoding`, a manifest's encoding = …; refused when Python has no such codec or it
    is not a text encoding (rot13, base64, zlib, hex, uu, bz2, quopri: codecs that make no text of bytes)."""
    try:
        codec = codecs.lookup(encoding)
    except LookupError:
        raise LawbookError(f"unknown encoding {encoding!r}", file=name,
                           fix="use a Python codec name such as utf-8, cp1252, latin-1 or utf-16") from None
    if not codec._is_text_encoding:  # the one flag Python keeps for this; str.decode refuses the same codecs
        raise LawbookError(f"{encoding!r} is not a text encoding (the {codec.name} codec does not make text of "
                           "bytes)", file=name, fix="use a text encoding such as utf-8, cp1252, latin-1 or utf-16")
    if codec.name not in ALLOWED_ENCODINGS:
        raise LawbookError(f"{encoding!r} is not an encoding a source may have (the {codec.name} codec is not one "
                           "of the text encodings law text is exported in)", file=name,
                           fix=f"use one of {ALLOWED_SHOWN}")
    return codec


def _refuse_utf8_declared_single_byte(data: bytes, declared: str, codec_name: str, name: str) -> None:
    """A file declared in a single-byte encoding that holds UTF-8 sequences: read as declared, each "é"
    would become "Ã©". Law text in latin-1 or cp1252 never holds such pairs, so the declaration is wrong."""
    # A sequence of that shape that is no UTF-8 (past U+10FFFF, an overlong form, a surrogate: f4 90 80 80)
    # says nothing of the file's encoding.
    found = next((m for m in UTF8_MULTIBYTE.finditer(data) if _is_utf8(m.group())), None)
    if found is None:
        return
    seq = found.group()
    raise LawbookError(f"the file is declared {declared}, but bytes {seq.hex(' ')} are UTF-8 for "
                       f"{seq.decode('utf-8')!r}; read as {declared} they would be {seq.decode(codec_name, 'replace')!r}",
                       file=name, line=line_of(data, found.start()),
                       fix="the file is UTF-8: remove the encoding = … entry for this file in sources.toml "
                           '(or write encoding = "utf-8")')


def _is_utf8(seq: bytes) -> bool:
    try:
        seq.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def _looks_like_utf16(data: bytes) -> bool:
    """Text in UTF-16 without a BOM: NUL at every other byte of ASCII characters."""
    sample = data[:4096]
    return len(sample) >= 4 and (sample[1::2].count(0) > len(sample) // 4 or sample[0::2].count(0) > len(sample) // 4)


def _refuse_bad_utf8(data: bytes, error: UnicodeDecodeError, name: str) -> NoReturn:
    line = line_of(data, error.start)
    if error.end >= len(data) and len(data) - error.start < 4:
        raise LawbookError("the file ends in the middle of a UTF-8 character: it was cut off", file=name, line=line,
                           fix="export or copy the source again; its end is missing")
    raise LawbookError(f"byte {data[error.start]:#04x} is not UTF-8, but the rest of the file is: the file is damaged "
                       "or mixes encodings", file=name, line=line,
                       fix="retype the characters on that line in UTF-8, or declare the file's encoding in sources.toml")


def open_regular(path: str | PathLike[str], refuse: Callable[[str], Exception]) -> IO[bytes]:
    """`path` opened for reading (a binary file) if it is a regular file; else raises refuse(kind).

    Checked with lstat before the open, so a pipe or a device is never opened, and with fstat on the
    open file, which is opened without following a link and without waiting for a pipe's writer: a
    file replaced by a link or a pipe in between is refused too, and nothing blocks.
    """
    kind = file_kind(os.lstat(path).st_mode)
    if kind:
        raise refuse(kind)
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError as e:
        if e.errno == errno.ELOOP:
            raise refuse("a symbolic link") from None
        raise
    f = os.fdopen(fd, "rb")
    kind = file_kind(os.fstat(fd).st_mode)
    if kind:
        f.close()
        raise refuse(kind)
    return f


def read_regular(path: str | PathLike[str], refuse: Callable[[str], Exception], limit: int,
                 too_big: Callable[[int], Exception], most: int | None = None) -> tuple[bytes, int]:
    """(at most limit + 1 bytes of `path`, the size fstat gave) for a regular file (see open_regular:
    refuse(kind) otherwise); too_big(size) is raised, before reading, when the file system gives a size
    past `most` (MAX_SOURCE_BYTES when None). The caller compares the length with its limit: a file may
    hold more than its size says. Every input a command reads goes through here (sources, a
    --reference, align's books)."""
    with open_regular(path, refuse) as f:
        size = os.fstat(f.fileno()).st_size
        if size > (MAX_SOURCE_BYTES if most is None else most):
            raise too_big(size)
        return f.read(limit + 1), size


def read_bytes(source: SourceFile) -> bytes:
    """A source's bytes (see open_regular), refused past MAX_SOURCE_BYTES, or past what source.budget
    (the build's total) has left, counted as they are read: a file may hold more than its size says."""
    name = str(source.path)
    budget = getattr(source, "budget", None)
    limit = MAX_SOURCE_BYTES if budget is None else min(MAX_SOURCE_BYTES, budget.left(source.name))
    try:
        data, size = read_regular(source.path, lambda kind: not_a_file(name, kind), limit,
                                  lambda size: _too_big(name, f"the file is {size_text(size)}"))
    except FileNotFoundError:
        raise LawbookError("source file listed in the manifest is missing", file=name,
                           fix="restore the file or remove its entry from sources.toml") from None
    except OSError as e:
        raise LawbookError(f"cannot read the file: {e.strerror}", file=name,
                           fix="check that the file exists and is readable") from None
    if len(data) > MAX_SOURCE_BYTES:
        raise _too_big(name, f"more than {limit_text(MAX_SOURCE_BYTES)} could be read from the file",
                       f" (the file system gave its size as {size_text(size)}: it grows, or is not an ordinary file)")
    if budget is not None and len(data) > limit:  # without a budget the limit is MAX_SOURCE_BYTES, checked above
        raise LawbookError(f"the sources together are over the limit of {limit_text(budget.limit)} for one build "
                           f"(counted as they were read; {shown_name(source.name)} passed it)", file=budget.manifest,
                           fix="build the editions separately, or remove sources that repeat others")
    if budget is not None:
        budget.take(source.name, len(data))
    return data


def _too_big(name: str, what: str, why: str = "") -> LawbookError:
    return LawbookError(f"{what}, over the limit of {limit_text(MAX_SOURCE_BYTES)} for one source{why}", file=name,
                        fix="split the source into several files, one per part of the book")


def size_text(n: int) -> str:
    """A size in the messages: 5.0 MiB, or bytes below a tenth of a MiB (tests set small limits)."""
    return f"{n / MIB:.1f} MiB" if n >= MIB // 10 else f"{n} bytes"


def limit_text(n: int) -> str:
    """A limit in the messages: 8 MiB, or as size_text when it is not a whole number of MiB."""
    return f"{n // MIB} MiB" if n and n % MIB == 0 else size_text(n)


def read_lines(source: SourceFile, log: BuildLog | None = None, data: bytes | None = None) -> list[Line]:
    """The Lines of read_source() alone."""
    return read_source(source, log, data)[0]


def read_source(source: SourceFile, log: BuildLog | None = None, data: bytes | None = None) -> tuple[list[Line], str]:
    """Read one Source into (Lines, the encoding they were read with), from `data`, its bytes, when the
    caller has them already; page breaks are logged to `log` (a BuildLog) when given.

    Errors name the file by its path, so an editor can open it; Lines and the report name it by
    its file name, as the manifest does.
    """
    name = str(source.path)
    if data is None:
        data = read_bytes(source)
    if data.startswith(b"%PDF-") and not source.encoding:  # the printed book's PDF: read from its characters
        from .book import pdf
        printed: list[Line] = list(pdf.page_lines(data, name, source.name))
        return printed, "pdf"
    if data.startswith((b"PK\x03\x04", b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1")) and not source.encoding:
        from . import docx_package  # a Word file (a zip; an OLE file is an encrypted one or a .doc): its paragraphs
        paragraphs: list[Line] = list(docx_package.paragraph_lines(data, name, source.name, refused_in))
        return paragraphs, "docx"
    text, encoding = decode(data, name, source.encoding)
    del data
    if not text.strip():
        raise LawbookError("the file is empty" if not text else "the file holds only blank lines", file=name,
                           fix="put the exported text in the file, or remove it from the manifest")
    if text.startswith("\ufeff"):  # a BOM left by a declared encoding
        text = text[1:]
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    bad = REFUSED.search(text)
    if bad:
        _refuse_character(text, bad, name)
    lines: list[Line] = []
    flog = log.for_file(source.name) if log is not None else None
    for n, t in enumerate(text.split("\n"), 1):
        page_break = bool(PAGE_BREAK.search(t))
        if page_break:
            if flog is not None:
                flog.repair(n, "page break (form feed) read as a space", t, PAGE_BREAK.sub(" ", t))
            t = PAGE_BREAK.sub(" ", t)
        lines.append(Line(source.name, n, t, page_break))
    return lines, encoding


def _refuse_character(text: str, bad: re.Match[str], name: str) -> NoReturn:
    start = text.rfind("\n", 0, bad.start()) + 1
    line = text.count("\n", 0, bad.start()) + 1
    what, why, fix = refused_character(bad.group())
    raise LawbookError(f"{what} at column {bad.start() - start + 1}" + (f": {why}" if why else ""),
                       file=name, line=line, fix=fix)


# What Python makes of bytes that are not UTF-8 in a name the file system gives (os.fsdecode's lone
# surrogates, U+DC80-U+DCFF): never text.
NOT_UTF8 = re.compile("[\ud800-\udfff]")
LINE_BREAK = re.compile("[\n\r]")


def refused_in(value: str, one_line: bool = True) -> tuple[int, str, str, str] | None:
    """(where, what, why, fix) for the first character of `value` that a text the build takes from a file
    besides a source's lines (a file name and the texts of sources.toml, a value of corrections.toml) may
    not hold, by the rule of a source's text (REFUSED, said by refused_character), with `where` its place
    in `value` from 1; None for plain text. A page break is refused too (a source reads it as a space,
    which such a text would not show), and so are the lone surrogates that stand for bytes that are not
    UTF-8 and, where `one_line`, a line break."""
    found = [m for m in (REFUSED.search(value), PAGE_BREAK.search(value), NOT_UTF8.search(value),
                         LINE_BREAK.search(value) if one_line else None) if m]
    if not found:
        return None
    bad = min(found, key=lambda m: m.start())
    char = bad.group()
    if LINE_BREAK.fullmatch(char):
        return bad.start() + 1, "a line break", "a value is one line", "write the value on one line"
    if NOT_UTF8.fullmatch(char):
        byte = f"byte {ord(char) - 0xdc00:#04x}" if 0xdc80 <= ord(char) <= 0xdcff else f"U+{ord(char):04X}"
        return (bad.start() + 1, f"{byte}, which is not UTF-8", "a name or a text of the manifest is UTF-8 text",
                "rename it in UTF-8 (e.g. with convmv -f cp1252 -t utf-8)")
    what, why, fix = refused_character(char)
    return bad.start() + 1, what, why, fix


def refused_character(char: str) -> tuple[str, str, str]:
    """What a character REFUSED matches is, in the words of the messages: (what it is with its code,
    why it is refused or "", what to do). Every text the build takes from a file refuses by this rule."""
    name_of_char = unicodedata.name(char, "")  # control characters have no name
    code = f"U+{ord(char):04X}" + (f" ({name_of_char.lower()})" if name_of_char else "")
    if "\u202a" <= char <= "\u202e" or "\u2066" <= char <= "\u2069":
        return (f"bidirectional control {code}", "it makes text display in another order than it reads",
                "remove it; law text needs no direction controls")
    if "\ue000" <= char <= "\uf8ff":
        return f"private-use character {code}", "no law text uses it", "remove it or replace it by the character it stands for"
    if char in "\ufffe\uffff":
        return f"noncharacter {code}", "", "remove it; it is not text (a damaged export may be the cause)"
    return (f"control character {code}", "",
            "remove it; it is not law text (a wrong encoding or binary data may be the cause)")
