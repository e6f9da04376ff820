"""Codes are the registry: every rule class by its code, ours and third parties'.

Our rules are the modules of ``ivycheck.rules``; a third party ships rules by naming a
rule class or a module of rule classes in the ``ivycheck.rules`` entry-point group. Two
rules with one code is a programming error and fails loudly at start-up.
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil
from functools import cache
from types import ModuleType

from ivycheck.checker.base import entry_point_scan
from ivycheck.checker.core.rule import Rule

ENTRY_POINT_GROUP = "ivycheck.rules"
BUILTIN_RULES = "ivycheck.rules"
"""Our rules' package. Rules stand above this machinery (they import
:mod:`ivycheck.checker.rule_api`), so the registry loads them by name at run time, as it
loads a third party's through :data:`ENTRY_POINT_GROUP`, never by a static import."""


class RegistryError(Exception):
    """A rule plug-in that cannot be loaded or clashes with another rule."""


def _rules_in_module(module: ModuleType) -> list[type[Rule]]:
    return [
        obj
        for obj in vars(module).values()
        if inspect.isclass(obj)
        and issubclass(obj, Rule)
        and obj is not Rule
        and obj.__module__ == module.__name__
        and "CODE" in vars(obj)
    ]


def _builtin_rules() -> list[type[Rule]]:
    package = importlib.import_module(BUILTIN_RULES)
    found: list[type[Rule]] = []
    for info in pkgutil.iter_modules(package.__path__, package.__name__ + "."):
        if info.ispkg or info.name.rsplit(".", 1)[-1].startswith("_"):
            continue
        found.extend(_rules_in_module(importlib.import_module(info.name)))
    return found


def _plugin_rules() -> list[type[Rule]]:
    if not entry_point_scan.may_declare(ENTRY_POINT_GROUP):
        return []
    from importlib.metadata import entry_points  # 35 ms to import: only when it may find one

    found: list[type[Rule]] = []
    for entry in entry_points(group=ENTRY_POINT_GROUP):
        try:
            loaded = entry.load()
        except Exception as err:
            raise RegistryError(f"cannot load rule plug-in {entry.name!r}: {err}") from err
        if inspect.ismodule(loaded):
            found.extend(_rules_in_module(loaded))
        elif inspect.isclass(loaded) and issubclass(loaded, Rule):
            found.append(loaded)
        else:
            raise RegistryError(
                f"rule plug-in {entry.name!r} is neither a Rule subclass nor a module of them"
            )
    return found


@cache
def all_rules() -> dict[str, type[Rule]]:
    """Every known rule by code, sorted by code."""
    registry: dict[str, type[Rule]] = {}
    for rule in [*_builtin_rules(), *_plugin_rules()]:
        other = registry.get(rule.CODE)
        if other is not None and other is not rule:
            raise RegistryError(
                f"rule code {rule.CODE} is claimed by both "
                f"{other.__module__}.{other.__name__} and {rule.__module__}.{rule.__name__}"
            )
        registry[rule.CODE] = rule
    return dict(sorted(registry.items()))
