"""How English writes the law (the WBF Laws of Duplicate Bridge 2017): the words the readers,
repairs, references and gaps look for or write. The counterpart of nl/rules.py, field for field.

Only data: the modules that use these build their patterns from them, once per profile.
A word list is matched as whole words; a pattern string is a regular expression fragment.
"""

# -- citations (corpus/refs.py) ------------------------------------------------------------------
# The citation keyword: "Law 47E1"; in any case.
ARTICLE = "Law"
# Its plural, after which a bare number continues the list: "Laws 50 and 51", "Laws 4, 12C2 and 91".
ARTICLES = "Laws"
# The book abbreviates no citation keyword.
ARTICLE_SHORT = ()
# Other words a reader types before a Law's number in the search box, for the citation jump: "article 53",
# "art. 53A" (besides the keyword and its plural above: "Law 53A").
ARTICLE_TYPED = ("article", "art.")
# Words before a designation in the current Law: "(but see B)", "see A above", "(but see E following)".
RELATIVE = ("see", "under", "as in")  # "under (a)", "except as in (a)": the item (a) of the current subsection
# Words that may stand between those and the designation: "see also B".
RELATIVE_FILLERS = ("also",)
# What looks like a designation after a relative word but is a word: "see a doctor" (the article).
NOT_DESIGNATIONS = ("a",)
# After a designation, where it stands: "A1 above", "(as in 1 preceding)"; "C2 below", "(but see E following)",
# "(d) hereunder". A citation that points the wrong way is suspect. Before such a word a list of designations and a
# subsection's bare number are read too: "2(c) or 2(d) above", "Notwithstanding 1 and 2 above".
ABOVE = ("above", "preceding")
BELOW = ("below", "following", "hereunder")
# The current Law, cited by its words: "(for defenders, except as this Law provides, see Law 49)".
THIS_ARTICLE = ("this Law",)
# A section's letter and subsection's number standing alone cite the current Law's part: "a violation
# of C2", "the application of E1", "C2(a)" (capital, digits, an item in brackets; never after "Law").
BARE_DESIGNATIONS = True
# Between the citations of a list, besides a comma: "Laws 4, 12C2 and 91", "Law 50 or Law 51"; after the
# singular keyword too, where the numbers rise and the list ends with one of these: "Law 30, 31 or 32".
LIST_WORDS = ("and", "or")
# Between the two ends of a range: "Laws 12 to 14", "Laws 12 through 14".
RANGE_WORDS = ("to", "through")
# The range words that also make a range of the current Law's sections between two capitals: "A through E".
LETTER_RANGE_WORDS = ("through",)

# -- the evidence for an inferred number (corpus/structure.py, Evidence) --------------------------
# A citation of a Law or a part, the citation in group 1: "Law 53A", "Laws 50".
EVIDENCE_CITING = r"\bLaws?\s+(\d[A-Za-z0-9]*)"
# What confirms section {num} of the current Law: "see B", "see also B", "A above", "B1 following".
EVIDENCE_SECTION = r"\bsee\s+(?:also\s+)?{num}\b|\b{num}\d*\s+(?:above|below|following|hereunder)\b"
# What confirms subsection {num} of section {section}: "A1 above", "see B1 following".
EVIDENCE_SUBSECTION = r"\b(?:see\s+)?{section}{num}\s+(?:above|below|following|hereunder)\b|\bsee\s+{section}{num}\b"
# What confirms item {num} (or a subitem's numeral): "(a)", "(a) hereunder", "(b) below".
EVIDENCE_ITEM = r"\({num}\)(?:\s+(?:above|below|following|hereunder))?"

# -- notes (reading/notes.py) ---------------------------------------------------------------------
NOTE = "Note"

# -- repairs (reading/repair.py) ------------------------------------------------------------------
# Words that legitimately stand twice in a row ("that that", "had had").
LEGIT_DOUBLES = frozenset({"that", "had", "is", "was", "do"})
# Prefixes that keep their hyphen at a line end: "non-offending", "re-deal".
HYPHEN_PREFIXES = frozenset({"non", "re", "self", "co", "pre", "post", "semi", "anti", "ex", "face", "out"})
# After a line-end hyphen, a word that makes it an elliptic compound: "pre- and post-".
CONJUNCTIONS = frozenset({"or", "and", "nor"})

# -- commentary (corpus/structure.py) -------------------------------------------------------------
COMMENTARY_AUTHOR = r"responsibility of ([A-Z][\w.\- ]*?)\s*\.?$"
# The attribution of a comment in a Word file (reading/formats/docx.py), {author} its author as Word gives it:
# COMMENTARY_AUTHOR reads the name back.
COMMENT_ATTRIBUTION = ("A comment in the Word file, written in a personal capacity and under "
                       "the responsibility of {author}.")

# -- gaps (corpus/finish.py) ---------------------------------------------------------------------
GAP_ONLY_HEADING = "The text of {cite} is not in the sources; only its heading has come down."
GAP_NO_LEAD_IN = "The opening text of {cite}, before {first}, is not in the sources."

# -- readers (reading/formats/) -------------------------------------------------------------------
ARTICLE_WORD = "Law"
ARTICLE_WORD_PRINTED = "LAW"
PAGE_SUBJECT = r"(?:LAW|Law)"
TEMPLATE_NAMES = ("Template",)
COMMENTARY_MARK = r"\bpersonal capacity\b"
CUT_OFF_PAGE = "page {page}"
CUT_OFF_EXTRACTION = "the text"
CUT_OFF = "Law {cite} breaks off at the end of {where}; the rest is on a page that is not in the sources."
MAYBE_CUT_OFF = ("Law {cite} may break off at the end of {where}; any rest would be on a page that is not in "
                 "the sources.")

# -- the reader of printed books (reading/book/) and the headings stage (reading/headings.py) --
# The first line of the book's front matter and back matter, which are kept apart from the articles.
CONTENTS_TITLE = "Table of Contents"
DEFINITIONS_TITLE = "Definitions"
INDEX_TITLE = r"Index\b"
# The introduction's title: the WBF makes the Introduction part of the Laws, so it is text of its own.
INTRODUCTION_TITLE = r"Introduction\b"
# Small words a heading may hold in lower case ("Lead Out of Turn Treated as Correct Lead"): where no
# contents entry gives a section's heading, it is read as the run of capitalised words and these.
HEADING_SMALL_WORDS = frozenset({"a", "an", "and", "as", "at", "by", "for", "from", "in", "of", "on", "or", "the",
                                 "to", "with", "after", "before", "during", "into", "not", "out", "than"})
# The words a section's text starts with after its heading ("… Correct Lead Prior to the thirteenth …"),
# and a subsection's after its run-in heading ("1. Single Result Obtained In team play …"): a split before
# one of them is certain, before another capitalised word uncertain; a subsection whose text starts with
# one has no run-in heading ("1. The Director shall …").
SENTENCE_OPENERS = frozenset({"A", "An", "After", "Any", "As", "At", "Before", "Both", "By", "Declarer", "Dummy",
                              "During", "Each", "Either", "Except", "For", "Following", "If", "In", "It", "No",
                              "Once", "Prior", "Subject", "The", "There", "These", "This", "Unless", "Until", "When",
                              "Whenever", "Where", "While", "With"})

# -- repairs of the extraction (reading/repair.py) --------------------------------------------------
# A repeated phrase is collapsed only where both copies have the same capitals ("a Bid A bid" is a
# heading and the text after it), and a word standing this many times in a row is a flattened table
# row ("Boards Boards Boards Boards"): kept, reported.
REPEATS_IGNORE_CASE = False
TABLE_ROW_REPEATS = 3
# U+00AD between spaces or digits is the extraction's dash ("LAW 22 ­ END", "0­10"), written as this.
DASH = "\u2013"
# A hyphen with a space on either side between words is a parenthetical dash typed on a keyboard
# ("see Law 49 - for declarer"): written as this, the spaced en dash of the WBF book.
SPACED_DASH = "\u2013"
# The ligatures a PDF extraction lost ("o ender", "insu cient", "shu e"): restored where the joined word
# is in the book's own words or in the word list ligatures.txt, and the two pieces are not both words.
LIGATURES = ("ff", "ffi", "ffl")
LIGATURE_WORDS = "ligatures.txt"
# A ligature lost at a word's end leaves its piece standing alone ("sta and" for "staff and", "o the" for
# "off the"): restored only where the piece is no word. These are the pieces of the word list's words that are
# words themselves, read as written ("do not", never "doff not"; "go", "logo", the letter "B"). "o" is none:
# in the law it stands alone only where "off" lost its ligature.
LIGATURE_FREE_WORDS = frozenset({"b", "bi", "do", "flu", "go", "ho", "logo", "mi", "mu", "qua", "ski", "ti"})

# -- the outputs' file names (outputs/html.py, outputs/pdf.py) --------------------------------------
# Addresses a reader sees and types, so in the book's language; without their suffix (outputs/text.py's
# file_names adds .html, .js, .pdf). The site's search page, its editor's page, an edition's reference
# graph (html/<edition>/…) and the citation table of the search box.
SEARCH_PAGE = "search"
EDITOR_PAGE = "editorial"
GRAPH_PAGE = "references"
CITATIONS_SCRIPT = "citations"
# The printed book below pdf/ (.pdf, and beside it its Typst source .typ or sources .parts/).
BOOK_FILE = "laws-{edition}"
# -- the book's index (reading/index.py) -------------------------------------------------------------
# The words that send the reader to another headword: "Agreement See Partnership Understanding",
# "Claim 68, 69, 70 See also Concession" (the longer form first).
INDEX_SEE = ("See also", "See")
# Words that stand in a citation list for a part of the book outside the Laws: "Alert Definitions", "May
# Introduction"; a word after a citation that points at its footnote: "93 footnote", "20 second footnote".
# ("Definition" alone is a sub-entry's label: "Definition of 68A", "Definition 61A".)
INDEX_PLACES = {"Definitions": "def", "Introduction": "intro"}
INDEX_FOOTNOTE = ("second footnote", "footnote")
# An entry's remark, the rest of its line: 'Zero Score 77 Note: A "Zero score" is not identical to …'.
INDEX_NOTE = "Note:"
# An entry continued on the next page: its last line there, and its first on the next.
INDEX_CONTINUED = (r"\(continued on\)", r"\(continued\)")
