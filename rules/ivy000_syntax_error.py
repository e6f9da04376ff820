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
        Example(
            """
            def f(x):
                return x
            """,
        ),
        Example(
            """
            x = [1, 2, 3]
            """,
        ),
        Example(
            """
            async def g():
                await h()
            """,
        ),
        Example(
            """
            match x:
                case 1:
                    pass
            """,
        ),
        Example(
            """
            with open(p) as f, open(q) as g:
                pass
            """,
        ),
        Example(
            """
            # only a comment
            """,
        ),
    )
    INVALID = (
        Example(
            """
            def f(:
                pass
            """,
        ),
        Example(
            """
            x = (1, 2
            """,
        ),
        Example(
            """
            return = 3
            """,
        ),
        Example(
            """
            def f():
            return 1
            """,
        ),
        Example(
            """
            class C
                pass
            """,
        ),
        Example(
            """
            print 'hello'
            """,
        ),
    )
