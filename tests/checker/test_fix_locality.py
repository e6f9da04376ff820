"""A fix's text edit is computed from the statement it changes, never from the whole file.

A file with one fixable finding per function (a generated backend module) must cost linear
time: when each fix's edit was found by building the fixed file and comparing it whole
with the original, 20,000 findings took 50 times as long as 2,000 (``benchmarks/big_file.py``).
These tests check what each fix reads, not how long it takes; and that the local edit is
exactly the whole-file minimal edit.
"""

from __future__ import annotations

from pathlib import Path
from typing import SupportsIndex

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ivycheck.checker.base import textedit
from ivycheck.checker.base.diagnostics import Edit
from ivycheck.checker.base.textedit import LineIndex, minimal_edit, replacement_edit
from ivycheck.checker.core import engine, fix_render
from ivycheck.checker.core.registry import all_rules
from ivycheck.checker.project.config import Config
from ivycheck.checker.project.index import ProjectIndex
from ivycheck.checker.project.summary import summarize
from ivycheck.rules import _text_fixes
from tests.helpers import REPO, load_script

texts = st.text(alphabet="ab\n", max_size=30)


@given(
    head=texts,
    old=texts,
    content=texts,
    unit=st.text(alphabet="ab\n", min_size=1, max_size=5),
    repeats=st.integers(0, 120),
    tail=texts,
)
def test_the_local_edit_is_the_whole_text_minimal_edit(
    head: str, old: str, content: str, unit: str, repeats: int, tail: str
) -> None:
    """Also where the edit's common prefix runs far past the replaced range: content that
    ends with what follows the range, repeated (``unit * repeats``), shifts the minimal
    edit to the right by up to hundreds of characters."""
    for appended in (content, old + unit + content, old + unit):
        before = head + old + unit * repeats + tail
        start, end = len(head), len(head) + len(old)
        after = before[:start] + appended + before[end:]
        expected = minimal_edit(before, after)
        assert replacement_edit(before, start, end, appended, LineIndex(before)) == expected


class _ReadRecorder(str):
    """A text that records which ranges of it are read by slicing or indexing."""

    reads: list[tuple[int, int]]

    def __getitem__(self, key: SupportsIndex | slice) -> str:
        if isinstance(key, slice):
            start, stop, _ = key.indices(len(self))
            self.reads.append((start, stop))
        else:
            self.reads.append((key.__index__(), key.__index__() + 1))
        return str.__getitem__(self, key)


def test_an_appending_edit_reads_only_its_statement_and_the_start_of_the_next() -> None:
    statements = [
        f"def fn_{n}(x, /, *, out=None):\n    return np.tan(x, out=out)  # {'.' * 150}\n\n\n"
        for n in range(50)
    ]
    source = _ReadRecorder("".join(statements))
    source.reads = []
    start = sum(map(len, statements[:20]))
    end = start + len(statements[20])
    content = statements[20] + "fn_20.support_native_out = True\n"
    edit = replacement_edit(source, start, end, content, LineIndex(str(source)))
    assert edit is not None and edit.content == "fn_20.support_native_out = True\n"
    following_end = end + len(statements[21])
    assert source.reads
    assert all(start <= low and high <= following_end for low, high in source.reads)


def _generated_module(findings: int) -> str:
    module = load_script(REPO / "benchmarks/big_file.py", "big_file")
    source: str = module.source(findings, findings)
    return source


def test_each_fix_of_a_big_file_compares_only_its_own_neighbourhood(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """200 fixable findings in 400 functions: every comparison behind a fix's edit stays
    far below the file's size (it was the whole file, once per finding). IVY001's fix
    reads its function and the statement after it (where the attribute line goes): two
    of the file's 400 functions, whether its edit comes from comparing texts
    (``textedit._common_ends``) or from the slice's two sides (``insertion_edit``)."""
    source = _generated_module(200)
    path = "ivy/functional/backends/numpy/big.py"
    config = Config(root=Path("/project"))
    compared: list[int] = []
    common_ends = textedit._common_ends

    def recording(before: str, after: str) -> tuple[int, int]:
        compared.append(max(len(before), len(after)))
        return common_ends(before, after)

    insertion_edit = _text_fixes.insertion_edit

    def recording_insertion(head: str, inserted: str, tail: str, first: int) -> Edit | None:
        compared.append(len(head) + len(inserted) + len(tail))
        return insertion_edit(head, inserted, tail, first)

    monkeypatch.setattr(textedit, "_common_ends", recording)
    monkeypatch.setattr(_text_fixes, "insertion_edit", recording_insertion)
    index = ProjectIndex.build([summarize(source, path, config.part_of(path))])
    found = engine.check_source(
        source,
        path=path,
        config=config,
        rules=list(all_rules().values()),
        index=index,
        relative_path=path,
    )
    fixed = [d for d in found if d.code == "IVY001" and d.fix is not None]
    assert len(fixed) == 200
    assert len(compared) >= 200
    assert max(compared) < len(source) / 20


_METHODS = "\n\n".join(
    [
        "    def first(self):\n        return 1",
        "    # comment above the decorators\n    @handle_nestable\n    # between them\n"
        "    @handle_exceptions  # after one\n    def add(self, x, out=None):\n"
        "        def inner(y, out=None):\n            return y\n        return inner(x)",
        "    @handle_nestable\n    @handle_exceptions\n    async def wait(self, x, out=None):\n"
        "        '''A docstring\nwhose second line is not indented.'''\n        return x",
        "    if True:\n        @handle_nestable\n        @handle_exceptions\n"
        "        def guarded(self, x, out=None): return x",
        "    def last(self):\n        return 2",
    ]
)
METHODS_SOURCE = f"import ivy\n\n\nclass Array:\n{_METHODS}\n"
METHODS_PATH = "ivy/data_classes/array/example.py"


TOP_LEVEL_SOURCE = (
    "import ivy\n\n\n"
    "@handle_nestable\n# between\n@handle_exceptions  # after one\n"
    "def add(x, out=None):  # after the colon\n"
    '    # above the docstring\n    """Docstring."""\n    return x\n\n\n'
    "@handle_nestable\n@handle_exceptions\nasync def wait(x, out=None):\n"
    '        """Indented deeper."""\n        return x\n\n\n'
    "@handle_nestable\n@handle_exceptions\ndef one_line(x, out=None): return x\n\n\n"
    "@handle_nestable\n@handle_exceptions\ndef continued(x, out=None): \\\n    return x\n"
)
TOP_LEVEL_PATH = "ivy/functional/ivy/example.py"


def _fixes(source: str, path: str) -> list[tuple[str, int, tuple[object, ...]]]:
    config = Config(root=Path("/project"))
    found = engine.check_source(source, path=path, config=config, rules=list(all_rules().values()))
    return [(d.code, d.line, d.fix.edits) for d in found if d.fix is not None]


def _method_fixes() -> list[tuple[str, int, tuple[object, ...]]]:
    return _fixes(METHODS_SOURCE, METHODS_PATH)


@pytest.fixture(autouse=True)
def _libcst_renders(monkeypatch: pytest.MonkeyPatch) -> None:
    """These tests are about libcst's slices: IVY005's and IVY008's plain shapes, which
    they render as text (tests/rules/test_text_fixes.py), go to libcst here."""
    from ivycheck.rules import ivy005_decorator_order, ivy008_out_not_keyword_only

    monkeypatch.setattr(ivy005_decorator_order, "reordered_decorators", lambda *_: None)
    monkeypatch.setattr(ivy008_out_not_keyword_only, "keyword_only_out", lambda *_: None)


def test_a_method_fix_is_the_edit_its_class_parse_gives(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each fix of a method (decorators reordered with their comments, ``out`` made
    keyword-only; an ``async`` method, one in an ``if`` block, one holding a nested
    function) is the very edit of the parse of its whole class; and each fix of a
    top-level function that parses only its decorators and signature, the edit of the
    parse of the whole function (comments after the colon, a deeper body, a one-line
    function, a body after a backslash)."""
    own = _method_fixes()
    top_level = _fixes(TOP_LEVEL_SOURCE, TOP_LEVEL_PATH)
    monkeypatch.setattr(fix_render, "_definition_slice", lambda *_, **__: None)
    assert own == _method_fixes()
    assert top_level == _fixes(TOP_LEVEL_SOURCE, TOP_LEVEL_PATH)
    assert [(code, line) for code, line, _ in own] == [
        ("IVY005", 11),
        ("IVY008", 12),
        ("IVY005", 18),
        ("IVY008", 19),
        ("IVY005", 26),
        ("IVY008", 27),
    ]
    assert {code for code, _, _ in top_level} == {"IVY005", "IVY008"}
    assert len(top_level) >= 8


def test_a_method_fix_parses_its_method_not_its_class(monkeypatch: pytest.MonkeyPatch) -> None:
    import libcst

    parsed: list[str] = []
    parse = libcst.parse_module

    def recording(text: str) -> libcst.Module:
        parsed.append(text)
        return parse(text)

    monkeypatch.setattr(libcst, "parse_module", recording)
    assert _method_fixes()
    assert parsed
    assert not any("def first" in text or "def last" in text for text in parsed)
