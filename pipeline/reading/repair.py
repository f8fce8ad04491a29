"""Text repair: undo what exports and extractions did to the words.

Reads: a Reading as its reader left it: block and note text (with NOTE_MARK at note markers),
a printed paragraph still in the lines the page broke it into (Block.pieces, Note.pieces).
Writes: the repaired text (repair_reading, the stage's entry, for every format); each change
is logged with file and line. A table's cells (Block.rows) are repaired one by one, each at its row's
line, and the table's text made again of them (the cells joined by single spaces, row after row).
Guarantees: only the listed damage is touched; NOTE_MARK is never moved across
words; a change that is not certain (a real hyphen at a line end) keeps the
source's form. The word lists (words that may stand twice, prefixes that keep their
hyphen, conjunctions after a hyphen) are the book's language's: its profile's
LEGIT_DOUBLES, HYPHEN_PREFIXES and CONJUNCTIONS.

    join_print_lines     "ge-" + "volg" -> "gevolg"; "bied-" + "of" -> "bied- of"
    restore_ligatures    "o ender" -> "offender", "sta and" -> "staff and" (where the profile lists lost ligatures)
    read_dashes          "LAW 22 \u00ad END" -> "LAW 22 – END" (where the profile's U+00AD is a dash)
    spaced_dashes        "speler - behoudens" -> "speler – behoudens" (the profile's SPACED_DASH)
    drop_soft_hyphens    "bied¬verloop" -> "biedverloop" (U+00AC / U+00AD marks)
    collapse_duplicates  "artikel artikel 63A1" -> "artikel 63A1" (a flattened table's cells, "Not
                         Vulnerable Vulnerable 500", are kept and reported)
    space_after_comma    "59,als" -> "59, als"
    normalise_space      non-breaking and repeated spaces -> one space
"""
import bisect
import heapq
import re
import weakref
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass

from ..core import lang
from . import normalise
from ..core.memo import Memo, digest as memo_digest
from ..core.model import NOTE_MARK, UNREAD_KINDS, Piece, Reading
from ..core.report import CONTEXT, ELLIPSIS, BuildLog, Entry, FileLog
from .decode import Line

WORD = r"[^\W\d_]"
# Each starts only where a run of punctuation starts: tried from inside the run too, a run of 80,000
# dots before a letter cost 80,000 tries of the run's rest.
TRAILING = re.compile(r"(?<![\W_])[\W_]+$")
# TRAILING of every word of a text (its words as .split() gives them; the spaces are not matched)
TRAILING_EACH = re.compile(r"(?<![^\w\s])(?<!_)(?:[^\w\s]|_)+(?=\s|$)")
LETTER = re.compile(WORD)
ENDS_IN_LETTER = re.compile(rf"{WORD}$")
SOFT_HYPHENS = re.compile(rf"(?<={WORD})[\u00ac\u00ad](?={WORD})|\u00ad")


def normalise_space(text: str) -> str:
    return " ".join(text.replace("\u00a0", " ").split())


def drop_soft_hyphens(text: str, line: int, log: FileLog) -> str:
    new = SOFT_HYPHENS.sub("", text)
    if new != text:
        for m in SOFT_HYPHENS.finditer(text):
            word = text[_token_start(text, m.start()):m.end()] + _matched(TOKEN_REST, text, m.end())
            log.repair(line, "soft-hyphen mark dropped", word, word.replace(m.group(), ""))
    return new


def _matched(pattern: re.Pattern[str], text: str, pos: int = 0) -> str:
    """What `pattern`, one that matches everywhere (a run of "*"), matches at `pos`."""
    m = pattern.match(text, pos)
    return m.group() if m else ""


def _token_start(text: str, end: int, spaces: bool = False) -> int:
    """Where the token that ends at `end` starts (with `spaces`: the token before the spaces that end there).
    Scanned back by hand: a pattern searched in text[:end] costs the text's length at every mark."""
    k = end
    while spaces and k > 0 and text[k - 1].isspace():
        k -= 1
    while k > 0 and not text[k - 1].isspace():
        k -= 1
    return k


# The rest of a token, and the spaces and token after a place.
TOKEN_REST = re.compile(r"\S*")
NEXT_TOKEN = re.compile(r"\s*\S*")


def read_dashes(text: str, line: int, log: FileLog, profile: lang.Profile) -> str:
    """U+00AD between digits or spaces (normalise.DASH_PLACE) as the dash it stands for, where the profile
    says an extraction writes its dashes so ("LAW 22 \u00ad END OF AUCTION", "0\u00ad10", "1500\u00ad 1740");
    each logged with the words beside it. Inside a word it stays a soft hyphen (drop_soft_hyphens)."""
    dash = profile.rules.DASH
    if not dash or "\u00ad" not in text:
        return text

    def fix(m: re.Match[str]) -> str:
        # A lone mark is shown with its neighbours ("22 \u00ad END"), a range as its token ("0\u00ad10").
        lone = m.group() == "\u00ad"
        left = text[_token_start(text, m.start(), spaces=True):m.start()] if lone else ""
        right = _matched(NEXT_TOKEN, text, m.end()) if lone else ""
        log.repair(line, "U+00AD read as a dash", left + m.group() + right,
                   left + m.group().replace("\u00ad", dash) + right)
        return m.group().replace("\u00ad", dash)
    return DASHES.sub(fix, text)


# A range written whole ("0\u00ad10", "1500\u00ad1740,"), else a lone mark between digits or spaces.
DASHES = re.compile(rf"\S*(?<=\d)\u00ad(?=\d)\S*|{normalise.DASH_PLACE}")


# A hyphen with one space on either side, after a token and before a word (a letter, or an opening
# bracket or quote and a letter): "speler - behoudens", "Law 49 - for". Not a range ("1 - 3", "1-3"),
# a compound ("Noord-Zuid", "bied- of") or a list's dash at the start of a text.
SPACED_HYPHEN = re.compile(rf"(?<=\S) - (?=[(\[\"'‘“]?{WORD})")


def spaced_dashes(text: str, line: int, log: FileLog, profile: lang.Profile) -> str:
    """A spaced hyphen between words (SPACED_HYPHEN) as the profile's SPACED_DASH, the parenthetical dash
    of Dutch and English typography, where the token before it holds a letter or a digit (not a lone
    mark of punctuation); each logged with the words on either side."""
    dash = profile.rules.SPACED_DASH
    if not dash or " - " not in text:
        return text

    def fix(m: re.Match[str]) -> str:
        before = text[_token_start(text, m.start()):m.start()]
        if not any(c.isalnum() for c in before):
            return m.group()
        after = _matched(NEXT_TOKEN, text, m.end())
        log.repair(line, "spaced hyphen read as a dash", f"{before} - {after}", f"{before} {dash} {after}")
        return f" {dash} "
    return SPACED_HYPHEN.sub(fix, text)


def restore_ligatures(text: str, line: int, log: FileLog, profile: lang.Profile,
                      vocabulary: Collection[str] = frozenset()) -> str:
    """"o ender" -> "offender", "insu cient" -> "insufficient", "Shu e" -> "Shuffle", "sta and" -> "staff and",
    "o the" -> "off the": a word the extraction cut where a lost ligature (the profile's LIGATURES) stood,
    inside it or at its end. Restored where exactly one ligature makes a word of the book's own words
    (`vocabulary`) or the profile's word list; each restoration logged, and where two readings fit the
    text is kept and the report says "uncertain".

    Inside a word: the two pieces joined by the ligature make the word ("o" + "ff" + "ender"). Two real
    words that a ligature would join into a third do not occur in the law ("o", "insu", "shu", "di", "e"
    are no words), so this reading is tried first.
    At a word's end, where no joined reading fits: the piece and the ligature make the word, and the
    piece stands alone (after a space or the text's start; before a space, a stop or the text's end).
    The piece must be no word itself: a word of the profile's LIGATURE_FREE_WORDS ("do", "go", "logo")
    is read as written, never as "doff", "goff", "logoff". Before a capitalised word the gap may be a
    name ("Di Sacco"): uncertain."""
    rules = profile.rules
    if not rules.LIGATURES:
        return text
    listed = _ligature_words(profile)

    def known(word: str) -> bool:
        # Asked word by word (never a union of the two: that copied the whole vocabulary for every text),
        # so that a Vocabulary keeps exactly the answers it gave.
        return word in listed or word in vocabulary
    out, pos = [], 0
    for m in LIGATURE_PIECE.finditer(text):  # every word: "the o ender" tries "the", then "o ender"
        left, start = m.group(), m.start()
        if start < pos:
            continue
        after = NEXT_WORD.match(text, m.end())
        if after:  # inside a word: "o ender"
            right = after.group(1)
            words = sorted({left + lig + right for lig in rules.LIGATURES if known((left + lig + right).lower())})
            if len(words) == 1:
                log.repair(line, "lost ligature restored", f"{left} {right}", words[0])
                out.append(text[pos:start] + words[0])
                pos = after.end()
                continue
            if words:
                _uncertain(line, log, f"{left} {right}", words)
                continue
        end = _restore_at_end(text, m, rules, known, line, log)
        if end:
            out.append(text[pos:start] + end)
            pos = m.end()
    return "".join(out) + text[pos:]


def _restore_at_end(text: str, m: re.Match[str], rules: lang.LanguageRules, known: Callable[[str], bool],
                    line: int, log: FileLog) -> str | None:
    """The word `m` (a word of `text`) with a lost ligature restored at its end ("sta" -> "staff"), where
    exactly one ligature makes a known word of it and it is no word alone (see restore_ligatures); else
    None, reported as uncertain where two readings fit."""
    left = m.group()
    if left.lower() in rules.LIGATURE_FREE_WORDS or not PIECE_ALONE.match(text, m.start()):
        return None
    words = sorted({left + lig for lig in rules.LIGATURES if known((left + lig).lower())})
    if not words:
        return None
    cut = CUT_REST.match(text, m.end())  # the letters after it, joined to it, make a word: no end
    if cut and any(known((left + lig + cut.group(1)).lower()) for lig in rules.LIGATURES):
        return None
    follows = _matched(FOLLOWS, text, m.end())
    if len(words) > 1:
        _uncertain(line, log, left + follows, [w + follows for w in words])
        return None
    if follows[1:2].isupper():  # "Di Sacco": a name's particle reads as well as a cut "Diff"
        _uncertain(line, log, left + follows, [left + follows, words[0] + follows])
        return None
    log.repair(line, "lost ligature restored", left + follows, words[0] + follows)
    return words[0]


def _uncertain(line: int, log: FileLog, before: str, readings: list[str]) -> None:
    log.damage(line, f"'{before}' may have lost a ligature; uncertain: it reads as "
                     + " or as ".join(f"'{r}'" for r in readings), "kept as text, not repaired")


# A word, whole: a piece of a word cut where a ligature stood.
LIGATURE_PIECE = re.compile(r"(?<!\w)[^\W\d_]+(?!\w)")
# The word right after one space: the other piece of a word cut inside; a footnote number may follow it
# ("di ers3": "differs" and note 3).
NEXT_WORD = re.compile(r" ([^\W\d_]+)(?![^\W\d])")
# A piece that stands alone at its word's end: after a space or the text's start, before a space, a stop or the end.
PIECE_ALONE = re.compile(r"(?:(?<=\s)|(?<!.))[^\W\d_]+(?=[\s.,;:!?]|$)", re.S)
# The letters that start the next word ("ers" of "di ers3"), and what follows a piece in the log.
CUT_REST = re.compile(r" ([^\W\d_]+)")
FOLLOWS = re.compile(r"[.,;:!?]| \S+|")


@lang.per_profile
def _ligature_words(profile: lang.Profile) -> frozenset[str]:
    """The profile's word list of words with a ligature (one word per line, # comments), read once."""
    name = profile.rules.LIGATURE_WORDS
    if not name:
        return frozenset()
    from importlib import resources
    text = resources.files(f"pipeline.core.lang.{profile.code}").joinpath(name).read_text(encoding="utf-8")
    return frozenset(w for w in text.split("\n") if w and not w.startswith("#"))


def collapse_duplicates(text: str, line: int, log: FileLog, profile: lang.Profile) -> str:
    """Remove a word or phrase (up to six words) that stands twice in a row; a single word that may
    stand twice in the language of `profile` is left, and so are the cells of
    a flattened table that repeat a word (_table_cells; reported).

    Longer phrases first, then from left to right; repeated until nothing is doubled.

    The text is a linked list of words, each with the whitespace after it, and the candidates wait in
    a heap ordered (longest first, leftmost first). Removing a phrase changes only the candidates
    whose twelve words reach across the place where it stood, so only those are looked at again:
    a line of one word repeated 20,000 times takes one pass, not one per removal."""
    rules = profile.rules
    legit_doubles = rules.LEGIT_DOUBLES
    fold: Callable[[str], str] = str.lower if rules.REPEATS_IGNORE_CASE else str
    # Most text has no word twice: then nothing can repeat (the keys below, made in one pass in C).
    distinct = TRAILING_EACH.sub("", fold(text)).split()
    if len(set(distinct)) == len(distinct):
        return text
    lead = text[:len(text) - len(text.lstrip())]  # the whitespace the text starts with
    tokens = [(m.group(1), m.group(2)) for m in re.finditer(r"(\S+)(\s*)", text)]
    words = [w for w, _ in tokens]
    keys = [TRAILING.sub("", fold(w)) for w in words]
    if rules.TABLE_ROW_REPEATS:
        _keep_table_rows(keys, rules.TABLE_ROW_REPEATS, line, log, words)
    nxt = list(range(1, len(words) + 1))  # the next word still in the text; len(words) is the end
    prev = list(range(-1, len(words) - 1))
    alive = [True] * len(words)
    heap: list[tuple[int, int]] = []
    kept: set[int] = set()  # the first words of repeats kept as table cells, reported

    def phrase(i: int, count: int) -> list[int] | None:
        """The indices of `count` words from i on, or None where the text ends first."""
        out: list[int] = []
        while i < len(words) and len(out) < count:
            out.append(i)
            i = nxt[i]
        return out if len(out) == count else None

    def repeat_at(i: int, n: int) -> list[int] | None:
        """The 2n words from i when words i… stand again right after them, else None."""
        span = phrase(i, 2 * n)
        if span is None or not keys[i] or keys[i] != keys[span[n]]:
            return None
        first, second = [words[k] for k in span[:n]], [words[k] for k in span[n:]]
        if not _same_phrase(first, second, fold):
            return None
        if n == 1 and (first[0].lower() in legit_doubles or len(first[0]) < 2 or not LETTER.search(first[0])):
            return None
        cells = _table_cells(words, span, n, prev[i], nxt[span[-1]])
        if cells:
            if span[0] not in kept:  # found again after each removal nearby: reported once
                kept.add(span[0])
                log.damage(line, f"'{' '.join(words[k] for k in span)}' {cells}", "kept as text, not collapsed")
            return None
        return span

    def push_from(i: int) -> None:
        """Queue every repeat that starts at word i (a repeat starts with the same word again)."""
        j = i
        for n in range(1, 7):
            j = nxt[j]
            if j == len(words):
                return
            if keys[i] and keys[j] == keys[i] and repeat_at(i, n):
                heapq.heappush(heap, (-n, i))

    recent: dict[str, list[int]] = {}  # key -> where it stood among the last six words
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
        span = repeat_at(i, n) if alive[i] else None
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


def _keep_table_rows(keys: list[str], repeats: int, line: int, log: FileLog, words: list[str]) -> None:
    """A word standing `repeats` or more times in a row is a flattened table row ("Boards Boards Boards
    Boards"): reported once, and its keys made distinct so that no repeat of it is collapsed."""
    k = 0
    while k < len(keys):
        j = k
        while j + 1 < len(keys) and keys[j + 1] and keys[j + 1] == keys[k]:
            j += 1
        if keys[k] and j - k + 1 >= repeats:
            log.damage(line, f"'{' '.join(words[k:j + 1])}' looks like a row of a flattened table",
                       "kept as text, not repaired")
            for n in range(k, j + 1):
                keys[n] = f"{keys[n]}\x00{n}"
        k = j + 1


def _table_cells(words: list[str], span: list[int], n: int, before: int, after: int) -> str | None:
    """Why the repeat `span` (twice `n` of `words`; `before`, `after`: the indices of the words beside it, -1 or
    len(words) at an end) is read as cells of a flattened table rather than a doubled phrase, or None.

    - header cells: both copies are capitalised words and so is the word before the first copy, which
      ends in a letter: the first copy ends a longer cell and the second is the next cell ("Not
      Vulnerable | Vulnerable"). A doubling of the extraction leaves no capitalised word glued to the
      first copy mid-sentence, except in a heading: where no figure of a table follows, the reason
      says "uncertain";
    - number cells: a number stands on either side ("50 Doubled Doubled 100"): cells of a row of figures.
    """
    def capitalised(word: str) -> bool:
        return word[:1].isupper()

    def number(k: int) -> bool:
        return 0 <= k < len(words) and bool(TABLE_NUMBER.fullmatch(words[k]))

    def phrase(indices: list[int]) -> str:
        return " ".join(words[k] for k in indices)

    if before >= 0 and all(capitalised(words[k]) for k in span) and capitalised(words[before]) \
            and ENDS_IN_LETTER.search(words[before]):
        cells = f"'{words[before]} {phrase(span[:n])}' and '{phrase(span[n:])}'"
        # The figures of the table follow its header; without them a doubled word in a heading fits as well.
        if any(number(k) for k in range(after, after + HEADER_REACH)):
            return f"looks like the header cells {cells} of a flattened table, not a repeat"
        return (f"is uncertain: the header cells {cells} of a flattened table, or a doubled word (no figure "
                f"follows within {HEADER_REACH} words)")
    if number(before) and number(after):
        return f"looks like cells of a flattened table between the numbers '{words[before]}' and " \
               f"'{words[after]}', not a repeat"
    return None


# How far after header cells the first figure of their table may stand.
HEADER_REACH = 12
# A cell of figures in a flattened table: "500", "1,500", "0–10", "20%".
TABLE_NUMBER = re.compile(r"[(]?\d[\d.,\u2013\u00ad-]*%?[)]?")


def _same_phrase(first: list[str], second: list[str], fold: Callable[[str], str] = str.lower) -> bool:
    """The phrase `first` repeated as `second`; the repeat may carry trailing punctuation or a marker."""
    if any(not LETTER.search(w) for w in first):
        return False
    if [fold(w) for w in first[:-1]] != [fold(w) for w in second[:-1]]:
        return False
    a, b = fold(first[-1]), fold(second[-1])
    if not ENDS_IN_LETTER.search(a):  # the first copy ends in a word, not punctuation
        return False
    return b == a or (b.startswith(a) and not LETTER.match(b[len(a)]))


def space_after_comma(text: str, line: int, log: FileLog) -> str:
    def fix(m: re.Match[str]) -> str:
        log.repair(line, "space added after comma", m.group(), f"{m.group(1)}, {m.group(2)}")
        return f"{m.group(1)}, {m.group(2)}"
    return re.sub(rf"(\w),({WORD}{{2,}})", fix, text)


def repair_text(text: str, line: int, log: FileLog, profile: lang.Profile,
                vocabulary: Collection[str] = frozenset()) -> str:
    """All in-line repairs, in order, with the word lists of `profile` (and the book's words,
    `vocabulary`, for lost ligatures). Returns the repaired, space-normalised text."""
    text = read_dashes(text, line, log, profile)
    text = drop_soft_hyphens(text, line, log)
    text = restore_ligatures(normalise_space(text), line, log, profile, vocabulary)
    text = normalise_space(text)
    text = collapse_duplicates(text, line, log, profile)
    text = space_after_comma(text, line, log)
    text = spaced_dashes(text, line, log, profile)
    return text


def repair_reading(reading: Reading, vocabulary: Collection[str], log: BuildLog, profile: lang.Profile) -> None:
    """The repair stage for one Reading, in place: a printed paragraph's lines joined (each line-end
    hyphen decided with `vocabulary`, the book's word forms: see vocabulary()), then the in-line
    repairs of every block's and note's text. Every change is logged. What the reader kept apart and
    no stage reads again (model.UNREAD_KINDS: an index, front and back matter) is left as it is."""
    flog = log.for_file(reading.file)
    furniture = sorted(d.line for d in reading.dropped)  # a join past one of these goes across a page
    for block in reading.blocks:
        if block.kind in UNREAD_KINDS:  # not law text, read by no later stage: its words stay as they are
            continue
        if block.rows:  # a table: each cell repaired on its own (no repair runs from one cell into the next)
            for row in block.rows:
                row.cells = [repair_text(cell, row.line, flog, profile, vocabulary) for cell in row.cells]
            block.text, block.pieces = " ".join(cell for row in block.rows for cell in row.cells), []
        elif block.pieces:
            block.text, block.pieces = join_print_lines(block.pieces, vocabulary, flog, profile, furniture), []
        if not block.rows:
            block.text = repair_text(block.text, block.first_line, flog, profile, vocabulary)
        for note in block.notes:
            if note.pieces:
                note.text, note.pieces = join_print_lines(note.pieces, vocabulary, flog, profile, furniture), []
            note.text = repair_text(note.text, note.lines[0] if note.lines else block.first_line, flog, profile,
                                    vocabulary)


def needs_vocabulary(reading: Reading) -> bool:
    """Whether repair_reading() asks the vocabulary for this reading (it has printed lines to join)."""
    return any(block.pieces or any(note.pieces for note in block.notes) for block in reading.blocks)


def join_print_lines(lines: Sequence[Piece], vocabulary: Collection[str], log: FileLog, profile: lang.Profile,
                     furniture: Sequence[int] = ()) -> str:
    """Rejoin the lines of one printed paragraph; `lines` are (number, text).

    A line-end hyphen is dropped ("ge-" + "volg" -> "gevolg") unless the hyphen
    is real: the hyphenated form is attested elsewhere in the sources and the
    joined form is not, the first part is a hyphen prefix ("niet-") and the joined
    form is not attested without the hyphenated one ("surcontre"), the next line
    starts with a capital or digit, or the next word is a conjunction ("bied- of").
    A line that starts with closing punctuation (". De gedekte", after a footnote
    marker) is joined without a space, and so is a range broken at its en dash ("2000–" + "2240"). Every hyphen decision is logged; the prefixes and
    conjunctions are those of `profile`.

    `furniture`: the sorted line numbers of page furniture (running headers, page
    numbers). Two lines with furniture between them are the end of one page and the
    top of the next: the join follows the same rules and is logged, hyphen or not.

    Each line costs its own length: the paragraph so far is never searched again (_Joined keeps
    what the rules ask of its end), and a word longer than _TAIL that runs over many lines is
    looked up only where a word of its length could be in the vocabulary.
    """
    rules = profile.rules
    text = _Joined()
    for k, (num, raw) in enumerate(lines):
        part = raw.strip()
        if not text:
            text.add(part)
            continue
        prev_line = lines[k - 1][0]
        page = _page_break(furniture, prev_line, num, log)
        right = _matched(RIGHT_WORD, part)
        found = text.word_before_hyphen(vocabulary, rules.HYPHEN_PREFIXES, len(right))
        if found is None:
            glue = "" if re.match(r"[.,;:)\]]", part) else " "
            if re.search(r"\d\u2013$", text.last_token()) and part[:1].isdigit():
                # A range broken at its en dash ("2000–" / "2240"): one token again, as the page prints it.
                glue = ""
                log.repair(prev_line, "a range broken at its dash at the line end joined" + page,
                           f"{text.last_token()}\\n{part.split()[0]}", f"{text.last_token()}{part.split()[0]}")
            if page:
                tail, head = text.last_token().replace(NOTE_MARK, ""), part.split()[0]
                log.repair(prev_line, "paragraph continued" + page, f"{tail}\\n{head}", f"{tail}{glue}{head}")
            text.add(glue + part)
            continue
        # `shown`: the word as the report quotes it (its end only, when it is longer than _TAIL)
        left, shown = found if isinstance(found, tuple) else (found, found)
        if right.lower() in rules.CONJUNCTIONS:
            text.add(" " + part)
            rule = "kept: elliptic compound before a conjunction"
            after = f"{shown}- {right}"
        elif not right or not re.match(WORD, right) or right[0].isupper():
            text.add(part)
            rule = "kept: the next line does not continue a word"
            after = f"{shown}-{right}"
        elif left is not None and f"{left}-{right}".lower() in vocabulary and \
                (left + right).lower() not in vocabulary:
            text.add(part)
            rule = "kept: the hyphenated form is used elsewhere in the sources"
            after = f"{shown}-{right}"
        elif left is not None and left.lower() in rules.HYPHEN_PREFIXES and \
                not ((left + right).lower() in vocabulary and f"{left}-{right}".lower() not in vocabulary):
            # (The sources' own word forms first: French "sur-" keeps its hyphen, "surcontre" is one word.)
            text.add(part)
            rule = "kept: a prefix that keeps its hyphen"
            after = f"{shown}-{right}"
        else:
            text.drop_hyphen()
            text.add(part)
            rule = "line-end hyphen joined"
            after = f"{shown}{right}"
        log.repair(prev_line, rule + page, f"{shown}-\\n{right}", after)
    return text.value()


# The word right after a line-end hyphen: the next line's letters up to a space or punctuation.
RIGHT_WORD = re.compile(r"[^\s.,;:()]*")
_TAIL = 512  # the end of the joined text kept at hand: a word this long is never a vocabulary word but by lookup
_LETTERS = re.compile(rf"{WORD}*")  # (matched on a reversed text: the letters at its end)


class _LongLengths:
    """A weak reference to the last vocabulary asked about, and the lengths of its words over _TAIL."""
    vocabulary: "weakref.ref[Collection[str]] | None" = None
    lengths: frozenset[int] = frozenset()


_LONG_LENGTHS = _LongLengths()


class _Joined:
    """A paragraph being joined, and what the rules ask of its end: the letters before a final hyphen
    (their number, and the last _TAIL characters of the text), the last word; each kept up to date
    as a line is added, so that no line reads the paragraph again."""

    def __init__(self) -> None:
        self.parts: list[str] = []
        self.size = 0
        self.tail = ""  # the text's last _TAIL characters
        self.letters = 0  # letters at the text's end
        self.letters_before_last = 0  # letters before its last character

    def __bool__(self) -> bool:
        return self.size > 0

    def add(self, s: str) -> None:
        if not s:
            return
        before_s = self.letters
        run = len(_matched(_LETTERS, s[::-1]))
        self.letters = before_s + len(s) if run == len(s) else run
        run_before = len(_matched(_LETTERS, s[-2::-1])) if len(s) > 1 else 0
        self.letters_before_last = before_s + len(s) - 1 if run_before == len(s) - 1 else run_before
        self.parts.append(s)
        self.size += len(s)
        self.tail = (self.tail + s)[-_TAIL:]

    def drop_hyphen(self) -> None:
        """The final character (the line-end hyphen) removed."""
        self.parts[-1] = self.parts[-1][:-1]
        self.size -= 1
        self.letters = self.letters_before_last
        self.tail = "".join(self._last(_TAIL))
        self.letters_before_last = 0  # (not asked before the next add; 0 reads as no hyphen after letters)

    def _last(self, n: int) -> list[str]:
        """The parts that hold the text's last n characters (the first cut to fit)."""
        out, got = [], 0
        for part in reversed(self.parts):
            out.append(part)
            got += len(part)
            if got >= n:
                break
        out.reverse()
        if got > n:
            out[0] = out[0][got - n:]
        return out

    def word_before_hyphen(self, vocabulary: Collection[str], prefixes: Iterable[str],
                           right: int) -> str | tuple[str | None, str] | None:
        """None unless the text ends in letters and a hyphen; else those letters, or where they are
        over _TAIL: (the letters, or None where no word of the vocabulary or `prefixes` has the length
        they would have, with the next line's `right` letters or without; their end as quoted)."""
        if not self.tail.endswith("-") or not self.letters_before_last:
            return None
        n = self.letters_before_last
        if n < _TAIL:
            return self.tail[-n - 1:-1]
        shown = ELLIPSIS + self.tail[-CONTEXT - 1:-1]
        lengths = _long_lengths(vocabulary) | {len(p) for p in prefixes}
        if {n, n + right, n + 1 + right} & lengths:
            # (a vocabulary word this long: the letters read out of the text itself)
            return "".join(self._last(n + 1))[:-1], shown
        return None, shown

    def last_token(self) -> str:
        """The text's last word (from the last space), "…" before its end where it is over _TAIL."""
        token = self.tail.split()[-1]
        cut = self.size > len(self.tail) and len(self.tail.rstrip()) == len(token)  # it may begin before the tail
        return ELLIPSIS + token[-CONTEXT:] if cut else token

    def value(self) -> str:
        return "".join(self.parts)


def _long_lengths(vocabulary: Collection[str]) -> frozenset[int]:
    """The lengths of the words of `vocabulary` over _TAIL characters, found once per vocabulary."""
    if isinstance(vocabulary, Vocabulary):
        return vocabulary.long_lengths()
    known = _LONG_LENGTHS
    if known.vocabulary is None or known.vocabulary() is not vocabulary:
        try:
            known.vocabulary = weakref.ref(vocabulary)
        except TypeError:  # (a vocabulary that cannot be referred to weakly is read each time)
            known.vocabulary = None
        known.lengths = frozenset(len(w) for w in vocabulary if len(w) > _TAIL)
    return known.lengths


def _page_break(furniture: Sequence[int], after: int, before: int, log: FileLog) -> str:
    """" across a page break (…)" when page furniture stands between lines `after` and `before`, else "";
    the furniture's lines as `log` (a FileLog) shows its file's lines (a PDF's as page and line)."""
    i, j = bisect.bisect_right(furniture, after), bisect.bisect_left(furniture, before)
    if i >= j:
        return ""
    where = f"line {log.place(furniture[i])}" if i == j - 1 else \
        f"lines {log.place(furniture[i])}–{log.place(furniture[j - 1])}"
    return f" across a page break (page furniture at {where})"


def vocabulary(all_lines: Iterable[Line]) -> set[str]:
    """Every word form in the sources, lower-cased: evidence for hyphen decisions."""
    words: set[str] = set()
    for line in all_lines:
        words.update(w.lower() for w in re.findall(rf"{WORD}+(?:-{WORD}+)*", line.text))
    return words


@lang.per_profile
def _line_words(profile: lang.Profile) -> Memo[frozenset[str]]:
    """The word forms of each source's lines (vocabulary()), by the digest of the lines' text."""
    return Memo("vocabulary")


def book_vocabulary(lines_by_file: Mapping[str, Sequence[Line]], profile: lang.Profile) -> set[str]:
    """vocabulary() of every source's lines: each source's word forms taken from the memo when its lines are
    the ones read before (the vocabulary's rule asks a line nothing but its text)."""
    memo = _line_words(profile)
    words: set[str] = set()
    for lines in lines_by_file.values():
        key = memo_digest([line.text for line in lines])
        found = memo.get(key)
        if found is None:
            found = frozenset(vocabulary(lines))
            memo.put(key, found)
        else:
            memo.reused += 1
        words |= found
    return words


class Vocabulary(Collection[str]):
    """The book's word forms as one reading's repair asks them: every answer given is kept (`asked`, and
    the lengths of its longest words when asked), so that a repair made with these answers is known to be
    the repair of any book that gives the same ones (repaired())."""

    def __init__(self, words: Collection[str]) -> None:
        self.words = words
        self.asked: dict[object, bool] = {}
        self.long: frozenset[int] | None = None
        self.whole = False  # read whole (iterated or counted): no answers to compare, the repair is not kept

    def __contains__(self, word: object) -> bool:
        answer = self.asked.get(word)
        if answer is None:
            answer = self.asked[word] = word in self.words
        return answer

    def long_lengths(self) -> frozenset[int]:
        if self.long is None:
            self.long = _long_lengths(self.words)
        return self.long

    def __iter__(self) -> Iterator[str]:
        self.whole = True
        return iter(self.words)

    def __len__(self) -> int:
        self.whole = True
        return len(self.words)


@dataclass(frozen=True)
class Repaired:
    """One reading's repair as the memo keeps it: the answers of the vocabulary it was made with, the
    text (and pieces) of each block and note after it, and the report entries it made."""
    asked: dict[object, bool]  # word -> whether the vocabulary held it
    long: frozenset[int] | None  # the lengths of its words over _TAIL, where they were asked
    # (tuples, not lists: the memo's entries live long, and tuples of strings are no work for the collector)
    blocks: tuple[tuple[str, tuple[Piece, ...], tuple[tuple[str, tuple[Piece, ...]], ...]], ...]
    cells: tuple[tuple[tuple[str, ...], ...], ...]  # a table block's cells, row by row (no rows: empty)
    entries: list[Entry]

    def holds(self, words: Collection[str]) -> bool:
        """Whether the vocabulary `words` answers every question this repair asked as it was answered."""
        return all((word in words) == answer for word, answer in self.asked.items()) and \
            (self.long is None or _long_lengths(words) == self.long)


@lang.per_profile
def repairs(profile: lang.Profile) -> Memo[Repaired]:
    """The repairs made in this process, by the digest of the reading before repair (per profile)."""
    return Memo("repair")


def repaired(reading: Reading, vocabulary: Collection[str], log: BuildLog, profile: lang.Profile,
             paged: bool) -> None:
    """repair_reading(), exactly, taken from the memo where the same reading (every field, as it stands
    before repair) was repaired before and this book's `vocabulary` answers each question that repair
    asked as it was answered then; else made, and kept. `paged`: whether the report shows the reading's
    lines as pages and lines (its file in log.paged(), which the messages depend on)."""
    memo = repairs(profile)
    key = memo_digest(reading, paged)
    known = memo.get(key)
    if known is not None and known.holds(vocabulary):
        memo.reused += 1
        for block, (text, pieces, notes), table in zip(reading.blocks, known.blocks, known.cells):
            block.text, block.pieces = text, list(pieces)
            for note, (note_text, note_pieces) in zip(block.notes, notes):
                note.text, note.pieces = note_text, list(note_pieces)
            for row, row_cells in zip(block.rows, table):
                row.cells = list(row_cells)
        log.entries.extend(known.entries)  # (a report entry is never changed once made: shared)
        return
    asking = Vocabulary(vocabulary)
    start = len(log.entries)
    repair_reading(reading, asking, log, profile)
    if asking.whole:
        return
    after = tuple((b.text, tuple(b.pieces), tuple((n.text, tuple(n.pieces)) for n in b.notes)) for b in reading.blocks)
    cells = tuple(tuple(tuple(row.cells) for row in b.rows) for b in reading.blocks)
    memo.put(key, Repaired(asking.asked, asking.long, after, cells, log.entries[start:]))
