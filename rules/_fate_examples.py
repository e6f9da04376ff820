"""Project files whose shapes the out-fate model must read by what they do (issue 36).

Written for ivycheck (never copied from a checked tree): each is a wrapper or a backend
update that a reading by shape got wrong. The rules' VALID/INVALID examples put them in a
project beside the function they check (``Example(files=...)``), and
``tests/checker/test_out_fate_table.py`` checks the fate table the model builds from them.
"""

from __future__ import annotations

WRAPPER = "ivy/func_wrapper.py"
API_GRADS = "ivy/functional/ivy/grads.py"
NP_GENERAL = "ivy/functional/backends/numpy/general.py"
TORCH_GENERAL = "ivy/functional/backends/torch/general.py"
TORCH_GRADS = "ivy/functional/backends/torch/grads.py"

WRAPPER_REBINDS_DATA = """
    def handle_out_argument(fn):
        def _wrapped(*args, out=None, **kwargs):
            if out is None:
                return fn(*args, **kwargs)
            ret = fn(*args, out=to_native(out), **kwargs)
            if isinstance(ret, (tuple, list)):
                for item, value in zip(out, ret):
                    item.data = to_native(value)
            else:
                out.data = to_native(ret)
            return out

        return _wrapped
    """
"""Ends its native path by assigning the result to ``out``'s data attribute: ``out`` is
rebound (the result's buffer and dtype) on every backend, whatever the update does."""

WRAPPER_GATED_BY_NEST = """
    def handle_out_argument(fn):
        native = hasattr(fn, "support_native_out")

        def _wrapped(*args, out=None, **kwargs):
            nonlocal native
            if out is None:
                return fn(*args, **kwargs)
            if ivy.grads.is_frozen(out):
                native = False
            if native:
                ret = fn(*args, out=to_native(out), **kwargs)
                write_into(out, ret)
                return out
            return write_into(out, astype(fn(*args, **kwargs), dtype(out)))

        return _wrapped
    """
"""Turns its native path off where ``is_frozen(out)`` holds; ``is_frozen`` (:data:`API_FROZEN`)
maps its test over a nest, so it holds for every tuple ``out``."""

API_FROZEN = """
    def is_frozen(x):
        x = to_native(x, nested=True)
        return nest_map(lambda item: current_backend(item).frozen(item), x)
    """
"""The gate's API helper: a nest of answers, one per item."""

TORCH_FROZEN = """
    import torch


    def frozen(x):
        return isinstance(x, torch.Tensor) and x.requires_grad
    """
"""True only for a tensor that requires a gradient: a plain tensor passes the gate."""

UPDATE_COPIES_THEN_MOVES = """
    def write_into(x, val, /, *, strict=False):
        x_native, val_native = to_native(x), to_native(val)
        if frozen(x_native):
            x_native.data = val_native
        else:
            x_native[()] = val_native
        x_native = x_native.to(val_native.device)
        x.data = x_native
        return x
    """
"""Copies into ``out``'s buffer (a frozen tensor's storage is replaced instead, but the
gate keeps those off the native path), then moves the local to the value's device: on
that device ``.to`` returns the same tensor, so ``out`` keeps its buffer and dtype."""

UPDATE_CASTS_BUFFER = """
    import numpy as np


    def write_into(x, val, /):
        x_native = to_native(x)
        if x_native.dtype != val.dtype:
            x_native = x_native.astype(val.dtype)
        np.copyto(x_native, val)
        x.data = x_native
        return x
    """
"""Casts ``out``'s buffer to the value's dtype before copying: ``out`` keeps its buffer
for a value of its own dtype and is rebound for another."""

UPDATE_UNREAD = """
    def write_into(x, val, /):
        x.data = reformat(val)
        return x
    """
"""Gives ``out`` what a function of another module makes of the value: not read."""

GATED_PROJECT = {
    WRAPPER: WRAPPER_GATED_BY_NEST,
    API_GRADS: API_FROZEN,
    TORCH_GRADS: TORCH_FROZEN,
    TORCH_GENERAL: UPDATE_COPIES_THEN_MOVES,
    NP_GENERAL: UPDATE_CASTS_BUFFER,
}
"""A project of these files: the gated wrapper, its helper, PyTorch's and NumPy's updates."""

WRAPPER_UPDATES_OUT = """
    def handle_out_argument(fn):
        def _wrapped(*args, out=None, **kwargs):
            if out is None:
                return fn(*args, **kwargs)
            ret = fn(*args, out=to_native(out), **kwargs)
            inplace_update(out, ret)
            return out

        return _wrapped
    """
"""Writes the native call's result into ``out`` afterwards with the backend's update: what
``out`` becomes is the update's doing (:data:`UPDATE_COPIES`, :data:`UPDATE_REBINDS`)."""

UPDATE_COPIES = """
    def inplace_update(x, val, /):
        x_native = to_native(x)
        x_native[()] = to_native(val)
        return x
    """
"""Copies the value into ``out``'s buffer, which keeps its dtype."""

UPDATE_REBINDS = """
    def inplace_update(x, val, /):
        x.data = to_native(val)
        return x
    """
"""Rebinds ``out`` to the value: its dtype and buffer."""
