"""IVY000: this file does not parse (a missing closing parenthesis)."""

import ivy


def cross_entropy(true, pred, /, *, axis=-1, out=None):
    pred = ivy.clip(pred, 1e-7, 1 - 1e-7
    return ivy.negative(ivy.sum(ivy.log(pred) * true, axis=axis), out=out)
