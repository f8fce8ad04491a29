"""Incremental builds: a rebuild takes from earlier builds only what a full build would make.

Counts and bytes only, never times.
"""
import hashlib
import json
import os
import shutil
import stat
from pathlib import Path

import pytest

from pipeline.publish import run as build
from pipeline.corpus import stages
from pipeline.reading import manifest
from pipeline.publish import cache
from pipeline.publish.outdir import ledger
from pipeline.outputs import serialise
from pipeline.bench import generate
from pipeline.core.stage import Stage

from conftest import SOURCES, run_lawbook


@pytest.fixture()
def book(tmp_path):
    src = tmp_path / "src"
    generate.generate(src, articles=6, editions=2, seed=2)
    return src, tmp_path / "build", {"cache_dir": str(tmp_path / "cache")}


def corpus_stages(src, options):
    return build.make_corpus(src, options)


def test_second_reading_comes_from_the_cache_and_gives_the_same_corpus(book):
    src, _, options = book
    first = corpus_stages(src, options)
    second = corpus_stages(src, options)
    n = len(first.sources)
    assert len(first.store.misses) == n and first.store.hits == []
    assert len(second.store.hits) == n and second.store.misses == []
    assert serialise.to_xml(second.corpus) == serialise.to_xml(first.corpus)
    assert second.log.to_json() == first.log.to_json()


def test_a_changed_source_is_the_only_one_read_again(book):
    src, _, options = book
    corpus_stages(src, options)
    changed = sorted(src.glob("*.txt"))[-1]
    changed.write_text(changed.read_text(encoding="utf-8").replace("de leider", "de Leider", 1), encoding="utf-8")
    again = corpus_stages(src, options)
    assert again.store.misses == [changed.name]
    fresh = corpus_stages(src, dict(options, force=True))
    assert len(fresh.store.misses) == len(fresh.sources)
    assert serialise.to_xml(again.corpus) == serialise.to_xml(fresh.corpus)
    assert again.log.to_json() == fresh.log.to_json()


PRINT_PAGE = "SPELREGELS 2007\n44\nARTIKEL 24\nGetoonde kaart\nAls een kaart voorge-\nspeeld is, geldt dit.\n"
WIKI_PAGE = "ARTIKEL 53\nArtikel 53\nDe uitkomst is opengelegd.\n"


def test_a_cached_print_reading_is_repaired_with_the_vocabulary_of_this_build(tmp_path):
    """The cache holds the reading before repair: a printed line-end hyphen is decided with the
    vocabulary of the build that uses it, also when only another source changed it."""
    src = tmp_path / "src"
    src.mkdir()
    (src / "sources.toml").write_text('[[source]]\nfile = "page.txt"\nedition = "2007"\n\n'
                                      '[[source]]\nfile = "wiki.txt"\nedition = "2017"\n', encoding="utf-8")
    (src / "page.txt").write_text(PRINT_PAGE, encoding="utf-8")
    (src / "wiki.txt").write_text(WIKI_PAGE, encoding="utf-8")
    options = {"cache_dir": str(tmp_path / "cache")}

    def text_of_24(ctx):
        return ctx.corpus.find(".//article[@id='2007/24']/p").text

    assert text_of_24(corpus_stages(src, options)) == "Als een kaart voorgespeeld is, geldt dit."
    # The hyphenated form is now used elsewhere in the sources: the hyphen is kept.
    (src / "wiki.txt").write_text(WIKI_PAGE + "Een voorge-speeld woord.\n", encoding="utf-8")
    again = corpus_stages(src, options)
    assert again.store.hits == ["page.txt"] and again.store.misses == ["wiki.txt"]
    assert text_of_24(again) == "Als een kaart voorge-speeld is, geldt dit."
    [kept] = [e for e in again.log.entries if e.file == "page.txt" and e.kind == "repair"]
    assert (kept.line, kept.message, kept.after) == (5, "kept: the hyphenated form is used elsewhere in the "
                                                        "sources", "voorge-speeld")
    fresh = corpus_stages(src, dict(options, force=True))
    assert serialise.to_xml(again.corpus) == serialise.to_xml(fresh.corpus)
    assert again.log.to_json() == fresh.log.to_json()


def test_no_op_rebuild_is_up_to_date_and_a_change_is_not(book, monkeypatch):
    src, out, options = book
    monkeypatch.setattr(build, "OUTPUTS", build.OUTPUTS.only("write_corpus", "write_report", "write_stamp"))
    build.build(src, out, options)
    before = {p: p.stat().st_mtime_ns for p in out.rglob("*")}
    assert build.up_to_date(src, out, options)
    assert not build.up_to_date(src, out, dict(options, force=True))
    assert {p: p.stat().st_mtime_ns for p in out.rglob("*")} == before  # the check writes nothing
    changed = sorted(src.glob("*.txt"))[0]
    changed.write_bytes(changed.read_bytes() + b"\n")
    assert not build.up_to_date(src, out, options)


def test_an_unchanged_edition_reuses_its_previous_output(book, monkeypatch):
    src, out, options = book
    rendered = []

    def write_per_edition(job):
        for edition in ("2007", "2017"):
            if job.previous.reuse(edition, [f"{edition}/page.txt"]):
                continue
            rendered.append(edition)
            (job.tmp / edition).mkdir()
            (job.tmp / edition / "page.txt").write_text(edition)

    monkeypatch.setattr(build, "OUTPUTS", build.OUTPUTS.only("write_corpus", "write_stamp").after(
        "write_corpus", Stage("write_per_edition", write_per_edition, reads=("previous", "tmp"))))
    build.build(src, out, options)
    assert rendered == ["2007", "2017"]
    # Change a 2017 source only: 2007 is copied, 2017 rendered again.
    listed = manifest.load_manifest(src)
    name = next(s.name for s in listed if s.edition == "2017")
    path = src / name
    path.write_text(path.read_text(encoding="utf-8").replace("de leider", "de Leider", 1), encoding="utf-8")
    rendered.clear()
    build.build(src, out, options)
    assert rendered == ["2017"]
    assert (out / "2007" / "page.txt").read_text() == "2007"
    rendered.clear()
    build.build(src, out, dict(options, force=True))
    assert rendered == ["2007", "2017"]



def test_an_option_or_a_fixed_date_changes_every_digest(book, monkeypatch):
    """--no-commentary and SOURCE_DATE_EPOCH change the outputs, so no rebuild may reuse across them."""
    src, _, options = book
    monkeypatch.delenv("SOURCE_DATE_EPOCH", raising=False)
    plain = build.edition_digest(corpus_stages(src, options), "2017")
    no_commentary = dict(options, no_commentary=True)
    assert build.edition_digest(corpus_stages(src, no_commentary), "2017") != plain
    before = cache.input_digest(src, options)
    assert cache.input_digest(src, no_commentary) != before
    assert cache.input_digest(src, dict(options, debug=True, force=True)) == before
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1500000000")
    assert cache.input_digest(src, options) != before
    assert build.edition_digest(corpus_stages(src, options), "2017") != plain


# -- a cache that cannot run code and cannot lie ------------------------------------------------------

def keys_of(src):
    """The cache key of each source of `src`, as the build computes it."""
    return {s.name: cache.ReadingCache.key(s, s.path.read_bytes()) for s in manifest.load_manifest(src)}


def test_a_planted_pickle_is_never_loaded(book, tmp_path):
    """The cache was pickle once: a pickle whose loading writes a file is planted under every key."""
    import pickle

    src, _, options = book
    planted = tmp_path / "pwned"

    class Payload:
        def __reduce__(self):
            return (open, (str(planted), "w"))

    readings = tmp_path / "cache" / "readings"
    readings.mkdir(parents=True, mode=0o700)
    (tmp_path / "cache").chmod(0o700)
    for key in keys_of(src).values():
        (readings / f"{key}.pickle").write_bytes(pickle.dumps(Payload()))
    ctx = corpus_stages(src, options)
    assert not planted.exists()
    assert ctx.store.hits == [] and len(ctx.store.misses) == len(ctx.sources)
    assert serialise.to_xml(ctx.corpus) == serialise.to_xml(corpus_stages(src, dict(options, force=True)).corpus)


def first_block_text(entry_path):
    return json.loads(entry_path.read_text(encoding="utf-8"))["content"]["reading"]["blocks"][1]["text"]


def test_a_changed_entry_is_ignored_and_made_again(book, capsys):
    """A same-length edit of the law text inside an entry: its sha256 no longer matches."""
    src, _, options = book
    fresh = serialise.to_xml(corpus_stages(src, options).corpus)
    name, key = next(iter(keys_of(src).items()))
    path = Path(options["cache_dir"]) / "readings" / f"{key}.json"
    text = first_block_text(path)
    assert len(text) > 10
    forged = text[:-4] + "XXXX"
    path.write_text(path.read_text(encoding="utf-8").replace(json.dumps(text)[1:-1], json.dumps(forged)[1:-1], 1),
                    encoding="utf-8")
    assert first_block_text(path) == forged
    capsys.readouterr()
    again = corpus_stages(src, options)
    assert capsys.readouterr().err == (f"lawbook: warning: {path}: cache entry ignored: its content does not match "
                                       f"its sha256 (changed or damaged)\n  fix: none needed: the source is read again "
                                       f"and the entry made anew\n")
    assert again.store.misses == [name]
    assert serialise.to_xml(again.corpus) == fresh
    assert "XXXX" not in fresh.decode() and first_block_text(path) == text  # made anew, right


@pytest.mark.parametrize("damage, why", [
    (lambda c: c["reading"].update(blocks={}), "content.reading.blocks is not a list"),
    (lambda c: c["reading"]["blocks"][0].update(lines=["1"]), "content.reading.blocks[0].lines[0] is a str, not a int"),
    (lambda c: c["reading"]["blocks"][0].update(level=True), "content.reading.blocks[0].level is a bool, not a int"),
    (lambda c: c["reading"].update(extra=1), "content.reading is not an object with the keys"),
    (lambda c: c["read_log"].append({"kind": "exec", "file": "x", "line": 1, "message": "m", "node": None,
                                     "before": None, "after": None}), "a report entry of unknown kind 'exec'"),
    (lambda c: c["reading"].update(file="other.txt"), "it holds the reading of other.txt"),
])
def test_an_entry_of_the_wrong_shape_is_ignored(book, capsys, damage, why):
    """Even with a correct sha256 (recomputed), an entry that is not a Reading is not used."""
    src, _, options = book
    fresh = serialise.to_xml(corpus_stages(src, options).corpus)
    name, key = next(iter(keys_of(src).items()))
    path = Path(options["cache_dir"]) / "readings" / f"{key}.json"
    stored = json.loads(path.read_text(encoding="utf-8"))
    damage(stored["content"])
    stored["sha256"] = hashlib.sha256(cache._canonical(stored["content"])).hexdigest()
    path.write_text(json.dumps(stored), encoding="utf-8")
    capsys.readouterr()
    again = corpus_stages(src, options)
    err = capsys.readouterr().err
    assert err.startswith(f"lawbook: warning: {path}: cache entry ignored: {why}") and err.count("warning") == 1
    assert again.store.misses == [name]
    assert serialise.to_xml(again.corpus) == fresh


def test_an_entry_for_another_key_or_not_json_is_ignored(book, capsys):
    src, _, options = book
    corpus_stages(src, options)
    (a, key_a), (b, key_b) = list(keys_of(src).items())[:2]
    folder = Path(options["cache_dir"]) / "readings"
    (folder / f"{key_a}.json").write_bytes((folder / f"{key_b}.json").read_bytes())
    (folder / f"{key_b}.json").write_bytes(b"\x80 not json")
    capsys.readouterr()
    again = corpus_stages(src, options)
    err = capsys.readouterr().err
    assert "cache entry ignored: it was stored for another key or by another version" in err
    assert "cache entry ignored: it is not JSON" in err
    assert sorted(again.store.misses) == sorted([a, b])


def test_a_cache_writable_by_others_is_not_used(book, capsys):
    src, _, options = book
    corpus_stages(src, options)
    folder = Path(options["cache_dir"])
    folder.chmod(0o777)
    capsys.readouterr()
    again = corpus_stages(src, options)
    assert capsys.readouterr().err == (f"lawbook: warning: {folder}: not using the cache: it can be written by other "
                                       f"users (mode 777)\n  fix: remove {folder}, or make it yours: chown $USER and "
                                       f"chmod go-w\n")
    assert again.store.hits == [] and len(again.store.misses) == len(again.sources)


def test_a_cache_of_another_user_is_not_used(book, capsys, monkeypatch):
    src, _, options = book
    corpus_stages(src, options)
    owner = Path(options["cache_dir"]).stat().st_uid
    monkeypatch.setattr(cache.os, "getuid", lambda: owner + 1)
    capsys.readouterr()
    again = corpus_stages(src, options)
    assert f"not using the cache: it belongs to another user (uid {owner})" in capsys.readouterr().err
    assert again.store.hits == []


def test_the_cache_is_in_the_users_cache_folder_and_made_private(sources_copy, own_cache):
    build.make_corpus(sources_copy)
    assert own_cache == Path(os.environ["XDG_CACHE_HOME"]) / "lawbook"
    assert stat.S_IMODE(own_cache.stat().st_mode) == 0o700
    assert sorted(p.suffix for p in (own_cache / "readings").iterdir()) == [".json"] * 5


def test_a_build_writes_nothing_above_the_sources_folder(tmp_path, monkeypatch):
    """A build from ~/x/sources into ~/x/build leaves ~/x holding exactly sources/ and build/: the cache
    goes to ~/.cache/lawbook when $XDG_CACHE_HOME is not set (or is relative, which the XDG rule ignores)."""
    home = tmp_path / "home"
    project = home / "x"
    shutil.copytree(SOURCES, project / "sources")
    monkeypatch.setenv("HOME", str(home))
    for xdg in (None, "relative/cache"):
        if xdg is None:
            monkeypatch.delenv("XDG_CACHE_HOME")
        else:
            monkeypatch.setenv("XDG_CACHE_HOME", xdg)
        result = run_lawbook("build", "--sources", project / "sources", "--out", project / "build", "--no-pdf",
                             "--force", cwd=tmp_path)
        assert result.returncode == 0, result.stderr
        assert sorted(p.name for p in project.iterdir()) == ["build", "sources"]
        assert sorted(p.name for p in home.iterdir()) == [".cache", "x"]
        assert len(list((home / ".cache" / "lawbook" / "readings").glob("*.json"))) == 5
    assert not (tmp_path / "relative").exists()


def test_cache_dir_names_the_cache_folder(sources_copy, tmp_path):
    """`--cache-dir` (what `make` gives: the project's .cache/lawbook) is the folder used, and the only one."""
    chosen = tmp_path / "chosen"
    result = run_lawbook("build", "--sources", sources_copy, "--out", tmp_path / "out", "--no-pdf",
                         "--cache-dir", chosen)
    assert result.returncode == 0, result.stderr
    assert len(list((chosen / "readings").glob("*.json"))) == 5
    assert not (Path(os.environ["XDG_CACHE_HOME"]) / "lawbook").exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["chosen", "out", "sources"]


def test_without_a_home_the_build_reads_every_source(sources_copy, monkeypatch):
    monkeypatch.delenv("XDG_CACHE_HOME")
    monkeypatch.setattr(cache.Path, "home", classmethod(lambda cls: (_ for _ in ()).throw(RuntimeError("no home"))))
    assert cache.default_folder() is None
    ctx = build.make_corpus(sources_copy)
    assert not ctx.log.errors and ctx.store.hits == [] and len(ctx.store.misses) == 5


def test_an_unwritable_cache_is_a_warning_even_with_force(sources_copy, tmp_path, own_cache):
    """The cache folder is a file here: the build warns and is correct, also with --force."""
    blocker = own_cache
    blocker.write_text("not a folder")
    for extra in ([], ["--force"]):
        result = run_lawbook("build", "--sources", sources_copy, "--out", tmp_path / "out", "--no-pdf", *extra)
        assert result.returncode == 0, result.stderr
        assert result.stderr == (f"lawbook: warning: {blocker}: not using the cache: it is not a folder\n"
                                 f"  fix: remove {blocker}, or make it yours: chown $USER and chmod go-w\n")
    assert blocker.read_text() == "not a folder"
    assert "Als een speler aan de beurt" in (tmp_path / "out" / "corpus.xml").read_text(encoding="utf-8")


def test_a_cache_folder_that_cannot_be_made_is_a_warning(book, capsys):
    src, _, options = book
    blocker = Path(options["cache_dir"]).parent / "file"
    blocker.write_text("x")
    folder = blocker / "cache"
    ctx = corpus_stages(src, dict(options, cache_dir=str(folder)))
    assert capsys.readouterr().err == (f"lawbook: warning: {folder}: not using the cache: it cannot be used (Not a "
                                       f"directory)\n  fix: remove {folder}, or make it yours: chown $USER and chmod "
                                       f"go-w\n")
    assert not ctx.log.errors and len(ctx.store.misses) == len(ctx.sources)


def test_an_entry_that_cannot_be_written_is_a_warning_once(book, capsys):
    src, _, options = book
    keys = list(keys_of(src).values())
    readings = Path(options["cache_dir"]) / "readings"
    for key in keys[:2]:
        (readings / f"{key}.json").mkdir(parents=True)  # in the way of the entry
    ctx = corpus_stages(src, options)
    err = capsys.readouterr().err
    assert err.count(": cache entry ignored: Is a directory\n") == 2  # reading them, then one write warning
    assert err.count(": cannot write the cache: Is a directory; the build goes on without it\n") == 1
    assert err.count("lawbook: warning: ") == 3
    assert not ctx.log.errors
    assert serialise.to_xml(ctx.corpus) == serialise.to_xml(corpus_stages(src, dict(options, force=True)).corpus)


# -- the no-op check verifies the outputs ------------------------------------------------------------

def test_no_op_check_verifies_every_output(book, monkeypatch):
    src, out, options = book
    monkeypatch.setattr(build, "OUTPUTS", build.OUTPUTS.only("write_corpus", "write_report", "write_stamp"))
    build.build(src, out, options)
    assert build.up_to_date(src, out, options)
    report = (out / "report.txt").read_bytes()
    (out / "report.txt").write_bytes(report.replace(b"repair", b"REPAIR", 1))  # same size, other bytes
    assert not build.up_to_date(src, out, options)
    (out / "report.txt").write_bytes(report)
    assert build.up_to_date(src, out, options)
    (out / "corpus.json").unlink()
    assert not build.up_to_date(src, out, options)
    build.build(src, out, options)
    assert build.up_to_date(src, out, options) and (out / "corpus.json").is_file()


def test_no_op_check_hashes_only_files_whose_stat_changed(book, monkeypatch):
    from pipeline.publish import outdir
    src, out, options = book
    monkeypatch.setattr(build, "OUTPUTS", build.OUTPUTS.only("write_corpus", "write_report", "write_stamp"))
    build.build(src, out, options)
    marker = json.loads((out / outdir.MARKER).read_text())
    assert sorted(marker["stats"]) == sorted(marker["files"])
    assert marker["stats"]["report.txt"][0] == (out / "report.txt").stat().st_size
    # Files written in the clock tick of the marker are hashed (their times cannot tell a rewrite);
    # with the marker a minute younger than them none is.
    later = (out / outdir.MARKER).stat().st_mtime_ns + 60 * 10**9
    os.utime(out / outdir.MARKER, ns=(later, later))
    hashed = []
    real = outdir.sha256_of
    monkeypatch.setattr(ledger, "sha256_of", lambda path: hashed.append(Path(path).name) or real(path))
    assert build.up_to_date(src, out, options) and hashed == []
    # The same size and the old times put back, as a copy renamed over it: still found changed.
    report = out / "report.txt"
    before = report.stat()
    data = report.read_bytes().replace(b"repair", b"REPAIR", 1)
    (out / "new.txt").write_bytes(data)
    os.utime(out / "new.txt", ns=(before.st_atime_ns, before.st_mtime_ns))
    os.replace(out / "new.txt", report)
    assert report.stat().st_size == before.st_size and report.stat().st_mtime_ns == before.st_mtime_ns
    assert not build.up_to_date(src, out, options) and hashed == ["report.txt"]


def test_a_marker_with_damaged_stat_records_is_read_as_one_without_them(book, monkeypatch):
    """Stat records that are not four integers (a marker edited by hand or damaged): every file is hashed, as
    for a marker of a version before the records, and the no-op check answers instead of raising TypeError."""
    from pipeline.publish import outdir
    src, out, options = book
    monkeypatch.setattr(build, "OUTPUTS", build.OUTPUTS.only("write_corpus", "write_report", "write_stamp"))
    build.build(src, out, options)
    marker = json.loads((out / outdir.MARKER).read_text())
    marker["stats"]["report.txt"][1] = "yesterday"
    (out / outdir.MARKER).write_text(json.dumps(marker))
    assert outdir.read_marker(out)["stats"] == {}
    assert build.up_to_date(src, out, options)

def _fresh_process(monkeypatch):
    """The no-op check as a new process makes it: no code version or record known yet."""
    monkeypatch.setattr(cache, "_code_version", None)
    monkeypatch.setattr(cache, "_code_hashed", {})
    monkeypatch.setattr(cache, "_recorded", {})


def test_no_op_check_reads_no_input_whose_stat_the_stamp_recorded(book, monkeypatch):
    src, out, options = book
    monkeypatch.setattr(build, "OUTPUTS", build.OUTPUTS.only("write_corpus", "write_report", "write_stamp"))
    monkeypatch.setattr(cache, "RECENT_NS", -1)  # record every file, however recent (these were just written)
    _fresh_process(monkeypatch)
    build.build(src, out, options)
    hashed = json.loads((out / cache.STAMP).read_text())["hashed"]
    assert os.path.abspath(sorted(src.glob("*.txt"))[0]) in hashed
    assert str(Path(cache.PACKAGE, "publish", "cache.py")) in hashed
    read = []
    monkeypatch.setattr(cache, "open", lambda path, *a: read.append(path) or open(path, *a), raising=False)
    _fresh_process(monkeypatch)
    assert build.up_to_date(src, out, options) and read == []
    # The same size and the old times put back: its ctime still tells, and it is read and found changed.
    changed = sorted(src.glob("*.txt"))[0]
    before = changed.stat()
    data = changed.read_bytes()
    changed.write_bytes(data.replace(b"e", b"E", 1))
    os.utime(changed, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert changed.stat().st_size == before.st_size and changed.read_bytes() != data
    _fresh_process(monkeypatch)
    assert not build.up_to_date(src, out, options) and read == [os.path.abspath(changed)]


def test_a_file_changed_in_the_last_two_seconds_is_not_recorded(book, monkeypatch):
    src, out, options = book
    monkeypatch.setattr(build, "OUTPUTS", build.OUTPUTS.only("write_corpus", "write_report", "write_stamp"))
    build.build(src, out, options)  # the sources were written just now
    hashed = json.loads((out / cache.STAMP).read_text())["hashed"]
    assert not [name for name in hashed if name.startswith(os.path.abspath(src))]
    assert all(len(record) == 5 for record in hashed.values())


def test_a_damaged_record_in_the_stamp_is_not_used(book, monkeypatch):
    src, out, options = book
    monkeypatch.setattr(build, "OUTPUTS", build.OUTPUTS.only("write_corpus", "write_report", "write_stamp"))
    monkeypatch.setattr(cache, "RECENT_NS", -1)
    _fresh_process(monkeypatch)
    build.build(src, out, options)
    stamp_path = out / cache.STAMP
    stamp = json.loads(stamp_path.read_text())
    first = os.path.abspath(sorted(src.glob("*.txt"))[0])
    assert cache._a_record(stamp["hashed"][first])
    stamp["hashed"][first] = ["zz" * 32] + stamp["hashed"][first][1:]  # not a sha256: would not even decode
    stamp_path.write_text(json.dumps(stamp))
    _fresh_process(monkeypatch)
    # The marker records the stamp's old bytes: the check hashes the stamp, finds it changed, and rebuilds.
    assert not build.up_to_date(src, out, options) and first not in cache._recorded
