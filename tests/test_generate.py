"""The book generator: its sources parse, without errors, into the corpus it says it wrote."""
import collections
import re

import pytest

from pipeline.publish import run as build
from pipeline.core import tree
from pipeline.bench import generate


def test_same_seed_same_bytes(tmp_path):
    a, b = tmp_path / "a", tmp_path / "b"
    generate.generate(a, articles=8, editions=2, seed=5)
    generate.generate(b, articles=8, editions=2, seed=5)
    files = sorted(p.name for p in a.iterdir())
    assert files == sorted(p.name for p in b.iterdir())
    assert all((a / f).read_bytes() == (b / f).read_bytes() for f in files)
    generate.generate(b, articles=8, editions=2, seed=6)
    assert sorted(p.name for p in b.iterdir()) != files


def test_all_three_formats_are_written_and_detected(generated_book):
    folder, ctx = generated_book.sources, generated_book.ctx
    assert {s["format"] for s in ctx.log.sources} == {"wiki", "template", "print"}
    texts = [p.read_text(encoding="utf-8") for p in folder.glob("*.txt")]
    assert any(re.search(r"^\d+\) ", t, re.M) for t in texts)  # numbered footnotes
    assert any(re.search(r"[a-z]-$", t, re.M) for t in texts)  # line-end hyphens
    assert any("(Noot: " in t for t in texts) and any(" Noot: (" in t for t in texts)


def test_corpus_has_the_counts_the_generator_reports(generated_book):
    counts, ctx = generated_book.counts, generated_book.ctx
    assert ctx.log.errors == []
    for edition in ctx.corpus.iterchildren("edition"):
        expected = counts[edition.get("id")]
        found = collections.Counter(el.tag for el in edition.iter())
        for tag, key in (("article", "articles"), ("section", "sections"), ("subsection", "subsections"),
                         ("item", "items"), ("note", "notes"), ("commentary", "commentary")):
            assert found[tag] == expected[key], (edition.get("id"), tag)
        law = [p for p in edition.iter("p") if all(a.tag != "commentary" for a in p.iterancestors())]
        text = " ".join(tree.plain_text(p) for p in law)
        cites = [c for m in generate.CITATION.finditer(text) for c in m.groups() if c]
        assert len(cites) == expected["citations"]
        assert expected["dangling"] > 0


def test_refuses_a_folder_with_other_files(tmp_path):
    (tmp_path / "notes.md").write_text("mine")
    with pytest.raises(ValueError):
        generate.generate(tmp_path, articles=3)


def test_the_benchmarks_book_reads_without_errors(tmp_path):
    """`make bench` times the generated book of 93 articles in two editions: it must read as a book (its
    print pages once lost their page numbers to footnotes that repeat a text, and the bench timed a
    failing build)."""
    folder = tmp_path / "src"
    generate.generate(folder, articles=93, editions=2)
    ctx = build.make_corpus(folder, {"cache_dir": str(tmp_path / "cache")})
    assert [(e.file, e.line, e.message) for e in ctx.log.errors] == []
    assert sum(1 for _ in ctx.corpus.iter("article")) == 186
