"""API-side and cross-file rules (IVY007-IVY013, IVY016, IVY017): what examples cannot show."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import libcst as cst
import pytest

from ivycheck.checker.base.diagnostics import Diagnostic
from ivycheck.checker.core.engine import check_source, fix_source
from ivycheck.checker.core.registry import all_rules
from ivycheck.checker.project.config import Config
from ivycheck.checker.project.index import ProjectIndex
from ivycheck.checker.project.summary import summarize
from ivycheck.rules._vocabulary import is_private_helper

RULES = list(all_rules().values())
CONFIG = Config(root=Path("/project"))
API = "ivy/functional/ivy/example.py"


def _index(files: Mapping[str, str]) -> ProjectIndex:
    return ProjectIndex.build(
        summarize(source, path, CONFIG.part_of(path)) for path, source in files.items()
    )


def check(code: str, source: str, path: str = API, **files: str) -> list[Diagnostic]:
    """Diagnostics of rule ``code`` for ``source`` at ``path``; ``files`` maps path -> source
    (keyword names use ``__`` for ``/`` and ``_py`` for ``.py``)."""
    others = {name.replace("__", "/").replace("_py", ".py"): text for name, text in files.items()}
    return check_source(
        source,
        path=path,
        config=CONFIG.with_overrides(select=(code,)),
        rules=RULES,
        index=_index({path: source, **others}),
        relative_path=path,
    )


def fix(code: str, source: str, path: str = API) -> str:
    outcome = fix_source(
        source,
        path=path,
        config=CONFIG.with_overrides(select=(code,)),
        rules=RULES,
        index=_index({path: source}),
        relative_path=path,
        unsafe=True,
    )
    cst.parse_module(outcome.source)
    return outcome.source


# -- IVY008 ------------------------------------------------------------------------------


def test_ivy008_fix_keeps_var_kwargs_last() -> None:
    assert fix("IVY008", "def f(x, out=None, **kwargs):\n    ...\n") == (
        "def f(x, *, out=None, **kwargs):\n    ...\n"
    )


def test_ivy008_fix_alone_in_signature() -> None:
    assert fix("IVY008", "def f(out=None):\n    ...\n") == "def f(*, out=None):\n    ...\n"


def test_ivy008_fix_is_unsafe_only() -> None:
    outcome = fix_source(
        "def f(x, out=None):\n    ...\n",
        path=API,
        config=CONFIG.with_overrides(select=("IVY008",)),
        rules=RULES,
        relative_path=API,
        unsafe=False,
    )
    assert outcome.applied == 0
    assert [d.code for d in outcome.diagnostics] == ["IVY008"]


def test_ivy008_names_the_function() -> None:
    [found] = check("IVY008", "def clip(x, out=None):\n    ...\n")
    assert "`clip`" in found.message


# -- IVY007 ------------------------------------------------------------------------------


def test_ivy007_message_names_the_function_and_the_buffer() -> None:
    [found] = check(
        "IVY007",
        "import ivy\nimport numpy as np\n\nivy.add(x, y, out=np.zeros(3))\n",
        path="project/script.py",
    )
    assert "`ivy.add`" in found.message and "`np.zeros(3)`" in found.message


def test_ivy007_follows_a_chain_of_native_locals_but_not_a_rebound_one() -> None:
    chain = "import ivy\nimport torch\n\ndef f(x):\n    a = torch.empty(3)\n    b = a\n"
    assert len(check("IVY007", chain + "    return ivy.tan(x, out=b)\n", path="p/m.py")) == 1
    rebound = chain + "    if x is None:\n        b = ivy.zeros(3)\n    return ivy.tan(x, out=b)\n"
    assert check("IVY007", rebound, path="p/m.py") == []


def test_ivy007_honours_configured_runtime_modules() -> None:
    source = "import mylib\nimport numpy as np\n\nmylib.add(x, y, out=np.zeros(3))\n"
    found = check_source(
        source,
        path="p/s.py",
        config=CONFIG.with_overrides(select=("IVY007",), runtime_modules=("mylib",)),
        rules=RULES,
        index=_index({"p/s.py": source}),
        relative_path="p/s.py",
    )
    assert [d.code for d in found] == ["IVY007"]


# -- IVY009 / IVY012 / IVY013 ------------------------------------------------------------


def test_ivy009_message_shows_the_annotation() -> None:
    [found] = check(
        "IVY009", "import numpy as np\n\ndef f(x, *, out: np.ndarray | None = None):\n    ...\n"
    )
    assert "`np.ndarray | None`" in found.message


def test_ivy012_rebinding_self_in_a_nested_function_hides_it() -> None:
    source = (
        "class A:\n    def f(self):\n        def g(self):\n"
        "            return ivy.abs(self, out=self)\n        return g\n"
    )
    assert check("IVY012", source, path="ivy/data_classes/array/a.py") == []


def test_ivy013_bare_string_message_suggests_the_trailing_comma() -> None:
    source = (
        "def f(x):\n    ...\n\n\nf.mixed_backend_wrappers = {\n"
        '    "to_add": ("handle_out_argument"),\n    "to_skip": (),\n}\n'
    )
    [found] = check("IVY013", source)
    assert '`("handle_out_argument",)`' in found.message


# -- cross-file rules ----------------------------------------------------------------------

NUMPY = "ivy/functional/backends/numpy/x.py"
TORCH = "ivy/functional/backends/torch/x.py"
DELEGATE = "def tan(x, /, *, out=None):\n    return current_backend(x).tann(x, out=out)\n"


def test_ivy017_names_the_backends_seen() -> None:
    [found] = check(
        "IVY017",
        DELEGATE,
        ivy__functional__backends__numpy__x_py="def tan(x):\n    ...\n",
        ivy__functional__backends__torch__x_py="def tan(x):\n    ...\n",
    )
    assert "(seen: numpy, torch)" in found.message and "`tann`" in found.message


def test_ivy017_is_silent_without_backend_files() -> None:
    assert check("IVY017", DELEGATE, ivy__functional__ivy__other_py="def g():\n    ...\n") == []


def test_ivy016_names_the_backends_that_ignore_out() -> None:
    api = "def f(x, *, out=None):\n    return current_backend(x).f(x, out=out)\n"
    ignores = "def f(x, *, out=None):\n    return x\n"
    [found] = check(
        "IVY016",
        api,
        ivy__functional__backends__numpy__x_py=ignores,
        ivy__functional__backends__jax__x_py=ignores,
    )
    assert "(jax, numpy)" in found.message


def test_ivy011_names_backend_and_view_function() -> None:
    api = "def flip(x, *, out=None):\n    return current_backend(x).flip(x)\n"
    [found] = check(
        "IVY011",
        api,
        ivy__functional__backends__numpy__x_py="import numpy as np\n\n"
        "def flip(x, *, out=None):\n    return np.flip(x)\n",
        ivy__functional__backends__torch__x_py="import torch\n\n"
        "def flip(x, *, out=None):\n    return torch.flip(x)\n",
    )
    assert "numpy: numpy.flip" in found.message and "torch" not in found.message.split("(")[1]


def test_ivy010_and_ivy016_do_not_both_report_one_function() -> None:
    api = "def f(x, *, out=None):\n    return ivy.g(x)\n"
    assert [d.code for d in check("IVY010", api)] == ["IVY010"]
    assert check("IVY016", api) == []
    primary = "def f(x, *, out=None):\n    return current_backend(x).f(x, out=out)\n"
    backend = {"ivy__functional__backends__numpy__x_py": "def f(x, *, out=None):\n    return x\n"}
    assert check("IVY010", primary, **backend) == []
    assert [d.code for d in check("IVY016", primary, **backend)] == ["IVY016"]


# -- the data behind IVY011 ----------------------------------------------------------------


def _numpy_view_calls() -> dict[str, tuple[Any, Callable[[], Any]]]:
    import numpy as np

    a = np.arange(8.0).reshape(2, 2, 2)
    lib = np.lib.stride_tricks
    calls: dict[str, Callable[[], Any]] = {
        "reshape": lambda: np.reshape(a, (4, 2)),
        "ravel": lambda: np.ravel(a),
        "transpose": lambda: np.transpose(a),
        "permute_dims": lambda: np.permute_dims(a, (2, 1, 0)),
        "matrix_transpose": lambda: np.matrix_transpose(a),
        "linalg.matrix_transpose": lambda: np.linalg.matrix_transpose(a),
        "swapaxes": lambda: np.swapaxes(a, 0, 1),
        "moveaxis": lambda: np.moveaxis(a, 0, 2),
        "rollaxis": lambda: np.rollaxis(a, 2),
        "expand_dims": lambda: np.expand_dims(a, 0),
        "squeeze": lambda: np.squeeze(a[:1]),
        "flip": lambda: np.flip(a),
        "flipud": lambda: np.flipud(a),
        "fliplr": lambda: np.fliplr(a),
        "rot90": lambda: np.rot90(a),
        "diagonal": lambda: np.diagonal(a),
        "split": lambda: np.split(a, 2)[1],
        "array_split": lambda: np.array_split(a, 2)[1],
        "hsplit": lambda: np.hsplit(a, 2)[1],
        "vsplit": lambda: np.vsplit(a, 2)[1],
        "dsplit": lambda: np.dsplit(a, 2)[1],
        "unstack": lambda: np.unstack(a)[1],
        "lib.stride_tricks.as_strided": lambda: lib.as_strided(a, (2,), (8,)),
        "lib.stride_tricks.sliding_window_view": lambda: lib.sliding_window_view(a, 2, axis=0),
    }
    return {name: (a, call) for name, call in calls.items()}


def test_ivy011_numpy_view_functions_really_return_views() -> None:
    import numpy as np
    import pytest

    from ivycheck.rules._view_functions import VIEW_FUNCTIONS

    calls = _numpy_view_calls()
    assert {f"numpy.{name}" for name in calls} == VIEW_FUNCTIONS["numpy"]
    for name, (base, call) in calls.items():
        try:
            result = call()
        except AttributeError:
            pytest.skip(f"numpy.{name} is not in this NumPy")
        assert np.shares_memory(result, base), name


def test_ivy011_torch_view_functions_really_return_views() -> None:
    import pytest

    torch = pytest.importorskip("torch")
    from ivycheck.rules._view_functions import VIEW_FUNCTIONS

    t = torch.arange(8.0).reshape(2, 2, 2)
    calls: dict[str, Callable[[], Any]] = {
        "reshape": lambda: torch.reshape(t, (4, 2)),
        "flatten": lambda: torch.flatten(t),
        "ravel": lambda: torch.ravel(t),
        "permute": lambda: torch.permute(t, (2, 1, 0)),
        "transpose": lambda: torch.transpose(t, 0, 1),
        "swapaxes": lambda: torch.swapaxes(t, 0, 1),
        "swapdims": lambda: torch.swapdims(t, 0, 1),
        "movedim": lambda: torch.movedim(t, 0, 2),
        "moveaxis": lambda: torch.moveaxis(t, 0, 2),
        "t": lambda: torch.t(t[0]),
        "adjoint": lambda: torch.adjoint(t),
        "squeeze": lambda: torch.squeeze(t[:1]),
        "unsqueeze": lambda: torch.unsqueeze(t, 0),
        "unflatten": lambda: torch.unflatten(t, 2, (1, 2)),
        "diagonal": lambda: torch.diagonal(t),
        "narrow": lambda: torch.narrow(t, 0, 1, 1),
        "select": lambda: torch.select(t, 0, 1),
        "as_strided": lambda: torch.as_strided(t, (2,), (1,)),
        "split": lambda: torch.split(t, 1)[1],
        "tensor_split": lambda: torch.tensor_split(t, 2)[1],
        "hsplit": lambda: torch.hsplit(t, 2)[1],
        "vsplit": lambda: torch.vsplit(t, 2)[1],
        "dsplit": lambda: torch.dsplit(t, 2)[1],
        "chunk": lambda: torch.chunk(t, 2)[1],
        "unbind": lambda: torch.unbind(t)[1],
    }
    assert {f"torch.{name}" for name in calls} == VIEW_FUNCTIONS["torch"]
    storage = t.untyped_storage().data_ptr()
    for name, call in calls.items():
        assert call().untyped_storage().data_ptr() == storage, name
    assert torch.flip(t, (0,)).untyped_storage().data_ptr() != storage  # copies, unlike NumPy


def test_ivy011_view_links_really_keep_the_memory() -> None:
    """Every method, attribute and subscript IVY011 follows returns a view in the library."""
    import numpy as np

    from ivycheck.rules._view_functions import VIEW_LINKS

    torch = pytest.importorskip("torch")
    a = np.arange(8.0).reshape(2, 2, 2)
    numpy_links: dict[str, Callable[[], Any]] = {
        ".reshape()": lambda: a.reshape(4, 2),
        ".ravel()": lambda: a.ravel(),
        ".transpose()": lambda: a.transpose(),
        ".swapaxes()": lambda: a.swapaxes(0, 1),
        ".squeeze()": lambda: a[:1].squeeze(),
        ".diagonal()": lambda: a.diagonal(),
        ".view()": lambda: a.view(),
        ".T": lambda: a.T,
        ".mT": lambda: a.mT,
        "[]": lambda: a[0, 1:],
    }
    assert set(numpy_links) == VIEW_LINKS["numpy"]
    for link, call in numpy_links.items():
        assert np.shares_memory(call(), a), link
    assert not np.shares_memory(a[[0, 1]], a)  # advanced indexing copies: not a link

    t = torch.arange(8.0).reshape(2, 2, 2)
    torch_links: dict[str, Callable[[], Any]] = {
        ".view()": lambda: t.view(4, 2),
        ".view_as()": lambda: t.view_as(t),
        ".reshape()": lambda: t.reshape(4, 2),
        ".reshape_as()": lambda: t.reshape_as(t),
        ".flatten()": lambda: t.flatten(),
        ".permute()": lambda: t.permute(2, 1, 0),
        ".transpose()": lambda: t.transpose(0, 1),
        ".t()": lambda: t[0].t(),
        ".swapaxes()": lambda: t.swapaxes(0, 1),
        ".swapdims()": lambda: t.swapdims(0, 1),
        ".movedim()": lambda: t.movedim(0, 2),
        ".moveaxis()": lambda: t.moveaxis(0, 2),
        ".squeeze()": lambda: t[:1].squeeze(),
        ".unsqueeze()": lambda: t.unsqueeze(0),
        ".unflatten()": lambda: t.unflatten(2, (1, 2)),
        ".expand()": lambda: t[:1].expand(3, 2, 2),
        ".expand_as()": lambda: t[:1].expand_as(t),
        ".narrow()": lambda: t.narrow(0, 1, 1),
        ".select()": lambda: t.select(0, 1),
        ".diagonal()": lambda: t.diagonal(),
        ".as_strided()": lambda: t.as_strided((2,), (1,)),
        ".unfold()": lambda: t.unfold(0, 1, 1),
        ".split()": lambda: t.split(1)[1],
        ".chunk()": lambda: t.chunk(2)[1],
        ".unbind()": lambda: t.unbind()[1],
        ".T": lambda: t[0].T,
        ".mT": lambda: t.mT,
        "[]": lambda: t[0, 1:],
    }
    assert set(torch_links) == VIEW_LINKS["torch"]
    storage = t.untyped_storage().data_ptr()
    for link, call in torch_links.items():
        assert call().untyped_storage().data_ptr() == storage, link


def test_ivy011_names_the_chain_from_the_argument() -> None:
    api = "def f(x, shape, *, out=None):\n    return current_backend(x).f(x, shape)\n"
    [found] = check(
        "IVY011",
        api,
        ivy__functional__backends__numpy__x_py="import numpy as np\n\n"
        "def f(x, shape, *, out=None):\n    y = np.reshape(x, shape)\n    return y[0].T\n",
    )
    assert "(numpy: .T of [...] of numpy.reshape)" in found.message


def test_ivy011_ignores_a_transpose_of_a_computed_array() -> None:
    api = "def f(x, w, *, out=None):\n    return current_backend(x).f(x, w)\n"
    backend = (
        "import numpy as np\n\n"
        "def f(x, w, *, out=None):\n"
        "    x = np.matmul(x, w)\n"
        "    return np.transpose(x)\n"
    )
    assert check("IVY011", api, ivy__functional__backends__numpy__x_py=backend) == []


# -- the examples tree and the runtime -------------------------------------------------------

OURS = ("IVY007", "IVY008", "IVY009", "IVY010", "IVY011", "IVY012", "IVY013", "IVY016", "IVY017")


def test_examples_show_each_api_rule_once_in_its_own_files() -> None:
    import json

    from tests.helpers import REPO, run_ivycheck

    done = run_ivycheck(
        "--no-cache", "--format", "json", "--select", ",".join(OURS), "examples/", cwd=REPO
    )
    found = [d for d in json.loads(done.stdout) if d["code"] in OURS]
    assert sorted(d["code"] for d in found) == sorted(OURS)
    assert all("api_mistakes.py" in d["filename"] for d in found)


def test_runtime_is_clean_under_the_api_rules() -> None:
    from tests.helpers import REPO, run_ivycheck

    done = run_ivycheck("--no-cache", "--select", ",".join(OURS), "runtime/", cwd=REPO)
    assert done.returncode == 0, done.stdout


@pytest.mark.parametrize(
    ("name", "private"),
    [
        ("_helper", True),
        ("__call__", True),
        ("cumsum_v_0p3p0_to_0p3p1", True),
        ("ones_like_v_0p4p0_and_above", True),
        ("fn_v_2p0p0_and_below", True),
        ("conv_v2", False),
        ("fn_v_1p2_and_above", False),
        ("tan", False),
    ],
)
def test_one_definition_of_private_and_versioned_helpers(name: str, private: bool) -> None:
    assert is_private_helper(name) is private
