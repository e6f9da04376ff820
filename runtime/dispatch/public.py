"""The public function: one object per functional-API function, and its hot paths.

:func:`public_function` makes the object ``ivy.add`` is for the life of the process;
``set_backend`` (:func:`activate`) binds into it the :class:`~.build.Built` of the backend in
use. Its body is the hot tier: a call of arrays only, without keywords, goes straight to the
backend's native function (``quick``/``quick2``) and wraps the result inline; with an
``Array`` as ``out`` and no other keyword, to ``with_out`` (``dispatch.out``: the backend's
native ``out`` when the result fits it); every other call goes to the built ``general``.
Where the C paths are built (``speedups.py``), a function of at most two arrays is a
``_speedups.PublicFunction`` running the same tier in C, bound with the same values, and
``api`` below answers every call it leaves.
"""

from __future__ import annotations

import functools
import operator
import threading
from collections.abc import Callable
from types import ModuleType
from typing import Any, TypeVar

from ivycheck.runtime.array import (
    OPERATOR_FUNCTIONS,
    Array,
    add_method,
    bare_array,
    use_item_method,
)
from ivycheck.runtime.backend_state import current_backend, enter, state
from ivycheck.runtime.dispatch.build import (
    NATIVE,
    REBIND,
    Built,
    array_positions,
    build,
    never,
)
from ivycheck.runtime.dispatch.registry import REGISTRY
from ivycheck.runtime.exceptions import IvyException
from ivycheck.runtime.speedups import SPEEDUPS

F = TypeVar("F", bound=Callable[..., Any])
MISSING: Any = object()
NO_KEYWORDS: dict[str, Any] = {}
"""The keyword arguments of a hot call with ``out`` besides ``out`` (never written to)."""


def public_function(fn: F) -> F:
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
    arity = len(array_positions(fn))
    new_array = bare_array

    def unbuilt(*args: Any, **kwargs: Any) -> Any:
        """Registered after the backend was set: build for it now, then call."""
        return bind(build_late(name)).general(*args, **kwargs)

    fast = False
    quick: Callable[..., Any] = unbuilt
    quick2: Callable[..., Any] = unbuilt
    plain: frozenset[type] = frozenset()
    view: Callable[..., Any] | None = None
    native_view: Callable[[Any, Any], bool] = never
    native_set: frozenset[type] = frozenset()
    general: Callable[..., Any] = unbuilt
    error: Callable[[Exception], Exception] = identity
    wrap: Callable[[Any], Any] = identity
    with_out: Callable[[Any, Any, dict[str, Any]], Any] | None = None
    dtype: Any = None
    table: tuple[type, Callable[[Any, Any], Any], dict[Any, Any]] | None = None
    out_quick: tuple[Any, ...] | None = None
    # ``table`` in three variables (a tuple index per call less); ``cast_type`` is ``None``,
    # of no array's type, while there is no table.
    cast_type: type | None = None
    cast_call: Callable[[Any, Any], Any] = unbuilt
    cast_known: dict[Any, Any] = {}

    def bind(built: Built) -> Built:
        nonlocal fast, quick, quick2, plain, view, native_view, native_set, general, error, wrap
        nonlocal with_out, dtype, table, out_quick, cast_type, cast_call, cast_known
        (
            fast,
            quick,
            quick2,
            plain,
            view,
            native_view,
            native_set,
            general,
            error,
            wrap,
            with_out,
            dtype,
            table,
            out_quick,
        ) = built
        cast_type, cast_call, cast_known = table or (None, unbuilt, {})
        if public is not api:  # the C paths: the same hot tier, bound alike
            # (C makes no view: a function that may need one keeps its Python path)
            public.bind(
                quick=quick if fast and (arity == 0 or view is None) else None,
                quick2=quick2,
                plain=plain,
                native_set=native_set,
                wrap=wrap,
                error=error,
                ivy_exception=IvyException,
                dtype=dtype,
                cast_type=cast_type if fast else None,
                cast_call=cast_call,
                cast_known=cast_known,
                out_quick=out_quick if with_out is not None else None,
                out_native=quick,
                no_keywords=NO_KEYWORDS,
                with_out=with_out,
                finish=finish,
            )
        if operator_method is not None:
            # ``x[q]`` on NumPy: the key handed straight to the native array (no view to make)
            if view is None and quick2 is operator.getitem:
                use_item_method(direct_item, (plain, native_set, error, wrap))
            else:
                use_item_method(operator_method)
            if SPEEDUPS is not None:
                # ``ArrayBase``'s ``x[key]`` as ``direct_item`` is, whatever the backend: a
                # call in flight when the backend is switched (a key's ``__index__``, another
                # thread) reads ``plain``, ``native_set``, ``error`` and ``wrap`` as they are
                # now, and hands a key of another type to ``api``, as ``direct_item`` does.
                SPEEDUPS.configure_item(Array, api, plain, native_set, error, wrap)
        return built

    def finish(ret: Any, args: tuple[Any, ...]) -> Any:
        """The end of a C hot call whose backend was switched during its native call (by a
        callback or another thread): ``ret`` made an ``Array`` as the Python body below does
        after that call, reading its variables as they are now, so that both paths give
        the same answer."""
        if view is not None and arity:
            x = args[0]
            try:
                if not native_view(ret, x._data):
                    return view(x, ret, args, {})
            except Exception as e:
                raise error(e) from e
        elif type(ret) not in native_set:
            return wrap(ret)
        new = new_array()
        new._data = ret
        return new

    if arity == 1:

        def api(
            x: Any = MISSING, y: Any = MISSING, /, *args: Any, out: Any = MISSING, **kwargs: Any
        ) -> Any:
            if type(x) is Array and out is MISSING and not kwargs and not args and fast:
                if y is MISSING:
                    try:
                        ret = quick(x._data)
                    except Exception as e:
                        raise error(e) from e
                else:
                    data = x._data
                    if type(data) is cast_type:
                        # ``astype(x, "float64")``, ``astype(x, np.float64)``: a dtype the
                        # backend has answered before; the native method, the native dtype.
                        # Its result is of the exact native type (``Built.table``).
                        try:
                            arg = cast_known[y]
                        except (KeyError, TypeError):  # not answered yet; unhashable
                            pass
                        else:
                            try:
                                ret = cast_call(data, arg)
                            except Exception as e:
                                raise error(e) from e
                            new = new_array()
                            new._data = ret
                            return new
                    t = type(y)
                    if t is tuple:  # a loop: ``plain.issuperset(map(...))`` builds a set
                        for i in y:
                            if type(i) not in plain:
                                return general(x, y)
                    elif t not in plain:
                        return general(x, y)
                    try:
                        ret = quick2(x._data, y)
                    except Exception as e:
                        raise error(e) from e
                if view is not None:
                    try:
                        if not native_view(ret, x._data):
                            return view(x, ret, (x,) if y is MISSING else (x, y), {})
                    except Exception as e:
                        raise error(e) from e
                    new = new_array()
                    new._data = ret
                    return new
                if type(ret) in native_set:
                    new = new_array()
                    new._data = ret
                    return new
                return wrap(ret)
            if (
                with_out is not None
                and type(out) is Array
                and type(x) is Array
                and y is MISSING
                and not args
                and not kwargs
            ):
                if out_quick is not None:  # as ``with_out`` does, without its frame
                    data = out._data
                    mode = out_quick[0]
                    if mode == REBIND:  # immutable: ``out`` is rebound to the result
                        try:
                            ret = quick(x._data)
                        except Exception as e:
                            raise error(e) from e
                        kind = out_quick[1]
                        key = out_quick[4]
                        if (
                            type(ret) is kind
                            and type(data) is kind
                            and (
                                (key and getattr(ret, key) is getattr(data, key))
                                or out_quick[2](ret, data)
                            )
                        ):
                            out._data = ret
                            return out
                        try:
                            return out_quick[3](out, ret)
                        except Exception as e:  # noqa: BLE001
                            raise error(e) from (None if isinstance(e, IvyException) else e)
                    if mode == NATIVE:
                        guard = out_quick[2]
                        if guard is None or guard[0].get() in guard[1]:
                            try:
                                out_quick[1](x._data, out=data)
                            except Exception:  # noqa: BLE001 - ``with_out`` tells which
                                pass
                            else:
                                return out
                    elif type(data) is out_quick[2]:  # ASK: the backend says if it fits
                        try:
                            fn = out_quick[1](out_quick[3], (x._data,), NO_KEYWORDS, out=data)
                            if fn is not None:
                                fn(x._data, out=data)
                                return out
                        except Exception:  # noqa: BLE001 - ``with_out`` tells which
                            pass
                try:
                    return with_out(out, (x._data,), NO_KEYWORDS)
                except Exception as e:  # noqa: BLE001 - backend errors become IvyBackendException
                    raise error(e) from (None if isinstance(e, IvyException) else e)
            if out is not MISSING:
                kwargs["out"] = out
            if y is not MISSING:
                return general(x, y, *args, **kwargs)
            if x is not MISSING:
                return general(x, **kwargs)
            return general(**kwargs)

    elif arity == 2:

        def api(
            x1: Any = MISSING, x2: Any = MISSING, /, *args: Any, out: Any = MISSING, **kwargs: Any
        ) -> Any:
            # ``out`` is a parameter of its own: a call with ``out`` only passes no keyword
            # dictionary to read it from.
            if type(x1) is Array and type(x2) is Array and not args and not kwargs:
                # arrays only: the hot tier (each test made once on either path)
                if out is MISSING:
                    if fast:
                        try:
                            ret = quick(x1._data, x2._data)
                            if view is not None and not native_view(ret, x1._data):
                                return view(x1, ret, (x1, x2), {})
                        except Exception as e:
                            raise error(e) from e
                        if type(ret) in native_set:
                            new = new_array()
                            new._data = ret
                            return new
                        return wrap(ret)
                elif with_out is not None and type(out) is Array:
                    if out_quick is not None:  # as ``with_out`` does, without its frame
                        data = out._data
                        mode = out_quick[0]
                        if mode == REBIND:  # immutable: ``out`` is rebound to the result
                            try:
                                ret = quick(x1._data, x2._data)
                            except Exception as e:
                                raise error(e) from e
                            kind = out_quick[1]
                            key = out_quick[4]
                            if (
                                type(ret) is kind
                                and type(data) is kind
                                and (
                                    (key and getattr(ret, key) is getattr(data, key))
                                    or out_quick[2](ret, data)
                                )
                            ):
                                out._data = ret
                                return out
                            try:
                                return out_quick[3](out, ret)
                            except Exception as e:  # noqa: BLE001
                                raise error(e) from (None if isinstance(e, IvyException) else e)
                        if mode == NATIVE:
                            guard = out_quick[2]
                            if guard is None or guard[0].get() in guard[1]:
                                try:
                                    out_quick[1](x1._data, x2._data, out=data)
                                except Exception:  # noqa: BLE001 - ``with_out`` tells which
                                    pass
                                else:
                                    return out
                        elif type(data) is out_quick[2]:  # ASK: the backend says if it fits
                            a = x1._data
                            b = x2._data
                            try:
                                fn = out_quick[1](out_quick[3], a, b, data)
                                if fn is not None:
                                    fn(a, b, out=data)
                                    return out
                            except Exception:  # noqa: BLE001 - ``with_out`` tells which
                                pass
                    try:
                        return with_out(out, (x1._data, x2._data), NO_KEYWORDS)
                    except Exception as e:  # noqa: BLE001 - backend errors become IvyBackendException
                        raise error(e) from (None if isinstance(e, IvyException) else e)
            if out is not MISSING:
                kwargs["out"] = out
            if x2 is not MISSING:
                return general(x1, x2, *args, **kwargs)
            if x1 is not MISSING:
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
                        new = new_array()
                        new._data = ret
                        return new
                    return wrap(ret)
            return general(*args, **kwargs)

    elif arity == 0:

        def api(a: Any = MISSING, b: Any = MISSING, /, *args: Any, **kwargs: Any) -> Any:
            # Creation functions and functions of a sequence of arrays, called with one or
            # two plain positional arguments: ``zeros((8,))``, ``full((8,), 2.0)``,
            # ``concat([x, y])``. A native array first gives its own dtype (``general``
            # passes no default ``dtype`` then), so it takes ``general``.
            # (``MISSING`` is of no plain type: a call without arguments takes ``general``.)
            if fast and not kwargs and not args:
                t = type(a)
                native: Any = a
                if t is tuple or t is list:
                    if a and type(a[0]) is Array:  # ``concat([x, y])``: arrays only
                        native = [i._data for i in a if type(i) is Array]
                        if len(native) != len(a):
                            native = MISSING
                        elif t is tuple:
                            native = tuple(native)
                    else:  # a loop: ``plain.issuperset(map(...))`` builds a set
                        for i in a:
                            if type(i) not in plain:
                                native = MISSING
                                break
                elif t not in plain or t in native_set:
                    native = MISSING
                if b is not MISSING and native is not MISSING:
                    t = type(b)
                    if t is tuple or t is list:
                        for i in b:
                            if type(i) not in plain:
                                native = MISSING
                                break
                    elif t not in plain:
                        native = MISSING
                if native is not MISSING:
                    try:
                        if dtype is None:
                            ret = quick(native) if b is MISSING else quick2(native, b)
                        elif b is MISSING:
                            ret = quick(native, dtype=dtype)
                        else:
                            ret = quick2(native, b, dtype=dtype)
                    except Exception as e:  # noqa: BLE001 - backend errors become IvyBackendException
                        raise error(e) from (None if isinstance(e, IvyException) else e)
                    if type(ret) in native_set:
                        new = new_array()
                        new._data = ret
                        return new
                    return wrap(ret)
            if b is not MISSING:
                return general(a, b, *args, **kwargs)
            if a is not MISSING:
                return general(a, **kwargs)
            return general(**kwargs)

    else:

        def api(*args: Any, **kwargs: Any) -> Any:
            return general(*args, **kwargs)

    # With the C paths, a function of at most two arrays is a ``PublicFunction``: the hot
    # tier above in C (``runtime/_speedups.c``), every other call to ``api``.
    public: Any = api
    if arity <= 2 and SPEEDUPS is not None:
        public = SPEEDUPS.PublicFunction(api, Array, arity)
    functools.update_wrapper(public, fn)
    public.__ivy_raw__ = fn
    public.__ivy_wrappers__ = ()
    public.__ivy_bind__ = bind
    REGISTRY[name] = public
    add_method(name, public)
    operator_method: Callable[..., Any] | None = None
    if name in OPERATOR_FUNCTIONS:
        setattr(Array, OPERATOR_FUNCTIONS[name], public)
        if arity == 1:

            def method(x: Any, query: Any) -> Any:
                # ``x[query]``: the arity-1 hot path of ``api`` for one more argument. A
                # function of exactly two positional parameters, so that CPython 3.11 calls
                # it from ``x[q]`` as a Python-to-Python call (``BINARY_SUBSCR_GETITEM``), not
                # through the C slot and a general call binding ``*args``/``**kwargs``.
                if fast and type(x) is Array:
                    t = type(query)
                    if t is tuple:
                        for i in query:
                            if type(i) not in plain:
                                return api(x, query)
                    elif t not in plain:
                        return api(x, query)
                    try:
                        ret = quick2(x._data, query)
                        if view is not None and not native_view(ret, x._data):
                            return view(x, ret, (x, query), {})
                    except Exception as e:
                        raise error(e) from e
                    if type(ret) in native_set:
                        new = new_array()
                        new._data = ret
                        return new
                    return wrap(ret)
                return api(x, query)

            def direct_item(x: Any, query: Any) -> Any:
                # ``method`` where ``quick2`` is ``operator.getitem`` and no view is made
                # (NumPy): ``x._data[query]``, one C call fewer. A slice, the commonest
                # key, is plain whatever it holds (the native array reads its bounds, as
                # the general path's ``quick2`` does), so it is tested first and alone.
                # ``x`` is not tested: ``TrackedView`` has a ``__getitem__`` of its own.
                t = type(query)
                if t is not slice:
                    if t is tuple:
                        for i in query:
                            if type(i) not in plain:
                                return api(x, query)
                    elif t not in plain:
                        return api(x, query)
                try:
                    ret = x._data[query]
                except Exception as e:
                    raise error(e) from e
                if type(ret) in native_set:
                    new = new_array()
                    new._data = ret
                    return new
                return wrap(ret)

            for each in (method, direct_item):
                each.__name__ = each.__qualname__ = OPERATOR_FUNCTIONS[name]
                each.__doc__ = f"``x[query]``: ``ivy.{name}(x, query)``."
            operator_method = method
    return public  # type: ignore[no-any-return]


def identity(x: Any) -> Any:
    """The error and wrap of a function not built yet."""
    return x


def build_late(name: str) -> Built:
    """Build ``name`` for the current backend: it was registered after the backend was set."""
    backend = current_backend()
    table = state.tables.setdefault(state.name, {})
    if name not in table:
        table[name] = build(REGISTRY[name], backend)
    built: Built = table[name]
    return built


SWITCH = threading.RLock()
"""Held by a backend switch (:func:`activate`, ``set_backend``, ``unset_backend``): one
switch at a time. Two threads binding at once would leave some functions bound to each
backend. Calls are not locked: a call in flight keeps the backend it began with, or ends as
the Python body reads its variables after a switch (``finish``); either is one backend's
answer."""

_SWITCHES = [0]
"""Switches begun so far (see :func:`activate`)."""


def activate(backend_name: str, backend: ModuleType) -> None:
    """Point every public function at ``backend``'s dispatcher (built once per backend) and
    record ``backend`` as the one in use.

    A switch made during this one by the same thread (a finalizer or gc callback run while
    binding: the lock is re-entrant) leaves the functions bound so far to the other backend:
    they are bound again, until a pass runs without one, so that every function ends bound
    to the backend recorded."""
    with SWITCH:
        table = state.tables.setdefault(backend_name, {})
        while True:
            _SWITCHES[0] += 1
            mine = _SWITCHES[0]
            for name, api in list(REGISTRY.items()):
                if name not in table:
                    table[name] = build(api, backend)
                api.__ivy_bind__(table[name])  # type: ignore[attr-defined]
            if _SWITCHES[0] == mine:
                break
        enter(backend_name, backend)
