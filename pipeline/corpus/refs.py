"""Cross-references: find every citation in the corpus text and mark it up in place.

Reads: ctx.corpus (paragraph and note text), the optional sources/known-missing.toml.
Writes: <ref to="2017/47E1" status="ok">artikel 47E1</ref> around the citing words,
inside <p> and <note> (see the ref element in schema/corpus.rng). A node's <title> or
<heading> holds text only: its citations ("Lost Rights under Laws 16B and 72C") are not
marked up but read by references() (label_refs) as the node's own, so refs.json, the
graph and `check` have them.
Guarantees: the plain text of every paragraph and note is unchanged; a ref never
spans a note; running the stage twice gives the same tree.

Finding works in two passes, as in laws-africa/indigo: a cheap regex (the candidate
pattern) finds the words a citation can start or end with ("artikel", "art.", "zie",
"volgens", "hierboven", "hieronder", "t/m", "dit artikel"; in English "Law", "Laws",
"see", "above", "preceding", "below", "following", "hereunder", "this Law"); a careful parser then
reads the phrase at each such place (keywords, citation, lists, ranges, relative
designations) and either returns citations with their exact spans or nothing. The words
are the book's language's (core/lang/nl/rules.py for Dutch, en/rules.py for English,
picked by the manifest): the patterns are built from them once per language (_patterns).
A citation reaches down to a subitem: "Law 30B1(b)(i)" cites 2017/30B1b.i, and so does a
relative one, "B2(a)(v) above" (one citation, not "(v) above"). After one keyword a list of
bare numbers is read where it rises and ends with a list word: "Law 30, 31 or 32".

Resolution is edition-aware (a 2017 paragraph cites 2017) and relative citations
resolve against where they stand: "zie B", "C2 hierboven" against the current
article; "(a)", "(b) hieronder", "(a)(ii) above" against the current subsection, "(ii)
above" against the current item ("(i)", "(v)", "(x)" are letters too: the current item's
subitem inside an item, else an item, unless only the other's target exists); a bare number only
before a direction word, "2(c) or 2(d) above", "1 and 2 above", against the current
section; "dit artikel", "this Law" is the current article. The status of each target:
    ok             the target is in the corpus
    known-missing  listed (itself or an ancestor) in sources/known-missing.toml
    dangling       not in the corpus; kind article-absent or part-absent
    suspect        the phrase is damaged: a duplicated target, a malformed
                   citation, a relative citation with nothing to resolve against,
                   or "hierboven"/"hieronder" pointing the wrong way
"""
import bisect
import functools
import re
import tomllib
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from os import PathLike
from pathlib import Path
from types import SimpleNamespace
from typing import Any, NamedTuple, Protocol

from lxml import etree

from ..core import ids, lang, tree
from ..core.errors import LawbookError
from ..core.memo import Memo
from ..core.options import Options
from ..core.report import BuildLog
from ..core.tree import Element
from ..reading.decode import Line

# A citation's parts by level (article … subitem; None below the deepest): ids.parse_citation's, or those
# of a relative reading built here from them.
Parts = Mapping[str, Any]


class CorpusOf(Protocol):
    """What the references stage and the reading of references back ask of a build: the corpus stages'
    context (stages.CorpusContext) or an output's Job."""
    corpus: Element
    sources_dir: Path
    options: Options
    lines: dict[str, list[Line]]
    profile: lang.Profile
    log: BuildLog

KNOWN_MISSING = "known-missing.toml"
# Worst last: a ref with several targets carries the worst status among them.
STATUSES = ("ok", "known-missing", "dangling", "suspect")
KINDS = ("article-absent", "part-absent")
# A range wider than this is read as damage, not as a list of targets.
MAX_RANGE = 50

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


@lang.compiled
def _patterns(rules: lang.LanguageRules) -> SimpleNamespace:
    """The patterns of one language's citations, from its rules (see core/lang/nl/rules.py)."""
    keywords = [rules.ARTICLES, rules.ARTICLE, *rules.ARTICLE_SHORT]
    # A keyword ending in a letter must not run on into a word: "art" is not the start of "arts".
    keyword = "(?:" + "|".join(re.escape(w) + (r"(?![^\W\d_])" if w[-1].isalpha() else "")
                               for w in sorted(keywords, key=len, reverse=True)) + ")"
    directions = _either(_words(rules.ABOVE) + _words(rules.BELOW))
    return SimpleNamespace(
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


@dataclass
class Resolved:
    """A citation resolved: its targets and, per target, status and kind; reason for suspects."""
    targets: list[str]
    statuses: list[str] = field(default_factory=list)
    kinds: list[str | None] = field(default_factory=list)
    reason: str | None = None
    other: str | None = None  # the target of the other reading, when the words read two ways and both are in the corpus


def citation_parts(m: re.Match[str], article: str | None = None) -> dict[str, str | None]:
    """The parts by level (ids.LEVELS) of a CITE match, or of a PART match read in `article`."""
    return {"article": article or m.group("article"), "section": m.group("section"),
            "subsection": m.group("subsection"), "item": m.group("item") or m.group("pitem"),
            "subitem": m.group("subitem")}


# -- pass 2 parsers: each returns citations (possibly empty) read at one candidate --
def parse_keyword_phrase(text: str, pos: int, p: SimpleNamespace) -> list[Citation]:
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


def _rising_list(text: str, end: int, article: int, p: SimpleNamespace) -> int:
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


def parse_zie(text: str, pos: int, p: SimpleNamespace) -> list[Citation]:
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


def parse_hier(text: str, pos: int, p: SimpleNamespace) -> list[Citation]:
    """"C2 hierboven", "(b) hieronder", "E following": the designation stands just before the direction
    word; so does a list of them, "2(c) or 2(d) above", "1 and 2 above", the direction word saying
    where each of them stands. A subsection's bare number is read only here, and not after a keyword
    ("Laws 50 and 51 above" are no subsections)."""
    m = BEFORE_HIER.search(text, max(0, pos - LOOK_BACK), pos)
    if not m:
        return []
    word = p.direction_word.match(text, pos).group().lower()
    start = _designation_span(m)[0]
    if text[start:m.end()].strip().lower() in p.not_designations and _opens_sentence(text, start):
        return []  # "A preceding bid …": the word that opens the sentence, not section A
    found = [_relative(m, start, pos + len(word), word)]
    while m := p.list_before.search(text, max(0, start - LOOK_BACK), start):
        start, end = _designation_span(m)
        found.insert(0, _relative(m, start, end, word))
    if found[0].relative[0].isdigit() and p.keyword_before.search(text, max(0, start - LOOK_BACK), start):
        return []
    return found


def parse_this_article(text: str, pos: int, p: SimpleNamespace) -> list[Citation]:
    """"dit artikel", "as this Law provides": the article the words stand in."""
    m = p.this_article.match(text, pos)
    return [Citation(pos, m.end(), this_article=True)]


def parse_letter_range(text: str, pos: int, p: SimpleNamespace) -> list[Citation]:
    """"de voorwaarden A t/m E": sections A to E of the current article (a range that starts at most
    ten characters before the "t/m" at `pos`)."""
    start = max(0, pos - 10)
    while start <= pos:  # as finditer from `start` would, without searching on past `pos`
        m = p.letter_range.match(text, start)
        if m and pos < m.end():
            return [Citation(m.start(), m.end(), relative=m.group("a"), range_end={"relative": m.group("b")})]
        start = m.end() if m else start + 1
    return []


def parse_bare(text: str, pos: int, p: SimpleNamespace) -> list[Citation]:
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
    p = _patterns(profile)
    found = []
    for phrase, cand in enumerate(p.candidate.finditer(text)):
        citations = PARSERS[cand.lastgroup](text, cand.start(), p)
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


# -- resolution -----------------------------------------------------------------------
def context_of(container: Element) -> tuple[str, str, str]:
    """(edition, the node a paragraph or note stands in, the citing ID) for a <p>, a table's <cell> or a <note>.

    A commentary paragraph stands in the node the commentary is on; a note cites
    under its own ID but resolves in its paragraph's node.
    """
    citing = container.get("id") if container.tag == "note" else None
    for anc in container.iterancestors():
        if anc.tag in tree.NODE_TAGS:
            return _edition(anc), anc.get("id"), citing or anc.get("id")
        if anc.tag == "commentary":
            return _edition(anc), anc.get("on"), citing or anc.get("id")
        if anc.tag in ("definition", "introduction"):  # no part of a Law: a relative citation in it is suspect
            return _edition(anc), anc.get("id"), citing or anc.get("id")
    raise ValueError("a paragraph outside any node")


def _edition(el: Element) -> str | None:
    for anc in el.iterancestors("edition"):
        return anc.get("id")
    return None


def _expand_range(first: Parts, last: Parts) -> list[Parts] | None:
    """The citations from `first` to `last`, both parts dicts; None when not one level's run."""
    keys = [k for k in ids.LEVELS if first.get(k)]
    if keys != [k for k in ids.LEVELS if last.get(k)]:
        return None
    level = keys[-1]
    if any(first[k] != last[k] for k in keys[:-1]):
        return None
    a, b = first[level], last[level]
    name: Callable[[int], str]  # a number of the run as its level writes it
    if level == "subitem":  # roman numerals: "(i) to (iii)"
        lo, hi, name = ids.roman_value(a), ids.roman_value(b), ids.roman
    elif a.isdigit() and b.isdigit() and max(len(a), len(b)) <= ids.MOST_DIGITS:
        lo, hi, name = int(a), int(b), str
    elif a.isalpha() and b.isalpha() and len(a) == len(b) == 1:
        lo, hi, name = ord(a), ord(b), chr
    else:
        return None
    if not lo < hi <= lo + MAX_RANGE:
        return None
    return [dict(first, **{level: name(n)}) for n in range(lo, hi + 1)]


# The parts of a relative designation, as _relative parses it (the item in brackets or not, the subitem in brackets).
LETTER_PARTS = re.compile(rf"([A-Z])(?:(\d+)(?:(?:([a-z])|\(([a-z])\))(?:\(({ids.ROMAN})\))?)?)?")
NUMBER_PARTS = re.compile(rf"(\d+)(?:\(([a-z])\)(?:\(({ids.ROMAN})\))?)?")
BRACKETED_PARTS = re.compile(rf"\(([a-z]+)\)(?:\(({ids.ROMAN})\))?")


def _relative_parts(designation: str, node_id: str,
                    present: Callable[[Parts], bool] | None = None) -> tuple[Parts | None, str | None]:
    """Parts of a designation ("B", "C2", "B2(a)(v)", "(a)", "(a)(v)", "(ii)", "2(c)") read in the node `node_id`;
    (parts, problem). `present(parts)` says whether a reading's target is in the corpus: it decides what a
    bracketed "(i)", "(v)" or "(x)" names, which is both a letter and a numeral (see _bracketed_parts)."""
    _, cite = ids.split_id(node_id)
    here = ids.parse_citation(cite) if cite else None
    if here is None:
        return None, f"{node_id} is not a node a relative citation can be read in"
    if not (BRACKETED_PARTS if designation.startswith("(") else NUMBER_PARTS if designation[0].isdigit()
            else LETTER_PARTS).fullmatch(designation):  # "(A)", read in any case after "see"
        return None, f"'{designation}' is not a citation of an article or a part of one"
    if designation.startswith("("):
        return _bracketed_parts(designation, node_id, here, present)
    if designation[0].isdigit():
        if not here["section"]:
            return None, f"'{designation}' names a subsection, but {node_id} is not in a section"
        subsection, item, subitem = NUMBER_PARTS.fullmatch(designation).groups()
        return dict(here, subsection=subsection, item=item, subitem=subitem), None
    section, subsection, item, bracketed_item, subitem = LETTER_PARTS.fullmatch(designation).groups()
    return {"article": here["article"], "section": section, "subsection": subsection,
            "item": item or bracketed_item, "subitem": subitem}, None


def _bracketed_readings(letters: str, subitem: str | None, here: Parts) -> list[Parts]:
    """The parts a bracketed designation can name in the node `here`, the nearer first: "(a)", "(a)(v)" an item
    (and its subitem) of the current subsection, "(ii)" a subitem of the current item; "(i)", "(v)" and "(x)"
    are letters and numerals both, in an item its subitem first, elsewhere an item."""
    as_item = dict(here, item=letters, subitem=subitem) if len(letters) == 1 and here["subsection"] else None
    as_subitem = (dict(here, subitem=letters) if not subitem and here["item"] and re.fullmatch(ids.ROMAN, letters)
                  else None)
    return [r for r in ((as_subitem, as_item) if here["item"] else (as_item, as_subitem)) if r]


def _bracketed_parts(designation: str, node_id: str, here: Parts,
                    present: Callable[[Parts], bool] | None = None) -> tuple[Parts | None, str | None]:
    """(parts, problem) of a bracketed designation (see _bracketed_readings): the nearer reading, unless only the
    other one's target is in the corpus."""
    letters, subitem = BRACKETED_PARTS.fullmatch(designation).groups()
    readings = _bracketed_readings(letters, subitem, here)
    if not readings:
        return None, (f"'{designation}' names a subitem, but {node_id} is not in an item" if len(letters) > 1
                      else f"'{designation}' names an item, but {node_id} is not in a subsection")
    if present and len(readings) == 2 and not present(readings[0]) and present(readings[1]):
        return readings[1], None
    return readings[0], None


def other_reading(designation: str, edition: str, node_id: str, index: Collection[str], targets: list[str]) -> str | None:
    """The target of the reading not taken of a bracketed "(i)", "(v)" or "(x)", when it is in the corpus too:
    then the words read two ways (an item and a subitem), and the choice is uncertain."""
    m = BRACKETED_PARTS.fullmatch(designation)
    _, cite = ids.split_id(node_id)
    here = ids.parse_citation(cite) if cite else None
    if not m or here is None:
        return None
    for parts in _bracketed_readings(m.group(1), m.group(2), here):
        target = ids.make_id(edition, *(parts.get(k) for k in ids.LEVELS))
        if target not in targets and target in index:
            return target
    return None


def resolve(citation: Citation, edition: str, node_id: str,
            index: Collection[str] | None = None) -> tuple[list[str], str | None]:
    """The target IDs of one citation found in node `node_id` of `edition`, and a problem or None. With the
    `index` of the corpus's IDs, a designation that reads two ways takes the reading whose target is there."""
    if citation.malformed:
        return [], f"'{citation.malformed}' is not a citation of an article or a part of one"
    if citation.this_article:
        article = ids.article_of(node_id)
        return ([article], None) if article else ([], f"{node_id} is not a node of an article")
    if citation.relative:
        def present(parts: Parts) -> bool:
            return ids.make_id(edition, *(parts.get(k) for k in ids.LEVELS)) in index

        first, problem = _relative_parts(citation.relative, node_id, present if index else None)
        if problem:
            return [], problem
        last = None
        if citation.range_end:
            last, problem = _relative_parts(citation.range_end["relative"], node_id, present if index else None)
    else:
        first, last = citation.parts, citation.range_end
    runs = [first]
    if last:
        runs = _expand_range(first, last)
        if runs is None:
            return [], "the ends of the range are not two numbers of one level, in order"
    targets = []
    for parts in runs:
        cite = ids.make_citation(*(parts.get(k) for k in ids.LEVELS))
        if ids.parse_citation(cite) is None:
            return [], f"'{cite}' is not a citation of an article or a part of one"
        targets.append(ids.join(edition, cite))
    return targets, None


def classify(target: str, index: Collection[str], known: Collection[str]) -> tuple[str, str | None]:
    """(status, kind) of one well-formed target: ok, known-missing, or dangling with its kind."""
    if target in index:
        return "ok", None
    if covered(target, known):
        return "known-missing", None
    article = ids.article_of(target)
    return "dangling", "part-absent" if article in index else "article-absent"


def covered(target: str, known: Collection[str]) -> bool:
    """Whether `target` or one of its ancestors is listed as known missing."""
    edition, cite = ids.split_id(target)
    while cite:
        if ids.join(edition, cite) in known:
            return True
        cite = ids.parent_citation(cite)
    return False


def _order(index: Iterable[str]) -> dict[str, int]:
    return {node_id: n for n, node_id in enumerate(index)}


def resolve_phrase(text: str, citations: list[Citation], edition: str, node_id: str, index: Collection[str],
                   known: Collection[str], order: Mapping[str, int], profile: lang.Profile) -> list[Resolved]:
    """Resolve the citations found in one text segment; a target named twice in one phrase is suspect,
    and so is one that stands the other way than its direction word (of `profile`) says."""
    below_words = _patterns(profile).below
    out: list[Resolved] = []
    seen: dict[str, str] = {}
    for c in citations:
        seen = seen if out and c.phrase == citations[len(out) - 1].phrase else {}
        targets, problem = resolve(c, edition, node_id, index)
        r = Resolved(targets)
        if problem:
            r.reason = problem
        elif c.relative and c.relative.startswith("("):
            r.other = other_reading(c.relative, edition, node_id, index, targets)
        for t in targets:
            status, kind = classify(t, index, known)
            r.statuses.append(status)
            r.kinds.append(kind)
        if not problem and c.direction and len(targets) == 1 and targets[0] in order and node_id in order:
            below = stands_below(order, targets[0], node_id)
            if below != (c.direction in below_words):
                r.reason = f"'{c.direction}' but {targets[0]} stands {'below' if below else 'above'} {node_id}"
        dup = [t for t in targets if t in seen]
        if dup and not r.reason:
            r.reason = f"duplicated target: {dup[0]} is already cited by '{seen[dup[0]]}' just before"
        out.append(r)
        for t in targets:
            seen.setdefault(t, text[c.start:c.end])
    return out


# -- the stage --------------------------------------------------------------------
def load_known_missing(sources_dir: str | PathLike[str],
                       path: str | PathLike[str] | None = None) -> dict[str, str]:
    """Reads: sources/known-missing.toml (or `path`). Returns {target ID: reason}; {} when there is none.

    The format (see docs/references.md):
        [[missing]]
        id = "2017/54"
        reason = "article 54 is not in the sources"
    An article's ID covers all its parts.
    """
    given = Path(path) if path else Path(sources_dir) / KNOWN_MISSING
    if not given.is_file():
        if given.name != KNOWN_MISSING or given.parent != Path(sources_dir):
            raise LawbookError("the known-missing file does not exist", file=str(given),
                               fix="give an existing file, or leave the option out")
        return {}
    try:
        data = tomllib.loads(given.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as e:
        raise LawbookError(f"not valid TOML ({e})", file=str(given), line=getattr(e, "lineno", None),
                           fix="correct the TOML syntax at that line") from None
    except UnicodeDecodeError:
        raise LawbookError("not UTF-8", file=str(given), fix=f"save {given.name} as UTF-8") from None
    entries = data.get("missing", [])
    unknown = sorted(set(data) - {"missing"})
    if unknown or not isinstance(entries, list):
        raise LawbookError(f"unexpected key {unknown[0] if unknown else 'missing'!r}", file=str(given),
                           fix='list each target as a [[missing]] table with id = "2017/54" and an optional reason')
    known: dict[str, str] = {}
    for n, entry in enumerate(entries, 1):
        target = entry.get("id") if isinstance(entry, dict) else None
        if not isinstance(target, str) or not ids.is_well_formed(target):
            raise LawbookError(f"[[missing]] number {n} has no valid id ({target!r})", file=str(given),
                               fix='give an edition and a citation, e.g. id = "2017/54" or "2017/47E2"')
        known[target] = str(entry.get("reason", ""))
    return known


def _segments(container: Element) -> Iterator[tuple[Element, str]]:
    """(owner, attribute) of every text run of a <p> or <note> outside its notes: the text, then tails."""
    yield container, "text"
    for child in container:
        yield child, "tail"


def _wrap(owner: Element, attr: str, spans: list[tuple[int, int, dict[str, str]]]) -> None:
    """Replace the text run `owner.<attr>` by text and <ref> elements; `spans` are (start, end, attrib),
    sorted and not overlapping. Inserted right to left so the earlier offsets stay valid."""
    text = getattr(owner, attr)
    if attr == "text":
        parent, index = owner, 0
    else:
        parent, index = owner.getparent(), owner.getparent().index(owner) + 1
    stop = len(text)  # each piece is cut from the whole text once: cutting it shorter each time was quadratic
    for start, end, attrib in reversed(spans):
        ref = etree.Element("ref", attrib)
        ref.text = text[start:end]
        ref.tail = text[end:stop] or None
        parent.insert(index, ref)
        stop = start
    setattr(owner, attr, text[:stop] or None)


def mark_container(container: Element, index: Collection[str], known: Collection[str], order: Mapping[str, int],
                   profile: lang.Profile, log: BuildLog | None = None) -> int:
    """Find, resolve and mark up the citations in one <p> or <note>, read with the words of `profile`; a
    citation that reads two ways is reported as uncertain in `log`. Returns the number of refs.

    What one container's text gives (_markup()) is taken from the memo of this process (markups()) where the
    same text runs were read in the same node before and this corpus answers what that reading asked (is an
    ID in the corpus, is it known missing, does one node stand below another) as it was answered then."""
    edition, node_id, _ = context_of(container)
    segments = list(_segments(container))
    texts = tuple(getattr(owner, attr) for owner, attr in segments)
    memo = markups(profile)
    key = (edition, node_id, texts)
    known_markup = memo.get(key)
    if known_markup is None or not known_markup.holds(index, known, order):
        known_markup = _markup(texts, edition, node_id, index, known, order, profile)
        if known_markup.answers is not None:
            memo.put(key, known_markup)
    else:
        memo.reused += 1
    count = 0
    for (owner, attr), spans in zip(segments, known_markup.spans):
        if spans:
            _wrap(owner, attr, [(start, end, dict(attrib)) for start, end, attrib in spans])
            count += len(spans)
    if log is not None:
        for message in known_markup.uncertain:
            file, line = tree.first_line(tree.provenance(container) or container)
            log.add("inference", file, line, message, node=node_id)
    return count


class _Asked(Collection[str]):
    """A set of IDs as the reading of one container asks it: each answer kept in `answers` (whether the set
    is empty under NONEMPTY)."""

    def __init__(self, ids: Collection[str], answers: dict[object, bool], corpus: "AskedCorpus") -> None:
        self.ids, self.answers, self.corpus = ids, answers, corpus

    def __contains__(self, node_id: object) -> bool:
        answer = self.answers.get(node_id)
        if answer is None:
            answer = self.answers[node_id] = node_id in self.ids
        return answer

    def __bool__(self) -> bool:  # (resolve() asks whether there is an index at all)
        answer = self.answers.get(NONEMPTY)
        if answer is None:
            answer = self.answers[NONEMPTY] = bool(self.ids)
        return answer

    def __iter__(self) -> Iterator[str]:
        self.corpus.whole = True
        return iter(self.ids)

    def __len__(self) -> int:
        self.corpus.whole = True
        return len(self.ids)


# The key of the answer to "is the set empty": no ID (an ID holds no control character).
NONEMPTY = "\x00nonempty"


def _answer(ids: Collection[str], question: object) -> bool:
    return bool(ids) if question == NONEMPTY else question in ids


class _AskedOrder(Mapping[str, int]):
    """The order of the corpus's nodes as the reading of one container asks it: whether a node is in it, and
    whether one stands below another (stands_below), never a position (which every node above moves)."""

    def __init__(self, order: Mapping[str, int], corpus: "AskedCorpus") -> None:
        self.order, self.corpus = order, corpus

    def __contains__(self, node_id: object) -> bool:
        answer = self.corpus.in_order.get(node_id)
        if answer is None:
            answer = self.corpus.in_order[node_id] = node_id in self.order
        return answer

    def below(self, target: str, node_id: str) -> bool:
        answer = self.corpus.below[(target, node_id)] = self.order[target] > self.order[node_id]
        return answer

    def __getitem__(self, node_id: str) -> int:
        self.corpus.whole = True
        return self.order[node_id]

    def __iter__(self) -> Iterator[str]:
        self.corpus.whole = True
        return iter(self.order)

    def __len__(self) -> int:
        self.corpus.whole = True
        return len(self.order)


class AskedCorpus:
    """The corpus's IDs, the known-missing list and the nodes' order as one container's reading asks them,
    every answer kept (Markup.holds compares them with another build's)."""

    def __init__(self, index: Collection[str], known: Collection[str], order: Mapping[str, int]) -> None:
        self.ids: dict[object, bool] = {}
        self.missing: dict[object, bool] = {}
        self.in_order: dict[object, bool] = {}
        self.below: dict[tuple[str, str], bool] = {}
        self.whole = False  # read whole: the answers cannot be compared, the mark-up is not kept
        self.index = _Asked(index, self.ids, self)
        self.known = _Asked(known, self.missing, self)
        self.order = _AskedOrder(order, self)

    def answers(self) -> "Answers | None":
        """The answers given (as the memo keeps them: Markup), or None where the corpus was read whole."""
        if self.whole:
            return None
        return (tuple(self.ids.items()), tuple(self.missing.items()), tuple(self.in_order.items()),
                tuple(self.below.items()))


# The answers a reading was given: whether each ID asked is in the corpus, whether each is known missing,
# whether each is in the order of the nodes, whether one node stands below another.
Answers = tuple[tuple[tuple[object, bool], ...], tuple[tuple[object, bool], ...], tuple[tuple[object, bool], ...],
                tuple[tuple[tuple[str, str], bool], ...]]
# The answers of a reading that asked nothing (no text run cites anything).
NO_QUESTIONS: Answers = ((), (), (), ())


def stands_below(order: Mapping[str, int], target: str, node_id: str) -> bool:
    """Whether `target` stands below `node_id` in the corpus (both in `order`)."""
    if isinstance(order, _AskedOrder):
        return order.below(target, node_id)
    return order[target] > order[node_id]


class Markup(NamedTuple):
    """What the reading of one container's text gave (mark_container): the refs of each text run, (start,
    end, attributes), the messages of citations that read two ways, and the answers the corpus gave, as
    AskedCorpus.answers() (None where it was read whole: then the mark-up is not kept).
    Tuples all through: a memo's entries live as long as the process, and a tuple of strings and numbers is
    no work for the garbage collector, which walks every list, dict and object at each full collection."""
    spans: tuple[tuple[tuple[int, int, tuple[tuple[str, str], ...]], ...], ...]
    uncertain: tuple[str, ...]
    answers: Answers | None

    def holds(self, index: Collection[str], known: Collection[str], order: Mapping[str, int]) -> bool:
        """Whether this corpus answers every question the reading asked as it was answered then."""
        if self.answers is None:
            return False
        ids_asked, missing, in_order, below = self.answers
        return (all(_answer(index, q) == answer for q, answer in ids_asked)
                and all(_answer(known, q) == answer for q, answer in missing)
                and all((q in order) == answer for q, answer in in_order)
                and all((order[target] > order[node_id]) == answer for (target, node_id), answer in below))


def _markup(texts: tuple[str | None, ...], edition: str, node_id: str, index: Collection[str], known: Collection[str],
            order: Mapping[str, int], profile: lang.Profile) -> Markup:
    """The refs of each text run of one container in node `node_id` (mark_container), the corpus asked
    through an AskedCorpus (made only where a text run cites something), and the messages of the citations
    that read two ways."""
    spans: list[tuple[tuple[int, int, tuple[tuple[str, str], ...]], ...]] = []
    uncertain: list[str] = []
    asked: AskedCorpus | None = None
    for text in texts:
        citations = find_citations(text, profile) if text else []
        if not text or not citations:
            spans.append(())
            continue
        if asked is None:
            asked = AskedCorpus(index, known, order)
        run = []
        resolved = resolve_phrase(text, citations, edition, node_id, asked.index, asked.known, asked.order, profile)
        for c, r in zip(citations, resolved):
            run.append((c.start, c.end, tuple(ref_attributes(r, text[c.start:c.end]).items())))
            if r.other:
                uncertain.append(f"'{text[c.start:c.end]}' in {node_id} is uncertain: read as "
                                 f"{' '.join(r.targets)}, but {r.other} is in the corpus too")
        spans.append(tuple(run))
    return Markup(tuple(spans), tuple(uncertain), NO_QUESTIONS if asked is None else asked.answers())


@lang.per_profile
def markups(profile: lang.Profile) -> Memo[Markup]:
    """The containers read in this process, by their edition, node and text runs."""
    return Memo("references", size=1 << 16)


def ref_attributes(r: Resolved, words: str) -> dict[str, str]:
    """The attributes of one <ref>: to, status, and kind (dangling) or reason (suspect)."""
    attrib = {"to": " ".join(r.targets) if r.targets else "", "status": "suspect"}
    if r.reason:
        attrib["reason"] = r.reason
        return attrib
    attrib["status"] = max(r.statuses, key=STATUSES.index)
    if attrib["status"] == "dangling":
        attrib["kind"] = " ".join(k for k in KINDS if k in r.kinds)
    return attrib


def find_references(ctx: CorpusOf) -> None:
    """Reads: ctx.corpus (text), known-missing.toml, the book's language (ctx.profile). Writes:
    <ref to=… status=…> around the citing words.

    Existing refs are removed first, so the stage can run again on the same tree.
    """
    known = load_known_missing(ctx.sources_dir, ctx.options.known_missing)
    etree.strip_tags(ctx.corpus, "ref")
    index = {el.get("id") for el in ctx.corpus.iter(*tree.NODE_TAGS)}
    order = _order([el.get("id") for el in ctx.corpus.iter(*tree.NODE_TAGS)])
    for container in list(ctx.corpus.iter(*CONTAINERS)):
        mark_container(container, index, known, order, ctx.profile, ctx.log)


# -- reading the refs back: for the graph and `check` ------------------------------
@dataclass
class Reference:
    """One target of one <ref>, with where it came from."""
    source_id: str  # the citing ID: a node, a note or a commentary
    target: str
    words: str
    status: str
    kind: str | None = None
    reason: str | None = None
    locations: list[str] = field(default_factory=list)  # "file:line" for every source that has the words

    def to_json(self) -> dict[str, object]:
        out: dict[str, object] = {"from": self.source_id, "to": self.target, "words": self.words, "status": self.status,
               "source": self.locations[0] if self.locations else ""}
        if self.kind:
            out["kind"] = self.kind
        if self.reason:
            out["reason"] = self.reason
        if len(self.locations) > 1:
            out["sources"] = self.locations
        return out


def references(ctx: CorpusOf, known: Collection[str] | None = None) -> list[Reference]:
    """Every target of every <ref> in ctx.corpus, in document order, with status and source lines.

    Per-target status is recomputed from the tree (a range can hold present and
    absent articles); a suspect ref makes each of its targets suspect.
    """
    if known is None:
        known = load_known_missing(ctx.sources_dir, ctx.options.known_missing)
    index = {el.get("id") for el in ctx.corpus.iter(*tree.NODE_TAGS)}
    lines = {(line.file, line.num): line.text for lines in ctx.lines.values() for line in lines}
    order: dict[str, int] | None = None
    out: list[Reference] = []
    for container in ctx.corpus.iter(*CONTAINERS, *LABEL_TAGS):
        if container.tag in LABEL_TAGS:
            if container.getparent().tag not in tree.NODE_TAGS:
                continue
            if order is None:
                order = _order([el.get("id") for el in ctx.corpus.iter(*tree.NODE_TAGS)])
            refs: list = label_refs(container, index, known, order, ctx.profile)  # read like <ref>s: text, get
        else:
            refs = [r for r in container if r.tag == "ref"]
        if not refs:
            continue
        _, _, citing = context_of(container)
        seen_words: dict[str, int] = {}
        wordings = {ref.text or "" for ref in refs}
        # Each source's text is searched once per container for all its refs' words, not once per ref.
        found = [(name, nums, starts, find_wordings(text, wordings))
                 for name, nums, text, starts in source_texts(container, lines)]
        for ref in refs:
            words = ref.text or ""
            occurrence = seen_words.get(words, 0)
            seen_words[words] = occurrence + 1
            where = locate(found, words, occurrence)
            targets = (ref.get("to") or "").split()
            if ref.get("status") == "suspect":
                out += [Reference(citing, t, words, "suspect", reason=ref.get("reason"), locations=where)
                        for t in targets or [""]]
                continue
            for t in targets:
                status, kind = classify(t, index, known)
                out.append(Reference(citing, t, words, status, kind, locations=where))
    return out


# The elements that name a node: they hold text only (schema/corpus.rng), so their citations are read here,
# not marked up, and count as the node's own references.
LABEL_TAGS = ("title", "heading")
# The elements whose text is read for citations and marked up with <ref>: paragraphs, a table's cells (each
# on its own: no citation runs from one cell into the next) and notes.
CONTAINERS = ("p", "cell", "note")


def label_refs(label: Element, index: Collection[str], known: Collection[str], order: Mapping[str, int],
               profile: lang.Profile) -> list[SimpleNamespace]:
    """The references of a node's title or heading ("Possible Lack of Recourse to Laws 26B and 72C"), read as
    mark_container reads a paragraph, each with the words and the attributes a <ref> would have (`text`, `get`)."""
    text = label.text or ""
    citations = find_citations(text, profile) if text else []
    if not citations:
        return []
    edition, node_id, _ = context_of(label)
    resolved = resolve_phrase(text, citations, edition, node_id, index, known, order, profile)
    return [SimpleNamespace(text=text[c.start:c.end], get=ref_attributes(r, text[c.start:c.end]).get)
            for c, r in zip(citations, resolved)]


def source_texts(container: Element, lines: Mapping[tuple[str, int], str]) -> list[tuple[str, list[int], str, list[int]]]:
    """Per source of `container` (sorted by name): (name, its line numbers, their text joined by
    newlines, where each line starts in that text)."""
    out: list[tuple[str, list[int], str, list[int]]] = []
    holder = tree.provenance(container)  # a table cell's: its row's
    for name, found in sorted(tree.parse_sources(holder.get("sources") if holder is not None else None).items()):
        nums = sorted(found)
        parts: list[str] = []
        starts: list[int] = []
        length = 0
        for n in nums:
            starts.append(length)
            part = lines.get((name, n), "") + "\n"
            parts.append(part)
            length += len(part)
        out.append((name, nums, "".join(parts), starts))
    return out


# Up to this many different wordings in a paragraph, each is searched for in its source lines.
FEW_WORDINGS = 8


@functools.lru_cache(maxsize=4096)
def _words_pattern(words: str) -> re.Pattern[str]:
    """The words with any whitespace between them, as whole words."""
    return re.compile(r"(?<!\w)" + r"\s+".join(map(re.escape, words.split())) + r"(?!\w)")


def _is_word(ch: str) -> bool:
    return ch.isalnum() or ch == "_"  # what \w matches


@functools.lru_cache(maxsize=64)
def _anchors(first_chars: Iterable[str], longest: int) -> re.Pattern[str]:
    """Where a wording can start (not after a word character, at one of `first_chars`), capturing up
    to `longest` + 1 characters of the rest of the token there."""
    chars = "".join(re.escape(c) for c in sorted(first_chars))
    return re.compile(rf"(?<!\w)(?=([{chars}]\S{{0,{longest}}}))")


def find_wordings(text: str, wordings: Collection[str]) -> dict[str, list[int]]:
    """{wording: the start of each match of _words_pattern(wording) in `text`}, as finditer gives them
    (left to right, not overlapping). A few wordings are each searched for (the common paragraph, and
    the fastest there); more are found in one pass (find_many_wordings), so the cost stays linear in
    the text however many references a paragraph holds."""
    if len(wordings) <= FEW_WORDINGS:
        return {w: [m.start() for m in _words_pattern(w).finditer(text)] for w in wordings}
    return find_many_wordings(text, wordings)


def find_many_wordings(text: str, wordings: Collection[str]) -> dict[str, list[int]]:
    """find_wordings for any number of wordings, in one pass over `text`.

    A match is the first word at the end of a token (where nothing of a word stands before it), the
    middle words as whole tokens, the last word at the start of a token (where nothing of a word
    follows). So every place a wording can start is looked at once, and what stands there is looked
    up, instead of searching the whole text for each wording: a paragraph with 20,000 references to
    20,000 different articles is read once, not 20,000 times."""
    wanted: dict[tuple[str, ...], list[str]] = {}  # a wording's words -> the wordings with those words
    odd: list[str] = []
    for wording in wordings:
        words = tuple(wording.split())
        (wanted.setdefault(words, []) if words else odd).append(wording)
    out: dict[str, list[int]] = {w: [] for w in wordings}
    out.update({w: [m.start() for m in _words_pattern(w).finditer(text)] for w in odd})  # no words at all
    if not wanted:
        return out
    singles = {words[0] for words in wanted if len(words) == 1}
    single_lengths = sorted({len(w) for w in singles})
    firsts: dict[str, dict[int, set[int]]] = {}  # first word of a longer wording -> {number of words: {length of the last word}}
    for words in wanted:
        if len(words) > 1:
            firsts.setdefault(words[0], {}).setdefault(len(words), set()).add(len(words[-1]))
    longest = max(len(words[0]) for words in wanted)
    tokens = [m.span() for m in re.finditer(r"\S+", text)] if firsts else []
    token_starts = [a for a, _ in tokens]
    spans: dict[tuple[str, ...], list[tuple[int, int]]] = {}  # words -> [(start, end)] of every match, overlapping ones included

    def ends_word(e: int) -> bool:
        return e == len(text) or not _is_word(text[e])

    for m in _anchors(frozenset(words[0][0] for words in wanted), longest).finditer(text):
        p, rest = m.start(), m.group(1)
        for n in single_lengths:
            if n > len(rest):
                break
            if rest[:n] in singles and ends_word(p + n):
                spans.setdefault((rest[:n],), []).append((p, p + n))
        if rest not in firsts or not (p + len(rest) == len(text) or text[p + len(rest)].isspace()):
            continue  # a longer wording's first word is the whole rest of its token
        a = bisect.bisect_right(token_starts, p) - 1
        for count, last_lengths in firsts[rest].items():
            if a + count > len(tokens):
                continue
            middle = tuple(text[s:e] for s, e in tokens[a + 1:a + count - 1])
            last_start, last_end = tokens[a + count - 1]
            for n in last_lengths:
                if n <= last_end - last_start and ends_word(last_start + n):
                    words = (rest,) + middle + (text[last_start:last_start + n],)
                    if words in wanted:
                        spans.setdefault(words, []).append((p, last_start + n))
    for words, found in spans.items():
        starts: list[int] = []
        end = 0
        for s, e in found:  # left to right, each match after the one before, as finditer
            if s >= end:
                starts.append(s)
                end = e
        for wording in wanted[words]:
            out[wording] = starts
    return out


def locate(found: list[tuple[str, list[int], list[int], dict[str, list[int]]]], words: str,
           occurrence: int) -> list[str]:
    """"file:line" in each source where the `occurrence`-th `words` of a container stand; `found` is
    (name, line numbers, where each line starts, find_wordings of its text) per source of the container.

    Matching is on the words with any whitespace between them (a printed line may
    break inside), so repairs elsewhere in the line do not matter. When the words
    are not found (a repair inside them) the container's first line is given.
    """
    out = []
    for name, nums, starts, matches in found:
        positions = matches.get(words)
        line = nums[0]
        if positions:
            pos = positions[min(occurrence, len(positions) - 1)]
            line = nums[bisect.bisect_right(starts, pos) - 1]
        out.append(f"{name}:{line}")
    return out
