"""The out-fate table (``--show-settings``) built from projects written for it: each of the
shapes a reading by shape got wrong (issue 36) is read by what it does.

``scripts/probe_out_fate.py`` checks the same table against a real tree's own Ivy; here the
projects are ours, so every row is pinned."""

from __future__ import annotations

import textwrap

import pytest

from ivycheck.checker.project.index import ProjectIndex
from ivycheck.checker.project.summary import summarize
from ivycheck.rules import _fate_examples as shapes
from ivycheck.rules._out_fate import (
    COPIES,
    NEVER,
    REBINDS,
    UNKNOWN,
    UNWRITTEN,
    fate_table,
    ignored_buffer_fate,
    path_fate,
)


def _part(path: str) -> str:
    if "/backends/" in path:
        return "backend:" + path.split("/backends/")[1].split("/")[0]
    return "functional" if "/functional/ivy/" in path else "other"


def _index(files: dict[str, str]) -> ProjectIndex:
    return ProjectIndex.build(
        summarize(textwrap.dedent(text).lstrip("\n"), path, _part(path))
        for path, text in files.items()
    )


def _rows(index: ProjectIndex) -> dict[str, str]:
    rows: dict[str, str] = {}
    for line in fate_table(index):
        if line.startswith("# out-fate: "):
            backend, route, arity, same, other = line.removeprefix("# out-fate: ").split()
            rows[f"{backend} {route} {arity}"] = f"{same} {other}"
    return rows


GATED = shapes.GATED_PROJECT


def test_a_wrapper_rebinding_through_data_rebinds_on_every_backend() -> None:
    index = _index({**GATED, shapes.WRAPPER: shapes.WRAPPER_REBINDS_DATA})
    rows = _rows(index)
    for backend in ("numpy", "torch"):
        assert rows[f"{backend} native single"] == "same=rebinds other=rebinds"
        assert rows[f"{backend} native tuple"] == "same=rebinds other=rebinds"
    assert ignored_buffer_fate(index, "torch").kind == REBINDS


def test_a_copy_then_a_same_device_move_keeps_the_buffer() -> None:
    rows = _rows(_index(GATED))
    assert rows["torch native single"] == "same=copies other=copies"
    assert rows["numpy native single"] == "same=copies other=rebinds"
    # the wrapper's own cast to `out`'s dtype: the update then copies on both
    assert rows["torch wrapper single"] == "same=copies other=copies"
    assert rows["numpy wrapper single"] == "same=copies other=copies"


def test_a_gate_mapped_over_a_nest_keeps_every_tuple_off_the_native_path() -> None:
    index = _index(GATED)
    rows = _rows(index)
    assert rows["torch native tuple"] == "same=never other=never"
    fate = ignored_buffer_fate(index, "torch", several=True)
    assert (fate.kind, fate.tuples) == (NEVER, True)
    assert "never hands a tuple `out` over (its `is_frozen(out)`" in fate.clause()


def test_a_gate_asking_the_backend_directly_lets_a_tuple_through() -> None:
    direct = shapes.WRAPPER_GATED_BY_NEST.replace("ivy.grads.is_frozen(out)", "frozen(out)")
    fate = ignored_buffer_fate(_index({**GATED, shapes.WRAPPER: direct}), "torch", several=True)
    assert fate.kind == COPIES


def test_the_update_s_own_variable_test_needs_the_wrapper_s_gate() -> None:
    """Without the gate a frozen `out` reaches the update, whose storage it replaces: the
    two branches disagree, and the model says which test it could not decide."""
    ungated = shapes.WRAPPER_GATED_BY_NEST.replace("ivy.grads.is_frozen(out)", "False")
    index = _index({**GATED, shapes.WRAPPER: ungated})
    fate = ignored_buffer_fate(index, "torch")
    assert fate.kind == UNKNOWN
    assert fate.unread == f"{shapes.TORCH_GENERAL}:3: frozen(x_native)"
    assert fate.clause() == ""
    assert f"# unknown: {shapes.TORCH_GENERAL}:3: frozen(x_native)" in fate_table(index)


def test_an_update_the_model_cannot_read_is_unknown_with_its_statement() -> None:
    index = _index({**GATED, shapes.TORCH_GENERAL: shapes.UPDATE_UNREAD})
    fate = ignored_buffer_fate(index, "torch")
    assert (fate.kind, fate.unread) == (UNKNOWN, f"{shapes.TORCH_GENERAL}:2: x.data")
    assert f"# unknown: {shapes.TORCH_GENERAL}:2: x.data" in fate_table(index)


@pytest.mark.parametrize(
    ("native_path", "expected"),
    [
        ("ret = fn(*args, out=to_native(out), **kwargs)\n            return ret", UNWRITTEN),
        (
            "ret = fn(*args, out=to_native(out), **kwargs)\n"
            "            to_native(out)[...] = ret\n            return out",
            COPIES,
        ),
        (
            "ret = fn(*args, out=to_native(out), **kwargs)\n"
            "            to_native(out).copy_(ret)\n            return out",
            COPIES,
        ),
        (
            "ret = fn(*args, out=to_native(out), **kwargs)\n"
            "            to_native(out).set_(ret)\n            return out",
            REBINDS,
        ),
        (
            "ret = fn(*args, out=to_native(out), **kwargs)\n"
            "            out._data = astype(ret, out.dtype, copy=False)\n            return out",
            UNKNOWN,  # a new array of `out`'s dtype holding values not followed
        ),
    ],
)
def test_the_wrapper_s_own_writes(native_path: str, expected: str) -> None:
    wrapper = f"""
    def handle_out_argument(fn):
        def _wrapped(*args, out=None, **kwargs):
            if out is None:
                return fn(*args, **kwargs)
            {native_path}

        return _wrapped
    """
    index = _index({**GATED, shapes.WRAPPER: wrapper})
    fate = path_fate(index, "torch", "native", False, same_dtype=False)
    assert fate.kind == expected
