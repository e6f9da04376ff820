"""IVY003: a ``support_native_out`` function with a return path that never writes ``out``."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from typing import Any

from ivycheck.checker.rule_api import (
    Category,
    Example,
    FileUnderCheck,
    Finding,
    Rule,
    Severity,
)
from ivycheck.rules import _fate_examples as shapes
from ivycheck.rules._ast_dropped_out import (
    attributed_functions,
    converted,
    converted_message,
    degenerate,
    dropped_message,
)
from ivycheck.rules._ast_facts import facts
from ivycheck.rules._ast_out_analysis import ModuleFlows, may_forward_natively, return_paths
from ivycheck.rules._ast_several_results import several_results
from ivycheck.rules._ast_source import Lines
from ivycheck.rules._out_fate import COPIES, OutFate, ignored_buffer_fates
from ivycheck.rules._site_removal import statement_span


class OutPathDropped(Rule):
    """Every return of a ``support_native_out`` function must have written ``out``.

    With ``support_native_out`` the wrapper hands the function the native ``out`` buffer and
    trusts it to write the result there. A return path that neither forwards ``out`` to a
    native function nor reaches ``inplace_update(out, ...)`` leaves the buffer untouched;
    what ``out`` then becomes is read from the project's own wrapper and backend update, as
    for IVY002: copied into (PyTorch under Ivy's wrapper: an extra allocation and a copy, a
    performance warning), rebound (NumPy, JAX...: ``out`` changes dtype and buffer when the
    result's dtype differs, an error), or never written. The classic case is an early
    return for a special argument (``exclusive=True`` in ``cumsum``, a ``dtype`` cast) added
    after the native call was written.

    Guard-aware: a path is fine after ``if ivy.exists(out): return ivy.inplace_update(out,
    ret)`` (the documented cholesky shape: the return that follows runs with ``out=None``),
    and inside any branch whose test mentions ``out``. A native call with ``out`` followed by
    a method (``return torch.tan(x, out=out).to(dtype)``) counts as forwarding, as do aliases,
    chains, ``**kwargs`` and same-file helpers (see IVY001). But a dtype conversion of the
    native result (``.astype``, ``.to``, ``.type``) hands back a new array, which the wrapper
    then writes into ``out``: where the backend's update rebinds ``out`` (NumPy under Ivy's
    wrapper) that return is reported too, since ``out`` ends with the converted dtype; where
    the update copies (PyTorch), only work is wasted and nothing is reported. Functions that never forward
    ``out`` natively are IVY002's, JAX/TensorFlow ones too. ``support_native_out = False``
    counts as the attribute when the project's wrapper tests its presence (Ivy's does; see
    IVY015), and not when it reads the value.

    Fix by passing ``out=out`` on that path too, or by ending it with
    ``if ivy.exists(out): return ivy.inplace_update(out, ret)``.

    A return reached both by a path that writes ``out`` and by one that does not (``if
    x.ndim < 2: ret = torch.zeros(()) else: ret = torch.sum(x, out=out)`` then ``return
    ret``) is reported as "reached on some paths without writing ``out``": the buffer stays
    untouched only on those paths, and the message claims no more.

    Two shapes drop ``out`` only on degenerate input, and the message says which: a return
    directly under a test for empty or 0-d input (``if x.size == 0:``, ``if len(x.shape)
    == 0:``, ``x.ndim == 0``), and a return of a name that a loop above rebinds to a
    result written into ``out`` (``for a in axis: x = torch.all(x, dim=a, out=out)`` then
    ``return x``), which misses ``out`` only when the loop runs zero times. The mistake is
    the same (the buffer stays untouched there), the inputs that reach it are rare: those
    findings are warnings, not errors.
    """

    CODE = "IVY003"
    NAME = "out-path-dropped"
    MESSAGE = "Return path of a `support_native_out` function never writes `out`; forward it or `inplace_update(out, ret)`"
    PARTS = frozenset({"backend:numpy", "backend:torch"})
    TRIGGERS = ("support_native_out",)
    NEEDS_INDEX = True
    # VALID and INVALID: the examples at the end of this module.

    @classmethod
    def check(cls, tree: ast.Module, file: FileUnderCheck) -> Iterator[Finding]:
        """Each return of an attributed function that may forward ``out`` natively where
        ``out`` is not written on every path to it, and each return that writes it but
        hands back a dtype conversion where the backend's update does not copy; reported
        at the ``return`` statement."""
        lines = Lines(file.source)
        attributed = attributed_functions(tree, lines, file.index)
        if not attributed:
            return
        flows = ModuleFlows(tree, lines, facts(tree).import_map, file.config.runtime_modules)
        fates = ignored_buffer_fates(file.index, file.part.removeprefix("backend:"))
        for name, function in attributed:
            flow = flows.analyse(function)
            if not may_forward_natively(flow):
                continue  # IVY002: the attribute itself is wrong
            fate: OutFate | None = None  # read for the first return that gets a finding
            partly: set[int] | None = None  # made for the first return that drops `out`
            for path in return_paths(flow):
                returned = path.node
                method = converted(returned) if path.covered else None
                if path.covered and method is None:
                    continue  # writes `out` and hands back what it wrote
                if fate is None:
                    fate = fates(several_results(function, lines, out_only=True))
                if fate.never_handed:
                    break  # the wrapper never hands this function the buffer
                span = statement_span(lines, returned)
                if method is not None:
                    if fate.kind != COPIES:
                        message = converted_message(name, method, fate)
                        yield Finding(*span, message, None, fate.severity, fate.category)
                    continue
                when = degenerate(function, returned, lines)
                if partly is None:
                    partly = {id(p.node) for p in return_paths(flow, some=True) if p.covered}
                message = dropped_message(name, when, fate, id(returned) in partly)
                severity = Severity.WARNING if when else fate.severity
                yield Finding(*span, message, None, severity, fate.category)


# Examples: each is a test (tests/rules/test_examples.py) and is shown by --explain.

NP = "ivy/functional/backends/numpy/example.py"
TORCH = "ivy/functional/backends/torch/example.py"
JAX = "ivy/functional/backends/jax/example.py"
WRAPPER, TORCH_GENERAL = shapes.WRAPPER, shapes.TORCH_GENERAL


def _numpy(code: str, **options: Any) -> Example:
    """An example in a NumPy backend file, its code after ``import numpy as np``."""
    return Example(code, path=NP, preamble="import numpy as np\n\n", **options)


def _torch(code: str, **options: Any) -> Example:
    """An example in a PyTorch backend file, its code after ``import torch``."""
    return Example(code, path=TORCH, preamble="import torch\n\n", **options)


_TORCH_EARLY_RETURN = """
    import torch

    def tan(x, *, dtype=None, out=None):
        if dtype is not None:
            return torch.tan(x).to(dtype)
        return torch.tan(x, out=out)

    tan.support_native_out = True
    """
"""A return path that drops ``out`` (the buffer is untouched there)."""


_TORCH_SOFTSIGN = """
    import torch

    def softsign(x, /, *, out=None):
        return torch.divide(x, 1 + torch.abs(x), out=out).to(x.dtype)

    softsign.support_native_out = True
    """
"""Writes ``out`` natively, then returns a conversion of the result."""

_SPLIT_EXPONENT = """
    import numpy as np

    def split_exponent(x, /, *, dtype=None, out: Optional[Tuple[np.ndarray, np.ndarray]] = None):
        if dtype is not None:
            return np.frexp(x.astype(dtype))
        return np.frexp(x, out=out)

    split_exponent.support_native_out = True
    """
"""A function with two results whose first return drops ``out``."""


OutPathDropped.VALID = (
    Example(
        _TORCH_SOFTSIGN,
        path=TORCH,
        files={WRAPPER: shapes.WRAPPER_UPDATES_OUT, TORCH_GENERAL: shapes.UPDATE_COPIES},
    ),
    Example(
        """
        import ivy
        import torch

        def cholesky(x, /, *, upper=False, out=None):
            if not upper:
                return torch.linalg.cholesky(x, out=out)
            ret = torch.transpose(torch.linalg.cholesky(torch.transpose(x, -1, -2)), -1, -2)
            if ivy.exists(out):
                return ivy.inplace_update(out, ret)
            return ret

        cholesky.support_native_out = True
        """,
        path=TORCH,
    ),
    _numpy(
        """
        def tan(x, /, *, out=None):
            if out is None:
                return np.tan(x)
            return np.tan(x, out=out)

        def sin(x, /, *, out=None):
            ret = np.sin(x, out=out)
            return ret

        def cos(x, /, *, out=None):
            if x.ndim > 3:
                raise ValueError(x.ndim)
            o = out
            p = o
            return np.cos(x, out=p)

        def clip(x, x_min=None, x_max=None, *, out=None):
            if x_min is None:
                ret = np.minimum(x, x_max, out=out)
            else:
                ret = np.clip(x, x_min, x_max, out=out)
            return ret

        for fn in (tan, sin, cos, clip):
            fn.support_native_out = True
        """,
    ),
    Example(
        """
        from torch import tan as ttan

        def tan(x, *, dtype=None, out=None):
            return ttan(x, out=out).to(dtype)

        tan.support_native_out = True
        """,
        path=TORCH,
    ),
    _numpy(
        """
        def _helper(x, out=None):
            return np.tan(x, out=out)

        def tan(x, /, *, out=None):
            if x.size == 0:
                return _helper(x, out=out)
            return _helper(x, out=out)

        def apply(x, /, *, out=None):
            def inner(y):
                return y + 1
            return np.tan(inner(x), out=out)

        def sin(x, /, *, out=None):
            kw = {"out": out}
            if x.ndim == 0:
                return np.sin(x, **kw)
            return np.sin(x, **kw)

        def cos(x, /, *, out=None):
            match x.ndim:
                case 0:
                    return ivy.inplace_update(out, np.cos(x))
                case _:
                    return np.cos(x, out=out)

        for fn in (tan, apply, sin, cos):
            fn.support_native_out = True
        """,
    ),
    _numpy(
        """
        def tan(x, *, dtype=None, out=None):
            if dtype is not None:
                return np.tan(x).astype(dtype)
            return np.tan(x, out=out)
        """,
    ),
    Example(
        """
        import jax.numpy as jnp

        def tan(x, /, *, out=None):
            if x.size == 0:
                return x
            return jnp.tan(x)

        tan.support_native_out = True
        """,
        path=JAX,
    ),
    Example(_TORCH_SOFTSIGN, path=TORCH, files=shapes.GATED_PROJECT),
    Example(_SPLIT_EXPONENT, path=NP, files=shapes.GATED_PROJECT),
)
_TORCH_ONE_BRANCH_WRITES = """
    import torch

    def diagonal_total(x, /, *, offset=0, out=None):
        if x.ndim < 2:
            total = torch.zeros(())
        else:
            total = torch.sum(torch.diagonal(x, offset), dim=-1, out=out)
        return total.to(dtype=x.dtype)

    diagonal_total.support_native_out = True
    """
"""One branch writes ``out`` natively, the other makes a new tensor; both reach the return."""


OutPathDropped.INVALID = (
    Example(
        _TORCH_ONE_BRANCH_WRITES,
        path=TORCH,
        files={shapes.WRAPPER: shapes.WRAPPER_REBINDS_DATA},
        message=(
            "this return is reached on some paths without writing `out` (another path to it "
            "writes `out`): on those paths the native buffer stays untouched and `out` silently"
        ),
        severity=Severity.ERROR,
        line=8,
        column=5,
    ),
    Example(
        _SPLIT_EXPONENT,
        path=NP,
        files={shapes.WRAPPER: shapes.WRAPPER_REBINDS_DATA},
        message="the native buffer stays untouched and `out` silently changes dtype and buffer",
        line=5,
        column=9,
    ),
    _numpy(
        """
        def softsign(x, /, *, out=None):
            return np.divide(x, 1 + np.abs(x), out=out).astype(x.dtype)

        softsign.support_native_out = True
        """,
        message="hands back `.astype(...)` of the result, a new array",
        severity=Severity.ERROR,
        line=4,
        column=5,
    ),
    _numpy(
        """
        def tan(x, *, dtype=None, out=None):
            if dtype is not None:
                return np.tan(x).astype(dtype)
            return np.tan(x, out=out)

        tan.support_native_out = False
        """,
        message="this return never writes `out`",
        line=5,
        column=9,
    ),
    Example(
        _TORCH_EARLY_RETURN,
        path=TORCH,
        files={WRAPPER: shapes.WRAPPER_UPDATES_OUT, TORCH_GENERAL: shapes.UPDATE_COPIES},
        message="the wrapper then copies the result into `out` (an extra allocation",
        severity=Severity.WARNING,
        category=Category.PERFORMANCE,
        line=5,
        column=9,
    ),
    Example(
        _TORCH_EARLY_RETURN,
        path=TORCH,
        files={WRAPPER: shapes.WRAPPER_UPDATES_OUT, TORCH_GENERAL: shapes.UPDATE_REBINDS},
        message="`out` silently changes dtype and buffer when the result's dtype differs",
        severity=Severity.ERROR,
        category=Category.CORRECTNESS,
        line=5,
        column=9,
    ),
    _numpy(
        """
        def var(x, /, *, axis=None, out=None):
            if x.size == 0:
                return np.var(x, axis=axis)
            return np.var(x, axis=axis, out=out)

        var.support_native_out = True
        """,
        message="(reached only on empty or 0-d input)",
        severity=Severity.WARNING,
        line=5,
        column=9,
    ),
    Example(
        """
        import ivy
        import torch

        def cumsum(x, axis=0, exclusive=False, reverse=False, *, dtype=None, out=None):
            if exclusive or reverse:
                res = torch.cumsum(torch.flip(x, (axis,)), axis)
                return torch.flip(res, (axis,))
            return torch.cumsum(x, axis, dtype=dtype, out=out)

        cumsum.support_native_out = True
        """,
        path=TORCH,
        message="the wrapper then copies the result into `out`",
        line=7,
        column=9,
    ),
    _numpy(
        """
        def tan(x, *, dtype=None, out=None):
            if dtype is not None:
                return np.tan(x).astype(dtype)
            return np.tan(x, out=out)

        tan.support_native_out = True
        """,
        line=5,
        column=9,
    ),
    _numpy(
        """
        def tan(x, /, *, out=None):
            try:
                return np.tan(x, out=out)
            except TypeError:
                return np.tan(x)

        tan.support_native_out = True
        """,
        line=7,
        column=9,
    ),
    _numpy(
        """
        def tan(x, /, *, out=None):
            if x.ndim:
                ret = np.tan(x, out=out)
            else:
                ret = np.tan(x)
            return ret

        tan.support_native_out = True
        """,
        line=8,
        column=5,
    ),
    Example(
        """
        import ivy
        import torch

        def sum(x, axes, *, out=None):
            for axis in axes:
                if x.shape[axis] == 0:
                    return x
            return torch.sum(x, dim=axes, out=out)

        sum.support_native_out = True
        """,
        path=TORCH,
        message="`sum` has `support_native_out`, but this return never writes `out`",
        line=7,
        column=13,
    ),
    Example(
        """
        from torch import tan as ttan

        def tan(x, *, out=None):
            o = out
            if x.numel() == 0:
                return x
            return ttan(x, out=o)

        setattr(tan, "support_native_out", True)
        """,
        path=TORCH,
        line=6,
        column=9,
    ),
    _numpy(
        """
        def tan(x, *, out=None):
            return np.tan(x, out=out)

        def sin(x, *, out=None):
            if x.size == 0:
                return np.sin(x)
            return np.sin(x, out=out)

        for fn in (tan, sin):
            fn.support_native_out = True
        """,
        line=8,
        column=9,
    ),
    _numpy(
        """
        def var(x, /, *, axis=None, out=None):
            if x.size == 0:
                return np.asarray(float("nan"))
            return np.var(x, axis=axis, out=out)

        var.support_native_out = True
        """,
        line=5,
        column=9,
    ),
    _torch(
        """
        def all(x, /, *, axis=(), out=None):
            for a in axis:
                x = torch.all(x, dim=a, out=out)
            return x

        all.support_native_out = True
        """,
        message="(after the loop above, when it runs zero times)",
        line=6,
        column=5,
    ),
    Example(
        _TORCH_SOFTSIGN,
        path=TORCH,
        files={**shapes.GATED_PROJECT, WRAPPER: shapes.WRAPPER_REBINDS_DATA},
        message="a new array that the wrapper then writes into `out`: `out` silently changes",
        severity=Severity.ERROR,
        line=4,
        column=5,
    ),
    Example(
        _TORCH_SOFTSIGN,
        path=TORCH,
        files={**shapes.GATED_PROJECT, shapes.TORCH_GENERAL: shapes.UPDATE_UNREAD},
        message="hands back `.to(...)` of the result, a new array; return the native result",
        line=4,
        column=5,
    ),
    _numpy(
        """
        def tan(x, /, *, out=None):
            match x.ndim:
                case 0:
                    return np.tan(x)
            return np.tan(x, out=out)

        tan.support_native_out = True
        """,
        message="`tan` has `support_native_out`, but this return never writes `out`",
        line=6,
        column=13,
    ),
    _numpy(
        """
        def tan(x, **kwargs):
            if x.size == 0:
                return x
            return np.tan(x, **kwargs)

        tan.support_native_out = True
        """,
        message="this return (reached only on empty or 0-d input) never writes `out`",
        severity=Severity.WARNING,
        line=5,
        column=9,
    ),
    _numpy(
        """
        def var(x, /, *, axis=None, out=None):
            if (  # nothing to reduce
                x.size == 0
            ):
                return np.var(x, axis=axis)
            return np.var(x, axis=axis, out=out)

        var.support_native_out = True
        """,
        message="(reached only on empty or 0-d input)",
        severity=Severity.WARNING,
        line=7,
        column=9,
    ),
    _numpy(
        """
        def var(x, /, *, axis=None, out=None):
            if x.size == 0: return np.var(x, axis=axis)
            return np.var(x, axis=axis, out=out)

        var.support_native_out = True
        """,
        message="`var` has `support_native_out`, but this return never writes `out`",
        severity=Severity.ERROR,
        line=4,
        column=21,
    ),
)
