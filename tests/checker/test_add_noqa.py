"""``--add-noqa``'s text edit: where the directive goes and what it never breaks."""

from __future__ import annotations

from ivycheck.checker.base.diagnostics import Diagnostic
from ivycheck.checker.noqa.comments import Suppressions
from ivycheck.checker.run.add_noqa import add_noqa, merged_codes


def _at(line: int, code: str, col: int = 1) -> Diagnostic:
    return Diagnostic("m.py", line, col, line, col + 1, code, "message")


def test_appends_a_directive_after_the_code() -> None:
    result = add_noqa("x = 1\ny = 2   \n", [_at(2, "IVY005")])
    assert result.text == "x = 1\ny = 2  # noqa: IVY005\n"
    assert result.added == 1


def test_codes_of_one_line_are_merged_sorted_into_an_existing_directive() -> None:
    source = "x = f()  # noqa: IVY006 - reason\n"
    result = add_noqa(source, [_at(1, "IVY005"), _at(1, "IVY001"), _at(1, "IVY005")])
    assert result.text == "x = f()  # noqa: IVY001, IVY005, IVY006 - reason\n"
    assert result.added == 1


def test_other_comments_are_kept_and_line_endings_and_last_line_untouched() -> None:
    source = "a = 1  # keep me\r\nb = 2"
    result = add_noqa(source, [_at(1, "IVY002"), _at(2, "IVY003")])
    assert result.text == "a = 1  # keep me  # noqa: IVY002\r\nb = 2  # noqa: IVY003"
    assert result.added == 2


def test_multi_line_statement_gets_it_on_the_line_suppressions_read() -> None:
    source = "y = g(\n    x,\n)\n"
    result = add_noqa(source, [_at(1, "IVY004")])
    assert result.text == "y = g(  # noqa: IVY004\n    x,\n)\n"
    assert Suppressions(result.text).suppresses(1, "IVY004")


def test_line_ending_inside_a_string_or_continuation_is_left_alone() -> None:
    source = 'x = f("""a\nb""")\ny = 1 + \\\n    2\n'
    result = add_noqa(source, [_at(1, "IVY001"), _at(3, "IVY002")])
    assert result.text == source
    assert result.unplaceable == [1, 3]
    assert result.added == 0


def test_engine_codes_and_unused_noqa_are_not_suppressed() -> None:
    result = add_noqa("x = 1\n", [_at(1, "IVY000"), _at(1, "IVY999"), _at(1, "IVY100")])
    assert result.text == "x = 1\n"
    assert result.added == 0


def test_already_suppressed_or_bare_noqa_line_is_unchanged() -> None:
    source = "x = 1  # noqa\ny = 2  # noqa: IVY005\n"
    result = add_noqa(source, [_at(1, "IVY005"), _at(2, "IVY005")])
    assert result.text == source
    assert result.added == 0


def test_noqa_text_inside_a_string_is_not_taken_for_a_directive() -> None:
    source = 's = "# noqa: IVY001"\n'
    result = add_noqa(source, [_at(1, "IVY005")])
    assert result.text == 's = "# noqa: IVY001"  # noqa: IVY005\n'


def test_untokenizable_text_is_not_edited() -> None:
    source = "x = (\n"
    result = add_noqa(source, [_at(1, "IVY005")])
    assert result.text == source
    assert result.unplaceable == [1]


def test_merged_codes_unique_sorted() -> None:
    assert merged_codes(["IVY010", "E501"], ["IVY002", "IVY010"]) == "E501, IVY002, IVY010"
