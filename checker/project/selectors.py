"""Validating what names rules and decorators: a typo must fail the run, not switch off.

``--select IVYOO4`` selected no rule at all, so the run passed with every check off. A
selector (in ``select``, ``extend-select``, ``ignore``, ``per-file-ignores`` or on the
command line) is valid when it is ``ALL`` or some registered rule code starts with it
(``IVY0`` selects IVY001-IVY018, as in Ruff); anything else is an error naming it, with
the closest valid selector as a suggestion. ``decorator-order`` names are checked the
same way against the decorators IVY005 knows (Ivy's order and its aliases), since an
unknown name there is never matched and silently changes nothing.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable


class SelectorError(ValueError):
    """An unknown rule selector or decorator name; the message says which and where."""


def did_you_mean(name: str, candidates: Iterable[str]) -> str:
    """``"; did you mean 'x'?"`` with the candidate closest to ``name``, or ``""``: the one
    suggestion every unknown name gets (rule selectors, decorators, configuration keys,
    backend names)."""
    import difflib  # (here: only for a selector that matches nothing)

    close = difflib.get_close_matches(name, sorted(set(candidates)), n=1, cutoff=0.6)
    return f"; did you mean {close[0]!r}?" if close else ""


def _prefixes(codes: Collection[str]) -> set[str]:
    """Every selector that selects something: ``ALL`` and each prefix of a code that
    keeps its letters (``IVY``, ``IVY0``, ``IVY00``, ``IVY005``)."""
    found = {"ALL"}
    for code in codes:
        letters = len(code) - len(code.lstrip("ABCDEFGHIJKLMNOPQRSTUVWXYZ"))
        found.update(code[:end] for end in range(max(letters, 1), len(code) + 1))
    return found


_LOOKALIKES = str.maketrans({"O": "0", "I": "1", "L": "1"})


def _lookalike(selector: str, valid: Collection[str]) -> str | None:
    """``selector`` with letters typed for digits after a code's letters (``IVYOO4``)
    read as those digits, if that is valid: the typo difflib cannot rank."""
    for prefix in sorted({p.rstrip("0123456789") for p in valid}, key=len, reverse=True):
        if prefix and selector.startswith(prefix):
            candidate = prefix + selector[len(prefix) :].translate(_LOOKALIKES)
            if candidate != selector and candidate in valid:
                return candidate
    return None


def unknown_selector(selector: str, codes: Collection[str]) -> str | None:
    """Why ``selector`` selects no rule of ``codes`` (with a suggestion), or ``None``."""
    if selector == "ALL" or any(code.startswith(selector) for code in codes):
        return None
    valid = _prefixes(codes)
    lookalike = _lookalike(selector, valid)
    hint = f"; did you mean {lookalike!r}?" if lookalike else did_you_mean(selector, valid)
    return f"unknown rule selector {selector!r}{hint}"


def check_selectors(selectors: Iterable[str], codes: Collection[str], where: str) -> None:
    """Raise :class:`SelectorError` for the first selector in ``selectors`` that selects
    nothing; ``where`` names the option or key (``--select``, ``ignore``...)."""
    for selector in selectors:
        problem = unknown_selector(selector, codes)
        if problem is not None:
            raise SelectorError(f"{where}: {problem}")


def check_decorator_names(names: Iterable[str], known: Collection[str], where: str) -> None:
    """Raise :class:`SelectorError` for the first name that is no known decorator."""
    for name in names:
        if name not in known:
            raise SelectorError(
                f"{where}: unknown decorator {name!r}{did_you_mean(name, known)} "
                "(decorator-order lists Ivy's wrapper decorators by name)"
            )
