"""Every input is read as what it is, bounded, and every refusal is one message naming the file and line
(or path) and the fix, with a non-zero exit and no traceback (docs/errors.md: "Encodings", "Inputs",
"Numbering past Z", "Text shown on a terminal", "Writing"). The sources here are made up."""
import errno
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings, strategies as st

from pipeline import cli
from pipeline.publish import reference
from pipeline.core import ids
from pipeline.core.errors import LawbookError
from pipeline.corpus import align
from pipeline.outputs.book import compiling
from pipeline.reading import decode

from conftest import ROOT, run_lawbook

GOLDEN_CORPUS = ROOT / "tests" / "golden" / "corpus.json"
# A made-up article in the wiki layout: heading, title, text (line 5 holds the text).
ARTICLE = "ARTIKEL 9\n\nArtikel 9\n\nDe spelers {} de kaarten.\n"


def one_source(tmp_path, data, encoding=None):
    """A sources folder with one file a.txt holding `data` (bytes); its manifest declares `encoding`."""
    folder = tmp_path / "src"
    folder.mkdir()
    (folder / "a.txt").write_bytes(data)
    extra = f'encoding = "{encoding}"\n' if encoding else ""
    (folder / "sources.toml").write_text(f'[[source]]\nfile = "a.txt"\nedition = "2017"\n{extra}', encoding="utf-8")
    return folder


def build(tmp_path, folder, *more):
    return run_lawbook("build", "--no-pdf", "--sources", folder, "--out", tmp_path / "out", *more)


def assert_refused(done, where, message, fix, status=2):
    """Exit `status`, no traceback, and stderr's first line `lawbook: error: WHERE: MESSAGE…` with the fix."""
    assert done.returncode == status, done.stderr
    assert "Traceback" not in done.stderr
    first = done.stderr.splitlines()[0]
    assert first.startswith(f"lawbook: error: {where}: {message}"), done.stderr
    assert f"fix: {fix}" in done.stderr


# -- 1. encodings ---------------------------------------------------------------------------------
@pytest.mark.parametrize("declared, shown", [("latin-1", "Ã©"), ("cp1252", "Ã©"), ("iso-8859-15", "Ã©"),
                                             ("mac-roman", "√©")])
def test_utf8_declared_as_a_single_byte_encoding_is_refused_at_its_line(tmp_path, declared, shown):
    folder = one_source(tmp_path, ARTICLE.format("schudden één keer").encode("utf-8"), declared)
    done = build(tmp_path, folder)
    assert_refused(done, f"{folder / 'a.txt'}:5",
                   f"the file is declared {declared}, but bytes c3 a9 are UTF-8 for 'é'; read as {declared} they "
                   f"would be {shown!r}", "the file is UTF-8: remove the encoding = … entry")
    assert not (tmp_path / "out").exists()


def test_a_real_latin1_file_is_read_as_declared(tmp_path):
    folder = one_source(tmp_path, ARTICLE.format("schudden één keer").encode("latin-1"), "latin-1")
    done = build(tmp_path, folder)
    assert done.returncode == 0, done.stderr
    assert "De spelers schudden één keer de kaarten." in (tmp_path / "out" / "corpus.xml").read_text("utf-8")


@pytest.mark.parametrize("codec", ["unicode_escape", "raw_unicode_escape", "utf-7", "idna", "punycode",
                                   "undefined"])
def test_codecs_that_are_not_encodings_of_law_text_are_refused(tmp_path, codec):
    # unicode_escape would turn a literal \n into a line break: an article the file does not show.
    folder = one_source(tmp_path, ARTICLE.format("schudden\\n\\nArtikel 10\\n\\nverborgen").encode(), codec)
    done = build(tmp_path, folder)
    assert_refused(done, f"{folder / 'sources.toml'}:4",
                   f"[[source]] number 1 (a.txt): {codec!r} is not an encoding a source may have",
                   "use one of utf-8, utf-8-sig, utf-16(-le/-be), utf-32(-le/-be), ascii, cp1252, latin-1")


@pytest.mark.parametrize("alias", ["latin1", "ISO-8859-1", "windows-1252", "UTF8", "utf_16_le"])
def test_aliases_of_allowed_encodings_are_accepted(alias):
    assert decode.text_codec(alias, "a.txt").name in decode.ALLOWED_ENCODINGS


@pytest.mark.parametrize("cut, line, shown", [(b"\xe2\x80", 5, "â€"), (b"\xc3", 5, "Ã"), (b"\xf0\x9f\x98", 5, "ðŸ˜")])
def test_an_undeclared_ascii_file_with_a_cut_utf8_sequence_is_refused(tmp_path, cut, line, shown):
    data = ARTICLE.format("schudden").encode().replace(b"schudden", b"schudden " + cut + b" nu")
    folder = one_source(tmp_path, data)
    done = build(tmp_path, folder)
    assert_refused(done, f"{folder / 'a.txt'}:{line}",
                   f"bytes {cut.hex(' ')} are the start of a UTF-8 character cut short (cp1252 would read them "
                   f"as {shown!r})", "export the source again as UTF-8, or, when the file really is cp1252, declare "
                   'encoding = "cp1252"')


def test_a_cut_sequence_in_a_declared_cp1252_file_is_what_the_editor_said(tmp_path):
    data = ARTICLE.format("schudden").encode().replace(b"schudden", b"schudden \xc3 nu")
    text, encoding = decode.decode(data, "a.txt", "cp1252")
    assert ("schudden Ã nu" in text, encoding) == (True, "cp1252")


def test_undeclared_cp1252_without_utf8_starts_is_still_detected():
    text, encoding = decode.decode("Café – één € ‘x’".encode("cp1252"), "a.txt")
    assert (text, encoding) == ("Café – één € ‘x’", "cp1252")


# Latin letters that are lead bytes in latin-1 (é ë ï) or not (ö ü), with ASCII: never a UTF-8 sequence.
LATIN = st.text(alphabet="abcdefghij .,\néëïöüÉ", max_size=60)


@settings(max_examples=200, deadline=None)
@given(LATIN)
def test_latin1_text_declared_latin1_reads_back_and_its_utf8_is_refused(text):
    assert decode.decode(text.encode("latin-1"), "a.txt", "latin-1") == (text, "latin-1")
    utf8 = text.encode("utf-8")
    if text.isascii():
        assert decode.decode(utf8, "a.txt", "latin-1") == (text, "latin-1")
    else:
        with pytest.raises(LawbookError) as caught:
            decode.decode(utf8, "a.txt", "latin-1")
        first = next(i for i, c in enumerate(text) if not c.isascii())
        assert caught.value.line == text[:first].count("\n") + 1


# Characters whose UTF-8 starts with c2 or c3 (Latin-1's letters and signs) or is three or four bytes long.
CUTTABLE = st.sampled_from("éëïöüÉàç°§«»\u00a0–—‘’“”€…\U0001f600")


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet="abc XYZ.\n", max_size=30), CUTTABLE, st.text(alphabet="abc XYZ.\néë–", max_size=30),
       st.integers(min_value=0, max_value=1))
def test_a_character_cut_short_is_never_read_as_cp1252(before, char, after, more):
    """UTF-8 with one character cut short is refused at that character's line, wherever it stands. Cut to
    its lead byte alone, a three- or four-byte character is not told from cp1252 ("\xe2" is "â"), so the
    cut keeps one byte of a two-byte character and two or three of a longer one."""
    whole = char.encode("utf-8")
    cut = whole[:1] if len(whole) == 2 else whole[:min(2 + more, len(whole) - 1)]
    data = before.encode() + cut + after.encode()
    with pytest.raises(LawbookError) as caught:
        decode.decode(data, "a.txt")
    assert caught.value.line == before.count("\n") + 1


# -- 2. bounded inputs ----------------------------------------------------------------------------
@pytest.fixture
def fifo(tmp_path):
    path = tmp_path / "corpus.json"
    os.mkfifo(path)
    return path


def test_align_refuses_a_fifo_without_waiting(fifo):
    done = run_lawbook("align", fifo, GOLDEN_CORPUS, timeout=60)
    assert_refused(done, str(fifo), "this is a named pipe (FIFO), not a regular file: a corpus.json is read only "
                                    "from a regular file", "give a build folder, or the corpus.json")


def test_align_refuses_a_build_folder_whose_corpus_is_a_fifo(fifo):
    done = run_lawbook("align", GOLDEN_CORPUS, fifo.parent, timeout=60)
    assert_refused(done, str(fifo), "this is a named pipe (FIFO)", "give a build folder")


def test_build_refuses_a_fifo_reference_without_waiting(tmp_path, fifo, sources_copy):
    done = run_lawbook("build", "--no-pdf", "--sources", sources_copy, "--out", tmp_path / "out",
                       "--reference", fifo, timeout=120)
    assert_refused(done, str(fifo), "this is a named pipe (FIFO), not a regular file",
                   "give --reference the build folder of the original")
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize("command", ["align", "build"])
def test_a_device_is_never_read(tmp_path, command, sources_copy):
    args = (["align", GOLDEN_CORPUS, "/dev/zero"] if command == "align" else
            ["build", "--no-pdf", "--sources", sources_copy, "--out", tmp_path / "out", "--reference", "/dev/zero"])
    done = run_lawbook(*args, timeout=120)
    assert_refused(done, "/dev/zero", "this is a character device, not a regular file", "give")


def test_a_link_the_user_gives_is_followed_to_a_regular_file_only(tmp_path):
    good, bad = tmp_path / "good.json", tmp_path / "bad.json"
    good.symlink_to(GOLDEN_CORPUS)
    bad.symlink_to("/dev/zero")
    assert run_lawbook("align", good, GOLDEN_CORPUS).returncode == 0
    assert_refused(run_lawbook("align", bad, GOLDEN_CORPUS, timeout=60), str(bad), "this is a character device",
                   "give a build folder")


def test_a_corpus_past_the_limit_of_one_source_is_refused(tmp_path, monkeypatch):
    monkeypatch.setattr(decode, "MAX_SOURCE_BYTES", 1000)
    with pytest.raises(LawbookError) as caught:
        reference.read_corpus(GOLDEN_CORPUS)
    assert caught.value.file == str(GOLDEN_CORPUS)
    assert caught.value.message == (f"the file is {GOLDEN_CORPUS.stat().st_size} bytes, over the limit of 1000 bytes "
                                    "for a corpus.json (the limit of one source)")


def test_json_nested_past_the_limit_is_one_message(tmp_path):
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100_000 + "]" * 100_000, encoding="utf-8")
    done = run_lawbook("align", GOLDEN_CORPUS, deep)
    assert_refused(done, f"{deep}:1", f"JSON nested more than {reference.MAX_JSON_DEPTH} deep: not a corpus",
                   "give a build folder")


def test_the_depth_counts_brackets_outside_strings_only(tmp_path):
    reference.check_depth(json.dumps({"text": "[" * 500, "more": [[["]]]]"]]]}), "x.json")
    with pytest.raises(LawbookError) as caught:
        reference.check_depth('{"a":\n' + "[" * (reference.MAX_JSON_DEPTH) + "]" * reference.MAX_JSON_DEPTH + "}",
                              "x.json")
    assert caught.value.line == 2


# -- 3. numbering past Z --------------------------------------------------------------------------
def numbered_article(count):
    """Article 9 with `count` numbered sections "N. Kop N" and a line of text each."""
    lines = ["ARTIKEL 9", "", "Artikel 9", "", "Titel van het artikel", ""]
    for n in range(1, count + 1):
        lines += [f"{n}. Kop nummer {n}", f"Tekst van deel {n}.", ""]
    return "\n".join(lines)


def test_an_article_of_26_sections_ends_at_z(tmp_path):
    folder = one_source(tmp_path, numbered_article(26).encode())
    done = build(tmp_path, folder)
    assert done.returncode == 0, done.stderr
    corpus = json.loads((tmp_path / "out" / "corpus.json").read_text("utf-8"))
    sections = [s["id"] for s in corpus["editions"][0]["articles"][0]["content"] if s.get("type") == "section"]
    assert sections[-1] == "2017/9Z" and len(sections) == 26


def test_section_27_is_refused_by_its_line(tmp_path):
    folder = one_source(tmp_path, numbered_article(27).encode())
    done = build(tmp_path, folder)
    line = 6 + 26 * 3 + 1  # the line "27. Kop nummer 27"
    assert done.returncode == 1
    assert "Traceback" not in done.stderr and "internal error" not in done.stderr
    assert done.stderr.splitlines()[0] == (f"lawbook: error: a.txt:{line}: section number 27 cannot be written as an "
                                           "ID: a section is numbered A to Z (26 at most); split the list or number "
                                           "it as the book does")


@pytest.mark.parametrize("n, level, expected", [(1, "section", "A"), (26, "section", "Z"), (26, "item", "z"),
                                                (39, "subitem", "xxxix")])
def test_letter_for_within_its_level(n, level, expected):
    assert ids.letter_for(n, level) == expected


@pytest.mark.parametrize("n, level", [(27, "section"), (0, "section"), (27, "item"), (40, "subitem")])
def test_letter_for_past_its_level(n, level):
    with pytest.raises(ids.NumberPastLetters):
        ids.letter_for(n, level)


# -- 4. text shown on a terminal ------------------------------------------------------------------
def test_align_escapes_control_characters_of_names_and_sources(tmp_path):
    data = json.loads(GOLDEN_CORPUS.read_text("utf-8"))
    data["editions"][0]["articles"][0]["sources"][0]["file"] = "x\x1b]0;owned\x07\x1b[2J.txt"
    folder = tmp_path / "evil\x1b[31m"
    folder.mkdir()
    (folder / "corpus.json").write_text(json.dumps(data), encoding="utf-8")
    done = run_lawbook("align", folder / "corpus.json", GOLDEN_CORPUS)
    assert "\x1b" not in done.stdout and "\x07" not in done.stdout
    assert "evil\\x1b[31m/corpus.json against" in done.stdout
    assert "x\\x1b]0;owned\\x07\\x1b[2J.txt:4: 2007/24" in done.stdout


def test_shown_safely_keeps_text_and_escapes_controls():
    assert align.shown_safely("één\tx\u202ey\u2028z\x9b") == "één\\x09x\\u202ey\\u2028z\\x9b"


# -- 5. writing -----------------------------------------------------------------------------------
def test_a_full_disk_names_the_file_being_written(tmp_path, monkeypatch, capsys, sources_copy):
    monkeypatch.setenv("LAWBOOK_NO_FORK", "1")
    real = Path.write_text

    def full_disk(self, *args, **kwargs):
        if self.suffix == ".md":
            open(self, "w").close()  # opened, then the first write finds no room
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        return real(self, *args, **kwargs)

    monkeypatch.setattr(Path, "write_text", full_disk)
    status = cli.main(["build", "--no-pdf", "--sources", str(sources_copy), "--out", str(tmp_path / "out")])
    err = capsys.readouterr().err
    assert status == 2
    assert re.match(rf"lawbook: error: {re.escape(str(tmp_path / 'out'))}\.tmp-[^/]+/[^:]+\.md: no space left on the "
                    r"device while this file was written\n  fix: free space on that disk", err), err
    assert not (tmp_path / "out").exists()


def test_the_file_size_limit_names_the_file_being_written(tmp_path, sources_copy):
    # The real limit (ulimit -f) in a child; SIGXFSZ ignored, as Python does, so the write fails with EFBIG.
    code = ("import resource, signal, sys; resource.setrlimit(resource.RLIMIT_FSIZE, (20000, 20000)); "
            "signal.signal(signal.SIGXFSZ, signal.SIG_IGN); from pipeline import cli; "
            f"sys.exit(cli.main(['build', '--no-pdf', '--sources', {str(sources_copy)!r}, "
            f"'--out', {str(tmp_path / 'out')!r}]))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300,
                          env=dict(os.environ, PYTHONPATH=str(ROOT)), cwd=tmp_path)
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr and "templates/pdf" not in done.stderr
    assert re.match(rf"lawbook: error: {re.escape(str(tmp_path / 'out'))}\.tmp-\S+: the file grew past the largest "
                    r"file this process may write \(the file-size limit, `ulimit -f`", done.stderr), done.stderr
    assert "fix: raise the limit (`ulimit -f unlimited`)" in done.stderr


def test_a_pdf_that_finds_no_room_is_not_blamed_on_the_templates():
    answer = json.dumps({"kind": "OSError", "errno": errno.EFBIG, "path": "/b/pdf/book.pdf",
                         "message": "[Errno 27] File too large"}).encode()
    error = compiling._compile_failure(2, answer, "2017")
    assert (error.file, error.status) == ("/b/pdf/book.pdf", 2)
    assert error.message.startswith("the file grew past the largest file this process may write")


# -- the bounds of one edition (corpus/bounds.py) ------------------------------------------------------
def tiny_articles(tmp_path, count: int, first: str = "") -> Path:
    """One wiki source of `count` articles of one sentence each (47 bytes an article), after `first`."""
    folder = tmp_path / "src"
    folder.mkdir()
    (folder / "boek.txt").write_text(first + "".join(f"Artikel {n}\n\nDe speler wacht op zijn beurt.\n\n"
                                                     for n in range(1, count + 1)), encoding="utf-8")
    (folder / "sources.toml").write_text('[[source]]\nfile = "boek.txt"\nedition = "2017"\n', encoding="utf-8")
    return folder


def test_an_edition_of_more_articles_than_the_bound_is_refused_at_the_heading_past_it(tmp_path):
    from pipeline.corpus import bounds

    assert bounds.MAX_ARTICLES == 20_000  # 215 times the Laws' 93; the largest fuzz build has 15,258
    folder = tiny_articles(tmp_path, bounds.MAX_ARTICLES + 5)
    result = run_lawbook("build", "--no-pdf", "--sources", folder, "--out", tmp_path / "out")
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr == (
        f"lawbook: error: {folder / 'boek.txt'}:80001: edition 2017 has more than 20,000 articles, the limit for one "
        "edition: article 20001 here is one too many\n  fix: check the sources: no book has that many (the Laws "
        "have 93 articles), so they are not a book's law text (a generated or damaged export?); a book that really "
        "has more is built in parts, each from a sources folder of its own\n")
    assert not (tmp_path / "out").exists()


def test_an_article_shown_twice_counts_once(tmp_path, monkeypatch):
    from pipeline.corpus import bounds, stages

    monkeypatch.setattr(bounds, "MAX_ARTICLES", 3)
    folder = tiny_articles(tmp_path, 3, first="Artikel 2\n\nDe speler wacht op zijn beurt.\n\n")
    assert len(stages.make_corpus(folder).corpus.findall("edition/article")) == 3


def test_an_edition_of_more_nodes_than_the_bound_is_refused_at_the_node_past_it(tmp_path, monkeypatch):
    from pipeline.corpus import bounds, stages

    assert bounds.MAX_NODES == 100_000
    monkeypatch.setattr(bounds, "MAX_NODES", 50)
    folder = tiny_articles(tmp_path, 0, first="Artikel 7A\n\nDe lijst.\n\n" + "".join(f"{n}. Punt.\n" for n in
                                                                                       range(1, 61)))
    with pytest.raises(LawbookError) as caught:
        stages.make_corpus(folder)
    assert (caught.value.file, caught.value.line, caught.value.status) == (str(folder / "boek.txt"), 53, 2)
    assert caught.value.message == ("edition 2017 has more than 50 nodes (articles, sections, subsections, items "
                                    "and sub-items), the limit for one edition: 7A49 here is one too many")


def test_a_list_of_10000_subsections_builds_in_number_order(tmp_path):
    """The structure stage's checks of a node's siblings and its search for confirming citations are made
    once per showing, not once per node: this list took 334 s; now a second."""
    from pipeline.corpus import stages

    folder = tiny_articles(tmp_path, 0, first="Artikel 7A\n\nDe lijst, zie A9999 hieronder.\n\n" +
                           "".join(f"{n}. Punt.\n" for n in range(1, 10_001)))
    corpus = stages.make_corpus(folder).corpus
    nums = [el.get("num") for el in corpus.iter("subsection")]
    assert nums == [str(n) for n in range(1, 10_001)]
    assert corpus.xpath("//subsection[@num='9999']")[0].get("evidence") == (
        "subsection 9999 of 2017/7A inferred from list number 9999.; confirmed by 'zie A9999 hieronder' (boek.txt:3)")


def test_bytes_shaped_like_utf8_that_are_not_utf8_say_nothing_of_a_declared_encoding():
    """f4 90 80 80 has the shape of a four-byte UTF-8 sequence but stands for no character (past U+10FFFF): in a
    file declared cp1252 it is no sign of UTF-8 (found by `make fuzz`: it was an internal error)."""
    with pytest.raises(LawbookError) as caught:
        decode.decode(b"\xf4\x90\x80\x80", "f.txt", "cp1252")
    assert (caught.value.line, caught.value.message) == (1, "the file is not cp1252: byte 0x90 cannot be decoded")
    assert decode.decode(b"Caf\xe9 \xf4\x90\x80\x80", "f.txt", "latin-1") == ("Café ô\x90\x80\x80", "latin-1")
