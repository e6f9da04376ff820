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
import operator
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
from ivycheck.runtime.backends import _promote
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
    native, no keyword) when ``fast``; ``quick2`` the same for a function of one array
    called with one more positional argument of a ``plain`` type (``x[1:5]``,
    ``reshape(x, (2, 4))``); ``view``, when set, makes the result a view of the first
    argument (backends without NumPy's views), unless ``native_view`` (the backend's
    ``is_native_view``) finds a native view to keep as it is; ``general`` handles every
    call.
    """

    fast: bool
    quick: Callable[..., Any]
    quick2: Callable[..., Any]
    plain: frozenset[type]
    view: Callable[..., Any] | None
    native_view: Callable[[Any, Any], bool]
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
    packing ``*args``), and so do calls of three arrays (``where``), of one array and one
    plain positional argument (``x[1:5]``), and of a function of no array parameter with
    one or two plain positional arguments or a list/tuple of arrays (``zeros((8,))``,
    ``full((8,), 2.0)``, ``concat([x, y])``). The array parameters of such functions are
    the first ones (``_array_positions`` is ``()``, ``(0,)``, ``(0, 1)`` or ``(0, 1, 2)``:
    tested for every registered function). On backends without NumPy's views, a view
    function's native result is kept as it is when the backend's ``is_native_view`` says
    so in a few attribute reads; otherwise ``view`` makes the view. Each arity's body
    repeats the few lines that wrap a native result in a new ``Array``: a shared helper
    would add a Python call to every fast call, which is what these paths exist to avoid
    (``benchmarks/runtime_overhead.py``).
    """
    name = fn.__name__
    arity = len(_array_positions(fn))
    new_array = Array.__new__

    def unbuilt(*args: Any, **kwargs: Any) -> Any:
        """Registered after the backend was set: build for it now, then call."""
        return bind(_build_late(name)).general(*args, **kwargs)

    fast = False
    quick: Callable[..., Any] = unbuilt
    quick2: Callable[..., Any] = unbuilt
    plain: frozenset[type] = frozenset()
    view: Callable[..., Any] | None = None
    native_view: Callable[[Any, Any], bool] = _never
    native_set: frozenset[type] = frozenset()
    general: Callable[..., Any] = unbuilt
    error: Callable[[Exception], Exception] = _identity
    wrap: Callable[[Any], Any] = _identity

    def bind(built: Built) -> Built:
        nonlocal fast, quick, quick2, plain, view, native_view, native_set, general, error, wrap
        fast, quick, quick2, plain, view, native_view, native_set, general, error, wrap = built
        return built

    if arity == 1:

        def api(x: Any = _MISSING, y: Any = _MISSING, /, *args: Any, **kwargs: Any) -> Any:
            if fast and type(x) is Array and not kwargs and not args:
                if y is _MISSING:
                    try:
                        ret = quick(x._data)
                    except Exception as e:
                        raise error(e) from e
                elif plain.issuperset(map(type, y)) if type(y) is tuple else type(y) in plain:
                    try:
                        ret = quick2(x._data, y)
                    except Exception as e:
                        raise error(e) from e
                else:
                    return general(x, y)
                if view is not None:
                    try:
                        if not native_view(ret, x._data):
                            return view(x, ret, (x,) if y is _MISSING else (x, y), {})
                    except Exception as e:
                        raise error(e) from e
                    new = new_array(Array)
                    new._data = ret
                    return new
                if type(ret) in native_set:
                    new = new_array(Array)
                    new._data = ret
                    return new
                return wrap(ret)
            if y is not _MISSING:
                return general(x, y, *args, **kwargs)
            if x is not _MISSING:
                return general(x, **kwargs)
            return general(**kwargs)

    elif arity == 2:

        def api(x1: Any = _MISSING, x2: Any = _MISSING, /, *args: Any, **kwargs: Any) -> Any:
            if fast and type(x1) is Array and type(x2) is Array and not args and not kwargs:
                try:
                    ret = quick(x1._data, x2._data)
                    if view is not None and not native_view(ret, x1._data):
                        return view(x1, ret, (x1, x2), {})
                except Exception as e:
                    raise error(e) from e
                if type(ret) in native_set:
                    new = new_array(Array)
                    new._data = ret
                    return new
                return wrap(ret)
            if x2 is not _MISSING:
                return general(x1, x2, *args, **kwargs)
            if x1 is not _MISSING:
                return general(x1, *args, **kwargs)
            return general(*args, **kwargs)

    elif arity == 3:

        def api(*args: Any, **kwargs: Any) -> Any:
            if fast and len(args) == 3 and not kwargs:
                x1, x2, x3 = args
                if type(x1) is Array and type(x2) is Array and type(x3) is Array:
                    try:
                        ret = quick(x1._data, x2._data, x3._data)
                        if view is not None and not native_view(ret, x1._data):
                            return view(x1, ret, args, {})
                    except Exception as e:
                        raise error(e) from e
                    if type(ret) in native_set:
                        new = new_array(Array)
                        new._data = ret
                        return new
                    return wrap(ret)
            return general(*args, **kwargs)

    elif arity == 0:

        def api(a: Any = _MISSING, b: Any = _MISSING, /, *args: Any, **kwargs: Any) -> Any:
            # Creation functions and functions of a sequence of arrays, called with one or
            # two plain positional arguments: ``zeros((8,))``, ``full((8,), 2.0)``,
            # ``concat([x, y])``. A native array first gives its own dtype (``general``
            # passes no default ``dtype`` then), so it takes ``general``.
            if fast and not kwargs and not args and a is not _MISSING:
                t = type(a)
                if t is tuple or t is list:
                    if a and type(a[0]) is Array:  # ``concat([x, y])``: arrays only
                        native: Any = [i._data for i in a if type(i) is Array]
                        if len(native) != len(a):
                            native = _MISSING
                        elif t is tuple:
                            native = tuple(native)
                    elif plain.issuperset(map(type, a)):
                        native = a
                    else:
                        native = _MISSING
                else:
                    native = a if t in plain and t not in native_set else _MISSING
                if native is not _MISSING and (
                    b is _MISSING
                    or type(b) in plain
                    or ((type(b) is tuple or type(b) is list) and plain.issuperset(map(type, b)))
                ):
                    try:
                        ret = quick(native) if b is _MISSING else quick2(native, b)
                    except Exception as e:  # noqa: BLE001 - backend errors become IvyBackendException
                        raise error(e) from (None if isinstance(e, IvyException) else e)
                    if type(ret) in native_set:
                        new = new_array(Array)
                        new._data = ret
                        return new
                    return wrap(ret)
            if b is not _MISSING:
                return general(a, b, *args, **kwargs)
            if a is not _MISSING:
                return general(a, **kwargs)
            return general(**kwargs)

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


def _never(ret: Any, base: Any) -> bool:
    return False


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
        new = Array.__new__(Array)  # ``Array(ret)`` without re-checking what ``ret`` is
        new._data = ret
        return new
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


def sequence_at(args: tuple[Any, ...], positions: tuple[int, ...]) -> bool:
    """Whether a tuple/list is given at one of ``positions`` (array-like: ``call`` makes it
    an array)."""
    return any(i < len(args) and type(args[i]) in (tuple, list) for i in positions)


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


class Forward(NamedTuple):
    """The native function a backend function only forwards to (see :func:`_thin_forward`)."""

    native: Callable[..., Any]
    positional: int
    keywords: frozenset[str]


def _thin_forward(impl: Callable[..., Any]) -> Forward | None:
    """The native function ``impl`` only forwards to, for calls without ``out``.

    ``def add(x1, x2, /, *, out=None): return np.add(x1, x2, out=out)`` called without
    ``out`` is ``np.add(x1, x2)``: calling ``np.add`` directly spares a Python frame and a
    keyword argument, a quarter of ``ivy.add``'s cost on 8 elements. Recognised only in
    exactly that shape: positional parameters passed on in order, keyword-only ones passed
    on by their own name (``dtype=dtype``), a keyword-only ``out=None`` passed on as
    ``out=out`` or not at all, and one ``return`` of a module attribute called so; else
    ``None``. The caller passes exactly ``positional`` arguments and exactly the
    ``keywords`` (a parameter left out would take the native function's default, which may
    not be ``impl``'s).
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
    keyword_only = [a.arg for a in args.kwonlyargs]
    statement = function.body[0]
    if (  # ``return x[query]``: ``operator.getitem``
        names
        and len(names) == 2
        and keyword_only == ["out"]
        and isinstance(statement, ast.Return)
        and isinstance(statement.value, ast.Subscript)
        and [getattr(statement.value.value, "id", None), getattr(statement.value.slice, "id", None)]
        == names
    ):
        return Forward(operator.getitem, 2, frozenset())
    if (
        "out" not in keyword_only
        or args.vararg is not None
        or args.kwarg is not None
        or not isinstance(statement, ast.Return)
        or not isinstance(statement.value, ast.Call)
    ):
        return None
    call = statement.value
    passed = set()
    for keyword in call.keywords:  # each ``name=name``, ``out`` optional
        value = keyword.value
        if keyword.arg is None or not isinstance(value, ast.Name) or value.id != keyword.arg:
            return None
        passed.add(keyword.arg)
    positional = [a.id if isinstance(a, ast.Name) else None for a in call.args]
    if positional != names or passed - {"out"} != set(keyword_only) - {"out"}:
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
    if not callable(native):
        return None
    return Forward(native, len(names), frozenset(passed - {"out"}))


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
    # Concrete classes too (jax.Array is abstract; results are ArrayImpl / EagerTensor).
    native_set = frozenset((*native_types, type(prims.asarray(0.0, None, None))))
    new_array = Array.__new__  # with ``_data`` set: ``Array(native)`` without its checks
    # Arguments the fast path passes on unchanged: exactly what ``_to_native`` leaves alone
    # and what carries no ``__ivy_array_function__`` and no container (so ``call`` would do
    # nothing more with them than unwrap arrays).
    plain = frozenset((*native_set, *SCALAR_TYPES, type(None), slice, type(Ellipsis)))
    plain_or_array = plain | {Array}
    array_types = (Array, *native_types)
    # ``infer_dtype``'s default when neither ``dtype`` nor an array argument gives one.
    default_native = prims.native_dtype(infer_from_values([])) if dtype_flag else None
    native_dtypes: dict[Any, Any] = {}
    fast = to_native and not (dtype_flag and name in _DTYPE_FROM_VALUES)
    # A Python float beside an integer array: the default float on every backend (only the
    # general path sees Python scalars; two arrays take ``quick``).
    widen = _promote.weak_scalars if name in _promote.SCALAR_OPERANDS else None

    def unwrap_sequence(seq: Any) -> Any:
        """``_to_native(seq)`` for a flat tuple/list of plain values and arrays."""
        if not plain_or_array.issuperset(map(type, seq)):
            return _NO_RESULT
        items = [i._data if type(i) is Array else i for i in seq]
        return items if type(seq) is list else tuple(items)

    def native_kwargs(args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        """``call``'s keyword arguments for the backend (``dtype`` native, ``device``
        dropped), or ``_NO_RESULT`` where ``call`` does more (``out``, ``copy``, other
        values than plain ones and arrays)."""
        nkwargs = {}
        if kwargs:
            if "out" in kwargs or "copy" in kwargs:
                return _NO_RESULT
            for k, v in kwargs.items():
                t = type(v)
                if t is Array:
                    nkwargs[k] = v._data
                elif t in plain:
                    nkwargs[k] = v
                elif t is tuple or t is list:
                    nkwargs[k] = unwrap_sequence(v)
                    if nkwargs[k] is _NO_RESULT:
                        return _NO_RESULT
                elif k != "dtype":
                    return _NO_RESULT
            nkwargs.pop("device", None)  # CPU only
        dtype = kwargs.get("dtype")
        if dtype is not None:
            try:
                native = native_dtypes.get(dtype)
            except TypeError:  # not hashable: ``call`` reports it
                return _NO_RESULT
            if native is None:
                native = native_dtypes[dtype] = prims.native_dtype(as_dtype(dtype))
            nkwargs["dtype"] = native
        elif dtype_flag and not (args and isinstance(args[0], array_types)):
            nkwargs["dtype"] = default_native
        return nkwargs

    def view_result(x: Any, ret: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        if numpy_views or not isinstance(x, Array) or geometry_fn is None:
            return _wrap(ret, native_types)
        if type(x) is Array and prims.shares_memory(ret, x._data):
            if ret.ndim == 0 and not _numpy_keeps_view(geometry_fn, x, args, kwargs):
                return Array(prims.copy(ret))  # NumPy gives a scalar (a copy) here: x[0] of 1-d
            new = new_array(Array)  # a native view (PyTorch)
            new._data = ret
            return new
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
        return nargs if widen is None else widen(prims, nargs)

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
            # The fast path: every argument an ``Array``, a native array, a plain value or a
            # flat tuple/list of those, and no ``out``/``copy``; then ``call`` would only
            # unwrap arrays, set ``dtype`` and wrap the result, which this does with fewer
            # frames. A native function taken directly would read a surplus positional
            # argument as its own ``out`` (``np.add(x, y, o)`` writes into ``o``), so it is
            # called only with exactly its positional parameters; other calls go to the
            # backend function, whose signature refuses a surplus.
            if fast and not (array_like and sequence_at(args, array_like)):
                nargs = []
                for a in args:
                    t = type(a)
                    if t is Array:
                        nargs.append(a._data)
                    elif t in plain:
                        nargs.append(a)
                    elif t is tuple or t is list:
                        # Plain values only: nothing to unwrap (and native functions do not
                        # mutate their arguments), so the sequence itself is passed on.
                        if not plain.issuperset(map(type, a)):
                            a = unwrap_sequence(a)
                            if a is _NO_RESULT:
                                break
                        nargs.append(a)
                    else:
                        break
                else:
                    if widen is not None:
                        nargs = widen(prims, nargs)
                    if kwargs:
                        nkwargs = native_kwargs(args, kwargs)
                        if nkwargs is _NO_RESULT:
                            return call(args, kwargs)
                        if keyed and len(nargs) == direct_arity and nkwargs.keys() == keywords:
                            ret = keyed(*nargs, **nkwargs)
                        else:
                            ret = target(*nargs, **nkwargs)
                    elif dtype_flag and not (nargs and type(nargs[0]) in native_set):
                        # ``infer_dtype``: the default dtype (an array argument gives its own)
                        if len(nargs) == direct_arity:
                            ret = dtype_only(*nargs, dtype=default_native)
                        else:
                            ret = target(*nargs, dtype=default_native)
                    elif direct is not None and len(nargs) == direct_arity:
                        ret = direct(*nargs)
                    else:
                        ret = target(*nargs)
                    if view_flag and not numpy_views and args:
                        first = args[0]
                        if type(first) is not Array or not native_view(ret, first._data):
                            return view_result(first, ret, args, kwargs)
                    if type(ret) in native_set:
                        new = new_array(Array)
                        new._data = ret
                        return new
                    return _wrap(ret, native_types)
            return call(args, kwargs)
        except Exception as e:  # noqa: BLE001 - backend errors become IvyBackendException
            raise error(e) from (None if isinstance(e, IvyException) else e)

    forward = _thin_forward(impl) if fast and impl else None
    direct = forward.native if forward and not forward.keywords else None
    direct_arity = forward.positional if forward else -1
    keyed = forward.native if forward and forward.keywords else None
    keywords = forward.keywords if forward else frozenset()
    dtype_only = keyed if keyed and keywords == {"dtype"} else target
    view = view_result if view_flag and not numpy_views else None
    native_view = prims.is_native_view if geometry_fn is not None else _never
    arity = len(_array_positions(raw))
    # The public function's own path (``_dispatcher``). Functions of arrays: arrays only, no
    # keyword. Functions of no array: plain values and sequences of arrays, the default
    # ``dtype`` bound here as ``general`` would pass it.
    inline = fast and not (view_flag if arity == 0 else dtype_flag)
    # ``quick`` takes the arrays (one plain argument for a function of no array).
    quick: Callable[..., Any] = direct if direct and direct_arity == (arity or 1) else target
    quick2: Callable[..., Any] = direct if direct and direct_arity == 2 else target
    if arity == 0 and dtype_flag:
        quick = functools.partial(dtype_only if direct_arity == 1 else target, dtype=default_native)
        quick2 = functools.partial(
            dtype_only if direct_arity == 2 else target, dtype=default_native
        )
    wrap = functools.partial(_wrap, native_types=native_types)
    return Built(inline, quick, quick2, plain, view, native_view, native_set, general, error, wrap)
