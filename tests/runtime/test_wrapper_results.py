"""The built wrapper's result conversion: native arrays inside tuples, lists and named tuples
become ``ivy.Array`` and the container keeps its type (a named tuple keeps its fields)."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

import ivycheck.runtime as ivy
from ivycheck.runtime.dispatch.convert import wrap as _wrap


class Pair(NamedTuple):
    values: object
    count: object


def test_named_tuple_results_keep_their_type_and_fields() -> None:
    got = _wrap(Pair(np.arange(3), np.int64(2)), (np.ndarray,))
    assert type(got) is Pair
    assert isinstance(got.values, ivy.Array) and isinstance(got.count, ivy.Array)
    np.testing.assert_array_equal(ivy.to_numpy(got.values), [0, 1, 2])
    assert int(got.count) == 2


def test_plain_sequences_keep_their_type() -> None:
    got = _wrap([np.zeros(1), (np.ones(2), 3)], (np.ndarray,))
    assert type(got) is list and type(got[1]) is tuple
    assert isinstance(got[0], ivy.Array) and isinstance(got[1][0], ivy.Array)
    assert got[1][1] == 3


def test_unique_results_are_named_tuples_of_arrays(backend: str) -> None:
    got = ivy.unique_all(ivy.asarray([3, 1, 3]))
    assert got._fields == ("values", "indices", "inverse_indices", "counts")
    assert all(isinstance(a, ivy.Array) for a in got)
    assert ivy.to_numpy(got.counts).tolist() == [1, 2]
