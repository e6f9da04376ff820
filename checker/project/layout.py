"""The checked project's layout and wrapping conventions, read from its own code.

Ivy's layout moved between releases (the late-2022 tree kept API functions in
``ivy/functional/experimental/`` as well as under ``functional/ivy/``) and so did its list
of wrappers (``FN_DECORATORS``: ``integer_arrays_to_float`` and ``handle_mixed_function`` in
one era, ``handle_partial_mixed_function`` and ``handle_device_shifting`` in the next). A
checker that assumes one era's layout and list misreads the others: API functions outside
the configured globs are checked as plain code, and a decorator order that is the
project's own is reported against another project's list. So both are read from the code:

* :func:`api_module_reason`: a module is part of the functional API when it does what API
  modules do, whatever its folder: a public module-level function dispatches to the
  current backend (``current_backend(x).fn(...)``, ``ivy.current_backend().fn(...)``) and
  carries wrappers. The globs (``functional-api``) still decide first.
* :func:`wrapper_order`: the project's own wrapper list and whether the project re-wraps
  functions in that list's order (Ivy's ``_wrap_function``: ``for attr in FN_DECORATORS:
  ... to_wrap = getattr(ivy, attr)(to_wrap)`` when a backend is set). Where it does, the
  source order of a backend-implemented function's decorators has no run-time effect with
  a backend set (IVY005 makes that a style warning).

Both read one file's tree only: a file's part and facts never depend on which other files
a run sees (the index's invariant).
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from dataclasses import dataclass, field, fields
from typing import TYPE_CHECKING, Protocol

from ivycheck.checker.base import trees
from ivycheck.checker.project.conventions import DECORATOR_ALIASES, DEFAULT_DECORATOR_ORDER
from ivycheck.checker.project.globs import GlobSet
from ivycheck.checker.project.summary import (
    FileSummary,
    FunctionMemo,
    decorator_name,
    rewrapping_call,
    summarize,
)

if TYPE_CHECKING:
    from ivycheck.checker.project.config import Config

DISPATCHER = "current_backend"
"""The call that returns the backend module an API function delegates to."""

DETECTED_FUNCTIONAL = "dispatches to the current backend"
"""How ``--show-files`` names the rule that found a functional-API module by its code."""


@dataclass(frozen=True)
class WrapperOrder:
    """A project's wrapper list: ``names`` as the list reads them, the first applied first
    (closest to the function), and how the project uses it."""

    variable: str
    """The module-level name of the list (``FN_DECORATORS``)."""
    line: int
    names: tuple[str, ...]
    rewraps: bool
    """Whether a loop over the list wraps a function with each name in the list's order
    (``to_wrap = getattr(ivy, attr)(to_wrap)``): the project re-applies its wrappers in
    this order, whatever order the source wrote them in."""

    @property
    def source_order(self) -> tuple[str, ...]:
        """The order as decorators are written, top to bottom (the last applied on top)."""
        return tuple(reversed(self.names))


def wrapper_order(tree: ast.Module) -> WrapperOrder | None:
    """The module's wrapper list: a module-level list or tuple of names that a loop of the
    module applies as wrappers, one after another (``for attr in FN_DECORATORS: ... f =
    getattr(mod, attr)(f)``). A list of strings nothing applies is not a wrapper list (it
    could be anything); ``None`` when the module has no such list."""
    lists: dict[str, tuple[int, tuple[str, ...]]] = {}
    for statement in tree.body:
        if (
            isinstance(statement, ast.Assign)
            and len(statement.targets) == 1
            and isinstance(statement.targets[0], ast.Name)
            and isinstance(statement.value, ast.List | ast.Tuple)
            and len(statement.value.elts) >= 2
            and all(
                isinstance(e, ast.Constant) and isinstance(e.value, str)
                for e in statement.value.elts
            )
        ):
            names = tuple(str(e.value) for e in statement.value.elts if isinstance(e, ast.Constant))
            lists[statement.targets[0].id] = (statement.lineno, names)
    if not lists:
        return None
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.For)
            and isinstance(node.target, ast.Name)
            and isinstance(node.iter, ast.Name)
            and node.iter.id in lists
            and _applies_each(node, node.target.id)
        ):
            line, names = lists[node.iter.id]
            return WrapperOrder(node.iter.id, line, names, rewraps=True)
    return None


def _applies_each(loop: ast.For, name: str) -> bool:
    """Whether the loop's body rebinds a function to the wrapper ``name`` names applied to
    it: ``f = getattr(module, name)(f)``."""
    for node in ast.walk(loop):
        call = rewrapping_call(node)
        if call is None:
            continue
        getter = call.func
        if (
            isinstance(getter, ast.Call)
            and isinstance(getter.func, ast.Name)
            and getter.func.id == "getattr"
            and len(getter.args) == 2
            and isinstance(getter.args[1], ast.Name)
            and getter.args[1].id == name
        ):
            return True
    return False


KNOWN_WRAPPERS = frozenset(
    (
        *DEFAULT_DECORATOR_ORDER,
        *DECORATOR_ALIASES,
        # wrappers of other Ivy eras' lists (the 2023-03 FN_DECORATORS and older)
        "integer_arrays_to_float",
        "handle_mixed_function",
        "with_unsupported_dtypes",
        "handle_device_shifting",
    )
)
"""Names that mark a function as wrapped the way API functions are; a dispatching function
with none of them is a helper, not API."""


def api_module_reason(tree: ast.Module) -> str | None:
    """Why the module is part of the functional API by what it does, or ``None``: its first
    public module-level function that calls ``current_backend(...).<fn>(...)`` and carries
    a wrapper (``"`tan` calls current_backend(...).tan and carries @handle_out_argument"``).

    Both are needed: a backend module or a helper module may call the dispatcher too, but
    only the API wraps what it dispatches (the wrappers convert arrays, handle ``out``...)."""
    for statement in tree.body:
        if not isinstance(statement, ast.FunctionDef) or statement.name.startswith("_"):
            continue
        wrappers = [decorator_name(d) for d in statement.decorator_list]
        known = [w for w in wrappers if w in KNOWN_WRAPPERS]
        if not known:
            continue
        called = _dispatched(statement)
        if called is not None:
            return f"`{statement.name}` calls {DISPATCHER}(...).{called} and carries @{known[0]}"
    return None


def _dispatched(function: ast.FunctionDef) -> str | None:
    """The first name called on the dispatcher's result in ``function``'s body."""
    for node in ast.walk(function):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and isinstance(node.func.value, ast.Call)
            and decorator_name(node.func.value.func) == DISPATCHER
        ):
            return node.func.attr
    return None


@dataclass
class LaidOutSummary(FileSummary):
    """A file's summary with what it tells of the project's layout: the wrapper list it
    defines (:func:`wrapper_order`) and, for a module found to be functional API by its code
    rather than a glob, why (:func:`api_module_reason`). Only files with one of them get
    this class, so the other summaries (nearly all) stay as they were."""

    wrapper_order: WrapperOrder | None = None
    detected_api: str = ""
    """Why the file is functional API although no ``functional-api`` glob matches it."""
    wrapper_keywords: dict[str, tuple[str, ...]] = field(default_factory=dict)
    """Per module-level wrapper, the keywords its inner function takes itself
    (:func:`wrapper_keywords`)."""

    def public_facts(self) -> tuple[object, ...]:
        """The wrapper list, the detected part and the wrappers' own keywords are seen by
        every file (IVY005 reads the order, IVY006 the keywords): a change to any must
        invalidate other files' cached findings."""
        keywords = tuple(sorted(self.wrapper_keywords.items()))
        return (*super().public_facts(), repr(self.wrapper_order), self.detected_api, keywords)


def summarize_file(
    source: str | bytes,
    path: str,
    part: str,
    *,
    memo: FunctionMemo | None = None,
    tree: ast.Module | None = None,
) -> FileSummary:
    """:func:`~ivycheck.checker.project.summary.summarize` with the part decided by the
    file's code where the globs leave it ``other`` (:func:`api_module_reason`), and the
    project's wrapper list when the file defines it (:func:`wrapper_order`).

    Parses once (unless handed ``tree``) and hands ``summarize`` the same tree. A file that
    does not parse is summarized as the globs place it."""
    if tree is None:
        tree = trees.parse_or_none(source)
        if tree is None:
            return summarize(source, path, part, memo=memo)
    detected = api_module_reason(tree) if part == "other" else None
    summary = summarize(source, path, "functional" if detected else part, memo=memo, tree=tree)
    order = wrapper_order(tree) if _may_define_order(source) else None
    keywords = wrapper_keywords(tree) if summary.decorators else {}
    if detected is None and order is None and not keywords:
        return summary
    facts = {f.name: getattr(summary, f.name) for f in fields(FileSummary)}
    return LaidOutSummary(
        **facts, wrapper_order=order, detected_api=detected or "", wrapper_keywords=keywords
    )


def wrapper_keywords(tree: ast.Module) -> dict[str, tuple[str, ...]]:
    """The keywords each module-level wrapper keeps from the function it wraps, for the
    wrappers (``def name(fn)`` returning a function it defines) that keep any: its inner
    function names the keyword itself and never passes it to the wrapped function by
    keyword. 2023-03 Ivy's ``handle_view`` is ``def new_fn(*args, copy=None, **kwargs):
    ret = fn(*args, **kwargs)``: it consumes ``copy`` (the wrapped function never sees
    it), where 2023-09 Ivy's passes ``copy`` on in ``**kwargs``; ``handle_out_argument``
    names ``out`` and hands it on (``fn(*args, out=out, **kwargs)``), so it keeps nothing.
    A wrapper that keeps a keyword answers for it; the function it wraps needs no such
    parameter."""
    found: dict[str, tuple[str, ...]] = {}
    for statement in tree.body:
        if not isinstance(statement, ast.FunctionDef) or not statement.args.args:
            continue
        last = statement.body[-1]
        if not (isinstance(last, ast.Return) and isinstance(last.value, ast.Name)):
            continue
        inner = next(
            (
                d
                for d in statement.body
                if isinstance(d, ast.FunctionDef) and d.name == last.value.id
            ),
            None,
        )
        if inner is None:
            continue
        wrapped = statement.args.args[0].arg
        passed = {
            keyword.arg
            for node in ast.walk(inner)
            if isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id == wrapped
            for keyword in node.keywords
        }
        kept = [a.arg for a in (*inner.args.args, *inner.args.kwonlyargs) if a.arg not in passed]
        if kept and inner.args.vararg is not None:
            found[statement.name] = tuple(kept)
    return found


def _may_define_order(source: str | bytes) -> bool:
    """A text test before the walk: applying a wrapper by name needs ``getattr``."""
    if isinstance(source, bytes):
        return b"getattr(" in source
    return "getattr(" in source


class _SummarizedParts(Protocol):
    def part_of(self, path: str) -> str | None: ...


def part_of_file(
    config: Config,
    relative: str,
    index: _SummarizedParts,
    source: str,
    parse: Callable[[], ast.Module | None] | None = None,
) -> str:
    """The part a file plays: the globs' (``config.part_of``); for a file they leave
    ``other``, the part its summary in ``index`` was made with, or, for a file the index
    does not hold (no rule read it), ``functional`` when its code dispatches to the current
    backend (:func:`api_module_reason`), as :func:`summarize_file` decides."""
    by_globs = config.part_of(relative)
    if by_globs != "other" or DISPATCHER not in source:
        return by_globs  # (the index untouched: it may be one still being built)
    summarized = index.part_of(relative)
    if summarized is not None:
        return summarized
    tree = parse() if parse is not None else trees.parse_or_none(source)
    if tree is None:
        return by_globs
    return "functional" if api_module_reason(tree) is not None else by_globs


def explain_part(config: Config, relative: str, source: str | None) -> tuple[str, str]:
    """A file's part and the rule that found it, for ``--show-files``: the configured (or
    default) glob that matched it (``functional-api: '**/functional/ivy/**'``), the backend
    folder rule, or the code (``dispatches to the current backend: `tan` calls ...``);
    ``""`` for ``other``. ``source``: the file's text, read only for a file the globs leave
    ``other`` (``None``: unreadable)."""
    by_globs = config.part_of(relative)
    if by_globs != "other":
        return by_globs, _matching_glob(config, by_globs, relative)
    if source is None or DISPATCHER not in source:
        return by_globs, ""
    tree = trees.parse_or_none(source)
    if tree is None:
        return by_globs, ""
    reason = api_module_reason(tree)
    return ("functional", f"{DETECTED_FUNCTIONAL}: {reason}") if reason else (by_globs, "")


def _matching_glob(config: Config, part: str, relative: str) -> str:
    keyed: list[tuple[str, tuple[str, ...]]] = [
        ("functional-api", config.functional_api),
        ("frontends", config.frontends),
        ("data-classes", config.data_classes),
    ]
    key = {"functional": "functional-api", "frontend": "frontends", "data_classes": "data-classes"}
    if part.startswith("backend:"):
        name = part.removeprefix("backend:")
        keyed = [(f"backends.{name}", dict(config.backends).get(name, ()))]
        wanted = keyed[0][0]
    else:
        wanted = key.get(part, "")
    for option, patterns in keyed:
        if option != wanted:
            continue
        for pattern in patterns:
            if GlobSet.from_lines([pattern]).match_file(relative):
                return f"{option}: {pattern!r}"
    return "a folder under functional/backends/" if part.startswith("backend:") else ""
