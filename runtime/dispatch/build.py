"""Building a function's dispatcher for one backend: :func:`build` returns a :class:`Built`.

A functional-API function declares its behaviours with decorators (``func_wrapper``);
``build`` reads those declarations and the backend's implementation once per backend and
returns the callables the public function (``public``) binds. The general tier,
``general``, serves every call: its own fast loop for calls of plain arguments (arrays,
scalars, flat sequences, keywords such as ``dtype``) and ``call`` for everything else --
``__ivy_array_function__``, containers, ``out``, ``copy``, views. ``call`` is the only code
that runs the functional body (``raw``), and only for functions no backend implements or that
are not ``to_native``: when the backend implements a function, the body a reader sees in
``functional/`` states the contract and is never run.
"""

from __future__ import annotations

import functools
import inspect
import re
import sys
from collections.abc import Callable
from types import ModuleType
from typing import Any, NamedTuple

import numpy as np

from ivycheck.runtime import views
from ivycheck.runtime.array import Array, TrackedView, bare_array
from ivycheck.runtime.backends import numpy as numpy_backend
from ivycheck.runtime.backends._common import promote as _promote
from ivycheck.runtime.container import Container
from ivycheck.runtime.dispatch import out as out_
from ivycheck.runtime.dispatch.convert import (
    numpy_keeps_view,
    to_native_args,
    to_numpy_args,
    wrap,
)
from ivycheck.runtime.dispatch.forward import thin_forward
from ivycheck.runtime.dtypes import SCALAR_TYPES, Dtype, as_dtype, infer_from_values
from ivycheck.runtime.exceptions import (
    IvyException,
    IvyNotImplementedException,
    IvyValueError,
    backend_exception,
)

NO_RESULT = object()
NATIVE, REBIND, ASK = 0, 1, 2
"""The three kinds of ``Built.out_quick``."""


class Built(NamedTuple):
    """One functional function built for one backend (what ``build`` returns).

    ``quick`` is the native function for the common call (every argument an ``Array`` or
    native, no keyword) when ``fast``; ``quick2`` the same for a function of one array
    called with one more positional argument of a ``plain`` type (``x[1:5]``,
    ``reshape(x, (2, 4))``); ``view``, when set, makes the result a view of the first
    argument (backends without NumPy's views), unless ``native_view`` (the backend's
    ``is_native_view``) finds a native view to keep as it is; ``general`` handles every
    call; ``with_out``, when set, serves the hot tier's calls of arrays with an ``Array`` as
    their only keyword, ``out`` (``dispatch.out.caller``); ``dtype``, when set, is the native
    default dtype a creation function's ``quick``/``quick2`` are called with (``infer_dtype``);
    ``table``, when set, is ``(native type, native function, known)``: for an argument ``y``
    that is a key of ``known`` and a first argument of exactly the native type,
    ``quick2(x, y)`` is ``native function(x, known[y])`` (the backend function's
    ``native_table``: ``astype`` and the dtypes its ``target_dtype`` has answered); the
    native function returns an array of exactly the native type for an argument of exactly
    it (``ndarray.astype``, ``Tensor.to``), so the result is wrapped without a test.
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
    with_out: Callable[[Any, Any, dict[str, Any]], Any] | None
    dtype: Any = None
    table: tuple[type, Callable[[Any, Any], Any], dict[Any, Any]] | None = None
    out_quick: tuple[Any, ...] | None = None
    """How the hot tier serves a call of arrays with ``out`` without ``with_out``'s frame:
    ``(NATIVE, native, guard)``, the native function whose own ``out`` checks the buffer
    before writing (NumPy's ufuncs; anything raised sends the call to ``with_out``), taken
    only while ``guard`` -- ``None``, or ``(ContextVar, set)``: the backend's
    ``NATIVE_OUT_GUARD`` -- finds the variable's value in the set (else ``with_out``, which
    asks the backend's ``native_out_safe``);
    ``(ASK, check, native type, target)``, the backend's answer to whether the
    result fits ``out`` exactly, naming the function to call with it (PyTorch; no answer
    sends the call to ``with_out``): ``check`` is ``check_native_out`` for one array and
    ``check(target, a, b, out)`` for two (``native_out_for_pair``); or ``(REBIND, immutable type, same_layout, write, key, token)``
    on a backend without a native ``out``: the result of ``quick`` becomes ``out``'s data when both are of the immutable
    type with one shape and dtype (what ``inplace.update`` does for it), else ``write`` casts,
    broadcasts or raises before writing. ``key``, when set, names an attribute the backend
    shares between arrays of one shape and dtype (``primitives.SHARED_LAYOUT``: JAX's
    ``aval``): the same object there answers ``same_layout`` without calling it. ``token``,
    when set (``primitives.layout``, for a function whose result layout follows from its
    inputs' layouts: TensorFlow's elementwise functions), gives a tensor's layout as one
    object: the C paths keep it on the tensor and remember, per function, the result's for
    its inputs', so a loop over arrays of one layout reads no shape (the Python paths call
    ``same_layout``)."""


def ask_pair(
    check: Callable[..., Any], fn: Callable[..., Any], a: Any, b: Any, buffer: Any
) -> Callable[..., Any] | None:
    """``primitives.check_native_out`` asked as ``native_out_for_pair`` is (``buffer``:
    ``out``'s native array): for a backend without a pair check of its own."""
    return check(fn, [a, b], {}, out=buffer)  # type: ignore[no-any-return]


def array_function(api: Callable[..., Any], args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    """``__ivy_array_function__`` protocol: the first candidate not returning NotImplemented."""
    flat = [*args, *kwargs.values()]
    flat += [i for a in args if type(a) in (tuple, list) for i in a]
    candidates = [
        a for a in flat if hasattr(type(a), "__ivy_array_function__") and not isinstance(a, Array)
    ]
    if not candidates:
        return NO_RESULT
    types = tuple(dict.fromkeys(type(c) for c in candidates))
    for candidate in candidates:
        ret = candidate.__ivy_array_function__(api, types, args, kwargs)
        if ret is not NotImplemented:
            return ret
    names = ", ".join(t.__qualname__ for t in types)
    raise IvyNotImplementedException(
        f"{api.__name__}: every __ivy_array_function__ ({names}) returned NotImplemented"
    )


def map_nested(api: Callable[..., Any], args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    """Call ``api`` once per leaf of the container arguments; ``out`` containers are filled."""
    first = next(a for a in (*args, *kwargs.values()) if isinstance(a, Container))
    result = Container()
    for key in first:
        sub_args = [a[key] if isinstance(a, Container) else a for a in args]
        sub_kwargs = {k: v[key] if isinstance(v, Container) else v for k, v in kwargs.items()}
        result[key] = api(*sub_args, **sub_kwargs)
    out = kwargs.get("out")
    return out if isinstance(out, Container) else result


def sequence_at(args: tuple[Any, ...], positions: tuple[int, ...]) -> bool:
    """Whether a tuple/list is given at one of ``positions`` (array-like: ``call`` makes it
    an array)."""
    return any(i < len(args) and type(args[i]) in (tuple, list) for i in positions)


def array_positions(raw: Callable[..., Any]) -> tuple[int, ...]:
    """Positional parameters annotated with an array type (for array-like conversion)."""
    params = inspect.signature(raw).parameters.values()
    positional = [p for p in params if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    return tuple(
        i for i, p in enumerate(positional) if {"Array", "Operand"} & set(WORDS(str(p.annotation)))
    )


WORDS = re.compile(r"\w+").findall
DTYPE_FROM_VALUES = frozenset({"arange", "full"})


def refuse_copy(
    name: str,
    geometry_fn: Callable[..., Any],
    numpy_views: bool,
    args: tuple[Any, ...],
    kwargs: dict[str, Any],
) -> None:
    """``copy=False`` of a view function: raise where the result would need a copy of ``x``'s
    memory, as the standard says (``ValueError``; array-api-strict raises too), instead of
    copying silently -- ``reshape`` of a transpose or of a strided slice to fewer axes.

    NumPy decides, as for every view (``views``): its function applied to ``x`` itself where
    the backend's views are NumPy's, else to ``x``'s geometry in its root (which carries a
    native view's real strides, a PyTorch transpose's), and a result sharing no memory with
    it is a copy. ``x`` that is no array (a list, made an array anyway) copies nothing."""
    x = args[0]
    if type(x) is not Array and not isinstance(x, Array):
        try:
            x = Array(x)
        except Exception:  # noqa: BLE001 - not an array: the call itself reports it
            return
    geometry = x._data if numpy_views else x._view_source()[1]
    if not isinstance(geometry, np.ndarray):
        return
    np_kwargs = {k: to_numpy_args(v) for k, v in kwargs.items()}
    new = geometry_fn(geometry, *to_numpy_args(args[1:]), **np_kwargs)
    if isinstance(new, np.ndarray) and new.size and not np.may_share_memory(new, geometry):
        raise IvyValueError(
            f"{name}: copy=False, but the result of this {name} is not a view of x: it needs "
            "a copy (the standard's ValueError; copy=None copies where needed)"
        )


def never(ret: Any, base: Any) -> bool:
    """``is_native_view`` of backends that never keep a native view."""
    return False


def build(api: Callable[..., Any], backend: ModuleType) -> Built:
    """Fuse the declared behaviours of ``api`` around ``backend``'s implementation."""
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
        array_positions(raw) if "handle_array_like_without_promotion" in flags else ()
    )
    catch = "handle_exceptions" in flags
    error_types = prims.ERROR_TYPES
    numpy_views = prims.NUMPY_VIEWS
    geometry_fn = getattr(numpy_backend, name, None) if view_flag else None
    # Concrete classes too (jax.Array is abstract; results are ArrayImpl / EagerTensor).
    native_set = frozenset((*native_types, type(prims.asarray(0.0, None, None))))
    new_array = bare_array  # with ``_data`` set: ``Array(native)`` without its checks
    # Arguments the fast path passes on unchanged: exactly what ``_to_native`` leaves alone
    # and what carries no ``__ivy_array_function__`` and no container (so ``call`` would do
    # nothing more with them than unwrap arrays).
    plain = frozenset((*native_set, *SCALAR_TYPES, type(None), slice, type(Ellipsis)))
    plain_or_array = plain | {Array}
    array_types = (Array, *native_types)
    # ``infer_dtype``'s default when neither ``dtype`` nor an array argument gives one.
    default_native = prims.native_dtype(infer_from_values([])) if dtype_flag else None
    native_dtypes: dict[Any, Any] = {}
    fast = to_native and not (dtype_flag and name in DTYPE_FROM_VALUES)
    # A Python float beside an integer array: the default float on every backend (only the
    # general path sees Python scalars; two arrays take ``quick``).
    widen = _promote.weak_scalars if name in _promote.SCALAR_OPERANDS else None

    write = out_.writer(prims, native_set)

    def unwrap_sequence(seq: Any) -> Any:
        """``to_native_args(seq)`` for a flat tuple/list of plain values and arrays."""
        if not plain_or_array.issuperset(map(type, seq)):
            return NO_RESULT
        items = [i._data if type(i) is Array else i for i in seq]
        return items if type(seq) is list else tuple(items)

    def native_kwargs(args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        """``call``'s keyword arguments for the backend (``dtype`` native, ``device``
        dropped), or ``NO_RESULT`` where ``call`` does more (``out``, ``copy``, other
        values than plain ones and arrays)."""
        nkwargs = {}
        if kwargs:
            if "out" in kwargs or "copy" in kwargs:
                return NO_RESULT
            for k, v in kwargs.items():
                t = type(v)
                if t is Array:
                    nkwargs[k] = v._data
                elif t in plain:
                    nkwargs[k] = v
                elif t is tuple or t is list:
                    nkwargs[k] = unwrap_sequence(v)
                    if nkwargs[k] is NO_RESULT:
                        return NO_RESULT
                elif k != "dtype":
                    return NO_RESULT
            nkwargs.pop("device", None)  # CPU only
        dtype = kwargs.get("dtype")
        if dtype is not None:
            try:
                native = native_dtypes.get(dtype)
            except TypeError:  # not hashable: ``call`` reports it
                return NO_RESULT
            if native is None:
                native = native_dtypes[dtype] = prims.native_dtype(as_dtype(dtype))
            nkwargs["dtype"] = native
        elif dtype_flag and not (args and isinstance(args[0], array_types)):
            nkwargs["dtype"] = default_native
        return nkwargs

    def view_result(x: Any, ret: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        if numpy_views or not isinstance(x, Array) or geometry_fn is None:
            return wrap(ret, native_types)
        if type(x) is Array and prims.shares_memory(ret, x._data):
            if ret.ndim == 0 and not numpy_keeps_view(geometry_fn, x, args, kwargs):
                return Array(prims.copy(ret))  # NumPy gives a scalar (a copy) here: x[0] of 1-d
            new = new_array()  # a native view (PyTorch)
            new._data = ret
            return new
        root, geometry = x._view_source()
        np_kwargs = {k: to_numpy_args(v) for k, v in kwargs.items()}
        new = geometry_fn(geometry, *to_numpy_args(args[1:]), **np_kwargs)
        if not views.is_view_of(new, root._view_source()[1]):
            return Array(ret)  # NumPy copies here too
        return TrackedView(root, new, ret)

    def convert_in(args: tuple[Any, ...]) -> list[Any]:
        nargs = [to_native_args(a) for a in args]
        for i in array_like:
            if i < len(nargs) and type(nargs[i]) in (list, tuple):
                nargs[i] = prims.asarray(nargs[i], None, None)
        return nargs if widen is None else widen(prims, nargs)

    def call(args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        if array_fn:
            ret = array_function(api, args, kwargs)
            if ret is not NO_RESULT:
                return ret
        if nestable and any(isinstance(a, Container) for a in (*args, *kwargs.values())):
            return map_nested(api, args, kwargs)
        out = kwargs.pop("out", None) if out_flag else None
        copy = kwargs.pop("copy", None) if view_flag else None
        if out is not None:
            out_.check_out(name, out)
        if to_native and kwargs.get("dtype") is not None:
            kwargs["dtype"] = prims.native_dtype(as_dtype(kwargs["dtype"]))
        elif dtype_flag and not (args and isinstance(args[0], (Array, *native_types))):
            values = (
                [a for a in args if isinstance(a, SCALAR_TYPES)]
                if name in DTYPE_FROM_VALUES
                else []
            )
            kwargs["dtype"] = prims.native_dtype(infer_from_values(values))
        if "device" in kwargs:
            kwargs.pop("device")  # CPU only
        if copy is False and out is None and geometry_fn is not None and args:
            refuse_copy(name, geometry_fn, numpy_views, args, kwargs)
        if not to_native:
            if to_ivy:
                args = tuple(Array(a) if isinstance(a, native_types) else a for a in args)
            return target(*args, **kwargs)
        nargs = convert_in(args)
        nkwargs = {k: to_native_args(v) for k, v in kwargs.items()}
        if out is not None:
            if type(out) is Array:
                return with_out(out, nargs, nkwargs)
            return write(out, target(*nargs, **nkwargs))
        ret = target(*nargs, **nkwargs)
        if copy:
            return wrap(prims.copy(ret), native_types)
        if view_flag and args:
            return view_result(args[0], ret, args, kwargs)
        return wrap(ret, native_types)

    def error(e: Exception) -> Exception:
        if isinstance(e, IvyException) or not catch:
            return e
        extra = tuple(t for k, ts in error_types.items() if isinstance(e, k) for t in ts)
        return backend_exception(f"{prims.NAME}: {name}: {without_name(name, str(e))}", e, extra)

    def general(*args: Any, **kwargs: Any) -> Any:
        try:
            # The fast loop: every argument an ``Array``, a native array, a plain value or a
            # flat tuple/list of those, no ``copy`` and at most an ``Array`` as ``out``; then
            # ``call`` would only unwrap arrays, set ``dtype`` and wrap the result (or write
            # it into ``out``), which this does with fewer frames. A native function taken directly would read a surplus positional
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
                            if a is NO_RESULT:
                                break
                        nargs.append(a)
                    else:
                        break
                else:
                    if widen is not None:
                        nargs = widen(prims, nargs)
                    if kwargs:
                        out = kwargs.get("out") if out_flag else None
                        if type(out) is Array:  # ``out`` as the only non-plain argument
                            rest = kwargs.copy()
                            del rest["out"]
                            nkwargs = native_kwargs(args, rest)
                            if nkwargs is NO_RESULT:
                                return call(args, kwargs)
                            return with_out(out, nargs, nkwargs)
                        nkwargs = native_kwargs(args, kwargs)
                        if nkwargs is NO_RESULT:
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
                        new = new_array()
                        new._data = ret
                        return new
                    return wrap(ret, native_types)
            return call(args, kwargs)
        except Exception as e:  # noqa: BLE001 - backend errors become IvyBackendException
            raise error(e) from (None if isinstance(e, IvyException) else e)

    forward = thin_forward(impl) if fast and impl else None
    with_out = out_.caller(target, prims, native_out, write, forward)
    if forward is None:
        # Names of dtypes (``astype(x, "float64")``) and other strings pass unchanged, as
        # ``call`` passes them, when the backend function receives them; a native function
        # taken directly (``forward``) might not read a ``Dtype``, so not there.
        plain = plain | {str, Dtype}
    direct = forward.native if forward and not forward.keywords else None
    direct_arity = forward.positional if forward else -1
    keyed = forward.native if forward and forward.keywords else None
    keywords = forward.keywords if forward else frozenset()
    dtype_only = keyed if keyed and keywords == {"dtype"} else target
    view = view_result if view_flag and not numpy_views else None
    native_view = prims.is_native_view if geometry_fn is not None else never
    arity = len(array_positions(raw))
    # The public function's own path (``_dispatcher``). Functions of arrays: arrays only, no
    # keyword. Functions of no array: plain values and sequences of arrays, the default
    # ``dtype`` passed as ``general`` would pass it (``Built.dtype``).
    inline = fast and not (view_flag if arity == 0 else dtype_flag)
    # ``quick`` takes the arrays (one plain argument for a function of no array).
    quick: Callable[..., Any] = direct if direct and direct_arity == (arity or 1) else target
    quick2: Callable[..., Any] = direct if direct and direct_arity == 2 else target
    if arity == 0 and dtype_flag:
        # Called with ``dtype=default`` by the public function (``Built.dtype``): a keyword
        # in the call costs a third of what ``functools.partial`` merging it does.
        quick = dtype_only if direct_arity == 1 else target
        quick2 = dtype_only if direct_arity == 2 else target
    wrapper = functools.partial(wrap, native_types=native_types)
    out_quick: tuple[Any, ...] | None = None
    if out_flag and inline and arity in (1, 2):
        if native_out and prims.out_checks_itself(target):
            if forward and forward.out and not forward.keywords and forward.positional == arity:
                # guarded where the backend's error state may raise after writing (NumPy's)
                guard = getattr(prims, "NATIVE_OUT_GUARD", None)
                if guard is not None or getattr(prims, "native_out_safe", None) is None:
                    out_quick = (NATIVE, forward.native, guard)
        elif native_out:
            check = prims.check_native_out
            if arity == 2:
                # positional, the arrays unpacked: ``native_out_for_pair`` where the backend
                # has one (its hot key read directly), else the general check
                check = getattr(prims, "native_out_for_pair", None) or functools.partial(
                    ask_pair, check
                )
            out_quick = (ASK, check, native_types[0], target)
        else:
            sample = prims.asarray(0.0, None, None)
            if not prims.writable(sample):
                key = getattr(prims, "SHARED_LAYOUT", None)
                # The backend's layout token, where the function's result layout follows
                # from its inputs' (its module says so): the C paths then remember it.
                module = sys.modules.get(getattr(raw, "__module__", ""), None)
                follows = getattr(module, "RESULT_LAYOUT_FROM_INPUTS", False) is True
                token = getattr(prims, "layout", None) if follows else None
                out_quick = (REBIND, type(sample), prims.same_layout, write, key, token)
    return Built(
        inline,
        quick,
        quick2,
        plain,
        view,
        native_view,
        native_set,
        general,
        error,
        wrapper,
        with_out if out_flag and inline else None,
        default_native if arity == 0 and dtype_flag else None,
        getattr(impl, "native_table", None) if inline and target is impl else None,
        out_quick,
    )


def without_name(name: str, message: str) -> str:
    """``message`` without a leading ``"name: "``: the backend's own message often names the
    function already (NumPy's ``"matmul: Input operand 1 ..."``, the backends' own checks),
    and the wrap puts ``"backend: name: "`` in front of it ("numpy: matmul: matmul: ...")."""
    prefix = f"{name}: "
    return message[len(prefix) :] if message.startswith(prefix) else message
