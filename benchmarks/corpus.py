"""Write an Ivy-style tree of a given size: functional API plus four backends.

    .venv/bin/python benchmarks/corpus.py benchmarks/corpus/ivy-5k --functions 5000

Each API function is decorated in Ivy's documented order and delegates to the current
backend; each backend implements it (NumPy and PyTorch forwarding ``out`` natively with
``support_native_out``, JAX and TensorFlow not). In every ``MISTAKE_EVERY`` functions, the
first ``len(MISTAKES)`` after a multiple of ``MISTAKE_EVERY`` carry one deliberate mistake each,
one kind per rule: ``fn_<n>`` carries ``MISTAKES[n % MISTAKE_EVERY - 1]`` (:func:`mistake_of`).
Each mistake is exactly one finding of its rule and the other functions are clean, so the
expected findings are known: :func:`expected_findings`. By ``n % MISTAKE_EVERY``:

===  ======  ==================================================================================
 1   IVY005  API: ``@to_native_arrays_and_back`` above ``@handle_out_argument``
 2   IVY006  API: ``@handle_view`` function without ``copy`` (the backends ``reshape``)
 3   IVY001  NumPy backend forwards ``out`` to ``np.tanh`` but lacks ``support_native_out``
 4   IVY002  TensorFlow backend carries ``support_native_out = True`` (copied from NumPy)
 5   IVY003  PyTorch backend: an early return for 0-d input does not write ``out``
 6   IVY004  JAX backend passes ``out=`` to ``jnp.tanh``
 7   IVY007  API, compositional: ``ivy.reciprocal(d, out=d.data)``, a native array as ``out``
 8   IVY008  PyTorch backend: ``out`` not keyword-only (``def fn_<n>(x, /, axis=None, out=None)``)
 9   IVY009  API: ``out: Optional[Union[ivy.Array, ivy.NativeArray]]``
10   IVY014  JAX backend: ``ivy.inplace_update(out, ret, ensure_in_backend=True)``
11   IVY010  API, compositional, yet wrapped with ``@handle_out_argument`` (its ``out=out`` is dead)
12   IVY011  API without ``@handle_view``, while NumPy and PyTorch return ``reshape`` views
13   IVY013  API, mixed (PyTorch ships a kernel): ``to_add`` lacks ``handle_out_argument``
14   IVY015  JAX backend: ``support_native_out = False``
15   IVY016  API without ``@handle_out_argument``, and no backend writes ``out`` (a count)
16   IVY017  API delegates to ``current_backend(x).fn_<n>``, which no backend defines
17   IVY018  TensorFlow backend: ``ivy.inplace_update(out)`` without the value
===  ======  ==================================================================================

Two exceptions keep ``tests/checker/test_incremental.py`` meaningful, which checks the
language server's incremental path on the first two API modules: residue 10 is a
backend-only mistake (the test edits the decorators of the clean API function ``fn_10``),
and those two modules hold no IVY013 mistake (``fn_13`` is clean): a
``mixed_backend_wrappers`` assignment activates IVY013, a whole-module rule, which turns the
incremental path off for its file. So IVY013 counts one fewer than the others.

Not planted:

- IVY012 (an instance method passing ``out=self``) belongs to the data classes
  (``ivy/data_classes/array/``, ``.../container/``), a part of Ivy this tree does not generate;
  a class with array methods inside a functional-API or backend module would not look like Ivy.
- IVY000 (a file that does not parse) and IVY999 (an internal error) are the engine's own codes,
  not rules: an unparsable file would also hide every other mistake planted in it.
- IVY100 (a ``# noqa`` code that suppresses nothing) is opt-in and judges suppression comments,
  which this tree does not write: a planted one would need a second mistake to be unused for.
"""

from __future__ import annotations

import argparse
from pathlib import Path

FUNCTIONS_PER_FILE = 50
MISTAKE_EVERY = 97
BACKENDS = ("numpy", "torch", "jax", "tensorflow")
NATIVE = {"numpy": "np", "torch": "torch", "jax": "jnp", "tensorflow": "tf"}
IMPORTS = {
    "numpy": "import numpy as np\n",
    "torch": "import torch\n",
    "jax": "import jax.numpy as jnp\n",
    "tensorflow": "import tensorflow as tf\n",
}
MOVEAXIS = {
    "numpy": "np.moveaxis",
    "torch": "torch.moveaxis",
    "jax": "jnp.moveaxis",
    "tensorflow": "tf.experimental.numpy.moveaxis",
}
COUNT_NONZERO = {
    "numpy": "np.count_nonzero(x, axis=axis)",
    "torch": "torch.count_nonzero(x, dim=axis)",
    "jax": "jnp.count_nonzero(x, axis=axis)",
    "tensorflow": "tf.math.count_nonzero(x, axis=axis)",
}

MISTAKES = (
    "IVY005",
    "IVY006",
    "IVY001",
    "IVY002",
    "IVY003",
    "IVY004",
    "IVY007",
    "IVY008",
    "IVY009",
    "IVY014",
    "IVY010",
    "IVY011",
    "IVY013",
    "IVY015",
    "IVY016",
    "IVY017",
    "IVY018",
)
"""The mistake of ``fn_<n>`` with ``n % MISTAKE_EVERY == i + 1`` is ``MISTAKES[i]``."""
WHOLE_MODULE = frozenset({"IVY013"})
"""Mistakes of non-local API rules: they would turn off the incremental check of their file."""
INCREMENTAL_MODULES = 2
"""The first API modules stay free of WHOLE_MODULE mistakes (see the module docstring)."""

API_HEADER = '''"""Generated functional API module {number}."""

from typing import Optional, Sequence, Union

import ivy
from ivy.func_wrapper import (
    handle_array_function,
    handle_array_like_without_promotion,
    handle_device,
    handle_exceptions,
    handle_nestable,
    handle_out_argument,
    handle_partial_mixed_function,
    handle_view,
    inputs_to_ivy_arrays,
    to_native_arrays_and_back,
)
from ivy.utils.backend import current_backend
'''

API_FUNCTION = '''

@handle_exceptions
@handle_nestable
@handle_array_like_without_promotion
@handle_out_argument
@to_native_arrays_and_back
@handle_array_function
@handle_device
def {name}(
    x: Union[ivy.Array, ivy.NativeArray],
    /,
    *,
    axis: Optional[int] = None,
    out: Optional[ivy.Array] = None,
) -> ivy.Array:
    """Compute {name} of ``x`` elementwise (generated)."""
    if axis is not None and axis < -x.ndim:
        raise ivy.utils.exceptions.IvyException("axis out of range")
    return current_backend(x).{name}(x, axis=axis, out=out)
'''

API_BAD_ORDER = """

@handle_exceptions
@handle_nestable
@to_native_arrays_and_back
@handle_out_argument
@handle_device
def {name}(x: Union[ivy.Array, ivy.NativeArray], /, *, out: Optional[ivy.Array] = None):
    return current_backend(x).{name}(x, out=out)
"""

API_VIEW_NO_COPY = """

@handle_exceptions
@handle_nestable
@handle_view
@handle_out_argument
@to_native_arrays_and_back
def {name}(
    x: Union[ivy.Array, ivy.NativeArray],
    /,
    shape: Sequence[int],
    *,
    out: Optional[ivy.Array] = None,
) -> ivy.Array:
    return current_backend(x).{name}(x, shape, out=out)
"""

API_NATIVE_AS_OUT = '''

@handle_exceptions
@handle_nestable
@handle_array_like_without_promotion
@inputs_to_ivy_arrays
@handle_array_function
def {name}(
    x: Union[ivy.Array, ivy.NativeArray],
    /,
    *,
    out: Optional[ivy.Array] = None,
) -> ivy.Array:
    """Softsign of ``x``, composed from other API functions (generated)."""
    denominator = ivy.add(ivy.abs(x), 1)
    ivy.reciprocal(denominator, out=denominator.data)
    return ivy.multiply(x, denominator, out=out)
'''

API_NATIVE_ANNOTATION = API_FUNCTION.replace(
    "out: Optional[ivy.Array] = None", "out: Optional[Union[ivy.Array, ivy.NativeArray]] = None"
)

API_COMPOSITIONAL_WRAPPED = '''

@handle_exceptions
@handle_nestable
@handle_array_like_without_promotion
@handle_out_argument
@inputs_to_ivy_arrays
@handle_array_function
def {name}(
    x: Union[ivy.Array, ivy.NativeArray],
    /,
    *,
    out: Optional[ivy.Array] = None,
) -> ivy.Array:
    """Softsign of ``x``, composed from other API functions (generated)."""
    return ivy.divide(x, ivy.add(ivy.abs(x), 1), out=out)
'''

API_VIEW_WITHOUT_HANDLE_VIEW = '''

@handle_exceptions
@handle_nestable
@handle_array_like_without_promotion
@handle_out_argument
@to_native_arrays_and_back
@handle_array_function
@handle_device
def {name}(
    x: Union[ivy.Array, ivy.NativeArray],
    /,
    shape: Sequence[int],
    *,
    copy: Optional[bool] = None,
    out: Optional[ivy.Array] = None,
) -> ivy.Array:
    """Give ``x`` a new shape without changing its data (generated)."""
    return current_backend(x).{name}(x, shape, copy=copy, out=out)
'''

API_MIXED_WITHOUT_OUT = '''

@handle_exceptions
@handle_nestable
@handle_partial_mixed_function
@handle_array_like_without_promotion
@inputs_to_ivy_arrays
@handle_array_function
def {name}(
    x: Union[ivy.Array, ivy.NativeArray],
    /,
    *,
    axis: Optional[int] = None,
    out: Optional[ivy.Array] = None,
) -> ivy.Array:
    """Softsign of ``x``: composed here, native on PyTorch (generated)."""
    if axis is not None:
        x = ivy.moveaxis(x, axis, -1)
    return ivy.divide(x, ivy.add(ivy.abs(x), 1), out=out)


{name}.mixed_backend_wrappers = {{
    "to_add": (
        "handle_backend_invalid",
        "inputs_to_native_arrays",
        "outputs_to_ivy_arrays",
    ),
    "to_skip": ("inputs_to_ivy_arrays", "handle_partial_mixed_function"),
}}
'''

API_OUT_DROPPED = '''

@handle_exceptions
@handle_nestable
@handle_array_like_without_promotion
@to_native_arrays_and_back
@handle_array_function
@handle_device
def {name}(
    x: Union[ivy.Array, ivy.NativeArray],
    /,
    *,
    axis: Optional[int] = None,
    out: Optional[ivy.Array] = None,
) -> ivy.Array:
    """Count the non-zero elements of ``x`` along ``axis`` (generated)."""
    return current_backend(x).{name}(x, axis=axis, out=out)
'''

BACKEND_NATIVE_OUT = '''

def {name}(x, /, *, axis=None, out=None):
    """Backend implementation of {name} (generated)."""
    if axis is not None:
        x = {moveaxis}(x, axis, -1)
    return {alias}.tanh(x, out=out)


{name}.support_native_out = True
'''

BACKEND_NO_OUT = '''

def {name}(x, /, *, axis=None, out=None):
    """Backend implementation of {name} (generated)."""
    if axis is not None:
        x = {moveaxis}(x, axis, -1)
    return {alias}.tanh(x)
'''

BACKEND_RESHAPE = '''

def {name}(x, /, shape, *, copy=None, out=None):
    """Backend implementation of {name} (generated)."""
    return {alias}.reshape(x, shape)
'''

BACKEND_COUNT = '''

def {name}(x, /, *, axis=None, out=None):
    """Backend implementation of {name} (generated)."""
    return {count}
'''

BACKEND_NATIVE_OUT_NO_ATTRIBUTE = BACKEND_NATIVE_OUT.replace(
    "\n\n\n{name}.support_native_out = True\n", "\n"
)

BACKEND_DEAD_ATTRIBUTE = BACKEND_NO_OUT + "\n\n{name}.support_native_out = True\n"

BACKEND_EARLY_RETURN = BACKEND_NATIVE_OUT.replace(
    "    if axis is not None:",
    "    if x.dim() == 0:\n        return {alias}.tanh(x)\n    if axis is not None:",
)

# The numpy template without the attribute, now in a backend whose native call rejects `out`.
BACKEND_REJECTED_OUT = BACKEND_NATIVE_OUT_NO_ATTRIBUTE

BACKEND_POSITIONAL_OUT = BACKEND_NATIVE_OUT.replace(
    "(x, /, *, axis=None, out=None)", "(x, /, axis=None, out=None)"
)

BACKEND_ENSURE_IN_BACKEND = '''

def {name}(x, /, *, axis=None, out=None):
    """Backend implementation of {name} (generated)."""
    if axis is not None:
        x = {moveaxis}(x, axis, -1)
    ret = {alias}.tanh(x)
    if ivy.exists(out):
        return ivy.inplace_update(out, ret, ensure_in_backend=True)
    return ret
'''

BACKEND_FALSE_ATTRIBUTE = BACKEND_NO_OUT + "\n\n{name}.support_native_out = False\n"

BACKEND_MIXED = '''

def {name}(x, /, *, axis=None, out=None):
    """Backend implementation of {name} (generated)."""
    if axis is not None:
        x = {moveaxis}(x, axis, -1)
    return torch.nn.functional.softsign(x)
'''

BACKEND_UPDATE_WITHOUT_VALUE = '''

def {name}(x, /, *, axis=None, out=None):
    """Backend implementation of {name} (generated)."""
    if axis is not None:
        x = {moveaxis}(x, axis, -1)
    ret = {alias}.tanh(x)
    if ivy.exists(out):
        return ivy.inplace_update(out)
    return ret
'''

NOT_DEFINED = ""
"""A backend template that writes nothing: the backend does not implement the function."""

API_TEMPLATES = {
    "IVY005": API_BAD_ORDER,
    "IVY006": API_VIEW_NO_COPY,
    "IVY007": API_NATIVE_AS_OUT,
    "IVY009": API_NATIVE_ANNOTATION,
    "IVY010": API_COMPOSITIONAL_WRAPPED,
    "IVY011": API_VIEW_WITHOUT_HANDLE_VIEW,
    "IVY013": API_MIXED_WITHOUT_OUT,
    "IVY016": API_OUT_DROPPED,
}
"""The mistakes that change the API function; every other function uses API_FUNCTION."""

BACKEND_TEMPLATES: dict[str, dict[str, str]] = {
    "IVY001": {"numpy": BACKEND_NATIVE_OUT_NO_ATTRIBUTE},
    "IVY002": {"tensorflow": BACKEND_DEAD_ATTRIBUTE},
    "IVY003": {"torch": BACKEND_EARLY_RETURN},
    "IVY004": {"jax": BACKEND_REJECTED_OUT},
    "IVY006": dict.fromkeys(BACKENDS, BACKEND_RESHAPE),
    "IVY007": dict.fromkeys(BACKENDS, NOT_DEFINED),
    "IVY008": {"torch": BACKEND_POSITIONAL_OUT},
    "IVY010": dict.fromkeys(BACKENDS, NOT_DEFINED),
    "IVY011": dict.fromkeys(BACKENDS, BACKEND_RESHAPE),
    "IVY013": {**dict.fromkeys(BACKENDS, NOT_DEFINED), "torch": BACKEND_MIXED},
    "IVY014": {"jax": BACKEND_ENSURE_IN_BACKEND},
    "IVY015": {"jax": BACKEND_FALSE_ATTRIBUTE},
    "IVY016": dict.fromkeys(BACKENDS, BACKEND_COUNT),
    "IVY017": dict.fromkeys(BACKENDS, NOT_DEFINED),
    "IVY018": {"tensorflow": BACKEND_UPDATE_WITHOUT_VALUE},
}
"""Per mistake, the backends whose implementation differs from the clean one (PyTorch-only
templates use ``x.dim()`` and ``torch.nn.functional``)."""


def mistake_of(number: int) -> str | None:
    """The rule code whose mistake ``fn_<number>`` carries, or ``None`` for a clean function."""
    slot = number % MISTAKE_EVERY
    if not 1 <= slot <= len(MISTAKES):
        return None
    code = MISTAKES[slot - 1]
    if code in WHOLE_MODULE and number < INCREMENTAL_MODULES * FUNCTIONS_PER_FILE:
        return None
    return code


def _api_function(number: int) -> str:
    template = API_TEMPLATES.get(mistake_of(number) or "", API_FUNCTION)
    return template.format(name=f"fn_{number}")


def _backend_function(backend: str, number: int) -> str:
    clean = BACKEND_NATIVE_OUT if backend in ("numpy", "torch") else BACKEND_NO_OUT
    template = BACKEND_TEMPLATES.get(mistake_of(number) or "", {}).get(backend, clean)
    return template.format(
        name=f"fn_{number}",
        alias=NATIVE[backend],
        moveaxis=MOVEAXIS[backend],
        count=COUNT_NONZERO[backend],
    )


def generate(root: Path, functions: int) -> list[Path]:
    """Write the tree; returns the files written."""
    written: list[Path] = []
    for start in range(0, functions, FUNCTIONS_PER_FILE):
        numbers = range(start, min(start + FUNCTIONS_PER_FILE, functions))
        module = f"module_{start // FUNCTIONS_PER_FILE:04d}.py"
        api = root / "ivy/functional/ivy" / module
        api.parent.mkdir(parents=True, exist_ok=True)
        api.write_text(
            API_HEADER.format(number=start // FUNCTIONS_PER_FILE)
            + "".join(_api_function(n) for n in numbers)
        )
        written.append(api)
        for backend in BACKENDS:
            path = root / "ivy/functional/backends" / backend / module
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(
                f'"""Generated {backend} backend module."""\n\nimport ivy\n'
                + IMPORTS[backend]
                + "".join(_backend_function(backend, n) for n in numbers)
            )
            written.append(path)
    return written


def expected_findings(functions: int) -> dict[str, int]:
    """How many findings per rule the generated tree holds (every planted rule, sorted)."""
    counts = dict.fromkeys(sorted(MISTAKES), 0)
    for number in range(functions):
        code = mistake_of(number)
        if code is not None:
            counts[code] += 1
    return counts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("root", type=Path)
    parser.add_argument("--functions", type=int, default=1000)
    options = parser.parse_args()
    files = generate(options.root, options.functions)
    lines = sum(len(path.read_text().splitlines()) for path in files)
    print(
        f"{len(files)} files, {lines} lines, expected findings {expected_findings(options.functions)}"
    )


if __name__ == "__main__":
    main()
