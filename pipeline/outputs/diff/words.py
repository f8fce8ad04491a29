"""Words and sentences of law text, and the word-level diff between two texts.

A paragraph becomes a list of Tokens: words and punctuation marks, each with the
whitespace that follows it, and one token for each note marker. Diffs align
token keys (the word without its whitespace) with their accents removed (fold), so
a change of accents or spacing is never a change of the law's words: where two
aligned tokens differ only so, the diff says "form" (accents or spacing only,
docs/diff.md, "Accents and spacing").
"""
import re
import unicodedata
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from difflib import SequenceMatcher
from typing import Any

from ...core.lang.nl.words import ABBREVIATIONS as DUTCH_ABBREVIATIONS
from ...core.tree import Element

NOTE = "\x00note"  # key of a note marker: notes align by place, their texts are compared apart
PARA = "\x00para"  # key of a paragraph break within one node's text

# A letter of a word: a word character or a combining mark (a decomposed "é", e and U+0301, is one letter).
_LETTER = r"[\w\u0300-\u036f\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f]"
WORD_OR_MARK = re.compile(rf"({_LETTER}+(?:[-'’/]{_LETTER}+)*|[^\w\s])(\s*)")
# Abbreviations that end in a full stop without ending the sentence ("art. 58", "bijv. Noord"): the
# book's language's. The comparison is not given a profile yet, so these are Dutch, the default's.
ABBREVIATIONS = frozenset(DUTCH_ABBREVIATIONS)
SENTENCE_END = {".", "?", "!"}
CLOSERS = {")", "]", "'", '"', "’", "”"}
OPENERS = {"(", "[", "'", '"', "‘", "“"}

# One step of a diff: (tag, i1, i2, j1, j2), as difflib's opcodes (tag: equal, form, replace, delete, insert).
Opcode = tuple[str, int, int, int, int]


@dataclass(slots=True)  # slots: a book's diff makes a few hundred thousand of these
class Token:
    key: str  # what is compared: the word or mark, NOTE or PARA
    text: str  # what is shown: the word and the whitespace after it
    note: Element | None = None  # the <note> element for a NOTE token
    sentence: int = -1  # index of the sentence the token belongs to, within its node's text
    paragraph: int = 0

    @property
    def is_word(self) -> bool:
        return self.key[:1].isalnum()


def fold(text: str) -> str:
    """`text` without its accents: Unicode NFD, every combining mark left out ("Één" → "Een"). What the
    comparison aligns and matches on; what it shows is always the text as written."""
    if text.isascii():
        return text
    return "".join(c for c in unicodedata.normalize("NFD", text) if not unicodedata.combining(c))


# How two texts differ (classify): not at all, in accents or spacing only, or in their words.
SAME, FORM, CONTENT = "same", "accents-spacing", "content"


def _tokens_of(text: str) -> list[tuple[str, bool]]:
    """(word or mark, whether a space follows it) of a plain string, as tokenise() reads it; the text's
    last token is followed by nothing."""
    found = [(word, bool(space)) for word, space in WORD_OR_MARK.findall(text)]
    return found[:-1] + [(found[-1][0], False)] if found else []


def classify(old: str, new: str) -> str:
    """How plain text `new` differs from `old`, read as the word diff reads them (docs/diff.md, "Accents
    and spacing"): SAME when their words and marks and the spaces between them are equal (a run of any
    whitespace is one space; whitespace at either end is nothing); FORM ("accents or spacing only") when
    they are equal once accents are removed (fold: NFD, combining marks dropped) and the spaces between
    words and marks are not compared ("Één" → "Een", "art.58" → "art. 58"); CONTENT otherwise (a word
    split or joined, "speel periode" → "speelperiode", is a change of words)."""
    if old == new or _tokens_of(old) == _tokens_of(new):
        return SAME
    folded = [[word for word, _ in WORD_OR_MARK.findall(fold(text))] for text in (old, new)]
    return FORM if folded[0] == folded[1] else CONTENT


def worst(kinds: Iterable[str]) -> str:
    """The gravest of several classify() results: CONTENT over FORM over SAME."""
    kinds = set(kinds)
    return CONTENT if CONTENT in kinds else FORM if FORM in kinds else SAME


def tokenise(text: str) -> list[Token]:
    """Words and marks of a plain string, each carrying the whitespace after it (runs become one space)."""
    return [Token(word, word + " " if space else word) for word, space in WORD_OR_MARK.findall(text)]


def paragraph_tokens(p: Element) -> list[Token]:
    """Tokens of a <p> (or <note>): the running text with <ref> words flattened and a NOTE token where each
    note stands. Reads the element only."""
    tokens: list[Token] = []
    for text, note in _running_text(p):
        if note is not None:
            tokens.append(Token(NOTE, "", note=note))
            continue
        assert text is not None  # (a run without a note is text)
        if text[:1].isspace() and tokens and not tokens[-1].text.endswith(" "):
            tokens[-1].text += " "
        tokens.extend(tokenise(text))
    return tokens


def paragraph_words(p: Element) -> list[str]:
    """words(paragraph_tokens(p)), without making the tokens: matching reads the words of every
    paragraph of both editions, and keeping (or making twice) their tokens cost time and memory."""
    return [fold(word).lower() for text, note in _running_text(p) if note is None and text is not None
            for word, _ in WORD_OR_MARK.findall(text) if word[:1].isalnum()]


def _running_text(el: Element) -> Iterator[tuple[str, None] | tuple[None, Element]]:
    """(text, None) for each non-empty text run of `el` in reading order, <ref> and other inline markup
    flattened, and (None, note) where a <note> stands (its text is not running text).
    A generator, not a recursive closure: a closure that calls itself is a reference cycle, which
    kept every paragraph's tokens alive until the garbage collector ran."""
    if el.text:
        yield el.text, None
    for child in el:
        if child.tag == "note":
            yield None, child
        else:
            yield from _running_text(child)
        if child.tail:
            yield child.tail, None


def node_text_tokens(paragraphs: Iterable[Element]) -> list[Token]:
    """Tokens of a node's own paragraphs, PARA between them, with sentence and paragraph indices set."""
    tokens: list[Token] = []
    for n, p in enumerate(paragraphs):
        if n:
            tokens.append(Token(PARA, "", paragraph=n))
        for t in paragraph_tokens(p):
            t.paragraph = n
            tokens.append(t)
    mark_sentences(tokens)
    return tokens


def mark_sentences(tokens: list[Token]) -> list[Token]:
    """Give every token its sentence index. A sentence ends at . ? or ! (with any closing bracket, quote
    or note marker after it) when the next word starts with a capital, unless the word before the stop
    is a common abbreviation; a paragraph break always ends one. A lowercase word after a stop
    ("art. 58", "1. zijn partner") continues the sentence, as Dutch law text is written."""
    starts: set[int] = set()
    for i, t in enumerate(tokens):
        if t.key == PARA:
            starts.add(i + 1)
        elif t.key in SENTENCE_END and not _is_abbreviation(tokens, i):
            j = i + 1
            while j < len(tokens) and (tokens[j].key in CLOSERS or tokens[j].key == NOTE):
                j += 1
            k = j
            while k < len(tokens) and tokens[k].key in OPENERS:
                k += 1
            if k < len(tokens) and tokens[k].key[:1].isupper():
                starts.add(j)
    sentence = 0
    for i, t in enumerate(tokens):
        if i in starts and i:
            sentence += 1
        t.sentence = sentence
    return tokens


def _is_abbreviation(tokens: Sequence[Token], i: int) -> bool:
    """Whether the full stop at i closes an abbreviation rather than a sentence."""
    if tokens[i].key != "." or i == 0:
        return False
    prev = tokens[i - 1].key
    return prev.lower() in ABBREVIATIONS and not tokens[i - 1].text.endswith(" ")


def sentences(text: str) -> list[str]:
    """A plain string split into its sentences (by the rule of mark_sentences), whitespace normalised."""
    tokens = mark_sentences(tokenise(text))
    out: dict[int, list[str]] = {}
    for t in tokens:
        out.setdefault(t.sentence, []).append(t.text)
    return ["".join(parts).strip() for _, parts in sorted(out.items())]


def words(tokens: Iterable[Token]) -> list[str]:
    """The comparable words of tokens: lowercased, accents removed (fold), without punctuation, notes or
    paragraph breaks."""
    return [fold(t.key).lower() for t in tokens if t.is_word]


def similarity(a: Sequence[str], b: Sequence[str], floor: float = 0.0) -> float:
    """difflib ratio of two word lists (2·matching words / all words): 1.0 identical, 0.0 nothing shared.
    Below `floor` the exact value does not matter: the cheap upper bounds answer and the full comparison
    is skipped, which keeps matching a whole book fast."""
    if a == b:
        return 1.0  # what the ratio gives, without comparing
    matcher = SequenceMatcher(None, a, b, autojunk=False)
    bound = matcher.real_quick_ratio()
    if bound >= floor:
        bound = matcher.quick_ratio()
    return matcher.ratio() if bound >= floor else bound


# Equal runs this short between two changes are shown as part of the change: "voor het begin van de
# speelperiode" → "tijdens het bieden" reads as one replacement, not three around a shared "het".
SHORT_EQUAL = 2


def diff_tokens(old: list[Token], new: list[Token]) -> list[Opcode]:
    """Word-level opcodes (tag, i1, i2, j1, j2) turning `old` into `new`; tag is equal, form, replace,
    delete or insert. Tokens are aligned by their keys without accents (fold); `form` is a run of aligned
    tokens that differ only in accents or in the space between two of them ("Één" → "Een", "art.58" →
    "art. 58"), and a change whose words agree once accents are removed (a lone combining mark in a
    decomposed text). Deterministic; short equal runs between changes are folded into one replacement,
    and notes and paragraph breaks never are (they keep their places)."""
    old_keys, new_keys = [fold(t.key) for t in old], [fold(t.key) for t in new]
    if old_keys == new_keys:
        ops: list[list[Any]] = [["equal", 0, len(old), 0, len(new)]] if old else []  # as difflib gives it, without matching
    else:
        ops = _merged(old, SequenceMatcher(None, old_keys, new_keys, autojunk=False).get_opcodes())
    out: list[Opcode] = []
    for op in ops:
        if op[0] == "equal":
            out += _forms(old, new, *op[1:])
        elif [k for k in old_keys[op[1]:op[2]] if k] == [k for k in new_keys[op[3]:op[4]] if k]:
            out.append(("form", *op[1:]))
        else:
            out.append(tuple(op))
    return out


def _merged(old: list[Token], opcodes: Sequence[tuple[str, int, int, int, int]]) -> list[list[Any]]:
    """difflib's opcodes with short equal runs between changes folded into one replacement."""
    ops: list[list[Any]] = [list(op) for op in opcodes]
    merged: list[list[Any]] = []
    for k, op in enumerate(ops):
        tag, i1, i2, j1, j2 = op
        if (tag == "equal" and 0 < k < len(ops) - 1 and i2 - i1 <= SHORT_EQUAL
                and not any(t.key in (NOTE, PARA) for t in old[i1:i2])):
            tag = "replace"
        if merged and tag != "equal" and merged[-1][0] != "equal":
            prev = merged[-1]
            prev[2], prev[4] = i2, j2
            prev[0] = "replace" if (prev[2] > prev[1] and prev[4] > prev[3]) else prev[0]
            continue
        merged.append([tag, i1, i2, j1, j2])
    for op in merged:
        if op[0] != "equal":
            op[0] = "replace" if op[2] > op[1] and op[4] > op[3] else ("delete" if op[2] > op[1] else "insert")
    return merged


def _forms(old: list[Token], new: list[Token], i1: int, i2: int, j1: int,
           j2: int) -> list[Opcode]:
    """An equal run (by folded keys) split where its tokens differ as written: a token with other accents,
    and the two tokens around a space one edition has and the other has not ("art.58" / "art. 58"); a
    space before a note marker, a paragraph break or the run's end is not compared."""
    n = i2 - i1

    def glued(k: int) -> bool:  # token k and the next are written together in both editions ("art" and ".")
        return not old[i1 + k].text.endswith(" ") and not new[j1 + k].text.endswith(" ") and all(
            t.key not in (NOTE, PARA) for t in (old[i1 + k], old[i1 + k + 1], new[j1 + k], new[j1 + k + 1]))

    marked = [old[i1 + k].key != new[j1 + k].key for k in range(n)]
    for k in range(n - 1):
        a, b = old[i1 + k], new[j1 + k]
        if a.text.endswith(" ") != b.text.endswith(" ") and all(
                t.key not in (NOTE, PARA) for t in (old[i1 + k + 1], new[j1 + k + 1], a)):
            # The space and the words and marks written together on either side of it: "art.58" → "art. 58".
            start, end = k, k + 1
            while start > 0 and glued(start - 1):
                start -= 1
            while end < n - 1 and glued(end):
                end += 1
            marked[start:end + 1] = [True] * (end + 1 - start)
    if not any(marked):
        return [("equal", i1, i2, j1, j2)]
    out: list[Opcode] = []
    start = 0
    for k in range(1, n + 1):
        if k == n or marked[k] != marked[start]:
            out.append(("form" if marked[start] else "equal", i1 + start, i1 + k, j1 + start, j1 + k))
            start = k
    return out
