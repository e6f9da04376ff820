"""What is particular to the Dask backend: lazy until asked, writes that rebind the graph,
the functions computed in one process, chunking, and the same code on a cluster.

``test_dask_gate.py`` checks that Dask gives the other backends' answers; this checks how.
Computations are counted with Dask's own scheduler callbacks (each ``compute`` on the local
schedulers starts one), so "lazy" means: no graph was run.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import dask
import dask.array as da
import numpy as np
import pytest
from dask.callbacks import Callback

import ivycheck.runtime as ivy
from ivycheck.runtime.backends.dask import lifted, numpy_functions

DOCS = Path(__file__).resolve().parents[2] / "docs" / "runtime.md"


class Computations(Callback):  # type: ignore[misc]  # (dask has no type hints)
    """Counts the graphs Dask's local schedulers run while active."""

    def __init__(self) -> None:
        super().__init__()
        self.count = 0

    def _start(self, dsk: object) -> None:
        self.count += 1


@pytest.fixture(autouse=True)
def on_dask() -> Iterator[None]:
    with ivy.using_backend("dask"):
        yield


def chunked(values: Any, chunks: int = 2) -> ivy.Array:
    """An ``ivy.Array`` over a Dask array of several chunks (the user's own chunking)."""
    return ivy.Array(da.from_array(np.asarray(values), chunks=chunks))


def computations(action: Callable[[], Any]) -> tuple[int, Any]:
    with Computations() as counter:
        result = action()
    return counter.count, result


def test_functions_and_operators_build_graphs_without_computing() -> None:
    x = chunked(np.arange(12.0).reshape(3, 4))
    count, y = computations(lambda: ivy.sum(ivy.sqrt(x * 2 + 1)[1:, ::-1].T, axis=0) - ivy.mean(x))
    assert count == 0
    assert isinstance(y.data, da.Array)
    expected = np.sum(np.sqrt(np.arange(12.0).reshape(3, 4) * 2 + 1)[1:, ::-1].T, axis=0)
    np.testing.assert_allclose(ivy.to_numpy(y), expected - 5.5)


@pytest.mark.parametrize(
    "ask",
    [ivy.to_numpy, float, int, repr, str, np.asarray],
    ids=["to_numpy", "float", "int", "repr", "str", "asarray"],
)
def test_asking_for_values_computes(ask: Callable[[Any], Any]) -> None:
    y = ivy.multiply(chunked([3.0])[0], 2)
    count, value = computations(lambda: ask(y))
    assert count >= 1
    assert "6" in str(value)


def test_truth_value_computes() -> None:
    y = ivy.greater(chunked([3.0, 1.0])[0], 2)
    count, value = computations(lambda: bool(y))
    assert count >= 1 and value is True


def test_out_rebinds_the_graph_lazily_and_keeps_its_dtype() -> None:
    out = ivy.zeros((4,), dtype=ivy.float64)
    before = out.data
    count, ret = computations(lambda: ivy.add(chunked([1.0, 2.0, 3.0, 4.0]), 1, out=out))
    assert count == 0
    assert ret is out and out.data is not before
    assert out.dtype == ivy.float64
    np.testing.assert_array_equal(ivy.to_numpy(out), [2.0, 3.0, 4.0, 5.0])
    np.testing.assert_array_equal(before.compute(), [0, 0, 0, 0])  # the old graph is intact


def test_a_failed_out_update_changes_nothing() -> None:
    out = ivy.zeros((3,), dtype=ivy.int32)
    before = out.data
    with pytest.raises(ivy.InplaceUpdateException):
        ivy.add(chunked([0.5, 1.5, 2.5]), 1.0, out=out)  # float into int32: not same_kind
    assert out.data is before


def test_writes_through_views_reach_the_base_and_every_view_lazily() -> None:
    base = chunked(np.zeros((4, 4)))
    rows = base[1:3]
    column = base[:, 2]
    transposed = ivy.permute_dims(base, (1, 0))

    def write() -> None:
        rows[:, ::2] = 7.0
        transposed[0] += 1.0

    count, _ = computations(write)
    assert count == 0
    expected = np.zeros((4, 4))
    expected[1:3, ::2] = 7.0
    expected[:, 0] += 1.0
    np.testing.assert_array_equal(ivy.to_numpy(base), expected)
    np.testing.assert_array_equal(ivy.to_numpy(column), expected[:, 2])
    np.testing.assert_array_equal(ivy.to_numpy(rows), expected[1:3])


def test_ensure_in_backend_refuses_and_rebinding_is_the_default() -> None:
    """Dask's arrays are immutable, as JAX's: a native write is refused, a rebind done."""
    x = ivy.zeros(3)
    with pytest.raises(ivy.InplaceUpdateException, match="ensure_in_backend"):
        ivy.inplace_update(x, ivy.ones(3), ensure_in_backend=True)
    np.testing.assert_array_equal(ivy.to_numpy(x), [0, 0, 0])
    ivy.inplace_update(x, ivy.ones(3))
    np.testing.assert_array_equal(ivy.to_numpy(x), [1, 1, 1])


def test_copy_false_raises_where_a_copy_is_needed() -> None:
    with pytest.raises(ValueError):
        ivy.asarray(ivy.asarray([1, 2], dtype=ivy.int32), dtype=ivy.float64, copy=False)
    with pytest.raises(ValueError, match="copy=False"):
        ivy.reshape(chunked(np.arange(6).reshape(2, 3)).T, (6,), copy=False)


def test_imports_copy_into_the_graph_so_copy_false_refuses_them() -> None:
    """``da.from_array`` copies what it is given: a later write to the producer never
    shows, and ``copy=False`` (never copy) is refused as the standard says."""
    source = np.arange(6)
    x = ivy.from_dlpack(source)
    y = ivy.asarray(source)
    source[0] = 99
    assert ivy.to_numpy(x)[0] == 0 and ivy.to_numpy(y)[0] == 0
    with pytest.raises(BufferError, match="copy=False"):
        ivy.from_dlpack(source, copy=False)
    with pytest.raises(ValueError, match="copy=False"):
        ivy.asarray(source, copy=False)
    z = ivy.asarray(x, copy=False)  # an array of this backend: no copy needed
    assert z is x


def test_integer_pow_with_a_negative_exponent_raises_at_the_call() -> None:
    with pytest.raises(ValueError, match="negative integer powers"):
        ivy.pow(chunked([2, 3]), chunked([1, -1]))


@pytest.mark.parametrize("name", numpy_functions.DISPATCHED)
def test_functions_handed_to_dask_by_numpy_stay_lazy(name: str) -> None:
    """Each of ``DISPATCHED`` on a multi-chunk array runs no graph: every NumPy call it makes
    is Dask's (a call Dask lacks would compute, and this would count it)."""
    x = chunked(np.arange(1.0, 25.0).reshape(4, 6), chunks=2)
    calls: dict[str, Callable[[], Any]] = {
        "broadcast_to": lambda: ivy.broadcast_to(x, (2, 4, 6)),
        "diagonal": lambda: ivy.linalg.diagonal(x),
        "empty_like": lambda: ivy.empty_like(x),
        "expand_dims": lambda: ivy.expand_dims(x, axis=0),
        "flip": lambda: ivy.flip(x),
        "fliplr": lambda: ivy.fliplr(x),
        "flipud": lambda: ivy.flipud(x),
        "full_like": lambda: ivy.full_like(x, 2.0),
        "matmul": lambda: ivy.matmul(x, ivy.matrix_transpose(x)),
        "matrix_transpose": lambda: ivy.matrix_transpose(x),
        "meshgrid": lambda: ivy.meshgrid(x[0], x[1]),
        "moveaxis": lambda: ivy.moveaxis(x, 0, 1),
        "ones_like": lambda: ivy.ones_like(x),
        "permute_dims": lambda: ivy.permute_dims(x, (1, 0)),
        "reshape": lambda: ivy.reshape(x, (6, 4)),
        "roll": lambda: ivy.roll(x, 1, axis=0),
        "rot90": lambda: ivy.rot90(x),
        "squeeze": lambda: ivy.squeeze(x[:1], axis=0),
        "swapaxes": lambda: ivy.swapaxes(x, 0, 1),
        "tile": lambda: ivy.tile(x, (2, 1)),
        "tril": lambda: ivy.tril(x),
        "triu": lambda: ivy.triu(x),
        "zeros_like": lambda: ivy.zeros_like(x),
    }
    count, ret = computations(calls[name])
    assert count == 0
    first = ret[0] if isinstance(ret, tuple | list) else ret
    assert isinstance(first.data, da.Array)


def test_functions_computed_in_one_process_refuse_inputs_above_the_limit(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(lifted, "GATHER_LIMIT", 64)
    small, large = chunked(np.arange(8.0)), chunked(np.arange(9.0))
    np.testing.assert_array_equal(ivy.to_numpy(ivy.sort(ivy.flip(small))), np.arange(8.0))
    with (
        Computations() as counter,
        pytest.raises(ivy.IvyNotImplementedException, match=r"sort .* GATHER_LIMIT"),
    ):
        ivy.sort(large)
    assert counter.count == 0  # refused before anything was computed


def test_docs_list_every_function_computed_in_one_process() -> None:
    text = DOCS.read_text(encoding="utf-8")
    section = text[text.index("### The Dask backend") :]
    listed = set(re.findall(r"`([a-z_]+)`", section[: section.index("\n### ", 5)]))
    missing = set(numpy_functions.IN_ONE_PROCESS) | set(numpy_functions.FFT)
    assert missing <= listed, sorted(missing - listed)


def test_chunking_follows_dasks_chunk_size_setting() -> None:
    with dask.config.set({"array.chunk-size": "1KiB"}):
        x = ivy.ones((1024,), dtype=ivy.float32)
        y = ivy.asarray(np.arange(1024, dtype=np.float32))
    assert len(x.data.chunks[0]) == 4 and len(y.data.chunks[0]) == 4
    assert len(ivy.ones((1024,), dtype=ivy.float32).data.chunks[0]) == 1  # 128 MiB default
    z = chunked(np.arange(10), chunks=3)
    assert ivy.add(z, 1).data.chunks == ((3, 3, 3, 1),)  # results follow their inputs
