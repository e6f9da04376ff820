"""TensorFlow data-type functions (tensors are immutable: ``copy`` cannot be observed)."""

from __future__ import annotations

from typing import Any

import tensorflow as tf

from ivycheck.runtime.backends.tensorflow import utility
from ivycheck.runtime.backends.tensorflow.primitives import target_dtype


def astype(x: Any, dtype: Any, /, *, copy: bool = True) -> Any:
    target = target_dtype(dtype)
    if target == tf.bool:  # tf.cast flushes subnormals to zero: ask the bits
        return utility.truth(x)
    return tf.cast(x, target)
