"""Selector and decorator-name validation: typos fail with a suggestion."""

from __future__ import annotations

import pytest

from ivycheck.checker.project.conventions import DECORATOR_ALIASES, DEFAULT_DECORATOR_ORDER
from ivycheck.checker.project.selectors import (
    SelectorError,
    check_decorator_names,
    check_selectors,
    unknown_selector,
)

CODES = ("IVY001", "IVY004", "IVY005", "IVY014", "IVY018", "IVY100", "IVY999")


@pytest.mark.parametrize("selector", ["ALL", "IVY", "IVY0", "IVY00", "IVY004", "IVY1", "IVY99"])
def test_codes_prefixes_and_all_are_valid(selector: str) -> None:
    assert unknown_selector(selector, CODES) is None


@pytest.mark.parametrize(
    ("selector", "message"),
    [
        ("IVYOO4", "unknown rule selector 'IVYOO4'; did you mean 'IVY004'?"),
        ("IVY999X", "unknown rule selector 'IVY999X'; did you mean 'IVY999'?"),
        ("IVY0005", "unknown rule selector 'IVY0005'; did you mean 'IVY005'?"),
        ("IVYO1", "unknown rule selector 'IVYO1'; did you mean 'IVY01'?"),
        ("E501", "unknown rule selector 'E501'"),
    ],
)
def test_unknown_selector_is_named_with_a_suggestion(selector: str, message: str) -> None:
    assert unknown_selector(selector, CODES) == message


def test_check_selectors_names_where() -> None:
    check_selectors(["IVY0", "ALL"], CODES, "select")
    with pytest.raises(SelectorError, match=r"^--ignore: unknown rule selector 'IVY2'"):
        check_selectors(["IVY0", "IVY2"], CODES, "--ignore")


def test_decorator_names() -> None:
    known = (*DEFAULT_DECORATOR_ORDER, *DECORATOR_ALIASES)
    check_decorator_names(["handle_out_argument", "to_native_arrays_and_back"], known, "k")
    with pytest.raises(SelectorError, match="did you mean 'handle_out_argument'"):
        check_decorator_names(["handle_out_arguments"], known, "decorator-order")
