"""The stages: each corpus stage on small hand-made input (merge and finish), and the declared chain.

The end-to-end tests (test_corpus.py) run every stage on the five real sources; the first tests here
pin what each stage guarantees on its own, with trees built here in a few lines. The others hold the
chain (core/stage.py, publish/run.py) to its API, and every stage to its declaration: a context that
records what a stage reads and sets fails on a field the stage does not declare.
"""
import dataclasses
import re

import pytest
from hypothesis import given, strategies as st
from lxml import etree

from pipeline import cli
from pipeline.core import lang, tree
from pipeline.core.errors import LawbookError
from pipeline.core.model import NOTE_MARK, Note
from pipeline.core.options import Options
from pipeline.core.report import BuildLog
from pipeline.core.stage import SIDE, Chain, Stage
from pipeline.corpus import finish, merge, stages
from pipeline.corpus.structure import Fragment
from pipeline.outputs.job import Job
from pipeline.publish import run

from conftest import ROOT, SOURCES


def article(edition, num, *children, title=None, file="a.txt", line=1):
    """<article> with an optional <title> and (tag, num, text) children, each with one source line."""
    el = etree.Element("article", id=f"{edition}/{num}", num=num)
    tree.add_sources(el, file, [line])
    if title:
        t = etree.SubElement(el, "title")
        t.text = title
    for n, (tag, child_num, text) in enumerate(children, 1):
        child = etree.SubElement(el, tag, id=f"{edition}/{num}{child_num}", num=child_num)
        tree.add_sources(child, file, [line + n])
        if text is not None:
            child.append(tree.make_paragraph(text, [], file, [line + n]))
    return el


def fragment(file, edition, *articles):
    return Fragment(file, edition, articles=list(articles))


def test_merge_one_article_from_two_sources_is_one_article_with_both_provenances():
    log = BuildLog()
    a = article("2017", "53", ("section", "A", "Een voor de beurt voorgespeelde kaart."), title="Accepteren")
    b = article("2017", "53", ("section", "A", "Een voor de beurt voorgespeelde kaart."), title="Accepteren",
                file="b.txt", line=10)
    corpus = merge.merge([fragment("a.txt", "2017", a), fragment("b.txt", "2017", b)], log)
    articles = corpus.findall("edition/article")
    assert [x.get("id") for x in articles] == ["2017/53"]
    assert articles[0].get("sources") == "a.txt:1 b.txt:10"
    assert articles[0].find("section").get("sources") == "a.txt:2 b.txt:11"
    assert log.entries == []


def test_merge_keeps_editions_apart_and_articles_in_number_order():
    log = BuildLog()
    corpus = merge.merge([fragment("a.txt", "2017", article("2017", "53"), article("2017", "9")),
                          fragment("b.txt", "2007", article("2007", "41", file="b.txt"))], log)
    assert [(e.get("id"), [a.get("num") for a in e.iterchildren("article")]) for e in corpus] == \
        [("2007", ["41"]), ("2017", ["9", "53"])]


def test_merge_capitalisation_variant_keeps_the_capitalised_reading_and_logs_both():
    log = BuildLog()
    a = article("2017", "53", ("section", "B", "artikel 16C is van toepassing."))
    b = article("2017", "53", ("section", "B", "Artikel 16C is van toepassing."), file="b.txt", line=5)
    corpus = merge.merge([fragment("a.txt", "2017", a), fragment("b.txt", "2017", b)], log)
    assert tree.plain_text(corpus.find(".//section/p")) == "Artikel 16C is van toepassing."
    [entry] = log.entries
    assert (entry.kind, entry.file, entry.line, entry.node) == ("variant", "b.txt", 6, "2017/53B")
    assert (entry.before, entry.after) == ("artikel 16C is van toepassing.", "Artikel 16C is van toepassing.")


def test_merge_different_words_are_a_conflict_and_the_first_reading_is_kept():
    log = BuildLog()
    a = article("2017", "53", ("section", "A", "De leider speelt."))
    b = article("2017", "53", ("section", "A", "De tegenspeler speelt."), file="b.txt", line=5)
    corpus = merge.merge([fragment("a.txt", "2017", a), fragment("b.txt", "2017", b)], log)
    assert tree.plain_text(corpus.find(".//section/p")) == "De leider speelt."
    [entry] = log.errors
    assert (entry.kind, entry.file, entry.line, entry.node) == ("conflict", "b.txt", 6, "2017/53A")
    assert "'leider' / 'tegenspeler'" in entry.message


def test_merge_the_same_note_in_two_sources_is_one_note():
    log = BuildLog()
    paras = []
    for file in ("a.txt", "b.txt"):
        el = article("2017", "41", file=file)
        sec = etree.SubElement(el, "section", id="2017/41A", num="A")
        sec.append(tree.make_paragraph(f"Na de slag{NOTE_MARK} volgt het spel.",
                                       [Note("Zie artikel 54.", [3], "inline")], file, [2]))
        paras.append(fragment(file, "2017", el))
    corpus = merge.merge(paras, log)
    notes = corpus.findall(".//note")
    assert len(notes) == 1 and notes[0].get("sources") == "a.txt:3 b.txt:3"
    assert log.entries == []


def test_finish_numbers_notes_per_node_and_commentary_per_article():
    log = BuildLog()
    el = article("2017", "41", title="Titel")
    sec = etree.SubElement(el, "section", id="2017/41A", num="A")
    sec.append(tree.make_paragraph(f"Een{NOTE_MARK} twee{NOTE_MARK}.",
                                   [Note("x", [1], "inline"), Note("y", [1], "inline")], "a.txt", [1]))
    corpus = merge.merge([fragment("a.txt", "2017", el)], log)
    edition = corpus.find("edition")
    for _ in range(2):
        etree.SubElement(edition, "commentary", on="2017/54", author="Peter")
    finish.finish(corpus, log, lang.profile("nl"))
    assert [n.get("id") for n in corpus.iter("note")] == ["2017/41A/noot1", "2017/41A/noot2"]
    assert [c.get("id") for c in corpus.iter("commentary")] == ["2017/54/toelichting1", "2017/54/toelichting2"]


def test_finish_reports_a_section_with_only_its_heading_as_a_gap_in_two_languages():
    log = BuildLog()
    el = article("2017", "57", ("section", "B", None), title="Voortijdig voorspelen")
    heading = etree.SubElement(el.find("section"), "heading")
    heading.text = "Voortijdig spelen"
    corpus = merge.merge([fragment("a.txt", "2017", el)], log)
    finish.finish(corpus, log, lang.profile("nl"))
    gap = corpus.find(".//section/gap")
    assert gap.get("reason") == "De tekst van 57B ontbreekt in de bronnen; alleen het opschrift is overgeleverd."
    [entry] = log.of_kind("gap")
    assert (entry.file, entry.line, entry.node) == ("a.txt", 2, "2017/57B")
    assert entry.message == "2017/57B has only its heading: its text is in none of the sources"


def test_finish_reports_a_missing_lead_in_before_the_first_subsection():
    log = BuildLog()
    el = article("2017", "57", ("section", "A", None), title="T")
    sec = el.find("section")
    sub = etree.SubElement(sec, "subsection", id="2017/57A1", num="1")
    sub.append(tree.make_paragraph("met een kaart die hij niet mocht spelen;", [], "a.txt", [3]))
    corpus = merge.merge([fragment("a.txt", "2017", el)], log)
    finish.finish(corpus, log, lang.profile("nl"))
    assert [c.tag for c in corpus.find(".//section")] == ["gap", "subsection"]
    assert corpus.find(".//section/gap").get("reason") == \
        "De inleidende tekst van 57A, vóór 57A1, ontbreekt in de bronnen."


def test_finish_reports_an_article_without_title():
    log = BuildLog()
    corpus = merge.merge([fragment("a.txt", "2017", article("2017", "16", ("section", "C", "Tekst.")))], log)
    finish.finish(corpus, log, lang.profile("nl"))
    [entry] = log.of_kind("gap")
    assert (entry.node, entry.message) == ("2017/16", "the title of 2017/16 is in none of the sources")


# -- the declared chain (core/stage.py, publish/run.py) ---------------------------------------------------


def made_up(name, **declared):
    return Stage(name, lambda ctx: None, **declared)


def test_a_chain_is_put_together_by_name_and_never_changed_in_place():
    base = Chain([made_up("read"), made_up("mend"), made_up("print")])
    grown = (base.after("read", made_up("count")).before("print", made_up("check"))
             .push(made_up("stamp")).move("stamp", before="read"))
    assert grown.names() == ["stamp", "read", "count", "mend", "check", "print"]
    assert base.names() == ["read", "mend", "print"]
    assert grown.disable("count", "check").names() == ["stamp", "read", "mend", "print"]
    assert grown.only("print", "read").names() == ["read", "print"]
    assert grown.only("print", "read").enable("mend").names() == ["read", "mend", "print"]
    # A disabled stage still places others.
    assert base.disable("mend").after("mend", made_up("late")).names() == ["read", "late", "print"]
    swapped = base.replace(made_up("mend", lane=SIDE))
    assert swapped["mend"].lane == SIDE and swapped.names() == base.names()


def test_a_chain_refuses_unknown_and_repeated_names_and_a_wait_before_its_process():
    base = Chain([made_up("read"), made_up("print")])
    with pytest.raises(KeyError, match="no stage named typeset"):
        base.after("typeset", made_up("x"))
    with pytest.raises(KeyError, match="no stage named typeset"):
        base.disable("typeset")
    with pytest.raises(ValueError, match="stages named twice in a chain: read"):
        base.push(made_up("read"))
    waiting = base.push(Stage("collect", None, waits="print"))
    assert [s.name for s in waiting.wanted(Options())] == ["read", "print", "collect"]
    with pytest.raises(ValueError, match="stage collect waits for print, which is not before it"):
        waiting.move("collect", before="print").wanted(Options())


def test_a_stage_is_a_function_or_a_wait_in_a_known_lane():
    with pytest.raises(ValueError, match="lane 'aside' is none of main, side, fork"):
        made_up("x", lane="aside")
    with pytest.raises(ValueError, match="give a function or the stage it waits for"):
        Stage("x", None)
    with pytest.raises(ValueError, match="give a function or the stage it waits for"):
        Stage("x", lambda ctx: None, waits="y")


def test_options_leave_out_the_stages_declared_to_go_without_them():
    chain = Chain([made_up("read"), made_up("typeset", unless=("no_pdf",)), made_up("print")])
    assert [s.name for s in chain.wanted(Options(no_pdf=True))] == ["read", "print"]
    assert [s.name for s in chain.wanted(Options())] == ["read", "typeset", "print"]
    corpus, outputs = run.stages({"no_pdf": True})
    assert [s.name for s in corpus] == [s.name for s in stages.STAGES]
    assert {"start_pdf", "finish_pdf"} & {s.name for s in outputs} == set()
    assert {s.name for s in run.stages()[1]} - {s.name for s in outputs} == {"start_pdf", "finish_pdf"}


def test_the_stages_that_start_a_waited_for_process_are_counted_from_the_plans_start():
    """run.starts_processes: the output stages the build runs before the report-only checks (the PDF's
    compilers) are the plan's first stages that a later stage waits for (the watcher's checks are put in
    after the plan is split, run.checked)."""
    typeset, collect = made_up("typeset"), Stage("collect", None, waits="typeset")
    plan = [typeset, made_up("index"), made_up("site"), collect]
    assert run.starts_processes(plan) == 1
    assert [s.name for s in run.checked(plan[:1], lambda: None)] == ["check_before_typeset", "typeset"]
    two = [made_up("typeset"), made_up("fonts"), made_up("site"), collect, Stage("gather", None, waits="fonts")]
    assert run.starts_processes(two) == 2
    assert run.starts_processes([made_up("site"), typeset, collect]) == 0  # not first: it needs the site
    assert run.starts_processes([]) == 0
    assert [s.name for s in run.stages()[1][:run.starts_processes(run.stages()[1])]] == ["start_pdf"]
    assert run.starts_processes(run.stages({"no_pdf": True})[1]) == 0


NAMES = st.lists(st.from_regex(r"[a-z]{1,6}", fullmatch=True), min_size=1, max_size=8, unique=True)


@given(NAMES, st.data())
def test_moving_a_stage_puts_it_next_to_its_anchor_and_keeps_the_others_in_order(names, data):
    chain = Chain(made_up(n) for n in names)
    moved = data.draw(st.sampled_from(names))
    anchor = data.draw(st.sampled_from([n for n in names if n != moved] or [None]))
    if anchor is None:
        return
    after = data.draw(st.booleans())
    result = chain.move(moved, after=anchor) if after else chain.move(moved, before=anchor)
    order = result.names()
    assert sorted(order) == sorted(names)
    assert [n for n in order if n != moved] == [n for n in names if n != moved]
    assert order.index(moved) == order.index(anchor) + (1 if after else -1)


# -- every stage against its declaration ------------------------------------------------------------------
class Recording:
    """A context that records which fields a stage reads and which it sets, and fails on a field the stage
    did not declare. `made` (a Job's record of what stages make for each other) is recorded field by
    field, as `made.comparisons` …"""

    def __init__(self, target, stage, prefix="", touched=None):
        for name, value in (("_target", target), ("_stage", stage), ("_prefix", prefix),
                            ("_touched", set() if touched is None else touched)):
            object.__setattr__(self, name, value)

    def __getattr__(self, name):
        value = getattr(self._target, name)
        if name == "made" and not self._prefix:
            return Recording(value, self._stage, "made.", self._touched)
        field = self._prefix + name
        declared = self._stage.reads + self._stage.writes
        assert field in declared, f"{self._stage.name} reads {field}, which it does not declare ({declared})"
        self._touched.add(field)
        return value

    def __setattr__(self, name, value):
        field = self._prefix + name
        assert field in self._stage.writes, \
            f"{self._stage.name} sets {field}, which it does not declare as written ({self._stage.writes})"
        self._touched.add(field)
        setattr(self._target, name, value)


def test_every_corpus_stage_touches_only_what_it_declares():
    """On the real sources: each stage sees a context that fails on an undeclared field, and each
    declared field is used (a declaration that says more than the stage does is wrong too)."""
    ctx = stages.CorpusContext(SOURCES)
    unused = {}
    for stage in stages.CORPUS.wanted(ctx.options):
        recording = Recording(ctx, stage)
        stage.run(recording)
        unused[stage.name] = set(stage.reads + stage.writes) - recording._touched
    assert not ctx.log.errors
    # Fields a stage touches only on a path the real sources do not take.
    only_when = {"account_lines": {"log"},  # an error for a line that is lost: the sources lose none
                 # a book with an index (register.py): the Dutch sources have none
                 "read_index": {"corpus", "log", "options", "profile", "sources_dir"}}
    assert {name: fields for name, fields in unused.items() if fields} == only_when


@pytest.fixture(scope="module")
def dutch():
    return run.make_corpus(SOURCES, {"cache_dir": None, "force": True})


def test_every_output_stage_touches_only_what_it_declares(dutch, tmp_path):
    """Every output stage of the build's chain (the PDF's and the search index's processes started and
    stopped at once), on a Job of the real corpus; a stage that waits runs no function of its own."""
    job = Job.of(dutch, tmp_path)
    touched = {}
    for stage in run.OUTPUTS:
        if stage.waits is not None:
            continue
        recording = Recording(job, stage)
        made = stage.run(recording)
        if hasattr(made, "kill"):
            made.kill()
        touched[stage.name] = recording._touched
    assert set(touched) == {s.name for s in run.OUTPUTS if s.run is not None}
    unused = {s.name: set(s.reads + s.writes) - touched[s.name] for s in run.OUTPUTS if s.run is not None}
    # Fields a stage touches only on a path this Job does not take.
    only_when = {"align_reference": {"corpus"},  # with build --reference
                 "write_stamp": {"corpus", "tmp"}}  # in a build: the Job's previous is the Build
    assert {name: fields for name, fields in unused.items() if fields} == only_when
    assert touched["write_html"] >= {"corpus", "made.comparisons", "made.alignment", "tmp"}
    assert touched["compare_editions"] == {"corpus", "made.comparisons"}


def test_a_stage_that_touches_an_undeclared_field_fails_the_check(tmp_path):
    job = Job.of_tree(etree.fromstring("<corpus/>"), tmp_path, lang.profile("nl"))
    sneaky = Stage("sneaky", lambda job: job.made.comparisons, reads=("corpus",))
    with pytest.raises(AssertionError, match=r"sneaky reads made.comparisons, which it does not declare"):
        sneaky.run(Recording(job, sneaky))
    setter = Stage("setter", lambda job: setattr(job.made, "alignment", None), reads=("made.alignment",))
    with pytest.raises(AssertionError, match=r"setter sets made.alignment, which it does not declare as written"):
        setter.run(Recording(job, setter))


def test_the_corpus_is_frozen_and_needs_its_language(dutch):
    corpus = dutch.frozen()
    with pytest.raises(dataclasses.FrozenInstanceError):
        corpus.tree = None
    with pytest.raises(TypeError, match="profile"):
        stages.Corpus(corpus.tree)  # noqa  (a Corpus has no default language)
    job = Job.of(corpus, "out")
    with pytest.raises(dataclasses.FrozenInstanceError):
        job.alignment = None  # what stages make for each other has its place: job.made
    assert job.corpus is dutch.corpus and job.profile is dutch.profile and job.made.comparisons is None


# -- a made-up output, added in one place, runs in a build ------------------------------------------------
def write_hello(job):
    """Reads: job.corpus. Writes: hello.txt, the editions' IDs."""
    editions = [el.get("id") for el in job.corpus.iterchildren("edition")]
    (job.tmp / "hello.txt").write_text(f"hello from {len(editions)} editions: {', '.join(editions)}\n",
                                       encoding="utf-8")


HELLO = Stage("write_hello", write_hello, reads=("corpus", "tmp"), files=("hello.txt",), lane=SIDE)


def test_a_made_up_output_added_through_the_chain_runs_in_a_build(sources_copy, tmp_path, monkeypatch):
    monkeypatch.setattr(run, "OUTPUTS", run.OUTPUTS.after("write_diff", HELLO))
    out = tmp_path / "out"
    assert cli.main(["build", "--sources", str(sources_copy), "--out", str(out), "--no-pdf"]) == 0
    assert (out / "hello.txt").read_text(encoding="utf-8") == "hello from 2 editions: 2007, 2017\n"
    assert (out / "html" / "index.html").is_file() and not (out / "pdf").exists()


class Spawned:
    """A process as a stage hands it to the build: it records what the build asks of it."""

    def __init__(self, calls):
        self.calls = calls

    def wait(self):
        self.calls.append("wait")

    def kill(self):
        self.calls.append("kill")


BUILDS_CHAIN = run.OUTPUTS  # as the build declares it, before any test puts its own in its place


def quick_chain(*extra):
    return BUILDS_CHAIN.only("write_corpus", "write_report", "write_stamp").after("write_corpus", *extra)


def test_the_build_waits_for_a_process_a_stage_returned_and_stops_it_when_a_stage_fails(sources_copy, tmp_path,
                                                                                       monkeypatch):
    calls = []
    spawn = Stage("spawn", lambda job: Spawned(calls))
    monkeypatch.setattr(run, "OUTPUTS", quick_chain(spawn, Stage("collect", None, waits="spawn")))
    run.build(sources_copy, tmp_path / "out")
    assert calls == ["wait", "kill"]  # waited for at its stage, then let go
    calls.clear()
    monkeypatch.setattr(run, "OUTPUTS", quick_chain(spawn))
    run.build(sources_copy, tmp_path / "out", {"force": True})
    assert calls == ["wait", "kill"]  # no stage waits for it: the build does, after its last stage

    def broken(job):
        raise LawbookError("the stage cannot go on", file="bron.txt", line=1, fix="mend it", status=1)

    calls.clear()
    monkeypatch.setattr(run, "OUTPUTS", quick_chain(spawn, Stage("broken", broken),
                                                    Stage("collect", None, waits="spawn")))
    with pytest.raises(LawbookError, match="the stage cannot go on"):
        run.build(sources_copy, tmp_path / "out", {"force": True})
    assert calls == ["kill"]


# -- the documentation's table is the declarations' ----------------------------------------------------
def test_the_architecture_document_shows_the_declared_chain():
    doc = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    shown = re.search(r"<!-- stages: begin .*?-->\n(.*?)\n<!-- stages: end -->", doc, re.DOTALL)
    assert shown, "docs/architecture.md has no table of stages between its markers"
    assert shown.group(1) == run.stage_tables(), \
        "the table of stages is not the declarations': paste the output of " \
        "`python -c 'from pipeline.publish import run; print(run.stage_tables())'`"
