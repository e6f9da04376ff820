"""The regex comment scanner gives what ``tokenize`` gives, on every input.

``noqa.comments`` finds comments with ``noqa.scanner`` and asks ``tokenize`` only where the
scanner declines; both must give the same ``FileComments`` (comments by line with column and
text, the lines with a NEWLINE or NL token, and the per-line fallback when ``tokenize``
raises). The reference here is ``tokenize`` itself, written out in this file, so that a
change to the module's own fallback cannot make the comparison agree with itself.

Equal answers alone would also pass a scanner that always declines, so the tests also pin
that the scanner answers the texts it is meant to answer (every rule example, most
generated texts without ``\\r`` or ``\\f``).
"""

from __future__ import annotations

import io
import random
import tokenize

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ivycheck.checker.core.registry import all_rules
from ivycheck.checker.noqa.comments import FileComments, LineComment, _find, comments_of
from ivycheck.checker.noqa.scanner import scan_comments


def reference(source: str) -> FileComments:
    """What ``tokenize`` finds: COMMENT tokens by line, lines with a NEWLINE or NL token;
    when it raises, each line's text from its first ``#`` and no open line."""
    comments: dict[int, LineComment] = {}
    open_lines: set[int] = set()
    try:
        for token in tokenize.generate_tokens(io.StringIO(source).readline):
            line, col = token.start
            if token.type == tokenize.COMMENT:
                comments[line] = LineComment(line, col, token.string)
            elif token.type in (tokenize.NEWLINE, tokenize.NL):
                open_lines.add(line)
    except (tokenize.TokenError, SyntaxError, ValueError):
        by_line = {
            number: LineComment(number, text.index("#"), text[text.index("#") :])
            for number, text in enumerate(source.splitlines(), start=1)
            if "#" in text
        }
        return FileComments(by_line, frozenset(), tokenized=False)
    return FileComments(comments, frozenset(open_lines), tokenized=True)


def scanned(source: str) -> FileComments | None:
    """The scanner's own answer as ``FileComments``; ``None`` when it declines."""
    found = scan_comments(source)
    if found is None:
        return None
    by_line, open_lines = found
    comments = {line: LineComment(line, col, text) for line, (col, text) in by_line.items()}
    return FileComments(comments, frozenset(open_lines), tokenized=True)


def assert_same(source: str) -> bool:
    """``_find`` equals ``tokenize``; the scanner, when it answers, too. Whether it did."""
    expected = reference(source)
    assert _find(source) == expected, source
    own = scanned(source)
    if own is not None:
        assert expected.tokenized, source
        assert own == expected, source
    return own is not None


def _rule_examples() -> list[object]:
    cases: list[object] = []
    for rule in all_rules().values():
        for kind in ("VALID", "INVALID"):
            for number, example in enumerate(getattr(rule, kind)):
                texts = [example.code, *example.files.values()]
                if example.expected is not None:
                    texts.append(example.expected)
                cases.append(pytest.param(texts, id=f"{rule.CODE}-{kind}-{number}"))
    return cases


@pytest.mark.parametrize("texts", _rule_examples())
def test_rule_examples(texts: list[str]) -> None:
    for text in texts:
        crlf = text.replace("\n", "\r\n")
        for variant in (text, text.rstrip("\n"), "\ufeff" + text, crlf, crlf + "x"):
            assert assert_same(variant) or not reference(variant).tokenized
        assert_same(text.replace("    ", "\t"))


TRICKY = [
    "",
    "\n",
    "\n\n\n",
    "   ",
    "x",
    "# only a comment",
    "#",
    "x = 1  # noqa",
    "x = 1  # noqa: IVY005\n",
    "x = '# noqa'\n",
    'x = "# noqa"  # noqa: IVY001\n',
    "x = '''\n# noqa\n'''  # real\n",
    'x = """\n# noqa\n"""\n',
    'x = """# noqa"""  # after\n',
    "x = '''a''' '''b'''  # c\n",
    "x = ''''  # four quotes open a string\n'''\n",
    "x = ''  # empty string, not a triple quote\n",
    'x = ""  # empty\ny = "" ""  # two\n',
    "x = '\\'# still a string'  # comment\n",
    "x = '\\\\'  # a backslash then a comment\n",
    "x = '''\\'''# in the string'''  # out\n",
    "x = '''a\\\n# b\n'''  # c\n",
    "x = '''a\\\\\n# b\n'''  # c\n",
    "f'{x}# not a comment'  # a comment\n",
    "f'{x!r:>{width}}'  # spec\n",
    "f\"{'#'}\"  # nested quote\n",
    "f'{\"# no\"}'  # 3.12 nesting\n",
    "f'{f'{x}'}'  # 3.12 same-quote nesting, 3.11 tokenizes it otherwise\n",
    "rb'# x'  # c\nBR'''# y''' # d\nRb\"# z\" Fr'# w'  # e\n",
    "u'# x' U\"# y\"  # c\n",
    "x = 1 + \\\n    2  # after a continuation\n",
    "x = 1 + \\\n# a comment on the continued line\n2\n",
    "x = 1 \\ # a backslash before a comment\n",
    "x = \\\n",
    "x = \\",
    "x = \\\n   ",
    "x = \\\n# c",
    "x = \\\n\n",
    "x = (\n    1,  # one\n    # alone\n    2,\n)\n",
    "x = (\n",
    "x = (",
    ")\nx = 1  # c\n",
    "x = [1, 2]]  # c\n",
    "x = (1]  # tokenize counts any bracket\n",
    "x = 'unterminated # comment\n",
    "x = 'it's # a comment after an error token\n",
    'x = "unterminated # c',
    "x = '''unterminated\n# c\n",
    'x = """',
    "if x:\n    y = 1  # c\n  z = 2\n",
    "if x:\n    y = 1\nz = 2  # c\n",
    "if x:\n        y\n    z\n",
    "if x:\n\ty = 1  # tab\n        z = 2  # eight spaces\n",
    "if x:\n  \ty\n\tz\n",
    "if x:\n\ty\n    z  # a tab is 8 columns: no such block\n",
    "if x:\n        y\n\tz  # a tab is 8 columns: the same block\n",
    "if x:\n    y = (\n  1)\n",
    "if x:\n    y\n  # a comment dedented\n    z\n",
    "if x:\n    y\n \n    z\n",
    "  x = 1\n",
    "  # c\n",
    "\tx  # c",
    "x = 1\n  ",
    "x = 1\n  # c",
    "x = 1  # c",
    "'''a\n# b'''",
    "'''a\nb'''  # c",
    "x\r\ny  # c\r\n",
    "x = 1  # a\r\n# b\r\n",
    "# a\rb\n",
    "x = 1  # a\rb\n",
    "x\ry\n",
    "x = '''a\r\n# b\r\n'''  # c\r\n",
    "x = 1 \\\r\n + 2  # c\r\n",
    "x = (\r\n  1,  # one\r\n\r\n  \r\n)\r\n# c\r\n  # d",
    "if x:\r\n    y  # c\r\n\r\n  \r\n    # c\r\n    z\r\n",
    "x = 'a\r\n'  # unterminated before CRLF\r\n",
    "x = 1  # mixed\ny = 2  # ends\r\nz = 3\n",
    "x = \\\r\n",
    "x = \\\r\n  ",
    "\fx = 1  # c\n",
    "if x:\n    y\n\f    z  # c\n",
    "x = 1  # form\ffeed\n",
    "x = 'é'  # é\nμ = 1  # ü\n",
    "x = '😀'  # 😀 col\n",
    "\ufeffx = 1  # bom\n",
    "\ufeff# bom then comment\n",
    "x = '\x00'  # nul\n",
    "x = 1\x00  # nul\n",
    "x = '\udcff'  # surrogate\n",
    "\udcff  # surrogate outside a string\n",
    "x = 1 ? 2 $ 3  # error tokens\n",
    "x = 1\x0b  # vertical tab\n",
    "\x0bx = 1\n",
    "\xa0# c",
    "x\n\xa0# c",
    "def f():\n    '''Doc.\n\n  # not a comment\n    '''\n    return 1  # noqa: IVY001\n",
    "x = [\n    '''a\n    ''',  # c\n]\n",
    "x = (  # open\n    1\n)  # close\n",
    "x = {1: (2, [3])}  # c\nif x:\n    pass\n",
    "x = f(g(h(1)))  # deep\n",
    "x = f('(', \"[\", '{')  # quoted brackets\n",
    "x = ')'  # quoted close\n",
    "f(1, '''a'#''')\n",
    "x = ('''\n# no\n''')  # yes\n",
    'x = ("""\n# no\n""")  # yes\n',
    "x = ['', '''#''']  # c\n",
    'x = f(g(""), """#""")\n',
]

TRICKY += [
    "x = 'continued \\\n  string' # c\n",
    "x = 'a \\\n'\ny = '''\nb\n'''  # c\n",
    'x = "a \\\n\\\n"  # c\n',
    "x = 'a \\\r\nb'  # continued string\r\n",
    "x = 'a \\\nb\\\\\nc'  # an escaped backslash still continues\n",
    "x = 'a \\\nb \\' # still in\\\nc'  # out\n",
    "x = 'a \\\nb \" # still in \\\n\"'  # other quotes\n",
    "x = ('a \\\n',\n     'b')  # c\n",
]

UNCLOSED_CONTINUED_STRINGS = [
    "x = 'continued \\\nno end\n'''\n",
    "x = 'a \\\nb\nc = '''\nd\n'''  # tokenize drops this string\n",
    "x = 'a \\\n",
    "x = 'a \\\nb \\",
    'x = "a \\\nb\n# c\n',
]
"""One-line strings continued by a backslash and not closed: ``tokenize`` carries state
from them into later strings, the scanner leaves them to it."""


@pytest.mark.parametrize("source", TRICKY + UNCLOSED_CONTINUED_STRINGS)
def test_tricky(source: str) -> None:
    assert_same(source)
    assert_same(source + "\n")
    assert_same(source.rstrip("\n"))


def test_the_scanner_answers_what_it_is_meant_to() -> None:
    """The cases above without ``\\f`` or a lone ``\\r`` that ``tokenize`` does not
    refuse are the scanner's own."""
    for source in TRICKY:
        lone_cr = "\r" in source.replace("\r\n", "")
        if not lone_cr and "\f" not in source and reference(source).tokenized:
            assert scan_comments(source) is not None, source
    for source in UNCLOSED_CONTINUED_STRINGS:
        assert scan_comments(source) is None


def test_comments_of_is_the_scanner_answer() -> None:
    source = "x = '# no'  # noqa: IVY005\nif x:\n    y\n"
    found = comments_of(source)
    assert found == reference(source)
    assert found.comments == {1: LineComment(1, 12, "# noqa: IVY005")}
    assert found.open_lines == frozenset({1, 2, 3})


FRAGMENTS = [
    "x",
    "é",
    "1",
    " ",
    "  ",
    "    ",
    "\t",
    "\n",
    "\n",
    "\n",
    "#",
    "# noqa",
    "# noqa: IVY005",
    "'",
    '"',
    "''",
    "'''",
    '"""',
    "'a # b'",
    '"a # b"',
    "f'",
    "rb'",
    'U"',
    "Rb'''",
    "\\",
    "\\\n",
    "\\'",
    "(",
    ")",
    "[",
    "]",
    "{",
    "}",
    "if x:\n",
    "    pass\n",
    "  # c\n",
    "= ",
    ",",
    "{x!r}",
    "\ufeff",
    "\x00",
]
RARE = ["\r\n", "\r", "\f", "\x0b", "\xa0", "\udcff", "😀"]

fragment_texts = st.lists(
    st.sampled_from(FRAGMENTS + RARE) | st.sampled_from(FRAGMENTS), max_size=40
).map("".join)


@settings(max_examples=600, deadline=None)
@given(fragment_texts)
def test_mixed_fragments(source: str) -> None:
    assert_same(source)


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="x #'\"\\\n\t ()[]{}:r\r\f", max_size=60))
def test_any_text_of_the_characters_that_matter(source: str) -> None:
    assert_same(source)


@settings(max_examples=1500, deadline=None)
@given(st.text(alphabet="x #'\"\\\n\t ()", max_size=40))
def test_any_text_of_few_characters(source: str) -> None:
    """Few characters, so that short texts meet every pair and triple of them (a triple
    quote after a bracket, a ``#`` between quotes) without the ones the scanner leaves."""
    assert_same(source)


def test_random_mixes_are_mostly_the_scanner_own() -> None:
    """A fixed sample of fragment mixes without the rare characters: all agree, and the
    scanner answers nine in ten of those ``tokenize`` accepts (it leaves it the ones with
    a one-line string continued by a backslash and never closed)."""
    chooser = random.Random(24)
    accepted = answered = 0
    for _ in range(3000):
        source = "".join(chooser.choices(FRAGMENTS, k=chooser.randrange(30)))
        answered += assert_same(source)
        accepted += reference(source).tokenized
    assert accepted > 500
    assert answered > 0.9 * accepted
