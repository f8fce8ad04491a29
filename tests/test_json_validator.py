"""corpus.json's validator (outputs/serialise.json_validator, fastjsonschema as it comes) passes and
fails what jsonschema, the reference implementation, passes and fails."""
import copy

import fastjsonschema
import pytest

from conftest import SOURCES, validate_json_reference
from pipeline.publish import run as build
from pipeline.outputs import serialise


@pytest.fixture(scope="module")
def data(five_sources):
    return serialise.to_json(five_sources.corpus)


def verdict(validate, data):
    try:
        validate(data)
    except fastjsonschema.JsonSchemaException as e:
        return e.message
    return None


def block(data, node_id, kind):
    """The first content block of `kind` of node `node_id` (an article or a node below it)."""
    todo = [a for ed in data["editions"] for a in ed["articles"]]
    while todo:
        node = todo.pop()
        if node.get("id") == node_id:
            return next(b for b in node["content"] if b["type"] == kind)
        todo += [b for b in node.get("content", []) if b["type"] not in ("p", "gap", "corr")]
    raise LookupError(node_id)


def damaged(data, node_id, kind, change):
    out = copy.deepcopy(data)
    change(block(out, node_id, kind))
    return out


@pytest.mark.parametrize("node_id, kind, change", [
    ("2017/47E2a", "corr", lambda b: b.pop("was")),  # a renumbering without the number the sources gave
    ("2017/47E2a", "corr", lambda b: b.update(now="2017/47E2a")),  # … with a `now` it may not have
    ("2017/24E", "corr", lambda b: b.update(kind="accept")),  # an acceptance with the replaced words
    ("2017/24E", "corr", lambda b: b.update(type="gap")),
    ("2017/24E", "p", lambda b: b.pop("text")),
    ("2017/24E", "p", lambda b: b.update(type="corr")),
])
def test_a_damaged_block_fails_here_and_in_the_reference_validator(data, node_id, kind, change):
    bad = damaged(data, node_id, kind, change)
    message = verdict(serialise.json_validator(), bad)
    assert message is not None and "content" in message
    assert serialise.validate_json(bad) == [message]
    assert validate_json_reference(bad) != []


def test_the_corpus_passes(data):
    assert verdict(serialise.json_validator(), data) is None and validate_json_reference(data) == []


def test_an_article_is_checked_once_per_process_and_a_damaged_one_always(data):
    """validate_json checks each article by itself and remembers the ones found valid (a rebuild checks
    what changed); a damaged article is a new text, so it is checked, and fails as the whole schema says."""
    serialise._valid_articles.clear()
    assert serialise.validate_json(data) == []
    articles = sum(len(ed["articles"]) for ed in data["editions"])
    assert len(serialise._valid_articles) == articles
    frame, article = serialise.split_validators()
    checked = []
    serialise.split_validators.cache_clear()
    try:
        import unittest.mock as mock
        with mock.patch.object(serialise, "split_validators", lambda: (frame, lambda a: checked.append(a["id"]) or article(a))):
            assert serialise.validate_json(data) == []
            assert checked == []  # every article known valid
            bad = damaged(data, "2017/24E", "p", lambda b: b.pop("text"))
            message = verdict(serialise.json_validator(), bad)
            assert serialise.validate_json(bad) == [message] and checked == ["2017/24"]
    finally:
        serialise.split_validators.cache_clear()


def test_the_two_validators_pass_and_fail_what_the_whole_schema_does(data):
    frame, article = serialise.split_validators()
    assert verdict(frame, data) is None
    assert all(verdict(article, a) is None for ed in data["editions"] for a in ed["articles"])
    bad = damaged(data, "2017/47E2a", "corr", lambda b: b.pop("was"))
    art = next(a for a in bad["editions"][-1]["articles"] if a["id"] == "2017/47")
    assert verdict(article, art) is not None and verdict(frame, bad) is None
    no_id = copy.deepcopy(data)
    no_id["editions"][0].pop("id")
    assert verdict(frame, no_id) is not None and verdict(serialise.json_validator(), no_id) is not None
