"""Per-file summaries: the facts about a file that other files' rules need.

Built with the standard library's ``ast`` (the C parser, about ten times faster than a
libcst parse), because the project index must cover every file before any rule runs and
most of those files are never parsed by libcst at all. A summary records module-level
functions with their decorators and parameters, attributes set on them (directly,
through ``setattr``, or in a loop over functions), wrappers applied by assignment
(``f = handle_out_argument(f)``), and whether a function uses ``out`` or delegates to
``current_backend(...)``.
"""

from __future__ import annotations

import ast
import hashlib
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import ClassVar, cast

from ivycheck.checker.base import trees
from ivycheck.checker.base.python_lines import python_lines
from ivycheck.checker.project.out_effects import (
    maps_over_items,
    off_flags,
    update_fates,
    whole_array,
    wrapper_fates,
)


@dataclass
class FunctionSummary:
    """One module-level function as other files see it."""

    name: str
    line: int
    decorators: list[str] = field(default_factory=list)
    params: list[str] = field(default_factory=list)
    kwonly: list[str] = field(default_factory=list)
    has_var_kwargs: bool = False
    uses_out: bool = False
    backend_calls: list[str] = field(default_factory=list)
    attributes: dict[str, str] = field(default_factory=dict)
    argument_chains: list[tuple[str, ...]] = field(default_factory=list)
    """Backend functions only: for each returned value that is reached from a parameter
    through calls, attributes and basic subscripts alone, the links of that chain, from
    the parameter outwards (see :func:`argument_chains`). Whether each link makes a view
    is the reading rule's knowledge, not the summary's."""
    update_fates: dict[str, str] = field(default_factory=dict)
    """Backend functions that write into an attribute, an item or through an in-place
    method only: what ``f(x, val)`` does to an Array ``x`` given the native result ``val``
    (as a backend's ``inplace_update`` is called), on the path its flags' defaults take,
    by scenario (``same``/``other`` dtype, each also ``... plain``): an outcome of
    :mod:`~ivycheck.checker.project.out_effects` (``copies``, ``rebinds``, ``unwritten``,
    ``unknown:<line>:<statement>``)."""
    variable_tests: list[str] = field(default_factory=list)
    """The functions its tests call on ``x`` alone (``is_variable``): false in the ``plain``
    scenarios, which apply where the wrapper has already tested them false."""
    maps_items: bool = False
    """Functional-API functions only: returns a call given a callable and its first
    parameter, mapping a test over a nest (``nested_map(lambda x: ..., x)``): its value for
    a non-empty tuple is a non-empty nest, true as a test. See
    :func:`~ivycheck.checker.project.out_effects.maps_over_items`."""
    degenerate_chains: list[tuple[str, ...]] = field(default_factory=list)
    """The subset of ``argument_chains`` returned only on degenerate input: under a test
    for an empty, 0-d or single-element argument (``if x.size == 0:``, ``if
    math.prod(x.shape) == 1 and ...:``)."""
    true_for_arrays: bool = False
    """Backend functions only: on the path its flags' defaults take (``if exclusive: return
    False`` skipped), the body is ``return isinstance(<first parameter>, NativeArray)`` and
    nothing else: true for every native array of the backend. See
    :func:`true_for_arrays`."""
    BASIC_INDEX: ClassVar[str] = "[]"
    """The link for a basic subscript (``x[0]``, ``x[..., 1:]``) in ``argument_chains``."""

    @property
    def takes_out(self) -> bool:
        return "out" in self.params or "out" in self.kwonly

    @property
    def delegates_to_backend(self) -> bool:
        return bool(self.backend_calls)


@dataclass
class OutWrapperSummary:
    """What the project's own ``handle_out_argument`` does with the result of a function it
    handed the native ``out`` buffer (see :func:`out_wrapper`)."""

    line: int
    fates: dict[str, str] = field(default_factory=dict)
    """What the wrapper does to ``out`` by ``"<native|wrapper> <single|tuple> <same|other>"``
    (:func:`~ivycheck.checker.project.out_effects.wrapper_fates`): ``native`` where it hands
    the function the native buffer and the function returns a new result instead."""
    buffer_per_item: bool = False
    """The native buffer is made item by item (``to_native(out, nested=True)``, a
    comprehension): a tuple ``out`` reaches the function as a tuple of native arrays."""
    reads_value: bool = False
    """The wrapper reads ``support_native_out``'s value (``getattr(fn, ..., False)``,
    ``fn.support_native_out``) rather than testing its presence (``hasattr``)."""
    native_gate: str = ""
    """The function ``g`` of a test ``if g(out): <flag> = False`` where ``<flag>`` is the
    test guarding the native call: when ``g(out)`` is true the native buffer is not handed
    over (Ivy's ``if ivy.gradients._is_variable(out): handle_out_in_backend = False``).
    Followed one level through a module-level helper of the same file returning
    ``ivy.h(...)`` or ``current_backend(...).h(...)`` (then ``h``); the last name only
    (``_is_variable``), resolved against the index by the reading rule."""
    gate_call: str = ""
    """The gate's function as the wrapper calls it (``_is_variable``; ``native_gate`` is
    the function it leads to when followed through a helper of the same file)."""
    gate_maps_items: bool = False
    """That helper of the same file maps the test over a nest (see
    ``FunctionSummary.maps_items``): the gate is true for every non-empty tuple ``out``."""


@dataclass
class DecoratorSummary:
    """What one of the project's own function wrappers (a module-level ``def name(fn)``
    returning an inner function) does around the call of the function it wraps (see
    :func:`decorators`): whether a decorator's order against another can change results
    is a fact of the project's wrappers, not of one Ivy release."""

    line: int
    failure_only: bool = False
    """The inner function is ``try: return fn(...)`` and every handler raises (itself or
    through a local helper whose last statement raises): results pass through unchanged,
    only a failure is acted on (Ivy's ``handle_exceptions``)."""
    catches: bool = False
    """Some ``try`` of the inner function has the call of ``fn`` in its body: the wrapper
    may act on an exception raised below it."""


@dataclass
class FileSummary:
    """Everything the index keeps of one file; ``parse_error`` when ``ast`` rejected it."""

    path: str
    part: str
    functions: dict[str, FunctionSummary] = field(default_factory=dict)
    parse_error: str | None = None
    digest: str = ""
    out_wrapper: OutWrapperSummary | None = None
    """The file's module-level ``handle_out_argument``, read (any part of the code base)."""
    star_imports: tuple[str, ...] = ()
    """A package ``__init__.py`` only: the relative modules it star-imports, in order
    (``".linear_algebra"``, ``".ivy.experimental"``). A name two modules define is the
    last one's at run time: the index resolves duplicate definitions by this order."""
    statement_lines: tuple[int, ...] = ()
    """First line of each top-level statement (its first decorator's, if any): lets the
    rule phase place findings without generating the module's code. Not a public fact."""
    decorators: dict[str, DecoratorSummary] = field(default_factory=dict)
    """The file's module-level function wrappers, by name (any part of the code base)."""

    def public_facts(self) -> tuple[object, ...]:
        """What other files can see of this file: its part and its functions' facts, not
        their lines nor the text's digest. A comment, a docstring or a moved function must
        not invalidate every other file's cached findings (the CLI's cache key) or re-check
        every open document (the language server)."""
        return (
            self.part,
            self.parse_error is None,
            tuple(
                (
                    name,
                    tuple(f.decorators),
                    tuple(f.params),
                    tuple(f.kwonly),
                    f.has_var_kwargs,
                    f.uses_out,
                    tuple(f.backend_calls),
                    tuple(sorted(f.attributes.items())),
                    tuple(f.argument_chains),
                    tuple(f.degenerate_chains),
                    tuple(sorted(f.update_fates.items())),
                    tuple(f.variable_tests),
                    f.maps_items,
                    f.true_for_arrays,
                )
                for name, f in sorted(self.functions.items())
            ),
            None if self.out_wrapper is None else repr(self.out_wrapper),
            self.star_imports,
            tuple(sorted((name, repr(d)) for name, d in self.decorators.items())),
        )

    def facts_digest(self) -> str:
        """A short hash of :meth:`public_facts`. ``repr``, not ``pickle``: pickle's bytes
        depend on which equal strings are the same object (summaries read back from the
        cache share fewer), so equal facts would hash differently."""
        return hashlib.blake2b(repr(self.public_facts()).encode(), digest_size=12).hexdigest()


def decorator_name(node: ast.expr) -> str:
    """``handle_view`` for ``@handle_view``, ``@ivy.handle_view`` and ``@handle_view(...)``."""
    if isinstance(node, ast.Call):
        node = node.func
    if isinstance(node, ast.Attribute):
        return node.attr
    if isinstance(node, ast.Name):
        return node.id
    return ""


def _backend_call_name(node: ast.Call) -> str | None:
    """``name`` for ``current_backend(...).name(...)`` (also ``ivy.current_backend``)."""
    func = node.func
    if not isinstance(func, ast.Attribute) or not isinstance(func.value, ast.Call):
        return None
    if decorator_name(func.value.func) == "current_backend":
        return func.attr
    return None


def _module_imports(tree: ast.Module) -> dict[str, str]:
    """Names bound by module-level imports (the cheap, ``ast`` twin of ``rules._names``).

    Only statements are visited (module level, and inside ``if``/``try``/``with`` blocks),
    never expressions or function bodies: this runs on every keystroke in the editor.
    """
    bound: dict[str, str] = {}
    for stmt in tree.body:
        if stmt.__class__ in _IMPORT_OR_BLOCK:  # (most module statements are neither)
            for inner in _module_statements([stmt]):
                _bind_import(inner, bound)
    return bound


_MODULE_BLOCKS = (ast.If, ast.Try, ast.With)
"""The blocks whose statements :func:`_module_statements` counts as the module's."""

_IMPORT_OR_BLOCK = frozenset({ast.Import, ast.ImportFrom, *_MODULE_BLOCKS})
"""The module-level statements :func:`_module_imports` reads: imports, and the blocks
that may hold one (parsing makes no subclasses: a set of exact types)."""


def _bind_import(stmt: ast.stmt, bound: dict[str, str]) -> None:
    if isinstance(stmt, ast.Import):
        for alias in stmt.names:
            if alias.asname:
                bound[alias.asname] = alias.name
            else:
                root = alias.name.split(".", 1)[0]
                bound[root] = root
    elif isinstance(stmt, ast.ImportFrom) and stmt.level == 0 and stmt.module:
        for alias in stmt.names:
            if alias.name != "*":
                bound[alias.asname or alias.name] = f"{stmt.module}.{alias.name}"


def _module_statements(statements: list[ast.stmt]) -> Iterator[ast.stmt]:
    """Module-level statements in source order, through ``if``/``try``/``with`` blocks."""
    for stmt in statements:
        yield stmt
        if isinstance(stmt, _MODULE_BLOCKS):
            yield from _module_statements(stmt.body)
            for handler in getattr(stmt, "handlers", []):
                yield from _module_statements(handler.body)
            yield from _module_statements(getattr(stmt, "orelse", []))
            yield from _module_statements(getattr(stmt, "finalbody", []))


def _qualify(node: ast.expr, imports: dict[str, str]) -> str | None:
    parts: list[str] = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name) or node.id not in imports:
        return None
    return ".".join([imports[node.id], *reversed(parts)])


_LEAF_FIELDS = frozenset({"ctx", "op", "ops"})
"""Fields holding only childless nodes (``Load``, ``Add``, ``Eq``...): nothing a summary
reads is there, so the walk does not queue them."""

_SCALAR_FIELDS = {
    "Name": ("id",),
    "Attribute": ("attr",),
    "Constant": ("value", "kind"),
    "arg": ("arg", "type_comment"),
    "keyword": ("arg",),
    "alias": ("name", "asname"),
    "FunctionDef": ("name", "type_comment"),
    "AsyncFunctionDef": ("name", "type_comment"),
    "ClassDef": ("name",),
    "ImportFrom": ("module", "level"),
    "Global": ("names",),
    "Nonlocal": ("names",),
    "FormattedValue": ("conversion",),
    "comprehension": ("is_async",),
    "ExceptHandler": ("name",),
    "AnnAssign": ("simple",),
    "Assign": ("type_comment",),
    "For": ("type_comment",),
    "AsyncFor": ("type_comment",),
    "With": ("type_comment",),
    "AsyncWith": ("type_comment",),
}
"""Per node type, the fields the grammar gives a name, a string, a number or a constant,
never a node (``Name.id``, ``Constant.value``...): the walk does not look into them."""

_NODE_FIELDS: dict[type[ast.AST], tuple[str, ...]] = {}
"""Per node type, the fields the walk looks into (:func:`_node_fields`)."""


def _node_fields(kind: type[ast.AST]) -> tuple[str, ...]:
    fields = _NODE_FIELDS.get(kind)
    if fields is None:
        scalar = _SCALAR_FIELDS.get(kind.__name__, ())
        fields = _NODE_FIELDS[kind] = tuple(
            f for f in kind._fields if f not in _LEAF_FIELDS and f not in scalar
        )
    return fields


def _summarize_function(
    node: ast.FunctionDef | ast.AsyncFunctionDef,
) -> tuple[FunctionSummary, bool]:
    """The function's summary, and whether it assigns a ``.data``/``._data`` attribute or
    a whole array (``b[()] = v``, ``b[...] = v``, ``b[:] = v``), or calls an in-place method
    (``copy_``, ``assign``, ``set_``, ``copyto``): a function that may write a value into
    an Array it is given, which only then the out-fate model runs (it costs more than the
    rest of a summary; an update writing otherwise, item by item say, would be answered
    "unknown" anyway). One walk answers both."""
    args = node.args
    writes = False
    params = [a.arg for a in args.posonlyargs]  # (no list of both made to be read once)
    params += [a.arg for a in args.args]
    summary = FunctionSummary(
        name=node.name,
        line=node.lineno,
        decorators=list(map(decorator_name, node.decorator_list)),
        params=params,
        kwonly=[a.arg for a in args.kwonlyargs],
        has_var_kwargs=args.kwarg is not None,
    )
    # Exact type tests (parsing makes no subclasses) against local names, no ``cast``
    # calls (the annotations below cost nothing at run time): this loop sees every node
    # of every API and backend function.
    Name, Attribute, Subscript, Call, Return = (
        ast.Name,
        ast.Attribute,
        ast.Subscript,
        ast.Call,
        ast.Return,
    )
    Load, Store, Constant, keyword = ast.Load, ast.Store, ast.Constant, ast.keyword
    Signature, Parameter = ast.arguments, ast.arg
    # The nodes below ``node`` (itself included) in ``ast.walk``'s breadth-first order,
    # less the childless context and operator nodes (:data:`_LEAF_FIELDS`), each judged
    # as it is reached: a list grown while it is read (no generator, no deque), the
    # fields of each node type looked up once, a third fewer nodes, and no second pass;
    # the children of the node types most met (calls, attributes, keywords, subscripts,
    # returns) taken straight, in their fields' order.
    # Leaving out leaves keeps the order of the others: a summary's backend calls come
    # out in ``ast.walk``'s order. Summarizing walks every function of every API and
    # backend file: this loop was most of the index phase.
    found: list[ast.AST] = [node]
    append, extend, AST, fields_of = found.append, found.extend, ast.AST, _NODE_FIELDS.get
    position = 0
    while position < len(found):
        child = found[position]
        position += 1
        kind = type(child)
        if kind is Name:
            name: ast.Name = child  # type: ignore[assignment]
            if name.id == "out" and type(name.ctx) is Load:
                summary.uses_out = True
            continue  # no child node
        if kind is Constant:
            continue  # no child node, nothing read
        if kind is Call:
            call: ast.Call = child  # type: ignore[assignment]
            func = call.func
            if type(func) is Attribute:
                if func.attr in _WRITERS:
                    writes = True
                if type(func.value) is Call:
                    called = _backend_call_name(call)
                    if called is not None:
                        summary.backend_calls.append(called)
            append(func)
            extend(call.args)
            extend(call.keywords)
            continue
        if kind is Attribute:
            attribute: ast.Attribute = child  # type: ignore[assignment]
            if attribute.attr in _DATA and type(attribute.ctx) is Store:
                writes = True
            append(attribute.value)
            continue
        if kind is keyword:
            append(child.value)  # type: ignore[attr-defined]
            continue
        if kind is Subscript:
            item: ast.Subscript = child  # type: ignore[assignment]
            if type(item.ctx) is Store and whole_array(item.slice):
                writes = True
            append(item.value)
            append(item.slice)
            continue
        if kind is Return:
            returned = child.value  # type: ignore[attr-defined]
            if returned is not None:
                append(returned)
            continue
        if kind is Parameter:
            annotation = child.annotation  # type: ignore[attr-defined]
            if annotation is not None:
                append(annotation)
            continue
        if kind is Signature:
            signature: ast.arguments = child  # type: ignore[assignment]
            extend(signature.posonlyargs)
            extend(signature.args)
            if signature.vararg is not None:
                append(signature.vararg)
            extend(signature.kwonlyargs)
            extend([d for d in signature.kw_defaults if d is not None])
            if signature.kwarg is not None:
                append(signature.kwarg)
            extend(signature.defaults)
            continue
        fields = fields_of(kind)
        for field_name in _node_fields(kind) if fields is None else fields:
            value = getattr(child, field_name, None)
            if type(value) is list:
                if field_name in _NOT_ONLY_NODES:
                    extend([item for item in value if isinstance(item, AST)])
                else:
                    extend(value)
            elif isinstance(value, AST):
                append(value)
    return summary, writes


_NOT_ONLY_NODES = frozenset({"keys", "kw_defaults", "kwd_attrs"})
"""The list fields the grammar lets hold something else than nodes (``None`` for a
dictionary's ``**`` and a keyword-only parameter without default, names in a class
pattern): the walk takes every other list whole."""


_DATA = frozenset({"data", "_data"})
_WRITERS = frozenset({"copy_", "assign", "set_", "copyto"})


def _attribute_targets(stmt: ast.stmt) -> list[tuple[str, str, str]]:
    """(function, attribute, value source) for ``f.attr = v`` and ``setattr(f, "attr", v)``."""
    found: list[tuple[str, str, str]] = []
    if isinstance(stmt, ast.Assign):
        for target in stmt.targets:
            if isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name):
                found.append((target.value.id, target.attr, _source_of(stmt.value)))
    elif isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call):
        call = stmt.value
        if (
            isinstance(call.func, ast.Name)
            and call.func.id == "setattr"
            and len(call.args) == 3
            and isinstance(call.args[0], ast.Name)
            and isinstance(call.args[1], ast.Constant)
            and isinstance(call.args[1].value, str)
        ):
            found.append((call.args[0].id, call.args[1].value, _source_of(call.args[2])))
    return found


def _source_of(value: ast.expr) -> str:
    """``ast.unparse(value)``, without its cost for ``True``, ``False`` and ``None`` (what
    a backend's ``fn.support_native_out = True`` lines hold, thousands in a big file)."""
    if value.__class__ is ast.Constant:
        constant = value.value
        if constant is True or constant is False or constant is None:
            return str(constant)
    return ast.unparse(value)


def rewrapping_call(node: ast.AST) -> ast.Call | None:
    """The call of ``f = <call>(f)``, a name rebound to one call applied to it alone (a
    wrapper applied by assignment, as a decorator would be); ``None`` for anything else."""
    if (
        isinstance(node, ast.Assign)
        and len(node.targets) == 1
        and isinstance(node.targets[0], ast.Name)
        and isinstance(node.value, ast.Call)
        and len(node.value.args) == 1
        and isinstance(node.value.args[0], ast.Name)
        and node.value.args[0].id == node.targets[0].id
    ):
        return node.value
    return None


def _wrapped_by_assignment(stmt: ast.stmt) -> tuple[str, str] | None:
    """(function, wrapper) for ``f = wrapper(f)``."""
    call = rewrapping_call(stmt)
    if call is None or not isinstance(call.args[0], ast.Name):  # (the second: for mypy)
        return None
    return call.args[0].id, decorator_name(call.func)


def text_digest(source: str | bytes) -> str:
    """Identifies the exact text a summary was made from."""
    data = source.encode("utf-8", "surrogatepass") if isinstance(source, str) else source
    return hashlib.blake2b(data, digest_size=16).hexdigest()


FunctionMemo = dict[tuple[str, tuple[tuple[str, str], ...], bool], FunctionSummary]
"""Summaries of a text's module-level functions by (the function's lines, the module's
imports, whether the file is a backend's): all a function's summary depends on but its
line. The language server keeps one per open document (:func:`summarize`'s ``memo``)."""


def summarize(
    source: str | bytes,
    path: str,
    part: str,
    *,
    memo: FunctionMemo | None = None,
    tree: ast.Module | None = None,
) -> FileSummary:
    """Summarize one file; never raises on bad input.

    Only the functional API and the backends feed the index; for any other file the
    summary records just whether it parses (which spares the rule phase a second syntax
    check), so a large non-Ivy code base costs one C-level parse per file here.

    ``memo``: the function summaries of the same file's previous text, reused for the
    functions whose text is unchanged and replaced by this text's (an editor keystroke
    changes one function of thousands of lines; walking all of them was half of its
    check, ``benchmarks/lsp_latency.py``). The result is the same as without it.
    ``tree``: the text's tree when the caller parsed it already (then it parses).
    """
    summary = FileSummary(path=path, part=part, digest=text_digest(source))
    if tree is None:
        try:
            tree = trees.parse(source)
        except trees.PARSE_ERRORS as err:
            summary.parse_error = f"{type(err).__name__}: {err}"
            return summary
    summary.statement_lines = tuple(map(_first_line, tree.body))
    summary.out_wrapper = out_wrapper(tree)
    summary.decorators = decorators(tree)
    if summary.out_wrapper is not None and not (part == "functional" or backend_part(part)):
        # Named in ``functions`` (which the index reads without decoding the summary), so
        # that the index knows where the wrapper is without decoding every file.
        summary.functions[WRAPPER] = FunctionSummary(WRAPPER, summary.out_wrapper.line)
    if path.rsplit("/", 1)[-1] == "__init__.py":
        summary.star_imports = star_imports(tree)
    if not (part == "functional" or part.startswith("backend:")):
        return summary
    functions = summary.functions
    imports = _module_imports(tree)
    backend = part.startswith("backend:")
    if memo is None or not isinstance(source, str):
        for stmt in tree.body:
            if isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef):
                functions[stmt.name] = _function_facts(stmt, imports, backend, tree)
    else:
        _reuse_functions(source, tree, imports, backend, memo, functions)
    for stmt in tree.body:
        _record_module_statement(stmt, functions)
    return summary


def _function_facts(
    stmt: ast.FunctionDef | ast.AsyncFunctionDef,
    imports: dict[str, str],
    backend: bool,
    module: ast.Module,
) -> FunctionSummary:
    """A function's summary before the module's statements add to it (attributes, wrappers
    applied by assignment). ``update_fates`` also depends on the module's other functions
    (helpers run in place), which the memo's key does not cover: a memo never answers for
    a function that has them (:func:`_reuse_functions`)."""
    summary, writes = _summarize_function(stmt)
    if not backend:
        summary.maps_items = maps_over_items(stmt)
    if backend:
        chains, degenerate = argument_chains_split(stmt, imports)
        summary.argument_chains = chains
        summary.degenerate_chains = degenerate
        if writes:
            summary.update_fates, summary.variable_tests = update_fates(stmt, module)
        summary.true_for_arrays = true_for_arrays(stmt, imports)
    return summary


def _reuse_functions(
    source: str,
    tree: ast.Module,
    imports: dict[str, str],
    backend: bool,
    memo: FunctionMemo,
    functions: dict[str, FunctionSummary],
) -> None:
    """``functions`` as :func:`summarize` fills them, from ``memo`` where a function's text
    is in it; ``memo`` then holds this text's functions only."""
    lines = python_lines(source)
    imported = tuple(sorted(imports.items()))
    kept: FunctionMemo = {}
    for stmt in tree.body:
        if not isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        text = "".join(lines[_first_line(stmt) - 1 : stmt.end_lineno or stmt.lineno])
        key = (text, imported, backend)
        facts = kept.get(key) or memo.get(key)
        if facts is None or facts.update_fates:
            facts = _function_facts(stmt, imports, backend, tree)
        kept[key] = facts
        functions[stmt.name] = _fresh_copy(facts, stmt.lineno)
    memo.clear()
    memo.update(kept)


def _fresh_copy(facts: FunctionSummary, line: int) -> FunctionSummary:
    """A memo's summary at ``line``, its containers the copy's own (the module's statements
    add attributes and wrappers to them). Made field by field, not by
    ``dataclasses.replace`` (which looks every field up again: a fifth of the language
    server's summary of a 2,000-line document at each keystroke); ``tests`` hold the two
    to the same fields."""
    return FunctionSummary(
        name=facts.name,
        line=line,
        decorators=list(facts.decorators),
        params=list(facts.params),
        kwonly=list(facts.kwonly),
        has_var_kwargs=facts.has_var_kwargs,
        uses_out=facts.uses_out,
        backend_calls=list(facts.backend_calls),
        attributes=dict(facts.attributes),
        argument_chains=list(facts.argument_chains),
        update_fates=dict(facts.update_fates),
        variable_tests=list(facts.variable_tests),
        maps_items=facts.maps_items,
        degenerate_chains=list(facts.degenerate_chains),
        true_for_arrays=facts.true_for_arrays,
    )


def star_imports(tree: ast.Module) -> tuple[str, ...]:
    """``from .x import *`` at module level (through ``if``/``try``), in order, as ``.x``."""
    return tuple(
        "." * stmt.level + (stmt.module or "")
        for stmt in _module_statements(tree.body)
        if isinstance(stmt, ast.ImportFrom)
        and stmt.level > 0
        and any(alias.name == "*" for alias in stmt.names)
    )


def backend_part(part: str) -> bool:
    return part.startswith("backend:")


def _first_line(stmt: ast.stmt) -> int:
    decorators = getattr(stmt, "decorator_list", None)
    return min(stmt.lineno, *(d.lineno for d in decorators)) if decorators else stmt.lineno


def _record_module_statement(stmt: ast.stmt, functions: dict[str, FunctionSummary]) -> None:
    if stmt.__class__ not in _RECORDED:
        return  # a definition, an import...: nothing below reads it
    for name, attr, value in _attribute_targets(stmt):
        if name in functions:
            functions[name].attributes[attr] = value
    wrapped = _wrapped_by_assignment(stmt)
    if wrapped is not None and wrapped[0] in functions:
        functions[wrapped[0]].decorators.insert(0, wrapped[1])
    if isinstance(stmt, ast.For) and isinstance(stmt.target, ast.Name):
        _record_loop(stmt, functions)


_RECORDED = frozenset({ast.Assign, ast.Expr, ast.For})
"""The statements :func:`_record_module_statement` reads: an attribute set by assignment
or ``setattr``, a wrapper applied by assignment, a loop setting an attribute."""


def _record_loop(loop: ast.For, functions: dict[str, FunctionSummary]) -> None:
    """``for f in (a, b): f.attr = v`` sets ``attr`` on ``a`` and ``b``."""
    assert isinstance(loop.target, ast.Name)
    if not isinstance(loop.iter, ast.Tuple | ast.List | ast.Set):
        return
    names = [e.id for e in loop.iter.elts if isinstance(e, ast.Name)]
    for stmt in loop.body:
        for target, attr, value in _attribute_targets(stmt):
            if target == loop.target.id:
                for name in names:
                    if name in functions:
                        functions[name].attributes[attr] = value


# What the wrapper does with ``out`` after a native call, and what a backend's update does -
#
# The consequence of a wrong ``support_native_out`` is a fact of the checked project: its
# own ``handle_out_argument`` either writes the function's result into ``out`` after the
# native call (Ivy: ``ivy.inplace_update(out, ret)``) or returns it as it is, and each
# backend's update either copies into ``out``'s existing buffer (keeping its dtype) or
# rebinds ``out`` to the value (its dtype and buffer). Both are read here from the tree.

WRAPPER = "handle_out_argument"


def out_wrapper(tree: ast.Module) -> OutWrapperSummary | None:
    """The module-level ``def handle_out_argument``, read, if the file has one: what it does
    to ``out`` is run by :func:`~ivycheck.checker.project.out_effects.wrapper_fates`."""
    for stmt in tree.body:
        if isinstance(stmt, ast.FunctionDef) and stmt.name == WRAPPER:
            facts = _wrapper_facts(stmt)
            facts.fates = wrapper_fates(stmt, tree)
            facts.native_gate, facts.gate_call, facts.gate_maps_items = _native_gate(stmt, tree)
            return facts
    return None


def _native_gate(wrapper: ast.FunctionDef, tree: ast.Module) -> tuple[str, str, bool]:
    """The ``g`` of ``if g(out): flag = False`` where ``if flag:`` guards the native call:
    (the function it leads to, ``g`` as called, whether ``g`` is a helper of this file
    mapping its test over a nest)."""
    flags = {
        node.test.id
        for node in ast.walk(wrapper)
        if isinstance(node, ast.If)
        and isinstance(node.test, ast.Name)
        and any(
            isinstance(c, ast.Call) and _passes_native_buffer(c)
            for s in node.body
            for c in ast.walk(s)
        )
    }
    for node in ast.walk(wrapper):
        test = node.test if isinstance(node, ast.If) else None
        if not (
            isinstance(test, ast.Call)
            and test.args
            and isinstance(test.args[0], ast.Name)
            and test.args[0].id == "out"
            and any(
                isinstance(s, ast.Assign)
                and isinstance(s.value, ast.Constant)
                and s.value.value is False
                and any(isinstance(t, ast.Name) and t.id in flags for t in s.targets)
                for s in cast(ast.If, node).body
            )
        ):
            continue
        gate = decorator_name(test.func)
        helper = next(
            (s for s in tree.body if isinstance(s, ast.FunctionDef) and s.name == gate), None
        )
        maps = helper is not None and maps_over_items(helper)
        returned = helper.body[-1] if helper is not None and helper.body else None
        if isinstance(returned, ast.Return) and isinstance(returned.value, ast.Call):
            call = returned.value
            through = _backend_call_name(call)
            if through is None and isinstance(call.func, ast.Attribute):
                owner = call.func.value
                through = (
                    call.func.attr if isinstance(owner, ast.Name) and owner.id == "ivy" else None
                )
            return through or gate, gate, maps
        return gate, gate, maps
    return "", "", False


def true_for_arrays(node: ast.FunctionDef | ast.AsyncFunctionDef, imports: dict[str, str]) -> bool:
    """``return isinstance(x, NativeArray)`` (``x`` the first parameter) is all the body
    does on the path its flags' defaults take: a docstring and ``if flag: ...`` on a flag
    whose default is ``False``/``None`` are skipped. The type is the backend's own
    ``NativeArray`` (by that name, or imported under it): any other type (``tf.Variable``),
    or a further condition (``and x.requires_grad``), is not read as true for every array."""
    if not any(map(_returns_isinstance, node.body)):
        return False
    positional = [a.arg for a in (*node.args.posonlyargs, *node.args.args)]
    if not positional:
        return False
    off = off_flags(node.args)
    body = [
        s
        for s in node.body
        if not (isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant))
        and not (
            isinstance(s, ast.If)
            and not s.orelse
            and isinstance(s.test, ast.Name)
            and s.test.id in off
        )
    ]
    if len(body) != 1 or not isinstance(body[0], ast.Return):
        return False
    call = body[0].value
    if not (
        isinstance(call, ast.Call)
        and isinstance(call.func, ast.Name)
        and call.func.id == "isinstance"
        and len(call.args) == 2
        and not call.keywords
        and isinstance(call.args[0], ast.Name)
        and call.args[0].id == positional[0]
    ):
        return False
    kind = call.args[1]
    if isinstance(kind, ast.Name):
        return kind.id == "NativeArray" or imports.get(kind.id, "").endswith(".NativeArray")
    qualified = _qualify(kind, imports) if isinstance(kind, ast.Attribute) else None
    return qualified is not None and qualified.endswith(".NativeArray")


def _returns_isinstance(statement: ast.stmt) -> bool:
    """``return isinstance(...)``: the one statement :func:`true_for_arrays` reads (asked
    first, since most functions have none)."""
    if statement.__class__ is not ast.Return:
        return False
    value = statement.value
    return (
        value.__class__ is ast.Call
        and value.func.__class__ is ast.Name
        and value.func.id == "isinstance"
    )


def decorators(tree: ast.Module) -> dict[str, DecoratorSummary]:
    """The module-level function wrappers of ``tree``: each ``def name(fn, ...)`` whose
    last statement returns a function it defines (``@functools.wraps(fn) def _name(*args,
    **kwargs): ...``), with what that inner function does around ``fn(...)``."""
    found: dict[str, DecoratorSummary] = {}
    for stmt in tree.body:
        if not isinstance(stmt, ast.FunctionDef) or not stmt.args.args:
            continue
        last = stmt.body[-1]
        if not (isinstance(last, ast.Return) and isinstance(last.value, ast.Name)):
            continue  # (asked before listing the inner functions: most functions fail it)
        inner = {d.name: d for d in stmt.body if isinstance(d, ast.FunctionDef)}
        if last.value.id not in inner:
            continue
        wrapped = stmt.args.args[0].arg
        wrapper = inner[last.value.id]
        found[stmt.name] = DecoratorSummary(
            stmt.lineno,
            failure_only=_failure_only(wrapper, wrapped, inner),
            catches=any(
                isinstance(node, ast.Try) and any(_calls(s, wrapped) for s in node.body)
                for node in ast.walk(wrapper)
            ),
        )
    return found


def _calls(node: ast.AST, name: str) -> bool:
    return any(
        isinstance(child, ast.Call) and isinstance(child.func, ast.Name) and child.func.id == name
        for child in ast.walk(node)
    )


def _failure_only(
    wrapper: ast.FunctionDef, wrapped: str, helpers: dict[str, ast.FunctionDef]
) -> bool:
    """``try: return wrapped(...)`` (after a docstring) with every handler ending in a
    ``raise``, itself or as the last statement of a helper it calls last."""
    body = [
        s
        for s in wrapper.body
        if not (isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant))
    ]
    if len(body) != 1 or not isinstance(body[0], ast.Try):
        return False
    attempt = body[0]
    if attempt.orelse or attempt.finalbody or len(attempt.body) != 1:
        return False
    returned = attempt.body[0]
    if not (
        isinstance(returned, ast.Return)
        and isinstance(returned.value, ast.Call)
        and isinstance(returned.value.func, ast.Name)
        and returned.value.func.id == wrapped
    ):
        return False
    local = {**helpers, **{d.name: d for d in wrapper.body if isinstance(d, ast.FunctionDef)}}
    return all(_raises_last(handler.body, local) for handler in attempt.handlers)


def _raises_last(block: list[ast.stmt], helpers: dict[str, ast.FunctionDef]) -> bool:
    last = block[-1]
    if isinstance(last, ast.Raise):
        return True
    if isinstance(last, ast.Expr) and isinstance(last.value, ast.Call):
        func = last.value.func
        helper = helpers.get(func.id) if isinstance(func, ast.Name) else None
        return helper is not None and isinstance(helper.body[-1], ast.Raise)
    return False


def _wrapper_facts(node: ast.FunctionDef) -> OutWrapperSummary:
    facts = OutWrapperSummary(line=node.lineno, reads_value=_reads_attribute_value(node))
    for child in ast.walk(node):
        if isinstance(child, ast.Call) and _passes_native_buffer(child):
            facts.buffer_per_item = _per_item(_buffer_expression(child, node))
            break
    return facts


def _reads_attribute_value(node: ast.FunctionDef) -> bool:
    """``getattr(fn, "support_native_out", ...)`` or ``fn.support_native_out`` read, and no
    ``hasattr(fn, "support_native_out")``."""
    value = presence = False
    for child in ast.walk(node):
        if isinstance(child, ast.Attribute) and child.attr == _ATTRIBUTE:
            value = value or isinstance(child.ctx, ast.Load)
        elif isinstance(child, ast.Call) and len(child.args) >= 2:
            name = decorator_name(child.func)
            second = child.args[1]
            if isinstance(second, ast.Constant) and second.value == _ATTRIBUTE:
                presence = presence or name == "hasattr"
                value = value or name == "getattr"
    return value and not presence


_ATTRIBUTE = "support_native_out"


def _blocks(node: ast.AST) -> Iterator[list[ast.stmt]]:
    """Every statement list inside ``node`` (bodies, branches, handlers), outermost first."""
    for child in ast.walk(node):
        for name in ("body", "orelse", "finalbody"):
            block = getattr(child, name, None)
            if isinstance(block, list) and block and isinstance(block[0], ast.stmt):
                yield block
        for handler in getattr(child, "handlers", []):
            yield handler.body


def _buffer_expression(call: ast.Call, wrapper: ast.FunctionDef) -> ast.expr | None:
    """What the native call's ``out=`` is made from (through one local name)."""
    value = next((k.value for k in call.keywords if k.arg == "out"), None)
    if isinstance(value, ast.Name):
        for child in ast.walk(wrapper):
            if (
                isinstance(child, ast.Assign)
                and len(child.targets) == 1
                and isinstance(child.targets[0], ast.Name)
                and child.targets[0].id == value.id
            ):
                return child.value
    return value


def _per_item(value: ast.expr | None) -> bool:
    if value is None:
        return False
    for child in ast.walk(value):
        if isinstance(child, ast.ListComp | ast.GeneratorExp | ast.SetComp):
            return True
        if isinstance(child, ast.Call) and any(
            k.arg == "nested" and isinstance(k.value, ast.Constant) and k.value.value is True
            for k in child.keywords
        ):
            return True
    return False


def _passes_native_buffer(call: ast.Call) -> bool:
    """``out=`` given something other than ``out`` itself or ``None``."""
    return any(
        k.arg == "out"
        and not (isinstance(k.value, ast.Name) and k.value.id == "out")
        and not (isinstance(k.value, ast.Constant) and k.value.value is None)
        for k in call.keywords
    )


# Chains from a parameter to a returned value ------------------------------------------
#
# An array returned by a function is a view of its input only if it is reached from a
# parameter through operations that keep the memory: ``np.transpose(res)`` of a ``res``
# the function computed (a convolution, a cumulative product) is a new array, whatever
# ``transpose`` does. So the summary follows names through the body, in control-flow
# order, and records the links between a parameter and each returned value: a qualified
# call through its first argument (``numpy.reshape``), a method through its receiver
# (``.reshape()``), an attribute (``.T``) or a basic subscript (``[]``). A name rebound
# to anything else (``x = np.cumprod(x)``) no longer leads to the parameter. Where paths
# join (after ``if``, loops, ``try``) a name keeps the chains of every path that reaches
# it: a view returned on one path is still returned.

Chains = frozenset[tuple[str, ...]]
Env = dict[str, Chains]
_NONE: Chains = frozenset()
_MAX_CHAINS = 8
"""Chains kept per name: a bound on joins in long bodies, far above what real code has."""
BASIC_INDEX = FunctionSummary.BASIC_INDEX


def argument_chains(
    node: ast.FunctionDef | ast.AsyncFunctionDef, imports: dict[str, str]
) -> list[tuple[str, ...]]:
    """Each distinct non-empty chain of links from a parameter to a returned value.

    ``return np.transpose(np.reshape(x, s))`` gives ``("numpy.reshape", "numpy.transpose")``;
    ``y = x.reshape(s); return y.T`` gives ``(".reshape()", ".T")``; ``return x`` (no
    link: the argument itself) and returns of computed arrays give nothing. Returns of
    nested functions are theirs, not this function's.
    """
    return argument_chains_split(node, imports)[0]


def argument_chains_split(
    node: ast.FunctionDef | ast.AsyncFunctionDef, imports: dict[str, str]
) -> tuple[list[tuple[str, ...]], list[tuple[str, ...]]]:
    """:func:`argument_chains`, and those of them returned only on degenerate input."""
    args = node.args
    env: Env = {}
    for parameters in (args.posonlyargs, args.args, args.kwonlyargs):
        for parameter in parameters:
            env[parameter.arg] = _PARAMETER
    flow = _Flow(imports)
    flow.block(node.body, env)
    chains = list(dict.fromkeys(flow.returned))
    if not flow.degenerate:
        return chains, []
    regular = set(flow.regular)
    return chains, [c for c in dict.fromkeys(flow.degenerate) if c not in regular]


_PARAMETER: Chains = frozenset({()})
"""A parameter's own chain: no link yet (shared: a state's chains are never changed)."""


class _Flow:
    """A forward pass over one function body; ``None`` as a state means unreachable."""

    def __init__(self, imports: dict[str, str]) -> None:
        self.imports = imports
        self.returned: list[tuple[str, ...]] = []
        self.degenerate: list[tuple[str, ...]] = []
        """Chains returned under a test for degenerate input (:func:`_degenerate_test`)."""
        self.regular: list[tuple[str, ...]] = []
        """Chains returned elsewhere."""
        self.in_degenerate = 0

    def block(self, statements: list[ast.stmt], env: Env | None) -> Env | None:
        for stmt in statements:
            if env is None:
                return None
            env = self.statement(stmt, env)
        return env

    def statement(self, stmt: ast.stmt, env: Env) -> Env | None:
        if isinstance(stmt, ast.Return):
            if stmt.value is not None:
                # Sorted: a set's order changes with the string hash seed, and a summary
                # must be the same in every process (its facts digest keys cached results).
                found = sorted([c for c in self.chains(stmt.value, env) if c])
                self.returned.extend(found)
                (self.degenerate if self.in_degenerate else self.regular).extend(found)
            return None
        if isinstance(stmt, ast.Raise):
            return None
        if isinstance(stmt, ast.Assign):
            value = self.chains(stmt.value, env)
            env = dict(env)
            for target in stmt.targets:
                self.bind(target, stmt.value, value, env)
            return env
        if isinstance(stmt, ast.AnnAssign):
            if stmt.value is None:
                return env
            env = dict(env)
            self.bind(stmt.target, stmt.value, self.chains(stmt.value, env), env)
            return env
        if isinstance(stmt, ast.Delete):
            return _without(env, _bound_names(stmt.targets))
        if isinstance(stmt, ast.If):
            degenerate = _degenerate_test(stmt.test)
            self.in_degenerate += degenerate
            body = self.block(stmt.body, env)
            self.in_degenerate -= degenerate
            return _join(body, self.block(stmt.orelse, env))
        if isinstance(stmt, ast.For | ast.AsyncFor | ast.While):
            return self.loop(stmt, env)
        if isinstance(stmt, ast.With | ast.AsyncWith):
            bound = [item.optional_vars for item in stmt.items if item.optional_vars]
            return self.block(stmt.body, _without(env, _bound_names(bound)))
        if isinstance(stmt, ast.Try | ast.TryStar):
            return self.try_(stmt, env)
        if isinstance(stmt, ast.Match):
            after: Env | None = env  # no case may match
            for case in stmt.cases:
                after = _join(after, self.block(case.body, _without(env, _pattern_names(case))))
            return after
        if isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            return _without(env, {stmt.name})
        if isinstance(stmt, ast.Import | ast.ImportFrom):
            return _without(env, {(a.asname or a.name).split(".")[0] for a in stmt.names})
        return env  # expressions, augmented assignments (in place), pass, global...

    def loop(self, stmt: ast.For | ast.AsyncFor | ast.While, env: Env) -> Env | None:
        """The body runs zero or more times: twice from the joined state reaches every
        chain a name can carry around the loop (each pass adds links only to names the
        body rebinds)."""
        start: Env | None = env
        for _ in range(2):
            entry = start if start is not None else env
            if not isinstance(stmt, ast.While):
                entry = _without(entry, _bound_names([stmt.target]))
            start = _join(env, self.block(stmt.body, entry))
        return _join(start, self.block(stmt.orelse, start)) if stmt.orelse else start

    def try_(self, stmt: ast.Try | ast.TryStar, env: Env) -> Env | None:
        body = self.block(stmt.body, env)
        raised = _join(env, body)  # an exception may leave the body anywhere
        after = self.block(stmt.orelse, body) if stmt.orelse else body
        for handler in stmt.handlers:
            names = {handler.name} if handler.name else set()
            entry = _without(raised, names) if raised is not None else None
            after = _join(after, self.block(handler.body, entry))
        if stmt.finalbody:
            return self.block(stmt.finalbody, after)
        return after

    def bind(self, target: ast.expr, value: ast.expr, chains: Chains, env: Env) -> None:
        if isinstance(target, ast.Name):
            _set(env, target.id, chains)
        elif isinstance(target, ast.Tuple | ast.List):
            if isinstance(value, ast.Tuple | ast.List) and len(value.elts) == len(target.elts):
                pairs = [
                    (t, v, self.chains(v, env))
                    for t, v in zip(target.elts, value.elts, strict=True)
                ]
                for sub_target, sub_value, sub_chains in pairs:
                    self.bind(sub_target, sub_value, sub_chains, env)
            else:
                for name in _bound_names([target]):
                    env.pop(name, None)
        elif isinstance(target, ast.Starred):
            self.bind(target.value, value, _NONE, env)
        # attribute and subscript targets write into an object: no name changes

    def chains(self, node: ast.expr, env: Env) -> Chains:
        """The chains from a parameter to the value of ``node``."""
        if isinstance(node, ast.Name):
            return env.get(node.id, _NONE)
        if isinstance(node, ast.Call):
            func = node.func
            qualified = _qualify(func, self.imports)
            if qualified is not None:
                subject = _first_argument(node)
                link = qualified
            elif isinstance(func, ast.Attribute):
                subject, link = func.value, f".{func.attr}()"
            else:
                return _NONE
            return _extend(self.chains(subject, env), link) if subject is not None else _NONE
        if isinstance(node, ast.Attribute):
            if _qualify(node, self.imports) is not None:
                return _NONE
            return _extend(self.chains(node.value, env), f".{node.attr}")
        if isinstance(node, ast.Subscript):
            if not _basic_index(node.slice):
                return _NONE
            return _extend(self.chains(node.value, env), BASIC_INDEX)
        if isinstance(node, ast.IfExp):
            return _cap(self.chains(node.body, env) | self.chains(node.orelse, env))
        if isinstance(node, ast.NamedExpr):  # the name it binds is not followed
            return self.chains(node.value, env)
        return _NONE


def _degenerate_test(test: ast.expr) -> bool:
    """A test that holds only for an empty, 0-d or single-element array: ``x.size == 0``,
    ``x.ndim == 0``, ``len(x.shape) == 0``, ``x.size == 1``, ``math.prod(x.shape) == 1``,
    alone or as one conjunct of an ``and`` (which only narrows it further). ``== 1`` counts
    for an element count (``size``, ``numel()``, a ``prod`` of the shape), not for a rank:
    ``x.ndim == 1`` is any vector."""
    if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.And):
        return any(_degenerate_test(value) for value in test.values)
    if not (isinstance(test, ast.Compare) and len(test.ops) == 1):
        return False
    right = test.comparators[0]
    if not isinstance(test.ops[0], ast.Eq) or not isinstance(right, ast.Constant):
        return False
    words = {n.attr for n in ast.walk(test.left) if isinstance(n, ast.Attribute)}
    words |= {n.id for n in ast.walk(test.left) if isinstance(n, ast.Name)}
    if right.value == 0 and type(right.value) is int:
        return bool(words & {"size", "shape", "ndim", "numel"})
    counts = "size" in words or "numel" in words or ("prod" in words and "shape" in words)
    return right.value == 1 and type(right.value) is int and counts


def _first_argument(call: ast.Call) -> ast.expr | None:
    """The array a library function acts on: its first positional argument, or NumPy's
    ``a=`` / PyTorch's ``input=`` when passed by keyword."""
    if call.args:
        first = call.args[0]
        return None if isinstance(first, ast.Starred) else first
    for keyword in call.keywords:
        if keyword.arg in ("a", "input"):
            return keyword.value
    return None


def _basic_index(index: ast.expr) -> bool:
    """Integers, slices, ``...`` and ``None`` (alone or in a tuple): NumPy's and PyTorch's
    basic indexing, which makes a view. A name or an array may be advanced indexing (a
    copy), so it ends the chain."""
    parts = index.elts if isinstance(index, ast.Tuple) else [index]
    for part in parts:
        if isinstance(part, ast.Slice):
            bounds = (part.lower, part.upper, part.step)
            if not all(b is None or _integer_like(b) for b in bounds):
                return False
        elif not (
            _integer_like(part)
            or (isinstance(part, ast.Constant) and (part.value is None or part.value is ...))
        ):
            return False
    return True


def _integer_like(node: ast.expr) -> bool:
    """A literal int, or arithmetic on names and ints (``n - 1``): slice bounds and
    positions written as expressions. A bare name can hold an index array, so it is not."""
    if isinstance(node, ast.Constant):
        return type(node.value) is int
    if isinstance(node, ast.UnaryOp):
        return _integer_like(node.operand)
    if isinstance(node, ast.BinOp):
        sides = (node.left, node.right)
        return any(_integer_like(s) for s in sides) and all(
            _integer_like(s) or isinstance(s, ast.Name) for s in sides
        )
    return False


def _extend(chains: Chains, link: str) -> Chains:
    return frozenset((*chain, link) for chain in chains) if chains else _NONE


def _cap(chains: Chains) -> Chains:
    return chains if len(chains) <= _MAX_CHAINS else frozenset(sorted(chains)[:_MAX_CHAINS])


def _set(env: Env, name: str, chains: Chains) -> None:
    if chains:
        env[name] = chains
    else:
        env.pop(name, None)


def _join(left: Env | None, right: Env | None) -> Env | None:
    if left is None:
        return right
    if right is None:
        return left
    return {name: _cap(left.get(name, _NONE) | right.get(name, _NONE)) for name in left | right}


def _without(env: Env, names: set[str]) -> Env:
    return {name: chains for name, chains in env.items() if name not in names} if names else env


def _bound_names(targets: list[ast.expr]) -> set[str]:
    return {
        node.id
        for target in targets
        for node in ast.walk(target)
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store | ast.Del)
    }


def _pattern_names(case: ast.match_case) -> set[str]:
    return {
        name
        for node in ast.walk(case.pattern)
        for name in (getattr(node, "name", None), getattr(node, "rest", None))
        if isinstance(name, str)
    }
