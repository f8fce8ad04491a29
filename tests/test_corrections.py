"""sources/corrections.toml: the committee's corrections, applied after merge, kept beside the source's words."""
import json

import pytest

from conftest import SOURCES, assert_validates, run_lawbook
from pipeline import cli
from pipeline.publish import run as build
from pipeline.core import tree
from pipeline.outputs import serialise

F000, F002 = "000_8d35bcdf16b9ca3e.txt", "002_2f2ff1709dbc3ec0.txt"
SHIPPED = (SOURCES / "corrections.toml").read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def ctx(five_sources):
    return five_sources


def node(corpus, node_id):
    return tree.node_by_id(corpus, node_id)


def cited(el):
    return [(r.text, r.get("to"), r.get("status")) for r in el.find("p").iter("ref")]


def test_47E_renumbered_under_a_new_47E2(ctx):
    corpus = ctx.corpus
    assert node(corpus, "2017/47E1a") is None and node(corpus, "2017/47E1b") is None
    e2 = node(corpus, "2017/47E2")
    assert [c.get("id") for c in tree.child_nodes(e2)] == ["2017/47E2a", "2017/47E2b"]
    assert e2.find("p") is None and e2.find("gap") is None  # no text of its own, and none missing
    assert (e2.get("numbering"), e2.get("evidence")) == (
        "inferred", "created by the correction at corrections.toml:7 to hold 2017/47E2a (basis: WBF Laws 2017, "
                    "Law 47E2(a)); it has no text of its own in the sources")
    assert e2.get("sources") == f"{F002}:8-9"
    assert node(corpus, "2017/47E1").get("sources") == f"{F002}:3,7"  # the items' lines went with them
    # The references stage ran after: "(a)" in 47E2b cites 47E2a.
    assert cited(node(corpus, "2017/47E2b")) == [("(a)", "2017/47E2a", "ok")]
    # The source's ID is kept with the node.
    corr = node(corpus, "2017/47E2a").find("corr")
    assert dict(corr.attrib) == {"kind": "renumber", "was": "2017/47E1a", "line": "7",
                                 "basis": "WBF Laws 2017, Law 47E2(a)"}


def test_24E_cites_50_and_51_and_keeps_what_the_source_said(ctx):
    e24 = node(ctx.corpus, "2017/24E")
    assert cited(e24) == [("artikel 50", "2017/50", "ok"), ("artikel 51", "2017/51", "dangling")]
    corr = e24.find("corr")
    assert dict(corr.attrib) == {"kind": "replace", "was": "artikel 50 en artikel 50", "now": "artikel 50 en artikel 51",
                                 "paragraph": "1", "start": "116", "end": "140", "line": "21",
                                 "basis": "WBF Laws 2017, Law 24E: 'Laws 50 and 51'"}
    assert tree.plain_text(e24.find("p"))[116:140] == "artikel 50 en artikel 51"


def test_the_corpus_json_holds_the_corrections_and_both_schemas_accept_them(ctx):
    assert_validates(ctx.corpus, serialise.to_json(ctx.corpus))
    data = serialise.to_json(ctx.corpus)
    article24 = next(a for a in data["editions"][1]["articles"] if a["id"] == "2017/24")
    e24 = next(c for c in article24["content"] if c.get("id") == "2017/24E")
    corr, p = e24["content"]
    assert corr == {"type": "corr", "kind": "replace", "was": "artikel 50 en artikel 50",
                    "now": "artikel 50 en artikel 51", "paragraph": 1, "start": 116, "end": 140,
                    "basis": "WBF Laws 2017, Law 24E: 'Laws 50 and 51'", "line": 21}
    assert p["text"][corr["start"]:corr["end"]] == corr["now"]


def test_the_report_lists_each_correction_with_its_basis(ctx):
    entries = [(e.kind, e.file, e.line, e.node, e.message, e.before, e.after) for e in ctx.log.entries
               if "corrections.toml" in e.message]
    assert entries == [
        ("inference", F002, 8, "2017/47E2", "2017/47E2 created to hold 2017/47E2a, by corrections.toml:7 "
                                            "(basis: WBF Laws 2017, Law 47E2(a))", None, None),
        ("repair", F002, 8, "2017/47E2a", "renumbered 2017/47E1a to 2017/47E2a by corrections.toml:7 "
                                          "(basis: WBF Laws 2017, Law 47E2(a))", "2017/47E1a", "2017/47E2a"),
        ("repair", F002, 9, "2017/47E2b", "renumbered 2017/47E1b to 2017/47E2b by corrections.toml:14 "
                                          "(basis: WBF Laws 2017, Law 47E2(b))", "2017/47E1b", "2017/47E2b"),
        ("repair", F000, 60, "2017/24E", "words corrected by corrections.toml:21 (basis: WBF Laws 2017, Law 24E: "
                                         "'Laws 50 and 51')", "artikel 50 en artikel 50", "artikel 50 en artikel 51")]
    assert "corrections.toml" not in {s["file"] for s in ctx.log.sources}  # not a source of law text
    assert ctx.log.errors == []


def test_no_corrections_builds_the_book_as_the_sources_say(ctx, tmp_path):
    plain = build.make_corpus(SOURCES, {"no_corrections": True})
    assert node(plain.corpus, "2017/47E1a") is not None and node(plain.corpus, "2017/47E2") is None
    assert not list(plain.corpus.iter("corr"))
    # The option is an input of the build: the folder built without corrections is rebuilt with them.
    out = tmp_path / "build"
    assert run_lawbook("build", "--sources", SOURCES, "--out", out, "--no-pdf", "--no-corrections").returncode == 0
    assert "2017/47E1a" in (out / "corpus.json").read_text(encoding="utf-8")
    again = run_lawbook("build", "--sources", SOURCES, "--out", out, "--no-pdf")
    assert again.returncode == 0 and again.stdout.startswith(f"built {out}/"), again.stdout
    assert '"id":"2017/47E2a"' in (out / "corpus.json").read_text(encoding="utf-8")
    assert "renumbered 2017/47E1a to 2017/47E2a by corrections.toml:7" in (out / "report.txt").read_text("utf-8")


def write(folder, text):
    (folder / "corrections.toml").write_text(text, encoding="utf-8")


@pytest.mark.parametrize("old, new, message", [
    ('node = "2017/47E1a"', 'node = "2017/47E1c"', "2017/47E1c is not in the corpus"),
    ('to = "2017/47E2a"', 'to = "2017/47E1b"', "2017/47E1b is already in the corpus, so 2017/47E1a cannot take its number"),
    ('words = "artikel 50 en artikel 50"', 'words = "artikel 50 en artikel 52"',
     "the words 'artikel 50 en artikel 52' are not in the text of 2017/24E (outside its notes)"),
    ('words = "artikel 50 en artikel 50"', 'words = "artikel 50"',
     "the words 'artikel 50' stand 2 times in the text of 2017/24E (outside its notes); give more of the words, "
     "so that they stand once"),
])
def test_a_correction_that_no_longer_applies_fails_the_build_at_its_line(sources_copy, old, new, message):
    assert SHIPPED.count(old) == 1
    write(sources_copy, SHIPPED.replace(old, new))
    ctx = build.make_corpus(sources_copy)
    lines = SHIPPED.replace(old, new).splitlines()
    changed = lines.index(new)
    line = max(n for n, text in enumerate(lines[:changed + 1], 1) if text == "[[correction]]")
    errors = [(e.kind, e.file, e.line, e.message) for e in ctx.log.errors]
    assert errors[0] == ("error", "corrections.toml", line, f"{message}; update or remove this entry of "
                                                            f"corrections.toml: the sources no longer say what it "
                                                            f"corrects")
    # With 47E1a left where it was, the next entry would create 47E2 itself, which it does not say it does.
    assert errors[1:] == ([("error", "corrections.toml", 14, "renumbering 2017/47E1b to 2017/47E2b would create "
                                                             "2017/47E2, which the sources do not have; the correction "
                                                             "is not applied: check `to`, or, where the original has "
                                                             "it, add creates = true to this entry")]
                          if line == 7 else [])


def test_a_stale_correction_is_one_error_line_and_status_1(sources_copy, tmp_path, capsys):
    write(sources_copy, SHIPPED.replace('node = "2017/24E"', 'node = "2017/24D"'))
    status = cli.main(["build", "--sources", str(sources_copy), "--out", str(tmp_path / "out"), "--no-pdf"])
    err = capsys.readouterr().err
    assert status == 1
    assert err.splitlines()[0] == ("lawbook: error: corrections.toml:21: the words 'artikel 50 en artikel 50' are not in "
                                   "the text of 2017/24D (outside its notes); update or remove this entry of "
                                   "corrections.toml: the sources no longer say what it corrects")
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("text, line, message, fix", [
    ('[[correction]]\nkind = "move"\nnode = "2017/24E"\nbasis = "x"\n', 1,
     "[[correction]] number 1: unknown kind 'move'", "set kind to one of renumber, replace, accept"),
    ('# one\n[[correction]]\nkind = "accept"\nnode = "2017/24E"\n', 2,
     "[[correction]] number 1: basis is missing or empty", 'give basis = "…" (a accept correction needs basis, node)'),
    ('[[correction]]\nkind = "accept"\nnode = "2017/24E"\nbasis = "x"\nto = "2017/24F"\n', 1,
     "[[correction]] number 1: a accept correction has no key 'to'", "use only basis, kind, node"),
    ('[[correction]]\nkind = "renumber"\nnode = "2017/47E1a"\nto = "2017/47E2"\nbasis = "x"\n', 1,
     "[[correction]] number 1: 2017/47E1a cannot be renumbered to 2017/47E2: a renumbering keeps the edition and "
     "the level and changes the number", "give a new ID of the same edition and level"),
    ('[[correction]]\nkind = "accept"\nnode = "47E"\nbasis = "x"\n', 1,
     "[[correction]] number 1: node '47E' is not the ID of a node", 'give an edition and a citation, e.g. node = "2017/47E2a"'),
    ('[[correction]\n', 1, "not valid TOML: Expected ']]' at the end of an array declaration",
     "correct the TOML syntax at that line"),
])
def test_a_malformed_corrections_file_is_one_message(sources_copy, tmp_path, capsys, text, line, message, fix):
    write(sources_copy, text)
    status = cli.main(["build", "--sources", str(sources_copy), "--out", str(tmp_path / "out"), "--no-pdf"])
    assert status == 2
    assert capsys.readouterr().err == (f"lawbook: error: {sources_copy / 'corrections.toml'}:{line}: {message}\n"
                                       f"  fix: {fix}\n")


def test_two_replacements_in_one_paragraph_keep_their_offsets(sources_copy):
    write(sources_copy, SHIPPED + '\n[[correction]]\nkind = "replace"\nnode = "2017/24E"\nwords = "einde"\n'
                                  'by = "eind"\nbasis = "spelling"\n')
    ctx = build.make_corpus(sources_copy)
    e24 = node(ctx.corpus, "2017/24E")
    text = tree.plain_text(e24.find("p"))
    spans = [(c.get("now"), int(c.get("start")), int(c.get("end"))) for c in e24.iter("corr")]
    assert spans == [("artikel 50 en artikel 51", 115, 139), ("eind", 11, 15)]
    assert all(text[start:end] == now for now, start, end in spans)


def test_an_accepted_difference_is_marked(sources_copy):
    write(sources_copy, SHIPPED + '\n[[correction]]\nkind = "accept"\nnode = "2017/57B"\n'
                                  'basis = "only the heading in the Dutch sources"\n')
    ctx = build.make_corpus(sources_copy)
    data = serialise.to_json(ctx.corpus)
    article57 = next(a for a in data["editions"][1]["articles"] if a["id"] == "2017/57")
    b = next(c for c in article57["content"] if c.get("id") == "2017/57B")
    assert b["content"] == [{"type": "corr", "kind": "accept", "basis": "only the heading in the Dutch sources",
                             "line": 32},
                            {"type": "gap", "reason": "De tekst van 57B ontbreekt in de bronnen; alleen het opschrift "
                                                      "is overgeleverd."}]
    assert serialise.validate_json(data) == [] and serialise.validate_xml(ctx.corpus) == []


def test_an_article_renumbered_keeps_its_place_and_its_commentary(sources_copy):
    """A whole article renumbered (and a section moved into an article the corpus lacks): both stand in
    number order before the commentary, and the corpus stays valid."""
    write(sources_copy, '[[correction]]\nkind = "renumber"\nnode = "2017/53"\nto = "2017/54"\nbasis = "test"\n\n'
                        '[[correction]]\nkind = "renumber"\nnode = "2017/47B"\nto = "2017/99B"\ncreates = true\nbasis = "test"\n')
    ctx = build.make_corpus(sources_copy)
    assert ctx.log.errors == []
    edition = next(e for e in ctx.corpus.iterchildren("edition") if e.get("id") == "2017")
    assert [a.get("id") for a in edition.iterchildren("article")] == [
        "2017/16", "2017/24", "2017/41", "2017/47", "2017/50", "2017/54", "2017/57", "2017/99"]
    assert [c.tag for c in edition][-1] == "commentary"
    assert node(ctx.corpus, "2017/54A").find("corr") is None  # the record is on the node renumbered
    assert node(ctx.corpus, "2017/54").find("corr").get("was") == "2017/53"
    assert node(ctx.corpus, "2017/99").get("evidence").startswith("created by the correction at corrections.toml:7")
    assert serialise.validate_xml(ctx.corpus) == [] and serialise.validate_json(serialise.to_json(ctx.corpus)) == []


def test_show_says_what_the_source_said(capsys):
    assert cli.main(["show", "2017/24E"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[1] == ("  [corrected: the source says 'artikel 50 en artikel 50', corrected to 'artikel 50 "
                                   "en artikel 51'; WBF Laws 2017, Law 24E: 'Laws 50 and 51' (corrections.toml:21)]")
    assert cli.main(["show", "2017/47E2a", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["corrections"] == [
        {"type": "corr", "kind": "renumber", "was": "2017/47E1a", "basis": "WBF Laws 2017, Law 47E2(a)", "line": 7}]
