"""Bad input: every failure is one message naming the file and line, what is wrong and what to do,
with exit status 2 (unreadable input, usage) or 1 (the build found errors); never a traceback
unless --debug is given. A build that finds errors leaves the previous build as it was."""
import pytest

from pipeline import cli
from pipeline.reading import manifest, decode as read
from pipeline.core.errors import BuildFailed, LawbookError

from conftest import PRINT_44, TEMPLATE_41, WIKI_56, add_source, run_lawbook, snapshot

ARTICLE_9 = "ARTIKEL 9\n\nArtikel 9\n\nDe spelers schudden de kaarten.\n"


def build(sources, tmp_path, capsys, *extra):
    """Run `build` through the command line; returns (status, stdout, stderr)."""
    status = cli.main(["build", "--sources", str(sources), "--out", str(tmp_path / "out"), *extra])
    out, err = capsys.readouterr()
    return status, out, err


def assert_one_message(err, where, *parts):
    """`err` is one error message starting at `where` (FILE or FILE:LINE) with every part in it."""
    assert err.startswith(f"lawbook: error: {where}: "), err
    assert "Traceback" not in err
    assert "\n  fix: " in err
    for part in parts:
        assert part in err, (part, err)


# -- unreadable input: status 2 -------------------------------------------------

def test_missing_source(sources_copy, tmp_path, capsys):
    (sources_copy / PRINT_44).unlink()
    status, _, err = build(sources_copy, tmp_path, capsys)
    assert status == 2
    assert_one_message(err, f"{sources_copy / PRINT_44}", "listed in the manifest is missing",
                       "fix: restore the file or remove its entry from sources.toml")


def test_file_not_in_manifest(sources_copy, tmp_path, capsys):
    (sources_copy / "artikel-90.txt").write_text(ARTICLE_9, encoding="utf-8")
    status, _, err = build(sources_copy, tmp_path, capsys)
    assert status == 2
    assert_one_message(err, f"{sources_copy / 'artikel-90.txt'}", "file is not in the manifest",
                       "add a [[source]] entry for artikel-90.txt to sources.toml")


def test_malformed_manifest_names_the_line(sources_copy, tmp_path, capsys):
    (sources_copy / "sources.toml").write_text('[[source]]\nfile = "a.txt"\nedition = "2017"\n[[source]\n',
                                               encoding="utf-8")
    status, _, err = build(sources_copy, tmp_path, capsys)
    assert status == 2
    assert_one_message(err, f"{sources_copy / 'sources.toml'}:4", "not valid TOML",
                       "fix: correct the TOML syntax at that line")


@pytest.mark.parametrize("entry, message, fix", [
    ('file = "a.txt"\nedition = "2019"', "unknown edition '2019'", "one of 2007, 2017"),
    ('file = "../secret.txt"\nedition = "2017"', "is not a file name in the sources folder", "without a folder"),
    ('file = "a.txt"\nedition = "2017"\nencodng = "latin-1"', "unknown key 'encodng'", "use only the keys"),
    ('file = "a.txt"\nedition = "2017"\nencoding = "klingon"', "unknown encoding 'klingon'", "Python codec name"),
    ('file = "a.txt"\nedition = "2017"\norigin = 5', "origin must be a string", "in quotes"),
    ('edition = "2017"', "has no file name", 'file = "name.txt"'),
    ('file = "a.txt"\nedition = 2017', "(a.txt): edition must be a string", 'write edition = "2017" in quotes'),
    ('file = "a.txt"', "(a.txt) has no edition", 'add edition = "…", one of 2007, 2017'),
    ('file = "a\\u0000.txt"\nedition = "2017"', "the file name 'a\\x00.txt' holds control character U+0000 at "
     "character 2", "rename the file without it"),
])
def test_manifest_entry_errors(tmp_path, entry, message, fix):
    folder = tmp_path / "sources"
    folder.mkdir()
    (folder / "a.txt").write_text(ARTICLE_9, encoding="utf-8")
    (folder / "sources.toml").write_text(f"[[source]]\n{entry}\n", encoding="utf-8")
    with pytest.raises(LawbookError) as caught:
        manifest.load_manifest(folder)
    assert caught.value.file == str(folder / "sources.toml")
    assert message in caught.value.message and fix in caught.value.fix
    assert caught.value.status == 2


@pytest.mark.parametrize("codec", ["rot13", "base64", "zlib", "uu", "hex", "bz2", "quopri"])
def test_encoding_that_is_not_a_text_encoding(tmp_path, codec):
    folder = tmp_path / "sources"
    folder.mkdir()
    (folder / "a.txt").write_text(ARTICLE_9, encoding="utf-8")
    (folder / "sources.toml").write_text(f'[[source]]\nfile = "a.txt"\nedition = "2017"\nencoding = "{codec}"\n',
                                         encoding="utf-8")
    with pytest.raises(LawbookError) as caught:
        manifest.load_manifest(folder)
    error = caught.value
    assert (error.file, error.line, error.status) == (str(folder / "sources.toml"), 4, 2)
    assert error.message.startswith(f"[[source]] number 1 (a.txt): {codec!r} is not a text encoding (the ")
    assert error.fix == "use a text encoding such as utf-8, cp1252, latin-1 or utf-16"
    with pytest.raises(LawbookError) as caught:  # the reader refuses it too, not only the manifest
        read.decode(ARTICLE_9.encode(), "a.txt", codec)
    assert caught.value.message.startswith(f"{codec!r} is not a text encoding")


def test_not_a_text_encoding_is_one_message_from_the_command_line(sources_copy, tmp_path, capsys):
    add_source(sources_copy, "geheim.txt", "NEGVXRY 9\n", encoding="rot13")
    status, _, err = build(sources_copy, tmp_path, capsys)
    assert status == 2
    line = (sources_copy / "sources.toml").read_text(encoding="utf-8").splitlines().index('encoding = "rot13"') + 1
    assert_one_message(err, f"{sources_copy / 'sources.toml'}:{line}", "[[source]] number 6 (geheim.txt): 'rot13' is not a "
                       "text encoding (the rot-13 codec does not make text of bytes)")


def test_a_text_codec_that_is_not_an_encoding_of_law_text():
    # "undefined" decodes nothing: it is not in the list of encodings a source may have (docs/errors.md).
    with pytest.raises(LawbookError) as caught:
        read.decode(b"Artikel 9", "a.txt", "undefined")
    assert caught.value.message.startswith("'undefined' is not an encoding a source may have")
    assert caught.value.fix.startswith("use one of utf-8, utf-8-sig")


def test_manifest_with_a_byte_order_mark(sources_copy, tmp_path, capsys):
    toml = sources_copy / "sources.toml"
    toml.write_bytes(b"\xef\xbb\xbf" + toml.read_bytes())
    status, out, err = build(sources_copy, tmp_path, capsys, "--no-pdf")
    assert status == 0, err
    assert out.startswith(f"built {tmp_path / 'out'}/ from 5 sources")


def test_manifest_messages_name_the_line_of_the_entry(tmp_path):
    folder = tmp_path / "sources"
    folder.mkdir()
    (folder / "a.txt").write_text(ARTICLE_9, encoding="utf-8")
    toml = '# two sources\n[[source]]\nfile = "a.txt"\nedition = "2017"\n\n[[source]]  # the second\nfile = "b.txt"\n' \
           'origin = "scan"\nedition = 2017\n'
    (folder / "sources.toml").write_text(toml, encoding="utf-8")
    with pytest.raises(LawbookError) as caught:
        manifest.load_manifest(folder)
    assert (caught.value.line, caught.value.message) == (9, "[[source]] number 2 (b.txt): edition must be a string")
    # A header inside a multi-line string: the headers no longer tell the entries, so no line rather than a wrong one.
    (folder / "sources.toml").write_text(toml.replace('"scan"', '"""scan\n[[source]]\n"""'), encoding="utf-8")
    with pytest.raises(LawbookError) as caught:
        manifest.load_manifest(folder)
    assert caught.value.line is None and caught.value.message.endswith("edition must be a string")


def test_empty_file(sources_copy, tmp_path, capsys):
    add_source(sources_copy, "leeg.txt", b"")
    status, _, err = build(sources_copy, tmp_path, capsys)
    assert status == 2
    assert_one_message(err, f"{sources_copy / 'leeg.txt'}", "the file is empty",
                       "put the exported text in the file, or remove it from the manifest")


def test_blank_file(sources_copy, tmp_path, capsys):
    add_source(sources_copy, "leeg.txt", "\n  \n\t\n")
    status, _, err = build(sources_copy, tmp_path, capsys)
    assert status == 2
    assert_one_message(err, f"{sources_copy / 'leeg.txt'}", "holds only blank lines")


def test_binary_file(sources_copy, tmp_path, capsys):
    add_source(sources_copy, "scan.txt", b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00")
    status, _, err = build(sources_copy, tmp_path, capsys)
    assert status == 2
    assert_one_message(err, f"{sources_copy / 'scan.txt'}:3", "binary file",
                       "replace it with the text export of the source")


def test_unknown_encoding_suggests_declaring_it(sources_copy, tmp_path, capsys):
    # 0x81 and 0x8d are neither UTF-8 nor cp1252.
    data = b"ARTIKEL 9\n\nArtikel 9\n\nDe spelers \x81\x8d schudden.\n"
    add_source(sources_copy, "oud.txt", data)
    status, _, err = build(sources_copy, tmp_path, capsys)
    assert status == 2
    assert_one_message(err, f"{sources_copy / 'oud.txt'}:5", "unknown encoding: byte 0x81",
                       'declare it in sources.toml, e.g. encoding = "latin-1"')


def test_declared_encoding_is_used(sources_copy, tmp_path, capsys):
    add_source(sources_copy, "oud.txt", "ARTIKEL 9\n\nArtikel 9\n\nDe spelers \u0111 schudden.\n"
               .encode("iso8859_2"), encoding="iso8859_2")
    status, out, err = build(sources_copy, tmp_path, capsys)
    assert status == 0, err
    assert "De spelers \u0111 schudden." in (tmp_path / "out" / "corpus.xml").read_text(encoding="utf-8")


def test_wrong_declared_encoding(sources_copy, tmp_path, capsys):
    add_source(sources_copy, "oud.txt", b"ARTIKEL 9\n\nArtikel 9\n\nDe \xff spelers.\n", encoding="ascii")
    status, _, err = build(sources_copy, tmp_path, capsys)
    assert status == 2
    assert_one_message(err, f"{sources_copy / 'oud.txt'}:5", "the file is not ascii",
                       "correct the encoding = … entry")


def test_utf16_without_bom(sources_copy, tmp_path, capsys):
    add_source(sources_copy, "export.txt", ARTICLE_9.encode("utf-16-le"))
    status, _, err = build(sources_copy, tmp_path, capsys)
    assert status == 2
    assert_one_message(err, f"{sources_copy / 'export.txt'}", "UTF-16 without a byte order mark",
                       'encoding = "utf-16-le"')


def test_utf8_cut_off_in_a_character(sources_copy, tmp_path, capsys):
    add_source(sources_copy, "kort.txt", (ARTICLE_9 + "Hij speelt \u00e9").encode("utf-8")[:-1])
    status, _, err = build(sources_copy, tmp_path, capsys)
    assert status == 2
    assert_one_message(err, f"{sources_copy / 'kort.txt'}:6", "ends in the middle of a UTF-8 character",
                       "its end is missing")


def test_mixed_encodings_are_not_read_as_cp1252(sources_copy, tmp_path, capsys):
    # Line 5 is UTF-8 ("één"), line 6 has a cp1252 "é": read as cp1252 the whole file would be garbled.
    data = ARTICLE_9.encode() + "Hij speelt één kaart.\n".encode() + b"Caf\xe9.\n"
    add_source(sources_copy, "gemengd.txt", data)
    status, _, err = build(sources_copy, tmp_path, capsys)
    assert status == 2
    assert_one_message(err, f"{sources_copy / 'gemengd.txt'}:7", "byte 0xe9 is not UTF-8",
                       "damaged or mixes encodings")


def test_cp1252_is_detected():
    text, encoding = read.decode("Caf\u00e9 \u2013 \u20ac".encode("cp1252"), "f.txt")
    assert (text, encoding) == ("Caf\u00e9 \u2013 \u20ac", "cp1252")


def test_line_numbers_count_every_line_ending():
    data = b"a\r\nb\rc\n\x00"
    with pytest.raises(LawbookError) as caught:
        read.decode(data, "f.txt")
    assert caught.value.line == 4


@pytest.mark.parametrize("char, where, what, fix", [
    ("\x1b", 11, "control character U+001B at column 11", "not law text"),
    ("\x07", 11, "control character U+0007 at column 11", "not law text"),
    ("\x85", 11, "control character U+0085 at column 11", "not law text"),
    ("\u202e", 11, "bidirectional control U+202E (right-to-left override)", "needs no direction controls"),
    ("\ue000", 11, "private-use character U+E000", "remove it"),
    ("\uffff", 11, "noncharacter U+FFFF", "remove it"),
])
def test_characters_that_are_not_text_are_refused(sources_copy, tmp_path, capsys, char, where, what, fix):
    add_source(sources_copy, "raar.txt", ARTICLE_9 + f"Tekst met {char}hier.\n")
    status, _, err = build(sources_copy, tmp_path, capsys)
    assert status == 2
    assert_one_message(err, f"{sources_copy / 'raar.txt'}:6", what, fix)


def test_form_feed_is_a_page_break_read_as_space(sources_copy, tmp_path, capsys):
    add_source(sources_copy, "pdf.txt", ARTICLE_9 + "\x0c\nDe kaarten\x0cworden gedeeld.\n")
    status, _, err = build(sources_copy, tmp_path, capsys)
    assert status == 0, err
    corpus = (tmp_path / "out" / "corpus.xml").read_text(encoding="utf-8")
    assert "De kaarten worden gedeeld." in corpus and "\x0c" not in corpus
    report = (tmp_path / "out" / "report.txt").read_text(encoding="utf-8")
    assert report.count("page break (form feed) read as a space") == 2


def test_source_over_the_size_limit(sources_copy, tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(read, "MAX_SOURCE_BYTES", 4 * read.MIB)
    add_source(sources_copy, "groot.txt", b"x" * (5 * read.MIB))
    status, _, err = build(sources_copy, tmp_path, capsys)
    assert status == 2
    assert_one_message(err, f"{sources_copy / 'groot.txt'}", "the file is 5.0 MiB, over the limit of 4 MiB",
                       "split the source into several files")


def test_source_set_over_the_total_limit(sources_copy, tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(manifest, "MAX_TOTAL_BYTES", 20_000)
    status, _, err = build(sources_copy, tmp_path, capsys)
    assert status == 2
    total = sum(p.stat().st_size for p in sources_copy.iterdir() if p.name not in ("sources.toml", "corrections.toml", "known-missing.example.toml"))
    assert_one_message(err, f"{sources_copy / 'sources.toml'}", f"the sources together are {total} bytes, over the "
                       "limit of 20000 bytes for one build")


# -- the build found errors: status 1, the previous build untouched ---------------

def failing_build(sources_copy, tmp_path, capsys, damage):
    """Build the real sources, damage them, build again: returns (status, stderr, out before, out after)."""
    status, _, err = build(sources_copy, tmp_path, capsys)
    assert status == 0, err
    before = snapshot(tmp_path / "out")
    damage(sources_copy)
    status, out, err = build(sources_copy, tmp_path, capsys)
    return status, err, before, snapshot(tmp_path / "out")


def assert_build_error(status, err, before, after, tmp_path, where, *parts):
    assert status == 1
    first = err.splitlines()[0]
    assert first.startswith(f"lawbook: error: {where}: "), err
    for part in parts:
        assert part in first, (part, first)
    assert "the build found 1 error; out/ was left as it was" in err
    assert "fix: correct the sources at the lines above" in err and "Traceback" not in err
    assert after == before  # not one byte of the good build changed
    report = (tmp_path / "out.failed" / "report.txt").read_text(encoding="utf-8")
    assert where.split(":")[0] in report and parts[0] in report


def test_article_twice_with_conflicting_text(sources_copy, tmp_path, capsys):
    def damage(folder):
        text = (folder / WIKI_56).read_text(encoding="utf-8")
        add_source(folder, "artikel-53-opnieuw.txt", text.replace("mogen alle in deze slag", "moeten alle in deze slag"))
    result = failing_build(sources_copy, tmp_path, capsys, damage)
    assert_build_error(*result, tmp_path, "artikel-53-opnieuw.txt:12", "2017/53B reads differently",
                       "'mogen' / 'moeten'")


def test_note_marker_without_note(sources_copy, tmp_path, capsys):
    # A printed page whose footnote marker "1" has no footnote at the page bottom.
    page = "45\nARTIKEL 90\nVoorbeeld\nEen speler die een kaart toont\n1\nmoet die laten liggen.\n"
    result = failing_build(sources_copy, tmp_path, capsys,
                           lambda folder: add_source(folder, "pagina-45.txt", page, edition="2007"))
    assert_build_error(*result, tmp_path, "pagina-45.txt:5", "footnote marker 1 has no footnote text")


def test_note_without_marker(sources_copy, tmp_path, capsys):
    def damage(folder):
        path = folder / TEMPLATE_41
        path.write_text(path.read_text(encoding="utf-8").replace("naar beneden 1).", "naar beneden."), encoding="utf-8")
    result = failing_build(sources_copy, tmp_path, capsys, damage)
    assert_build_error(*result, tmp_path, f"{TEMPLATE_41}:5", "footnote 1) has no marker in the text before it")


def test_failed_report_is_replaced_and_removed_by_a_good_build(sources_copy, tmp_path, capsys):
    page = "45\nARTIKEL 90\nVoorbeeld\nEen speler die een kaart toont\n1\nmoet die laten liggen.\n"
    path = add_source(sources_copy, "pagina-45.txt", page, edition="2007")
    assert build(sources_copy, tmp_path, capsys)[0] == 1
    assert "footnote marker 1" in (tmp_path / "out.failed" / "report.txt").read_text(encoding="utf-8")
    assert not (tmp_path / "out").exists()  # there was no good build to keep
    path.write_text(page.replace("1\nmoet", "moet"), encoding="utf-8")
    status, out, err = build(sources_copy, tmp_path, capsys)
    assert status == 0, err
    assert (tmp_path / "out" / "corpus.xml").exists() and not (tmp_path / "out.failed").exists()


def test_build_failed_carries_every_error(sources_copy, tmp_path):
    for n in (45, 46):
        add_source(sources_copy, f"pagina-{n}.txt", f"{n}\nARTIKEL {n + 45}\nVoorbeeld\nEen speler toont\n1\nmeer.\n",
                   edition="2007")
    from pipeline.publish import run as build_mod
    with pytest.raises(BuildFailed) as caught:
        build_mod.build(sources_copy, tmp_path / "out")
    assert [(e.file, e.line) for e in caught.value.errors] == [("pagina-45.txt", 5), ("pagina-46.txt", 5)]
    assert caught.value.status == 1 and "the build found 2 errors" in caught.value.message


# -- no traceback, except with --debug ----------------------------------------------

def test_debug_shows_the_traceback(sources_copy, tmp_path):
    (sources_copy / PRINT_44).unlink()
    with pytest.raises(LawbookError):
        cli.main(["--debug", "build", "--sources", str(sources_copy), "--out", str(tmp_path / "out")])


def test_command_line_process_prints_no_traceback(sources_copy, tmp_path):
    add_source(sources_copy, "scan.txt", b"\x00\x01\x02")
    result = run_lawbook("build", "--sources", sources_copy, "--out", tmp_path / "out")
    assert result.returncode == 2
    assert result.stderr.startswith(f"lawbook: error: {sources_copy / 'scan.txt'}:1: this is a binary file")
    assert "Traceback" not in result.stderr and len(result.stderr.splitlines()) == 2


def test_check_and_diff_give_one_message(sources_copy, tmp_path, capsys):
    (sources_copy / PRINT_44).unlink()
    for argv in (["check", "--sources", str(sources_copy)],
                 ["diff", "2007", "2017", "--sources", str(sources_copy)]):
        status = cli.main(argv)
        _, err = capsys.readouterr()
        assert status == 2
        assert_one_message(err, f"{sources_copy / PRINT_44}", "listed in the manifest is missing")


def test_diff_of_a_file_that_is_not_xml(tmp_path, capsys):
    bad = tmp_path / "corpus.xml"
    bad.write_text("<corpus><edition id='2017'>", encoding="utf-8")
    status = cli.main(["diff", str(bad), "2017"])
    _, err = capsys.readouterr()
    assert status == 2
    assert_one_message(err, f"{bad}:1", "not well-formed XML")


def test_unwritable_output_is_one_message(sources_copy, tmp_path, capsys):
    blocker = tmp_path / "file"
    blocker.write_text("not a folder", encoding="utf-8")
    status = cli.main(["build", "--sources", str(sources_copy), "--out", str(blocker / "out")])
    _, err = capsys.readouterr()
    assert status == 2
    assert err.startswith("lawbook: error: ") and "fix: check the path" in err and "Traceback" not in err


# -- messages that name the real cause (issue 33) ------------------------------------------------------
def test_an_article_number_no_id_can_hold_is_refused_at_its_heading(tmp_path):
    folder = tmp_path / "src"
    folder.mkdir()
    (folder / "a.txt").write_text(f"Artikel {'7' * 400}\n\nDe speler wacht.\n\nArtikel 9\n\nDe speler speelt.\n",
                                  encoding="utf-8")
    (folder / "sources.toml").write_text('[[source]]\nfile = "a.txt"\nedition = "2017"\n', encoding="utf-8")
    result = run_lawbook("build", "--no-pdf", "--sources", folder, "--out", tmp_path / "out")
    assert result.returncode == 1
    assert result.stderr.startswith(
        "lawbook: error: a.txt:1: article number 77777777… (400 digits) cannot be written as an ID: a number has at "
        "most 6 digits (the Laws number their articles to 93); give the article the number the book gives it\n"
        f"lawbook: error: {tmp_path / 'out.failed' / 'report.txt'}: the build found 1 error")


def test_a_reader_that_goes_away_is_no_error_of_the_build(tmp_path):
    """`lawbook show 2017/53 | head -1`: the pipe closes before the output is written. Status 141 (128 +
    SIGPIPE, as the shell gives `cat`), not 1, which says the build found errors; nothing on stderr."""
    import os
    import subprocess
    import sys

    from conftest import ROOT

    for argv in (["show", "2017/53"], ["check"]):
        proc = subprocess.Popen([sys.executable, "-m", "pipeline", *argv], cwd=ROOT, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, env=dict(os.environ, PYTHONPATH=str(ROOT)))
        proc.stdout.close()  # the reader is gone before a word is written
        _, err = proc.communicate(timeout=120)
        assert (proc.returncode, err) == (cli.BROKEN_PIPE, b"")
    assert cli.BROKEN_PIPE == 141


def test_serve_of_a_folder_that_does_not_exist_names_it_once(tmp_path):
    result = run_lawbook("serve", "--out", "nope", "--port", "0", cwd=tmp_path)
    assert (result.returncode, result.stdout) == (2, "")
    assert result.stderr == ("lawbook: error: nope/html: no such folder: no site was built here\n"
                             "  fix: build the site first (lawbook build --out nope, or make build), or give --out the "
                             "folder a build wrote\n")


def test_diff_of_a_file_that_is_not_there_says_so(tmp_path, capsys):
    status = cli.main(["diff", str(tmp_path / "nope.xml"), "2017"])
    _, err = capsys.readouterr()
    assert status == 2
    assert err == (f"lawbook: error: {tmp_path / 'nope.xml'}: no such file, and not an edition either (an edition is "
                   "its year, e.g. 2007)\n  fix: give the path of a corpus.xml that lawbook build wrote (e.g. "
                   "build/corpus.xml), or an edition of the book in --sources\n")
    status = cli.main(["diff", "2007", str(tmp_path)])
    _, err = capsys.readouterr()
    assert (status, err) == (2, f"lawbook: error: {tmp_path}: this is a folder, not a corpus.xml file\n  fix: give "
                                f"the corpus.xml in it (e.g. {tmp_path / 'corpus.xml'}) or an edition such as 2007\n")


def test_a_message_never_puts_a_control_character_on_the_terminal():
    error = LawbookError("bad value 'x\x1b]0;titel\x07'", file="a\u202eb.txt", line=3, fix="remove \x9b it")
    assert str(error) == "'a\\u202eb.txt':3: bad value 'x\\x1b]0;titel\\x07'\n  fix: remove \\x9b it"
