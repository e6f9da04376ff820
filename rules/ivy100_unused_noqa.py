"""IVY100: a ``# noqa`` code that suppresses nothing or names no rule."""

from __future__ import annotations

from ivycheck.checker.rule_api import Category, Example, FixSafety, Rule, Severity


class UnusedNoqaRule(Rule):
    """A ``# noqa: CODE`` that suppresses no finding on its line hides the next real one.

    When the code it was written for is fixed or moved, the directive stays and silently
    swallows whatever that rule reports on the line later; a code that names no rule at
    all (``IVY0005``, a typo) never suppressed anything. Both are reported so that the
    suppressions in a tree stay exactly the ones needed (Ruff's RUF100).

    Judged: codes whose letters are ours (``# noqa: E501`` belongs to flake8 or Ruff and
    is left alone, as is a bare ``# noqa``). A code is *unknown* if no rule code starts
    with it, *duplicated* if listed twice, *unused* if no finding of the line starts with
    it. A code whose rules are all disabled for the file (``select``, ``ignore``,
    ``per-file-ignores``) is not judged, because nobody can tell whether that rule would
    flag the line: a narrowed ``--select`` must not strip suppressions the full
    configuration needs. So with every rule on, ``x = f(y)  # noqa: IVY005`` on a line
    IVY005 does not flag is reported as unused.

    Opt-in, as Ruff's RUF100 is: ``ALL`` and ``IVY`` do not turn it on; name it
    (``extend-select = ["IVY100"]`` or ``--extend-select IVY100``). Its fix is safe, so
    ``ivycheck --extend-select IVY100 --fix`` clears stale suppressions in one run.

    This runs after every other rule on the file, on their findings before suppression
    (the engine's last step), not as a rule of its own. The fix removes the codes that
    go, or the whole directive (with the reason after it) when none is left, keeping any
    other comment on the line.
    """

    CODE = "IVY100"
    NAME = "unused-noqa"
    MESSAGE = "Unused `noqa` directive"
    SEVERITY = Severity.WARNING
    CATEGORY = Category.DEAD_CODE
    FIX_SAFETY = FixSafety.SAFE
    PARTS = frozenset()
    """Never run as a rule over the tree: the engine computes it from the other findings."""
    INVALID = (
        Example(
            """
            x = f(y)  # noqa: IVY0005
            """,
            expected="""
            x = f(y)
            """,
        ),
        Example(
            """
            x = f(y)  # noqa: IVY005, IVY005
            """,
            expected="""
            x = f(y)  # noqa: IVY005
            """,
        ),
        Example(
            """
            x = f(y)  # noqa: E501, IVY9999
            """,
            expected="""
            x = f(y)  # noqa: E501
            """,
        ),
        Example(
            """
            x = f(y)  # noqa: IVY777 - left over  # type: ignore
            """,
            expected="""
            x = f(y)  # type: ignore
            """,
        ),
        Example(
            """
            x = f(y)  # see issue 12  # noqa: IVY2
            """,
            expected="""
            x = f(y)  # see issue 12
            """,
        ),
        Example(
            """
            y = g(  # noqa: IVY0017
                x,
            )
            """,
            expected="""
            y = g(
                x,
            )
            """,
        ),
    )
    VALID = (
        Example(
            """
            x = f(y)  # noqa
            """,
        ),
        Example(
            """
            x = f(y)  # noqa: E501
            """,
        ),
        Example(
            """
            x = f(y)  # noqa: BLE001 - any failure means: do not write
            """,
        ),
        Example(
            """
            s = "# noqa: IVY0005"
            """,
        ),
        Example(
            """
            x = f(y)  # noqa: IVY005
            """,
        ),
        Example(
            """
            x = f(y)  # noqa: IVY100
            """,
        ),
    )
