"""Code that runs in the middle of a call never crashes it, and C answers as Python does.

A call into Python code -- an argument's ``__hash__``, ``__eq__`` or ``__index__``, a native
array's ``__array_ufunc__``, a gc callback, another thread -- may switch the backend or rebind
an array's data while a call of the C paths (``runtime/_speedups.c``) is in flight. Each
reproducer in ``_reentrancy_cases.py`` runs in a process of its own, with the C paths and with
``IVYCHECK_PURE_PYTHON=1``: neither may crash (a segfault; under ``make test-sanitize``, an
AddressSanitizer report ends the process too) and the outcomes must be the same line. The
subprocesses inherit the environment, so ``make test-sanitize`` runs them on its own build.
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from pathlib import Path

import numpy as np
import pytest

import ivycheck.runtime as ivy
from ivycheck.runtime.speedups import SPEEDUPS

from . import _reentrancy_cases as cases

SCRIPT = Path(cases.__file__)

IN_FLIGHT = ("gc_callback_switches", "threads_switch_while_others_compute")
"""Timing decides which backend answers each call there: no crash is the test."""
SAME_ANSWER = [name for name in cases.CASES if name not in IN_FLIGHT]


def run(names: list[str], *, pure: bool) -> list[str]:
    env = dict(os.environ)
    env.pop("IVYCHECK_PURE_PYTHON", None)
    if pure:
        env["IVYCHECK_PURE_PYTHON"] = "1"
    done = subprocess.run(
        [sys.executable, str(SCRIPT), *names],
        env=env,
        capture_output=True,
        text=True,
        check=False,
        timeout=600,
    )
    assert done.returncode == 0, (done.returncode, done.stderr[-4000:])
    lines = [line for line in done.stdout.splitlines() if ":" in line]
    assert [line.split(":")[0] for line in lines] == names, done.stdout
    return lines


def test_every_reproducer_answers_in_c_as_in_python() -> None:
    # on the paths this process uses (C where built): each reproducer reaches the state it is
    # about -- a switch that happened, data that was rebound, a list that was emptied
    used = run(SAME_ANSWER, pure=SPEEDUPS is None)
    lines = dict(line.split(": ", 1) for line in used)
    assert lines["item_index_switches"].startswith("Array of Tensor")  # finished by PyTorch
    assert lines["unary_call_switches"].startswith("Array of Tensor")
    assert lines["astype_hash_frees_data"].endswith("[0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0]")
    assert lines["zeros_of_a_shrinking_list"] == "Array of ndarray float32 0.0"  # zeros([])
    # unchanged (a failed update changes nothing) or written once; a second native try would
    # have read the exponents the first one wrote ([16, ...])
    assert lines["failed_out_is_not_retried"].endswith(("out [1, -1, 2, -2]", "out [4, -1, 2, -2]"))
    assert "raises" not in lines["pickle_every_protocol"]
    if SPEEDUPS is not None:  # and the Python paths answer each one alike
        for got, want in zip(used, run(SAME_ANSWER, pure=True), strict=True):
            assert got == want


@pytest.mark.parametrize("name", IN_FLIGHT)
def test_switching_while_calls_are_in_flight_never_crashes(name: str) -> None:
    assert run([name], pure=False) == [f"{name}: done"]


def test_threads_switching_at_once_leave_one_backend_bound() -> None:
    # ``set_backend`` in two threads at once: each switch binds every function whole (one
    # switch at a time), so the functions end bound to the backend the state records
    names = ["numpy", "torch"]
    for name in names:
        with ivy.using_backend(name):
            ivy.abs(ivy.asarray(np.ones(2)))

    def switch(name: str) -> None:
        for _ in range(20):
            ivy.set_backend(name)
            ivy.unset_backend()
        ivy.set_backend(name)

    threads = [threading.Thread(target=switch, args=(n,)) for n in names]
    try:
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        backend = ivy.current_backend_str()
        native = type(ivy.to_native(ivy.zeros((2,))))
        assert native.__module__.split(".")[0] == ("numpy" if backend == "numpy" else "torch")
        x = ivy.zeros((2,))
        for fn in (ivy.abs, ivy.negative, ivy.sqrt, ivy.exp):
            assert type(ivy.to_native(fn(x))) is native, fn.__name__
    finally:
        ivy.unset_backend()
        ivy.unset_backend()


def test_a_switch_during_a_switch_binds_every_function_to_the_recorded_backend() -> None:
    # a finalizer run while ``set_backend`` binds (here: when the last function is bound,
    # every other one bound already) switches again; every function must end bound to the
    # backend the state records
    from ivycheck.runtime.dispatch import public

    first = list(public.REGISTRY.values())[-1]
    original = first.__ivy_bind__  # type: ignore[attr-defined]
    switched = []

    def bind_and_switch(built: object) -> object:
        if not switched:
            switched.append(True)
            ivy.set_backend("torch")  # nested: completes first
        return original(built)

    ivy.abs(ivy.asarray(np.ones(2)))
    with ivy.using_backend("torch"):
        pass
    first.__ivy_bind__ = bind_and_switch  # type: ignore[attr-defined]
    try:
        ivy.set_backend("numpy")
    finally:
        first.__ivy_bind__ = original  # type: ignore[attr-defined]
    try:
        assert ivy.current_backend_str() == "numpy"
        x = ivy.zeros((2,))
        for fn in (ivy.abs, ivy.negative, ivy.sqrt, ivy.exp):
            assert type(ivy.to_native(fn(x))) is np.ndarray, fn.__name__
    finally:
        ivy.unset_backend()
        ivy.unset_backend()
