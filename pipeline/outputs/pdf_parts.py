"""A big book compiled in parts and joined into one PDF/A-2b (pdf.py sends books of more than
part_articles()[1] articles here).

The compiler's memory grows with the pages it lays out in one compile, and it keeps them until its
process ends (docs/performance.md): one 930-article edition took 1.9 GB. In parts, it holds what one
part takes:

    front   book.typ.j2 with the article and section headings only: the title page, the colophon
            and the contents, whose page numbers come from sys.inputs ("pages"); the pages of the
            headings themselves are dropped
    parts   part.typ.j2, `size` articles each, set exactly as book.typ.j2 sets them, as the pages
            they are in the book: sys.inputs "first" is the book's page of the part's first page
            (odd or even side, the page numbers in the running heads), its footnotes numbered on
            from the parts before; a node of another part it links to is an invisible heading of
            that label, so the link compiles (and is pointed at the node itself when joined)

    1. the front, with every heading's page estimated from the sources' sizes (estimated_pages):
       its page count F (the pages before the first article)
    2. the parts one after the other, each in a compiler process of its own, the first starting
       on page F + 1 and each on the page after the last: their page counts and their nodes' pages
    3. the front again, with every heading's page; should its page count have changed (the
       estimate gave some entry a number of another width, and the contents another length), 2
       and 3 again (at most MAX_ROUNDS)
    4. the join: the front's first F pages, then each part's own pages; the named destination of
       every node (from its own part, never a stub), so links land on their targets; the outline
       rebuilt from the front's (the title page, the colophon and the contents first); /Lang, the XMP
       metadata (its page count corrected), the output intent and the document information are the
       front's; it opens with its bookmarks shown (/PageMode /UseOutlines)

The parts of one book are compiled one at a time, so each book in parts is one compiler at a time:
two editions, two compilers. The sources are kept (pdf/spelregels-<edition>.parts/: front.typ,
part-NN.typ and inputs.json, the inputs each was compiled with last: `typst compile --input
lawbook='…' part-01.typ`). The compiling and joining run in a process of its own (`main(PLAN)`,
started by compiling.Compiles beside the build's other outputs), which answers like a compile child
(book/compiling.COMPILE_CHILD): the PDF written, or one line of JSON on stdout and exit status 2.
"""
import contextlib
import math
import json
import os
import re
import subprocess
import sys
import warnings
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import jinja2
    import pikepdf

    from .book.source import TypstCode
    from ..core.tree import Element

# Articles in one part, and the size above which a book is compiled in parts. Measured on the
# generated books (docs/performance.md): a compile takes about 60 MB and 2.5 MB an article, and each
# part costs a compiler start (0.6 s). 60 articles keep one compiler near 200 MB; books up to 150
# articles (the Spelregels has 93) stay one compile, byte for byte as before.
# LAWBOOK_PDF_PART_ARTICLES=N sets both to N (the tests compile a small book in parts).
PART_ARTICLES = 60
PARTS_ABOVE = 150
MAX_ROUNDS = 3
# Characters of Typst source per page, to estimate each heading's page before the parts are laid
# out (estimated_pages). Measured on the generated 930-article book (docs/performance.md, "Scaling"):
# a part 3,640-3,920 characters a page (its house style before its first heading not counted), the
# front (the contents' headings, the chapters before the articles) 4,170-4,180. Only the estimate's
# number of digits has to be right for the contents to take the pages they take with the real numbers;
# when it is not, build_parts goes round again.
PART_CHARACTERS_PER_PAGE = 3800
FRONT_CHARACTERS_PER_PAGE = 4200
OWN_LABEL = re.compile(r"\] <(n[0-9A-Za-z-]+)>")  # a heading's label where it is set (part.typ.j2, book.typ.j2)
STUBBED = re.compile(r"#xref\(<(n[0-9A-Za-z-]+)>")
LOOSE_LABEL = "toelichtingen"
DEFINITIONS_LABEL = "definities"  # book.typ.j2's label of the Definitions' chapter heading
# book.typ.j2's labels of the front matter, each a bookmark, in the order of the book
FRONT_MATTER_LABELS = ["title-page", "colophon", "contents"]

# The book of one edition as book/view.book_view gives it; the plan of a book in parts (write_sources, then
# pdf.py adds the compile child, the PDF, the work folder and the timestamp) as main() reads it from JSON.
BookView = dict[str, Any]
Plan = dict[str, Any]
# What makes Typst printed as is (book/source.TypstCode), and a named destination: (page index, left, top).
MakeCode = Callable[[str], "TypstCode"]
Destination = tuple[int, Any, Any]


def front_chapters(view: "BookView") -> list[str]:
    """The labels of the chapters before the first article (the Introduction, the Definitions), in the
    order of the book: the front sets them whole, and its outline names them before the articles."""
    return ([str(view["introduction"]["label"])] if view.get("introduction") else []) \
        + ([DEFINITIONS_LABEL] if view.get("definitions") else [])


def part_articles() -> tuple[int, int]:
    """(articles in one part, the number of articles above which a book is compiled in parts)."""
    value = os.environ.get("LAWBOOK_PDF_PART_ARTICLES", "")
    if value.isdigit() and int(value) > 0:
        return int(value), int(value)
    return PART_ARTICLES, PARTS_ABOVE


def _labels(node: dict[str, Any]) -> list[str]:
    """The labels (named destinations) of a node view and every node below it."""
    out = [str(node["label"])] if "label" in node else []
    for child in node.get("children", ()):
        out += _labels(child)
    return out


def front_source(view: "BookView", env: "jinja2.Environment", code: "MakeCode") -> tuple[str, list[str]]:
    """book.typ.j2 with every article and section heading and nothing else (see the module docstring).
    Returns (source, the bookmarked labels in the order of the outline)."""
    # The heading pages are dropped when joined: without running heads, whose queries of every heading
    # on every page made a 930-article front take 1.5 GB and 13.5 s (0.9 GB and 11.7 s without them).
    # The contents print each heading's page from sys.inputs (book.contents_pages), not from the page
    # counter: setting the counter before each of 4,100 headings made the outline resolve it entry by
    # entry (0.9 GB and 12 s; about 0.4 GB and 4 s this way). Before the parts are laid out, an
    # estimate of each page (estimated_pages); 8888 (the template's) for an entry with none.
    skeleton: list[dict[str, Any]] = [{"kind": "p", "markup": code("#set page(header: none, footer: none)")}]
    bookmarked = FRONT_MATTER_LABELS + front_chapters(view)
    for article in view["articles"]:
        bookmarked.append(str(article["label"]))
        children = [dict(child, children=[]) for child in article["children"] if child["kind"] == "section"]
        bookmarked += [str(child["label"]) for child in children]
        skeleton.append(dict(article, children=children, commentary=[]))
    loose = view["loose_commentary"][:1]
    if loose:
        bookmarked.append(LOOSE_LABEL)
    source = env.get_template("book.typ.j2").render(
        book=dict(view, articles=skeleton, loose_commentary=loose, contents_pages=True))
    inputs = '#let lawbook-pages = json(bytes(sys.inputs.at("lawbook", default: "{}"))).at("pages", default: (:))\n'
    return inputs + str(source), bookmarked


def part_sources(view: "BookView", edition: "Element", size: int, env: "jinja2.Environment",
                 code: "MakeCode") -> list[tuple[str, list[str]]]:
    """The Typst source of each part of `view` (view.book_view of the <edition>), `size` articles each
    (the loose commentary with the last): [(source, own labels)]."""
    from ..core.view import element_id

    template = env.get_template("part.typ.j2")
    articles = view["articles"]
    notes = {element_id(el): sum(1 for _ in el.iter("note")) for el in edition.iter("article", "commentary")}
    every = {label for a in articles for label in _labels(a)}
    out: list[tuple[str, list[str]]] = []
    footnotes = 0
    for start in range(0, len(articles), size):
        chunk = articles[start:start + size]
        loose = view["loose_commentary"] if start + size >= len(articles) else []
        own = [label for a in chunk for label in _labels(a)] + ([LOOSE_LABEL] if loose else [])
        book = dict(view, articles=chunk, loose_commentary=loose)
        part = {"footnotes": code(str(footnotes)), "stubs": []}
        body = template.render(book=book, part=part)
        cited = sorted(set(STUBBED.findall(body)) & every - set(own))
        out.append((template.render(book=book, part=dict(part, stubs=[code(label) for label in cited])), own))
        # Footnotes number on through the book: every <note> is one (in its article or a commentary).
        footnotes += sum(notes.get(a["id"], 0) + sum(notes.get(c["id"], 0) for c in a["commentary"]) for a in chunk)
    if len(articles) == 0 and view["loose_commentary"]:
        book = dict(view, articles=[], loose_commentary=view["loose_commentary"])
        out.append((template.render(book=book, part={"footnotes": code("0"), "stubs": []}), [LOOSE_LABEL]))
    return out


def write_sources(view: "BookView", edition: "Element", folder: Path, size: int, env: "jinja2.Environment",
                  code: "MakeCode") -> "Plan":
    """Writes front.typ and part-NN.typ into `folder`; returns the plan main() reads (without the
    compile child, the PDF to write, the work folder and the timestamp, which pdf.py adds).
    `env` is the template environment of book/source.py, `code` its TypstCode (Typst printed as is: the labels,
    checked by source.label_name, and fixed markup)."""
    folder.mkdir(parents=True, exist_ok=True)
    front, bookmarked = front_source(view, env, code)
    (folder / "front.typ").write_text(front, encoding="utf-8")
    parts: list[dict[str, Any]] = []
    weight = len(front)
    for k, (source, own) in enumerate(part_sources(view, edition, size, env, code), 1):
        path = folder / f"part-{k:02d}.typ"
        path.write_text(source, encoding="utf-8")
        parts.append({"typ": str(path), "own": own, "chars": len(source),
                      "at": _label_offsets(source, own)})
        weight = max(weight, len(source))
    # The first page after the front: the first article's (the front matter and the chapters before it
    # are the front's own).
    body = bookmarked[len(FRONT_MATTER_LABELS) + len(front_chapters(view)):]
    return {"front": str(folder / "front.typ"), "parts": parts, "bookmarked": bookmarked,
            "first": body[0] if body else None,
            "inputs": str(folder / "inputs.json"), "weight": weight, "front_chars": len(front)}


def _label_offsets(source: str, own: list[str]) -> dict[str, int]:
    """{label: the character where its heading is set in `source`} for the part's own labels
    (a stub of another part's node is no own label); a label not found is left out."""
    wanted = set(own)
    out: dict[str, int] = {}
    for found in OWN_LABEL.finditer(source):
        if found.group(1) in wanted:
            out.setdefault(found.group(1), found.start())
    return out


def estimated_pages(front_chars: int, parts: list[dict[str, Any]]) -> dict[str, int]:
    """The page of every own heading of the parts, estimated from the sizes of the Typst sources
    before it (FRONT_ and PART_CHARACTERS_PER_PAGE), for the first compile of the front: its
    contents then print numbers as wide as the real ones will be, so that in the common case its
    page count is already the final one and the parts are laid out once (build_parts checks it, and
    goes round again when not). `parts` as in the plan: each {"chars", "own", "at"}."""
    page: float = round(front_chars / FRONT_CHARACTERS_PER_PAGE)
    out: dict[str, int] = {}
    for part in parts:
        at = part.get("at", {})
        body = min(at.values(), default=0)  # the part's house style before its first heading sets no page
        for k, label in enumerate(part["own"]):
            # A label not found where set (the loose commentary's) is placed by its rank among the own ones.
            offset = at[label] - body if label in at else (part["chars"] - body) * k / max(len(part["own"]), 1)
            out[label] = max(1, int(page + offset / PART_CHARACTERS_PER_PAGE) + 1)  # after the whole pages before it
        page = math.ceil(page + (part["chars"] - body) / PART_CHARACTERS_PER_PAGE)  # a part ends its last page
    return out


# -- the process that compiles and joins (main) ------------------------------------------------------

class Failed(Exception):
    """A compile child that gave no PDF: its exit status and its answer (book/compiling.COMPILE_CHILD)."""

    def __init__(self, returncode: int, answer: bytes) -> None:
        super().__init__(returncode)
        self.returncode, self.answer = returncode, answer


def _compile(plan: "Plan", typ: str, pdf_path: Path, inputs: dict[str, Any]) -> None:
    """Compile `typ` into `pdf_path` in a child process, with sys.inputs {"lawbook": JSON of inputs}
    (in a file: the front's pages are too many for an argument list)."""
    given = str(pdf_path)[:-len(".pdf")] + ".inputs.json"
    Path(given).write_text(json.dumps({"lawbook": json.dumps(inputs, sort_keys=True)}), encoding="utf-8")
    proc = subprocess.run([sys.executable, "-c", plan["child"], str(plan["timestamp"]), typ, str(pdf_path), given],
                          stdin=subprocess.DEVNULL, capture_output=True, env=dict(os.environ, RUST_BACKTRACE="0"))
    if proc.returncode != 0:
        raise Failed(proc.returncode, proc.stdout)


def _destinations(pdf: "pikepdf.Pdf") -> dict[str, "Destination"]:
    """{name: (page index, left, top)} of every named destination of an open pikepdf.Pdf."""
    import pikepdf
    if "/Names" not in pdf.Root or "/Dests" not in pdf.Root.Names:
        return {}
    index = {page.objgen: i for i, page in enumerate(pdf.pages)}
    out: dict[str, Destination] = {}
    for name, dest in pikepdf.NameTree(pdf.Root.Names.Dests).items():
        dest = dest.D if isinstance(dest, pikepdf.Dictionary) else dest
        if dest[0].objgen in index:
            left, top = (dest[2], dest[3]) if len(dest) > 3 and dest[1] == pikepdf.Name.XYZ else (None, None)
            out[str(name)] = (index[dest[0].objgen], left, top)  # type: ignore[index]  # (pikepdf's stubs: a Page's objgen, through its __getattr__, is an Object)
    return out


def _pages(pdf_path: Path, labels: Sequence[str], lead: int) -> tuple[int, dict[str, int]]:
    """(page count after the `lead` pages, {label: its page index after them}) of a compiled PDF."""
    import pikepdf
    with pikepdf.open(pdf_path) as pdf:
        dests = _destinations(pdf)
        return len(pdf.pages) - lead, {label: dests[label][0] - lead for label in labels if label in dests}


def lead_pages(first: int) -> int:
    """The blank pages a part begins with (dropped when joined), so that its first page falls on the
    side it has in the book: part.typ.j2 sets the same."""
    return 1 if first % 2 == 0 else 2


def build_parts(plan: "Plan") -> None:
    """Compile the plan's front and parts (see the module docstring) and join them into plan["out"]."""
    work = Path(plan["work"])
    first_label = plan["first"]
    front_pdf = work / "front.pdf"
    parts_pdf = [work / f"part-{k:02d}.pdf" for k in range(1, len(plan["parts"]) + 1)]
    used: dict[str, dict[str, Any]] = {"front": {"pages": estimated_pages(plan.get("front_chars", 0), plan["parts"])}}
    _compile(plan, plan["front"], front_pdf, used["front"])
    front_pages = _pages(front_pdf, [first_label], 0)[1].get(first_label, 0)
    for _ in range(MAX_ROUNDS):
        first = front_pages + 1
        page_of: dict[str, int] = {}
        for k, (part, out) in enumerate(zip(plan["parts"], parts_pdf), 1):
            used[f"part-{k:02d}"] = {"first": first}
            _compile(plan, part["typ"], out, used[f"part-{k:02d}"])
            count, own = _pages(out, part["own"], lead_pages(first))
            page_of.update({label: first + index for label, index in own.items()})
            first += count
        used["front"] = {"pages": page_of}
        _compile(plan, plan["front"], front_pdf, used["front"])
        settled = _pages(front_pdf, [first_label], 0)[1].get(first_label, 0)
        if settled == front_pages:  # the contents did not grow or shrink with the real page numbers
            break
        front_pages = settled
    Path(plan["inputs"]).write_text(json.dumps(used, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    join(front_pdf, front_pages, [(out, lead_pages(used[f"part-{k:02d}"]["first"]), part["own"])
                                  for k, (part, out) in enumerate(zip(plan["parts"], parts_pdf), 1)],
         plan["bookmarked"], plan["out"])
    for leftover in work.iterdir():  # the parts' PDFs and the plan: the joined PDF is what the build keeps
        leftover.unlink()
    work.rmdir()


def join(front_pdf: Path, front_pages: int, parts: Sequence[tuple[Path, int, list[str]]], bookmarked: list[str],
         out: Path | str) -> None:
    """One PDF/A-2b of the front's first `front_pages` pages and each (part PDF, leading pages to drop,
    its own labels) after its leading pages; see the module docstring. The front is the base: its
    /Lang, XMP metadata (the page count corrected), output intent, viewer preferences and document
    information are the book's. qpdf (pikepdf) copies the pages with their links: 3.6 s for a 1,209-page
    edition, where pypdf, whose copying of links and destinations is quadratic in them, took 28 s."""
    import pikepdf
    from pikepdf import Array, Dictionary, Name, String
    with contextlib.ExitStack() as opened:  # every part stays open until the book is saved: qpdf copies then
        book = opened.enter_context(pikepdf.open(front_pdf))
        titles: list[tuple[int, str]] = []  # (level, title) of the front's outline, in order: the articles and sections

        def walk(items: "Sequence[pikepdf.OutlineItem]", level: int) -> None:
            for item in items:
                titles.append((level, item.title))
                walk(item.children, level + 1)
        with book.open_outline() as outline:
            walk(outline.root, 0)
        destinations = {label: d for label, d in _destinations(book).items() if d[0] < front_pages}  # `contents`
        del book.pages[front_pages:]
        for key in ("/StructTreeRoot", "/MarkInfo", "/Outlines"):  # the parts' structure trees are not joined
            if key in book.Root:
                del book.Root[key]
        for path, lead, own in parts:
            part = opened.enter_context(pikepdf.open(path))
            offset = len(book.pages) - lead
            dests = _destinations(part)
            destinations.update({label: (dests[label][0] + offset,) + dests[label][1:]
                                 for label in own if label in dests})
            # extend, not add_pages_from: the named destinations are made anew below, for the whole book
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", pikepdf.PageCopyWarning)
                book.pages.extend(part.pages[lead:])
        # A link names a node (kept when the node is in the book: a stub's name is its node's, the contents'
        # headings are in the parts) or a page (a footnote's: kept when that page was taken).
        taken = {page.objgen for page in book.pages}
        for page in book.pages:
            if "/StructParents" in page:
                del page["/StructParents"]
            if "/Annots" not in page:
                continue
            kept: list[pikepdf.Object] = []
            for annot in page.Annots:
                dest = annot.get("/Dest")
                if isinstance(dest, String) and str(dest) not in destinations:
                    continue
                if isinstance(dest, Array) and (len(dest) == 0 or dest[0].objgen not in taken):
                    continue
                if "/StructParent" in annot:
                    del annot["/StructParent"]
                kept.append(annot)
            page.Annots = Array(kept)
        names: list[Any] = []  # one name tree leaf, sorted as a name tree must be (built as a list: Array.extend copies)
        for label in sorted(destinations):
            index, left, top = destinations[label]
            names += [String(label), Array([book.pages[index].obj, Name.XYZ, left, top, None])]
        book.Root.Names = Dictionary(Dests=book.make_indirect(Dictionary(Names=Array(names))))
        # Bookmarks: the front's outline names every article and section in order, as a whole-book compile does.
        with book.open_outline() as outline:
            parents: dict[int, list[pikepdf.OutlineItem]] = {-1: outline.root}
            for (level, title), label in zip(titles, bookmarked):
                if label not in destinations or level - 1 not in parents:
                    continue
                index, left, top = destinations[label]
                item = pikepdf.OutlineItem(title, index, "XYZ", left=left, top=top)
                parents[level - 1].append(item)
                parents[level] = item.children
        book.Root.PageLabels = Dictionary(Nums=Array([0, Dictionary(S=Name.D)]))
        book.Root.PageMode = Name.UseOutlines  # opens with the bookmarks shown (book/bookmarks.py)
        xmp = book.Root.Metadata.read_bytes().decode("utf-8")
        xmp = re.sub(r"<xmpTPg:NPages>\d+</xmpTPg:NPages>", f"<xmpTPg:NPages>{len(book.pages)}</xmpTPg:NPages>", xmp)
        book.Root.Metadata.write(xmp.encode("utf-8"))
        # The same inputs give the same bytes: the /ID from the content, no qpdf producer note in the XMP.
        book.save(out, deterministic_id=True, fix_metadata_version=False)


def main(argv: Sequence[str]) -> int:
    """The process that compiles and joins one book in parts: argv is [PLAN] (the JSON file pdf.py wrote)."""
    import ctypes
    import signal
    try:
        ctypes.CDLL(None).prctl(1, signal.SIGKILL)  # end with the build, and so end its compilers
    except Exception:
        pass
    plan = json.loads(Path(argv[0]).read_text(encoding="utf-8"))
    try:
        build_parts(plan)
    except Failed as e:
        sys.stdout.buffer.write(e.answer if e.returncode == 2 else json.dumps(
            {"kind": "error", "message": f"a part's compiler ended with status {e.returncode}"}).encode())
        return 2
    except Exception as e:
        sys.stdout.write(json.dumps({"kind": type(e).__name__, "message": str(e)}))
        return 2
    return 0
