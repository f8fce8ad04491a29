"""Watch mode (publish/watch.py): after each edit the watched build folder is, file by file, what a
fresh full build of the same sources writes; a broken edit leaves the previous build as it was.

The book is a copy of the project's five sources; every edit is made up here (a word, a new article, a
deleted section, a new reference, a renumbering correction undone), and each is checked against a
fresh forced build into a folder of its own, with a cache of its own.
"""
import filecmp
import json
import queue
import shutil
from pathlib import Path

import pytest

from pipeline.publish import outdir, run, warm, watch

PAGE = "000_8d35bcdf16b9ca3e.txt"  # a wiki page of the 2017 edition: articles 53, 41, 24, 50D
# Pagefind's filter and meta files are named by a hash that differs between two fresh full builds of
# the same sources (measured: two forced builds of sources/ write nl_111549d or nl_ffcf669), so the
# search index is compared by its content-named fragments only (and not by files.json, the list of
# the index's files for the service worker, which names those files).
UNSTABLE = ("html/pagefind/filter/", "html/pagefind/pagefind.", "html/pagefind/pagefind-entry.json",
            "html/pagefind/files.json")


def files(folder: Path) -> set[str]:
    return {p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file()}


def differences(watched: Path, fresh: Path) -> list[str]:
    """The files in which two build folders differ, besides what differs between any two builds: the
    marker (the build's id and place; its list of files and their sha256 is compared) and the stamp's
    record of file times (its input and edition digests are compared)."""
    skip = {outdir.MARKER, ".lawbook-stamp.json"}
    a = {p for p in files(watched) if p not in skip and not p.startswith(UNSTABLE)}
    b = {p for p in files(fresh) if p not in skip and not p.startswith(UNSTABLE)}
    out = sorted(f"only in one: {p}" for p in a ^ b)
    out += sorted(p for p in a & b if not filecmp.cmp(watched / p, fresh / p, shallow=False))
    marks = [{k: v for k, v in outdir.read_marker(f)["files"].items() if k not in skip and not k.startswith(UNSTABLE)}
             for f in (watched, fresh)]
    if marks[0] != marks[1]:
        out.append(outdir.MARKER)
    stamps = [json.loads((f / ".lawbook-stamp.json").read_text()) for f in (watched, fresh)]
    if [(s["inputs"], s["editions"]) for s in stamps] != [(s["inputs"], s["editions"]) for s in stamps[::-1]]:
        out.append(".lawbook-stamp.json")
    return out


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, old
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


EDITS = [
    ("a word", PAGE, "Getoonde of voorgespeelde kaart tijdens het bieden",
     "Getoonde of voorgespeelde kaart gedurende het bieden"),
    ("a new article", PAGE, "\n\nArtikel\u00a041\n",  # the page writes a no-break space there
     "\n\nArtikel 99\n\nEen nieuw artikel\n\nDe wedstrijdleider beslist over elk geval.\n\nArtikel\u00a041\n"),
    ("a deleted section", PAGE, "4. Partij van de leider\nAls de overtreder leider of blinde wordt, worden de "
     "kaarten opgepakt en weer toegevoegd aan de hand.\n", ""),
    ("a new reference", PAGE, "De leider speelt zowel zijn hand als die van de blinde.",
     "De leider speelt zowel zijn hand als die van de blinde (zie artikel 24)."),
    ("a renumbering correction undone", "corrections.toml", '[[correction]]\nkind = "renumber"\nnode = "2017/47E1b"\n'
     'to = "2017/47E2b"\nbasis = "WBF Laws 2017, Law 47E2(b)"\n', ""),
]


@pytest.fixture(scope="module")
def book(tmp_path_factory):
    """A copy of the five sources and a watch session building it, warm across the tests."""
    folder = tmp_path_factory.mktemp("watch")
    shutil.copytree("sources", folder / "src")
    session = watch.Session(folder / "src", folder / "build")
    first = session.rebuild()
    assert first.ok and first.error is None
    yield folder, session
    session.close()


def fresh_build(folder: Path, name: str, options: dict[str, object] | None = None) -> Path:
    out = folder / f"fresh-{name.replace(' ', '-')}"
    run.build(folder / "src", out, {**(options or {}), "force": True, "cache_dir": str(folder / f"cache-{out.name}")})
    return out


@pytest.mark.parametrize("name, file, old, new", EDITS, ids=[e[0] for e in EDITS])
def test_the_watched_build_is_a_full_build_after_each_edit(book, name, file, old, new):
    folder, session = book
    before = session.generation
    edit(folder / "src" / file, old, new)
    outcome = session.rebuild()
    assert outcome.ok and outcome.error is None and not outcome.skipped
    assert outcome.generation == before + 1 and outcome.changed
    if name == "a new article":
        assert "html/2017/99.html" in outcome.changed
    assert differences(folder / "build", fresh_build(folder, name)) == []


def test_a_word_rewrites_its_page_and_the_pdf_of_its_edition_only(book):
    folder, session = book
    edit(folder / "src" / PAGE, "Het begin van het spelen", "Het begin van het afspelen")
    outcome = session.rebuild()
    assert "html/2017/41.html" in outcome.changed
    assert "pdf/spelregels-2017.pdf" in outcome.changed
    assert "pdf/spelregels-2007.pdf" not in outcome.changed  # the other edition's book is reused
    assert "html/2007/41.html" not in outcome.changed
    assert outcome.view()["changed"] == [p for p in outcome.changed if p.startswith("html/") and p.endswith(".html")]


def test_a_broken_edit_leaves_the_previous_build_and_names_file_line_and_fix(book):
    folder, session = book
    page = folder / "build" / "html" / "2017" / "41.html"
    kept = {p: (folder / "build" / p).read_bytes() for p in files(folder / "build")}
    generation = session.generation
    text = (folder / "src" / PAGE).read_text(encoding="utf-8")
    second = text[:text.index("1. Gedekte uitkomst")].count("\n") + 2  # the line of the repeated heading
    edit(folder / "src" / PAGE, "1. Gedekte uitkomst", "1. Gedekte uitkomst\n1. Gedekte uitkomst")
    outcome = session.rebuild()
    assert not outcome.ok and outcome.generation == generation
    assert outcome.error["file"] == PAGE and outcome.error["line"] == second
    assert f"2017/41A begins a second time at line {second}" in outcome.error["message"]
    assert outcome.error["fix"].startswith("correct the source at this line")
    assert {p: (folder / "build" / p).read_bytes() for p in files(folder / "build")} == kept
    assert "Gedekte uitkomst" in page.read_text(encoding="utf-8")
    # Undoing the edit: nothing to build (the build on disk is the sources' own), and no error shown.
    edit(folder / "src" / PAGE, "1. Gedekte uitkomst\n1. Gedekte uitkomst", "1. Gedekte uitkomst")
    again = session.rebuild()
    assert again.ok and again.skipped and again.error is None and again.generation == generation


def test_a_bug_in_a_rebuild_is_an_outcome_and_watching_goes_on(tmp_path, monkeypatch):
    shutil.copytree("sources", tmp_path / "src")
    session = watch.Session(tmp_path / "src", tmp_path / "build", {"no_pdf": True})

    def broken(*args, **kwargs):
        raise ZeroDivisionError("division by zero")
    monkeypatch.setattr(run, "build", broken)
    outcome = session.rebuild()
    assert not outcome.ok and outcome.error["message"] == "ZeroDivisionError: division by zero"
    assert "lawbook build --debug" in outcome.error["fix"]
    assert not (tmp_path / "build").exists()


# -- recovery: a good rebuild after a failed one ------------------------------------------------------------
HEADING = "1. Gedekte uitkomst"  # a heading of 2017/41A; written twice it is a second 41A: the build fails


@pytest.fixture
def failing(tmp_path):
    """A session on a copy of the five sources whose first build is good and whose next edit fails."""
    shutil.copytree("sources", tmp_path / "src")
    session = watch.Session(tmp_path / "src", tmp_path / "build", {"no_pdf": True})
    assert session.rebuild().ok
    yield tmp_path, session
    session.close()


def break_and_rebuild(folder: Path, session: watch.Session) -> watch.Outcome:
    edit(folder / "src" / PAGE, HEADING, f"{HEADING}\n{HEADING}")
    outcome = session.rebuild()
    assert not outcome.ok and not outcome.recovered
    assert outcome.error["origin"] == ("Wiki page export 'ARTIKEL 54': shows articles 53, 41, 24 and 50D, then a "
                                       "personal remark on article 54 by Peter")
    assert (folder / "build.failed" / "report.txt").is_file()
    return outcome


def test_a_good_rebuild_after_a_failed_one_says_it_recovered_and_removes_the_failed_report(failing, capsys):
    from pipeline import serve, watch_server

    folder, session = failing
    failed = break_and_rebuild(folder, session)
    watch_server._print_outcome(failed, folder / "build")
    assert capsys.readouterr().err.splitlines()[-1] == (
        "  the last good build is still served; the pages reload once the sources build")
    # The edit undone: nothing to build, and the build has recovered.
    edit(folder / "src" / PAGE, f"{HEADING}\n{HEADING}", HEADING)
    undone = session.rebuild()
    assert undone.ok and undone.skipped and undone.recovered
    assert not (folder / "build.failed").exists()
    watch_server._print_outcome(undone, folder / "build")
    assert capsys.readouterr().out == f"recovered: {folder / 'build'}/ is up to date again ({undone.seconds:.2f} s)\n"
    # Once: the next good rebuild is an ordinary one.
    edit(folder / "src" / PAGE, "Het begin van het spelen", "Het begin van het afspelen")
    again = session.rebuild()
    assert again.ok and not again.recovered
    watch_server._print_outcome(again, folder / "build")
    assert capsys.readouterr().out.startswith(f"all {folder / 'build'}/ up to date ")
    # Broken again and mended by a new edit (a rebuild, not an undo): recovered the same way.
    break_and_rebuild(folder, session)
    edit(folder / "src" / PAGE, f"{HEADING}\n{HEADING}", "1. Gedekte uitkomsten")
    mended = session.rebuild()
    assert mended.ok and not mended.skipped and mended.recovered and mended.changed
    assert not (folder / "build.failed").exists()
    watch_server._print_outcome(mended, folder / "build")
    assert capsys.readouterr().out == f"recovered: {folder / 'build'}/ is up to date again ({mended.seconds:.2f} s)\n"


def test_a_failed_report_folder_lawbook_did_not_write_stays(failing):
    folder, session = failing
    break_and_rebuild(folder, session)
    # Someone puts their own folder in its place: no marker, a file of theirs.
    shutil.rmtree(folder / "build.failed")
    (folder / "build.failed").mkdir()
    (folder / "build.failed" / "notes.txt").write_text("mine", encoding="utf-8")
    edit(folder / "src" / PAGE, f"{HEADING}\n{HEADING}", HEADING)
    assert session.rebuild().recovered
    assert (folder / "build.failed" / "notes.txt").read_text(encoding="utf-8") == "mine"


def test_a_failed_report_folder_another_build_wrote_stays(failing):
    folder, session = failing
    break_and_rebuild(folder, session)
    # Another lawbook process wrote the failed build's report since: its marker is not this session's.
    marker = folder / "build.failed" / outdir.MARKER
    data = json.loads(marker.read_text(encoding="utf-8"))
    marker.write_text(json.dumps(dict(data, id="0123456789abcdef", pid=1)), encoding="utf-8")
    edit(folder / "src" / PAGE, f"{HEADING}\n{HEADING}", HEADING)
    assert session.rebuild().recovered
    assert (folder / "build.failed" / "report.txt").is_file()


def test_the_panel_says_what_is_true_in_the_books_language(failing):
    """A conflict's message says the first reading is kept: of the corpus, not of a failed build, so the
    panel leaves that out and says what is served, where, what failed, what to do, and that the page reloads."""
    from pipeline import serve, watch_server
    from pipeline.core import lang

    folder, session = failing
    edit(folder / "src" / "001_0c222c0b6955047f.txt", "mogen alle in deze slag abusievelijk gespeelde kaarten worden "
         "teruggenomen", "moeten alle in deze slag gespeelde kaarten blijven liggen")
    outcome = session.rebuild()
    assert "the first reading is kept until a source is corrected" in outcome.error["message"]
    report = outcome.error["report"]
    assert [(line["kind"], line["text"], line["lang"]) for line in watch_server.panel_lines(outcome.error, lang.profile("nl"))] == [
        ("heading", "Deze wijziging bouwt niet: de site toont nog de laatste build die wel lukte.", None),
        ("where", "Waar: Wiki page export 'ARTIKEL 56': shows articles 53 and 50D again (001_0c222c0b6955047f.txt), "
                  "regel 12", None),
        ("what", "Wat misging: 2017/53B luidt anders in 000_8d35bcdf16b9ca3e.txt:12 dan in 001_0c222c0b6955047f.txt:12: "
                 "'mogen' / 'moeten'; 'abusievelijk' / ''; 'worden teruggenomen. artikel' / 'blijven liggen. Artikel'",
         None),
        ("fix", f"Wat te doen: verbeter de bron op die regel en sla haar op; het hele verslag van de mislukte build "
                f"staat in {report}.", None),
        ("reload", "Zodra de bron weer bouwt, laadt deze pagina vanzelf opnieuw met de nieuwe build.", None)]
    english = [line["text"] for line in watch_server.panel_lines(outcome.error, lang.profile("en"))]
    assert english[0] == "This change did not build: the site still shows the last build that did."
    assert english[-1] == "Once the source builds, this page reloads with the new build by itself."
    assert not any("first reading" in text or "eerste lezing" in text for code in ("nl", "en", "fr")
                   for text in (line["text"] for line in watch_server.panel_lines(outcome.error, lang.profile(code))))
    # A message the words do not know: the panel's own words around it, the message marked English.
    unknown = {"message": "something new went wrong", "file": None, "line": None, "fix": "do this", "count": 3}
    lines = watch_server.panel_lines(unknown, lang.profile("nl"))
    assert [(line["kind"], line["text"], line["lang"]) for line in lines] == [
        ("heading", "Deze wijziging bouwt niet: de site toont nog de laatste build die wel lukte.", None),
        ("what", "Wat misging: something new went wrong", "en"), ("fix", "Wat te doen: do this", "en"),
        ("more", "Het verslag noemt nog 2 fouten.", None),
        ("reload", "Zodra de bron weer bouwt, laadt deze pagina vanzelf opnieuw met de nieuwe build.", None)]


def test_changed_files_are_those_whose_recorded_sha256_differs():
    before = {"files": {"a": "1", "b": "2", "gone": "3"}}
    after = {"files": {"a": "1", "b": "9", "new": "4"}}
    assert watch.changed_files(before, after) == ["b", "gone", "new"]
    assert watch.changed_files(None, {"files": {"x": "1"}}) == ["x"]


@pytest.mark.parametrize("path, worth", [
    ("/book/src/000_8d35bcdf16b9ca3e.txt", True), ("/book/src/corrections.toml", True),
    ("/book/src/sources.toml", True), ("/book/src/.000_8d35bcdf16b9ca3e.txt.swp", False),
    ("/book/src/000_8d35bcdf16b9ca3e.txt~", False), ("/book/src/.#sources.toml", False),
    ("/book/src/.verborgen.txt", True), ("/book/src/kopie.txt~", True), ("/book/src/.verborgen.txt.swp", False)])
def test_an_editors_swap_and_backup_files_start_no_rebuild_but_a_listed_source_does_whatever_its_name(path, worth):
    assert watch.worth_a_rebuild(path, {".verborgen.txt", "kopie.txt~", PAGE}) is worth


# -- the sources folder followed by its path: deleted, replaced, hidden names -------------------------
@pytest.fixture
def watching(tmp_path):
    """(the sources folder, the next outcome that did something) while watch_server.watch_sources follows it,
    as `serve --watch` does, with a session built once; every outcome, skipped ones too, is kept."""
    import threading

    from pipeline import serve, watch_server

    shutil.copytree("sources", tmp_path / "src")
    session = watch.Session(tmp_path / "src", tmp_path / "build", {"no_pdf": True})
    assert session.rebuild().ok
    live, stop, outcomes = watch_server.LiveState(), threading.Event(), queue.Queue()
    thread = threading.Thread(target=watch_server.watch_sources, args=(session, live, stop, outcomes.put), daemon=True)
    thread.start()

    def next_outcome() -> watch.Outcome:
        while True:  # a rebuild that found nothing to build is no outcome of the change
            outcome = outcomes.get(timeout=120)
            if not outcome.skipped:
                return outcome
    try:
        yield tmp_path / "src", next_outcome, outcomes
    finally:
        stop.set()
        thread.join(10)
        session.close()


def article_41(folder: Path) -> str:
    return (folder.parent / "build" / "html" / "2017" / "41.html").read_text(encoding="utf-8")


def test_a_deleted_sources_folder_is_reported_and_its_new_copy_is_followed(watching):
    src, next_outcome, _ = watching
    kept = src.parent / "kept"
    shutil.copytree(src, kept)
    shutil.rmtree(src)
    gone = next_outcome()
    assert not gone.ok and gone.error["message"] == "the sources folder does not exist"
    assert gone.error["file"] == str(src) and gone.error["fix"] == "give an existing folder with --sources"
    edit(kept / PAGE, "Het begin van het spelen", "Het begin van het kaartspel")
    shutil.copytree(kept, src)
    back = next_outcome()
    assert back.ok and "html/2017/41.html" in back.changed and "Het begin van het kaartspel" in article_41(src)
    edit(src / PAGE, "Het begin van het kaartspel", "Het begin van het afspelen")  # the new folder is watched
    again = next_outcome()
    assert again.ok and "html/2017/41.html" in again.changed and "Het begin van het afspelen" in article_41(src)


def test_a_sources_folder_replaced_by_a_rename_is_followed(watching):
    src, next_outcome, _ = watching
    new = src.parent / "src.new"
    shutil.copytree(src, new)
    edit(new / PAGE, "Het begin van het spelen", "Het begin van het kaartspel")
    src.rename(src.parent / "src.old")
    new.rename(src)  # mv src.new src
    replaced = next_outcome()
    assert replaced.ok and "Het begin van het kaartspel" in article_41(src)
    edit(src / PAGE, "Het begin van het kaartspel", "Het begin van het afspelen")
    again = next_outcome()
    assert again.ok and "html/2017/41.html" in again.changed and "Het begin van het afspelen" in article_41(src)
    edit(src.parent / "src.old" / PAGE, "Het begin van het spelen", "Het begin van het oude")  # not the sources now
    with pytest.raises(queue.Empty):  # nothing rebuilds for the folder the path left
        watching[2].get(timeout=2)


@pytest.mark.parametrize("name", [".verborgen.txt", "kopie.txt~"])
def test_a_listed_source_with_a_hidden_or_backup_like_name_is_watched(watching, name):
    src, next_outcome, _ = watching
    (src / PAGE).rename(src / name)
    manifest = src / "sources.toml"
    manifest.write_text(manifest.read_text(encoding="utf-8").replace(PAGE, name), encoding="utf-8")
    renamed = next_outcome()
    assert renamed.ok
    edit(src / name, "Het begin van het spelen", "Het begin van het kaartspel")
    edited = next_outcome()
    assert edited.ok and "html/2017/41.html" in edited.changed and "Het begin van het kaartspel" in article_41(src)


def test_the_watch_server_adds_its_script_streams_the_state_and_quiets_the_worker(book):
    """Over HTTP on 127.0.0.1: a page gets the live script before </body> (the file on disk stays the
    build's), /__lawbook/events answers the state at once, /sw.js is the worker that removes itself."""
    import http.client
    import threading

    from pipeline import serve, watch_server
    from pipeline.core import lang

    folder, session = book
    live = watch_server.LiveState()
    live.publish({"ok": False, "generation": 7, "changed": [],
                  "error": {"message": "m", "file": PAGE, "line": 3, "fix": "f", "count": 1}})
    server = watch_server.make_watch_server(folder / "build" / "html", live, lang.profile("nl"), 0, quiet=True)
    assert server.server_address[0] == "127.0.0.1"
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        port = server.server_address[1]

        def get(path):
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
            conn.request("GET", path)
            return conn, conn.getresponse()

        conn, answer = get("/2017/41.html")
        body = answer.read()
        on_disk = (folder / "build" / "html" / "2017" / "41.html").read_bytes()
        assert answer.getheader("Cache-Control") == "no-store"
        assert b'<script src="/__lawbook/live.js" data-generation="7"' in body
        assert body.replace(body[body.index(b"<script src=\"/__lawbook/"):body.rindex(b"</body>")], b"") == on_disk
        assert int(answer.getheader("Content-Length")) == len(body)
        assert b"/__lawbook/" not in on_disk
        conn.close()
        conn, answer = get("/2017")
        assert answer.status == 301 and answer.getheader("Location") == "/2017/"  # relative links keep working
        conn.close()
        conn, answer = get("/2017/")
        assert b"/__lawbook/live.js" in answer.read()
        conn.close()
        conn, answer = get("/__lawbook/live.js")
        assert b"new EventSource(\"/__lawbook/events?page=\"" in answer.read()
        conn.close()
        conn, answer = get("/sw.js")
        assert b"unregister" in answer.read()
        conn.close()
        conn, answer = get("/__lawbook/nothing")
        assert answer.status == 404
        conn.close()
        conn, answer = get("/__lawbook/events")
        assert answer.getheader("Content-Type") == "text/event-stream"
        first = answer.fp.readline() + answer.fp.readline()
        assert first.startswith(b"event: state\ndata: {")
        state = json.loads(first.split(b"data: ", 1)[1])
        assert state["error"]["line"] == 3
        # The panel's lines, written in the book's language: the page only shows them.
        assert [line["kind"] for line in state["panel"]] == ["heading", "where", "what", "fix", "reload"]
        assert state["panel"][1]["text"] == f"Waar: {PAGE}, regel 3"
        conn.close()
    finally:
        server.stopping = True
        server.shutdown()
        server.server_close()


def test_the_event_stream_takes_64_pages_answers_one_more_503_and_none_for_another_host(book):
    """The open pages' event streams (each holds a thread) are capped at serve.MAX_EVENT_STREAMS; a page that
    closes gives its place to the next. The stream, which carries the errors' absolute paths, is not given
    to a request for another host."""
    import socket
    import threading
    import time

    from pipeline import serve, watch_server
    from pipeline.core import lang

    folder, session = book
    live = watch_server.LiveState()
    live.publish({"ok": True, "generation": 1, "changed": [], "error": None})
    server = watch_server.make_watch_server(folder / "build" / "html", live, lang.profile("nl"), 0, quiet=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    port = server.server_address[1]

    def open_stream(host=f"127.0.0.1:{port}"):
        """(the connection, its reader past the status line, the status line) of a GET of the event stream."""
        s = socket.create_connection(("127.0.0.1", port), timeout=10)
        s.sendall(f"GET /__lawbook/events HTTP/1.1\r\nHost: {host}\r\n\r\n".encode())
        reader = s.makefile("rb")
        return s, reader, reader.readline()

    streams = []
    try:
        assert serve.MAX_EVENT_STREAMS == 64
        for _ in range(64):
            streams.append(open_stream())
        assert {status for _, _, status in streams} == {b"HTTP/1.0 200 OK\r\n"}
        extra, reader, status = open_stream()
        assert status == b"HTTP/1.0 503 Too many open pages\r\n"
        assert b"at most 64 pages up to date at once" in reader.read()
        extra.close()
        other, reader, status = open_stream(f"evil.example:{port}")
        assert status == b"HTTP/1.0 421 Misdirected Request\r\n"
        assert str(folder).encode() not in reader.read()
        other.close()
        closed, _, _ = streams.pop()
        closed.close()
        for _ in range(200):  # the server learns that the page went away when it next writes to it
            live.publish({"ok": True, "generation": 1, "changed": [], "error": None})
            again, reader, status = open_stream()
            if status == b"HTTP/1.0 200 OK\r\n":
                break
            again.close()
            time.sleep(0.05)
        assert status == b"HTTP/1.0 200 OK\r\n"
        streams.append((again, reader, status))
    finally:
        for s, _, _ in streams:
            s.close()
        server.stopping = True
        live.publish({"ok": True, "generation": 1, "changed": [], "error": None})
        server.shutdown()
        server.server_close()


def test_serve_watch_builds_serves_and_stops_on_ctrl_c(tmp_path):
    """The command as an editor runs it: it builds the missing build folder, says where it serves, and
    Ctrl-C (SIGINT) ends it at once with status 0, its compilers with it."""
    import signal
    import subprocess
    import sys
    import time

    shutil.copytree("sources", tmp_path / "src")
    from conftest import CTRL_C_AS_IN_A_TERMINAL

    lawbook = CTRL_C_AS_IN_A_TERMINAL + "import runpy; runpy.run_module('pipeline', run_name='__main__')"
    proc = subprocess.Popen([sys.executable, "-c", lawbook, "serve", "--watch", "--no-pdf", "--sources",
                             str(tmp_path / "src"), "--out", str(tmp_path / "build"), "--port", "0"],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        lines = []
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            lines.append(proc.stdout.readline())
            if lines[-1].startswith("serving ") or not lines[-1]:
                break
        assert lines[-1].startswith("serving ") and "http://127.0.0.1:" in lines[-1], lines
        assert (tmp_path / "build" / "html" / "2017" / "41.html").exists()
        time.sleep(0.5)  # watching
        proc.send_signal(signal.SIGINT)
        rest, _ = proc.communicate(timeout=20)
        assert proc.returncode == 0
        assert "Traceback" not in rest and "KeyboardInterrupt" not in rest
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def test_a_warm_compiler_gives_a_fresh_compiles_bytes_and_the_builds_message_on_failure(tmp_path):
    import datetime

    from pipeline.core.errors import LawbookError
    from pipeline.outputs.book import compiling

    stamp = datetime.datetime(2017, 3, 1, tzinfo=datetime.timezone.utc)
    compiler = warm.WarmCompiler()
    try:
        for k, words in enumerate(["Eerste proef.", "Tweede proef, een woord meer."]):
            source = f"= Artikel {k}\n{words}\n"
            (tmp_path / "book.typ").write_text(source, encoding="utf-8")
            compiler.start(tmp_path / "book.typ", tmp_path / "book.pdf", stamp)
            compiler.finish("2017")
            assert (tmp_path / "book.pdf").read_bytes() == compiling.render_pdf(source, stamp)
        warm_pid = compiler.process.pid
        (tmp_path / "book.typ").write_text("#let x = (\n", encoding="utf-8")
        compiler.start(tmp_path / "book.typ", tmp_path / "book.pdf", stamp)
        with pytest.raises(LawbookError, match="the PDF edition 2017 did not compile"):
            compiler.finish("2017")
        assert compiler.process.pid == warm_pid  # a compile error keeps the compiler warm
    finally:
        compiler.stop()
    assert compiler.process is None


# -- page first: the overlay, and a rebuild restarted by a second save -------------------------------------
def test_the_overlay_serves_its_files_only_over_the_build_it_was_made_for(tmp_path):
    out = tmp_path / "build"
    out.mkdir()
    (out / outdir.MARKER).write_text("{}", encoding="utf-8")
    overlay = watch.Overlay(out)
    overlay.replace(3, watch.build_identity(out), 8, {"html/2017/41.html": b"new"})
    assert overlay.get("html/2017/41.html") == (b"new", 8)
    assert overlay.get("html/2017/24.html") is None
    assert overlay.add(3, "pdf/spelregels-2017.pdf", b"%PDF") and not overlay.add(2, "pdf/x.pdf", b"old rebuild's")
    assert overlay.paths() == ["html/2017/41.html", "pdf/spelregels-2017.pdf"]
    # Another build put in place (a new marker, as every swap brings): the overlay is not consulted any more.
    (out / outdir.MARKER).unlink()
    (out / outdir.MARKER).write_text("{}", encoding="utf-8")
    assert overlay.get("html/2017/41.html") is None
    overlay.clear()
    assert overlay.paths() == [] and not overlay.add(3, "pdf/x.pdf", b"")


def test_the_open_page_is_served_from_the_overlay_first_and_the_build_after_the_swap(tmp_path):
    """The page an open browser shows is rendered once the corpus is made and served over HTTP before the
    rebuild is in place (build/ still holds the old page); it is the page the build then writes, byte for
    byte; the PDF follows, then the build, and the overlay is cleared."""
    import http.client
    import threading

    from pipeline import serve, watch_server
    from pipeline.core import lang

    shutil.copytree("sources", tmp_path / "src")
    session = watch.Session(tmp_path / "src", tmp_path / "build")
    assert session.rebuild().ok
    live = watch_server.LiveState(session.overlay)
    server = watch_server.make_watch_server(tmp_path / "build" / "html", live, lang.profile("nl"), 0, quiet=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()

    def get(path: str) -> bytes:
        conn = http.client.HTTPConnection("127.0.0.1", server.server_address[1], timeout=10)
        conn.request("GET", path)
        body = conn.getresponse().read()
        conn.close()
        return body

    seen: list[tuple[str, list[str], bytes, bytes]] = []

    def step(done: watch.Step) -> None:
        what = get("/2017/41.html") if done.kind == "page" else get("/pdf/spelregels-2017.pdf")
        on_disk = (tmp_path / "build" / ("html/2017/41.html" if done.kind == "page" else "pdf/spelregels-2017.pdf"))
        seen.append((done.kind, done.paths, what, on_disk.read_bytes()))
    try:
        edit(tmp_path / "src" / PAGE, "Het begin van het spelen", "Het begin van het afspelen")
        outcome = session.rebuild(lambda: ["2017/41.html"], step)
        assert outcome.ok and [kind for kind, *_ in seen] == ["page", "pdf"]
        kind, paths, served, before = seen[0]
        assert paths == ["2017/41.html"] and "afspelen".encode() in served and "afspelen".encode() not in before
        assert b'data-page="2017/41.html"' in served
        page = (tmp_path / "build" / "html" / "2017" / "41.html").read_bytes()
        assert served[:served.index(b'<script src="/__lawbook/')] + b"</body>" in page + b"</body>"
        assert served.replace(served[served.index(b'<script src="/__lawbook/'):served.rindex(b"</body>")], b"") == page
        kind, paths, pdf, before = seen[1]
        assert paths == ["pdf/spelregels-2017.pdf"] and pdf != before
        assert pdf == (tmp_path / "build" / "pdf" / "spelregels-2017.pdf").read_bytes()
        assert session.overlay.paths() == [] and get("/pdf/spelregels-2017.pdf") == pdf
        # The page's generation is the build's: the open page does not reload a second time.
        assert f'data-generation="{outcome.generation}"'.encode() in served
        # No page open: the edited article's page is the one rendered first.
        seen.clear()
        edit(tmp_path / "src" / PAGE, "Het begin van het afspelen", "Het begin van het kaartspel")
        assert session.rebuild(lambda: [], step).ok
        assert seen[0][:2] == ("page", ["2017/41.html"]) and "kaartspel".encode() in seen[0][2]
        # The book made to open with its bookmarks by the compiler's process: still a full build's, byte for byte.
        assert differences(tmp_path / "build", fresh_build(tmp_path, "page-first")) == []
    finally:
        server.stopping = True
        server.shutdown()
        server.server_close()
        session.close()


@pytest.mark.parametrize("options", [{"no_pdf": True}, {}], ids=["page", "page-and-pdf"])
def test_a_finding_of_the_last_check_after_the_page_was_shown_fails_the_build_and_clears_what_was_shown(
        tmp_path, options):
    """The open page is shown, and the PDF's compiler started, before the fidelity check, which only reports
    (run.reports_from, run.starts_processes): a finding of it still fails the rebuild, leaves build/ as it
    was, and what was served early (the page, a PDF) is taken back; the next good rebuild is a full build."""
    shutil.copytree("sources", tmp_path / "src")
    session = watch.Session(tmp_path / "src", tmp_path / "build", options)
    try:
        assert session.rebuild().ok
        kept = {p: (tmp_path / "build" / p).read_bytes() for p in files(tmp_path / "build")}
        steps: list[watch.Step] = []
        # A footnote marker's form glued to a word: the wiki reader keeps it as text, the fidelity check refuses it.
        edit(tmp_path / "src" / PAGE, "als die van de blinde.", "als die van de blinde7.")
        outcome = session.rebuild(lambda: ["2017/41.html"], steps.append)
        assert not outcome.ok and "footnote marker's form" in outcome.error["message"]
        assert (steps[0].kind, steps[0].paths) == ("page", ["2017/41.html"])
        assert {s.kind for s in steps[1:]} <= (set() if options else {"pdf"})  # the PDF, if it was done first
        assert session.overlay.paths() == []  # the page and the PDF
        assert {p: (tmp_path / "build" / p).read_bytes() for p in files(tmp_path / "build")} == kept
        edit(tmp_path / "src" / PAGE, "als die van de blinde7.", "als die van de blinde, nu.")
        assert session.rebuild(lambda: ["2017/41.html"], lambda done: None).ok
        assert differences(tmp_path / "build", fresh_build(tmp_path, "after-finding", options)) == []
    finally:
        session.close()


def test_a_save_during_a_rebuild_stops_it_and_the_next_builds_the_new_sources(tmp_path):
    """The sources change again while a rebuild is under way (the watcher sets session.cancel): the rebuild
    stops between two stages, puts nothing in place and leaves no temporary folder; the next one builds the
    new sources, as a full build does."""
    shutil.copytree("sources", tmp_path / "src")
    session = watch.Session(tmp_path / "src", tmp_path / "build", {"no_pdf": True})
    try:
        assert session.rebuild().ok
        kept = {p: (tmp_path / "build" / p).read_bytes() for p in files(tmp_path / "build")}

        def second_save(done: watch.Step) -> None:
            edit(tmp_path / "src" / PAGE, "Het begin van het afspelen", "Het begin van het kaartspel")
            session.cancel.set()
        edit(tmp_path / "src" / PAGE, "Het begin van het spelen", "Het begin van het afspelen")
        stopped = session.rebuild(lambda: ["2017/41.html"], second_save)
        assert stopped.cancelled and not stopped.ok
        assert {p: (tmp_path / "build" / p).read_bytes() for p in files(tmp_path / "build")} == kept
        assert sorted(p.name for p in tmp_path.iterdir()) == ["build", "src"]  # no build.tmp-…, no build.failed
        session.cancel.clear()
        again = session.rebuild(lambda: ["2017/41.html"], lambda done: None)
        assert again.ok and "html/2017/41.html" in again.changed and session.overlay.paths() == []
        assert "Het begin van het kaartspel" in article_41(tmp_path / "src")
        fresh = tmp_path / "fresh"
        run.build(tmp_path / "src", fresh, {"force": True, "no_pdf": True, "cache_dir": str(tmp_path / "cache")})
        assert differences(tmp_path / "build", fresh) == []
    finally:
        session.close()
