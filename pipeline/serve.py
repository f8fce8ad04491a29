"""`lawbook serve`: the HTML edition over HTTP on this machine (search needs a web server).

Reads: BUILD/html/, the files of one build. Writes: nothing but one log line per request on stderr.

Binds 127.0.0.1 only: the site is served to this machine, never to the network. What a client
sends is never trusted:
  - log lines have every control character escaped (\\x1b, never a raw escape sequence), so a
    request cannot write to the terminal;
  - a path that is not a clean UTF-8 path (NUL, other control characters, a broken percent-encoding,
    a ".." segment) or longer than MAX_PATH is answered 400; anything not a file of the site is 404,
    a folder without index.html too (no directory listings);
  - a method other than GET and HEAD is answered 405 (with Allow), a request line over 64 KiB 414 and a
    header past the standard library's limits 431 or 400: every request gets an answer;
  - a request whose Host is not this server's own address (127.0.0.1, localhost or [::1], with the
    port it listens on) or a name given with --host-name is answered 421, one without a Host (or with
    two) 400: a page of another site cannot read this one through a name it points here (DNS
    rebinding);
  - a symbolic link in the site is followed only to a file inside the served folder (else 404);
  - each connection is closed after `timeout` seconds without a request (an idle client holds no
    thread), and up to LISTEN_BACKLOG connections wait to be accepted.
A request that still fails logs one line, never a traceback.
"""
import functools
import html
import io
import json
import http.server
import os
import re
import socket
import sys
import threading
import urllib.parse
from pathlib import Path
from typing import TYPE_CHECKING

from .core.errors import LawbookError

if TYPE_CHECKING:
    from .core.lang import Profile
    from .publish.watch import Overlay, Session, Step

# Longer than any path of the site; a longer one is refused before it reaches the file system.
MAX_PATH = 1024
# Connections waiting to be accepted (the standard library's 5 made clients wait a second or more
# under a burst of requests: a search page loads a dozen files at once).
LISTEN_BACKLOG = 128
# Seconds a connection may stay idle (or a request take to arrive) before it is closed.
TIMEOUT = 10
# Watch mode's event streams open at once, at most (each is a page open in a browser, and holds a
# thread); one more is answered 503.
MAX_EVENT_STREAMS = 64
# The names a request may give as its Host besides those given with --host-name: this machine's own.
OWN_NAMES = ("127.0.0.1", "localhost", "[::1]")
# A name --host-name takes: a DNS name (letters, digits, hyphens, dots) or an IPv4 address; no port.
HOST_NAME = re.compile(r"(?=.{1,253}$)[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*")
# Never in a path of the site: C0 and C1 controls, DEL, and lone surrogates (undecodable bytes).
BAD_IN_PATH = re.compile("[\x00-\x1f\x7f-\x9f\ud800-\udfff]")
# Control characters (C0, DEL, C1) and the backslash written as \xNN and \\ in the log, as in
# Python 3.12's http.server.
LOG_ESCAPES = str.maketrans({**{c: f"\\x{c:02x}" for c in (*range(0x20), *range(0x7f, 0xa0))}, ord("\\"): "\\\\"})
# The error page in the site's language and style: the site is served from /, so its links start there.
ERROR_PAGE = """<!DOCTYPE html>
<html lang="%(lang)s"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>%(message)s · %(title)s</title><link rel="stylesheet" href="/lawbook.css"></head>
<body><header class="site"><a class="site-title" href="/index.html">%(title)s</a></header>
<main id="inhoud"><h1>%(message)s</h1><p>%(explain)s</p>
<ul><li><a href="/index.html">%(editions)s</a></li><li><a href="/%(search_page)s">%(search)s</a></li></ul></main></body></html>
"""
# What a reader is told, per status; every other status keeps the standard library's words.
ERRORS = {
    400: ("Bad address", "This address holds characters or parts that no page of the laws has."),
    404: ("Page not found", "This address is not a page of the laws. Perhaps it was mistyped, or the article is "
                            "not in this edition."),
}


def site_profile(html_dir: Path) -> "Profile":
    """The language profile of the site in `html_dir`: the one its build's corpus.json (beside html/) records."""
    from .core import lang

    try:
        language = json.loads((html_dir.parent / "corpus.json").read_text(encoding="utf-8")).get("language")
    except (OSError, ValueError, AttributeError):
        language = None
    if not isinstance(language, str) or language not in lang.codes():
        # No build beside the site records a language (a site copied on its own, or one built before the
        # corpus recorded it): no book is known whose words the error page could take, and the site's pages
        # are in the default language unless a manifest said otherwise, so the default's words are right.
        language = lang.DEFAULT
    return lang.profile(language)


def error_words(code: int, profile: "Profile") -> dict[str, str] | None:
    """The page's words for an error `code` in the site's language (`profile`), or None."""
    from .outputs.text import file_names

    if code not in ERRORS:
        return None
    message, explain = ERRORS[code]
    return {"message": profile.word(message), "explain": profile.word(explain), "lang": profile.code,
            "title": profile.word("Laws of Duplicate Bridge"), "editions": profile.word("The editions"),
            "search": profile.word("Search the laws"), "search_page": file_names(profile).search}


def escape_log(text):
    return text.translate(LOG_ESCAPES)


class _Handler(http.server.SimpleHTTPRequestHandler):
    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map,
                      ".wasm": "application/wasm", ".js": "text/javascript", ".css": "text/css",
                      ".html": "text/html; charset=utf-8", ".svg": "image/svg+xml",
                      ".webmanifest": "application/manifest+json"}
    error_message_format = ERROR_PAGE
    error_content_type = "text/html; charset=utf-8"
    profile: "Profile"  # the served book's language: set by make_server and make_watch_server

    def send_error(self, code, message=None, explain=None):
        """Errors in the site's words and style (a 404 in Dutch); the log line keeps the English reason.
        Any other status (405, 414, 431, 501 …: answers to clients, not to readers) gets the standard
        library's plain page: ERROR_PAGE has fields only the site's words fill."""
        words = error_words(code, self.profile)
        if words is None:
            self.error_message_format = http.server.DEFAULT_ERROR_MESSAGE
            return super().send_error(code, message, explain)
        self.log_error("code %d, message %s", code, message or "")
        self.close_connection = True
        self.send_response(code, message)  # the status line keeps the standard reason, for tools
        body = (ERROR_PAGE % {k: html.escape(v) for k, v in words.items()}).encode("utf-8")
        self.send_header("Content-Type", self.error_content_type)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Connection", "close")
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def __getattr__(self, name):
        """Every method but GET and HEAD (PUT, DELETE, OPTIONS, TRACE, POST, any other name) is answered
        405 with the methods there are: the site is read only."""
        if name.startswith("do_") and name not in ("do_GET", "do_HEAD"):
            return self.method_not_allowed
        raise AttributeError(name)

    def method_not_allowed(self):
        self.log_error("code 405, method %s not allowed", self.command)
        self.close_connection = True
        body = b"405 Method Not Allowed: this site answers GET and HEAD only\n"
        self.send_response(405)
        self.send_header("Allow", "GET, HEAD")
        self.send_header("Content-Type", "text/plain; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Connection", "close")
        self.end_headers()
        self.wfile.write(body)

    def setup(self):
        self.timeout = self.server.connection_timeout  # read by StreamRequestHandler.setup
        super().setup()

    def parse_request(self):
        """The standard library's parsing, then the Host: this server's own address or a name given with
        --host-name, with the port it listens on (421 otherwise; 400 without one, or with two)."""
        if not super().parse_request():
            return False
        hosts = self.headers.get_all("Host") or []
        if len(hosts) != 1:
            self.send_error(400, "No Host header" if not hosts else "More than one Host header",
                            "A request names the server it is for in one Host header.")
            return False
        if hosts[0].strip().lower() not in self.server.hosts:
            self.send_error(421, "Misdirected Request",
                            f"This server answers only requests for {self.server.own_address}"
                            + (f" (or {', '.join(self.server.extra_names)})" if self.server.extra_names else "")
                            + "; serve the site under another name with lawbook serve --host-name NAME.")
            return False
        return True

    def log_message(self, format, *args):  # one short line per request on stderr, escaped
        sys.stderr.write(escape_log(format % args) + "\n")

    def send_head(self):
        path = self.path.split("?", 1)[0].split("#", 1)[0]
        if len(path) > MAX_PATH:
            self.send_error(400, "Path too long", f"A path of the site has at most {MAX_PATH} characters.")
            return None
        try:
            words = urllib.parse.unquote(path, errors="strict").split("/")
        except UnicodeDecodeError:
            words = None
        if words is None or ".." in words or any(BAD_IN_PATH.search(word) for word in words):
            self.send_error(400, "Bad path", "The path holds characters or segments no page of the site has.")
            return None
        local = self.translate_path(path)
        if not inside(local, self.directory):  # a link out of the site (to /etc, to the sources) is not served
            self.send_error(404, "File not found")
            return None
        if os.path.isdir(local) and not os.path.isfile(os.path.join(local, "index.html")):
            self.send_error(404, "File not found")  # never a directory listing
            return None
        return self.send_file(path, local)

    def send_file(self, path, local):
        """The headers of a checked path of the site; returns the open file (the standard library's way)."""
        return super().send_head()

    def list_directory(self, path):  # reached only if a folder lost its index.html meanwhile
        self.send_error(404, "File not found")
        return None


def inside(path: str, folder: str) -> bool:
    """Whether `path`, every symbolic link on the way resolved, is `folder` or in it: a link inside the
    site that points out of it is refused, one to another file of the site is served."""
    root = os.path.realpath(folder)
    return os.path.commonpath([root, os.path.realpath(path)]) == root


class _QuietHandler(_Handler):
    def log_message(self, format, *args):
        pass


class _Server(http.server.ThreadingHTTPServer):
    request_queue_size = LISTEN_BACKLOG
    daemon_threads = True  # Ctrl-C does not wait for open connections
    stopping = False  # set when the server stops: ends the open event streams of watch mode

    def __init__(self, address, handler, connection_timeout, host_names=()):
        self.connection_timeout = connection_timeout
        super().__init__(address, handler)
        port = self.server_address[1]
        self.extra_names = tuple(dict.fromkeys(name.lower() for name in host_names))
        names = (*OWN_NAMES, *self.extra_names)
        # What a Host header may say: each name with the port, and without it where the port is HTTP's own.
        self.hosts = frozenset({f"{name}:{port}" for name in names} | (set(names) if port == 80 else set()))
        self.own_address = f"http://127.0.0.1:{port}/"
        self.event_streams = threading.BoundedSemaphore(MAX_EVENT_STREAMS)  # watch mode's open pages

    def handle_error(self, request, client_address):
        """One line instead of socketserver's traceback (a client that went away, mostly)."""
        error = sys.exc_info()[1]
        sys.stderr.write(escape_log(f"{client_address[0]}: request failed: {type(error).__name__}: {error}") + "\n")


def host_name(text):
    """--host-name: a name the site may be asked for besides 127.0.0.1, localhost and [::1] (a name of this
    machine on the local network, a name in /etc/hosts), without a port; a usage error otherwise."""
    if not HOST_NAME.fullmatch(text):
        import argparse

        raise argparse.ArgumentTypeError(f"{text!r} is not a host name (letters, digits, hyphens and dots, "
                                         "without a port: e.g. --host-name wetboek.local)")
    return text


def make_server(html_dir, port=8000, quiet=False, timeout=TIMEOUT, host_names=()):
    """An HTTP server for `html_dir` on 127.0.0.1:`port` (0 picks a free port); the caller runs and closes it.
    `timeout`: seconds an idle connection is kept open. `quiet`: no line per request. `host_names`: names a
    request's Host may give besides this machine's own address (--host-name)."""
    html_dir = Path(html_dir)
    if not (html_dir / "index.html").exists():
        build = html_dir.parent
        what = ("no such folder: no site was built here" if not html_dir.is_dir() else
                "this folder holds no site: it has no index.html")
        raise LawbookError(what, file=str(html_dir),
                           fix=f"build the site first (lawbook build --out {build}, or make build), or give --out "
                               f"the folder a build wrote")
    base = _QuietHandler if quiet else _Handler
    site = type("SiteHandler", (base,), {"profile": site_profile(html_dir)})  # the site's language, read once
    handler = functools.partial(site, directory=str(html_dir))
    try:
        return _Server(("127.0.0.1", port), handler, timeout, host_names)
    except OSError as e:
        raise LawbookError(f"cannot listen on 127.0.0.1:{port}: {e.strerror}",
                           fix="choose another port with --port") from None


def cmd_serve(args):
    server = make_server(Path(args.out) / "html", args.port, host_names=args.host_name or ())
    host, port = server.server_address[:2]
    print(f"serving {args.out}/html on http://{host}:{port}/ (Ctrl-C stops)", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
    return 0


def free_port():
    """A TCP port on 127.0.0.1 that is free right now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


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
  // The panel's lines come written (serve.panel_lines): [{text, lang, kind}], the first its heading.
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
# While watching, the build's PDFs are served at /pdf/<book>.pdf (the overlay's newer book first). The site
# built for publishing does not link them (the link would point outside html/), so neither does this.
PDF_PREFIX = "/pdf/"
PDF_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]*\.pdf")
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
        self.view: dict = {"ok": True, "generation": 0, "changed": [], "error": None}
        self.overlay = overlay  # the rebuild under way's pages and PDFs (publish/watch.py), served first
        self.open: collections.Counter[str] = collections.Counter()  # page (below html/) -> event streams open on it

    def publish(self, view: dict) -> None:
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

    def wait(self, seen: int, timeout: float) -> tuple[int, dict]:
        """The state once its version passed `seen`, or as it is after `timeout` seconds."""
        with self.changed:
            self.changed.wait_for(lambda: self.version != seen, timeout)
            return self.version, self.view


class _WatchHandler(_Handler):
    live: LiveState = None  # set by make_watch_server

    def end_headers(self):
        self.send_header("Cache-Control", "no-store")  # every look after an edit asks the server again
        super().end_headers()

    def send_head(self):
        path = self.path.split("?", 1)[0]
        if path.startswith(LIVE_PREFIX):
            return self.send_live(path[len(LIVE_PREFIX):])
        if path == "/sw.js":
            return self.send_bytes(QUIET_WORKER.encode("utf-8"), "text/javascript")
        if path.startswith(PDF_PREFIX):
            return self.send_pdf(path[len(PDF_PREFIX):])
        return super().send_head()

    def send_pdf(self, name: str):
        """/pdf/<book>.pdf while watching: the build's pdf/ folder, or the overlay's newer book (a name of
        that folder only: no folder, no other kind of file)."""
        name = urllib.parse.unquote(name, errors="replace")
        if not PDF_NAME.fullmatch(name):
            self.send_error(404, "File not found")
            return None
        held = self.live.overlay.get(f"pdf/{name}") if self.live.overlay is not None else None
        if held is not None:
            return self.send_bytes(held[0], "application/pdf")
        local = os.path.join(os.path.dirname(os.path.abspath(self.directory)), "pdf", name)
        try:
            with open(local, "rb") as f:
                data = f.read()
        except OSError:
            self.send_error(404, "File not found")
            return None
        return self.send_bytes(data, "application/pdf")

    def send_file(self, path, local):
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

    def send_bytes(self, body: bytes, content_type: str):
        self.send_response(200)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        return io.BytesIO(body)

    def send_live(self, name: str):
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

    def stream_events(self):
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


def panel_lines(error: dict, profile: "Profile") -> list[dict]:
    """The panel's lines over a page when a rebuild failed, in the book's language (`profile`): the last good
    build is still served; where (the source by its origin, its file name beside it, and the line); what
    failed (the report's message, in the book's language where its words know it, else as the report
    writes it, marked English); what to do; how many more errors the report holds; and that the page reloads
    when the source builds. Each {"text", "lang" (None: the page's), "kind"}."""
    from .core.report import shown_name
    from .outputs.site.editor import say_message

    def line(kind: str, english: str, lang: str | None = None, **values) -> dict:
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
    elif error.get("fix"):
        fix, language = say_message(error["fix"], profile)
        lines.append(line("fix", "What to do: %(fix)s", None if language == profile.code else language, fix=fix))
    if error.get("count", 1) > 1:
        lines.append(line("more", "The report holds %(count)s more errors.", count=error["count"] - 1))
    lines.append(line("reload", "Once the source builds, this page reloads with the new build by itself."))
    return lines


def say(profile: "Profile", english: str, **values) -> str:
    """The profile's words for `english` with `values` put in (outputs/text.py's say)."""
    return profile.word(english) % values


def make_watch_server(html_dir, live: LiveState, profile: "Profile", port=8000, quiet=False, timeout=TIMEOUT,
                      host_names=()):
    """make_server's server with the watch mode's handler: the pages get the live script, /__lawbook/
    the event stream."""
    server = make_server(html_dir, port, quiet, timeout, host_names)
    base = _QuietHandler if quiet else _Handler
    handler = type("WatchHandler", (_WatchHandler, base), {"live": live, "profile": profile})
    server.RequestHandlerClass = functools.partial(handler, directory=str(html_dir))
    return server


def _print_outcome(outcome, out: str | os.PathLike[str] = "build") -> None:
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


def step_view(live: LiveState, step: "Step") -> dict:
    """What the open pages are told of a step: "page", with the pages now served from the overlay and the
    generation they carry (`next`; every other page keeps the build's); "pdf", with the books."""
    view = dict(live.view)
    if step.kind == "page":
        view.update(ok=True, error=None, pages=list(step.paths), next=step.generation)
    else:
        view["pdf"] = list(step.paths)
    view["step"] = step.kind
    return view


def watch_sources(session: "Session", live: LiveState, stop, on_outcome=None, on_step=None) -> None:
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


def _changes(session, stop):
    """Each burst of changes that may change the book (publish/watch.py, source_changes): the sources
    folder followed by its path, a deleted folder watched for again, every listed source whatever its name."""
    from .publish import watch

    return watch.source_changes(session.sources_dir, stop, session.missed)


def _next_outcome(session, stop):
    """The outcome of the rebuild after the next change in the sources folder; None when interrupted."""
    for _ in _changes(session, stop):
        return session.rebuild()
    return None


def cmd_watch(args) -> int:
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
            first = _next_outcome(session, stop)
            if first is None:
                return 1
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
