"""Unit tests of the readers and the registry of formats, on a few lines built here.

Each reader's blocks are pinned exactly (kind, text, cite, number, level, lines, notes); a reader
repairs nothing (a printed paragraph keeps the lines the page broke it into, for the repair stage),
and the registry is the one list of formats the manifest and detection use.
"""
from pathlib import Path

import pytest

from pipeline.core.errors import LawbookError
from pipeline.core.model import NOTE_MARK, Block, Dropped, Gap, Note
from pipeline.core.report import BuildLog
from pipeline.reading import formats, manifest, repair
from pipeline.reading.decode import Line
from pipeline.core import lang


def lines_of(text, name="f.txt"):
    return [Line(name, n, t) for n, t in enumerate(text.split("\n"), 1)]


def read(text, edition="2017", fmt=None, name="f.txt"):
    log = BuildLog()
    reading = formats.read(lines_of(text, name), manifest.Source(path=Path(name), edition=edition, language="nl", format=fmt), log)
    return reading, log


WIKI = """ARTIKEL 54
Artikel 50D
1. 1. Met uitzondering van (Noot: Zie 41.) de leider
   2. of de blinde

2. Elke kaart
Gewone tekst"""


def test_wiki_reader_blocks():
    reading, log = read(WIKI)
    assert (reading.format, reading.rules) == ("wiki", formats.FORMATS["wiki"].rules)
    assert reading.blocks == [
        Block("article", "Artikel 50D", [2], cite="50D"),
        Block("list", f"Met uitzondering van{NOTE_MARK} de leider", [3], number=1, extra_number=1,
              notes=[Note("Zie 41.", [3], "inline")]),
        Block("list", "of de blinde", [4], number=2, level=1),
        Block("list", "Elke kaart", [6], number=2, group=1),
        Block("para", "Gewone tekst", [7], group=1),
    ]
    assert reading.dropped == [Dropped(1, "page title 'ARTIKEL 54': page context, not law text")]
    assert (reading.subject, reading.gaps, log.entries) == ("54", [], [])


TEMPLATE = """Sjabloon:2007:41
ARTIKEL 41 Het begin van het spelen
A. Gedekte uitkomst
De tegenspeler komt uit 1). Daarna
1. Eerste lid
1) Het Bondsbestuur mag."""


def test_template_reader_blocks():
    reading, log = read(TEMPLATE, edition="2007")
    assert reading.format == "template"
    assert reading.blocks == [
        Block("article", "ARTIKEL 41 Het begin van het spelen", [2], cite="41"),
        Block("title", "Het begin van het spelen", [2]),
        Block("heading", "Gedekte uitkomst", [3], cite="A"),
        Block("para", f"De tegenspeler komt uit{NOTE_MARK}. Daarna", [4],
              notes=[Note("Het Bondsbestuur mag.", [6], "numbered", number="1")]),
        Block("list", "Eerste lid", [5], number=1),
    ]
    assert reading.dropped == [Dropped(1, "template name 'Sjabloon:2007:41': page context, not law text")]
    assert (reading.gaps, log.entries) == ([], [])


PRINT = """SPELREGELS
44
ARTIKEL 24
Getoonde kaart voor het
begin van de speelperiode
Als de wedstrijd-
leider vaststelt
1
dat het zo is.
A. Lage kaart
1. Als het een
kaart betreft.
1
Een voet-
noot."""


def test_print_reader_blocks_keep_the_page_lines_for_the_repair_stage():
    reading, log = read(PRINT, edition="2007")
    assert reading.format == "print"
    assert reading.blocks == [
        Block("article", "ARTIKEL 24", [3], cite="24"),
        Block("title", "Getoonde kaart voor het begin van de speelperiode", [4, 5]),
        Block("para", f"Als de wedstrijd-\nleider vaststelt{NOTE_MARK}\ndat het zo is.", [6, 7, 9],
              pieces=[(6, "Als de wedstrijd-"), (7, f"leider vaststelt{NOTE_MARK}"), (9, "dat het zo is.")],
              notes=[Note("Een voet-\nnoot.", [8, 13, 14, 15], "print", number="1",
                          pieces=[(14, "Een voet-"), (15, "noot.")])]),
        # The reader leaves a section's heading glued to what follows it: the headings stage splits it, with the
        # book's contents list as evidence where one is in the sources (reading/headings.py).
        Block("heading-text", "Lage kaart", [10], cite="A", pieces=[(10, "Lage kaart")]),
        Block("list", "Als het een\nkaart betreft.", [11, 12], number=1,
              pieces=[(11, "Als het een"), (12, "kaart betreft.")], marker="number"),
    ]
    assert reading.dropped == [Dropped(1, "running header 'SPELREGELS': page layout, not law text"),
                               Dropped(2, "page number 44")]
    assert reading.gaps == [Gap(15, "24", "article 24 is cut off at the end of page 44: the rest is on a page "
                                         "that is not in the sources",
                                "Artikel 24 breekt af aan het eind van pagina 44; het vervolg staat op een "
                                "pagina die niet in de bronnen zit.")]
    assert log.entries == []  # no repair while reading: the hyphens are the repair stage's


def test_repair_stage_joins_printed_lines_with_the_vocabulary_and_logs_each_join():
    reading, log = read(PRINT, edition="2007")
    assert repair.needs_vocabulary(reading)
    repair.repair_reading(reading, {"wedstrijd-leider"}, log, lang.profile("nl"))
    para = reading.blocks[2]
    assert (para.text, para.pieces) == (f"Als de wedstrijd-leider vaststelt{NOTE_MARK} dat het zo is.", [])
    assert (para.notes[0].text, reading.blocks[4].text) == ("Een voetnoot.", "Als het een kaart betreft.")
    assert [(e.kind, e.line, e.message, e.before, e.after) for e in log.entries] == [
        ("repair", 6, "kept: the hyphenated form is used elsewhere in the sources", "wedstrijd-\\nleider",
         "wedstrijd-leider"),
        ("repair", 14, "line-end hyphen joined", "voet-\\nnoot", "voetnoot"),
    ]


def test_a_wiki_or_template_reading_needs_no_vocabulary():
    assert not repair.needs_vocabulary(read(WIKI)[0])
    assert not repair.needs_vocabulary(read(TEMPLATE, edition="2007")[0])


def test_a_page_that_starts_inside_an_article_is_a_gap_without_a_reason_for_readers():
    reading, _ = read("SPELREGELS\n45\nvan de leider.\nARTIKEL 26\nTitel", edition="2007")
    assert reading.gaps[0] == Gap(3, None, "the page starts inside an article whose beginning is on an earlier "
                                           "page, which is not in the sources")


# -- the registry ---------------------------------------------------------------------------------

def test_the_manifest_allows_exactly_the_registered_formats():
    assert manifest.FORMATS == tuple(formats.FORMATS) == ("wiki", "template", "print", "flowed", "pdf", "markdown",
                                                          "docx")
    assert [f.name for f in formats.REGISTRY] == list(formats.FORMATS)


@pytest.mark.parametrize("text, fmt", [(WIKI, "wiki"), (TEMPLATE, "template"), (PRINT, "print"),
                                       # no template name, but its heading shape
                                       ("ARTIKEL 41 Het begin\nA. Kop", "template"),
                                       # page layout outranks a wiki heading
                                       ("KOP\n12\nArtikel 5\ntekst", "print")])
def test_detection_asks_the_signs_of_the_registry_in_order_of_priority(text, fmt):
    assert formats.detect(lines_of(text), "f.txt", lang.profile("nl")) == fmt


def test_a_source_no_sign_recognises_is_one_error_naming_the_formats():
    with pytest.raises(LawbookError) as caught:
        formats.detect(lines_of("\nzomaar wat tekst\nnog meer"), "f.txt", lang.profile("nl"))
    assert (caught.value.file, caught.value.line) == ("f.txt", 1)
    assert caught.value.fix == 'set format = "wiki", "template", "print" or "markdown" for this file in sources.toml'


def test_each_reader_makes_only_the_note_forms_its_format_declares():
    made = {"wiki": read("Artikel 5\nA (Noot: een) en Noot: (twee) drie")[0],
            "template": read(TEMPLATE, edition="2007")[0], "print": read(PRINT, edition="2007")[0]}
    for name, reading in made.items():
        forms = {note.form for block in reading.blocks for note in block.notes}
        assert forms and forms <= set(formats.FORMATS[name].notes), name
    assert {n.form for b in made["wiki"].blocks for n in b.notes} == {"inline", "malformed"}


def test_a_forced_format_is_read_by_its_reader():
    reading, _ = read("Artikel 5\n1. tekst", fmt="wiki")
    assert reading.format == "wiki" and reading.blocks[0] == Block("article", "Artikel 5", [1], cite="5")
