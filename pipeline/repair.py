"""Text repair: undo what exports and extractions did to the words.

Reads: block text (with NOTE_MARK at note markers).
Writes: the repaired text; each change is logged with file and line.
Guarantees: only the listed damage is touched; NOTE_MARK is never moved across
words; a change that is not certain (a real hyphen at a line end) keeps the
source's form.

    join_print_lines     "ge-" + "volg" -> "gevolg"; "bied-" + "of" -> "bied- of"
    drop_soft_hyphens    "bied¬verloop" -> "biedverloop" (U+00AC / U+00AD marks)
    collapse_duplicates  "artikel artikel 63A1" -> "artikel 63A1"
    space_after_comma    "59,als" -> "59, als"
    normalise_space      non-breaking and repeated spaces -> one space
"""
import re

from .model import NOTE_MARK

WORD = r"[^\W\d_]"
# Dutch words that legitimately stand twice in a row ("dat dat klopt", "die die kaart").
LEGIT_DOUBLES = {"dat", "die", "had", "is", "was", "wat", "er", "zich", "hun", "haar"}
# Prefixes that keep their hyphen in Dutch compounds: "niet-overtredende".
HYPHEN_PREFIXES = {"niet", "ex", "oud", "vice", "non", "anti", "semi", "zuid", "noord", "oost", "west"}
# An elliptic compound: "bied- of speelwijze" keeps hyphen and space.
CONJUNCTIONS = {"of", "en", "noch", "als"}
TRAILING = re.compile(r"[\W_]+$")
SOFT_HYPHENS = re.compile(rf"(?<={WORD})[\u00ac\u00ad](?={WORD})|\u00ad")


def normalise_space(text):
    return " ".join(text.replace("\u00a0", " ").split())


def drop_soft_hyphens(text, line, log):
    new = SOFT_HYPHENS.sub("", text)
    if new != text:
        for m in SOFT_HYPHENS.finditer(text):
            word = re.search(rf"\S*$", text[: m.start()]).group() + text[m.start():m.end()] + \
                re.match(r"\S*", text[m.end():]).group()
            log.repair(line, "soft-hyphen mark dropped", word, word.replace(m.group(), ""))
    return new


def collapse_duplicates(text, line, log):
    """Remove a word or phrase (up to six words) that stands twice in a row.

    Longer phrases first, then from left to right; repeated until nothing is doubled."""
    while True:
        tokens = [(m.start(), m.group()) for m in re.finditer(r"\S+", text)]
        words = [t for _, t in tokens]
        for n, i in _repeat_candidates(words):
            first, second = words[i:i + n], words[i + n:i + 2 * n]
            if not _same_phrase(first, second):
                continue
            if n == 1 and (first[0].lower() in LEGIT_DOUBLES or len(first[0]) < 2
                           or not re.search(WORD, first[0])):
                continue
            start, end = tokens[i][0], tokens[i + n][0]
            before = text[start: tokens[i + 2 * n - 1][0] + len(words[i + 2 * n - 1])]
            text = text[:start] + text[end:]
            log.repair(line, "duplicated words collapsed", before.replace(NOTE_MARK, ""),
                       " ".join(second).replace(NOTE_MARK, ""))
            break
        else:
            return text


def _repeat_candidates(words, longest=6):
    """(n, i) where a phrase of n words at i may stand again at i + n, longest first, then leftmost.

    A repeat starts with the same word (its punctuation aside), so one pass that remembers where
    each word stood in the last `longest` words finds every candidate: linear in the text."""
    recent, found = {}, []
    for j, word in enumerate(words):
        key = TRAILING.sub("", word.lower())
        if not key:
            continue
        seen = [i for i in recent.get(key, ()) if j - i <= longest]
        found += [(j - i, i) for i in seen if i + 2 * (j - i) <= len(words)]
        recent[key] = seen + [j]
    return sorted(found, key=lambda c: (-c[0], c[1]))


def _same_phrase(first, second):
    """The phrase `first` repeated as `second`; the repeat may carry trailing punctuation or a marker."""
    if any(not re.search(WORD, w) for w in first):
        return False
    if [w.lower() for w in first[:-1]] != [w.lower() for w in second[:-1]]:
        return False
    a, b = first[-1].lower(), second[-1].lower()
    if not re.search(rf"{WORD}$", a):  # the first copy ends in a word, not punctuation
        return False
    return b == a or (b.startswith(a) and not re.match(WORD, b[len(a)]))


def space_after_comma(text, line, log):
    def fix(m):
        log.repair(line, "space added after comma", m.group(), f"{m.group(1)}, {m.group(2)}")
        return f"{m.group(1)}, {m.group(2)}"
    return re.sub(rf"(\w),({WORD}{{2,}})", fix, text)


def repair_text(text, line, log):
    """All in-line repairs, in order. Returns the repaired, space-normalised text."""
    text = drop_soft_hyphens(text, line, log)
    text = normalise_space(text)
    text = collapse_duplicates(text, line, log)
    text = space_after_comma(text, line, log)
    return text


def join_print_lines(lines, vocabulary, log):
    """Rejoin the lines of one printed paragraph; `lines` are (number, text).

    A line-end hyphen is dropped ("ge-" + "volg" -> "gevolg") unless the hyphen
    is real: the hyphenated form is attested elsewhere in the sources and the
    joined form is not, the first part is a hyphen prefix ("niet-"), the next line
    starts with a capital or digit, or the next word is a conjunction ("bied- of").
    Every decision is logged.
    """
    text = ""
    for k, (num, raw) in enumerate(lines):
        part = raw.strip()
        if not text:
            text = part
            continue
        m = re.search(rf"({WORD}+)-$", text)
        if not m:
            text += " " + part
            continue
        left = m.group(1)
        right = re.match(r"[^\s.,;:()]*", part).group()
        prev_line = lines[k - 1][0]
        joined, hyphened = (left + right).lower(), f"{left}-{right}".lower()
        if right.lower() in CONJUNCTIONS:
            text += " " + part
            rule = "kept: elliptic compound before a conjunction"
            after = f"{left}- {right}"
        elif not right or not re.match(WORD, right) or right[0].isupper():
            text += part
            rule = "kept: the next line does not continue a word"
            after = f"{left}-{right}"
        elif hyphened in vocabulary and joined not in vocabulary:
            text += part
            rule = "kept: the hyphenated form is used elsewhere in the sources"
            after = f"{left}-{right}"
        elif left.lower() in HYPHEN_PREFIXES:
            text += part
            rule = "kept: a prefix that keeps its hyphen"
            after = f"{left}-{right}"
        else:
            text = text[:-1] + part
            rule = "line-end hyphen joined"
            after = f"{left}{right}"
        log.repair(prev_line, rule, f"{left}-\\n{right}", after)
    return text


def vocabulary(all_lines):
    """Every word form in the sources, lower-cased: evidence for hyphen decisions."""
    words = set()
    for line in all_lines:
        words.update(w.lower() for w in re.findall(rf"{WORD}+(?:-{WORD}+)*", line.text))
    return words
