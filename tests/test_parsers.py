"""Property-based tests of the readers and repairs: text -> corpus -> text round trips.

Each test generates an article structure, writes it the way one source format
writes it (wiki export, template, print extraction), reads it back through the
real pipeline and checks that the structure, the words and the note positions
come back exactly.
"""
import string

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pipeline.publish import run as build
from pipeline.reading import notes, repair
from pipeline.core import tree
from pipeline.core.model import NOTE_MARK
from pipeline.core.report import BuildLog
from pipeline.core import lang

PROFILE = settings(max_examples=40, deadline=None, derandomize=True,
                   suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])

SYLLABLES = ["ka", "ar", "te", "spe", "lo", "bie", "ding", "leg", "ger", "kleur", "troef", "slag", "sta", "mo",
             "vra", "gen", "pas", "bod", "hand", "wijs"]
RESERVED = {"of", "en", "noch", "als", "niet", "ex", "oud", "artikel", "noot", "art"}


@st.composite
def words(draw, min_size=3, max_size=14):
    """Distinct words: a repeated word or phrase would (rightly) be collapsed by the repair stage."""
    word = st.lists(st.sampled_from(SYLLABLES), min_size=1, max_size=4).map("".join)
    ws = draw(st.lists(word.filter(lambda w: w not in RESERVED), min_size=min_size, max_size=max_size,
                       unique=True))
    return ws


@st.composite
def sentence(draw, max_words=14):
    ws = draw(words(min_size=1 if max_words < 3 else 3, max_size=max_words))
    return " ".join([ws[0].capitalize()] + ws[1:]) + "."


def heading():
    """A title or heading: a few words, no closing punctuation (as in the law)."""
    return sentence(max_words=7).map(lambda s: s.rstrip("."))


@st.composite
def paragraph(draw):
    """(text, [(word index after which a note stands, note text)])"""
    sentences = draw(st.lists(sentence(), min_size=1, max_size=3))
    text = " ".join(sentences)
    n_words = len(text.split())
    positions = sorted(set(draw(st.lists(st.integers(1, n_words - 1), max_size=2)))) if n_words > 1 else []
    return text, [(i, draw(sentence())) for i in positions]


@st.composite
def article(draw):
    sections = draw(st.lists(st.tuples(heading(), paragraph()), min_size=1, max_size=4))
    return {"num": str(draw(st.integers(1, 93))), "title": draw(heading()), "sections": sections}


def with_markers(text, notes_at, marker):
    """Insert marker(i, note) after word i (1-based count of words before it)."""
    ws = text.split(" ")
    for k, (i, note) in reversed(list(enumerate(notes_at))):
        ws[i - 1] = ws[i - 1] + marker(k + 1, note)
    return " ".join(ws)


def expected_marked(text, notes_at):
    return with_markers(text, notes_at, lambda k, note: NOTE_MARK)


def write_wiki(art):
    lines = [f"ARTIKEL {art['num']}", "", f"Artikel\u00a0{art['num']}", "", art["title"], ""]
    for n, (heading, (text, notes_at)) in enumerate(art["sections"], 1):
        lines += [f"{n}. {heading}", with_markers(text, notes_at, lambda k, note: f" (Noot: {note})"), "", ""]
    return "\n".join(lines)


def write_template(art):
    lines = [f"Sjabloon:2007:{art['num']}", f"ARTIKEL {art['num']} {art['title']}"]
    counter = 0
    for n, (heading, (text, notes_at)) in enumerate(art["sections"], 1):
        first = counter
        lines.append(f"{string.ascii_uppercase[n - 1]}. {heading}")
        lines.append(with_markers(text, notes_at, lambda k, note: f" {first + k})"))
        for k, (_, note) in enumerate(notes_at, 1):
            lines.append(f"{first + k}) {note}")
        counter += len(notes_at)
    return "\n".join(lines) + "\n"


def write_print(art, width, hyphenate):
    """Wrap text at `width` columns; split long words at line ends with a hyphen when `hyphenate`."""
    def wrap(text):
        out, line = [], ""
        for word in text.split(" "):
            if line and len(line) + 1 + len(word) > width:
                if hyphenate and len(word) >= 8 and word[:4].isalpha() and word[4:].isalpha():
                    out.append(f"{line} {word[:4]}-")
                    line = word[4:]
                    continue
                out.append(line)
                line = word
            else:
                line = f"{line} {word}" if line else word
        return out + [line]
    lines = ["Operation Manual", "", "44", f"ARTIKEL {art['num']}", art["title"]]
    for n, (heading, (text, _)) in enumerate(art["sections"], 1):
        lines.append(f"{string.ascii_uppercase[n - 1]}. {heading}")
        lines += wrap(text)
    return "\n".join(lines)


def build_one(tmp_path, edition, text):
    folder = tmp_path / "sources"
    folder.mkdir(exist_ok=True)
    for old in folder.iterdir():
        old.unlink()
    (folder / "a.txt").write_text(text, encoding="utf-8")
    (folder / "sources.toml").write_text(f'[[source]]\nfile = "a.txt"\nedition = "{edition}"\n', encoding="utf-8")
    return build.make_corpus(folder)


def check_article(ctx, edition, art, with_notes=True):
    el = tree.node_by_id(ctx.corpus, f"{edition}/{art['num']}")
    assert el is not None
    assert el.findtext("title") == art["title"]
    sections = list(el.iterchildren("section"))
    assert [s.get("num") for s in sections] == list(string.ascii_uppercase[:len(art["sections"])])
    for sec, (heading, (text, notes_at)) in zip(sections, art["sections"]):
        assert sec.findtext("heading") == heading
        [p] = sec.findall("p")
        if with_notes:
            assert tree.text_with_marks(p) == expected_marked(text, notes_at)
            assert [tree.plain_text(n) for n in p.iter("note")] == [note for _, note in notes_at]
        else:
            assert tree.plain_text(p) == text
    assert not ctx.log.errors, ctx.log.errors


@PROFILE
@given(art=article())
def test_wiki_round_trip(tmp_path, art):
    ctx = build_one(tmp_path, "2017", write_wiki(art))
    check_article(ctx, "2017", art)


@PROFILE
@given(art=article())
def test_template_round_trip(tmp_path, art):
    ctx = build_one(tmp_path, "2007", write_template(art))
    check_article(ctx, "2007", art)


@PROFILE
@given(art=article(), width=st.integers(30, 70), hyphenate=st.booleans())
def test_print_round_trip(tmp_path, art, width, hyphenate):
    ctx = build_one(tmp_path, "2007", write_print(art, width, hyphenate))
    check_article(ctx, "2007", art, with_notes=False)


@PROFILE
@given(para=paragraph(), malformed=st.booleans())
def test_inline_notes_come_out_at_their_markers(para, malformed):
    text, notes_at = para
    form = (lambda k, note: f" Noot: ({note})") if malformed else (lambda k, note: f" (Noot: {note})")
    flog = BuildLog().for_file("x.txt")
    marked, found = notes.extract_inline_notes(with_markers(text, notes_at, form), 1, flog, lang.profile("nl"))
    assert marked == expected_marked(text, notes_at)
    assert [n.text for n in found] == [note for _, note in notes_at]


@PROFILE
@given(ws=words(min_size=2, max_size=20), k=st.integers(0, 19), n=st.integers(1, 4))
def test_collapse_duplicates_removes_exactly_the_repeat(ws, k, n):
    """A phrase written twice becomes once; text without repeats is left as it is."""
    log = BuildLog()
    flog = log.for_file("x.txt")
    clean = " ".join(ws)
    assert repair.collapse_duplicates(clean, 1, flog, lang.profile("nl")) == clean
    assert not log.entries
    k = min(k, len(ws) - 1)
    phrase = ws[k:k + n]
    doubled = " ".join(ws[:k] + phrase + phrase + ws[k + n:])
    assert repair.collapse_duplicates(doubled, 1, flog, lang.profile("nl")) == clean
    assert repair.collapse_duplicates(repair.collapse_duplicates(doubled, 1, flog, lang.profile("nl")), 1, flog, lang.profile("nl")) == clean


class _EveryWordTwice:
    """In place of repair.TRAILING_EACH: makes the quick check see a repeated word in every text."""
    @staticmethod
    def sub(_, text):
        return "x x"


@PROFILE
@given(parts=st.lists(st.tuples(st.sampled_from(["de", "De", "de,", "kaart", "Kaart.", "kaart-", "1", "\u2014", "é", "a"]),
                                st.sampled_from([" ", "  ", "\n"])), max_size=14))
def test_collapse_quick_check_changes_nothing(parts):
    """A text the quick check lets through unchanged is also what the full search makes of it, with the
    same report entries (the check only skips work)."""
    import pytest
    text = "".join(word + space for word, space in parts)
    quick_log, full_log = BuildLog(), BuildLog()
    quick = repair.collapse_duplicates(text, 1, quick_log.for_file("x.txt"), lang.profile("nl"))
    with pytest.MonkeyPatch.context() as m:
        m.setattr(repair, "TRAILING_EACH", _EveryWordTwice)
        full = repair.collapse_duplicates(text, 1, full_log.for_file("x.txt"), lang.profile("nl"))
    assert quick == full and quick_log.to_json() == full_log.to_json()


def test_collapse_keeps_legitimate_doubles_and_distinct_phrases():
    flog = BuildLog().for_file("x.txt")
    assert repair.collapse_duplicates("hij zei dat dat klopte", 1, flog, lang.profile("nl")) == "hij zei dat dat klopte"
    assert repair.collapse_duplicates("(zie de artikel 50 en artikel 50)", 1, flog, lang.profile("nl")) == \
        "(zie de artikel 50 en artikel 50)"
    assert repair.collapse_duplicates("niet gelijktijdig/gelijktijdig gesloten", 1, flog, lang.profile("nl")) == \
        "niet gelijktijdig/gelijktijdig gesloten"


def test_print_line_joining_rules():
    flog = BuildLog().for_file("x.txt")
    join = lambda *lines, vocab=(): repair.join_print_lines(list(enumerate(lines, 1)), set(vocab), flog, lang.profile("nl"))
    assert join("als ge-", "volg van") == "als gevolg van"
    assert join("een bied-", "of speelwijze") == "een bied- of speelwijze"
    assert join("de niet-", "overtredende partij") == "de niet-overtredende partij"
    assert join("de NBB-", "Bondsraad") == "de NBB-Bondsraad"
    assert join("een zee-", "egel", vocab={"zee-egel"}) == "een zee-egel"
    assert join("(zie", "artikel 23)") == "(zie artikel 23)"
