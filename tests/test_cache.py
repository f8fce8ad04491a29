"""Incremental builds: a rebuild takes from earlier builds only what a full build would make.

Counts and bytes only, never times.
"""
import pytest

from pipeline import build, cache, serialise
from pipeline.bench import generate


@pytest.fixture()
def book(tmp_path):
    src = tmp_path / "src"
    generate.generate(src, articles=6, editions=2, seed=2)
    return src, tmp_path / "build", {"cache_dir": str(tmp_path / "cache")}


def corpus_stages(src, options):
    return build.make_corpus(src, options)


def test_second_reading_comes_from_the_cache_and_gives_the_same_corpus(book):
    src, _, options = book
    first = corpus_stages(src, options)
    second = corpus_stages(src, options)
    n = len(first.sources)
    assert len(first.cache.misses) == n and first.cache.hits == []
    assert len(second.cache.hits) == n and second.cache.misses == []
    assert serialise.to_xml(second.corpus) == serialise.to_xml(first.corpus)
    assert second.log.to_json() == first.log.to_json()


def test_a_changed_source_is_the_only_one_read_again(book):
    src, _, options = book
    corpus_stages(src, options)
    changed = sorted(src.glob("*.txt"))[-1]
    changed.write_text(changed.read_text(encoding="utf-8").replace("de leider", "de Leider", 1), encoding="utf-8")
    again = corpus_stages(src, options)
    assert again.cache.misses == [changed.name]
    fresh = corpus_stages(src, dict(options, force=True))
    assert len(fresh.cache.misses) == len(fresh.sources)
    assert serialise.to_xml(again.corpus) == serialise.to_xml(fresh.corpus)
    assert again.log.to_json() == fresh.log.to_json()


def test_a_cached_print_reading_is_dropped_when_the_vocabulary_answers_differently():
    words = {"voorgespeelde"}
    asked = cache.RecordingVocabulary(words)
    assert "voorge-speelde" not in asked and "voorgespeelde" in asked
    entry = cache.Entry(reading=None, words=set(), asked=asked.asked)
    assert entry.holds_for({"voorgespeelde", "kaart"})
    assert not entry.holds_for({"voorgespeelde", "voorge-speelde"})


def test_no_op_rebuild_is_up_to_date_and_a_change_is_not(book, monkeypatch):
    src, out, options = book
    monkeypatch.setattr(build, "OUTPUT_STAGES", [build.write_corpus, build.write_report, build.write_stamp])
    build.build(src, out, options)
    before = {p: p.stat().st_mtime_ns for p in out.rglob("*")}
    assert build.up_to_date(src, out, options)
    assert not build.up_to_date(src, out, dict(options, force=True))
    assert {p: p.stat().st_mtime_ns for p in out.rglob("*")} == before  # the check writes nothing
    changed = sorted(src.glob("*.txt"))[0]
    changed.write_bytes(changed.read_bytes() + b"\n")
    assert not build.up_to_date(src, out, options)


def test_an_unchanged_edition_reuses_its_previous_output(book, monkeypatch):
    src, out, options = book
    rendered = []

    def write_per_edition(ctx):
        for edition in ("2007", "2017"):
            if build.reuse_edition(ctx, edition, [f"{edition}/page.txt"]):
                continue
            rendered.append(edition)
            (ctx.tmp / edition).mkdir()
            (ctx.tmp / edition / "page.txt").write_text(edition)

    write_per_edition.__name__ = "write_per_edition"
    monkeypatch.setattr(build, "OUTPUT_STAGES", [build.write_corpus, write_per_edition, build.write_stamp])
    build.build(src, out, options)
    assert rendered == ["2007", "2017"]
    # Change a 2017 source only: 2007 is copied, 2017 rendered again.
    manifest = build.manifest.load_manifest(src)
    name = next(s.name for s in manifest if s.edition == "2017")
    path = src / name
    path.write_text(path.read_text(encoding="utf-8").replace("de leider", "de Leider", 1), encoding="utf-8")
    rendered.clear()
    build.build(src, out, options)
    assert rendered == ["2017"]
    assert (out / "2007" / "page.txt").read_text() == "2007"
    rendered.clear()
    build.build(src, out, dict(options, force=True))
    assert rendered == ["2007", "2017"]



def test_an_option_or_a_fixed_date_changes_every_digest(book, monkeypatch):
    """--no-commentary and SOURCE_DATE_EPOCH change the outputs, so no rebuild may reuse across them."""
    src, _, options = book
    monkeypatch.delenv("SOURCE_DATE_EPOCH", raising=False)
    plain = build.edition_digest(corpus_stages(src, options), "2017")
    no_commentary = dict(options, no_commentary=True)
    assert build.edition_digest(corpus_stages(src, no_commentary), "2017") != plain
    before = cache.input_digest(src, options)
    assert cache.input_digest(src, no_commentary) != before
    assert cache.input_digest(src, dict(options, debug=True, force=True)) == before
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1500000000")
    assert cache.input_digest(src, options) != before
    assert build.edition_digest(corpus_stages(src, options), "2017") != plain
