"""The language server's tree after an edit is the tree ``ast.parse`` gives the new text.

``lsp/reparse.py`` parses only the statements an edit touched and reuses the rest of the
document's previous tree; these tests compare the result with a parse of the whole text,
node for node with every position, over edits of real modules (this repository's own
rules and server) and over the shapes where reuse would go wrong: statements sharing a
line, decorators, text above the first statement, added or removed lines, strings that
an edit opens, ``from __future__`` imports, ``\\r`` line ends, text that does not parse.
"""

from __future__ import annotations

import ast
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from ivycheck.lsp.reparse import ParsedText, parse_text

REPO = Path(__file__).resolve().parents[2]
MODULES = sorted(
    [*REPO.glob("rules/ivy00*.py"), *REPO.glob("lsp/*.py"), REPO / "benchmarks/corpus.py"]
)
PIECES = [
    "x",
    "(",
    ")",
    ":",
    '"""',
    "\\",
    "\n",
    "    ",
    "# note",
    "@decorator\n",
    "def added(a):\n    return a\n",
    "y = 1; z = 2\n",
    "if y:\n",
    "    pass\n",
]


def dumped(tree: ast.Module | None) -> str | None:
    return None if tree is None else ast.dump(tree, include_attributes=True)


def whole(text: str) -> str | None:
    try:
        return dumped(ast.parse(text))
    except (SyntaxError, ValueError):
        return None


def edited(previous: str | ParsedText, text: str) -> ParsedText:
    """``text`` parsed after ``previous``, checked against a parse of the whole text."""
    before = parse_text(previous) if isinstance(previous, str) else previous
    parsed = parse_text(text, before)
    assert dumped(parsed.tree) == whole(text)
    return parsed


def shared(before: ParsedText, after: ParsedText) -> int:
    """How many top-level statements ``after`` reuses from ``before``."""
    assert before.tree is not None and after.tree is not None
    old = {id(s) for s in before.tree.body}
    return sum(id(s) in old for s in after.tree.body)


@settings(max_examples=60, deadline=None)
@given(
    module=st.sampled_from(MODULES),
    edits=st.lists(
        st.tuples(
            st.floats(0, 1), st.integers(0, 30), st.sampled_from(["", *PIECES]), st.booleans()
        ),
        min_size=1,
        max_size=6,
    ),
)
def test_edits_of_real_modules_give_the_whole_texts_tree(
    module: Path, edits: list[tuple[float, int, str, bool]]
) -> None:
    text = module.read_text()
    parsed = parse_text(text)
    for where, removed, inserted, whole_lines in edits:
        at = int(where * len(text))
        if whole_lines:  # a line inserted, removed or replaced as a whole
            at = text.rfind("\n", 0, at) + 1
        new = text[:at] + inserted + text[at + removed :]
        parsed = parse_text(new, parsed)
        assert dumped(parsed.tree) == whole(new), (module, at, removed, inserted)
        text = new


def test_a_keystroke_in_one_function_reuses_every_other_statement() -> None:
    text = (REPO / "lsp/server.py").read_text()
    at = text.index("def folders(self)")
    before = parse_text(text)
    after = edited(before, text[:at] + "def folders_(self)" + text[at + len("def folders(self)") :])
    assert before.tree is not None and after.tree is not None
    assert shared(before, after) == len(after.tree.body) - 1  # the class holding it is new


def test_an_added_line_reuses_the_statements_above_it() -> None:
    text = "".join(f"def f{n}(x):\n    return x\n\n" for n in range(50))
    at = text.index("def f30")
    before = parse_text(text)
    after = edited(before, text[:at] + "z = 1\n" + text[at:])
    assert shared(before, after) >= 29


def test_statements_sharing_a_line_are_parsed_together() -> None:
    text = "a = 1; b = 2\nc = 3\n"
    edited(text, "a = 1; b = 22\nc = 3\n")
    edited(text, "a = 11; b = 2\nc = 3\n")
    edited(text, "a = 1; b = 2\nc = 33\n")  # the line before the edit holds two
    edited("x = 0\n" + text, "x = 0\na = 1; b = 2; d = 4\nc = 3\n")


def test_an_edit_of_a_decorator_or_above_the_first_statement() -> None:
    text = "# header\n\n@first\n@second\ndef f(x):\n    return x\n\nvalue = f(1)\n"
    edited(text, text.replace("@first\n@second", "@second\n@first"))
    edited(text, "import os\n" + text)
    edited(text, "# a longer header\n" + text[len("# header\n") :])
    edited(text, text.replace("# header\n", "x = (\n"))  # does not parse


def test_an_indented_line_after_a_function_joins_its_body() -> None:
    text = "def f(x):\n    return x\n\ny = 1\nz = 2\n"
    edited(text, text.replace("y = 1", "    y = 1"))
    edited(text, text.replace("\ny = 1", "    # c\ny = 1"))


def test_a_string_opened_by_the_edit_and_closed_later_in_the_file() -> None:
    text = 'a = 1\nb = 2\nc = """text\n"""\n'
    edited(text, text.replace("b = 2", 'b = """2'))  # the whole text decides
    edited(text, text.replace("b = 2", "b = (2"))  # does not parse


def test_future_imports_and_carriage_returns_parse_the_whole_text() -> None:
    edited("x = 1\ny = 2\n", "from __future__ import annotations\nx = 1\ny = 2\n")
    edited("x = 1\r\ny = 2\r\n", "x = 1\r\ny = 3\r\n")
    edited("x = 1\ny = 2\n", "x = 1\ry = 3\n")


def test_text_that_does_not_parse_has_no_tree_and_the_next_edit_recovers() -> None:
    text = "def f(x):\n    return x\n"
    broken = edited(text, text.replace("(x)", "(x"))
    assert broken.tree is None
    fixed = parse_text(text, broken)
    assert dumped(fixed.tree) == whole(text)
    assert parse_text("", parse_text(text)).tree is not None  # all deleted
    assert parse_text("x = 1\0\n", parse_text(text)).tree is None  # a NUL byte
