"""What a rule is: a libcst visitor that carries its own documentation and examples.

Modelled on Fixit: one class per module, the docstring explains why, ``MESSAGE`` is one
line, ``VALID``/``INVALID`` hold examples that double as tests, and ``visit_*`` methods
call :meth:`Rule.report`, optionally with a replacement node that becomes the fix. All
rules of a file run in one batched walk of the tree; an exception in one rule disables
that rule for that file only (the engine reports it as IVY999).
"""

from __future__ import annotations

import ast
import enum
import functools
import inspect
import re
import textwrap
import traceback
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, fields, replace
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, TypeVar, cast

import libcst as cst
from libcst.metadata import CodeRange, MetadataWrapper, PositionProvider

from ivycheck.checker.base import trees
from ivycheck.checker.base.diagnostics import Edit, FixSafety, Severity
from ivycheck.checker.base.positions import spans
from ivycheck.checker.project.index import ProjectIndex
from ivycheck.checker.project.layout import part_of_file

if TYPE_CHECKING:
    from ivycheck.checker.project.config import Config

T = TypeVar("T")


class Category(enum.StrEnum):
    """What kind of problem a rule finds, so that users can select by it.

    ``correctness``: the program computes or writes something wrong (a dropped ``out``, a
    ``TypeError`` on the ``out`` path). ``performance``: the result is right, but work is
    done twice (IVY001: a full allocation and copy per call). ``dead-code``: code that never
    runs or is read by nothing, misleading but harmless.
    """

    CORRECTNESS = "correctness"
    PERFORMANCE = "performance"
    DEAD_CODE = "dead-code"


_CATEGORY_MEANING = {
    Category.CORRECTNESS: "a finding means the code computes or writes something wrong",
    Category.PERFORMANCE: "a finding means correct code that does avoidable work",
    Category.DEAD_CODE: "a finding means code that never runs or is read by nothing",
}

Replacement = cst.CSTNode | cst.RemovalSentinel | cst.FlattenSentinel[cst.CSTNode]
"""What a fix puts in place of the fix target: a node, ``cst.RemoveFromParent()``, or a
``cst.FlattenSentinel`` of statements (to add a statement after a function, say)."""


def _code_block(text: str) -> str:
    """The code of a triple-quoted block written at the indentation of the rule around it:
    the newline after the opening quotes dropped, the common indentation removed."""
    return textwrap.dedent(text.removeprefix("\n"))


@dataclass(frozen=True)
class Example:
    """A snippet that a rule must flag (INVALID) or leave alone (VALID).

    ``path`` decides which part of the code base the snippet plays (a backend file, the
    functional API...). ``expected`` is the fixed code for an INVALID example with a fix.
    ``files`` are extra files of the same project, for cross-file rules. Every text may be
    an indented triple-quoted block (``Example(\"\"\"`` on one line, the code below it):
    the newline after the opening quotes and the common indentation are removed, so
    examples read as the code they stand for.

    ``preamble`` is code that several examples of a rule share (the function whose
    wrappers they vary, say), written once as a named block in the rule's module: it is
    put, as written, before ``code`` and before ``expected``, so ``code`` is the whole
    snippet again (what tests check and the documentation shows) and the example's own
    text is only what it varies.

    ``message`` (INVALID only) is text the finding's message must contain, and
    ``severity``/``category`` what the finding must have: for rules whose message or
    severity depends on the project (the consequence a backend's update has, say).
    ``line``/``column`` (INVALID only) are where the finding starts in ``code`` (preamble
    included), 1-based as the command prints them: ``Example(..., line=5, column=5)``
    pins the position as Ruff's fixtures and Fixit's ``Invalid(line=..., column=...)`` do.
    """

    code: str
    path: str = "ivy/functional/ivy/example.py"
    expected: str | None = None
    files: Mapping[str, str] = field(default_factory=dict)
    preamble: str = ""
    message: str | None = None
    severity: Severity | None = None
    category: Category | None = None
    line: int | None = None
    column: int | None = None

    def __post_init__(self) -> None:
        set_field = object.__setattr__  # frozen: the normalised texts are set once, here
        preamble = _code_block(self.preamble)
        set_field(self, "code", preamble + _code_block(self.code))
        if self.expected is not None:
            set_field(self, "expected", preamble + _code_block(self.expected))
        set_field(self, "files", {path: _code_block(text) for path, text in self.files.items()})


@dataclass
class Report:
    """A finding as a rule raised it, before positions and fixes become text."""

    code: str
    node: cst.CSTNode
    message: str
    replacement: Replacement | None = None
    fix_description: str | None = None
    fix_target: cst.CSTNode | None = None
    category: Category | None = None
    """This finding's category when it differs from the rule's ``CATEGORY``."""
    severity: Severity | None = None
    """This finding's severity when it differs from the rule's ``SEVERITY``."""

    @property
    def replaced_node(self) -> cst.CSTNode:
        """The node the replacement stands for (the reported one unless a fix target is set)."""
        return self.fix_target if self.fix_target is not None else self.node


@dataclass(frozen=True)
class Finding:
    """A finding as :meth:`Rule.check` decides it on CPython's tree: where it is, what it
    says, and whether a fix is offered. The fix's text is made only when a front door asks
    for it (:meth:`Rule.fix`), from ``fix_data``: whatever the rule needs to find the
    place again (usually a position), never a tree node (the tree is gone by then)."""

    line: int
    column: int
    """0-based, in code points: the column of the reported node's start."""
    end_line: int
    end_column: int
    message: str
    fix_description: str | None = None
    """The fix's description when the rule offers one, else ``None``."""
    severity: Severity | None = None
    """The finding's own severity when it differs from the rule's ``SEVERITY``."""
    category: Category | None = None
    """The finding's own category when it differs from the rule's ``CATEGORY``."""
    fix_data: Any = field(default=None, compare=False)
    """What :meth:`Rule.fix` needs to render the fix (a position, a name...)."""


AstFinding = Finding
"""The name :meth:`Rule.find_on_ast` answers with (the same class)."""


@dataclass(frozen=True, eq=False)
class FileUnderCheck:
    """One file as the engine checks it: its text, its tree, where it is, and what it is
    checked with.

    Everything that decides a file's findings besides the rules themselves travels
    together, so every front door hands the rules the same facts. Build it with
    :meth:`of`, the one constructor every door uses. ``part`` is derived from ``config``,
    ``relative_path`` and, where the globs leave the file ``other``, its code
    (:func:`~ivycheck.checker.project.layout.part_of_file`); never pass it: a copy made by
    :func:`dataclasses.replace` keeps the original's, so an index being built cannot
    change it. The tree is the file's own (:attr:`tree`); a copy with another ``source``
    parses its own.
    """

    source: str
    path: str
    """As given (absolute or as the user typed it): what diagnostics name."""
    relative_path: str
    """Relative to the project root: what the configuration's globs and the index match."""
    config: Config
    index: ProjectIndex
    part: str = field(default="", kw_only=True)
    """``functional``, ``backend:numpy``...: which part of the code base the file plays."""

    @classmethod
    def of(
        cls,
        source: str,
        path: str,
        config: Config,
        *,
        index: ProjectIndex | None = None,
        relative_path: str | None = None,
        tree: ast.Module | None = None,
    ) -> FileUnderCheck:
        """The file every front door hands the engine: the path relative to the
        configuration's root unless given, an empty index unless given, and the text's
        tree when the caller parsed it already (it must be ``source``'s)."""
        relative = relative_path if relative_path is not None else config.relative(Path(path))
        file = cls.__new__(cls)
        if tree is not None:
            file.__dict__["tree"] = tree  # (the cached_property's slot: not parsed again)
        cls.__init__(file, source, path, relative, config, index or ProjectIndex())
        return file

    def with_index(self, index: ProjectIndex) -> FileUnderCheck:
        """This file checked against ``index`` instead: the same part and tree."""
        copy = replace(self, index=index)
        if "tree" in self.__dict__:
            copy.__dict__["tree"] = self.__dict__["tree"]
        return copy

    def __post_init__(self) -> None:
        if not self.part:
            part = part_of_file(
                self.config, self.relative_path, self.index, self.source, self._tree_or_none
            )
            object.__setattr__(self, "part", part)

    @cached_property
    def tree(self) -> ast.Module:
        """CPython's tree of ``source``: the one tree every rule reads. Parsed on first use
        unless handed over (:meth:`of`); never mutate it."""
        return trees.parse(self.source)

    def _tree_or_none(self) -> ast.Module | None:
        try:
            return self.tree
        except trees.PARSE_ERRORS:
            return None

    @property
    def backend(self) -> str | None:
        """The backend a backend file belongs to, else ``None``."""
        return self.part.removeprefix("backend:") if self.part.startswith("backend:") else None


@dataclass(frozen=True, eq=False)
class RuleContext(FileUnderCheck):
    """What a rule may know about the file it checks: the :class:`FileUnderCheck` (its
    attributes), the parsed module, and what is computed on first use."""

    wrapper: MetadataWrapper
    function_stack: list[cst.FunctionDef] = field(default_factory=list)
    """The functions enclosing the node being visited, innermost last."""
    _memo: dict[Callable[[cst.Module], Any], Any] = field(default_factory=dict, init=False)

    @classmethod
    def parsed(cls, file: FileUnderCheck, module: cst.Module) -> RuleContext:
        """The context of ``file`` parsed as ``module`` (whose text is ``file.source``)."""
        facts = {f.name: getattr(file, f.name) for f in fields(FileUnderCheck)}
        return cls(**facts, wrapper=MetadataWrapper(module, unsafe_skip_copy=True))

    @property
    def module(self) -> cst.Module:
        return self.wrapper.module

    @cached_property
    def positions(self) -> Mapping[cst.CSTNode, CodeRange]:
        """Every node's position: libcst's metadata for the whole module (costly: prefer
        :meth:`start_line` for a node or two)."""
        return self.wrapper.resolve(PositionProvider)

    def start_line(self, node: cst.CSTNode) -> int:
        """The 1-based line ``node`` starts on. Renders the module only up to the node and
        records no other node's position, where :attr:`positions` resolves all of them (a
        message naming one line cost a third of a file's rule walk)."""
        return spans(self.module, [node])[node].line

    def code_for(self, node: cst.CSTNode) -> str:
        return self.module.code_for_node(node)

    def memo(self, factory: Callable[[cst.Module], T]) -> T:
        """One value per file and factory (an import map, say), shared by every rule."""
        if factory not in self._memo:
            value = factory(self.module)
            bind = getattr(value, "bind_context", None)
            if callable(bind):
                bind(self)
            self._memo[factory] = value
        return cast(T, self._memo[factory])


_last_mentions: tuple[str, dict[tuple[str, ...], bool]] = ("", {})


def _mentions(source: str, triggers: tuple[str, ...]) -> bool:
    """Whether ``source`` holds one of ``triggers`` at the start of a word. Answered once
    per text for each set of triggers: eight rules share three sets, and the regex scans
    the whole text when no trigger is there."""
    global _last_mentions
    text, known = _last_mentions
    if text is not source:
        known = {}
        _last_mentions = (source, known)
    found = known.get(triggers)
    if found is None:
        # A plain substring test first: the bounded regex is 100x slower.
        found = any(t in source for t in triggers) and (
            _trigger_pattern(triggers).search(source) is not None
        )
        known[triggers] = found
    return found


@functools.cache
def _trigger_pattern(triggers: tuple[str, ...]) -> re.Pattern[str]:
    def bounded(trigger: str) -> str:
        # Only the start is bounded: triggers are prefixes (`handle_view` finds
        # `handle_view_indexing`), but `out=` must not be found inside `timeout=`.
        pattern = re.escape(trigger)
        return r"(?<!\w)" + pattern if trigger[:1].isidentifier() else pattern

    return re.compile("|".join(bounded(t) for t in triggers))


@functools.cache
def _visitor_method_names(cls: type[cst.BatchableCSTVisitor]) -> tuple[str, ...]:
    """The ``visit_*``/``leave_*`` methods a visitor class defines, without no-op stubs.

    libcst's own ``get_visitors`` runs ``inspect.getmembers`` on every instance, and there
    is one instance per rule per file checked. What methods a class has does not change
    between its instances, so it is asked once per class (``benchmarks/lsp_latency.py``
    measures the per-keystroke check this keeps small).
    """
    return tuple(
        name
        for name in dir(cls)
        if name.startswith(("visit_", "leave_"))
        and callable(getattr(cls, name))
        and not getattr(getattr(cls, name), "_is_no_op", False)
    )


class CachedVisitorLookup(cst.BatchableCSTVisitor):
    """A batchable visitor whose visit methods are looked up once per class."""

    def get_visitors(self) -> Mapping[str, Callable[[Any], None]]:
        return {name: getattr(self, name) for name in _visitor_method_names(type(self))}


def always_relevant(definition: str) -> bool:
    """The definition filter of a rule that must see every definition of the file."""
    return True


class ScopeEntry(CachedVisitorLookup):
    """First in every batch: pushes a function before any rule visits it."""

    def __init__(self, context: RuleContext) -> None:
        super().__init__()
        self.stack = context.function_stack

    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        self.stack.append(node)


class ScopeExit(CachedVisitorLookup):
    """Last in every batch: pops a function after every rule has left it."""

    def __init__(self, context: RuleContext) -> None:
        super().__init__()
        self.stack = context.function_stack

    def leave_FunctionDef(self, original_node: cst.FunctionDef) -> None:
        self.stack.pop()


class Rule(CachedVisitorLookup):
    """Base class of every rule; subclasses set the class attributes below."""

    CODE: ClassVar[str]
    NAME: ClassVar[str]
    MESSAGE: ClassVar[str]
    SEVERITY: ClassVar[Severity] = Severity.ERROR
    CATEGORY: ClassVar[Category] = Category.CORRECTNESS
    """What kind of problem the rule finds (:class:`Category`); shown by ``--explain``."""
    FIX_SAFETY: ClassVar[FixSafety | None] = None
    VALID: ClassVar[Sequence[Example]] = ()
    INVALID: ClassVar[Sequence[Example]] = ()
    PARTS: ClassVar[frozenset[str] | None] = None
    """Parts of the code base the rule looks at (``functional``, ``backend:numpy``...);
    ``None`` means every file. The engine skips the rule elsewhere without a walk."""
    TRIGGERS: ClassVar[tuple[str, ...]] = ()
    """Substrings a file must contain for the rule to find anything; empty means always.
    Lets the engine skip the libcst parse of files that cannot hold a finding."""
    LOCAL: ClassVar[bool] = False
    """Whether findings about a top-level definition depend only on that definition, the
    file's other top-level statements that are not definitions (imports, attributes), and
    the project index. Lets the language server re-check only the definitions that changed
    (``checker/core/incremental.py``); a rule that looks across definitions keeps it False."""
    FOLLOWS_CALLS: ClassVar[bool] = True
    """For a rule that is not ``LOCAL``: whether its findings about a definition depend on
    the file's other definitions that one names (the out-flow rules follow ``out`` into
    helpers). ``False`` for a rule that looks across definitions only through the
    statements naming them (IVY013 judges ``fn.mixed_backend_wrappers = ...`` by ``fn``).
    The engine's narrowed check (``checker/core/narrowing.py``) keeps what it says; with
    ``False`` (or ``LOCAL``) it also narrows inside classes, so a finding in a method must
    then depend on no other method of its class (none does: calls are followed only by
    plain name into module-level functions)."""
    NEEDS_INDEX: ClassVar[bool] = False
    """Whether findings depend on other files (then the cache keys on the index too)."""
    INDEX_REFINES_ONLY: ClassVar[bool] = False
    """With ``NEEDS_INDEX``: other files decide only a finding's message and severity,
    never whether there is one (IVY005: the project's own wrappers say what an order
    changes). The language server then runs the rule before its index is built, on the
    defaults, and checks again once it is."""

    def __init__(self, context: RuleContext) -> None:
        super().__init__()
        self.context = context
        self.reports: list[Report] = []
        self.failure: str | None = None

    @classmethod
    def explanation(cls) -> str:
        """The docstring, ending with the rule's category and what it means."""
        text = inspect.cleandoc(cls.__doc__ or cls.MESSAGE)
        return f"{text}\n\nCategory: {cls.CATEGORY.value} ({_CATEGORY_MEANING[cls.CATEGORY]})."

    @classmethod
    def is_relevant(cls, source: str, config: Config) -> bool:
        """Cheap text test: can this file hold a finding at all? (default: ``TRIGGERS``).

        A trigger matches at the start of a word, so ``out=`` is not found in ``timeout=``
        or ``stdout=``; that keeps most of a non-Ivy code base from being parsed at all.
        """
        if not cls.TRIGGERS:
            return True
        return _mentions(source, cls.TRIGGERS)

    @classmethod
    def check(cls, tree: ast.Module, file: FileUnderCheck) -> Iterable[Finding]:
        """The rule's findings in ``file``, whose CPython tree is ``tree``: the only place a
        rule decides. Every front door (the command in any format, flake8, the language
        server, ``--fix``) runs this same check; a fix's text is made apart, by :meth:`fix`.
        A rule that does not override it is an old-style libcst visitor."""
        raise NotImplementedError

    @classmethod
    def fix(cls, finding: Finding, file: FileUnderCheck) -> Edit | None:
        """The text edit of ``finding``'s fix (one this rule's :meth:`check` offered),
        rendered with libcst over only the statement it changes
        (:func:`~ivycheck.checker.core.fix_render.replace_node`); ``None`` when none can be
        made. Called only when a front door wants fix text."""
        return None

    @classmethod
    def may_find(cls, tree: ast.Module, file: FileUnderCheck) -> bool:
        """Whether CPython's tree of the file can hold a finding of this rule.

        Asked after :meth:`is_relevant` of the files it passes; a rule for which every
        file answers ``False`` is not run, and a file no active rule can find anything in
        is never parsed by libcst (eleven times CPython's parser). The answer must never
        be ``False`` for a file with a finding: it decides what to skip, the libcst check
        still decides what to report. Default: ``True`` (the text test decided).

        Read ``file.index`` last: the command asks before the index exists, and a ``False``
        reached without reading it lets the file be checked while it is summarized.
        It is also asked of parts of a file (``checker/core/narrowing.py``)."""
        return True

    @classmethod
    def find_on_ast(cls, tree: ast.Module, file: FileUnderCheck) -> list[AstFinding] | None:
        """The findings of the libcst check, decided on CPython's tree alone, or ``None``
        when this file needs libcst to tell.

        Asked only where no fix text is wanted (the text reporters, the language server's
        diagnostics): a file every able rule answers for is never parsed by libcst. The
        answer must be exactly what the libcst check reports (same findings, positions,
        messages, and a fix offered or not); ``None`` is always correct, so a rule answers
        only the shapes it can judge exactly and leaves the rest to libcst. Default: ``None``.
        ``tests/rules/test_find_on_ast.py`` compares both on every example."""
        return None

    @classmethod
    def definition_filter(
        cls, context: str, config: Config, index: ProjectIndex
    ) -> Callable[[str], bool]:
        """A test of whether a top-level definition, next to the file's ``context`` (its
        statements that are not definitions), can hold a finding.

        Only asked of ``LOCAL`` rules, by the incremental checker: a definition no active
        rule finds relevant is neither parsed nor walked, so a 5 MB buffer of plain helpers
        costs a text scan, not a libcst walk. Built once per check: the context is scanned
        once, each definition once per rule. Default: trigger words in the definition or
        the context; a rule with its own ``is_relevant`` sees both texts together.
        """
        if cls.TRIGGERS and getattr(cls.is_relevant, "__func__", None) is _default_is_relevant:
            if cls.is_relevant(context, config):
                return always_relevant
            return lambda definition: cls.is_relevant(definition, config)
        return lambda definition: cls.is_relevant(context + definition, config)

    @classmethod
    def applies_to(cls, part: str) -> bool:
        if cls.PARTS is None:
            return True
        return part in cls.PARTS or (part.startswith("backend:") and "backend:*" in cls.PARTS)

    def report(
        self,
        node: cst.CSTNode,
        message: str | None = None,
        *,
        replacement: Replacement | None = None,
        fix_description: str | None = None,
        fix_target: cst.CSTNode | None = None,
        category: Category | None = None,
        severity: Severity | None = None,
    ) -> None:
        """Report ``node``; ``replacement`` replaces ``fix_target`` (default: ``node``);
        ``category``/``severity`` when this finding is of another kind than the rule's
        ``CATEGORY``/``SEVERITY`` (a consequence that differs per backend, say)."""
        self.reports.append(
            Report(
                self.CODE,
                node,
                message or self.MESSAGE,
                replacement,
                fix_description,
                fix_target,
                category,
                severity,
            )
        )

    def get_visitors(self) -> Mapping[str, Callable[[Any], None]]:
        """Wrap every visit method so that one rule's exception cannot stop the others."""
        return {name: self._guarded(fn) for name, fn in super().get_visitors().items()}

    def _guarded(self, fn: Callable[[Any], None]) -> Callable[[Any], None]:
        def run(node: Any) -> None:
            if self.failure is not None:
                return
            try:
                fn(node)
            except Exception as err:  # noqa: BLE001 - reported as IVY999; the run goes on
                frame = traceback.extract_tb(err.__traceback__)[-1]
                self.failure = (
                    f"{type(err).__name__}: {err} "
                    f"(in {frame.name}, {frame.filename.rsplit('/', 1)[-1]}:{frame.lineno})"
                )

        return run


_default_is_relevant = Rule.__dict__["is_relevant"].__func__
_default_check = Rule.__dict__["check"].__func__


def checks_on_ast(rule: type[Rule]) -> bool:
    """Whether ``rule`` decides in :meth:`Rule.check` (one tree), not as a libcst visitor."""
    return getattr(rule.check, "__func__", None) is not _default_check
