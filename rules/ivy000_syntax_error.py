"""IVY000: the file cannot be parsed."""

from __future__ import annotations

from ivycheck.checker.rule_api import Example, Rule


class SyntaxErrorRule(Rule):
    """A file that does not parse cannot be checked at all.

    The engine reports it as one diagnostic at the error, with CPython's own message and
    position, instead of a traceback, and goes on with the other files. Fix the syntax
    error (or exclude the file) and every other rule applies to it again.
    """

    CODE = "IVY000"
    NAME = "syntax-error"
    MESSAGE = "File cannot be parsed; fix the syntax error so that it can be checked"
    VALID = (
        Example("def f(x):\n    return x\n"),
        Example("x = [1, 2, 3]\n"),
        Example("async def g():\n    await h()\n"),
        Example("match x:\n    case 1:\n        pass\n"),
        Example("with open(p) as f, open(q) as g:\n    pass\n"),
        Example("# only a comment\n"),
    )
    INVALID = (
        Example("def f(:\n    pass\n"),
        Example("x = (1, 2\n"),
        Example("return = 3\n"),
        Example("def f():\nreturn 1\n"),
        Example("class C\n    pass\n"),
        Example("print 'hello'\n"),
    )
