"""Backend-side rules (IVY001-IVY004, IVY014, IVY015, IVY018) and their out-flow analysis.

Every rule's VALID/INVALID examples run in ``test_examples.py``; this file pins down the
shared analysis on CPython's tree (``rules/_ast_out_analysis.py``: where ``out`` goes and
which returns write it; ``rules/_ast_native_out_sites.py``: where the attribute is set) and
what the rules say about whole files: the deliberate mistakes under ``examples/`` and the
correct code of ``runtime/``.
"""

from __future__ import annotations

import ast
import re
import textwrap
from pathlib import Path

import libcst as cst
import pytest

from ivycheck.checker.core.engine import check_source, fix_source
from ivycheck.checker.core.registry import all_rules
from ivycheck.checker.project.config import Config
from ivycheck.checker.project.index import ProjectIndex
from ivycheck.checker.project.summary import summarize
from ivycheck.rules._ast_facts import AstImportMap
from ivycheck.rules._ast_native_out_sites import is_falsy_literal, native_out_sites
from ivycheck.rules._ast_out_analysis import (
    ModuleFlows,
    OutFlow,
    may_forward_natively,
    return_paths,
)
from ivycheck.rules._ast_source import Lines
from ivycheck.rules._vocabulary import UseKind
from tests.helpers import REPO

HEADER = """\
import numpy as np
import ivy
from torch import tan as ttan
import jax.numpy as jnp
"""


def _flows(source: str) -> dict[str, OutFlow]:
    text = HEADER + textwrap.dedent(source)
    tree = ast.parse(text)
    flows = ModuleFlows(tree, Lines(text), AstImportMap.of(tree), ("ivy", "ivycheck.runtime"))
    return {name: flows.analyse(fn) for name, fn in flows.functions.items()}


def _forwards_natively(flow: OutFlow) -> bool:
    """``out`` certainly reaches a native function that writes it (what IVY001 reports)."""
    return bool(flow.native)


@pytest.mark.parametrize(
    "body",
    [
        "return np.tan(x, out=out)",
        "o = out\n    return np.tan(x, out=o)",
        "p = o\n    o = out\n    return np.tan(x, out=p)",
        'kw = {"out": out}\n    return np.tan(x, **kw)',
        "kw = dict(out=out)\n    return np.tan(x, **kw)",
        'kw = {}\n    kw["out"] = out\n    return np.tan(x, **kw)',
        "return ttan(x, out=out).to(x.dtype)",
        "return _helper(x, out=out)",
        "return _positional(x, out)",
    ],
)
def test_native_forwarding_is_followed(body: str) -> None:
    flows = _flows(
        "def _helper(x, out=None):\n    return np.tan(x, out=out)\n\n\n"
        "def _positional(x, o):\n    return np.sin(x, out=o)\n\n\n"
        f"def f(x, *, out=None):\n    {body}\n"
    )
    flow = flows["f"]
    assert _forwards_natively(flow) and flow.best_kind is UseKind.NATIVE
    paths = return_paths(flow)
    assert paths and all(path.covered for path in paths)


@pytest.mark.parametrize(
    ("body", "kind"),
    [
        ("return np.tan(x, out=None)", None),
        ("# return np.tan(x, out=out)\n    return np.tan(x)", None),
        ("return ivy.inplace_update(out, np.tan(x))", UseKind.INPLACE),
        ("return jnp.tan(x, out=out)", UseKind.REJECTED),
        ("return np.transpose(x, out=out)", UseKind.REJECTED),
        ("return _ignores(x, out=out)", UseKind.DROPPED),
        ("return x.sum(out=out)", UseKind.UNKNOWN),
        ("return ivy.tan(x, out=out)", UseKind.UNKNOWN),
    ],
)
def test_non_native_uses_are_classified(body: str, kind: UseKind | None) -> None:
    flows = _flows(
        f"def _ignores(x, out=None):\n    return x\n\n\ndef f(x, *, out=None):\n    {body}\n"
    )
    assert not _forwards_natively(flows["f"])
    assert flows["f"].best_kind == kind


def test_signature_kwargs_may_forward_but_not_certainly() -> None:
    flow = _flows("def f(x, **kwargs):\n    return np.tan(x, **kwargs)\n")["f"]
    assert flow.forwards_var_kwargs
    assert may_forward_natively(flow) and not _forwards_natively(flow)


@pytest.mark.parametrize(
    "body",
    [
        "out[...] = np.tan(x)\n    return out",
        "g = lambda: np.tan(x, out=out)\n    return g()",
        "stored = [out]\n    return np.tan(x, out=stored[0])",
    ],
)
def test_what_cannot_be_followed_escapes(body: str) -> None:
    flow = _flows(f"def f(x, *, out=None):\n    {body}\n")["f"]
    assert flow.escapes and may_forward_natively(flow) and not _forwards_natively(flow)


def test_checks_are_not_uses() -> None:
    flow = _flows(
        "def f(x, *, out=None):\n"
        "    if out is not None and ivy.exists(out) and out.dtype == x.dtype:\n"
        "        pass\n"
        "    return np.tan(x)\n"
    )["f"]
    assert flow.uses == [] and not flow.escapes and not may_forward_natively(flow)


def test_return_paths_are_guard_aware() -> None:
    flows = _flows(
        """\
        def cholesky(x, *, upper=False, out=None):
            ret = np.linalg.cholesky(x)
            if ivy.exists(out):
                return ivy.inplace_update(out, ret)
            return ret


        def branch(x, *, out=None):
            if out is None:
                return np.tan(x)
            return np.tan(x, out=out)


        def dropped(x, *, dtype=None, out=None):
            if dtype is not None:
                return np.tan(x).astype(dtype)
            return np.tan(x, out=out)


        def assigned(x, *, out=None):
            ret = np.tan(x, out=out)
            return ret


        def merged(x, *, flag=False, out=None):
            if flag:
                ret = np.tan(x, out=out)
            else:
                ret = np.tan(x)
            return ret


        def raising(x, *, flag=False, out=None):
            if flag:
                raise ValueError(flag)
            return np.tan(x, out=out)
        """
    )
    covered = {name: [p.covered for p in return_paths(flow)] for name, flow in flows.items()}
    assert covered == {
        "cholesky": [True, True],
        "branch": [True, True],
        "dropped": [False, True],
        "assigned": [True],
        "merged": [False],
        "raising": [True],
    }


def test_attribute_sites_cover_every_spelling() -> None:
    source = (
        "a.support_native_out = True\n"
        'setattr(b, "support_native_out", False)\n'
        "for fn in (c, d):\n    fn.support_native_out = True\n"
        "e.support_native_dtype = True\n"
    )
    lines = Lines(source)
    found = native_out_sites(ast.parse(source), lines)
    sites = [(s.function, is_falsy_literal(s.value, lines)) for s in found]
    assert sites == [("a", False), ("b", True), ("c", False), ("d", False)]


# --------------------------------------------------------------------------- whole files

CODES = ("IVY001", "IVY002", "IVY003", "IVY004", "IVY014", "IVY015", "IVY018")
RULES = list(all_rules().values())


def _tree(root: Path) -> dict[str, str]:
    return {
        path.relative_to(root).as_posix(): path.read_text(encoding="utf-8")
        for path in sorted(root.rglob("*.py"))
    }


def _findings(
    root: Path, config: Config | None = None, codes: tuple[str, ...] = CODES
) -> dict[str, list[tuple[int, str]]]:
    config = (config or Config(root=root)).with_overrides(select=codes)
    files = _tree(root)
    index = ProjectIndex.build(
        summarize(text, path, config.part_of(path)) for path, text in files.items()
    )
    found: dict[str, list[tuple[int, str]]] = {}
    for path, text in files.items():
        diagnostics = check_source(
            text, path=path, config=config, rules=RULES, index=index, relative_path=path
        )
        hits = [(d.line, d.code) for d in diagnostics if d.code in codes]
        if hits:
            found[path] = hits
    return found


def _marked(text: str) -> list[str]:
    """Rule codes announced by the example's comments (``# IVY003: ...``), in order."""
    codes: list[str] = []
    for line in text.splitlines():
        stripped = line.strip()
        if stripped.startswith("# IVY"):
            code = stripped[2:8]
            count = 2 if "(twice)" in stripped else 1
            codes.extend([code] * count)
    return [c for c in codes if re.fullmatch(r"IVY\d{3}", c)]


@pytest.mark.parametrize("backend", ["numpy", "torch", "jax", "tensorflow"])
def test_example_mistakes_are_found_exactly(backend: str) -> None:
    relative = f"functional/backends/{backend}/native_out_mistakes.py"
    found = _findings(REPO / "examples")
    text = (REPO / "examples" / relative).read_text(encoding="utf-8")
    assert sorted(code for _, code in found.get(relative, [])) == sorted(_marked(text))


def test_runtime_is_clean() -> None:
    assert _findings(REPO / "runtime") == {}


def test_ivy_like_fixtures_are_clean() -> None:
    root = REPO / "tests" / "fixtures" / "ivy_like"
    if not root.is_dir():
        pytest.skip("no Ivy-like fixture tree")
    assert _findings(root) == {}


def _fix(source: str, path: str, codes: tuple[str, ...], unsafe: bool = False) -> str:
    config = Config(root=Path("/project")).with_overrides(select=codes)
    index = ProjectIndex.build([summarize(source, path, config.part_of(path))])
    outcome = fix_source(
        source,
        path=path,
        config=config,
        rules=RULES,
        index=index,
        relative_path=path,
        unsafe=unsafe,
    )
    assert outcome.diagnostics == [] and outcome.problems == []
    return outcome.source


def test_false_attribute_on_a_forwarding_function_converges_to_true() -> None:
    source = (
        "import numpy as np\n\n\ndef tan(x, *, out=None):\n    return np.tan(x, out=out)\n\n\n"
        "tan.support_native_out = False\n"
    )
    fixed = _fix(source, "ivy/functional/backends/numpy/m.py", ("IVY001", "IVY015"), unsafe=True)
    assert fixed.endswith("\n\n\ntan.support_native_out = True\n")
    assert "False" not in fixed


def test_dead_attribute_fix_keeps_a_one_element_loop_a_tuple() -> None:
    source = (
        "import jax.numpy as jnp\n\n\ndef tan(x, *, out=None):\n    return jnp.tan(x)\n\n\n"
        "def sin(x, *, out=None):\n    return jnp.sin(x)\n\n\n"
        "for fn in (tan, sin):\n    fn.support_native_out = True\n"
    )
    fixed = _fix(source, "ivy/functional/backends/jax/m.py", ("IVY002",))
    assert "support_native_out" not in fixed
    cst.parse_module(fixed)


def test_runtime_modules_are_configuration() -> None:
    source = "import mylib\nmylib.inplace_update(x)\n"
    path = "pkg/m.py"
    config = Config(root=Path("/project"))
    default = check_source(
        source,
        path=path,
        config=config.with_overrides(select=("IVY018",)),
        rules=RULES,
        relative_path=path,
    )
    custom = check_source(
        source,
        path=path,
        config=Config(root=Path("/project"), runtime_modules=("mylib",)).with_overrides(
            select=("IVY018",)
        ),
        rules=RULES,
        relative_path=path,
    )
    assert [d.code for d in default] == [] and [d.code for d in custom] == ["IVY018"]


REAL_TORCH = """\
from typing import Optional, Union
import torch
import ivy
from ivy.func_wrapper import with_unsupported_dtypes, handle_numpy_arrays_in_specific_backend
from . import backend_version


def _cast_for_unary_op(x):
    if not isinstance(x, torch.Tensor):
        x = torch.tensor(x)
    return x


@handle_numpy_arrays_in_specific_backend
def add(x1, x2, /, *, alpha=None, out=None):
    x1, x2 = ivy.promote_types_of_inputs(x1, x2)
    if alpha not in (1, None):
        return torch.add(x1, x2, alpha=alpha, out=out)
    return torch.add(x1, x2, out=out)


add.support_native_out = True


@with_unsupported_dtypes({"2.0.1 and below": ("float16",)}, backend_version)
def argsort(x, /, *, axis=-1, descending=False, stable=True, out=None):
    if out is not None:
        out = tuple([torch.zeros(x.shape, dtype=x.dtype), out.long()])
    _, sorted_indices = torch.sort(x, dim=axis, descending=descending, stable=stable, out=out)
    return sorted_indices


argsort.support_native_out = True


def matmul(x1, x2, /, *, transpose_a=False, transpose_b=False, out=None):
    if transpose_a is True:
        x1 = torch.t(x1)
    if transpose_b is True:
        x2 = torch.t(x2)
    x1, x2 = ivy.promote_types_of_inputs(x1, x2)
    return torch.matmul(x1, x2, out=out)


matmul.support_native_out = True


def logical_and(x1, x2, /, *, out=None):
    return torch.logical_and(x1.type(torch.bool), x2.type(torch.bool), out=out)


logical_and.support_native_out = True


def round(x, /, *, decimals=0, out=None):
    if "int" in str(x.dtype):
        if ivy.exists(out):
            return ivy.inplace_update(out, x)
        return x
    return torch.round(x, decimals=decimals, out=out)


round.support_native_out = True


def trapz(y, /, *, x=None, dx=None, axis=-1, out=None):
    if x is None:
        dx = dx if dx is not None else 1
        return torch.trapezoid(y, dx=dx, dim=axis)
    else:
        if dx is not None:
            raise ValueError("x and dx cannot both be set")
        return torch.trapezoid(y, x=x, dim=axis)


trapz.support_native_out = True


def erf(x, /, *, out=None):
    x = _cast_for_unary_op(x)
    return torch.erf(x, out=out)


erf.support_native_out = True


def maximum(x1, x2, /, *, use_where=True, out=None):
    x1, x2 = ivy.promote_types_of_inputs(x1, x2)
    if use_where:
        return torch.where(x1 >= x2, x1, x2, out=out)
    return torch.maximum(x1, x2, out=out)


maximum.support_native_out = True
"""

REAL_NUMPY = """\
import numpy as np
import ivy
from ivy.functional.backends.numpy.helpers import _scalar_output_to_0d_array


@_scalar_output_to_0d_array
def sum(x, /, *, axis=None, dtype=None, keepdims=False, out=None):
    if dtype is None and not ivy.is_bool_dtype(x):
        dtype = x.dtype
    axis = tuple(axis) if isinstance(axis, list) else axis
    return np.asarray(np.sum(a=x, axis=axis, dtype=dtype, keepdims=keepdims, out=out))


sum.support_native_out = True


def cumsum(x, axis=0, exclusive=False, reverse=False, *, dtype=None, out=None):
    if dtype is None:
        if x.dtype == "bool":
            dtype = ivy.default_int_dtype(as_native=True)
        else:
            dtype = ivy.as_native_dtype(x.dtype)
    if exclusive or reverse:
        if exclusive and reverse:
            x = np.cumsum(np.flip(x, axis=axis), axis=axis, dtype=dtype)
            x = np.swapaxes(x, axis, -1)
            x = np.concatenate((np.zeros_like(x[..., -1:]), x[..., :-1]), -1)
            x = np.swapaxes(x, axis, -1)
            res = np.flip(x, axis=axis)
        elif exclusive:
            x = np.swapaxes(x, axis, -1)
            x = np.concatenate((np.zeros_like(x[..., -1:]), x[..., :-1]), -1)
            x = np.cumsum(x, -1, dtype=dtype)
            res = np.swapaxes(x, axis, -1)
        elif reverse:
            x = np.cumsum(np.flip(x, axis=axis), axis=axis, dtype=dtype)
            res = np.flip(x, axis=axis)
        return res
    return np.cumsum(x, axis, dtype=dtype, out=out)


cumsum.support_native_out = True


def einsum(equation, *operands, out=None):
    return np.einsum(equation, *operands, out=out)


einsum.support_native_out = True
"""


def test_real_ivy_shapes(tmp_path: Path) -> None:
    """Functions as the real Ivy backends write them: two real mistakes, every trap quiet.

    Flagged: numpy ``cumsum`` (the exclusive/reverse path never writes ``out``) and torch
    ``trapz`` (attribute set, ``out`` never forwarded). Quiet: a guarded ``round``, the
    ``argsort`` that rebuilds ``out`` as a tuple, ``torch.where(..., out=out)``, decorated
    functions, a private cast helper, ``np.asarray(np.sum(..., out=out))``, ``*operands``.
    """
    backends = tmp_path / "ivy" / "functional" / "backends"
    (backends / "torch").mkdir(parents=True)
    (backends / "numpy").mkdir(parents=True)
    (backends / "torch" / "elementwise.py").write_text(REAL_TORCH, encoding="utf-8")
    (backends / "numpy" / "statistical.py").write_text(REAL_NUMPY, encoding="utf-8")
    found = _findings(tmp_path, Config(root=tmp_path))
    assert found == {
        "ivy/functional/backends/numpy/statistical.py": [(38, "IVY003")],
        "ivy/functional/backends/torch/elementwise.py": [(76, "IVY002")],
    }


@pytest.mark.parametrize(
    ("body", "line"),
    [
        # the vector_norm shape: a default-ord path computes its own result
        (
            "if ord == 2:\n        return np.sqrt(np.sum(x * x))\n"
            "    return np.power(x, ord, out=out)",
            2,
        ),
        # the nan_to_num shape: copy=False returns the input
        ("if not copy:\n        return x\n    return np.clip(x, 0, 1, out=out)", 2),
    ],
)
def test_missing_attribute_is_not_fixed_while_a_return_drops_out(body: str, line: int) -> None:
    """Adding the attribute would hand `out` to a path that never writes it (IVY003): the
    finding names that return and offers no fix, so `--fix` cannot introduce the bug."""
    source = f"import numpy as np\n\n\ndef f(x, ord=2, copy=True, *, out=None):\n    {body}\n"
    config = Config(root=Path("/project")).with_overrides(select=("IVY001",))
    path = "ivy/functional/backends/numpy/example.py"
    found = check_source(source, path=path, config=config, rules=list(all_rules().values()))
    assert [d.code for d in found] == ["IVY001"]
    assert found[0].fix is None
    assert f"the return on line {line + 4} never writes `out`" in found[0].message
    fixed = fix_source(
        source, path=path, config=config, rules=list(all_rules().values()), unsafe=True
    )
    assert fixed.source == source


def test_the_wrapper_is_found_without_decoding_other_summaries() -> None:
    from ivycheck.checker.project.index import EncodedSummary
    from ivycheck.rules._out_fate import ignored_buffer_fate

    wrapper = (
        "def handle_out_argument(fn):\n"
        "    def inner(*args, out=None, **kwargs):\n"
        "        ret = fn(*args, out=to_native(out), **kwargs)\n"
        "        inplace_update(out, ret)\n"
        "        return out\n"
        "    return inner\n"
    )
    update = "def inplace_update(x, val, /):\n    x.data = val\n    return x\n"
    files = {
        "ivy/func_wrapper.py": (wrapper, "other"),
        "ivy/functional/backends/numpy/general.py": (update, "backend:numpy"),
        **{
            f"ivy/functional/backends/numpy/m{i}.py": (
                f"def f{i}(x):\n    return x\n",
                "backend:numpy",
            )
            for i in range(20)
        },
    }
    index = ProjectIndex.build(
        EncodedSummary.encode(summarize(text, path, part)) for path, (text, part) in files.items()
    )
    fate = ignored_buffer_fate(index, "numpy")
    assert (fate.kind, fate.source) == ("rebinds", "ivy/func_wrapper.py:1")
    decoded = [path for path in files if path not in index.files._encoded]
    assert sorted(decoded) == ["ivy/func_wrapper.py", "ivy/functional/backends/numpy/general.py"]
