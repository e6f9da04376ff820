"""API-side and cross-file rules (IVY007-IVY013, IVY016, IVY017): what examples cannot show."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

import libcst as cst

from ivycheck.checker.config import Config
from ivycheck.checker.diagnostics import Diagnostic
from ivycheck.checker.engine import check_source, fix_source
from ivycheck.checker.index import ProjectIndex
from ivycheck.checker.registry import all_rules
from ivycheck.checker.summary import summarize

RULES = list(all_rules().values())
CONFIG = Config(root=Path("/project"))
API = "ivy/functional/ivy/example.py"


def _index(files: Mapping[str, str]) -> ProjectIndex:
    return ProjectIndex.build(
        summarize(source, path, CONFIG.part_of(path)) for path, source in files.items()
    )


def check(code: str, source: str, path: str = API, **files: str) -> list[Diagnostic]:
    """Diagnostics of rule ``code`` for ``source`` at ``path``; ``files`` maps path -> source
    (keyword names use ``__`` for ``/`` and ``_py`` for ``.py``)."""
    others = {name.replace("__", "/").replace("_py", ".py"): text for name, text in files.items()}
    return check_source(
        source,
        path=path,
        config=CONFIG.with_overrides(select=(code,)),
        rules=RULES,
        index=_index({path: source, **others}),
        relative_path=path,
    )


def fix(code: str, source: str, path: str = API) -> str:
    outcome = fix_source(
        source,
        path=path,
        config=CONFIG.with_overrides(select=(code,)),
        rules=RULES,
        index=_index({path: source}),
        relative_path=path,
        unsafe=True,
    )
    cst.parse_module(outcome.source)
    return outcome.source


# -- IVY008 ------------------------------------------------------------------------------


def test_ivy008_fix_keeps_var_kwargs_last() -> None:
    assert fix("IVY008", "def f(x, out=None, **kwargs):\n    ...\n") == (
        "def f(x, *, out=None, **kwargs):\n    ...\n"
    )


def test_ivy008_fix_alone_in_signature() -> None:
    assert fix("IVY008", "def f(out=None):\n    ...\n") == "def f(*, out=None):\n    ...\n"


def test_ivy008_fix_is_unsafe_only() -> None:
    outcome = fix_source(
        "def f(x, out=None):\n    ...\n",
        path=API,
        config=CONFIG.with_overrides(select=("IVY008",)),
        rules=RULES,
        relative_path=API,
        unsafe=False,
    )
    assert outcome.applied == 0
    assert [d.code for d in outcome.diagnostics] == ["IVY008"]


def test_ivy008_names_the_function() -> None:
    [found] = check("IVY008", "def clip(x, out=None):\n    ...\n")
    assert "`clip`" in found.message
