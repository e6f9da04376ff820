"""The run-time half of ``scripts/verify_fixes.py``: calls Ivy functions in one process.

Started by ``verify_fixes.py`` once per (tree, backend), with only that tree's folder on
``sys.path`` (the shared Ivy snapshot read in place, or the temporary fixed copy), so the two
trees never meet in one interpreter. It reads a job (JSON) naming the backend, the functions to
call and the claims to check, and writes what it observed (JSON). Nothing here judges: the
parent compares the original tree's observations with the fixed copy's and decides.

For each function it generates inputs from the public function's signature (arrays of a float
dtype, then of an int dtype, ints for axes and lengths, ...), calls it once without ``out``, then
with an ``out`` of the result's dtype and with one of another dtype, each filled with a sentinel
so that a function that accumulates into ``out`` (or ignores it) shows. It records the result
(values, dtype, shape, or the exception's type), whether the function returned ``out`` itself,
``out``'s dtype and values afterwards, whether ``out`` still holds its old native buffer, and
what that old buffer holds afterwards.

Ivy's optional dependencies that the installed environment lacks and that are only needed by
functions nobody here calls (``colorama`` for container printing, ``psutil`` for memory
figures, ``einops``, ``dill`` for pickling modules) are stood in for by inert modules, each only
if it is not installed; calling into one raises ``ModuleNotFoundError``, which is then the
observed result. Run as ``python verify_fixes_worker.py JOB.json RESULT.json``.
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import importlib.util
import inspect
import itertools
import json
import math
import os
import signal
import sys
import traceback
import types
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from typing import Any

STUBBED = ("colorama", "psutil", "einops", "dill")
"""Optional dependencies of the snapshot replaced by inert modules when not installed."""

CALL_TIMEOUT = 60
"""Seconds one call may take before it counts as raising ``TimeoutError`` (JAX compiles each
new operation on first use: ``ivy.tucker`` took over 20 s on 2 loaded cores)."""

SENTINEL = 7
"""The value ``out`` holds before a call (a function that ignores or accumulates into ``out``
then differs from one that overwrites it)."""

OTHER_DTYPE = {
    "float32": "float64",
    "float64": "float32",
    "float16": "float32",
    "bfloat16": "float32",
    "complex64": "complex128",
    "complex128": "complex64",
    "bool": "float32",
}
"""The dtype of the second ``out`` buffer, by the result's dtype (integers: float32)."""

Json = dict[str, Any]


class _Missing:
    """An attribute of a stubbed module: calling it raises."""

    def __init__(self, name: str) -> None:
        self._name = name

    def __getattr__(self, attr: str) -> _Missing:
        if attr.startswith("__"):
            raise AttributeError(attr)
        return _Missing(f"{self._name}.{attr}")

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        raise ModuleNotFoundError(f"{self._name}: not installed (stubbed by verify_fixes)")


class _StubFinder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    def __init__(self, names: set[str]) -> None:
        self.names = names

    def find_spec(self, fullname: str, path: Any, target: Any = None) -> Any:
        if fullname.split(".")[0] in self.names:
            return importlib.machinery.ModuleSpec(fullname, self, is_package=True)
        return None

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> types.ModuleType:
        module = types.ModuleType(spec.name)
        module.__path__ = []

        def missing(attr: str, name: str = spec.name) -> Any:
            if attr.startswith("__"):
                raise AttributeError(attr)
            return _Missing(f"{name}.{attr}")

        module.__getattr__ = missing  # type: ignore[method-assign]
        return module

    def exec_module(self, module: types.ModuleType) -> None:
        if module.__name__ == "colorama":  # called at import time by ivy.data_classes
            codes = types.SimpleNamespace(__getattr__=lambda _name: "")
            module.init = lambda *a, **k: None  # type: ignore[attr-defined]
            module.Fore = module.Back = module.Style = codes  # type: ignore[attr-defined]
        if module.__name__ == "dill":  # torch.utils.data calls dill.extend when dill exists
            module.extend = lambda *a, **k: None  # type: ignore[attr-defined]


def install_stubs() -> list[str]:
    """Stand in for the optional dependencies that are not installed; return their names."""
    missing = {name for name in STUBBED if importlib.util.find_spec(name) is None}
    if missing:
        sys.meta_path.append(_StubFinder(missing))
    return sorted(missing)


def _ivy() -> Any:
    """The ``ivy`` package of the tree on ``sys.path`` (imported on first use)."""
    return importlib.import_module("ivy")


class _Timeout(Exception):
    pass


@contextmanager
def _deadline(seconds: int) -> Iterator[None]:
    def expire(signum: int, frame: Any) -> None:
        raise _Timeout(f"took more than {seconds} s")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


class LineProbe:
    """Whether a given line of a given file ran (``sys.settrace``, local to that file)."""

    def __init__(self, filename: str, line: int) -> None:
        self.filename = filename
        self.line = line
        self.hit = False

    def _local(self, frame: Any, event: str, arg: Any) -> Any:
        if event == "line" and frame.f_lineno == self.line:
            self.hit = True
        return self._local

    def _global(self, frame: Any, event: str, arg: Any) -> Any:
        if frame.f_code.co_filename == self.filename:
            return self._local
        return None

    @contextmanager
    def watching(self) -> Iterator[LineProbe]:
        sys.settrace(self._global)
        try:
            yield self
        finally:
            sys.settrace(None)


# -- inputs --------------------------------------------------------------------------------


FLOAT_MATRIX = [[0.9, 0.2, 0.1], [0.3, 0.8, 0.2], [0.1, 0.25, 0.7]]
"""In (0, 1) for log/logit/lgamma, diagonally dominant (invertible) for linear algebra."""
FLOAT_MATRIX_2 = [[0.6, 0.15, 0.35], [0.45, 0.7, 0.05], [0.2, 0.4, 0.85]]
INT_MATRIX = [[3, 1, 2], [4, 6, 5], [9, 7, 8]]
INT_MATRIX_2 = [[2, 0, 1], [1, 2, 0], [0, 1, 2]]
COMPLEX_MATRIX = [
    [complex(a, b) for a, b in zip(r, q, strict=True)]
    for r, q in zip(FLOAT_MATRIX, FLOAT_MATRIX_2, strict=True)
]
COMPLEX_MATRIX_2 = [
    [complex(b, -a) for a, b in zip(r, q, strict=True)]
    for r, q in zip(FLOAT_MATRIX, FLOAT_MATRIX_2, strict=True)
]


def _annotation_text(param: inspect.Parameter) -> str:
    annotation = param.annotation
    if annotation is inspect.Parameter.empty:
        return ""
    return annotation if isinstance(annotation, str) else repr(annotation)


ARRAY_NAMES = {"x", "x1", "x2", "a", "b", "input", "arr", "y", "self", "values", "weights", "m"}
ARRAY_TYPES = ("Array", "ndarray", "Tensor", "Variable", "method tensor")
"""Annotation words of an array parameter (the API's and the backends' own)."""
INT_NAMES = {"axis": 0, "dim": 0, "window_length": 4, "num": 4, "n": 3, "k": 1, "size": 4}


def plan_arguments(
    fn: Callable[..., Any], kind: str, shape: str
) -> tuple[list[Any], dict[str, Any]] | str:
    """Positional and keyword arguments for ``fn``'s required parameters, or why none exist.

    ``kind`` is the array dtype family ("float" or "int"), ``shape`` the array form ("matrix",
    "vector", "scalar", "empty", "single", "batch": the matrix as a 1x3x3 batch).
    """
    ivy = _ivy()

    dtype = {"float": "float32", "int": "int32", "complex": "complex64"}[kind]
    pairs: dict[str, tuple[list[list[Any]], list[list[Any]]]] = {
        "float": (FLOAT_MATRIX, FLOAT_MATRIX_2),
        "int": (INT_MATRIX, INT_MATRIX_2),
        "complex": (COMPLEX_MATRIX, COMPLEX_MATRIX_2),
    }
    first, second = pairs[kind]

    def array(which: int) -> Any:
        data = first if which == 0 else second
        if shape == "vector":
            return ivy.array(data[0], dtype=dtype)
        if shape == "scalar":
            return ivy.array(data[0][0], dtype=dtype)
        if shape == "empty":
            return ivy.zeros((0,), dtype=dtype)
        if shape == "single":
            return ivy.array(data[0][:1], dtype=dtype)
        if shape == "batch":
            return ivy.array([data], dtype=dtype)
        return ivy.array(data, dtype=dtype)

    try:
        signature = inspect.signature(fn)
    except (TypeError, ValueError) as error:
        return f"no signature: {error}"
    args: list[Any] = []
    kwargs: dict[str, Any] = {}
    arrays = 0
    for param in signature.parameters.values():
        if param.name == "out" or param.kind in (param.VAR_POSITIONAL, param.VAR_KEYWORD):
            continue
        if param.default is not param.empty:
            continue
        text = _annotation_text(param)
        name = param.name
        value: Any
        arrayish = any(word in text for word in ARRAY_TYPES)
        if ("Sequence" in text or "List" in text or "Tuple" in text) and arrayish:
            value = [array(0), array(1)]
        elif arrayish or (not text and name in ARRAY_NAMES):
            value = array(arrays % 2)
            arrays += 1
        elif name in INT_NAMES and ("int" in text or not text):
            value = INT_NAMES[name]
        elif "Shape" in text or name == "shape":
            value = (3, 3)
        elif "dtype" in text or name == "dtype":
            value = ivy.as_native_dtype(dtype)
        elif "device" in text or name == "device":
            value = ivy.as_native_dev("cpu")
        elif (
            "int" in text
            and "Sequence" in text
            and not any(word in text for word in ("Union[int", "Optional[int"))
        ):
            value = [0] if name.endswith(("modes", "axes")) else [2, 2]
        elif "int" in text and ("Union" in text or "Tuple" in text):
            value = INT_NAMES.get(name, {"destination": 1, "kernel_size": 2}.get(name, 0))
        elif text in ("int", "<class 'int'>"):
            value = 2
        elif "float" in text or "Number" in text:
            value = 0.5
        elif text in ("bool", "<class 'bool'>"):
            value = False
        else:
            return f"cannot generate parameter `{name}`" + (f" ({text})" if text else "")
        if param.kind == param.KEYWORD_ONLY:
            kwargs[name] = value
        else:
            args.append(value)
    return args, kwargs


PLANS = (("float", "matrix"), ("int", "matrix"))
"""Input forms tried in order for a fix: the first whose call without ``out`` succeeds."""
DEGENERATE_PLANS = (("float", "scalar"), ("float", "single"))
"""Inputs for a claim about 0-d or single-element input (an empty array has no memory to
share, so a view of it cannot be told from a copy)."""
CLAIM_PLANS = (
    ("float", "matrix"),
    ("int", "matrix"),
    ("float", "vector"),
    ("float", "scalar"),
    ("float", "empty"),
    ("complex", "matrix"),
)
"""Input forms tried for a claim about one return path, until one reaches that path."""
UNWRITTEN_PLANS = (*PLANS, ("float", "batch"))
"""Inputs for "nothing writes `out`": a 3-D batch last (layers such as ``interpolate`` take
(batch, channels, width) at least on some backends)."""


# -- observations --------------------------------------------------------------------------


def _plain(value: Any) -> Any:
    """JSON-safe nested lists of Python numbers (NaN/inf as strings)."""
    if isinstance(value, list):
        return [_plain(v) for v in value]
    if isinstance(value, complex):
        return [_plain(value.real), _plain(value.imag)]
    if isinstance(value, float) and not math.isfinite(value):
        return repr(value)
    return value


def _native_values(native: Any) -> Any:
    import numpy as np

    if hasattr(native, "detach"):
        native = native.detach().cpu().numpy()
    return _plain(np.asarray(native).tolist())


def describe(value: Any) -> Json:
    """An observation of a returned value: arrays by dtype, shape and values."""
    ivy = _ivy()

    if isinstance(value, (tuple, list)):
        return {"sequence": [describe(v) for v in value]}
    if ivy.is_array(value):
        return {
            "dtype": str(ivy.dtype(value)),
            "shape": [int(d) for d in ivy.shape(value)],
            "values": _native_values(ivy.to_native(value)),
        }
    if value is None or isinstance(value, (bool, int, float, str)):
        return {"python": _plain(value)}
    return {"object": type(value).__name__}


def _exception(error: BaseException) -> Json:
    """The exception's type and first line, and the type of the exception it wraps last."""
    root: BaseException = error
    for _ in range(10000):
        inner = root.__cause__ or root.__context__
        if inner is None:
            break
        root = inner
    # A timeout is named as such even when Ivy's handle_exceptions wrapped it.
    timed_out = isinstance(error, _Timeout) or isinstance(root, _Timeout)
    name = "TimeoutError" if timed_out else type(error).__name__
    text = str(error).splitlines()[0][:200] if str(error) else ""
    return {"raises": name, "root": type(root).__name__, "message": text}


def _call(
    fn: Callable[..., Any], args: list[Any], kwargs: dict[str, Any]
) -> tuple[Any, Json | None]:
    ivy = _ivy()

    try:
        ivy.seed(seed_value=0)
        with _deadline(CALL_TIMEOUT):
            return fn(*args, **kwargs), None
    except (Exception, _Timeout) as error:  # noqa: BLE001 - an exception is an observed result
        return None, _exception(error)


def _buffers(result: Any, dtype_for: Callable[[str], str]) -> Any:
    """``out`` buffers shaped as ``result`` (tuples for tuple results), filled with SENTINEL."""
    ivy = _ivy()

    if isinstance(result, (tuple, list)):
        return tuple(_buffers(item, dtype_for) for item in result)
    dtype = dtype_for(str(ivy.dtype(result)))
    return ivy.full(ivy.shape(result), _sentinel_for(dtype), dtype=dtype)


def _sentinel_for(dtype: str) -> Any:
    """SENTINEL as a value of ``dtype``'s kind: 2023-03 Ivy's ``full`` refuses an int fill
    for a float dtype (``the fill_value: 7 and data type: float64 are not compatible``)."""
    if "bool" in dtype:
        return True
    if "complex" in dtype:
        return complex(SENTINEL)
    if "float" in dtype:
        return float(SENTINEL)
    return SENTINEL


def _native_of(out: Any) -> Any:
    if isinstance(out, tuple):
        return tuple(_native_of(o) for o in out)
    return out.data


def _out_state(out: Any, old_native: Any, ret: Any) -> Json:
    ivy = _ivy()

    if isinstance(out, tuple):
        return {
            "ret_is_out": ret is out,
            # a new list or tuple of out's own items (2023-03 Ivy's update path for several
            # results returns what `nested_multi_map` builds): the items are still out's
            "ret_items_are_out": isinstance(ret, (tuple, list))
            and len(ret) == len(out)
            and all(r is o for r, o in zip(ret, out, strict=True)),
            "items": [_out_state(o, n, None) for o, n in zip(out, old_native, strict=True)],
        }
    return {
        "ret_is_out": ret is out,
        "out_dtype": str(ivy.dtype(out)),
        "out_values": _native_values(out.data),
        "out_buffer_kept": out.data is old_native,
        "old_buffer_values": _native_values(old_native),
    }


def observe_with_out(
    fn: Callable[..., Any], args: list[Any], kwargs: dict[str, Any], result: Any, other: bool
) -> Json:
    """Call ``fn`` with an ``out`` of the result's dtype (or of another dtype when ``other``)."""

    def dtype_for(dtype: str) -> str:
        return OTHER_DTYPE.get(dtype, "float32") if other else dtype

    try:
        out = _buffers(result, dtype_for)
    except Exception as failure:  # noqa: BLE001 - a buffer that cannot be made is reported
        return {"not_runnable": f"cannot make out: {type(failure).__name__}: {failure}"}
    made, wanted = _dtypes(out), _dtypes(tuple(result) if isinstance(result, list) else result)
    if other and made == wanted:  # JAX without 64-bit types makes float32 for float64
        return {"not_runnable": f"no out of another dtype: the backend made {made} for {wanted}"}
    old_native = _native_of(out)
    initial = _initial_values(old_native)
    observation: Json = {"out_dtype_before": _dtypes(out), "out_values_before": initial}
    ret, error = _call(fn, args, {**kwargs, "out": out})
    if error is not None:
        observation["result"] = error
    else:
        observation["result"] = describe(ret)
    observation.update(_out_state(out, old_native, ret))
    return observation


def _initial_values(native: Any) -> Any:
    if isinstance(native, tuple):
        return [_native_values(n) for n in native]
    return _native_values(native)


def _dtypes(out: Any) -> Any:
    ivy = _ivy()

    if isinstance(out, tuple):
        return [_dtypes(o) for o in out]
    return str(ivy.dtype(out))


def find_plan(
    fn: Callable[..., Any],
    plans: tuple[tuple[str, str], ...],
    extra: dict[str, Any] | None = None,
) -> tuple[list[Any], dict[str, Any], Any, Json] | tuple[None, None, None, Json]:
    """The first plan whose call without ``out`` returns arrays; else the last observation."""
    ivy = _ivy()

    last: Json = {"not_runnable": "no input plan"}
    for kind, shape in plans:
        planned = plan_arguments(fn, kind, shape)
        if isinstance(planned, str):
            return None, None, None, {"not_runnable": planned}
        args, kwargs = planned
        kwargs = {**kwargs, **(extra or {})}
        ret, error = _call(fn, args, kwargs)
        if error is not None:
            last = {"plan": f"{kind} {shape}", "result": error}
            continue
        items = ret if isinstance(ret, (tuple, list)) else [ret]
        if not items or not all(ivy.is_array(item) for item in items):
            last = {"plan": f"{kind} {shape}", "result": describe(ret)}
            continue
        return args, kwargs, ret, {"plan": f"{kind} {shape}", "result": describe(ret)}
    return None, None, None, last


def run_function(name: str) -> Json:
    """The three observations of ``ivy.<name>``: without ``out``, with each ``out``."""
    ivy = _ivy()

    fn = getattr(ivy, name, None)
    if not callable(fn):
        return {"not_runnable": f"`ivy.{name}` does not exist on this backend"}
    args, kwargs, ret, plain = find_plan(fn, PLANS)
    report: Json = {"plain": plain}
    if args is None or kwargs is None:
        return report
    if _values_vary(fn, args, kwargs, plain):
        # Uninitialized memory (`empty`): two equal calls give different values, so only
        # what the call promises (dtype, shape) is compared (verify_fixes._shape_only).
        report["values_vary"] = True
        return report
    report["out_same"] = observe_with_out(fn, args, kwargs, ret, other=False)
    report["out_other"] = observe_with_out(fn, args, kwargs, ret, other=True)
    return report


def _values_vary(
    fn: Callable[..., Any], args: list[Any], kwargs: dict[str, Any], seen: Json
) -> bool:
    """Whether a second call with the same arguments (and seed) returns other values."""
    ret, error = _call(fn, args, kwargs)
    return error is None and describe(ret) != seen.get("result")


# -- claims --------------------------------------------------------------------------------


def _wrapper_chain(fn: Any) -> list[Any]:
    chain = []
    seen: set[int] = set()
    while fn is not None and id(fn) not in seen:
        seen.add(id(fn))
        chain.append(fn)
        fn = getattr(fn, "__wrapped__", None)
    return chain


def _native_out_flag(fn: Any) -> bool | None:
    """``handle_out_in_backend`` of the ``handle_out_argument`` wrapper, None without one."""
    for link in _wrapper_chain(fn):
        code = getattr(link, "__code__", None)
        if code is None or "handle_out_in_backend" not in code.co_freevars:
            continue
        names = code.co_freevars
        for var, cell in zip(names, link.__closure__ or (), strict=True):
            if var == "handle_out_in_backend":
                return bool(cell.cell_contents)
    return None


def _shares_memory(a: Any, b: Any) -> bool:
    import numpy as np

    if hasattr(a, "untyped_storage") and hasattr(b, "untyped_storage"):
        return bool(a.untyped_storage().data_ptr() == b.untyped_storage().data_ptr())
    return bool(np.shares_memory(np.asarray(a), np.asarray(b)))


def check_claim(claim: Json) -> Json:
    """Run what a finding's message says happens and report whether it does."""
    ivy = _ivy()

    name, check = claim["function"], claim["check"]
    fn = getattr(ivy, name, None)
    if not callable(fn):
        return {"status": "not runnable", "why": f"`ivy.{name}` does not exist on this backend"}
    if check == "acts_as_true":
        flag = _native_out_flag(fn)
        if flag is None:
            return {"status": "not runnable", "why": "no handle_out_argument wrapper"}
        status = "confirmed" if flag else "refuted"
        return {"status": status, "why": f"the wrapper's handle_out_in_backend is {flag}"}
    if check == "read_by_nothing":
        flag = _native_out_flag(fn)
        if flag is None:
            return {
                "status": "confirmed",
                "why": f"ivy.{name} has no handle_out_argument wrapper",
            }
        return {"status": "refuted", "why": f"a handle_out_argument wrapper reads it ({flag})"}
    if check == "raises_attribute_error":
        args, kwargs, _ret, plain = find_plan(fn, PLANS)
        result = plain.get("result", {})
        if args is not None:
            return {"status": "refuted", "why": "the call returned", "observed": plain}
        if "not_runnable" in plain:
            return {"status": "not runnable", "why": plain["not_runnable"]}
        raised = f"raised {result.get('raises')} (root cause {result.get('root')})"
        if "AttributeError" in (result.get("raises"), result.get("root")):
            return {"status": "confirmed", "why": raised, "observed": plain}
        return {"status": "refuted", "why": raised, "observed": plain}
    if check == "raises":
        args, kwargs, _ret, plain = find_plan(fn, PLANS)
        if "not_runnable" in plain:
            return {"status": "not runnable", "why": plain["not_runnable"]}
        if args is not None:
            return {"status": "refuted", "why": "the call returned", "observed": plain}
        result = plain.get("result", {})
        raised = f"raised {result.get('raises')} (root cause {result.get('root')})"
        return {"status": "confirmed", "why": raised, "observed": plain}
    if check == "rewrapped_in_list_order":
        return _check_rewrapped(ivy, fn, name)
    if check in ("returns_view", "returns_view_degenerate"):
        plans = PLANS if check == "returns_view" else DEGENERATE_PLANS
        seen: list[str] = []
        for plan in plans:
            args, kwargs, ret, plain = find_plan(fn, (plan,))
            if args is None or kwargs is None:
                seen.append(f"{' '.join(plan)}: {_why(plain)}")
                continue
            if _shares_memory(ivy.to_native(ret), ivy.to_native(args[0])):
                why = f"{' '.join(plan)}: the result shares memory with the input"
                return {"status": "confirmed", "why": why}
            seen.append(f"{' '.join(plan)}: a new array")
        ran = any(item.endswith("a new array") for item in seen)
        return {"status": "refuted" if ran else "not runnable", "why": "; ".join(seen)}
    if check in (
        "dtype_change",
        "never_writes_out",
        "out_not_written",
        "copied_into_out",
        "path_copied_into_out",
        "path_dtype_change",
    ):
        return _check_out_claim(fn, claim)
    return {"status": "not runnable", "why": f"unknown check {check}"}


def _check_rewrapped(ivy: Any, fn: Any, name: str) -> Json:
    """IVY005's style warning: with a backend set, ``ivy.<name>`` is the backend's own
    function wrapped in the project's ``FN_DECORATORS`` order, whatever order the API
    function's source wrote. Confirmed when the innermost function of the live chain is
    defined in the backend's folder and the wrappers of the chain (each named by the code
    of its inner function, ``handle_out_argument.<locals>...``) come outermost first in
    descending list position, i.e. applied in the list's order."""
    order = list(getattr(sys.modules.get("ivy.func_wrapper"), "FN_DECORATORS", ()))
    if not order:
        return {"status": "not runnable", "why": "ivy.func_wrapper has no FN_DECORATORS"}
    links = _wrapper_chain(fn)
    backend = ivy.current_backend_str()
    folder = f"{os.sep}functional{os.sep}backends{os.sep}{backend}{os.sep}"
    origin = _origin(links[-1])
    if origin is None or folder not in origin:
        return {"status": "refuted", "why": f"ivy.{name} is not the backend's own ({origin})"}
    names = [
        link.__code__.co_qualname.split(".<locals>")[0]
        for link in links[:-1]
        if hasattr(link, "__code__")
    ]
    listed = [n for n in names if n in order]
    positions = [order.index(n) for n in listed]
    applied_in_order = all(a > b for a, b in itertools.pairwise(positions))
    why = f"chain, outermost first: {', '.join(listed)}; FN_DECORATORS positions {positions}"
    return {"status": "confirmed" if applied_in_order else "refuted", "why": why}


def _origin(fn: Any, depth: int = 3) -> str | None:
    """The file defining the function at the bottom of ``fn``: its own, or, for a wrapper
    without ``__wrapped__`` (a project helper such as 2023-03 Ivy's
    ``_handle_nestable_dtype_info``), that of the function its closure holds."""
    code = getattr(fn, "__code__", None)
    if code is None:
        return None
    for cell in getattr(fn, "__closure__", None) or ():
        inner = cell.cell_contents
        if depth and callable(inner) and hasattr(inner, "__code__"):
            found = _origin(inner, depth - 1)
            if found is not None:
                return found
    return str(code.co_filename)


def _why(plain: Json) -> str:
    if "not_runnable" in plain:
        return str(plain["not_runnable"])
    result = plain.get("result", {})
    if "raises" in result:
        return f"every generated input raises ({result['raises']}: {result.get('message', '')})"
    return f"the result is not an array ({result})"


def _check_out_claim(fn: Callable[..., Any], claim: Json) -> Json:
    """Claims about ``out`` after a call: it changes dtype; or a return leaves it unwritten."""
    check = claim["check"]
    on_path = check in ("never_writes_out", "path_copied_into_out", "path_dtype_change")
    probe = LineProbe(claim["file"], claim["line"]) if on_path else None
    plans = CLAIM_PLANS if probe else UNWRITTEN_PLANS if check == "out_not_written" else PLANS
    tried: list[str] = []
    flips = _bool_flips(fn) if probe else [{}]
    for (kind, shape), flip in ((plan, flip) for flip in flips for plan in plans):
        args, kwargs, ret, plain = find_plan(fn, ((kind, shape),), flip)
        label = f"{kind} {shape}" + "".join(f", {k}={v}" for k, v in flip.items())
        if args is None or kwargs is None:
            tried.append(f"{label}: {_why(plain)}")
            continue
        other = check != "out_not_written"
        if probe is not None:
            probe.hit = False
            with probe.watching():
                seen = observe_with_out(fn, args, kwargs, ret, other=other)
            if not probe.hit:
                tried.append(f"{label}: line {claim['line']} not reached")
                continue
        else:
            seen = observe_with_out(fn, args, kwargs, ret, other=other)
        if "not_runnable" in seen:
            tried.append(f"{label}: {seen['not_runnable']}")
            continue
        if "raises" in seen.get("result", {}):
            tried.append(f"{label}: the call with out raises {seen['result']['raises']}")
            continue
        return {"plan": label, **_judge_out(PATH_CHECKS.get(check) or check, seen)}
    return {"status": "not runnable", "why": _tried(tried)}


PATH_CHECKS = {"path_copied_into_out": "copied_into_out", "path_dtype_change": "dtype_change"}
"""A claim about one return path, judged as the claim about the whole call once it is reached."""


def _tried(tried: list[str]) -> str:
    """What was tried, each distinct reason once (the plans that ended the same way merged)."""
    by_reason: dict[str, list[str]] = {}
    for item in tried:
        label, _, reason = item.partition(": ")
        by_reason.setdefault(reason, []).append(label)
    return "; ".join(f"{', '.join(labels)}: {reason}" for reason, labels in by_reason.items())


def _bool_flips(fn: Callable[..., Any]) -> list[dict[str, Any]]:
    """No change, then each keyword with a bool default flipped, then each pair of them
    (branches such as ``if not modulus`` or ``elif exclusive and reverse`` that a return path
    may sit behind)."""
    try:
        params = inspect.signature(fn).parameters.values()
    except (TypeError, ValueError):
        return [{}]
    bools = [p for p in params if isinstance(p.default, bool)]
    flips: list[dict[str, Any]] = [{}]
    flips += [{p.name: not p.default} for p in bools]
    flips += [
        {p.name: not p.default, q.name: not q.default}
        for i, p in enumerate(bools)
        for q in bools[i + 1 :]
    ]
    return flips


def _leaves(seen: Json) -> list[Json]:
    items: list[Json] = seen.get("items", [seen])
    return items


def _judge_out(check: str, seen: Json) -> Json:
    before = seen["out_dtype_before"]
    befores = before if isinstance(before, list) else [before]
    leaves = _leaves(seen)
    initials = seen["out_values_before"] if "items" in seen else [seen["out_values_before"]]
    if check in ("dtype_change", "never_writes_out"):
        changed = [leaf["out_dtype"] != dtype for leaf, dtype in zip(leaves, befores, strict=True)]
        untouched = [
            leaf["old_buffer_values"] == initial
            for leaf, initial in zip(leaves, initials, strict=True)
        ]
        if check == "dtype_change":
            ok = any(changed)
            why = f"out of dtype {before} came back as {[leaf['out_dtype'] for leaf in leaves]}"
        else:
            ok = any(c and u for c, u in zip(changed, untouched, strict=True))
            why = (
                f"out of dtype {before} came back as {[leaf['out_dtype'] for leaf in leaves]}, "
                f"its old buffer {'untouched' if all(untouched) else 'written'}"
            )
        return {"status": "confirmed" if ok else "refuted", "why": why, "observed": seen}
    if check == "copied_into_out":
        kept = [
            leaf["out_dtype"] == dtype and leaf["out_buffer_kept"]
            for leaf, dtype in zip(leaves, befores, strict=True)
        ]
        ok = all(kept) and bool(seen["ret_is_out"])
        why = (
            f"out of dtype {before} kept its dtype and buffer and was returned"
            if ok
            else f"out of dtype {before} came back as {[leaf['out_dtype'] for leaf in leaves]}"
            f" (buffer kept: {[leaf['out_buffer_kept'] for leaf in leaves]})"
        )
        return {"status": "confirmed" if ok else "refuted", "why": why, "observed": seen}
    # out_not_written: nothing writes out
    written = [
        not (leaf["out_values"] == initial and leaf["out_buffer_kept"])
        for leaf, initial in zip(leaves, initials, strict=True)
    ]
    ok = not any(written) and not seen["ret_is_out"]
    why = "out untouched and not returned" if ok else "out was written or returned"
    return {"status": "confirmed" if ok else "refuted", "why": why, "observed": seen}


# -- main ----------------------------------------------------------------------------------


def _versions(backend: str) -> dict[str, str]:
    """The backend's version as the snapshot reads it, NumPy's, and Python's."""
    import platform

    import numpy as np

    ivy = _ivy()
    versions = {}
    with suppress(AttributeError, KeyError, TypeError):
        versions[backend] = str(ivy.current_backend().backend_version["version"])
    if backend != "numpy":
        versions["numpy"] = np.__version__
    versions["Python"] = platform.python_version()
    return versions


def run_job(job: Json) -> Json:
    stubs = install_stubs()
    report: Json = {"stubbed": stubs, "functions": {}, "claims": {}}
    try:
        ivy = _ivy()

        ivy.set_backend(job["backend"])
    except Exception as error:  # noqa: BLE001 - a backend that cannot load is reported
        report["backend_error"] = f"{type(error).__name__}: {error}".splitlines()[0][:300]
        return report
    report["ivy_file"] = ivy.__file__
    report["versions"] = _versions(job["backend"])
    # Claims first: a call with `out` can change a wrapper's state (handle_out_argument turns
    # its handle_out_in_backend off for good once `out` looks like a variable), which the
    # claims about the attribute read.
    for claim in job.get("claims", []):
        try:
            report["claims"][claim["id"]] = check_claim(claim)
        except Exception as error:  # noqa: BLE001 - a harness failure is reported, not fatal
            report["claims"][claim["id"]] = {
                "status": "not runnable",
                "why": f"harness error: {type(error).__name__}: {error}",
            }
    for name in job.get("functions", []):
        try:
            report["functions"][name] = run_function(name)
        except Exception as error:  # noqa: BLE001 - a harness failure is reported, not fatal
            report["functions"][name] = {
                "not_runnable": f"harness error: {type(error).__name__}: {error}",
                "traceback": traceback.format_exc()[-800:],
            }
    return report


def main(argv: list[str]) -> int:
    job_path, result_path = argv
    with open(job_path, encoding="utf-8") as handle:
        job = json.load(handle)
    report = run_job(job)
    with open(result_path, "w", encoding="utf-8") as handle:
        json.dump(report, handle)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
