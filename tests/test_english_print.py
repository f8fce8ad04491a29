"""The whole English book printed (../shared/english/laws2017-en.txt, skipped when absent): its contents
have no empty entry (a section the book gives no heading, such as 22A, is no "A. …… 36"), the first Law
opens on a right-hand page, every folio stands in the head, and the parenthetical dashes of its text are
en dashes. Text extracted with pypdfium2, as tests/test_pdf.py does."""
import re

import pytest

from pipeline.outputs.job import Job
from pipeline.outputs import pdf
from pipeline.publish import run as build
from tests.test_english_book import ABSENT, WHOLE, one_source

pytestmark = pytest.mark.skipif(not WHOLE.is_file(), reason=ABSENT)


@pytest.fixture(scope="module")
def printed(tmp_path_factory):
    import pypdfium2

    ctx = Job.of(build.make_corpus(one_source(tmp_path_factory.mktemp("whole-en"), WHOLE.read_bytes())), tmp_path_factory.mktemp("out"))
    pdf.write_pdf(ctx)
    document = pypdfium2.PdfDocument(ctx.tmp / pdf.pdf_name("2017", ctx.profile))
    try:
        texts = [document[i].get_textpage().get_text_range().replace("\r\n", "\n") for i in range(len(document))]
    finally:
        document.close()
    return ctx, texts


def test_no_contents_entry_is_a_letter_dots_and_a_page(printed):
    ctx, texts = printed
    assert ctx.corpus.xpath("//section[@id='2017/22A'][not(heading)]")  # the case: a section without a heading
    contents = [i for i, t in enumerate(texts) if t.split("\n")[1:2] == ["Contents"]][0]
    first_law = next(i for i, t in enumerate(texts) if re.search(r"^Law 1$", t, re.M) and i > contents)
    entries = [line for t in texts[contents:first_law] for line in t.split("\n")]
    assert [line for line in entries if re.fullmatch(r"[A-Z]\.[ .]+\d+", line.strip())] == []
    assert any(re.fullmatch(r"C\. Choice after Irregularity[ .]+\d+", line.strip()) for line in entries)


def test_the_first_law_opens_on_a_right_hand_page_and_every_folio_is_in_the_head(printed):
    _, texts = printed
    first_law = next(i for i, t in enumerate(texts) if re.search(r"^Law 1$", t, re.M))
    assert (first_law + 1) % 2 == 1
    contents = [i for i, t in enumerate(texts) if t.split("\n")[1:2] == ["Contents"]][0]
    for index in range(contents, len(texts)):
        if texts[index].strip():
            head = texts[index].split("\n")[0].strip()
            assert head == str(index + 1) or head.startswith(f"{index + 1} ") or head.endswith(f" {index + 1}"), \
                (index, head)


def test_the_spaced_hyphens_of_the_text_are_dashes_each_logged(printed):
    ctx, _ = printed
    said = [(e.file, e.before, e.after) for e in ctx.log.entries if e.message == "spaced hyphen read as a dash"]
    assert ("book.txt", "49 - penalty", "49 \u2013 penalty") in said and ("book.txt", "claim - for", "claim \u2013 for") in said
    assert all(e.line for e in ctx.log.entries if e.message == "spaced hyphen read as a dash")
    law_61_title = " ".join(ctx.corpus.xpath("string(//article[@id='2017/61']/title)").split())
    assert law_61_title == "FAILURE TO FOLLOW SUIT \u2013 INQUIRIES CONCERNING A REVOKE"


def test_the_bookmarks_are_in_english_and_the_text_holds_no_word_joiner(printed):
    from tests.test_pdf import bookmarks, copied_text

    ctx, texts = printed
    data = (ctx.tmp / pdf.pdf_name("2017", ctx.profile)).read_bytes()
    marks = bookmarks(data)
    assert marks[:3] == [(0, "Title page", 0), (0, "Colophon", 1), (0, "Contents", 2)]
    laws = [title for level, title, _ in marks if level == 0 and title.startswith("Law ")]
    assert len(laws) == sum(1 for _ in ctx.corpus.iter("article")) and laws[0].startswith("Law 1 ")
    assert not [title for _, title, _ in marks if "title missing" in title]
    pages = copied_text(data)
    assert len(pages) == len(texts) and [i for i, text in enumerate(pages) if "\u2060" in text] == []
    assert b"/PageMode /UseOutlines" in data or b"/PageMode/UseOutlines" in data
    assert "Made with lawbook " in pages[1] and "Digest of the sources (SHA-256): " in pages[1]
