"""The whole English book in one file, as its PDF extraction gives it (../shared/english/laws2017-en.txt:
title pages, preface, introduction, committee lists, contents list, definitions, 93 Laws, index, back
cover), read as a book and checked against itself; and the same book joined from its page runs, cut
after its contents list, or without its law pages. The book is copyrighted and not part of the
project: these tests skip with a message where the shared folder is absent."""
import re
import shutil
from pathlib import Path

import pytest

from pipeline.core import tree
from pipeline.corpus import check, refs, stages
from tests.conftest import run_lawbook
from tests.test_english import node  # one node look-up for both English test files

ENGLISH = Path(__file__).resolve().parents[1].parent / "shared" / "english"
WHOLE = ENGLISH / "laws2017-en.txt"
RUNS = ["contents", "definitions", "p22-25", "p32-34", "p48-49", "p55-56", "p58-60", "p62-63", "p65-66", "index"]
ABSENT = f"the English book is not in {ENGLISH} (it is not part of the project: put the shared folder beside it)"

pytestmark = pytest.mark.skipif(not WHOLE.is_file(), reason=ABSENT)


def one_source(folder, data):
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "book.txt").write_bytes(data)
    (folder / "sources.toml").write_text('language = "en"\n[[source]]\nfile = "book.txt"\nedition = "2017"\n',
                                         encoding="utf-8")
    return folder


@pytest.fixture(scope="module")
def book(tmp_path_factory):
    return stages.make_corpus(one_source(tmp_path_factory.mktemp("whole"), WHOLE.read_bytes()))


def own_text(el):
    return " ".join(tree.plain_text(p) for p in el.findall("p"))


def test_the_whole_book_reads_without_an_error_as_a_book(book):
    assert book.detected["book.txt"].format == "print"
    assert [e.message for e in book.log.entries if e.kind == "error"] == []
    assert [e.message for e in book.log.entries if e.kind == "gap"] == []
    # The index's readings that two ways are open to are its own (tests/test_register.py counts them).
    # Besides them, six: this extraction's "nonoffending" where the PDF breaks "non-offending" at a line end.
    assert [(e.line, e.node) for e in check.uncertain(book.log) if not e.message.startswith("the index: ")] == [
        (1508, "2017/12C2c"), (1638, "2017/24"), (1643, "2017/24C"), (1883, "2017/50E4"), (1996, "2017/64C2a"),
        (2426, "2017/81C5")]


def test_every_law_and_section_as_the_contents_list_gives_them(book):
    assert [a.get("num") for a in book.corpus.iter("article")] == [str(n) for n in range(1, 94)]
    assert book.checked.said == ["2017: 93 articles, 271 sections, 66 definitions, 28 footnotes and 1 note marked *: "
                                 "as the contents list gives them"]


def test_the_introduction_and_the_definitions_are_text_of_their_own(book):
    intro = node(book, "2017/intro")
    assert intro.findtext("title") == "Introduction to the 2017 Laws of Duplicate Bridge"
    assert "this Introduction and the Definitions that follow form part of the Laws" in own_text(intro)
    terms = {d.get("id"): d.get("term") for d in book.corpus.iter("definition")}
    assert len(terms) == 66
    assert terms["2017/def/international-matchpoint"] == "International Matchpoint (IMP)"
    assert terms["2017/def/penalty"] == 'Penalty (see also "Rectification")'
    assert own_text(node(book, "2017/def/penalty")).startswith("Penalties are of two kinds")


def test_28_footnotes_with_the_books_numbers_none_inside_law_text(book):
    numbers = {n.get("num") for n in book.corpus.iter("note")}
    assert numbers == {str(n) for n in range(1, 29)} | {"*"}
    # The one note the book marks with a sign: the publisher's, on Law 77's tables, at both its markers.
    signed = [(n.get("id"), tree.plain_text(n)[:30]) for n in book.corpus.iter("note") if n.get("num") == "*"]
    assert signed == [("2017/77/noot1", "These tables from the original"), ("2017/77/noot2", "These tables from the original")]
    for p in book.corpus.iter("p"):
        assert not re.search(r"[a-z]\d{1,2}\b", tree.plain_text(p).replace("4NT", "")), tree.plain_text(p)[:80]


def test_every_citation_of_a_law_resolves(book):
    found = refs.references(book)
    assert check.summary(found)["dangling"] == 0
    assert check.summary(found)["suspect"] == 0
    assert len(found) > 400


def test_law_22_has_its_inline_sections(book):
    assert own_text(node(book, "2017/22")) == "The auction ends when:"
    assert own_text(node(book, "2017/22A")).startswith("one or more players having bid, there are three consecutive")
    assert own_text(node(book, "2017/22B")).startswith("all four players pass (but see Law 25).")


def test_29b_cites_laws_30_31_and_32(book):
    cited = {r.target for r in refs.references(book) if r.source_id == "2017/29B"}
    assert {"2017/30", "2017/31", "2017/32"} <= cited


def test_40b2_has_its_items_and_sub_items(book):
    assert [el.get("id") for el in node(book, "2017/40B2c")] [1:] == [
        "2017/40B2c.i", "2017/40B2c.ii", "2017/40B2c.iii", "2017/40B2c.iv"]
    assert own_text(node(book, "2017/40B2c.iv")).startswith("following an opponent's request for an explanation")


def test_72b_has_subsections_1_to_3(book):
    assert node(book, "2017/72B").findtext("heading") == "Infraction of Law"
    assert [s.get("id") for s in node(book, "2017/72B").iter("subsection")] == ["2017/72B1", "2017/72B2", "2017/72B3"]
    assert own_text(node(book, "2017/72B1")).startswith("A player must not infringe a law intentionally")


def test_78b_keeps_the_imp_scales_number_ranges(book):
    text = own_text(node(book, "2017/78B"))
    # (the book prints "20-40" with a hyphen, the other ranges with the dash)
    assert "0\u201310 0" in text and "20-40 1" in text and "1500\u20131740 17" in text


def test_the_joined_page_runs_read_their_laws_and_say_what_is_missing(tmp_path):
    data = b"".join((ENGLISH / f"laws2017-en_{run}.txt").read_bytes() for run in RUNS)
    ctx = stages.make_corpus(one_source(tmp_path / "joined", data))
    assert [e.message for e in ctx.log.entries if e.kind == "error"] == []
    assert [a.get("num") for a in ctx.corpus.iter("article")] == [
        "16", "17", "23", "24", "25", "26", "41", "42", "43", "46", "47", "50", "51", "52", "53", "54", "55", "56",
        "57", "58"]
    gaps = [e.message for e in ctx.log.entries if e.kind == "gap"]
    assert any(m.startswith("the contents list names 73 article(s) that the corpus does not hold: 1-15, 18-22, "
                            "27-40, 44-45, 48-49, 59-93") for m in gaps), gaps
    assert any(m.endswith("the book's page(s) 26-31 are not in this source") for m in gaps)


def test_the_book_cut_after_its_contents_list_fails_naming_what_is_missing(tmp_path):
    pages = WHOLE.read_bytes().split(b"\f")
    contents_end = next(i for i, p in enumerate(pages) if b"Adjusted Score:" in p)
    folder = one_source(tmp_path / "cut", b"\f".join(pages[:contents_end]))
    result = run_lawbook("build", "--no-pdf", "--sources", folder, "--out", tmp_path / "out")
    assert result.returncode == 1
    assert "no article was found in its sources (0 definitions)" in result.stderr
    assert "the contents list names 93 article(s) that the corpus does not hold: 1-93" in result.stderr


def test_the_book_without_its_law_pages_fails(tmp_path):
    pages = WHOLE.read_bytes().split(b"\f")
    first_law = next(i for i, p in enumerate(pages) if re.search(rb"(?m)^LAW 1\s*$", p))
    index = next(i for i, p in enumerate(pages) if re.search(rb"(?m)^Index to", p) and i > first_law)
    folder = one_source(tmp_path / "nolaws", b"\f".join(pages[:first_law] + pages[index:]))
    result = run_lawbook("build", "--no-pdf", "--sources", folder, "--out", tmp_path / "out")
    assert result.returncode == 1
    assert "no article was found in its sources (66 definitions)" in result.stderr


def test_the_whole_book_builds_with_exit_0_and_says_what_it_checked(tmp_path):
    folder = one_source(tmp_path / "src", WHOLE.read_bytes())
    result = run_lawbook("build", "--no-pdf", "--sources", folder, "--out", tmp_path / "out")
    assert result.returncode == 0, result.stderr[-2000:]
    assert "2017: 93 articles, 271 sections, 66 definitions, 28 footnotes and 1 note marked *: as the contents list " \
           "gives them" in result.stdout
    # Every reference of the law text resolves; the book's index cites 70D3 (twice) and 16A3, which the Laws do
    # not have, and writes 80A1(C) (tests/test_register.py).
    assert "3 references point outside the corpus, 1 suspect: `lawbook check` lists them" in result.stdout


def test_the_dutch_book_aligned_against_the_whole_english_book(tmp_path):
    import json

    from tests.conftest import SOURCES
    for args in (("--sources", SOURCES, "--out", tmp_path / "nl", "--no-corrections"),
                 ("--sources", one_source(tmp_path / "en-src", WHOLE.read_bytes()), "--out", tmp_path / "en")):
        built = run_lawbook("build", *args, "--no-pdf")
        assert built.returncode == 0, built.stderr[-2000:]
    result = run_lawbook("align", tmp_path / "nl", tmp_path / "en", "--json")
    data = json.loads(result.stdout)
    status = {n["id"]: n["status"] for n in data["nodes"]}
    # The Dutch sources lack 50's opening text: what the English opening cites is not compared.
    assert status["2017/50"] == "not-in-sources"
    assert data["editions"]["reference_whole"]["2017"].startswith("articles 1-93")
    # The whole book holds every Law: each dangling reference of the Dutch book is in it.
    assert data["dangling"] and {d["class"] for d in data["dangling"] if d["to"].startswith("2017/")} == {"in-reference"}


def test_the_book_without_its_form_feeds_reads_the_same_corpus(book, tmp_path):
    # Another extraction of the same book may not mark its pages: each page number alone after a blank
    # line, the next of its sequence (arabic or roman), starts the page.
    ctx = stages.make_corpus(one_source(tmp_path / "nf", WHOLE.read_bytes().replace(b"\f", b"")))
    assert [e.message for e in ctx.log.entries if e.kind == "error"] == []

    def texts(corpus):
        return [(el.get("id"), " ".join(el.itertext())) for el in corpus.iter(*tree.NODE_TAGS, "definition",
                                                                               "introduction")]
    assert texts(ctx.corpus) == texts(book.corpus)
