"""The corpus built from the five real sources: the facts issue by issue, exact IDs and text."""
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from pipeline.publish import run as build
from pipeline.outputs import serialise
from pipeline.core import tree
from pipeline.core.model import NOTE_MARK, Accounted, Placed

from conftest import assert_validates

ROOT = Path(__file__).resolve().parent.parent
SOURCES = ROOT / "sources"
F000, F001, F002, F003, F004 = sorted(p.name for p in SOURCES.glob("*.txt"))


@pytest.fixture(scope="module")
def ctx(five_sources_as_read):
    """The corpus as the sources say it: without sources/corrections.toml (tests/test_corrections.py
    has the corrected corpus), so 47E's items are 47E1a and 47E1b as the sources number them."""
    return five_sources_as_read


@pytest.fixture(scope="module")
def corpus(ctx):
    return ctx.corpus


def node(corpus, node_id):
    el = tree.node_by_id(corpus, node_id)
    assert el is not None, f"{node_id} is not in the corpus"
    return el


def own_text(el):
    return "\n".join(tree.plain_text(p) for p in el.iterchildren("p"))


def nums(el, tag):
    return [c.get("num") for c in el.iterchildren(tag)]


def articles(corpus, edition):
    return [a.get("num") for a in corpus.xpath("edition[@id=$e]/article", e=edition)]


def test_editions_hold_their_articles(corpus):
    assert articles(corpus, "2007") == ["24", "25", "41"]
    assert articles(corpus, "2017") == ["16", "24", "41", "47", "50", "53", "57"]


def test_page_titles_are_not_articles(corpus):
    # "ARTIKEL 54" and "ARTIKEL 56" are page titles; 54 only has commentary.
    for edition in ("2007", "2017"):
        assert "54" not in articles(corpus, edition)
        assert "56" not in articles(corpus, edition)
    texts = " ".join(corpus.itertext())
    assert "ARTIKEL 54" not in texts and "ARTIKEL 56" not in texts and "Sjabloon" not in texts
    assert "Operation Manual" not in texts


def test_53_sections_headings_and_sources(corpus):
    art = node(corpus, "2017/53")
    assert art.findtext("title") == "Accepteren van voor de beurt voorspelen"
    assert nums(art, "section") == ["A", "B", "C"]
    assert node(corpus, "2017/53A").findtext("heading") == "Voor de beurt voorspelen behandeld als juist voorgespeeld"
    assert node(corpus, "2017/53B").findtext("heading") == "Juist voorspelen volgend op onregelmatig voorspelen"
    assert node(corpus, "2017/53C").findtext("heading") == \
        "De verkeerde tegenspeler speelt een kaart bij na een onregelmatig voorspelen door de leider"
    assert sorted(tree.parse_sources(art.get("sources"))) == [F000, F001]
    assert tree.parse_sources(art.get("sources"))[F000] >= {3, 5, 7, 8, 11, 12, 15, 16}


def test_50D_subsections_and_items(corpus):
    sec = node(corpus, "2017/50D")
    assert sec.findtext("heading") == "Behandeling van grote strafkaart"
    assert nums(sec, "subsection") == ["1", "2"]
    assert nums(node(corpus, "2017/50D1"), "item") == ["a", "b"]
    assert nums(node(corpus, "2017/50D2"), "item") == ["a", "b"]
    assert own_text(node(corpus, "2017/50D1a")).startswith("Met uitzondering van de bepaling in (b) hieronder")
    assert own_text(node(corpus, "2017/50D2")).endswith("De leider kan uit de volgende mogelijkheden kiezen:")


def test_50D2a_text_and_its_two_notes_to_artikel_59(corpus):
    item = node(corpus, "2017/50D2a")
    text = own_text(item)
    assert text.startswith("van de tegenspeler eisen in de kleur van de strafkaart voor te spelen, of hem verbieden in")
    notes = list(item.iter("note"))
    assert [n.get("id") for n in notes] == ["2017/50D2a/noot1", "2017/50D2a/noot2"]
    for note in notes:
        assert tree.plain_text(note) == "Zie artikel 59, als de speler niet kan voorspelen zoals voorgeschreven."
    # The first marker after "eisen", the malformed "Noot: (…)" one after "verbieden".
    marked = tree.text_with_marks(item.find("p"))
    assert marked.startswith(f"van de tegenspeler eisen{NOTE_MARK} in de kleur")
    assert f"of hem verbieden{NOTE_MARK} in die kleur" in marked
    assert [n.get("form") for n in notes] == ["inline", "malformed"]


def test_41_sections_in_both_editions(corpus):
    for edition in ("2007", "2017"):
        art = node(corpus, f"{edition}/41")
        assert art.findtext("title") == "Het begin van het spelen"
        assert nums(art, "section") == ["A", "B", "C", "D"]
        assert node(corpus, f"{edition}/41D").findtext("heading") == "De hand van de blinde"


def test_bondsbestuur_note_at_the_same_place_in_both_editions(corpus):
    note_text = ("Het Bondsbestuur mag voorschrijven dat uitkomsten gedaan worden met de beeldzijde naar boven. "
                 "(Het Bondsbestuur schrijft voor dat uitkomsten gedaan worden met de beeldzijde naar beneden.)")
    marked = {}
    for edition in ("2007", "2017"):
        p = node(corpus, f"{edition}/41A").find("p")
        note = p.find("note")
        assert tree.plain_text(note) == note_text
        assert note.get("id") == f"{edition}/41A/noot1"
        marked[edition] = tree.text_with_marks(p)
    prefix = ("met de beeldzijde van de kaart naar beneden" + NOTE_MARK + ". De gedekte uitkomst")
    assert prefix in marked["2007"] and prefix in marked["2017"]
    offset = {e: m.index(NOTE_MARK) for e, m in marked.items()}
    assert offset["2007"] == offset["2017"]
    assert node(corpus, "2007/41A").find("p/note").get("form") == "numbered"
    assert node(corpus, "2017/41A").find("p/note").get("form") == "inline"


def test_notes_of_41B_and_41C(corpus):
    b2007 = tree.text_with_marks(node(corpus, "2007/41B").find("p"))
    assert f"De leider{NOTE_MARK} en beide tegenspelers" in b2007
    c2007 = node(corpus, "2007/41C").find("p")
    assert f"als het hun{NOTE_MARK} beurt is om te spelen" in tree.text_with_marks(c2007)
    assert tree.plain_text(c2007.find("note")) == "De leider mag uitleg vragen als hij speelt vanuit de blinde of " \
                                                   "vanuit zijn eigen hand."
    # 2017/41B has a note at "hun" that 2007/41B does not have.
    assert len(list(node(corpus, "2017/41B").iter("note"))) == 2
    assert len(list(node(corpus, "2007/41B").iter("note"))) == 1


def test_print_hyphenation_repaired(corpus):
    text = own_text(node(corpus, "2007/24"))
    assert "als gevolg van een fout van de speler zelf" in text
    assert "zulke openliggende kaarten, is geoorloofd voor de niet-overtredende partij maar ongeoorloofd" in text
    assert "ge-" not in text and "kaar-" not in text
    c = own_text(node(corpus, "2007/24C"))
    assert "zijn getoond, moet de partner" in c
    assert "(zie artikel 23 ingeval een pas de niet-overtredende partij benadeelt)" in c
    assert node(corpus, "2007/24").findtext("title") == \
        "Getoonde of voorgespeelde kaart voor het begin van de speelperiode"


def test_soft_hyphen_and_real_hyphens(corpus):
    assert "een herhaling vragen van het biedverloop of om uitleg" in own_text(node(corpus, "2007/41B"))
    assert "¬" not in "".join(corpus.itertext())
    assert "als gevolg van een verkeerde uitleg van een bied- of speelwijze" in own_text(node(corpus, "2017/47E1a"))
    assert "niet-overtredende" in own_text(node(corpus, "2017/16C1"))


def test_non_breaking_spaces_normalised(corpus):
    assert "\u00a0" not in "".join(corpus.itertext())
    assert "(zie echter artikel 47E1)" in own_text(node(corpus, "2017/53A"))


def test_16C_subsections(corpus):
    sec = node(corpus, "2017/16C")
    assert sec.findtext("heading") == "Informatie uit ingetrokken handelingen"
    assert own_text(sec) == "Ingeval een bieding of spelen conform de spelregels ingetrokken wordt, geldt:"
    assert nums(sec, "subsection") == ["1", "2", "3"]
    assert own_text(node(corpus, "2017/16C1")).startswith("Voor een niet-overtredende partij is alle informatie")
    assert "een overtreding van C2 hierboven" in own_text(node(corpus, "2017/16C3"))
    assert node(corpus, "2017/16C2").get("numbering") == "inferred"
    assert "C2 hierboven" in node(corpus, "2017/16C2").get("evidence")


def test_47E_items_from_evidence(corpus):
    sec = node(corpus, "2017/47E")
    assert sec.findtext("heading") == "Wijziging van het spelen op basis van verkeerde informatie"
    e1 = node(corpus, "2017/47E1")
    assert own_text(e1).startswith("Wie voor de beurt heeft voorgespeeld (of een kaart gespeeld)")
    assert "en artikel 63A1 is niet van toepassing" in own_text(e1)  # "artikel artikel" collapsed
    assert nums(e1, "item") == ["a", "b"]
    assert own_text(node(corpus, "2017/47E1b")) == \
        "Wanneer het te laat is voor herstel volgens (a), kan de wedstrijdleider een arbitrale score toekennen."
    assert "volgens (a)" in node(corpus, "2017/47E1a").get("evidence")
    assert nums(node(corpus, "2017/47"), "section") == ["B", "E"]


def test_57_is_partial_with_gaps(corpus):
    art = node(corpus, "2017/57")
    assert art.findtext("title") == "Voortijdig voorspelen of spelen"
    assert nums(art, "section") == ["A", "B", "C", "D"]
    assert nums(node(corpus, "2017/57A"), "subsection") == ["1", "2", "3", "4"]
    assert nums(node(corpus, "2017/57C"), "subsection") == ["1", "2", "3"]
    for sec in ("2017/57B", "2017/57D"):
        assert node(corpus, sec).find("p") is None
        assert node(corpus, sec).find("gap").get("reason") == \
            f"De tekst van {sec[5:]} ontbreekt in de bronnen; alleen het opschrift is overgeleverd."
    assert node(corpus, "2017/57A").find("gap").get("reason") == \
        "De inleidende tekst van 57A, vóór 57A1, ontbreekt in de bronnen."
    c1 = node(corpus, "2017/57C1").find("p")
    assert tree.text_with_marks(c1).endswith(
        f"tot de leider de opdracht heeft gegeven (of heeft aangegeven{NOTE_MARK}) dat ze gespeeld moet worden.")
    assert tree.plain_text(c1.find("note")) == "Zoals door een gebaar of een hoofdknik."


def test_commentary_on_54_by_peter(corpus):
    [comm] = corpus.xpath("//commentary")
    assert comm.get("on") == "2017/54"
    assert comm.get("author") == "Peter"
    assert comm.get("id") == "2017/54/toelichting1"
    assert comm.getparent().get("id") == "2017"
    paragraphs = [tree.plain_text(p) for p in comm.iterchildren("p")]
    assert paragraphs[0].startswith("De eerste alinea wekt de indruk dat dit volledige artikel 54")
    assert paragraphs[-1].startswith("IN de situatie waarbij zijn partner gelijktijdig uitkomt")
    # Commentary never stands inside law text.
    for article in corpus.iter("article"):
        assert "persoonlijke titel" not in "".join(article.itertext())


def test_25_cut_off_and_its_print_footnote(corpus):
    sub = node(corpus, "2007/25A1")
    p = sub.find("p")
    assert tree.text_with_marks(p).startswith(
        f"Tot zijn partner een bieding doet, mag een speler een niet bedoelde bieding vervangen door zijn "
        f"voorgenomen bieding{NOTE_MARK} maar alléén als hij dit doet")
    assert tree.plain_text(p.find("note")) == ("Een speler mag een niet bedoelde bieding wijzigen zolang aan de "
                                               "voorwaarden van artikel 25A is voldaan, ongeacht de manier waarop "
                                               "hij zich van zijn fout bewust wordt.")
    assert tree.plain_text(p).endswith("is zij onderworpen aan het toepasselijke artikel.")
    gap = node(corpus, "2007/25").find("gap")
    assert gap.get("reason") == ("Artikel 25 breekt af aan het eind van pagina 44; het vervolg staat op een "
                                 "pagina die niet in de bronnen zit.")


def test_report_names_gaps_repairs_and_variant(ctx):
    entries = ctx.log.entries
    gaps = [e for e in entries if e.kind == "gap"]
    assert any(e.node == "2017/57B" and e.file == F002 and e.line == 36 for e in gaps)
    assert any(e.node == "2017/57D" and e.file == F002 and e.line == 44 for e in gaps)
    assert any(e.node == "2017/57A" and "leads in to 2017/57A1" in e.message for e in gaps)
    assert any(e.node == "2007/25" and e.file == F004 and "cut off" in e.message for e in gaps)
    repairs = [(e.file, e.line, e.before, e.after) for e in entries if e.kind == "repair"]
    assert (F002, 7, "artikel artikel", "artikel") in repairs
    assert (F002, 40, "(of heeft aangegeven (of heeft aangegeven)", "(of heeft aangegeven)") in repairs
    assert (F004, 7, "ge-\\nvolg", "gevolg") in repairs
    assert (F003, 7, "bied¬verloop", "biedverloop") in repairs
    [variant] = [e for e in entries if e.kind == "variant"]
    assert variant.node == "2017/53B" and variant.file == F001 and variant.line == 12
    assert "'artikel' / 'Artikel'" in variant.message
    assert variant.after.endswith("Artikel 16C is van toepassing.")
    assert not ctx.log.errors


def test_inferred_numbering_is_recorded(corpus):
    a = node(corpus, "2017/53A")
    assert a.get("numbering") == "inferred"
    assert "'artikel 53A'" in a.get("evidence")
    assert "zie E" in node(corpus, "2017/24E").get("evidence")
    # Letters written in the source are not inferences.
    assert node(corpus, "2007/41A").get("numbering") is None
    assert node(corpus, "2017/50D").get("numbering") is None


def test_every_non_blank_line_is_accounted_for(ctx):
    ids_in_corpus = set(tree.node_index(ctx.corpus))
    reasons = {(e.file, e.line): e.message for e in ctx.log.entries if e.kind == "dropped"}
    for fragment in ctx.fragments:
        for line in ctx.lines[fragment.file]:
            if line.blank:
                continue
            where = fragment.ledger.get(line.num)
            assert where is not None, f"{fragment.file}:{line.num} unaccounted: {line.text!r}"
            if isinstance(where, Accounted) and where.reason.startswith("commentary on "):
                continue
            assert (isinstance(where, Placed) and where.node in ids_in_corpus
                    or (fragment.file, line.num) in reasons), (fragment.file, line.num, where)


def test_dropped_lines_are_page_furniture_only(ctx):
    dropped = sorted((e.file, e.line) for e in ctx.log.entries if e.kind == "dropped")
    assert dropped == [(F000, 1), (F001, 1), (F002, 1), (F003, 1), (F004, 1), (F004, 3)]


def test_ids_are_unique_and_well_formed(corpus):
    all_ids = [el.get("id") for el in corpus.iter() if el.get("id")]
    assert len(all_ids) == len(set(all_ids))
    from pipeline.core import ids
    for el in corpus.iter(*tree.NODE_TAGS):
        assert ids.is_well_formed(el.get("id")), el.get("id")
        parent = el.getparent()
        if parent.tag != "edition":
            assert el.get("id") == parent.get("id") + el.get("num")


def test_schemas_validate(corpus):
    data = serialise.to_json(corpus)
    assert_validates(corpus, data)


def test_xml_round_trip_and_json_agree(corpus):
    xml = serialise.to_xml(corpus)
    again = serialise.parse_xml(xml)
    assert serialise.to_xml(again) == xml
    assert serialise.to_json(again) == serialise.to_json(corpus)
    data = serialise.to_json(corpus)
    [ed2007] = [e for e in data["editions"] if e["id"] == "2007"]
    a41 = next(a for a in ed2007["articles"] if a["id"] == "2007/41")
    sec_a = a41["content"][0]
    p = sec_a["content"][0]
    note = p["notes"][0]
    assert p["text"][:note["offset"]].endswith("met de beeldzijde van de kaart naar beneden")
    assert p["text"][note["offset"]:].startswith(". De gedekte uitkomst")


def test_crlf_and_cp1252_give_the_same_corpus(tmp_path, corpus):
    copy = tmp_path / "sources"
    shutil.copytree(SOURCES, copy)
    target = copy / F000
    text = target.read_bytes().decode("utf-8")
    target.write_bytes(text.replace("\n", "\r\n").encode("cp1252"))
    assert target.read_bytes() != (SOURCES / F000).read_bytes()
    other = build.make_corpus(copy, {"no_corrections": True})
    assert serialise.to_xml(other.corpus) == serialise.to_xml(corpus)


def run_cli(*args):
    return subprocess.run([sys.executable, "-m", "pipeline", *args], cwd=ROOT, capture_output=True, text=True)


def test_show_json(tmp_path):
    result = run_cli("show", "2017/50D2a", "--json")
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["id"] == "2017/50D2a"
    assert data["text"].startswith("van de tegenspeler eisen")
    assert [n["text"] for n in data["notes"]] == ["Zie artikel 59, als de speler niet kan voorspelen zoals "
                                                  "voorgeschreven."] * 2
    assert [s["file"] for s in data["sources"]] == [F000, F001]
    assert data["children"] == []
    section = json.loads(run_cli("show", "2017/53", "--json").stdout)
    assert section["children"] == ["2017/53A", "2017/53B", "2017/53C"]
    assert section["title"] == "Accepteren van voor de beurt voorspelen"


def test_show_text_and_errors():
    result = run_cli("show", "2017/16C")
    assert result.returncode == 0
    assert "2017/16C  Informatie uit ingetrokken handelingen" in result.stdout
    assert "2017/16C2" in result.stdout and f"sources: {F002}:16,18-19,21-23" in result.stdout
    missing = run_cli("show", "2017/55")
    assert missing.returncode == 1 and "2017/55 is not in the corpus" in missing.stderr
    bad = run_cli("show", "not-an-id")
    assert bad.returncode == 2 and "is not an ID" in bad.stderr and "Traceback" not in bad.stderr


def test_build_without_pdf_writes_everything_else(tmp_path):
    out = tmp_path / "build"
    ctx = build.build(SOURCES, out, {"no_pdf": True, "cache_dir": str(tmp_path / "cache")})
    assert "write_pdf" not in ctx.timings
    assert not (out / "pdf").exists()
    for name in ("corpus.xml", "corpus.json", "report.txt", "refs.json", "html/2017/53.html",
                 "2017/lawbook.md", "diff/2007-2017.html"):
        assert (out / name).is_file(), name
