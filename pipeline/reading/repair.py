"""Text repair: undo what exports and extractions did to the words.

Reads: a Reading as its reader left it: block and note text (with NOTE_MARK at note markers),
a printed paragraph still in the lines the page broke it into (Block.pieces, Note.pieces).
Writes: the repaired text (repair_reading, the stage's entry, for every format); each change
is logged with file and line.
Guarantees: only the listed damage is touched; NOTE_MARK is never moved across
words; a change that is not certain (a real hyphen at a line end) keeps the
source's form. The word lists (words that may stand twice, prefixes that keep their
hyphen, conjunctions after a hyphen) are the book's language's: its profile's
LEGIT_DOUBLES, HYPHEN_PREFIXES and CONJUNCTIONS.

    join_print_lines     "ge-" + "volg" -> "gevolg"; "bied-" + "of" -> "bied- of"
    drop_soft_hyphens    "bied¬verloop" -> "biedverloop" (U+00AC / U+00AD marks)
    collapse_duplicates  "artikel artikel 63A1" -> "artikel 63A1"
    space_after_comma    "59,als" -> "59, als"
    normalise_space      non-breaking and repeated spaces -> one space
"""
import bisect
import heapq
import re

from ..core import lang
from ..core.model import NOTE_MARK

WORD = r"[^\W\d_]"
TRAILING = re.compile(r"[\W_]+$")
LETTER = re.compile(WORD)
ENDS_IN_LETTER = re.compile(rf"{WORD}$")
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


def collapse_duplicates(text, line, log, profile=None):
    """Remove a word or phrase (up to six words) that stands twice in a row; a single word that may
    stand twice in the language of `profile` (the default one when None) is left.

    Longer phrases first, then from left to right; repeated until nothing is doubled.

    The text is a linked list of words, each with the whitespace after it, and the candidates wait in
    a heap ordered (longest first, leftmost first). Removing a phrase changes only the candidates
    whose twelve words reach across the place where it stood, so only those are looked at again:
    a line of one word repeated 20,000 times takes one pass, not one per removal."""
    legit_doubles = (profile or lang.profile()).rules.LEGIT_DOUBLES
    lead = re.match(r"\s*", text).group()
    tokens = [(m.group(1), m.group(2)) for m in re.finditer(r"(\S+)(\s*)", text)]
    words = [w for w, _ in tokens]
    keys = [TRAILING.sub("", w.lower()) for w in words]
    nxt = list(range(1, len(words) + 1))  # the next word still in the text; len(words) is the end
    prev = list(range(-1, len(words) - 1))
    alive = [True] * len(words)
    heap = []

    def phrase(i, count):
        """The indices of `count` words from i on, or None where the text ends first."""
        out = []
        while i < len(words) and len(out) < count:
            out.append(i)
            i = nxt[i]
        return out if len(out) == count else None

    def repeat_at(i, n):
        """The 2n words from i when words i… stand again right after them, else None."""
        span = phrase(i, 2 * n)
        if span is None or not keys[i] or keys[i] != keys[span[n]]:
            return None
        first, second = [words[k] for k in span[:n]], [words[k] for k in span[n:]]
        if not _same_phrase(first, second):
            return None
        if n == 1 and (first[0].lower() in legit_doubles or len(first[0]) < 2 or not LETTER.search(first[0])):
            return None
        return span

    def push_from(i):
        """Queue every repeat that starts at word i (a repeat starts with the same word again)."""
        j = i
        for n in range(1, 7):
            j = nxt[j]
            if j == len(words):
                return
            if keys[i] and keys[j] == keys[i] and repeat_at(i, n):
                heapq.heappush(heap, (-n, i))

    recent = {}  # key -> where it stood among the last six words
    for j, key in enumerate(keys):
        if key:
            seen = [i for i in recent.get(key, ()) if j - i <= 6]
            for i in seen:
                if repeat_at(i, j - i):
                    heap.append((i - j, i))
            recent[key] = seen + [j]
    if not heap:
        return text
    heapq.heapify(heap)
    while heap:
        n, i = heapq.heappop(heap)
        n = -n
        span = alive[i] and repeat_at(i, n)
        if not span:
            continue  # a removal since it was found undid it
        before = "".join(words[k] + tokens[k][1] for k in span[:-1]) + words[span[-1]]
        log.repair(line, "duplicated words collapsed", before.replace(NOTE_MARK, ""),
                   " ".join(words[k] for k in span[n:]).replace(NOTE_MARK, ""))
        left, right = prev[i], span[n]
        for k in span[:n]:
            alive[k] = False
        prev[right] = left
        if left >= 0:
            nxt[left] = right
        # Phrases starting up to eleven words before the join may now repeat across it.
        k = left
        for _ in range(11):
            if k < 0:
                break
            push_from(k)
            k = prev[k]
    return lead + "".join(w + space for k, (w, space) in enumerate(tokens) if alive[k])


def _same_phrase(first, second):
    """The phrase `first` repeated as `second`; the repeat may carry trailing punctuation or a marker."""
    if any(not LETTER.search(w) for w in first):
        return False
    if [w.lower() for w in first[:-1]] != [w.lower() for w in second[:-1]]:
        return False
    a, b = first[-1].lower(), second[-1].lower()
    if not ENDS_IN_LETTER.search(a):  # the first copy ends in a word, not punctuation
        return False
    return b == a or (b.startswith(a) and not LETTER.match(b[len(a)]))


def space_after_comma(text, line, log):
    def fix(m):
        log.repair(line, "space added after comma", m.group(), f"{m.group(1)}, {m.group(2)}")
        return f"{m.group(1)}, {m.group(2)}"
    return re.sub(rf"(\w),({WORD}{{2,}})", fix, text)


def repair_text(text, line, log, profile=None):
    """All in-line repairs, in order, with the word lists of `profile`. Returns the repaired,
    space-normalised text."""
    text = drop_soft_hyphens(text, line, log)
    text = normalise_space(text)
    text = collapse_duplicates(text, line, log, profile)
    text = space_after_comma(text, line, log)
    return text


def repair_reading(reading, vocabulary, log, profile=None):
    """The repair stage for one Reading, in place: a printed paragraph's lines joined (each line-end
    hyphen decided with `vocabulary`, the book's word forms: see vocabulary()), then the in-line
    repairs of every block's and note's text. Every change is logged."""
    flog = log.for_file(reading.file)
    furniture = sorted(d.line for d in reading.dropped)  # a join past one of these goes across a page
    for block in reading.blocks:
        if block.pieces:
            block.text, block.pieces = join_print_lines(block.pieces, vocabulary, flog, furniture, profile), []
        block.text = repair_text(block.text, block.first_line, flog, profile)
        for note in block.notes:
            if note.pieces:
                note.text, note.pieces = join_print_lines(note.pieces, vocabulary, flog, furniture, profile), []
            note.text = repair_text(note.text, note.lines[0] if note.lines else block.first_line, flog, profile)


def needs_vocabulary(reading):
    """Whether repair_reading() asks the vocabulary for this reading (it has printed lines to join)."""
    return any(block.pieces or any(note.pieces for note in block.notes) for block in reading.blocks)


def join_print_lines(lines, vocabulary, log, furniture=(), profile=None):
    """Rejoin the lines of one printed paragraph; `lines` are (number, text).

    A line-end hyphen is dropped ("ge-" + "volg" -> "gevolg") unless the hyphen
    is real: the hyphenated form is attested elsewhere in the sources and the
    joined form is not, the first part is a hyphen prefix ("niet-"), the next line
    starts with a capital or digit, or the next word is a conjunction ("bied- of").
    A line that starts with closing punctuation (". De gedekte", after a footnote
    marker) is joined without a space. Every hyphen decision is logged; the prefixes and
    conjunctions are those of `profile` (the default language's when None).

    `furniture`: the sorted line numbers of page furniture (running headers, page
    numbers). Two lines with furniture between them are the end of one page and the
    top of the next: the join follows the same rules and is logged, hyphen or not.
    """
    rules = (profile or lang.profile()).rules
    text = ""
    for k, (num, raw) in enumerate(lines):
        part = raw.strip()
        if not text:
            text = part
            continue
        prev_line = lines[k - 1][0]
        page = _page_break(furniture, prev_line, num)
        m = re.search(rf"({WORD}+)-$", text)
        if not m:
            glue = "" if re.match(r"[.,;:)\]]", part) else " "
            if page:
                tail, head = text.split()[-1].replace(NOTE_MARK, ""), part.split()[0]
                log.repair(prev_line, "paragraph continued" + page, f"{tail}\\n{head}", f"{tail}{glue}{head}")
            text += glue + part
            continue
        left = m.group(1)
        right = re.match(r"[^\s.,;:()]*", part).group()
        joined, hyphened = (left + right).lower(), f"{left}-{right}".lower()
        if right.lower() in rules.CONJUNCTIONS:
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
        elif left.lower() in rules.HYPHEN_PREFIXES:
            text += part
            rule = "kept: a prefix that keeps its hyphen"
            after = f"{left}-{right}"
        else:
            text = text[:-1] + part
            rule = "line-end hyphen joined"
            after = f"{left}{right}"
        log.repair(prev_line, rule + page, f"{left}-\\n{right}", after)
    return text


def _page_break(furniture, after, before):
    """" across a page break (…)" when page furniture stands between lines `after` and `before`, else ""."""
    i, j = bisect.bisect_right(furniture, after), bisect.bisect_left(furniture, before)
    if i >= j:
        return ""
    where = f"line {furniture[i]}" if i == j - 1 else f"lines {furniture[i]}–{furniture[j - 1]}"
    return f" across a page break (page furniture at {where})"


def vocabulary(all_lines):
    """Every word form in the sources, lower-cased: evidence for hyphen decisions."""
    words = set()
    for line in all_lines:
        words.update(w.lower() for w in re.findall(rf"{WORD}+(?:-{WORD}+)*", line.text))
    return words
