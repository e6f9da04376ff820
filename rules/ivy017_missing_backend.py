"""IVY017: the functional API delegates to a backend function that no backend defines."""

from __future__ import annotations

import ast
from collections.abc import Iterator

from ivycheck.checker.rule_api import Example, FileUnderCheck, Finding, ProjectIndex, Rule
from ivycheck.rules import _ast_calls
from ivycheck.rules._ast_facts import facts
from ivycheck.rules._ast_source import Lines, node_span

_API = "ivy/functional/ivy/elementwise.py"
_NUMPY = "ivy/functional/backends/numpy/elementwise.py"
_TORCH = "ivy/functional/backends/torch/elementwise.py"


class MissingBackend(Rule):
    """``current_backend(x).name(...)`` must name a function that the backends define.

    A primary function of the functional API does its work in the backend in use: Ivy
    looks ``name`` up on the backend module at call time. If no backend defines it (a typo,
    a renamed backend function, an implementation that was never written), every call
    fails at run time, on every backend, and nothing fails earlier: imports succeed and the
    API looks complete. How it fails is the project's lookup's business (a plain backend
    module raises ``AttributeError``; Ivy's backend modules fall back to the API function
    itself, which recurses until a ``RecursionError``), so the message does not name it.

    Define the function in each backend (``ivy/functional/backends/<name>/``), or fix the
    name. The rule only runs when the checked files include backend code: a run over the
    functional API alone cannot tell, and says nothing. The message names the backends that
    were seen. Backend functions are found by their ``def`` at module level; a backend that
    binds the name otherwise (``tan = np.tan``, ``from numpy import tan``) is not seen.
    """

    CODE = "IVY017"
    NAME = "missing-backend"
    MESSAGE = "No backend defines the function this API function delegates to; define it"
    PARTS = frozenset({"functional"})
    TRIGGERS = ("current_backend",)
    NEEDS_INDEX = True
    VALID = (
        Example(
            """
            def tan(x, /, *, out=None):
                return current_backend(x).tan(x, out=out)
            """,
            path=_API,
            files={
                _NUMPY: """
                def tan(x, /, *, out=None):
                    ...
                """,
            },
        ),
        Example(
            """
            def tan(x, /, *, out=None):
                return current_backend(x).tan(x, out=out)
            """,
            path=_API,
        ),
        Example(
            """
            import ivy

            def tan(x, /, *, out=None):
                return ivy.current_backend(x).tan(x, out=out)
            """,
            path=_API,
            files={
                _NUMPY: """
                def sin(x):
                    ...
                """,
                _TORCH: """
                def tan(x, /, *, out=None):
                    ...
                """,
            },
        ),
        Example(
            """
            def sinc(x, /, *, out=None):
                return ivy.divide(ivy.sin(x), x, out=out)
            """,
            path=_API,
            files={
                _NUMPY: """
                def sin(x):
                    ...
                """,
            },
        ),
        Example(
            """
            def tan(x, /, *, out=None):
                return current_backend(x).tan(x, out=out)
            """,
            path=_NUMPY,
            files={
                _TORCH: """
                def sin(x):
                    ...
                """,
            },
        ),
        Example(
            """
            def tan(x, /, *, out=None):
                return current_backend(x).tan(x, out=out)
            """,
            path=_API,
            files={
                "ivy/functional/backends/numpy/experimental/elementwise.py": """
                def tan(x, /, *, out=None):
                    ...
                """,
            },
        ),
        Example(
            """
            def dev(x):
                return current_backend(x).dev
            """,
            path=_API,
            files={
                _NUMPY: """
                def sin(x):
                    ...
                """,
            },
        ),
    )
    INVALID = (
        Example(
            """
            def tan(x, /, *, out=None):
                return current_backend(x).tann(x, out=out)
            """,
            path=_API,
            files={
                _NUMPY: """
                def tan(x, /, *, out=None):
                    ...
                """,
            },
            line=2,
            column=12,
        ),
        Example(
            """
            import ivy

            def tan(x, /, *, out=None):
                return ivy.current_backend(x).tan(x, out=out)
            """,
            path=_API,
            files={
                _NUMPY: """
                def sin(x):
                    ...
                """,
                _TORCH: """
                def sin(x):
                    ...
                """,
            },
            message="`current_backend(...).tan` is defined by no backend (seen: numpy, torch)",
            line=4,
            column=12,
        ),
        Example(
            """
            def count_nonzero(x, /, *, out=None):
                return current_backend().count_non_zero(x, out=out)
            """,
            path=_API,
            files={
                _NUMPY: """
                def count_nonzero(x, /, *, out=None):
                    ...
                """,
            },
            line=2,
            column=12,
        ),
        Example(
            """
            def f(x):
                if x is None:
                    return None
                return current_backend(x).f_impl(x)
            """,
            path=_API,
            files={
                _NUMPY: """
                def f(x):
                    ...
                """,
            },
            line=4,
            column=12,
        ),
        Example(
            """
            def tan(x, /, *, out=None):
                return current_backend(x).tan(x, out=out)
            """,
            path=_API,
            files={
                _NUMPY: """
                def _tan(x):
                    ...


                tan_alias = _tan
                """,
            },
            line=2,
            column=12,
        ),
        Example(
            """
            def tan(x, /, *, out=None):
                return current_backend(x).tan(x, out=out)
            """,
            path=_API,
            files={
                _NUMPY: """
                class Backend:
                    def tan(self, x):
                        ...
                """,
            },
            line=2,
            column=12,
        ),
    )

    @classmethod
    def check(cls, tree: ast.Module, file: FileUnderCheck) -> Iterator[Finding]:
        """The finding spans the call's ``current_backend(...).name``: CPython's
        ``Attribute``, from the callee's start (its parentheses included) to the name's
        end."""
        lines: Lines | None = None
        for call, name, backends in _missing(tree, file):
            lines = lines or Lines(file.source)
            span = node_span(lines, call.func)
            assert span is not None  # a parsed tree places every node
            yield Finding(*span, _message(name, backends))


def _message(name: str, backends: list[str]) -> str:
    """The finding for ``current_backend(...).name`` with the backends seen in the run."""
    seen = ", ".join(backends)
    return (
        f"`current_backend(...).{name}` is defined by no backend (seen: {seen}); every "
        f"call fails (the backend lookup finds nothing): define `{name}` in each backend or "
        "fix the name"
    )


def _backends_seen(index: ProjectIndex) -> list[str]:
    """The backends with at least one file in the run (even a file without functions)."""
    return sorted(
        part.removeprefix("backend:") for part in index.parts() if part.startswith("backend:")
    )


def _missing(tree: ast.Module, file: FileUnderCheck) -> Iterator[tuple[ast.Call, str, list[str]]]:
    """Each ``current_backend(...).name(...)`` call (with the name and the backends seen)
    that no backend defines, wherever it stands. The index is read only once the tree
    holds such a call: most files hold none."""
    found = [
        (call, name)
        for call, _, name in facts(tree).picked_calls("backend calls", _ast_calls.backend_call)
    ]
    if not found:
        return
    index = file.index
    backends = _backends_seen(index)
    if not backends:
        return
    for call, name in found:
        if not index.implementations(name):
            yield call, name, backends
