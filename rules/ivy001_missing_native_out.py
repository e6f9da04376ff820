"""IVY001: a NumPy/PyTorch backend function forwards ``out`` natively but lacks the attribute."""

from __future__ import annotations

import ast
from typing import TYPE_CHECKING

import libcst as cst

from ivycheck.checker.rule_api import (
    AstFinding,
    Category,
    Example,
    FixSafety,
    ProjectIndex,
    Rule,
    Severity,
    nodes_of,
)
from ivycheck.rules import _fate_examples as shapes
from ivycheck.rules._api_functions import OutWrapping, out_wrapping
from ivycheck.rules._ast_facts import (
    FunctionNode,
    facts,
    parameter_names,
    positional_or_keyword,
    set_attribute_names,
)
from ivycheck.rules._ast_outflow import (
    PlainOutFlow,
    first_method_of_call_return,
    followed_outflow,
)
from ivycheck.rules._ast_return_paths import AstReturnPath, plain_return_paths
from ivycheck.rules._ast_source import Lines
from ivycheck.rules._native_out import accepts_native_out
from ivycheck.rules._out_fate import (
    COPIES,
    WOULD,
    OutFate,
    compose,
    converts_tuple_items,
    ignored_buffer_fate,
    path_fate,
    project_wrapper,
)
from ivycheck.rules._outflow import (
    FunctionOutFlow,
    ModuleOutFlow,
    method_of_native_result,
    module_outflow,
    takes_param,
)
from ivycheck.rules._return_paths import return_paths
from ivycheck.rules._several_results import several_results, several_results_on_ast
from ivycheck.rules._support_native_out import ATTRIBUTE
from ivycheck.rules._vocabulary import OUT, is_private_helper

if TYPE_CHECKING:
    from ivycheck.checker.core.rule import FileUnderCheck


class MissingNativeOut(Rule):
    """A backend function that writes ``out`` natively should say so.

    Ivy's ``handle_out_argument`` hands a backend function the native ``out`` buffer only if
    the function carries ``support_native_out``. Without it the wrapper calls the function
    *without* ``out``, so ``np.tan(x, out=out)`` runs with ``out=None``: the native path is
    dead code, the result is allocated in full, and the wrapper then copies it into ``out``
    with ``inplace_update``. Correct, but one full-size allocation and copy per call, on
    exactly the functions written to avoid them.

    The rule follows ``out`` into native NumPy/PyTorch functions that accept it (generated
    data, not a hand list): directly, through local aliases (``o = out``) and chains of them,
    through a dict passed as ``**kwargs`` (``kw = {"out": out}``), and through module-level
    helpers of the same file that forward their own ``out``; ufunc methods count
    (``np.minimum.accumulate(x, axis=a, out=out)``, ``np.add.reduce``). The attribute may be
    set as ``fn.support_native_out = True``, with ``setattr`` or in a loop over functions.
    The wrapper reads it when the functional-API counterpart has ``@handle_out_argument``
    or lists it in ``mixed_backend_wrappers["to_add"]`` (added at run time for a mixed
    function).

    Not flagged: private helpers (``_name``) and versioned implementations
    (``*_v_0p3p0_to_0p3p1``, ``*_v_1p2p0_and_above``), which the wrapper never sees (the
    attribute belongs on the public caller); JAX and TensorFlow (no native ``out``; see
    IVY004); functions whose functional-API counterpart has no ``@handle_out_argument``
    (``out`` is data there); a signature's own ``**kwargs`` passed on (``out`` may or may
    not be in it).

    The fix adds ``fn.support_native_out = True`` after the function, as Ivy writes it. It
    is unsafe (``--unsafe-fixes``): with the attribute the native function, not the
    wrapper's cast, decides what an ``out`` of another dtype gets, and some refuse one the
    wrapper would have cast (``torch.fft.ifft`` raises for a ``complex128`` ``out`` of a
    ``complex64`` result; NumPy ufuncs refuse an unsafe cast). So it is not offered where the
    project's wrapper, on its path without the attribute, casts the result into ``out``'s
    dtype (``inplace_update(out, astype(ret, dtype(out)))``, or an update that copies into
    ``out``'s buffer; Ivy's of 2023 do): there a call with an ``out`` of any dtype works
    today, and the fix would hand that buffer to the native function uncast, which refuses
    some of them (``torch.log2`` an integer ``out`` for a float result): a call that works
    would raise. The finding stays and says so. Without a wrapper in the project this is not
    assumed. It is offered only when every ``return`` of the function writes ``out`` (IVY003's test):
    with the attribute the wrapper stops writing ``out`` itself, so a path that returns
    without writing it (a default-``ord`` branch, a ``copy=False`` shortcut, a ``reverse``
    branch) would leave the buffer untouched and rebind ``out`` to a new array of another
    dtype. There the finding names the first such return and says to make it write ``out``
    (forward it, or ``inplace_update``) before adding the attribute; no fix is offered.

    No fix either where a return hands back a method of the native call's result
    (``np.quantile(..., out=out).astype(x.dtype)``, directly or in the same-file helper
    ``out`` goes through) and the backend's update rebinds ``out`` (see IVY002): with the
    attribute the wrapper would write that new array into ``out``, changing its dtype.

    A function with several results (``out`` or the result annotated as a tuple) gets no fix
    either when the project's wrapper hands a tuple ``out`` over without converting its
    items (Ivy's ``ivy.to_native(out)``, read from the tree's ``handle_out_argument``;
    the default without one): the attribute alone would not make the native path work
    (a native function refuses a tuple of wrapped arrays). With a wrapper that converts
    item by item (``to_native(out, nested=True)``) the fix is offered as usual. Where
    ``out`` itself is annotated as a tuple and the wrapper's gate is true for every tuple
    (it maps ``_is_variable`` over the nest), the wrapper never hands a tuple over: the
    finding says the attribute would have no effect, and offers no fix.
    """

    CODE = "IVY001"
    NAME = "missing-native-out"
    MESSAGE = "Function forwards `out` natively but lacks `support_native_out`; add `fn.support_native_out = True`"
    SEVERITY = Severity.WARNING
    CATEGORY = Category.PERFORMANCE
    FIX_SAFETY = FixSafety.UNSAFE
    PARTS = frozenset({"backend:numpy", "backend:torch"})
    TRIGGERS = ("out",)
    NEEDS_INDEX = True
    # VALID and INVALID: the examples at the end of this module.

    @classmethod
    def may_find(cls, tree: ast.Module, file: FileUnderCheck) -> bool:
        """Whether a public module-level function taking ``out``, without the attribute
        and wrapped (by its API counterpart), gives a native function that accepts ``out``
        an ``out=`` or ``**kwargs`` itself, or calls a function of the file while the file
        has such a call: the check below with the out-flow (aliases, dicts, helpers) left
        out."""
        found = facts(tree)
        imports = found.any_scope_imports
        native_calls = {
            id(call)
            for keyword in ("out", None)  # out= or **kwargs
            for call, _, _ in found.keyword_calls(keyword)
            if any(accepts_native_out(q) for q in imports.qualify(call.func))
        }
        if not native_calls:
            return False
        functions = found.top_level_functions()
        defined = {f.name for f in functions}
        surely_set = set_attribute_names(tree, ATTRIBUTE)
        for function in functions:
            name = function.name
            if is_private_helper(name) or name in surely_set:
                continue
            if "out" not in parameter_names(function):
                continue
            own = found.calls_within(function)
            if not any(id(c) in native_calls for c in own) and not any(
                isinstance(c.func, ast.Name) and c.func.id in defined for c in own
            ):
                continue
            # Other files last: a file with no candidate is decided before the index exists.
            if out_wrapping(file.index, name) is not OutWrapping.NOT_WRAPPED:
                return True
        return False

    @classmethod
    def find_on_ast(cls, tree: ast.Module, file: FileUnderCheck) -> list[AstFinding] | None:
        """The check below where every candidate function's flow is decided on CPython's
        tree (:func:`ivycheck.rules._ast_outflow.followed_outflow`: ``out`` given as
        ``out=``, tested, read, or handed to a same-file helper decided alike) and its
        returns are walked there (:mod:`ivycheck.rules._ast_return_paths`); the blockers
        read as the libcst check reads them (a dropping return, a method of the native
        result where the backend's update rebinds ``out``, a tuple ``out``). ``None`` for
        any other candidate."""
        found = facts(tree)
        functions = [s for s in tree.body if isinstance(s, ast.FunctionDef | ast.AsyncFunctionDef)]
        by_name = {f.name: f for f in functions}
        if len(by_name) != len(functions):
            return None  # a name defined twice: libcst's check judges the last definition
        surely_set = set_attribute_names(tree, ATTRIBUTE)
        maybe_set = found.attribute_sites(ATTRIBUTE)
        lines = Lines(file.source)
        backend = file.part.removeprefix("backend:")
        findings: list[AstFinding] = []
        for function in functions:
            name = function.name
            if is_private_helper(name) or name in surely_set:
                continue
            if name in maybe_set:
                return None  # set in a block or a loop: libcst's attribute sites decide
            if OUT not in positional_or_keyword(function):
                continue
            if out_wrapping(file.index, name) is OutWrapping.NOT_WRAPPED:
                continue
            flow = followed_outflow(
                function, found.import_map, file.config.runtime_modules, by_name
            )
            if flow is None:
                return None
            if not flow.native:
                continue
            start = lines.name_column(function)
            if start is None:
                return None
            # One return, the last statement, writing `out` natively: its one path, written
            # (what the walk finds, without walking the function again).
            paths = (
                [AstReturnPath(flow.returns[0], True)]
                if flow.every_return_written
                else plain_return_paths(flow)
            )
            if paths is None:
                return None
            found_text = _forwards(name, flow.native[0].describe())
            blocker = _blocker_on_ast(flow, paths, by_name, file, backend, lines)
            if blocker is _UNDECIDED:
                return None
            span = (function.lineno, start, function.lineno, start + len(name))
            if isinstance(blocker, str):
                findings.append(AstFinding(*span, f"{found_text}; {blocker}"))
            else:
                findings.append(AstFinding(*span, _with_advice(found_text, name), FIX_DESCRIPTION))
        return findings

    def visit_Module(self, node: cst.Module) -> None:
        flow = module_outflow(self.context)
        comment: str | None = None  # the file's, looked up once: a fix per function
        for function in flow.functions.values():
            name = function.name.value
            if is_private_helper(name) or name in flow.attributes or not takes_param(function):
                continue
            if out_wrapping(self.context.index, name) is OutWrapping.NOT_WRAPPED:
                continue  # no wrapper reads the attribute: `out` is data here
            analysis = flow.analyse(function)
            if not analysis.native_uses:
                continue
            found = _forwards(name, analysis.native_uses[0].describe())
            blocker = self._not_ready_for_the_attribute(flow, analysis)
            if blocker is not None:
                self.report(function.name, f"{found}; {blocker}")
                continue
            if comment is None:
                comment = self._comment(flow)
            line = cst.parse_statement(f"{name}.{ATTRIBUTE} = True{comment}\n")
            line = line.with_changes(leading_lines=[cst.EmptyLine(), cst.EmptyLine()])
            self.report(
                function.name,
                _with_advice(found, name),
                replacement=cst.FlattenSentinel([function, line]),
                fix_description=FIX_DESCRIPTION,
                fix_target=function,
            )

    def _not_ready_for_the_attribute(
        self, flow: ModuleOutFlow, analysis: FunctionOutFlow
    ) -> str | None:
        """Why adding the attribute alone would break the function (the end of the message,
        no fix offered), or ``None`` when the fix is safe to offer."""
        function = analysis.function
        name = function.name.value
        dropping = next((path for path in return_paths(analysis) if not path.covered), None)
        if dropping is not None:
            return _dropping_blocker(name, self.context.start_line(dropping.node))
        fate = ignored_buffer_fate(self.context.index, self.context.backend)
        helpers = [flow.functions.get(use.via or "") for use in analysis.native_uses]
        chained = next(
            (
                found_return
                for candidate in (function, *helpers)
                if candidate is not None
                for found_return in [_returns_a_method_of_the_native_result(candidate)]
                if found_return is not None
            ),
            None,
        )
        if chained is not None and fate.kind != COPIES:
            return _chained_blocker(self.context.start_line(chained), fate)
        if several_results(function):
            tuple_out = several_results(function, out_only=True)
            return _several_blocker(self.context.index, self.context.backend or "", tuple_out)
        described = analysis.native_uses[0].describe()
        return _cast_blocker(self.context.index, self.context.backend or "", name, described)

    @staticmethod
    def _comment(flow: ModuleOutFlow) -> str:
        """The trailing comment the file already puts on its attributes (``# type: ignore``)."""
        for sites in flow.attributes.values():
            for site in sites:
                statement = site.statement
                if isinstance(statement, cst.SimpleStatementLine):
                    comment = statement.trailing_whitespace.comment
                    if comment is not None and "type: ignore" in comment.value:
                        return f"  {comment.value}"
        return ""


FIX_DESCRIPTION = "Add `support_native_out = True` after the function"


def _dropping_blocker(name: str, line_number: int) -> str:
    return (
        f"the return on line {line_number} never writes `out`, so make every return "
        "write it (forward `out` or `inplace_update`) before adding "
        f"`{name}.support_native_out = True`"
    )


def _chained_blocker(line_number: int, fate: OutFate) -> str:
    return compose(
        f"but the return on line {line_number} hands back a method of the native "
        "call's result (a new array)",
        ", and with the attribute ",
        fate,
        ": return what the native call wrote before adding the attribute",
        WOULD,
    )


_SEVERAL_BLOCKER = (
    "`out` holds several results here, and the wrapper hands a tuple `out` over "
    "without converting its items (`to_native` without `nested`), so the "
    "attribute alone does not make this native path work: convert the items (or "
    "write each with `inplace_update`) first"
)


def _several_blocker(index: ProjectIndex, backend: str, tuple_out: bool | None) -> str | None:
    """Why the attribute alone would not make a tuple ``out``'s native path work, if it
    would not: the wrapper never hands a tuple over (its gate is true for every tuple; said
    where ``out`` itself is annotated as a tuple, ``tuple_out``), or hands it over with its
    items still wrapped."""
    fate = ignored_buffer_fate(index, backend, several=True)
    if fate.never_handed and tuple_out:
        return f"`out` holds several results here, and {fate.clause()}"
    return None if converts_tuple_items(index) else _SEVERAL_BLOCKER


def wrapper_casts_to_out(index: ProjectIndex, backend: str) -> bool:
    """Whether the project's ``handle_out_argument``, on its path without the attribute,
    casts the result into ``out``'s dtype (``inplace_update(out, astype(ret, dtype(out)))``,
    or a backend update that copies into ``out``'s buffer).

    There a call with an ``out`` of any dtype works without the attribute, while with it
    ``out``'s buffer goes to the native function as it is, and a native ``out=`` refuses
    dtypes the cast accepts (``torch.fft.ifft`` any but the result's; a NumPy ufunc another
    kind): the attribute can make a working call raise (``make verify-fixes --unsafe``,
    PyTorch ``ifft`` on ivy-975c8fc). Read only from a wrapper of the project: without one
    the documented default is not taken as a reason to withhold the fix."""
    found = project_wrapper(index)
    if found is None:
        return False
    outcome = found[1].fates.get("wrapper single other", "")
    if outcome.startswith("update:") and outcome.endswith(":out"):
        return True
    return path_fate(index, backend, "wrapper", False, same_dtype=False).kind == COPIES


def _cast_blocker(index: ProjectIndex, backend: str, name: str, described: str) -> str | None:
    """Why the unsafe fix is withheld where the wrapper casts (:func:`wrapper_casts_to_out`):
    the one text both checks give."""
    if not wrapper_casts_to_out(index, backend):
        return None
    return (
        f"adding `{name}.support_native_out = True` would hand `out`'s buffer to {described} "
        "uncast, where the project's `handle_out_argument` now casts the result into `out`'s "
        "dtype, and a native `out=` refuses some dtypes that cast accepts: a call that works now could "
        f"raise, so no fix is offered (add it where callers pass only `out` dtypes "
        f"{described} takes)"
    )


def _forwards(name: str, described: str) -> str:
    return (
        f"`{name}` forwards `out` natively to {described} but lacks `support_native_out`, "
        "so the wrapper never passes `out` (dead native path, extra allocation)"
    )


def _with_advice(found: str, name: str) -> str:
    return f"{found}; add `{name}.support_native_out = True`"


class _Undecided:
    """A blocker CPython's tree cannot tell exactly."""


_UNDECIDED = _Undecided()


def _blocker_on_ast(
    flow: PlainOutFlow,
    paths: list[AstReturnPath],
    functions: dict[str, FunctionNode],
    file: FileUnderCheck,
    backend: str,
    lines: Lines,
) -> str | _Undecided | None:
    """``MissingNativeOut._not_ready_for_the_attribute`` for a flow decided on CPython's
    tree: the same blockers in the same order, with the same lines."""
    function = flow.function
    name = function.name
    dropping = next((path for path in paths if not path.covered), None)
    if dropping is not None:
        return _dropping_blocker(name, dropping.node.lineno)
    fate = ignored_buffer_fate(file.index, backend)
    candidates = [function] + [functions[use.via] for use in flow.native if use.via]
    chained = next(
        (found for c in candidates for found in [first_method_of_call_return(c)] if found),
        None,
    )
    if chained is not None and fate.kind != COPIES:
        return _chained_blocker(chained.lineno, fate)
    several = several_results_on_ast(function, lines)
    if several is None:
        return _UNDECIDED
    if several:
        tuple_out = several_results_on_ast(function, lines, out_only=True)
        if tuple_out is None:
            return _UNDECIDED
        return _several_blocker(file.index, backend, tuple_out)
    return _cast_blocker(file.index, backend, name, flow.native[0].describe())


def _returns_a_method_of_the_native_result(function: cst.FunctionDef) -> cst.Return | None:
    """A ``return`` of ``native(..., out=out).method(...)`` (``np.quantile(a, q,
    out=out).astype(x.dtype)``): the value returned is not the buffer written."""
    return next(
        (r for r in nodes_of(function.body, cst.Return) if method_of_native_result(r.value)),
        None,
    )


# Examples: each is a test (tests/rules/test_examples.py) and is shown by --explain.

NP = "ivy/functional/backends/numpy/example.py"
TORCH = "ivy/functional/backends/torch/example.py"
JAX = "ivy/functional/backends/jax/example.py"
API = "ivy/functional/ivy/example.py"

_SPLIT = """
    import numpy as np


    def split_exponent(x, /, *, out: Optional[Tuple[np.ndarray, np.ndarray]] = None):
        return np.frexp(x, out=out)
    """
"""A function with two results: its ``out`` is a tuple of arrays."""

_WRAPPER_PER_ITEM = """
    def handle_out_argument(fn):
        def _wrapped(*args, out=None, **kwargs):
            if out is None:
                return fn(*args, **kwargs)
            buffer = to_native(out, nested=True)
            ret = fn(*args, out=buffer, **kwargs)
            inplace_update(out, ret)
            return out

        return _wrapped
    """
"""A wrapper that converts a tuple ``out`` item by item before handing it over."""


MissingNativeOut.VALID = (
    Example(
        """
        import numpy as np


        def tan(x, /, *, out=None):
            return np.tan(x, out=out)


        tan.support_native_out = True
        """,
        path=NP,
    ),
    Example(
        """
        from torch import tan as ttan


        def tan(x, /, *, out=None):
            return ttan(x, out=out).to(x.dtype)


        setattr(tan, "support_native_out", True)
        """,
        path=TORCH,
    ),
    Example(
        """
        import numpy as np


        def tan(x, /, *, out=None):
            return np.tan(x, out=out)


        def sin(x, /, *, out=None):
            o = out
            return np.sin(x, out=o)


        for fn in (tan, sin):
            fn.support_native_out = True
        """,
        path=NP,
    ),
    Example(
        """
        import numpy as np


        def _tan_helper(x, out=None):
            return np.tan(x, out=out)


        def tan_v_0p3p0_to_0p3p1(x, /, *, out=None):
            return np.tan(x, out=out)


        def tan(x, /, *, out=None):
            return _tan_helper(x, out=out)


        tan.support_native_out = True
        """,
        path=NP,
    ),
    Example(
        """
        import jax.numpy as jnp


        def tan(x, /, *, out=None):
            return jnp.tan(x, out=out)
        """,
        path=JAX,
    ),
    Example(
        """
        import ivy
        import numpy as np


        def cholesky(x, /, *, out=None):
            ret = np.linalg.cholesky(x)
            if ivy.exists(out):
                return ivy.inplace_update(out, ret)
            return ret
        """,
        path=NP,
    ),
    Example(
        """
        import numpy as np


        def tan(x, **kwargs):
            return np.tan(x, **kwargs)
        """,
        path=NP,
    ),
    Example(
        """
        import numpy as np


        def tan(x, /, *, out=None):
            return np.tan(x, out=out)
        """,
        path=API,
    ),
    Example(
        """
        import numpy as np


        def scatter_nd(x, updates, *, out=None):
            return np.add(x, updates, out=out)
        """,
        path=NP,
        files={
            API: """
            @to_native_arrays_and_back
            def scatter_nd(x, updates, *, out=None):
                ...
            """,
        },
    ),
    Example(
        """
        def tan(x, /, *, out=None):
            return x.tan(out=out)
        """,
        path=TORCH,
    ),
    Example(
        """
        import numpy as np


        def tan(x, /, *, out=None):
            return np.tan(x, out=out)


        tan.support_native_out = False
        """,
        path=NP,
    ),
    Example(
        """
        import ivy
        import numpy as np


        def transpose(x, /, *, out=None):
            ret = np.transpose(x)
            return ivy.inplace_update(out, ret)
        """,
        path=NP,
    ),
    Example(
        """
        import numpy as np


        def tan(x, /, *, out=None):
            return np.tan(x, out=None)
        """,
        path=NP,
    ),
)
_INVERSE_TRANSFORM = """
    import torch


    def inverse_transform(x, /, *, n=None, out=None):
        return torch.fft.ifft(x, n, out=out)
    """
"""A function whose native call refuses an ``out`` of another dtype than its result's."""

_WRAPPER_CASTS_WITHOUT_ATTRIBUTE = """
    def handle_out_argument(fn):
        native = hasattr(fn, "support_native_out")

        def _wrapped(*args, out=None, **kwargs):
            if out is None:
                return fn(*args, **kwargs)
            if native:
                ret = fn(*args, out=to_native(out), **kwargs)
                inplace_update(out, ret)
                return out
            ret = fn(*args, **kwargs)
            return inplace_update(out, astype(ret, dtype(out)))

        return _wrapped
    """
"""Without the attribute, casts the result into ``out``'s dtype: an ``out`` of any dtype
works; with it, ``out``'s buffer goes to the native function uncast."""

_WRAPPER_REBINDS_WITHOUT_ATTRIBUTE = """
    def handle_out_argument(fn):
        native = hasattr(fn, "support_native_out")

        def _wrapped(*args, out=None, **kwargs):
            if out is None:
                return fn(*args, **kwargs)
            if native:
                ret = fn(*args, out=to_native(out), **kwargs)
            else:
                ret = fn(*args, **kwargs)
            out.data = to_native(ret)
            return out

        return _wrapped
    """
"""Without the attribute, rebinds ``out`` to the result (no cast into ``out``'s dtype)."""


MissingNativeOut.INVALID = (
    Example(
        """
        import numpy as np


        def percentile(a, q, /, *, out=None):
            return np.percentile(a, q, out=out).astype(a.dtype)
        """,
        path=NP,
        message="hands back a method of the native call's result (a new array)",
        line=4,
        column=5,
    ),
    Example(
        _SPLIT,
        path=NP,
        message="the wrapper hands a tuple `out` over without converting its items",
        line=4,
        column=5,
    ),
    Example(
        _SPLIT,
        path=NP,
        files={"ivy/func_wrapper.py": _WRAPPER_PER_ITEM},
        expected="""
        import numpy as np


        def split_exponent(x, /, *, out: Optional[Tuple[np.ndarray, np.ndarray]] = None):
            return np.frexp(x, out=out)


        split_exponent.support_native_out = True
        """,
    ),
    Example(
        """
        import numpy as np


        def tan(x, /, *, out=None):
            return np.tan(x, out=out)
        """,
        path=NP,
        expected="""
        import numpy as np


        def tan(x, /, *, out=None):
            return np.tan(x, out=out)


        tan.support_native_out = True
        """,
        message="add `tan.support_native_out = True`",
        line=4,
        column=5,
    ),
    Example(
        """
        import numpy


        def tan(x, /, *, out=None):
            o = out
            return numpy.tan(x, out=o)


        def sin(x, /, *, out=None):
            return numpy.sin(x)
        """,
        path=NP,
        expected="""
        import numpy


        def tan(x, /, *, out=None):
            o = out
            return numpy.tan(x, out=o)


        tan.support_native_out = True


        def sin(x, /, *, out=None):
            return numpy.sin(x)
        """,
    ),
    Example(
        """
        from torch import tan as ttan


        def tan(x, *, dtype=None, out=None):
            b = a
            a = out
            return ttan(x, out=b).to(dtype)
        """,
        path=TORCH,
        expected="""
        from torch import tan as ttan


        def tan(x, *, dtype=None, out=None):
            b = a
            a = out
            return ttan(x, out=b).to(dtype)


        tan.support_native_out = True
        """,
    ),
    Example(
        """
        import torch


        def matmul(x1, x2, /, *, out=None):
            kw = {"out": out}
            return torch.matmul(x1, x2, **kw)
        """,
        path=TORCH,
    ),
    Example(
        """
        import numpy as np


        def _tan_helper(x, out=None):
            return np.tan(x, out=out)


        def tan(x, /, *, out=None):
            return _tan_helper(x, out=out)
        """,
        path=NP,
        expected="""
        import numpy as np


        def _tan_helper(x, out=None):
            return np.tan(x, out=out)


        def tan(x, /, *, out=None):
            return _tan_helper(x, out=out)


        tan.support_native_out = True
        """,
        message="forwards `out` natively to `_tan_helper` -> `numpy.tan`",
        line=8,
        column=5,
    ),
    Example(
        """
        import torch


        def solve(x1, x2, /, *, adjoint=False, out=None):
            if adjoint:
                x1 = x1.mT
            return torch.linalg.solve(x1, x2, out=out)


        solve.other = 1
        """,
        path=TORCH,
        expected="""
        import torch


        def solve(x1, x2, /, *, adjoint=False, out=None):
            if adjoint:
                x1 = x1.mT
            return torch.linalg.solve(x1, x2, out=out)


        solve.support_native_out = True


        solve.other = 1
        """,
    ),
    Example(
        """
        import numpy as np


        def sin(x, /, *, out=None):
            return np.sin(x, out=out)


        sin.support_native_out = True  # type: ignore[attr-defined]


        def cos(x, /, *, out=None):
            return np.cos(x, out=out)
        """,
        path=NP,
        expected="""
        import numpy as np


        def sin(x, /, *, out=None):
            return np.sin(x, out=out)


        sin.support_native_out = True  # type: ignore[attr-defined]


        def cos(x, /, *, out=None):
            return np.cos(x, out=out)


        cos.support_native_out = True  # type: ignore[attr-defined]
        """,
        message="`cos` forwards `out` natively to `numpy.cos`",
        line=11,
        column=5,
    ),
    Example(
        """
        import numpy as np


        def scatter_flat(x, updates, *, out=None):
            return np.add(x, updates, out=out)
        """,
        path=NP,
        files={
            API: """
            @handle_out_argument
            def scatter_flat(x, updates, *, out=None):
                ...
            """,
        },
    ),
    Example(
        """
        import numpy as np


        def cummin(x, /, *, axis=0, dtype=None, out=None):
            return np.minimum.accumulate(x, axis=axis, dtype=dtype, out=out)
        """,
        path=NP,
        expected="""
        import numpy as np


        def cummin(x, /, *, axis=0, dtype=None, out=None):
            return np.minimum.accumulate(x, axis=axis, dtype=dtype, out=out)


        cummin.support_native_out = True
        """,
    ),
    Example(
        """
        import torch


        def put_along_axis(arr, indices, values, axis, /, *, mode="replace", out=None):
            if mode == "replace":
                return torch.scatter(arr, axis, indices, values, out=out)
            return torch.scatter_reduce(arr, axis, indices, values, reduce=mode, out=out)
        """,
        path=TORCH,
        files={
            API: """
            @handle_exceptions
            def put_along_axis(arr, indices, values, axis, /, *, mode="replace", out=None):
                return ivy.current_backend(arr).put_along_axis(
                    arr, indices, values, axis, mode=mode, out=out
                )


            put_along_axis.mixed_backend_wrappers = {
                "to_add": ("handle_out_argument", "inputs_to_native_arrays"),
                "to_skip": ("inputs_to_ivy_arrays",),
            }
            """,
        },
    ),
    Example(
        """
        import numpy as np


        def cummin(x, /, *, axis=0, reverse=False, out=None):
            if reverse:
                return np.flip(np.minimum.accumulate(np.flip(x, axis), axis=axis), axis)
            return np.minimum.accumulate(x, axis=axis, out=out)
        """,
        path=NP,
        message="the return on line 6 never writes `out`",
        line=4,
        column=5,
    ),
    Example(
        """
        import torch


        def vector_norm(x, /, *, ord=2, out=None):
            if ord == 2:
                return torch.sqrt(torch.sum(x * x))
            return torch.linalg.vector_norm(x, ord, out=out)
        """,
        path=TORCH,
    ),
    Example(
        _SPLIT,
        path=NP,
        files=shapes.GATED_PROJECT,
        message=(
            "the wrapper never hands a tuple `out` over (its `is_frozen(out)` is true for "
            "every tuple), so the attribute has no effect here"
        ),
        line=4,
        column=5,
    ),
    Example(
        """
        import torch


        def ifft(x, /, *, out=None):
            return torch.fft.ifft(x, out=out).to(x.dtype)
        """,
        path=TORCH,
        files=shapes.GATED_PROJECT,
        message=(
            "adding `ifft.support_native_out = True` would hand `out`'s buffer to "
            "`torch.fft.ifft` uncast, where the project's `handle_out_argument` now casts the "
            "result into `out`'s dtype, and a native `out=` refuses some dtypes that cast "
            "accepts: a call that works now could raise, so no fix is offered (add it where "
            "callers pass only `out` dtypes `torch.fft.ifft` takes)"
        ),
        line=4,
        column=5,
    ),
    Example(
        _INVERSE_TRANSFORM,
        path=TORCH,
        files={"ivy/func_wrapper.py": _WRAPPER_CASTS_WITHOUT_ATTRIBUTE},
        message="uncast, where the project's `handle_out_argument` now casts the result",
        line=4,
        column=5,
    ),
    Example(
        _INVERSE_TRANSFORM,
        path=TORCH,
        files={"ivy/func_wrapper.py": _WRAPPER_REBINDS_WITHOUT_ATTRIBUTE},
        expected=_INVERSE_TRANSFORM + "\n\n    inverse_transform.support_native_out = True\n",
    ),
    Example(
        """
        import torch


        def ifft(x, /, *, out=None):
            return torch.fft.ifft(x, out=out).to(x.dtype)
        """,
        path=TORCH,
        files={**shapes.GATED_PROJECT, shapes.TORCH_GENERAL: shapes.UPDATE_UNREAD},
        message=(
            "hands back a method of the native call's result (a new array): return what the "
            "native call wrote before adding the attribute"
        ),
    ),
)
