"""Per-call overhead of the runtime against the raw backend call; run by hand.

    .venv/bin/python benchmarks/runtime_overhead.py [--number N] [--repeat R] [--backend B]
    .venv/bin/python benchmarks/runtime_overhead.py --only-out [--backend B] [--threads T]

For each backend, nanoseconds per call of ``ivy.<function>`` on small arrays (shape (8,)
float32 vectors, a (4, 4) float32 matrix) next to the same operation called on the backend's
native arrays through its own library (NumPy; ``torch``; ``jax.numpy``; TensorFlow's
``tf.experimental.numpy`` / ``tf.linalg``), for 26 functions across elementwise, reduction,
manipulation/view, creation and linalg. The ratio is the runtime's cost over the raw call
(target: at most 2x); the floor ratio is what a wrapper with no logic at all would give (raw
call plus one Python frame and one ``ivy.Array``). Minimum over repeats (the least disturbed
run), the runtime's and the raw call's repeats taken in turn. Then, on JAX, the cost of an
in-place update through a 3-deep tracked view chain next to a direct ``.at[].set``.

``--out`` / ``--only-out`` (issue 24): a loop of 100 x (add, multiply, subtract) on (256, 256)
float32 with and without ``out`` and one call each of ``add``, ``x[1:5]``, ``zeros``,
``astype`` (by name and by native dtype), ``matmul``, ``add(out=)`` and ``x[1:5, None]``,
through the runtime, the raw backend (with its own
``out`` on NumPy and PyTorch; JAX and TensorFlow have none, so there the loop with ``out`` is
read against the runtime's loop without it) and the Array API peers (array-api-compat,
array-api-strict), all timed in turn per repeat, median of the repeats (``--stat min``: the
least disturbed one), as ratios; the load average is printed with them.
"""

from __future__ import annotations

import argparse
import statistics
import timeit
from collections.abc import Callable
from types import SimpleNamespace
from typing import Any

import numpy as np

import ivycheck.runtime as ivy
from ivycheck.runtime.array import bare_array

BACKENDS = ("numpy", "torch", "jax", "tensorflow")


def ns_per_call(fn: Callable[[], Any], number: int, repeat: int) -> float:
    """Best-of-``repeat`` nanoseconds per call."""
    fn()  # warm up (JIT caches, lazy imports)
    return min(timeit.repeat(fn, number=number, repeat=repeat)) / number * 1e9


def ns_per_call_paired(
    first: Callable[[], Any], second: Callable[[], Any], number: int, repeat: int
) -> tuple[float, float]:
    """Best-of-``repeat`` nanoseconds per call of each, the two timed in turn per repeat: on
    a shared machine a burst of load then slows both sides of a ratio, not only one."""
    first()  # warm up (JIT caches, lazy imports)
    second()
    times: tuple[list[float], list[float]] = ([], [])
    for _ in range(repeat):
        times[0].append(timeit.timeit(first, number=number))
        times[1].append(timeit.timeit(second, number=number))
    return min(times[0]) / number * 1e9, min(times[1]) / number * 1e9


def libraries(backend: str) -> SimpleNamespace:
    """The backend's own NumPy-like module (``np``), its linalg and names that differ."""
    if backend == "numpy":
        return SimpleNamespace(
            np=np, linalg=np.linalg, cat=np.concatenate, trace=np.trace, permute=np.permute_dims
        )
    if backend == "torch":
        import torch

        return SimpleNamespace(
            np=torch, linalg=torch.linalg, cat=torch.cat, trace=torch.trace, permute=torch.permute
        )
    if backend == "jax":
        import jax.numpy as jnp

        return SimpleNamespace(
            np=jnp,
            linalg=jnp.linalg,
            cat=jnp.concatenate,
            trace=jnp.trace,
            permute=jnp.permute_dims,
        )
    import tensorflow as tf
    import tensorflow.experimental.numpy as tnp

    return SimpleNamespace(
        np=tnp, linalg=tf.linalg, cat=tnp.concatenate, trace=tf.linalg.trace, permute=tnp.transpose
    )


# (category, label, ivy call, raw call) -- calls take (namespace, arrays); ``L`` is
# :func:`libraries` for the raw call, ``ivy`` for the runtime's.
Case = tuple[str, str, Callable[[Any], Any], Callable[[SimpleNamespace, Any], Any]]
CASES: list[Case] = [
    ("elementwise", "add", lambda a: ivy.add(a.x, a.y), lambda L, a: L.np.add(a.x, a.y)),
    ("elementwise", "multiply", lambda a: ivy.multiply(a.x, a.y), lambda L, a: L.np.multiply(a.x, a.y)),
    ("elementwise", "exp", lambda a: ivy.exp(a.x), lambda L, a: L.np.exp(a.x)),
    ("elementwise", "sin", lambda a: ivy.sin(a.x), lambda L, a: L.np.sin(a.x)),
    ("elementwise", "maximum", lambda a: ivy.maximum(a.x, a.y), lambda L, a: L.np.maximum(a.x, a.y)),
    ("elementwise", "less", lambda a: ivy.less(a.x, a.y), lambda L, a: L.np.less(a.x, a.y)),
    ("elementwise", "where", lambda a: ivy.where(a.c, a.x, a.y), lambda L, a: L.np.where(a.c, a.x, a.y)),
    ("reduction", "sum", lambda a: ivy.sum(a.x), lambda L, a: L.np.sum(a.x)),
    ("reduction", "mean", lambda a: ivy.mean(a.x), lambda L, a: L.np.mean(a.x)),
    ("reduction", "max", lambda a: ivy.max(a.x), lambda L, a: L.np.max(a.x)),
    ("reduction", "argmax", lambda a: ivy.argmax(a.x), lambda L, a: L.np.argmax(a.x)),
    ("manipulation", "reshape", lambda a: ivy.reshape(a.x, (2, 4)), lambda L, a: L.np.reshape(a.x, (2, 4))),
    ("manipulation", "permute_dims", lambda a: ivy.permute_dims(a.m, (1, 0)), lambda L, a: L.permute(a.m, (1, 0))),
    ("manipulation", "concat", lambda a: ivy.concat([a.x, a.y]), lambda L, a: L.cat([a.x, a.y])),
    ("manipulation", "stack", lambda a: ivy.stack([a.x, a.y]), lambda L, a: L.np.stack([a.x, a.y])),
    ("manipulation", "x[1:5] (get_item)", lambda a: a.x[1:5], lambda L, a: a.x[1:5]),
    ("creation", "zeros", lambda a: ivy.zeros((8,)), lambda L, a: L.np.zeros((8,), **L.f32)),
    ("creation", "ones", lambda a: ivy.ones((8,)), lambda L, a: L.np.ones((8,), **L.f32)),
    ("creation", "arange", lambda a: ivy.arange(8), lambda L, a: L.np.arange(8)),
    ("creation", "full", lambda a: ivy.full((8,), 2.0), lambda L, a: L.np.full((8,), 2.0, **L.f32)),
    ("creation", "eye", lambda a: ivy.eye(4), lambda L, a: L.np.eye(4, **L.f32)),
    ("linalg", "matmul", lambda a: ivy.matmul(a.m, a.m), lambda L, a: L.np.matmul(a.m, a.m)),
    ("linalg", "linalg.inv", lambda a: ivy.linalg.inv(a.m), lambda L, a: L.linalg.inv(a.m)),
    ("linalg", "linalg.det", lambda a: ivy.linalg.det(a.m), lambda L, a: L.linalg.det(a.m)),
    ("linalg", "linalg.trace", lambda a: ivy.linalg.trace(a.m), lambda L, a: L.trace(a.m)),
    ("linalg", "tensordot", lambda a: ivy.tensordot(a.m, a.m, axes=1), lambda L, a: L.np.tensordot(a.m, a.m, 1)),
]  # fmt: skip


def arrays(backend: str) -> tuple[SimpleNamespace, SimpleNamespace]:
    """The same values as ivy arrays and as the backend's native arrays."""
    values = {
        "x": np.linspace(-1, 1, 8, dtype=np.float32),
        "y": np.linspace(1, -1, 8, dtype=np.float32),
        "m": (np.eye(4) * 4 + np.arange(16).reshape(4, 4) / 16).astype(np.float32),
        "c": np.arange(8) % 2 == 0,
    }
    wrapped = {k: ivy.asarray(v) for k, v in values.items()}
    return SimpleNamespace(**wrapped), SimpleNamespace(
        **{k: ivy.to_native(v) for k, v in wrapped.items()}
    )


def wrapper_floor(number: int, repeat: int) -> float:
    """Nanoseconds that any Python-level wrapper adds to a call: one more Python frame and one
    ``ivy.Array`` (allocated, its native array set), with no check at all. ``raw + floor`` is
    the least a runtime call can cost; where that is above 2x the raw call, 2x is out of reach.
    """
    data = np.zeros(1)

    def minimal(native: Any) -> Any:
        wrapped = bare_array()  # how the runtime makes its results
        wrapped._data = native
        return wrapped

    bare = ns_per_call(lambda: data, number * 10, repeat)
    return ns_per_call(lambda: minimal(data), number * 10, repeat) - bare


def same_result(label: str, ours: Any, raw: Any) -> None:
    """The two calls of a row make the same array (dtype and shape): a ratio between two
    different operations (a float32 and a float64 ``zeros``) would measure nothing."""
    ours = ivy.to_native(ours)
    if (str(ours.dtype), tuple(ours.shape)) != (str(raw.dtype), tuple(raw.shape)):
        raise SystemExit(
            f"{label}: the runtime gives {ours.dtype}{tuple(ours.shape)}, the raw "
            f"call {raw.dtype}{tuple(raw.shape)}: not the same operation"
        )


def run_backend(backend: str, number: int, repeat: int) -> list[tuple[str, str, float, float]]:
    rows = []
    with ivy.using_backend(backend):
        lib = libraries(backend)
        # The raw creation calls ask for float32 where the backend's default float differs
        # (NumPy, and JAX/TensorFlow with 64-bit types on): the runtime's default is float32.
        float32 = ivy.to_native(ivy.zeros(1)).dtype
        lib.f32 = {} if lib.np.zeros(1).dtype == float32 else {"dtype": float32}
        wrapped, native = arrays(backend)
        for category, label, ivy_call, raw_call in CASES:
            same_result(label, ivy_call(wrapped), raw_call(lib, native))
            t_ivy, t_raw = ns_per_call_paired(
                lambda f=ivy_call: f(wrapped),  # type: ignore[misc]
                lambda f=raw_call: f(lib, native),  # type: ignore[misc]
                number,
                repeat,
            )
            rows.append((category, label, t_ivy, t_raw))
    return rows


def view_chain(number: int, repeat: int) -> None:
    with ivy.using_backend("jax"):
        import jax.numpy as jnp

        base = ivy.zeros((64, 64))
        view = ivy.flip(ivy.permute_dims(base[8:40, ::2], (1, 0)), axis=0)  # 3-deep chain
        value = ivy.ones(view.shape)
        number = max(number // 20, 100)
        tracked = ns_per_call(lambda: ivy.inplace_update(view, value), number, repeat)
        native = jnp.zeros((64, 64))
        ones = jnp.ones((32, 32))
        direct = ns_per_call(lambda: native.at[8:40, ::2].set(jnp.flip(ones, 0).T), number, repeat)
        print(f"\n{'jax update through 3-deep view':<34} {tracked:>9.0f} ns")
        print(f"{'jax direct .at[].set (same region)':<34} {direct:>9.0f} ns")
        print(f"{'ratio':<34} {tracked / direct:>9.2f}")


def interleaved(fns: dict[str, Callable[[], Any]], number: int, repeat: int) -> dict[str, float]:
    """Median seconds per call of each of ``fns``, all timed once per repeat, in turn: a burst
    of load on a shared machine then slows every column of a ratio, not one."""
    for fn in fns.values():
        fn()  # warm up (JIT caches, lazy imports, the out check's memo)
    times: dict[str, list[float]] = {k: [] for k in fns}
    for _ in range(repeat):
        for name, fn in fns.items():
            times[name].append(timeit.timeit(fn, number=number) / number)
    return {k: STAT[0](v) for k, v in times.items()}


STAT: list[Callable[[list[float]], float]] = [statistics.median]
"""How the repeats of ``interleaved`` are summarised (``--stat``): the median, or the minimum
(the least disturbed repeat: on a shared machine whole repeats run at a fraction of a core)."""


def peers(backend: str) -> dict[str, Any]:
    """The Array API peers to compare with on ``backend``: array-api-compat's namespace of its
    native arrays (not TensorFlow) and, on NumPy, array-api-strict."""
    found: dict[str, Any] = {}
    try:
        import array_api_compat
    except ImportError:
        array_api_compat = None
    if array_api_compat is not None and backend != "tensorflow":
        found["compat"] = array_api_compat.array_namespace(ivy.to_native(ivy.zeros(1)))
    if backend == "numpy":
        try:
            import array_api_strict
        except ImportError:
            pass
        else:
            found["strict"] = array_api_strict
    return found


def ivy_loops(a: Any, b: Any, o: Any, steps: int) -> tuple[Callable[[], None], Callable[[], None]]:
    """``steps`` x (add, multiply, subtract) through the runtime, without ``out`` and into
    ``o``: the loops ``out_loop`` and ``runtime_out_paired.py`` time."""

    def plain() -> None:
        for _ in range(steps):
            t = ivy.add(a, b)
            t = ivy.multiply(t, a)
            t = ivy.subtract(t, b)

    def with_out() -> None:
        for _ in range(steps):
            ivy.add(a, b, out=o)
            ivy.multiply(o, a, out=o)
            ivy.subtract(o, b, out=o)

    return plain, with_out


def out_loop(backend: str, repeat: int, steps: int = 100) -> dict[str, float]:
    """ms of ``steps`` x (add, multiply, subtract) on (256, 256) float32, with and without
    ``out``, through the runtime, the raw backend, and the peers."""
    lib = libraries(backend).np
    values = np.linspace(-1, 1, 256 * 256, dtype=np.float32).reshape(256, 256)
    a, b = ivy.asarray(values), ivy.asarray(values[::-1].copy())
    o = ivy.zeros((256, 256))
    na, nb, no = ivy.to_native(a), ivy.to_native(b), ivy.to_native(o)
    ivy_plain, ivy_out = ivy_loops(a, b, o, steps)

    def raw_plain(xp: Any = lib, x: Any = na, y: Any = nb) -> Callable[[], None]:
        def loop() -> None:
            for _ in range(steps):
                t = xp.add(x, y)
                t = xp.multiply(t, x)
                t = xp.subtract(t, y)

        return loop

    fns: dict[str, Callable[[], Any]] = {"ivy": ivy_plain, "ivy out": ivy_out, "raw": raw_plain()}
    if backend in ("numpy", "torch"):
        mul = lib.multiply if backend == "numpy" else lib.mul
        sub = lib.subtract if backend == "numpy" else lib.sub

        def raw_out() -> None:
            for _ in range(steps):
                lib.add(na, nb, out=no)
                mul(no, na, out=no)
                sub(no, nb, out=no)

        fns["raw out"] = raw_out
    for name, xp in peers(backend).items():
        if name == "strict":
            sa, sb = xp.asarray(values), xp.asarray(values[::-1].copy())
            fns[name] = raw_plain(xp, sa, sb)
        else:
            fns[name] = raw_plain(xp)
    return {k: v * 1e3 for k, v in interleaved(fns, 1, repeat).items()}


def out_calls(backend: str, number: int, repeat: int) -> list[tuple[str, dict[str, float]]]:
    """ns per call of the out= and basic rows, runtime against raw and the peers."""
    lib = libraries(backend)
    wrapped, native = arrays(backend)
    o = ivy.zeros((8,))
    no = ivy.to_native(o)
    f64 = ivy.to_native(ivy.zeros(1, dtype="float64")).dtype
    f32 = native.x.dtype
    astype_raw = {
        "numpy": lambda: native.x.astype(f64),
        "torch": lambda: native.x.to(f64),
        "jax": lambda: native.x.astype(f64),
    }.get(backend, lambda: __import__("tensorflow").cast(native.x, f64))
    rows: list[tuple[str, dict[str, Callable[[], Any]]]] = [
        ("add", {"ivy": lambda: ivy.add(wrapped.x, wrapped.y), "raw": lambda: lib.np.add(native.x, native.y)}),
        ("x[1:5]", {"ivy": lambda: wrapped.x[1:5], "raw": lambda: native.x[1:5]}),
        ("zeros", {"ivy": lambda: ivy.zeros((8,)), "raw": lambda: lib.np.zeros((8,), dtype=f32)}),
        ("astype", {"ivy": lambda: ivy.astype(wrapped.x, "float64"), "raw": astype_raw}),
        ("matmul", {"ivy": lambda: ivy.matmul(wrapped.m, wrapped.m), "raw": lambda: lib.np.matmul(native.m, native.m)}),
        ("add out=", {"ivy": lambda: ivy.add(wrapped.x, wrapped.y, out=o)}),
        ("astype native dtype", {"ivy": lambda: ivy.astype(wrapped.x, f64), "raw": astype_raw}),
        ("x[1:5, None]", {"ivy": lambda: wrapped.x[1:5, None], "raw": lambda: native.x[1:5, None]}),
    ]  # fmt: skip
    if backend in ("numpy", "torch"):
        rows[5][1]["raw"] = lambda: lib.np.add(native.x, native.y, out=no)
    else:
        rows[5][1]["raw"] = rows[0][1]["raw"]  # no native out: the call without it
    for name, xp in peers(backend).items():
        if name == "strict":
            sx, sy = xp.asarray(np.asarray(native.x)), xp.asarray(np.asarray(native.y))
            sm = xp.asarray(np.asarray(native.m))
        else:
            sx, sy, sm = native.x, native.y, native.m
        rows[0][1][name] = lambda xp=xp, sx=sx, sy=sy: xp.add(sx, sy)
        rows[1][1][name] = lambda sx=sx: sx[1:5]
        rows[2][1][name] = lambda xp=xp: xp.zeros((8,), dtype=xp.float32)
        rows[3][1][name] = lambda xp=xp, sx=sx: xp.astype(sx, xp.float64)
        rows[4][1][name] = lambda xp=xp, sm=sm: xp.matmul(sm, sm)
    return [
        (label, {k: v * 1e9 for k, v in interleaved(fns, number, repeat).items()})
        for label, fns in rows
    ]


def out_report(backends: list[str], number: int, repeat: int, threads: int) -> None:
    print(f"\n# out= and the basic calls ({STAT[0].__name__} of interleaved repeats)")
    print(f"(PyTorch intra-op threads: {threads}; load average: {load_average()})")
    floor = wrapper_floor(number, repeat)
    print(
        f"one Python frame + one ivy.Array, no check (the floor of any Python wrapper; the "
        f"runtime's C paths go below it): {floor:.0f} ns"
    )
    for backend in backends:
        with ivy.using_backend(backend):
            if backend == "torch":
                import torch

                torch.set_num_threads(threads)
            loop = out_loop(backend, repeat)
            calls = out_calls(backend, number, repeat)
        raw_out = loop.get("raw out", loop["raw"])
        print(f"\n## {backend}: 100 x (add, multiply, subtract), (256, 256) float32, ms\n")
        ratios = {"ivy / raw": loop["ivy"] / loop["raw"]}
        if "raw out" in loop:
            ratios["ivy out / raw out"] = loop["ivy out"] / raw_out
        ratios["ivy out / ivy"] = loop["ivy out"] / loop["ivy"]
        ratios.update(
            {f"{k} / raw": loop[k] / loop["raw"] for k in ("compat", "strict") if k in loop}
        )
        print("| " + " | ".join([*loop, *ratios]) + " |")
        print("|" + "---:|" * (len(loop) + len(ratios)))
        cells = [f"{v:.2f}" for v in loop.values()] + [f"**{v:.2f}**" for v in ratios.values()]
        print("| " + " | ".join(cells) + " |")
        print(f"\n## {backend}: one call, shape (8,) / (4, 4), ns; ratios to raw\n")
        names = list(calls[0][1])
        others = [n for n in names if n != "raw"]
        head = [*names, *(f"{n} / raw" for n in others), "floor / raw"]
        print("| call | " + " | ".join(head) + " |")
        print("|---|" + "---:|" * len(head))
        for label, t in calls:
            cells = [f"{t[n]:.0f}" if n in t else "-" for n in names]
            cells += [f"**{t[n] / t['raw']:.2f}**" if n in t else "-" for n in others]
            cells.append(f"{(t['raw'] + floor) / t['raw']:.2f}")
            print(f"| `{label}` | " + " | ".join(cells) + " |")


def load_average() -> str:
    """The 1-minute load average (the machine may be shared: ratios are read against it)."""
    try:
        with open("/proc/loadavg") as f:
            return f.read().split()[0]
    except OSError:
        return "?"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--number", type=int, default=2_000)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--backend", choices=BACKENDS, action="append")
    parser.add_argument("--out", action="store_true", help="also the out= comparison")
    parser.add_argument("--only-out", action="store_true", help="only the out= comparison")
    parser.add_argument(
        "--threads",
        type=int,
        default=1,
        help="PyTorch intra-op threads in the out= comparison (default 1: on a loaded machine "
        "the wake-up of a second thread varies a (256, 256) kernel's time a hundredfold, "
        "for the runtime and the raw call alike)",
    )
    parser.add_argument("--stat", choices=("median", "min"), default="median")
    args = parser.parse_args()
    STAT[0] = min if args.stat == "min" else statistics.median
    if args.only_out:
        out_report(args.backend or list(BACKENDS), args.number, args.repeat, args.threads)
        return
    summary = []
    floor = wrapper_floor(args.number, args.repeat)
    print(
        f"one Python frame + one ivy.Array, no check (the floor of any Python wrapper; the "
        f"runtime's C paths go below it): {floor:.0f} ns"
    )
    for backend in args.backend or BACKENDS:
        rows = run_backend(backend, args.number, args.repeat)
        print(f"\n## {backend}\n")
        print("| category | function | ivy ns | raw ns | ratio | floor ratio |")
        print("|---|---|---:|---:|---:|---:|")
        for category, label, t_ivy, t_raw in rows:
            print(
                f"| {category} | `{label}` | {t_ivy:.0f} | {t_raw:.0f} | {t_ivy / t_raw:.2f} "
                f"| {(t_raw + floor) / t_raw:.2f} |"
            )
        ratios = [t_ivy / t_raw for *_, t_ivy, t_raw in rows]
        over = [label for _, label, t_ivy, t_raw in rows if t_ivy > 2 * t_raw]
        summary.append((backend, statistics.median(ratios), max(ratios), over))
    print("\n| backend | median ratio | max ratio | above 2x |\n|---|---:|---:|---|")
    for backend, median, worst, over in summary:
        print(f"| {backend} | {median:.2f} | {worst:.2f} | {', '.join(over) or '-'} |")
    if not args.backend or "jax" in args.backend:
        view_chain(args.number, args.repeat)
    if args.out:
        out_report(args.backend or list(BACKENDS), args.number, args.repeat, args.threads)


if __name__ == "__main__":
    main()
