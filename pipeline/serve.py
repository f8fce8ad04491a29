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
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any, BinaryIO

from .core.errors import LawbookError

if TYPE_CHECKING:
    import argparse

    from .core.lang import Profile

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


def escape_log(text: str) -> str:
    return text.translate(LOG_ESCAPES)


# The build's PDFs, beside html/ in the build folder (pdf/), are served at /pdf/<book>.pdf: the site's home page
# links each edition's book as ../pdf/spelregels-2017.pdf, which opens from the files and over HTTP alike. Only
# a book's name in that folder: no folder, no other kind of file, no link out of it.
PDF_PREFIX = "/pdf/"
PDF_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]*\.pdf")


class Handler(http.server.SimpleHTTPRequestHandler):
    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map,
                      ".wasm": "application/wasm", ".js": "text/javascript", ".css": "text/css",
                      ".html": "text/html; charset=utf-8", ".svg": "image/svg+xml",
                      ".webmanifest": "application/manifest+json"}
    error_message_format = ERROR_PAGE
    error_content_type = "text/html; charset=utf-8"
    profile: "Profile"  # the served book's language: set by make_server and make_watch_server
    server: "Server"  # the server that made the handler (make_server)

    def send_error(self, code: int, message: str | None = None, explain: str | None = None) -> None:
        """Errors in the site's words and style (a 404 in Dutch); the log line keeps the English reason.
        Any other status (405, 414, 431, 501 …: answers to clients, not to readers) gets the standard
        library's plain page: ERROR_PAGE has fields only the site's words fill."""
        words = error_words(code, self.profile)
        if words is None:
            self.error_message_format = http.server.BaseHTTPRequestHandler.error_message_format  # (the library's page)
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

    def __getattr__(self, name: str) -> Callable[[], None]:
        """Every method but GET and HEAD (PUT, DELETE, OPTIONS, TRACE, POST, any other name) is answered
        405 with the methods there are: the site is read only."""
        if name.startswith("do_") and name not in ("do_GET", "do_HEAD"):
            return self.method_not_allowed
        raise AttributeError(name)

    def method_not_allowed(self) -> None:
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

    def setup(self) -> None:
        self.timeout = self.server.connection_timeout  # type: ignore[misc]  # read by StreamRequestHandler.setup (typeshed calls it a class variable)
        super().setup()

    def parse_request(self) -> bool:
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

    def log_message(self, format: str, *args: Any) -> None:  # one short line per request on stderr, escaped
        sys.stderr.write(escape_log(format % args) + "\n")

    def send_head(self) -> io.BytesIO | BinaryIO | None:
        path = self.path.split("?", 1)[0].split("#", 1)[0]
        if len(path) > MAX_PATH:
            self.send_error(400, "Path too long", f"A path of the site has at most {MAX_PATH} characters.")
            return None
        try:
            words: list[str] | None = urllib.parse.unquote(path, errors="strict").split("/")
        except UnicodeDecodeError:
            words = None
        if words is None or ".." in words or any(BAD_IN_PATH.search(word) for word in words):
            self.send_error(400, "Bad path", "The path holds characters or segments no page of the site has.")
            return None
        if path.startswith(PDF_PREFIX):
            return self.send_pdf(urllib.parse.unquote(path[len(PDF_PREFIX):]))
        local = self.translate_path(path)
        if not inside(local, self.directory):  # a link out of the site (to /etc, to the sources) is not served
            self.send_error(404, "File not found")
            return None
        if os.path.isdir(local) and not os.path.isfile(os.path.join(local, "index.html")):
            self.send_error(404, "File not found")  # never a directory listing
            return None
        return self.send_file(path, local)

    def send_file(self, path: str, local: str) -> io.BytesIO | BinaryIO | None:
        """The headers of a checked path of the site; returns the open file (the standard library's way)."""
        return super().send_head()

    def send_pdf(self, name: str) -> io.BytesIO | BinaryIO | None:
        """/pdf/<book>.pdf: the book in the build's pdf/ folder (the folder beside the served html/)."""
        folder = os.path.join(os.path.dirname(os.path.abspath(self.directory)), "pdf")
        local = os.path.join(folder, name)
        if not PDF_NAME.fullmatch(name) or not os.path.isfile(local) or not inside(local, folder):
            self.send_error(404, "File not found")
            return None
        try:
            book = open(local, "rb")
        except OSError:
            self.send_error(404, "File not found")
            return None
        self.send_response(200)
        self.send_header("Content-Type", "application/pdf")
        self.send_header("Content-Length", str(os.fstat(book.fileno()).st_size))
        self.end_headers()
        return book

    def list_directory(self, path: str | os.PathLike[str]) -> io.BytesIO | None:  # reached only if a folder lost its index.html meanwhile
        self.send_error(404, "File not found")
        return None


def inside(path: str, folder: str) -> bool:
    """Whether `path`, every symbolic link on the way resolved, is `folder` or in it: a link inside the
    site that points out of it is refused, one to another file of the site is served."""
    root = os.path.realpath(folder)
    return os.path.commonpath([root, os.path.realpath(path)]) == root


class QuietHandler(Handler):
    def log_message(self, format: str, *args: Any) -> None:
        pass


class Server(http.server.ThreadingHTTPServer):
    request_queue_size = LISTEN_BACKLOG
    daemon_threads = True  # Ctrl-C does not wait for open connections
    stopping = False  # set when the server stops: ends the open event streams of watch mode
    server_address: tuple[str, int]  # (host, port): it listens on 127.0.0.1 (make_server)

    def __init__(self, address: tuple[str, int], handler: Callable[..., http.server.BaseHTTPRequestHandler],
                 connection_timeout: float, host_names: Iterable[str] = ()) -> None:
        self.connection_timeout = connection_timeout
        super().__init__(address, handler)
        port = self.server_address[1]
        self.extra_names = tuple(dict.fromkeys(name.lower() for name in host_names))
        names = (*OWN_NAMES, *self.extra_names)
        # What a Host header may say: each name with the port, and without it where the port is HTTP's own.
        self.hosts = frozenset({f"{name}:{port}" for name in names} | (set(names) if port == 80 else set()))
        self.own_address = f"http://127.0.0.1:{port}/"
        self.event_streams = threading.BoundedSemaphore(MAX_EVENT_STREAMS)  # watch mode's open pages

    def handle_error(self, request: Any, client_address: Any) -> None:
        """One line instead of socketserver's traceback (a client that went away, mostly)."""
        error = sys.exc_info()[1]
        sys.stderr.write(escape_log(f"{client_address[0]}: request failed: {type(error).__name__}: {error}") + "\n")


def host_name(text: str) -> str:
    """--host-name: a name the site may be asked for besides 127.0.0.1, localhost and [::1] (a name of this
    machine on the local network, a name in /etc/hosts), without a port; a usage error otherwise."""
    if not HOST_NAME.fullmatch(text):
        import argparse

        raise argparse.ArgumentTypeError(f"{text!r} is not a host name (letters, digits, hyphens and dots, "
                                         "without a port: e.g. --host-name wetboek.local)")
    return text


def make_server(html_dir: str | os.PathLike[str], port: int = 8000, quiet: bool = False, timeout: float = TIMEOUT,
                host_names: Iterable[str] = ()) -> Server:
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
    base = QuietHandler if quiet else Handler
    site = type("SiteHandler", (base,), {"profile": site_profile(html_dir)})  # the site's language, read once
    handler = functools.partial(site, directory=str(html_dir))
    try:
        return Server(("127.0.0.1", port), handler, timeout, host_names)
    except OSError as e:
        raise LawbookError(f"cannot listen on 127.0.0.1:{port}: {e.strerror}",
                           fix="choose another port with --port") from None


def cmd_serve(args: "argparse.Namespace") -> int:
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


def free_port() -> int:
    """A TCP port on 127.0.0.1 that is free right now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port
