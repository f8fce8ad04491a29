"""The command line as a director and an editor use it: `show` forgiving how an ID is typed, help
for every command and option, the closing line of `build`, `check` grouped by target."""
import json
import subprocess

import pytest

from conftest import ROOT, run_lawbook

SOURCES = ROOT / "sources"


def show(*args):
    return run_lawbook("show", *args, "--sources", SOURCES)


@pytest.mark.parametrize("typed, shown", [("2017/53a", "2017/53A"), ("2017/50d2a", "2017/50D2a"),
                                          ("2007 41b", "2007/41B"), ("2017/50D2(a)", "2017/50D2a")])
def test_show_reads_an_id_in_any_case_and_form(typed, shown):
    result = show(typed)
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[0].startswith(shown)
    assert f"showing {shown}" in result.stderr


def test_show_without_edition_takes_the_newest_and_says_so():
    result = show("41", "--json")
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["id"] == "2017/41"
    assert "showing 2017/41: 2017 is the newest edition that holds 41" in result.stderr
    assert json.loads(show("25", "--json").stdout)["id"] == "2007/25"  # only 2007 has 25


def test_show_a_note_prints_its_text_and_its_dangling_reference():
    result = show("2017/50D2a/noot1")
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[1] == \
        "  Zie artikel 59[?], als de speler niet kan voorspelen zoals voorgeschreven."
    assert "  [?] 'artikel 59' -> 2017/59: not in the corpus" in result.stdout


def test_show_an_article_known_only_from_its_commentary():
    result = show("2017/54")
    assert result.returncode == 0, result.stderr
    assert "2017/54: the text of this article is in none of the sources; its commentary:" in result.stderr
    assert result.stdout.startswith("2017/54/toelichting1  commentary by Peter on 2017/54 (not law text)")


def test_show_marks_inferred_numbering_with_its_evidence():
    lines = show("2017/53B").stdout.splitlines()
    assert lines[0] == "2017/53B°  Juist voorspelen volgend op onregelmatig voorspelen"
    assert any(line.startswith("  ° section B of 2017/53 inferred from list number 2.") for line in lines)


def test_show_suggests_only_ids_of_the_same_article_nearest_first():
    unknown = show("2017/53D")
    assert unknown.returncode == 1
    assert unknown.stderr.splitlines() == ["lawbook: error: 2017/53D is not in the corpus",
                                           "  fix: did you mean 2017/53, 2017/53A, 2017/53B?"]
    # One edit from 47E1 and two from 47E and 47E2: never an ID of another article.
    assert show("2017/47E1c").stderr.splitlines()[1] == "  fix: did you mean 2017/47E1, 2017/47E, 2017/47E2?"


def test_show_an_article_the_edition_lacks_says_so_and_suggests_nothing_far():
    result = show("2017/99")
    assert result.returncode == 1
    assert result.stderr.splitlines() == [
        "lawbook: error: 2017/99 is not in the corpus: edition 2017 holds no article 99",
        "  fix: the articles of edition 2017 are 16, 24, 41, 47, 50, 53, 57"]
    # An article another edition holds: that edition is named.
    assert show("2017/25").stderr.splitlines()[1] == "  fix: edition 2007 holds 25"


@pytest.mark.parametrize("command", [("show", "2019/53"), ("diff", "2019", "2017")])
def test_an_unknown_edition_is_one_message_and_status_2_everywhere(command):
    result = run_lawbook(*command, "--sources", SOURCES)
    assert result.returncode == 2
    assert result.stderr.splitlines() == ["lawbook: error: edition 2019 is not in the corpus",
                                          "  fix: the editions are 2007, 2017"]


def test_show_follows_a_renumbering_correction():
    result = show("2017/47E1a")
    assert result.returncode == 0, result.stderr
    assert result.stderr == "2017/47E1a: renumbered to 2017/47E2a by corrections.toml:7; showing 2017/47E2a\n"
    assert result.stdout.startswith("2017/47E2a°\n")
    assert show("47e1b").stderr.startswith("2017/47E1b: renumbered to 2017/47E2b by corrections.toml:14;")


def test_show_never_calls_an_article_with_a_page_not_in_the_corpus():
    lines = show("2017/54").stdout.splitlines()
    assert "  [?] 'artikel 54' -> 2017/54: text in none of the sources, its commentary in the corpus" in lines
    assert "  [?] 'art 58' -> 2017/58: not in the corpus" in lines


@pytest.mark.parametrize("typed", ["artikel 53A", "Artikel 53a", "ARTIKEL 2017/53A"])
def test_show_accepts_the_citation_keyword_as_search_does(typed):
    result = show(typed)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("2017/53A°  Voor de beurt voorspelen behandeld als juist voorgespeeld\n")
    bad = show("artikel vijf")
    assert bad.returncode == 2 and "is not an ID" in bad.stderr and "Traceback" not in bad.stderr


def test_show_accepts_the_english_keyword_in_an_english_book(tmp_path):
    (tmp_path / "law.txt").write_text("LAW 53 - MADE-UP LAW\nA. Made-up Section\nA rule made up for this test.\n",
                                      encoding="utf-8")
    (tmp_path / "sources.toml").write_text('language = "en"\n[[source]]\nfile = "law.txt"\nedition = "2017"\n',
                                           encoding="utf-8")
    result = run_lawbook("show", "Law 53A", "--sources", tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("2017/53A")
    # The other language's keyword is not this book's.
    assert run_lawbook("show", "artikel 53A", "--sources", tmp_path).returncode == 2


@pytest.mark.parametrize("command", ["build", "show", "check", "diff", "serve"])
def test_every_command_and_option_has_help(command):
    result = run_lawbook(command, "--help")
    assert result.returncode == 0
    options = [line for line in result.stdout.splitlines() if line.lstrip().startswith("-")]
    assert options, result.stdout
    import argparse
    from pipeline import cli

    parser = argparse.ArgumentParser()
    sub = parser.add_subparsers()
    for register in cli.COMMANDS:
        register(sub)
    action = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    p = action.choices[command]
    assert next(c.help for c in action._choices_actions if c.dest == command), command
    for a in p._actions:
        assert a.help, f"{command} {a.option_strings or a.dest} has no help"


def test_build_ends_with_the_dangling_references_and_the_report(tmp_path):
    # As the sources say it (--no-corrections), 24E cites 50 twice: one suspect reference.
    result = run_lawbook("build", "--sources", SOURCES, "--out", tmp_path / "build", "--no-pdf", "--no-corrections")
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[-1] == (
        f"28 references point outside the corpus, 1 suspect: `lawbook check` lists them; "
        f"the report is {tmp_path / 'build'}/report.txt")
    # Corrected (sources/corrections.toml), 24E cites 50 and 51, and 51 is not in the corpus.
    result = run_lawbook("build", "--sources", SOURCES, "--out", tmp_path / "corrected", "--no-pdf")
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[-1] == (
        f"29 references point outside the corpus: `lawbook check` lists them; "
        f"the report is {tmp_path / 'corrected'}/report.txt")


def test_check_groups_the_dangling_references_by_target():
    result = run_lawbook("check", "--sources", SOURCES)
    assert result.returncode == 1
    block = result.stdout.split("by target (21 not in the corpus, each with what cites it):\n")[1]
    assert "  2007/23: cited by 2007/24B, 2007/24C\n" in block
    assert "  2017/59: cited by 2017/50D2a/noot1, 2017/50D2a/noot2\n" in block
