"""``json.dumps(value, indent=2)``, the same bytes, without the standard library's pure-Python
indenting encoder.

With ``indent`` set, :mod:`json` gives up its C encoder and walks the value through nested
generators; on a report of thousands of findings (each a small nested dict) that walk cost
about as much as rendering every fix. Here the structure is walked by one recursive function
appending to a list and every string goes through the C ``encode_basestring_ascii``, so the
output is byte for byte :func:`json.dumps`'s (``ensure_ascii``, ``", "``/``": "``
separators, ``NaN``/``Infinity`` as it writes them), which ``tests/checker/
test_indented_json.py`` checks on generated values.
"""

from __future__ import annotations

from json.encoder import INFINITY
from json.encoder import encode_basestring_ascii as _string
from typing import Any


def dumps_indented(value: Any, indent: int = 2) -> str:
    """``json.dumps(value, indent=indent)``."""
    parts: list[str] = []
    _encode(value, parts, "\n", " " * indent, {})
    return "".join(parts)


def _float(value: float) -> str:
    if value != value:
        return "NaN"
    if value == INFINITY:
        return "Infinity"
    if value == -INFINITY:
        return "-Infinity"
    return float.__repr__(value)


def _scalar(value: Any) -> str | None:
    """The text of a scalar, or ``None`` for a container (or a value JSON has no form for)."""
    if isinstance(value, str):
        return str(_string(value))
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, int):
        return int.__repr__(value)
    if isinstance(value, float):
        return _float(value)
    return None


def _key(key: Any) -> str:
    """A dict key as :mod:`json` writes it: strings as they are, the other scalars as their
    JSON text in quotes."""
    if isinstance(key, str):
        return str(_string(key))
    if isinstance(key, float):
        return '"' + _float(key) + '"'
    if key is True or key is False or key is None or isinstance(key, int):
        text = _scalar(key)
        return '"' + str(text) + '"'
    raise TypeError(f"keys must be str, int, float, bool or None, not {key.__class__.__name__}")


def _encode(value: Any, parts: list[str], newline: str, step: str, keys: dict[str, str]) -> None:
    # Plain ``str`` and ``int`` (most of a report's leaves) are written in the container's
    # loop without a call; subclasses, floats and the constants take ``_scalar``, as
    # ``json`` treats them by ``isinstance``. String keys repeat in every finding, so their
    # text is made once per report (only ``str`` keys: ``True`` and ``1`` are equal as keys of the memo).
    kind = type(value)
    if kind is dict:
        if not value:
            parts.append("{}")
            return
        inner = newline + step
        opening = "{" + inner
        between = "," + inner
        for key, item in value.items():
            key_text = keys.get(key) if type(key) is str else None
            if key_text is None:
                key_text = _key(key)
                if type(key) is str:
                    keys[key] = key_text
            item_kind = type(item)
            if item_kind is str:
                parts.append(opening + key_text + ": " + _string(item))
            elif item_kind is int:
                parts.append(opening + key_text + ": " + int.__repr__(item))
            else:
                parts.append(opening + key_text + ": ")
                _encode(item, parts, inner, step, keys)
            opening = between
        parts.append(newline + "}")
    elif kind is list or kind is tuple:
        if not value:
            parts.append("[]")
            return
        inner = newline + step
        opening = "[" + inner
        between = "," + inner
        for item in value:
            parts.append(opening)
            opening = between
            _encode(item, parts, inner, step, keys)
        parts.append(newline + "]")
    else:
        text = _scalar(value)
        if text is not None:
            parts.append(text)
        elif isinstance(value, dict):
            _encode(dict(value), parts, newline, step, keys)
        elif isinstance(value, list | tuple):
            _encode(list(value), parts, newline, step, keys)
        else:
            raise TypeError(f"Object of type {kind.__name__} is not JSON serializable")
