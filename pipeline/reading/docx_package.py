"""A Word file (.docx) opened, checked and turned into Lines: one DocxLine per paragraph (docs/sources.md,
"Word files (.docx)").

Reads: a source's bytes that start as a zip (decode.read_source hands them here) or as an OLE compound file
(an encrypted Word file, or a Word 97-2003 .doc: refused). Of the package only these members are read, by
their fixed names, never by a name the package gives: [Content_Types].xml, word/document.xml,
word/styles.xml, word/numbering.xml, word/footnotes.xml, word/comments.xml, and the relationships
(_rels/.rels, word/_rels/NAME.xml.rels). Nothing is extracted to disk and no target is ever followed or
fetched.
Writes: DocxLines, numbered from 1 in the order a reader reads them, so that "line N" is paragraph N of the
document (a table row is one line, its cells in `cells`); after the body's lines come the footnotes'
paragraphs (in the order of their markers) and then the comments' (in the order of their anchors). Each line
carries its paragraph's style, heading level, Word's automatic number as the reader sees it (`label`, resolved
from numbering.xml by Numbering) and its footnote markers (NOTE_MARK in the text, their ids in `notes`).

Refused, each by one LawbookError naming the file (and the paragraph where there is one), with the fix:
a damaged or cut-off zip, a zip that is no Word document, an encrypted file, a macro document (.docm, a
vbaProject), a package past the limits (members, sizes, compression ratio: checked on the zip's headers and
again on the bytes as they unpack), XML with a DTD, tracked changes, endnotes, imported or linked content
(altChunk, subdocuments, and every external relationship but hyperlinks, the attached template and linked
images, which are never fetched), Strict Open XML, and characters law text never holds (decode's rule).
"""
import io
import re
import zipfile
from pathlib import PurePosixPath
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from lxml import etree

from ..core.errors import LawbookError
from ..core.model import NOTE_MARK, Line

ZIP = b"PK\x03\x04"
OLE = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
SIGNATURES = (ZIP, OLE)
MIB = 1024 * 1024
# Limits of one package (a Word file of the whole book is some MiB of XML; these are far past it): members,
# one member unpacked, all members unpacked (the headers' sizes, and the parts read counted as they unpack),
# and the compression ratio of a member past RATIO_FROM (Word's XML packs some 10 to 1; a zip bomb 1000 to 1).
MAX_MEMBERS = 1000
MAX_MEMBER = 32 * MIB
MAX_UNPACKED = 64 * MIB
MAX_RATIO = 100
RATIO_FROM = 1 * MIB
MAX_START = 32767  # the highest number Word starts a list at

W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
STRICT = "http://purl.oclc.org/ooxml/wordprocessingml/main"
CT = "http://schemas.openxmlformats.org/package/2006/content-types"
RELS = "http://schemas.openxmlformats.org/package/2006/relationships"
MC = "http://schemas.openxmlformats.org/markup-compatibility/2006"
MAIN = "application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"
MACRO_TYPES = ("application/vnd.ms-word.document.macroEnabled.main+xml",
               "application/vnd.ms-word.template.macroEnabledTemplate.main+xml",
               "application/vnd.ms-office.vbaProject", "application/vnd.ms-word.vbaData+xml")
DOCUMENT = "word/document.xml"
PARTS = ("word/styles.xml", "word/numbering.xml", "word/footnotes.xml", "word/comments.xml")
RELS_MEMBER = re.compile(r"^(?:_rels/\.rels|word/_rels/[A-Za-z0-9_]+\.xml\.rels)$")
# External relationships that are read as the rest of the document and never fetched: a hyperlink (its words
# are the text), the template the document was made from (its styles are copied into styles.xml) and a linked
# picture (no text). Any other external target (a subdocument, an imported chunk, an OLE object, a frame …)
# holds what Word shows of the document, which lawbook does not have: refused.
IGNORED_EXTERNAL = ("hyperlink", "attachedTemplate", "image")
FIX_SAVE = "open the file in Word and save it again as a Word Document (.docx)"
FIX_TRACKED = "accept or reject all tracked changes in Word (Review → Accept all changes), save, and build again"
# Tracked changes, by their element, in the words of the message.
REVISIONS = {"ins": "an insertion", "del": "a deletion", "moveFrom": "a move", "moveTo": "a move",
             "moveFromRangeStart": "a move", "moveToRangeStart": "a move", "rPrChange": "a formatting change",
             "pPrChange": "a formatting change", "sectPrChange": "a formatting change",
             "tblPrChange": "a formatting change", "tblPrExChange": "a formatting change",
             "tblGridChange": "a formatting change", "trPrChange": "a formatting change",
             "tcPrChange": "a formatting change", "numberingChange": "a numbering change",
             "cellIns": "an inserted table cell", "cellDel": "a deleted table cell", "cellMerge": "merged table cells",
             "customXmlInsRangeStart": "an insertion", "customXmlDelRangeStart": "a deletion"}
REVISION_TAGS = tuple(f"{{{W}}}{name}" for name in REVISIONS)
# Symbol-font characters Word's Insert Symbol gives for the suits (w:sym w:font="Symbol").
SYMBOL_SUITS = {0xA7: "♣", 0xA8: "♦", 0xA9: "♥", 0xAA: "♠"}
# Elements of a paragraph whose content is no text of it (properties, drawings, field codes, marks).
SKIPPED = {"pPr", "rPr", "instrText", "delInstrText", "footnoteRef", "endnoteRef", "annotationRef", "separator",
           "continuationSeparator", "lastRenderedPageBreak", "proofErr", "bookmarkStart", "bookmarkEnd",
           "commentRangeEnd", "permStart", "permEnd", "sdtPr", "sdtEndPr", "rubyPr", "rt", "softHyphen",
           "dayShort", "dayLong", "monthShort", "monthLong", "yearShort", "yearLong", "pgNum", "fldData"}
SPACES = {"tab": " ", "ptab": " ", "br": " ", "cr": " ", "noBreakHyphen": "-"}
ROMAN = ((1000, "m"), (900, "cm"), (500, "d"), (400, "cd"), (100, "c"), (90, "xc"), (50, "l"), (40, "xl"),
         (10, "x"), (9, "ix"), (5, "v"), (4, "iv"), (1, "i"))

# A character a source's text may not hold: (where, what, why, fix) or None (decode.refused_in, given by the
# caller: decode imports this module).
Refused = Callable[[str], "tuple[int, str, str, str] | None"]


def w(name: str) -> str:
    return f"{{{W}}}{name}"


@dataclass(frozen=True)
class DocxLine(Line):
    """One paragraph of a Word file (or a table's row) and what Word knows of it."""
    part: str = "body"  # "body", "table" (a row), "footnote" or "comment"
    style: str = ""  # the paragraph style's name (its id where styles.xml names none)
    heading: int | None = None  # its outline level (0: Heading 1), from its style or its own properties
    title: bool = False  # the document's Title or Subtitle
    contents: bool = False  # an entry (or the heading) of Word's table of contents
    label: str = ""  # Word's automatic number as the reader sees it: "A.", "1.", "(a)", "Artikel 53"
    label_format: str = ""  # its level's numFmt: decimal, lowerLetter, upperLetter, lowerRoman, …
    label_value: int | None = None  # its own level's number (1 for "A.", "1.", "(a)", "(i)")
    label_level: int | None = None  # its level in the list (w:ilvl, 0 the outermost)
    notes: tuple[tuple[str, str], ...] = ()  # (footnote id, number shown), one per NOTE_MARK in the text
    cells: tuple[str, ...] = ()  # a table row's cells, left to right
    table: int = 0  # a table row's table (1 for the document's first)
    owner: str = ""  # a footnote's or comment's paragraph: that footnote's or comment's id
    author: str = ""  # a comment's paragraph: the comment's author as Word gives it
    anchor: int = 0  # a footnote's or comment's paragraph: the body line it is marked or anchored at
    comments: tuple[str, ...] = ()  # the comments anchored in this paragraph (by id)
    hidden: str = ""  # text in hidden runs (Word's hidden font): left out
    left_out: tuple[str, ...] = ()  # what the paragraph holds that is not read ("a text box", "an equation")


def is_docx_lines(lines: list[Line]) -> bool:
    """Lines made by paragraph_lines: the source was a Word file."""
    return bool(lines) and isinstance(lines[0], DocxLine)


# -- numbering ---------------------------------------------------------------------------------------------
def number_text(n: int, fmt: str) -> str:
    """`n` as Word writes it in the number format `fmt` (w:numFmt); formats the law never uses read as decimal."""
    if fmt in ("bullet", "none"):
        return ""
    if fmt in ("lowerLetter", "upperLetter") and n > 0:
        letters = chr(ord("a") + (n - 1) % 26) * ((n - 1) // 26 + 1)  # a … z, aa … zz, aaa …
        return letters.upper() if fmt == "upperLetter" else letters
    if fmt in ("lowerRoman", "upperRoman") and n > 0:
        out, left = "", n
        for value, numeral in ROMAN:
            count, left = divmod(left, value)
            out += numeral * count
        return out.upper() if fmt == "upperRoman" else out
    if fmt == "decimalZero":
        return f"{n:02d}"
    return str(n)


@dataclass(frozen=True)
class Level:
    """One level of a list (w:lvl)."""
    fmt: str = "decimal"
    start: int = 0  # w:start; 0 where it is left out, as the standard says
    text: str = ""  # w:lvlText: "%1.", "(%2)", "Artikel %1"
    restart: int | None = None  # w:lvlRestart: None restarts after any higher level, 0 never, n after level n
    legal: bool = False  # w:isLgl: every level's number in decimal


def _level(lvl: etree._Element, where: str) -> Level:
    def val(name: str) -> str | None:
        el = lvl.find(w(name))
        return None if el is None else el.get(w("val"))

    start = _int(val("start"), 0, where)
    restart = val("lvlRestart")
    legal = lvl.find(w("isLgl"))
    return Level(fmt=val("numFmt") or "decimal", start=start, text=val("lvlText") or "",
                 restart=None if restart is None else _int(restart, 0, where),
                 legal=legal is not None and _on(legal))


def _int(value: str | None, default: int, where: str) -> int:
    if value is None:
        return default
    try:
        n = int(value)
    except ValueError:
        raise LawbookError(f"{where}: {value!r} is not a number", fix=FIX_SAVE) from None
    if not 0 <= n <= MAX_START:
        raise LawbookError(f"{where}: {n} is past the numbers Word numbers a list with (0 to {MAX_START})",
                           fix="correct the list's numbering in Word (Define New Number Format), save, and build again")
    return n


class Numbering:
    """Word's automatic numbering (numbering.xml) resolved to what the reader sees, paragraph after paragraph.

    A list (w:num) takes its levels from its w:abstractNum, a level replaced where the list overrides it
    (w:lvlOverride/w:lvl). Lists of one abstractNum count on together, as Word counts them; a list that starts a
    level again (w:startOverride) has counters of its own, from its override. Numbering a paragraph at a level
    starts the levels below it again (after w:lvlRestart where a level says otherwise)."""

    def __init__(self, root: etree._Element | None, style_numbering: Callable[[str], "tuple[str, int | None] | None"]
                 | None = None) -> None:
        self.abstract: dict[str, dict[int, Level]] = {}
        self.links: dict[str, str] = {}  # abstractNum id -> the numbering style it takes its levels from
        self.nums: dict[str, tuple[str, dict[int, int], dict[int, Level]]] = {}  # id -> abstract, starts, levels
        self.counters: dict[str, list[int | None]] = {}
        self.style_numbering = style_numbering
        if root is None:
            return
        for a in root.iter(w("abstractNum")):
            aid = a.get(w("abstractNumId")) or ""
            self.abstract[aid] = {_int(lvl.get(w("ilvl")), 0, "numbering.xml"): _level(lvl, "numbering.xml")
                                  for lvl in a.findall(w("lvl"))}
            link = a.find(w("numStyleLink"))
            if link is not None and link.get(w("val")):
                self.links[aid] = link.get(w("val")) or ""
        for num in root.iter(w("num")):
            ref = num.find(w("abstractNumId"))
            starts: dict[int, int] = {}
            levels: dict[int, Level] = {}
            for override in num.findall(w("lvlOverride")):
                ilvl = _int(override.get(w("ilvl")), 0, "numbering.xml")
                start = override.find(w("startOverride"))
                if start is not None:
                    starts[ilvl] = _int(start.get(w("val")), 0, "numbering.xml")
                lvl = override.find(w("lvl"))
                if lvl is not None:
                    levels[ilvl] = _level(lvl, "numbering.xml")
            self.nums[num.get(w("numId")) or ""] = ("" if ref is None else ref.get(w("val")) or "", starts, levels)

    def levels(self, num_id: str) -> dict[int, Level]:
        """The levels of list `num_id`: its abstractNum's (through a numbering style's link), its overrides."""
        aid, _, overrides = self.nums.get(num_id, ("", {}, {}))
        levels = self.abstract.get(aid, {})
        if not levels and aid in self.links and self.style_numbering is not None:
            linked = self.style_numbering(self.links[aid])
            if linked is not None and linked[0] in self.nums and linked[0] != num_id:
                levels = self.abstract.get(self.nums[linked[0]][0], {})
        return {**levels, **overrides}

    def next(self, num_id: str, ilvl: int) -> tuple[str, str, int] | None:
        """(the label the reader sees, the level's numFmt, the level's number) of the next paragraph of list
        `num_id` at level `ilvl`; None where the list or the level is not defined (the paragraph has no number)."""
        if num_id not in self.nums:
            return None
        levels = self.levels(num_id)
        if ilvl not in levels:
            return None
        aid, starts, _ = self.nums[num_id]
        key = f"num {num_id}" if starts else f"abstract {aid}"
        counters = self.counters.get(key)
        if counters is None:
            counters = self.counters[key] = [None] * 10
        start = {k: starts.get(k, level.start) for k, level in levels.items()}
        value = start[ilvl] if counters[ilvl] is None else (counters[ilvl] or 0) + 1
        counters[ilvl] = value
        for deeper in range(ilvl + 1, 10):
            restart = levels[deeper].restart if deeper in levels else None
            if restart is None or (restart and ilvl < restart):
                counters[deeper] = None
        level = levels[ilvl]
        if level.fmt == "bullet":
            return "", "bullet", value

        def shown(m: re.Match[str]) -> str:
            k = int(m.group(1)) - 1
            if k not in levels:
                return ""
            n = counters[k] if counters[k] is not None else start[k]
            fmt = "decimal" if level.legal and k != ilvl else levels[k].fmt
            return number_text(n or 0, fmt)
        return re.sub(r"%([1-9])", shown, level.text).strip(), level.fmt, value


# -- styles ------------------------------------------------------------------------------------------------
@dataclass
class _Style:
    name: str
    based_on: str | None
    outline: int | None
    num: tuple[str, int | None] | None


class Styles:
    """The paragraph styles of styles.xml: each style's heading level and numbering, through `basedOn`."""

    def __init__(self, root: etree._Element | None) -> None:
        self.styles: dict[str, _Style] = {}
        self.default: str | None = None
        if root is None:
            return
        for s in root.iter(w("style")):
            if s.get(w("type")) not in ("paragraph", "numbering"):
                continue
            sid = s.get(w("styleId")) or ""
            name = s.find(w("name"))
            based = s.find(w("basedOn"))
            ppr = s.find(w("pPr"))
            self.styles[sid] = _Style(name="" if name is None else name.get(w("val")) or "",
                                      based_on=None if based is None else based.get(w("val")),
                                      outline=_outline(ppr), num=_num_pr(ppr))
            if s.get(w("default")) in ("1", "true", "on") and s.get(w("type")) == "paragraph":
                self.default = sid

    def chain(self, sid: str | None) -> Iterator[tuple[str, _Style | None]]:
        """The style `sid` and the styles it is based on, each once (a loop of basedOn ends)."""
        seen: set[str] = set()
        sid = sid or self.default
        while sid and sid not in seen and len(seen) < 50:
            seen.add(sid)
            style = self.styles.get(sid)
            yield sid, style
            sid = style.based_on if style is not None else None

    def name(self, sid: str | None) -> str:
        for key, style in self.chain(sid):
            return style.name if style is not None and style.name else key
        return ""

    def heading(self, sid: str | None) -> int | None:
        """The outline level of style `sid`: its own w:outlineLvl, or a built-in heading's by its name or id
        ("heading 1", "Heading1"), or its base style's; None for body text (level 9)."""
        for key, style in self.chain(sid):
            if style is not None and style.outline is not None:
                return style.outline if style.outline < 9 else None
            name = style.name if style is not None else ""
            m = re.fullmatch(r"heading ([1-9])", name, re.IGNORECASE) or re.fullmatch(r"Heading([1-9])", key)
            if m:
                return int(m.group(1)) - 1
        return None

    def kind(self, sid: str | None) -> str:
        """"title" for a Title or Subtitle, "contents" for Word's table of contents, else ""."""
        for key, style in self.chain(sid):
            name = (style.name if style is not None and style.name else key).lower()
            if name in ("title", "subtitle"):
                return "title"
            if re.fullmatch(r"toc ?(?:[1-9]|heading)", name):
                return "contents"
        return ""

    def numbering(self, sid: str | None) -> tuple[str, int | None] | None:
        for _, style in self.chain(sid):
            if style is not None and style.num is not None:
                return style.num
        return None


def _on(el: etree._Element) -> bool:
    """A toggle property (w:vanish, w:isLgl): on unless its val says off."""
    return el.get(w("val")) not in ("0", "false", "off")


def _outline(ppr: etree._Element | None) -> int | None:
    el = None if ppr is None else ppr.find(w("outlineLvl"))
    if el is None:
        return None
    try:
        return int(el.get(w("val")) or "9")
    except ValueError:
        return None


def _num_pr(ppr: etree._Element | None) -> tuple[str, int | None] | None:
    el = None if ppr is None else ppr.find(w("numPr"))
    if el is None:
        return None
    num, ilvl = el.find(w("numId")), el.find(w("ilvl"))
    level = None
    if ilvl is not None:
        try:
            level = int(ilvl.get(w("val")) or "0")
        except ValueError:
            level = None
    return ("" if num is None else num.get(w("val")) or ""), level


# -- the package -------------------------------------------------------------------------------------------
class _Package:
    """The zip, checked on its headers (members, sizes, ratio, names), whose parts are read by fixed name,
    counted as they unpack."""

    def __init__(self, data: bytes, path: str) -> None:
        self.path = path
        self.read_total = 0
        try:
            self.zip = zipfile.ZipFile(io.BytesIO(data))
            infos = self.zip.infolist()
        except (zipfile.BadZipFile, zipfile.LargeZipFile, OSError, ValueError, EOFError) as e:
            raise self.error(f"the Word file is damaged or cut off: its zip cannot be opened ({e})",
                             "download or copy the file again, or open it in Word and save it again") from None
        if len(infos) > MAX_MEMBERS:
            raise self.error(f"the zip holds {len(infos)} members, over the limit of {MAX_MEMBERS} for a Word file",
                             "this is not a Word document as Word saves one; " + FIX_SAVE)
        names: set[str] = set()
        total = 0
        for info in infos:
            if info.filename in names:
                raise self.error(f"the zip holds two members named {info.filename!r}: a Word file holds each part "
                                 "once", FIX_SAVE)
            names.add(info.filename)
            if info.flag_bits & 0x1:
                raise self.error("the zip's members are encrypted (a password-protected zip)",
                                 "give the Word file itself, without a password")
            if info.file_size > MAX_MEMBER:
                raise self.bomb(f"{info.filename} unpacks to {_size(info.file_size)}, over the limit of "
                                f"{_size(MAX_MEMBER)} for one part")
            if info.file_size > RATIO_FROM and info.file_size > MAX_RATIO * max(info.compress_size, 1):
                raise self.bomb(f"{info.filename} unpacks to {info.file_size // max(info.compress_size, 1)} times "
                                f"its packed size ({_size(info.compress_size)} to {_size(info.file_size)}), over the "
                                f"limit of {MAX_RATIO} to 1")
            total += info.file_size
        if total > MAX_UNPACKED:
            raise self.bomb(f"the zip's members unpack to {_size(total)}, over the limit of {_size(MAX_UNPACKED)} "
                            f"for a Word file")
        self.names = names

    def error(self, message: str, fix: str, line: int | None = None) -> LawbookError:
        return LawbookError(message, file=self.path, line=line, fix=fix)

    def bomb(self, what: str) -> LawbookError:
        return self.error(f"{what}: a Word file of law text is far smaller (the file may be a zip bomb)",
                          "give the Word document itself; " + FIX_SAVE)

    def read(self, name: str) -> bytes | None:
        """The bytes of member `name` (a fixed name), None where the zip has none; counted as they unpack,
        against the limits, whatever the headers said."""
        if name not in self.names:
            return None
        limit = min(MAX_MEMBER, MAX_UNPACKED - self.read_total)
        chunks: list[bytes] = []
        got = 0
        try:
            with self.zip.open(name) as member:
                while chunk := member.read(min(1 * MIB, limit + 1 - got)):
                    got += len(chunk)
                    chunks.append(chunk)
                    if got > limit:
                        raise self.bomb(f"{name} unpacks to more than {_size(limit)}")
        except (zipfile.BadZipFile, OSError, EOFError, RuntimeError, NotImplementedError, ValueError) as e:
            raise self.error(f"{name} in the Word file is damaged: it does not unpack to the bytes its zip header "
                             f"gives ({e})", "download or copy the file again, or open it in Word and save it "
                                             "again") from None
        self.read_total += got
        return b"".join(chunks)

    def xml(self, name: str) -> etree._Element | None:
        data = self.read(name)
        return None if data is None else parse_xml(data, name, self.path)


PARSER = etree.XMLParser(resolve_entities=False, no_network=True, huge_tree=False, load_dtd=False,
                         dtd_validation=False, remove_comments=True, remove_pis=True)


def parse_xml(data: bytes, name: str, path: str) -> etree._Element:
    """Member `name`'s XML: entities never expanded, nothing fetched, no huge tree; a DTD is refused."""
    try:
        root = etree.fromstring(data, PARSER)
    except etree.XMLSyntaxError as e:
        raise LawbookError(f"{name} in the Word file is not well-formed XML ({e})", file=path,
                           fix="open the file in Word and save it again; if Word cannot open it, export it again") \
            from None
    info = root.getroottree().docinfo
    if getattr(info, "doctype", "") or getattr(info, "internalDTD", None) is not None:
        raise LawbookError(f"{name} in the Word file declares a DTD (<!DOCTYPE …>), which Word never writes: its "
                           "entities could expand to any size or reach outside the file", file=path,
                           fix="give the file as Word saves it; " + FIX_SAVE)
    return root


def _size(n: int) -> str:
    return f"{n / MIB:.1f} MiB" if n >= MIB // 10 else f"{n} bytes"


def _refuse_ole(data: bytes, path: str) -> LawbookError:
    if "EncryptedPackage".encode("utf-16-le") in data:
        return LawbookError("the Word file is encrypted (protected with a password): its text cannot be read",
                            file=path, fix="open it in Word, remove the password (File → Info → Protect Document → "
                                           "Encrypt with Password, empty), save, and build again")
    return LawbookError("this is an OLE compound file (a Word 97-2003 .doc, or a file protected with a password), not "
                        "a Word document (.docx)", file=path,
                        fix="open it in Word and save it as a Word Document (.docx), without a password")


def _check_package(package: _Package) -> None:
    """The zip is a Word document without macros, whose main part is word/document.xml, and no part of it
    needs a file from outside."""
    types = package.xml("[Content_Types].xml")
    if types is None:
        raise package.error("this is a zip archive, not a Word document: it has no [Content_Types].xml",
                            "give the Word document (.docx) itself")
    declared = {(el.get("PartName") or "").lstrip("/"): el.get("ContentType") or ""
                for el in types.iter(f"{{{CT}}}Override")}
    all_types = set(declared.values()) | {el.get("ContentType") or "" for el in types.iter(f"{{{CT}}}Default")}
    macro = next((t for t in all_types if t in MACRO_TYPES), None)
    vba = next((n for n in sorted(package.names) if PurePosixPath(n.lower()).name in ("vbaproject.bin", "vbadata.xml")),
               None)
    if macro or vba:
        what = f"its content type {macro}" if macro else f"its member {vba}"
        raise package.error(f"the Word file holds macros ({what}): a macro document (.docm) is not read",
                            "save it in Word as a Word Document (.docx), which keeps no macros, and list that file")
    mains = [name for name, kind in declared.items() if kind == MAIN]
    if not mains:
        raise package.error("this zip is not a Word document: its [Content_Types].xml names no WordprocessingML "
                            "main document", "give the Word document (.docx) itself; " + FIX_SAVE)
    if mains != [DOCUMENT]:
        raise package.error(f"the Word file's main document is {', '.join(mains)}; lawbook reads it only as "
                            f"{DOCUMENT}, where Word saves it", FIX_SAVE)
    if DOCUMENT not in package.names:
        raise package.error(f"the Word file has no {DOCUMENT}: it is damaged or not a Word document",
                            "download or copy the file again, or open it in Word and save it again")
    for name in sorted(n for n in package.names if RELS_MEMBER.match(n)):
        root = package.xml(name)
        assert root is not None
        for rel in root.iter(f"{{{RELS}}}Relationship"):
            kind = PurePosixPath(rel.get("Type") or "").name  # (the relationship type's last segment)
            if kind == "aFChunk":
                raise package.error(f"the Word file imports content from another file or part (altChunk, "
                                    f"{rel.get('Target')!r}) that Word merges only when it saves", FIX_SAVE)
            if rel.get("TargetMode") == "External" and kind not in IGNORED_EXTERNAL:
                raise package.error(f"the Word file takes part of what it shows from outside itself ({kind} "
                                    f"{rel.get('Target')!r}, in {name}): lawbook never fetches it, so the text "
                                    "would not be what Word shows",
                                    "in Word, make the linked content part of the document (for a subdocument: "
                                    "Outline → Show Document → Unlink; for a linked object: File → Info → Edit "
                                    "Links to Files → Break Link), save, and build again")


# -- paragraphs --------------------------------------------------------------------------------------------
@dataclass
class _Text:
    """What a paragraph's runs give: its text, its footnote markers, the comments anchored in it."""
    parts: list[str] = field(default_factory=list)
    notes: list[tuple[str, str]] = field(default_factory=list)
    comments: list[str] = field(default_factory=list)
    hidden: list[str] = field(default_factory=list)
    left_out: list[str] = field(default_factory=list)

    @property
    def text(self) -> str:
        return re.sub(r"[ \t\r\n]+", " ", "".join(self.parts)).strip(" ")


class _Reader:
    """The document's paragraphs, in order, to DocxLines."""

    def __init__(self, package: _Package, file: str, refused: Refused) -> None:
        self.package, self.path, self.file, self.refused = package, package.path, file, refused
        self.styles = Styles(package.xml("word/styles.xml"))
        try:
            self.numbering = Numbering(package.xml("word/numbering.xml"), self.styles.numbering)
        except LawbookError as e:  # (a number of numbering.xml: the message names the part, here the file)
            raise self.error(e.message, e.fix or FIX_SAVE) from None
        self.lines: list[DocxLine] = []
        self.footnote_count = 0
        self.tables = 0
        self.footnote_marks: dict[str, list[tuple[int, str]]] = {}  # id -> (line, number shown) of each marker
        self.comment_anchors: dict[str, int] = {}

    def error(self, message: str, fix: str, line: int | None = None) -> LawbookError:
        return LawbookError(message, file=self.path, line=line, fix=fix)

    def read(self) -> list[DocxLine]:
        root = self.package.xml(DOCUMENT)
        assert root is not None
        if root.tag.startswith(f"{{{STRICT}}}"):
            raise self.error("the Word file is saved as Strict Open XML, which lawbook does not read",
                             "save it in Word as a Word Document (.docx), not Strict Open XML Document")
        body = root.find(w("body"))
        if root.tag != w("document") or body is None:
            raise self.error(f"{DOCUMENT} holds no document body", FIX_SAVE)
        self.block_children(body)
        self.check_revisions(root, len(self.lines) or None)
        body_lines = len(self.lines)
        self.notes_and_comments()
        if not any(not line.blank for line in self.lines[:body_lines]):
            raise self.error("the Word document holds no text", "put the law text in the document, or remove it "
                                                                  "from the manifest")
        return self.lines

    def block_children(self, parent: etree._Element) -> None:
        for child in parent:
            tag = etree.QName(child).localname if isinstance(child.tag, str) else ""
            if child.tag == w("p"):
                self.paragraph(child)
            elif child.tag == w("tbl"):
                self.tables += 1
                for row in child.iter(w("tr")):
                    if row.getparent() is not None and _table_of(row) is child:
                        self.row(row)
            elif child.tag in (w("sdt"), w("customXml")):
                content = child.find(w("sdtContent")) if child.tag == w("sdt") else child
                if content is not None:
                    self.block_children(content)
            elif tag in ("altChunk", "subDoc"):
                raise self.error("the Word file imports content from another file or part (altChunk, a "
                                 "subdocument) that lawbook does not read", FIX_SAVE, len(self.lines) + 1)

    def check_revisions(self, el: etree._Element, line: int | None) -> None:
        found = next(el.iter(*REVISION_TAGS), None)
        if found is not None:
            what = REVISIONS[etree.QName(found).localname]
            words = _words(found)
            shown = f" ({words[:40]!r})" if words else ""
            raise self.error(f"the Word file holds tracked changes: {what}{shown}, not yet accepted or rejected, so "
                             "its text is not settled", FIX_TRACKED, line)

    def paragraph(self, p: etree._Element, part: str = "body", owner: str = "", author: str = "",
                  anchor: int = 0) -> None:
        num = len(self.lines) + 1
        self.check_revisions(p, num)
        ppr = p.find(w("pPr"))
        style_el = None if ppr is None else ppr.find(w("pStyle"))
        sid = None if style_el is None else style_el.get(w("val"))
        heading = _outline(ppr)
        heading = (heading if heading < 9 else None) if heading is not None else self.styles.heading(sid)
        label, fmt, value, level = "", "", None, None
        numbered = _num_pr(ppr) or self.styles.numbering(sid)
        if numbered is not None and numbered[0] not in ("", "0"):
            level = numbered[1] if numbered[1] is not None else 0
            got = self.numbering.next(numbered[0], level) if 0 <= level <= 8 else None
            if got is not None:
                label, fmt, value = got
            else:
                level = None
        text = self.runs(p, num)
        self.check_text(text.text, num)
        self.check_text(label, num)
        kind = self.styles.kind(sid)
        self.lines.append(DocxLine(self.file, num, text.text, part=part, style=self.styles.name(sid), heading=heading,
                                   title=kind == "title", contents=kind == "contents", label=label,
                                   label_format=fmt, label_value=value, label_level=level, notes=tuple(text.notes),
                                   owner=owner, author=author, anchor=anchor, comments=tuple(text.comments),
                                   hidden=" ".join(text.hidden).strip(), left_out=tuple(dict.fromkeys(text.left_out))))
        self.marked(text, num if part == "body" else anchor)

    def row(self, tr: etree._Element) -> None:
        num = len(self.lines) + 1
        self.check_revisions(tr, num)
        cells: list[str] = []
        whole = _Text()
        for tc in tr.iter(w("tc")):
            if _row_of(tc) is not tr:
                continue
            words: list[str] = []
            for p in tc.iter(w("p")):
                got = self.runs(p, num)
                words.append(got.text)
                whole.notes += got.notes
                whole.comments += got.comments
                whole.hidden += got.hidden
                whole.left_out += got.left_out
            cells.append(" ".join(t for t in words if t))
        for cell in cells:
            self.check_text(cell, num)
        self.lines.append(DocxLine(self.file, num, "\t".join(cells).strip(), part="table", cells=tuple(cells),
                                   table=self.tables, notes=tuple(whole.notes), comments=tuple(whole.comments),
                                   hidden=" ".join(whole.hidden), left_out=tuple(dict.fromkeys(whole.left_out))))
        self.marked(whole, num)

    def marked(self, text: _Text, anchor: int) -> None:
        for note_id, shown in text.notes:
            self.footnote_marks.setdefault(note_id, []).append((anchor, shown))
        for comment in text.comments:
            self.comment_anchors.setdefault(comment, anchor)

    def check_text(self, text: str, num: int) -> None:
        bad = self.refused(text.replace(NOTE_MARK, ""))
        if bad:
            at, what, why, fix = bad
            raise self.error(f"paragraph {num} holds {what}" + (f": {why}" if why else ""), fix, num)

    def runs(self, p: etree._Element, num: int) -> _Text:
        """The text of paragraph `p` (line `num`) as Word shows it: its runs, hyperlinks, fields' results and
        content controls, with NOTE_MARK at each footnote marker."""
        out = _Text()
        fields: list[str] = []  # each open field: "code" until its separator, then "result"
        custom_mark = False

        def walk(el: etree._Element, hidden: bool) -> None:
            nonlocal custom_mark
            for child in el:
                if not isinstance(child.tag, str):
                    continue  # type: ignore[unreachable]  # (lxml's stubs: a tag is a str; a comment's is a function)
                q = etree.QName(child)
                name = q.localname
                if q.namespace == MC:  # drawings' alternate forms: a text box's text is not read
                    if any(_words(t) for t in child.iter(w("txbxContent"))):
                        out.left_out.append("a text box")
                    continue
                if q.namespace != W:
                    if name in ("oMath", "oMathPara"):
                        out.left_out.append("an equation")
                    continue
                if name in SKIPPED:
                    continue
                if name == "fldChar":
                    kind = child.get(w("fldCharType"))
                    if kind == "begin":
                        fields.append("code")
                    elif kind == "separate" and fields:
                        fields[-1] = "result"
                    elif kind == "end" and fields:
                        fields.pop()
                    continue
                in_code = "code" in fields
                if name == "r":
                    rpr = child.find(w("rPr"))
                    vanish = None if rpr is None else rpr.find(w("vanish"))
                    walk(child, hidden or (vanish is not None and _on(vanish)))
                elif name == "t":
                    if in_code:
                        continue
                    if custom_mark and out.notes:
                        out.notes[-1] = (out.notes[-1][0], child.text or "")
                        custom_mark = False
                    elif hidden:
                        out.hidden.append(child.text or "")
                    else:
                        out.parts.append(child.text or "")
                elif name in SPACES:
                    if not in_code and not hidden:
                        out.parts.append(SPACES[name])
                elif name == "sym":
                    char = int(child.get(w("char")) or "0", 16)
                    code = char - 0xF000 if char >= 0xF000 else char
                    if code in SYMBOL_SUITS and (child.get(w("font")) or "").lower() == "symbol":
                        out.parts.append(SYMBOL_SUITS[code])
                    elif 0x20 <= char < 0xE000:
                        out.parts.append(chr(char))
                    else:
                        out.left_out.append("a symbol-font character")
                elif name == "footnoteReference":
                    self.footnote_count += 1
                    out.parts.append(NOTE_MARK)
                    out.notes.append((child.get(w("id")) or "", str(self.footnote_count)))
                    custom_mark = child.get(w("customMarkFollows")) in ("1", "true", "on")
                elif name == "endnoteReference":
                    raise self.error("the Word file holds endnotes, which lawbook does not read",
                                     "make them footnotes in Word (References → Footnotes dialog → Convert… → Convert "
                                     "all endnotes to footnotes), save, and build again", num)
                elif name in ("commentReference", "commentRangeStart"):
                    out.comments.append(child.get(w("id")) or "")
                elif name in ("drawing", "pict", "object"):
                    if any(_words(t) for t in child.iter(w("txbxContent"))):
                        out.left_out.append("a text box")
                elif name == "sdt":
                    content = child.find(w("sdtContent"))
                    if content is not None:
                        walk(content, hidden)
                elif name == "ruby":
                    base = child.find(w("rubyBase"))
                    if base is not None:
                        walk(base, hidden)
                else:  # hyperlink, fldSimple, smartTag, customXml, bdo, dir, … : their runs are the text
                    walk(child, hidden)

        walk(p, False)
        return out

    def notes_and_comments(self) -> None:
        """The footnotes' paragraphs in the order of their first markers, then the comments' in the order of
        their anchors, each a line after the body's."""
        if self.footnote_marks:
            root = self.package.xml("word/footnotes.xml")
            notes = {} if root is None else {el.get(w("id")) or "": el for el in root.findall(w("footnote"))
                                             if el.get(w("type"), "normal") == "normal"}
            for note_id, marks in list(self.footnote_marks.items()):
                el = notes.get(note_id)
                if el is not None:
                    self.check_revisions(el, marks[0][0])
                    for p in el.iter(w("p")):
                        self.paragraph(p, "footnote", owner=note_id, anchor=marks[0][0])
        if self.comment_anchors:
            root = self.package.xml("word/comments.xml")
            comments = {} if root is None else {el.get(w("id")) or "": el for el in root.findall(w("comment"))}
            for comment_id, anchor in list(self.comment_anchors.items()):
                el = comments.get(comment_id)
                if el is None:
                    continue
                self.check_revisions(el, anchor)
                for p in el.iter(w("p")):
                    self.paragraph(p, "comment", owner=comment_id, author=el.get(w("author")) or "", anchor=anchor)


def _words(el: etree._Element) -> str:
    """The words below `el` (of a tracked change, a text box), for a message or a test of emptiness."""
    return "".join(str(t) for t in el.itertext()).strip()


def _table_of(el: etree._Element) -> etree._Element | None:
    """The nearest table `el` stands in."""
    return next(el.iterancestors(w("tbl")), None)


def _row_of(el: etree._Element) -> etree._Element | None:
    return next(el.iterancestors(w("tr")), None)


def paragraph_lines(data: bytes, path: str, file: str, refused: Refused) -> list[DocxLine]:
    """The DocxLines of a Word file's bytes (`path` names it in the errors, `file` in the Lines); every problem
    is one LawbookError naming the file (and the paragraph, as its line)."""
    if data.startswith(OLE):
        raise _refuse_ole(data, path)
    package = _Package(data, path)
    _check_package(package)
    return _Reader(package, file, refused).read()
