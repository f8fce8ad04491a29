"""The editor's page speaks the book's language (site/editor.py, templates/html/editor.html): its own words
and the report's messages it knows are the profile's (a Dutch book's page holds no English sentence of
them, an English book's says them in English, a French one's in French); each source is named by its origin
with its file name beside it; a repair's line break is a break, never a literal "\\n"; its sections fold.

The five Dutch sources, built once, and their corpus written as an English and a French book's site."""
import dataclasses
import re

import lxml.html
import pytest

from pipeline.core import lang
from pipeline.outputs import html
from pipeline.outputs.job import Job
from pipeline.outputs.site import editor
from pipeline.publish.run import make_corpus

from conftest import SOURCES

ORIGINS = {
    "000_8d35bcdf16b9ca3e.txt": "Wiki page export 'ARTIKEL 54': shows articles 53, 41, 24 and 50D, then a personal "
                                "remark on article 54 by Peter",
    "004_971f733aa3ecb59f.txt": "Text extraction of page 44 of the printed 2007 book: article 24 and the start of 25",
}


@pytest.fixture(scope="module")
def pages(tmp_path_factory):
    """The editor's page of the five sources' site in each language: {code: (raw text, parsed page)}."""
    context = make_corpus(SOURCES)
    out = {}
    for code in ("nl", "en", "fr"):
        folder = tmp_path_factory.mktemp(code)
        job = Job.of(dataclasses.replace(context.frozen(), profile=lang.profile(code)), folder)
        html.write_html(job)
        name = {"nl": "redactie.html", "en": "editorial.html", "fr": "redaction.html"}[code]
        raw = (folder / "html" / name).read_text(encoding="utf-8")
        out[code] = (raw, lxml.html.fromstring(raw))
    return out


def text_of(doc) -> str:
    return " ".join(doc.xpath("string(//main)").split())


def english_sentences() -> list[str]:
    """The English the page says in the book's words: each message of MESSAGES and each word the page names
    kinds, statuses and corrections with, by its literal parts of three words or more (placeholders cut out),
    and the page's old lead, which said its messages were English."""
    keys = [*editor.MESSAGES, *(w for _, title, intro in editor.REPORT_SECTIONS for w in (title, intro)), *editor.KIND_WORDS.values(),
            *editor.REF_STATUS_WORDS.values(), *editor.CORRECTION_KINDS.values(), *editor.ALIGN_NAMES.values(),
            "every message is in English"]
    parts = [p.strip(" .,:;()") for key in keys for p in re.split(r"%\(\w+\)s", key)]
    return sorted({p for p in parts if len(p.split()) >= 3})


def test_a_dutch_book_shows_no_english_sentence_of_its_messages(pages):
    raw, doc = pages["nl"]
    said = text_of(doc)
    assert [s for s in english_sentences() if s in said] == []
    assert doc.xpath("//*[@lang='en']") == []  # every message of the five sources is said in Dutch
    assert "paragraaf A van 2017/53 afgeleid uit lijstnummer 1.; bevestigd door 'artikel 53A'" in said
    assert "regel 7 woord dat aan het regeleinde was afgebroken, aaneengeschreven ge-volg → gevolg" in said
    assert "artikel 25 breekt af aan het eind van bladzijde 44: de rest staat op een bladzijde die niet in de bronnen " \
           "zit" in said
    assert [" ".join(h.text_content().split()) for h in doc.xpath("//summary/h2")] == [
        "Reparaties 25", "Afgeleide nummering 48", "Varianten 1", "Ontbrekende tekst 7", "Correcties 3",
        "Verwijzingen die niet kloppen 29", "Overige meldingen 6", "Bronnen 5"]


def test_an_english_book_says_the_same_in_english(pages):
    raw, doc = pages["en"]
    said = text_of(doc)
    assert "line 7 line-end hyphen joined ge-volg → gevolg" in said
    assert "section A of 2017/53 inferred from list number 1.; confirmed by 'artikel 53A'" in said
    assert "Law 25 is cut off at the end of page 44: the rest is on a page that is not in the sources" in said
    assert [" ".join(h.text_content().split()) for h in doc.xpath("//summary/h2")][:2] == [
        "Repairs 25", "Inferred numbering 48"]
    assert not {"regel", "afgeleid", "bronnen", "Reparaties"} & set(re.findall(r"\w+", said))


def test_a_french_book_says_them_in_french(pages):
    raw, doc = pages["fr"]
    said = text_of(doc)
    assert doc.xpath("//*[@lang='en']") == []
    assert "ligne 7 mot coupé en fin de ligne recollé ge-volg → gevolg" in said
    # (text_of's split() takes the no-break space before ";" for a space)
    assert "partie A de 2017/53 déduite selon le numéro de liste 1. ; confirmé par 'artikel 53A'" in said


def test_each_source_is_named_by_its_origin_with_its_file_name_beside_it(pages):
    raw, doc = pages["nl"]
    heads = [(h.xpath("string(span[@class='origin'])"), h.xpath("string(span[@class='file'])"))
             for h in doc.xpath("//details[@id='repair']/h3[@class='source']")]
    assert heads[0] == (ORIGINS["000_8d35bcdf16b9ca3e.txt"], "000_8d35bcdf16b9ca3e.txt")
    assert heads[-1] == (ORIGINS["004_971f733aa3ecb59f.txt"], "004_971f733aa3ecb59f.txt")
    sources = [" ".join(li.text_content().split()) for li in doc.xpath("//details[@id='bronnen']//li")]
    assert sources[0] == f"{ORIGINS['000_8d35bcdf16b9ca3e.txt']} 000_8d35bcdf16b9ca3e.txt: uitgave 2017, wiki, utf-8, 93 regels"
    # No entry is placed by a file name alone: the line, under the heading that names the source.
    assert [li.xpath("string(span[@class='where'])") for li in doc.xpath("//details[@id='repair']//li")][:2] == [
        "regel 12", "regel 12"]


def test_a_repairs_line_break_is_a_break_never_a_literal_backslash_n(pages):
    for code, (raw, doc) in pages.items():
        assert "\\n" not in raw, code
        assert "<del>ge-<br>volg</del>" in raw, code


def test_the_sections_are_details_with_their_heading_as_summary(pages):
    raw, doc = pages["nl"]
    sections = doc.xpath("//main/details")
    assert [d.get("id") for d in sections] == ["repair", "inference", "variant", "gap", "correcties", "verwijzingen",
                                               "overig", "bronnen"]
    assert all(d.get("class") == "report" and d.get("open") is None and d[0].tag == "summary" and d[0][0].tag == "h2"
               for d in sections)
    assert not doc.xpath("//main/section") and not doc.xpath("//ul[@class='jump']")


@pytest.mark.parametrize("message, dutch", [
    ("line-end hyphen joined across a page break (page furniture at boek.txt:40)",
     "woord dat aan het regeleinde was afgebroken, aaneengeschreven, over een bladzijdegrens heen "
     "(paginaopmaak op boek.txt:40)"),
    # A quotation keeps its words, " of " in it included.
    ("the heading 'Eén honneur of een kaart' of 24B split from its text at 'Als het'… by its line breaks: it stands "
     "alone on its line(s), the text after it starts a line",
     "het kopje 'Eén honneur of een kaart' van 24B van zijn tekst gescheiden bij 'Als het'… op grond van de "
     "regeleinden: het staat alleen op zijn regel(s), de tekst erna begint een nieuwe regel"),
    ("2017/41A begins a second time at line 13 (first at line 12), but numbering does not go back inside one "
     "article: the text from here on is probably another article's, whose heading line was not recognised, and "
     "is set aside; check the lines above for a damaged article heading",
     "2017/41A begint een tweede keer op regel 13 (de eerste keer op regel 12), maar binnen één artikel gaat de "
     "nummering niet terug: de tekst vanaf hier is waarschijnlijk die van een ander artikel, waarvan de kopregel "
     "niet werd herkend, en is terzijde gelegd; kijk in de regels erboven of een artikelkop beschadigd is"),
])
def test_a_message_is_said_clause_by_clause_in_the_books_words(message, dutch):
    assert editor.say_message(message, lang.profile("nl")) == (dutch, "nl")


def test_a_message_the_words_do_not_know_stays_english_whole():
    # One clause known, one not: the whole message stays as the report writes it, never half translated.
    message = "something new happened; no citation in the sources confirms it"
    assert editor.say_message(message, lang.profile("nl")) == (message, "en")
    assert editor.say_message("x; the first reading is kept until a source is corrected", lang.profile("nl"),
                              leave_out=["the first reading is kept until a source is corrected"]) == ("x", "en")
