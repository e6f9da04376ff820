"""NumPy backend functions run on Dask arrays: chunk by chunk, or on the whole array.

Dask arrays are NumPy arrays in chunks, and the NumPy backend is the oracle of every other
backend's semantics (its special values, its promotion, its errors). So the Dask backend
does not restate them: an elementwise function is the NumPy backend's, applied to each
chunk (:func:`chunkwise`, lazy), and a function whose result at one place depends on the
whole array in a way Dask cannot split (``sort``, ``unique_*``, ``linalg.eig``) is the
NumPy backend's applied to the computed array (:func:`in_one_process`); where NumPy itself
hands every call a NumPy backend function makes to Dask (``__array_function__``), the
function is called on the Dask arrays as it is (:func:`dispatched`). Each gives NumPy's
answer by construction.

:func:`in_one_process` computes, and holds the whole input in this process's memory: it
refuses an input larger than :data:`GATHER_LIMIT` bytes with
:class:`IvyNotImplementedException` naming the function, rather than exhausting the
machine's (or the cluster client's) memory on an array meant to stay distributed.
"""

# mypy: disable-error-code="no-untyped-call"
# (dask.array has no type hints)

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from typing import Any

import dask.array as da
import numpy as np
from dask.array.core import elemwise
from dask.base import compute, tokenize

from ivycheck.runtime.backends.dask import primitives
from ivycheck.runtime.exceptions import IvyNotImplementedException

GATHER_LIMIT = 1 << 30
"""Bytes of input (all array arguments together) :func:`in_one_process` computes into one
process; more raises :class:`IvyNotImplementedException`. Settable."""


def _on_chunks(
    fn: Callable[..., Any],
    template: tuple[Any, ...],
    slots: tuple[int, ...],
    kwargs: dict[str, Any],
    *chunks: Any,
) -> Any:
    """``fn`` with the chunks put back at their argument positions (module level and
    ``functools.partial``-bound, so that Dask names the task deterministically and a worker
    process can unpickle it)."""
    args = list(template)
    for slot, chunk in zip(slots, chunks, strict=True):
        args[slot] = chunk
    with np.errstate(all="ignore"):  # NumPy's warnings would come from workers, at random
        return fn(*args, **kwargs)


def chunkwise(fn: Callable[..., Any], module: str) -> Callable[..., Any]:
    """The elementwise NumPy backend function ``fn`` as a Dask backend function of module
    ``module``: array arguments broadcast as NumPy's and chunked alike, ``fn`` applied to
    each block. The result dtype is ``fn``'s on one-element arrays of the operands' dtypes
    (ones: no function refuses them), Python scalars kept, so weak promotion is NumPy's."""
    signature = inspect.signature(fn)

    def lifted(*args: Any, **kwargs: Any) -> Any:
        kwargs.pop("out", None)
        bound = signature.bind(*args, **kwargs)
        positional = list(bound.args)
        keywords = dict(bound.kwargs)
        slots = tuple(i for i, a in enumerate(positional) if isinstance(a, da.Array | np.ndarray))
        operands = [positional[i] for i in slots]
        template = tuple(None if i in slots else a for i, a in enumerate(positional))
        apply = functools.partial(_on_chunks, fn, template, slots, keywords)
        if not operands:  # Python scalars only: nothing to split
            return primitives.lazy(apply())
        samples = [np.ones((), a.dtype) for a in operands]
        dtype = np.asarray(apply(*samples)).dtype
        name = f"{fn.__name__}-{tokenize(fn, template, keywords, *operands)}"
        return elemwise(apply, *operands, dtype=dtype, name=name)

    return _named(lifted, fn, module)


def dispatched(fn: Callable[..., Any], module: str) -> Callable[..., Any]:
    """The NumPy backend function ``fn`` called on the Dask arrays themselves, as a Dask
        backend function of module ``module``: every NumPy function it calls is handed to Dask
        (``__array_function__``), so the result is Dask's lazy graph with NumPy's semantics.
        Only for functions every one of whose NumPy calls Dask implements (a call Dask lacks
        would compute and give a NumPy array, made a Dask array again here: right, but not
        lazy; ``tests/runtime/test_dask_backend.py`` checks that none does). An empty array is
    computed (nothing to compute): Dask's functions mishandle zero-size chunks."""

    computed = in_one_process(fn, module)

    def handed_to_dask(*args: Any, **kwargs: Any) -> Any:
        kwargs.pop("out", None)
        if any(0 in a.shape for a in _arrays((args, kwargs))):
            # Dask's ``roll``, ``reshape`` ... fail on zero-size chunks; nothing to compute.
            return computed(*args, **kwargs)
        return _as_dask(fn(*args, **kwargs))

    return _named(handed_to_dask, fn, module)


def _computed(value: Any) -> Any:
    """Dask arrays inside ``value`` (also in lists and tuples) computed, in one pass."""
    (ret,) = compute(value)
    return ret


def _arrays(value: Any) -> list[Any]:
    if isinstance(value, da.Array):
        return [value]
    if isinstance(value, list | tuple):
        return [a for v in value for a in _arrays(v)]
    if isinstance(value, dict):
        return [a for v in value.values() for a in _arrays(v)]
    return []


def _as_dask(value: Any) -> Any:
    """NumPy results (arrays, scalars, inside tuples and named tuples) as Dask arrays."""
    if isinstance(value, np.ndarray | np.generic):
        return primitives.lazy(value)
    if isinstance(value, tuple) and hasattr(value, "_fields"):
        return type(value)(*(_as_dask(v) for v in value))
    if isinstance(value, list | tuple):
        return type(value)(_as_dask(v) for v in value)
    return value


def in_one_process(fn: Callable[..., Any], module: str) -> Callable[..., Any]:
    """The NumPy backend function ``fn`` as a Dask backend function of module ``module``:
    the Dask arrays among its arguments computed (in one pass), ``fn`` called on the NumPy
    values, its results made Dask arrays again. Inputs above :data:`GATHER_LIMIT` bytes are
    refused before anything is computed."""

    def gathered(*args: Any, **kwargs: Any) -> Any:
        kwargs.pop("out", None)
        size = sum(a.nbytes for a in _arrays((args, kwargs)))
        if size > GATHER_LIMIT:
            raise IvyNotImplementedException(
                f"dask: {fn.__name__} is computed in one process (Dask cannot split it); "
                f"its inputs take {size} bytes, above the backend's GATHER_LIMIT of "
                f"{GATHER_LIMIT} (ivycheck.runtime.backends.dask.lifted.GATHER_LIMIT)"
            )
        args, kwargs = _computed((args, kwargs))
        return _as_dask(fn(*args, **kwargs))

    return _named(gathered, fn, module)


def _named(lifted: Callable[..., Any], fn: Callable[..., Any], module: str) -> Callable[..., Any]:
    """``lifted`` under ``fn``'s name, as a function of ``module`` (what the backend
    package's ``export`` re-exports) with ``fn``'s signature and docstring -- and none of
    its attributes: ``support_native_out`` says NumPy writes ``out`` itself, which a
    Dask array cannot take."""
    lifted.__name__ = lifted.__qualname__ = fn.__name__
    lifted.__doc__ = fn.__doc__
    lifted.__module__ = module
    lifted.__signature__ = inspect.signature(fn)  # type: ignore[attr-defined]
    return lifted
