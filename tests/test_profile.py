"""Language profiles: the words of the law are the profile's, and the manifest picks the profile.

The Dutch words the readers and corpus stages look for or write (citation keywords, relative and
direction words, list and range words, the note word, the repair word lists, the commentary
attribution, the gap texts) are data in pipeline/core/lang/nl/rules.py, and nowhere else in the
code; a made-up profile with other words changes what the stages find and write.
"""
import ast
import re
import types

import pytest
from lxml import etree

from pipeline.core import lang
from pipeline.core.errors import LawbookError
from pipeline.core.lang.nl import rules as nl_rules
from pipeline.core.report import BuildLog
from pipeline.corpus import finish, refs, stages, structure
from pipeline.reading import manifest, notes, repair

from conftest import ROOT, SOURCES

NL = lang.profile("nl")


def made_up(code="xx", **words):
    """A profile `code` with the Dutch rules, except `words` (rules.py names -> values)."""
    rules = types.ModuleType(f"{code}_rules")
    rules.__dict__.update({k: v for k, v in vars(nl_rules).items() if k.isupper()})
    rules.__dict__.update(words)
    return lang.Profile(code=code, region=code.upper(), name="Made up", rules=rules, words={})


# English stand-ins for the Dutch citation words.
XX = made_up(ARTICLE="clause", ARTICLES="clauses", ARTICLE_SHORT=("cl.",), RELATIVE=("see",),
             RELATIVE_FILLERS=("also",), NOT_DESIGNATIONS=("a",), ABOVE="above", BELOW="below",
             LIST_WORDS=("and", "or"), RANGE_WORDS=("to",), LETTER_RANGE_WORDS=("to",),
             NOTE="Note", GAP_ONLY_HEADING="Only the heading of {cite} survives.",
             COMMENTARY_AUTHOR=r"written by ([A-Z]\w*)")


def read(phrase, profile, node="2017/53C", order=None):
    """(words, targets or the reason of a suspect) of every citation in `phrase` standing in `node`."""
    citations = refs.find_citations(phrase, profile)
    resolved = refs.resolve_phrase(phrase, citations, "2017", node, set(), {}, order or {}, profile)
    return [(phrase[c.start:c.end], r.reason or " ".join(r.targets)) for c, r in zip(citations, resolved)]


# -- no Dutch word of the reading and corpus logic outside the profiles -------------------------------
# Files whose Dutch is not (yet) the reading and corpus logic's, each with why.
ELSEWHERE = {
    "pipeline/bench/": "writes Dutch books to measure with: the words are the content it makes",
    "pipeline/core/ids.py": "the ID scheme (2017/41A/noot1) is the same in every language",
    "pipeline/outputs/glyphs.py": "a table of code points in hexadecimal, no words",
}
# Words of the Dutch rules that are English words too (or, "en", English's language code), and so
# stand in the English report messages and code: checked only where they can only be Dutch (a word
# of a list, an alternative of a pattern).
ENGLISH_TOO = {"is", "was", "had", "die", "of", "in", "ex", "non", "anti", "semi", "vice", "west", "art",
               "van", "en", "op", "template"}


def dutch_words():
    """Every word of the Dutch rules: the words of its word lists and texts, and the longer words of
    its patterns (their letter runs outside escapes and character classes)."""
    words = set()
    for name, value in vars(nl_rules).items():
        if not name.isupper():
            continue
        if value is None or isinstance(value, bool):
            continue
        for text in [value] if isinstance(value, str) else value:
            text = re.sub(r"\{\w+\}", " ", text)  # a placeholder of a text: "{cite}"
            if name.startswith(("EVIDENCE_", "COMMENTARY_")):
                text = re.sub(r"\\\w|\[[^]]*\]", " ", text)
                words.update(w.lower() for w in re.findall(r"[^\W\d_]{4,}", text))
            else:
                words.update(w.lower() for w in re.findall(r"[^\W\d_]{2,}", text))
    return words


def code_strings(path):
    """(line, text) of every string in the code of `path`: not its docstrings, not its comments."""
    module = ast.parse(path.read_text(encoding="utf-8"))
    docstrings = {id(node.body[0].value) for node in ast.walk(module)
                  if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
                  and node.body and isinstance(node.body[0], ast.Expr)
                  and isinstance(node.body[0].value, ast.Constant)}
    return [(node.lineno, node.value) for node in ast.walk(module)
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings]


# English names in the code that are also Dutch words: the <corr was="…"> attribute, the diff's "op" key
# and the "template" format.
ENGLISH_NAMES = {"was", "op", "template"}


def dutch_in(text, words):
    """The Dutch words in one string of code."""
    if text in ENGLISH_NAMES:
        return set()
    found = {w for w in re.findall(r"[^\W\d_]+", text.lower()) if w in words - ENGLISH_TOO}
    for w in words & ENGLISH_TOO:
        if text.lower() == w or re.search(rf"(?:^|[|(:]){w}(?=[|)])", text.lower()):
            found.add(w)  # a word of a list, or an alternative of a pattern: "(?:en|of)"
    return found


def test_the_dutch_words_are_found_by_the_check():
    words = dutch_words()
    assert {"artikel", "artikelen", "zie", "volgens", "echter", "ook", "verder", "hierboven", "hieronder",
            "en", "of", "tot", "met", "noot", "verantwoording", "ontbreekt", "opschrift", "inleidende", "zich",
            "niet", "noch"} <= words
    assert dutch_in(r"\s+(?:en|of)\s+", words) == {"en", "of"}
    assert dutch_in("of", words) == {"of"}
    assert dutch_in(r"(?:zie|volgens)\s+", words) == {"zie", "volgens"}
    assert dutch_in("De tekst van ", words) == {"de", "tekst"}
    assert dutch_in("the title of 2017/16 is in none of the sources", words) == set()


ID_WORDS = re.compile(r"\d{4}/\w+/(?:noot|toelichting)\d+|%\(\w+\)s")  # and a phrase's %(name)s: a name


def test_no_dutch_word_in_the_code_outside_the_profiles():
    words = dutch_words()
    found = []
    for path in sorted((ROOT / "pipeline").rglob("*.py")):
        name = path.relative_to(ROOT).as_posix()
        if name.startswith("pipeline/core/lang/") or any(name.startswith(p) for p in ELSEWHERE):
            continue
        # An ID (2017/41A/noot1) is the same in every language: its words are not Dutch text; nor is a
        # value's name in a phrase ("the sources say: ‘%(was)s’").
        found += [f"{name}: {sorted(hits)} in {text!r}"
                  for line, text in code_strings(path) if (hits := dutch_in(ID_WORDS.sub("", text), words))]
    # The one Dutch word left: a report message that quotes the page anchor as the source writes it.
    assert found == ["pipeline/corpus/structure/articles.py: ['artikel'] in \".' does not match the page anchor "
                     "'Artikel \""]


# -- a made-up profile changes what the stages find ---------------------------------------------------
def test_refs_find_the_citations_of_the_profile_they_are_given():
    phrase = "zie artikel 47E1 en 47E2; see clauses 42 and 43 to 45, cl. 16C2 or C3"
    assert read(phrase, NL) == [("artikel 47E1", "2017/47E1"), ("47E2", "2017/47E2")]
    assert read(phrase, XX) == [("clauses 42", "2017/42"), ("43 to 45", "2017/43 2017/44 2017/45"),
                                ("cl. 16C2", "2017/16C2"), ("C3", "2017/16C3")]
    # A made-up profile did not change what the Dutch one reads.
    assert read(phrase, NL) == [("artikel 47E1", "2017/47E1"), ("47E2", "2017/47E2")]


def test_no_reader_falls_back_to_a_language_in_silence():
    with pytest.raises(TypeError, match="profile"):
        refs.find_citations("zie artikel 47E1")
    with pytest.raises(TypeError, match="profile"):
        repair.repair_text("zie zie artikel 47E1", 1, BuildLog().for_file("a.txt"))


def test_relative_words_and_directions_come_from_the_profile():
    order = {"2017/53A": 0, "2017/53B": 1, "2017/53C": 2}
    phrase = "(see also B above; zie B hieronder; see a doctor; see A to B; A t/m B; see B below)"
    assert read(phrase, XX, order=order) == [
        ("B above", "2017/53B"), ("A to B", "2017/53A 2017/53B"),
        ("B below", "'below' but 2017/53B stands above 2017/53C")]
    assert read(phrase, NL, order=order) == [
        ("B hieronder", "'hieronder' but 2017/53B stands above 2017/53C"), ("A t/m B", "2017/53A 2017/53B")]


def test_two_profiles_of_one_code_are_never_read_with_each_others_patterns():
    other = made_up(ARTICLE="paragraaf", ARTICLES="paragrafen", ARTICLE_SHORT=("par.",))
    assert read("clause 12, paragraaf 13", XX) == [("clause 12", "2017/12")]
    assert read("clause 12, paragraaf 13", other) == [("paragraaf 13", "2017/13")]
    assert read("clause 12, paragraaf 13", XX) == [("clause 12", "2017/12")]


def test_notes_repairs_gaps_and_commentary_use_the_profile():
    log = BuildLog().for_file("a.txt")
    assert notes.extract_inline_notes("kan (Note: x) of (Noot: y).", 1, log, XX)[0] == \
        "kan\ue000 of (Noot: y)."
    assert notes.extract_inline_notes("kan (Note: x) of (Noot: y).", 1, log, NL)[0] == \
        "kan (Note: x) of\ue000."
    doubles = made_up(LEGIT_DOUBLES=frozenset({"had"}))
    assert repair.collapse_duplicates("dat dat had had", 1, log, doubles) == "dat had had"
    assert repair.collapse_duplicates("dat dat had had", 1, log, NL) == "dat dat had had"
    hyphens = made_up(HYPHEN_PREFIXES=frozenset({"ge"}), CONJUNCTIONS=frozenset({"or"}))
    lines = [(1, "ge-"), (2, "volg of niet-"), (3, "overtredend bied-"), (4, "or")]
    assert repair.join_print_lines(lines, set(), log, profile=hyphens) == "ge-volg of nietovertredend bied- or"
    assert repair.join_print_lines(lines, set(), log, profile=NL) == "gevolg of niet-overtredend biedor"

    corpus = etree.fromstring('<corpus><edition id="2017"><article id="2017/57" num="57" sources="a.txt:1">'
                              '<title>T</title><section id="2017/57B" num="B" sources="a.txt:2"><heading>H'
                              '</heading></section></article></edition></corpus>')
    finish.finish(corpus, BuildLog(), XX)
    assert corpus.find(".//gap").get("reason") == "Only the heading of 57B survives."

    block = types.SimpleNamespace(text="A remark written by Anna", first_line=3, lines=[3], notes=[], cite=None)
    reading = types.SimpleNamespace(subject="54", edition="2017", file="a.txt")
    fragment = structure.Fragment("a.txt", "2017")
    assert structure.commentary_of(reading, [block], fragment, log, XX).get("author") == "Anna"
    assert structure.commentary_of(reading, [block], fragment, log, NL).get("author") == ""


def test_evidence_reads_the_citations_of_its_profile():
    line = types.SimpleNamespace(file="a.txt", num=1, text="zie artikel 53A; Art.53B")
    assert structure.Evidence([line], NL).citing == {"53A": [("a.txt", 1, "artikel 53A")],
                                                     "53B": [("a.txt", 1, "Art.53B")]}
    other = made_up(EVIDENCE_CITING=r"\bArt\.(\d[A-Za-z0-9]*)")
    assert structure.Evidence([line], other).citing == {"53B": [("a.txt", 1, "Art.53B")]}


# -- the manifest picks the profile -------------------------------------------------------------------
WIKI = "Artikel 9\n\nDe spelers schudden de kaarten (zie artikel 9, clause 9).\n"


def book(tmp_path, top):
    folder = tmp_path / "sources"
    folder.mkdir(parents=True)
    (folder / "a.txt").write_text(WIKI, encoding="utf-8")
    (folder / "sources.toml").write_text(f'{top}\n[[source]]\nfile = "a.txt"\nedition = "2017"\n',
                                         encoding="utf-8")
    return folder


def test_the_manifest_language_is_nl_by_default_and_when_given():
    assert manifest.load_manifest(SOURCES).language == "nl"
    assert manifest.load_manifest(SOURCES).profile is NL
    assert all(s.language == "nl" for s in manifest.load_manifest(SOURCES))


def test_the_manifest_language_picks_the_profile_of_every_stage(tmp_path, monkeypatch):
    monkeypatch.setattr(lang, "_profiles", lambda: {"nl": NL, "xx": XX})
    ctx = stages.make_corpus(book(tmp_path, '# the book\nlanguage = "xx"'))
    assert ctx.profile is XX and ctx.sources.language == "xx"
    assert [(r.text, r.get("to")) for r in ctx.corpus.iter("ref")] == [("clause 9", "2017/9")]
    ctx = stages.make_corpus(book(tmp_path / "nl", 'language = "nl"'))
    assert [(r.text, r.get("to")) for r in ctx.corpus.iter("ref")] == [("artikel 9", "2017/9")]


@pytest.mark.parametrize("top, message, fix", [
    ('language = "de"', "unknown language 'de'", "set language to one of en, fr, nl (or leave it out for nl)"),
    ("language = 31", "the manifest's language must be a string",
     'write language = "nl" in quotes (one of en, fr, nl)'),
])
def test_an_unknown_language_is_refused_naming_the_manifest_and_its_line(tmp_path, top, message, fix):
    folder = book(tmp_path, f"# the book\n\n{top}")
    with pytest.raises(LawbookError) as caught:
        manifest.load_manifest(folder)
    e = caught.value
    assert (e.file, e.line, e.message, e.fix, e.status) == (str(folder / "sources.toml"), 3, message, fix, 2)


def test_an_unknown_language_fails_the_command_with_one_message(tmp_path):
    from conftest import run_lawbook
    folder = book(tmp_path, 'language = "de"')
    done = run_lawbook("build", "--sources", folder, "--out", tmp_path / "out")
    assert done.returncode == 2
    assert done.stderr == (f"lawbook: error: {folder / 'sources.toml'}:1: unknown language 'de'\n"
                           f"  fix: set language to one of en, fr, nl (or leave it out for nl)\n")
    assert not (tmp_path / "out").exists()


# -- the English profile --------------------------------------------------------------------------
def test_the_english_profile_has_every_rule_and_word_the_dutch_one_has():
    en = lang.profile("en")
    dutch = {name for name in dir(nl_rules) if name.isupper()}
    assert dutch == {name for name in dir(en.rules) if name.isupper()}
    assert set(NL.words) == set(en.words)
    assert en.tag == "en-US"
    # The WBF Laws' own word for a numbered part, capitalised where it has a number.
    assert en.word("Article %(num)s") == "Law %(num)s"
    assert en.word("article %(num)s") == "Law %(num)s"
    assert en.word("the law text of article %(num)s is in none of the sources.") == \
        "the text of Law %(num)s is in none of the sources."
    assert "an law" not in " ".join(en.words.values())
