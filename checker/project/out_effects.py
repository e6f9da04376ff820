"""What a function does to ``out``: a small abstract interpretation over CPython's ``ast``.

The consequence a message states about ``out`` (its dtype kept or not, its buffer kept or
not, its old values kept) is a fact of the checked project's own ``handle_out_argument`` and
of each backend's update function (``inplace_update``). Reading them by their shape went
wrong three ways (issue 36): ``out.data = to_native(ret)`` was read as "never writes
``out``", a copy into the buffer followed by ``x_native = x_native.to(val.device)`` (the
same tensor) as a rebind, and a gate true for every tuple was not seen. So the function is
*run* here, on abstract values, one path at a time:

* the values followed are the identities that matter (:data:`OUT` the Array, :data:`BUFFER`
  its native buffer as the call received it, :data:`RESULT` the value written, new arrays
  of ``out``'s or of the result's dtype, dtypes and devices of those) and the locals that
  alias them, through assignments and tuple unpacking;
* ``out``'s data attribute (``out.data = v``, ``out._data = v``) and what was written into
  which buffer (``b[()] = v``, ``b[...] = v``, ``b.copy_(v)``, ``b.assign(v)``,
  ``np.copyto(b, v)``; ``b.set_(v)`` and ``b.data = v`` replace a tensor's storage);
* calls known to return their receiver (``.to(<a value>.device)``: the fate is for an
  ``out`` on the result's device; ``astype(d, copy=False)`` and ``.to(d)`` of the same
  dtype), conversions (``to_native``, ``args_to_native``), dtypes (``.dtype``,
  ``dtype(v)``), and helpers of the same module, run in place with their arguments;
* tests it can decide: a flag parameter whose default is ``False``/``None`` (the wrapper
  passes none), Ivy's type tests (``is_array``, ``is_native_array``, ``is_ivy_array``,
  ``is_ivy_container``, ``exists``), ``isinstance(v, (tuple, list))`` (the tuple
  scenario), ``a.dtype == b.dtype`` (the dtype scenario), ``a.shape == b.shape`` (the fate
  is for an ``out`` of the result's shape), ``v is None``; in the *plain* variant a test
  calling a function on ``out`` alone (``is_variable(x_native)``) is false: whether that
  variant applies is decided by the wrapper's gate (``rules/_out_fate.py``). Any other
  test takes both branches.

Every path ends in one outcome (:data:`COPIES`, :data:`REBINDS`, :data:`UNWRITTEN`, a call
of another module's update ``update:<name>:<result|out>``, or ``unknown:<line>:<statement>``
naming what could not be read); a function's answer is its paths' common outcome, or
unknown naming the first test whose branches disagree. Unknown is an answer: the rules then
name the defect and claim no consequence.

Assumptions, stated once: a call this model does not follow (another module's function, a
library function) does not rebind ``out``'s data (it is handed the Array to read or check
it), but a callable handed to such a call together with ``out`` may (the answer is then
unknown); an exception handler is not the normal path; a loop over ``out`` or the result
runs once per item, any other loop zero times or once.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from dataclasses import dataclass, field, replace

COPIES, REBINDS, UNWRITTEN, UNKNOWN, UPDATE = "copies", "rebinds", "unwritten", "unknown", "update"
"""Outcomes: written into ``out``'s buffer (dtype kept); ``out`` rebound (dtype and buffer
follow the result); left with its old values; not read (``unknown:<line>:<statement>``);
whatever ``name(out, value)`` of another module leaves (``update:<name>:<result|out>``, the
value of the result's dtype or cast to ``out``'s)."""

OUT, BUFFER, RESULT = "out", "buffer", "result"
NEW_OUT, NEW_RESULT = "new-out", "new-result"
"""New arrays of ``out``'s dtype and of the result's dtype."""
DTYPE_OUT, DTYPE_RESULT, DEVICE, FALSE = "dtype-out", "dtype-result", "device", "false"
_ARRAYS = frozenset({OUT, BUFFER, RESULT, NEW_OUT, NEW_RESULT})
_BUFFERS = frozenset({BUFFER, NEW_OUT, NEW_RESULT})
_SOURCES = frozenset({RESULT, NEW_RESULT, NEW_OUT})
_OUT_DTYPE = frozenset({OUT, BUFFER, NEW_OUT})
_IN_PLACE = frozenset({"copy_", "assign"})
_STORAGE = frozenset({"set_"})
_TYPE_TESTS = frozenset({"is_array", "is_native_array", "is_ivy_array", "is_ivy_container"})
_MAX_PATHS = 64
_MAX_STEPS = 1000
_MAX_DEPTH = 3


@dataclass(frozen=True)
class Scenario:
    """What the caller passes: an ``out`` of the result's dtype or of another, one array or
    a tuple, and whether tests of ``out`` alone (``is_variable``) are known false."""

    same_dtype: bool
    several: bool = False
    plain: bool = False


@dataclass(frozen=True)
class _Path:
    env: frozenset[tuple[str, str]] = frozenset()
    data: str = BUFFER
    data_at: str = ""
    written: frozenset[tuple[str, str]] = frozenset()
    native: bool = False
    unknown: str = ""
    returned: str = ""
    """A path that has returned: the returned value's tag (``"-"``: nothing followed)."""
    choices: tuple[tuple[ast.expr, bool], ...] = ()
    """The undecided tests this path took, with the branch (not part of :meth:`key`)."""

    def get(self, name: str) -> str:
        for key, tag in self.env:
            if key == name:
                return tag
        return ""

    def bind(self, name: str, tag: str) -> _Path:
        env = frozenset(item for item in self.env if item[0] != name)
        return replace(self, env=env | {(name, tag)} if tag else env)

    def key(self) -> tuple[object, ...]:
        return (self.env, self.data, self.written, self.native, self.unknown, self.returned)


class _TooMany(Exception):
    """More paths or steps than this model follows."""


@dataclass
class _Model:
    module: ast.Module
    scenario: Scenario
    wrapped: str = ""
    """The wrapper only: the name of the function it calls (``fn``)."""
    variable_tests: set[str] = field(default_factory=set)
    steps: int = 0
    stack: list[str] = field(default_factory=list)
    helpers: dict[str, ast.FunctionDef] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.helpers = {s.name: s for s in self.module.body if isinstance(s, ast.FunctionDef)}

    # Statements ---------------------------------------------------------------------------

    def run(self, body: list[ast.stmt], paths: list[_Path]) -> tuple[list[_Path], list[_Path]]:
        """(paths still running after ``body``, paths that returned in it)."""
        running: list[_Path] = paths
        done: list[_Path] = []
        for stmt in body:
            if not running:
                break
            after: list[_Path] = []
            for path in running:
                for new in self.statement(stmt, path):
                    (done if new.returned else after).append(new)
            running = _unique(after)
            if len(running) + len(done) > _MAX_PATHS:
                raise _TooMany
        return running, done

    def statement(self, stmt: ast.stmt, path: _Path) -> list[_Path]:
        self.steps += 1
        if self.steps > _MAX_STEPS:
            raise _TooMany
        if self.wrapped and _hands_buffer(stmt, self.wrapped):
            path = replace(path, native=True)
        if (
            isinstance(stmt, ast.Return | ast.Assign)
            and isinstance(stmt.value, ast.Call)
            and not _helper_name(stmt.value, self, path)
        ):
            path = self.call_effect(stmt.value, path)
        if isinstance(stmt, ast.Return):
            return [replace(p, returned=tag or "-") for p, tag in self.evaluate(stmt.value, path)]
        if isinstance(stmt, ast.Raise):
            return []
        if isinstance(stmt, ast.Assign | ast.AnnAssign) and stmt.value is not None:
            targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
            out = []
            for after, tag in self.evaluate(stmt.value, path):
                for target in targets:
                    after = self.store(target, stmt.value, tag, after)
                out.append(after)
            return out
        if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call):
            if _helper_name(stmt.value, self, path):
                return [p for p, _ in self.evaluate(stmt.value, path)]
            return [self.call_effect(stmt.value, path)]
        if isinstance(stmt, ast.If):
            return self.branch(stmt, path)
        if isinstance(stmt, ast.For | ast.AsyncFor | ast.While):
            return self.loop(stmt, path)
        if isinstance(stmt, ast.With | ast.AsyncWith):
            running, done = self.run(stmt.body, [path])
            return running + done
        if isinstance(stmt, ast.Try):
            running, done = self.run(stmt.body, [path])
            running, more = self.run(stmt.orelse, running)
            running, last = self.run(stmt.finalbody, running)
            return running + done + more + last
        if isinstance(stmt, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            return [path.bind(stmt.name, "")]
        return [path]

    def branch(self, stmt: ast.If, path: _Path) -> list[_Path]:
        decided = self.test(stmt.test, path)
        out: list[_Path] = []
        for taken in (True, False) if decided is None else (decided,):
            entry = path
            if decided is None:
                entry = replace(path, choices=(*path.choices, (stmt.test, taken)))
            running, done = self.run(stmt.body if taken else stmt.orelse, [entry])
            out += running + done
        return out

    def loop(self, stmt: ast.For | ast.AsyncFor | ast.While, path: _Path) -> list[_Path]:
        entry, items = path, False
        if isinstance(stmt, ast.For | ast.AsyncFor):
            items = any(self.value(n, path) in (OUT, RESULT) for n in _names(stmt.iter))
            entry = self.store(stmt.target, stmt.iter, self.item_of(stmt.iter, path), path)
        running, done = self.run(stmt.body, [entry])
        if not items:  # zero times too
            running.append(path)
        running, more = self.run(stmt.orelse, _unique(running))
        return running + done + more

    def item_of(self, over: ast.expr, path: _Path) -> str | list[str]:
        """An item of ``over``: ``zip(out, ret)`` pairs them, ``out`` gives an item."""
        if isinstance(over, ast.Call) and _last(over.func) == "zip":
            return [self.value(a, path) for a in over.args]
        tag = self.value(over, path)
        return tag if tag in (OUT, RESULT) and self.scenario.several else ""

    # Tests ----------------------------------------------------------------------------------

    def test(self, node: ast.expr, path: _Path) -> bool | None:
        """The test's truth on this path, ``None`` when this model cannot tell."""
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            inner = self.test(node.operand, path)
            return None if inner is None else not inner
        if isinstance(node, ast.BoolOp):
            values = [self.test(v, path) for v in node.values]
            deciding = isinstance(node.op, ast.Or)
            if deciding in values:
                return deciding
            return None if None in values else not deciding
        if isinstance(node, ast.Constant):
            return bool(node.value)
        if isinstance(node, ast.Name):
            tag = path.get(node.id)
            return False if tag == FALSE else True if tag in _ARRAYS else None
        if isinstance(node, ast.Compare) and len(node.ops) == 1:
            return self.compare(node.left, node.ops[0], node.comparators[0], path)
        if isinstance(node, ast.Call):
            return self.call_test(node, path)
        return None

    def compare(self, left: ast.expr, op: ast.cmpop, right: ast.expr, path: _Path) -> bool | None:
        if isinstance(op, ast.Is | ast.IsNot) and _is_none(right):
            if self.value(left, path) in _ARRAYS:
                return isinstance(op, ast.IsNot)
            return None
        if not isinstance(op, ast.Eq | ast.NotEq):
            return None
        sides = [self.value(left, path), self.value(right, path)]
        equal: bool | None = None
        if all(side in (DTYPE_OUT, DTYPE_RESULT) for side in sides):
            equal = self.scenario.same_dtype or sides[0] == sides[1]
        elif all(
            isinstance(s, ast.Attribute) and s.attr == "shape" and self.value(s.value, path)
            for s in (left, right)
        ):
            equal = True  # the fate is for an `out` of the result's shape
        if equal is None:
            return None
        return equal if isinstance(op, ast.Eq) else not equal

    def call_test(self, call: ast.Call, path: _Path) -> bool | None:
        name = _last(call.func)
        tags = [self.value(a, path) for a in call.args]
        first = tags[0] if tags else ""
        if name == "isinstance" and len(tags) == 2 and first in (OUT, RESULT):
            kinds = call.args[1]
            names = {_last(e) for e in (kinds.elts if isinstance(kinds, ast.Tuple) else [kinds])}
            return self.scenario.several if names <= {"tuple", "list"} else None
        if name in _TYPE_TESTS and first in _ARRAYS:
            if (self.scenario.several and first in (OUT, RESULT)) or name == "is_ivy_container":
                return False
            if name == "is_ivy_array":
                return first == OUT
            return first != OUT if name == "is_native_array" else True
        if name == "exists" and first in _ARRAYS:
            return True
        if len(tags) == 1 and first in (OUT, BUFFER) and name:
            self.variable_tests.add(name)
            return False if self.scenario.plain else None
        return None

    # Values ---------------------------------------------------------------------------------

    def evaluate(self, node: ast.expr | None, path: _Path) -> list[tuple[_Path, str]]:
        """(path, tag of ``node``'s value) after evaluating it: one pair, or one per path of
        a helper of this module run in place."""
        if node is None:
            return [(path, "")]
        name = _helper_name(node, self, path)
        if not name:
            return [(path, self.value(node, path))]
        assert isinstance(node, ast.Call)
        helper = self.helpers[name]
        params = helper.args
        entry = _Path(data=path.data, data_at=path.data_at, written=path.written)
        entry = replace(entry, native=path.native, unknown=path.unknown, choices=path.choices)
        for flag in off_flags(params):
            entry = entry.bind(flag, FALSE)
        positional = [a.arg for a in (*params.posonlyargs, *params.args)]
        for param, arg in zip(positional, node.args, strict=False):
            entry = entry.bind(param, self.value(arg, path))
        for keyword in node.keywords:
            if keyword.arg:
                entry = entry.bind(keyword.arg, self.value(keyword.value, path))
        self.stack.append(name)
        try:
            running, done = self.run(helper.body, [entry])
        finally:
            self.stack.pop()
        return [
            (replace(end, env=path.env, returned=""), end.returned.strip("-"))
            for end in running + done
        ]

    def value(self, node: ast.expr | None, path: _Path) -> str:
        """The tag of what ``node`` evaluates to (``""``: nothing followed)."""
        if isinstance(node, ast.Name):
            return path.get(node.id)
        if isinstance(node, ast.Constant):
            return FALSE if node.value is False or node.value is None else ""
        if isinstance(node, ast.Attribute):
            owner = self.value(node.value, path)
            if node.attr == "dtype":
                return _dtype_of(owner)
            if node.attr == "device":
                return DEVICE if owner in _ARRAYS else ""
            if node.attr in ("data", "_data") and owner == OUT:
                return path.data if path.data in _ARRAYS else ""
            return ""
        if isinstance(node, ast.Subscript):
            owner = self.value(node.value, path)
            return owner if owner in (OUT, RESULT) and self.scenario.several else ""
        if isinstance(node, ast.Call):
            return self.call_value(node, path)
        if isinstance(node, ast.IfExp):
            taken = self.test(node.test, path)
            if taken is None:
                body, other = self.value(node.body, path), self.value(node.orelse, path)
                return body if body == other else ""
            return self.value(node.body if taken else node.orelse, path)
        return ""

    def call_value(self, call: ast.Call, path: _Path) -> str:
        func, name = call.func, _last(call.func)
        args = [self.value(a, path) for a in call.args]
        if self.wrapped and isinstance(func, ast.Name) and func.id == self.wrapped:
            return RESULT  # the fate is for a function that ignored the buffer
        if name == "to_native" and args:
            return BUFFER if args[0] == OUT else args[0]
        if name == "dtype" and args:
            return _dtype_of(args[0])
        if isinstance(func, ast.Attribute) and name in ("astype", "to"):
            owner = self.value(func.value, path)
            if owner in _ARRAYS:
                return self.receiver(call, owner, path)
        if name == "astype" and len(args) >= 2:
            return _cast(args[0], args[1], _copy_false(call), self.scenario)
        if (
            isinstance(func, ast.Attribute)
            and sum(1 for a in args if a) == 1
            and args
            and args[0] in _ARRAYS - {OUT}
            and not any(k.arg == "dtype" for k in call.keywords)
        ):
            # a library function of one array (`np.ascontiguousarray(x)`): its dtype and
            # values, in the same buffer or a new one
            return NEW_OUT if args[0] in _OUT_DTYPE else args[0]
        return ""

    def receiver(self, call: ast.Call, owner: str, path: _Path) -> str:
        """``v.astype(d, ...)``, ``v.to(...)``: the receiver itself where known to be."""
        given = [self.value(a, path) for a in call.args] + [
            self.value(k.value, path) for k in call.keywords if k.arg in ("dtype", "device")
        ]
        dtypes = [g for g in given if g in (DTYPE_OUT, DTYPE_RESULT)]
        if _last(call.func) == "to":
            if dtypes:
                return _cast(owner, dtypes[0], True, self.scenario)
            if given and all(g == DEVICE for g in given):
                return owner  # `.to(val.device)`: the same device, the same tensor
            return ""
        return _cast(owner, dtypes[0], _copy_false(call), self.scenario) if dtypes else ""

    # Effects --------------------------------------------------------------------------------

    def store(self, target: ast.expr, value: ast.expr, tag: str | list[str], path: _Path) -> _Path:
        if isinstance(target, ast.Name):
            return path.bind(target.id, tag if isinstance(tag, str) else "")
        if isinstance(target, ast.Starred):
            return self.store(target.value, value, "", path)
        if isinstance(target, ast.Tuple | ast.List):
            items = tag if isinstance(tag, list) else self.items(value, len(target.elts), path)
            if items is None or len(items) != len(target.elts):
                for name in _names(target):
                    path = path.bind(name.id, "")
                return path
            sub_values = value.elts if isinstance(value, ast.Tuple | ast.List) else None
            for index, (sub, item) in enumerate(zip(target.elts, items, strict=True)):
                sub_value = sub_values[index] if sub_values else value
                path = self.store(sub, sub_value, item, path)
            return path
        written = tag if isinstance(tag, str) else ""
        owner = (
            self.value(target.value, path)
            if isinstance(target, ast.Attribute | ast.Subscript)
            else ""
        )
        if isinstance(target, ast.Attribute):
            if target.attr not in ("data", "_data"):
                return path  # another attribute (`x_native.copy_ = v` assigns, copies nothing)
            if owner == OUT:
                return replace(path, data=written, data_at=_where(target))
            if owner in _BUFFERS and written in _SOURCES:
                return _write(path, owner, "storage")  # a tensor's storage replaced
            return path
        if isinstance(target, ast.Subscript):
            if owner == OUT and not self.scenario.several:
                owner = path.data
            if owner not in _BUFFERS or written not in _SOURCES:
                return path
            if not whole_array(target.slice):
                return replace(path, unknown=path.unknown or _where(target))
            return _write(path, owner, "copy")
        return path

    def items(self, value: ast.expr, count: int, path: _Path) -> list[str | list[str]] | None:
        """The tags of the items a tuple target unpacks ``value`` into."""
        if isinstance(value, ast.Tuple | ast.List):
            return [self.value(e, path) for e in value.elts]
        if isinstance(value, ast.Call) and _last(value.func) == "args_to_native":
            converted = [
                BUFFER if t == OUT else t for t in (self.value(a, path) for a in value.args)
            ]
            return [converted, *([""] * (count - 1))]  # (natives), kwargs
        return None

    def call_effect(self, call: ast.Call, path: _Path) -> _Path:
        """A call whose value is unused: a write into a buffer, or an update of ``out``."""
        func, name = call.func, _last(call.func)
        args = [self.value(a, path) for a in call.args]
        if isinstance(func, ast.Attribute) and name in _IN_PLACE | _STORAGE:
            owner = self.value(func.value, path)
            if owner == OUT:
                owner = path.data
            if owner in _BUFFERS and any(a in _SOURCES for a in args):
                return _write(path, owner, "storage" if name in _STORAGE else "copy")
        sinks = [a for a in args if a in _BUFFERS]
        if len(sinks) == 1 and any(a in _SOURCES and a != sinks[0] for a in args):
            return _write(path, sinks[0], "copy")  # np.copyto(x_native, val_native)
        if self.wrapped and len(args) >= 2 and args[0] == OUT and args[1] in _SOURCES and name:
            dtype = "out" if args[1] == NEW_OUT else "result"
            return replace(path, data=f"{UPDATE}:{name}:{dtype}", data_at=_where(call))
        if any(isinstance(a, ast.Lambda) for a in call.args) and any(
            self.value(n, path) in (OUT, RESULT) for a in call.args for n in _names(a)
        ):
            return replace(path, unknown=path.unknown or _where(call))
        return path


# Entry points ---------------------------------------------------------------------------------


def update_fates(
    function: ast.FunctionDef | ast.AsyncFunctionDef, module: ast.Module
) -> tuple[dict[str, str], list[str]]:
    """What ``function(x, val)`` does to ``x`` (an Array ``out``) with ``val`` (the native
    result), by scenario ``same``/``other`` dtype, each also ``... plain``; and the
    functions its tests call on ``x`` alone (false in the plain variant)."""
    positional = [a.arg for a in (*function.args.posonlyargs, *function.args.args)]
    if len(positional) < 2:
        return {}, []
    fates: dict[str, str] = {}
    tests: set[str] = set()
    for plain in (False, True):
        for same in (True, False):
            model = _Model(module, Scenario(same, plain=plain))
            entry = _Path().bind(positional[0], OUT).bind(positional[1], RESULT)
            for flag in off_flags(function.args):
                entry = entry.bind(flag, FALSE)
            fates[_key(same, plain)] = _answer(model, function.body, entry, None)
            tests |= model.variable_tests
    return fates, sorted(tests)


def wrapper_fates(outer: ast.FunctionDef, module: ast.Module) -> dict[str, str]:
    """What the wrapper ``outer`` (``def handle_out_argument(fn)``) does to ``out``, by
    ``"<native|wrapper> <single|tuple> <same|other>"``: ``native`` for the path that hands
    the function the native buffer (the function then ignored it and returned a new
    result), ``wrapper`` for the other; a key is absent when no path reaches it."""
    inner = _inner_function(outer)
    if inner is None or not outer.args.args:
        return {}
    fates: dict[str, str] = {}
    for several in (False, True):
        for same in (True, False):
            for native in (True, False):
                model = _Model(module, Scenario(same, several, plain=True), outer.args.args[0].arg)
                params = [a.arg for a in (*inner.args.args, *inner.args.kwonlyargs)]
                entry = _Path().bind("out", OUT) if "out" in params else _Path()
                answer = _answer(model, inner.body, entry, native)
                if answer:
                    arity = "tuple" if several else "single"
                    fates[f"{'native' if native else 'wrapper'} {arity} {_key(same, False)}"] = (
                        answer
                    )
    return fates


def _key(same: bool, plain: bool) -> str:
    return ("same" if same else "other") + (" plain" if plain else "")


def _answer(model: _Model, body: list[ast.stmt], entry: _Path, native: bool | None) -> str:
    """The common outcome of the paths through ``body`` (those with ``native`` when given),
    ``unknown:...`` naming what could not be read, ``""`` when no path is left."""
    try:
        running, done = model.run(body, [entry])
    except (_TooMany, RecursionError):
        return f"{UNKNOWN}:{body[0].lineno if body else 0}:more paths than this model follows"
    paths = [p for p in running + done if native is None or p.native == native]
    if not paths:
        return ""
    outcomes = [_outcome(p) for p in paths]
    if len(set(outcomes)) == 1:
        return outcomes[0]
    first = paths[0]
    other = next(p for p, o in zip(paths, outcomes, strict=True) if o != outcomes[0])
    for mine, theirs in zip(first.choices, other.choices, strict=False):
        if mine != theirs:
            return f"{UNKNOWN}:{_where(mine[0])}"
    known = next((o for o in outcomes if o.startswith(UNKNOWN)), "")
    return known or f"{UNKNOWN}:{body[0].lineno}:paths end differently"


def _outcome(path: _Path) -> str:
    if path.unknown:
        return f"{UNKNOWN}:{path.unknown}"
    data = path.data
    if data.startswith(UPDATE):
        return data
    how = dict(path.written).get(data, "")
    if data == BUFFER:
        return {"copy": COPIES, "storage": REBINDS}.get(how, UNWRITTEN)
    if data == NEW_OUT and how:
        return COPIES if how == "copy" else REBINDS
    if data == RESULT or (data == NEW_RESULT and how):
        return REBINDS
    return f"{UNKNOWN}:{path.data_at or '0:`out`'}"


def _inner_function(outer: ast.FunctionDef) -> ast.FunctionDef | None:
    """The function ``outer`` returns (``return _handle_out_argument``)."""
    inner = {s.name: s for s in outer.body if isinstance(s, ast.FunctionDef)}
    for stmt in reversed(outer.body):
        if isinstance(stmt, ast.Return) and isinstance(stmt.value, ast.Name):
            return inner.get(stmt.value.id)
    return None


def maps_over_items(function: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """The function returns a call given a callable (a ``lambda`` or a local ``def``) and
    its first parameter (or a local made from it): it maps a test over a nest, and its
    value for a non-empty tuple is a non-empty nest of answers, true as a test (Ivy's
    ``_is_variable``: ``nested_map(lambda x: is_variable(x), x)``)."""
    positional = [a.arg for a in (*function.args.posonlyargs, *function.args.args)]
    if not positional:
        return False
    derived = {positional[0]}
    local = {s.name for s in function.body if isinstance(s, ast.FunctionDef)}
    for stmt in function.body:
        if isinstance(stmt, ast.Assign) and any(n.id in derived for n in _names(stmt.value)):
            derived |= {n.id for t in stmt.targets for n in _names(t)}
    last = function.body[-1] if function.body else None
    if not (isinstance(last, ast.Return) and isinstance(last.value, ast.Call)):
        return False
    given = [*last.value.args, *(k.value for k in last.value.keywords)]
    callable_given = any(
        isinstance(g, ast.Lambda) or (isinstance(g, ast.Name) and g.id in local) for g in given
    )
    return callable_given and any(isinstance(g, ast.Name) and g.id in derived for g in given)


# Small helpers --------------------------------------------------------------------------------


def _unique(paths: list[_Path]) -> list[_Path]:
    seen: dict[tuple[object, ...], _Path] = {}
    for path in paths:
        seen.setdefault(path.key(), path)
    return list(seen.values())


def _write(path: _Path, buffer: str, how: str) -> _Path:
    written = frozenset(item for item in path.written if item[0] != buffer)
    return replace(path, written=written | {(buffer, how)})


def _cast(owner: str, dtype: str, copy_false: bool, scenario: Scenario) -> str:
    """``astype(owner, dtype)``: the owner itself for ``copy=False`` of its own dtype."""
    if owner not in _ARRAYS or dtype not in (DTYPE_OUT, DTYPE_RESULT):
        return ""
    same = scenario.same_dtype or _dtype_of(owner) == dtype
    if copy_false and same:
        return owner
    return NEW_OUT if dtype == DTYPE_OUT else NEW_RESULT


def _dtype_of(tag: str) -> str:
    if tag in _OUT_DTYPE:
        return DTYPE_OUT
    return DTYPE_RESULT if tag in (RESULT, NEW_RESULT) else ""


def _copy_false(call: ast.Call) -> bool:
    return any(
        k.arg == "copy" and isinstance(k.value, ast.Constant) and k.value.value is False
        for k in call.keywords
    )


def whole_array(index: ast.expr) -> bool:
    """``()``, ``...`` or ``:``: a key that writes the whole array."""
    if isinstance(index, ast.Tuple):
        return not index.elts
    if isinstance(index, ast.Constant):
        return index.value is Ellipsis
    return isinstance(index, ast.Slice) and not (index.lower or index.upper or index.step)


def _is_none(node: ast.expr) -> bool:
    return isinstance(node, ast.Constant) and node.value is None


def _last(node: ast.expr) -> str:
    if isinstance(node, ast.Attribute):
        return node.attr
    return node.id if isinstance(node, ast.Name) else ""


def _names(node: ast.AST) -> Iterator[ast.Name]:
    return (n for n in ast.walk(node) if isinstance(n, ast.Name))


def _where(node: ast.AST) -> str:
    text = ast.unparse(node).replace("\n", " ")
    return f"{getattr(node, 'lineno', 0)}:{text if len(text) <= 80 else text[:77] + '...'}"


def _helper_name(node: ast.expr | None, model: _Model, path: _Path) -> str:
    """The helper of this module ``node`` calls, to be run in place: one given a value
    this model follows (``path``'s), not already running, within the depth."""
    if not (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id in model.helpers
        and node.func.id not in model.stack
        and len(model.stack) < _MAX_DEPTH
    ):
        return ""
    given = [*node.args, *(k.value for k in node.keywords)]
    if not any(model.value(g, path) for g in given):
        return ""  # nothing it is given leads to `out` or the result
    return node.func.id


def _hands_buffer(stmt: ast.stmt, wrapped: str) -> bool:
    """``stmt`` (not a block) calls ``wrapped(..., out=<not out, not None>)``."""
    if isinstance(stmt, ast.If | ast.For | ast.While | ast.With | ast.Try | ast.FunctionDef):
        return False
    return any(
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == wrapped
        and any(
            k.arg == "out"
            and not (isinstance(k.value, ast.Name) and k.value.id == "out")
            and not _is_none(k.value)
            for k in node.keywords
        )
        for node in ast.walk(stmt)
    )


def off_flags(args: ast.arguments) -> set[str]:
    """Parameters whose default is ``False`` or ``None``: branches on them are off."""
    pairs = [
        *zip(reversed([*args.posonlyargs, *args.args]), reversed(args.defaults), strict=False),
        *zip(args.kwonlyargs, args.kw_defaults, strict=True),
    ]
    return {
        a.arg
        for a, d in pairs
        if isinstance(d, ast.Constant) and (d.value is False or d.value is None)
    }
