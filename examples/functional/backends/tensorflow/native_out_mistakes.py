"""TensorFlow backend: no native `out` (deliberate mistakes: IVY002, IVY004, IVY014, IVY018)."""

from typing import Optional, Union

import ivy
import tensorflow as tf
from tensorflow import math as tfm


# IVY002 (twice): attributes set in a loop over functions are attributes too.
def cosh(
    x: Union[tf.Tensor, tf.Variable], /, *, out: Optional[Union[tf.Tensor, tf.Variable]] = None
) -> Union[tf.Tensor, tf.Variable]:
    return tfm.cosh(x)


def sinh(
    x: Union[tf.Tensor, tf.Variable], /, *, out: Optional[Union[tf.Tensor, tf.Variable]] = None
) -> Union[tf.Tensor, tf.Variable]:
    return tfm.sinh(x)


for fn in (cosh, sinh):
    fn.support_native_out = True


# IVY004: TensorFlow takes `out` nowhere.
def arctan(
    x: Union[tf.Tensor, tf.Variable], /, *, out: Optional[Union[tf.Tensor, tf.Variable]] = None
) -> Union[tf.Tensor, tf.Variable]:
    return tfm.atan(x, out=out)


# IVY014: ensure_in_backend=True raises for a plain tf.Tensor.
# IVY018: inplace_update without the value to write.
def refresh(
    x: Union[tf.Tensor, tf.Variable], /, *, out: Optional[Union[tf.Tensor, tf.Variable]] = None
) -> Union[tf.Tensor, tf.Variable]:
    ret = tf.identity(x)
    if ivy.exists(out):
        ivy.inplace_update(out, ret, ensure_in_backend=True)
        return ivy.inplace_update(out)
    return ret
