"""The output folder is the build's own, or it is refused: nothing of the user's is ever replaced,
renamed or deleted, and the same holds for `diff --out`.

Each refusal: exit status 2, one message naming the path and why, no traceback, and every file
involved byte for byte as it was."""
import json
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from pipeline.publish import run as build_mod
from pipeline import cli
from pipeline.publish import outdir
from pipeline.core.errors import BuildFailed, LawbookError
from pipeline.core.stage import Stage

from conftest import ROOT, WIKI_54, run_lawbook, snapshot

QUICK = build_mod.OUTPUTS.only("write_corpus", "write_report", "write_stamp")
WHOLE = "a build replaces its output folder as a whole"
OWN = "  fix: give --out a folder of its own, e.g. --out build"


@pytest.fixture
def quick(monkeypatch):
    """Builds in this process write the corpus, the report and the stamp only."""
    monkeypatch.setattr(build_mod, "OUTPUTS", QUICK)


def killed_build_temp(target: Path) -> Path:
    """What a killed build leaves: its marked temporary beside `target`, made by a process that has ended."""
    code = ("import sys; from pipeline.publish import outdir; p = outdir.make_temp(sys.argv[1]); "
            "(p / 'corpus.xml').write_text('half'); print(p)")
    done = subprocess.run([sys.executable, "-c", code, str(target)], env=dict(os.environ, PYTHONPATH=str(ROOT)),
                          capture_output=True, text=True, check=True)
    return Path(done.stdout.strip())


def refused(result):
    """The message of a refused command, after checking it is one message with status 2."""
    assert result.returncode == 2, result.stderr
    assert "Traceback" not in result.stderr and "internal error" not in result.stderr
    assert result.stderr.count("lawbook: error:") == 1
    return result.stderr


def everything(folder):
    """Every file and folder below `folder` (links not followed), with bytes and permission bits."""
    out = {}
    for rel, kind in outdir.entries(folder):
        path = folder / rel
        mode = os.lstat(path).st_mode
        out[rel] = (kind, stat.S_IMODE(mode), path.read_bytes() if kind == "file" else os.readlink(path)
                    if stat.S_ISLNK(mode) else None)
    return out


# -- folders that are never the build's ----------------------------------------------------------

def test_the_sources_folder_is_refused(sources_copy, tmp_path):
    before = everything(tmp_path)
    err = refused(run_lawbook("build", "--sources", sources_copy, "--out", sources_copy))
    assert err == f"lawbook: error: {sources_copy}: cannot build into the sources folder: {WHOLE}\n{OWN}\n"
    assert everything(tmp_path) == before


def test_the_folder_holding_the_sources_is_refused(sources_copy, tmp_path):
    before = everything(tmp_path)
    err = refused(run_lawbook("build", "--sources", sources_copy, "--out", tmp_path))
    assert err == (f"lawbook: error: {tmp_path}: cannot build into a folder that contains the sources folder "
                   f"({sources_copy}): {WHOLE}\n{OWN}\n")
    assert everything(tmp_path) == before


def test_a_folder_inside_the_sources_folder_is_refused(sources_copy, tmp_path):
    before = everything(tmp_path)
    err = refused(run_lawbook("build", "--sources", sources_copy, "--out", sources_copy / "build"))
    assert err.startswith(f"lawbook: error: {sources_copy / 'build'}: cannot build into a folder inside the "
                          f"sources folder ({sources_copy}): the sources folder holds the received files")
    assert everything(tmp_path) == before


def test_an_empty_out_is_refused_and_the_current_folder_kept(sources_copy, tmp_path):
    (tmp_path / "notes.txt").write_text("mine")
    before = everything(tmp_path)
    err = refused(run_lawbook("build", "--sources", "sources", "--out", "", cwd=tmp_path))
    assert err == f"lawbook: error: --out is empty: it names no folder\n{OWN}\n"
    assert everything(tmp_path) == before


def test_the_root_folder_is_refused(sources_copy):
    err = refused(run_lawbook("build", "--sources", sources_copy, "--out", "/"))
    assert err == f"lawbook: error: /: cannot build into the root folder: {WHOLE}\n{OWN}\n"


def test_the_current_folder_of_a_git_checkout_is_refused(sources_copy, tmp_path):
    (tmp_path / ".git").mkdir()
    (tmp_path / ".git" / "HEAD").write_text("ref: refs/heads/main\n")
    before = everything(tmp_path)
    err = refused(run_lawbook("build", "--sources", "sources", "--out", ".", cwd=tmp_path))
    assert err == f"lawbook: error: .: cannot build into the current folder: {WHOLE}\n{OWN}\n"
    # Its parent holds it: refused as well.
    err = refused(run_lawbook("build", "--sources", "sources", "--out", "..", cwd=sources_copy))
    assert err.startswith("lawbook: error: ..: cannot build into a folder that contains the sources folder")
    assert everything(tmp_path) == before


def test_the_home_folder_is_refused(sources_copy, tmp_path, monkeypatch, capsys):
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    assert cli.main(["build", "--sources", str(sources_copy), "--out", str(home)]) == 2
    assert capsys.readouterr().err == f"lawbook: error: {home}: cannot build into your home folder: {WHOLE}\n{OWN}\n"
    assert cli.main(["build", "--sources", str(sources_copy), "--out", str(tmp_path)]) == 2
    assert "cannot build into a folder that contains" in capsys.readouterr().err


def test_a_regular_file_is_refused_and_left_as_it_is(sources_copy, tmp_path):
    target = tmp_path / "out"
    target.write_text("my thesis")
    before = everything(tmp_path)
    err = refused(run_lawbook("build", "--sources", sources_copy, "--out", target))
    assert err == (f"lawbook: error: {target}: cannot build into a file: --out names a folder; the file was left "
                   f"as it is\n  fix: give a folder that is missing, empty or an earlier build, e.g. --out build\n")
    assert everything(tmp_path) == before  # no out.tmp-… rename, nothing new


def test_a_symbolic_link_is_refused(sources_copy, tmp_path, quick):
    real = tmp_path / "real"
    build_mod.build(sources_copy, real)  # even a link to a build: the link itself would be replaced
    (tmp_path / "out").symlink_to(real)
    before = everything(tmp_path)
    err = refused(run_lawbook("build", "--sources", sources_copy, "--out", tmp_path / "out"))
    assert err.startswith(f"lawbook: error: {tmp_path / 'out'}: cannot build into a symbolic link (to {real}): "
                          f"the build would replace the link; it was left as it is")
    assert everything(tmp_path) == before


def test_a_folder_of_user_files_is_refused_with_its_mode(sources_copy, tmp_path):
    mine = tmp_path / "photos"
    (mine / "2023").mkdir(parents=True)
    (mine / "2023" / "a.jpg").write_bytes(b"\xff\xd8 jpeg")
    (mine / "todo.txt").write_text("x")
    mine.chmod(0o750)
    before = everything(tmp_path)
    err = refused(run_lawbook("build", "--sources", sources_copy, "--out", mine))
    assert err == (f"lawbook: error: {mine}: cannot build into a folder that holds files the build did not write "
                   f"(2023, todo.txt); {WHOLE}\n  fix: give a new or empty folder, e.g. --out build, or move those "
                   f"files away\n")
    assert everything(tmp_path) == before


def test_a_build_folder_with_a_file_added_is_refused_naming_it(sources_copy, tmp_path, quick):
    out = tmp_path / "out"
    build_mod.build(sources_copy, out)
    (out / "my-notes.txt").write_text("do not lose")
    before = everything(tmp_path)
    err = refused(run_lawbook("build", "--sources", sources_copy, "--out", out, "--force"))
    assert err == (f"lawbook: error: {out}: cannot build into this folder: it holds my-notes.txt, which the build "
                   f"did not write; {WHOLE}\n  fix: move it out of {out}, or give another --out\n")
    # The no-op check does not say "up to date" either: the same refusal.
    assert refused(run_lawbook("build", "--sources", sources_copy, "--out", out)) == err
    assert everything(tmp_path) == before


def test_a_build_of_an_older_version_without_marker_is_refused(sources_copy, tmp_path):
    old = tmp_path / "out"
    old.mkdir()
    (old / ".lawbook-stamp.json").write_text("{}")
    (old / "corpus.xml").write_text("<corpus/>")
    before = everything(tmp_path)
    err = refused(run_lawbook("build", "--sources", sources_copy, "--out", old))
    assert "it has no .lawbook-build.json" in err
    assert f"fix: if it is an old build, remove it once yourself (rm -r {old}); else give another --out" in err
    assert everything(tmp_path) == before


def test_a_failed_folder_of_user_files_is_refused_before_building(sources_copy, tmp_path):
    failed = tmp_path / "out.failed"
    failed.mkdir()
    (failed / "keep.txt").write_text("mine")
    before = everything(tmp_path)
    err = refused(run_lawbook("build", "--sources", sources_copy, "--out", tmp_path / "out"))
    assert err.startswith(f"lawbook: error: {failed}: cannot build into a folder that holds files the build did not "
                          f"write (keep.txt); a failed build writes its report there")
    assert everything(tmp_path) == before


# -- folders that are the build's -----------------------------------------------------------------

def test_an_empty_folder_and_a_rebuild_keep_their_permission_bits(sources_copy, tmp_path, quick):
    out = tmp_path / "out"
    out.mkdir()
    out.chmod(0o751)
    build_mod.build(sources_copy, out)
    assert stat.S_IMODE(out.stat().st_mode) == 0o751
    out.chmod(0o705)
    build_mod.build(sources_copy, out, {"force": True})
    assert stat.S_IMODE(out.stat().st_mode) == 0o705
    assert outdir.intact(out)


def test_a_new_folder_gets_the_umask_mode_not_0700(sources_copy, tmp_path, quick):
    previous = os.umask(0o027)
    try:
        build_mod.build(sources_copy, tmp_path / "out")
    finally:
        os.umask(previous)
    assert stat.S_IMODE((tmp_path / "out").stat().st_mode) == 0o750


def test_the_marker_lists_every_file_with_its_sha256(sources_copy, tmp_path, quick):
    out = tmp_path / "out"
    build_mod.build(sources_copy, out)
    marker = json.loads((out / outdir.MARKER).read_text())
    assert marker["complete"] is True and marker["folders"] == []
    assert sorted(marker["files"]) == [".lawbook-stamp.json", "corpus.json", "corpus.xml", "report.json", "report.txt"]
    assert marker["files"]["corpus.xml"] == outdir.sha256_of(out / "corpus.xml")


def test_leftovers_named_like_temporaries_without_marker_are_left_alone(sources_copy, tmp_path, quick):
    for name in ("out.old-2023", "out.tmp-99999-my-experiment", "out.failed.tmp-1-draft"):
        (tmp_path / name).mkdir()
        (tmp_path / name / "work.txt").write_text(name)
    killed = killed_build_temp(tmp_path / "out")  # marked as made there by a process that ended: removed
    before = {name: snapshot(tmp_path / name) for name in ("out.old-2023", "out.tmp-99999-my-experiment",
                                                           "out.failed.tmp-1-draft")}
    build_mod.build(sources_copy, tmp_path / "out")
    assert {name: snapshot(tmp_path / name) for name in before} == before
    assert not killed.exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        ["out", "sources", *before])


def test_tool_outputs_in_a_build_folder_do_not_block_the_build(sources_copy, tmp_path, quick):
    """In a marked build only: they never make an unmarked folder a build (test_outdir_safety.py)."""
    out = tmp_path / "out"
    build_mod.build(sources_copy, out)
    (out / "bench.json").write_text("{}")  # make bench into the build folder
    (out / "screenshots").mkdir()
    (out / "screenshots" / "article-53-phone.png").write_bytes(b"png")
    build_mod.build(sources_copy, out, {"force": True})
    assert not (out / "screenshots").exists() and not (out / "bench.json").exists()
    assert (out / "corpus.xml").is_file()


def test_a_failed_build_replaces_only_its_own_failed_folder(sources_copy, tmp_path, quick, monkeypatch):
    out, failed = tmp_path / "out", tmp_path / "out.failed"

    def an_error(ctx):
        ctx.log.add("error", WIKI_54, 3, "an error for this test")

    monkeypatch.setattr(build_mod, "CORPUS", build_mod.CORPUS.push(Stage("an_error", an_error, writes=("log",))))
    for _ in range(2):  # the second failure replaces the first one's folder
        with pytest.raises(BuildFailed):
            build_mod.build(sources_copy, out)
        assert outdir.is_marked(failed) and "an error for this test" in (failed / "report.txt").read_text()
    (failed / "mine.txt").write_text("a note")
    with pytest.raises(LawbookError, match="it holds mine.txt, which the build did not write"):
        build_mod.build(sources_copy, out)
    (failed / "mine.txt").unlink()
    monkeypatch.undo()
    monkeypatch.setattr(build_mod, "OUTPUTS", QUICK)
    build_mod.build(sources_copy, out)
    assert not failed.exists() and outdir.intact(out)


# -- diff --out -----------------------------------------------------------------------------------

def test_diff_out_refuses_the_manifest_and_a_source(sources_copy, tmp_path):
    before = everything(sources_copy)
    for target in (sources_copy / "sources.toml", sources_copy / "000_8d35bcdf16b9ca3e.txt",
                   sources_copy / "new.txt"):
        err = refused(run_lawbook("diff", "2007", "2017", "--sources", sources_copy, "--out", target))
        assert err == (f"lawbook: error: {target}: will not write the diff into the sources folder {sources_copy}: "
                       f"it holds the received files and the manifest\n"
                       f"  fix: give a --out path outside the sources folder\n")
    assert everything(sources_copy) == before


def test_diff_out_refuses_a_file_that_is_not_a_diff(sources_copy, tmp_path):
    target = tmp_path / "letter.html"
    target.write_text("<!DOCTYPE html><title>my letter</title>")
    err = refused(run_lawbook("diff", "2007", "2017", "--sources", sources_copy, "--out", target))
    assert err == (f"lawbook: error: {target}: will not write the diff over this file: it is not a diff lawbook "
                   f"wrote\n  fix: give the path of a new file, or remove that file first\n")
    assert target.read_text() == "<!DOCTYPE html><title>my letter</title>"
    link = tmp_path / "link.txt"
    link.symlink_to(target)
    assert "will not write the diff over a symbolic link" in refused(
        run_lawbook("diff", "2007", "2017", "--sources", sources_copy, "--out", link))
    assert "will not write the diff over something that is not a file" in refused(
        run_lawbook("diff", "2007", "2017", "--sources", sources_copy, "--out", tmp_path))


def test_diff_out_refuses_a_path_in_a_build_folder(sources_copy, tmp_path, quick):
    out = tmp_path / "out"
    build_mod.build(sources_copy, out)
    before = everything(out)
    err = refused(run_lawbook("diff", "2007", "2017", "--sources", sources_copy, "--out", out / "diff.txt"))
    assert f"will not write the diff into the build folder {out}: the next build replaces that folder" in err
    assert everything(out) == before


@pytest.mark.parametrize("fmt", ["text", "json", "html"])
def test_diff_out_replaces_an_earlier_diff(sources_copy, tmp_path, fmt):
    target = tmp_path / f"d.{fmt}"
    for _ in range(2):  # the second run writes over the first one's output
        result = run_lawbook("diff", "2007", "2017", "--sources", sources_copy, "--format", fmt, "--out", target)
        assert result.returncode == 0, result.stderr
    assert target.stat().st_size > 1000
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(["sources", target.name])


def test_make_clean_removes_only_the_builds_own_folders(sources_copy, tmp_path, quick, capsys):
    out = tmp_path / "out"
    build_mod.build(sources_copy, out)
    failed = killed_build_temp(out)
    mine = tmp_path / "out.tmp-99999-my-experiment"
    mine.mkdir()
    (mine / "notes.txt").write_text("mine")
    (tmp_path / "out.txt").write_text("not matched")
    assert outdir.clean(out) == [mine]
    assert capsys.readouterr().err == (f"lawbook: warning: {mine}: left in place: it holds notes.txt, which the "
                                       f"build did not write\n  fix: move those away, or remove the folder yourself "
                                       f"if it is yours to remove\n")
    assert not out.exists() and not failed.exists()
    assert (mine / "notes.txt").read_text() == "mine" and (tmp_path / "out.txt").is_file()
