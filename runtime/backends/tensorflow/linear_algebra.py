"""TensorFlow linear algebra."""

from __future__ import annotations

from typing import Any

import tensorflow as tf

from ivycheck.runtime.backends.tensorflow.elementwise import _promote

Arr = Any


def matmul(x1: Arr, x2: Arr, /, *, out: Arr | None = None) -> Arr:
    return tf.linalg.matmul(*_promote(x1, x2))


def cholesky(x: Arr, /, *, upper: bool = False, out: Arr | None = None) -> Arr:
    ret = tf.linalg.cholesky(x)
    return tf.linalg.adjoint(ret) if upper else ret
