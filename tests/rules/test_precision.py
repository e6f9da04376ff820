"""Precision: correct Ivy-style code, full of patterns that look like mistakes, reports nothing.

``tests/fixtures/ivy_like/`` is a faithful Ivy tree (functional API, the four backends, a NumPy
frontend, ``ivy.Array`` methods) with every trap of the rule catalog labelled ``# trap: <kind>``.
The real ``ivycheck`` command must find nothing in it, nor in the project's own runtime. A
finding here means a rule is imprecise: fix the rule, never the corpus.

Two guards keep the clean result from being vacuous: the corpus must keep each trap (label and
the code pattern it labels), and a mutated copy with one classic mistake per rule must be caught,
which proves that every file is checked and recognised as the part it is.
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from tests.helpers import REPO, run_ivycheck

CORPUS = REPO / "tests" / "fixtures" / "ivy_like"

FUNCTIONAL = "ivy/functional/ivy/"
NUMPY = "ivy/functional/backends/numpy/"
TORCH = "ivy/functional/backends/torch/"
JAX = "ivy/functional/backends/jax/"
TENSORFLOW = "ivy/functional/backends/tensorflow/"
FRONTENDS = "ivy/functional/frontends/numpy/"
DATA_CLASSES = "ivy/data_classes/array/"

TRAPS: dict[str, list[tuple[str, str]]] = {
    # kind: [(part, pattern that a file labelled with the kind in that part must contain)]
    "out-via-local": [(NUMPY, r"^\s+o = out\n\s+return np\.\w+\(.*\bout=o\)$")],
    "out-via-local-chain": [
        (NUMPY, r"^\s+(\w+) = out\n\s+(\w+) = \1\n\s+return np\.\w+\(.*=\2\)$")
    ],
    "out-via-kwargs": [(NUMPY, r'(\w+) = \{.*"out": out\}\n\s+return np\.\w+\(\w+, \*\*\1\)')],
    "out-via-private-helper": [
        (NUMPY, r"^def (_\w+)\(.*\n\s+return np\.\w+\(.*out=out\)(?s:.*)return \1\(.*out=out\)")
    ],
    "versioned-helper": [(TORCH, r"^def (\w+_v_\d+p\d+p\d+_to_\d+p\d+p\d+)\((?s:.*)return \1\(")],
    "private-helper-positional-out": [(FUNCTIONAL, r"^def _\w+\([\w, ]*\bout\):")],
    "guarded-fallback": [
        (
            TORCH,
            r"if ivy\.exists\(out\):\n\s+return ivy\.inplace_update\(out, ret\)\n\s+return ret",
        ),
        (
            NUMPY,
            r"if ivy\.exists\(out\):\n\s+return ivy\.inplace_update\(out, ret\)\n\s+return ret",
        ),
    ],
    "out-then-to-dtype": [(TORCH, r"return torch\.\w+\(.*out=out\)\.to\(\w+\)")],
    "setattr-attribute": [
        (NUMPY, r'^setattr\(\w+, "support_native_out", True\)$'),
        (TORCH, r'^setattr\(\w+, "support_native_out", True\)$'),
    ],
    "attribute-in-loop": [
        (NUMPY, r"^for (\w+) in \([\w, ]+\):\n\s+\1\.support_native_out = True$")
    ],
    "decorators-by-assignment": [
        (FUNCTIONAL, r"^(\w+) = handle_out_argument\(\1\)$(?s:.*)^\1 = handle_exceptions\(\1\)$")
    ],
    "frontend-positional-out": [(FRONTENDS, r"/,\s+(?:\w+=\w+,\s+)*out=None,\s+\*")],
    "copy-without-view": [
        (FUNCTIONAL, r"(?s)\A(?!.*@handle_view).*def asarray\(.*copy: Optional\[bool\] = None"),
        (FUNCTIONAL, r"(?s)\A(?!.*@handle_view).*def astype\(.*copy: bool = True"),
    ],
    "alias-numpy-np": [(NUMPY, r"^import numpy as np\b(?s:.*)np\.\w+\(.*out=")],
    "alias-torch-ttan": [(TORCH, r"^from torch import tan as ttan\b(?s:.*)ttan\(\w+, out=out\)")],
    "alias-jax-jnp": [(JAX, r"^import jax\.numpy as jnp\b")],
    "alias-tf-tfm": [(TENSORFLOW, r"^from tensorflow import math as tfm\b(?s:.*)tfm\.\w+\(")],
    "ivy-decorator-order": [
        (
            FUNCTIONAL,
            r"^@handle_exceptions\n@handle_backend_invalid\n@handle_nestable\n"
            r"@handle_array_like_without_promotion\n@handle_out_argument\n"
            r"@to_native_arrays_and_back\n@handle_array_function\n@handle_device\ndef ",
        )
    ],
    "scatter-out-is-data": [
        (FUNCTIONAL, r"(?s)\A(?!.*@handle_out_argument).*def scatter_nd\("),
        (JAX, r"^scatter_nd\.support_native_out = True$"),
        (TENSORFLOW, r"^scatter_nd\.support_native_out = True$"),
    ],
    "mixed-function": [(FUNCTIONAL, r'\.mixed_backend_wrappers = \{\n\s+"to_add": \(\n')],
    "compositional-out": [(FUNCTIONAL, r"ivy\.inplace_update\(out, ret\)")],
    "instance-method-out": [(DATA_CLASSES, r"return ivy\.\w+\(self\._data, .*out=out\)")],
    "out-is-local-ivy-array": [
        (FUNCTIONAL, r"^\s+(\w+) = -ivy\.\w+\(.*\)\n\s+ivy\.\w+\(.*, out=\1\)$")
    ],
}

LABEL = re.compile(r"# trap: ([a-z0-9-]+) -- \S")

# One classic mistake per rule: (file, text to replace, replacement, code that must fire).
MUTATIONS: list[tuple[str, str, str, str]] = [
    (NUMPY + "manipulation.py", "concat.support_native_out = True\n", "", "IVY001"),
    (
        JAX + "elementwise.py",
        "    return jnp.tan(x)\n",
        "    return jnp.tan(x)\n\n\ntan.support_native_out = True\n",
        "IVY002",
    ),
    (
        TORCH + "linear_algebra.py",
        "(the cholesky shape)\n        if ivy.exists(out):\n"
        "            return ivy.inplace_update(out, ret)\n",
        "(the cholesky shape)\n",
        "IVY003",
    ),
    (JAX + "elementwise.py", "return jnp.exp(x)", "return jnp.exp(x, out=out)", "IVY004"),
    (
        FUNCTIONAL + "elementwise.py",
        "@handle_out_argument\n@to_native_arrays_and_back\n@handle_array_function\n"
        "@handle_device\ndef tan(",
        "@to_native_arrays_and_back\n@handle_out_argument\n@handle_array_function\n"
        "@handle_device\ndef tan(",
        "IVY005",
    ),
    (
        FUNCTIONAL + "manipulation.py",
        "    *,\n    copy: Optional[bool] = None,\n    out: Optional[ivy.Array] = None,\n"
        ") -> ivy.Array:\n    return current_backend(x).swapaxes(x, axis0, axis1, copy=copy,",
        "    *,\n    out: Optional[ivy.Array] = None,\n"
        ") -> ivy.Array:\n    return current_backend(x).swapaxes(x, axis0, axis1, copy=None,",
        "IVY006",
    ),
    (
        DATA_CLASSES + "elementwise.py",
        "return ivy.tan(self._data, out=out)",
        "return ivy.tan(self._data, out=self._data)",
        "IVY007",
    ),
    (
        FUNCTIONAL + "creation.py",
        "    shape: Union[ivy.Shape, ivy.NativeShape, Sequence[int]],\n    *,\n",
        "    shape: Union[ivy.Shape, ivy.NativeShape, Sequence[int]],\n",
        "IVY008",
    ),
    (
        FUNCTIONAL + "data_type.py",
        "    out: Optional[ivy.Array] = None,",
        "    out: Optional[Union[ivy.Array, ivy.NativeArray]] = None,",
        "IVY009",
    ),
    (
        FUNCTIONAL + "losses.py",
        "    if ivy.exists(out):\n        return ivy.inplace_update(out, ret)\n    return ret",
        "    return ret",
        "IVY010",
    ),
    (
        FUNCTIONAL + "manipulation.py",
        "@handle_view\n@handle_out_argument\n@to_native_arrays_and_back\n@handle_array_function\n"
        "@handle_device\ndef reshape(",
        "@handle_out_argument\n@to_native_arrays_and_back\n@handle_array_function\n"
        "@handle_device\ndef reshape(",
        "IVY011",
    ),
    (
        DATA_CLASSES + "elementwise.py",
        "return ivy.exp(self._data, out=out)",
        "return ivy.exp(self._data, out=self)",
        "IVY012",
    ),
    (
        FUNCTIONAL + "elementwise.py",
        '    "to_add": (\n        "handle_backend_invalid",\n        "handle_out_argument",\n',
        '    "to_add": (\n        "handle_backend_invalid",\n',
        "IVY013",
    ),
    (
        JAX + "general.py",
        "        return ivy.inplace_update(out, target)\n    return target\n\n\nscatter_nd",
        "        return ivy.inplace_update(out, target, ensure_in_backend=True)\n"
        "    return target\n\n\nscatter_nd",
        "IVY014",
    ),
    (
        TORCH + "creation.py",
        "zeros.support_native_out = True",
        "zeros.support_native_out = False",
        "IVY015",
    ),
    (
        FUNCTIONAL + "searching.py",
        "@handle_out_argument\n@to_native_arrays_and_back\n@handle_array_function\n"
        "@handle_device\ndef argwhere(",
        "@to_native_arrays_and_back\n@handle_array_function\n@handle_device\ndef argwhere(",
        "IVY016",
    ),
    (
        FUNCTIONAL + "searching.py",
        "current_backend(x1).where(",
        "current_backend(x1).where_scalar(",
        "IVY017",
    ),
    (
        FUNCTIONAL + "general.py",
        "ret = ivy.inplace_update(out, ret)",
        "ret = ivy.inplace_update(out)",
        "IVY018",
    ),
]


def _python_files(root: Path) -> list[Path]:
    return sorted(p for p in root.rglob("*.py") if "__pycache__" not in p.parts)


def _registered_codes() -> set[str]:
    done = run_ivycheck("--list-rules", cwd=REPO)
    assert done.returncode == 0, done.stderr
    return set(re.findall(r"^(IVY\d{3})\s", done.stdout, flags=re.MULTILINE))


@pytest.mark.parametrize("target", ["tests/fixtures/ivy_like", "runtime"])
def test_correct_code_reports_nothing(target: str) -> None:
    done = run_ivycheck("--no-cache", "--select", "ALL", target, cwd=REPO)
    assert done.stdout == "", f"ivycheck reported findings on correct code:\n{done.stdout}"
    assert done.returncode == 0, done.stderr
    checked = len(_python_files(REPO / target))
    assert f"All checks passed ({checked} files)" in done.stderr


def test_corpus_keeps_every_trap() -> None:
    texts = {p.relative_to(CORPUS).as_posix(): p.read_text("utf-8") for p in _python_files(CORPUS)}
    assert not [name for name, text in texts.items() if "noqa" in text], (
        "a suppression comment would make the precision run vacuous"
    )
    labelled: dict[str, set[str]] = {}
    for name, text in texts.items():
        for kind in LABEL.findall(text):
            labelled.setdefault(kind, set()).add(name)
    assert set(labelled) == set(TRAPS), "every label names a known trap kind, and vice versa"
    for kind, places in TRAPS.items():
        for part, pattern in places:
            files = [name for name in labelled[kind] if name.startswith(part)]
            assert files, f"no `# trap: {kind}` label under {part}"
            assert any(re.search(pattern, texts[name], flags=re.MULTILINE) for name in files), (
                f"`# trap: {kind}` under {part} no longer labels the pattern {pattern!r}"
            )


def test_corpus_is_really_checked(project: Path) -> None:
    tree = project / "ivy_like"
    shutil.copytree(CORPUS, tree)
    registered = _registered_codes()
    expected = set()
    for relative, old, new, code in MUTATIONS:
        path = tree / relative
        text = path.read_text("utf-8")
        assert text.count(old) == 1, f"mutation for {code} no longer applies to {relative}"
        if code in registered:
            path.write_text(text.replace(old, new), "utf-8")
            expected.add((relative, code))
    assert expected, "no rule of the catalog is registered"
    done = run_ivycheck("--no-cache", "--select", "ALL", "--format", "json", ".", cwd=tree)
    assert done.returncode == 1, done.stderr
    found = {(d["filename"], d["code"]) for d in json.loads(done.stdout)}
    assert expected <= found, f"missed: {sorted(expected - found)}"
