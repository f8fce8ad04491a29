"""How French writes the law (the FFB's Code International du Bridge de Compétition 2017, its translation
of the WBF Laws): the words the readers, repairs, references and gaps look for or write. The counterpart
of nl/rules.py and en/rules.py, field for field.

Only data: the modules that use these build their patterns from them, once per profile.
A word list is matched as whole words; a pattern string is a regular expression fragment.

The words are the FFB book's own usage (how it cites, where it says a part stands, how it names its
parts); where the book gives no answer (a wiki's commentary, the gap texts, the file names) the choice
is said at the field. French typography puts a no-break space (U+00A0) before ";" and ":" in the texts
written for readers, as the outputs' words do (words.py).
"""

# -- citations (corpus/refs.py) ------------------------------------------------------------------
# The citation keyword: "Loi 12C1(b)", "voir la Loi 14", "[voir Loi 12C1(b)]"; in any case.
ARTICLE = "Loi"
# Its plural, after which a bare number continues the list: "Lois 50 et 51", "Lois 64B3 et 64C",
# "Lois 4, 12C2 et 91".
ARTICLES = "Lois"
# The book abbreviates no citation keyword.
ARTICLE_SHORT = ()
# Other words a reader types before a Law's number in the search box, for the citation jump: "article 53",
# "art. 53A" (besides the keyword and its plural above: "Loi 53A").
ARTICLE_TYPED = ("article", "art.")
# Words before a designation in the current Law: "(voir B ci-dessus)", "(mais voir B1 ci-après)",
# "selon A ci-dessus", "comme en (a) ci-dessus" (the counterpart of the WBF's "see", "under", "as in").
RELATIVE = ("voir", "selon", "comme en")
# Words that may stand between those and the designation: "voir aussi B", "[voir également C1(d)]".
RELATIVE_FILLERS = ("aussi", "également")
# What looks like a designation after a relative word but is a word: the elided article or pronoun before
# an apostrophe ("selon l’arbitre", "voir d’autres", "s’il", "qu’"), and "y" ("voir y compris").
NOT_DESIGNATIONS = ("l", "d", "s", "n", "c", "j", "m", "t", "y")
# After a designation, where it stands: "C2 ci-dessus", "(a) ci-dessus", "la Loi précédente" is no
# citation but "B précédent" would be one; "(voir C2 ci-dessous)", "(voir B4, ci-après)", "E suivant". A
# citation that points the wrong way is suspect. Before such a word a list of designations and a
# subsection's bare number are read too: "2(c) ou 2(d) ci-dessus", "Nonobstant 1 et 2 ci-dessus".
ABOVE = ("ci-dessus", "précédent")
BELOW = ("ci-dessous", "ci-après", "suivant")
# The current Law, cited by its words: "en application de cette Loi".
THIS_ARTICLE = ("cette Loi",)
# A section's letter and subsection's number standing alone cite the current Law's part, as in the WBF
# original it translates: "une infraction à C2", "l’application de B1", "enfreint C1".
BARE_DESIGNATIONS = True
# Between the citations of a list, besides a comma: "Lois 50 et 51", "Lois 30, 31 ou 32"; after the
# singular keyword too, where the numbers rise and the list ends with one of these: "Loi 30, 31 ou 32".
LIST_WORDS = ("et", "ou")
# Between the two ends of a range: "Lois 12 à 14" (the book writes none; "de 1 à 7" is its range of numbers).
RANGE_WORDS = ("à",)
# The range words that also make a range of the current Law's sections between two capitals: "A à E".
LETTER_RANGE_WORDS = ("à",)

# -- the evidence for an inferred number (corpus/structure.py, Evidence) --------------------------
# A citation of a Law or a part, the citation in group 1: "Loi 53A", "Lois 50".
EVIDENCE_CITING = r"\bLois?\s+(\d[A-Za-z0-9]*)"
# What confirms section {num} of the current Law: "voir B", "voir aussi B", "A ci-dessus", "B1 ci-après".
EVIDENCE_SECTION = (r"\bvoir\s+(?:aussi\s+|également\s+)?{num}\b"
                    r"|\b{num}\d*\s+(?:ci-dessus|ci-dessous|ci-après|précédent|suivant)\b")
# What confirms subsection {num} of section {section}: "A1 ci-dessus", "voir C2 ci-dessous", "voir B1".
EVIDENCE_SUBSECTION = (r"\b(?:voir\s+)?{section}{num}\s+(?:ci-dessus|ci-dessous|ci-après|précédent|suivant)\b"
                       r"|\bvoir\s+{section}{num}\b")
# What confirms item {num} (or a subitem's numeral): "(a)", "(a) ci-dessus", "(b) ci-dessous".
EVIDENCE_ITEM = r"\({num}\)(?:\s+(?:ci-dessus|ci-dessous|ci-après|précédent|suivant))?"

# -- notes (reading/notes.py) ---------------------------------------------------------------------
# The word that opens a footnote written into the text: "(Note : Une carte …)" (French typography spaces
# the colon; a wiki may not: "(Note: …)"). The book itself prints two kinds of notes at the page foot, both
# read by the print readers, not by this word: the WBF's numbered footnotes, numbered through the book, and
# the FFB's own asterisk notes ("*", "**" at the marker and at the foot), which say the FFB's position and
# are not part of the WBF text (the book's preface says so): the original has no note there.
NOTE = "Note"

# -- repairs (reading/repair.py) ------------------------------------------------------------------
# Words that legitimately stand twice in a row ("nous nous engageons", "vous vous êtes"): the reflexive
# pronoun after its subject.
LEGIT_DOUBLES = frozenset({"nous", "vous"})
# Prefixes that keep their hyphen at a line end, in compounds: "ci-dessus", "non-respect", "contre-attaque",
# "demi-point", "sous-ensemble", "sur-le-champ", "vice-président", "Nord-Sud", "Est-Ouest". (The sources'
# own words decide first: a joined word used elsewhere in the sources, "surcontre", "surenchère", is joined.)
HYPHEN_PREFIXES = frozenset({"ci", "non", "contre", "demi", "sous", "sur", "semi", "anti", "ex", "vice", "quasi",
                             "nord", "sud", "est", "ouest"})
# After a line-end hyphen, a word that makes it an elliptic compound: "sous- et surenchère" keeps hyphen
# and space.
CONJUNCTIONS = frozenset({"ou", "et", "ni"})

# -- commentary (corpus/structure.py) -------------------------------------------------------------
# The attribution of a personal remark, the author's name in group 1 (the book has none; the counterpart
# of the Dutch wiki's): "… relève de la responsabilité de Pierre.", "… de la responsabilité d’Élise."
COMMENTARY_AUTHOR = r"responsabilité d(?:e\s+|[’'])([A-ZÀ-Ý][\w.\- ]*?)\s*\.?$"
# The attribution of a comment in a Word file (reading/formats/docx.py), {author} its author as Word gives it:
# COMMENTARY_AUTHOR reads the name back.
COMMENT_ATTRIBUTION = ("Commentaire du fichier Word, écrit à titre personnel et sous la "
                       "responsabilité de {author}.")

# -- gaps (corpus/finish.py): what readers see where the sources lack the text -----------------------
# {cite} is the citation readers know ("57B"), {first} that of the first part below it ("57A1").
GAP_ONLY_HEADING = "Le texte de {cite} manque dans les sources\u00a0; seul son intitulé nous est parvenu."
GAP_NO_LEAD_IN = "Le texte introductif de {cite}, avant {first}, manque dans les sources."

# -- readers (reading/formats/): how each source format writes a Law and its page --------------------
# The Law's heading: a wiki's "Loi 53" / "Loi 50D"; the printed book's and a template's "LOI 13"
# (the book prints "LOI 13 - NOMBRE INCORRECT DE CARTES", its contents list "LOI 13 - Nombre incorrect …").
ARTICLE_WORD = "Loi"
ARTICLE_WORD_PRINTED = "LOI"
# A wiki page title that names the page's Law: "LOI 54", "Loi 54" (a pattern).
PAGE_SUBJECT = r"(?:LOI|Loi)"
# The first line of a MediaWiki template names it: "Modèle:2017:41" (the French wiki's word, or MediaWiki's own).
TEMPLATE_NAMES = ("Modèle", "Template")
# A personal remark in a wiki export: "* Cette remarque est écrite à titre personnel …" (a pattern; the
# book has none: the counterpart of the Dutch wiki's "op persoonlijke titel").
COMMENTARY_MARK = r"\bà titre personnel\b"
# The printed book's last page, for readers: where the text stops ({page}: its number), and why. The
# place carries its own "de" ("à la fin de la page 44", "à la fin du texte").
CUT_OFF_PAGE = "de la page {page}"
CUT_OFF_EXTRACTION = "du texte"
CUT_OFF = ("La Loi {cite} s’interrompt à la fin {where}\u00a0; la suite se trouve sur une page qui ne figure pas "
           "dans les sources.")
MAYBE_CUT_OFF = ("La Loi {cite} s’interrompt peut-être à la fin {where}\u00a0; une suite se trouverait sur une page "
                 "qui ne figure pas dans les sources.")

# -- the reader of printed books (reading/book/) and the headings stage (reading/headings.py) --
# The first line of the book's front matter and back matter, which are kept apart from the Laws, as the
# book prints them: "TABLE DES MATIÈRES", "DÉFINITIONS", "INDEX CODE 2017" (its contents list: "INDEX Code
# 2017"). After the index the book prints an annex ("ANNEXE I - Utilisation des boîtes à annonces"): no Law,
# back matter.
CONTENTS_TITLE = "TABLE DES MATIÈRES"
DEFINITIONS_TITLE = "DÉFINITIONS"
INDEX_TITLE = r"INDEX\b"
# The introduction's title, "INTRODUCTION AUX LOIS DE 2017": the WBF makes the Introduction part of the Laws,
# so it is text of its own (the FFB's two prefaces before it are front matter).
INTRODUCTION_TITLE = r"INTRODUCTION\b"
# Small words a heading may hold in lower case: where no contents entry gives a section's heading, it is
# read as the run of capitalised words and these. French headings capitalise their first word only
# ("Hiérarchie des cartes et des couleurs"), so for a French book the contents list gives the headings;
# these are the function words of the book's headings.
HEADING_SMALL_WORDS = frozenset({"à", "au", "aux", "avec", "d", "dans", "de", "des", "du", "en", "entre", "et", "l",
                                 "la", "le", "les", "ou", "par", "pendant", "pour", "sans", "sous", "sur", "un",
                                 "une", "après", "avant", "non"})
# The words a section's text starts with after its heading ("… Attribution d’une marque ajustée Quand …"),
# and a subsection's after its run-in heading: a split before one of them is certain, before another
# capitalised word uncertain. The book's own: the first words of its sections and subsections ("A" is its
# capital "À", which it writes unaccented).
SENTENCE_OPENERS = frozenset({"A", "À", "Après", "Aucun", "Aucune", "Avant", "Ce", "Cette", "Chaque", "Dans", "Des",
                              "En", "Il", "La", "Le", "Les", "Lorsque", "Même", "On", "Par", "Pendant", "Pour",
                              "Quand", "Que", "Sauf", "Selon", "Seul", "Si", "Suite", "Tant", "Tous", "Tout",
                              "Toute", "Toutes", "Un", "Une"})

# -- repairs of the extraction (reading/repair.py) --------------------------------------------------
# A repeated phrase is collapsed only where both copies have the same capitals ("Enchère enchère" may be a
# heading and the text after it, as in the WBF original), and a word standing this many times in a row is a
# flattened table row (the book's tables: "Étuis Étuis Étuis"): kept, reported.
REPEATS_IGNORE_CASE = False
TABLE_ROW_REPEATS = 3
DASH = None  # U+00AD is a soft hyphen only: the book's text writes its dashes as dashes
# A hyphen with a space on either side between words is a parenthetical dash typed on a keyboard
# ("supprimer - voir Loi 81C5"): written as this, the spaced en dash the FFB book sets there.
SPACED_DASH = "\u2013"
# The book's text keeps its ligatures ("œ" is a letter of its own): nothing to restore.
LIGATURES = ()
LIGATURE_WORDS = None
LIGATURE_FREE_WORDS: frozenset[str] = frozenset()

# -- the outputs' file names (outputs/html.py, outputs/pdf.py) --------------------------------------
# Addresses a reader sees and types, so in the book's language; without their suffix (outputs/text.py's
# file_names adds .html, .js, .pdf). Without accents, so an address types on any keyboard and needs no
# escaping ("redaction" for "rédaction", the book's word for its editors, le Comité de Rédaction). The site's
# search page, its editor's page, an edition's reference graph (html/<edition>/…) and the citation table of
# the search box.
SEARCH_PAGE = "recherche"
EDITOR_PAGE = "redaction"
GRAPH_PAGE = "references"
CITATIONS_SCRIPT = "citations"
# The printed book below pdf/ (.pdf, and beside it its Typst source .typ or sources .parts/): the book is
# the "Code" ("Code International du Bridge 2017", its running footer).
BOOK_FILE = "code-{edition}"

# -- the book's index (reading/index.py), "INDEX CODE 2017" ---------------------------------------------
# The words that send the reader to another headword, on a line of their own: "Voir Entente entre
# partenaires", "Voir aussi Période des annonces" (the longer form first).
INDEX_SEE = ("Voir aussi", "Voir")
# Words that stand in a citation list for a part of the book outside the Laws: "Alerte Définitions", "Doit
# Introduction"; a word after a citation that points at its footnote, "nbp" (note de bas de page): "Jeu
# normal 71, nbp", "20, 2ème nbp".
INDEX_PLACES = {"Définitions": "def", "Introduction": "intro"}
INDEX_FOOTNOTE = ("2ème nbp", "nbp")
# An entry's remark, the rest of its line: "Note : …" (spaced as the book prints it).
INDEX_NOTE = "Note :"
# An entry continued on the next page: its last line there, and its first on the next. The book continues
# none; the French of the WBF's "(continued on)" and "(continued)".
INDEX_CONTINUED = (r"\(suite page suivante\)", r"\(suite\)")
