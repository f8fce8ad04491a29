"""Atomic builds: a failed, interrupted or killed build leaves the previous build folder exactly as
it was, and nothing lost: every non-blank source line is in the corpus or in the report."""
import json
import os
import signal
import subprocess
import sys
import textwrap
import time

import pytest

from pipeline.publish import run as build_mod
from pipeline.publish import swap
from pipeline.corpus import structure
from pipeline.publish import outdir
from pipeline.core.errors import BuildFailed
from pipeline.core.model import Placed
from pipeline.core.stage import Stage

from conftest import CTRL_C_AS_IN_A_TERMINAL, ROOT, WIKI_54, snapshot


@pytest.fixture
def good_build(sources_copy, tmp_path):
    """A complete build of the real sources at tmp_path/out; returns (out folder, its snapshot)."""
    out = tmp_path / "out"
    build_mod.build(sources_copy, out)
    return out, snapshot(out)


def leftovers(out):
    return sorted(p.name for p in out.parent.iterdir() if p.name.startswith(out.name + "."))


def test_a_stage_that_fails_leaves_the_previous_build(sources_copy, good_build, monkeypatch):
    out, before = good_build

    def broken_stage(ctx):
        (ctx.tmp / "corpus.xml").write_text("half", encoding="utf-8")
        raise RuntimeError("a stage failed half-way")

    monkeypatch.setattr(build_mod, "OUTPUTS", build_mod.OUTPUTS.only("start_pdf", "align_reference").after(
        "align_reference", Stage("broken_stage", broken_stage, reads=("tmp",), files=("corpus.xml",))))
    with pytest.raises(RuntimeError):
        build_mod.build(sources_copy, out)
    assert snapshot(out) == before
    assert leftovers(out) == []


def test_an_interrupt_leaves_the_previous_build(sources_copy, good_build, monkeypatch):
    out, before = good_build

    def interrupted(ctx):
        raise KeyboardInterrupt

    monkeypatch.setattr(build_mod, "OUTPUTS", build_mod.OUTPUTS.only("start_pdf", "align_reference", "compare_editions")
                        .after("compare_editions", Stage("interrupted", interrupted)))
    with pytest.raises(KeyboardInterrupt):
        build_mod.build(sources_copy, out)
    assert snapshot(out) == before
    assert leftovers(out) == []


# A build in its own process that waits in an output stage, after some output was written,
# until it is signalled; `ready` tells the test when it got there.
SLOW_BUILD = CTRL_C_AS_IN_A_TERMINAL + textwrap.dedent("""
    import sys, time
    from pathlib import Path
    from pipeline.publish import run as build
    from pipeline import cli
    from pipeline.core.stage import Stage
    def slow_stage(ctx):
        (ctx.tmp / "corpus.xml").write_text("half-written", encoding="utf-8")
        Path(sys.argv[3]).touch()
        time.sleep(60)

    build.OUTPUTS = build.OUTPUTS.before("compare_editions", Stage("slow_stage", slow_stage, reads=("tmp",)))
    sys.exit(cli.main(["build", "--sources", sys.argv[1], "--out", sys.argv[2], "--force"]))
""")


def start_slow_build(sources, out, ready):
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    process = subprocess.Popen([sys.executable, "-c", SLOW_BUILD, str(sources), str(out), str(ready)], env=env,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 120
    while not ready.exists():
        assert process.poll() is None, process.communicate()
        assert time.monotonic() < deadline, "the build never reached the slow stage"
        time.sleep(0.05)
    return process


def test_ctrl_c_during_a_build(sources_copy, good_build, tmp_path):
    out, before = good_build
    process = start_slow_build(sources_copy, out, tmp_path / "ready")
    process.send_signal(signal.SIGINT)
    _, err = process.communicate(timeout=60)
    assert process.returncode == 130
    assert err.strip() == "lawbook: interrupted; the previous build is left as it was"
    assert snapshot(out) == before
    assert leftovers(out) == []


def test_a_killed_build_leaves_the_previous_build_and_is_cleaned_up(sources_copy, good_build, tmp_path):
    out, before = good_build
    process = start_slow_build(sources_copy, out, tmp_path / "ready")
    process.kill()
    process.communicate(timeout=60)
    assert snapshot(out) == before
    left = leftovers(out)
    assert len(left) == 1 and left[0].startswith(f"out.tmp-{process.pid}-")
    # The next build removes what the killed one left.
    build_mod.build(sources_copy, out)
    assert leftovers(out) == []
    assert (out / "corpus.xml").read_bytes() == before["corpus.xml"]


def test_leftovers_of_a_running_build_are_kept(sources_copy, good_build):
    out, _ = good_build
    running = outdir.make_temp(out)  # as the build in process os.getppid(), which runs, wrote it
    marker = json.loads((running / outdir.MARKER).read_text())
    marker.update(pid=os.getppid(), started=outdir.process_started(os.getppid()))
    (running / outdir.MARKER).write_text(json.dumps(marker))
    build_mod.build(sources_copy, out)
    assert running.exists()


def two_builds(tmp_path):
    """A finished build at tmp_path/out holding corpus.xml "old", and a new one beside it holding "new"."""
    target = tmp_path / "out"
    for folder, text in ((target, "old"), (new := outdir.make_temp(target), "new")):
        folder.mkdir(exist_ok=True)
        (folder / "corpus.xml").write_text(text, encoding="utf-8")
        outdir.record(folder)
    return target, new


def test_swap_without_exchange_puts_the_old_build_back_when_the_rename_fails(tmp_path, monkeypatch):
    target, new = two_builds(tmp_path)
    monkeypatch.setattr(swap, "_exchange", lambda a, b: False)
    real_rename = os.rename

    def rename(a, b):
        if str(a) == str(new):
            raise OSError(28, "No space left on device", str(b))
        return real_rename(a, b)

    monkeypatch.setattr(build_mod.os, "rename", rename)
    with pytest.raises(OSError):
        swap.swap(new, target)
    assert (target / "corpus.xml").read_text(encoding="utf-8") == "old"


def test_swap_without_exchange(tmp_path, monkeypatch):
    target, new = two_builds(tmp_path)
    monkeypatch.setattr(swap, "_exchange", lambda a, b: False)
    swap.swap(new, target)
    assert (target / "corpus.xml").read_text(encoding="utf-8") == "new"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out"]


# -- nothing lost ----------------------------------------------------------------------

def test_every_line_of_the_real_sources_is_accounted_for(sources_copy):
    ctx = build_mod.make_corpus(sources_copy)
    assert ctx.log.errors == []
    for fragment in ctx.fragments:
        for line in ctx.lines[fragment.file]:
            assert line.blank or line.num in fragment.ledger, (fragment.file, line.num)


def test_a_line_no_stage_placed_fails_the_build(sources_copy, good_build, monkeypatch):
    """A reader that loses a line: account_lines names it, and the build fails."""
    out, before = good_build
    real = structure.build_fragment

    def losing_line_12(reading, log, evidence):
        fragment = real(reading, log, evidence)
        if fragment.file == WIKI_54:
            del fragment.ledger[12]
        return fragment

    monkeypatch.setattr(structure.memo, "build_fragment", losing_line_12)  # where fragment() calls it
    with pytest.raises(BuildFailed) as caught:
        build_mod.build(sources_copy, out)
    [error] = caught.value.errors
    assert (error.file, error.line) == (WIKI_54, 12)
    assert error.message.startswith("line is neither in the corpus nor in the report: 'Als een speler aan de beurt")
    assert snapshot(out) == before


def test_a_line_placed_in_a_node_that_is_not_in_the_corpus_fails_the_build(sources_copy, monkeypatch):
    real = structure.build_fragment

    def misplaced(reading, log, evidence):
        fragment = real(reading, log, evidence)
        if fragment.file == WIKI_54:
            fragment.ledger[12] = Placed("2017/99Z")
        return fragment

    monkeypatch.setattr(structure.memo, "build_fragment", misplaced)
    ctx = build_mod.make_corpus(sources_copy)
    [error] = ctx.log.errors
    assert (error.file, error.line, error.message) == (WIKI_54, 12, "line was placed in 2017/99Z, which is not in "
                                                                     "the corpus")
