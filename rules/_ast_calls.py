"""How the API rules read calls and wrappers on CPython's ``ast``.

:mod:`ivycheck.rules._ast_facts` holds the shared ``ast`` facts (dotted names, the import
map, the one walk of each tree in :func:`~ivycheck.rules._ast_facts.facts`); this module adds
what IVY004 and IVY008-IVY018 read:

* :func:`wrapped_by_assignment` / :func:`function_wrappers` - ``f = handle_out_argument(f)``
  at module level and decorators together,
* :func:`out_arg`, :func:`api_functions` - a function's ``out`` parameter and the file's
  public module-level functions; :func:`signatures` - every function's ``out`` and first
  positional parameter, read once per tree,
* :func:`backend_call`, :func:`backend_calls_in` - how an API body reaches the backends
  (whether it reads ``out``: ``_ast_compositional.reads_out``),
* :func:`is_inplace_update` - a call of ``inplace_update`` by name,
* :func:`rejects_out` - a native function with no working ``out``
  (``_vocabulary.UseKind.REJECTED``),
* :func:`qualified_out_calls` - the calls given ``out=``, each with its first such keyword
  and its callee qualified.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator, Mapping
from typing import NamedTuple

from ivycheck.checker.rule_api import FileUnderCheck
from ivycheck.rules._ast_facts import (
    FunctionNode,
    Scope,
    decorator_names,
    dotted,
    facts,
)
from ivycheck.rules._vocabulary import OUT, UseKind, classify_callee, in_modules, is_private_helper

FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef)


def _single_argument(call: ast.Call) -> ast.expr | None:
    """The value of a call's only argument (``*a`` and ``**k`` count, as libcst's ``Arg``)."""
    if len(call.args) + len(call.keywords) != 1:
        return None
    if call.args:
        value = call.args[0]
        return value.value if isinstance(value, ast.Starred) else value
    return call.keywords[0].value


def wrapped_by_assignment(tree: ast.Module) -> dict[str, list[str]]:
    """Wrappers applied at module level by assignment: ``f = handle_out_argument(f)``."""
    found: dict[str, list[str]] = {}
    for statement in tree.body:
        if not (
            isinstance(statement, ast.Assign)
            and len(statement.targets) == 1
            and isinstance(statement.targets[0], ast.Name)
            and isinstance(statement.value, ast.Call)
        ):
            continue
        name = statement.targets[0].id
        argument = _single_argument(statement.value)
        wrapper = dotted(statement.value.func)
        if isinstance(argument, ast.Name) and argument.id == name and wrapper is not None:
            found.setdefault(name, []).append(wrapper.rsplit(".", 1)[-1])
    return found


def function_wrappers(
    tree: ast.Module, function: FunctionNode, assigned: dict[str, list[str]]
) -> set[str]:
    """Decorators and module-level assignments of ``function`` (``_decorators.wrappers_of``)."""
    return {*decorator_names(facts(tree), function), *assigned.get(function.name, ())}


def out_arg(function: FunctionNode | ast.Lambda) -> tuple[ast.arg, bool] | None:
    """The ``out`` parameter (not ``*out``/``**out``) and whether it is keyword-only."""
    args = function.args
    for arg in (*args.posonlyargs, *args.args):
        if arg.arg == "out":
            return arg, False
    for arg in args.kwonlyargs:
        if arg.arg == "out":
            return arg, True
    return None


class Signature(NamedTuple):
    """What IVY008 and IVY012 read of each function's parameters."""

    function: FunctionNode
    out: tuple[ast.arg, bool] | None
    """:func:`out_arg`."""
    first_positional: str | None
    """The name of the first positional parameter (a method's instance parameter)."""


def signatures(tree: ast.Module) -> list[Signature]:
    """Each function of ``facts(tree).functions``, in its order, with its ``out`` parameter
    and its first positional parameter's name: read once per tree, where IVY008 and IVY012
    each read every function's parameters (thousands of signatures in a backend file, each
    read a cost of its own in a tree too large to stay in the processor's caches)."""
    found = facts(tree)
    return found.kept("signatures", lambda: [_signature(f) for f, _ in found.functions])


def _signature(function: FunctionNode) -> Signature:
    args = function.args
    positional = args.posonlyargs or args.args
    first = positional[0].arg if positional else None
    return Signature(function, out_arg(function), first)


def api_functions(tree: ast.Module) -> Iterator[FunctionNode]:
    """The file's public module-level functions (``_api_functions.api_functions``)."""
    for statement in tree.body:
        if isinstance(statement, FUNCTIONS) and not is_private_helper(statement.name):
            yield statement


def backend_call(call: ast.Call) -> str | None:
    """``name`` for ``current_backend(...).name(...)`` (also ``ivy.current_backend``)."""
    func = call.func
    if not isinstance(func, ast.Attribute) or not isinstance(func.value, ast.Call):
        return None
    called = dotted(func.value.func)
    if called is None or called.rsplit(".", 1)[-1] != "current_backend":
        return None
    return func.attr


def backend_calls_in(tree: ast.Module, function: FunctionNode) -> frozenset[str]:
    """The names ``function``'s body calls as ``current_backend(...).name(...)`` (nested
    definitions included; its own decorators, defaults and annotations not), found once
    per tree for every function and every rule that asks (IVY010, IVY011)."""
    return (
        facts(tree)
        .kept("backend calls by function", lambda: _backend_calls(tree))
        .get(id(function), frozenset())
    )


def _backend_calls(tree: ast.Module) -> dict[int, frozenset[str]]:
    """Per function (by id), the names its body calls through ``current_backend``: from
    the file's calls with the functions enclosing each, a call counting for an enclosing
    function when it starts at or after the function's first statement (what comes
    before, in the header, is the function's decorators, defaults and annotations)."""
    found: dict[int, set[str]] = {}
    for call, scope, name in facts(tree).picked_calls("backend calls", backend_call):
        if not scope:
            continue
        at = (call.lineno, call.col_offset)
        for function in scope:
            first = function.body[0]
            if at >= (first.lineno, first.col_offset):
                found.setdefault(id(function), set()).add(name)
    return {key: frozenset(names) for key, names in found.items()}


def is_inplace_update(func: ast.expr) -> bool:
    """``inplace_update`` or ``<anything>.inplace_update``, by name alone."""
    if isinstance(func, ast.Attribute):
        return func.attr == "inplace_update"
    return isinstance(func, ast.Name) and func.id == "inplace_update"


def rejects_out(qualified: str, runtime_modules: tuple[str, ...]) -> bool:
    """Whether ``_ast_out_analysis.ModuleFlows.classify`` finds a call of ``qualified`` (not an
    ``inplace_update``) ``REJECTED``: a native function with no working ``out``."""
    return classify_callee(qualified, runtime_modules)[0] is UseKind.REJECTED


def index_attributes(file: FileUnderCheck, name: str) -> Mapping[str, str]:
    """The attributes the index records for the file's function ``name``, as
    ``_api_functions.api_functions`` reads them."""
    summary = file.index.files.get(file.relative_path)
    own = summary.functions.get(name) if summary is not None else None
    return own.attributes if own is not None else {}


def runtime_inplace_updates(tree: ast.Module, file: FileUnderCheck) -> Iterator[ast.Call]:
    """The runtime's ``inplace_update`` calls: ``inplace_update`` by name,
    resolved through the imports of the scope it is in to a runtime module (config
    ``runtime_modules``), or a bare name no import binds."""
    found = facts(tree)
    for call, enclosing in found.calls:
        if not is_inplace_update(call.func):
            continue
        qualified = found.import_map.qualify(call.func, enclosing)
        if qualified is None:
            if isinstance(call.func, ast.Name):
                yield call
        elif in_modules(qualified, file.config.runtime_modules):
            yield call


def _first_keyword(call: ast.Call, name: str) -> ast.keyword | None:
    for k in call.keywords:
        if k.arg == name:
            return k
    return None


def qualified_out_calls(
    tree: ast.Module,
) -> list[tuple[ast.Call, ast.keyword, Scope, str | None]]:
    """The calls given ``out=``, each once with its first ``out=`` keyword (``ast`` keeps a
    repeated keyword, which only compiling rejects) and the functions enclosing it, in the
    order of ``facts(tree).calls``, and with what its callee names through the
    imports of its scope (``AstImportMap.qualify``): made once per tree, since IVY004 and
    IVY007 both ask it of every call given ``out=``; per top-level statement and the
    module's imports where the tree follows an earlier version's (``TreeFacts.from_calls``)."""
    found = facts(tree)
    imports = found.import_map

    def qualified(
        calls: list[tuple[ast.Call, Scope]],
    ) -> list[tuple[ast.Call, ast.keyword, Scope, str | None]]:
        return [
            (call, out, scope, imports.qualify(call.func, scope))
            for call, scope in calls
            if (out := _first_keyword(call, OUT)) is not None
        ]

    key = ("qualified out= calls", frozenset(imports.module_imports.items()))
    return found.from_calls(key, qualified)
