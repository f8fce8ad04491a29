"""Words and sentences of law text, and the word-level diff between two texts.

A paragraph becomes a list of Tokens: words and punctuation marks, each with the
whitespace that follows it, and one token for each note marker. Diffs compare
token keys (the word without its whitespace), so a change of line breaking or
spacing between builds is never a change of the law.
"""
import re
from dataclasses import dataclass
from difflib import SequenceMatcher

from ...core.lang.nl.words import ABBREVIATIONS

NOTE = "\x00note"  # key of a note marker: notes align by place, their texts are compared apart
PARA = "\x00para"  # key of a paragraph break within one node's text

WORD_OR_MARK = re.compile(r"(\w+(?:[-'’/]\w+)*|[^\w\s])(\s*)")
# Abbreviations that end in a full stop without ending the sentence ("art. 58", "bijv. Noord"): the
# book's language's. The comparison is not given a profile yet, so these are Dutch, the default's.
ABBREVIATIONS = frozenset(ABBREVIATIONS)
SENTENCE_END = {".", "?", "!"}
CLOSERS = {")", "]", "'", '"', "’", "”"}
OPENERS = {"(", "[", "'", '"', "‘", "“"}


@dataclass(slots=True)  # slots: a book's diff makes a few hundred thousand of these
class Token:
    key: str  # what is compared: the word or mark, NOTE or PARA
    text: str  # what is shown: the word and the whitespace after it
    note: object = None  # the <note> element for a NOTE token
    sentence: int = -1  # index of the sentence the token belongs to, within its node's text
    paragraph: int = 0

    @property
    def is_word(self):
        return self.key[:1].isalnum()


def tokenise(text):
    """Words and marks of a plain string, each carrying the whitespace after it (runs become one space)."""
    return [Token(word, word + " " if space else word) for word, space in WORD_OR_MARK.findall(text)]


def paragraph_tokens(p):
    """Tokens of a <p> (or <note>): the running text with <ref> words flattened and a NOTE token where each
    note stands. Reads the element only."""
    tokens = []
    for text, note in _running_text(p):
        if note is not None:
            tokens.append(Token(NOTE, "", note=note))
            continue
        if text[:1].isspace() and tokens and not tokens[-1].text.endswith(" "):
            tokens[-1].text += " "
        tokens.extend(tokenise(text))
    return tokens


def paragraph_words(p):
    """words(paragraph_tokens(p)), without making the tokens: matching reads the words of every
    paragraph of both editions, and keeping (or making twice) their tokens cost time and memory."""
    return [word.lower() for text, note in _running_text(p) if note is None
            for word, _ in WORD_OR_MARK.findall(text) if word[:1].isalnum()]


def _running_text(el):
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


def node_text_tokens(paragraphs):
    """Tokens of a node's own paragraphs, PARA between them, with sentence and paragraph indices set."""
    tokens = []
    for n, p in enumerate(paragraphs):
        if n:
            tokens.append(Token(PARA, "", paragraph=n))
        for t in paragraph_tokens(p):
            t.paragraph = n
            tokens.append(t)
    mark_sentences(tokens)
    return tokens


def mark_sentences(tokens):
    """Give every token its sentence index. A sentence ends at . ? or ! (with any closing bracket, quote
    or note marker after it) when the next word starts with a capital, unless the word before the stop
    is a common abbreviation; a paragraph break always ends one. A lowercase word after a stop
    ("art. 58", "1. zijn partner") continues the sentence, as Dutch law text is written."""
    starts = set()
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


def _is_abbreviation(tokens, i):
    """Whether the full stop at i closes an abbreviation rather than a sentence."""
    if tokens[i].key != "." or i == 0:
        return False
    prev = tokens[i - 1].key
    return prev.lower() in ABBREVIATIONS and not tokens[i - 1].text.endswith(" ")


def sentences(text):
    """A plain string split into its sentences (by the rule of mark_sentences), whitespace normalised."""
    tokens = mark_sentences(tokenise(text))
    out = {}
    for t in tokens:
        out.setdefault(t.sentence, []).append(t.text)
    return ["".join(parts).strip() for _, parts in sorted(out.items())]


def words(tokens):
    """The comparable words of tokens: lowercased, without punctuation, notes or paragraph breaks."""
    return [t.key.lower() for t in tokens if t.is_word]


def similarity(a, b, floor=0.0):
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


def diff_tokens(old, new):
    """Word-level opcodes (tag, i1, i2, j1, j2) turning `old` into `new`; tag is equal, replace, delete or
    insert. Deterministic; short equal runs between changes are folded into one replacement, and notes
    and paragraph breaks never are (they keep their places)."""
    old_keys, new_keys = [t.key for t in old], [t.key for t in new]
    if old_keys == new_keys:
        return [("equal", 0, len(old), 0, len(new))] if old else []  # as difflib gives it, without matching
    matcher = SequenceMatcher(None, old_keys, new_keys, autojunk=False)
    ops = [list(op) for op in matcher.get_opcodes()]
    merged = []
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
    return [tuple(op) for op in merged]
