"""The French profile (core/lang/fr/): the FFB's Code International du Bridge de Compétition as a book of its
own. The profile has every rule and word the Dutch and English ones have; French citations, notes and
repairs read as the FFB writes them; and a made-up French book (tests/french/: a wiki page and MediaWiki
templates written for the tests, never the FFB's text) builds with every output in French: the site
(lang="fr", its French file names and search stemming), the Markdown, the PDF (/Lang fr-FR), the
comparison of its editions and the alignment with its made-up English original (tests/french/original/).
One build of each book for the whole module.
"""
import json
import re
import shutil
import tomllib
from pathlib import Path

import lxml.html
import pytest
from lxml import etree
from pypdf import PdfReader

from conftest import ROOT, run_lawbook
from pipeline import serve
from pipeline.core import lang
from pipeline.core.lang.nl import rules as nl_rules
from pipeline.core.report import BuildLog
from pipeline.corpus import refs
from pipeline.outputs import text
from pipeline.reading import manifest, notes, repair

FR = lang.profile("fr")
BOOK = ROOT / "tests" / "french"


# -- the profile ----------------------------------------------------------------------------------------
def test_the_french_profile_has_every_rule_and_word_the_dutch_and_english_ones_have():
    names = {name for name in dir(nl_rules) if name.isupper()}
    assert {name for name in dir(FR.rules) if name.isupper()} == names
    assert {name for name in dir(lang.profile("en").rules) if name.isupper()} == names
    assert set(FR.words) == set(lang.profile("nl").words) == set(lang.profile("en").words)
    assert (FR.code, FR.region, FR.tag, FR.name) == ("fr", "FR", "fr-FR", "Français")
    assert lang.codes() == ["en", "fr", "nl"]


def test_each_french_word_has_the_placeholders_of_its_key():
    placeholder = re.compile(r"%\((\w+)\)s")
    wrong = [key for key, value in FR.words.items()
             if sorted(placeholder.findall(key)) != sorted(placeholder.findall(value))
             or "%" in placeholder.sub("", value).replace("%%", "")]
    assert wrong == []


def test_the_french_words_are_the_books_own():
    assert FR.word("Article %(num)s") == FR.word("article %(num)s") == "Loi %(num)s"
    assert FR.word("Laws of Duplicate Bridge") == "Code International du Bridge de Compétition"
    assert FR.word("Contents") == "Table des matières"
    assert FR.word("Dutch Bridge Federation") == "Fédération Française de Bridge"
    assert FR.word("%(month)s %(day)s, %(year)s") == "%(day)s %(month)s %(year)s"
    assert FR.word("index-of-terms.html") == "index-des-termes.html"


def test_the_french_words_set_a_no_break_space_before_a_colon_and_inside_guillemets():
    assert FR.word("Note:") == "Remarque\u00a0:"
    assert FR.word("Did you mean:") == "Vouliez-vous dire\u00a0:"
    assert "«\u00a0%(was)s\u00a0»" in FR.word(
        "corrected by the laws committee against the original; the sources say: ‘%(was)s’; basis: %(basis)s")
    assert [value for value in FR.words.values() if re.search(r" [:;?!»]|« ", value)] == []
    assert "\u00a0;" in FR.rules.GAP_ONLY_HEADING


def test_the_files_a_french_reader_sees_have_french_names():
    names = text.file_names(FR)
    assert (names.search, names.editor, names.graph, names.citations) == \
        ("recherche.html", "redaction.html", "references.html", "citations.js")
    assert (names.pdf("2017"), names.typ("2017")) == ("pdf/code-2017.pdf", "pdf/code-2017.typ")


def test_the_manifest_picks_the_french_profile():
    sources = manifest.load_manifest(BOOK)
    assert sources.profile is FR and sources.language == "fr"
    assert [s.language for s in sources] == ["fr", "fr", "fr"]


# -- how the FFB writes the law -----------------------------------------------------------------------------
ORDER = {f"2017/12{part}": n for n, part in enumerate(["A", "B", "C", "C1", "C1a", "C1b", "C2", "D"])}


def read(phrase, node="2017/12C2"):
    """(words, targets or the reason of a suspect) of every citation in `phrase`, standing in `node`."""
    citations = refs.find_citations(phrase, FR)
    resolved = refs.resolve_phrase(phrase, citations, "2017", node, set(), {}, ORDER, FR)
    return [(phrase[c.start:c.end], r.reason or " ".join(r.targets)) for c, r in zip(citations, resolved)]


@pytest.mark.parametrize("phrase, found", [
    ("il attribue une marque ajustée [voir Loi 12C1(b)] et peut", [("Loi 12C1(b)", "2017/12C1b")]),
    ("comme le prévoient les Lois 78D, 86B3 et (d) ci-dessous",
     [("Lois 78D", "2017/78D"), ("86B3", "2017/86B3"), ("(d) ci-dessous", "2017/12C2d")]),
    ("(mais voir la Loi 14)", [("Loi 14", "2017/14")]),
    ("voir les Lois 64B3 et 64C", [("Lois 64B3", "2017/64B3"), ("64C", "2017/64C")]),
    ("les Lois 50 et 51", [("Lois 50", "2017/50"), ("51", "2017/51")]),
    ("les Lois 30, 31 ou 32", [("Lois 30", "2017/30"), ("31", "2017/31"), ("32", "2017/32")]),
    ("les Lois 12 à 14", [("Lois 12 à 14", "2017/12 2017/13 2017/14")]),
    ("(voir A ci-dessus)", [("A ci-dessus", "2017/12A")]),
    ("(voir D ci-dessous)", [("D ci-dessous", "2017/12D")]),
    ("(voir B ci-dessous)", [("B ci-dessous", "'ci-dessous' but 2017/12B stands above 2017/12C2")]),
    ("[voir également C1(d)]", [("C1(d)", "2017/12C1d")]),
    ("selon B1 ou D2", [("B1", "2017/12B1"), ("D2", "2017/12D2")]),
    ("Nonobstant 1 et 2 ci-dessus", [("1", "2017/12C1"), ("2 ci-dessus", "2017/12C2")]),
    ("procède comme en 2(c) ou 2(d) ci-dessus", [("2(c)", "2017/12C2c"), ("2(d) ci-dessus", "2017/12C2d")]),
    ("une infraction à C2 a lésé le camp", [("C2", "2017/12C2")]),
    ("les conditions A à C", [("A à C", "2017/12A 2017/12B 2017/12C")]),
    ("en application de cette Loi", [("cette Loi", "2017/12")]),
    # The elided article and pronoun after a relative word, and direction words after a noun: no citations.
    ("selon l’arbitre, voir d’autres, s’il y a lieu", []),
    ("pour la levée suivante, au tour suivant, l’enchère précédente", []),
    ("la Loi 12 à la table", [("Loi 12", "2017/12")]),
])
def test_french_citations_read_as_the_ffb_writes_them(phrase, found):
    assert read(phrase) == found


def test_a_french_inline_note_is_read_with_or_without_a_space_before_its_colon():
    log = BuildLog().for_file("a.txt")
    for written in ("(Note : une note.)", "(Note\u00a0: une note.)", "(Note: une note.)"):
        marked, found = notes.extract_inline_notes(f"Le texte {written} continue.", 1, log, FR)
        assert (marked, [n.text for n in found]) == ("Le texte\ue000 continue.", ["une note."])
    # The Dutch note word is no French note.
    assert notes.extract_inline_notes("Le texte (Noot: x) continue.", 1, log, FR)[1] == []


def test_french_repairs_keep_the_hyphens_and_doubled_words_french_writes():
    log = BuildLog().for_file("a.txt")
    lines = [(1, "voir A ci-"), (2, "dessus, le non-"), (3, "respect et le sur-"), (4, "contre, sous- "),
             (5, "et surenchère, une re-"), (6, "donne")]
    assert repair.join_print_lines(lines, {"surcontre"}, log, FR) == \
        "voir A ci-dessus, le non-respect et le surcontre, sous- et surenchère, une redonne"
    # "sur-" keeps its hyphen where the sources never write the joined word alone.
    assert repair.join_print_lines([(1, "sur-"), (2, "le-champ")], set(), log, FR) == "sur-le-champ"
    assert repair.collapse_duplicates("nous nous engageons, la carte carte jouée", 1, log, FR) == \
        "nous nous engageons, la carte jouée"


# -- a French book built whole ----------------------------------------------------------------------------
@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """The made-up French book built whole (PDF included) with its English original as the reference,
    from copies of tests/french/ (the build keeps its cache beside the sources)."""
    folder = tmp_path_factory.mktemp("fr")
    shutil.copytree(BOOK, folder / "sources")
    original = run_lawbook("build", "--sources", folder / "sources" / "original", "--out", folder / "original",
                           "--no-pdf")
    assert original.returncode == 0, original.stderr
    result = run_lawbook("build", "--sources", folder / "sources", "--out", folder / "build",
                         "--reference", folder / "original")
    assert result.returncode == 0, result.stderr
    return folder


def corpus(built):
    return etree.parse(str(built / "build" / "corpus.xml")).getroot()


def test_the_french_book_builds_with_every_reference_resolved(built):
    root = corpus(built)
    assert root.get("language") == "fr"
    assert [(r.text, r.get("to"), r.get("status")) for r in root.iter("ref")] == [
        ("B ci-dessous", "2007/50B", "ok"),
        ("B ci-dessous", "2017/12B", "ok"), ("Lois 50", "2017/50", "ok"), ("51", "2017/51", "ok"),
        ("A ci-dessus", "2017/12A", "ok"), ("(a) ci-dessus", "2017/12C1a", "ok"),
        ("Loi 12C1(b)", "2017/12C1b", "ok"), ("Loi 51", "2017/51", "ok"), ("Loi 50", "2017/50", "ok")]


def test_the_french_book_has_its_notes_commentary_and_structure(built):
    root = corpus(built)
    assert [(n.get("id"), n.get("form"), n.text) for n in root.iter("note")] == [
        ("2017/12B/noot1", "inline", "Le tort s’apprécie au moment de l’infraction."),
        ("2017/50A/noot1", "numbered", "Le déclarant n’a jamais de carte pénalisée.")]
    commentary = root.find(".//commentary")
    assert (commentary.get("on"), commentary.get("author")) == ("2017/12", "Claire")
    assert [el.get("id") for el in root.iter("article", "section", "subsection", "item")
            if el.get("id").startswith("2017/12")] == \
        ["2017/12", "2017/12A", "2017/12B", "2017/12C", "2017/12C1", "2017/12C1a", "2017/12C1b", "2017/12C2"]
    assert root.findtext('.//article[@id="2017/12"]/title') == "Pouvoirs de l’arbitre"


W = re.compile(r"[^\W\d_]{2,}")


def words_of(texts):
    return {w.lower() for t in texts for w in W.findall(t)}


def foreign_words():
    """The words of the Dutch and English profiles that the French one and the French book never use: a
    page that holds one has a Dutch or English word left (placeholders and ID words are names, not words)."""
    def said(profile):
        return words_of(re.sub(r"%\(\w+\)s", " ", value) for value in profile.words.values())
    entries = tomllib.loads((BOOK / "sources.toml").read_text(encoding="utf-8"))["source"]
    book = words_of([p.read_text(encoding="utf-8") for p in BOOK.glob("*.txt")] +
                    [e[k] for e in entries for k in ("origin", "description")])
    return (said(lang.profile("nl")) | said(lang.profile("en"))) - said(FR) - book


def test_the_check_for_foreign_words_knows_them():
    foreign = foreign_words()
    assert {"artikel", "uitgave", "zoeken", "law", "laws", "edition", "search", "contents", "see"} <= foreign
    assert not {"loi", "édition", "recherche", "notes", "original", "index"} & foreign


def visible_text(page: Path) -> list[str]:
    """What a reader reads of an HTML page: its text and its titles and labels, not its scripts and styles,
    not what is marked as English (the editor's messages, the original beside the translation) and not its
    code (file names and commands: "report.txt", the original's folder)."""
    doc = lxml.html.parse(str(page)).getroot()
    for el in doc.xpath("//script|//style|//code|//*[@lang='en']"):
        el.drop_tree()
    return [doc.text_content()] + doc.xpath("//@title|//@aria-label|//@alt|//@placeholder")


def test_the_site_is_french_on_every_page(built):
    html = built / "build" / "html"
    assert (html / "citations.js").is_file()
    assert not (html / "zoeken.html").exists() and not (html / "search.html").exists()
    foreign = foreign_words()
    pages = sorted(html.rglob("*.html"))
    assert [p.relative_to(html).as_posix() for p in pages] == [
        "2007/50.html", "2007/index.html", "2007/references.html", "2017/12.html", "2017/50.html", "2017/51.html",
        "2017/index.html", "2017/references.html", "404.html", "diff/2007-2017.html", "index.html",
        "recherche.html", "redaction.html"]
    for page in pages:
        source = page.read_text(encoding="utf-8")
        assert '<html lang="fr"' in source, page
        assert words_of(visible_text(page)) & foreign == set(), page
    article = (html / "2017" / "12.html").read_text(encoding="utf-8")
    assert re.search(r"<h1[^>]*>.*Loi 12\b", article, re.S)
    assert 'href="../recherche.html"' in article and "Pouvoirs de l’arbitre" in article


def test_the_site_searches_in_french(built):
    html = built / "build" / "html"
    entry = json.loads((html / "pagefind" / "pagefind-entry.json").read_text(encoding="utf-8"))
    assert list(entry["languages"]) == ["fr"]  # pagefind's French stemming
    search = (html / "recherche.html").read_text(encoding="utf-8")
    assert "Une citation (53A, 2007 41B, Loi 16C) l’ouvre directement" in search
    # … and "Loi 16C" and "article 16" are what the jump reads: the profiles' words, given to the page as data.
    assert 'var articleWords = ["artikelen", "article", "artikel", "laws", "lois", "art", "law", "loi", "wet"];' in search
    assert '"12C1b": "2017/12.html#12C1b"' in (html / "citations.js").read_text(encoding="utf-8")


def test_the_editors_page_compares_the_book_with_its_original_in_french(built):
    page = (built / "build" / "html" / "redaction.html").read_text(encoding="utf-8")
    assert "<h2" in page and "Comparaison avec l’original" in page
    article = (built / "build" / "html" / "2017" / "12.html").read_text(encoding="utf-8")
    assert "L’original en regard" in article and "un nombre de notes différent de celui de l’original" in article
    assert '<p lang="en">An adjustment repairs the damage' in article  # the original, in its own language


def test_align_reads_the_french_note_the_original_lacks(built):
    done = run_lawbook("align", built / "build", built / "original", "--json")
    assert done.returncode == 1, done.stderr  # a node differs
    statuses = {n["id"]: n["status"] for n in json.loads(done.stdout)["nodes"]}
    assert statuses.pop("2017/12B") == "notes-differ"
    assert statuses == {node: "match" for node in ("2017/12", "2017/12A", "2017/12C", "2017/12C1", "2017/12C1a",
                                                    "2017/12C1b", "2017/12C2", "2017/50", "2017/50A", "2017/50B",
                                                    "2017/51")}


def test_the_markdown_is_french(built):
    md = (built / "build" / "2017" / "lawbook.md").read_text(encoding="utf-8")
    assert md.startswith("# Code International du Bridge de Compétition — édition 2017\n")
    assert '## Loi 12 Pouvoirs de l’arbitre {#12 origin="loi-12.txt:3,5,7,9,11,13,15,17-19"}\n' in md
    assert "(voir [B ci-dessous](#12B))" in md and "\\[voir [Loi 12C1(b)](#12C1b)\\]" in md
    assert "> **Commentaire — Claire**" in md
    # Footnote labels and anchors are IDs (2017/12B/noot1), the same in every language: not words.
    words = words_of([re.sub(r"\[\^[^\]]*\]|\{#[^}]*\}", " ", md)])
    assert words & foreign_words() == set()


def test_the_pdf_is_french(built):
    reader = PdfReader(built / "build" / "pdf" / "code-2017.pdf")
    assert reader.trailer["/Root"]["/Lang"] == "fr-FR"
    assert reader.metadata["/Title"] == "Code International du Bridge de Compétition 2017"
    assert reader.metadata["/Author"] == "Fédération Française de Bridge"
    first = reader.pages[0].extract_text().split("\n")
    assert first[0] == "Fédération Française de Bridge" and first[-2] == "Édition 2017"
    assert first[-1].startswith("État des sources au ")
    assert [item.title for item in reader.outline if not isinstance(item, list)] == [
        "Page de titre", "Colophon", "Table des matières", "Loi 12 Pouvoirs de l’arbitre", "Loi 50 Carte pénalisée", "Loi 51 Plusieurs cartes pénalisées"]
    pages = [page.extract_text() for page in reader.pages]
    assert "Table des matières" in pages[2] and "Commentaire sur la Loi 12 (Claire)" in " ".join(pages)
    assert words_of(pages) & foreign_words() == set()
    typst = (built / "build" / "pdf" / "code-2017.typ").read_text(encoding="utf-8")
    assert 'lang: "fr", region: "FR", hyphenate: true' in typst  # French hyphenation


def test_the_served_sites_error_page_is_french(built):
    profile = serve.site_profile(built / "build" / "html")
    assert profile is FR
    assert serve.error_words(404, profile) == {
        "message": "Page introuvable", "explain": FR.word("This address is not a page of the laws. Perhaps it was "
                                                          "mistyped, or the article is not in this edition."),
        "lang": "fr", "title": "Code International du Bridge de Compétition", "editions": "Les éditions",
        "search": "Rechercher dans les Lois", "search_page": "recherche.html"}
