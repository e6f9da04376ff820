"""Dataclasses to JSON-ready lists and back, checked against their type hints.

The result cache is read from a folder that a repository can carry (``.ivycheck_cache/``
checked in, or planted by a pull request), so what it holds must be inert data: decoding
never imports, calls or constructs anything but the dataclasses named here and the
built-in containers of their annotations. Every value is checked against its field's
annotation while it is decoded, so a foreign or corrupt cache is a :class:`DecodeError`
(the cache is then ignored), never a half-built object that fails later in a rule.

A dataclass is encoded as a list of its fields in declaration order (smaller and faster
than a dict); the cache's format tag (:func:`shape_tag`) covers field names and types, so
a list written by another shape of the class is never decoded.
"""

from __future__ import annotations

import dataclasses
import enum
import hashlib
import json
import types
import typing
from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")
Decoder = Callable[[Any], Any]
Encoder = Callable[[Any], Any]


class DecodeError(ValueError):
    """The data does not have the shape of the class it is decoded into."""


def encode(value: Any) -> Any:
    """``value`` (a dataclass instance) as JSON-ready lists, dicts, strings and numbers."""
    return _encoder(type(value))(value)


def decode(cls: type[T], data: Any) -> T:
    """An instance of the dataclass ``cls`` from what :func:`encode` made of one.

    Any failure is a :class:`DecodeError`, not only the expected ones: data nested deeper
    than the interpreter's recursion limit (``RecursionError``), a number too large for
    a field (``OverflowError``), one too large for memory; a caller treating the data as
    unreadable must never see a traceback instead."""
    try:
        result: T = _decoder(cls)(data)
    except DecodeError:
        raise
    except Exception as err:  # noqa: BLE001 - see the docstring
        raise DecodeError(f"not a {cls.__name__}: {type(err).__name__}: {err}") from None
    return result


def loads(cls: type[T], text: str | bytes) -> T:
    """:func:`decode` of JSON text; any failure, JSON's included, is a :class:`DecodeError`.

    Nesting is bounded twice: ``json`` counts every level against the interpreter's
    recursion limit (running into it is a failure like any other), and the decoders go
    no deeper than the class's own :func:`nesting` (a value nested deeper fails at the
    first level that does not fit its annotation)."""
    try:
        data = json.loads(text)
    except Exception as err:  # noqa: BLE001 - RecursionError, MemoryError, UnicodeError...
        raise DecodeError(f"not JSON: {type(err).__name__}: {err}") from None
    return decode(cls, data)


def nesting(annotation: Any, _seen: tuple[Any, ...] = ()) -> int:
    """How deeply a value of ``annotation`` nests as JSON (a scalar: 0, a list of them: 1);
    ``TypeError`` for a dataclass that contains itself, whose depth has no bound."""
    if annotation in _seen:
        raise TypeError(f"{annotation!r} contains itself: its nesting has no bound")
    if dataclasses.is_dataclass(annotation) and isinstance(annotation, type):
        inner = [nesting(hint, (*_seen, annotation)) for _, hint in _hints(annotation)]
        return 1 + max(inner, default=0)
    origin, args = typing.get_origin(annotation), typing.get_args(annotation)
    depths = [nesting(arg, _seen) for arg in args if arg is not Ellipsis]
    if origin in (typing.Union, types.UnionType):
        return max(depths)
    if origin in (list, tuple, dict):
        return 1 + max(depths, default=0)
    return 0


def shape_tag(*classes: type) -> str:
    """A short digest of the classes' field names and annotations: it changes whenever
    one gains, loses or retypes a field, so data of an older shape is never decoded."""
    parts = [
        f"{cls.__name__}:" + ",".join(f"{f.name}={f.type}" for f in dataclasses.fields(cls))
        for cls in classes
    ]
    return hashlib.blake2b("|".join(parts).encode(), digest_size=4).hexdigest()


_DECODERS: dict[Any, Decoder] = {}
_ENCODERS: dict[Any, Encoder] = {}


def _hints(cls: type) -> list[tuple[str, Any]]:
    hints = typing.get_type_hints(cls)
    return [(f.name, hints[f.name]) for f in dataclasses.fields(cls)]


def _decoder(annotation: Any) -> Decoder:
    found = _DECODERS.get(annotation)
    if found is None:
        found = _DECODERS[annotation] = _make_decoder(annotation)
    return found


def _encoder(annotation: Any) -> Encoder:
    found = _ENCODERS.get(annotation)
    if found is None:
        found = _ENCODERS[annotation] = _make_encoder(annotation)
    return found


def _scalar(kind: type) -> Decoder:
    def check(value: Any) -> Any:
        # bool is an int in Python: an int field must not take True, nor a bool field 1.
        if type(value) is not kind and not (kind is float and type(value) is int):
            raise DecodeError(f"expected {kind.__name__}, got {type(value).__name__}")
        return value

    return check


def _make_decoder(annotation: Any) -> Decoder:
    if annotation is type(None):
        return _scalar(type(None))
    if annotation in (str, int, float, bool):
        return _scalar(annotation)
    if isinstance(annotation, type) and issubclass(annotation, enum.Enum):
        return annotation
    if dataclasses.is_dataclass(annotation) and isinstance(annotation, type):
        return _dataclass_decoder(annotation)
    origin, args = typing.get_origin(annotation), typing.get_args(annotation)
    if origin in (typing.Union, types.UnionType):
        present = [arg for arg in args if arg is not type(None)]
        if len(present) == 1 < len(args):  # ``X | None``: the common case, no try/except
            inner = _decoder(present[0])
            return lambda value: None if value is None else inner(value)
        options = [_decoder(arg) for arg in args]
        return lambda value: _first_that_decodes(options, value)
    if origin is list:
        if args[0] in (str, int, bool):
            return lambda value: _scalars(args[0], value)
        item = _decoder(args[0])
        return lambda value: [item(v) for v in _sequence(value)]
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            item = _decoder(args[0])
            return lambda value: tuple(item(v) for v in _sequence(value))
        items = [_decoder(arg) for arg in args]
        return lambda value: _fixed_tuple(items, value)
    if origin is dict:
        key, item = _decoder(args[0]), _decoder(args[1])
        return lambda value: {key(k): item(v) for k, v in _mapping(value).items()}
    raise TypeError(f"no JSON codec for {annotation!r}")


def _dataclass_decoder(cls: type) -> Decoder:
    fields = [_decoder(hint) for _, hint in _hints(cls)]

    def build(value: Any) -> Any:
        values = _sequence(value)
        if len(values) != len(fields):
            raise DecodeError(f"{cls.__name__} has {len(fields)} fields, got {len(values)}")
        return cls(*[field(v) for field, v in zip(fields, values, strict=True)])

    return build


def _make_encoder(annotation: Any) -> Encoder:
    if dataclasses.is_dataclass(annotation) and isinstance(annotation, type):
        fields = [(name, _value_encoder(hint)) for name, hint in _hints(annotation)]
        return lambda value: [encode_field(getattr(value, name)) for name, encode_field in fields]
    raise TypeError(f"no JSON codec for {annotation!r}")


def _value_encoder(annotation: Any) -> Encoder:
    """Containers become lists and dicts, dataclasses lists, enums their value."""
    origin, args = typing.get_origin(annotation), typing.get_args(annotation)
    if dataclasses.is_dataclass(annotation) or origin in (typing.Union, types.UnionType):
        return _any_value
    if origin in (list, tuple):
        if all(arg in (str, int, float, bool, Ellipsis) for arg in args):
            return list
        return lambda value: [_any_value(v) for v in value]
    if origin is dict:
        return lambda value: {k: _any_value(v) for k, v in value.items()}
    if isinstance(annotation, type) and issubclass(annotation, enum.Enum):
        return lambda value: value.value
    return _identity


def _identity(value: Any) -> Any:
    return value


def _any_value(value: Any) -> Any:
    if value is None or isinstance(value, str | int | float):
        return value.value if isinstance(value, enum.Enum) else value
    if isinstance(value, list | tuple):
        return [_any_value(v) for v in value]
    if isinstance(value, dict):
        return {k: _any_value(v) for k, v in value.items()}
    if isinstance(value, enum.Enum):
        return value.value
    return encode(value)


def _sequence(value: Any) -> list[Any]:
    if type(value) is not list:
        raise DecodeError(f"expected a list, got {type(value).__name__}")
    return value


def _scalars(kind: type, value: Any) -> list[Any]:
    if type(value) is not list or any(type(v) is not kind for v in value):
        raise DecodeError(f"expected a list of {kind.__name__}")
    return value


def _mapping(value: Any) -> dict[Any, Any]:
    if type(value) is not dict:
        raise DecodeError(f"expected an object, got {type(value).__name__}")
    return value


def _fixed_tuple(items: list[Decoder], value: Any) -> tuple[Any, ...]:
    values = _sequence(value)
    if len(values) != len(items):
        raise DecodeError(f"expected {len(items)} items, got {len(values)}")
    return tuple(item(v) for item, v in zip(items, values, strict=True))


def _first_that_decodes(options: list[Decoder], value: Any) -> Any:
    for option in options:
        try:
            return option(value)
        except (DecodeError, TypeError, ValueError):
            continue
    raise DecodeError(f"{type(value).__name__} matches none of the union's types")
