"""IVY005's and IVY008's fixes rendered as text are the edits libcst renders.

``rules/_text_fixes.py`` renders a decorator reordering (IVY005) and ``out`` moved after
``*`` (IVY008) as text where the shape is plain, so that a JSON or SARIF run does not
import libcst; libcst renders every other shape and is the reference. Each generated
shape below is rendered both ways: wherever the text path gives an edit it must be
libcst's, byte for byte, and the text path must be taken for most plain shapes (else it
saves nothing). The shapes mix decorators over several lines, comments, blank lines,
backslash continuations, parentheses, tabs, CRLF, ``async`` functions, methods and nested
functions; signatures with defaults, annotations, ``/``, ``*args``, ``**kwargs``,
trailing commas, comments and one parameter per line.
"""

from __future__ import annotations

import ast
import itertools
import random

from ivycheck.rules._ast_source import Lines
from ivycheck.rules._text_fixes import (
    function_at,
    keyword_only_out,
    parameter_at,
    reordered_decorators,
    reordered_with_libcst,
)
from ivycheck.rules.ivy008_out_not_keyword_only import keyword_only_with_libcst

DECORATORS = (
    "@a\n",
    "@b(1, 2)\n",
    "@c(\n    x,\n    y,\n)\n",
    "@d  # why\n",
    "@ e\n",
    "@f \\\n(1)\n",
    "@(g)\n",
    "@h.i[0]\n",
    "@j('é')  # é\n",
    "@k(x=\\\n  1)\n",
)
BETWEEN = ("", "# c\n", "\n", "   \n", "\t# c\n", "    # c\n", "\n# c\n\n")
DEFINITIONS = (
    "def f(x):\n    pass\n",
    "async def f(x):\n    return 1\n",
    "def f(x): return 1\n",
    'def f(\n    x,\n):  # c\n    """doc"""\n',
)
CONTAINERS = ("", "class A:\n", "def outer():\n    y = 1\n", "if 1:\n\tpass\n")


def _indented(text: str, indentation: str) -> str:
    return "".join(indentation + line if line.strip() else line for line in text.splitlines(True))


def _decorator_cases() -> list[tuple[str, list[int]]]:
    chosen = random.Random(37)
    cases = []
    shapes = list(itertools.product(DECORATORS, BETWEEN, DECORATORS, BETWEEN, DECORATORS))
    for first, between, second, between2, third in chosen.sample(shapes, 700):
        for container in CONTAINERS:
            definition = chosen.choice(DEFINITIONS)
            above = chosen.choice(("", "# above\n", "\n"))
            header = above + first + between + second + between2 + third + definition
            indentation = "" if not container else ("\t" if "\t" in container else "    ")
            source = "x = 1\n" + container + _indented(header, indentation) + "z = 2\n"
            newline = chosen.choice(("\n", "\r\n"))
            permutation = chosen.choice(([2, 1, 0], [1, 0, 2], [0, 2, 1], [1, 2, 0]))
            cases.append((source.replace("\n", newline), permutation))
    return cases


def test_decorators_are_reordered_as_libcst_reorders_them() -> None:
    taken = 0
    different = []
    for source, permutation in _decorator_cases():
        tree = ast.parse(source)
        function = next(
            node
            for node in ast.walk(tree)
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name == "f"
        )
        at = function.lineno, Lines(source).column(function.lineno, function.col_offset)
        assert function_at(source, tree, at) is function
        as_text = reordered_decorators(source, function, permutation)
        if as_text is None:
            continue
        taken += 1
        if as_text != reordered_with_libcst(source, tree, at, permutation):
            different.append(source)
    assert different == []
    assert taken > 1000  # the text path is taken for the plain shapes


BEFORE_OUT = ("x", "x: int", "x=1", "x: 'é' = (1,\n 2)", "x, y=2", "x, /", "x, /, y=None")
OUTS = ("out=None", "out: Optional[ivy.Array] = None", "out", "out = None")
AFTER_OUT = ("", "*args", "*", "*, alpha=None", "**kwargs", "*args, beta, **kw", "z=3")
LAYOUTS = ("one line", "trailing comma", "one per line", "one per line, trailing", "comments")


def _signature(parts: list[str], layout: str) -> str:
    if layout == "one line":
        return "(" + ", ".join(parts) + ")"
    if layout == "trailing comma":
        return "(" + ", ".join(parts) + ",)"
    if layout == "comments":
        return "(\n" + "".join(f"    {part},  # {part[:1]}\n" for part in parts) + ")"
    if layout == "one per line":
        return "(\n    " + ",\n    ".join(parts) + "\n)"
    return "(\n" + "".join(f"    {part},\n" for part in parts) + ")"


def _signature_cases() -> list[str]:
    cases = []
    chosen = random.Random(8)
    for before, out, after, layout in itertools.product(BEFORE_OUT, OUTS, AFTER_OUT, LAYOUTS):
        parts = [*before.split(", "), out, *([*after.split(", ")] if after else [])]
        if "," in before and "(" in before:
            parts = [before, out, *([after] if after else [])]
        for container in ("", "class A:\n"):
            head = chosen.choice(("def", "async def", "@handle_view\ndef"))
            odd = chosen.choice(("", " ,", "  \\\n"))
            signature = _signature(parts, layout)
            if odd and ", " in signature:
                signature = signature.replace(", ", odd + " ", 1)
            definition = f"{head} tan{signature}:\n    return 1\n"
            if container:
                definition = container + _indented(definition, "    ")
            source = "import ivy\n" + definition
            if chosen.random() < 0.3:
                source = source.replace("\n", "\r\n")
            try:
                ast.parse(source)
            except SyntaxError:
                continue
            cases.append(source)
    return cases


def test_out_is_made_keyword_only_as_libcst_makes_it() -> None:
    taken = 0
    different = []
    for source in _signature_cases():
        tree = ast.parse(source)
        function = next(
            node
            for node in ast.walk(tree)
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.name == "tan"
        )
        arguments = function.args
        out = next(arg for arg in (*arguments.posonlyargs, *arguments.args) if arg.arg == "out")
        at = out.lineno, Lines(source).column(out.lineno, out.col_offset)
        assert parameter_at(source, tree, at) == (function, out)
        as_text = keyword_only_out(source, function, out)
        if as_text is None:
            continue
        taken += 1
        if as_text != keyword_only_with_libcst(source, tree, at):
            different.append(source)
    assert different == []
    assert taken > 300
