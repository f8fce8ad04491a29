"""Where a reference's words stand in its sources: "file:line" for each source of the citing container.

Matching is on the words with any whitespace between them (a printed line may break inside), in one pass
over each source's text however many references a paragraph holds (find_many_wordings).
"""
import bisect
import functools
import re
from collections.abc import Collection, Iterable, Mapping

from ...core import tree
from ...core.tree import Element


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
