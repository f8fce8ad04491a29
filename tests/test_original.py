"""The original beside the translation (`build --reference`; outputs/site/original.py): each article page
of an edition the reference holds carries, node by node, the original's words and align's status, hidden
until the reader turns the toggle on; without a reference the pages are as before.

The translation is test_html's SAMPLE; the original is a small made-up English corpus.json, written to a
file and read as `build --reference` reads it (publish/reference.read_corpus)."""
import json

import lxml.html
import pytest
from hypothesis import given, strategies as st
from lxml import etree

from pipeline.core import lang
from pipeline.corpus import align
from pipeline.outputs import html, serialise
from pipeline.outputs.job import Job
from pipeline.outputs.site.original import paragraph
from pipeline.publish.reference import read_corpus
from test_html import SAMPLE, sample_log


def source(file: str, *lines: int) -> list[dict]:
    return [{"file": file, "lines": list(lines)}]


def para(text: str, line: int, notes: tuple = (), refs: tuple = ()) -> dict:
    return {"type": "p", "text": text, "notes": list(notes), "refs": list(refs), "sources": source("en.txt", line)}


def made_up_original() -> dict:
    """An English 2017 of Laws 41 and 47 in the corpus.json shape: 41 with a note and words that need
    escaping, a section 41B the translation lacks; 47 with a 47B the translation lacks, and 47E with 47E1
    and a 47E2 the translation lacks. No 2007, no 53."""
    lead = "Lead face down <b>&</b> wait"
    return {"format": "lawbook-corpus", "version": 1, "language": "en", "editions": [{
        "id": "2017", "definitions": [], "commentary": [],
        "articles": [
            {"id": "2017/41", "type": "article", "num": "41", "title": "THE START", "sources": source("en.txt", 1),
             "content": [
                 {"id": "2017/41A", "type": "section", "num": "A", "heading": "Lead Face Down",
                  "sources": source("en.txt", 2, 3), "content": [
                      para(lead, 3, notes=[{"id": "2017/41A/noot1", "offset": len("Lead face down"), "form": "print",
                                            "num": "7", "text": "Face up where the authority says so.",
                                            "sources": source("en.txt", 9)}],
                           refs=[{"status": "ok", "to": "2017/47E1", "words": "47E1", "start": 0, "end": 4},
                                 {"status": "ok", "to": "2017/47E2", "words": "47E2", "start": 5, "end": 9}])]},
                 {"id": "2017/41B", "type": "section", "num": "B", "heading": "Review",
                  "sources": source("en.txt", 4, 5), "content": [para("Each may ask for a review.", 5)]}]},
            {"id": "2017/47", "type": "article", "num": "47", "title": "RETRACTION", "sources": source("en.txt", 10),
             "content": [
                 {"id": "2017/47B", "type": "section", "num": "B", "heading": "Illegal Play",
                  "sources": source("en.txt", 14), "content": [para("A card may be taken back.", 14)]},
                 {"id": "2017/47E", "type": "section", "num": "E", "heading": "Change of Play",
                  "sources": source("en.txt", 11), "content": [
                      {"id": "2017/47E1", "type": "subsection", "num": "1", "sources": source("en.txt", 12),
                       "content": [para("A lead out of turn may be retracted.", 12)]},
                      {"id": "2017/47E2", "type": "subsection", "num": "2", "sources": source("en.txt", 13),
                       "content": [para("A player may withdraw a card.", 13)]}]}]}]}]}


@pytest.fixture(scope="module")
def original_file(tmp_path_factory):
    folder = tmp_path_factory.mktemp("en-build")
    (folder / "corpus.json").write_text(json.dumps(made_up_original()), encoding="utf-8")
    return folder


def write_site(folder, reference=None):
    """The SAMPLE site, with the alignment build --reference leaves on the job when `reference` is given."""
    job = Job.of_tree(etree.fromstring(SAMPLE), folder, lang.profile("nl"), sample_log())
    if reference is not None:
        job.made.alignment = align.align(serialise.to_json(job.corpus), read_corpus(reference))
    html.write_html(job)
    return folder / "html"


@pytest.fixture(scope="module")
def site(original_file, tmp_path_factory):
    return write_site(tmp_path_factory.mktemp("with"), original_file)


def page(site, path):
    return lxml.html.fromstring((site / path).read_bytes())


def blocks(doc) -> dict[str, dict]:
    """Each original block of a page by its node's anchor: status, place, words, the original's label."""
    out = {}
    for div in doc.xpath("//div[@class='originals']/div"):
        out[div.get("data-node")] = {
            "class": div.get("class"), "place": div.get("data-place"),
            "only": div.get("data-only-original") is not None, "before": div.get("data-before"),
            "status": div.xpath("string(.//span[@class='status-words'])"),
            "label": div.xpath("string(.//p[@class='original-label'])"),
            "text": [p.text_content() for p in div.xpath("./p[not(@class)]")],
            "notes": [li.text_content() for li in div.xpath(".//ul[@class='original-notes']/li")]}
    return out


def test_the_made_up_original_is_a_corpus_the_reference_reader_accepts(original_file):
    assert read_corpus(original_file)["editions"][0]["id"] == "2017"


def test_each_node_of_an_article_holds_the_originals_words_and_aligns_status(site):
    doc = page(site, "2017/41.html")
    found = blocks(doc)
    assert list(found) == ["41", "41A", "41B"]
    assert found["41"] == {"class": "original original-match", "place": "41", "only": False, "before": None,
                           "status": "komt overeen met het origineel", "label": "THE START", "text": [],
                           "notes": []}
    # 41A: the translation cites 47E1 (in its note) and 47E2, like the original; one note each.
    assert found["41A"]["class"] == "original original-match"
    assert found["41A"]["label"] == "Lead Face Down"
    assert found["41A"]["text"] == ["Lead face down7 <b>&</b> wait"]  # the note's number at its marker
    assert found["41A"]["notes"] == ["7 Face up where the authority says so."]
    # 41B: only the original has it, inside an article whose title the sources give: missing here, and
    # its block goes with its nearest node on the page, the article.
    assert found["41B"] == {"class": "original original-missing", "place": "41", "only": True, "before": None,
                            "status": "in het origineel, ontbreekt hier", "label": "Review",
                            "text": ["Each may ask for a review."], "notes": []}


def test_the_originals_words_are_escaped_text(site):
    raw = (site / "2017/41.html").read_text(encoding="utf-8")
    assert "Lead face down<sup class=\"original-noteref\">7</sup> &lt;b&gt;&amp;&lt;/b&gt; wait" in raw
    assert page(site, "2017/41.html").xpath("//div[@class='originals']//b") == []


def test_a_node_only_the_translation_has_and_one_only_the_original_has(site):
    found = blocks(page(site, "2017/47.html"))
    assert {k: (v["class"], v["place"], v["only"], v["before"]) for k, v in found.items()} == {
        "47": ("original original-match", "47", False, None),
        # Article 47's title is in no source: 47B, which only the original has, is outside every part the
        # sources show; its block goes in the article, before 47E, the next of the article's nodes here.
        "47B": ("original original-not-in-sources", "47", True, "47E"),
        "47E": ("original original-match", "47E", False, None),
        "47E1": ("original original-match", "47E1", False, None),
        "47E1a": ("original original-extra", "47E1a", False, None),
        # 47E's heading is in the sources: 47E2 is missing there, at the end of 47E.
        "47E2": ("original original-missing", "47E", True, None)}
    assert found["47B"]["status"] == "in het origineel; niet in de bronnen van deze vertaling"
    assert found["47E1a"]["status"] == "niet in het origineel"
    assert found["47E1a"]["text"] == [] and found["47E1a"]["label"] == ""
    assert found["47E2"]["text"] == ["A player may withdraw a card."]


def test_the_toggle_is_off_hidden_until_the_script_shows_it_and_never_searched(site):
    doc = page(site, "2017/41.html")
    bar, = doc.xpath("//div[@class='original-bar']")
    assert bar.get("hidden") is not None and bar.get("data-pagefind-ignore") is not None
    button, = bar.xpath("button")
    assert (button.text, button.get("aria-pressed"), button.get("type")) == ("Origineel ernaast", "false", "button")
    holder, = doc.xpath("//div[@class='originals']")
    assert holder.get("hidden") is not None and holder.get("data-pagefind-ignore") is not None
    # Inside the article, after its header: the script pairs the blocks with the nodes of the same page.
    assert holder.getparent().get("class") == "law"


def test_an_article_the_original_lacks_says_so(site):
    doc = page(site, "2017/53.html")
    assert [p.text_content() for p in doc.xpath("//div[@class='originals']/p")] == \
        ["Dit artikel staat niet in het origineel."]
    assert blocks(doc) == {}


def test_an_edition_the_original_does_not_hold_has_no_toggle(site):
    doc = page(site, "2007/41.html")
    assert doc.xpath("//div[@class='original-bar'] | //div[@class='originals']") == []


def test_without_a_reference_the_article_pages_are_as_before(site, tmp_path):
    plain = write_site(tmp_path)
    for path in ("2017/41.html", "2017/47.html", "2017/53.html", "2007/41.html"):
        text = (plain / path).read_text(encoding="utf-8")
        assert "original" not in text
    # With the reference, only the block after the article's header is new.
    with_text = (site / "2017/53.html").read_text(encoding="utf-8")
    without = (plain / "2017/53.html").read_text(encoding="utf-8")
    start = with_text.index('  <div class="original-bar"')
    end = with_text.index("  </div>\n", with_text.index('<div class="originals"')) + len("  </div>\n")
    assert with_text[:start] + with_text[end:] == without


@given(st.text(max_size=40), st.lists(st.tuples(st.integers(0, 60), st.sampled_from(["", "3", "12", "*"]),
                                                 st.text(max_size=10)), max_size=4))
def test_a_paragraph_keeps_every_character_and_every_note_in_order(text, notes):
    shown = paragraph(text, notes)
    assert "".join(p["text"] for p in shown.pieces if "text" in p) == text
    numbers = [p["note"] for p in shown.pieces if "note" in p]
    assert numbers == [n["number"] for n in shown.notes] and len(numbers) == len(notes)
    ordered = sorted(notes, key=lambda n: n[0])
    assert [n["text"] for n in shown.notes] == [words for _, _, words in ordered]
    assert numbers == [number or str(i) for i, (_, number, _) in enumerate(ordered, start=1)]


def test_every_status_align_gives_has_the_readers_words():
    from pipeline.outputs.site.original import STATUS_WORDS
    assert set(STATUS_WORDS) == set(align.STATUSES)
    assert all(lang.profile("nl").word(words) != words for words in STATUS_WORDS.values())


def test_the_originals_words_are_marked_with_its_language_and_the_status_with_the_books(site):
    """The reference's corpus records its language ("en"): its title, paragraphs and notes carry lang="en",
    so a screen reader reads them in an English voice; the status words are the page's own (Dutch)."""
    [block] = page(site, "2017/41.html").xpath("//div[@class='originals']/div[@data-node='41A']")
    assert [(el.tag, el.get("class"), el.get("lang")) for el in block.iterchildren()] == [
        ("p", "original-status", None), ("p", "original-label", "en"), ("p", None, "en"),
        ("ul", "original-notes", "en")]
