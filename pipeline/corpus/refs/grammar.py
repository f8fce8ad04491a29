"""The citation grammar: where a citation can stand, and what the words there cite.

Finding works in two passes, as in laws-africa/indigo: a cheap regex (the candidate pattern, pass 1)
finds the words a citation can start or end with ("artikel", "art.", "zie", "volgens", "hierboven",
"hieronder", "t/m", "dit artikel"; in English "Law", "Laws", "see", "above", "preceding", "below",
"following", "hereunder", "this Law"); a careful parser (pass 2) then reads the phrase at each such
place (keywords, citation, lists, ranges, relative designations) and either returns citations with
their exact spans or nothing. The words are the book's language's (core/lang/<lang>/rules.py, picked by
the manifest): the patterns are built from them once per language (patterns). A citation reaches
down to a subitem: "Law 30B1(b)(i)" cites 2017/30B1b.i, and so does a relative one, "B2(a)(v) above"
(one citation, not "(v) above"). After one keyword a list of bare numbers is read where it rises and
ends with a list word: "Law 30, 31 or 32".

Reads: a text segment and the book's language profile. Gives: Citation records (find_citations), each
absolute (parts) or relative (relative, direction, this_article), never resolved here (resolve.py).
"""
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from ...core import ids, lang

# A citation's parts by level (article … subitem; None below the deepest): ids.parse_citation's, or those
# of a relative reading built from them.
Parts = Mapping[str, Any]

# -- the patterns, built from the words of the book's language (core/lang/*/rules.py) ----------
# An article number with its parts: "47E1", "47 E2" (space before the section), "50D2a", "50D2(a)", and
# a subitem after its item: "30B1(b)(i)". A number has at most ids.MOST_DIGITS digits: a longer one names no
# node, and is read as a malformed citation (MALFORMED), never given to int() (which refuses 4,301 digits).
_SUBSECTION_ON = rf"(?:(?P<subsection>\d{{1,{ids.MOST_DIGITS}}})(?:(?:(?P<item>[a-z])|\((?P<pitem>[a-z])\))(?:\((?P<subitem>{ids.ROMAN})\))?)?)?"
CITE = re.compile(rf"(?P<article>\d{{1,{ids.MOST_DIGITS}}})(?:\s?(?P<section>[A-Z])(?![A-Za-z]){_SUBSECTION_ON})?(?!\w)")
# What follows a list separator in "artikel 20F2 en F3": the article is the previous one's.
PART = re.compile(rf"(?P<section>[A-Z])(?![A-Za-z]){_SUBSECTION_ON}(?!\w)")
# A number-like token after a keyword that CITE cannot read ("artikel 50a"): damage, reported.
MALFORMED = re.compile(r"\d[\w()]*")
# A subsection's item and the item's subitem, as a designation writes them after the subsection's number: "a", "(a)",
# "(a)(v)" (a subitem only after its item).
_ITEM_ON = rf"(?:(?:[a-z]|\([a-z]\))(?:\({ids.ROMAN}\))?)?"
# A designation inside the current article: "B", "C2", "E1a", "B2(a)(v)" (one designation down to the subitem);
# or, in brackets, an item "(a)", an item with its subitem "(a)(v)", or a subitem of the current item "(ii)".
DESIGNATION = (rf"(?:(?P<des>[A-Z](?:\d+{_ITEM_ON})?)(?![\w(])"
               rf"|(?P<bracketed>\((?:[a-z]|{ids.ROMAN})\)(?:\({ids.ROMAN}\))?)(?!\w))")
# What a relative word is followed by, read in any case, as a designation: the section letter in either case, the item
# and subitem in lower case ("b", "C2", "c2", "E1a", "B2(a)(v)").
LETTER_DESIGNATION = re.compile(rf"[A-Za-z](?:\d+{_ITEM_ON})?")
ABBREVIATION_DOT = re.compile(r"\.\w")  # "zie o.a.", "zie e.d."
# Before a direction word, also a subsection of the current section with its item: "2 above", "2(c) above"
# (a bare number is a citation only there).
NEAR_DESIGNATION = rf"(?:{DESIGNATION}|(?P<num>\d{{1,2}}(?:\([a-z]\)(?:\({ids.ROMAN}\))?)?)(?![\w(]))"
BEFORE_HIER = re.compile(rf"(?:(?<![\w(]){NEAR_DESIGNATION})\s+$")
# A section's letter and subsection's number standing alone, with the item and subitem in brackets: "C2", "C2(a)",
# "B2(a)(v)" (where the rules say, BARE_DESIGNATIONS).
BARE = re.compile(rf"([A-Z])(\d{{1,2}})(?:\(([a-z])\)(?:\(({ids.ROMAN})\))?)?")
# How far before "hierboven" a designation is looked for: the longest one ("(b)", "E1a") and its
# space with room to spare; searching from the start of the text for each was quadratic.
LOOK_BACK = 40


def _either(words: Iterable[str]) -> str:
    """The words as one alternation of literal text, the longest first ("artikelen" before "artikel")."""
    return "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True))


def _words(value: str | Iterable[str]) -> tuple[str, ...]:
    """A rule that is a list of words, also when a profile gives one word as a string."""
    return (value,) if isinstance(value, str) else tuple(value)


@dataclass(frozen=True)
class Patterns:
    """The compiled patterns of one language's citations (patterns): pass 1's candidate pattern and what
    the parsers of pass 2 read a phrase with."""
    candidate: re.Pattern[str]  # pass 1: the words a citation can start or end with
    this_article: re.Pattern[str]  # "dit artikel", "this Law"
    keyword_before: re.Pattern[str]  # a keyword just before a designation read back from a direction word
    keywords: re.Pattern[str]  # one or more keywords ("artikel artikel " is one)
    one_keyword: re.Pattern[str]
    plural: str  # the plural keyword, lower case ("artikelen", "laws")
    list_sep: re.Pattern[str]  # ", " or a list word
    range_sep: re.Pattern[str]  # a range word ("t/m", "to")
    direction: re.Pattern[str]  # a direction word after a designation
    direction_word: re.Pattern[str]
    below: frozenset[str]  # the direction words that point down
    list_before: re.Pattern[str]  # a designation and a list separator just before
    after_relative: re.Pattern[str]  # a relative word and its designation ("zie B")
    not_designations: frozenset[str]  # capitals that are words, not designations
    letter_range: re.Pattern[str]  # "A t/m E"


@lang.compiled
def patterns(rules: lang.LanguageRules) -> Patterns:
    """The patterns of one language's citations, from its rules (see core/lang/nl/rules.py)."""
    keywords = [rules.ARTICLES, rules.ARTICLE, *rules.ARTICLE_SHORT]
    # A keyword ending in a letter must not run on into a word: "art" is not the start of "arts".
    keyword = "(?:" + "|".join(re.escape(w) + (r"(?![^\W\d_])" if w[-1].isalpha() else "")
                               for w in sorted(keywords, key=len, reverse=True)) + ")"
    directions = _either(_words(rules.ABOVE) + _words(rules.BELOW))
    return Patterns(
        # Pass 1: the words a citation can start or end with. A keyword counts only before a number
        # or another keyword ("artikel 47E1", "Art.53", "artikel artikel 63A1").
        candidate=re.compile(
            rf"(?<!\w)(?P<keyword>{_either(keywords)})(?=\s*(?:\d|{_either(keywords)}))"
            rf"|(?<!\w)(?P<relative>{_either(rules.RELATIVE)})(?!\w)"  # "(maar zie B)", "volgens (a)"
            rf"|(?<!\w)(?P<direction>{directions})(?!\w)"  # "C2 hierboven", "(b) hieronder"
            rf"|(?<!\w)(?P<range>{_either(rules.LETTER_RANGE_WORDS)})(?!\w)"  # "A t/m E"
            # "dit artikel", "as this Law provides": not before a number ("this Law 12" is Law 12's keyword)
            rf"|(?<!\w)(?P<this>{_either(rules.THIS_ARTICLE)})(?!\w)(?!\s*\d)"
            # "a violation of C2": a part of the current article by its designation alone (where the rules say)
            + (rf"|(?<![\w(/.\-])(?P<bare>(?-i:{BARE.pattern}))(?![\w(])"
               if getattr(rules, "BARE_DESIGNATIONS", False) else ""),
            re.IGNORECASE),
        this_article=re.compile(_either(rules.THIS_ARTICLE), re.IGNORECASE),
        # What ends a keyword just before a designation read back from a direction word: "Laws 50 and
        # 51 above" are Laws, not subsections.
        keyword_before=re.compile(rf"{keyword}\s*$", re.IGNORECASE),
        keywords=re.compile(rf"{keyword}(?:\s*{keyword})*\s*", re.IGNORECASE),  # "artikel artikel " is one
        one_keyword=re.compile(rf"{keyword}\s*", re.IGNORECASE),
        plural=rules.ARTICLES.lower(),
        list_sep=re.compile(rf"\s*,\s*|\s+(?:{_either(rules.LIST_WORDS)})\s+"),
        range_sep=re.compile(rf"\s+(?:{_either(rules.RANGE_WORDS)})\s+"),
        direction=re.compile(rf"\s+(?P<dir>{directions})(?!\w)"),
        direction_word=re.compile(directions, re.IGNORECASE),
        below=frozenset(w.lower() for w in _words(rules.BELOW)),
        list_before=re.compile(rf"(?:(?<![\w(]){NEAR_DESIGNATION})(?:\s*,\s*|\s+(?:{_either(rules.LIST_WORDS)})\s+)$"),
        after_relative=re.compile(rf"(?:{_either(rules.RELATIVE)})\s+(?:(?:{_either(rules.RELATIVE_FILLERS)})\s+)?"
                                  rf"{DESIGNATION}", re.IGNORECASE),
        not_designations=frozenset(rules.NOT_DESIGNATIONS),
        letter_range=re.compile(rf"(?<!\w)(?P<a>[A-Z])\s+(?:{_either(rules.LETTER_RANGE_WORDS)})\s+"
                                rf"(?P<b>[A-Z])(?!\w)"),
    )


@dataclass
class Citation:
    """One cited thing and the exact words that cite it, as found in one text segment."""
    start: int
    end: int
    parts: Parts | None = None  # absolute: article, section, subsection, item, subitem
    # "B", "C2", "E1a", "B2(a)(v)" (current article), "(a)", "(a)(v)" (current subsection), "(ii)" (current item),
    # "2", "2(c)" (current section)
    relative: str | None = None
    direction: str | None = None  # "hierboven" or "hieronder", "above", "following", …
    this_article: bool = False  # "dit artikel", "this Law": the article it stands in
    range_end: Parts | None = None  # absolute or relative parts of the last element of a range
    malformed: str | None = None  # the raw token when the citation cannot be read
    phrase: int = 0  # citations read from one phrase ("artikel 50 en artikel 50") share this number


def _matched(m: "re.Match[str] | None") -> "re.Match[str]":
    """A match pass 1 promises: the candidate pattern matched these very words at this place."""
    if m is None:
        raise ValueError("a candidate of pass 1 that its own pattern does not match")
    return m


def citation_parts(m: re.Match[str], article: str | None = None) -> dict[str, str | None]:
    """The parts by level (ids.LEVELS) of a CITE match, or of a PART match read in `article`."""
    return {"article": article or m.group("article"), "section": m.group("section"),
            "subsection": m.group("subsection"), "item": m.group("item") or m.group("pitem"),
            "subitem": m.group("subitem")}


# -- pass 2 parsers: each returns citations (possibly empty) read at one candidate --
def parse_keyword_phrase(text: str, pos: int, p: Patterns) -> list[Citation]:
    """Citations of the phrase starting with a keyword at `pos`: "artikel 20F2 en 20F3",
    "de artikelen 42, 43 en 44", "artikelen 12 t/m 14", "artikel 50 en artikel 50"."""
    kw = p.keywords.match(text, pos)
    if not kw:
        return []
    plural = p.plural in kw.group().lower()
    m = CITE.match(text, kw.end())
    if not m:
        bad = MALFORMED.match(text, kw.end())
        return [Citation(pos, bad.end(), malformed=bad.group())] if bad else []
    found = [Citation(pos, m.end(), parts=citation_parts(m))]
    end = m.end()
    # After one keyword, the bare numbers of a rising list that ends with a list word: "Law 30, 31 or 32".
    listed = 0 if plural else _rising_list(text, end, int(m.group("article")), p)
    while True:
        sep = p.range_sep.match(text, end)
        is_range = bool(sep)
        sep = sep or p.list_sep.match(text, end)
        if not sep:
            break
        after = sep.end()
        own_kw = p.one_keyword.match(text, after)
        if own_kw:
            after = own_kw.end()
        previous = found[-1].range_end or found[-1].parts
        m = CITE.match(text, after)
        if m:
            parts = citation_parts(m)
            # "artikel 57 en 3 kaarten": a bare number continues only a plural, a range, a cited part or a
            # rising list.
            if not (own_kw or plural or is_range or parts["section"] or len(found) <= listed):
                break
        elif previous and previous["section"] and (m := PART.match(text, after)):
            parts = citation_parts(m, previous["article"])
        else:
            break
        if is_range and found[-1].range_end is None:
            found[-1].range_end = parts
            found[-1].end = m.end()
        elif is_range:
            break
        else:
            found.append(Citation(own_kw.start() if own_kw else after, m.end(), parts=parts))
        end = m.end()
    return found


def _rising_list(text: str, end: int, article: int, p: Patterns) -> int:
    """How many citations after a singular keyword's first one (which ends at `end` and cites `article`) form its
    list: "Law 30, 31 or 32" two, "Law 53 or 56" one. A list counts when each citation's article is higher than
    the one before and the last one follows a list word (not a comma): so "artikel 57 en 3 kaarten", "Law 12, 13
    boards" and "under Law 12, 3 or 4 boards" stay one citation."""
    count = listed = 0
    while (sep := p.list_sep.match(text, end)) and not p.range_sep.match(text, end):
        own_kw = p.one_keyword.match(text, sep.end())  # "Law 30, 31 or Law 32"
        m = CITE.match(text, own_kw.end() if own_kw else sep.end())
        if not m or int(m.group("article")) <= article:
            break
        count, article, end = count + 1, int(m.group("article")), m.end()
        if "," not in sep.group():  # a list word, not a comma
            listed = count
        if own_kw:  # what follows is that keyword's own list: read once, there
            break
    return listed


def _relative(m: re.Match[str], start: int, end: int, direction: str | None = None,
              des: str | None = None) -> Citation:
    des = des or m.group("des") or m.groupdict().get("num") or m.group("bracketed")
    return Citation(start, end, relative=des, direction=direction)


def _designation_span(m: re.Match[str]) -> tuple[int, int]:
    """(start, end) of the designation of a DESIGNATION or NEAR_DESIGNATION match: "(a)" with its brackets."""
    for group in ("des", "num", "bracketed"):
        if m.groupdict().get(group):
            return m.span(group)
    raise ValueError("a designation match without a designation")


def parse_zie(text: str, pos: int, p: Patterns) -> list[Citation]:
    """"zie B", "(maar zie B)", "zie E hieronder", "volgens (a)": the designation is the cite.

    The keyword may be written in any case, and so may the section letter: "(maar zie b)" cites
    section B, "zie c2 hierboven" C2. A lowercase letter is read only where it can be nothing
    else: not the pronoun in "volgens u", not the start of an abbreviation ("zie o.a."). A
    designation whose item letter is a capital ("zie C2A") is damage, reported as a malformed
    citation."""
    m = p.after_relative.match(text, pos)
    if not m:
        return []
    des = m.group("des")
    start = _designation_span(m)[0]
    d = p.direction.match(text, m.end())
    end = d.end() if d else m.end()
    if des and not LETTER_DESIGNATION.fullmatch(des):
        return [Citation(start, end, malformed=des)]
    if des and des[0].islower():
        if des in p.not_designations or ABBREVIATION_DOT.match(text, m.end("des")):
            return []
        des = des[0].upper() + des[1:]
    return [_relative(m, start, end, d.group("dir") if d else None, des)]


def _opens_sentence(text: str, start: int) -> bool:
    """Whether a sentence starts at `start`: at the text's start, or after a full stop, a colon or an opening
    bracket and spaces."""
    while start > 0 and text[start - 1].isspace():
        start -= 1
    return start == 0 or text[start - 1] in ".!?:(["


def parse_hier(text: str, pos: int, p: Patterns) -> list[Citation]:
    """"C2 hierboven", "(b) hieronder", "E following": the designation stands just before the direction
    word; so does a list of them, "2(c) or 2(d) above", "1 and 2 above", the direction word saying
    where each of them stands. A subsection's bare number is read only here, and not after a keyword
    ("Laws 50 and 51 above" are no subsections)."""
    m = BEFORE_HIER.search(text, max(0, pos - LOOK_BACK), pos)
    if not m:
        return []
    word = _matched(p.direction_word.match(text, pos)).group().lower()
    start = _designation_span(m)[0]
    if text[start:m.end()].strip().lower() in p.not_designations and _opens_sentence(text, start):
        return []  # "A preceding bid …": the word that opens the sentence, not section A
    found = [_relative(m, start, pos + len(word), word)]
    while m := p.list_before.search(text, max(0, start - LOOK_BACK), start):
        start, end = _designation_span(m)
        found.insert(0, _relative(m, start, end, word))
    if (found[0].relative or " ")[0].isdigit() and p.keyword_before.search(text, max(0, start - LOOK_BACK), start):
        return []
    return found


def parse_this_article(text: str, pos: int, p: Patterns) -> list[Citation]:
    """"dit artikel", "as this Law provides": the article the words stand in."""
    m = _matched(p.this_article.match(text, pos))
    return [Citation(pos, m.end(), this_article=True)]


def parse_letter_range(text: str, pos: int, p: Patterns) -> list[Citation]:
    """"de voorwaarden A t/m E": sections A to E of the current article (a range that starts at most
    ten characters before the "t/m" at `pos`)."""
    start = max(0, pos - 10)
    while start <= pos:  # as finditer from `start` would, without searching on past `pos`
        m = p.letter_range.match(text, start)
        if m and pos < m.end():
            return [Citation(m.start(), m.end(), relative=m.group("a"), range_end={"relative": m.group("b")})]
        start = m.end() if m else start + 1
    return []


def parse_bare(text: str, pos: int, p: Patterns) -> list[Citation]:
    """"a violation of C2", "E1", "C2(a)", "B2(a)(v)": a section and subsection (and item and subitem) of the
    current article."""
    m = BARE.match(text, pos)
    if not m:
        return []
    section, subsection, item, subitem = m.groups()
    return [Citation(pos, m.end(), relative=section + subsection + (item or "") + (f"({subitem})" if subitem else ""))]


PARSERS = {"keyword": parse_keyword_phrase, "relative": parse_zie, "direction": parse_hier,
           "range": parse_letter_range, "this": parse_this_article, "bare": parse_bare}


def find_citations(text: str, profile: lang.Profile) -> list[Citation]:
    """All citations in one text segment, in order, none overlapping (pass 1, then pass 2), read
    with the words of `profile`."""
    p = patterns(profile)
    found = []
    for phrase, cand in enumerate(p.candidate.finditer(text)):
        citations = PARSERS[cand.lastgroup or ""](text, cand.start(), p)
        for c in citations:
            c.phrase = phrase
        found += citations
    # The same words can be reached from two candidates ("zie E hieronder"): keep the
    # earliest, longest reading of each stretch of text.
    found.sort(key=lambda c: (c.start, -c.end))
    kept: list[Citation] = []
    for c in found:
        if kept and c.start < kept[-1].end:
            continue
        kept.append(c)
    return kept
