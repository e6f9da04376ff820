"""Check the out-fate table ivycheck prints for an Ivy tree against that tree's own Ivy.

``ivycheck --show-settings <tree>`` prints, per backend, path (``native``: the function was
handed ``out``'s native buffer and returned a new result instead; ``wrapper``: called
without ``out``), ``out`` a single array or a tuple, and ``out`` of the result's dtype
(``same``) or another (``other``), what the model (``checker/project/out_effects.py``) says
``out`` becomes: ``copies``, ``rebinds``, ``unwritten``, ``never`` or ``unknown``. This
script imports the tree's own ``ivy`` (in a child process, with only that tree on
``sys.path``; the optional dependencies it lacks are stood in for as ``make verify-fixes``
does), wraps a probe function with the tree's ``handle_out_argument`` and calls it with an
``out`` of the same and of another dtype, on NumPy and PyTorch, and records what ``out``
became:

* ``never``: the probe was not handed ``out``'s buffer (a ``native`` row only);
* ``unwritten``: ``out`` holds its old values;
* ``copies``: ``out`` holds the result with its own dtype;
* ``rebinds``: ``out`` holds the result with the result's dtype (``same``: in a new
  buffer).

A row the model answers ``unknown`` is not compared (the rules then state no consequence);
every other row must match. Exit 1 on a difference, 2 when the tree does not import.

    python scripts/probe_out_fate.py ../shared/corpora/ivy-975c8fc [--backend numpy] [--json]
"""

from __future__ import annotations

import argparse
import importlib
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

SCRIPTS = Path(__file__).resolve().parent
BACKENDS = ("numpy", "torch")
OUT_DTYPE = {True: "float32", False: "float64"}
"""The dtype of ``out`` by ``same``: the probe's result is float32."""


# The child process: the tree's own Ivy --------------------------------------------------------


def _observe(backend: str) -> dict[str, str]:
    """Rows ``"<path> <single|tuple> <same|other>"`` -> what ``out`` became on ``backend``."""
    import numpy as np

    ivy = importlib.import_module("ivy")  # the tree's, first on sys.path

    ivy.set_backend(backend)
    wrapper = ivy.func_wrapper.handle_out_argument
    rows: dict[str, str] = {}
    for route in ("native", "wrapper"):
        for several in (False, True):
            for same in (True, False):
                key = f"{route} {'tuple' if several else 'single'} {'same' if same else 'other'}"
                try:
                    rows[key] = _one(ivy, np, wrapper, route == "native", several, same)
                except Exception as error:  # noqa: BLE001 - the tree's own failure is observed
                    rows[key] = f"raises {type(error).__name__}: {str(error)[:120]}"
    return rows


def _one(ivy: Any, np: Any, wrapper: Any, native: bool, several: bool, same: bool) -> str:
    handed: list[object] = []
    x = ivy.to_native(ivy.array([1.0, 2.0, 3.0], dtype="float32"))

    def probe(x: Any, /, *, out: Any = None) -> Any:
        handed.append(out)
        first = x * 2  # a new array: the probe ignores the buffer it may be handed
        return (first, x * 3) if several else first

    if native:
        probe.support_native_out = True  # type: ignore[attr-defined]
    wrapped = wrapper(probe)  # a fresh wrapper each call (Ivy's gate flag is sticky)
    count = 2 if several else 1
    outs = [ivy.array([7.0, 7.0, 7.0], dtype=OUT_DTYPE[same]) for _ in range(count)]
    before = [o.data for o in outs]
    wrapped(x, out=tuple(outs) if several else outs[0])
    if native and handed and handed[-1] is None:
        return "never"
    expected = [np.array([2.0, 4.0, 6.0]), np.array([3.0, 6.0, 9.0])]
    kinds = set()
    for out, old, values in zip(outs, before, expected, strict=False):
        held = np.asarray(ivy.to_numpy(out), dtype="float64")
        if np.allclose(held, 7.0):
            kinds.add("unwritten")
        elif not np.allclose(held, values):
            kinds.add("other values")
        elif str(out.dtype) == OUT_DTYPE[same] and (not same or out.data is old):
            kinds.add("copies")
        elif str(out.dtype) == "float32":
            kinds.add("rebinds")
        else:
            kinds.add(f"dtype {out.dtype}")
    return kinds.pop() if len(kinds) == 1 else " / ".join(sorted(kinds))


def _child(tree: str, backends: list[str]) -> None:
    sys.path.insert(0, str(SCRIPTS))
    from verify_fixes_worker import install_stubs

    install_stubs()
    sys.path.insert(0, tree)
    result: dict[str, Any] = {}
    for backend in backends:
        try:
            result[backend] = _observe(backend)
        except Exception as error:  # noqa: BLE001 - a backend that cannot load is reported
            result[backend] = {"error": f"{type(error).__name__}: {error}"}
    print(json.dumps(result))


# The parent: the model's table, the comparison ------------------------------------------------


def model_table(tree: Path, ivycheck: list[str]) -> dict[str, dict[str, str]]:
    """The ``# out-fate:`` rows of ``ivycheck --show-settings tree``, by backend and row."""
    shown = subprocess.run(
        [*ivycheck, "--show-settings", "--no-cache", str(tree)],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    table: dict[str, dict[str, str]] = {}
    for line in shown.splitlines():
        if not line.startswith("# out-fate: "):
            continue
        backend, route, arity, *fates = line.removeprefix("# out-fate: ").split()
        for fate in fates:
            dtype, _, kind = fate.partition("=")
            table.setdefault(backend, {})[f"{route} {arity} {dtype}"] = kind
    return table


def observed_table(tree: Path, backends: list[str]) -> dict[str, Any]:
    done = subprocess.run(
        [sys.executable, __file__, "--child", str(tree), *backends],
        capture_output=True,
        text=True,
        cwd=tree,
    )
    if done.returncode != 0:
        last = done.stderr.strip().splitlines()[-1:] or ["(no output)"]
        return {backend: {"error": last[0]} for backend in backends}
    result: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def compare(
    model: dict[str, dict[str, str]], observed: dict[str, Any]
) -> tuple[list[str], list[str]]:
    """(report lines, differences)."""
    lines: list[str] = []
    differences: list[str] = []
    for backend, rows in observed.items():
        if "error" in rows:
            lines.append(f"{backend}: does not import: {rows['error']}")
            continue
        for key, seen in sorted(rows.items()):
            said = model.get(backend, {}).get(key, "(no row)")
            if said == "unknown":
                verdict = "not compared (model: unknown)"
            elif said == seen:
                verdict = "agrees"
            else:
                verdict = "DIFFERS"
                differences.append(f"{backend} {key}: model {said}, observed {seen}")
            lines.append(f"{backend:8} {key:22} model {said:10} observed {seen:10} {verdict}")
    return lines, differences


def main(argv: list[str] | None = None) -> int:
    if argv is None:
        argv = sys.argv[1:]
    if argv[:1] == ["--child"]:
        _child(argv[1], argv[2:])
        return 0
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("tree", type=Path, help="the root of an Ivy tree (holding ivy/)")
    parser.add_argument("--backend", action="append", choices=BACKENDS)
    parser.add_argument("--ivycheck", default=f"{sys.executable} -m ivycheck")
    parser.add_argument("--json", action="store_true", help="print the tables as JSON")
    args = parser.parse_args(argv)
    tree = args.tree.resolve()
    if not (tree / "ivy" / "__init__.py").is_file():
        parser.error(f"{tree} holds no ivy/ package")
    backends = args.backend or list(BACKENDS)
    model = model_table(tree, args.ivycheck.split())
    observed = observed_table(tree, backends)
    lines, differences = compare(model, observed)
    if args.json:
        print(json.dumps({"model": model, "observed": observed}, indent=2))
    else:
        print("\n".join(lines))
    if any("error" in rows for rows in observed.values()):
        return 2
    print(f"{len(differences)} difference(s)", file=sys.stderr)
    return 1 if differences else 0


if __name__ == "__main__":
    sys.exit(main())
