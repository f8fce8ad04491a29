"""Bytes to lines: encodings and line endings, nothing else.

Reads: a source file's bytes.
Writes: a list of Line (file name, 1-based number, text without line ending).
Guarantees: the same text whatever the line endings (LF, CRLF, CR) and whether the
file is UTF-8 (with or without BOM), UTF-16 with BOM or cp1252; anything else is a
LawbookError that suggests declaring the encoding in the manifest.
"""
import codecs
import re
from dataclasses import dataclass

from .errors import LawbookError

# Past this a source is refused rather than read (see README, "Errors and limits").
MAX_SOURCE_BYTES = 64 * 1024 * 1024
# Control characters other than tab: never in law text, a sign of a wrong encoding or binary data.
CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")


@dataclass(frozen=True)
class Line:
    file: str
    num: int
    text: str

    @property
    def blank(self):
        return not self.text.strip()


def decode(data, name, declared=None):
    """Decode `data`; returns (text, encoding used)."""
    if b"\x00" in data and not data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        raise LawbookError("this is a binary file, not text", file=name,
                           fix="replace it with the text export of the source, or remove it from the manifest")
    if declared:
        try:
            return data.decode(declared), declared
        except LookupError:
            raise LawbookError(f"unknown encoding {declared!r} in the manifest", file=name,
                               fix="use a Python codec name such as utf-8 or cp1252") from None
        except UnicodeDecodeError as e:
            line = data[: e.start].count(b"\n") + 1
            raise LawbookError(f"the file is not {declared} (byte {data[e.start]:#04x})", file=name, line=line,
                               fix="correct the encoding = … entry for this file in sources.toml") from None
    if data.startswith(codecs.BOM_UTF8):
        return data[3:].decode("utf-8", errors="strict"), "utf-8-sig"
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        return data.decode("utf-16"), "utf-16"
    try:
        return data.decode("utf-8"), "utf-8"
    except UnicodeDecodeError as e:
        utf8_error = e
    try:
        text = data.decode("cp1252")
    except UnicodeDecodeError:
        text = None
    if text is not None and not CONTROL.search(text):
        return text, "cp1252"
    line = data[: utf8_error.start].count(b"\n") + 1
    raise LawbookError(f"unknown encoding: byte {data[utf8_error.start]:#04x} is neither UTF-8 nor cp1252 text",
                       file=name, line=line,
                       fix='declare it in sources.toml, e.g. encoding = "latin-1", or save the file as UTF-8')


def read_lines(source):
    """Read one Source into Lines."""
    name = source.name
    size = source.path.stat().st_size
    if size > MAX_SOURCE_BYTES:
        raise LawbookError(f"the file is {size // (1024 * 1024)} MiB, over the limit of "
                           f"{MAX_SOURCE_BYTES // (1024 * 1024)} MiB for one source", file=name,
                           fix="split the source into several files, one per part of the book")
    data = source.path.read_bytes()
    text, _ = decode(data, name, source.encoding)
    if not text.strip():
        raise LawbookError("the file is empty", file=name,
                           fix="put the exported text in the file, or remove it from the manifest")
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    bad = CONTROL.search(text)
    if bad:
        line = text[: bad.start()].count("\n") + 1
        raise LawbookError(f"control character U+{ord(bad.group()):04X} in the text", file=name, line=line,
                           fix="remove it; it is not law text (a wrong encoding or binary data may be the cause)")
    return [Line(name, n, t) for n, t in enumerate(text.split("\n"), 1)]
