"""The fidelity check (corpus/fidelity/): the corpus, once read, against what law text cannot contain.

Each check on pages made up here (a wiki export, a MediaWiki template and printed pages in Dutch, a wiki
page in French, a flowed and a printed English page), each finding pinned by its kind, file, line, node and
message; the rule of check 1 as properties (hypothesis); and the real sources: the five Dutch files and the
English book (../shared/english/, skipped where absent) give no finding.
"""
import dataclasses
import re
import shutil
from pathlib import Path

import pytest
from hypothesis import given, strategies as st

from pipeline.core import lang
from pipeline.corpus import fidelity, stages

from conftest import ENGLISH_BOOK, SOURCES, english_book_sources

NL, EN, FR = (lang.profile(code) for code in ("nl", "en", "fr"))


def build(folder: Path, files: dict, language: str | None = None, fmt: str | None = None,
          corrections: str | None = None):
    """The corpus stages on made-up sources (edition 2017): (the context, the entries the fidelity stage added
    as (kind, file, line, node, message))."""
    folder.mkdir(parents=True)
    manifest = [f'language = "{language}"'] if language else []
    for name, text in files.items():
        (folder / name).write_text(text, encoding="utf-8")
        manifest += ["[[source]]", f'file = "{name}"', 'edition = "2017"'] + ([f'format = "{fmt}"'] if fmt else [])
    (folder / "sources.toml").write_text("\n".join(manifest) + "\n", encoding="utf-8")
    if corrections:
        (folder / "corrections.toml").write_text(corrections, encoding="utf-8")
    marks = {}

    def check(ctx):
        marks["from"] = len(ctx.log.entries)
        stages.check_fidelity(ctx)
        marks["to"] = len(ctx.log.entries)

    chain = stages.CORPUS.replace(dataclasses.replace(stages.CORPUS["check_fidelity"], run=check))
    ctx = stages.make_corpus(folder, chain=chain)
    return ctx, [(e.kind, e.file, e.line, e.node, e.message) for e in ctx.log.entries[marks["from"]:marks["to"]]]


def errors_before(ctx, mine):
    """The errors of the stages before the fidelity check, as (file, line, message)."""
    ours = {(f, n, m) for _, f, n, _, m in mine}
    return [(e.file, e.line, e.message) for e in ctx.log.errors if (e.file, e.line, e.message) not in ours]


LOST = "the readers did not take it for a marker, so its footnote is lost or stands elsewhere as text"
DIGIT = "is a footnote marker's form, never law text (the law writes a number apart from its word)"
SIGN = "is a footnote marker's form, never law text (the law's words carry no sign)"
SEEN = "page furniture read into the paragraph at a page break the reader did not see; law text never holds it"


# -- the stage in the chain -------------------------------------------------------------------------
def test_the_check_runs_last_after_the_references_and_the_index_and_only_reports():
    """Last, and writing only the report: watch mode shows the open page before it (run.reports_from)."""
    from pipeline.publish import run

    names = stages.CORPUS.names()
    assert names[-3:] == ["find_references", "read_index", "check_fidelity"]
    stage = stages.CORPUS["check_fidelity"]
    assert (stage.reads, stage.writes) == (("corpus", "readings", "lines", "profile"), ("log",))
    assert run.reports_from(list(stages.CORPUS)) == len(names) - 1


# -- 1. a footnote marker's form left in the text ------------------------------------------------------
MARKERS = """Artikel 41

A.  Gedekte uitkomst

De tegenspeler links van de leider komt uit met de beeldzijde van de kaart naar beneden1. De gedekte uitkomst mag worden teruggenomen door de leider2 en door de blinde13.

B.  Tekens

De speler mag eisen† dat de kaart wordt getoond. De leider[1] beslist. De blinde¹ zwijgt, het woord.* niet.
"""


def test_digits_or_a_sign_glued_to_a_word_are_a_footnote_marker_left_in_the_text(tmp_path):
    ctx, mine = build(tmp_path / "src", {"wiki.txt": MARKERS})
    assert mine == [
        ("error", "wiki.txt", 5, "2017/41A", f"'beneden1.' in the text of 2017/41A: a word with the digit 1 glued to it "
                                             f"{DIGIT}; {LOST} (2 more like it in this paragraph)"),
        ("error", "wiki.txt", 9, "2017/41B", f"'eisen†' in the text of 2017/41B: the sign '†' glued to the word {SIGN}; "
                                             f"{LOST} (3 more like it in this paragraph)"),
        # Check 6: no note in the whole edition, and seven marker forms in its text.
        ("error", "wiki.txt", 5, "2017/41A", "edition 2017 has no footnote at all, but 7 footnote markers' forms stand "
                                             "in its text (the first in 2017/41A, at wiki.txt:5): the readers lost its "
                                             "footnotes")]
    assert ctx.log.errors[-3:] == [e for e in ctx.log.entries if e.kind == "error"][-3:]  # the build fails


def test_a_french_page_s_asterisks_glued_to_a_word_or_its_full_stop_are_markers(tmp_path):
    page = ("LOI 12\n\nLoi 12\n\nPouvoirs de l’arbitre\n\nA. Pouvoir d’ajuster\n\n"
            "L’arbitre peut exiger* une marque de remplacement.\n\n"
            "B. But de l’ajustement\n\nUn ajustement répare le tort subi en cours de séance*. Voir A ci-dessus.\n")
    _, mine = build(tmp_path / "src", {"loi.txt": page}, language="fr")
    assert [(kind, line, node, message.split(":")[0]) for kind, _, line, node, message in mine] == [
        ("error", 9, "2017/12A", "'exiger*' in the text of 2017/12A"),
        ("error", 13, "2017/12B", "'séance*.' in the text of 2017/12B")]
    assert mine[1][4].endswith(f"the sign '*' glued to the word {SIGN}; {LOST}")


LEGIT = """Artikel 41

A.  Biedingen

Na een bieding van 4SA of 1SA, 4NT, 1NT, 2♠ of 3ZT (zie artikel 12C1, artikel 40B2(a) en Art.53, de 2e keer, de 13e slag) mag de speler met HV10 of AQ2 de noot 2017/41A/noot1 lezen op www.bridge.nl/spelregels2017 of bij info@bond2.nl; zie ook artikel12. Een **vet** woord, de kaarten (a)* en 4NT* en de Noord-Zuid-lijn.
"""


def test_calls_citations_ordinals_holdings_ids_and_addresses_are_no_marker(tmp_path):
    _, mine = build(tmp_path / "src", {"wiki.txt": LEGIT})
    assert mine == []


ENGLISH_PAGE = """12
LAW 9
MADE-UP RULES
A. Penalty Cards 1. When a card is shown too early at the twelfth trick17 the made-up rule applies with words enough to make this line long and flowed, and it goes on.
2. A second rule applies to a call of 4NT or 1NT or 2\u2660 (see Law 12C1 and Law 40B2(a), the 2nd time), with words enough to make this line long and flowed, and more.
B. Other Rights 1.A player may do a made-up thing with words enough to make this line long and flowed, and then some more.
"""


def test_an_english_flowed_page_s_marker_without_its_footnote_fails_the_build(tmp_path):
    """The reader keeps 'trick17' as text and says so as damage; kept, the book would print it as law."""
    ctx, mine = build(tmp_path / "src", {"page.txt": ENGLISH_PAGE}, language="en", fmt="flowed")
    assert [(e.kind, e.line, e.message) for e in ctx.log.entries if e.kind == "damage"] == [
        ("damage", 4, "'trick17' looks like a footnote marker, but no footnote 17 is at the bottom of this page, the "
                      "next or one before; kept as text")]
    assert mine == [("error", "page.txt", 4, "2017/9A1", f"'trick17' in the text of 2017/9A1: a word with the digits 17 "
                                                         f"glued to it {DIGIT}; {LOST}")]


LETTERS = st.text(alphabet="abcdefghijklmnopqrstuvwxyzéëï", min_size=2, max_size=12)
KEYWORDS = {w.lower().rstrip(".") for p in (NL, EN, FR)
            for w in (p.rules.ARTICLE, p.rules.ARTICLES, p.rules.ARTICLE_WORD, *p.rules.ARTICLE_SHORT)}


def glued(text, profile=NL):
    return [(f.token, f.glued) for f in fidelity.marker_forms(text, profile)]


@given(word=LETTERS, number=st.integers(1, 99), after=st.sampled_from(["", ".", ",", ";", ")"]))
def test_a_word_with_one_or_two_digits_glued_after_it_is_a_marker(word, number, after):
    if word in KEYWORDS or word.startswith(tuple(KEYWORDS)):
        return  # "artikel12", "art12": a citation missing its space (the references stage reads it)
    assert glued(f"De {word}{number}{after} speelt.") == [(f"{word}{number}{after}", str(number))]


@given(word=LETTERS, sign=st.sampled_from(["*", "**", "***", "\u2020", "\u2021", "[1]", "[12]", "\u00b9", "\u00b2\u00b3"]),
       punctuation=st.sampled_from(["", ".", ",", ")", "\u201d"]), after=st.sampled_from(["", ".", " en"]))
def test_a_sign_glued_after_a_word_or_its_punctuation_is_a_marker(word, sign, punctuation, after):
    text = f"De {word}{punctuation}{sign}{after} speelt."
    assert [g for _, g in glued(text)] == [sign]


LEVELS = st.integers(1, 7)
STRAINS = st.sampled_from(["NT", "SA", "ZT", "\u2660", "\u2665", "\u2666", "\u2663", "C", "D", "H", "S"])


@given(level=LEVELS, strain=STRAINS, sign=st.sampled_from(["", "*", "**"]))
def test_a_call_is_no_marker(level, strain, sign):
    assert glued(f"Na {level}{strain}{sign} en {level}{strain}{sign}, pas.") == []


@given(article=st.integers(1, 93), section=st.sampled_from("ABCDEFG"), sub=st.integers(1, 9),
       item=st.sampled_from("abcde"), profile=st.sampled_from([NL, EN, FR]))
def test_a_citation_an_id_and_an_ordinal_are_no_marker(article, section, sub, item, profile):
    keyword = profile.rules.ARTICLE
    text = (f"{keyword} {article}{section}{sub} en {article}{section}{sub}({item}), {keyword}{article}, "
            f"2017/{article}{section}/noot{sub}, de {sub}e en {sub}nd, {section}{sub}.")
    assert glued(text, profile) == []


@given(holding=st.text(alphabet="AKQJHVBT", min_size=2, max_size=5), low=st.integers(2, 10))
def test_a_card_holding_in_capitals_is_no_marker(holding, low):
    assert glued(f"Met {holding}{low} speelt hij.") == []


def test_a_paragraph_full_of_markers_gives_one_entry_with_how_many_more(tmp_path):
    words = " ".join(f"woord{n % 99 + 1}" for n in range(5000))
    _, mine = build(tmp_path / "src", {"wiki.txt": f"Artikel 41\n\nA.  Titel\n\n{words}.\n"})
    assert mine == [
        ("error", "wiki.txt", 5, "2017/41A", f"'woord1' in the text of 2017/41A: a word with the digit 1 glued to it "
                                             f"{DIGIT}; {LOST} (4999 more like it in this paragraph)"),
        ("error", "wiki.txt", 5, "2017/41A", "edition 2017 has no footnote at all, but 5000 footnote markers' forms "
                                             "stand in its text (the first in 2017/41A, at wiki.txt:5): the readers "
                                             "lost its footnotes")]


# -- 2. a note without a marker, a marker without a note ------------------------------------------------
NOTES = """Artikel 41

A.  Gedekte uitkomst

De tegenspeler komt uit (Noot: ) met de beeldzijde van de kaart naar beneden1. De gedekte uitkomst wordt opengelegd.

1) Het Bondsbestuur mag voorschrijven dat uitkomsten open gedaan worden.

B.  Herhaling van het biedverloop

De leider mag een herhaling vragen.

2) De eerste keer dat de leider aan de beurt is.

C.  Betekenissen

1) De eerste betekenis van het woord. 2) De tweede betekenis van het woord.
"""


def test_a_note_without_text_and_a_footnote_s_body_kept_as_a_paragraph(tmp_path):
    ctx, mine = build(tmp_path / "src", {"wiki.txt": NOTES})
    assert errors_before(ctx, mine) == []  # the wiki reader knows no "1)" footnotes: nothing said before
    assert mine == [
        ("error", "wiki.txt", 5, "2017/41A/noot1",
         "2017/41A/noot1 has no text: its marker stands in the text of 2017/41A, but the note says nothing (its "
         "footnote's text was not found, or the source's note is empty)"),
        ("error", "wiki.txt", 5, "2017/41A", f"'beneden1.' in the text of 2017/41A: a word with the digit 1 glued to it "
                                             f"{DIGIT}; {LOST}"),
        ("error", "wiki.txt", 7, "2017/41A",
         "'1) Het Bondsbestuur mag voorschrijven da…' in 2017/41A is a footnote's text kept as law text: it starts with "
         "the footnote label '1)', and a marker 1 stands in the text of 2017/41A; neither was read as a note"),
        # No marker 2 anywhere in article 41: a footnote's body, or a list numbered "1)", "2)".
        ("inference", "wiki.txt", 13, "2017/41B",
         "uncertain: '2) De eerste keer dat de leider aan de b…' in 2017/41B starts with '2)': a footnote's text kept "
         "as law text, or a list entry numbered so; no marker 2 stands in the text of 2017/41")]
    # 41C's "1) … 2) …" are the senses of a word (as the definitions of the English book write them).


TEMPLATE = """Sjabloon:2017:41
ARTIKEL 41 Het begin van het spelen
A. Gedekte uitkomst
1) Het Bondsbestuur mag voorschrijven dat uitkomsten open gedaan worden.
Nadat een bod is gevolgd door drie passen, komt de tegenspeler uit met de beeldzijde naar beneden 1). De uitkomst mag worden teruggenomen.
B. Herhaling van het biedverloop
De leider mag een herhaling vragen 2).
2) De eerste keer dat de leider aan de beurt is.
3) Een noot zonder merkteken.
"""


def test_what_the_template_reader_reports_is_not_reported_again(tmp_path):
    """Footnote 1 stands before its marker and 3 has none: the reader keeps both as paragraphs, leaves marker 1
    without text and says so, each at its line; the fidelity check finds the same lines and adds nothing."""
    ctx, mine = build(tmp_path / "src", {"sjabloon.txt": TEMPLATE})
    assert errors_before(ctx, mine) == [
        ("sjabloon.txt", 4, "footnote 1) has no marker in the text before it"),
        ("sjabloon.txt", 9, "footnote 3) has no marker in the text before it"),
        ("sjabloon.txt", 5, "note marker 1) has no footnote text")]
    assert [n.get("id") for n in ctx.corpus.iter("note") if not "".join(n.itertext())] == ["2017/41A/noot1"]
    assert mine == []


PRINTED_MARKER = """Spelregels voor Wedstrijdbridge
44
ARTIKEL 24
Getoonde kaart
Als de wedstrijdleider vaststelt dat tijdens de bied-
periode een kaart van de speler gezien kon worden door
zijn partner
1
, moet de wedstrijdleider voorschrijven dat de kaart
\fSpelregels voor Wedstrijdbridge
45
tot het einde van de biedperiode met de beeldzijde naar
boven op tafel blijft liggen en dat de partner past.
"""


def test_what_the_print_reader_reports_is_not_reported_again(tmp_path):
    ctx, mine = build(tmp_path / "src", {"boek.txt": PRINTED_MARKER})
    assert errors_before(ctx, mine) == [
        ("boek.txt", 8, "footnote marker 1 has no footnote text at the bottom of its page or the next")]
    assert [(n.get("id"), n.get("sources"), n.text) for n in ctx.corpus.iter("note")] == [
        ("2017/24/noot1", "boek.txt:8", "")]
    assert mine == []


# -- 3. page furniture inside law text ---------------------------------------------------------------
HEAD = "Spelregels voor Wedstrijdbridge"


def printed(folio, lost_break, head=HEAD):
    """Three printed pages of article 25; the page break before the middle page was lost: neither form feed
    nor (with lost_break) its own line for the page number, which stands in the text where it was."""
    return "\n".join([
        f"{head}", folio(44), "ARTIKEL 24", "Getoonde kaart",
        "Als de wedstrijdleider vaststelt dat tijdens de bied-",
        "periode een kaart van de speler gezien kon worden door",
        "zijn partner, moet de wedstrijdleider voorschrijven dat",
        f"\f{head}", folio(45),
        "elke zodanige kaart tot het einde van de biedperiode",
        "met de beeldzijde naar boven op tafel blijft liggen.",
        "ARTIKEL 25", "Het wijzigen van biedingen",
        "Tot zijn partner een bieding doet, mag een speler een",
        lost_break(head, folio(46)),
        "niet bedoelde bieding vervangen door zijn voorgeno-",
        "men bieding maar alleen als hij dit doet zonder",
        "denkpauze. De tweede bieding wordt gehandhaafd en",
        f"\f{head}", folio(47),
        "indien zij niet reglementair is, is zij onderworpen",
        "aan het toepasselijke artikel van deze regels.", ""])


def test_a_running_header_alone_on_its_line_inside_a_paragraph_is_an_error(tmp_path):
    text = printed(str, lambda head, folio: head)
    ctx, mine = build(tmp_path / "src", {"boek.txt": text}, fmt="print")
    assert text.split("\n")[14] == HEAD
    assert mine == [("error", "boek.txt", 15, "2017/25",
                     f"'{HEAD}' in the text of 2017/25 is the running header of the source's pages (dropped as page "
                     f"furniture at boek.txt:1), and stands alone on its line: {SEEN}")]


def test_a_running_header_inside_a_line_of_text_is_uncertain(tmp_path):
    """The book's title cited in its text, or its running head read into the line: both fit."""
    text = printed(str, lambda head, folio: f"(als de {HEAD} het toestaan)")
    _, mine = build(tmp_path / "src", {"boek.txt": text}, fmt="print")
    assert mine == [("inference", "boek.txt", 15, "2017/25",
                     f"uncertain: '{HEAD}' in the text of 2017/25 is the running header of the source's pages (dropped "
                     f"as page furniture at boek.txt:1): page furniture read into the paragraph, or the words cited "
                     f"in the law's text")]


def test_a_running_head_that_cites_is_never_looked_for(tmp_path):
    """A running head that names the articles on its page is the law's own words as well."""
    head = "Spelregels artikel 24 en 25"
    text = printed(str, lambda _, folio: f"(volgens {head}),", head=head)
    ctx, mine = build(tmp_path / "src", {"boek.txt": text}, fmt="print")
    assert [d.reason for d in ctx.readings[0].dropped][0] == f"running header '{head}': page layout, not law text"
    assert f"(volgens {head})" in "".join(ctx.corpus.xpath('//*[@id="2017/25"]/p')[0].itertext())
    assert mine == []


def test_a_page_number_between_dashes_inside_a_sentence_is_an_error(tmp_path):
    _, mine = build(tmp_path / "src", {"boek.txt": printed(lambda n: f"- {n} -", lambda head, folio: folio)},
                    fmt="print")
    # The repair stage read the second hyphen, between a number and a word, as a dash.
    assert mine == [("error", "boek.txt", 15, "2017/25", f"'- 46 –' in the text of 2017/25 is a page number's form "
                                                         f"inside a sentence: {SEEN}")]


def test_the_source_s_own_page_number_form_inside_a_sentence_is_an_error(tmp_path):
    _, mine = build(tmp_path / "src", {"boek.txt": printed(lambda n: f"Pagina {n}", lambda head, folio: folio)},
                    fmt="print")
    assert mine == [("error", "boek.txt", 15, "2017/25",
                     f"'Pagina 46' in the text of 2017/25 is a page number's form inside a sentence, as the source "
                     f"prints its page numbers (boek.txt:2), alone on its line: {SEEN}")]


ENGLISH_PRINTED = """Page 12
LAW 9
PROCEDURE FOLLOWING AN IRREGULARITY
A. Calling Attention to an Irregularity
Unless prohibited by Law, any player may draw atten-
tion to an irregularity during the auction, whether
or not it is his turn to call.
\fPage 13
B. After Attention Is Called to an Irregularity
The Director should be summoned at once when atten-
tion is drawn to an irregularity. Any player, includ-
ing dummy, may summon the Director after attention
Page 14
has been drawn to an irregularity. Summoning the
Director does not cause a player to forfeit any rights.
"""


def test_an_english_page_number_inside_a_sentence_is_an_error(tmp_path):
    _, mine = build(tmp_path / "src", {"page.txt": ENGLISH_PRINTED}, language="en", fmt="print")
    assert mine == [("error", "page.txt", 13, "2017/9B",
                     f"'Page 14' in the text of 2017/9B is a page number's form inside a sentence, as the source prints "
                     f"its page numbers (page.txt:1), alone on its line: {SEEN}")]


def test_a_paragraph_that_is_a_page_number_is_an_error(tmp_path):
    page = "Artikel 41\n\nA.  Gedekte uitkomst\n\nDe tegenspeler komt uit.\n\n- 45 -\n\nDe blinde legt open.\n"
    _, mine = build(tmp_path / "src", {"wiki.txt": page})
    assert mine == [("error", "wiki.txt", 7, "2017/41A", "the text of 2017/41A is '- 45 -', a page number alone: page "
                                                         "furniture kept as a paragraph; law text never holds it")]


# -- 4. a word split by a hyphen -----------------------------------------------------------------------
SPLIT = """Artikel 53

A.  Voor de beurt voorspelen

Een tegenspeler die voor de beurt wil voor- spelen, wordt gestraft. Het voorspelen van de overtredende partij telt.

B.  Niet-overtredende partij

De ove- rtredende partij en de niet- overtredende partij spelen door; de niet-overtredende partij kiest.

C.  Tegenspeler

De tegen- speler en de tegenspeler of tegen-speler van de bied- of speelwijze, zuid- west.
"""


def test_a_word_split_by_a_line_end_hyphen_that_the_book_joins(tmp_path):
    _, mine = build(tmp_path / "src", {"wiki.txt": SPLIT})
    assert mine == [
        ("error", "wiki.txt", 5, "2017/53A", "'voor- spelen' in the text of 2017/53A is a word split by a line-end hyphen, "
                                             "the space left: the book writes 'voorspelen' elsewhere, never 'voor-spelen'"),
        ("error", "wiki.txt", 9, "2017/53B", "'ove- rtredende' in the text of 2017/53B is a word split by a line-end "
                                             "hyphen, the space left: the book writes 'overtredende' elsewhere, never "
                                             "'ove-rtredende' (1 more like it in this paragraph)"),
        # Both forms stand in the book; "bied- of" is an elliptic compound, "zuid- west" neither form.
        ("inference", "wiki.txt", 13, "2017/53C", "uncertain: 'tegen- speler' in the text of 2017/53C: the book writes "
                                                  "both 'tegenspeler' and 'tegen-speler': a word split at a line end, or "
                                                  "the hyphenated word with a space left after its hyphen")]


def test_a_compound_joined_where_the_book_hyphenates_it_more_often_is_uncertain(tmp_path):
    # "nietovertredende" once, "niet-overtredende" twice: an extraction that dropped the hyphen of a
    # compound broken at a line end. "tegenspeler" twice beside one "tegen-speler" is the book's own spelling.
    page = ("Artikel 53\n\nA.  Partijen\n\nDe nietovertredende partij en de niet-overtredende partij spelen door.\n\n"
            "B.  Tegenspeler\n\nDe tegenspeler, de tegen-speler en de tegenspeler van de niet-overtredende partij "
            "komen uit.\n")
    _, mine = build(tmp_path / "src", {"wiki.txt": page})
    assert mine == [
        ("inference", "wiki.txt", 5, "2017/53A", "uncertain: 'nietovertredende' in the text of 2017/53A: the edition "
                                                 "writes 'niet-overtredende' 2 times and the word joined once; an "
                                                 "extraction that joins a word broken at a line's end drops the hyphen "
                                                 "of a compound broken there too; kept as the source has it")]


def test_the_hyphenated_word_alone_in_the_book_makes_its_spaced_form_an_error(tmp_path):
    page = "Artikel 53\n\nA.  Partijen\n\nDe niet- overtredende partij en de niet-overtredende partij spelen door.\n"
    _, mine = build(tmp_path / "src", {"wiki.txt": page})
    assert mine == [("error", "wiki.txt", 5, "2017/53A",
                     "'niet- overtredende' in the text of 2017/53A is a word split after its hyphen, the space left: "
                     "the book writes 'niet-overtredende' elsewhere, never 'nietovertredende'")]


def test_a_soft_hyphen_left_in_law_text_is_an_error(tmp_path):
    """The repair stage drops every soft hyphen of the sources; a correction's words are not repaired."""
    corrections = ('[[correction]]\nkind = "replace"\nnode = "2017/53A"\nwords = "kaart terugnemen"\n'
                   'by = "kaart terug\u00adnemen"\nbasis = "WBF Laws 2017, Law 53A"\n')
    _, mine = build(tmp_path / "src", {"wiki.txt": "Artikel 53\n\nA.  Voor de beurt\n\nDe leider mag de kaart "
                                                   "terugnemen.\n"}, corrections=corrections)
    assert mine == [("error", "wiki.txt", 5, "2017/53A",
                     "a soft hyphen (U+00AD) in 'terug\\xadnemen.' in the text of 2017/53A: an invisible hyphenation "
                     "point left in the law text, which splits the word for search and comparison")]


# -- 5. structure from indentation alone --------------------------------------------------------------
# A plain-text export whose long lines wrap, each wrapped line indented: where one starts with a number
# ("… bepaald in artikel" / "   6. De vervanging …"), it reads as a list number nested one level deeper.
WRAPPED = """Artikel 25

1. Niet bedoelde bieding

Een speler mag een niet bedoelde bieding vervangen door zijn voorgenomen bieding, zoals bepaald in artikel
   6. De vervanging gebeurt zonder denkpauze, en de tweede bieding wordt beoordeeld volgens artikel
   9. Is zij niet reglementair, dan is zij onderworpen aan het toepasselijke artikel, in het bijzonder artikel
   12. Een bieding die niet onder A valt, mag niet worden gewijzigd.
"""


def test_wrapped_lines_read_as_lists_nested_by_indentation_are_one_error(tmp_path):
    _, mine = build(tmp_path / "src", {"export.txt": WRAPPED})
    assert mine == [("error", "export.txt", 6, "2017/25A6",
                     "3 nodes of this source rest on its indentation alone, no citation confirming them, with list "
                     "numbers that read as wrapped lines, the first 2017/25A6 ('subsection 6 of 2017/25A inferred from "
                     "list number 6. indented 1 level(s); no citation in the sources confirms it'), whose number 6 "
                     "stands where the list's number 1 would: lines indented because they wrap read as lists nested "
                     "so, and the structure is made up")]


CONTINUED = """Artikel 25

1. Bieding

   1. Een speler mag zijn bieding vervangen, tenzij
   2. zijn partner al heeft geboden, in welk geval
   3. de bieding wordt gehandhaafd zoals bedoeld in
   4. het reglement van de bond.
"""


def test_list_numbers_that_go_on_from_the_line_before_read_as_wrapped_lines(tmp_path):
    _, mine = build(tmp_path / "src", {"export.txt": CONTINUED})
    assert mine == [("error", "export.txt", 6, "2017/25A2",
                     "3 nodes of this source rest on its indentation alone, no citation confirming them, with list "
                     "numbers that read as wrapped lines, the first 2017/25A2 ('subsection 2 of 2017/25A inferred from "
                     "list number 2. indented 1 level(s); no citation in the sources confirms it'), whose line goes on "
                     "from the line before, which ends mid-sentence ('…mag zijn bieding vervangen, tenzij'): "
                     "lines indented because they wrap read as lists nested so, and the structure is made up")]


def test_one_list_number_that_reads_as_a_wrapped_line_is_uncertain(tmp_path):
    page = ("Artikel 25\n\nA. Niet bedoelde bieding\n\n1. Een speler mag een niet bedoelde bieding vervangen door "
            "zijn voorgenomen bieding, zoals bepaald in artikel\n   16. De vervanging gebeurt zonder denkpauze.\n")
    _, mine = build(tmp_path / "src", {"export.txt": page})
    assert mine == [("inference", "export.txt", 6, "2017/25A1p",
                     "uncertain: 2017/25A1p ('item p of 2017/25A1 inferred from list number 16. indented 1 level(s); no "
                     "citation in the sources confirms it'), whose number 16 stands where the list's number 1 would: it "
                     "rests on the source's indentation alone, no citation confirming it: a line indented because it "
                     "wraps, or a list nested so")]


NESTED = """Artikel 50

D.  Behandeling van grote strafkaart

1. 1. Met uitzondering van de bepaling in (b) hieronder moet een grote strafkaart worden gespeeld.
   2. De verplichting om te bekennen gaat boven de verplichting een grote strafkaart te spelen.
2. Wanneer een tegenspeler aan de beurt is om voor te spelen, mag hij niet voorspelen. De leider kan kiezen:
   1. van de tegenspeler eisen in de kleur van de strafkaart voor te spelen, of
   2. ervan afzien een bepaald voorspelen te eisen (zie (b) hierboven).
"""


def test_lists_nested_by_indentation_are_no_finding(tmp_path):
    """The wiki's 50D: three items read from their indentation, one that no citation confirms; each numbered in
    its place, after a blank line or an entry that ends."""
    ctx, mine = build(tmp_path / "src", {"wiki.txt": NESTED})
    resting = [(n.get("id"), n.get("evidence").endswith("confirms it")) for n in ctx.corpus.iter("item")
               if "indented" in n.get("evidence")]
    assert resting == [("2017/50D1b", False), ("2017/50D2a", True), ("2017/50D2b", False)]
    assert mine == []


def test_a_generated_wiki_book_whose_lists_nest_by_indentation_gives_no_finding(tmp_path):
    """The benchmark's book (pipeline.bench.generate): a wiki export of lists nested three deep, few of its
    items cited."""
    from pipeline.bench import generate
    generate.generate(tmp_path / "src", articles=20, editions=2, seed=1)
    ctx = stages.make_corpus(tmp_path / "src", chain=stages.CORPUS.disable("check_fidelity"))
    unconfirmed = [n for n in ctx.corpus.iter("subsection", "item") if "indented" in (n.get("evidence") or "")
                   and n.get("evidence").endswith("confirms it")]
    assert len(unconfirmed) > 50
    assert fidelity.check_fidelity(ctx.corpus, ctx.readings, ctx.lines, ctx.log, ctx.profile) == []


# -- 6. no notes, but marker forms ---------------------------------------------------------------------
def test_an_edition_with_a_note_is_not_said_to_have_lost_its_notes(tmp_path):
    page = MARKERS.replace("niet.", "niet (Noot: Een noot.).")
    _, mine = build(tmp_path / "src", {"wiki.txt": page})
    assert [message.split(":")[0] for *_, message in mine] == ["'beneden1.' in the text of 2017/41A",
                                                              "'eisen†' in the text of 2017/41B"]


# -- the real books -------------------------------------------------------------------------------------
def test_the_five_dutch_sources_give_no_finding(tmp_path):
    shutil.copytree(SOURCES, tmp_path / "sources")
    marks = {}

    def check(ctx):
        marks["from"] = len(ctx.log.entries)
        stages.check_fidelity(ctx)
        marks["to"] = len(ctx.log.entries)

    chain = stages.CORPUS.replace(dataclasses.replace(stages.CORPUS["check_fidelity"], run=check))
    ctx = stages.make_corpus(tmp_path / "sources", chain=chain)
    assert marks["to"] == marks["from"]
    assert ctx.log.errors == []


@pytest.mark.book
def test_the_english_book_gives_no_finding_but_its_lost_hyphens(tmp_path):
    """The whole book in one file (laws2017-en.txt), built as tests/test_english_book.py builds it."""
    if not ENGLISH_BOOK.is_file():
        pytest.skip(f"the English book is not at {ENGLISH_BOOK} (it is not part of the project: put the shared "
                    f"folder beside it)")
    folder = english_book_sources(tmp_path)
    ctx = stages.make_corpus(folder, chain=stages.CORPUS.disable("check_fidelity"))
    found = fidelity.check_fidelity(ctx.corpus, ctx.readings, ctx.lines, ctx.log, ctx.profile)
    # Six: this extraction writes "nonoffending" where the PDF breaks "non-offending" at a line end, the
    # book's own spelling 26 times.
    assert [(f.kind, f.node, f.message.split(":")[1].strip()) for f in found] == [
        ("inference", node, f"'nonoffending' in the text of {node}")
        for node in ("2017/12C2c", "2017/24", "2017/24C", "2017/50E4", "2017/64C2a", "2017/81C5")]
    # What it looked at: the book's notes, its definitions' numbered senses, its page numbers.
    assert {n.get("num") for n in ctx.corpus.iter("note")} == {str(n) for n in range(1, 29)} | {"*"}
    assert len([d for r in ctx.readings for d in r.dropped if d.reason.startswith("page number")]) > 100
    assert re.search(r"^1\) ", "".join(ctx.corpus.xpath('//*[@id="2017/def/auction"]/p')[0].itertext()))
