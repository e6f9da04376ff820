"""The wrapping decorators, named and ordered as Ivy documents them; and the runtime's map.

Each decorator *declares* one concern of a functional-API function (``runtime/functional/``):
it records its name in ``__ivy_wrappers__`` and wraps nothing. When a backend is set, the
declarations of each function become **one** dispatcher around the backend's implementation
(Ivy stacks a Python closure per decorator, most of its 0.4-0.7 ms per call; one fused frame
keeps ``ivy.add`` on NumPy within about 2x of ``numpy.add``, ``benchmarks/runtime_overhead.py``).

What each declaration means:

* ``handle_exceptions``: backend errors become :class:`IvyBackendException` (cause kept)
  that is also the Python type of the original (``except IndexError`` still works).
* ``handle_array_function``: objects defining ``__ivy_array_function__`` get the call.
* ``handle_nestable``: a :class:`Container` argument maps the call over its leaves.
* ``handle_out_argument``: ``out`` must be an :class:`Array`; a backend function whose
  ``support_native_out`` attribute is ``True`` (the value is read, not just its presence) gets
  ``out``'s native buffer when the result fits it exactly; otherwise the result is written
  by ``inplace``, which keeps ``out``'s dtype and shape and raises before writing.
* ``handle_view`` / ``handle_view_indexing``: ``copy=True`` copies; otherwise a result that is
  not a native view becomes a tracked view (``views.py``). ``out`` wins over ``copy``.
* ``to_native_arrays_and_back`` / ``inputs_to_ivy_arrays``: argument and result conversion.
* ``infer_dtype`` / ``infer_device``: the default dtype for creation functions, CPU device.

Map of the dispatcher (``runtime/dispatch/``), one module per question a reader asks:

* ``func_wrapper`` (here): the decorators -- what a function declares.
* ``dispatch.public``: the public function object (``ivy.add``) and the **hot tier**: arrays
  only, no keyword -> the backend's native function, result wrapped inline.
* ``dispatch.build``: building one function's dispatcher for one backend (:class:`Built`)
  and the **general tier**: ``general`` (plain arguments, keywords) and ``call`` (containers,
  ``__ivy_array_function__``, ``out``, ``copy``, views; the only caller of a functional body).
* ``dispatch.out``: ``out=`` -- the buffer's check and the write into it.
* ``dispatch.forward``: the native function a backend function only forwards to.
* ``dispatch.convert``: arguments to native, results to ``Array``.
* ``dispatch.registry``: every public function by name (for ``Array`` and ``inplace``).

Two words mean different things: ``Built.fast`` says the public function may take its hot
tier; the "fast loop" is ``general``'s own shortcut for plain calls. The layers of the
runtime, each importing only from those before it: ``exceptions`` < ``dtypes`` (promotion
and the dtype policy) < ``axes``/``info``/``native`` < ``backends._common`` <
``backends.<name>`` < ``backend_state`` < ``views`` < ``dispatch.registry`` < ``array`` <
``container`` < ``inplace`` < ``dispatch`` < ``func_wrapper`` < ``backend_handler`` <
``functional`` < ``linalg``/``fft`` < ``ivycheck.runtime``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from ivycheck.runtime.dispatch.public import public_function
from ivycheck.runtime.dispatch.registry import REGISTRY

__all__ = ["REGISTRY"]

F = TypeVar("F", bound=Callable[..., Any])


def _declare(flag: str) -> Callable[[F], F]:
    def decorator(fn: F) -> F:
        api = fn if hasattr(fn, "__ivy_raw__") else public_function(fn)
        # Decorators apply bottom-up; prepending keeps the tuple in source (top-down) order.
        api.__ivy_wrappers__ = (flag, *api.__ivy_wrappers__)  # type: ignore[attr-defined]
        setattr(api, flag, True)
        return api

    decorator.__name__ = decorator.__qualname__ = flag
    decorator.__doc__ = f"Declare the ``{flag}`` behaviour; applied by ``build`` at set_backend."
    return decorator


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
