"""Output stages run side by side (pipeline/publish/run.py): the HTML site in a child forked after the
corpus is built, the PDF's compilers started before every other output. What the child does reaches
the build as if it ran in the build's process: its error with file, line and fix, its report
entries, its files; a failure leaves the previous build and no process behind."""
import dataclasses
import datetime
import json
import os

import pytest

from pipeline.publish import run as build
from pipeline.publish import lanes
from pipeline.core import lang
from pipeline.core.errors import LawbookError
from pipeline.core.stage import Stage
from pipeline.outputs import html, pdf
from pipeline.outputs.book import compiling

NL = lang.profile("nl")  # the Dutch book's file names


@pytest.fixture()
def book(sources_copy, tmp_path, monkeypatch):
    monkeypatch.delenv("LAWBOOK_NO_FORK", raising=False)
    monkeypatch.setattr(lanes, "FORK_ABOVE", 0)  # the five sources have ten articles
    return sources_copy, tmp_path / "out", {"cache_dir": str(tmp_path / "cache")}


def in_lane_of(name, run):
    """The build's stage `name` as declared (its lane, what it reads), running `run` instead."""
    return dataclasses.replace(build.OUTPUTS[name], run=run)


def files(out):
    return {p.relative_to(out): p.read_bytes() for p in out.rglob("*") if p.is_file()}


def test_the_site_is_written_by_a_forked_child(book, monkeypatch):
    src, out, options = book
    pids = {}

    def write_html(job):
        pids["html"] = os.getpid()
        html.write_html(job)

    # The fork goes by the stage's declared lane, whatever its function.
    monkeypatch.setattr(build, "OUTPUTS", build.OUTPUTS.only("write_corpus", "write_html", "write_graph", "write_diff",
                                                             "write_report")
                        .replace(in_lane_of("write_html", write_html)))
    ctx = build.build(src, out, options)
    assert pids == {}  # set in the child only
    assert (out / "html" / "2017" / "index.html").exists() and (out / "refs.graphml").exists()
    assert {"write_html", "write_graph", "write_diff", "write_corpus"} <= set(ctx.timings)


def test_an_error_in_the_forked_child_is_the_builds_one_message(book, monkeypatch):
    src, out, options = book
    build.build(src, out, options)
    before = files(out)

    def write_html(job):
        (job.tmp / "html").mkdir(exist_ok=True)
        raise LawbookError("the site cannot be made", file="bron.txt", line=7, fix="mend line 7", status=1)

    monkeypatch.setattr(build, "OUTPUTS", build.OUTPUTS.only("write_corpus", "write_html", "write_graph",
                                                             "write_report")
                        .replace(in_lane_of("write_html", write_html)))
    with pytest.raises(LawbookError) as e:
        build.build(src, out, dict(options, force=True))
    assert str(e.value) == "bron.txt:7: the site cannot be made\n  fix: mend line 7"
    assert e.value.status == 1
    assert files(out) == before
    assert [p.name for p in out.parent.iterdir() if ".tmp-" in p.name or ".old-" in p.name] == []
    assert (out.parent / "out.failed" / "report.json").exists()  # a status-1 error leaves the report, as ever


def test_report_entries_of_the_forked_child_reach_the_report(book, monkeypatch):
    src, out, options = book

    def write_html(job):
        job.log.add("inference", "bron.txt", 3, "a remark made while writing the site")

    monkeypatch.setattr(build, "OUTPUTS", build.OUTPUTS.only("write_corpus", "write_html", "write_report")
                        .replace(in_lane_of("write_html", write_html)))
    build.build(src, out, options)
    entries = json.loads((out / "report.json").read_text(encoding="utf-8"))["entries"]
    assert {"kind": "inference", "file": "bron.txt", "line": 3,
            "message": "a remark made while writing the site"} in entries


def test_a_failing_stage_stops_the_running_compilers(book, monkeypatch):
    src, out, options = book
    started = []

    def start_pdf(job):
        compiles = pdf.start_pdf(job)
        started.extend(process for _, process, _ in compiles.compiles.running)  # (in OpenWithBookmarks)
        return compiles

    def broken(job):
        raise LawbookError("the diff cannot be made", file="bron.txt", line=2, fix="mend line 2", status=1)

    monkeypatch.setattr(build, "OUTPUTS", build.OUTPUTS.only("start_pdf", "write_corpus", "finish_pdf")
                        .replace(in_lane_of("start_pdf", start_pdf)).after("write_corpus", Stage("broken", broken)))
    with pytest.raises(LawbookError):
        build.build(src, out, options)
    assert len(started) == 2  # both editions were compiling …
    assert all(process.returncode is not None for process in started)  # … and were stopped and reaped
    assert not out.exists()


def test_the_typst_source_of_each_book_is_kept_beside_its_pdf(book):
    src, out, options = book
    build.build(src, out, options)
    for edition in ("2007", "2017"):
        source = (out / pdf.typ_name(edition, NL)).read_text(encoding="utf-8")
        assert f'title: "Spelregels voor Wedstrijdbridge {edition}"' in source
        assert (out / pdf.pdf_name(edition, NL)).read_bytes().startswith(b"%PDF-")


def test_books_compile_side_by_side_while_their_memory_fits(tmp_path):
    meminfo = tmp_path / "meminfo"
    meminfo.write_text("MemTotal:       24000000 kB\nMemAvailable:    4000000 kB\n")
    assert compiling.parallel_limit(meminfo) == 4000000 * 1024 // 2 // compiling.BYTES_PER_SOURCE_CHARACTER
    meminfo.write_text("MemAvailable:     100000 kB\n")  # a small machine: never below the fixed limit
    assert compiling.parallel_limit(meminfo) == compiling.PARALLEL_SOURCE_LIMIT
    assert compiling.parallel_limit(tmp_path / "absent") == compiling.PARALLEL_SOURCE_LIMIT
    stamp = datetime.datetime(2026, 1, 1, tzinfo=datetime.timezone.utc)
    books = []
    for k in range(2):
        (tmp_path / f"{k}.typ").write_text(f"Boek {k}", encoding="utf-8")
        books.append(compiling.Book(tmp_path / f"{k}.typ", tmp_path / f"{k}.pdf", stamp, str(k), weight=600_000))
    for limit, at_once in ((1_200_000, 2), (1_000_000, 1)):
        compiles = compiling.Compiles(books, limit=limit)
        try:
            assert len(compiles.running) == at_once and len(compiles.queue) == 2 - at_once
            compiles.wait()
        finally:
            compiles.kill()
        assert all(book.out.read_bytes().startswith(b"%PDF-") for book in books)


def test_a_memory_budget_for_the_compilers_is_the_users_to_set(tmp_path):
    """LAWBOOK_PDF_MEMORY_MB replaces half of the memory available; a budget that is not a number is one
    message naming the variable and the fix (status 2), never a traceback."""
    from pipeline.core.errors import LawbookError

    meminfo = tmp_path / "meminfo"
    meminfo.write_text("MemTotal: 8000000 kB\nMemAvailable: 4000000 kB\n", encoding="ascii")
    assert compiling.parallel_limit(meminfo, {"LAWBOOK_PDF_MEMORY_MB": "300"}) == 300_000
    assert compiling.parallel_limit(meminfo, {}) == 4000000 * 1024 // 2 // compiling.BYTES_PER_SOURCE_CHARACTER
    for bad in ("", "lots", "0", "-5"):
        with pytest.raises(LawbookError, match="LAWBOOK_PDF_MEMORY_MB") as e:
            compiling.parallel_limit(meminfo, {"LAWBOOK_PDF_MEMORY_MB": bad})
        assert e.value.status == 2
