"""Sources are regular files in the sources folder: a symbolic link, a folder, a named pipe, a socket
or a device is refused by name (listed or not) and never opened, so nothing outside the folder is
published and nothing blocks. The size limits count the bytes actually read."""
import os
import socket
import stat
import threading
from pathlib import Path

import pytest

from pipeline import cli
from pipeline.reading import manifest, decode as read
from pipeline.core.errors import LawbookError

from conftest import PRINT_44, WIKI_54, WIKI_56, run_lawbook

SECRET = "GEHEIM: het wachtwoord van de redactie\n"
NOT_REGULAR = "not a regular file: sources are read only from regular files in the sources folder"


def list_in_manifest(folder, name, edition="2017"):
    with open(folder / "sources.toml", "a", encoding="utf-8") as f:
        f.write(f'\n[[source]]\nfile = "{name}"\nedition = "{edition}"\n')


def build(sources, tmp_path, capsys):
    status = cli.main(["build", "--sources", str(sources), "--out", str(tmp_path / "out"), "--no-pdf"])
    return status, capsys.readouterr().err


def assert_refused(status, err, path, *parts):
    assert status == 2
    assert err.startswith(f"lawbook: error: {path}: "), err
    assert len(err.splitlines()) == 2 and "\n  fix: " in err and "Traceback" not in err
    for part in parts:
        assert part in err, (part, err)


def assert_nothing_published(tmp_path, err):
    assert not (tmp_path / "out").exists() and not (tmp_path / "out.failed").exists()
    assert "GEHEIM" not in err


# -- symbolic links ------------------------------------------------------------------

def test_listed_link_to_a_file_outside_the_folder_is_refused(sources_copy, tmp_path, capsys):
    outside = tmp_path / "geheim.txt"
    outside.write_text(SECRET, encoding="utf-8")
    (sources_copy / "artikel-9.txt").symlink_to(outside)
    list_in_manifest(sources_copy, "artikel-9.txt")
    status, err = build(sources_copy, tmp_path, capsys)
    assert_refused(status, err, sources_copy / "artikel-9.txt", f"this is a symbolic link, {NOT_REGULAR}",
                   "fix: replace the link by a copy of the file it points to")
    assert_nothing_published(tmp_path, err)


def test_a_link_to_a_source_beside_it_is_refused_too(sources_copy, tmp_path, capsys):
    (sources_copy / "kopie.txt").symlink_to(WIKI_56)  # relative: a file in the folder itself
    list_in_manifest(sources_copy, "kopie.txt")
    status, err = build(sources_copy, tmp_path, capsys)
    assert_refused(status, err, sources_copy / "kopie.txt", "this is a symbolic link")


def test_listed_link_into_proc_is_refused(sources_copy, tmp_path, capsys):
    (sources_copy / "status.txt").symlink_to("/proc/self/status")
    list_in_manifest(sources_copy, "status.txt")
    status, err = build(sources_copy, tmp_path, capsys)
    assert_refused(status, err, sources_copy / "status.txt", "this is a symbolic link")
    assert_nothing_published(tmp_path, err)


def test_a_source_replaced_by_a_link_after_the_check_is_refused(sources_copy, tmp_path, monkeypatch):
    # The manifest checked a regular file; by the time it is opened it is a link (O_NOFOLLOW refuses it).
    source = next(s for s in manifest.load_manifest(sources_copy) if s.name == PRINT_44)
    outside = tmp_path / "geheim.txt"
    outside.write_text(SECRET, encoding="utf-8")
    source.path.unlink()
    source.path.symlink_to(outside)
    regular = os.stat(outside)
    monkeypatch.setattr(read.os, "lstat", lambda path: regular)  # the race: lstat saw the old file
    with pytest.raises(LawbookError) as caught:
        read.read_bytes(source)
    assert caught.value.file == str(source.path) and caught.value.message.startswith("this is a symbolic link")


# -- folders, pipes, sockets, devices ----------------------------------------------------

def test_listed_folder_is_refused_not_missing(sources_copy, tmp_path, capsys):
    (sources_copy / "artikel-9.txt").mkdir()
    list_in_manifest(sources_copy, "artikel-9.txt")
    status, err = build(sources_copy, tmp_path, capsys)
    assert_refused(status, err, sources_copy / "artikel-9.txt", f"this is a folder, {NOT_REGULAR}",
                   "fix: put the text in a regular file and list that, or remove the entry from sources.toml")


def test_listed_fifo_is_refused_and_does_not_block(sources_copy, tmp_path):
    os.mkfifo(sources_copy / "pijp.txt")
    list_in_manifest(sources_copy, "pijp.txt")
    result = run_lawbook("build", "--sources", sources_copy, "--out", tmp_path / "out", timeout=120)
    assert_refused(result.returncode, result.stderr, sources_copy / "pijp.txt",
                   f"this is a named pipe (FIFO), {NOT_REGULAR}")


def test_a_source_replaced_by_a_fifo_after_the_check_is_never_read(tmp_path, monkeypatch):
    # O_NONBLOCK: opening a pipe without a writer returns at once, and fstat refuses it.
    fifo = tmp_path / "pijp.txt"
    os.mkfifo(fifo)
    regular = os.stat(__file__)
    monkeypatch.setattr(read.os, "lstat", lambda path: regular)
    outcome = []

    def attempt():
        try:
            read.read_bytes(manifest.Source(path=fifo, edition="2017", language="nl"))
        except LawbookError as e:
            outcome.append(e.message)
    thread = threading.Thread(target=attempt, daemon=True)
    thread.start()
    thread.join(timeout=10)
    assert not thread.is_alive(), "reading the pipe blocked"
    assert outcome and outcome[0].startswith("this is a named pipe (FIFO)")


def test_a_device_is_never_read():
    source = manifest.Source(path=Path("/dev/null"), edition="2017", language="nl")
    with pytest.raises(LawbookError) as caught:
        read.read_bytes(source)
    assert caught.value.message == f"this is a character device, {NOT_REGULAR}"
    assert caught.value.file == "/dev/null"


@pytest.mark.parametrize("kind", ["a symbolic link", "a named pipe (FIFO)", "a socket"])
def test_unlisted_special_entries_in_the_folder_are_refused_by_name(sources_copy, tmp_path, capsys, kind):
    path = sources_copy / "x.txt"
    if kind == "a symbolic link":
        path.symlink_to(sources_copy / WIKI_56)
    elif kind == "a named pipe (FIFO)":
        os.mkfifo(path)
    else:
        sock = socket.socket(socket.AF_UNIX)
        sock.bind(str(path))
        sock.close()
    status, err = build(sources_copy, tmp_path, capsys)
    assert_refused(status, err, path, f"this is {kind}, {NOT_REGULAR}",
                   "fix: move it out of the sources folder; a source must be a regular file listed in sources.toml")


def test_a_subfolder_of_the_sources_folder_is_not_read(sources_copy, tmp_path, capsys):
    (sources_copy / "originelen").mkdir()
    (sources_copy / "originelen" / "scan.txt").write_bytes(b"\x00\x01")
    status, err = build(sources_copy, tmp_path, capsys)
    assert status == 0, err


def test_file_kind_names_each_kind(tmp_path):
    os.mkfifo(tmp_path / "p")
    (tmp_path / "l").symlink_to("p")
    kinds = {name: read.file_kind(os.lstat(tmp_path / name).st_mode) for name in ("p", "l")}
    assert kinds == {"p": "a named pipe (FIFO)", "l": "a symbolic link"}
    assert read.file_kind(os.lstat(tmp_path).st_mode) == "a folder"
    assert read.file_kind(stat.S_IFBLK) == "a block device"
    assert read.file_kind(os.lstat(__file__).st_mode) is None


# -- the limits count the bytes read --------------------------------------------------------

PROC = Path("/proc/version")  # its size says 0; it holds a line of text
needs_proc = pytest.mark.skipif(not PROC.is_file(), reason="needs Linux /proc")


@needs_proc
def test_size_limit_counts_the_bytes_read_not_the_size_on_disk(monkeypatch):
    assert PROC.stat().st_size == 0
    monkeypatch.setattr(read, "MAX_SOURCE_BYTES", 16)
    with pytest.raises(LawbookError) as caught:
        read.read_bytes(manifest.Source(path=PROC, edition="2017", language="nl"))
    assert caught.value.file == str(PROC)
    assert caught.value.message == ("more than 16 bytes could be read from the file, over the limit of 16 bytes for "
                                    "one source (the file system gave its size as 0 bytes: it grows, or is not an "
                                    "ordinary file)")


@needs_proc
def test_total_limit_counts_the_bytes_read(tmp_path):
    # By the sizes on disk the two sources hold `size` bytes together; read, they hold twice that.
    size = len(PROC.read_bytes())
    other = tmp_path / "kopie.txt"
    other.write_bytes(PROC.read_bytes())
    budget = read.Budget(size + size // 2, str(tmp_path / "sources.toml"))
    first = manifest.Source(path=PROC, edition="2017", language="nl", budget=budget)
    second = manifest.Source(path=other, edition="2017", language="nl", budget=budget)
    assert len(read.read_bytes(first)) == size
    assert len(read.read_bytes(first)) == size  # a source read again counts once
    with pytest.raises(LawbookError) as caught:
        read.read_bytes(second)
    assert caught.value.file == str(tmp_path / "sources.toml")
    assert caught.value.message == (f"the sources together are over the limit of {size + size // 2} bytes for one "
                                    "build (counted as they were read; kopie.txt passed it)")


def test_a_file_that_grew_after_the_manifest_was_read_is_refused(sources_copy, monkeypatch):
    size = (sources_copy / WIKI_54).stat().st_size
    monkeypatch.setattr(read, "MAX_SOURCE_BYTES", size + 10)
    source = next(s for s in manifest.load_manifest(sources_copy) if s.name == WIKI_54)
    with open(source.path, "ab") as f:
        f.write(b"x" * 100)
    with pytest.raises(LawbookError) as caught:
        read.read_bytes(source)
    assert caught.value.file == str(source.path)
    assert caught.value.message == f"the file is {size + 100} bytes, over the limit of {size + 10} bytes for one source"


def test_a_fifo_added_after_a_good_build_is_refused_not_up_to_date(tmp_path, sources_copy):
    """The up-to-date check neither opens nor ignores what the build would refuse."""
    out = tmp_path / "out"
    assert run_lawbook("build", "--sources", sources_copy, "--out", out, "--no-pdf").returncode == 0
    os.mkfifo(sources_copy / "extra.txt")
    result = run_lawbook("build", "--sources", sources_copy, "--out", out, "--no-pdf", timeout=60)
    assert result.returncode == 2, result.stdout
    assert "extra.txt" in result.stderr and "up to date" not in result.stdout
