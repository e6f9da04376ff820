"""Which of a function's wrappers stand out of the project's order, which pair a finding
names, and what swapping it changes (IVY005), tree-free.

A function is given as the names of its known wrappers, top to bottom; nothing here looks
at a syntax tree. Everything is linear in the number of decorators: whether a pair is out
of order, commutes, or changes results depends only on its two names, of which a project
has a few dozen, so a decorator is compared with the first place of each name above it,
never with every decorator above it (a function with 10,000 decorators is 10,000 steps,
not 50 million).
"""

from __future__ import annotations

import functools
from collections.abc import Collection, Mapping, Sequence
from typing import TYPE_CHECKING

from ivycheck.checker.base.diagnostics import Severity
from ivycheck.checker.project.conventions import DECORATOR_ALIASES
from ivycheck.checker.project.layout import KNOWN_WRAPPERS
from ivycheck.rules._vocabulary import EXAMPLE_WRAPPER_LIST

if TYPE_CHECKING:
    from ivycheck.checker.project.config import Config
    from ivycheck.checker.project.index import ProjectIndex
    from ivycheck.rules._vocabulary import WrapperList

Slots = Mapping[str, tuple[int, int]]
"""Each known wrapper's (first, last) place in the order, top to bottom."""

DEFAULT_FAILURE_ONLY = frozenset({"handle_exceptions"})
"""Wrappers taken to act only on failures when the project does not define them (it imports
``ivy``): Ivy's ``handle_exceptions`` at 975c8fc, ``try: return fn(*args, **kwargs)`` with every
handler re-raising as an Ivy exception. Where the project defines a wrapper, what its own
code does decides (:class:`DecoratorSummary`)."""

_INPUTS_ONLY = frozenset({"inputs_to_native_arrays", "inputs_to_ivy_arrays"})
"""Wrappers that convert the arguments and leave the result alone."""
_OUTPUTS_ONLY = frozenset({"outputs_to_ivy_arrays", "outputs_to_native_arrays"})
"""Wrappers that convert the result and leave the arguments alone."""
_ANNOTATION_DRIVEN = frozenset({"handle_array_like_without_promotion"})
"""Wrappers that act only on parameters annotated as arrays: the identity without annotations."""


def era_names(config: Config) -> frozenset[str]:
    """Every name a wrapper of some project's order may have: the configured order, Ivy's
    lists of every era and their aliases. Known before the project's own list is."""
    return frozenset({*config.decorator_order, *DECORATOR_ALIASES, *KNOWN_WRAPPERS})


def mentions_two(source: str, names: frozenset[str]) -> bool:
    """Whether ``source`` holds at least two of ``names`` (as substrings): a file with
    fewer cannot misorder a pair. The names are looked for by their first word
    (``handle_``, ``inputs_``...), so a text without ``handle_`` is scanned once for the
    fifteen names that start with it, not fifteen times."""
    found = 0
    for first_word, group in _by_first_word(names):
        if first_word in source:
            for name in group:
                if name in source:
                    found += 1
                    if found == 2:
                        return True
    return False


@functools.cache
def _by_first_word(names: frozenset[str]) -> tuple[tuple[str, tuple[str, ...]], ...]:
    groups: dict[str, list[str]] = {}
    for name in sorted(names):
        groups.setdefault(name.split("_", 1)[0], []).append(name)
    return tuple((first, tuple(group)) for first, group in groups.items())


def slots(order: Sequence[str]) -> Slots:
    """Each known decorator's (first, last) slot; aliases span the slots they stand for."""
    found = {name: (rank, rank) for rank, name in enumerate(order)}
    for alias, (first, last) in DECORATOR_ALIASES.items():
        if first in found and last in found:
            found[alias] = (found[first][0], found[last][1])
    return found


def commuting_pairs(names: Collection[str], annotated: bool) -> frozenset[frozenset[str]]:
    """The pairs of the wrappers ``names`` whose order on a function cannot change what it
    does (``annotated``: whether any of its parameters has an annotation)."""
    present = set(names)
    pairs = {
        frozenset((first, second))
        for first in present & _INPUTS_ONLY
        for second in present & _OUTPUTS_ONLY
    }
    if not annotated:
        pairs |= {
            frozenset((identity, other))
            for identity in present & _ANNOTATION_DRIVEN
            for other in present - {identity}
        }
    return frozenset(pairs)


def reported_pair(
    names: Sequence[str],
    places: Slots,
    commute: frozenset[frozenset[str]],
    index: ProjectIndex,
) -> tuple[int, int] | None:
    """The (above, below) indices in ``names`` of the misplaced pair a finding names, or
    ``None`` when no pair is misplaced.

    A pair is misplaced when the lower wrapper belongs above the upper one and the two do
    not commute (``commute``). Pairs are taken in source order (by the lower wrapper, then
    the upper): the first whose order changes results is reported, else the first (whose
    order changes only which exception a failure raises, :func:`failure_only`)."""
    first_place: dict[str, int] = {}
    verdicts: dict[tuple[str, str], bool | None] = {}
    first: tuple[int, int] | None = None
    for below, name in enumerate(names):
        misplaced: list[tuple[int, bool]] = []
        for upper, above in first_place.items():
            key = (upper, name)
            if key not in verdicts:
                verdicts[key] = _verdict(upper, name, places, commute, index)
            changes = verdicts[key]
            if changes is not None:
                misplaced.append((above, changes))
        changing = [above for above, changes in misplaced if changes]
        if changing:
            return min(changing), below
        if misplaced and first is None:
            first = min(above for above, _ in misplaced), below
        first_place.setdefault(name, below)
    return first


def _verdict(
    above: str, below: str, places: Slots, commute: frozenset[frozenset[str]], index: ProjectIndex
) -> bool | None:
    """``None`` when ``above`` over ``below`` is in order (or commutes), else whether the
    swap changes results."""
    if places[above][0] <= places[below][1] or frozenset((above, below)) in commute:
        return None
    return failure_only(above, below, index) is None


def fix_order(count: int, known: Sequence[tuple[int, str]], places: Slots) -> tuple[int, ...]:
    """Per place of a list of ``count`` decorators, the index (as written) of the one the
    fix puts there: the ``known`` ones (index, name) by first slot (ties as written), each
    other one where it is."""
    placed = list(range(count))
    at = [index for index, _ in known]
    ranked = sorted(range(len(known)), key=lambda k: places[known[k][1]][0])
    for position, k in zip(at, ranked, strict=True):
        placed[position] = at[k]
    return tuple(placed)


def rewraps(name: str, api: bool, part: str, index: ProjectIndex, order: WrapperList) -> str | None:
    """Why the order written on ``name`` changes nothing once a backend is set (the end of
    a style warning), or ``None`` when it may (``api``: a public module-level function;
    ``part``: of the file defining it).

    Where the project re-wraps in its list's order (Ivy's ``_wrap_function``, run by
    ``set_backend``), the function a backend implements replaces the API function, wrapped
    in the list's order with the wrappers the API function carries: the order written here
    is used only while no backend is set. That holds for a public module-level function of
    the functional API that every backend of the project implements; a backend without its
    own implementation keeps the API function as written (a compositional function), so
    there the written order is the run-time order."""
    if not (order.rewraps and api and part == "functional"):
        return None
    if index.api_function(name) is None or not index.backends:
        return None
    implemented = index.implementations(name)
    if any(backend not in implemented for backend in index.backends):
        return None
    return (
        "style only: with a backend set, the project re-wraps every backend's "
        f"`{name}` in that order, so the order written here has no run-time effect then"
    )


def message(
    above: str,
    below: str,
    index: ProjectIndex,
    order: WrapperList,
    rewrapped: str | None,
) -> tuple[str, Severity | None]:
    """The finding's message and its own severity (``None``: the rule's) for ``below``
    standing under ``above``; ``rewrapped``: why the written order has no effect once a
    backend is set, where it has none."""
    text = f"@{below} must be above @{above} ({order.origin})"
    if rewrapped is not None:
        return f"{text}; {rewrapped}", Severity.WARNING
    consequence = failure_only(above, below, index)
    if consequence is None:
        return text, None
    return f"{text}; {consequence}", Severity.WARNING


def failure_only(above: str, below: str, index: ProjectIndex) -> str | None:
    """What swapping the pair changes when one of them acts only on failures and the other
    catches nothing raised below it (the end of the message), else ``None``: the order
    then changes results."""
    if _acts_only_on_failure(below, index) and not _may_catch(above, index):
        return (
            f"in this order no result changes, only errors raised by @{above} itself escape "
            f"as they are instead of re-raised by @{below} as Ivy exceptions"
        )
    if _acts_only_on_failure(above, index) and not _may_catch(below, index):
        return (
            f"in this order no result changes, only errors raised by @{below} itself are "
            f"re-raised by @{above} as Ivy exceptions instead of escaping as they are"
        )
    return None


def _acts_only_on_failure(name: str, index: ProjectIndex) -> bool:
    found = index.decorator(name)
    return found.failure_only if found is not None else name in DEFAULT_FAILURE_ONLY


def _may_catch(name: str, index: ProjectIndex) -> bool:
    """Whether the wrapper may act on what the function below it raises (default, for a
    wrapper the project does not define: no; none of Ivy 975c8fc's other wrappers does)."""
    found = index.decorator(name)
    return found is not None and found.catches and not found.failure_only


# For IVY005's examples: a function against Ivy's order, and a project's own wrappers,
# whose code decides what swapping that pair changes.

EXAMPLE_NESTABLE_OVER_EXCEPTIONS = """
    @handle_nestable
    @handle_exceptions
    def f(x):
        ...
    """
"""``handle_exceptions`` below ``handle_nestable``: against Ivy's order."""

EXAMPLE_EXCEPTIONS_OVER_NESTABLE = """
    @handle_exceptions
    @handle_nestable
    def f(x):
        ...
    """
"""The same function in Ivy's order (what the fix writes)."""

EXAMPLE_FAILURE_ONLY_WRAPPER = """
import functools


def handle_exceptions(fn):
    @functools.wraps(fn)
    def _handle_exceptions(*args, **kwargs):
        try:
            return fn(*args, **kwargs)
        except Exception as e:
            _reraise(e)

    def _reraise(e):
        raise RuntimeError(str(e))

    return _handle_exceptions
"""
"""A project's own ``handle_exceptions`` that acts only on failures (a helper raises)."""

EXAMPLE_FALLBACK_WRAPPER = """
def handle_exceptions(fn):
    def _handle_exceptions(*args, **kwargs):
        try:
            return fn(*args, **kwargs)
        except ValueError:
            return None

    return _handle_exceptions
"""
"""A project's own ``handle_exceptions`` that turns a failure into a result."""

EXAMPLE_CATCHING_NESTABLE = """
def handle_nestable(fn):
    def _handle_nestable(*args, **kwargs):
        try:
            return fn(*args, **kwargs)
        except TypeError:
            return [fn(a, **kwargs) for a in args[0]]

    return _handle_nestable
"""
"""A project's own ``handle_nestable`` that retries per item when the call fails."""

EXAMPLE_OWN_LIST_PROJECT = {
    "ivy/func_wrapper.py": EXAMPLE_WRAPPER_LIST,
    "ivy/functional/backends/numpy/elementwise.py": """
        def tan(x, /, *, out=None):
            return x
        """,
}
"""A project with its own wrapper list (another era's) and a NumPy ``tan``."""
