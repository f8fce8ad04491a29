"""Only the build's own folders are ever replaced or deleted.

- lawbook's tool outputs (screenshots/, bench.json, …) never make a folder a build;
- a copy or a move of a build (cp -a build build.old-2024) is the user's: its marker names the place the
  build wrote it, so it is refused as --out and left alone beside it, with a warning naming it;
- a build with nothing to do still removes what a killed build left (only its marked temporaries, made
  there by a process that no longer runs; never a running build's);
- `make clean` runs and removes only those.

Each refusal: exit status 2, one message naming the folder and the fix, no traceback, and the user's
files byte for byte as they were."""
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pipeline import cli
from pipeline.publish import outdir
from pipeline.publish.outdir import removal
from pipeline.publish import run as build_mod
from pipeline.publish import swap

from conftest import ROOT, run_lawbook
from test_outdir import QUICK, WHOLE, everything, killed_build_temp, refused

KEEP = ("  fix: remove it yourself if you do not need it (rm -r {}); to keep it without this warning, rename it so "
        "that its name has no .tmp-N or .old-N\n")


@pytest.fixture
def quick(monkeypatch):
    """Builds in this process write the corpus, the report and the stamp only."""
    monkeypatch.setattr(build_mod, "OUTPUTS", QUICK)


def build(sources, out, *flags) -> int:
    """`lawbook build` in this process (with the quick stages), its exit status."""
    return cli.main(["build", "--sources", str(sources), "--out", str(out), "--no-pdf", *flags])


def copy(folder: Path, name: str) -> Path:
    """What a user's `cp -a FOLDER NAME` makes."""
    subprocess.run(["cp", "-a", str(folder), str(folder.with_name(name))], check=True)
    return folder.with_name(name)


def temp_of(target: Path, pid: int, started) -> Path:
    """A marked temporary beside `target` whose marker names process `pid`, started at `started`."""
    folder = outdir.make_temp(target)
    marker = json.loads((folder / outdir.MARKER).read_text())
    marker.update(pid=pid, started=started)
    (folder / outdir.MARKER).write_text(json.dumps(marker))
    return folder


# -- tool outputs never make a folder a build ------------------------------------------------------

@pytest.mark.parametrize("tool_output", ["screenshots/a.png", "bench.json", "bench.txt", "bench-peers.json"])
def test_a_folder_holding_only_a_tool_output_is_refused(sources_copy, tmp_path, tool_output):
    notes = tmp_path / "notes"
    (notes / tool_output).parent.mkdir(parents=True, exist_ok=True)
    (notes / tool_output).write_bytes(b"x\n")
    before = everything(tmp_path)
    err = refused(run_lawbook("build", "--out", "notes", "--no-pdf", "--sources", sources_copy, cwd=tmp_path))
    assert err == (f"lawbook: error: notes: cannot build into a folder that holds files the build did not write "
                   f"({tool_output.split('/')[0]}); {WHOLE}\n"
                   f"  fix: give a new or empty folder, e.g. --out build, or move those files away\n")
    assert everything(tmp_path) == before


def test_make_clean_leaves_an_unmarked_folder_of_tool_outputs(tmp_path, capsys):
    out = tmp_path / "build"
    (out / "screenshots").mkdir(parents=True)
    (out / "screenshots" / "a.png").write_bytes(b"png")
    before = everything(tmp_path)
    assert outdir.clean(out) == [out]
    assert capsys.readouterr().err == (f"lawbook: warning: {out}: left in place: it holds screenshots, which the "
                                       f"build did not write\n  fix: move those away, or remove the folder yourself "
                                       f"if it is yours to remove\n")
    assert everything(tmp_path) == before


def test_an_empty_folder_is_still_the_builds(sources_copy, tmp_path, quick):
    (tmp_path / "out").mkdir()
    assert build(sources_copy, tmp_path / "out") == 0
    assert outdir.intact(tmp_path / "out")


# -- the marker records the build's place -----------------------------------------------------------

def test_the_marker_records_where_the_build_wrote_it_and_a_random_id(sources_copy, tmp_path, quick):
    out = tmp_path / "out"
    build_mod.build(sources_copy, out)
    marker = json.loads((out / outdir.MARKER).read_text())
    assert marker["path"] == str(out)
    assert marker["made"] == f"{out}.tmp-{os.getpid()}-{marker['id']}"
    assert len(marker["id"]) == 16 and int(marker["id"], 16) >= 0
    assert marker["pid"] == os.getpid()
    build_mod.build(sources_copy, out, {"force": True})
    assert json.loads((out / outdir.MARKER).read_text())["id"] != marker["id"]


def test_the_place_is_recorded_with_the_parent_resolved(sources_copy, tmp_path, quick):
    (tmp_path / "real").mkdir()
    (tmp_path / "via").symlink_to(tmp_path / "real")
    build_mod.build(sources_copy, tmp_path / "via" / "out")
    marker = json.loads((tmp_path / "real" / "out" / outdir.MARKER).read_text())
    assert marker["path"] == str(tmp_path / "real" / "out")
    assert outdir.intact(tmp_path / "via" / "out") and outdir.intact(tmp_path / "real" / "out")


# -- copies and moves of a build are the user's -----------------------------------------------------

@pytest.mark.parametrize("name", ["out.old-2024", "out.tmp-4242-backup", "out.failed.tmp-1-x"])
def test_a_copy_of_a_build_beside_it_is_left_alone_with_a_warning(sources_copy, tmp_path, quick, capsys, name):
    out = tmp_path / "out"
    assert build(sources_copy, out) == 0
    backup = copy(out, name)
    before = everything(backup)
    capsys.readouterr()
    assert build(sources_copy, out, "--force") == 0
    err = capsys.readouterr().err
    assert err == (f"lawbook: warning: {backup}: left in place: its marker says the build wrote it as {out}, so it "
                   f"is a copy or a move of that build: it is yours\n" + KEEP.format(backup))
    assert everything(backup) == before
    # A build with nothing to do and make clean leave it too, with the same warning.
    assert build(sources_copy, out) == 0
    assert capsys.readouterr().err == err
    assert outdir.clean(out) == [backup]
    assert capsys.readouterr().err == err
    assert everything(backup) == before and not out.exists()


def test_a_copy_of_a_build_is_refused_as_out(sources_copy, tmp_path, quick):
    out = tmp_path / "out"
    build_mod.build(sources_copy, out)
    backup = copy(out, "out.old-2024")
    before = everything(tmp_path)
    err = refused(run_lawbook("build", "--sources", sources_copy, "--out", backup, "--no-pdf"))
    assert err == (f"lawbook: error: {backup}: cannot build into this folder: its marker says the build wrote it as "
                   f"{out}, so it is a copy or a move of that build: it is yours; {WHOLE}\n"
                   f"  fix: give another --out; if you moved the build here yourself, remove it once "
                   f"(rm -r {backup}) and build again\n")
    assert everything(tmp_path) == before


def test_a_moved_build_is_refused_and_not_up_to_date(sources_copy, tmp_path, quick, capsys):
    out, moved = tmp_path / "out", tmp_path / "moved"
    build_mod.build(sources_copy, out)
    out.rename(moved)
    before = everything(tmp_path)
    assert not build_mod.up_to_date(sources_copy, moved)
    assert build(sources_copy, moved) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"lawbook: error: {moved}: cannot build into this folder: its marker says the build wrote "
                          f"it as {out}, so it is a copy or a move of that build: it is yours")
    assert err.count("lawbook: error:") == 1 and "Traceback" not in err
    assert everything(tmp_path) == before
    moved.rename(out)  # moved back: the build's again, and up to date
    assert build_mod.up_to_date(sources_copy, out)


def test_a_copy_named_as_the_failed_folder_is_refused(sources_copy, tmp_path, quick):
    out = tmp_path / "out"
    build_mod.build(sources_copy, out)
    failed = copy(out, "out.failed")
    before = everything(tmp_path)
    err = refused(run_lawbook("build", "--sources", sources_copy, "--out", out, "--no-pdf", "--force"))
    assert err.startswith(f"lawbook: error: {failed}: cannot build into this folder: its marker says the build "
                          f"wrote it as {out}, so it is a copy or a move of that build: it is yours; a failed build "
                          f"writes its report there")
    assert everything(tmp_path) == before


# -- markers written before the place was recorded -------------------------------------------------

def older_marker(folder: Path) -> None:
    """Rewrite `folder`'s marker as a lawbook before this change wrote it: without its place."""
    marker = json.loads((folder / outdir.MARKER).read_text())
    for key in ("path", "made", "id", "pid", "started"):
        del marker[key]
    (folder / outdir.MARKER).write_text(json.dumps(marker))


def test_an_older_marker_is_trusted_in_place(sources_copy, tmp_path, quick):
    out = tmp_path / "out"
    build_mod.build(sources_copy, out)
    older_marker(out)
    assert outdir.read_marker(out)["complete"] is True
    assert not build_mod.up_to_date(sources_copy, out)  # it says nothing of its place: built once more
    assert outdir.check_target(out, sources_copy) == out
    build_mod.build(sources_copy, out)
    assert json.loads((out / outdir.MARKER).read_text())["path"] == str(out)
    assert build_mod.up_to_date(sources_copy, out)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out", "sources"]


def test_an_older_marker_without_exchange_is_removed_after_the_swap(sources_copy, tmp_path, quick, monkeypatch):
    out = tmp_path / "out"
    build_mod.build(sources_copy, out)
    older_marker(out)
    monkeypatch.setattr(swap, "_exchange", lambda a, b: False)
    build_mod.build(sources_copy, out)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out", "sources"]


def test_an_older_marker_is_not_trusted_under_a_temporarys_name(sources_copy, tmp_path, quick, capsys):
    out = tmp_path / "out"
    build_mod.build(sources_copy, out)
    backup = copy(out, "out.old-2023")
    older_marker(backup)
    killed = tmp_path / "out.tmp-99998-abcd"  # what a killed build of an older lawbook left
    killed.mkdir()
    (killed / outdir.MARKER).write_text('{"lawbook": "build", "format": 1, "complete": false}')
    before = {folder: everything(folder) for folder in (backup, killed)}
    capsys.readouterr()
    build_mod.build(sources_copy, out, {"force": True})
    older = ("left in place: its marker, from an older lawbook, does not say where the build wrote it, so under a "
             "temporary's name it may be a copy of a build: it is yours")
    assert capsys.readouterr().err == "".join(f"lawbook: warning: {folder}: {older}\n" + KEEP.format(folder)
                                              for folder in (backup, killed))
    assert {folder: everything(folder) for folder in before} == before
    assert outdir.clean(out) == [backup, killed]
    assert {folder: everything(folder) for folder in before} == before


# -- what killed builds leave ---------------------------------------------------------------------

def test_a_build_with_nothing_to_do_removes_a_killed_builds_temporaries(sources_copy, tmp_path, quick, capsys):
    out = tmp_path / "out"
    assert build(sources_copy, out) == 0
    killed = [killed_build_temp(out), killed_build_temp(tmp_path / "out.failed")]
    assert all(path.is_dir() and outdir.read_marker(path)["made"] == str(path) for path in killed)
    mine = tmp_path / "out.tmp-99999-my-experiment"  # no marker: the user's, whatever its name
    mine.mkdir()
    (mine / "work.txt").write_text("mine")
    running = temp_of(out, os.getppid(), outdir.process_started(os.getppid()))
    before = {folder: everything(folder) for folder in (out, mine, running)}
    capsys.readouterr()
    assert build(sources_copy, out) == 0
    assert capsys.readouterr() == (f"{out}/ is up to date\n", "")
    assert not any(path.exists() for path in killed)
    assert {folder: everything(folder) for folder in before} == before


def test_the_no_op_command_removes_them_in_a_fresh_process(sources_copy, tmp_path, quick):
    out = tmp_path / "out"
    assert build(sources_copy, out) == 0
    killed = killed_build_temp(out)
    done = run_lawbook("build", "--sources", sources_copy, "--out", out, "--no-pdf")
    assert done.returncode == 0 and done.stdout == f"{out}/ is up to date\n" and done.stderr == ""
    assert not killed.exists()


def test_a_temporary_this_process_is_writing_is_kept(sources_copy, tmp_path, quick):
    """Another build in this process (a thread) may be writing it: only one this process left is removed."""
    out = tmp_path / "out"
    build_mod.build(sources_copy, out)
    writing = outdir.make_temp(out)
    assert build_mod.up_to_date(sources_copy, out)
    assert writing.is_dir()
    assert outdir.discard(writing) and not writing.exists()


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="process start times are read from Linux's /proc")
def test_a_temporary_whose_pid_was_reused_is_a_killed_builds(sources_copy, tmp_path, quick):
    out = tmp_path / "out"
    build_mod.build(sources_copy, out)
    reused = temp_of(out, os.getppid(), outdir.process_started(os.getppid()) + 1)
    assert build_mod.up_to_date(sources_copy, out)
    assert not reused.exists()


def test_a_temporary_moved_from_elsewhere_is_not_removed(sources_copy, tmp_path, quick, capsys):
    out = tmp_path / "out"
    build_mod.build(sources_copy, out)
    elsewhere = killed_build_temp(tmp_path / "other")
    moved = elsewhere.rename(tmp_path / f"out.tmp-{elsewhere.name.split('.tmp-')[1]}")
    before = everything(moved)
    capsys.readouterr()
    assert build_mod.up_to_date(sources_copy, out)
    assert capsys.readouterr().err.startswith(f"lawbook: warning: {moved}: left in place: its marker says the build "
                                              f"wrote it as {elsewhere}, so it is a copy or a move")
    assert everything(moved) == before


def test_the_old_build_being_removed_is_marked_as_this_builds_temporary(tmp_path, monkeypatch):
    """The swap marks the old build it moved aside as made there by this process before removing it, the
    marker last: a build killed meanwhile leaves a folder the next one recognises."""
    target = tmp_path / "out"
    target.mkdir()
    (target / "corpus.xml").write_text("old")
    outdir.record(target)
    old = target.rename(tmp_path / f"out.old-{os.getpid()}")
    seen = []
    real = removal._remove

    def remove(folder):
        seen.append(outdir.read_marker(folder))
        real(folder)

    monkeypatch.setattr(removal, "_remove", remove)
    assert outdir.discard(old, home=target)
    [marker] = seen
    assert (marker["complete"], marker["made"], marker["pid"]) == (False, str(old), os.getpid())
    assert not old.exists()


# -- make clean -----------------------------------------------------------------------------------

def test_make_clean_runs_the_module_on_build(tmp_path):
    done = subprocess.run(["make", "-n", "-s", "-C", str(ROOT), "clean"], capture_output=True, text=True, check=True)
    assert done.stdout.strip().endswith(' -m pipeline.publish.outdir clean "build"')


@pytest.mark.skipif(shutil.which("make") is None, reason="make is not installed")
def test_make_clean_removes_only_the_builds_own_folders(sources_copy, tmp_path, quick, monkeypatch):
    out = tmp_path / "out"
    build_mod.build(sources_copy, out)
    failed = outdir.make_temp(tmp_path / "out.failed")  # a failed build's report folder, put in place
    outdir.record(failed)
    failed.rename(tmp_path / "out.failed")
    killed = killed_build_temp(out)
    backup = copy(out, "out.old-2024")
    mine = tmp_path / "out.tmp-99999-my-experiment"
    mine.mkdir()
    (mine / "notes.txt").write_text("mine")
    running = temp_of(out, os.getppid(), outdir.process_started(os.getppid()))
    before = {folder: everything(folder) for folder in (backup, mine, running)}
    done = subprocess.run(["make", "-s", "-C", str(ROOT), "clean", f"CLEAN_DIR={out}", f"PYTHON={sys.executable}"],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        ["sources", backup.name, mine.name, running.name])
    assert {folder: everything(folder) for folder in before} == before
    assert f"lawbook: warning: {backup}: left in place: its marker says the build wrote it as {out}" in done.stderr
    assert f"lawbook: warning: {mine}: left in place: it holds notes.txt, which the build did not write" in done.stderr
    assert (f"lawbook: warning: {running}: left in place: the build writing it (process {os.getppid()}) still runs"
            in done.stderr)
    assert not killed.exists()


def test_a_build_killed_mid_way_is_cleaned_up_by_a_build_with_nothing_to_do(sources_copy, tmp_path, quick):
    from test_atomic import start_slow_build

    out = tmp_path / "out"
    build_mod.build(sources_copy, out)
    before = everything(out)
    process = start_slow_build(sources_copy, out, tmp_path / "ready")
    process.kill()
    process.communicate(timeout=60)
    [left] = [p for p in tmp_path.iterdir() if p.name.startswith("out.tmp-")]
    assert left.name.startswith(f"out.tmp-{process.pid}-")
    assert outdir.read_marker(left)["made"] == str(left) and outdir.read_marker(left)["pid"] == process.pid
    assert build_mod.up_to_date(sources_copy, out)
    assert not left.exists() and everything(out) == before


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(name=st.from_regex(r"out(\.failed)?\.(tmp|old)-[0-9]{1,7}(-[a-z0-9.-]{0,10})?", fullmatch=True),
       finished=st.booleans())
def test_no_copy_of_a_marked_folder_is_removed_whatever_its_name(tmp_path, capsys, name, finished):
    """A copy of a build, or of a temporary (finished or not), under any name the build's temporaries
    take, is left byte for byte as it is by the build's clean-up and by make clean."""
    home = tmp_path / name.replace(".", "_")
    shutil.rmtree(home, ignore_errors=True)
    home.mkdir()
    target = home / "out"
    folder = outdir.make_temp(home / "elsewhere")
    (folder / "corpus.xml").write_text("mine")
    if finished:
        outdir.record(folder)
    copy = folder.rename(home / name)
    before = everything(copy)
    outdir.clear_leftovers(target)
    outdir.clean(target)
    assert everything(copy) == before
    capsys.readouterr()
