"""corrections.toml cannot make up law: a renumbering creates nodes only where its entry says so, and
every value is checked, type and characters, before anything is applied (docs/align.md)."""
import pytest
from hypothesis import given, settings, strategies as st

from conftest import SOURCES, run_lawbook
from pipeline.publish import run as build
from pipeline.core import tree
from pipeline.core.errors import LawbookError
from pipeline.corpus import corrections
from pipeline.reading import decode

SHIPPED = (SOURCES / "corrections.toml").read_text(encoding="utf-8")
NOT_APPLIED = "the correction is not applied: check `to`, or, where the original has {}, add creates = true to this entry"


def write(folder, text):
    (folder / "corrections.toml").write_text(text, encoding="utf-8")


def ids_of(corpus, prefix):
    return [el.get("id") for el in corpus.iter(*tree.NODE_TAGS) if el.get("id").startswith(prefix)]


# -- creating nodes ------------------------------------------------------------------------------
def test_the_shipped_file_says_it_creates_47E2():
    [first, second, third] = corrections.load(SOURCES / "corrections.toml")
    assert (first["node"], first["to"], first["creates"], first["line"]) == ("2017/47E1a", "2017/47E2a", True, 7)
    assert "creates" not in second and "creates" not in third  # 47E2 exists when they apply


def test_a_typo_in_to_that_would_create_an_article_is_an_error_at_its_line(sources_copy, tmp_path):
    write(sources_copy, SHIPPED.replace('to = "2017/47E2a"', 'to = "2017/74E2a"').replace("creates = true", ""))
    ctx = build.make_corpus(sources_copy)
    assert [(e.kind, e.file, e.line, e.node, e.message) for e in ctx.log.errors] == [
        ("error", "corrections.toml", 7, "2017/47E1a",
         "renumbering 2017/47E1a to 2017/74E2a would create 2017/74, 2017/74E, 2017/74E2, which the sources do not "
         "have; " + NOT_APPLIED.format("them")),
        # 47E1a stays where it was, so the next entry would create 47E2, which it does not say either.
        ("error", "corrections.toml", 14, "2017/47E1b",
         "renumbering 2017/47E1b to 2017/47E2b would create 2017/47E2, which the sources do not have; "
         + NOT_APPLIED.format("it"))]
    # Nothing was made up and nothing moved: 47 keeps 47E1a, there is no article 74.
    assert ids_of(ctx.corpus, "2017/74") == []
    assert ids_of(ctx.corpus, "2017/47E") == ["2017/47E", "2017/47E1", "2017/47E1a", "2017/47E1b"]
    result = run_lawbook("build", "--no-pdf", "--sources", sources_copy, "--out", tmp_path / "out")
    assert result.returncode == 1
    assert result.stderr.splitlines()[0] == (
        "lawbook: error: corrections.toml:7: renumbering 2017/47E1a to 2017/74E2a would create 2017/74, 2017/74E, "
        "2017/74E2, which the sources do not have; " + NOT_APPLIED.format("them"))
    assert not (tmp_path / "out").exists()


def test_creates_true_lets_the_entry_create_and_the_report_says_so(sources_copy):
    write(sources_copy, '[[correction]]\nkind = "renumber"\nnode = "2017/47E1a"\nto = "2017/74E2a"\ncreates = true\n'
                        'basis = "test"\n')
    ctx = build.make_corpus(sources_copy)
    assert ctx.log.errors == []
    assert ids_of(ctx.corpus, "2017/74") == ["2017/74", "2017/74E", "2017/74E2", "2017/74E2a"]
    assert [e.message for e in ctx.log.entries if "created to hold" in e.message] == [
        "2017/74, 2017/74E, 2017/74E2 created to hold 2017/74E2a, by corrections.toml:1 (basis: test)"]


def test_a_renumbering_within_existing_nodes_needs_no_creates(sources_copy):
    write(sources_copy, '[[correction]]\nkind = "renumber"\nnode = "2017/47E1b"\nto = "2017/47E1c"\nbasis = "test"\n')
    ctx = build.make_corpus(sources_copy)
    assert ctx.log.errors == []
    assert ids_of(ctx.corpus, "2017/47E") == ["2017/47E", "2017/47E1", "2017/47E1a", "2017/47E1c"]


# -- malformed values: one message, file and line, status 2 ----------------------------------------
ENTRY = '# the entry\n[[correction]]\nkind = "replace"\nnode = "2017/24E"\nwords = "artikel 50 en artikel 50"\n' \
        'by = "artikel 50 en artikel 51"\nbasis = "WBF"\n'


@pytest.mark.parametrize("text, line, message, fix", [
    ("correction = [1]\n", 1, "[[correction]] number 1: is the number 1, not a table",
     "write each correction as a [[correction]] table with kind, node and basis (see docs/align.md)"),
    (ENTRY.replace('kind = "replace"', 'kind = ["accept"]'), 3,
     "[[correction]] number 1: kind is an array, not a string", 'write kind = "…" in quotes, one of renumber, replace, accept'),
    (ENTRY.replace('node = "2017/24E"', "node = 24"), 4,
     "[[correction]] number 1: node is the number 24, not a string", 'write node = "…" in quotes'),
    (ENTRY.replace('basis = "WBF"', "basis = 2017-01-01"), 7,
     "[[correction]] number 1: basis is a date or time (2017-01-01), not a string", 'write basis = "…" in quotes'),
    (ENTRY.replace('basis = "WBF"', "basis = { text = 'x' }"), 7,
     "[[correction]] number 1: basis is a table, not a string", 'write basis = "…" in quotes'),
    (ENTRY.replace('by = "artikel 50 en artikel 51"', 'by = "artikel 50 en\\u0000 artikel 51"'), 6,
     "[[correction]] number 1: by holds control character U+0000 at character 14 of its value",
     "remove it; it is not law text (a wrong encoding or binary data may be the cause)"),
    (ENTRY.replace('by = "artikel 50 en artikel 51"', 'by = "\\u001b[31martikel 51"'), 6,
     "[[correction]] number 1: by holds control character U+001B at character 1 of its value",
     "remove it; it is not law text (a wrong encoding or binary data may be the cause)"),
    (ENTRY.replace('basis = "WBF"', 'basis = "WBF\\uFFFE"'), 7,
     "[[correction]] number 1: basis holds noncharacter U+FFFE at character 4 of its value",
     "remove it; it is not text (a damaged export may be the cause)"),
    (ENTRY.replace('basis = "WBF"', 'basis = "WBF \\u202Eoiceb"'), 7,
     "[[correction]] number 1: basis holds bidirectional control U+202E (right-to-left override) at character 5 "
     "of its value: it makes text display in another order than it reads",
     "remove it; law text needs no direction controls"),
    (ENTRY.replace('by = "artikel 50 en artikel 51"', 'by = "artikel 50 en artikel \\uE051"'), 6,
     "[[correction]] number 1: by holds private-use character U+E051 at character 23 of its value: no law text "
     "uses it", "remove it or replace it by the character it stands for"),
    (ENTRY.replace('words = "artikel 50 en artikel 50"', 'words = "artikel 50\\fen artikel 50"'), 5,
     "[[correction]] number 1: words holds control character U+000C at character 11 of its value",
     "remove it; it is not law text (a wrong encoding or binary data may be the cause)"),
    (ENTRY.replace('basis = "WBF"', 'basis = """WBF\nLaw 24E"""'), 7,
     "[[correction]] number 1: basis holds a line break at character 4 of its value: a value is one line",
     "write the value on one line"),
    (ENTRY.replace('node = "2017/24E"', 'node = "2017/24\\u202eE"'), 4,
     "[[correction]] number 1: node holds bidirectional control U+202E (right-to-left override) at character 8 of "
     "its value: it makes text display in another order than it reads", "remove it; law text needs no direction controls"),
    ('[[correction]]\nkind = "renumber"\nnode = "2017/47E1a"\nto = "2017/47E2a"\ncreates = "yes"\nbasis = "x"\n', 5,
     "[[correction]] number 1: creates is the string 'yes', not true or false",
     "write creates = true (without quotes) where the original has the nodes the renumbering creates, or leave it out"),
    ('[[correction]]\nkind = "accept"\nnode = "2017/24E"\ncreates = true\nbasis = "x"\n', 1,
     "[[correction]] number 1: a accept correction has no key 'creates'", "use only basis, kind, node"),
    # A number no ID can have: before, the build ended at the page's file name ("File name too long") with a fix
    # about permissions and free space.
    (f'[[correction]]\nkind = "renumber"\nnode = "2017/53"\nto = "2017/{"9" * 400}"\nbasis = "x"\n', 4,
     "[[correction]] number 1: to names no node the book can have: article number 99999999… (400 digits) cannot "
     "be written as an ID: a number has at most 6 digits (the Laws number their articles to 93)",
     'give the ID the original gives the node, e.g. to = "2017/47E2a"'),
])
def test_a_malformed_value_is_one_message_with_file_and_line(sources_copy, tmp_path, text, line, message, fix):
    write(sources_copy, text)
    result = run_lawbook("build", "--no-pdf", "--sources", sources_copy, "--out", tmp_path / "out")
    assert (result.returncode, result.stderr) == (
        2, f"lawbook: error: {sources_copy / 'corrections.toml'}:{line}: {message}\n  fix: {fix}\n")
    assert not (tmp_path / "out").exists()


def test_an_inline_array_of_entries_is_checked_the_same(tmp_path):
    path = tmp_path / "corrections.toml"
    path.write_text('# x\ncorrection = [{ kind = "accept", node = "2017/24E", basis = "a\\u202eb" }]\n', encoding="utf-8")
    with pytest.raises(LawbookError) as e:
        corrections.load(path)
    assert (e.value.line, e.value.message) == (2, "[[correction]] number 1: basis holds bidirectional control U+202E "
                                                  "(right-to-left override) at character 2 of its value: it makes "
                                                  "text display in another order than it reads")


# The rule is the sources' rule: any character decode.REFUSED refuses in a source is refused in a value.
REFUSED = st.one_of(st.characters(min_codepoint=0, max_codepoint=0x1F).filter(lambda c: c not in "\t\n\r"),
                    st.characters(min_codepoint=0x7F, max_codepoint=0x9F), st.sampled_from("\u202a\u202b\u202c\u202d"
                                                                                           "\u202e\u2066\u2067\u2068\u2069"
                                                                                           "\ufffe\uffff"),
                    st.characters(min_codepoint=0xE000, max_codepoint=0xF8FF))
PLAIN = st.text(alphabet=st.characters(categories=("L", "N", "Zs", "P")), max_size=20)


@settings(max_examples=80, deadline=None)
@given(before=PLAIN, char=REFUSED, after=PLAIN, key=st.sampled_from(["node", "basis"]))
def test_every_character_a_source_refuses_is_refused_in_a_value(tmp_path_factory, before, char, after, key):
    path = tmp_path_factory.mktemp("c") / "corrections.toml"
    value = before + char + after
    entry = {"kind": "accept", "node": "2017/24E", "basis": "x", key: value}
    escaped = value.replace("\\", "\\\\").replace('"', '\\"')
    escaped = "".join(c if c.isprintable() and c not in "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
                      else f"\\u{ord(c):04X}" if ord(c) <= 0xFFFF else c for c in escaped)
    lines = ["[[correction]]"] + [f'{k} = "{escaped if k == key else v}"' for k, v in entry.items()]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    assert decode.REFUSED.search(value) or decode.PAGE_BREAK.search(value)
    with pytest.raises(LawbookError) as e:
        corrections.load(path)
    what = decode.refused_character(char)[0]
    assert e.value.message.startswith(f"[[correction]] number 1: {key} holds {what} at character {len(before) + 1} ")
    assert e.value.line == 1 + list(entry).index(key) + 1 and e.value.status == 2
