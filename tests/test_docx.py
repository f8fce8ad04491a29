"""Word files (.docx) as a source: the documents are made here, with python-docx (and its low-level oxml for
Word's numbering; footnotes, which python-docx has no API for, are put into the saved zip) and with pandoc
from Markdown; every refusal is one message naming the file, never a traceback (docs/sources.md, "Word files").
"""
import io
import shutil
import struct
import zipfile
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from pipeline.core import ids, tree
from pipeline.core.errors import LawbookError
from pipeline.core.model import NOTE_MARK
from pipeline.core.report import BuildLog
from pipeline.corpus.stages import make_corpus
from pipeline.reading import decode, docx_package, formats, manifest
from pipeline.reading.docx_package import Numbering, number_text

from conftest import add_source, run_lawbook

docx = pytest.importorskip("docx", reason="python-docx (the test extra) makes the Word files of these tests")
from docx.oxml import parse_xml  # noqa: E402
from docx.oxml.ns import qn  # noqa: E402

NS = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"'
FOOTNOTES_TYPE = "application/vnd.openxmlformats-officedocument.wordprocessingml.footnotes+xml"
REL = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"


# -- making Word files -----------------------------------------------------------------------------------
def add_list(doc, list_id, levels, abstract=None, start_override=None):
    """A list in numbering.xml: w:num `list_id` of a new w:abstractNum (or of `abstract`), its levels
    (numFmt, start, lvlText) from level 0 down."""
    numbering = doc.part.numbering_part.element
    if abstract is None:
        abstract = list_id
        lvls = "".join(f'<w:lvl w:ilvl="{k}"><w:start w:val="{start}"/><w:numFmt w:val="{fmt}"/>'
                       f'<w:lvlText w:val="{text}"/></w:lvl>' for k, (fmt, start, text) in enumerate(levels))
        made = parse_xml(f'<w:abstractNum {NS} w:abstractNumId="{abstract}">{lvls}</w:abstractNum>')
        first_num = numbering.find(qn("w:num"))
        if first_num is not None:
            first_num.addprevious(made)  # (the schema puts every abstractNum before the nums)
        else:
            numbering.append(made)
    override = "" if start_override is None else \
        f'<w:lvlOverride w:ilvl="0"><w:startOverride w:val="{start_override}"/></w:lvlOverride>'
    numbering.append(parse_xml(f'<w:num {NS} w:numId="{list_id}"><w:abstractNumId w:val="{abstract}"/>{override}'
                               f'</w:num>'))


def numbered(p, list_id, level=0):
    p._p.get_or_add_pPr().append(parse_xml(f'<w:numPr {NS}><w:ilvl w:val="{level}"/><w:numId w:val="{list_id}"/>'
                                           f'</w:numPr>'))
    return p


def footnote(p, note_id, then=""):
    """A footnote marker at the end of paragraph `p` (its text goes into footnotes.xml: with_footnotes), then
    the words `then`."""
    p._p.append(parse_xml(f'<w:r {NS}><w:rPr><w:vertAlign w:val="superscript"/></w:rPr>'
                          f'<w:footnoteReference w:id="{note_id}"/></w:r>'))
    if then:
        p.add_run(then)
    return p


def saved(doc):
    out = io.BytesIO()
    doc.save(out)
    return out.getvalue()


def rezip(data, change=None, add=None, drop=()):
    """The zip `data` with member texts changed (name -> function of its bytes), members added and dropped."""
    source = zipfile.ZipFile(io.BytesIO(data))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
        for info in source.infolist():
            if info.filename in drop:
                continue
            content = source.read(info.filename)
            if change and info.filename in change:
                content = change[info.filename](content)
            z.writestr(info.filename, content)
        for name, content in (add or {}).items():
            z.writestr(name, content)
    return out.getvalue()


def with_footnotes(data, notes):
    """The Word file with footnotes.xml holding `notes` (id -> text), its relationship and its content type."""
    body = "".join(f'<w:footnote w:id="{k}"><w:p><w:pPr><w:pStyle w:val="FootnoteText"/></w:pPr><w:r><w:rPr>'
                   f'<w:vertAlign w:val="superscript"/></w:rPr><w:footnoteRef/></w:r><w:r><w:t xml:space="preserve"> '
                   f'{text}</w:t></w:r></w:p></w:footnote>' for k, text in notes.items())
    xml = (f'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<w:footnotes {NS}>'
           '<w:footnote w:type="separator" w:id="-1"><w:p><w:r><w:separator/></w:r></w:p></w:footnote>'
           '<w:footnote w:type="continuationSeparator" w:id="0"><w:p><w:r><w:continuationSeparator/></w:r></w:p>'
           f'</w:footnote>{body}</w:footnotes>').encode()
    return rezip(data, change={
        "[Content_Types].xml": lambda b: b.replace(
            b"</Types>", f'<Override PartName="/word/footnotes.xml" ContentType="{FOOTNOTES_TYPE}"/></Types>'.encode()),
        "word/_rels/document.xml.rels": lambda b: b.replace(
            b"</Relationships>", f'<Relationship Id="rIdNotes" Type="{REL}/footnotes" Target="footnotes.xml"/>'
                                 f'</Relationships>'.encode())}, add={"word/footnotes.xml": xml})


def translators_document():
    """A translator's Word file of articles 53, 50 (from 50D), 16 (from 16C) and 47 (from 47E): Heading 1 articles,
    sections lettered by Word's numbering, typed or numbered lists, nested letters and roman numerals, footnotes, a
    comment, a table, the document's title."""
    doc = docx.Document()
    doc.add_paragraph("Spelregels, vertaling 2017", style="Title")
    add_list(doc, 101, [("upperLetter", 1, "%1.")])  # the sections of 53
    add_list(doc, 102, [("decimal", 1, "%1."), ("lowerLetter", 1, "(%2)"), ("lowerRoman", 1, "(%3)")])
    add_list(doc, 103, [], abstract=102, start_override=1)  # 47E's: the same list, numbered from 1 again
    doc.add_heading("Artikel 53 Accepteren van voor de beurt voorspelen", level=1)
    numbered(doc.add_heading("Voor de beurt voorspelen behandeld als juist voorgespeeld", level=2), 101)
    footnote(doc.add_paragraph("Behalve in de dertiende slag"), 1,
             " kan elke met de beeldzijde naar boven voor de beurt voorgespeelde kaart als juist voorgespeeld "
             "worden behandeld.")
    numbered(doc.add_heading("Juist voorspelen volgend op onregelmatig voorspelen", level=2), 101)
    remark = doc.add_paragraph("Als een speler aan de beurt is om voor te spelen, mag hij een kaart voorspelen.")
    doc.add_comment(remark.runs, text="Vergelijk artikel 53A.", author="Anna de Vries", initials="AV")
    table = doc.add_table(rows=2, cols=2)
    for r, row in enumerate((("Partij", "Informatie"), ("overtredend", "ongeoorloofd"))):
        for c, word in enumerate(row):
            table.cell(r, c).text = word

    doc.add_heading("Artikel 50D Behandeling van grote strafkaart", level=1)
    doc.add_paragraph("Wanneer een tegenspeler een grote strafkaart heeft, gelden beperkingen.")
    numbered(doc.add_paragraph("Een grote strafkaart moet worden gespeeld zodra dit reglementair mogelijk is."), 102)
    numbered(doc.add_paragraph("door voor te spelen;"), 102, 1)
    numbered(doc.add_paragraph("door kleur te bekennen."), 102, 1)
    numbered(doc.add_paragraph("De leider kan uit de volgende mogelijkheden kiezen:"), 102)
    footnote(numbered(doc.add_paragraph("van de tegenspeler eisen"), 102, 1), 2, " in de kleur voor te spelen;")
    numbered(doc.add_paragraph("ervan afzien een voorspelen te eisen:"), 102, 1)
    numbered(doc.add_paragraph("in de eerste slag;"), 102, 2)
    numbered(doc.add_paragraph("in de tweede slag."), 102, 2)

    doc.add_heading("Artikel 16 Geoorloofde en ongeoorloofde informatie", level=1)
    doc.add_heading("C. Informatie uit ingetrokken handelingen", level=2)  # typed letter
    doc.add_paragraph("1. Voor een niet-overtredende partij is alle informatie geoorloofd.")
    doc.add_paragraph("2. Voor een overtredende partij geldt:")
    doc.add_paragraph("(a) de informatie is niet geoorloofd;")
    doc.add_paragraph("(b) de wedstrijdleider kent een arbitrale score toe.")

    doc.add_heading("Artikel 47E Wijziging van het spelen op basis van verkeerde informatie", level=1)
    numbered(doc.add_paragraph("Wie voor de beurt heeft voorgespeeld, neemt de kaart terug."), 103)
    numbered(doc.add_paragraph("Een speler mag de kaart terugnemen."), 103)
    return with_footnotes(saved(doc), {1: "Een voor de beurt voorgespeelde kaart in de dertiende slag moet "
                                          "teruggenomen worden.", 2: "Zie artikel 59."})


def folder_with(tmp_path, data, name="vertaling.docx", edition="2017", **keys):
    folder = tmp_path / "src"
    folder.mkdir()
    (folder / "sources.toml").write_text("", encoding="utf-8")
    add_source(folder, name, data, edition=edition, **keys)
    return folder


def read_lines(data, name="vertaling.docx"):
    source = manifest.Source(path=Path(name), edition="2017", language="nl")
    return decode.read_source(source, data=data)


def node_text(corpus, node_id):
    """The node's own paragraphs, NOTE_MARK where its notes stand."""
    node = tree.node_by_id(corpus, node_id)
    assert node is not None, f"{node_id} is not in the corpus"
    return " | ".join(tree.text_with_marks(p) for p in node.findall("p"))


def errors(ctx):
    return [(e.line, e.message) for e in ctx.log.entries if e.kind in ("error", "conflict")]


# -- a translator's document -----------------------------------------------------------------------------
@pytest.fixture(scope="module")
def translated(tmp_path_factory):
    ctx = make_corpus(folder_with(tmp_path_factory.mktemp("docx"), translators_document()))
    return ctx


def test_the_word_file_is_read_as_paragraphs_with_their_styles_and_numbers():
    lines, encoding = read_lines(translators_document())
    assert encoding == "docx"
    assert all(isinstance(line, docx_package.DocxLine) for line in lines)
    first = lines[:4]
    assert [(line.num, line.text, line.heading, line.label) for line in first] == [
        (1, "Spelregels, vertaling 2017", None, ""),
        (2, "Artikel 53 Accepteren van voor de beurt voorspelen", 0, ""),
        (3, "Voor de beurt voorspelen behandeld als juist voorgespeeld", 1, "A."),
        (4, f"Behalve in de dertiende slag{NOTE_MARK} kan elke met de beeldzijde naar boven voor de beurt "
            "voorgespeelde kaart als juist voorgespeeld worden behandeld.", None, "")]
    assert lines[0].title and lines[3].notes == (("1", "1"),)
    labels = [line.label for line in lines if line.label]
    assert labels == ["A.", "B.", "1.", "(a)", "(b)", "2.", "(a)", "(b)", "(i)", "(ii)", "1.", "2."]
    row = next(line for line in lines if line.part == "table")
    assert row.cells == ("Partij", "Informatie") and row.table == 1
    # After the body: each footnote's paragraphs, in the order of the markers, then each comment's.
    tail = [(line.part, line.text, line.anchor) for line in lines if line.part in ("footnote", "comment")]
    assert tail == [("footnote", "Een voor de beurt voorgespeelde kaart in de dertiende slag moet teruggenomen "
                                 "worden.", 4),
                    ("footnote", "Zie artikel 59.", 15),
                    ("comment", "Vergelijk artikel 53A.", 6)]


def test_headings_numbering_and_typed_numbers_give_the_laws_ids(translated):
    corpus = translated.corpus
    assert errors(translated) == []
    found = sorted(el.get("id") for el in corpus.iter(*ids.LEVELS))
    assert found == sorted([
        "2017/16", "2017/16C", "2017/16C1", "2017/16C2", "2017/16C2a", "2017/16C2b", "2017/47", "2017/47E",
        "2017/47E1", "2017/47E2",
        "2017/50", "2017/50D", "2017/50D1", "2017/50D1a", "2017/50D1b", "2017/50D2", "2017/50D2a", "2017/50D2b",
        "2017/50D2b.i", "2017/50D2b.ii", "2017/53", "2017/53A", "2017/53B"])
    assert tree.label_text(tree.node_by_id(corpus, "2017/53")) == "Accepteren van voor de beurt voorspelen"
    assert tree.label_text(tree.node_by_id(corpus, "2017/53A")) == \
        "Voor de beurt voorspelen behandeld als juist voorgespeeld"
    assert tree.label_text(tree.node_by_id(corpus, "2017/50D")) == "Behandeling van grote strafkaart"
    assert tree.label_text(tree.node_by_id(corpus, "2017/16C")) == "Informatie uit ingetrokken handelingen"
    assert node_text(corpus, "2017/53A") == (f"Behalve in de dertiende slag{NOTE_MARK} kan elke met de beeldzijde "
                                             "naar boven voor de beurt voorgespeelde kaart als juist voorgespeeld "
                                             "worden behandeld.")
    assert node_text(corpus, "2017/50D") == "Wanneer een tegenspeler een grote strafkaart heeft, gelden beperkingen."
    assert node_text(corpus, "2017/50D1b") == "door kleur te bekennen."
    assert node_text(corpus, "2017/50D2") == "De leider kan uit de volgende mogelijkheden kiezen:"
    assert node_text(corpus, "2017/50D2a") == f"van de tegenspeler eisen{NOTE_MARK} in de kleur voor te spelen;"
    assert node_text(corpus, "2017/50D2b.ii") == "in de tweede slag."
    assert node_text(corpus, "2017/16C2a") == "de informatie is niet geoorloofd;"
    # The list numbered from 1 again (w:startOverride) is counted on its own: 47E1, 47E2, not 47E3.
    assert node_text(corpus, "2017/47E2") == "Een speler mag de kaart terugnemen."


def test_footnotes_are_notes_at_their_markers(translated):
    notes = {n.get("id"): (n.get("form"), n.get("num"), tree.plain_text(n)) for n in translated.corpus.iter("note")}
    assert notes == {
        "2017/53A/noot1": ("footnote", "1", "Een voor de beurt voorgespeelde kaart in de dertiende slag moet "
                                            "teruggenomen worden."),
        "2017/50D2a/noot1": ("footnote", "2", "Zie artikel 59.")}


def test_a_comment_is_commentary_on_its_article_with_its_author(translated):
    [remark] = translated.corpus.iter("commentary")
    assert (remark.get("on"), remark.get("author")) == ("2017/53", "Anna de Vries")
    assert remark.findtext("attribution") == ("Opmerking bij de tekst, geschreven op persoonlijke titel en onder "
                                              "verantwoording van Anna de Vries.")
    assert [tree.plain_text(p) for p in remark.findall("p")] == ["Vergelijk artikel 53A."]


def test_the_title_is_dropped_and_every_line_accounted_for(translated):
    entries = [(e.kind, e.line) for e in translated.log.entries if e.kind in ("dropped", "error")]
    assert ("dropped", 1) in entries and not [e for e in entries if e[0] == "error"]
    table = tree.node_by_id(translated.corpus, "2017/53B").find("table")
    assert [[tree.plain_text(c) for c in row] for row in tree.cells(table)] == \
        [["Partij", "Informatie"], ["overtredend", "ongeoorloofd"]]


def test_word_finds_its_headings_through_the_styles_names_and_outline_levels():
    styles = docx_package.Styles(parse_xml(
        f'<w:styles {NS}>'
        '<w:style w:type="paragraph" w:default="1" w:styleId="Standaard"><w:name w:val="Normal"/></w:style>'
        '<w:style w:type="paragraph" w:styleId="Kop1"><w:name w:val="heading 1"/></w:style>'
        '<w:style w:type="paragraph" w:styleId="Kop2"><w:name w:val="heading 2"/><w:basedOn w:val="Kop1"/></w:style>'
        '<w:style w:type="paragraph" w:styleId="Artikelkop"><w:name w:val="Artikelkop"/>'
        '<w:basedOn w:val="Kop1"/></w:style>'
        '<w:style w:type="paragraph" w:styleId="Eigen"><w:name w:val="Eigen kop"/><w:pPr><w:outlineLvl w:val="1"/>'
        '</w:pPr></w:style>'
        '<w:style w:type="paragraph" w:styleId="Lus"><w:name w:val="Lus"/><w:basedOn w:val="Lus2"/></w:style>'
        '<w:style w:type="paragraph" w:styleId="Lus2"><w:name w:val="Lus2"/><w:basedOn w:val="Lus"/></w:style>'
        '<w:style w:type="paragraph" w:styleId="Inhopg1"><w:name w:val="toc 1"/></w:style>'
        '</w:styles>'))
    assert [styles.heading(s) for s in ("Kop1", "Kop2", "Artikelkop", "Eigen", "Heading3", None, "Lus")] == \
        [0, 1, 0, 1, 2, None, None]
    assert (styles.kind("Inhopg1"), styles.name("Kop1"), styles.name(None)) == ("contents", "heading 1", "Normal")


def test_an_article_numbered_by_word_and_sections_without_letters():
    doc = docx.Document()
    add_list(doc, 7, [("decimal", 53, "Artikel %1")])
    numbered(doc.add_heading("Accepteren van voor de beurt voorspelen", level=1), 7)
    doc.add_heading("Voor de beurt voorspelen behandeld als juist voorgespeeld", level=2)
    doc.add_paragraph("Behalve in de dertiende slag kan elke kaart als juist voorgespeeld worden behandeld.")
    doc.add_heading("Juist voorspelen volgend op onregelmatig voorspelen", level=2)
    hidden = doc.add_paragraph("Als een speler aan de beurt is.")
    hidden.add_run(" Niet voor de lezer.").font.hidden = True
    numbered(doc.add_heading("Uitkomst wordt opengelegd", level=1), 7)  # Artikel 54, the list goes on
    lines, _ = read_lines(saved(doc))
    assert (lines[0].label, lines[5].label, lines[4].hidden) == ("Artikel 53", "Artikel 54", "Niet voor de lezer.")
    source = manifest.Source(path=Path("v.docx"), edition="2017", language="nl")
    log = BuildLog()
    reading = formats.read(lines, source, log)
    assert reading.format == "docx"
    assert [(b.kind, b.text, b.cite) for b in reading.blocks] == [
        ("article", "Artikel 53 Accepteren van voor de beurt voorspelen", "53"),
        ("title", "Accepteren van voor de beurt voorspelen", None),
        ("heading", "Voor de beurt voorspelen behandeld als juist voorgespeeld", "A"),
        ("para", "Behalve in de dertiende slag kan elke kaart als juist voorgespeeld worden behandeld.", None),
        ("heading", "Juist voorspelen volgend op onregelmatig voorspelen", "B"),
        ("para", "Als een speler aan de beurt is.", None),
        ("article", "Artikel 54 Uitkomst wordt opengelegd", "54"),
        ("title", "Uitkomst wordt opengelegd", None)]
    said = [(e.kind, e.line, e.message) for e in log.entries]
    assert ("dropped", 5, "hidden text 'Niet voor de lezer.' (Word's hidden font): not shown, not read") in said
    inferred = [(line, message) for kind, line, message in said if kind == "inference"]
    assert [line for line, _ in inferred] == [2, 4]
    assert inferred[1][1].startswith("section B read from a heading without a letter (heading 2), by its place after "
                                     "section A; type the letter ('B. …')")


# -- numbering: the property --------------------------------------------------------------------------
FORMATS = ("decimal", "decimalZero", "lowerLetter", "upperLetter", "lowerRoman", "upperRoman")


def expected_text(n, fmt):
    """A number as Word writes it, written here independently of the reader."""
    if fmt == "decimalZero":
        return f"{n:02d}"
    if fmt == "decimal" or n <= 0:
        return str(n)
    if fmt in ("lowerLetter", "upperLetter"):
        letter = "abcdefghijklmnopqrstuvwxyz"[(n - 1) % 26] * ((n - 1) // 26 + 1)
        return letter.upper() if fmt == "upperLetter" else letter
    return ids.roman(n).upper() if fmt == "upperRoman" else ids.roman(n)


def numbering_xml(levels, restarts, override=None):
    lvls = "".join(
        f'<w:lvl w:ilvl="{k}"><w:start w:val="{start}"/><w:numFmt w:val="{fmt}"/>'
        + ('<w:lvlRestart w:val="0"/>' if not restart else "")
        + f'<w:lvlText w:val="{".".join(f"%{j + 1}" for j in range(k + 1))})"/></w:lvl>'
        for k, ((fmt, start), restart) in enumerate(zip(levels, restarts)))
    over = "" if override is None else \
        f'<w:lvlOverride w:ilvl="0"><w:startOverride w:val="{override}"/></w:lvlOverride>'
    return parse_xml(f'<w:numbering {NS}><w:abstractNum w:abstractNumId="4">{lvls}</w:abstractNum>'
                     f'<w:num w:numId="1"><w:abstractNumId w:val="4"/></w:num>'
                     f'<w:num w:numId="2"><w:abstractNumId w:val="4"/>{over}</w:num></w:numbering>')


@settings(max_examples=300, deadline=None)
@given(levels=st.lists(st.tuples(st.sampled_from(FORMATS), st.integers(0, 20)), min_size=1, max_size=4),
       restarts=st.lists(st.booleans(), min_size=4, max_size=4),
       paragraphs=st.lists(st.tuples(st.sampled_from((1, 2)), st.integers(0, 3)), max_size=16),
       override=st.one_of(st.none(), st.integers(0, 9)))
def test_word_numbering_gives_the_numbers_word_shows(levels, restarts, paragraphs, override):
    """Lists 1 and 2 share one abstractNum: they count on together, unless list 2 starts again (startOverride),
    then it counts on its own from its override. A level starts again when a higher level is numbered, except
    where its lvlRestart is 0."""
    numbering = Numbering(numbering_xml(levels, restarts, override))
    paragraphs = [(num, level) for num, level in paragraphs if level < len(levels)]
    for j, (num, level) in enumerate(paragraphs):
        got = numbering.next(str(num), level)
        own = override is not None and num == 2
        # The paragraphs counted with this one: both lists', or its own list's where list 2 starts again.
        before = [p for p in paragraphs[:j] if override is None or (p[0] == 2) == own]
        starts = [override if own and k == 0 else start for k, (_, start) in enumerate(levels)]

        def value(k, upto):
            """Level k's number at the end of `upto` (None where it is not counting: never numbered or reset)."""
            count = None
            for _, lv in upto:
                if lv == k:
                    count = starts[k] if count is None else count + 1
                elif lv < k and restarts[k]:
                    count = None
            return count
        mine = value(level, before + [(num, level)])
        shown = [value(k, before + [(num, level)]) for k in range(level + 1)]
        label = ".".join(expected_text(starts[k] if v is None else v, levels[k][0]) for k, v in enumerate(shown)) + ")"
        assert got == (label, levels[level][0], mine)


def test_the_restart_of_a_level_and_the_formats_by_hand():
    numbering = Numbering(numbering_xml([("upperLetter", 1), ("decimal", 1), ("lowerLetter", 1), ("lowerRoman", 1)],
                                        [True, True, True, True]))
    shown = [numbering.next("1", level)[0] for level in (0, 1, 2, 2, 3, 3, 2, 1, 0, 1)]
    assert shown == ["A)", "A.1)", "A.1.a)", "A.1.b)", "A.1.b.i)", "A.1.b.ii)", "A.1.c)", "A.2)", "B)", "B.1)"]
    assert [number_text(n, "lowerLetter") for n in (1, 26, 27, 53)] == ["a", "z", "aa", "aaa"]
    assert [number_text(n, "lowerRoman") for n in (4, 9, 14, 40, 1999)] == ["iv", "ix", "xiv", "xl", "mcmxcix"]
    assert (number_text(7, "decimalZero"), number_text(3, "bullet"), number_text(3, "ordinalText")) == ("07", "", "3")


# -- pandoc ---------------------------------------------------------------------------------------------
PANDOC_MARKDOWN = """\
# Artikel 41 Het begin van het spelen

## A. Gedekte uitkomst

Nadat een bod, doublet of redoublet gevolgd is door drie opeenvolgende pasbiedingen, komt de tegenspeler
links van de vermoedelijke leider uit[^1].

## B. Herhaling van het biedverloop en het stellen van vragen

1. Voordat de uitkomst open wordt gelegd, mogen de spelers een herhaling vragen.
2. De leider en beide tegenspelers mogen bij hun eerste beurt vragen:
    a. een herhaling van het bieden[^2];
    b. uitleg van een bieding.

[^1]: Het Bondsbestuur mag voorschrijven dat uitkomsten gedaan worden met de beeldzijde naar boven.
[^2]: De eerste keer dat de leider aan de beurt is.
"""


@pytest.fixture
def pandoc_docx(tmp_path):
    pandoc = shutil.which("pandoc")
    if pandoc is None:
        pytest.skip("pandoc is not installed (make pandoc installs Debian's): the pandoc-made Word file is not tested")
    import subprocess
    (tmp_path / "in.md").write_text(PANDOC_MARKDOWN, encoding="utf-8")
    subprocess.run([pandoc, "-f", "markdown", "-t", "docx", "-o", str(tmp_path / "out.docx"), str(tmp_path / "in.md")],
                   check=True, timeout=120)
    return (tmp_path / "out.docx").read_bytes()


def test_a_word_file_pandoc_made_from_markdown_with_footnotes(tmp_path, pandoc_docx):
    ctx = make_corpus(folder_with(tmp_path, pandoc_docx, name="pandoc.docx"))
    assert errors(ctx) == []
    corpus = ctx.corpus
    assert sorted(el.get("id") for el in corpus.iter(*ids.LEVELS)) == [
        "2017/41", "2017/41A", "2017/41B", "2017/41B1", "2017/41B2", "2017/41B2a", "2017/41B2b"]
    assert tree.label_text(tree.node_by_id(corpus, "2017/41")) == "Het begin van het spelen"
    assert node_text(corpus, "2017/41A") == ("Nadat een bod, doublet of redoublet gevolgd is door drie opeenvolgende "
                                             "pasbiedingen, komt de tegenspeler links van de vermoedelijke leider "
                                             f"uit{NOTE_MARK}.")
    assert node_text(corpus, "2017/41B2a") == f"een herhaling van het bieden{NOTE_MARK};"
    assert [(n.get("id"), n.get("num"), tree.plain_text(n)) for n in corpus.iter("note")] == [
        ("2017/41A/noot1", "1", "Het Bondsbestuur mag voorschrijven dat uitkomsten gedaan worden met de beeldzijde "
                                "naar boven."),
        ("2017/41B2a/noot1", "2", "De eerste keer dat de leider aan de beurt is.")]
    assert ctx.detected["pandoc.docx"].format == "docx"


# -- beside the other sources ---------------------------------------------------------------------------
@pytest.mark.slow
def test_a_word_file_among_the_real_sources_is_detected_by_its_bytes(sources_copy):
    add_source(sources_copy, "vertaling.docx", translators_document(), edition="2007")
    ctx = make_corpus(sources_copy)
    assert ctx.detected["vertaling.docx"].format == "docx"
    assert errors(ctx) == []
    assert node_text(ctx.corpus, "2007/50D2a") == f"van de tegenspeler eisen{NOTE_MARK} in de kleur voor te spelen;"
    assert tree.node_by_id(ctx.corpus, "2017/53A") is not None  # the wiki's, as before
    remarks = {(c.get("on"), c.get("author")) for c in ctx.corpus.iter("commentary")}
    assert {("2017/54", "Peter"), ("2007/53", "Anna de Vries")} <= remarks


def test_a_format_forced_to_docx_on_a_text_file_is_refused(tmp_path):
    folder = folder_with(tmp_path, "Artikel 53\nTekst.\n", name="tekst.txt", format="docx")
    with pytest.raises(LawbookError, match='format = "docx", but this file is not a Word document'):
        make_corpus(folder)


# -- what is read, never followed ----------------------------------------------------------------------
def simple_document(text="Behalve in de dertiende slag kan elke kaart als juist voorgespeeld worden behandeld."):
    doc = docx.Document()
    doc.add_heading("Artikel 53 Accepteren van voor de beurt voorspelen", level=1)
    doc.add_paragraph("A. Voor de beurt voorspelen behandeld als juist voorgespeeld")
    doc.add_paragraph(text)
    return doc


def add_relationship(data, member, kind, target, external=True):
    mode = ' TargetMode="External"' if external else ""
    rel = f'<Relationship Id="rIdT{kind}" Type="{REL}/{kind}" Target="{target}"{mode}/></Relationships>'.encode()
    if member in zipfile.ZipFile(io.BytesIO(data)).namelist():
        return rezip(data, change={member: lambda b: b.replace(b"</Relationships>", rel)})
    return rezip(data, add={member: b'<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/'
                                    b'package/2006/relationships">' + rel})


def test_hyperlinks_templates_and_linked_pictures_are_never_fetched(tmp_path):
    data = saved(simple_document())
    data = add_relationship(data, "word/_rels/document.xml.rels", "hyperlink", "http://127.0.0.1:9/never")
    data = add_relationship(data, "word/_rels/settings.xml.rels", "attachedTemplate", "file:///C:/Sjablonen/x.dotm")
    data = add_relationship(data, "word/_rels/document.xml.rels", "image", "http://127.0.0.1:9/plaatje.png")
    # A member whose name climbs out of the package, and a relationship that points there: neither is read.
    data = add_relationship(data, "word/_rels/document.xml.rels", "footer", "../../../buiten.xml", external=False)
    data = rezip(data, add={"../buiten.xml": b"<x/>", "word/../../buiten2.xml": b"<x/>"})
    ctx = make_corpus(folder_with(tmp_path, data))
    assert errors(ctx) == []
    assert node_text(ctx.corpus, "2017/53A") == ("Behalve in de dertiende slag kan elke kaart als juist voorgespeeld "
                                                 "worden behandeld.")
    assert sorted(p.name for p in tmp_path.rglob("*")) == ["sources.toml", "src", "vertaling.docx"]


# -- refusals -------------------------------------------------------------------------------------------
def tracked(kind):
    doc = simple_document()
    p = doc.add_paragraph("Deze zin is gewijzigd.")
    change = {"ins": f'<w:ins {NS} w:id="9" w:author="Jan" w:date="2024-01-01T00:00:00Z"><w:r><w:t>nieuw</w:t></w:r>'
                     '</w:ins>',
              "del": f'<w:del {NS} w:id="9" w:author="Jan"><w:r><w:delText>weg</w:delText></w:r></w:del>',
              "moveTo": f'<w:moveTo {NS} w:id="9" w:author="Jan"><w:r><w:t>verplaatst</w:t></w:r></w:moveTo>'}
    if kind == "rPrChange":
        p.runs[0]._r.get_or_add_rPr().append(parse_xml(f'<w:rPrChange {NS} w:id="9" w:author="Jan"><w:rPr/>'
                                                       f'</w:rPrChange>'))
    elif kind == "pPrChange":
        p._p.get_or_add_pPr().append(parse_xml(f'<w:pPrChange {NS} w:id="9" w:author="Jan"><w:pPr/></w:pPrChange>'))
    else:
        p._p.append(parse_xml(change[kind]))
    return saved(doc)


def lie_about_sizes(data, name, file_size, compress_size=None):
    """The zip with the central directory's (and local header's) sizes of member `name` changed."""
    data = bytearray(data)
    at = data.find(b"PK\x01\x02")
    while at >= 0:
        length = struct.unpack_from("<H", data, at + 28)[0]
        if data[at + 46:at + 46 + length] == name.encode():
            if compress_size is not None:
                struct.pack_into("<I", data, at + 20, compress_size)
            struct.pack_into("<I", data, at + 24, file_size)
            local = struct.unpack_from("<I", data, at + 42)[0]
            struct.pack_into("<I", data, local + 22, file_size)
        at = data.find(b"PK\x01\x02", at + 4)
    return bytes(data)


def big_member(size):
    return rezip(saved(simple_document()), add={"word/media/image1.png": bytes(size)})


def with_members(count):
    present = len(zipfile.ZipFile(io.BytesIO(saved(simple_document()))).namelist())
    return rezip(saved(simple_document()), add={f"word/media/pad{k}.bin": b"" for k in range(count - present)})


def duplicated(name):
    """The Word file with a second member of the name `name` (the first is what one zip reader reads, the
    second what another reads)."""
    buffer = io.BytesIO(saved(simple_document()))
    with pytest.warns(UserWarning, match="Duplicate name"), zipfile.ZipFile(buffer, "a") as z:
        z.writestr(name, b"<w:document/>")
    return buffer.getvalue()


def main_type(data, content_type):
    return rezip(data, change={"[Content_Types].xml": lambda b: b.replace(
        b"application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml", content_type.encode())})


def document_xml(data, change):
    return rezip(data, change={"word/document.xml": change})


def with_dtd(b):
    b = b.replace(b"?>", b'?>\n<!DOCTYPE w:document [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;">]>', 1)
    return b.replace(b"Behalve", b"&lol2;Behalve", 1)


def endnote(doc):
    doc.paragraphs[-1]._p.append(parse_xml(f'<w:r {NS}><w:endnoteReference w:id="1"/></w:r>'))
    return saved(doc)


def alt_chunk(doc):
    doc.element.body.insert(1, parse_xml(f'<w:altChunk {NS} xmlns:r="{REL}" r:id="rIdAlt"/>'))
    return saved(doc)


def ole(encrypted):
    return docx_package.OLE + bytes(512) + ("EncryptedPackage".encode("utf-16-le") if encrypted else b"") + bytes(512)


def huge_on_paper():
    data = saved(simple_document())
    for k in range(3):  # three members the headers say unpack to 30 MiB each (at a ratio of 30)
        data = rezip(data, add={f"word/media/pad{k}.bin": b""})
    for k in range(3):
        data = lie_about_sizes(data, f"word/media/pad{k}.bin", 30 * docx_package.MIB, docx_package.MIB)
    return data


def spreadsheet():
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as z:
        z.writestr("[Content_Types].xml", '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/'
                   'package/2006/content-types"><Override PartName="/xl/workbook.xml" ContentType="application/'
                   'vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/></Types>')
        z.writestr("xl/workbook.xml", "<workbook/>")
    return out.getvalue()


REFUSED = {  # case -> (the Word file's bytes, words of the message, words of the fix, the paragraph named)
    "tracked insertion": (lambda: tracked("ins"), "tracked changes: an insertion ('nieuw')", "Accept all changes", 4),
    "tracked deletion": (lambda: tracked("del"), "tracked changes: a deletion ('weg')", "Accept all changes", 4),
    "tracked move": (lambda: tracked("moveTo"), "tracked changes: a move", "Accept all changes", 4),
    "tracked formatting": (lambda: tracked("rPrChange"), "tracked changes: a formatting change", "Accept all", 4),
    "tracked paragraph": (lambda: tracked("pPrChange"), "tracked changes: a formatting change", "Accept all", 4),
    "docm": (lambda: main_type(saved(simple_document()), "application/vnd.ms-word.document.macroEnabled.main+xml"),
             "holds macros (its content type application/vnd.ms-word.document.macroEnabled.main+xml)", "(.docx)", None),
    "vbaProject": (lambda: rezip(saved(simple_document()), add={"word/vbaProject.bin": b"\0" * 64}),
                   "holds macros (its member word/vbaProject.bin)", "keeps no macros", None),
    "subdocument": (lambda: add_relationship(saved(simple_document()), "word/_rels/document.xml.rels", "subDocument",
                                             "file:///C:/boek/deel2.docx"),
                    "takes part of what it shows from outside itself (subDocument 'file:///C:/boek/deel2.docx'",
                    "Unlink", None),
    "linked object": (lambda: add_relationship(saved(simple_document()), "word/_rels/document.xml.rels", "oleObject",
                                               "http://127.0.0.1:9/x.xlsx"), "(oleObject", "Break Link", None),
    "altChunk": (lambda: alt_chunk(simple_document()), "imports content from another file or part", "save it", 2),
    "endnotes": (lambda: endnote(simple_document()), "holds endnotes", "Convert all endnotes to footnotes", 3),
    "bomb by header (one member)": (lambda: big_member(40 * docx_package.MIB),
                                    "word/media/image1.png unpacks to 40.0 MiB, over the limit of 32.0 MiB",
                                    "Word document itself", None),
    "bomb by header (ratio)": (lambda: big_member(2 * docx_package.MIB), "times its packed size", "Word document",
                               None),
    "bomb by header (all members)": (huge_on_paper, "MiB, over the limit of 64.0 MiB for a Word file",
                                     "Word document", None),
    "bomb by actual size": (lambda: lie_about_sizes(saved(simple_document()), "word/document.xml", 200),
                            "word/document.xml in the Word file is damaged: it does not unpack to the bytes its zip "
                            "header gives", "download or copy the file again", None),
    "too many members": (lambda: with_members(1001), "the zip holds 1001 members, over the limit of 1000", "Word",
                         None),
    "two members of one name": (lambda: duplicated("word/document.xml"), "two members named 'word/document.xml'",
                                "save it again", None),
    "damaged zip": (lambda: saved(simple_document())[:3000], "damaged or cut off: its zip cannot be opened",
                    "download or copy the file again", None),
    "not a zip inside": (lambda: docx_package.ZIP + bytes(200), "damaged or cut off", "copy the file again", None),
    "no document.xml": (lambda: rezip(saved(simple_document()), drop=("word/document.xml",)),
                        "has no word/document.xml", "download or copy the file again", None),
    "not a Word document": (spreadsheet, "names no WordprocessingML main document", "(.docx) itself", None),
    "encrypted": (lambda: ole(True), "is encrypted (protected with a password)", "remove the password", None),
    "Word 97-2003": (lambda: ole(False), "an OLE compound file (a Word 97-2003 .doc", "save it as a Word Document",
                     None),
    "DTD and entities": (lambda: document_xml(saved(simple_document()), with_dtd), "declares a DTD (<!DOCTYPE",
                         "as Word saves it", None),
    "bidirectional override": (lambda: saved(simple_document("Behalve \u202ein de slag.")),
                               "paragraph 3 holds bidirectional control U+202E", "remove it", 3),
}


@pytest.mark.parametrize("case", REFUSED)
def test_each_refusal_is_one_error_naming_the_file(case):
    make, message, fix, line = REFUSED[case]
    with pytest.raises(LawbookError) as caught:
        read_lines(make())
    assert message in caught.value.message
    assert fix in caught.value.fix
    assert (str(caught.value.file), caught.value.line) == ("vertaling.docx", line)


def test_the_bytes_are_counted_as_they_unpack_whatever_the_headers_say():
    package = docx_package._Package(saved(simple_document()), "vertaling.docx")
    package.read_total = docx_package.MAX_UNPACKED - 100  # what the members read before took
    with pytest.raises(LawbookError, match="word/document.xml unpacks to more than 100 bytes"):
        package.read("word/document.xml")


@pytest.mark.slow
@pytest.mark.parametrize("case", REFUSED)
def test_the_command_line_gives_each_refusal_as_one_message(tmp_path, case):
    make, message, fix, _ = REFUSED[case]
    folder = folder_with(tmp_path, make())
    result = run_lawbook("build", "--sources", folder, "--out", tmp_path / "out", "--no-pdf")
    assert result.returncode != 0
    assert "Traceback" not in result.stderr
    said = [line for line in result.stderr.splitlines() if line.startswith("lawbook:")]
    assert len(said) == 1 and "vertaling.docx" in said[0] and message in said[0], result.stderr
    assert "  fix: " in result.stderr and not (tmp_path / "out").exists()


def test_a_document_without_heading_styles_is_read_from_its_typed_headings(tmp_path):
    doc = docx.Document()
    for text in ("Artikel 24", "Getoonde of voorgespeelde kaart tijdens het bieden",
                 "Als de wedstrijdleider vaststelt dat een kaart gezien kon worden, blijft die op tafel liggen.",
                 "A. Lage kaart niet voortijdig voorgespeeld",
                 "Artikel 16 is van toepassing op wat de partner weet.",
                 "B.", "Als het één honneur betreft, moet de partner passen."):
        doc.add_paragraph(text)
    ctx = make_corpus(folder_with(tmp_path, saved(doc)))
    assert errors(ctx) == []
    corpus = ctx.corpus
    assert sorted(el.get("id") for el in corpus.iter(*ids.LEVELS)) == ["2017/24", "2017/24A", "2017/24B"]
    assert tree.label_text(tree.node_by_id(corpus, "2017/24")) == "Getoonde of voorgespeelde kaart tijdens het bieden"
    assert node_text(corpus, "2017/24A") == "Artikel 16 is van toepassing op wat de partner weet."
    assert tree.label_text(tree.node_by_id(corpus, "2017/24B")) is None
    assert node_text(corpus, "2017/24B") == "Als het één honneur betreft, moet de partner passen."


def test_a_field_is_read_as_its_result_and_a_text_box_is_reported():
    doc = simple_document()
    p = doc.add_paragraph("Zie ")
    p._p.append(parse_xml(f'<w:r {NS}><w:fldChar w:fldCharType="begin"/></w:r>'))
    p._p.append(parse_xml(f'<w:r {NS}><w:instrText xml:space="preserve"> REF _Ref1 \\h </w:instrText></w:r>'))
    p._p.append(parse_xml(f'<w:r {NS}><w:fldChar w:fldCharType="separate"/></w:r>'))
    p._p.append(parse_xml(f'<w:r {NS}><w:t>artikel 53A</w:t></w:r>'))
    p._p.append(parse_xml(f'<w:r {NS}><w:fldChar w:fldCharType="end"/></w:r>'))
    p.add_run(" en het\u00a0kader.")
    p._p.append(parse_xml(f'<w:r {NS}><w:drawing><w:txbxContent><w:p><w:r><w:t>in een kader</w:t></w:r></w:p>'
                          f'</w:txbxContent></w:drawing></w:r>'))
    lines, _ = read_lines(saved(doc))
    assert (lines[3].text, lines[3].left_out) == ("Zie artikel 53A en het\u00a0kader.", ("a text box",))
    log = BuildLog()
    formats.read(lines, manifest.Source(path=Path("v.docx"), edition="2017", language="nl"), log)
    assert [(e.kind, e.line, e.message) for e in log.entries if e.kind == "damage"] == [
        ("damage", 4, "paragraph 4 holds a text box, whose text is not read; left out; put the text in the paragraph "
                      "itself if it is law text")]
