"""What the index records of a project's own function wrappers (``FileSummary.decorators``):
IVY005's severity follows it, so it must read the wrapper's code, not its name."""

from __future__ import annotations

import textwrap

from ivycheck.checker.project.index import EncodedSummary, ProjectIndex
from ivycheck.checker.project.summary import DecoratorSummary, summarize

IVY_STYLE = """
import functools

def handle_exceptions(fn):
    @functools.wraps(fn)
    def _handle_exceptions(*args, **kwargs):
        \"\"\"Catch all exceptions and raise them in IvyException.\"\"\"
        try:
            return fn(*args, **kwargs)
        except KeyError as e:
            _helper(e, KeyError)
        except Exception as e:
            _helper(e, RuntimeError)

    def _helper(e, cls):
        raise cls(str(e))

    _handle_exceptions.handle_exceptions = True
    return _handle_exceptions

def handle_nestable(fn):
    def _handle_nestable(*args, **kwargs):
        if args and isinstance(args[0], list):
            return [fn(a, **kwargs) for a in args[0]]
        return fn(*args, **kwargs)

    return _handle_nestable

def swallowing(fn):
    def _swallowing(*args, **kwargs):
        try:
            return fn(*args, **kwargs)
        except ValueError:
            return None

    return _swallowing

def retrying(fn):
    def _retrying(*args, **kwargs):
        try:
            result = fn(*args, **kwargs)
        except ValueError:
            raise
        return result

    return _retrying

def not_a_wrapper(x):
    def inner():
        return x
    return inner()
"""


def _decorators(text: str) -> dict[str, DecoratorSummary]:
    return summarize(textwrap.dedent(text), "ivy/func_wrapper.py", "other").decorators


def test_a_wrapper_that_only_reraises_acts_only_on_failure() -> None:
    found = _decorators(IVY_STYLE)["handle_exceptions"]
    assert (found.failure_only, found.catches) == (True, True)


def test_a_wrapper_without_try_neither_acts_on_failure_nor_catches() -> None:
    found = _decorators(IVY_STYLE)["handle_nestable"]
    assert (found.failure_only, found.catches) == (False, False)


def test_a_handler_that_returns_a_value_changes_results() -> None:
    found = _decorators(IVY_STYLE)["swallowing"]
    assert (found.failure_only, found.catches) == (False, True)


def test_a_try_that_does_more_than_return_the_call_is_not_failure_only() -> None:
    found = _decorators(IVY_STYLE)["retrying"]
    assert (found.failure_only, found.catches) == (False, True)


def test_a_function_that_returns_a_call_is_not_a_wrapper() -> None:
    assert "not_a_wrapper" not in _decorators(IVY_STYLE)


def test_the_index_finds_a_wrapper_through_an_encoded_summary_and_forgets_it() -> None:
    summary = summarize(textwrap.dedent(IVY_STYLE), "ivy/func_wrapper.py", "other")
    index = ProjectIndex.build([EncodedSummary.encode(summary)])
    found = index.decorator("handle_exceptions")
    assert found is not None and found.failure_only
    assert index.decorator("handle_view") is None
    index.replace_file("ivy/func_wrapper.py", None)
    assert index.decorator("handle_exceptions") is None


def test_a_changed_wrapper_changes_what_other_files_see() -> None:
    before = summarize(textwrap.dedent(IVY_STYLE), "ivy/func_wrapper.py", "other")
    after = summarize(
        textwrap.dedent(IVY_STYLE).replace("_helper(e, RuntimeError)", "return None"),
        "ivy/func_wrapper.py",
        "other",
    )
    assert before.facts_digest() != after.facts_digest()
