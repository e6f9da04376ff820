"""Array object methods the standard specifies with exact signatures."""

from __future__ import annotations

import inspect

import numpy as np

import ivycheck.runtime as ivy


def test_dlpack_signature_is_the_standards() -> None:
    params = inspect.signature(ivy.Array.__dlpack__).parameters
    assert list(params)[1:] == ["stream", "max_version", "dl_device", "copy"]
    assert all(p.kind is p.KEYWORD_ONLY and p.default is None for p in list(params.values())[1:])


def test_dlpack_round_trip(backend: str) -> None:
    x = ivy.asarray([1.0, 2.0, 3.0])
    y = ivy.from_dlpack(x)
    np.testing.assert_array_equal(ivy.to_numpy(y), [1.0, 2.0, 3.0])


def test_dlpack_copy_exports_memory_of_its_own() -> None:
    with ivy.using_backend("numpy"):
        x = ivy.asarray([1.0, 2.0])

        class Copied:  # a consumer that asks for a copy
            def __dlpack__(self, **kwargs: object) -> object:
                return x.__dlpack__(copy=True)

            def __dlpack_device__(self) -> tuple[int, int]:
                return x.__dlpack_device__()

        exported = np.from_dlpack(Copied())
        x[0] = 9.0
        assert exported.tolist() == [1.0, 2.0]


def test_copy_deepcopy_and_pickle_keep_the_values(backend: str) -> None:
    # ``_data`` lives in C (``ArrayBase``) where the C paths are built, in a slot otherwise:
    # both copy and pickle alike. A view copies to an array of its values, as NumPy's does.
    import copy
    import pickle

    x = ivy.asarray(np.arange(4.0, dtype=np.float32))
    view = ivy.flip(x)
    for original, values in ((x, [0.0, 1.0, 2.0, 3.0]), (view, [3.0, 2.0, 1.0, 0.0])):
        shallow = copy.copy(original)
        deep = copy.deepcopy(original)
        loaded = pickle.loads(pickle.dumps(original))
        for made in (shallow, deep, loaded):
            assert type(made) is ivy.Array and made.dtype == ivy.float32
            np.testing.assert_array_equal(ivy.to_numpy(made), values)
    assert copy.copy(x)._data is x._data  # shallow: the same native array
    deep = copy.deepcopy(x)
    x[0] = 100.0
    assert float(deep[0]) == 0.0  # deep: a buffer of its own
