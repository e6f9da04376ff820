"""``out=``: what a function with ``handle_out_argument`` does with the buffer it is given.

``out`` must be an ``ivy.Array`` (or a container of them): a native array cannot be written
in place on every backend. Then, in order:

1. A backend function with ``support_native_out`` gets ``out``'s native buffer when the
   backend says the result fits it exactly (``primitives.check_native_out``, which names the
   function to call: the backend function or the native one it amounts to), or straight
   away when the native function checks ``out`` itself before writing
   (``primitives.out_checks_itself``: NumPy's ufuncs): the result is computed into ``out``
   with no temporary, as the backend's own ``out=`` does -- while no error can be raised
   after writing (``primitives.native_out_safe``: NumPy under ``np.seterr(all="raise")``
   computes into ``out`` and raises then; there the result is computed first, as in 2).
2. Otherwise the result is computed and written. A result of exactly ``out``'s shape and
   dtype is copied into a writable buffer (``primitives.write``) or, on an immutable one
   (JAX, ``tf.Tensor``), becomes ``out``'s data -- what ``inplace.update`` does for it,
   without its general checks. Anything else goes through ``inplace.update``, which
   broadcasts, casts under ``same_kind`` or raises before writing, so ``out`` keeps its dtype
   and shape and a failed update changes nothing.

The write calls ``inplace`` directly: going through the public ``ivy.inplace_update`` would
run a second dispatcher for every call with ``out``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ivycheck.runtime import inplace
from ivycheck.runtime.array import Array, rebind
from ivycheck.runtime.container import Container
from ivycheck.runtime.dispatch.convert import wrap
from ivycheck.runtime.dispatch.forward import Forward
from ivycheck.runtime.exceptions import IvyTypeError


def check_out(name: str, out: Any) -> None:
    """Refuse an ``out`` that is neither an ``Array`` nor a ``Container``."""
    if not isinstance(out, (Array, Container)):
        kind = f"{type(out).__module__}.{type(out).__qualname__}"
        raise IvyTypeError(
            f"{name}: out must be an ivy.Array, got a {kind}; a native array cannot be "
            "written in place on every backend -- wrap it: ivy.Array(native)"
        )


def writer(prims: Any, native_set: frozenset[type]) -> Callable[[Any, Any], Any]:
    """``write(out, ret)`` for one backend: the native result ``ret`` written into ``out``
    (an ``Array``, a tracked view or a container), which is returned.

    An immutable native array (JAX's, an eager ``tf.Tensor``) is never writable: ``out`` of
    that type is rebound without asking ``writable`` (``isinstance`` of ``tf.Variable`` costs
    a few tenths of a microsecond); shapes and dtypes are compared by
    ``primitives.same_layout`` (TensorFlow's ``TensorShape`` and ``DType`` cost microseconds).
    """
    native_types = prims.NATIVE_TYPES
    writable, write_native, same = prims.writable, prims.write, prims.same_layout
    sample = prims.asarray(0.0, None, None)
    immutable = frozenset() if writable(sample) else frozenset({type(sample)})

    def write(out: Any, ret: Any) -> Any:
        if type(out) is Array and type(ret) in native_set:
            data = out._data
            if same(ret, data):
                if type(data) not in immutable and writable(data):
                    write_native(data, ret)
                else:
                    rebind(out, ret)  # immutable arrays: ``inplace.update`` rebinds too
                return out
        return inplace.update(out, wrap(ret, native_types))

    return write


def caller(
    target: Callable[..., Any],
    prims: Any,
    native_out: bool,
    write: Callable[[Any, Any], Any],
    forward: Forward | None = None,
) -> Callable[[Any, list[Any] | tuple[Any, ...], dict[str, Any]], Any]:
    """``call(out, nargs, nkwargs)`` for one function and backend: ``target`` called on the
    native arguments with its result in ``out`` (an ``Array``), as described above.

    A function whose native ``out`` the backend checks itself before writing anything
    (``primitives.out_checks_itself``: NumPy's ufuncs) is called with ``out``'s buffer
    straight away -- the native function itself when ``target`` only forwards to it
    (``forward``), as the call without ``out`` is -- and only when that raises (a result
    that does not fit, a read-only buffer, a bad argument) does the call take step 2, which
    raises what every backend raises there.
    """
    writable, check = prims.writable, prims.check_native_out

    if native_out and prims.out_checks_itself(target):
        # Arity-specialised: ``native(a, b, out=data)`` costs a third less than
        # ``native(*nargs, out=data)`` on 8 elements.
        thin = forward is not None and forward.out and not forward.keywords
        safe = getattr(prims, "native_out_safe", None)
        unary = forward.native if thin and forward.positional == 1 else None  # type: ignore[union-attr]
        binary = forward.native if thin and forward.positional == 2 else None  # type: ignore[union-attr]

        def checked(out: Any, nargs: Any, nkwargs: dict[str, Any]) -> Any:
            if safe is not None and not safe():
                # An error state that raises after writing (``np.seterr(all="raise")``): the
                # result first, written only if it was computed.
                return write(out, target(*nargs, **nkwargs))
            data = out._data
            n = len(nargs)
            try:
                if nkwargs:
                    target(*nargs, out=data, **nkwargs)
                elif n == 2 and binary is not None:
                    binary(nargs[0], nargs[1], out=data)
                elif n == 1 and unary is not None:
                    unary(nargs[0], out=data)
                else:
                    target(*nargs, out=data)
            except Exception:  # noqa: BLE001 - step 2 raises the runtime's own error
                # An ``out`` the result does not fit (shape; a dtype beyond ``same_kind``)
                # or cannot take (read-only): computed without it and written by ``write``,
                # which refuses the misfit with ``InplaceUpdateException`` before writing,
                # as on every other backend (the native error named NumPy's rule instead).
                return write(out, target(*nargs, **nkwargs))
            return out

        return checked

    # Without a native ``out``, the result is computed as the call without ``out`` computes
    # it: by the native function the backend function only forwards to, when it does.
    direct = forward.native if forward is not None and not forward.keywords else None
    arity = forward.positional if forward is not None else -1

    if not native_out:
        # An immutable ``out`` (JAX, TensorFlow) of the result's type, shape and dtype is
        # rebound here, as ``write`` would rebind it, one Python frame fewer.
        sample = prims.asarray(0.0, None, None)
        immutable: Any = None if writable(sample) else type(sample)
        same = prims.same_layout

        def computed(out: Any, nargs: Any, nkwargs: dict[str, Any]) -> Any:
            if direct is not None and not nkwargs and len(nargs) == arity:
                # two arguments: a third cheaper than ``direct(*nargs)``
                ret = direct(nargs[0], nargs[1]) if arity == 2 else direct(*nargs)
            else:
                ret = target(*nargs, **nkwargs)
            data = out._data
            if type(ret) is immutable and type(data) is immutable and same(ret, data):
                rebind(out, ret)
                return out
            return write(out, ret)

        return computed

    def call(out: Any, nargs: Any, nkwargs: dict[str, Any]) -> Any:
        data = out._data
        fn = check(target, nargs, nkwargs, out=data) if writable(data) else None
        if fn is not None:
            if nkwargs or len(nargs) != 2:
                fn(*nargs, out=data, **nkwargs)
            else:
                fn(nargs[0], nargs[1], out=data)
            return out
        return write(out, target(*nargs, **nkwargs))

    return call
