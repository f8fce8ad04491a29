"""A personal remark in a wiki export ends where the law resumes: at the next article heading.

A remark ("* Deze opmerking is geschreven op persoonlijke titel …") is commentary up to the next
article heading, never across it; a line inside it that starts like a heading but does not read as one
is an error naming both lines, never absorbed into the commentary."""
from pathlib import Path

from hypothesis import given, settings, strategies as st

from conftest import WIKI_54, add_source, run_lawbook
from pipeline.publish import run as build
from pipeline.core import tree
from pipeline.core.report import BuildLog
from pipeline.reading import formats, manifest
from pipeline.reading.decode import Line

REMARK = "* Deze opmerking is geschreven op persoonlijke titel en valt onder verantwoording van Anna."
# A page of my own: the title names article 12; a remark on it, then article 13 on the same page.
PAGE = "\n".join([
    "ARTIKEL 12",                                 # 1
    "Artikel 12",                                 # 2
    "1. Een speler mag een kaart tonen.",         # 3
    "2. De partner zwijgt daarbij.",              # 4
    "",                                           # 5
    REMARK,                                       # 6
    "",                                           # 7
    "Ik lees lid 2 ruimer dan bedoeld.",          # 8
    "Wie twijfelt, roept de leider.",             # 9
    "Artikel 13",                                 # 10
    "De leider beslist over de kaart.",           # 11
])


def corpus_of(folder, text, name="page.txt"):
    add_source(folder, name, text)
    return build.make_corpus(folder)


def node_ids(corpus):
    return [el.get("id") for el in corpus.iter(*tree.NODE_TAGS)]


def commentary(corpus):
    """Each commentary as (id, on, author, attribution, [its paragraphs' text])."""
    return [(c.get("id"), c.get("on"), c.get("author"), c.find("attribution").text,
             [tree.plain_text(p) for p in c.iter("p")]) for c in corpus.iter("commentary")]


def test_an_article_heading_after_a_remark_ends_the_commentary(tmp_path):
    ctx = corpus_of(tmp_path, PAGE)
    assert node_ids(ctx.corpus) == ["2017/12", "2017/12A", "2017/12B", "2017/13"]
    assert tree.plain_text(tree.node_by_id(ctx.corpus, "2017/13").find("p")) == "De leider beslist over de kaart."
    assert commentary(ctx.corpus) == [
        ("2017/12/toelichting1", "2017/12", "Anna", REMARK[2:],
         ["Ik lees lid 2 ruimer dan bedoeld.", "Wie twijfelt, roept de leider."])]
    assert [(e.kind, e.line, e.message) for e in ctx.log.entries if "commentary" in e.message] == [
        ("inference", 10, "the commentary that begins at line 6 ends at line 10, at the article heading "
                          "'Artikel 13': the law resumes there")]
    assert ctx.log.errors == []


def test_two_remarks_on_one_page_are_two_commentaries(tmp_path):
    second = "* Deze opmerking is geschreven op persoonlijke titel en valt onder verantwoording van Bram."
    ctx = corpus_of(tmp_path, PAGE + "\n\n" + second + "\nArtikel 13 spreekt voor zich.")
    assert node_ids(ctx.corpus) == ["2017/12", "2017/12A", "2017/12B", "2017/13"]
    assert [(c[0], c[2], c[4]) for c in commentary(ctx.corpus)] == [
        ("2017/12/toelichting1", "Anna", ["Ik lees lid 2 ruimer dan bedoeld.", "Wie twijfelt, roept de leider."]),
        ("2017/12/toelichting2", "Bram", ["Artikel 13 spreekt voor zich."])]
    assert ctx.log.errors == []


def test_a_remark_right_after_another_is_a_commentary_of_its_own(tmp_path):
    second = "* Deze opmerking is geschreven op persoonlijke titel en valt onder verantwoording van Bram."
    ctx = corpus_of(tmp_path, PAGE.replace("Wie twijfelt", second + "\nWie twijfelt"))
    assert [(c[0], c[2], c[4]) for c in commentary(ctx.corpus)] == [
        ("2017/12/toelichting1", "Anna", ["Ik lees lid 2 ruimer dan bedoeld."]),
        ("2017/12/toelichting2", "Bram", ["Wie twijfelt, roept de leider."])]
    assert [e.message for e in ctx.log.entries if "commentary" in e.message] == [
        "the commentary that begins at line 9 ends at line 11, at the article heading 'Artikel 13': the law "
        "resumes there"]
    assert node_ids(ctx.corpus) == ["2017/12", "2017/12A", "2017/12B", "2017/13"]


def test_a_heading_that_does_not_read_inside_a_remark_is_an_error_naming_both_lines(tmp_path):
    ctx = corpus_of(tmp_path, PAGE.replace("Artikel 13", "Artikel 13 B"))
    assert [(e.kind, e.file, e.line, e.message) for e in ctx.log.errors] == [
        ("error", "page.txt", 10, "'Artikel 13 B' at line 10, inside the commentary that begins at line 6, looks "
                                  "like an article heading but does not read as one: a heading is 'Artikel' and the "
                                  "citation alone on its line, as in 'Artikel 41', 'Artikel 50D' or 'Artikel 47E1'; "
                                  "it is not read as commentary, and the text up to the next heading is not read "
                                  "until the line is corrected")]
    assert node_ids(ctx.corpus) == ["2017/12", "2017/12A", "2017/12B"]
    # Neither the heading nor the text under it became commentary.
    assert commentary(ctx.corpus)[0][4] == ["Ik lees lid 2 ruimer dan bedoeld.", "Wie twijfelt, roept de leider."]
    [fragment] = ctx.fragments
    assert {n: fragment.ledger[n].reason for n in (10, 11)} == {
        n: "under the article heading at line 10, which does not read (error)" for n in (10, 11)}


def test_the_command_line_fails_on_it_naming_the_file_and_line(tmp_path):
    folder = tmp_path / "src"
    folder.mkdir()
    add_source(folder, "page.txt", PAGE.replace("Artikel 13", "Artikel 13 B"))
    result = run_lawbook("build", "--no-pdf", "--sources", folder, "--out", tmp_path / "out")
    assert result.returncode == 1
    assert result.stderr.splitlines()[0].startswith(
        "lawbook: error: page.txt:10: 'Artikel 13 B' at line 10, inside the commentary that begins at line 6,")


def test_running_text_citing_an_article_stays_commentary(tmp_path):
    # "Artikel 13 is …": a citation at the start of a sentence, not a heading (looks_like_article).
    ctx = corpus_of(tmp_path, PAGE.replace("Artikel 13\nDe leider", "Artikel 13 is hier niet van toepassing.\nDe leider"))
    assert node_ids(ctx.corpus) == ["2017/12", "2017/12A", "2017/12B"]
    assert commentary(ctx.corpus)[0][4] == ["Ik lees lid 2 ruimer dan bedoeld.", "Wie twijfelt, roept de leider.",
                                            "Artikel 13 is hier niet van toepassing.",
                                            "De leider beslist over de kaart."]
    assert ctx.log.errors == []


# -- the reader, for any remark -----------------------------------------------------------------------
WORD = st.text(alphabet="abcdefghijklmnopqrstuvwxyz", min_size=1, max_size=8)
LINE = st.lists(WORD, min_size=1, max_size=6).map(" ".join)


def read_page(text):
    log = BuildLog()
    lines = [Line("p.txt", n, t) for n, t in enumerate(text.split("\n"), 1)]
    return formats.read(lines, manifest.Source(path=Path("p.txt"), edition="2017", language="nl", format="wiki"), log), log


@settings(max_examples=60, deadline=None)
@given(remark=st.lists(LINE, min_size=0, max_size=5), number=st.integers(1, 93), section=st.sampled_from(["", "B"]))
def test_the_reader_ends_any_remark_at_the_next_heading(remark, number, section):
    text = "\n".join(["ARTIKEL 7", "Artikel 7", "Tekst van zeven.", REMARK, *remark, f"Artikel {number}{section}",
                      "tekst"])
    reading, log = read_page(text)
    kinds = [(b.kind, b.text, b.lines) for b in reading.blocks]
    heading = 5 + len(remark)
    assert kinds == [("article", "Artikel 7", [2]), ("para", "Tekst van zeven.", [3]),
                     ("attribution", REMARK[2:], [4]),
                     *[("commentary", t, [n]) for n, t in enumerate(remark, 5)],
                     ("article", f"Artikel {number}{section}", [heading]), ("para", "tekst", [heading + 1])]
    assert reading.blocks[-2].cite == f"{number}{section}"
    assert [(e.kind, e.line) for e in log.entries] == [("inference", heading)]


# -- the real wiki export ------------------------------------------------------------------------------
def test_an_article_appended_after_peters_remark_is_read_as_an_article(sources_copy, tmp_path):
    before = build.make_corpus(sources_copy)
    path = sources_copy / WIKI_54
    original = path.read_text(encoding="utf-8")
    last = len(original.split("\n"))
    path.write_text(original + "\n\nArtikel 45\nDe kaart telt als gespeeld.\n", encoding="utf-8")
    ctx = build.make_corpus(sources_copy)
    articles = [a.get("id") for a in ctx.corpus.iter("article") if a.get("id").startswith("2017/")]
    assert articles == sorted([a.get("id") for a in before.corpus.iter("article")
                               if a.get("id").startswith("2017/")] + ["2017/45"], key=lambda i: int(i[5:7]))
    assert tree.plain_text(tree.node_by_id(ctx.corpus, "2017/45").find("p")) == "De kaart telt als gespeeld."
    assert commentary(ctx.corpus) == commentary(before.corpus)  # Peter's remark, word for word, and no more
    assert [(e.file, e.line, e.message) for e in ctx.log.entries if "ends at line" in e.message] == [
        (WIKI_54, last + 2, f"the commentary that begins at line 79 ends at line {last + 2}, at the article "
                            f"heading 'Artikel 45': the law resumes there")]
    result = run_lawbook("build", "--no-pdf", "--sources", sources_copy, "--out", tmp_path / "out")
    assert result.returncode == 0, result.stderr


def test_a_remark_before_article_41_leaves_41_and_24_in_place(sources_copy, tmp_path):
    before = build.make_corpus(sources_copy, {"no_corrections": True})
    path = sources_copy / WIKI_54
    lines = path.read_text(encoding="utf-8").split("\n")
    at = next(n for n, text in enumerate(lines) if text.replace("\u00a0", " ").strip() == "Artikel 41")
    lines[at:at] = [REMARK, "Een kanttekening bij 53.", ""]
    path.write_text("\n".join(lines), encoding="utf-8")
    ctx = build.make_corpus(sources_copy, {"no_corrections": True})
    ids_before = node_ids(before.corpus)
    assert node_ids(ctx.corpus) == ids_before
    assert {"2017/41", "2017/24"} <= set(ids_before)
    for article in ("2017/41", "2017/24"):
        assert tree.plain_text(tree.node_by_id(ctx.corpus, article)) == tree.plain_text(
            tree.node_by_id(before.corpus, article))
    assert [(c[0], c[2], c[4]) for c in commentary(ctx.corpus)] == [
        ("2017/54/toelichting1", "Anna", ["Een kanttekening bij 53."]),
        ("2017/54/toelichting2", "Peter", commentary(before.corpus)[0][4])]
    result = run_lawbook("build", "--no-pdf", "--no-corrections", "--sources", sources_copy, "--out", tmp_path / "out")
    assert result.returncode == 0, result.stderr
