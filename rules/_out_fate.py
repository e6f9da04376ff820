"""What happens to ``out``, per backend and per path, read from the checked project.

IVY001, IVY002 and IVY003 state a consequence: the wrapper gave the function ``out``'s
native buffer, and the function returned a new array instead of writing it (or wrote it
and returned a conversion of it). What the user then sees is a fact of the checked project,
not of one Ivy release. :mod:`ivycheck.checker.project.out_effects` runs the project's own
``handle_out_argument`` and each backend's update function on abstract values (the index
keeps the answers: :class:`OutWrapperSummary.fates`, ``FunctionSummary.update_fates``);
this module puts them together for one backend:

* the wrapper's answer for the native path (``out.data = to_native(ret)``: rebinds, on every
  backend; ``inplace_update(out, ret)``: the backend's update decides; nothing: unwritten);
* the backend's update run with the scenario the wrapper sets up: the value of the result's
  dtype (or cast to ``out``'s), and, where the wrapper has turned its native path off for
  the ``out`` its gate accepts (``if _is_variable(out): native = False``), the update's own
  tests of that function taken as false (the *plain* variant);
* the gate itself: true for every native array of the backend (JAX's ``is_variable``:
  the buffer is never handed over, :data:`NEVER`), or true for every tuple (a gate that
  maps its test over a nest, ``nested_map(lambda x: is_variable(x), x)``, returns a
  non-empty nest for a tuple ``out``: a tuple never takes the native path).

Each answer is :data:`COPIES` (written into ``out``'s buffer, dtype kept), :data:`REBINDS`
(dtype and buffer follow the result), :data:`UNWRITTEN` (old values kept), :data:`NEVER`, or
:data:`UNKNOWN` with the statement that could not be read (``--show-settings`` prints it).
A message is composed here, in one place (:func:`compose`), from the rule's own words and
the fate's clause: a consequence is stated only where the fate establishes it, so a sentence
cannot claim both that the wrapper writes ``out`` and that it does not.

When no file of the run defines ``handle_out_argument`` (a project that imports ``ivy``,
our own runtime), the documented default is Ivy's wrapper at the commit of the shared
ecosystem snapshot (975c8fc): the result is written with ``inplace_update``, which copies
on PyTorch and rebinds on NumPy, JAX, TensorFlow and Paddle.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass

from ivycheck.checker.rule_api import Category, OutWrapperSummary, ProjectIndex, Severity

COPIES, REBINDS, UNWRITTEN, NEVER, UNKNOWN = "copies", "rebinds", "unwritten", "never", "unknown"

DEFAULT_UPDATE = "inplace_update"
DEFAULT_BY_BACKEND = {
    "torch": COPIES,
    "numpy": REBINDS,
    "jax": REBINDS,
    "tensorflow": REBINDS,
    "paddle": REBINDS,
}
"""The default when the tree does not say (Ivy 975c8fc's backends' ``inplace_update``)."""

IGNORED = "ignored"
"""The function ignored the buffer and returned a new result."""
RETURNED = "returned"
"""The function wrote the buffer but returned a new array made from it."""
WOULD = "would"
"""As :data:`RETURNED`, for a function that would be handed the buffer (IVY001's fix)."""

_CLAUSES = {
    (
        IGNORED,
        COPIES,
    ): "the wrapper then copies the result into `out` (an extra allocation and a copy)",
    (IGNORED, REBINDS): "`out` silently changes dtype and buffer when the result's dtype differs",
    (
        IGNORED,
        UNWRITTEN,
    ): "the wrapper returns the result without writing `out` (it keeps its old values)",
    (RETURNED, COPIES): "that the wrapper then copies into `out` (only work is wasted)",
    (RETURNED, REBINDS): (
        "that the wrapper then writes into `out`: `out` silently changes dtype and buffer "
        "when the result's dtype differs"
    ),
    (RETURNED, UNWRITTEN): (
        "that the wrapper returns without writing `out`: the call returns another array than `out`"
    ),
    (WOULD, COPIES): "the wrapper would copy that into `out` (only work is wasted)",
    (WOULD, REBINDS): (
        "the wrapper would write that into `out`, so `out` silently changes dtype and buffer "
        "when the result's dtype differs"
    ),
    (WOULD, UNWRITTEN): (
        "the wrapper would return that without writing `out`, so the call returns another "
        "array than `out`"
    ),
}
"""Every consequence a message may state, by (situation, fate). :data:`NEVER` has its own
(:meth:`OutFate.clause`); :data:`UNKNOWN` has none."""


@dataclass(frozen=True)
class OutFate:
    """What the user's ``out`` becomes after a native call that ignored its buffer."""

    kind: str
    """:data:`COPIES`, :data:`REBINDS`, :data:`UNWRITTEN`, :data:`NEVER` or :data:`UNKNOWN`."""
    source: str
    """Where the fact comes from: the wrapper's ``path:line``, or ``default``."""
    gate: str = ""
    """``never`` only: the function true for every array (``is_variable``) or tuple."""
    unread: str = ""
    """``unknown`` only: ``path:line: statement`` this model could not read."""
    tuples: bool = False
    """``never`` only: never for a tuple ``out`` (the gate is true for every tuple)."""

    @property
    def is_performance(self) -> bool:
        """The result lands in ``out`` with its dtype kept: only work is wasted."""
        return self.kind == COPIES

    @property
    def never_handed(self) -> bool:
        """The wrapper never hands ``out``'s buffer to this function on this backend."""
        return self.kind == NEVER

    @property
    def known(self) -> bool:
        return self.kind != UNKNOWN

    def clause(self, situation: str = IGNORED) -> str:
        """The consequence this fate establishes in ``situation``, ``""`` where none is."""
        if self.kind == NEVER:
            if self.tuples:
                return (
                    f"the wrapper never hands a tuple `out` over (its `{self.gate}(out)` is "
                    "true for every tuple), so the attribute has no effect here"
                )
            return (
                "the wrapper never hands `out`'s buffer to this backend's functions (its "
                f"`{self.gate}` is true for every array), so the attribute has no effect here"
            )
        return _CLAUSES.get((situation, self.kind), "")

    @property
    def consequence(self) -> str:
        """:meth:`clause` for a function that ignored the buffer."""
        return self.clause(IGNORED)

    @property
    def severity(self) -> Severity:
        return Severity.WARNING if self.is_performance or self.never_handed else Severity.ERROR

    @property
    def category(self) -> Category:
        if self.never_handed:
            return Category.DEAD_CODE
        return Category.PERFORMANCE if self.is_performance else Category.CORRECTNESS


def compose(head: str, joiner: str, fate: OutFate, rest: str, situation: str = IGNORED) -> str:
    """``head`` + ``joiner`` + the fate's clause + ``rest``; without a clause (the fate is
    unknown) ``head`` + ``rest``: the one place a message takes a consequence from a fate."""
    clause = fate.clause(situation)
    return f"{head}{joiner}{clause}{rest}" if clause else f"{head}{rest}"


def project_wrapper(index: ProjectIndex) -> tuple[str, OutWrapperSummary] | None:
    """(path, facts) of the first file, in path order, defining ``handle_out_argument``."""
    for path in index.wrapper_paths():
        wrapper = index.files[path].out_wrapper
        if wrapper is not None:
            return path, wrapper
    return None


def ignored_buffer_fate(index: ProjectIndex, backend: str | None, several: bool = False) -> OutFate:
    """The fate of ``out`` on ``backend`` when the function ignores the native buffer
    (``several``: for a function whose ``out`` is a tuple of arrays)."""
    return path_fate(index, backend or "", "native", several, same_dtype=False)


def ignored_buffer_fates(index: ProjectIndex, backend: str) -> Callable[[bool], OutFate]:
    """:func:`ignored_buffer_fate` by ``several``, each read once (a rule asks per function
    of a file, and most of them have one result)."""
    return functools.cache(lambda several: ignored_buffer_fate(index, backend, several))


def path_fate(
    index: ProjectIndex, backend: str, path: str, several: bool, *, same_dtype: bool
) -> OutFate:
    """The fate of ``out`` on ``backend`` on the wrapper's ``path`` (``native``: the
    function was handed the buffer and returned a new result; ``wrapper``: the function
    was called without ``out``), for a tuple ``out`` or one array, of the result's dtype
    or of another."""
    found = project_wrapper(index)
    if found is None:
        return OutFate(DEFAULT_BY_BACKEND.get(backend, UNKNOWN), "default")
    where, wrapper = found
    source = f"{where}:{wrapper.line}"
    if path == "native":
        gate = _gate_true_for_arrays(index, backend, wrapper.native_gate)
        if gate:
            return OutFate(NEVER, source, gate)
        if several and _gate_true_for_tuples(index, wrapper):
            return OutFate(NEVER, source, wrapper.gate_call, tuples=True)
    key = f"{path} {'tuple' if several else 'single'} {'same' if same_dtype else 'other'}"
    outcome = wrapper.fates.get(key, "")
    if not outcome:
        return OutFate(UNKNOWN, source, unread=f"{source}: no path of the wrapper reaches it")
    if outcome.startswith("update:"):
        return _update_fate(index, backend, wrapper, outcome, same_dtype, source)
    return _fate(outcome, source, where)


def _update_fate(
    index: ProjectIndex,
    backend: str,
    wrapper: OutWrapperSummary,
    outcome: str,
    same: bool,
    source: str,
) -> OutFate:
    """``out`` after the wrapper's ``update(out, value)`` on ``backend``, the value of the
    result's dtype (``same``: ``out``'s too) or cast to ``out``'s."""
    _, name, dtype = outcome.split(":", 2)
    if name not in index.backends.get(backend, {}):
        kind = DEFAULT_BY_BACKEND.get(backend, UNKNOWN)
        return OutFate(
            kind, "default", unread=f"{backend} defines no `{name}`" if kind == UNKNOWN else ""
        )
    update_path = index.backend_path(backend, name)
    summary = index.files[update_path].functions[name]
    plain = all(test in _gate_names(index, wrapper) for test in summary.variable_tests)
    scenario = ("same" if same or dtype == "out" else "other") + (" plain" if plain else "")
    answer = summary.update_fates.get(scenario, "")
    if not answer:
        unread = f"{update_path}:{summary.line}: `{name}` writes nothing this model follows"
        return OutFate(UNKNOWN, source, unread=unread)
    return _fate(answer, source, update_path)


def _fate(outcome: str, source: str, path: str) -> OutFate:
    if outcome.startswith(UNKNOWN):
        _, _, where = outcome.partition(":")
        line, _, statement = where.partition(":")
        return OutFate(UNKNOWN, source, unread=f"{path}:{line}: {statement}".rstrip(": "))
    return OutFate(outcome, source)


def _gate_names(index: ProjectIndex, wrapper: OutWrapperSummary) -> set[str]:
    """The wrapper's gate as called, as followed, and the backend function it asks."""
    names = {n for n in (wrapper.native_gate, wrapper.gate_call) if n}
    for name in list(names):
        helper = index.api_function(name)
        if helper is not None and len(set(helper.backend_calls)) == 1:
            names.add(helper.backend_calls[0])
    return names


def _gate_true_for_tuples(index: ProjectIndex, wrapper: OutWrapperSummary) -> bool:
    """The gate maps its test over a nest: true for every (non-empty) tuple ``out``."""
    if wrapper.gate_maps_items:
        return True
    helper = index.api_function(wrapper.gate_call) if wrapper.gate_call else None
    return helper is not None and helper.maps_items


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


_PATHS = ("native", "wrapper")
_ARITIES = (False, True)


def fate_table(index: ProjectIndex) -> list[str]:
    """The fate of ``out`` per backend, path, arity and dtype, as ``--show-settings``
    comments (``scripts/probe_out_fate.py`` reads the ``# out-fate:`` rows): what the
    rules state, and each statement the model could not read."""
    found = project_wrapper(index)
    if found is None:
        defaults = ", ".join(f"{backend} {kind}" for backend, kind in DEFAULT_BY_BACKEND.items())
        return [
            "# This project defines no `handle_out_argument`: the default below applies.",
            "# What `out` becomes when a function ignores the native buffer (IVY001-IVY003,",
            "# IVY015) is read from the checked tree: its own `handle_out_argument` and each",
            "# backend's update function. Default when the tree has no `handle_out_argument`",
            f"# (Ivy 975c8fc): the wrapper writes the result with `{DEFAULT_UPDATE}`, which",
            f"# {defaults}",
            "# (copies: `out` keeps its dtype and buffer; rebinds: `out` takes the result's",
            "# dtype and a new buffer); the wrapper tests the attribute's presence; a tuple",
            "# `out` is handed over without converting its items.",
        ]
    path, wrapper = found
    lines = [
        "# What `out` becomes (IVY001-IVY003, IVY015), read from this project's",
        f"# `handle_out_argument` at {path}:{wrapper.line} and each backend's update, per",
        "# backend, path (native: the function was handed the buffer and returned a new",
        "# result; wrapper: called without `out`), `out` a single array or a tuple, of the",
        "# result's dtype or another: copies (written into its buffer, dtype kept), rebinds",
        "# (dtype and buffer follow the result), unwritten (old values kept), never (that",
        "# path is never taken), unknown (the statement below could not be read).",
    ]
    unread: dict[str, None] = {}
    for backend in sorted(index.backends):
        for route in _PATHS:
            for several in _ARITIES:
                fates = [
                    path_fate(index, backend, route, several, same_dtype=same)
                    for same in (True, False)
                ]
                for fate in fates:
                    if fate.unread:
                        unread[fate.unread] = None
                arity = "tuple" if several else "single"
                lines.append(
                    f"# out-fate: {backend} {route} {arity} "
                    f"same={fates[0].kind} other={fates[1].kind}"
                )
    lines += [f"# unknown: {where}" for where in unread]
    return lines
