"""The PDF edition: a print-ready book per edition, typeset with Typst.

    corpus tree ──book_view──> the book as plain data (text stays str, paragraphs become Typst markup)
                ──templates/pdf/*.j2──> Typst source ──typst──> PDF/A-2b

Escaping is the template environment's job: every value a template prints is a Typst
string literal unless it is `TypstCode`, and only this module makes `TypstCode` (from
fixed markup, labels it has checked, and paragraph markup it built from escaped text).
So no law text can ever act as markup, whatever characters it holds. The book's own words
(title page, colophon, headings, running heads, the date) are the language profile's (text.py), and so
are its lang and region. The book's date is the date of its sources (build_timestamp), never the build's.
"""
import collections
import contextlib
import datetime
import hashlib
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

import jinja2
import markupsafe
import typst

from . import glyphs, pdf_parts
from ..core import ids, lang, tree
from ..core.errors import LawbookError, write_failure
from ..reading import manifest
from . import text
from .text import profile_of, say

TEMPLATES = Path(__file__).resolve().parents[2] / "templates" / "pdf"

PUBLISHER = "Dutch Bridge Federation"  # a profile word, like the months
PDF_STANDARDS = ["a-2b"]
MONTHS = ("January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
          "November", "December")
_MARKUP_SPECIAL = re.compile(r"([\\*_`#$<>@\[\]~=+\-/'\"])")

# Hanging-label column of a subsection ("1."), an item ("(a)") and a subitem ("(iii)"), and their heading levels.
LABEL_COLUMN = {"subsection": "1.6em", "item": "1.9em", "subitem": "2.4em"}
HEADING_LEVEL = {"subsection": 3, "item": 4, "subitem": 5}
# Editions compile side by side while the memory their compilers take stays under what the machine
# has: the compiler takes roughly 1 MB of memory per 1,000 characters of source (measured: a
# 523,000-character front 0.4 GB, a 290,000-character part 0.2 GB), and together they may take half
# of the memory available when the build starts (/proc/meminfo), never less than
# PARALLEL_SOURCE_LIMIT characters: two books of 93 articles (700,000 characters) always compile
# together, two books in parts when the machine has about 2 GB free.
PARALLEL_SOURCE_LIMIT = 1_000_000
BYTES_PER_SOURCE_CHARACTER = 1000


def parallel_limit(meminfo="/proc/meminfo"):
    """The characters of Typst source the compilers running at once may hold (see above)."""
    try:
        with open(meminfo, encoding="ascii") as f:
            available = next(int(line.split()[1]) * 1024 for line in f if line.startswith("MemAvailable:"))
    except (OSError, StopIteration, ValueError, IndexError):
        return PARALLEL_SOURCE_LIMIT
    return max(PARALLEL_SOURCE_LIMIT, available // 2 // BYTES_PER_SOURCE_CHARACTER)


# The colophon lists up to this many source files in one column, more in two.
COLOPHON_ONE_COLUMN = 10
_LABEL_SAFE_ID = re.compile(r"^[0-9A-Za-z/.]+$")
_WHITESPACE = re.compile(r"\s+")


class TypstCode(markupsafe.Markup):
    """Typst source that a template prints as is. Never build one from corpus text.

    A Markup subclass so that the template engine treats it, like the output of a template
    macro, as already safe."""


def typst_string(text):
    """`text` as a Typst string literal: it prints exactly these characters, never markup."""
    out = []
    for ch in str(text):
        if ch == "\\":
            out.append("\\\\")
        elif ch == '"':
            out.append('\\"')
        elif ord(ch) < 0x20 or ord(ch) == 0x7F:
            out.append(f"\\u{{{ord(ch):x}}}")
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'


def markup_words(text):
    """`text` as Typst markup that prints exactly these characters: the profile's words where the
    templates write markup (`[Inhoud]`), every character markup would read escaped."""
    return TypstCode(_MARKUP_SPECIAL.sub(r"\\\1", str(text)))


def markup_text(text):
    """`text` placed in markup: an embedded string, closed by `;` so nothing after it can extend it."""
    return f"#{typst_string(text)};" if text else ""


def label_name(node_id, el=None):
    """The Typst label (and PDF named destination) of a node: '2017/47E1' -> 'n2017-47E1'.
    An ID of other characters (full-width digits, say) is refused, naming the source line of `el`."""
    if not _LABEL_SAFE_ID.match(node_id or ""):
        file, line = source_line(el) if el is not None else (None, None)
        raise LawbookError(f"the node ID {node_id!r} cannot be a link target in the PDF edition: an ID holds "
                           f"only the letters A-Z and a-z, the digits 0-9, '/' and '.'", file=file, line=line,
                           fix="write the article number and its parts with the digits 0-9 and letters a-z",
                           status=1)
    return "n" + node_id.replace("/", "-")


def source_line(el):
    """(file, line) where `el`, or the nearest element around it that records its sources, starts."""
    for holder in (el, *el.iterancestors()):
        if holder.get("sources"):
            return tree.first_line(holder)
    return None, None


def node_id_of_label(name):
    """The inverse of label_name: 'n2017-47E1' -> '2017/47E1'."""
    return name[1:].replace("-", "/")


def _finalize(value):
    # Every printed value is a string literal unless it is code: TypstCode from this module,
    # or the output of a template macro (Markup, which autoescaping gives it).
    if isinstance(value, markupsafe.Markup):
        return value
    return TypstCode(typst_string("" if value is None else value))


@text.per_profile
def template_environment(profile):
    """The jinja2 environment for templates/pdf/: escapes every printed value (see _finalize); its
    words, lang and region from `profile` (Dutch when none): `{{ _("Contents") }}` prints a string
    literal, `{{ _("Contents")|markup }}` escaped markup (markup_words).
    One per process and profile: it caches the compiled templates."""
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(TEMPLATES), finalize=_finalize,
                             undefined=jinja2.StrictUndefined, keep_trailing_newline=True,
                             autoescape=True, bytecode_cache=text.template_cache(__file__, TEMPLATES))
    env.filters["markup"] = markup_words
    # Old-style _(): the plain words, so that _finalize escapes them like any other value.
    return text.install(env, profile, newstyle=False)


def inline_markup(el, targets, cited_again=frozenset(), in_heading=False):
    """The mixed content of a <p> or <note> (or a <title>, <heading>) as Typst markup.

    Text is embedded as string literals with whitespace runs collapsed; a <note> becomes a
    footnote where its marker stands, numbered with the book's number where it has one (else by
    the footnote counter, as before); a <ref> whose first target is in `targets` (the node
    IDs printed in this book) becomes a link on its words, with no page number (a law book
    is navigated by citation), any other ref prints as its words only. Elements of other
    kinds print their words.
    `cited_again`: the keys (note_key) of notes the book cites more than once: such a citation's entry
    is printed once a page (book-note in style.typ). `in_heading`: the markup of an article's or
    section's heading, whose notes are heading-note()s (footnotes where the heading is set, nothing in
    the contents and the bookmarks, which read the same heading).
    """
    parts = [markup_text(_WHITESPACE.sub(" ", el.text or ""))]
    for child in el:
        if child.tag == "note":
            parts.append(note_markup(child, targets, cited_again, in_heading))
        elif child.tag == "ref":
            words = _WHITESPACE.sub(" ", tree.plain_text(child))
            first = (child.get("to") or "").split()[:1]
            if first and first[0] in targets:
                parts.append(f"#xref(<{label_name(first[0], child)}>, {typst_string(words)});")
            else:
                parts.append(markup_text(words))
        else:
            parts.append(markup_text(_WHITESPACE.sub(" ", tree.plain_text(child))))
        parts.append(markup_text(_WHITESPACE.sub(" ", child.tail or "")))
    return TypstCode(_strip_outer_space("".join(parts)))


def note_key(note):
    """What makes two citations one note: the book's number and the note's words."""
    return f"{note.get('num')} {' '.join(tree.plain_text(note).split())}"


def note_markup(note, targets, cited_again=frozenset(), in_heading=False):
    """A <note> as a footnote where its marker stands: Typst's own (numbered by its counter) where the
    note has no number, else shown with the book's number ("17") in the text and at the page foot."""
    body = inline_markup(note, targets).strip()
    number = tree.note_number(note)
    if in_heading:
        return f"#heading-note({typst_string(number) if number else 'none'}, [{body}]);"
    if number is None:
        return f"#footnote[{body}];"
    if note_key(note) in cited_again:
        key = hashlib.sha1(note_key(note).encode("utf-8")).hexdigest()[:12]
        return f"#book-note({typst_string(number)}, {typst_string(key)}, [{body}]);"
    return f"#footnote(numbering: book-number({typst_string(number)}))[{body}];"


def _strip_outer_space(markup):
    # A paragraph's first and last string literal lose the space a line break in the source left.
    markup = re.sub(r'^#" ', '#"', markup)
    return re.sub(r' ";$', '";', markup)


def _mark(el):
    """The label as the law writes it: sections 'A.', subsections '1.', items '(a)', subitems '(i)'."""
    return tree.mark(el)


def introduction_view(el, targets, cited_again=frozenset()) -> dict | None:
    """The book's Introduction, a chapter of its own: its title, label (n2017-intro) and paragraphs."""
    if el is None:
        return None
    return {"title": el.findtext("title"), "label": TypstCode(label_name(el.get("id"), el)),
            "paragraphs": [inline_markup(p, targets, cited_again) for p in el.iterchildren("p")]}


def node_view(el, targets, profile, cited_again=frozenset()):
    """One article, section, subsection or item with everything below it, in corpus order. Its title
    or heading is markup (None when it has none or it is empty): its words, and a note marked in them."""
    label = tree.label(el)
    words = None
    if label is not None and tree.text_with_marks(label).strip():
        words = inline_markup(label, targets, cited_again, in_heading=el.tag in ("article", "section"))
    children = []
    for child in el:
        if child.tag == "p":
            children.append({"kind": "p", "markup": inline_markup(child, targets, cited_again)})
        elif child.tag == "gap":
            children.append({"kind": "gap", "remark": _gap_remark(child, profile)})
        elif child.tag in tree.NODE_TAGS:
            children.append(node_view(child, targets, profile, cited_again))
    view = {"kind": el.tag, "id": el.get("id"), "label": TypstCode(label_name(el.get("id"), el)),
            "children": children}
    if el.tag == "article":
        view.update(num=el.get("num"), number=say(profile, "Article %(num)s", num=el.get("num")),
                    title=words, commentary=[])
    elif el.tag == "section":
        view.update(mark=_mark(el), heading=words)
    else:
        view.update(mark=_mark(el), heading=words, level=TypstCode(HEADING_LEVEL[el.tag]),
                    column=TypstCode(LABEL_COLUMN[el.tag]))
    return view


def _gap_remark(el, profile):
    """What a gap prints: its reason, which says what is missing, once; the profile's words only when
    the corpus gives no reason."""
    return " ".join((el.get("reason") or "").split()) or say(profile, "text missing from the sources")


def commentary_view(el, targets, profile, cited_again=frozenset()):
    """A commentary: what it is on, who wrote it (the disclaimer that it is no law text, printed
    first), its paragraphs as markup."""
    _, cite = ids.split_id(el.get("on") or "")
    title = say(profile, "Commentary on article %(num)s", num=cite) if cite else say(profile, "Commentary")
    if el.get("author"):
        title += f" ({el.get('author')})"
    return {"id": el.get("id"), "title": title, "attribution": el.findtext("attribution") or "",
            "paragraphs": [inline_markup(p, targets, cited_again) for p in el.iterchildren("p")]}


def date_words(day, profile=None):
    """The date as the profile writes it: '30 november 2025' in Dutch."""
    profile = profile or lang.profile()
    return say(profile, "%(month)s %(day)s, %(year)s", day=day.day, month=profile.word(MONTHS[day.month - 1]),
               year=day.year)


def book_view(edition, built, with_commentary=True, profile=None, sources=()):
    """The book of one <edition> as data for book.typ.j2, in the words of `profile` (Dutch when none).

    `built` is the date of the edition's sources (build_timestamp), printed on the title page and
    in the colophon; `sources` are the edition's manifest entries (name and origin), which the
    colophon names. Commentary follows the article it is on; commentary on an article this
    edition does not hold goes to a closing chapter.
    """
    from . import register_pdf
    profile = profile or lang.profile()
    edition_id = edition.get("id")
    series = text.title(profile)
    targets = {el.get("id") for el in edition.iter(*tree.NODE_TAGS)}
    # The notes the book cites more than once (the same number and words): printed once a page.
    cited = collections.Counter(note_key(n) for n in edition.iter("note") if tree.note_number(n))
    cited_again = frozenset(key for key, times in cited.items() if times > 1)
    articles = [node_view(a, targets, profile, cited_again) for a in edition.iterchildren("article")]
    by_number = {a["id"]: a for a in articles}
    loose = []
    if with_commentary:
        for el in edition.iterchildren("commentary"):
            view = commentary_view(el, targets, profile, cited_again)
            article_id = ids.article_of(el.get("on") or "")
            if article_id in by_number:
                by_number[article_id]["commentary"].append(view)
            else:
                loose.append(view)
    description = (f"{series}, {say(profile, 'printed edition %(edition)s', edition=edition_id)}"
                   + ("" if with_commentary else say(profile, ", without commentary")))
    date_line = say(profile, "Sources as of %(date)s", date=date_words(built, profile))
    # The manifest's publisher (the English original's: the WBF), else the profile's word for the NBB.
    publisher = next((s.publisher for s in sources if getattr(s, "publisher", "")), "") or profile.word(PUBLISHER)
    return {
        "edition": edition_id,
        "title": f"{series} {edition_id}",
        "series": series,
        "publisher": publisher,
        # The book's Introduction (where its sources hold it), before the Definitions.
        "introduction": introduction_view(edition.find("introduction"), targets, cited_again),
        # The book's Definitions (where its sources hold them), before the first article.
        "definitions": [{"term": d.get("term"), "markup": inline_markup(d.find("p"), targets, cited_again)}
                        for d in edition.iterfind("definitions/definition")],
        "definitions_title": say(profile, "Definitions"),
        "description": description,
        "keywords": [profile.word("bridge"), profile.word("laws"),
                     say(profile, "printed edition %(edition)s", edition=edition_id)],
        "edition_line": say(profile, "Printed edition %(edition)s", edition=edition_id),
        "date_line": date_line,
        "with_commentary": with_commentary,
        "without_commentary_line": say(profile, "Official text, without commentary"),
        "colophon": {
            "lines": [description, publisher, date_line],
            "sources_intro": say(profile, "This edition is compiled from these source files:"),
            "sources": [{"name": s.name, "origin": s.origin} for s in sources],
            # A long list in two columns, so that it stays on the back of the title page longer.
            "columns": TypstCode(2 if len(sources) > COLOPHON_ONE_COLUMN else 1),
            "notes": [say(profile, "Where the sources lack text or a title, an editorial remark in square "
                                   "brackets says so.")]
                     # Without commentary the first line says so already ("…, zonder toelichtingen").
                     + ([say(profile, "The commentaries are not part of the official text; each says who wrote "
                                      "it.")] if with_commentary else [])
                     + [say(profile, "Set in Libertinus Serif with Typst.")],
        },
        "articles": articles,
        # The contents' page numbers from sys.inputs, not from the page counter: set for the front of
        # a book in parts (pdf_parts.front_source).
        "contents_pages": False,
        "loose_commentary": loose,
        "loose_commentary_title": say(profile, "Commentaries"),
        "loose_commentary_intro": say(profile, "Commentary on articles that are not in this edition."),
        "book_index": register_pdf.register_view(edition, targets, profile),  # the book's index, after the Laws
    }


def typst_source(edition, built, with_commentary=True, profile=None, sources=()):
    """The complete Typst source of one edition's book, in the words of `profile` (Dutch when none);
    `sources` (the edition's manifest entries) for the colophon."""
    template = template_environment(profile).get_template("book.typ.j2")
    return template.render(book=book_view(edition, built, with_commentary, profile, sources))


def build_timestamp(source_paths, environ=os.environ):
    """A book's date, the date of its sources (never the day of the build): SOURCE_DATE_EPOCH when
    set, else the newest date of `source_paths` (one edition's sources), each file's date being
    its last commit when git holds it unchanged (a fresh clone gives every file the day of the
    clone as its modification time), else its modification time. The same sources give the same
    date, so the PDF bytes repeat, and an edition whose sources did not change keeps its date.
    The title page and the colophon print it."""
    epoch = environ.get("SOURCE_DATE_EPOCH")
    if epoch:
        if not epoch.strip().isdigit():
            raise LawbookError(f"SOURCE_DATE_EPOCH is {epoch!r}, not a number of seconds since 1970",
                               fix="set SOURCE_DATE_EPOCH to whole seconds (e.g. `date +%s`), or unset it "
                                   "to date the book by its sources", status=2)
        seconds = int(epoch)
    else:
        paths = [Path(p) for p in source_paths]
        committed = _commit_dates(paths)
        seconds = max((committed.get(p.name) or int(p.stat().st_mtime) for p in paths), default=0)
    return datetime.datetime.fromtimestamp(seconds, datetime.timezone.utc)


def _commit_dates(paths):
    """{file name: seconds of the last commit that changed it} for the files of `paths` that git holds
    unchanged in their folder's repository; {} without git or a repository. One folder (the sources)."""
    folders = {p.parent for p in paths}
    if len(folders) != 1:
        return {}
    folder, names = folders.pop(), [p.name for p in paths]

    def git(*args):
        try:
            done = subprocess.run(["git", "-C", str(folder), *args, "--", *names], capture_output=True,
                                  timeout=30, env=dict(os.environ, GIT_OPTIONAL_LOCKS="0"))
        except (OSError, subprocess.SubprocessError):
            return None
        return done.stdout.decode("utf-8", "replace") if done.returncode == 0 else None

    status = git("status", "--porcelain", "-z", "--untracked-files=all")
    # Newest commit first: \x01 and its time, then the names it changed, each ended by NUL.
    log = git("log", "--relative", "--no-renames", "--format=%x01%ct", "--name-only", "-z")
    if status is None or log is None:
        return {}
    changed = {entry[3:] for entry in status.split("\0") if len(entry) > 3}
    dates, seconds = {}, None
    for field in log.split("\0"):
        field = field.strip("\n")
        if field.startswith("\x01"):
            seconds = int(field[1:])
        elif field and seconds is not None and field not in changed:
            dates.setdefault(field, seconds)
    return dates


def render_pdf(source, timestamp):
    """PDF/A-2b bytes of a Typst source, with only the fonts bundled in the compiler (no system
    fonts, no packages, no network), dated `timestamp`: equal input gives equal bytes."""
    return typst.compile(source.encode("utf-8"), timestamp=timestamp, pdf_standards=PDF_STANDARDS,
                         ignore_system_fonts=True)


def unprintable(edition, lines):
    """Report entries (file, line, node, message) for the text of `edition` the compiler cannot set
    (see glyphs.py): a character no font has, a letter with too many marks, an overlong word or
    heading. Each names the source line that holds it, found in `lines` ({(file, number): text})
    among the lines the element records; one entry per problem and line."""
    found = {}
    for el in edition.iter():
        runs = [el.text] + [child.tail for child in el]
        runs += [el.get(attr) for attr in ("num", "author")]
        for text in filter(None, runs):
            problems = glyphs.problems(text)
            if el.tag in ("title", "heading") and len(text) > glyphs.MAX_HEADING:
                problems.append((0, f"a heading of {len(text):,} characters, longer than the "
                                    f"{glyphs.MAX_HEADING:,} a PDF bookmark can hold", "shorten the heading"))
            for offset, message, fix in problems:
                # The word from the problem on, else the character alone (a repair changed the word).
                file, line, column = _locate(el, (text[offset:offset + 40].split(" ")[0], text[offset]), lines)
                key = (file, line, message)
                if key not in found:
                    node = next((a.get("id") for a in (el, *el.iterancestors())
                                 if a.tag in tree.NODE_TAGS or a.tag == "commentary"), None)
                    at = f" (column {column})" if column else ""
                    found[key] = (file, line, node, f"{message}{at}; {fix}, or build without the PDF (--no-pdf)")
    return list(found.values())


def unprintable_sources(sources, manifest_path):
    """Report entries (file, line, None, message), as unprintable gives them, for the file names and
    origins of `sources` (manifest entries) that the colophon prints and the compiler cannot set,
    each at the line of `manifest_path` (sources.toml) that holds it."""
    try:
        text_lines = Path(manifest_path).read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeError):
        text_lines = []
    found = {}
    for source in sources:
        for key, value in (("file", source.name), ("origin", source.origin)):
            for offset, message, fix in glyphs.problems(value or ""):
                snippet = value[offset:offset + 40].split(" ")[0] or value[offset]
                line = next((n for n, t in enumerate(text_lines, 1) if snippet in t or value[offset] in t), None)
                column = text_lines[line - 1].find(value[offset]) + 1 if line else 0
                at = f" (column {column})" if column else ""
                found.setdefault((line, message), (Path(manifest_path).name, line, None,
                                                   f"the {key} of {source.name!r}, printed in the PDF's colophon: "
                                                   f"{message}{at}; {fix}, or build without the PDF (--no-pdf)"))
    return list(found.values())


def _locate(el, snippets, lines):
    """(file, line, column) of the first source line of `el` (or the element around it that records
    sources) holding the first of `snippets` any line holds; the element's first line, without a
    column, when none does."""
    for holder in (el, *el.iterancestors()):
        sources = tree.parse_sources(holder.get("sources"))
        if sources:
            break
    else:
        return None, None, None
    for snippet in snippets:
        for name in sorted(sources):
            for num in sorted(sources[name]):
                column = lines.get((name, num), "").find(snippet)
                if column >= 0:
                    return name, num, column + 1
    name = sorted(sources)[0]
    return name, min(sources[name]), None


def pdf_name(edition_id):
    """The book's path in the build folder."""
    return f"pdf/spelregels-{edition_id}.pdf"


def typ_name(edition_id):
    """The book's Typst source, kept beside its PDF so that anyone can compile it again or compare."""
    return f"pdf/spelregels-{edition_id}.typ"


def parts_name(edition_id):
    """The Typst sources of a book compiled in parts (pdf_parts.py), kept beside its PDF."""
    return f"pdf/spelregels-{edition_id}.parts"


# The child that compiles one book: arguments the timestamp in seconds, the Typst file, the PDF file
# to write (and for a part of a book in parts, a JSON file of its sys.inputs). When it cannot, it
# writes one line of JSON to stdout instead, {"kind": …, "message": …}, and exits with status 2: a
# compile error, or the compiler stopped (a panic, which the typst package raises as a BaseException,
# or no memory). Rust's own panic report on stderr is never shown. It asks Linux to end it with the
# process that started it (PR_SET_PDEATHSIG), so a build killed outright leaves no compiler running.
_COMPILE_CHILD = """
import ctypes, datetime, json, signal, sys
try:
    ctypes.CDLL(None).prctl(1, signal.SIGKILL)
except Exception:
    pass
import typst
try:
    with open(sys.argv[2], "rb") as f:
        source = f.read()
    inputs = {}
    if len(sys.argv) > 4:
        with open(sys.argv[4], encoding="utf-8") as f:
            inputs = json.load(f)
    data = typst.compile(source, pdf_standards=%r, ignore_system_fonts=True, sys_inputs=inputs,
                         timestamp=datetime.datetime.fromtimestamp(int(sys.argv[1]), datetime.timezone.utc))
except typst.TypstError as e:
    sys.stdout.write(json.dumps({"kind": "error", "message": e.message}))
    sys.exit(2)
except BaseException as e:
    sys.stdout.write(json.dumps({"kind": type(e).__name__, "message": str(e)}))
    sys.exit(2)
try:
    with open(sys.argv[3], "wb") as f:
        f.write(data)
except OSError as e:  # a full disk or the file-size limit: the parent names the file (core.errors.write_failure)
    sys.stdout.write(json.dumps({"kind": "OSError", "errno": e.errno, "path": sys.argv[3], "message": str(e)}))
    sys.exit(2)
""" % (PDF_STANDARDS,)

# The process that compiles a book in parts and joins them (pdf_parts.main), this package first on its path.
_PARTS_CHILD = (f"import sys; sys.path.insert(0, {str(Path(__file__).resolve().parents[2])!r}); "
                "from pipeline.outputs import pdf_parts; sys.exit(pdf_parts.main(sys.argv[1:]))")


def _compile_failure(returncode, output, edition_id):
    """The one message for a compile child that did not give a PDF (see _COMPILE_CHILD). Text the
    compiler is known to refuse was reported at its source line before (unprintable), so what is
    left is a fault of the templates or of the compiler."""
    book = f"the PDF edition {edition_id}" if edition_id else "the PDF edition"
    fix = "build without the PDF (--no-pdf) and report this with the sources; the other outputs do not need it"
    memory = "build with more memory, or without the PDF (--no-pdf)"
    if returncode == 2:
        try:
            failure = json.loads(output.decode("utf-8", "replace"))
        except ValueError:
            failure = {"kind": "error", "message": output.decode("utf-8", "replace")}
        kind = failure.get("kind")
        written = write_failure(failure.get("errno"), failure.get("path")) if kind == "OSError" else None
        if written is not None:  # no room for the PDF: the disk or the limit, not the templates
            return written
        message = " ".join(str(failure.get("message", "")).split())[:300] or kind
        if kind == "error":
            return LawbookError(f"{book} did not compile: {message}", file="templates/pdf/", status=1, fix=fix)
        if kind == "MemoryError":
            return LawbookError(f"the PDF compiler ran out of memory while setting {book}", file="templates/pdf/",
                                status=1, fix=memory)
        return LawbookError(f"the PDF compiler stopped while setting {book}: {message}", file="templates/pdf/",
                            status=1, fix=fix)
    if returncode < 0:
        try:
            cause = signal.Signals(-returncode).name
        except ValueError:
            cause = f"signal {-returncode}"
        return LawbookError(f"the PDF compiler was stopped by {cause} while setting {book} (out of memory?)",
                            file="templates/pdf/", status=1, fix=memory)
    return LawbookError(f"the PDF compiler ended with exit status {returncode} while setting {book}",
                        file="templates/pdf/", status=1, fix=fix)


@dataclass
class Book:
    """One book to compile: its Typst file (or, in parts, the plan pdf_parts reads), the PDF to write,
    its date, its edition, and its weight: the characters of Typst source one compiler holds at a time
    (the whole book, or its largest part)."""
    typ: Path
    out: Path
    timestamp: datetime.datetime
    name: str | None
    weight: int
    parts: bool = False


class Compiles:
    """Books being compiled, each in a Python process of its own: the compiler keeps every layout it
    made in memory until its process ends, so one long-lived process would hold every book compiled
    so far. Books start side by side while their weights together stay under `limit` (parallel_limit;
    one always starts); the others start as earlier ones end (wait). kill() stops and reaps every
    child: a build that fails leaves none running."""

    def __init__(self, books, limit=None):
        self.queue = list(books)
        self.running = []  # (book, process, the file its answer goes to)
        self.limit = parallel_limit() if limit is None else limit
        self._start_allowed()

    def _start_allowed(self):
        while self.queue:
            weight = sum(book.weight for book, _, _ in self.running)
            if self.running and weight + self.queue[0].weight > self.limit:
                return
            book = self.queue.pop(0)
            if book.parts:  # one process compiles the parts one by one and joins them
                argv = [sys.executable, "-c", _PARTS_CHILD, str(book.typ)]
            else:
                argv = [sys.executable, "-c", _COMPILE_CHILD, str(int(book.timestamp.timestamp())), str(book.typ),
                        str(book.out)]
            answer = tempfile.TemporaryFile()
            process = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=answer, stderr=subprocess.DEVNULL,
                                       env=dict(os.environ, RUST_BACKTRACE="0"))
            self.running.append((book, process, answer))

    def wait(self):
        """Wait for every book, in order; raise the first failure's one message (LawbookError, status 1)."""
        while self.running:
            book, process, answer = self.running[0]
            returncode = process.wait()
            self.running.pop(0)
            try:
                if returncode != 0:
                    answer.seek(0)
                    raise _compile_failure(returncode, answer.read(), book.name)
            finally:
                answer.close()
            self._start_allowed()

    def kill(self):
        self.queue = []
        for _, process, answer in self.running:
            with contextlib.suppress(ProcessLookupError):
                process.kill()
            process.wait()
            answer.close()
        self.running = []


def compile_books(books, names=None):
    """PDF bytes of each (Typst source, timestamp) in `books`, in order: the same bytes as
    render_pdf, each compiled in a process of its own (Compiles). A book that does not compile
    raises one LawbookError (status 1) naming the edition in `names`."""
    names = names or [None] * len(books)
    with tempfile.TemporaryDirectory(prefix="lawbook-pdf-") as folder:
        planned = []
        for k, ((source, timestamp), name) in enumerate(zip(books, names)):
            typ = Path(folder) / f"{k}.typ"
            typ.write_text(source, encoding="utf-8")
            planned.append(Book(typ, Path(folder) / f"{k}.pdf", timestamp, name, len(source)))
        compiles = Compiles(planned)
        try:
            compiles.wait()
        finally:
            compiles.kill()
        return [book.out.read_bytes() for book in planned]


def _prepare(job):
    """The editions of job.corpus to compile, each written as Typst source below job.tmp: a list of
    Book (the book's own .typ, or a book in parts: its parts' sources and the plan, see pdf_parts).
    An edition unchanged since the previous build is copied from it instead. Text the compiler cannot
    set is a build error at its source line (and then nothing is prepared)."""
    out = job.tmp / "pdf"
    out.mkdir(parents=True, exist_ok=True)
    with_commentary = not job.options.no_commentary
    size, above = pdf_parts.part_articles()
    in_parts = {e.get("id") for e in job.corpus.iterchildren("edition")
                if sum(1 for _ in e.iterchildren("article")) > above}
    todo = [e for e in job.corpus.iterchildren("edition")
            if not job.previous.reuse(e.get("id"), [pdf_name(e.get("id")), parts_name(e.get("id"))
                                                    if e.get("id") in in_parts else typ_name(e.get("id"))])]
    # Text the compiler cannot set is a build error at its source line, found before compiling.
    lines = {(name, line.num): line.text for name, file_lines in job.lines.items() for line in file_lines}
    manifest_path = Path(job.sources_dir or ".") / manifest.MANIFEST
    for edition in todo:
        own = [s for s in job.sources if s.edition == edition.get("id")]
        for file, line, node, message in unprintable(edition, lines) + unprintable_sources(own, manifest_path):
            job.log.add("error", file, line, message, node)
    if job.log.errors:
        return []
    books = []
    profile = profile_of(job)
    for edition in todo:
        edition_id = edition.get("id")
        own = [s for s in job.sources if s.edition == edition_id]
        timestamp = build_timestamp([s.path for s in own])
        if edition_id in in_parts:
            view = book_view(edition, timestamp.date(), with_commentary, profile, own)
            plan = pdf_parts.write_sources(view, edition, job.tmp / parts_name(edition_id), size,
                                           template_environment(profile), TypstCode)
            work = job.tmp / "pdf" / f".work-{edition_id}"  # the parts' PDFs, removed once joined
            work.mkdir()
            plan.update(child=_COMPILE_CHILD, out=str(job.tmp / pdf_name(edition_id)), work=str(work),
                        timestamp=int(timestamp.timestamp()))
            (work / "plan.json").write_text(json.dumps(plan, indent=1) + "\n", encoding="utf-8")
            books.append(Book(work / "plan.json", job.tmp / pdf_name(edition_id), timestamp, edition_id,
                              plan["weight"], parts=True))
            continue
        source = typst_source(edition, timestamp.date(), with_commentary, profile, own)
        (job.tmp / typ_name(edition_id)).write_text(source, encoding="utf-8")
        books.append(Book(job.tmp / typ_name(edition_id), job.tmp / pdf_name(edition_id), timestamp, edition_id,
                          len(source)))
    return books


def start_pdf(job):
    """Reads: job.corpus, job.sources (each edition's files and their dates),
    job.options.no_commentary, and the previous build (job.previous).
    Writes: pdf/spelregels-<edition>.typ (or .parts/) for every edition to compile, and starts the
    compilers (Compiles, kept as job.pdf_compiles until finish_pdf), which write
    pdf/spelregels-<edition>.pdf while the build makes its other outputs. An edition unchanged since
    the previous build is copied from it, not compiled."""
    books = _prepare(job)
    job.pdf_compiles = Compiles(books) if books else None


def finish_pdf(job):
    """Reads: the compilers start_pdf started. Returns once every one has written its PDF; the first
    that failed is the build's error (and the others are stopped)."""
    compiles = getattr(job, "pdf_compiles", None)
    if compiles is None:
        return
    try:
        compiles.wait()
    finally:
        compiles.kill()
        job.pdf_compiles = None


def write_pdf(job):
    """Reads and writes what start_pdf does, and waits for the books: every edition's PDF, compiled and
    written (for callers outside the build, which starts the compilers early: start_pdf, finish_pdf).
    Books compiled whole go through compile_books."""
    books = _prepare(job)
    whole = [b for b in books if not b.parts]
    data = compile_books([(b.typ.read_text(encoding="utf-8"), b.timestamp) for b in whole], [b.name for b in whole])
    for book, pdf_bytes in zip(whole, data):
        book.out.write_bytes(pdf_bytes)
    job.pdf_compiles = Compiles([b for b in books if b.parts])
    finish_pdf(job)
