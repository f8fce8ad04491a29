"""The PDF edition: escaping, links, outline, footnotes, metadata and reproducibility.

Each PDF is compiled once per module: a hand-made edition that holds every Typst special
character and every kind of reference, and the two editions of the real sources.
"""
import datetime
import io
import os
import re
import unicodedata
from pathlib import Path

import pytest
from lxml import etree
from pypdf import PdfReader

from pipeline.publish import run as build
from pipeline.reading import manifest
from pipeline import cli
from pipeline.outputs import glyphs
from pipeline.outputs import pdf
from pipeline.outputs.book import bookmarks as pdf_bookmarks, compiling, printable, source as pdf_source, view as pdf_view
from pipeline.core import lang, tree
from pipeline.bench import generate
from pipeline.core.errors import LawbookError
from pipeline.pdf_screenshots import footnote_page, png_bytes
from pipeline.outputs.job import Job
from pipeline.core.stage import Stage

from conftest import add_source

NL = lang.profile("nl")  # the Dutch book's file names
ROOT = Path(__file__).resolve().parent.parent
BUILT = datetime.datetime(2024, 3, 1, 12, 0, tzinfo=datetime.timezone.utc)

# Every character with a meaning in Typst markup or code, and the sequences that start one.
SPECIALS = r"""# * _ $ @ < > [ ] { } \ " ' ` ~ = - + / // /* */ -- --- ... -? : ; 1. https://x.nl \n \u{41}"""


def _p(parent, text, tag="p"):
    el = etree.SubElement(parent, tag, sources="t.txt:1")
    el.text = text
    return el


def hand_made_corpus():
    """Edition 2017 with article 1 (A, A1, A1a, a gap) and article 2, refs of every status,
    a note, a commentary; edition 2007 with article 1, the target of a cross-edition ref."""
    corpus = etree.Element("corpus")
    old = etree.SubElement(corpus, "edition", id="2007")
    old_article = etree.SubElement(old, "article", id="2007/1", num="1", sources="t.txt:1")
    _p(old_article, "Oude tekst.")

    ed = etree.SubElement(corpus, "edition", id="2017")
    art = etree.SubElement(ed, "article", id="2017/1", num="1", sources="t.txt:1")
    _p(art, "Titel " + SPECIALS, tag="title")
    intro = _p(art, "Vooraf " + SPECIALS + " einde")
    note = etree.SubElement(intro, "note", id="2017/1/noot1", form="inline", sources="t.txt:1")
    note.text = "Noot " + SPECIALS + " zie "
    note_ref = etree.SubElement(note, "ref", to="2017/2", status="ok")
    note_ref.text = "artikel 2"
    note.tail = " en verder."
    sec = etree.SubElement(art, "section", id="2017/1A", num="A", sources="t.txt:1")
    _p(sec, "Kop " + SPECIALS, tag="heading")
    sub = etree.SubElement(sec, "subsection", id="2017/1A1", num="1", sources="t.txt:1")
    body = _p(sub, "Lid een verwijst naar ")
    for target, status, words in (("2017/1A1a", "ok", "artikel 1A1a"),
                                  ("2017/9Z", "dangling", "artikel 9Z"),
                                  ("2017/8", "known-missing", "artikel 8"),
                                  ("2007/1", "ok", "artikel 1 van 2007"),
                                  ("2017/2 2017/1A", "suspect", "artikelen 2 en 1A")):
        ref = etree.SubElement(body, "ref", to=target, status=status)
        ref.text = words
        ref.tail = ", "
    ref.tail = "."
    item = etree.SubElement(sub, "item", id="2017/1A1a", num="a", sources="t.txt:1")
    _p(item, "Onderdeel a van lid een.")
    etree.SubElement(sec, "gap", reason="de rest van 1A staat in geen bron")
    art2 = etree.SubElement(ed, "article", id="2017/2", num="2", sources="t.txt:1")
    _p(art2, "Tweede artikel", tag="title")
    _p(art2, "Tekst van artikel twee.")
    com = etree.SubElement(ed, "commentary", id="2017/1/toelichting1", on="2017/1A", author="Anna",
                           sources="t.txt:1")
    etree.SubElement(com, "attribution").text = "Geschreven door Anna."
    _p(com, "Toelichting met " + SPECIALS)
    return corpus


def edition_of(corpus, edition_id):
    return next(e for e in corpus.iterchildren("edition") if e.get("id") == edition_id)


def squash(text):
    """Letters and digits only: compares text across line breaks and hyphenation."""
    return re.sub(r"[\W_]+", "", text).lower()


def flat(text):
    """Runs of ordinary white space as one space; no-break spaces stay what they are."""
    return re.sub(r"[ \t\r\n]+", " ", text)


def page_texts(reader):
    return [page.extract_text() for page in reader.pages]


def links(reader):
    """(page index, named destination) of every internal link."""
    found = []
    for index, page in enumerate(reader.pages):
        for annot in page.get("/Annots") or []:
            annot = annot.get_object()
            if isinstance(annot.get("/Dest"), str):
                found.append((index, annot["/Dest"]))
    return found


def dest_pages(reader):
    return {name: reader.get_destination_page_number(dest) for name, dest in reader.named_destinations.items()}


def body_start(reader):
    """The page index of the first article: the pages before it are title page, colophon and contents."""
    return min(page for name, page in dest_pages(reader).items() if name.startswith("n"))


def outline_titles(reader, outline=None):
    titles = []
    for entry in reader.outline if outline is None else outline:
        if isinstance(entry, list):
            titles += outline_titles(reader, entry)
        else:
            titles.append(entry.title)
    return titles


@pytest.fixture(scope="module")
def hand_made():
    corpus = hand_made_corpus()
    source = pdf.typst_source(edition_of(corpus, "2017"), BUILT.date(), profile=NL)
    data = compiling.render_pdf(source, BUILT)
    return {"corpus": corpus, "source": source, "bytes": data, "reader": PdfReader(io.BytesIO(data))}


@pytest.fixture(scope="module")
def real_books(tmp_path_factory):
    ctx = Job.of(build.make_corpus(ROOT / "sources"), tmp_path_factory.mktemp("build"))
    pdf.write_pdf(ctx)
    books = {}
    for edition in ctx.corpus.iterchildren("edition"):
        reader = PdfReader(ctx.tmp / "pdf" / f"spelregels-{edition.get('id')}.pdf")
        books[edition.get("id")] = (edition, reader, page_texts(reader))
    return books


# --- escaping ---------------------------------------------------------------------------------


def test_the_books_file_names_are_its_languages():
    en = lang.profile("en")
    assert (pdf.pdf_name("2017", NL), pdf.typ_name("2017", NL), pdf.parts_name("2017", NL)) == \
        ("pdf/spelregels-2017.pdf", "pdf/spelregels-2017.typ", "pdf/spelregels-2017.parts")
    assert (pdf.pdf_name("2017", en), pdf.typ_name("2017", en), pdf.parts_name("2017", en)) == \
        ("pdf/laws-2017.pdf", "pdf/laws-2017.typ", "pdf/laws-2017.parts")


def test_typst_string_escapes_only_backslash_quote_and_control_characters():
    assert pdf_source.typst_string('a\\b"c#[]*') == '"a\\\\b\\"c#[]*"'
    assert pdf_source.typst_string("x\ny\t") == '"x\\u{a}y\\u{9}"'


def test_templates_print_every_value_as_a_string_literal():
    template = pdf_source.template_environment(NL).from_string("#{{ text }};|{{ code }}")
    assert template.render(text='"] #x', code=pdf_source.TypstCode("#h(1em)")) == '#"\\"] #x";|#h(1em)'


def test_every_special_character_prints_as_itself(hand_made):
    text = flat("\n".join(page_texts(hand_made["reader"])))
    # The title, the section heading, the paragraph, the footnote and the commentary.
    for opening in ("Titel", "Kop", "Vooraf", "Noot", "Toelichting met"):
        assert f"{opening} {SPECIALS}" in text, opening


def test_label_names_round_trip_and_refuse_unsafe_ids():
    assert pdf_source.label_name("2017/50D2a") == "n2017-50D2a"
    assert pdf_source.node_id_of_label("n2017-50D2a") == "2017/50D2a"
    with pytest.raises(LawbookError) as refused:
        pdf_source.label_name("2017/1> #evil")
    assert refused.value.status == 1 and "'2017/1> #evil' cannot be a link target" in refused.value.message


def test_an_id_with_full_width_digits_is_refused_naming_its_source_line():
    corpus = etree.Element("corpus")
    edition = etree.SubElement(corpus, "edition", id="2017")
    article = etree.SubElement(edition, "article", id="2017/\uff15\uff13", num="\uff15\uff13", sources="bron.txt:4-6")
    _p(article, "Tekst.").set("sources", "bron.txt:6")
    with pytest.raises(LawbookError) as refused:
        pdf_view.book_view(edition, BUILT.date(), profile=NL)
    error = refused.value
    assert (error.file, error.line, error.status) == ("bron.txt", 4, 1)
    assert error.message.startswith("the node ID '2017/\uff15\uff13' cannot be a link target in the PDF edition")
    assert error.fix == "write the article number and its parts with the digits 0-9 and letters a-z"


# --- text the compiler cannot set: a build error at its source line, before compiling -----------

def test_every_character_the_glyph_table_covers_compiles_and_others_do_not():
    covered = [chr(c) for a, b in glyphs._ranges(glyphs.COVERED) for c in range(a, b + 1)]
    letters = [c for c in covered if not unicodedata.category(c).startswith("M")]
    marks = [c for c in covered if unicodedata.category(c).startswith("M")]
    for weight, style in glyphs.STYLES:
        assert glyphs.probe(letters, weight, style) == set(), (weight, style)
        assert glyphs.probe(marks, weight, style, base="a") == set(), (weight, style)
    assert glyphs.probe(["\U0001f600", "\u4e2d", "\uff15", "A"]) == {"\U0001f600", "\u4e2d", "\uff15"}


def test_unprintable_text_is_found_at_its_line_and_column():
    edition = etree.Element("edition", id="2017")
    article = etree.SubElement(edition, "article", id="2017/1", num="1", sources="bron.txt:1-3")
    _p(article, "Titel", tag="title").set("sources", "bron.txt:1")
    section = etree.SubElement(article, "section", id="2017/1A", num="A", sources="bron.txt:2-3")
    _p(section, "Lach \U0001f600 en \u4e2d, e" + "\u0301" * 17 + " en " + "x" * 10_001).set("sources", "bron.txt:2-3")
    lines = {("bron.txt", 1): "Artikel 1", ("bron.txt", 2): "Lach \U0001f600 en \u4e2d,",
             ("bron.txt", 3): "e" + "\u0301" * 17 + " en " + "x" * 10_001}
    assert printable.unprintable(edition, lines) == [
        ("bron.txt", 2, "2017/1A", "the character U+1F600 GRINNING FACE ('\U0001f600') is in no font of the PDF "
         "edition (column 6); write it as a word, or with characters the book's fonts have (Latin, Greek, "
         "Cyrillic), or build without the PDF (--no-pdf)"),
        ("bron.txt", 2, "2017/1A", "the character U+4E2D CJK UNIFIED IDEOGRAPH-4E2D ('\u4e2d') is in no font of "
         "the PDF edition (column 11); write it as a word, or with characters the book's fonts have (Latin, "
         "Greek, Cyrillic), or build without the PDF (--no-pdf)"),
        ("bron.txt", 3, "2017/1A", "17 combining marks on one letter (U+0301 COMBINING ACUTE ACCENT …), more than "
         "the 16 the PDF compiler can set (column 2); remove the repeated marks, or build without the PDF "
         "(--no-pdf)"),
        ("bron.txt", 3, "2017/1A", "a word of 10,001 characters without a space, longer than the 10,000 the PDF "
         "can set on one line (column 23); put spaces in it, or shorten it, or build without the PDF (--no-pdf)")]
    # A repair joined the word ("ge-" + "volg"): the character alone is looked for; where no line has it,
    # the element's first line is named, without a column. The suits ♠♥♦♣ are in the fonts.
    title = article.find("title")
    title.text = "Ge\U0001f0a1volg ♠♥♦♣"
    lines[("bron.txt", 1)] = "Ge-\U0001f0a1 volg"
    section.remove(section.find("p"))
    note_holder = _p(section, "Tekst")
    note_holder.set("sources", "bron.txt:2")
    note = etree.SubElement(note_holder, "note", id="2017/1A/noot1", form="inline", sources="bron.txt:3")
    note.text = "noot \u4e00"
    assert [entry[:2] + (entry[3].split(";")[0],) for entry in printable.unprintable(edition, lines)] == [
        ("bron.txt", 1, "the character U+1F0A1 PLAYING CARD ACE OF SPADES ('\U0001f0a1') is in no font of the PDF "
                        "edition (column 4)"),
        ("bron.txt", 3, "the character U+4E00 CJK UNIFIED IDEOGRAPH-4E00 ('\u4e00') is in no font of the PDF "
                        "edition")]


def pdf_build(sources, tmp_path, capsys):
    status = cli.main(["build", "--sources", str(sources), "--out", str(tmp_path / "out")])
    return status, capsys.readouterr().err


@pytest.mark.parametrize("char, name", [("\U0001f600", "U+1F600 GRINNING FACE"),
                                        ("\u4e2d", "U+4E2D CJK UNIFIED IDEOGRAPH-4E2D")])
def test_a_character_no_font_has_fails_the_build_at_its_source_line(sources_copy, tmp_path, capsys, char, name):
    add_source(sources_copy, "artikel-9.txt", f"ARTIKEL 9\n\nArtikel 9\n\nDe spelers schudden {char} de kaarten.\n")
    status, err = pdf_build(sources_copy, tmp_path, capsys)
    assert status == 1
    first = err.splitlines()[0]
    assert first.startswith(f"lawbook: error: artikel-9.txt:5: the character {name} ({char!r}) is in no font of "
                            f"the PDF edition (column 21); write it as a word"), err
    assert "the build found 1 error; out/ was left as it was" in err
    assert "Traceback" not in err and "internal error" not in err and "templates" not in err
    assert not (tmp_path / "out").exists()


def test_a_letter_with_100000_accents_fails_the_build_at_its_line(sources_copy, tmp_path, capsys):
    add_source(sources_copy, "artikel-9.txt", "ARTIKEL 9\n\nArtikel 9\n\nDe spelers e" + "\u0301" * 100_000 + " schudden.\n")
    status, err = pdf_build(sources_copy, tmp_path, capsys)
    assert status == 1
    assert err.splitlines()[0] == ("lawbook: error: artikel-9.txt:5: 100,000 combining marks on one letter "
                                   "(U+0301 COMBINING ACUTE ACCENT …), more than the 16 the PDF compiler can set "
                                   "(column 13); remove the repeated marks, or build without the PDF (--no-pdf)")
    assert "the build found 1 error" in err and "Traceback" not in err and "panicked" not in err


def test_a_compiler_panic_is_one_message():
    # What the check above prevents: Typst panics on a letter with 100,000 accents.
    with pytest.raises(LawbookError) as stopped:
        pdf.compile_books([("Dit is e" + "\u0301" * 100_000 + " tekst.", BUILT)], ["2017"])
    error = stopped.value
    assert str(error) == ("templates/pdf/: the PDF compiler stopped while setting the PDF edition 2017: "
                          "assertion failed: j < i\n  fix: build without the PDF (--no-pdf) and report this with "
                          "the sources; the other outputs do not need it")
    assert error.status == 1


def test_a_compile_error_is_one_message_without_the_typst_source():
    with pytest.raises(LawbookError) as failed:
        pdf.compile_books([("#let x = ", BUILT)], ["2007"])
    assert failed.value.message == "the PDF edition 2007 did not compile: expected expression"


# --- the hand-made book -----------------------------------------------------------------------

def test_page_one_names_the_edition_and_the_date_of_its_sources(hand_made):
    first = page_texts(hand_made["reader"])[0]
    assert "Editie 2017" in first
    assert "Stand van de bronnen: 1 maart 2024" in first


def test_document_is_dutch_pdfa_with_edition_metadata(hand_made):
    reader = hand_made["reader"]
    assert reader.trailer["/Root"]["/Lang"] == "nl-NL"
    assert reader.metadata.title == "Spelregels voor Wedstrijdbridge 2017"
    assert reader.metadata.subject == "Spelregels voor Wedstrijdbridge, editie 2017"
    assert reader.metadata["/Keywords"] == "bridge, spelregels, editie 2017"
    xmp = reader.trailer["/Root"]["/Metadata"].get_object().get_data().decode()
    assert "<pdfaid:part>2</pdfaid:part>" in xmp and "<pdfaid:conformance>B</pdfaid:conformance>" in xmp


def test_outline_lists_articles_and_sections_but_not_subsections(hand_made):
    titles = outline_titles(hand_made["reader"])
    assert titles[:3] == ["Titelpagina", "Colofon", "Inhoud"]  # the front matter (the book has no sources)
    assert titles[3] == "Artikel 1 Titel " + SPECIALS
    assert titles[4] == "A. Kop " + SPECIALS
    assert titles[5] == "Artikel 2 Tweede artikel"
    assert len(titles) == 6


def test_only_references_to_nodes_of_this_book_become_links(hand_made):
    reader = hand_made["reader"]
    linked = {name for _, name in links(reader)}
    # Outline entries on the contents page link to articles and sections; the text links to
    # 1A1a (ok), 2 (in the note) and 2 (first target of the suspect pair).
    body_links = {name for index, name in links(reader) if index >= body_start(reader)}
    assert body_links == {"n2017-1A1a", "n2017-2"}
    assert "n2017-9Z" not in linked and "n2017-8" not in linked and "n2007-1" not in linked
    text = flat("\n".join(page_texts(reader)))
    # Linked or not, a reference prints as its words, without a page number.
    assert ("verwijst naar artikel 1A1a, artikel 9Z, artikel 8, artikel 1 van 2007, artikelen 2 en 1A. "
            "(a) Onderdeel") in text


def test_every_node_has_a_named_destination_on_its_page(hand_made):
    reader = hand_made["reader"]
    page_of = dest_pages(reader)
    assert set(page_of) == {"title-page", "colophon", "contents", "n2017-1", "n2017-1A", "n2017-1A1", "n2017-1A1a",
                            "n2017-2"}
    assert (page_of["title-page"], page_of["colophon"], page_of["contents"]) == (0, 1, 2)
    texts = page_texts(reader)
    assert "Onderdeel a van lid een" in texts[page_of["n2017-1A1a"]]
    assert "Tweede artikel" in texts[page_of["n2017-2"]]


def test_note_is_a_footnote_on_the_page_of_its_marker(hand_made):
    reader = hand_made["reader"]
    for text in page_texts(reader):
        if "Vooraf" in text:
            text = flat(text)
            assert "einde1 en verder." in text  # the marker stands after the word it follows
            assert text.endswith(f"1 Noot {SPECIALS} zie artikel 2")  # the footnote, same page
            return
    pytest.fail("the paragraph with the note is on no page")


def test_gap_prints_as_an_editorial_remark(hand_made):
    text = flat("\n".join(page_texts(hand_made["reader"])))
    # The reason says what is missing; the remark says it once.
    assert "[Redactie: de rest van 1A staat in geen bron]" in text
    assert "#emph[\\[tekst ontbreekt" not in hand_made["source"]  # the style function prints it
    assert '#gap("de rest van 1A staat in geen bron")' in hand_made["source"]


def test_commentary_follows_its_article_with_its_attribution_first(hand_made):
    reader = hand_made["reader"]
    text = flat("\n".join(page_texts(reader)[body_start(reader):]))
    # After the gap that ends article 1, before article 2; who wrote it before what it says.
    start = text.index("Toelichting bij artikel 1A (Anna)")
    assert text.index("[Redactie") < start < text.index("Geschreven door Anna.") < text.index("Toelichting met")
    assert text.index("Toelichting met") < text.index("Tweede artikel")


def test_no_commentary_leaves_commentary_out_and_says_so():
    corpus = hand_made_corpus()
    source = pdf.typst_source(edition_of(corpus, "2017"), BUILT.date(), with_commentary=False, profile=NL)
    assert "Toelichting met" not in source and "Geschreven door Anna" not in source
    assert '"Officiële tekst, zonder toelichtingen"' in source


def test_loose_commentary_goes_to_a_closing_chapter():
    corpus = hand_made_corpus()
    edition = edition_of(corpus, "2017")
    edition.find("commentary").set("on", "2017/54")
    view = pdf_view.book_view(edition, BUILT.date(), profile=NL)
    assert [c["id"] for c in view["loose_commentary"]] == ["2017/1/toelichting1"]
    assert view["loose_commentary"][0]["title"] == "Toelichting bij artikel 54 (Anna)"
    assert all(not a["commentary"] for a in view["articles"])


def test_labels_print_as_the_law_writes_them(hand_made):
    source = hand_made["source"]
    assert '#heading(level: 2, numbering: (..) => "A.")[#"Kop ' in source
    assert '[#"1.";] <n2017-1A1>' in source
    assert '[#"(a)";] <n2017-1A1a>' in source


# --- reproducibility --------------------------------------------------------------------------

def test_same_source_and_date_give_the_same_bytes(hand_made):
    assert compiling.render_pdf(hand_made["source"], BUILT) == hand_made["bytes"]
    # Compiled in a process of its own, as write_pdf does, too.
    assert pdf.compile_books([(hand_made["source"], BUILT)]) == [hand_made["bytes"]]


def test_an_unchanged_edition_reuses_its_pdf_and_keeps_its_date(tmp_path, monkeypatch):
    monkeypatch.delenv("SOURCE_DATE_EPOCH", raising=False)
    src, out = tmp_path / "src", tmp_path / "build"
    generate.generate(src, articles=3, editions=2, seed=5)
    options = {"cache_dir": str(tmp_path / "cache")}
    monkeypatch.setattr(build, "OUTPUTS", build.OUTPUTS.only("write_corpus", "write_stamp").after(
        "write_corpus", Stage("write_pdf", pdf.write_pdf, reads=("corpus", "tmp", "previous"))))
    compiled = []
    compile_books = pdf.compile_books

    def counting_compile(books, names=None):
        compiled.extend(re.search(r'title: "Spelregels voor Wedstrijdbridge (\d+)"', source).group(1)
                        for source, _ in books)
        return compile_books(books, names)

    monkeypatch.setattr(pdf, "compile_books", counting_compile)
    build.build(src, out, options)
    assert sorted(compiled) == ["2007", "2017"]
    first = {e: (out / pdf.pdf_name(e, NL)).read_bytes() for e in ("2007", "2017")}

    # A later change to a 2017 source: only 2017 is compiled, 2007 is the previous file.
    changed = next(src / s.name for s in manifest.load_manifest(src) if s.edition == "2017")
    changed.write_text(changed.read_text(encoding="utf-8").replace("de leider", "de Leider", 1), encoding="utf-8")
    os.utime(changed, (2_000_000_000, 2_000_000_000))
    compiled.clear()
    build.build(src, out, options)
    assert compiled == ["2017"]
    assert (out / pdf.pdf_name("2007", NL)).read_bytes() == first["2007"]

    # Compiled afresh, 2007 is dated by its own sources and so comes out byte for byte the same.
    compiled.clear()
    build.build(src, out, dict(options, force=True))
    assert sorted(compiled) == ["2007", "2017"]
    assert (out / pdf.pdf_name("2007", NL)).read_bytes() == first["2007"]
    assert "Stand van de bronnen: 18 mei 2033" in PdfReader(out / pdf.pdf_name("2017", NL)).pages[0].extract_text()


def test_build_date_is_source_date_epoch_else_newest_source(tmp_path):
    old, new = tmp_path / "a.txt", tmp_path / "b.txt"
    old.write_text("a")
    new.write_text("b")
    os.utime(old, (1_500_000_000, 1_500_000_000))
    os.utime(new, (1_600_000_000, 1_600_000_000))
    assert compiling.build_timestamp([old, new], environ={}).timestamp() == 1_600_000_000
    assert compiling.build_timestamp([old, new], environ={"SOURCE_DATE_EPOCH": "1234"}).timestamp() == 1234


# --- the real editions ------------------------------------------------------------------------

@pytest.mark.parametrize("edition_id", ["2007", "2017"])
def test_real_outline_lists_every_article(real_books, edition_id):
    edition, reader, _ = real_books[edition_id]
    numbers = [t.split()[1] for t in outline_titles(reader) if t.startswith("Artikel ")]
    assert numbers == [a.get("num") for a in edition.iterchildren("article")]


@pytest.mark.parametrize("edition_id", ["2007", "2017"])
def test_real_page_one_names_edition_and_language_is_dutch(real_books, edition_id):
    _, reader, texts = real_books[edition_id]
    assert f"Editie {edition_id}" in texts[0]
    assert reader.trailer["/Root"]["/Lang"] == "nl-NL"


def _target_words(node):
    """Words that stand where a node starts: its title or heading, else its first text."""
    if node.tag == "article":
        return node.findtext("title") or f"Artikel {node.get('num')}"
    heading = node.findtext("heading")
    if heading:
        return heading
    first = next(node.iter("p"))
    return " ".join(tree.plain_text(first).split()[:4])


@pytest.mark.parametrize("edition_id", ["2007", "2017"])
def test_real_links_land_on_the_page_of_their_target(real_books, edition_id):
    edition, reader, texts = real_books[edition_id]
    nodes = {el.get("id"): el for el in edition.iter(*tree.NODE_TAGS)}
    squashed = [squash(t) for t in texts]
    page_of = dest_pages(reader)
    body_links = [(index, name) for index, name in links(reader) if index >= body_start(reader)]
    linkable = {r.get("to").split()[0] for r in edition.iter("ref") if r.get("to").split()[0] in nodes}
    assert {pdf_source.node_id_of_label(name) for _, name in body_links} == linkable
    for index, name in body_links:
        target = nodes[pdf_source.node_id_of_label(name)]
        assert squash(_target_words(target)) in squashed[page_of[name]], (name, page_of[name] + 1)


def test_real_screenshots_find_a_footnote_page(real_books):
    edition, _, texts = real_books["2017"]
    texts = [flat(t) for t in texts]
    index = footnote_page(texts, edition, body_start(real_books["2017"][1]))
    assert index is not None and index >= 3
    first_note = next(edition.iter("note"))
    assert " ".join(tree.plain_text(first_note).split()[:4]) in texts[index]


def test_png_writer_makes_a_valid_png():
    data = png_bytes(2, 1, b"\xff\x00\x00\x00\xff\x00", 6)
    assert data.startswith(b"\x89PNG\r\n\x1a\n") and data.endswith(b"IEND\xaeB`\x82")


# --- the book as an editor prints it ------------------------------------------------------------

def _head_line(texts, index):
    """The running head of page `index` as pypdf reads it: its first line without the page number,
    which stands outside (left on an even page, right on an odd one)."""
    line, number = texts[index].split("\n")[0], str(index + 1)
    return line.removeprefix(number + " ") if (index + 1) % 2 == 0 else line.removesuffix(" " + number)


def _expected_head(page, articles, page_of, text):
    """The head a page should carry, from the pages the articles' destinations are on: the article
    whose text opens the page (the last one before it, unless the page's first line under the head
    is an article number) and the last one that starts on it."""
    starting = [num for num in articles if page_of[num] == page]
    before = [num for num in articles if page_of[num] < page]
    opens = starting and text.split("\n")[1] == f"Artikel {starting[0]}"
    first = starting[0] if opens or not before else before[-1]
    last = starting[-1] if starting else first
    return f"Artikel {first}" if first == last else f"Artikel {first}–{last}"


@pytest.mark.parametrize("edition_id", ["2007", "2017"])
def test_real_running_heads_name_the_first_and_last_article_of_the_page(real_books, edition_id):
    edition, reader, texts = real_books[edition_id]
    dests = dest_pages(reader)
    articles = [a.get("num") for a in edition.iterchildren("article")]
    page_of = {a.get("num"): dests[pdf_source.label_name(a.get("id"))] for a in edition.iterchildren("article")}
    start = body_start(reader)
    closing = dests.get("toelichtingen", len(texts))
    heads = [_head_line(texts, page) for page in range(start, closing)]
    assert heads == [_expected_head(page, articles, page_of, texts[page]) for page in range(start, closing)]
    # Title page, colophon and contents carry no running head; the closing chapter names itself.
    assert not any(t.startswith("Artikel") or re.match(r"\d+ Artikel", t) for t in texts[:start])
    if "toelichtingen" in dests:
        assert {_head_line(texts, page) for page in range(closing, len(texts))} == {"Toelichtingen"}


def test_real_the_page_that_opens_inside_24_names_24_first(real_books):
    # 2017: article 41 starts on the page where 24C-E end; its head is "Artikel 24–41", not "Artikel 41".
    _, reader, texts = real_books["2017"]
    dests = dest_pages(reader)
    page = dests["n2017-41"]
    assert dests["n2017-24C"] == page and dests["n2017-24"] < page
    assert texts[page].split("\n")[1] == "C. Twee of meer kaarten worden getoond"
    assert _head_line(texts, page) == "Artikel 24–41"
    # The page where 41 goes on and 47 starts, and the one 57 opens at its top.
    assert _head_line(texts, page + 1) == "Artikel 41–47"
    assert _head_line(texts, dests["n2017-57"]) == "Artikel 57"


@pytest.mark.parametrize("edition_id", ["2007", "2017"])
def test_real_law_text_has_no_page_numbers_after_references(real_books, edition_id):
    edition, reader, texts = real_books[edition_id]
    assert sum(1 for index, _ in links(reader) if index >= body_start(reader)) > 0  # the links stay
    assert not [t for t in texts if "(p." in t or "p.\xa0" in t]


def test_hand_made_typst_source_asks_for_no_page_numbers(hand_made):
    assert "counter(page).at(" not in hand_made["source"]
    assert '#xref(<n2017-1A1a>, "artikel 1A1a");' in hand_made["source"]


@pytest.mark.parametrize("edition_id", ["2007", "2017"])
def test_real_colophon_names_every_source_by_its_description_and_the_source_date(real_books, edition_id):
    edition, reader, texts = real_books[edition_id]
    sources = manifest.load_manifest(ROOT / "sources")
    own = [s for s in sources if s.edition == edition_id]
    colophon = flat(texts[1])
    assert colophon.startswith(f"Spelregels voor Wedstrijdbridge, editie {edition_id} Nederlandse Bridge Bond "
                               "Spelregels © World Bridge Federation; Nederlandse vertaling © Nederlandse Bridge Bond "
                               f"Stand van de bronnen: {pdf_view.date_words(compiling.build_timestamp([s.path for s in own]), NL)} "
                               "Deze uitgave is samengesteld uit deze bronnen: ")
    for source in sources:
        assert (flat(source.description) in colophon) == (source in own), source.description
    assert "De toelichtingen horen niet bij de officiële tekst" in colophon
    assert "(p." not in colophon and not re.search(r"\b2\b", texts[1])  # no page number, no running head


@pytest.mark.parametrize("edition_id", ["2007", "2017"])
def test_real_colophon_has_no_file_names_and_no_english(real_books, edition_id):
    """The Dutch book's colophon, as pypdfium2 extracts it: no hashed file name, none of the manifest's
    English origin notes (they stay on the editor's page)."""
    import pypdfium2

    _, reader, _ = real_books[edition_id]
    reader.stream.seek(0)
    document = pypdfium2.PdfDocument(reader.stream.read())
    try:
        colophon = flat(document[1].get_textpage().get_text_range())
    finally:
        document.close()
    assert not re.search(r"[0-9a-f]{16}|\.txt\b", colophon)
    for source in manifest.load_manifest(ROOT / "sources"):
        assert flat(source.origin) not in colophon
    assert not re.search(r"\b(shows|export|page|articles|printed|template|the|and)\b", colophon), colophon


@pytest.mark.parametrize("edition_id", ["2007", "2017"])
def test_real_contents_print_the_page_each_entry_links_to(real_books, edition_id):
    _, reader, texts = real_books[edition_id]
    page_of, first = dest_pages(reader), body_start(reader)
    contents = range(page_of["contents"], first)
    printed = [int(m) for i in contents for m in re.findall(r"\.\s+(\d+)$", texts[i], re.M)]
    linked = [page_of[name] + 1 for i, name in links(reader) if i in contents]
    assert len(printed) == len(linked) > 10 and printed == linked


@pytest.mark.parametrize("edition_id", ["2007", "2017"])
def test_real_contents_start_on_a_right_hand_page(real_books, edition_id):
    _, reader, texts = real_books[edition_id]
    contents = dest_pages(reader)["contents"]
    assert contents == 2 and texts[contents].startswith("3\nInhoud\n")  # page 3, its folio in the head


@pytest.mark.parametrize("edition_id", ["2007", "2017"])
def test_real_first_article_starts_on_a_right_hand_page_after_a_blank_one_without_folio(real_books, edition_id):
    _, reader, texts = real_books[edition_id]
    first = body_start(reader)
    assert (first + 1) % 2 == 1 and first == 4  # page 5: the contents fill page 3, page 4 is blank
    assert texts[first - 1].strip() == ""  # the blank page: no folio
    assert texts[first].split("\n")[0].endswith(f" {first + 1}")  # the folio in the head, at the outer edge


@pytest.mark.parametrize("edition_id", ["2007", "2017"])
def test_real_folios_stand_in_the_head_on_every_numbered_page(real_books, edition_id):
    """From the contents on, every page that is not blank opens with its folio or ends its first line with it."""
    _, reader, texts = real_books[edition_id]
    for index in range(dest_pages(reader)["contents"], len(texts)):
        first_line = texts[index].split("\n")[0].strip()
        if texts[index].strip():
            assert first_line == str(index + 1) or first_line.startswith(f"{index + 1} ") \
                or first_line.endswith(f" {index + 1}"), (index, first_line)
            assert not texts[index].rstrip().endswith(f"\n{index + 1}"), index  # none at the foot


def test_a_colophon_too_long_for_its_page_still_puts_the_contents_on_a_right_hand_page():
    corpus = hand_made_corpus()
    many = [manifest.Source(path=Path(f"bron-{n:03d}.txt"), edition="2017", language="nl", origin=f"Herkomst {n}",
                            description=f"Bron nummer {n:03d}") for n in range(60)]
    source = pdf.typst_source(edition_of(corpus, "2017"), BUILT.date(), profile=NL, sources=many)
    reader = PdfReader(io.BytesIO(compiling.render_pdf(source, BUILT)))
    texts = page_texts(reader)
    contents = dest_pages(reader)["contents"]
    assert contents % 2 == 0 and contents > 2  # page 5 (index 4): an odd page number
    assert "Bron nummer 000" in texts[1] and "Bron nummer 059" in "".join(texts[1:contents])
    assert "bron-000.txt" not in "".join(texts[1:contents])
    assert texts[contents].startswith("5\nInhoud\n")


def _dated_build(tmp_path, monkeypatch, epoch):
    src = tmp_path / "src"
    generate.generate(src, articles=2, editions=2, seed=3)
    for source in manifest.load_manifest(src):
        seconds = 1_500_000_000 if source.edition == "2007" else 1_600_000_000
        os.utime(source.path, (seconds, seconds))
    if epoch is None:
        monkeypatch.delenv("SOURCE_DATE_EPOCH", raising=False)
    else:
        monkeypatch.setenv("SOURCE_DATE_EPOCH", str(epoch))
    ctx = Job.of(build.make_corpus(src), tmp_path / "out")
    pdf.write_pdf(ctx)
    return {e: PdfReader(ctx.tmp / pdf.pdf_name(e, NL)) for e in ("2007", "2017")}


@pytest.mark.parametrize("epoch, dates", [
    (None, {"2007": "14 juli 2017", "2017": "13 september 2020"}),  # each edition by its own files
    (1_700_000_000, {"2007": "14 november 2023", "2017": "14 november 2023"}),
])
def test_title_page_and_colophon_are_dated_by_the_sources_never_today(tmp_path, monkeypatch, epoch, dates):
    books = _dated_build(tmp_path, monkeypatch, epoch)
    today = pdf_view.date_words(datetime.date.today(), NL)
    for edition_id, reader in books.items():
        title, colophon = reader.pages[0].extract_text(), reader.pages[1].extract_text()
        assert f"Stand van de bronnen: {dates[edition_id]}" in title
        assert f"Stand van de bronnen: {dates[edition_id]}" in colophon
        assert today not in title + colophon and "Samengesteld op" not in title


def test_real_contents_and_outline_name_an_untitled_article_by_its_number_alone(real_books):
    """The heading of an article without a title says so ("[titel ontbreekt]" below its number); its
    line of the contents and its bookmark name it by its number alone ("Artikel 16")."""
    edition, reader, texts = real_books["2017"]
    untitled = [a.get("num") for a in edition.iterchildren("article") if a.find("title") is None]
    assert untitled == ["16", "47", "50"]
    page_of = dest_pages(reader)
    contents = texts[page_of["contents"]]
    titles = outline_titles(reader)
    for num in untitled:
        assert re.search(rf"^Artikel {num} [. ]+\d+$", contents, re.M), num
        assert f"Artikel {num}" in titles, num
        assert f"\nArtikel {num}\n[titel ontbreekt]\n" in texts[page_of[f"n2017-{num}"]], num  # the heading
    assert "Artikel 24 Getoonde of voorgespeelde kaart tijdens het bieden" in contents  # a title, unmarked
    assert "titel ontbreekt" not in contents and not [t for t in titles if "titel ontbreekt" in t]


@pytest.mark.parametrize("edition_id", ["2007", "2017"])
def test_real_each_gap_is_said_once(real_books, edition_id):
    edition, _, texts = real_books[edition_id]
    text = squash(" ".join(texts))
    reasons = [g.get("reason") for g in edition.iter("gap")]
    assert reasons and all(reasons)
    for reason in reasons:
        assert text.count(squash(f"[Redactie: {reason}]")) == 1, reason
    assert squash("tekst ontbreekt in de bronnen") not in text


def test_a_gap_without_a_reason_says_what_is_missing():
    corpus = hand_made_corpus()
    edition = edition_of(corpus, "2017")
    del edition.find(".//gap").attrib["reason"]
    view = pdf_view.book_view(edition, BUILT.date(), profile=NL)
    assert view["articles"][0]["children"][1]["children"][-1] == {"kind": "gap",
                                                                   "remark": "tekst ontbreekt in de bronnen"}


def test_real_commentary_says_who_wrote_it_before_what_it_says(real_books):
    _, reader, texts = real_books["2017"]
    page = dest_pages(reader)["toelichtingen"]
    text = flat(texts[page])
    title = text.index("Toelichting bij artikel 54 (Peter)")
    disclaimer = text.index("Deze opmerking is geschreven op persoonlijke titel en valt onder verantwoording van "
                            "Peter.")
    assert title < disclaimer < text.index("De eerste alinea wekt de indruk")


def test_real_commentary_is_set_on_a_tint_apart_from_the_law_text(real_books):
    import pypdfium2

    _, reader, _ = real_books["2017"]
    dests = dest_pages(reader)
    reader.stream.seek(0)
    document = pypdfium2.PdfDocument(reader.stream.read())
    try:
        def tinted(index):
            bitmap = document[index].render(scale=1, force_bitmap_format=pypdfium2.raw.FPDFBitmap_Gray)
            pixels = bytes(bitmap.buffer)
            return pixels.count(242) / len(pixels)
        assert tinted(dests["toelichtingen"]) > 0.1  # the commentary's panel
        assert tinted(dests["n2017-57"]) < 0.01  # law text on white (a few edge pixels of letters)
    finally:
        document.close()


def test_a_description_the_fonts_cannot_print_fails_the_build_at_its_manifest_line(sources_copy, tmp_path, capsys):
    manifest_file = sources_copy / "sources.toml"
    text = manifest_file.read_text(encoding="utf-8")
    manifest_file.write_text(text.replace("description = \"Wikisjabloon", "description = \"Wikisj\u4e2d abloon"),
                             encoding="utf-8")
    line = next(n for n, t in enumerate(manifest_file.read_text(encoding="utf-8").splitlines(), 1) if "\u4e2d" in t)
    status, err = pdf_build(sources_copy, tmp_path, capsys)
    assert status == 1
    assert err.splitlines()[0] == (
        f"lawbook: error: sources.toml:{line}: the description of '003_6f949f908cd1d87e.txt', printed in the PDF's "
        "colophon: the character U+4E2D CJK UNIFIED IDEOGRAPH-4E2D ('\u4e2d') is in no font of the PDF edition "
        "(column 22); write it as a word, or with characters the book's fonts have (Latin, Greek, Cyrillic), "
        "or build without the PDF (--no-pdf)")
    assert "the build found 1 error" in err and "Traceback" not in err and "did not compile" not in err


def test_screenshots_find_the_pages_an_editor_checks(real_books, tmp_path):
    import pypdfium2
    from pipeline import pdf_screenshots

    edition, reader, _ = real_books["2017"]
    reader.stream.seek(0)
    document = pypdfium2.PdfDocument(reader.stream.read())
    try:
        dests = dest_pages(reader)
        assert pdf_screenshots.named_page(document, "contents") == dests["contents"] == 2
        assert pdf_screenshots.named_page(document, "n2017-41") == dests["n2017-41"]
        assert pdf_screenshots.named_page(document, "n2017-99") is None
        texts = pdf_screenshots.page_texts(document)
        assert pdf_screenshots.running_head_page(texts, body_start(reader)) == body_start(reader)  # 16–24
        assert pdf_screenshots.commentary_page(texts, edition, body_start(reader)) == dests["toelichtingen"]
    finally:
        document.close()


def test_a_source_git_holds_unchanged_is_dated_by_its_last_commit(tmp_path):
    import subprocess

    folder = tmp_path / "bronnen"
    folder.mkdir()
    kept, edited, new = folder / "a.txt", folder / "b.txt", folder / "c.txt"
    kept.write_text("a")
    edited.write_text("b")

    def git(*args, date="1500000000 +0000"):
        subprocess.run(["git", "-C", str(folder), "-c", "user.name=Redactie", "-c", "user.email=r@example.org",
                        *args], check=True, capture_output=True,
                       env=dict(os.environ, GIT_AUTHOR_DATE=date, GIT_COMMITTER_DATE=date))

    git("init", "-q")
    git("add", ".")
    git("commit", "-q", "-m", "bronnen")
    edited.write_text("b2")
    git("commit", "-q", "-am", "b gewijzigd", date="1500000500 +0000")
    for path in (kept, edited):
        os.utime(path, (1_900_000_000, 1_900_000_000))  # the day of a clone, say
    assert compiling.build_timestamp([kept, edited], environ={}).timestamp() == 1_500_000_500
    assert compiling.build_timestamp([kept], environ={}).timestamp() == 1_500_000_000
    # A file changed since its commit, or not committed at all, is dated by its modification time.
    edited.write_text("b3")
    os.utime(edited, (1_600_000_000, 1_600_000_000))
    assert compiling.build_timestamp([kept, edited], environ={}).timestamp() == 1_600_000_000
    new.write_text("c")
    os.utime(new, (1_700_000_000, 1_700_000_000))
    assert compiling.build_timestamp([kept, new], environ={}).timestamp() == 1_700_000_000
    assert compiling.build_timestamp([kept, new], environ={"SOURCE_DATE_EPOCH": "1234"}).timestamp() == 1234


def test_a_source_date_epoch_that_is_no_number_is_one_message(tmp_path):
    with pytest.raises(LawbookError) as refused:
        compiling.build_timestamp([], environ={"SOURCE_DATE_EPOCH": "gisteren"})
    assert (str(refused.value), refused.value.status) == (
        "SOURCE_DATE_EPOCH is 'gisteren', not a number of seconds since 1970\n  fix: set SOURCE_DATE_EPOCH to "
        "whole seconds (e.g. `date +%s`), or unset it to date the book by its sources", 2)


def test_a_book_without_commentary_says_so_once_in_its_colophon():
    corpus = hand_made_corpus()
    sources = [manifest.Source(path=Path("bron.txt"), edition="2017", language="nl", origin="Herkomst", description="Een bron")]
    source = pdf.typst_source(edition_of(corpus, "2017"), BUILT.date(), with_commentary=False, profile=NL, sources=sources)
    colophon = flat(PdfReader(io.BytesIO(compiling.render_pdf(source, BUILT))).pages[1].extract_text())
    assert colophon.startswith("Spelregels voor Wedstrijdbridge, editie 2017, zonder toelichtingen ")
    assert colophon.count("toelichtingen") == 1 and "– Een bron" in colophon
    assert "bron.txt" not in colophon and "Herkomst" not in colophon
    assert "#columns(1," in source  # one source: one column


def test_a_section_without_a_heading_is_no_entry_of_the_contents():
    """A made-up book whose section 2B has no heading: the contents list 2A with its heading and no "B."
    with dots and a page (the entry would be empty)."""
    corpus = hand_made_corpus()
    art2 = corpus.xpath("//article[@id='2017/2']")[0]
    for num, heading in (("A", "Met een kop"), ("B", None)):
        sec = etree.SubElement(art2, "section", id=f"2017/2{num}", num=num, sources="t.txt:1")
        if heading:
            _p(sec, heading, tag="heading")
        _p(sec, f"Tekst van 2{num}.")
    source = pdf.typst_source(edition_of(corpus, "2017"), BUILT.date(), profile=NL)
    reader = PdfReader(io.BytesIO(compiling.render_pdf(source, BUILT)))
    texts = page_texts(reader)
    contents = "\n".join(texts[dest_pages(reader)["contents"]:body_start(reader)])
    assert re.search(r"^A\. Met een kop[ .]+\d+$", contents, re.M)
    assert not re.search(r"^[A-Z]\.[ .]+\d+$", contents, re.M), contents
    assert "Tekst van 2B." in "".join(texts[body_start(reader):])  # the section itself is printed


def test_the_colophon_counts_sources_without_a_description_and_prints_the_copyright_line():
    corpus = hand_made_corpus()
    sources = [manifest.Source(path=Path("a1b2c3d4e5f60718.txt"), edition="2017", language="nl", origin="Wiki page export",
                               copyright="© 2017 Made-up Federation", description="Een beschreven bron"),
               manifest.Source(path=Path("ongenoemd.txt"), edition="2017", language="nl", origin="Wiki page export",
                               copyright="© 2017 Made-up Federation")]
    source = pdf.typst_source(edition_of(corpus, "2017"), BUILT.date(), profile=NL, sources=sources)
    colophon = flat(PdfReader(io.BytesIO(compiling.render_pdf(source, BUILT))).pages[1].extract_text())
    assert "Nederlandse Bridge Bond © 2017 Made-up Federation Stand van de bronnen" in colophon
    assert "– Een beschreven bron" in colophon and "Bronnen zonder beschrijving in het manifest: 1." in colophon
    assert ".txt" not in colophon and "Wiki page export" not in colophon


# --- the compiler's first pass ----------------------------------------------------------------
# The compiler lays the book out again while what it found in a pass changes what it sets. Its first
# pass knows no headings and no labels: there the contents' lines stand in for the outline and a
# cross-reference's words for its link (book.typ.j2, style.typ), so that the first pass already puts
# every line where the book has it, and the links, whose tooltips name their target's page, are not
# laid out a third time. FIRST_PASS is what those choices read; first_pass() makes every pass the first.
FIRST_PASS = {"context if query(article-heads).len() > 0 {": "context if false {",
              "if query(target).len() > 0 { link(target, words) }": "if false { link(target, words) }"}


def first_pass(source):
    for chosen, first in FIRST_PASS.items():
        assert source.count(chosen) == 1, chosen
        source = source.replace(chosen, first)
    return source


def contents_words(texts, pages):
    """The words of the contents' entries: no folio, no dot leaders, no page numbers (and none of the
    stand-in's room for them, placed at the line's end: the extraction may glue the next entry to it),
    hyphenated words joined."""
    words = " ".join(texts[i].split("\n", 1)[1] for i in pages if texts[i].strip())
    words = re.sub(r"(?:\s*\.)+\s*\d+\b|\s000", " ", words)
    return squash(re.sub(r"-\n", "", words)).strip()


def test_first_pass_sets_the_contents_words_and_every_node_on_its_page(tmp_path):
    generate.generate(tmp_path / "src", articles=24, editions=1, seed=7)
    ctx = Job.of(build.make_corpus(tmp_path / "src"), tmp_path / "build")
    (edition,) = ctx.corpus.iterchildren("edition")
    source = pdf.typst_source(edition, BUILT.date(), profile=NL)
    book = PdfReader(io.BytesIO(compiling.render_pdf(source, BUILT)))
    first = PdfReader(io.BytesIO(compiling.render_pdf(first_pass(source), BUILT)))
    book_pages, first_pages = dest_pages(book), dest_pages(first)
    assert body_start(book) - book_pages["contents"] >= 3  # contents of several pages
    assert first_pages == book_pages  # every node on its page, the contents as long
    contents = range(book_pages["contents"], body_start(book))
    book_texts, first_texts = page_texts(book), page_texts(first)
    assert contents_words(first_texts, contents) == contents_words(book_texts, contents)
    assert contents_words(book_texts, contents).count("artikel") == len(edition.findall("article")) == 24
    # The cross-references' words stand where the links set them: the law text is the same, page by page.
    assert first_texts[body_start(book):] == book_texts[body_start(book):]
    assert not links(first) and links(book)


# --- the bookmarks, the open mode, no invisible characters, what made the book ------------------------

def pdf_bytes(reader) -> bytes:
    reader.stream.seek(0)
    return reader.stream.read()


def bookmarks(data: bytes) -> list[tuple[int, str, int | None]]:
    """(level, title, page index) of every bookmark, as pypdfium2 reads the outline."""
    import pypdfium2

    document = pypdfium2.PdfDocument(data)
    try:
        return [(b.level, b.get_title(), b.get_dest().get_index() if b.get_dest() else None)
                for b in document.get_toc()]
    finally:
        document.close()


def copied_text(data: bytes) -> list[str]:
    """What a reader copies from each page: the text layer (pypdfium2's text page) and every ActualText the
    content stream gives a run of glyphs (what a viewer copies instead of the glyphs: Typst's word joiner
    stood there, as " \u2060", in the contents' lines)."""
    import pikepdf
    import pypdfium2

    document = pypdfium2.PdfDocument(data)
    try:
        pages = [document[i].get_textpage().get_text_range() for i in range(len(document))]
    finally:
        document.close()
    with pikepdf.open(io.BytesIO(data)) as pdf:
        for index, page in enumerate(pdf.pages):
            for operands, operator in pikepdf.parse_content_stream(page):
                if str(operator) == "BDC" and isinstance(operands[1], pikepdf.Dictionary) \
                        and "/ActualText" in operands[1]:
                    pages[index] += str(operands[1].ActualText)
    return pages


@pytest.mark.parametrize("edition_id", ["2007", "2017"])
def test_real_bookmarks_name_the_title_page_colophon_contents_and_every_article(real_books, edition_id):
    edition, reader, _ = real_books[edition_id]
    marks = bookmarks(pdf_bytes(reader))
    assert marks[:3] == [(0, "Titelpagina", 0), (0, "Colofon", 1), (0, "Inhoud", 2)]
    page_of = dest_pages(reader)
    articles = [(0, title, page) for level, title, page in marks if level == 0 and title.startswith("Artikel ")]
    assert [(title.split()[1], page) for _, title, page in articles] == \
        [(a.get("num"), page_of[pdf_source.label_name(a.get("id"))]) for a in edition.iterchildren("article")]
    assert not [title for _, title, _ in marks if "titel ontbreekt" in title or "\u2060" in title]
    if edition_id == "2017":
        assert [title for _, title, _ in articles][:3] == [
            "Artikel 16", "Artikel 24 Getoonde of voorgespeelde kaart tijdens het bieden",
            "Artikel 41 Het begin van het spelen"]
        assert (0, "Artikel 47", page_of["n2017-47"]) in marks and (0, "Artikel 50", page_of["n2017-50"]) in marks
        assert (1, "C. Informatie uit ingetrokken handelingen", page_of["n2017-16C"]) in marks  # a section
        assert marks[-1] == (0, "Toelichtingen", page_of["toelichtingen"])  # the closing chapter


@pytest.mark.parametrize("edition_id", ["2007", "2017"])
def test_real_book_opens_with_its_bookmarks_shown(real_books, edition_id):
    import pypdfium2

    _, reader, _ = real_books[edition_id]
    assert reader.trailer["/Root"]["/PageMode"] == "/UseOutlines"
    document = pypdfium2.PdfDocument(pdf_bytes(reader))
    try:
        assert document.get_pagemode() == pypdfium2.raw.PAGEMODE_USEOUTLINES
    finally:
        document.close()


@pytest.mark.parametrize("edition_id", ["2007", "2017"])
def test_real_text_holds_no_word_joiner_on_any_page(real_books, edition_id):
    _, reader, _ = real_books[edition_id]
    pages = copied_text(pdf_bytes(reader))
    assert len(pages) == len(reader.pages)
    assert [index for index, text in enumerate(pages) if "\u2060" in text] == []
    # The contents' lines still end in their leaders and page numbers, each number on its entry's line.
    contents = pages[dest_pages(reader)["contents"]]
    assert len(re.findall(r"\. (\d+)\r?$", contents, re.M)) > 10


def test_the_page_number_of_a_contents_line_never_stands_alone():
    """A contents line whose words fill the line: its number goes down with its leaders and the last word,
    as Typst's own entry keeps it with its word joiner, but no character joins them in the text."""
    corpus = hand_made_corpus()
    edition = edition_of(corpus, "2017")
    title = edition.find("article[@id='2017/2']/title")
    for words in range(4, 16):
        title.text = " ".join(["Titelwoord"] * words)
        data = compiling.render_pdf(pdf.typst_source(edition, BUILT.date(), profile=NL), BUILT)
        reader = PdfReader(io.BytesIO(data))
        contents = [line.strip() for line in reader.pages[dest_pages(reader)["contents"]].extract_text().split("\n")]
        assert not [line for line in contents if re.fullmatch(r"[. ]*\d+", line) and line != "3"], (words, contents)
        assert "\u2060" not in "".join(copied_text(data))


def test_the_colophon_names_the_version_of_lawbook_and_the_digest_of_the_sources(real_books):
    import hashlib
    import importlib.metadata
    import tomllib

    version = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["version"]
    assert pdf_view.lawbook_version() == importlib.metadata.version("lawbook") == version
    sources = manifest.load_manifest(ROOT / "sources")
    for edition_id in ("2007", "2017"):
        own = sorted((s for s in sources if s.edition == edition_id), key=lambda s: s.name)
        # What `sha256sum FILE… | sha256sum` gives in the sources folder, for the edition's files by name.
        listing = "".join(f"{hashlib.sha256(s.path.read_bytes()).hexdigest()}  {s.name}\n" for s in own)
        digest = hashlib.sha256(listing.encode()).hexdigest()[:12]
        colophon = flat(copied_text(pdf_bytes(real_books[edition_id][1]))[1])
        assert colophon.rstrip().endswith(f"Gezet uit de Libertinus Serif met Typst. Gemaakt met lawbook {version}. "
                                          f"Vingerafdruk van de bronnen (SHA-256): {digest}."), colophon
    assert compiling.sources_digest([s.path for s in sources if s.edition == "2017"]) != \
        compiling.sources_digest([s.path for s in sources if s.edition == "2007"])


def test_a_book_made_without_sources_names_no_digest_and_the_same_sources_give_the_same_one(hand_made, tmp_path):
    text = flat(PdfReader(io.BytesIO(hand_made["bytes"])).pages[1].extract_text())
    assert f"Gemaakt met lawbook {pdf_view.lawbook_version()}." in text and "SHA-256" not in text
    a, b = tmp_path / "a.txt", tmp_path / "sub" / "a.txt"
    b.parent.mkdir()
    a.write_bytes(b"ARTIKEL 1\n")
    b.write_bytes(b"ARTIKEL 1\n")
    os.utime(a, (1_500_000_000, 1_500_000_000))
    assert compiling.sources_digest([a]) == compiling.sources_digest([b])  # bytes and names, not dates or folders
    b.write_bytes(b"ARTIKEL 2\n")
    assert compiling.sources_digest([a]) != compiling.sources_digest([b])


def test_opening_with_bookmarks_keeps_the_pdf_a_metadata_and_gives_the_same_bytes(hand_made, tmp_path, caplog):
    """bookmarks.open_with_bookmarks: an incremental update of the catalog alone, after every byte the
    compiler wrote; the same input gives the same bytes, and the readers the project uses read it whole."""
    import logging

    import pikepdf
    import pypdfium2

    first, second = tmp_path / "a.pdf", tmp_path / "b.pdf"
    for path in (first, second):
        path.write_bytes(hand_made["bytes"])
        pdf_bookmarks.open_with_bookmarks(path)
    assert first.read_bytes() == second.read_bytes() != hand_made["bytes"]
    assert first.read_bytes().startswith(hand_made["bytes"]) and first.read_bytes().endswith(b"%%EOF\n")
    pdf_bookmarks.open_with_bookmarks(first)  # already so: left as it is
    assert first.read_bytes() == second.read_bytes()
    with pikepdf.open(first) as opened, pikepdf.open(io.BytesIO(hand_made["bytes"])) as compiled:
        assert opened.check_pdf_syntax() == []
        assert opened.trailer.ID[0] == compiled.trailer.ID[0]
        assert opened.Root.PageMode == pikepdf.Name.UseOutlines and "/PageMode" not in compiled.Root
        assert "/Filter" not in opened.Root.Metadata  # PDF/A: the XMP stays unfiltered
        assert opened.Root.Metadata.read_bytes() == compiled.Root.Metadata.read_bytes()
        assert opened.Root.Lang == compiled.Root.Lang and opened.pdf_version == compiled.pdf_version
        assert len(opened.pages) == len(compiled.pages)
        assert sorted(opened.Root.keys()) == sorted(list(compiled.Root.keys()) + ["/PageMode"])
    with caplog.at_level(logging.WARNING, logger="pypdf"):
        reader = PdfReader(first, strict=True)
        assert reader.trailer["/Root"]["/PageMode"] == "/UseOutlines" and len(reader.pages) == len(
            PdfReader(io.BytesIO(hand_made["bytes"])).pages)
    assert caplog.messages == []  # (a table that did not begin at object 0 was "not zero-indexed" to pypdf)
    assert pypdfium2.PdfDocument(first).get_pagemode() == pypdfium2.raw.PAGEMODE_USEOUTLINES


def test_opening_with_bookmarks_a_pdf_of_another_shape(tmp_path):
    """Made-up PDFs: one whose last cross-reference section is a stream and an encrypted one are saved whole
    through pikepdf (an update would need the stream's form, or the catalog's strings encrypted); one
    without an end of line after its end-of-file marker is updated. Each opens with its bookmarks shown,
    its page kept."""
    import pikepdf

    made = pikepdf.new()
    made.add_blank_page(page_size=(200, 200))
    streamed, locked, bare = tmp_path / "streamed.pdf", tmp_path / "locked.pdf", tmp_path / "bare.pdf"
    made.save(streamed, object_stream_mode=pikepdf.ObjectStreamMode.generate, deterministic_id=True)
    made.save(locked, encryption=pikepdf.Encryption(owner="owner", user=""))
    made.save(bare, deterministic_id=True)
    assert b"/XRef" in streamed.read_bytes() and b"/Encrypt" in locked.read_bytes()
    bare.write_bytes(bare.read_bytes().rstrip(b"\r\n"))
    before = bare.read_bytes()
    for path in (streamed, locked, bare):
        pdf_bookmarks.open_with_bookmarks(path)
        with pikepdf.open(path) as opened:
            assert opened.Root.PageMode == pikepdf.Name.UseOutlines and len(opened.pages) == 1
            assert opened.check_pdf_syntax() == []
    # The update after the end-of-file marker, on a line of its own: the compiler's bytes kept.
    assert bare.read_bytes().startswith(before + b"\n") and b"/PageMode /UseOutlines" in bare.read_bytes()[len(before):]


class _CopiesTyp:
    """A previous build whose copy of an edition's Typst source holds `text` (as Build.reuse copies it)."""

    def __init__(self, tmp: Path, text: str) -> None:
        self.tmp, self.text = tmp, text

    def reuse(self, edition: str, paths: list[str]) -> bool:
        (self.tmp / paths[1]).parent.mkdir(parents=True, exist_ok=True)
        (self.tmp / paths[1]).write_text(self.text, encoding="utf-8")
        return True


def test_a_copy_whose_colophon_names_other_sources_is_compiled_again(tmp_path):
    from dataclasses import replace

    ctx = Job.of_tree(hand_made_corpus(), tmp_path, NL)
    same = replace(ctx, previous=_CopiesTyp(tmp_path, '#"Vingerafdruk van de bronnen (SHA-256): 0123456789ab.";'))
    assert pdf._reused(same, "2017", False, "0123456789ab")
    assert not pdf._reused(same, "2017", False, "ba9876543210")
    assert pdf._reused(same, "2017", False, None)  # no sources, no digest to check


@pytest.mark.parametrize("code, words", [
    ("en", ("[Title page]", "[Colophon]", "[Contents]", '"Made with lawbook ', '"Digest of the sources (SHA-256): 0123456789ab."')),
    ("fr", ("[Page de titre]", "[Colophon]", "[Table des matières]", '"Réalisé avec lawbook ',
            '"Empreinte des sources (SHA-256)\u00a0: 0123456789ab."')),
])
def test_the_bookmarks_and_the_colophon_are_in_the_books_language(code, words):
    source = pdf.typst_source(edition_of(hand_made_corpus(), "2017"), BUILT.date(), profile=lang.profile(code),
                              digest="0123456789ab")
    for word in words:
        assert word in source, word
    assert "Titelpagina" not in source and "Colofon" not in source and "Vingerafdruk" not in source
