"""A function with several results: ``out`` or the result annotated as a tuple.

Its ``out`` is a tuple of arrays, and the wrapper treats a tuple ``out`` apart: it may hand
it over with its items still wrapped, or never hand it over at all (a gate true for every
tuple, see ``rules/_out_fate.py``). IVY001, IVY002 and IVY003 ask it, on either tree.
"""

from __future__ import annotations

import re

import libcst as cst

from ivycheck.rules import _ast_layout
from ivycheck.rules._ast_facts import FunctionNode
from ivycheck.rules._ast_source import Lines

TUPLE_WORD = re.compile(r"\b(Tuple|tuple|NamedTuple)\b")
"""In an annotation of ``out`` or of the result: a function with several results."""


def several_results_on_ast(
    function: FunctionNode, lines: Lines, *, out_only: bool = False
) -> bool | None:
    """:func:`several_results` on CPython's tree (``out_only`` alike): a tuple word in the text of ``out``'s
    annotation (a regular or keyword-only parameter, as libcst's ``params`` and
    ``kwonly_params``) or the result's. libcst's text of an annotation is CPython's plus
    the parentheses around it and what they hold besides it, which can only be blanks and
    comments: ``None`` when a comment of the signature holds a tuple word and the
    annotations' own text does not."""
    args = function.args
    annotations = [None if out_only else function.returns] + [
        a.annotation for a in (*args.args, *args.kwonlyargs) if a.arg == "out"
    ]
    for annotation in annotations:
        if annotation is None:
            continue
        if TUPLE_WORD.search(_ast_layout.text(lines, annotation)):
            return True
    header = lines.header(function)
    if any(
        "#" in line and TUPLE_WORD.search(line[line.index("#") :]) for line in header.splitlines()
    ):
        return None
    return False


def several_results(function: cst.FunctionDef, *, out_only: bool = False) -> bool:
    """``out`` or the result annotated as a tuple (``Optional[Tuple[...]]``): a function
    with several results, whose ``out`` is a tuple of arrays. ``out_only``: ``out``'s
    annotation alone, what a caller passes (a result annotated ``Tuple[Tensor]`` may be one
    array, as Ivy's PyTorch ``histogram`` returns)."""
    code = cst.Module(body=[]).code_for_node
    annotations = [None if out_only else function.returns] + [
        p.annotation
        for p in (*function.params.params, *function.params.kwonly_params)
        if p.name.value == "out"
    ]
    return any(a is not None and TUPLE_WORD.search(code(a.annotation)) for a in annotations)
