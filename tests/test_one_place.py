"""One place each: what the code promises to do in one place is done there and nowhere else.

- Every node ID is split or joined through pipeline/core/ids.py (NodeId and its functions): no
  f-string joins an edition and a citation with "/", no ID is cut with split("/") or rsplit("/"), and
  no module keeps its own copy of ids.article_of.
- Footnotes printed apart from their markers are matched by one rule, pipeline/reading/notes.py's
  Footnotes, which every reader calls (its cases are tested here on made-up pages).
- No module calls another module's private function (a name with a leading underscore): what two
  modules share is public, named and documented in the module that owns it.
- The outputs read an element's ID through the corpus view (pipeline/core/view.py: element_id, which names an
  element without the ID its schema promises, or optional_id): no module of pipeline/outputs/ reads the `id`
  attribute itself (el.get("id"), el.attrib["id"]).
"""
import ast
import re
from pathlib import Path

import pytest
from hypothesis import given as given_data, strategies as st

from pipeline.core.model import NOTE_MARK, Note
from pipeline.core.report import BuildLog
from pipeline.reading import formats, manifest
from pipeline.reading.decode import Line
from pipeline.reading.notes import Footnote, Footnotes, give_text, give_texts
from conftest import ROOT

PIPELINE = ROOT / "pipeline"

# -- every ID made and cut by ids.py ------------------------------------------------------------------
HAND_MADE_ID = {
    "an edition joined to what follows by '/'": re.compile(r"\{[^{}]*\bed(?:ition)?\b[^{}]*\}/\{"),
    "a string cut at '/'": re.compile(r"""\.r?(?:split|partition)\(\s*["']/["']"""),
    "a copy of ids.article_of": re.compile(r"\bdef\s+_?article_id\b"),
    "a part of the ID scheme spelled out": re.compile(r"""["']/(?:noot|toelichting|def|intro)\b"""),
}
# What looks like a hand-made ID and is not one: (file, the text on the line) -> why.
NOT_IDS = {
    ("pipeline/serve.py", '.split("/")'): "a URL's path cut into its folders to find the file it names",
    ("pipeline/publish/outdir/ledger.py", 'rel.split("/", 1)[0]'): "a file's path in the output folder: its first folder",
    ("pipeline/outputs/site/model.py", 'f"{root}{node.edition}/{node.article}.html"'):
        "an article page's URL: the edition's folder of the site and the page's file",
    ("pipeline/outputs/site/model.py", 'f"../{other.edition}/{other.file}"'): "a page's URL in another edition's folder",
    ("pipeline/outputs/site/search.py", 'f"{ed}/{page.file}"'): "a page's path below html/",
    ("pipeline/outputs/site/pages.py", 'f"../{edition}/{cite}.html"'): "an article page's URL",
    ("pipeline/outputs/site/pages.py", 'f"{edition}/{article.file}"'): "a page's path below html/",
    ("pipeline/outputs/site/pages.py", 'f"{edition}/{site.files.graph}"'): "the graph page's path below html/",
    ("pipeline/outputs/site/register.py", 'f"{edition}/{page_name(site)}"'): "the index page's path below html/",
}


def hand_made_ids(text: str, name: str = "made_up.py") -> list[str]:
    """"name:line: what" for each line of `text` that makes or cuts an ID by hand, less NOT_IDS."""
    found = []
    for number, line in enumerate(text.splitlines(), 1):
        if any(file == name and snippet in line for file, snippet in NOT_IDS):
            continue
        found += [f"{name}:{number}: {what}: {line.strip()}" for what, pattern in HAND_MADE_ID.items()
                  if pattern.search(line)]
    return found


def test_the_finder_sees_ids_made_and_cut_by_hand():
    text = ('node = f"{edition}/{cite}"\n'
            'where = f"{reading.edition}/{cite}"\n'
            'slug = node_id.rsplit("/", 1)[1]\n'
            'edition, rest = node_id.split("/")\n'
            'def _article_id(node_id):\n'
            'node = ids.join(edition, cite)\n'
            'label = f"{edition}-{cite}"\n'
            'kind = "commentary" if "/toelichting" in citing else "law"\n')
    assert [f.split(": ", 1)[0] for f in hand_made_ids(text)] == \
        ["made_up.py:1", "made_up.py:2", "made_up.py:3", "made_up.py:4", "made_up.py:5", "made_up.py:8"]


def test_every_id_is_made_and_cut_by_ids():
    found = [hit for path in sorted(PIPELINE.rglob("*.py")) if path.name != "ids.py"
             for hit in hand_made_ids(path.read_text(), str(path.relative_to(ROOT)))]
    assert not found, "IDs made or cut by hand (use NodeId or the functions of pipeline/core/ids.py):\n" + \
        "\n".join(found)


def test_every_exception_of_the_id_finder_is_still_needed():
    for (file, snippet), why in NOT_IDS.items():
        assert snippet in (ROOT / file).read_text(), f"{file} no longer has {snippet!r} ({why}): drop it from NOT_IDS"


def _project_modules(tree: ast.Module) -> set[str]:
    """The names under which `tree` binds modules of the project: relative imports
    ("from . import decode as read", "from .formats import printed") and "pipeline.…" ones."""
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (node.level or (node.module or "").startswith("pipeline")):
            names |= {a.asname or a.name for a in node.names}
        elif isinstance(node, ast.Import):
            names |= {(a.asname or a.name).split(".")[0] for a in node.names if a.name.startswith("pipeline")}
    return names


def private_uses(source: str) -> list[str]:
    """"module._name" for every private name of a project module used in `source`, and
    "from … import _name" for every private name imported from one."""
    tree = ast.parse(source)
    modules = _project_modules(tree)
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (node.level or (node.module or "").startswith("pipeline")):
            found += [f"from {'.' * node.level}{node.module or ''} import {a.name}" for a in node.names
                      if a.name.startswith("_") and not a.name.startswith("__")]
        elif isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in modules \
                and node.attr.startswith("_") and not node.attr.startswith("__"):
            found.append(f"{node.value.id}.{node.attr}")
    return found


def test_the_finder_sees_a_private_call_through_an_import_and_not_one_of_a_library():
    source = ("import os\nfrom . import decode as read\nfrom ..build import outdir\nfrom .formats import _helper\n"
              "read._line_of(b'', 0)\nopen('x', opener=outdir._no_follow)\nos._exit(0)\nread.line_of(b'', 0)\n")
    assert sorted(private_uses(source)) == ["from .formats import _helper", "outdir._no_follow", "read._line_of"]


def test_no_module_calls_another_modules_private_function():
    found = {f"{path.relative_to(ROOT)}: {use}"
             for path in sorted(PIPELINE.rglob("*.py")) for use in private_uses(path.read_text())}
    assert not found, "private names used from another module (make them public where they are shared):\n" + \
        "\n".join(sorted(found))


# -- the outputs read IDs through the corpus view ------------------------------------------------------
def id_reads(source: str) -> list[int]:
    """The lines of `source` that read the `id` attribute by hand: .get("id") (with or without a default),
    .attrib["id"], .attrib.get("id")."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "get" \
                and node.args and isinstance(node.args[0], ast.Constant) and node.args[0].value == "id":
            found.append(node.lineno)
        elif isinstance(node, ast.Subscript) and isinstance(node.value, ast.Attribute) \
                and node.value.attr == "attrib" and isinstance(node.slice, ast.Constant) and node.slice.value == "id":
            found.append(node.lineno)
    return sorted(found)


def test_the_finder_sees_every_hand_read_id():
    source = ('a = el.get("id")\nb = el.get(\'id\', "")\nc = el.attrib["id"]\nd = el.attrib.get("id")\n'
              'e = view.element_id(el)\nf = el.get("num")\ng = row["id"]\nh = el.get("idx")\n')
    assert id_reads(source) == [1, 2, 3, 4]


def test_no_output_reads_an_elements_id_but_through_the_corpus_view():
    found = [f"{path.relative_to(ROOT)}:{line}" for path in sorted((PIPELINE / "outputs").rglob("*.py"))
             for line in id_reads(path.read_text(encoding="utf-8"))]
    assert not found, "IDs read by hand in the outputs (use pipeline/core/view.py: element_id, optional_id or a " \
        "view):\n" + "\n".join(found)


# -- one rule for footnotes printed apart from their markers -----------------------------------------
def foot(number: str, page: int, line: int, text: str = "") -> Footnote:
    return Footnote(number, page, [line], text or f"note {number} of page {page}")


def marker(page: int, line: int, number: str) -> tuple:
    return page, line, Note(text="", lines=[line], form="print", number=number)


def given(matched) -> list[tuple]:
    """(marker line, footnote text, cited again) of each match."""
    return [(note.lines[0], footnote.text, again) for note, footnote, again in matched.found]


def test_footnotes_numbered_per_page_go_to_their_pages_markers_and_never_to_a_later_pages():
    feet = Footnotes([foot("1", 0, 9), foot("2", 0, 10), foot("1", 1, 19), foot("1", 3, 39)])
    matched = feet.match([marker(0, 2, "1"), marker(0, 4, "2"), marker(1, 12, "1"), marker(2, 22, "2"),
                          marker(3, 31, "1")])
    assert given(matched) == [(2, "note 1 of page 0", False), (4, "note 2 of page 0", False),
                              (12, "note 1 of page 1", False), (31, "note 1 of page 3", False)]
    # Page 2's marker 2: its page and the next print no footnote 2, and where the numbers start again
    # on each page, page 0's footnote 2 is another note.
    assert [n.lines[0] for n in matched.unmatched] == [22] and matched.unused == []
    assert not feet.has("2", 2, 22) and feet.has("2", 0, 4)


def test_a_footnote_that_did_not_fit_goes_to_the_first_marker_before_the_next_pages_own():
    feet = Footnotes([foot("1", 1, 18, "carried over"), foot("1", 1, 19, "page 1's own")])
    matched = feet.match([marker(0, 7, "1"), marker(1, 12, "1")])
    assert given(matched) == [(7, "carried over", False), (12, "page 1's own", False)]


def test_a_footnote_numbered_through_the_book_and_cited_twice_has_its_text_at_both_markers():
    feet = Footnotes([foot("13", 2, 29), foot("14", 2, 30)])
    matched = feet.match([marker(2, 21, "13"), marker(2, 24, "13"), marker(2, 25, "14"), marker(5, 51, "13")])
    assert given(matched) == [(21, "note 13 of page 2", False), (24, "note 13 of page 2", True),
                              (25, "note 14 of page 2", False), (51, "note 13 of page 2", True)]
    assert feet.has("13", 5, 51) and feet.has("13", 1, 11) and not feet.has("15", 2, 21)


def test_a_note_cited_twice_on_a_page_takes_its_pages_footnote_not_the_next_pages_reprint():
    # A book that prints a note again at the foot of every page that cites it.
    feet = Footnotes([foot("13", 58, 5837), foot("13", 59, 5934)])
    matched = feet.match([marker(58, 5831, "13"), marker(58, 5832, "13"), marker(59, 5921, "13")])
    assert given(matched) == [(5831, "note 13 of page 58", False), (5832, "note 13 of page 58", True),
                              (5921, "note 13 of page 59", False)]


def test_a_footnote_printed_before_its_marker_on_one_page_is_not_its_own():
    # A template is one page: its footnote lines follow their paragraph.
    feet = Footnotes([foot("1", 0, 3, "after the first paragraph")])
    matched = feet.match([marker(0, 5, "1")])
    assert matched.found == [] and [n.lines[0] for n in matched.unmatched] == [5]
    assert [f.position for f in matched.unused] == [3]


def test_give_text_adds_the_footnotes_lines_after_the_markers():
    note = Note(text="", lines=[4], form="print", number="1")
    give_text(note, Footnote("1", 0, [9, 10], "one\ntwo", [(9, "one"), (10, "two")]))
    assert (note.text, note.lines, note.pieces) == ("one\ntwo", [4, 9, 10], [(9, "one"), (10, "two")])


def test_a_footnote_cited_again_is_an_inference_and_a_first_citation_after_its_page_is_not():
    feet = Footnotes([foot("7", 1, 19, "seven"), foot("8", 1, 20, "eight")])
    markers = [marker(1, 12, "7"), marker(4, 41, "7"), marker(4, 42, "8")]
    log = BuildLog()
    give_texts(feet.match(markers), log.for_file("made-up.txt"))
    assert [n.text for _, _, n in markers] == ["seven", "seven", "eight"]
    assert [(e.kind, e.line, e.message) for e in log.entries] == [
        ("inference", 41, "footnote 7 is cited twice, at lines 12 and 41: its text (line 19) is given at both")]


@given_data(st.lists(st.tuples(st.integers(0, 5), st.sampled_from("123")), max_size=12),
       st.lists(st.tuples(st.integers(0, 5), st.sampled_from("123")), max_size=12))
def test_every_marker_gets_a_footnote_of_its_number_that_the_rule_allows(at_feet, at_markers):
    feet = Footnotes([foot(n, p, 100 * p + 90 + k) for k, (p, n) in enumerate(sorted(at_feet))])
    markers = [marker(p, 100 * p + k, n) for k, (p, n) in enumerate(sorted(at_markers))]
    matched = feet.match(markers)
    assert len(matched.found) + len(matched.unmatched) == len(markers)
    taken = [id(f) for _, f, again in matched.found if not again]
    assert len(taken) == len(set(taken))  # a footnote is first given once
    assert {id(f) for f in matched.unused}.isdisjoint({id(f) for _, f, _ in matched.found})
    for note, footnote, again in matched.found:
        page = next(p for p, line, n in markers if n is note)
        assert footnote.number == note.number
        assert footnote.page in (page, page + 1) or feet.through and footnote.page < page


# -- the readers call the rule --------------------------------------------------------------------------
def read(text: str, edition: str = "2007"):
    log = BuildLog()
    lines = [Line("f.txt", n, t) for n, t in enumerate(text.split("\n"), 1)]
    return formats.read(lines, manifest.Source(path=Path("f.txt"), edition=edition, language="nl"), log), log


def print_pages(*pages: list[str]) -> str:
    """Made-up printed pages: a running head and the page number (from 44) above each page's lines."""
    return "\n".join(("\f" if k else "") + "\n".join(["SPELREGELS", str(44 + k), *page]) for k, page in enumerate(pages))


@pytest.mark.parametrize("skipped", [0, 1], ids=["at-the-next-page", "two-pages-on"])
def test_the_print_reader_takes_a_footnote_from_the_next_page_and_no_further(skipped):
    pages = [["ARTIKEL 24", "Getoonde kaart", "Als de leider ziet", "1", "dat het zo is."]]
    pages += [["Hij speelt door", "en door."]] * skipped
    pages += [["Daarna gaat het spel", "verder.", "1", "Een late voetnoot."]]
    reading, log = read(print_pages(*pages))
    note = reading.blocks[2].notes[0]
    foot = 12 + 4 * skipped  # the footnote's number line
    if not skipped:
        assert (note.text, note.lines, log.errors) == ("Een late voetnoot.", [6, foot, foot + 1], [])
        return
    # Two pages on, the footnote is no marker's: both are errors, and its lines stay in the text.
    assert (note.text, reading.blocks[-1].text, reading.blocks[-1].lines) == ("", "Een late voetnoot.",
                                                                               [foot, foot + 1])
    assert sorted((e.line, e.message) for e in log.errors) == [
        (6, "footnote marker 1 has no footnote text at the bottom of its page or the next"),
        (foot, "footnote 1 has no marker in the text before it")]


def test_the_template_reader_gives_footnotes_to_their_markers_in_order():
    reading, log = read("Sjabloon:2007:41\nARTIKEL 41 Het spel\nEerst 1) dit.\nDan 1) dat.\n1) De eerste.\n"
                        "1) De tweede.\n2) Geen teken.")
    assert [(b.text, [n.text for n in b.notes]) for b in reading.blocks[2:]] == [
        (f"Eerst{NOTE_MARK} dit.", ["De eerste."]), (f"Dan{NOTE_MARK} dat.", ["De tweede."]),
        ("2) Geen teken.", [])]
    assert [(e.line, e.message) for e in log.errors] == [(7, "footnote 2) has no marker in the text before it")]


def test_every_reader_of_footnotes_apart_from_their_markers_calls_the_one_rule():
    """A format whose notes are numbered ("1)" lines) or printed (page feet) matches them by
    notes.Footnotes, and keeps no matching of its own."""
    apart = [f for f in formats.FORMATS.values() if {"numbered", "print"} & set(f.notes)]
    assert {f.name for f in apart} == {"template", "print", "flowed", "pdf"}
    for fmt in apart:
        module = Path(fmt.read.__code__.co_filename)
        # The printed book's formats are read by the one reader of printed books, whose footnotes are matched
        # where its footnotes are given to their markers (reading/book/body.py).
        source = module.read_text() if module.name != "book.py" else \
            (module.parent.parent / "book" / "body.py").read_text()
        assert "notes.Footnotes(" in source, fmt.name
        assert "_attach_footnote" not in source and "_footnote_page" not in source, fmt.name
