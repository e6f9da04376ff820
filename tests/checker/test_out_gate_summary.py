"""What the index records of the project's own ``handle_out_argument`` gate (``if g(out):
flag = False`` turning the native path off) and of a backend function true for every native
array: IVY002's message on such a backend follows the code, not any function's name."""

from __future__ import annotations

import textwrap

from ivycheck.checker.project.index import ProjectIndex
from ivycheck.checker.project.summary import FileSummary, summarize
from ivycheck.rules._out_fate import NEVER, REBINDS, ignored_buffer_fate

GATED_THROUGH_API = """
import ivy

def handle_out_argument(fn):
    native = hasattr(fn, "support_native_out")

    def _wrapped(*args, out=None, **kwargs):
        nonlocal native
        if out is None:
            return fn(*args, out=out, **kwargs)
        if ivy.grads._trainable(out):
            native = False
        if native:
            ret = fn(*args, out=ivy.to_native(out), **kwargs)
            ivy.inplace_update(out, ret)
            return out
        return ivy.inplace_update(out, fn(*args, **kwargs))

    return _wrapped
"""

GATED_THROUGH_LOCAL = """
import ivy

def _frozen(x):
    return ivy.is_frozen(x, strict=False)

def handle_out_argument(fn):
    use = True

    def _wrapped(*args, out=None, **kwargs):
        nonlocal use
        if _frozen(out):
            use = False
        if use:
            ret = fn(*args, out=ivy.to_native(out), **kwargs)
            ivy.inplace_update(out, ret)
            return out
        return fn(*args, **kwargs)

    return _wrapped
"""

UNGATED = """
def handle_out_argument(fn):
    def _wrapped(*args, out=None, **kwargs):
        if is_trainable(out):
            print("trainable")
        ret = fn(*args, out=to_native(out), **kwargs)
        inplace_update(out, ret)
        return out

    return _wrapped
"""

API_HELPER = """
from ivy.utils.backend import current_backend

def _trainable(x, strict=False):
    x = ivy.to_native(x)
    return current_backend(x).is_trainable(x, strict=strict)
"""

ALWAYS = """
from ivy.functional.backends.jax import NativeArray

def is_trainable(x, /, *, strict=False):
    \"\"\"Every array is.\"\"\"
    if strict:
        return False
    return isinstance(x, NativeArray)
"""

VARIABLE_ONLY = """
import tensorflow as tf

def is_trainable(x, /, *, strict=False):
    return isinstance(x, tf.Variable)
"""

GRADIENT_ONLY = """
import torch

def is_trainable(x, /, *, strict=False):
    return isinstance(x, torch.Tensor) and x.requires_grad
"""

UNLESS_STRICT_TRUE = """
from ivy.functional.backends.jax import NativeArray

def is_trainable(x, /, *, strict=True):
    if strict:
        return False
    return isinstance(x, NativeArray)
"""

UPDATE = """
def inplace_update(x, val, /):
    x.data = val
    return x
"""


def _summary(text: str, path: str, part: str) -> FileSummary:
    return summarize(textwrap.dedent(text), path, part)


def test_gate_read_from_the_wrapper() -> None:
    wrapper = _summary(GATED_THROUGH_API, "ivy/func_wrapper.py", "other").out_wrapper
    assert wrapper is not None and wrapper.native_gate == "_trainable"


def test_gate_followed_through_a_local_helper() -> None:
    wrapper = _summary(GATED_THROUGH_LOCAL, "ivy/func_wrapper.py", "other").out_wrapper
    assert wrapper is not None and wrapper.native_gate == "is_frozen"


def test_a_test_that_does_not_turn_the_native_path_off_is_no_gate() -> None:
    wrapper = _summary(UNGATED, "ivy/func_wrapper.py", "other").out_wrapper
    assert wrapper is not None and wrapper.native_gate == ""


def test_true_for_arrays_only_for_a_bare_native_array_test() -> None:
    def read(text: str) -> bool:
        summary = _summary(text, "ivy/functional/backends/x/gradients.py", "backend:x")
        return summary.functions["is_trainable"].true_for_arrays

    assert read(ALWAYS)
    assert not read(VARIABLE_ONLY)
    assert not read(GRADIENT_ONLY)
    assert not read(UNLESS_STRICT_TRUE)  # the flag's default takes the `return False`


def _index(is_trainable: str) -> ProjectIndex:
    return ProjectIndex.build(
        [
            _summary(GATED_THROUGH_API, "ivy/func_wrapper.py", "other"),
            _summary(API_HELPER, "ivy/functional/ivy/grads.py", "functional"),
            _summary(is_trainable, "ivy/functional/backends/jax/grads.py", "backend:jax"),
            _summary(UPDATE, "ivy/functional/backends/jax/general.py", "backend:jax"),
        ]
    )


def test_fate_never_where_the_gate_is_true_for_every_array() -> None:
    fate = ignored_buffer_fate(_index(ALWAYS), "jax")
    assert fate.kind == NEVER and fate.gate == "is_trainable"
    assert "never hands `out`'s buffer" in fate.consequence


def test_fate_unchanged_where_the_gate_checks_a_variable_type() -> None:
    assert ignored_buffer_fate(_index(VARIABLE_ONLY), "jax").kind == REBINDS
