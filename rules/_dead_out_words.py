"""Why IVY002 finds a ``support_native_out`` dead, in words, from a function's out-flow.

The message names what the function does with the buffer it is handed (takes none,
passes ``out=None``, gives it only to calls that reject it, only to ``inplace_update``,
only to a helper that drops it, or to no native call at all) and then what the user's
``out`` becomes (:mod:`ivycheck.rules._out_fate`): the same words whatever shape the
function is written in, since they come from the flow's facts alone.
"""

from __future__ import annotations

from collections.abc import Sequence

from ivycheck.rules._ast_out_analysis import OutFlow
from ivycheck.rules._ast_outflow import PlainUse, literal_out_none
from ivycheck.rules._out_fate import OutFate, compose
from ivycheck.rules._vocabulary import UseKind


def dead_message(function: str, why: str, fate: OutFate) -> str:
    """The finding's message: the function, ``why`` (:func:`reason`), and ``out``'s fate."""
    head = f"`{function}` has `support_native_out` but {why}"
    if not fate.never_handed:
        head += f": the wrapper hands over the native buffer, {_what_the_function_does(why)}"
    return compose(head, ", and ", fate, "; remove the attribute")


def reason(flow: OutFlow) -> str:
    """Why ``out`` reaches no native function, from the calls given it (a flow that
    :func:`~ivycheck.rules._ast_out_analysis.may_forward_natively` denies)."""
    if flow.root is None:
        return "it takes no `out`"
    if not flow.uses and literal_out_none(flow.function):
        return "its native call is given `out=None`"
    return _why_of_uses(flow.uses)


def _what_the_function_does(why: str) -> str:
    if "inplace_update" in why:
        return "the function writes it by `inplace_update`, not by a native `out=`"
    return "the function ignores it"


def _why_of_uses(uses: Sequence[PlainUse]) -> str:
    rejected = [use for use in uses if use.kind is UseKind.REJECTED]
    if rejected:
        return f"{rejected[0].describe()} does not accept `out`"
    if any(use.kind is UseKind.INPLACE for use in uses):
        return "it only writes `out` with `inplace_update` (that is the wrapper's job)"
    if any(use.kind is UseKind.DROPPED for use in uses):
        return "the helper it passes `out` to ignores it"
    return "it never passes `out` to a native function"
