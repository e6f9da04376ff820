"""Which native functions accept ``out=``: the generated data, loaded once.

IVY001, IVY002 and IVY004 decide by the *qualified* name of a native call (``numpy.tan``,
``torch.linalg.solve``) whether ``out=`` reaches a native buffer. That answer is data generated
from the installed libraries by ``scripts/gen_native_out.py`` into ``data/native_out.json``
(never a hand list, which rots with every release); this module only reads it.

The module name starts with ``_`` so that the rule registry does not look for rules in it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import Any

__all__ = [
    "NativeOutData",
    "accepts_native_out",
    "is_known_native",
    "is_missing",
    "jax_declares_out",
    "load",
    "native_library",
    "versions",
]

_DATA_PACKAGE = "ivycheck.rules.data"
_DATA_FILE = "native_out.json"


@dataclass(frozen=True)
class NativeOutData:
    """The parsed data file: versions and, per library, sets of qualified names.

    ``accepts`` is filled for NumPy (ufunc methods such as ``numpy.add.reduce`` included) and
    PyTorch only; ``known`` holds every public callable whose ``out`` support was determined
    (so "known and not in ``accepts``" means "takes no ``out``"), and for JAX and TensorFlow,
    which accept ``out`` nowhere, every public callable of the ``namespaces`` scanned. ``declares`` lists
    functions that declare an ``out`` parameter which does not work: it raises (``jax.numpy``,
    most of ``tensorflow.experimental.numpy``) or is silently ignored (``numpy.fft.hfft``,
    ``tensorflow.experimental.numpy.sign``).
    """

    versions: dict[str, str]
    roots: dict[str, str]
    accepts: frozenset[str]
    known: frozenset[str]
    declares: frozenset[str]
    namespaces: frozenset[str]

    @classmethod
    def from_json(cls, raw: dict[str, Any]) -> NativeOutData:
        """Build from the JSON structure written by ``scripts/gen_native_out.py``."""
        roots: dict[str, str] = {}
        accepts: set[str] = set()
        known: set[str] = set()
        declares: set[str] = set()
        namespaces: set[str] = set()
        for library, entry in raw["libraries"].items():
            roots.update(dict.fromkeys(entry["roots"], library))
            accepts.update(entry.get("accepts_out", []))
            known.update(entry.get("known", []))
            declares.update(entry.get("declares_out", []))
            namespaces.update(entry.get("namespaces", []))
        return cls(
            versions=dict(raw["versions"]),
            roots=roots,
            accepts=frozenset(accepts),
            known=frozenset(known),
            declares=frozenset(declares),
            namespaces=frozenset(namespaces),
        )


@cache
def load() -> NativeOutData:
    """The data shipped with the package, read once per process (rules ask per call site)."""
    text = resources.files(_DATA_PACKAGE).joinpath(_DATA_FILE).read_text(encoding="utf-8")
    return NativeOutData.from_json(json.loads(text))


def accepts_native_out(qualified_name: str) -> bool:
    """Whether ``qualified_name`` (e.g. ``numpy.tan``) writes its result into ``out=``."""
    return qualified_name in load().accepts


def is_known_native(qualified_name: str) -> bool:
    """Whether ``qualified_name`` is a NumPy/PyTorch callable whose ``out`` support is known.

    A known name that does not accept ``out`` (``numpy.transpose``) makes ``out=`` an error;
    an unknown one (a new or private function) is not judged, so the rules stay quiet.
    """
    return qualified_name in load().known


def native_library(qualified_name: str) -> str | None:
    """``"numpy"``, ``"torch"``, ``"jax"`` or ``"tensorflow"`` by the name's root module.

    ``None`` for anything else (``ivy``, user code). Aliases such as ``np`` or ``tf`` must be
    resolved to real module names before asking.
    """
    return load().roots.get(qualified_name.partition(".")[0])


def is_missing(qualified_name: str) -> bool:
    """Whether the installed release has no callable ``qualified_name`` in a namespace the
    data scanned (``jax.numpy.fix``, removed in JAX 0.10): code written for another release
    calls it, so what today's release says about ``out`` does not apply to that call."""
    data = load()
    namespace = qualified_name.rpartition(".")[0]
    return (
        namespace in data.namespaces
        and qualified_name not in data.known
        and qualified_name not in data.declares
    )


def jax_declares_out(qualified_name: str) -> bool:
    """Whether a ``jax`` function declares an ``out`` parameter (it raises when given one)."""
    return native_library(qualified_name) == "jax" and qualified_name in load().declares


def versions() -> dict[str, str]:
    """Library versions the data was generated from (a copy: callers may not mutate it)."""
    return dict(load().versions)
