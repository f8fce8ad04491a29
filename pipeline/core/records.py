"""Records as JSON data: a dataclass of the model (model.py, report.py) to plain JSON values and back, and
the shape that JSON must have, all read from the dataclass's own fields and annotations.

The cache of readings (publish/cache.py) stores Readings this way, so the model's shape is written once,
in the dataclasses: a field added to one is stored, checked and read back with no other edit. A field
whose metadata says {"stored": False} (STORED) is left out, and takes its default when read back.

The annotations a stored field may have: str, int, float, bool, a union of those with None, a
dataclass of such fields, list[X] of any of these, and tuple[X, Y, …] of a fixed length (stored as a
list, read back as a tuple). Anything else is a TypeError when the shape is first asked for.

A shape: a type, or a tuple of types (the value's exact type: bool is not int); [shape]: a list of such;
{key: shape}: an object with exactly these keys; Row: a list of fixed length, each item of its own shape.
"""
import dataclasses
import types
import typing
from collections.abc import Callable

# The metadata of a field that is not stored: dataclasses.field(..., metadata=NOT_STORED).
STORED = "stored"
NOT_STORED = {STORED: False}

_PLAIN = (str, int, float, bool, type(None))


class Row(tuple[object, ...]):
    """A shape: a list of fixed length, each item of its own shape (stored for a tuple)."""


# Reads a stored value back (None: the value is used as it is).
Reader = Callable[[object], object] | None

_shapes: dict[type, dict[str, object]] = {}
_readers: dict[type, list[tuple[str, Reader]]] = {}
_writers: dict[type, list[tuple[str, Reader]]] = {}


def stored_fields(kind: type) -> list[dataclasses.Field[object]]:
    """The fields of dataclass `kind` that are stored."""
    return [f for f in dataclasses.fields(kind) if f.metadata.get(STORED, True)]


def _hints(kind: type) -> dict[str, object]:
    return typing.get_type_hints(kind)


def _union(hint: object) -> tuple[object, ...] | None:
    """The members of a union annotation (X | None), else None."""
    if typing.get_origin(hint) in (typing.Union, types.UnionType):
        return typing.get_args(hint)
    return None


def _record(hint: object) -> type | None:
    """The dataclass an annotation names, else None."""
    return hint if isinstance(hint, type) and dataclasses.is_dataclass(hint) else None


def shape(kind: type) -> dict[str, object]:
    """The shape of the JSON of a `kind` record (see the module docstring)."""
    if kind not in _shapes:
        hints = _hints(kind)
        _shapes[kind] = {f.name: _shape_of(hints[f.name], f"{kind.__name__}.{f.name}") for f in stored_fields(kind)}
    return _shapes[kind]


def _shape_of(hint: object, where: str) -> object:
    members = _union(hint)
    if members is not None:
        if not all(m in _PLAIN for m in members):
            raise TypeError(f"{where}: a union of other than str, int, float, bool and None cannot be stored: {hint}")
        return tuple(members)
    if hint in _PLAIN:
        return hint
    record = _record(hint)
    if record is not None:
        return shape(record)
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin is list and len(args) == 1:
        return [_shape_of(args[0], f"{where}[]")]
    if origin is tuple and args and Ellipsis not in args:
        return Row(_shape_of(a, f"{where}[{k}]") for k, a in enumerate(args))
    raise TypeError(f"{where}: cannot be stored as JSON: {hint}")


def check_shape(value: object, expected: object, where: str = "content") -> None:
    """ValueError naming the first place where `value` does not have the shape `expected`."""
    if isinstance(expected, dict):
        if not isinstance(value, dict) or type(value) is not dict or set(value) != set(expected):
            raise ValueError(f"{where} is not an object with the keys {', '.join(expected)}")
        for k, sub in expected.items():
            check_shape(value[k], sub, f"{where}.{k}")
    elif isinstance(expected, Row):
        if not isinstance(value, list) or type(value) is not list or len(value) != len(expected):
            raise ValueError(f"{where} is not a list of {len(expected)} items")
        for k, sub in enumerate(expected):
            check_shape(value[k], sub, f"{where}[{k}]")
    elif isinstance(expected, list):
        if not isinstance(value, list) or type(value) is not list:
            raise ValueError(f"{where} is not a list")
        for k, item in enumerate(value):
            check_shape(item, expected[0], f"{where}[{k}]")
    else:
        allowed = expected if isinstance(expected, tuple) else (expected,)
        if type(value) not in allowed:
            names = " or ".join(t.__name__ if isinstance(t, type) else str(t) for t in allowed)
            raise ValueError(f"{where} is a {type(value).__name__}, not a {names}")


# -- writing: a record to JSON data ---------------------------------------------------------------------
def to_data(record: object, kind: type | None = None) -> dict[str, object]:
    """The JSON data of `record`, a `kind` record (its own class when None): a dict of its stored fields.
    Shallow where nothing is to convert (a list of numbers is the record's own list): only a copy where
    a record or a list of records stands, which dataclasses.asdict would deep-copy everywhere."""
    kind = kind or type(record)
    if kind not in _writers:
        hints = _hints(kind)
        _writers[kind] = [(f.name, _writer(hints[f.name])) for f in stored_fields(kind)]
    return {name: getattr(record, name) if write is None else write(getattr(record, name))
            for name, write in _writers[kind]}


def _writer(hint: object) -> Reader:
    """How a value of annotation `hint` is written (None: as it is; JSON writes a tuple as a list)."""
    record = _record(hint)
    if record is not None:
        return lambda value: to_data(value, record)
    origin = typing.get_origin(hint)
    if origin is list:
        item = _writer(typing.get_args(hint)[0])
        if item is not None:
            return lambda value: [item(v) for v in typing.cast(list[object], value)]
    if origin is tuple:
        items = [_writer(a) for a in typing.get_args(hint)]
        if any(items):
            return lambda value: [v if w is None else w(v) for v, w in zip(typing.cast(tuple[object, ...], value), items)]
    return None


# -- reading: JSON data back to a record ----------------------------------------------------------------
def from_data(kind: type, data: dict[str, object]) -> object:
    """The `kind` record whose JSON data is `data` (checked against shape(kind) first: see check_shape)."""
    if kind not in _readers:
        hints = _hints(kind)
        _readers[kind] = [(f.name, _reader(hints[f.name])) for f in stored_fields(kind)]
    return kind(**{name: data[name] if read is None else read(data[name]) for name, read in _readers[kind]})


def _reader(hint: object) -> Reader:
    """How a stored value of annotation `hint` is read back (None: as it is)."""
    record = _record(hint)
    if record is not None:
        return lambda value: from_data(record, typing.cast(dict[str, object], value))
    origin = typing.get_origin(hint)
    if origin is tuple:
        items = [_reader(a) for a in typing.get_args(hint)]
        return lambda value: tuple(v if r is None else r(v) for v, r in zip(typing.cast(list[object], value), items))
    if origin is list:
        item = _reader(typing.get_args(hint)[0])
        if item is not None:
            return lambda value: [item(v) for v in typing.cast(list[object], value)]
    return None
