"""Bytes to lines: encodings, line endings and characters that are not text.

Reads: a source file's bytes.
Writes: a list of Line (file name, 1-based number, text without line ending);
source.detected is set to the encoding used.
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
import re
import unicodedata
from dataclasses import dataclass

from .errors import LawbookError

MIB = 1024 * 1024
# Past this a source is refused rather than read (docs/errors.md, "Limits": the numbers behind it).
MAX_SOURCE_BYTES = 8 * MIB
# Page breaks of a text extraction: read as a space.
PAGE_BREAK = re.compile(r"[\x0b\x0c]")
# Never law text. Tab, LF and CR are text; form feed and vertical tab are handled as PAGE_BREAK.
REFUSED = re.compile("[\x00-\x08\x0e-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\ue000-\uf8ff\ufffe\uffff]")
# A UTF-8 multibyte sequence: its presence means the file was meant as UTF-8, never as cp1252.
UTF8_MULTIBYTE = re.compile(rb"[\xc2-\xdf][\x80-\xbf]|[\xe0-\xef][\x80-\xbf]{2}|[\xf0-\xf4][\x80-\xbf]{3}")


@dataclass(frozen=True)
class Line:
    file: str
    num: int
    text: str

    @property
    def blank(self):
        return not self.text.strip()


def _line_of(data, offset):
    """1-based line of a byte offset, counting LF, CRLF and CR as an editor does."""
    head = data[:offset]
    return head.count(b"\n") + head.count(b"\r") - head.count(b"\r\n") + 1


def decode(data, name, declared=None):
    """Decode `data` (the bytes of source `name`); returns (text, encoding used).

    `declared` is the manifest's encoding = …; without it UTF-8 (BOM or not),
    UTF-16 with BOM and cp1252 are recognised. A file that holds UTF-8 sequences
    but is not valid UTF-8 is damaged or mixes encodings: it is refused, never
    silently read as cp1252.
    """
    utf16 = data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE))
    if declared:
        try:
            codec = codecs.lookup(declared)
        except LookupError:
            raise LawbookError(f"unknown encoding {declared!r} in the manifest", file=name,
                               fix="use a Python codec name such as utf-8, cp1252, latin-1 or utf-16") from None
        try:
            return data.decode(codec.name), declared
        except UnicodeDecodeError as e:
            raise LawbookError(f"the file is not {declared}: byte {data[e.start]:#04x} cannot be decoded",
                               file=name, line=_line_of(data, e.start),
                               fix="correct the encoding = … entry for this file in sources.toml") from None
    if b"\x00" in data and not utf16:
        if _looks_like_utf16(data):
            raise LawbookError("the file looks like UTF-16 without a byte order mark", file=name,
                               fix='declare it in sources.toml: encoding = "utf-16-le" (or "utf-16-be"), '
                                   'or save the file as UTF-8')
        raise LawbookError("this is a binary file, not text (it contains NUL bytes)", file=name,
                           line=_line_of(data, data.index(b"\x00")),
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
    try:
        text = data.decode("cp1252")
    except UnicodeDecodeError:
        text = None
    if text is not None:
        return text, "cp1252"
    raise LawbookError(f"unknown encoding: byte {data[utf8_error.start]:#04x} is neither UTF-8 nor cp1252 text",
                       file=name, line=_line_of(data, utf8_error.start),
                       fix='declare it in sources.toml, e.g. encoding = "latin-1", or save the file as UTF-8')


def _looks_like_utf16(data):
    """Text in UTF-16 without a BOM: NUL at every other byte of ASCII characters."""
    sample = data[:4096]
    return len(sample) >= 4 and (sample[1::2].count(0) > len(sample) // 4 or sample[0::2].count(0) > len(sample) // 4)


def _refuse_bad_utf8(data, error, name):
    line = _line_of(data, error.start)
    if error.end >= len(data) and len(data) - error.start < 4:
        raise LawbookError("the file ends in the middle of a UTF-8 character: it was cut off", file=name, line=line,
                           fix="export or copy the source again; its end is missing")
    raise LawbookError(f"byte {data[error.start]:#04x} is not UTF-8, but the rest of the file is: the file is damaged "
                       "or mixes encodings", file=name, line=line,
                       fix="retype the characters on that line in UTF-8, or declare the file's encoding in sources.toml")


def read_bytes(source):
    """A source's bytes, refused past MAX_SOURCE_BYTES before they are read."""
    name = str(source.path)
    try:
        size = source.path.stat().st_size
        if size > MAX_SOURCE_BYTES:
            raise LawbookError(f"the file is {size / MIB:.1f} MiB, over the limit of "
                               f"{MAX_SOURCE_BYTES // MIB} MiB for one source", file=name,
                               fix="split the source into several files, one per part of the book")
        return source.path.read_bytes()
    except OSError as e:
        raise LawbookError(f"cannot read the file: {e.strerror}", file=name,
                           fix="check that the file exists and is readable") from None


def read_lines(source, log=None, data=None):
    """Read one Source into Lines (from `data`, its bytes, when the caller has them already); page
    breaks are logged to `log` (a BuildLog) when given.

    Errors name the file by its path, so an editor can open it; Lines and the report name it by
    its file name, as the manifest does.
    """
    name = str(source.path)
    if data is None:
        data = read_bytes(source)
    text, source.detected = decode(data, name, source.encoding)
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
    lines = []
    flog = log.for_file(source.name) if log is not None else None
    for n, t in enumerate(text.split("\n"), 1):
        if PAGE_BREAK.search(t):
            if flog is not None:
                flog.repair(n, "page break (form feed) read as a space", t, PAGE_BREAK.sub(" ", t))
            t = PAGE_BREAK.sub(" ", t)
        lines.append(Line(source.name, n, t))
    return lines


def _refuse_character(text, bad, name):
    start = text.rfind("\n", 0, bad.start()) + 1
    line = text.count("\n", 0, bad.start()) + 1
    char = bad.group()
    name_of_char = unicodedata.name(char, "")  # control characters have no name
    code = f"U+{ord(char):04X}" + (f" ({name_of_char.lower()})" if name_of_char else "")
    column = bad.start() - start + 1
    if "\u202a" <= char <= "\u202e" or "\u2066" <= char <= "\u2069":
        message = f"bidirectional control {code} at column {column}: it makes text display in another order than it reads"
        fix = "remove it; law text needs no direction controls"
    elif "\ue000" <= char <= "\uf8ff":
        message = f"private-use character {code} at column {column}: no law text uses it"
        fix = "remove it or replace it by the character it stands for"
    elif char in "\ufffe\uffff":
        message = f"noncharacter {code} at column {column}"
        fix = "remove it; it is not text (a damaged export may be the cause)"
    else:
        message = f"control character {code} at column {column}"
        fix = "remove it; it is not law text (a wrong encoding or binary data may be the cause)"
    raise LawbookError(message, file=name, line=line, fix=fix)
