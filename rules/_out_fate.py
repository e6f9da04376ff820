"""What happens to ``out`` when a function handed the native buffer does not write it.

IVY002, IVY003 and IVY015 state a consequence: the wrapper gave the function ``out``'s
native buffer, the function returned a fresh result instead of writing it. What the user
then sees is a fact of the checked project, not of one Ivy release:

* its own ``handle_out_argument`` (the project index's :class:`OutWrapperSummary`) either
  writes the result into ``out`` after the native call (Ivy: ``ivy.inplace_update(out,
  ret)``) or returns it as it is (``out`` is never written);
* that update, per backend (the backend's function of that name, its
  ``FunctionSummary.buffer_update``), either *copies* into ``out``'s existing buffer
  (PyTorch's ``x_native[()] = val_native``: ``out`` keeps its dtype and buffer, the cost is
  an extra allocation and a copy) or *rebinds* ``out`` (NumPy's
  ``x_native.astype(val.dtype)`` before the copy, JAX's ``x.data = val``: ``out`` takes the
  result's dtype and a new buffer when they differ).

A wrapper may also turn its native path off for some ``out``: Ivy's ``if
ivy.gradients._is_variable(out): handle_out_in_backend = False`` (the summary's
``native_gate``), where ``_is_variable`` asks the backend's ``is_variable``. On a backend
whose ``is_variable`` is ``return isinstance(x, NativeArray)`` (``FunctionSummary.
true_for_arrays``: JAX's), every ``out`` is a variable: the buffer is never handed over,
the attribute has no effect there at all (*never*, dead code). Any other ``is_variable``
(``tf.Variable``, ``requires_grad``) keeps the fates above.

When no file of the run defines ``handle_out_argument`` (a project that imports ``ivy``,
our own runtime), or a backend's update cannot be read, the documented default is Ivy's
wrapper at the commit of the shared ecosystem snapshot (975c8fc): the result is written
with ``inplace_update``, which copies on PyTorch and rebinds on NumPy, JAX, TensorFlow and
Paddle; on another backend the message says only that ``out`` is written by its update.
"""

from __future__ import annotations

from dataclasses import dataclass

from ivycheck.checker.rule_api import Category, OutWrapperSummary, ProjectIndex, Severity

COPIES, REBINDS, UNWRITTEN, NEVER, UNKNOWN = "copies", "rebinds", "unwritten", "never", ""

DEFAULT_UPDATE = "inplace_update"
DEFAULT_BY_BACKEND = {
    "torch": COPIES,
    "numpy": REBINDS,
    "jax": REBINDS,
    "tensorflow": REBINDS,
    "paddle": REBINDS,
}
"""The default when the tree does not say (Ivy 975c8fc's backends' ``inplace_update``)."""


@dataclass(frozen=True)
class OutFate:
    """What the user's ``out`` becomes after a native call that ignored its buffer."""

    kind: str
    """``copies``, ``rebinds``, ``unwritten`` or ``""`` (the backend's update is unknown)."""
    source: str
    """Where the fact comes from: the wrapper's ``path:line``, or ``default``."""
    gate: str = ""
    """``never`` only: the backend function true for every native array (``is_variable``)."""

    @property
    def is_performance(self) -> bool:
        """The result lands in ``out`` with its dtype kept: only work is wasted."""
        return self.kind == COPIES

    @property
    def never_handed(self) -> bool:
        """The wrapper never hands ``out``'s buffer to this backend's functions."""
        return self.kind == NEVER

    @property
    def consequence(self) -> str:
        """The clause a message ends with (no leading conjunction)."""
        if self.kind == NEVER:
            return (
                "the wrapper never hands `out`'s buffer to this backend's functions (its "
                f"`{self.gate}` is true for every array), so the attribute has no effect here"
            )
        if self.kind == COPIES:
            return "the wrapper then copies the result into `out` (an extra allocation and a copy)"
        if self.kind == REBINDS:
            return "`out` silently changes dtype and buffer when the result's dtype differs"
        if self.kind == UNWRITTEN:
            return "the wrapper returns the result without writing `out` (it keeps its old values)"
        return "`out` is written only by this backend's update of the result"

    @property
    def severity(self) -> Severity:
        return Severity.WARNING if self.is_performance or self.never_handed else Severity.ERROR

    @property
    def category(self) -> Category:
        if self.never_handed:
            return Category.DEAD_CODE
        return Category.PERFORMANCE if self.is_performance else Category.CORRECTNESS


def project_wrapper(index: ProjectIndex) -> tuple[str, OutWrapperSummary] | None:
    """(path, facts) of the first file, in path order, defining ``handle_out_argument``."""
    for path in index.wrapper_paths():
        wrapper = index.files[path].out_wrapper
        if wrapper is not None:
            return path, wrapper
    return None


def ignored_buffer_fate(index: ProjectIndex, backend: str | None) -> OutFate:
    """The fate of ``out`` on ``backend`` when the function ignores the native buffer."""
    found = project_wrapper(index)
    if found is None:
        return OutFate(DEFAULT_BY_BACKEND.get(backend or "", UNKNOWN), "default")
    path, wrapper = found
    source = f"{path}:{wrapper.line}"
    gate = _gate_true_for_arrays(index, backend or "", wrapper.native_gate)
    if gate:
        return OutFate(NEVER, source, gate)
    if not wrapper.native_update:
        return OutFate(UNWRITTEN, source)
    if wrapper.native_update not in index.backends.get(backend or "", {}):
        return OutFate(DEFAULT_BY_BACKEND.get(backend or "", UNKNOWN), source)
    update = index.backend_path(backend or "", wrapper.native_update)
    summary = index.files[update].functions[wrapper.native_update]
    return OutFate(summary.buffer_update or UNKNOWN, source)


def _gate_true_for_arrays(index: ProjectIndex, backend: str, gate: str) -> str:
    """The backend function behind the wrapper's gate when it is true for every native
    array of ``backend``, else ``""``. The gate is the backend's own function of that name,
    or an API helper (``_is_variable``) delegating to exactly one backend function
    (``current_backend(x).is_variable(x)``)."""
    functions = index.backends.get(backend, {})
    if not gate:
        return ""
    name = gate
    if name not in functions:
        helper = index.api_function(gate)
        called = set(helper.backend_calls) if helper is not None else set()
        if len(called) != 1:
            return ""
        name = called.pop()
        if name not in functions:
            return ""
    summary = index.files[index.backend_path(backend, name)].functions[name]
    return name if summary.true_for_arrays else ""


def converts_tuple_items(index: ProjectIndex) -> bool:
    """Whether the wrapper makes a tuple ``out`` a tuple of native arrays before handing it
    over (default: no; Ivy's ``ivy.to_native(out)`` leaves a tuple's items wrapped)."""
    found = project_wrapper(index)
    return found is not None and found[1].buffer_per_item
