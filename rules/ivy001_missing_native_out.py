"""IVY001: a NumPy/PyTorch backend function forwards ``out`` natively but lacks the attribute."""

from __future__ import annotations

import ast
import textwrap
from collections.abc import Iterator

from ivycheck.checker.rule_api import (
    Category,
    Edit,
    Example,
    FileUnderCheck,
    Finding,
    FixSafety,
    Rule,
    Severity,
)
from ivycheck.rules import _fate_examples as shapes
from ivycheck.rules._ast_facts import facts, positional_or_keyword
from ivycheck.rules._ast_native_out_sites import (
    native_out_sites,
    type_ignore_comment,
)
from ivycheck.rules._ast_out_analysis import ModuleFlows
from ivycheck.rules._ast_source import Lines
from ivycheck.rules._native_out_readiness import AttributeReadiness, forwards, with_advice
from ivycheck.rules._text_fixes import (
    attribute_with_libcst,
    line_after_function,
    statement_through_next,
)
from ivycheck.rules._vocabulary import (
    ATTRIBUTE,
    OUT,
    OutWrapping,
    is_private_helper,
    out_wrapping,
)

FIX_DESCRIPTION = "Add `support_native_out = True` after the function"


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
    def check(cls, tree: ast.Module, file: FileUnderCheck) -> Iterator[Finding]:
        """Each public module-level function (the last definition of its name) that takes
        ``out``, lacks the attribute, is wrapped by ``handle_out_argument`` (or may be: its
        API counterpart is unknown) and forwards ``out`` to a native function that
        accepts it: reported at its name, with the fix or the reason there is none."""
        lines = Lines(file.source)
        flows = ModuleFlows(tree, lines, facts(tree).import_map, file.config.runtime_modules)
        attributed = {site.function for site in native_out_sites(tree, lines)}
        readiness = AttributeReadiness(flows, file, lines)
        places: dict[int, int] | None = None  # id of a module-level statement -> its index
        for name, function in flows.functions.items():  # (a node skipped by name: not read)
            if name in attributed or is_private_helper(name):
                continue
            if OUT not in positional_or_keyword(function):
                continue
            if out_wrapping(file.index, name) is OutWrapping.NOT_WRAPPED:
                continue  # no wrapper reads the attribute: `out` is data here
            flow = flows.analyse(function)
            native = flow.native
            if not native:
                continue
            found = forwards(name, native[0].describe())
            line, column = lines.name_position(function)
            span = (line, column, line, column + len(name))
            blocker = readiness.blocker(flow)
            if blocker is not None:
                yield Finding(*span, f"{found}; {blocker}")
            else:
                if places is None:
                    places = {id(statement): i for i, statement in enumerate(tree.body)}
                message = with_advice(found, name)
                place = places[id(function)]  # (``flows.functions`` are ``tree.body``'s)
                yield Finding(
                    *span, message, FIX_DESCRIPTION, fix_data=(name, (line, column), place)
                )

    @classmethod
    def fix(cls, finding: Finding, file: FileUnderCheck) -> Edit | None:
        """``name.support_native_out = True`` after the function, two blank lines before
        it, with the trailing comment the file's own attribute lines carry (``# type:
        ignore[attr-defined]``). The check hands over the function's index in
        ``tree.body``: a fix is rendered right after its check, on the same file and tree
        (``engine.check_file``; a later edit is checked again), so the index names the
        same statement, and a fix per function of a large file looks nothing up."""
        name, at, index = finding.fix_data
        lines = Lines(file.source)
        added = f"{name}.{ATTRIBUTE} = True{type_ignore_comment(file.tree, lines)}\n"
        span = statement_through_next(file.tree, index, len(lines.lines))
        function = file.tree.body[index]
        if isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef) and function.name == name:
            edit = line_after_function(file.source, file.tree, index, span, added)
            if edit is not None:
                return edit
        return attribute_with_libcst(file.source, span, at, added)


# Examples: each is a test (tests/rules/test_examples.py) and is shown by --explain.

NP = "ivy/functional/backends/numpy/example.py"
TORCH = "ivy/functional/backends/torch/example.py"
API = "ivy/functional/ivy/example.py"
_NUMPY = "import numpy as np\n\n\n"
_TORCH = "import torch\n\n\n"


def _fixed(code: str, name: str, comment: str = "") -> str:
    """``code`` (an example's, without its preamble) as the fix leaves it."""
    return (
        textwrap.dedent(code.removeprefix("\n"))
        + f"\n\n{name}.support_native_out = True{comment}\n"
    )


_TAN = """
    def tan(x, /, *, out=None):
        return np.tan(x, out=out)
    """
"""The plain shape: ``out`` forwarded to a NumPy function that takes it."""

_SPLIT = """
    def split_exponent(x, /, *, out: Optional[Tuple[np.ndarray, np.ndarray]] = None):
        return np.frexp(x, out=out)
    """
"""A function with two results: its ``out`` is a tuple of arrays."""

_IFFT = """
    def ifft(x, /, *, out=None):
        return torch.fft.ifft(x, out=out).to(x.dtype)
    """

_INVERSE_TRANSFORM = """
    def inverse_transform(x, /, *, n=None, out=None):
        return torch.fft.ifft(x, n, out=out)
    """
"""A function whose native call refuses an ``out`` of another dtype than its result's."""


def _wrapper(without_attribute: str, buffer: str = "to_native(out)") -> dict[str, str]:
    """A project whose wrapper hands ``buffer`` over and ends its path without the
    attribute with ``without_attribute``."""
    return {
        shapes.WRAPPER: f"""
        def handle_out_argument(fn):
            native = hasattr(fn, "support_native_out")

            def _wrapped(*args, out=None, **kwargs):
                if out is None:
                    return fn(*args, **kwargs)
                if native:
                    ret = fn(*args, out={buffer}, **kwargs)
                    inplace_update(out, ret)
                    return out
                ret = fn(*args, **kwargs)
                {without_attribute}

            return _wrapped
        """
    }


_CASTS = _wrapper("return inplace_update(out, astype(ret, dtype(out)))")
"""Casts the result into ``out``'s dtype: an ``out`` of any dtype works without the
attribute; with it, ``out``'s buffer goes to the native function uncast."""

_REBINDS = _wrapper("out.data = to_native(ret)")
"""Rebinds ``out`` to the result (no cast into ``out``'s dtype)."""

_PER_ITEM = _wrapper("out.data = to_native(ret)", "to_native(out, nested=True)")
"""Converts a tuple ``out`` item by item before handing it over."""

_CAST_MESSAGE = (
    "adding `ifft.support_native_out = True` would hand `out`'s buffer to `torch.fft.ifft` "
    "uncast, where the project's `handle_out_argument` now casts the result into `out`'s "
    "dtype, and a native `out=` refuses some dtypes that cast accepts: a call that works "
    "now could raise, so no fix is offered (add it where callers pass only `out` dtypes "
    "`torch.fft.ifft` takes)"
)

_SCATTER = """
    def scatter_flat(x, updates, *, out=None):
        return np.add(x, updates, out=out)
    """

_ATTRIBUTES = """
    def sin(x, /, *, out=None):
        o = out
        return np.sin(x, out=o)


    def cos(x, /, *, out=None):
        return _cos_helper(x, out=out)


    def _cos_helper(x, out=None):
        return np.cos(x, out=out)


    def exp_v_0p3p0_to_0p3p1(x, /, *, out=None):
        return np.exp(x, out=out)


    tan.support_native_out = False
    setattr(sin, "support_native_out", True)
    if HAS_OUT:
        for fn in (cos,):
            fn.support_native_out = True
    """
"""The attribute set in every way it is read; a private and a versioned helper."""

_NOT_FORWARDED = """
    def cholesky(x, /, *, out=None):
        ret = np.linalg.cholesky(x)
        if ivy.exists(out):
            return ivy.inplace_update(out, ret)
        return ret


    def transpose(x, /, *, out=None):
        return ivy.inplace_update(out, np.transpose(x))


    def tan(x, /, *, out=None):
        return np.tan(x, out=None)


    def sin(x, **kwargs):
        return np.sin(x, **kwargs)
    """
"""``out`` written by hand, not given, or maybe in ``**kwargs``."""

_NOT_FOLLOWED = """
    def tan(x, /, *, out=None):
        return x.tan(out=out)


    def sin(x, /, *, out=None):
        def inner():
            return torch.sin(x, out=out)

        return inner()


    def cos(x, /, *, out=None):
        return cosine(x, out=out)


    def cosine(x, /, *, out=None):
        return cos(x, out=out)
    """
"""A method of the array, a closure and two functions calling each other are not
followed: ``out`` may or may not reach a native function there."""

MissingNativeOut.VALID = (
    Example(_TAN + _ATTRIBUTES, path=NP, preamble=_NUMPY),
    Example(_TAN, path=API, preamble=_NUMPY),
    Example(_TAN, path="ivy/functional/backends/jax/example.py", preamble=_NUMPY),
    Example(_NOT_FORWARDED, path=NP, preamble="import ivy\n" + _NUMPY),
    Example(_NOT_FOLLOWED, path=TORCH, preamble=_TORCH),
    Example(
        _SCATTER,
        path=NP,
        preamble=_NUMPY,
        files={API: "@to_native_arrays_and_back\ndef scatter_flat(x, updates, *, out=None): ...\n"},
    ),
)

_TAN_ALIASED = """
    def sin(x, /, *, out=None):
        return np.sin(x)


    def tan(x, /, *, out=None):
        o = out
        return np.tan(x, out=o)
    """

_CHAINED = """
    from torch import tan as ttan


    def tan(x, *, dtype=None, out=None):
        b = a
        a = out
        return ttan(x, out=b).to(dtype)
    """

_MATMUL = """
    def matmul(x1, x2, /, *, out=None):
        kw = {"out": out}
        return torch.matmul(x1, x2, **kw)
    """

_HELPER = """
    def _tan_helper(x, out=None):
        return np.tan(x, out=out)


    def tan(x, /, *, out=None):
        return _tan_helper(x, out=out)
    """

_COS = """
    def sin(x, /, *, out=None):
        return np.sin(x, out=out)


    sin.support_native_out = True  # type: ignore[attr-defined]


    def cos(x, /, *, out=None):
        return np.cos(x, out=out)
    """

_SOLVE = """
    def solve(x1, x2, /, *, out=None):
        return torch.linalg.solve(x1, x2, out=out)
    """
"""Followed by another attribute: the fix's line goes right after the function."""

_CUMMIN = """
    def cummin(x, /, *, axis=0, dtype=None, out=None):
        return np.minimum.accumulate(x, axis=axis, dtype=dtype, out=out)
    """


_PUT = """
    def put_along_axis(arr, indices, values, axis, /, *, mode="replace", out=None):
        if mode == "replace":
            return torch.scatter(arr, axis, indices, values, out=out)
        return torch.scatter_reduce(arr, axis, indices, values, reduce=mode, out=out)
    """

_TWICE = """
    def tan(x, /, *, out=None):
        return x


    def tan(x, /, *, out=None):
        return np.tan(x, out=out)
    """
"""A name defined twice: the last definition is the function."""

_CONTINUED = """
    def \\
        tan(x, /, *, out=None):  # a tuple word in a comment: Tuple
        return np.tan(x, out=out)
    """

MissingNativeOut.INVALID = (
    Example(
        _TAN,
        path=NP,
        preamble=_NUMPY,
        expected=_fixed(_TAN, "tan"),
        message="add `tan.support_native_out = True`",
        line=4,
        column=5,
    ),
    Example(_TAN_ALIASED, path=NP, preamble=_NUMPY, expected=_fixed(_TAN_ALIASED, "tan")),
    Example(_CHAINED, path=TORCH, expected=_fixed(_CHAINED, "tan")),
    Example(_MATMUL, path=TORCH, preamble=_TORCH, expected=_fixed(_MATMUL, "matmul")),
    Example(
        _HELPER,
        path=NP,
        preamble=_NUMPY,
        expected=_fixed(_HELPER, "tan"),
        message="forwards `out` natively to `_tan_helper` -> `numpy.tan`",
        line=8,
        column=5,
    ),
    Example(
        _COS,
        path=NP,
        preamble=_NUMPY,
        expected=_fixed(_COS, "cos", "  # type: ignore[attr-defined]"),
        message="`cos` forwards `out` natively to `numpy.cos`",
        line=11,
        column=5,
    ),
    Example(
        _SOLVE + "\n\n    solve.other = 1\n",
        path=TORCH,
        preamble=_TORCH,
        expected=_fixed(_SOLVE, "solve") + "\n\nsolve.other = 1\n",
    ),
    Example(_CUMMIN, path=NP, preamble=_NUMPY, expected=_fixed(_CUMMIN, "cummin")),
    Example(
        _SCATTER,
        path=NP,
        preamble=_NUMPY,
        files={API: "@handle_out_argument\ndef scatter_flat(x, updates, *, out=None): ...\n"},
        expected=_fixed(_SCATTER, "scatter_flat"),
    ),
    Example(
        _PUT,
        path=TORCH,
        preamble=_TORCH,
        files={
            API: """
            def put_along_axis(arr, indices, values, axis, /, *, mode="replace", out=None):
                return ivy.current_backend(arr).put_along_axis(arr, indices, values, axis)


            put_along_axis.mixed_backend_wrappers = {"to_add": ("handle_out_argument",)}
            """,
        },
        expected=_fixed(_PUT, "put_along_axis"),
    ),
    Example(
        _TWICE,
        path=NP,
        preamble=_NUMPY,
        expected=_fixed(_TWICE, "tan"),
        line=8,
        column=5,
    ),
    Example(
        _CONTINUED,
        path=NP,
        preamble=_NUMPY,
        expected=_fixed(_CONTINUED, "tan"),
        line=5,
        column=5,
    ),
    Example(
        _SPLIT,
        path=NP,
        preamble=_NUMPY,
        files=_PER_ITEM,
        expected=_fixed(_SPLIT, "split_exponent"),
    ),
    Example(
        _SPLIT,
        path=NP,
        preamble=_NUMPY,
        message="the wrapper hands a tuple `out` over without converting its items",
        line=4,
        column=5,
    ),
    Example(
        _SPLIT,
        path=NP,
        preamble=_NUMPY,
        files=shapes.GATED_PROJECT,
        message=(
            "the wrapper never hands a tuple `out` over (its `is_frozen(out)` is true for "
            "every tuple), so the attribute has no effect here"
        ),
    ),
    Example(
        """
        def percentile(a, q, /, *, out=None):
            return np.percentile(a, q, out=out).astype(a.dtype)
        """,
        path=NP,
        preamble=_NUMPY,
        message="hands back a method of the native call's result (a new array)",
        line=4,
        column=5,
    ),
    Example(
        """
        def cummin(x, /, *, axis=0, reverse=False, out=None):
            if reverse:
                return np.flip(np.minimum.accumulate(np.flip(x, axis), axis=axis), axis)
            return np.minimum.accumulate(x, axis=axis, out=out)
        """,
        path=NP,
        preamble=_NUMPY,
        message="the return on line 6 never writes `out`",
        line=4,
        column=5,
    ),
    Example(
        """
        def vector_norm(x, /, *, ord=2, out=None):
            match ord:
                case 2:
                    return torch.sqrt(torch.sum(x * x))
            return torch.linalg.vector_norm(x, ord, out=out)
        """,
        path=TORCH,
        preamble=_TORCH,
        message="the return on line 7 never writes `out`",
    ),
    Example(_IFFT, path=TORCH, preamble=_TORCH, files=shapes.GATED_PROJECT, message=_CAST_MESSAGE),
    Example(
        _INVERSE_TRANSFORM,
        path=TORCH,
        preamble=_TORCH,
        files=_CASTS,
        message="uncast, where the project's `handle_out_argument` now casts the result",
        line=4,
        column=5,
    ),
    Example(
        _INVERSE_TRANSFORM,
        path=TORCH,
        preamble=_TORCH,
        files=_REBINDS,
        expected=_fixed(_INVERSE_TRANSFORM, "inverse_transform"),
    ),
    Example(
        _IFFT,
        path=TORCH,
        preamble=_TORCH,
        files={**shapes.GATED_PROJECT, shapes.TORCH_GENERAL: shapes.UPDATE_UNREAD},
        message=(
            "hands back a method of the native call's result (a new array): return what the "
            "native call wrote before adding the attribute"
        ),
    ),
)
