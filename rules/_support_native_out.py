"""Where a file sets ``support_native_out`` on its functions, and how to remove one setting.

Ivy's wrapper (``handle_out_argument``) hands a backend function the native ``out`` buffer
only when the function carries this attribute; Ivy tests its presence, not its value. The
attribute is set at module level, as ``fn.support_native_out = True``, with
``setattr(fn, "support_native_out", True)``, or in a loop over functions, possibly inside a
module-level ``if``/``try``: :func:`attribute_sites` finds all of them, so that IVY001 does
not ask for an attribute that is there, IVY002/IVY015 can point at (and remove) the one
that is wrong, and IVY003 knows which functions promise to write ``out``.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

import libcst as cst

ATTRIBUTE = "support_native_out"


@dataclass(frozen=True)
class AttributeSite:
    """One place that sets ``support_native_out`` on a module-level function.

    ``statement`` is the module-level statement (a ``SimpleStatementLine`` or, for the loop
    form, the ``For``); ``small`` the assignment or ``setattr`` call inside it; ``element`` the
    entry of the loop's tuple that names the function (loop form only).
    """

    function: str
    value: cst.BaseExpression
    statement: cst.SimpleStatementLine | cst.For
    small: cst.BaseSmallStatement
    element: cst.Element | None = None

    @property
    def is_falsy_literal(self) -> bool:
        """``False``, ``None`` or ``0``: values Ivy's presence test still reads as true."""
        value = self.value
        if isinstance(value, cst.Name):
            return value.value in ("False", "None")
        return isinstance(value, cst.Integer) and value.value in ("0", "0x0", "0b0", "0o0")

    def removal(self) -> tuple[cst.CSTNode, cst.CSTNode | cst.RemovalSentinel] | None:
        """(fix target, replacement) that deletes just this attribute, or ``None`` if unsafe."""
        if isinstance(self.statement, cst.SimpleStatementLine):
            if isinstance(self.small, cst.Assign) and len(self.small.targets) > 1:
                return None
            if len(self.statement.body) > 1:
                return self.statement, _without(self.statement, self.small)
            return self.statement, cst.RemoveFromParent()
        loop = self.statement
        body = loop.body.body
        if self.element is None or not isinstance(loop.iter, cst.Tuple | cst.List):
            return None
        kept = [e for e in loop.iter.elements if e is not self.element]
        if not kept:
            return loop, cst.RemoveFromParent()
        if len(body) != 1:
            return None  # the loop does more than set this attribute: leave it to a human
        cleaned = [
            e.with_changes(comma=cst.MaybeSentinel.DEFAULT) if i == len(kept) - 1 else e
            for i, e in enumerate(kept)
        ]
        if isinstance(loop.iter, cst.Tuple) and len(cleaned) == 1:
            cleaned = [cleaned[0].with_changes(comma=cst.Comma())]
        return loop.iter, loop.iter.with_changes(elements=cleaned)


def statement_removal(
    site: AttributeSite,
) -> tuple[cst.CSTNode, cst.CSTNode | cst.RemovalSentinel] | None:
    """(fix target, removal) that deletes the assignment for *every* function it names."""
    if isinstance(site.small, cst.Assign) and len(site.small.targets) > 1:
        return None
    if isinstance(site.statement, cst.SimpleStatementLine):
        line: cst.SimpleStatementLine = site.statement
    else:
        lines = [
            s
            for s in site.statement.body.body
            if isinstance(s, cst.SimpleStatementLine) and any(x is site.small for x in s.body)
        ]
        if not lines:
            return None
        line = lines[0]
        if len(site.statement.body.body) == 1 and len(line.body) == 1:
            return site.statement, cst.RemoveFromParent()
    if len(line.body) > 1:
        return line, _without(line, site.small)
    return line, cst.RemoveFromParent()


def _without(
    line: cst.SimpleStatementLine, small: cst.BaseSmallStatement
) -> cst.SimpleStatementLine:
    """``line`` minus one of its ``;``-separated statements (no dangling ``;`` left)."""
    kept = [s for s in line.body if s is not small]
    last = kept[-1].with_changes(semicolon=cst.MaybeSentinel.DEFAULT)
    return line.with_changes(body=[*kept[:-1], last])


def _setattr_parts(call: cst.Call) -> tuple[str, cst.BaseExpression] | None:
    """(target name, value) for ``setattr(name, "support_native_out", value)``."""
    if not (isinstance(call.func, cst.Name) and call.func.value == "setattr"):
        return None
    if len(call.args) != 3 or any(a.keyword or a.star for a in call.args):
        return None
    target, attribute, value = (a.value for a in call.args)
    if not isinstance(target, cst.Name) or not isinstance(attribute, cst.SimpleString):
        return None
    if attribute.evaluated_value != ATTRIBUTE:
        return None
    return target.value, value


def _small_sets(small: cst.BaseSmallStatement) -> Iterator[tuple[str, cst.BaseExpression]]:
    """(target name, value) for each ``support_native_out`` a small statement sets."""
    if isinstance(small, cst.Assign):
        for target in small.targets:
            t = target.target
            if (
                isinstance(t, cst.Attribute)
                and t.attr.value == ATTRIBUTE
                and isinstance(t.value, cst.Name)
            ):
                yield t.value.value, small.value
    elif isinstance(small, cst.Expr) and isinstance(small.value, cst.Call):
        parts = _setattr_parts(small.value)
        if parts is not None:
            yield parts


def _module_statements(body: Sequence[cst.CSTNode]) -> Iterator[cst.CSTNode]:
    """Module-level statements, including those inside module-level ``if``/``try`` blocks."""
    for statement in body:
        yield statement
        if isinstance(statement, cst.If):
            yield from _module_statements(statement.body.body)
            orelse = statement.orelse
            while orelse is not None:
                yield from _module_statements(orelse.body.body)
                orelse = orelse.orelse if isinstance(orelse, cst.If) else None
        elif isinstance(statement, cst.Try):
            yield from _module_statements(statement.body.body)
            for handler in statement.handlers:
                yield from _module_statements(handler.body.body)


def attribute_sites(module: cst.Module) -> list[AttributeSite]:
    """Every ``support_native_out`` assignment at module level, in source order."""
    sites: list[AttributeSite] = []
    for statement in _module_statements(module.body):
        if isinstance(statement, cst.SimpleStatementLine):
            for small in statement.body:
                for name, value in _small_sets(small):
                    sites.append(AttributeSite(name, value, statement, small))
        elif (
            isinstance(statement, cst.For)
            and isinstance(statement.target, cst.Name)
            and isinstance(statement.iter, cst.Tuple | cst.List | cst.Set)
        ):
            variable = statement.target.value
            for inner in statement.body.body:
                if not isinstance(inner, cst.SimpleStatementLine):
                    continue
                for small in inner.body:
                    for name, value in _small_sets(small):
                        if name != variable:
                            continue
                        for element in statement.iter.elements:
                            if isinstance(element, cst.Element) and isinstance(
                                element.value, cst.Name
                            ):
                                sites.append(
                                    AttributeSite(
                                        element.value.value, value, statement, small, element
                                    )
                                )
    return sites
