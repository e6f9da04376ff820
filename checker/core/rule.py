"""What a rule is: a check on CPython's tree that carries its own documentation and examples.

Modelled on Fixit and Ruff: one class per module, the docstring explains why, ``MESSAGE``
is one line, ``VALID``/``INVALID`` hold examples that double as tests. A rule decides in
one place, :meth:`Rule.check`, which reads the file's one tree (CPython's ``ast``, carried
by :class:`FileUnderCheck`) and the project index and yields :class:`Finding` s with their
positions. A rule with a fix renders it in :meth:`Rule.fix`, with libcst over only the
statement it changes (:mod:`~ivycheck.checker.core.fix_render`), when a front door wants
fix text. A rule that raises is reported as IVY999 for that file; the others go on.
"""

from __future__ import annotations

import ast
import enum
import inspect
import textwrap
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar

from ivycheck.checker.base import trees
from ivycheck.checker.base.diagnostics import Edit, FixSafety, Severity
from ivycheck.checker.project.index import ProjectIndex
from ivycheck.checker.project.layout import part_of_file

if TYPE_CHECKING:
    from ivycheck.checker.project.config import Config


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


@dataclass(frozen=True)
class Finding:
    """A finding as :meth:`Rule.check` decides it on CPython's tree: where it is, what it
    says, and whether a fix is offered. The fix's text is made only when a front door asks
    for it (:meth:`Rule.fix`, given the same file and tree), from ``fix_data``: whatever
    the rule needs to find the place again in that tree (a position, a statement's index),
    never a node, so that a finding is a plain value that keeps nothing of the tree alive."""

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


_last_mentions: tuple[str, dict[tuple[str, ...], bool]] = ("", {})


def _mentions(source: str, triggers: tuple[str, ...]) -> bool:
    """Whether ``source`` holds one of ``triggers`` at the start of a word. Answered once
    per text for each set of triggers: eight rules share three sets."""
    global _last_mentions
    text, known = _last_mentions
    if text is not source:
        known = {}
        _last_mentions = (source, known)
    found = known.get(triggers)
    if found is None:
        found = known[triggers] = any(_starts_a_word(source, t) for t in triggers)
    return found


def _starts_a_word(source: str, trigger: str) -> bool:
    """Whether ``trigger`` is in ``source`` where no word character (``\\w``: a letter,
    digit or ``_``) comes right before it. Only the start is bounded: triggers are prefixes
    (``handle_view`` finds ``handle_view_indexing``), but ``out=`` must not be found inside
    ``timeout=``. A trigger that starts with no word character is found anywhere. Searched
    with ``str.find`` (a fifth of the time of the bounded regex, which cannot skip ahead
    to the literal)."""
    bounded = trigger[:1].isidentifier()
    at = source.find(trigger)
    while at >= 0:
        if not bounded or at == 0:
            return True
        before = source[at - 1]
        if not (before.isalnum() or before == "_"):
            return True
        at = source.find(trigger, at + 1)
    return False


class Rule:
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
    NEEDS_INDEX: ClassVar[bool] = False
    """Whether findings depend on other files (then the cache keys on the index too)."""
    INDEX_REFINES_ONLY: ClassVar[bool] = False
    """With ``NEEDS_INDEX``: other files decide only a finding's message and severity,
    never whether there is one (IVY005: the project's own wrappers say what an order
    changes). The language server then runs the rule before its index is built, on the
    defaults, and checks again once it is."""

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
        Findings are positioned by the rule (start and end), so every door shows the
        same spans."""
        raise NotImplementedError

    @classmethod
    def fix(cls, finding: Finding, file: FileUnderCheck) -> Edit | None:
        """The text edit of ``finding``'s fix (one this rule's :meth:`check` offered),
        rendered with libcst over only the statement it changes
        (:func:`~ivycheck.checker.core.fix_render.replace_node`); ``None`` when none can be
        made. Called only when a front door wants fix text."""
        return None

    @classmethod
    def applies_to(cls, part: str) -> bool:
        if cls.PARTS is None:
            return True
        return part in cls.PARTS or (part.startswith("backend:") and "backend:*" in cls.PARTS)
