"""Summaries and the project index: the cross-file facts rules rely on."""

from __future__ import annotations

import pickle

from ivycheck.checker.project.index import EncodedSummary, FunctionKind, ProjectIndex
from ivycheck.checker.project.summary import FileSummary, FunctionSummary, summarize

API = """\
import ivy
from ivy.utils.backend import current_backend


@handle_exceptions
@handle_out_argument
@to_native_arrays_and_back
def tan(x, /, *, out=None):
    return current_backend(x).tan(x, out=out)


@handle_exceptions
def cross_entropy(true, pred, /, *, axis=-1, out=None):
    return ivy.negative(ivy.sum(ivy.log(pred) * true, axis=axis), out=out)


@handle_partial_mixed_function
def layer_norm(x, *, out=None):
    return x


layer_norm.mixed_backend_wrappers = {"to_add": ("handle_out_argument",), "to_skip": ()}


def gelu(x):
    return x


def count_nonzero(x, *, out=None):
    return ivy.current_backend(x).count_nonzero(x)
"""

NUMPY = """\
import numpy as np


def tan(x, /, *, out=None):
    return np.tan(x, out=out)


def gelu(x):
    return x


def flip(x, *, copy=None, out=None, **kwargs):
    return np.flip(x)


def cos(x, *, out=None):
    return np.cos(x, out=out)


tan.support_native_out = True
setattr(cos, "support_native_out", True)
for fn in (flip, gelu):
    fn.support_native_out = False
flip = handle_view(flip)
"""


def _summaries() -> list[FileSummary]:
    return [
        summarize(API, "ivy/functional/ivy/a.py", "functional"),
        summarize(NUMPY, "ivy/functional/backends/numpy/a.py", "backend:numpy"),
        summarize("def tan(x):\n    return x\n", "b/jax.py", "backend:jax"),
    ]


def _index() -> ProjectIndex:
    return ProjectIndex.build(_summaries())


def _encoded_index() -> ProjectIndex:
    """As the CLI builds it from the cache: every summary still encoded."""
    return ProjectIndex.build(EncodedSummary.encode(s) for s in _summaries())


def test_an_index_of_encoded_summaries_answers_like_one_of_summaries() -> None:
    eager, lazy = _index(), _encoded_index()
    names = ["tan", "cos", "flip", "gelu", "cross_entropy", "layer_norm", "count_nonzero", "x"]
    for name in names:
        assert lazy.kind(name) == eager.kind(name)
        assert lazy.implementations(name) == eager.implementations(name)
        assert lazy.api_function(name) == eager.api_function(name)
    assert (
        lazy.parts()
        == eager.parts()
        == {
            "functional",
            "backend:numpy",
            "backend:jax",
        }
    )
    assert lazy.digest() == eager.digest()
    assert dict(lazy.files) == dict(eager.files)


def test_encoded_summaries_are_decoded_only_when_asked_about() -> None:
    index = _encoded_index()
    assert not index.files._decoded  # building needs names only
    assert index.digest() == _index().digest()
    assert not index.files._decoded  # nor does the digest
    index.implementations("flip")
    assert set(index.files._decoded) == {"ivy/functional/backends/numpy/a.py"}
    # A worker process gets the index pickled, still encoded where it was.
    shipped = pickle.loads(pickle.dumps(index))
    assert set(shipped.files._decoded) == {"ivy/functional/backends/numpy/a.py"}
    assert shipped.kind("tan") is FunctionKind.PRIMARY


def test_function_summary_records_signature_decorators_and_delegation() -> None:
    tan = _index().api_function("tan")
    assert tan is not None
    assert tan.decorators == [
        "handle_exceptions",
        "handle_out_argument",
        "to_native_arrays_and_back",
    ]
    assert tan.kwonly == ["out"] and tan.takes_out and tan.uses_out
    assert tan.backend_calls == ["tan"]


def test_attributes_set_directly_with_setattr_and_in_loops() -> None:
    index = _index()

    def numpy(name: str) -> FunctionSummary:
        return index.implementations(name)["numpy"]

    assert numpy("tan").attributes == {"support_native_out": "True"}
    assert numpy("cos").attributes == {"support_native_out": "True"}
    assert numpy("flip").attributes == {"support_native_out": "False"}
    assert numpy("gelu").attributes == {"support_native_out": "False"}


def test_wrapper_applied_by_assignment_counts_as_decorator() -> None:
    flip = _index().implementations("flip")["numpy"]
    assert flip.decorators == ["handle_view"]
    assert flip.has_var_kwargs


def test_kinds_primary_compositional_mixed() -> None:
    index = _index()
    assert index.kind("tan") is FunctionKind.PRIMARY
    assert index.kind("count_nonzero") is FunctionKind.PRIMARY
    assert index.kind("cross_entropy") is FunctionKind.COMPOSITIONAL
    assert index.kind("layer_norm") is FunctionKind.MIXED
    assert index.kind("gelu") is FunctionKind.PRIMARY
    assert index.kind("not_there") is None


def test_implementations_name_the_backends() -> None:
    assert sorted(_index().implementations("tan")) == ["jax", "numpy"]
    assert list(_index().implementations("cos")) == ["numpy"]


def test_unparsable_file_gives_empty_summary_with_error() -> None:
    summary = summarize("def f(:\n", "x.py", "other")
    assert summary.functions == {}
    assert summary.parse_error is not None and "SyntaxError" in summary.parse_error


def test_digest_changes_with_any_summary() -> None:
    first = _index().digest()
    changed = ProjectIndex.build(
        [summarize(API + "\ndef extra():\n    pass\n", "a.py", "functional")]
    )
    assert first == _index().digest()
    assert changed.digest() != first


def test_the_calls_of_an_argument_chain_are_qualified_through_the_imports() -> None:
    source = (
        "import numpy as np\nfrom torch import flip as tflip\n\n"
        "def reshape(x, shape, *, copy=None, out=None):\n"
        "    y = np.asarray(x)\n    return np.reshape(y, shape)\n\n"
        "def flip(x):\n    return tflip(x, (0,))\n"
    )
    functions = summarize(source, "b.py", "backend:numpy").functions
    assert functions["reshape"].argument_chains == [("numpy.asarray", "numpy.reshape")]
    assert functions["flip"].argument_chains == [("torch.flip",)]


def test_replacing_a_file_equals_rebuilding() -> None:
    index = _index()
    changed = NUMPY.replace("def gelu(x):", "def gelu2(x):")
    new = summarize(changed, "ivy/functional/backends/numpy/a.py", "backend:numpy")
    index.replace_file(new.path, new)
    rebuilt = ProjectIndex.build(
        [
            summarize(API, "ivy/functional/ivy/a.py", "functional"),
            new,
            summarize("def tan(x):\n    return x\n", "b/jax.py", "backend:jax"),
        ]
    )
    assert sorted(index.backends["numpy"]) == sorted(rebuilt.backends["numpy"])
    assert "gelu" not in index.backends["numpy"] and "gelu2" in index.backends["numpy"]
    assert sorted(index.functional) == sorted(rebuilt.functional)
    index.replace_file("ivy/functional/ivy/a.py", None)
    assert index.functional == {} and index.kind("tan") is None
