"""How Dutch writes the law: the words the readers, repairs, references and gaps look for or write.

Only data: the modules that use these build their patterns from them, once per profile
(corpus/refs.py, corpus/structure.py, corpus/finish.py, reading/notes.py, reading/repair.py).
A word list is matched as whole words; a pattern string is a regular expression fragment.
"""

# -- citations (corpus/refs.py) ------------------------------------------------------------------
# The citation keyword: "artikel 47E1"; in any case, and doubled by a damaged export
# ("artikel artikel 63A1" is read as one keyword).
ARTICLE = "artikel"
# Its plural, after which a bare number continues the list: "de artikelen 42, 43 en 44".
ARTICLES = "artikelen"
# Its abbreviations: "art. 53", "Art.53", "art 16C1" (the bare one only where no letter follows).
ARTICLE_SHORT = ("art.", "art")
# Other words a reader types before an article's number in the search box, for the citation jump: "wet 53"
# (besides the keyword, its plural and abbreviations above: "artikel 53 A", "art. 53a").
ARTICLE_TYPED = ("wet",)
# Words before a designation in the current article: "(maar zie B)", "volgens (a)".
RELATIVE = ("zie", "volgens")
# Words that may stand between those and the designation: "zie echter B", "zie ook (a)".
RELATIVE_FILLERS = ("echter", "ook", "verder")
# What looks like a designation after a relative word but is a word: "volgens u" (the pronoun).
NOT_DESIGNATIONS = ("u",)
# After a designation, where it stands: "C2 hierboven" (above), "(b) hieronder" (below). A
# citation that points the wrong way is suspect. Before such a word a list of designations and a
# subsection's bare number are read too: "A en B hierboven", "1 en 2 hierboven".
ABOVE = ("hierboven",)
BELOW = ("hieronder",)
# The current article, cited by its words: "(behalve zoals bepaald in dit artikel, zie artikel 49)".
THIS_ARTICLE = ("dit artikel",)
# A bare "C2" is no citation in the Dutch text: it writes "C2 hierboven" or "zie C2".
BARE_DESIGNATIONS = False
# Between the citations of a list, besides a comma: "artikel 20F2 en F3", "42 of 43"; after the singular
# keyword too, where the numbers rise and the list ends with one of these: "artikel 30, 31 of 32".
LIST_WORDS = ("en", "of")
# Between the two ends of a range: "artikelen 12 t/m 14", "12 tot en met 14".
RANGE_WORDS = ("t/m", "tot en met")
# The range words that also make a range of the current article's sections between two capitals:
# "de voorwaarden A t/m E".
LETTER_RANGE_WORDS = ("t/m",)

# -- the evidence for an inferred number (corpus/structure.py, Evidence) --------------------------
# A citation of an article or a part, the citation in group 1: "artikel 53A", "Art.53", "art 16C1".
EVIDENCE_CITING = r"\b[Aa]rt(?:ikel|\.)?\s*(\d[A-Za-z0-9]*)"
# What confirms section {num} of the current article: "zie B", "B hierboven", "C2 hieronder".
EVIDENCE_SECTION = r"\bzie\s+{num}\b|\b{num}\d*\s+(?:hierboven|hieronder)\b"
# What confirms subsection {num} of section {section}: "C2 hierboven".
EVIDENCE_SUBSECTION = r"\b{section}{num}\s+(?:hierboven|hieronder)\b"
# What confirms item {num}: "(a)", "(b) hieronder".
EVIDENCE_ITEM = r"\({num}\)(?:\s+hier(?:boven|onder))?"

# -- notes (reading/notes.py) ---------------------------------------------------------------------
# The word that opens a footnote written into the text, before a colon: "(Noot: Een voor de beurt …)",
# and the damaged "Noot: (Zie artikel 59, …)".
NOTE = "Noot"

# -- repairs (reading/repair.py) ------------------------------------------------------------------
# Words that legitimately stand twice in a row ("dat dat klopt", "die die kaart"): never collapsed.
LEGIT_DOUBLES = frozenset({"dat", "die", "had", "is", "was", "wat", "er", "zich", "hun", "haar"})
# Prefixes that keep their hyphen at a line end, in compounds: "niet-overtredende".
HYPHEN_PREFIXES = frozenset({"niet", "ex", "oud", "vice", "non", "anti", "semi", "zuid", "noord", "oost",
                             "west"})
# After a line-end hyphen, a word that makes it an elliptic compound: "bied- of speelwijze" keeps
# hyphen and space.
CONJUNCTIONS = frozenset({"of", "en", "noch", "als"})

# -- commentary (corpus/structure.py) -------------------------------------------------------------
# The attribution of a personal remark, the author's name in group 1:
# "… valt onder verantwoording van Peter."
COMMENTARY_AUTHOR = r"verantwoording van ([A-Z][\w.\- ]*?)\s*\.?$"
# The attribution of a comment in a Word file (reading/formats/docx.py), {author} its author as Word gives it:
# COMMENTARY_AUTHOR reads the name back.
COMMENT_ATTRIBUTION = ("Opmerking bij de tekst, geschreven op persoonlijke titel en onder verantwoording van "
                       "{author}.")

# -- gaps (corpus/finish.py): what readers see where the sources lack the text -----------------------
# {cite} is the citation readers know ("57B"), {first} that of the first part below it ("57A1").
GAP_ONLY_HEADING = "De tekst van {cite} ontbreekt in de bronnen; alleen het opschrift is overgeleverd."
GAP_NO_LEAD_IN = "De inleidende tekst van {cite}, vóór {first}, ontbreekt in de bronnen."

# -- readers (reading/formats/): how each source format writes an article and its page -----------------
# The article heading: the wiki export's "Artikel 53" / "Artikel 50D"; the printed book's and the
# template's "ARTIKEL 24".
ARTICLE_WORD = "Artikel"
ARTICLE_WORD_PRINTED = "ARTIKEL"
# A wiki page title that names the page's article: "ARTIKEL 54", "Artikel 54", "Art.53 …" (a pattern).
PAGE_SUBJECT = r"(?:ARTIKEL|Artikel|Art\.?)"
# The first line of a MediaWiki template names it: "Sjabloon:2007:41" (the wiki's word, or MediaWiki's own).
TEMPLATE_NAMES = ("Sjabloon", "Template")
# A personal remark in the wiki export: "* Deze opmerking is geschreven op persoonlijke titel …" (a pattern).
COMMENTARY_MARK = r"\bpersoonlijke titel\b"
# The printed book's last page, for readers: where the text stops ({page}: its number), and why.
CUT_OFF_PAGE = "pagina {page}"
CUT_OFF_EXTRACTION = "de tekst"
CUT_OFF = "Artikel {cite} breekt af aan het eind van {where}; het vervolg staat op een pagina die niet in de bronnen zit."
MAYBE_CUT_OFF = ("Artikel {cite} breekt mogelijk af aan het eind van {where}; een vervolg zou staan op een pagina "
                 "die niet in de bronnen zit.")

# -- the reader of printed books (reading/book/) and the headings stage (reading/headings.py) --
CONTENTS_TITLE = "Inhoudsopgave"
DEFINITIONS_TITLE = "Begripsomschrijvingen"
INDEX_TITLE = r"Register\b"
# The introduction's title: the WBF makes the Introduction part of the Laws, so it is text of its own.
INTRODUCTION_TITLE = r"Inleiding\b"
HEADING_SMALL_WORDS = frozenset({"de", "het", "een", "van", "en", "of", "op", "na", "bij", "in", "door", "met",
                                 "aan", "tot", "niet", "uit"})
SENTENCE_OPENERS = frozenset({"Als", "Indien", "Wanneer", "Een", "De", "Het", "Na", "Zodra", "Tenzij",
                              "Elke", "Iedere", "Geen", "Zolang"})

# -- repairs of the extraction (reading/repair.py) --------------------------------------------------
# The Dutch exports double "artikel Artikel": a repeat differing only in capitals is still one.
REPEATS_IGNORE_CASE = True
TABLE_ROW_REPEATS = None  # no tables in the Dutch sources: every repeat is collapsed
DASH = None  # U+00AD is a soft hyphen only
# A hyphen with a space on either side between words is a parenthetical dash typed on a keyboard
# ("speler - behoudens … - een"): written as this, the dash Dutch typography sets there.
SPACED_DASH = "\u2013"
LIGATURES = ()
LIGATURE_WORDS = None
LIGATURE_FREE_WORDS: frozenset[str] = frozenset()

# -- the outputs' file names (outputs/html.py, outputs/pdf.py) --------------------------------------
# Addresses a reader sees and types, so in the book's language; without their suffix (outputs/text.py's
# file_names adds .html, .js, .pdf). The site's search page, its editor's page, an edition's reference
# graph (html/<edition>/…) and the citation table of the search box.
SEARCH_PAGE = "zoeken"
EDITOR_PAGE = "redactie"
GRAPH_PAGE = "verwijzingen"
CITATIONS_SCRIPT = "citaten"
# The printed book below pdf/ (.pdf, and beside it its Typst source .typ or sources .parts/).
BOOK_FILE = "spelregels-{edition}"

# -- the book's index (reading/index.py): the Dutch sources have none; the same fields, in Dutch --
INDEX_SEE = ("Zie ook", "Zie")
INDEX_PLACES = {"Begripsomschrijvingen": "def", "Inleiding": "intro"}
INDEX_FOOTNOTE = ("tweede noot", "noot")
INDEX_NOTE = "Noot:"
INDEX_CONTINUED = (r"\(vervolg op\)", r"\(vervolg\)")
