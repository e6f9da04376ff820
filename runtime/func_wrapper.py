"""The wrapping decorators, named and ordered as Ivy documents them.

In the functional API (``runtime/functional/``) each decorator *declares* one concern
(``handle_out_argument``: this function takes ``out``; ``handle_view``: it returns views ...).
When a backend is set, :func:`build` turns the declarations of each function into **one**
wrapper around the backend implementation. Ivy stacks a Python closure per decorator, which is
most of its 0.4-0.7 ms per call; one fused frame keeps ``ivy.add`` on NumPy within about 2x of
``numpy.add`` (``benchmarks/runtime_overhead.py``) while doing the same work:

* ``handle_exceptions``: backend errors become :class:`IvyBackendException` (cause kept)
  that is also the Python type of the original (``except IndexError`` still works).
* ``handle_array_function``: objects defining ``__ivy_array_function__`` get the call.
* ``handle_nestable``: a :class:`Container` argument maps the call over its leaves.
* ``handle_out_argument``: ``out`` must be an :class:`Array`; a backend function whose
  ``support_native_out`` attribute is ``True`` (the value is read, not just its presence) gets
  ``out``'s native buffer when the result fits it exactly; otherwise the result goes through
  ``inplace_update``, which keeps ``out``'s dtype and shape and raises before writing.
* ``handle_view`` / ``handle_view_indexing``: ``copy=True`` copies; otherwise a result that is
  not a native view becomes a tracked view (``views.py``). ``out`` wins over ``copy``.
* ``to_native_arrays_and_back`` / ``inputs_to_ivy_arrays``: argument and result conversion.
* ``infer_dtype`` / ``infer_device``: the default dtype for creation functions, CPU device.
"""

from __future__ import annotations

import ast
import functools
import inspect
import re
import textwrap
from collections.abc import Callable
from types import ModuleType
from typing import Any, NamedTuple, TypeVar

import numpy as np

import ivycheck.runtime as ivy
from ivycheck.runtime import views
from ivycheck.runtime.array import Array, TrackedView
from ivycheck.runtime.backend_handler import current_backend, state
from ivycheck.runtime.container import Container
from ivycheck.runtime.dtypes import SCALAR_TYPES, as_dtype, infer_from_values
from ivycheck.runtime.exceptions import (
    IvyException,
    IvyNotImplementedException,
    IvyTypeError,
    backend_exception,
)

F = TypeVar("F", bound=Callable[..., Any])

REGISTRY: dict[str, Callable[..., Any]] = {}
"""Functional-API functions by name; ``set_backend`` builds one wrapper per entry."""

_NO_RESULT = object()
_MISSING: Any = object()


# -- the decorators ---------------------------------------------------------------------------


def _declare(flag: str) -> Callable[[F], F]:
    def decorator(fn: F) -> F:
        api = fn if hasattr(fn, "__ivy_raw__") else _dispatcher(fn)
        # Decorators apply bottom-up; prepending keeps the tuple in source (top-down) order.
        api.__ivy_wrappers__ = (flag, *api.__ivy_wrappers__)  # type: ignore[attr-defined]
        setattr(api, flag, True)
        return api

    decorator.__name__ = decorator.__qualname__ = flag
    decorator.__doc__ = f"Declare the ``{flag}`` behaviour; applied by ``build`` at set_backend."
    return decorator


class Built(NamedTuple):
    """One functional function built for one backend (what ``build`` returns).

    ``quick`` is the native function for the common call (every argument an ``Array`` or
    native, no keyword) when ``fast``; ``general`` handles every call.
    """

    fast: bool
    quick: Callable[..., Any]
    native_set: frozenset[type]
    general: Callable[..., Any]
    error: Callable[[Exception], Exception]
    wrap: Callable[[Any], Any]


def _dispatcher(fn: F) -> F:
    """The public function: one object for the life of the process, whatever the backend.

    ``set_backend`` binds the backend's :class:`Built` into the variables this function
    closes over (``__ivy_bind__``), so ``ivy.abs`` keeps its identity across backends --
    registries keyed by runtime functions (``__ivy_array_function__`` handlers) keep
    matching -- and a call costs what a closure built per backend would: no lookup of the
    current backend at all. Calls of one or two arrays without keywords take the backend's
    native function directly (arity-specialised: binding named parameters is cheaper than
    packing ``*args``).
    """
    name = fn.__name__
    arity = len(_array_positions(fn))
    new_array = Array.__new__

    def unbuilt(*args: Any, **kwargs: Any) -> Any:
        """Registered after the backend was set: build for it now, then call."""
        return bind(_build_late(name)).general(*args, **kwargs)

    fast = False
    quick: Callable[..., Any] = unbuilt
    native_set: frozenset[type] = frozenset()
    general: Callable[..., Any] = unbuilt
    error: Callable[[Exception], Exception] = _identity
    wrap: Callable[[Any], Any] = _identity

    def bind(built: Built) -> Built:
        nonlocal fast, quick, native_set, general, error, wrap
        fast, quick, native_set, general, error, wrap = built
        return built

    if arity == 1:

        def api(x: Any = _MISSING, /, *args: Any, **kwargs: Any) -> Any:
            if fast and type(x) is Array and not args and not kwargs:
                try:
                    ret = quick(x._data)
                except Exception as e:
                    raise error(e) from e
                if type(ret) in native_set:
                    new = new_array(Array)
                    new._data = ret
                    return new
                return wrap(ret)
            return general(*(() if x is _MISSING else (x,)), *args, **kwargs)

    elif arity == 2:

        def api(x1: Any = _MISSING, x2: Any = _MISSING, /, *args: Any, **kwargs: Any) -> Any:
            if fast and type(x1) is Array and type(x2) is Array and not args and not kwargs:
                try:
                    ret = quick(x1._data, x2._data)
                except Exception as e:
                    raise error(e) from e
                if type(ret) in native_set:
                    new = new_array(Array)
                    new._data = ret
                    return new
                return wrap(ret)
            present = tuple(a for a in (x1, x2) if a is not _MISSING)
            return general(*present, *args, **kwargs)

    else:

        def api(*args: Any, **kwargs: Any) -> Any:
            return general(*args, **kwargs)

    functools.update_wrapper(api, fn)
    api.__ivy_raw__ = fn  # type: ignore[attr-defined]
    api.__ivy_wrappers__ = ()  # type: ignore[attr-defined]
    api.__ivy_bind__ = bind  # type: ignore[attr-defined]
    REGISTRY[name] = api
    return api  # type: ignore[return-value]


def _identity(x: Any) -> Any:
    return x


def _build_late(name: str) -> Built:
    """Build ``name`` for the current backend: it was registered after the backend was set."""
    backend = current_backend()
    table = state.tables.setdefault(state.name, {})
    if name not in table:
        table[name] = build(REGISTRY[name], backend)
    built: Built = table[name]
    return built


def activate(backend_name: str, backend: ModuleType) -> None:
    """Point every public function at ``backend``'s built wrapper (built once per backend)."""
    table = state.tables.setdefault(backend_name, {})
    for name, api in list(REGISTRY.items()):
        if name not in table:
            table[name] = build(api, backend)
        api.__ivy_bind__(table[name])  # type: ignore[attr-defined]


handle_exceptions = _declare("handle_exceptions")
handle_nestable = _declare("handle_nestable")
handle_partial_mixed_function = _declare("handle_partial_mixed_function")
handle_array_like_without_promotion = _declare("handle_array_like_without_promotion")
handle_view = _declare("handle_view")
handle_view_indexing = _declare("handle_view_indexing")
handle_out_argument = _declare("handle_out_argument")
inputs_to_ivy_arrays = _declare("inputs_to_ivy_arrays")
inputs_to_native_arrays = _declare("inputs_to_native_arrays")
outputs_to_ivy_arrays = _declare("outputs_to_ivy_arrays")
to_native_arrays_and_back = _declare("to_native_arrays_and_back")
handle_array_function = _declare("handle_array_function")
infer_dtype = _declare("infer_dtype")
infer_device = _declare("infer_device")


# -- shared helpers ---------------------------------------------------------------------------


def _to_native(a: Any) -> Any:
    if isinstance(a, Array):
        return a._data
    if type(a) in (tuple, list):
        return type(a)(_to_native(i) for i in a)
    return a


def _numpy_keeps_view(
    geometry_fn: Callable[..., Any], x: Any, args: tuple[Any, ...], kwargs: dict[str, Any]
) -> bool:
    """Whether NumPy's own function, on a stand-in of ``x``'s shape, returns a view.

    Integer indexing down to a 0-d result gives a NumPy scalar (a copy), while PyTorch
    returns a 0-d view; ``x[..., 0]`` stays a 0-d view in both.
    """
    stand_in = np.empty(x.shape, dtype=np.uint8)
    np_kwargs = {k: _to_numpy(v) for k, v in kwargs.items()}
    result = geometry_fn(stand_in, *_to_numpy(args[1:]), **np_kwargs)
    return isinstance(result, np.ndarray) and np.shares_memory(result, stand_in)


def _to_numpy(a: Any) -> Any:
    """Arguments of a view function, as NumPy sees them when it computes the geometry."""
    if isinstance(a, Array):
        return a.__array__()
    if type(a) in (tuple, list):
        return type(a)(_to_numpy(i) for i in a)
    if hasattr(a, "__array__") and not isinstance(a, SCALAR_TYPES):
        import numpy as np

        return np.asarray(a)
    return a


def _wrap(ret: Any, native_types: tuple[type, ...]) -> Any:
    if isinstance(ret, native_types):
        return Array(ret)
    if type(ret) in (tuple, list):
        return type(ret)(_wrap(r, native_types) for r in ret)
    if isinstance(ret, tuple) and hasattr(ret, "_fields"):  # a named tuple keeps its type
        return type(ret)(*(_wrap(r, native_types) for r in ret))
    if hasattr(ret, "dtype") and hasattr(ret, "shape"):  # NumPy scalars from reductions
        return Array(ivy.current_backend().primitives.asarray(ret, None, None))
    return ret


def _array_function(api: Callable[..., Any], args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    """``__ivy_array_function__`` protocol: the first candidate not returning NotImplemented."""
    flat = [*args, *kwargs.values()]
    flat += [i for a in args if type(a) in (tuple, list) for i in a]
    candidates = [
        a for a in flat if hasattr(type(a), "__ivy_array_function__") and not isinstance(a, Array)
    ]
    if not candidates:
        return _NO_RESULT
    types = tuple(dict.fromkeys(type(c) for c in candidates))
    for candidate in candidates:
        ret = candidate.__ivy_array_function__(api, types, args, kwargs)
        if ret is not NotImplemented:
            return ret
    names = ", ".join(t.__qualname__ for t in types)
    raise IvyNotImplementedException(
        f"{api.__name__}: every __ivy_array_function__ ({names}) returned NotImplemented"
    )


def _map_nested(api: Callable[..., Any], args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    """Call ``api`` once per leaf of the container arguments; ``out`` containers are filled."""
    first = next(a for a in (*args, *kwargs.values()) if isinstance(a, Container))
    result = Container()
    for key in first:
        sub_args = [a[key] if isinstance(a, Container) else a for a in args]
        sub_kwargs = {k: v[key] if isinstance(v, Container) else v for k, v in kwargs.items()}
        result[key] = api(*sub_args, **sub_kwargs)
    out = kwargs.get("out")
    return out if isinstance(out, Container) else result


def _check_out(name: str, out: Any) -> None:
    if not isinstance(out, (Array, Container)):
        kind = f"{type(out).__module__}.{type(out).__qualname__}"
        raise IvyTypeError(
            f"{name}: out must be an ivy.Array, got a {kind}; a native array cannot be "
            "written in place on every backend -- wrap it: ivy.Array(native)"
        )


def _array_positions(raw: Callable[..., Any]) -> tuple[int, ...]:
    """Positional parameters annotated with an array type (for array-like conversion)."""
    params = inspect.signature(raw).parameters.values()
    positional = [p for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    return tuple(
        i for i, p in enumerate(positional) if {"Array", "Operand"} & set(_WORDS(str(p.annotation)))
    )


_WORDS = re.compile(r"\w+").findall
_DTYPE_FROM_VALUES = frozenset({"arange", "full"})


# -- building one wrapper per function and backend ----------------------------------------------


def _thin_forward(impl: Callable[..., Any], arity: int) -> Callable[..., Any] | None:
    """The native function ``impl`` only forwards to, for calls without ``out``.

    ``def add(x1, x2, /, *, out=None): return np.add(x1, x2, out=out)`` called without
    ``out`` is ``np.add(x1, x2)``: calling ``np.add`` directly spares a Python frame and a
    keyword argument, a quarter of ``ivy.add``'s cost on 8 elements. Recognised only in
    exactly that shape (array parameters, keyword-only ``out=None``, one ``return`` of a
    module attribute called with the parameters in order and ``out=out``), else ``None``.
    """
    try:
        tree = ast.parse(textwrap.dedent(inspect.getsource(impl)))
    except (OSError, TypeError, SyntaxError):
        return None
    function = tree.body[0] if tree.body else None
    if not isinstance(function, ast.FunctionDef) or len(function.body) != 1:
        return None
    args = function.args
    names = [a.arg for a in (*args.posonlyargs, *args.args)]
    statement = function.body[0]
    if (
        len(names) != arity
        or [a.arg for a in args.kwonlyargs] != ["out"]
        or args.vararg is not None
        or args.kwarg is not None
        or not isinstance(statement, ast.Return)
        or not isinstance(statement.value, ast.Call)
    ):
        return None
    call = statement.value
    if [a.id if isinstance(a, ast.Name) else None for a in call.args] != names or [
        (k.arg, k.value.id if isinstance(k.value, ast.Name) else None) for k in call.keywords
    ] != [("out", "out")]:
        return None
    dotted: list[str] = []
    func = call.func
    while isinstance(func, ast.Attribute):
        dotted.append(func.attr)
        func = func.value
    if not isinstance(func, ast.Name) or not dotted:
        return None
    native: Any = getattr(impl, "__globals__", {}).get(func.id)
    for attribute in reversed(dotted):
        native = getattr(native, attribute, None)
    return native if callable(native) else None


def build(api: Callable[..., Any], backend: ModuleType) -> Built:
    """Fuse the declared behaviours of ``api`` around ``backend``'s implementation."""
    from ivycheck.runtime.backends import numpy as numpy_backend

    name: str = api.__name__
    raw: Callable[..., Any] = api.__ivy_raw__  # type: ignore[attr-defined]
    flags = frozenset(api.__ivy_wrappers__)  # type: ignore[attr-defined]
    impl: Callable[..., Any] | None = getattr(backend, name, None)
    prims = backend.primitives
    native_types: tuple[type, ...] = prims.NATIVE_TYPES
    to_native = impl is not None and bool(
        flags & {"to_native_arrays_and_back", "inputs_to_native_arrays"}
    )
    to_ivy = "inputs_to_ivy_arrays" in flags
    target: Callable[..., Any] = impl if to_native and impl is not None else raw
    out_flag = "handle_out_argument" in flags
    native_out = out_flag and getattr(impl, "support_native_out", False) is True
    view_flag = bool(flags & {"handle_view", "handle_view_indexing"})
    nestable = "handle_nestable" in flags
    array_fn = "handle_array_function" in flags
    dtype_flag = "infer_dtype" in flags
    array_like = tuple(
        _array_positions(raw) if "handle_array_like_without_promotion" in flags else ()
    )
    catch = "handle_exceptions" in flags
    error_types = prims.ERROR_TYPES
    numpy_views = prims.NUMPY_VIEWS
    geometry_fn = getattr(numpy_backend, name, None) if view_flag else None
    fast_types = frozenset((*native_types, *SCALAR_TYPES, Array))
    # Concrete classes too (jax.Array is abstract; results are ArrayImpl / EagerTensor).
    native_set = frozenset((*native_types, type(prims.asarray(0.0, None, None))))
    fast = to_native and not dtype_flag and (not view_flag or numpy_views)

    def view_result(x: Any, ret: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        if numpy_views or not isinstance(x, Array) or geometry_fn is None:
            return _wrap(ret, native_types)
        if type(x) is Array and prims.shares_memory(ret, x._data):
            if len(prims.shape(ret)) == 0 and not _numpy_keeps_view(geometry_fn, x, args, kwargs):
                return Array(prims.copy(ret))  # NumPy gives a scalar (a copy) here: x[0] of 1-d
            return Array(ret)  # a native view (PyTorch)
        root, geometry = x._view_source()
        np_kwargs = {k: _to_numpy(v) for k, v in kwargs.items()}
        new = geometry_fn(geometry, *_to_numpy(args[1:]), **np_kwargs)
        if not views.is_view_of(new, root._view_source()[1]):
            return Array(ret)  # NumPy copies here too
        return TrackedView(root, new, ret)

    def convert_in(args: tuple[Any, ...]) -> list[Any]:
        nargs = [_to_native(a) for a in args]
        for i in array_like:
            if i < len(nargs) and type(nargs[i]) in (list, tuple):
                nargs[i] = prims.asarray(nargs[i], None, None)
        return nargs

    def call(args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        if array_fn:
            ret = _array_function(api, args, kwargs)
            if ret is not _NO_RESULT:
                return ret
        if nestable and any(isinstance(a, Container) for a in (*args, *kwargs.values())):
            return _map_nested(api, args, kwargs)
        out = kwargs.pop("out", None) if out_flag else None
        copy = kwargs.pop("copy", None) if view_flag else None
        if out is not None:
            _check_out(name, out)
        if to_native and kwargs.get("dtype") is not None:
            kwargs["dtype"] = prims.native_dtype(as_dtype(kwargs["dtype"]))
        elif dtype_flag and not (args and isinstance(args[0], (Array, *native_types))):
            values = (
                [a for a in args if isinstance(a, SCALAR_TYPES)]
                if name in _DTYPE_FROM_VALUES
                else []
            )
            kwargs["dtype"] = prims.native_dtype(infer_from_values(values))
        if "device" in kwargs:
            kwargs.pop("device")  # CPU only
        if not to_native:
            if to_ivy:
                args = tuple(Array(a) if isinstance(a, native_types) else a for a in args)
            return target(*args, **kwargs)
        nargs = convert_in(args)
        nkwargs = {k: _to_native(v) for k, v in kwargs.items()}
        if (
            out is not None
            and native_out
            and type(out) is Array
            and prims.writable(out._data)
            and prims.check_native_out(target, nargs, nkwargs, out=out._data)
        ):
            target(*nargs, out=out._data, **nkwargs)
            return out
        ret = target(*nargs, **nkwargs)
        if out is not None:
            return ivy.inplace_update(out, _wrap(ret, native_types))
        if copy:
            return _wrap(prims.copy(ret), native_types)
        if view_flag and args:
            return view_result(args[0], ret, args, kwargs)
        return _wrap(ret, native_types)

    def error(e: Exception) -> Exception:
        if isinstance(e, IvyException) or not catch:
            return e
        extra = tuple(t for k, ts in error_types.items() if isinstance(e, k) for t in ts)
        return backend_exception(f"{prims.NAME}: {name}: {e}", e, extra)

    def general(*args: Any, **kwargs: Any) -> Any:
        try:
            # A native function taken directly would read a surplus positional argument as its
            # own ``out`` (``np.add(x, y, o)`` writes into ``o``): ``out`` is keyword-only here,
            # so such a call goes through ``call``, whose backend signature refuses it.
            if fast and not kwargs and (direct is None or len(args) == direct_arity):
                nargs = []
                for a in args:
                    t = type(a)
                    if t is Array:
                        nargs.append(a._data)
                    elif t in fast_types:
                        nargs.append(a)
                    else:
                        break
                else:
                    return _wrap(quick(*nargs), native_types)
            return call(args, kwargs)
        except Exception as e:  # noqa: BLE001 - backend errors become IvyBackendException
            raise error(e) from (None if isinstance(e, IvyException) else e)

    direct_arity = len(_array_positions(raw))
    direct = _thin_forward(impl, direct_arity) if fast and impl else None
    quick: Callable[..., Any] = direct or target
    wrap = functools.partial(_wrap, native_types=native_types)
    return Built(fast, quick, native_set, general, error, wrap)
