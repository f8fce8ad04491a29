"""`lawbook serve --watch`: the site served while the sources are edited (docs/watch.md).

The server of serve.py, with what watch mode adds: the script that reloads an open page, the events that
say what is ready (page, pdf, all), the pages rendered first and kept in memory (the watcher's overlay),
the PDFs, the failure panel in the book's language, and the terminal's lines.
"""
import functools
import html
import io
import json
import os
import sys
import threading
import urllib.parse
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any, BinaryIO

from .serve import (BAD_IN_PATH, MAX_EVENT_STREAMS, MAX_PATH, PDF_NAME, TIMEOUT, Handler, QuietHandler, Server, escape_log,
                    host_name, make_server)

if TYPE_CHECKING:
    import argparse

    from .core.lang import Profile
    from .publish.watch import ErrorView, Outcome, Overlay, Session, Step


# -- watch mode (`lawbook serve --watch`, docs/watch.md) ----------------------------------------------
# The pages are served as the build wrote them, with one script added before </body> on the way out
# (the files on disk stay the build's own): it listens to /__lawbook/events (server-sent events) and
# reloads the page when a rebuild changed the site, or shows the panel that says what stopped a rebuild
# over the previous page, in the book's language (panel_lines: the server writes its lines, the script
# only shows them). The site's service worker is replaced on the way out by one that removes itself: an
# open event stream must not pass through a cache.
LIVE_PREFIX = "/__lawbook/"
KEEPALIVE = 5.0  # seconds between the comments that keep an idle event stream open
LIVE_SCRIPT = """"use strict";
(function () {
  var script = document.currentScript, shown = Number(script.dataset.generation), here = script.dataset.page || "",
      box = null, KEPT = "lawbook-watch-scroll";
  // A reload keeps the reader's place: the scroll position is kept in sessionStorage for this page and put
  // back once it is loaded again (the anchor stays in the address).
  try {
    var kept = JSON.parse(sessionStorage.getItem(KEPT) || "null");
    if (kept && kept.page === here) {
      sessionStorage.removeItem(KEPT);
      window.scrollTo(0, kept.y);
      window.addEventListener("load", function () { window.scrollTo(0, kept.y); });
    }
  } catch (e) { /* no storage: the page opens at its top or anchor */ }
  function reload() {
    try { sessionStorage.setItem(KEPT, JSON.stringify({page: here, y: window.scrollY})); } catch (e) { /* none */ }
    events.close();
    location.reload();
  }
  function hide() { if (box) { box.remove(); box = null; } }
  // The panel's lines come written (watch_server.panel_lines): [{text, lang, kind}], the first its heading.
  function show(lines) {
    hide();
    box = document.createElement("aside");
    box.id = "lawbook-watch-error";
    box.setAttribute("role", "alert");
    box.style.cssText = "position:fixed;left:0;right:0;bottom:0;max-height:40vh;overflow:auto;z-index:2147483647;" +
      "background:#fff4f2;color:#5c0a00;border-top:3px solid #b3261e;padding:.6em 1em;font:14px/1.4 sans-serif";
    lines.forEach(function (line) {
      var el = document.createElement(line.kind === "heading" ? "strong" : "span");
      el.className = "lawbook-watch-" + line.kind;
      el.textContent = line.text;  // text, never markup: a message quotes the sources
      if (line.lang) { el.lang = line.lang; }
      el.style.display = "block";
      box.appendChild(el);
    });
    document.body.appendChild(box);
  }
  // Each event says what is ready: "page" (the pages served before the build is in place, with the
  // generation they carry), "pdf", "all" (the build in place); "state" is the state when the stream opens.
  // A page listed reloads when its new version is there, every other page once the whole build is.
  var events = new EventSource("/__lawbook/events?page=" + encodeURIComponent(here));
  function seen(event) {
    var state = JSON.parse(event.data);
    var wanted = (state.pages || []).indexOf(here) >= 0 ? state.next : state.generation;
    if (wanted !== shown) { reload(); return; }
    if (state.error) { show(state.panel || []); } else { hide(); }
  }
  ["state", "page", "pdf", "all"].forEach(function (name) { events.addEventListener(name, seen); });
})();
"""
# While watching, the build's PDFs are served at /pdf/<book>.pdf as `serve` serves them (the home page links
# them), the overlay's newer book first.
QUIET_WORKER = ('"use strict";\n// lawbook serve --watch: no offline cache while editing; the site\'s own worker is in the build.\n'
                'self.addEventListener("install", () => self.skipWaiting());\n'
                'self.addEventListener("activate", (event) => event.waitUntil(self.registration.unregister()));\n')


class LiveState:
    """What the open pages are told: the watch session's last outcome (publish/watch.py Outcome.view),
    with a counter each client waits on."""

    def __init__(self, overlay: "Overlay | None" = None) -> None:
        import collections
        import threading

        self.changed = threading.Condition()
        self.version = 0
        self.view: dict[str, Any] = {"ok": True, "generation": 0, "changed": [], "error": None}
        self.overlay = overlay  # the rebuild under way's pages and PDFs (publish/watch.py), served first
        self.open: collections.Counter[str] = collections.Counter()  # page (below html/) -> event streams open on it

    def publish(self, view: dict[str, Any]) -> None:
        with self.changed:
            self.view = view
            self.version += 1
            self.changed.notify_all()

    def opened(self, page: str, by: int) -> None:
        """An event stream of a page opened (`by` 1) or closed (-1): the pages browsers show now."""
        with self.changed:
            self.open[page] += by
            if self.open[page] <= 0:
                del self.open[page]

    def open_pages(self) -> list[str]:
        """The pages (paths below html/) an open browser shows now, as their event streams said."""
        with self.changed:
            return sorted(self.open)

    def wait(self, seen: int, timeout: float) -> tuple[int, dict[str, Any]]:
        """The state once its version passed `seen`, or as it is after `timeout` seconds."""
        with self.changed:
            self.changed.wait_for(lambda: self.version != seen, timeout)
            return self.version, self.view


class _WatchHandler(Handler):
    live: LiveState  # set by make_watch_server

    def end_headers(self) -> None:
        self.send_header("Cache-Control", "no-store")  # every look after an edit asks the server again
        super().end_headers()

    def send_head(self) -> io.BytesIO | BinaryIO | None:
        path = self.path.split("?", 1)[0]
        if path.startswith(LIVE_PREFIX):
            return self.send_live(path[len(LIVE_PREFIX):])
        if path == "/sw.js":
            return self.send_bytes(QUIET_WORKER.encode("utf-8"), "text/javascript")
        return super().send_head()

    def send_pdf(self, name: str) -> io.BytesIO | BinaryIO | None:
        """/pdf/<book>.pdf while watching: the overlay's newer book (compiled before the build is in place),
        else the build's, as `serve` gives it."""
        held = self.live.overlay.get(f"pdf/{name}") if self.live.overlay is not None and PDF_NAME.fullmatch(name) \
            else None
        if held is not None:
            return self.send_bytes(held[0], "application/pdf")
        return super().send_pdf(name)

    def send_file(self, path: str, local: str) -> io.BytesIO | BinaryIO | None:
        if os.path.isdir(local):
            if not path.endswith("/"):  # the standard library's redirect to "folder/": relative links work
                return super().send_file(path, local)
            local = os.path.join(local, "index.html")
        page_path = os.path.relpath(local, self.directory).replace(os.sep, "/")
        held = self.live.overlay.get("html/" + page_path) if self.live.overlay is not None else None
        if held is not None:  # the rebuild under way's page, before its build is in place
            page, generation = held
        elif not local.endswith(".html") or not os.path.isfile(local):
            return super().send_file(path, local)
        else:
            with open(local, "rb") as f:
                page = f.read()
            generation = self.live.view["generation"]
        tag = '<script src="/__lawbook/live.js" data-generation="%d" data-page="%s"></script>' % (
            generation, html.escape(page_path))
        at = page.rfind(b"</body>")
        at = len(page) if at < 0 else at
        return self.send_bytes(page[:at] + tag.encode("utf-8") + page[at:], "text/html; charset=utf-8")

    def send_bytes(self, body: bytes, content_type: str) -> io.BytesIO:
        self.send_response(200)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        return io.BytesIO(body)

    def send_live(self, name: str) -> io.BytesIO | None:
        if name == "live.js":
            return self.send_bytes(LIVE_SCRIPT.encode("utf-8"), "text/javascript")
        if name != "events":
            self.send_error(404, "File not found")
            return None
        if self.command == "HEAD":
            return self.send_bytes(b"", "text/event-stream")
        if not self.server.event_streams.acquire(blocking=False):
            self.send_error(503, "Too many open pages",
                            f"This server keeps at most {MAX_EVENT_STREAMS} pages up to date at once; close some "
                            "tabs of the site and reload this one.")
            return None
        query = urllib.parse.parse_qs(self.path.split("?", 1)[1] if "?" in self.path else "")
        page = (query.get("page") or [""])[0][:MAX_PATH]
        page = page if page and not BAD_IN_PATH.search(page) else ""
        if page:
            self.live.opened(page, 1)
        try:
            return self.stream_events()
        finally:
            if page:
                self.live.opened(page, -1)
            self.server.event_streams.release()

    def stream_events(self) -> io.BytesIO | None:  # (nothing for the caller to copy: the events are written here)
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Connection", "close")
        self.end_headers()
        self.close_connection = True
        seen = -1
        try:  # one event with the state now ("state"), then one per step, a comment between while idle
            while not self.server.stopping:
                version, view = self.live.wait(seen, KEEPALIVE)
                if version == seen:
                    self.wfile.write(b": idle\n\n")
                else:
                    said = dict(view, panel=panel_lines(view["error"], self.profile) if view.get("error") else None)
                    name = view.get("step", "state") if seen != -1 else "state"
                    self.wfile.write(f"event: {name}\ndata: ".encode("ascii") + json.dumps(said).encode("utf-8")
                                     + b"\n\n")
                    seen = version
                self.wfile.flush()
        except OSError:  # the page went away
            pass
        return None


# Clauses of a report message the panel leaves out: what the corpus's reading does with a conflict (keep
# the first reading), which a failed build does not publish; the panel says what is served instead.
PANEL_LEAVES_OUT = ("the first reading is kept until a source is corrected",)


def panel_lines(error: "ErrorView", profile: "Profile") -> list[dict[str, str | None]]:
    """The panel's lines over a page when a rebuild failed, in the book's language (`profile`): the last good
    build is still served; where (the source by its origin, its file name beside it, and the line); what
    failed (the report's message, in the book's language where its words know it, else as the report
    writes it, marked English); what to do; how many more errors the report holds; and that the page reloads
    when the source builds. Each {"text", "lang" (None: the page's), "kind"}."""
    from .core.report import shown_name
    from .outputs.site.editor import say_message

    def line(kind: str, english: str, lang: str | None = None, **values: object) -> dict[str, str | None]:
        return {"kind": kind, "text": profile.word(english) % values, "lang": lang}

    lines = [line("heading", "This change did not build: the site still shows the last build that did.")]
    if error.get("file"):
        file = shown_name(str(error["file"]))
        source = say(profile, "%(origin)s (%(file)s)", origin=error["origin"], file=file) if error.get("origin") \
            else file
        place = say(profile, "%(source)s, line %(line)s", source=source, line=error["line"]) if error.get("line") \
            else source
        lines.append(line("where", "Where: %(place)s", place=place))
    message, language = say_message(error.get("message") or "", profile, leave_out=PANEL_LEAVES_OUT)
    lines.append(line("what", "What failed: %(message)s", None if language == profile.code else language,
                      message=message))
    if error.get("report"):
        lines.append(line("fix", "What to do: correct the source at this line and save it; the whole report of "
                                 "the failed build is %(report)s.", report=error["report"]))
    elif said := error.get("fix"):
        fix, language = say_message(said, profile)
        lines.append(line("fix", "What to do: %(fix)s", None if language == profile.code else language, fix=fix))
    if error.get("count", 1) > 1:
        lines.append(line("more", "The report holds %(count)s more errors.", count=error["count"] - 1))
    lines.append(line("reload", "Once the source builds, this page reloads with the new build by itself."))
    return lines


def say(profile: "Profile", english: str, **values: object) -> str:
    """The profile's words for `english` with `values` put in (outputs/text.py's say)."""
    return profile.word(english) % values


def make_watch_server(html_dir: str | os.PathLike[str], live: LiveState, profile: "Profile", port: int = 8000,
                      quiet: bool = False, timeout: float = TIMEOUT, host_names: Iterable[str] = ()) -> Server:
    """make_server's server with the watch mode's handler: the pages get the live script, /__lawbook/
    the event stream."""
    server = make_server(html_dir, port, quiet, timeout, host_names)
    base = QuietHandler if quiet else Handler
    handler = type("WatchHandler", (_WatchHandler, base), {"live": live, "profile": profile})
    server.RequestHandlerClass = functools.partial(handler, directory=str(html_dir))
    return server


def _print_outcome(outcome: "Outcome", out: str | os.PathLike[str] = "build") -> None:
    """One line per rebuild in the terminal (English, the command line's language), its last step ("all
    build/ up to date 2.10 s: 12 files changed, 3 pages"); a failed one with its file, line and fix; the
    first good one after a failure says that the build recovered, in place of the line it would print, with
    the time of that rebuild ("recovered: build/ is up to date again (1.20 s)")."""
    if outcome.recovered:
        print(f"recovered: {escape_log(str(out))}/ is up to date again ({outcome.seconds:.2f} s)", flush=True)
        return
    if outcome.skipped or outcome.cancelled:
        return
    if outcome.ok:
        pages = sum(1 for path in outcome.changed if path.startswith("html/") and path.endswith(".html"))
        print(f"all {escape_log(str(out))}/ up to date {outcome.seconds:.2f} s: {len(outcome.changed)} files "
              f"changed, {pages} pages", flush=True)
        return
    error = outcome.error
    assert error is not None  # (a rebuild that failed, and was not cancelled, says what stopped it)
    where = f"{error['file']}:{error['line']}: " if error.get("line") else (f"{error['file']}: " if error.get("file") else "")
    more = f" (and {error['count'] - 1} more)" if error.get("count", 1) > 1 else ""
    print(f"lawbook: error: {escape_log(where + error['message'])}{more}\n  fix: {escape_log(error.get('fix') or '')}\n"
          "  the last good build is still served; the pages reload once the sources build", file=sys.stderr, flush=True)


def _print_step(step: "Step") -> None:
    """One line per step a rebuild has ready before its build is in place: "page 2017/41.html 0.31 s",
    "pdf spelregels-2017.pdf 1.20 s" (a page step that found no page changed prints nothing)."""
    if step.paths:
        names = ", ".join(path.removeprefix("pdf/") for path in step.paths)
        print(f"{step.kind} {escape_log(names)} {step.seconds:.2f} s", flush=True)


def step_view(live: LiveState, step: "Step") -> dict[str, Any]:
    """What the open pages are told of a step: "page", with the pages now served from the overlay and the
    generation they carry (`next`; every other page keeps the build's); "pdf", with the books."""
    view = dict(live.view)
    if step.kind == "page":
        view.update(ok=True, error=None, pages=list(step.paths), next=step.generation)
    else:
        view["pdf"] = list(step.paths)
    view["step"] = step.kind
    return view


def watch_sources(session: "Session", live: LiveState, stop: threading.Event,
                  on_outcome: "Callable[[Outcome], None] | None" = None,
                  on_step: "Callable[[Step], None] | None" = None) -> None:
    """Rebuild each time something in the sources folder changes (its files, the manifest,
    corrections.toml), until `stop` (a threading.Event) is set; publish each step to the pages ("page":
    the pages open in a browser, served from the session's overlay; "pdf"; "all", the outcome) and give
    the outcome to `on_outcome` and each step before it to `on_step` (by default, when `on_outcome` is not
    given either, their lines in the terminal: _print_outcome, _print_step).
    The changes come from watchfiles (the system's file events, inotify on Linux) in a thread of their own;
    a burst of saves is one rebuild, and a change during a rebuild stops it (session.cancel, between its
    stages) and starts the next at once."""
    import queue
    import threading

    if on_outcome is None:
        on_outcome = functools.partial(_print_outcome, out=session.out_dir)
        on_step = on_step or _print_step
    live.overlay = session.overlay
    bursts: "queue.Queue[list[str] | None]" = queue.Queue()

    def listen() -> None:
        try:
            for burst in _changes(session, stop):
                session.cancel.set()
                bursts.put(burst)
        finally:
            bursts.put(None)

    def step(done: "Step") -> None:
        live.publish(step_view(live, done))
        if on_step is not None:
            on_step(done)

    listener = threading.Thread(target=listen, daemon=True)
    listener.start()
    while True:
        try:
            burst = bursts.get(timeout=0.5)
        except queue.Empty:
            if stop.is_set() and not listener.is_alive():
                return
            continue
        if burst is None:
            return
        while not bursts.empty():  # every burst that came meanwhile: one rebuild of the sources as they are
            if bursts.get() is None:
                return
        session.cancel.clear()
        outcome = session.rebuild(live.open_pages, step)
        if outcome.cancelled:
            continue  # the sources changed again: the next burst is waiting
        on_outcome(outcome)
        if not outcome.skipped or live.view.get("error") or outcome.generation != live.view.get("generation"):
            live.publish(outcome.view())


def _changes(session: "Session", stop: threading.Event) -> Iterator[list[str]]:
    """Each burst of changes that may change the book (publish/watch.py, source_changes): the sources
    folder followed by its path, a deleted folder watched for again, every listed source whatever its name."""
    from .publish import watch

    return watch.source_changes(session.sources_dir, stop, session.missed)


def _next_outcome(session: "Session", stop: threading.Event) -> "Outcome | None":
    """The outcome of the rebuild after the next change in the sources folder; None when interrupted."""
    for _ in _changes(session, stop):
        return session.rebuild()
    return None


def cmd_watch(args: "argparse.Namespace") -> int:
    """`lawbook serve --watch`: build when needed, serve, rebuild on every change (docs/watch.md)."""
    import logging
    import threading

    from .core import lang
    from .publish import watch
    from .reading import manifest

    logging.getLogger("watchfiles").setLevel(logging.ERROR)  # its own line on Ctrl-C says what the user did
    session = watch.Session(args.sources, args.out, {"no_pdf": getattr(args, "no_pdf", False),
                                                     "cache_dir": getattr(args, "cache_dir", None)})
    live = LiveState(session.overlay)
    stop = threading.Event()
    try:
        first = session.rebuild()
        _print_outcome(first, args.out)
        while not (Path(args.out) / "html" / "index.html").exists():  # no site yet: serve once one builds
            print("lawbook: waiting for a change to the sources that builds", file=sys.stderr, flush=True)
            upcoming = _next_outcome(session, stop)
            if upcoming is None:
                return 1
            first = upcoming
            _print_outcome(first, args.out)
        live.publish(first.view())
        profile = lang.profile(manifest.load_manifest(args.sources).language)
        server = make_watch_server(Path(args.out) / "html", live, profile, args.port,
                                   host_names=getattr(args, "host_name", None) or ())
        host, port = server.server_address[:2]
        thread = threading.Thread(target=server.serve_forever, daemon=True)
        try:  # from here on Ctrl-C is how the editor stops serving: status 0, as `serve` gives
            thread.start()
            print(f"serving {args.out}/html on http://{host}:{port}/ and rebuilding on every change in "
                  f"{args.sources}/ (Ctrl-C stops)", flush=True)
            watch_sources(session, live, stop)
        except KeyboardInterrupt:
            pass
        finally:
            server.stopping = True
            server.shutdown()
            server.server_close()
    finally:
        stop.set()
        session.close()
    return 0
