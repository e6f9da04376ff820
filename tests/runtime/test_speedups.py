"""The C paths (``runtime/_speedups.c``) answer as the Python paths do, on every backend.

A public function of at most two arrays is a ``PublicFunction`` whose hot tier runs in C and
whose every other call goes to the Python function (``__ivy_general__``), which has the same
hot tier in Python. Each call below is made both ways and must give the same result (type,
dtype, values, a view where the Python path makes one) or the same error (type, message, the
exception it is raised from). ``x[key]`` on NumPy is ``ArrayBase``'s slot; it is compared with
``get_item``'s Python function. ``make test`` runs the hot-path tests again with
``IVYCHECK_PURE_PYTHON=1``, so the Python paths stay tested where C answers first.
"""

from __future__ import annotations

import os
import subprocess
import sys
import weakref
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import ivycheck.runtime as ivy
from ivycheck.runtime.array import Array
from ivycheck.runtime.speedups import SPEEDUPS

from .conftest import npy

pytestmark = pytest.mark.skipif(
    SPEEDUPS is None, reason="the C paths are not used here (IVYCHECK_PURE_PYTHON is set)"
)

VECTOR = np.arange(8, dtype=np.float32) - 3.5
MATRIX = np.arange(9, dtype=np.float32).reshape(3, 3)


def test_the_c_paths_are_built_and_used() -> None:
    # ``make test`` builds the extension (a compiler is part of the development setup); a
    # build that failed would leave every test green on the Python paths, only slower.
    assert os.environ.get("IVYCHECK_PURE_PYTHON") is None
    assert SPEEDUPS is not None
    assert type(ivy.add) is SPEEDUPS.PublicFunction and issubclass(Array, SPEEDUPS.ArrayBase)
    assert type(ivy.where) is not SPEEDUPS.PublicFunction  # three arrays: Python only
    build = os.environ.get("IVYCHECK_SPEEDUPS_BUILD")
    if build:  # ``make test-sanitize``: its own build, never the installed one
        assert os.path.samefile(SPEEDUPS.__file__, build)


def test_a_build_that_does_not_load_is_an_error() -> None:
    # ``IVYCHECK_SPEEDUPS_BUILD`` names the build to check (a sanitizer's): falling back to
    # the Python paths would make a run that checked no C pass
    env = {**os.environ, "IVYCHECK_SPEEDUPS_BUILD": "/nonexistent/_speedups.so"}
    run = subprocess.run(
        [sys.executable, "-c", "import ivycheck.runtime"],
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert run.returncode != 0
    assert "IVYCHECK_SPEEDUPS_BUILD='/nonexistent/_speedups.so': no such extension module" in (
        run.stderr
    )


def _calls(x: Array, y: Array, m: Array) -> list[tuple[str, Callable[..., Any], tuple[Any, ...]]]:
    """(label, public function, arguments): every branch of the C hot tier, and calls it
    must leave to Python."""
    native64 = ivy.to_native(ivy.zeros(1, dtype="float64")).dtype
    return [
        ("zeros", ivy.zeros, ((2, 3),)),
        ("zeros list", ivy.zeros, ([2],)),
        ("zeros int", ivy.zeros, (3,)),
        ("full", ivy.full, ((2,), 2.5)),
        ("full int fill", ivy.full, ((2,), 7)),
        ("arange", ivy.arange, (5,)),
        ("arange two", ivy.arange, (1, 5)),
        ("eye", ivy.eye, (3,)),
        ("zeros negative", ivy.zeros, ((-1,),)),
        ("zeros bad", ivy.zeros, ("a",)),
        ("concat", ivy.concat, ([x, y],)),
        ("asarray native", ivy.asarray, (ivy.to_native(x),)),
        ("abs", ivy.abs, (x,)),
        ("sqrt", ivy.sqrt, (m,)),
        ("sum", ivy.sum, (x,)),
        ("flip", ivy.flip, (x,)),
        ("matrix_transpose", ivy.matrix_transpose, (m,)),
        ("astype name", ivy.astype, (x, "float64")),
        ("astype native", ivy.astype, (x, native64)),
        ("astype dtype", ivy.astype, (x, ivy.int32)),
        ("astype unhashable", ivy.astype, (x, ["float64"])),
        ("astype unknown", ivy.astype, (x, "float128x")),
        ("reshape", ivy.reshape, (x, (2, 4))),
        ("reshape bad", ivy.reshape, (x, (3,))),
        ("reshape list", ivy.reshape, (x, [4, 2])),
        ("get_item slice", ivy.get_item, (x, slice(1, 5))),
        ("get_item out of range", ivy.get_item, (x, 100)),
        ("add", ivy.add, (x, y)),
        ("add broadcast error", ivy.add, (x, m)),
        ("equal", ivy.equal, (x, y)),
        ("matmul", ivy.matmul, (m, m)),
        ("matmul error", ivy.matmul, (x, m)),
        ("add array and native", ivy.add, (x, ivy.to_native(y))),
        ("add array and scalar", ivy.add, (x, 2.0)),
    ]


def _outcome(fn: Callable[..., Any], args: tuple[Any, ...]) -> tuple[str, Any]:
    try:
        return "value", fn(*args)
    except Exception as e:  # noqa: BLE001 - compared below
        return "error", e


def _assert_same(label: str, c: tuple[str, Any], python: tuple[str, Any], x: Array) -> None:
    assert c[0] == python[0], (label, c, python)
    if c[0] == "error":
        got, want = c[1], python[1]
        assert type(got) is type(want) and str(got) == str(want), label
        assert type(got.__cause__) is type(want.__cause__), label
        assert got.__suppress_context__ == want.__suppress_context__, label
        return
    got, want = c[1], python[1]
    assert type(got) is type(want), label
    if isinstance(got, Array):
        assert got.dtype == want.dtype and got.shape == want.shape, label
        np.testing.assert_array_equal(npy(got), npy(want), err_msg=label)
        if ivy.current_backend_str() in ("numpy", "torch"):  # native views
            shares = np.shares_memory(npy_view(got), npy_view(x))
            assert shares == np.shares_memory(npy_view(want), npy_view(x)), label
    else:
        np.testing.assert_array_equal(npy(got), npy(want), err_msg=label)


def npy_view(a: Array) -> np.ndarray:
    """The native buffer as NumPy sees it, without a copy (NumPy and PyTorch on the CPU)."""
    data = ivy.to_native(a)
    return data if isinstance(data, np.ndarray) else data.numpy()


def test_every_c_path_answers_as_the_python_path(backend: str) -> None:
    x, y, m = ivy.asarray(VECTOR), ivy.asarray(VECTOR[::-1].copy()), ivy.asarray(MATRIX)
    for label, fn, args in _calls(x, y, m):
        assert SPEEDUPS is not None and type(fn) is SPEEDUPS.PublicFunction, label
        python = fn.__ivy_general__  # type: ignore[attr-defined]
        for _ in range(2):  # the second time: dtypes answered before (``astype``'s table)
            _assert_same(label, _outcome(fn, args), _outcome(python, args), x)


OUT_CALLS: list[tuple[str, str, tuple[str, ...], tuple[int, ...], str]] = [
    # (label, function, arguments, out's shape, out's dtype)
    ("fits", "add", ("x", "y"), (8,), "float32"),
    ("one array", "abs", ("x",), (8,), "float32"),
    ("wider dtype", "add", ("x", "y"), (8,), "float64"),
    ("narrower dtype", "add", ("x", "y"), (8,), "int32"),
    ("other shape", "add", ("x", "y"), (2,), "float32"),
    ("broadcast into", "add", ("x", "y"), (3, 8), "float32"),
    ("backend error", "add", ("x", "m"), (8,), "float32"),
    ("comparison", "less", ("x", "y"), (8,), "bool"),
    ("matmul", "matmul", ("m", "m"), (3, 3), "float32"),
]


@pytest.mark.parametrize("case", OUT_CALLS, ids=lambda c: c[0])
def test_every_out_path_answers_as_the_python_path(
    backend: str, case: tuple[str, str, tuple[str, ...], tuple[int, ...], str]
) -> None:
    label, name, names, shape, dtype = case
    arrays = {"x": VECTOR, "y": VECTOR[::-1].copy(), "m": MATRIX}
    fn = getattr(ivy, name)
    outcomes = []
    for call in (fn, fn.__ivy_general__):
        args = [ivy.asarray(arrays[n]) for n in names]
        out = ivy.full(shape, 9, dtype=dtype)
        for _ in range(2):  # the second time: the backend's answers are memoised
            got = _outcome(lambda *a, out=out, call=call: call(*a, out=out), tuple(args))
            assert got[0] == "error" or got[1] is out, label
        outcomes.append((got, out.dtype, npy(out)))
    (c, c_dtype, c_values), (python, python_dtype, python_values) = outcomes
    assert c[0] == python[0] and c_dtype == python_dtype, label
    if c[0] == "error":  # the same error; ``out`` untouched alike
        _assert_same(label, c, python, ivy.asarray(VECTOR))
    np.testing.assert_array_equal(c_values, python_values, err_msg=label)


KEYS: list[Any] = [
    3,
    -1,
    slice(1, 5),
    slice(None, None, -2),
    (slice(1, 5), None),
    (None, Ellipsis),
    (),
    Ellipsis,
    None,
    100,  # out of range
    1.5,  # not an index
    (slice(1, 2), 0.5),
    "a",
    slice(0, 4, 0),  # a zero step: the native array refuses it
    np.int64(2),  # not plain: the Python path
    [0, 2],  # advanced
    np.array([True, False] * 4),
]


@pytest.mark.parametrize("key", KEYS, ids=repr)
def test_item_answers_as_the_python_path(backend: str, key: Any) -> None:
    x = ivy.asarray(VECTOR)
    python = ivy.get_item.__ivy_general__  # type: ignore[attr-defined]
    _assert_same(repr(key), _outcome(x.__getitem__, (key,)), _outcome(python, (x, key)), x)
    key_array = ivy.asarray(np.array([0, 7]))
    np.testing.assert_array_equal(npy(x[key_array]), VECTOR[[0, 7]])


def test_methods_bind_as_functions_do(backend: str) -> None:
    x = ivy.asarray(VECTOR)
    assert Array.astype is ivy.astype  # the class attribute is the function itself
    bound = x.astype
    assert bound.__self__ is x and bound.__func__ is ivy.astype
    np.testing.assert_array_equal(npy(x.astype("int32")), VECTOR.astype("int32"))
    np.testing.assert_array_equal(npy(x.abs()), np.abs(VECTOR))
    np.testing.assert_array_equal(npy(x.add(x)), VECTOR * 2)


def test_public_functions_look_like_functions() -> None:
    import inspect
    import pickle

    assert ivy.add.__name__ == "add" and ivy.add.__wrapped__ is ivy.add.__ivy_raw__  # type: ignore[attr-defined]
    assert list(inspect.signature(ivy.add).parameters)[:2] == ["x1", "x2"]
    assert repr(ivy.add).startswith("<function add at ")
    assert pickle.loads(pickle.dumps(ivy.add)) is ivy.add
    assert weakref.ref(ivy.add)() is ivy.add
    assert ivy.astype.__doc__ and "cast" in ivy.astype.__doc__


def test_results_are_plain_arrays_that_free_and_track_weakly(backend: str) -> None:
    x = ivy.asarray(VECTOR)
    made = [ivy.abs(x), ivy.add(x, x), ivy.zeros((2,)), ivy.astype(x, "float64")]
    for a in made:
        assert type(a) is Array and getattr(a, "_geometry", None) is None
        ref = weakref.ref(a)
        del a
    del made
    assert ref() is None


def test_a_keyboard_interrupt_is_not_converted() -> None:
    class Interrupting:
        def __getitem__(self, key: Any) -> Any:
            raise KeyboardInterrupt

    with ivy.using_backend("numpy"):
        x = ivy.asarray(VECTOR)
        x._data = Interrupting()
        with pytest.raises(KeyboardInterrupt):
            x[1:2]


def test_the_python_paths_when_asked_for() -> None:
    # IVYCHECK_PURE_PYTHON: no C at all; the Python paths give the same answers.
    script = (
        "import numpy as np, ivycheck.runtime as ivy\n"
        "from ivycheck.runtime.array import Array\n"
        "from ivycheck.runtime.speedups import SPEEDUPS\n"
        "ivy.set_backend('numpy')\n"
        "x = ivy.asarray(np.arange(8, dtype=np.float32))\n"
        "assert SPEEDUPS is None and type(ivy.add).__name__ == 'function'\n"
        "assert '__getitem__' in Array.__dict__ and Array.__bases__ == (object,)\n"
        "print(ivy.to_numpy(x[1:5]).tolist(), ivy.astype(x, 'int32').dtype)\n"
    )
    env = {**os.environ, "IVYCHECK_PURE_PYTHON": "1"}
    run = subprocess.run(
        [sys.executable, "-c", script], env=env, capture_output=True, text=True, check=False
    )
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == "[1.0, 2.0, 3.0, 4.0] int32"


def test_out_of_one_layout_then_others_on_every_path(backend: str) -> None:
    # TensorFlow's C path remembers, per elementwise function, the result layout of the last
    # inputs' layouts it read (``RESULT_LAYOUT_FROM_INPUTS``): a loop over one layout reads no
    # shape. Inputs of another layout, a wider dtype, and a function whose result layout
    # follows from values must each still be seen, on every backend and both paths.
    f32 = np.arange(8, dtype=np.float32)
    for add in (ivy.add, ivy.add.__ivy_general__):  # type: ignore[attr-defined]
        x, y = ivy.asarray(f32), ivy.asarray(f32[::-1].copy())
        out = ivy.zeros((8,))
        for _ in range(3):  # remembered from the second call on
            assert add(x, y, out=out) is out
        np.testing.assert_array_equal(npy(out), np.full(8, 7.0, np.float32))
        wide = ivy.asarray(np.ones((3, 8), np.float32))
        with pytest.raises(ivy.InplaceUpdateException):
            add(x, wide, out=out)  # (3, 8) does not fit (8,)
        np.testing.assert_array_equal(npy(out), np.full(8, 7.0, np.float32))
        assert add(x, ivy.asarray(np.ones(8, np.float64)), out=out) is out  # cast back
        assert out.dtype == ivy.float32 and out.shape == (8,)
        np.testing.assert_array_equal(npy(out), f32 + 1)
        assert add(x, y, out=out) is out and out.dtype == ivy.float32
        small = ivy.asarray(np.arange(2, dtype=np.float32))
        with pytest.raises(ivy.InplaceUpdateException):
            add(small, small, out=out)
        unique = ivy.zeros((4,))
        ivy.unique_values(ivy.asarray(np.array([1.0, 2.0, 3.0, 4.0], np.float32)), out=unique)
        with pytest.raises(ivy.InplaceUpdateException):  # the same layout in, two values out
            ivy.unique_values(ivy.asarray(np.array([1.0, 1.0, 1.0, 2.0], np.float32)), out=unique)
        np.testing.assert_array_equal(npy(unique), [1.0, 2.0, 3.0, 4.0])


def test_a_variable_of_changing_shape_is_read_each_time() -> None:
    # A ``tf.Variable`` of unknown shape may change it: no token is kept for it.
    import tensorflow as tf

    with ivy.using_backend("tensorflow"):
        var = tf.Variable(np.ones(4, np.float32), shape=tf.TensorShape(None))
        x = ivy.Array(var)
        out = ivy.zeros((4,))
        for _ in range(2):
            assert ivy.add(x, x, out=out) is out
        var.assign(np.ones(2, np.float32))
        with pytest.raises(ivy.InplaceUpdateException):
            ivy.add(x, x, out=out)
        np.testing.assert_array_equal(npy(out), np.full(4, 2.0, np.float32))


def test_a_replaced_tensor_is_not_kept_alive() -> None:
    # The C path keeps the layout of ``out``'s data with ``out``; where Python replaces that
    # data (``x[i] = v`` on an immutable tensor), the layout and the old data go with it.
    import gc

    with ivy.using_backend("tensorflow"):
        x, out = ivy.asarray(np.arange(4, dtype=np.float32)), ivy.zeros((4,))
        for _ in range(2):
            ivy.add(x, x, out=out)
        old = weakref.ref(out._data)
        out[0] = 5.0
        gc.collect()
        assert old() is None
        np.testing.assert_array_equal(npy(ivy.add(x, x, out=out)), [0.0, 2.0, 4.0, 6.0])
