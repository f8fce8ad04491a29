"""`serve`: a real server on 127.0.0.1 and a port the system picks, requests with timeouts, stopped by the
test. Control characters never reach the log raw, bad paths are 400, folders 404 (no listing), a burst of
clients is answered, an idle connection is closed, --port is checked by the command line."""
import os
import socket
import subprocess
import sys
import threading
import urllib.error
import urllib.request

import pytest

from pipeline import serve

from conftest import ROOT, run_lawbook


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """A small site: the editions page, a folder with its index, a folder without one (as pagefind/)."""
    html = tmp_path_factory.mktemp("build") / "html"
    (html / "2017").mkdir(parents=True)
    (html / "pagefind").mkdir()
    (html / "index.html").write_text("<p>De edities</p>", encoding="utf-8")
    (html / "2017" / "index.html").write_text("<p>Inhoud 2017</p>", encoding="utf-8")
    (html / "2017" / "53.html").write_text("<p>Artikel 53</p>", encoding="utf-8")
    (html / "pagefind" / "pagefind.js").write_text("// index", encoding="utf-8")
    return html


def serving(folder, host_names=()):
    """A server of `folder` in this process, connections closed after 0.5 s idle; yields its port."""
    srv = serve.make_server(folder, 0, quiet=True, timeout=0.5, host_names=host_names)
    thread = threading.Thread(target=srv.serve_forever, daemon=True)
    thread.start()
    try:
        yield srv.server_address[1]
    finally:
        srv.shutdown()
        srv.server_close()
        thread.join(timeout=5)


@pytest.fixture(scope="module")
def server(site):
    yield from serving(site)


def raw_request(port, data):
    """Send `data` as it is; returns (status line, body) of the answer, read until the server closes."""
    with socket.create_connection(("127.0.0.1", port), timeout=5) as s:
        s.sendall(data)
        answer = b""
        while chunk := s.recv(65536):
            answer += chunk
    head, _, body = answer.partition(b"\r\n\r\n")
    return head.split(b"\r\n")[0].decode("latin-1"), body


def http10(port, target, method=b"GET"):
    """An HTTP/1.0 request for `target` (bytes, as sent) with the Host a browser on this machine sends."""
    return method + b" " + target + b" HTTP/1.0\r\nHost: 127.0.0.1:" + str(port).encode() + b"\r\n\r\n"


def get(port, path):
    """(status, content type, body) of GET `path`."""
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=5) as response:
            return response.status, response.headers["Content-Type"], response.read()
    except urllib.error.HTTPError as e:
        return e.code, e.headers["Content-Type"], e.read()


def test_the_log_holds_no_raw_control_characters_and_no_traceback(site):
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    proc = subprocess.Popen([sys.executable, "-m", "pipeline", "serve", "--out", str(site.parent), "--port", "0"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, cwd=ROOT)
    try:
        line = proc.stdout.readline().decode()
        assert line.startswith(f"serving {site.parent}/html on http://127.0.0.1:")
        port = int(line.rsplit(":", 1)[1].split("/")[0])
        # An escape sequence that would turn the terminal red, and a C1 CSI that would clear it.
        assert raw_request(port, http10(port, b"/\x1b[31mrood\x9b2J"))[0] == "HTTP/1.0 400 Bad path"
        assert raw_request(port, http10(port, b"/%00"))[0] == "HTTP/1.0 400 Bad path"
        assert raw_request(port, http10(port, b"/2017/53.html"))[0] == "HTTP/1.0 200 OK"
    finally:
        proc.terminate()
        _, err = proc.communicate(timeout=10)
    log = err.decode("latin-1")
    assert not any(c in log for c in "\x1b\x9b\x00")
    assert '"GET /\\x1b[31mrood\\x9b2J HTTP/1.0" 400 -' in log
    assert '"GET /%00 HTTP/1.0" 400 -' in log and '"GET /2017/53.html HTTP/1.0" 200 -' in log
    assert "Traceback" not in log and "Exception" not in log


@pytest.mark.parametrize("path, status", [
    ("/%00", "400 Bad path"),
    ("/2017/53.html%00.txt", "400 Bad path"),
    ("/%1b[2J", "400 Bad path"),
    ("/%ff.html", "400 Bad path"),  # not UTF-8
    ("/%ed%a0%80", "400 Bad path"),  # a UTF-16 surrogate in UTF-8 form
    ("/../../etc/passwd", "400 Bad path"),
    ("/2017/%2e%2e/%2e%2e/etc/passwd", "400 Bad path"),
    ("/" + "a" * 2000, "400 Path too long"),
    ("/" + "a" * 300 + ".html", "404 File not found"),  # a name too long for the file system
    ("//etc/passwd", "404 File not found"),
    ("/2017/54.html", "404 File not found"),
])
def test_bad_paths_are_answered_not_dropped(server, path, status):
    assert raw_request(server, http10(server, path.encode()))[0] == f"HTTP/1.0 {status}"
    assert get(server, "/2017/53.html")[0] == 200  # and the server goes on


def test_a_folder_is_404_never_a_listing(server):
    for path in ("/pagefind/", "/pagefind"):
        status, content_type, body = get(server, path)
        assert (status, content_type) == (404, "text/html; charset=utf-8")
        assert b"pagefind.js" not in body and b"<h1>Pagina niet gevonden</h1>" in body  # the site's Dutch 404
    assert get(server, "/2017/") == (200, "text/html; charset=utf-8", "<p>Inhoud 2017</p>".encode())


def test_the_error_page_is_in_the_language_the_served_build_records(tmp_path):
    """The build beside the site (its corpus.json) names the book's language; a site with none beside it is
    served with the default language's words (the site above)."""
    html = tmp_path / "build" / "html"
    html.mkdir(parents=True)
    (html / "index.html").write_text("<p>The editions</p>", encoding="utf-8")
    (html.parent / "corpus.json").write_text('{"format":"lawbook-corpus","version":1,"language":"en","editions":[]}',
                                             encoding="utf-8")
    for port in serving(html):
        status, _, body = get(port, "/2017/99.html")
        assert status == 404 and b"<h1>Page not found</h1>" in body and b'<html lang="en">' in body
    (html.parent / "corpus.json").write_text('{"language":"nl"}', encoding="utf-8")
    for port in serving(html):
        assert b"<h1>Pagina niet gevonden</h1>" in get(port, "/2017/99.html")[2]


def test_forty_clients_at_once_are_all_answered(server):
    start = threading.Barrier(40)
    answers = []

    def client(n):
        start.wait(timeout=10)
        answers.append(get(server, "/2017/53.html" if n % 2 else "/index.html")[0])
    threads = [threading.Thread(target=client, args=(n,)) for n in range(40)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=30)
    assert answers == [200] * 40


@pytest.mark.parametrize("sent", [b"", b"GET /index.html HTTP/1.0\r\n"])  # nothing, or a request never finished
def test_an_idle_connection_is_closed(server, sent):
    with socket.create_connection(("127.0.0.1", server), timeout=10) as s:
        s.sendall(sent)
        assert s.recv(1024) == b""  # closed by the server after its 0.5 s, long before our 10 s
    assert get(server, "/index.html")[0] == 200


def test_the_server_listens_on_loopback_with_a_long_queue(server, site):
    srv = serve.make_server(site, 0, quiet=True)
    try:
        assert srv.server_address[0] == "127.0.0.1"
        assert srv.request_queue_size == serve.LISTEN_BACKLOG == 128
        assert srv.connection_timeout == serve.TIMEOUT == 10
    finally:
        srv.server_close()


def test_a_failing_request_is_one_log_line(site, capsys):
    srv = serve.make_server(site, 0)
    try:
        try:
            raise ConnectionResetError(104, "Connection reset by peer")
        except ConnectionResetError:
            srv.handle_error(None, ("127.0.0.1", 40000))
    finally:
        srv.server_close()
    assert capsys.readouterr().err == ("127.0.0.1: request failed: ConnectionResetError: [Errno 104] Connection reset "
                                       "by peer\n")


@pytest.mark.parametrize("port, why", [
    ("99999", "99999 is not a port number (1 to 65535, or 0 for any free port)"),
    ("-1", "-1 is not a port number (1 to 65535, or 0 for any free port)"),
    ("http", "'http' is not a port number (1 to 65535, or 0 for any free port)"),
])
def test_a_port_out_of_range_is_a_usage_error(tmp_path, port, why):
    result = run_lawbook("serve", "--out", tmp_path, "--port", port, timeout=60)
    assert result.returncode == 2
    assert result.stderr.startswith("usage: lawbook serve")
    assert result.stderr.endswith(f"lawbook serve: error: argument --port: {why}\n")
    assert "Traceback" not in result.stderr and result.stdout == ""


@pytest.mark.parametrize("method", ["PUT", "DELETE", "OPTIONS", "TRACE", "POST", "PATCH", "BREW"])
def test_every_other_method_is_answered_405(server, method):
    request = f"{method} /index.html HTTP/1.1\r\nHost: 127.0.0.1:{server}\r\nContent-Length: 0\r\n\r\n".encode()
    with socket.create_connection(("127.0.0.1", server), timeout=5) as s:
        s.sendall(request)
        answer = b""
        while chunk := s.recv(65536):
            answer += chunk
    head, _, body = answer.partition(b"\r\n\r\n")
    assert head.split(b"\r\n")[0] == b"HTTP/1.0 405 Method Not Allowed"
    assert b"\r\nAllow: GET, HEAD" in head
    assert body == b"405 Method Not Allowed: this site answers GET and HEAD only\n"
    assert get(server, "/index.html")[0] == 200


def test_a_request_line_over_64_kib_is_414_and_logged_in_one_line(site):
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    proc = subprocess.Popen([sys.executable, "-m", "pipeline", "serve", "--out", str(site.parent), "--port", "0"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, cwd=ROOT)
    try:
        port = int(proc.stdout.readline().decode().rsplit(":", 1)[1].split("/")[0])
        status, body = raw_request(port, b"GET /" + b"a" * 70_000 + b" HTTP/1.0\r\n\r\n")
        assert status == "HTTP/1.0 414 Request-URI Too Long"
        assert b"Error code: 414" in body
        assert raw_request(port, http10(port, b"/", b"PUT"))[0] == "HTTP/1.0 405 Method Not Allowed"
    finally:
        proc.terminate()
        _, err = proc.communicate(timeout=10)
    log = err.decode("latin-1")
    assert "KeyError" not in log and "Traceback" not in log
    assert "code 414, message Request-URI Too Long" in log and "code 405, method PUT not allowed" in log


@pytest.fixture(scope="module")
def linked_site(tmp_path_factory):
    """A site with a link to a file outside it, a link to a folder outside it and a link inside it."""
    root = tmp_path_factory.mktemp("linked")
    (root / "secret.txt").write_text("geheim", encoding="utf-8")
    (root / "private").mkdir()
    (root / "private" / "index.html").write_text("<p>privé</p>", encoding="utf-8")
    html = root / "build" / "html"
    (html / "2017").mkdir(parents=True)
    (html / "index.html").write_text("<p>De edities</p>", encoding="utf-8")
    (html / "leak.txt").symlink_to(root / "secret.txt")
    (html / "out").symlink_to(root / "private")
    (html / "2017" / "start.html").symlink_to("../index.html")
    yield from serving(html)


@pytest.mark.parametrize("path", ["/leak.txt", "/out/", "/out/index.html"])
def test_a_link_out_of_the_site_is_never_followed(linked_site, path):
    status, _, body = get(linked_site, path)
    assert status == 404 and b"geheim" not in body and "privé".encode() not in body


def test_a_link_inside_the_site_is_served(linked_site):
    assert get(linked_site, "/2017/start.html") == (200, "text/html; charset=utf-8", b"<p>De edities</p>")


# -- the Host a request names: this machine's own address, or a name given with --host-name ------------
def host_request(port, *hosts):
    """GET /2017/53.html over HTTP/1.0 with these Host headers (none, one or two); (status line, body)."""
    headers = b"".join(b"Host: " + host.encode() + b"\r\n" for host in hosts)
    return raw_request(port, b"GET /2017/53.html HTTP/1.0\r\n" + headers + b"\r\n")


@pytest.mark.parametrize("host", ["127.0.0.1:{port}", "localhost:{port}", "LocalHost:{port}", "[::1]:{port}"])
def test_a_request_for_this_machines_own_address_is_answered(server, host):
    assert host_request(server, host.format(port=server)) == ("HTTP/1.0 200 OK", b"<p>Artikel 53</p>")


@pytest.mark.parametrize("host", ["evil.example:{port}", "evil.example", "127.0.0.1", "127.0.0.1:1", "localhost.:{port}",
                                  "127.0.0.1:{port}.evil.example", "", "wetboek.local:{port}"])
def test_a_request_for_any_other_host_is_421_and_shows_nothing_of_the_site(server, host):
    status, body = host_request(server, host.format(port=server))
    assert status == "HTTP/1.0 421 Misdirected Request"
    assert (f"This server answers only requests for http://127.0.0.1:{server}/; serve the site under another "
            "name with lawbook serve --host-name NAME.").encode() in body
    assert b"Artikel 53" not in body


def test_a_request_without_a_host_or_with_two_is_400(server):
    assert host_request(server)[0] == "HTTP/1.0 400 No Host header"
    assert host_request(server, f"127.0.0.1:{server}", "evil.example")[0] == "HTTP/1.0 400 More than one Host header"


def test_a_name_given_with_host_name_is_answered_too(site):
    for port in serving(site, host_names=("wetboek.local",)):
        assert host_request(port, f"wetboek.local:{port}") == ("HTTP/1.0 200 OK", b"<p>Artikel 53</p>")
        assert host_request(port, f"WETBOEK.LOCAL:{port}")[0] == "HTTP/1.0 200 OK"
        status, body = host_request(port, f"evil.example:{port}")
        assert status == "HTTP/1.0 421 Misdirected Request"
        assert f"requests for http://127.0.0.1:{port}/ (or wetboek.local);".encode() in body


@pytest.mark.parametrize("name", ["wet boek", "evil.example:80", "http://evil.example", "-x", ""])
def test_host_name_takes_only_a_host_name(tmp_path, name):
    result = run_lawbook("serve", "--out", tmp_path, "--port", "0", f"--host-name={name}")
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.endswith(f"lawbook serve: error: argument --host-name: {name!r} is not a host name (letters, "
                                  "digits, hyphens and dots, without a port: e.g. --host-name wetboek.local)\n")


@pytest.fixture(scope="module")
def site_with_books(tmp_path_factory):
    """A site beside its build's pdf/ folder: one book, a file that is no book, a link to a file outside."""
    build = tmp_path_factory.mktemp("books")
    (build / "html").mkdir()
    (build / "html" / "index.html").write_text('<a href="../pdf/spelregels-2017.pdf">pdf</a>', encoding="utf-8")
    (build / "pdf").mkdir()
    (build / "pdf" / "spelregels-2017.pdf").write_bytes(b"%PDF-1.7 het boek\n%%EOF\n")
    (build / "pdf" / "spelregels-2017.typ").write_text("= de bron", encoding="utf-8")
    (build / "secret.pdf").write_bytes(b"%PDF- not of the build")
    (build / "pdf" / "elders.pdf").symlink_to(build / "secret.pdf")
    yield from serving(build / "html")


def test_the_builds_book_is_served_at_pdf_as_the_home_page_links_it(site_with_books):
    with urllib.request.urlopen(f"http://127.0.0.1:{site_with_books}/pdf/spelregels-2017.pdf", timeout=5) as answer:
        assert answer.status == 200 and answer.headers["Content-Type"] == "application/pdf"
        assert answer.read() == b"%PDF-1.7 het boek\n%%EOF\n"


@pytest.mark.parametrize("path, status", [("/pdf/spelregels-2017.typ", 404), ("/pdf/", 404), ("/pdf/geen.pdf", 404),
                                          ("/pdf/elders.pdf", 404), ("/pdf/../secret.pdf", 400),
                                          ("/pdf/%2e%2e/secret.pdf", 400)])
def test_pdf_serves_only_a_book_of_the_builds_pdf_folder(site_with_books, path, status):
    assert get(site_with_books, path)[0] == status
