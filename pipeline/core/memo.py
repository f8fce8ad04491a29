"""Memos: what a pure step of the build made for one part of the book, kept in the process for the next
build of the same process (watch mode rebuilds in one process; a fresh process starts with none).

A memo is only ever as exact as its key: the caller keys an entry by a digest of every input of the
step, and where the step asked the whole book something (a word of the vocabulary, a citation's
evidence), the entry keeps the answers it was given and the caller reuses it only when the book of
this build gives the same answers (see repair.py and structure/memo.py). Entries are bounded in number,
the least recently used dropped first.
"""
from __future__ import annotations

import hashlib
import io
import pickle
import weakref
from collections import OrderedDict
from typing import Any, Generic, Hashable, TypeVar

V = TypeVar("V")

SIZE = 4096  # entries per memo: several versions of every source of a large book

# Whether the memos keep what they are given. On in a process that builds the book again and again (watch
# mode, publish/watch.py; the memos' tests): a one-off `lawbook build` would only pay their memory (a
# tenth more at 400 articles x 2) and never take from them.
_keeping = False


def keep(on: bool = True) -> None:
    """Let every memo keep (on) or drop (off) what it is given from now on."""
    global _keeping
    _keeping = on


def keeping() -> bool:
    return _keeping


class Memo(Generic[V]):
    """A bounded map from a digest to what a step made; counts what it reused and what had to be made."""

    def __init__(self, name: str, size: int = SIZE) -> None:
        self.name = name
        self.size = size
        self.entries: OrderedDict[Hashable, V] = OrderedDict()
        self.reused = 0  # entries taken instead of making them
        self.made = 0  # entries made (not found, or found with other answers from the book)
        MEMOS.add(self)

    def get(self, key: Hashable) -> V | None:
        if not _keeping:
            return None
        found = self.entries.get(key)
        if found is not None:
            self.entries.move_to_end(key)
        return found

    def put(self, key: Hashable, value: V) -> None:
        self.made += 1
        if not _keeping:
            return
        self.entries[key] = value
        self.entries.move_to_end(key)
        while len(self.entries) > self.size:
            self.entries.popitem(last=False)

    def clear(self) -> None:
        self.entries.clear()
        self.reused = self.made = 0


# Every memo of the process (a test empties them all: a build then does what a fresh process does).
MEMOS: "weakref.WeakSet[Memo[Any]]" = weakref.WeakSet()


def clear_all() -> None:
    for memo in list(MEMOS):
        memo.clear()


def digest(*parts: object) -> bytes:
    """sha256 of the pickled `parts` (plain data and dataclasses, no cycle): equal bytes only for equal
    content (unpickling gives it back), so a key made of it never takes one input for another. Pickled
    without its memo, so that the bytes depend on the content alone, not on which equal strings are one
    object (a reading read from its source and the same reading read back from the cache)."""
    out = io.BytesIO()
    pickler = pickle.Pickler(out, protocol=5)
    pickler.fast = True  # no memo: every object written out where it stands
    pickler.dump(parts)
    return hashlib.sha256(out.getbuffer()).digest()
