"""Property-based and fuzz tests: random and damaged sources never crash a stage.

Each example takes the real sources and damages one or more of them the way exports and
hand edits do (lines cut, shuffled, duplicated, characters replaced, a file cut off, the
encoding switched, source-like lines inserted). The result is a corpus or a LawbookError that
names a file; never any other exception. On every corpus: the same input gives byte-identical
output, IDs are unique, every reference target is a well-formed ID, every note is anchored,
and both serialisations validate against their schemas. The reference parser gets any run of
the words citations are made of, in any case; the PDF's text check any text.

Profiles: by default short, seeded and bounded (derandomize, at most a few hundred examples
in all, well under a minute); LAWBOOK_FUZZ=long (`make fuzz`) runs many more random examples
and the size tests at full size (a 50 MB source, 5,000 sources).
"""
import os
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from pipeline.publish import run as build_mod
from pipeline.outputs import glyphs
from pipeline.core import ids
from pipeline.reading import manifest, decode as read
from pipeline.corpus import corrections, refs
from pipeline.outputs import serialise
from pipeline.core.errors import LawbookError
from pipeline.core import lang

from conftest import ROOT, SOURCES

LONG = os.environ.get("LAWBOOK_FUZZ") == "long"
HEALTH = [HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.function_scoped_fixture]
if LONG:
    FUZZ = settings(max_examples=3000, deadline=None, suppress_health_check=HEALTH, derandomize=False)
    QUICK = settings(max_examples=20000, deadline=None, suppress_health_check=HEALTH, derandomize=False)
    PHRASES = settings(max_examples=3000, deadline=None, suppress_health_check=HEALTH, derandomize=False)
else:
    FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=HEALTH, derandomize=True,
                    database=None, print_blob=True)
    QUICK = settings(max_examples=300, deadline=None, suppress_health_check=HEALTH, derandomize=True,
                     database=None, print_blob=True)
    PHRASES = QUICK

ORIGINAL = {p.name: p.read_bytes() for p in SOURCES.iterdir() if p.is_file()}
SOURCE_FILES = sorted(n for n in ORIGINAL if n != manifest.MANIFEST)

# Characters an export or a hostile editor brings: markup, note and list syntax, page breaks,
# controls, the note-marker character, non-ASCII letters and other line endings.
NASTY = list("<>&{}#$()[]*_\\/;:.,-") + ["Noot:", "(Noot: ", ")", " 1)", "\n1\n", "\x0c", "\t", "\x1b", "\ue000",
                                          "\u00e9", "\u00a0", "\u00ad", "\r", "\r\n", "\u202e", "\ufffd"]
# Lines in the shapes the readers look for, to shake the structure stage.
SHAPES = ["Artikel 12", "Artikel 50D", "Artikel 47E1", "ARTIKEL 7", "ARTIKEL 41 Titel", "A. Kop", "E1. Kop",
          "1. Tekst", "   2. ingesprongen", "1. 1. Dubbel", "1) noot zonder marker", "44", "2",
          "* Deze opmerking op persoonlijke titel is voor verantwoording van Jan.", "Sjabloon:2017:9",
          "tekst (Noot: open", "Noot: (scheef) tekst", "ge-", "volg", "artikel artikel 63A1", "",
          "(maar zie b)", "zie c2 hierboven", "volgens (A) en zie C2A", "Zie E1A hieronder"]
# Words a citation is made of, in any case, for the reference parser on its own.
CITING = ["zie", "Zie", "ZIE", "volgens", "artikel", "Artikel", "art.", "artikelen", "hierboven", "hieronder",
          "t/m", "en", "of", ",", "(", ")", "b", "B", "c2", "C2", "C2A", "e1a", "(a)", "(A)", "u", "o.a.", "12",
          "50D2(a)", "47 E2", "ook", "echter", "de", "\u00a0", "A", "E"]


@st.composite
def damaged_text(draw, text):
    """`text` with a few of the damages that exports and hand edits do."""
    lines = text.split("\n")
    for _ in range(draw(st.integers(1, 4))):
        kind = draw(st.sampled_from(["cut", "shuffle", "duplicate", "replace", "insert", "truncate", "drop"]))
        if not lines:
            break
        i = draw(st.integers(0, len(lines) - 1))
        if kind == "cut":
            j = draw(st.integers(i, len(lines)))
            del lines[i:j]
        elif kind == "shuffle":
            j = draw(st.integers(i, min(len(lines), i + 8)))
            part = lines[i:j]
            lines[i:j] = draw(st.permutations(part)) if part else part
        elif kind == "duplicate":
            j = draw(st.integers(i, min(len(lines), i + 6)))
            lines[j:j] = lines[i:j]
        elif kind == "replace":
            line = lines[i]
            k = draw(st.integers(0, len(line)))
            lines[i] = line[:k] + draw(st.sampled_from(NASTY)) + line[k + draw(st.integers(0, 3)):]
        elif kind == "insert":
            lines.insert(i, draw(st.sampled_from(SHAPES)))
        elif kind == "truncate":
            lines = lines[:i] + [lines[i][:draw(st.integers(0, len(lines[i])))]]
        elif kind == "drop":
            lines[i] = ""
    return "\n".join(lines)


@st.composite
def damaged_sources(draw):
    """{file name: bytes} and manifest additions: the real sources with one to three of them damaged."""
    files = dict(ORIGINAL)
    declared = {}
    for name in draw(st.lists(st.sampled_from(SOURCE_FILES), min_size=1, max_size=3, unique=True)):
        text = draw(damaged_text(ORIGINAL[name].decode("utf-8")))
        encoding = draw(st.sampled_from(["utf-8", "utf-8", "utf-8-sig", "utf-16", "cp1252", "latin-1"]))
        data = text.encode(encoding, errors="replace")
        if draw(st.booleans()) and data:
            data = data[:draw(st.integers(0, len(data)))]  # cut off anywhere, even inside a character
        if encoding in ("latin-1",) and draw(st.booleans()):
            declared[name] = encoding
        files[name] = data
    return files, declared


def write_sources(folder, files, declared):
    folder.mkdir()
    for name, data in files.items():
        if name != manifest.MANIFEST:
            (folder / name).write_bytes(data)
    text = files[manifest.MANIFEST].decode("utf-8")
    for name, encoding in declared.items():
        text = text.replace(f'file = "{name}"\n', f'file = "{name}"\nencoding = "{encoding}"\n')
    (folder / manifest.MANIFEST).write_text(text, encoding="utf-8")


def corpus_outputs(folder):
    """The corpus stages and both serialisations: (xml bytes, json text, report json, ctx, json data).
    Any cache the stages keep goes beside `folder`, never into the working folder."""
    ctx = build_mod.make_corpus(folder, {"cache_dir": str(folder.parent / "cache")})
    data = serialise.to_json(ctx.corpus)
    return serialise.to_xml(ctx.corpus), serialise.dump_json(data), ctx.log.to_json(), ctx, data


def check_invariants(ctx, data):
    corpus = ctx.corpus
    assert serialise.validate_xml(corpus) == []
    assert serialise.validate_json(data) == []
    all_ids = [el.get("id") for el in corpus.iter() if el.get("id") and el.tag != "edition"]
    assert len(all_ids) == len(set(all_ids)), "duplicate IDs"
    for el in corpus.iter(*ids.LEVELS):
        assert ids.is_well_formed(el.get("id")), el.get("id")
    for ref in corpus.iter("ref"):
        for target in (ref.get("to") or "").split():
            assert ids.is_well_formed(target), target
    for note in corpus.iter("note"):
        holder = note.getparent()
        node = holder.getparent()
        assert holder.tag in ("p", "heading", "title") or holder.tag == "ref", holder.tag
        assert note.get("id", "").startswith((node.get("id") or "") + "/noot") or node.tag == "commentary", \
            (note.get("id"), node.get("id"))
    for error in ctx.log.errors:
        # A source's line, or the entry of a correction that the damaged sources no longer fit.
        assert error.file in ctx.lines or error.file == corrections.FILE, error
        assert error.line is None or error.line >= 1, error


def assert_clear(error):
    assert isinstance(error, LawbookError)
    assert error.message and error.fix and error.status in (1, 2)
    assert error.file, error.message


@FUZZ
@given(damaged_sources())
def test_damaged_sources_give_a_corpus_or_a_clear_error(case):
    files, declared = case
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "sources"
        write_sources(folder, files, declared)
        try:
            first = corpus_outputs(folder)
        except LawbookError as error:
            assert_clear(error)
            return
        check_invariants(first[3], first[4])
        second = corpus_outputs(folder)
        assert first[0] == second[0], "corpus.xml differs between two builds of the same sources"
        assert first[1] == second[1], "corpus.json differs between two builds of the same sources"
        assert first[2] == second[2], "the report differs between two builds of the same sources"


@QUICK
@given(st.binary(max_size=2000), st.sampled_from([None, "utf-8", "cp1252", "latin-1", "utf-16"]))
def test_any_bytes_decode_or_give_a_clear_error(data, declared):
    try:
        text, encoding = read.decode(data, "f.txt", declared)
    except LawbookError as error:
        assert_clear(error)
        assert error.status == 2 and error.file == "f.txt"
        return
    assert isinstance(text, str) and encoding


@QUICK
@given(st.text(max_size=400))
def test_any_text_reads_or_gives_a_clear_error(text):
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "f.txt"
        path.write_bytes(text.encode("utf-8", errors="surrogatepass"))
        source = manifest.Source(path=path, edition="2017", language="nl")
        try:
            lines = read.read_lines(source)
        except LawbookError as error:
            assert_clear(error)
            return
        assert [line.num for line in lines] == list(range(1, len(lines) + 1))
        assert not any(read.REFUSED.search(line.text) or read.PAGE_BREAK.search(line.text) for line in lines)


@PHRASES
@given(st.lists(st.sampled_from(CITING), max_size=12), st.sampled_from(["2017/53A", "2017/16C3", "2007/41",
                                                                        "2017/50D2a", "2017/47E1b"]))
def test_any_citing_words_parse_and_resolve(words, node):
    """Any run of the words citations are made of, in any case, gives citations or none: never an error."""
    phrase = " ".join(words)
    citations = refs.find_citations(phrase, lang.profile("nl"))
    for c, r in zip(citations, refs.resolve_phrase(phrase, citations, node[:4], node, set(), {}, {}, lang.profile("nl"))):
        assert 0 <= c.start < c.end <= len(phrase)
        assert r.reason or all(ids.is_well_formed(t) for t in r.targets), (phrase, r)


@PHRASES
@given(st.lists(st.sampled_from(list("ab(B) 1\n_é,") + ["artikel", "B)", "(a)", "  "]), max_size=40).map("".join),
       st.lists(st.lists(st.sampled_from(list("ab(B) 1é") + ["artikel", "(a)"]), max_size=6).map("".join),
                max_size=4))
def test_finding_all_wordings_at_once_matches_a_search_per_wording(text, wordings):
    """refs.find_many_wordings gives for each wording what a search of the whole text for it gives."""
    found = refs.find_many_wordings(text, set(wordings))
    for wording in wordings:
        pattern = r"(?<!\w)" + r"\s+".join(map(re.escape, wording.split())) + r"(?!\w)"
        assert found[wording] == [m.start() for m in re.finditer(pattern, text)], wording


@PHRASES
@given(st.text(max_size=300))
def test_any_text_is_printable_or_named(text):
    """The PDF check names every place it objects to by an offset into the text, with a fix."""
    for offset, message, fix in glyphs.problems(text):
        assert 0 <= offset < len(text) and message and fix


def test_a_full_build_is_byte_identical(sources_copy, tmp_path):
    """Same sources, two builds: the corpus and the report are the same bytes."""
    first, second = tmp_path / "a", tmp_path / "b"
    build_mod.build(sources_copy, first, {"force": True})
    build_mod.build(sources_copy, second, {"force": True})
    for name in ("corpus.xml", "corpus.json", "report.json", "report.txt"):
        assert (first / name).read_bytes() == (second / name).read_bytes(), name


# -- size ---------------------------------------------------------------------------

def article(n):
    """One article of generated wiki text, about 640 bytes, numbered n."""
    return (f"Artikel {n}\n\nAccepteren van voor de beurt voorspelen\n\n"
            "1. Voor de beurt voorspelen behandeld als juist voorgespeeld\n"
            "Behalve in de dertiende slag (Noot: Een voor de beurt voorgespeelde kaart moet teruggenomen worden.) "
            f"kan elke voor de beurt voorgespeelde kaart als juist voorgespeeld worden behandeld (zie artikel {n}B). "
            "Dit is het geval als de leider dit accepteert (maar zie B).\n\n"
            "2. Juist voorspelen volgend op onregelmatig voorspelen\n"
            "Als een speler aan de beurt is om voor te spelen, mag hij een kaart voorspelen. "
            "Artikel 16C is van toepassing.\n\n")


def generate(folder, files, bytes_per_file):
    """`files` wiki sources of about `bytes_per_file` each, articles numbered on from 1, and a manifest."""
    folder.mkdir(parents=True)
    entries, n = [], 1
    for i in range(files):
        parts, size = ["ARTIKEL 1\n\n"], 0
        while size < bytes_per_file:
            parts.append(article(n))
            size += len(parts[-1])
            n += 1
        name = f"bron-{i:05d}.txt"
        (folder / name).write_text("".join(parts), encoding="utf-8")
        entries.append(f'[[source]]\nfile = "{name}"\nedition = "2017"\n')
    (folder / manifest.MANIFEST).write_text("\n".join(entries), encoding="utf-8")
    return n - 1


# Runs the build in a fresh process and prints its status, seconds and peak memory (MiB). The
# output stages are limited to corpus and report: the size limits are those of the corpus.
MEASURE = textwrap.dedent("""
    import resource, sys, time
    from pipeline.publish import run as build
    from pipeline import cli
    build.OUTPUTS = build.OUTPUTS.only("write_corpus", "write_report")
    start = time.perf_counter()
    status = cli.main(["build", "--sources", sys.argv[1], "--out", sys.argv[2]] + sys.argv[3:])
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"MEASURED {status} {time.perf_counter() - start:.1f} {peak:.0f}", file=sys.stderr)
""")


def measure_build(sources, out):
    """Build `sources` in a fresh process: (status, seconds, peak MiB, stderr)."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    result = subprocess.run([sys.executable, "-c", MEASURE, str(sources), str(out)], env=env, capture_output=True,
                            text=True, timeout=1800)
    last = result.stderr.strip().splitlines()[-1].split()
    assert last[0] == "MEASURED", result.stderr
    print(f"\n{sources.name}: status {last[1]}, {last[2]} s, peak {last[3]} MiB")
    return int(last[1]), float(last[2]), float(last[3]), result.stderr


def test_a_50_mb_source_is_refused_before_it_is_read(tmp_path):
    folder = tmp_path / "groot"
    folder.mkdir()
    with open(folder / "export.txt", "wb") as f:
        block = article(1).encode("utf-8")
        for _ in range(50 * 1000 * 1000 // len(block) + 1):
            f.write(block)
    (folder / manifest.MANIFEST).write_text('[[source]]\nfile = "export.txt"\nedition = "2017"\n', encoding="utf-8")
    status, seconds, peak, err = measure_build(folder, tmp_path / "out")
    assert status == 2
    assert f"lawbook: error: {folder / 'export.txt'}: the file is 47.7 MiB, over the limit of 8 MiB" in err
    assert "split the source into several files" in err
    (folder / manifest.MANIFEST).unlink()
    _, _, baseline, _ = measure_build(folder, tmp_path / "out")  # refused at once: no manifest
    assert peak < baseline + 20, "the refused file was read into memory"


@pytest.mark.skipif(not LONG, reason="full size only in `make fuzz` (LAWBOOK_FUZZ=long)")
def test_a_source_at_the_size_limit_builds(tmp_path):
    folder = tmp_path / "grens"
    generate(folder, 1, read.MAX_SOURCE_BYTES - 4096)
    status, seconds, peak, err = measure_build(folder, tmp_path / "out")
    assert status == 0, err
    assert peak < 1024


@pytest.mark.parametrize("count", [5000] if LONG else [1000])
def test_many_small_sources_build(tmp_path, count):
    folder = tmp_path / f"bronnen-{count}"
    articles = generate(folder, count, 600)
    status, seconds, peak, err = measure_build(folder, tmp_path / "out")
    assert status == 0, err
    corpus = serialise.parse_xml((tmp_path / "out" / "corpus.xml").read_bytes())
    assert len(corpus.findall("edition/article")) == articles
    assert peak < 1024
