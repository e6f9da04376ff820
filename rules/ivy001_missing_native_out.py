"""IVY001: a NumPy/PyTorch backend function forwards ``out`` natively but lacks the attribute."""

from __future__ import annotations

import libcst as cst

from ivycheck.checker.rule_api import Example, FixSafety, Rule, Severity
from ivycheck.rules._api_functions import is_private_helper
from ivycheck.rules._outflow import ModuleOutFlow, module_outflow, takes_param
from ivycheck.rules._support_native_out import ATTRIBUTE

NP = "ivy/functional/backends/numpy/example.py"
TORCH = "ivy/functional/backends/torch/example.py"
JAX = "ivy/functional/backends/jax/example.py"
API = "ivy/functional/ivy/example.py"


def _fn(name: str, body: str, params: str = "x, /, *, out=None", header: str = "") -> str:
    return f"{header}def {name}({params}):\n    {body}\n"


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
    helpers of the same file that forward their own ``out``. The attribute may be set as
    ``fn.support_native_out = True``, with ``setattr`` or in a loop over functions.

    Not flagged: private helpers (``_name``) and versioned implementations
    (``*_v_0p3p0_to_0p3p1``), which the wrapper never sees (the attribute belongs on the
    public caller); JAX and TensorFlow (no native ``out``; see IVY004); functions whose
    functional-API counterpart has no ``@handle_out_argument`` (``out`` is data there);
    a signature's own ``**kwargs`` passed on (``out`` may or may not be in it).

    The fix adds ``fn.support_native_out = True`` after the function, as Ivy writes it.
    """

    CODE = "IVY001"
    NAME = "missing-native-out"
    MESSAGE = "Function forwards `out` natively but lacks `support_native_out`; add `fn.support_native_out = True`"
    SEVERITY = Severity.WARNING
    FIX_SAFETY = FixSafety.SAFE
    PARTS = frozenset({"backend:numpy", "backend:torch"})
    TRIGGERS = ("out",)
    NEEDS_INDEX = True
    VALID = (
        Example(
            _fn("tan", "return np.tan(x, out=out)", header="import numpy as np\n\n\n")
            + "\n\ntan.support_native_out = True\n",
            path=NP,
        ),
        Example(
            _fn(
                "tan",
                "return ttan(x, out=out).to(x.dtype)",
                header="from torch import tan as ttan\n\n\n",
            )
            + '\n\nsetattr(tan, "support_native_out", True)\n',
            path=TORCH,
        ),
        Example(
            "import numpy as np\n\n\n"
            + _fn("tan", "return np.tan(x, out=out)")
            + "\n\n"
            + _fn("sin", "o = out\n    return np.sin(x, out=o)")
            + "\n\nfor fn in (tan, sin):\n    fn.support_native_out = True\n",
            path=NP,
        ),
        Example(
            "import numpy as np\n\n\n"
            + _fn("_tan_helper", "return np.tan(x, out=out)", params="x, out=None")
            + "\n\n"
            + _fn("tan_v_0p3p0_to_0p3p1", "return np.tan(x, out=out)")
            + "\n\n"
            + _fn("tan", "return _tan_helper(x, out=out)")
            + "\n\ntan.support_native_out = True\n",
            path=NP,
        ),
        Example(
            _fn("tan", "return jnp.tan(x, out=out)", header="import jax.numpy as jnp\n\n\n"),
            path=JAX,
        ),
        Example(
            _fn(
                "cholesky",
                "ret = np.linalg.cholesky(x)\n    if ivy.exists(out):\n"
                "        return ivy.inplace_update(out, ret)\n    return ret",
                header="import ivy\nimport numpy as np\n\n\n",
            ),
            path=NP,
        ),
        Example(
            _fn(
                "tan",
                "return np.tan(x, **kwargs)",
                params="x, **kwargs",
                header="import numpy as np\n\n\n",
            ),
            path=NP,
        ),
        Example(
            _fn("tan", "return np.tan(x, out=out)", header="import numpy as np\n\n\n"), path=API
        ),
        Example(
            _fn(
                "scatter_nd",
                "return np.add(x, updates, out=out)",
                params="x, updates, *, out=None",
                header="import numpy as np\n\n\n",
            ),
            path=NP,
            files={
                API: "@to_native_arrays_and_back\ndef scatter_nd(x, updates, *, out=None):\n    ...\n"
            },
        ),
        Example(_fn("tan", "return x.tan(out=out)"), path=TORCH),
        Example(
            _fn("tan", "return np.tan(x, out=out)", header="import numpy as np\n\n\n")
            + "\n\ntan.support_native_out = False\n",
            path=NP,
        ),
        Example(
            _fn(
                "transpose",
                "ret = np.transpose(x)\n    return ivy.inplace_update(out, ret)",
                header="import ivy\nimport numpy as np\n\n\n",
            ),
            path=NP,
        ),
        Example(
            _fn("tan", "return np.tan(x, out=None)", header="import numpy as np\n\n\n"),
            path=NP,
        ),
    )
    INVALID = (
        Example(
            _fn("tan", "return np.tan(x, out=out)", header="import numpy as np\n\n\n"),
            path=NP,
            expected=_fn("tan", "return np.tan(x, out=out)", header="import numpy as np\n\n\n")
            + "\n\ntan.support_native_out = True\n",
        ),
        Example(
            _fn("tan", "o = out\n    return numpy.tan(x, out=o)", header="import numpy\n\n\n")
            + "\n\n"
            + _fn("sin", "return numpy.sin(x)"),
            path=NP,
            expected=_fn(
                "tan", "o = out\n    return numpy.tan(x, out=o)", header="import numpy\n\n\n"
            )
            + "\n\ntan.support_native_out = True\n\n\n"
            + _fn("sin", "return numpy.sin(x)"),
        ),
        Example(
            _fn(
                "tan",
                "b = a\n    a = out\n    return ttan(x, out=b).to(dtype)",
                params="x, *, dtype=None, out=None",
                header="from torch import tan as ttan\n\n\n",
            ),
            path=TORCH,
            expected=_fn(
                "tan",
                "b = a\n    a = out\n    return ttan(x, out=b).to(dtype)",
                params="x, *, dtype=None, out=None",
                header="from torch import tan as ttan\n\n\n",
            )
            + "\n\ntan.support_native_out = True\n",
        ),
        Example(
            _fn(
                "matmul",
                'kw = {"out": out}\n    return torch.matmul(x1, x2, **kw)',
                params="x1, x2, /, *, out=None",
                header="import torch\n\n\n",
            ),
            path=TORCH,
        ),
        Example(
            "import numpy as np\n\n\n"
            + _fn("_tan_helper", "return np.tan(x, out=out)", params="x, out=None")
            + "\n\n"
            + _fn("tan", "return _tan_helper(x, out=out)"),
            path=NP,
            expected="import numpy as np\n\n\n"
            + _fn("_tan_helper", "return np.tan(x, out=out)", params="x, out=None")
            + "\n\n"
            + _fn("tan", "return _tan_helper(x, out=out)")
            + "\n\ntan.support_native_out = True\n",
        ),
        Example(
            "import torch\n\n\n"
            + _fn(
                "solve",
                "if adjoint:\n        x1 = x1.mT\n    return torch.linalg.solve(x1, x2, out=out)",
                params="x1, x2, /, *, adjoint=False, out=None",
            )
            + "\n\nsolve.other = 1\n",
            path=TORCH,
            expected="import torch\n\n\n"
            + _fn(
                "solve",
                "if adjoint:\n        x1 = x1.mT\n    return torch.linalg.solve(x1, x2, out=out)",
                params="x1, x2, /, *, adjoint=False, out=None",
            )
            + "\n\nsolve.support_native_out = True\n\n\nsolve.other = 1\n",
        ),
        Example(
            "import numpy as np\n\n\n"
            + _fn("sin", "return np.sin(x, out=out)")
            + "\n\nsin.support_native_out = True  # type: ignore[attr-defined]\n\n\n"
            + _fn("cos", "return np.cos(x, out=out)"),
            path=NP,
            expected="import numpy as np\n\n\n"
            + _fn("sin", "return np.sin(x, out=out)")
            + "\n\nsin.support_native_out = True  # type: ignore[attr-defined]\n\n\n"
            + _fn("cos", "return np.cos(x, out=out)")
            + "\n\ncos.support_native_out = True  # type: ignore[attr-defined]\n",
        ),
        Example(
            _fn(
                "scatter_flat",
                "return np.add(x, updates, out=out)",
                params="x, updates, *, out=None",
                header="import numpy as np\n\n\n",
            ),
            path=NP,
            files={
                API: "@handle_out_argument\ndef scatter_flat(x, updates, *, out=None):\n    ...\n"
            },
        ),
    )

    def visit_Module(self, node: cst.Module) -> None:
        flow = module_outflow(self.context)
        for function in flow.functions.values():
            name = function.name.value
            if is_private_helper(name) or name in flow.attributes or not takes_param(function):
                continue
            api = self.context.index.api_function(name)
            if api is not None and "handle_out_argument" not in api.decorators:
                continue
            uses = flow.analyse(function).native_uses
            if not uses:
                continue
            line = cst.parse_statement(f"{name}.{ATTRIBUTE} = True{self._comment(flow)}\n")
            line = line.with_changes(leading_lines=[cst.EmptyLine(), cst.EmptyLine()])
            self.report(
                function.name,
                f"`{name}` forwards `out` natively to {uses[0].describe()} but lacks "
                f"`support_native_out`, so the wrapper never passes `out` (dead native path, "
                f"extra allocation); add `{name}.support_native_out = True`",
                replacement=cst.FlattenSentinel([function, line]),
                fix_description="Add `support_native_out = True` after the function",
                fix_target=function,
            )

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
