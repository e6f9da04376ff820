"""The floor for any libcst-based checker: parse every file, on one core; run by hand.

    .venv/bin/python benchmarks/libcst_parse.py DIR [--metadata]

``--metadata`` also resolves scopes and qualified names for every file (what a checker
that resolves every name pays). Files libcst cannot parse are counted, not fatal.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import libcst as cst
from libcst.metadata import MetadataWrapper, QualifiedNameProvider, ScopeProvider
from measure import python_files


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("root", type=Path)
    parser.add_argument("--metadata", action="store_true")
    options = parser.parse_args()
    parsed = failed = 0
    for path in python_files(options.root):
        try:
            module = cst.parse_module(path.read_bytes())
            if options.metadata:
                MetadataWrapper(module).resolve_many([ScopeProvider, QualifiedNameProvider])
            parsed += 1
        except Exception:  # noqa: BLE001 - a benchmark counts what it cannot parse
            failed += 1
    print(f"{parsed} parsed, {failed} failed", file=sys.stderr)


if __name__ == "__main__":
    main()
