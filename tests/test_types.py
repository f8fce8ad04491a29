"""The types of the package hold: every module of pipeline/ (core/, reading/, corpus/, outputs/, publish/, the
commands, serve and watch mode, the benchmark and the screenshot tools). mypy, with the settings of
pyproject.toml ([tool.mypy]), finds nothing, so a change that breaks an annotation fails here, in `make test`. Also held here:
the reading model's shape is written once (the cache's JSON comes from the dataclasses, core/records.py), and
no function of the pipeline takes a language profile by default."""
import ast
import json
import subprocess
import sys
from dataclasses import dataclass, field, fields
from types import SimpleNamespace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import ROOT
from pipeline.core import records
from pipeline.core.model import Block, Dropped, Gap, Note, Reading
from pipeline.corpus import stages
from pipeline.publish import cache
from pipeline.reading import manifest


def test_mypy_finds_no_error_in_the_typed_packages(tmp_path):
    pytest.importorskip("mypy", reason="mypy is not installed: `make venv` installs the test extra, which has it")
    # The cache in a folder of the test's own: nothing is written into the repository.
    run = subprocess.run([sys.executable, "-m", "mypy", "--cache-dir", str(tmp_path / "mypy-cache"),
                          "--config-file", str(ROOT / "pyproject.toml")],
                         cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stdout + run.stderr


# -- the reading model's shape is written once: the cache's JSON comes from the dataclasses -----------------
@dataclass
class RemarkedNote(Note):
    remark: str | None = None  # a made-up field


@dataclass
class WeighedBlock(Block):
    notes: list[RemarkedNote] = field(default_factory=list)
    weight: int = 0  # made-up fields
    corner: tuple[int, str] = (0, "")


@dataclass
class ReviewedReading(Reading):
    blocks: list[WeighedBlock]
    reviewer: str = ""  # a made-up field


def made_up_reading() -> ReviewedReading:
    note = RemarkedNote("Zie ook artikel 9.", [4], "inline", number="2", pieces=[(4, "Zie ook"), (5, "artikel 9.")],
                        remark="twice")
    block = WeighedBlock("para", "De kaarten\ue000 worden geschud.", [3, 4], cite=None, number=2, notes=[note],
                         weight=7, corner=(12, "rechtsboven"))
    return ReviewedReading("a.txt", "wiki", "2017", [block], dropped=[Dropped(1, "page title")],
                           gaps=[Gap(9, "12A", "cut off", reason=None)], reviewer="Anna")


def test_a_record_with_made_up_fields_in_subclasses_round_trips_through_json():
    reading = made_up_reading()
    data = json.loads(json.dumps(records.to_data(reading)))
    records.check_shape(data, records.shape(ReviewedReading))
    back = records.from_data(ReviewedReading, data)
    assert back == reading
    assert back.blocks[0].corner == (12, "rechtsboven") and back.blocks[0].notes[0].pieces[1] == (5, "artikel 9.")
    assert data["blocks"][0]["notes"][0]["remark"] == "twice" and data["reviewer"] == "Anna"
    assert "rules" not in data  # not stored: set from the format when read back


def test_a_made_up_field_of_the_wrong_type_is_named():
    data = json.loads(json.dumps(records.to_data(made_up_reading())))
    data["blocks"][0]["weight"] = "7"
    with pytest.raises(ValueError, match=r"^content\.blocks\[0\]\.weight is a str, not a int$"):
        records.check_shape(data, records.shape(ReviewedReading))
    del data["blocks"][0]["notes"][0]["remark"]
    with pytest.raises(ValueError, match=r"^content\.blocks\[0\]\.notes\[0\] is not an object with the keys text, "):
        records.check_shape(data, records.shape(ReviewedReading))


def test_a_field_that_json_cannot_hold_is_refused_when_its_shape_is_asked():
    @dataclass
    class Odd(Block):
        seen: set[str] = field(default_factory=set)

    with pytest.raises(TypeError, match=r"Odd\.seen: cannot be stored as JSON"):
        records.shape(Odd)


def test_the_cache_stores_every_field_of_the_model_and_reads_it_back():
    """The cache's shape is the model's: every field of Block, Note and Reading (but the format's rules)."""
    shape = cache.content_shape()
    assert set(shape["reading"]) == {f.name for f in fields(Reading)} - {"rules"}
    assert set(shape["reading"]["blocks"][0]) == {f.name for f in fields(Block)}
    assert set(shape["reading"]["blocks"][0]["notes"][0]) == {f.name for f in fields(Note)}
    made = made_up_reading()
    reading = Reading(made.file, made.format, made.edition,
                      [Block(b.kind, b.text, b.lines, b.cite, b.number, notes=[Note(n.text, n.lines, n.form, n.number,
                                                                                    n.pieces) for n in b.notes],
                             pieces=[(3, "De kaarten"), (4, "worden geschud.")]) for b in made.blocks],
                      dropped=made.dropped, gaps=made.gaps)
    source = SimpleNamespace(name="a.txt", edition="2017")
    stored = cache.entry_to_json(stages.Entry(reading, []), "k" * 64)
    back = cache.entry_from_json(stored, "k" * 64, source).reading
    assert back == reading and back.rules is not None and back.blocks[0].pieces[0] == (3, "De kaarten")


# -- the language profile is never a silent default -----------------------------------------------------------
# The places that name the default language, each with why no book's language is there to take instead.
DEFAULT_LANGUAGE_USERS = {
    "pipeline/reading/manifest.py": "the manifest's `language` is optional and documented as nl when left out "
                                    "(docs, the fix of an unknown language): the manifest is the book's word",
    "pipeline/serve.py": "the error page of a site with no build beside it that records a language",
}


def _silent_defaults(source: str) -> list[str]:
    """Where a module gives a `profile` parameter a default, asks lang.profile() for the default language, or
    names the default language (lang.DEFAULT)."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            args = node.args
            positional = args.posonlyargs + args.args
            defaulted = positional[len(positional) - len(args.defaults):] + \
                [a for a, d in zip(args.kwonlyargs, args.kw_defaults) if d is not None]
            found += [f"line {node.lineno}: a default for `profile`" for a in defaulted if a.arg == "profile"]
        elif isinstance(node, ast.Call) and not node.args and not node.keywords and \
                isinstance(node.func, ast.Attribute) and node.func.attr == "profile" and \
                isinstance(node.func.value, ast.Name) and node.func.value.id == "lang":
            found.append(f"line {node.lineno}: lang.profile() without a language")
        elif isinstance(node, ast.Attribute) and node.attr == "DEFAULT" and \
                isinstance(node.value, ast.Name) and node.value.id == "lang":
            found.append(f"line {node.lineno}: the default language")
    return found


def test_the_silent_default_finder_finds_every_form():
    made_up = ("def read(text, profile=None):\n    return lang.profile()\n\n\ndef f(*, profile=NL):\n    pass\n"
               "sign = (0, lambda texts, profile=None: False)\ncode = source.language or lang.DEFAULT\n")
    assert sorted(_silent_defaults(made_up), key=lambda w: int(w.split()[1].rstrip(":"))) == [
        "line 1: a default for `profile`", "line 2: lang.profile() without a language",
        "line 5: a default for `profile`", "line 7: a default for `profile`", "line 8: the default language"]
    assert _silent_defaults("def read(text, profile):\n    return lang.profile(source.language)\n") == []


def test_no_function_of_the_pipeline_falls_back_to_a_language_in_silence():
    found = {str(path.relative_to(ROOT)): where for path in sorted((ROOT / "pipeline").rglob("*.py"))
             if (where := _silent_defaults(path.read_text(encoding="utf-8")))}
    assert set(found) == set(DEFAULT_LANGUAGE_USERS)
    assert all(w.endswith("the default language") for where in found.values() for w in where)


def test_the_corpus_context_knows_no_language_before_its_manifest_is_read(tmp_path):
    ctx = stages.CorpusContext(tmp_path)
    with pytest.raises(ValueError, match="the book's language is not known yet"):
        ctx.profile
    (tmp_path / "sources.toml").write_text('language = "en"\n[[source]]\nfile = "a.txt"\nedition = "2017"\n',
                                           encoding="utf-8")
    (tmp_path / "a.txt").write_text("Law 1\n", encoding="utf-8")
    stages.load_sources(ctx)
    assert ctx.profile.code == "en" and ctx.sources[0].language == "en"
    with pytest.raises(TypeError, match="language"):
        manifest.Source(path=tmp_path / "a.txt", edition="2017")  # noqa  (a source names its book's language)


# Any block a reader can make, with its notes: stored and read back, it is the same block.
_text = st.text(st.characters(blacklist_categories=("Cs",)), max_size=20)
_lines = st.lists(st.integers(min_value=1, max_value=10_000), max_size=4)
_pieces = st.lists(st.tuples(st.integers(min_value=1, max_value=10_000), _text), max_size=3)
_notes = st.builds(Note, text=_text, lines=_lines, form=st.sampled_from(["inline", "malformed", "numbered", "print"]),
                   number=st.none() | st.from_regex(r"[1-9][0-9]?", fullmatch=True), pieces=_pieces)
_blocks = st.builds(Block, kind=st.sampled_from(["article", "heading", "para", "list"]), text=_text, lines=_lines,
                    cite=st.none() | _text, number=st.none() | st.integers(min_value=1, max_value=99),
                    level=st.integers(min_value=0, max_value=3), group=st.integers(min_value=0, max_value=50),
                    notes=st.lists(_notes, max_size=2), extra_number=st.none() | st.integers(min_value=1, max_value=9),
                    pieces=_pieces)


@settings(max_examples=60, deadline=None, derandomize=True)
@given(blocks=st.lists(_blocks, max_size=4), dropped=st.lists(st.builds(Dropped, st.integers(1, 999), _text), max_size=2))
def test_any_reading_round_trips_through_its_json(blocks, dropped):
    reading = Reading("a.txt", "print", "2017", blocks, dropped=dropped, subject=None)
    data = json.loads(json.dumps(records.to_data(reading, Reading)))
    records.check_shape(data, records.shape(Reading))
    assert records.from_data(Reading, data) == reading
