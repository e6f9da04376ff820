"""IVY100's judgement of ``# noqa`` codes and the text its fix leaves."""

from __future__ import annotations

from collections.abc import Sequence

from ivycheck.checker.base.diagnostics import Diagnostic, FixSafety
from ivycheck.checker.base.textedit import apply_edits
from ivycheck.checker.noqa.unused import unused_noqa

KNOWN = ("IVY000", "IVY001", "IVY005", "IVY006", "IVY100", "IVY999")


def _found(line: int, code: str) -> Diagnostic:
    return Diagnostic("m.py", line, 1, line, 2, code, "message")


def _check(
    source: str, found: Sequence[Diagnostic] = (), disabled: Sequence[str] = ()
) -> list[Diagnostic]:
    return unused_noqa(
        source,
        found,
        path="m.py",
        known_codes=KNOWN,
        is_enabled=lambda code: code not in disabled,
    )


def _fixed(source: str, found: Sequence[Diagnostic] = ()) -> str:
    diagnostics = _check(source, found)
    assert all(d.fix is not None and d.fix.safety is FixSafety.SAFE for d in diagnostics)
    text, _ = apply_edits(source, [d.fix.edits for d in diagnostics if d.fix is not None])
    return text


def test_used_code_is_not_reported() -> None:
    assert _check("x = 1  # noqa: IVY005\n", [_found(1, "IVY005")]) == []


def test_prefix_code_is_used_by_any_finding_it_covers() -> None:
    assert _check("x = 1  # noqa: IVY00\n", [_found(1, "IVY005")]) == []


def test_unused_code_is_reported_at_the_directive_and_removed_with_it() -> None:
    [diagnostic] = _check("x = 1  # noqa: IVY005\n", [_found(2, "IVY005")])
    assert (diagnostic.code, diagnostic.line, diagnostic.col) == ("IVY100", 1, 8)
    assert diagnostic.message == "Unused `noqa` directive (unused: `IVY005`)"
    assert _fixed("x = 1  # noqa: IVY005\n") == "x = 1\n"


def test_only_the_unused_codes_go_when_others_stay() -> None:
    source = "x = 1  # noqa: IVY001, E501, IVY005\n"
    [diagnostic] = _check(source, [_found(1, "IVY001")])
    assert diagnostic.message == "Unused `noqa` directive (unused: `IVY005`)"
    assert _fixed(source, [_found(1, "IVY001")]) == "x = 1  # noqa: IVY001, E501\n"


def test_unknown_and_duplicated_codes() -> None:
    source = "x = 1  # noqa: IVY0005, IVY005, IVY005\n"
    [diagnostic] = _check(source, [_found(1, "IVY005")])
    assert diagnostic.message == (
        "Unused `noqa` directive (unknown: `IVY0005`; duplicated: `IVY005`)"
    )
    assert _fixed(source, [_found(1, "IVY005")]) == "x = 1  # noqa: IVY005\n"


def test_foreign_and_bare_directives_and_strings_are_not_judged() -> None:
    source = 'a = 1  # noqa: E501, BLE001\nb = 2  # noqa\nc = "# noqa: IVY005"\n'
    assert _check(source) == []


def test_codes_of_disabled_rules_and_of_ivy100_are_not_judged() -> None:
    assert _check("x = 1  # noqa: IVY005\n", disabled=("IVY005",)) == []
    assert _check("x = 1  # noqa: IVY100\n") == []


def test_whole_directive_removal_keeps_other_comments() -> None:
    assert _fixed("x = 1  # noqa: IVY005 - old  # type: ignore\n") == "x = 1  # type: ignore\n"
    assert _fixed("x = 1  # note  # noqa: IVY006\n") == "x = 1  # note\n"
    assert _fixed("x = 1  # noqa:IVY006\r\n") == "x = 1\r\n"
