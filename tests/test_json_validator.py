"""corpus.json's validator (outputs/serialise.json_validator, fastjsonschema as it comes) passes and
fails what jsonschema, the reference implementation, passes and fails."""
import copy

import fastjsonschema
import pytest

from conftest import SOURCES
from pipeline.publish import run as build
from pipeline.outputs import serialise


@pytest.fixture(scope="module")
def data():
    return serialise.to_json(build.make_corpus(SOURCES).corpus)


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
    assert serialise.validate_json_reference(bad) != []


def test_the_corpus_passes(data):
    assert verdict(serialise.json_validator(), data) is None and serialise.validate_json_reference(data) == []
