"""Patterns in ``.gitignore`` syntax, matched in time linear in the path's length.

Invariant: a :class:`GlobSet` answers exactly what ``pathspec.GitIgnoreSpec`` answers for the
same lines (negation, anchoring, ``**``, a trailing ``/``, the last matching pattern
winning, a file match outranking a match of a folder above it), but never backtracks.
pathspec compiles each pattern to a backtracking regular expression: ``exclude =
["a*" * 20 + "b"]`` took 42 s on a 30-character file name and a 60-character one ran past
120 s, so any configuration or ``.gitignore`` a pull request brings could hang CI, pre-commit
and the editor. (The one difference: a newline in a path is an ordinary character here, as in
git; pathspec's ``$`` also matched before a final newline and its ``.`` not across one.)

How: each pattern is translated exactly as pathspec translates it (the same normalisation and
the same regular-expression pieces), but into a position automaton instead of a regular
expression: one position per character the pattern consumes, some looping (``*``, ``**``),
some starting an optional group (``(?:.+/)?``, ``(?:/.+)?``). All patterns of a set share one
bit vector (a Python ``int``), one bit per position, so a step over one character of the path
is a few shifts, ands and ors whatever the number of patterns (Glushkov's construction run
bit-parallel, as in Shift-And). Steps are memoised as a lazy DFA (state and character to next
state), so a path costs one dictionary look-up per character once its prefix has been seen.

Which pattern wins is decided as pathspec's ``simple`` back end decides it: the last pattern
matching the path itself, else the last one matching through a folder above it (its regular
expression's ``ps_d`` group); that pattern's ``!`` decides.
"""

from __future__ import annotations

import functools
import re
import threading
from bisect import bisect_right
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from enum import Enum
from typing import NamedTuple

_STATES_BUDGET_BITS = 1 << 28
"""The memoised DFA is dropped when its states hold more bits than this (32 MiB): with 20,000
patterns a state is 30 kB, and a walk over a large tree must not grow without bound."""

_MAX_STATES = 200_000


class GlobError(ValueError):
    """A pattern pathspec refuses too (a lone trailing ``\\``, ``!`` alone, a bad range such
    as ``[z-a]``); the configuration names the key holding it."""


class _Tail(Enum):
    """What must follow the pattern's last position (pathspec's regular-expression ending)."""

    FILE_OR_FOLDER = "(?:(?P<ps_d>/)|$)"
    """A last segment that is not ``**``: the path ends (a file match) or a ``/`` follows
    (the pattern names a folder above the path: a folder match)."""
    BELOW = "/"
    """``name/**``: a ``/`` follows; a file match (no ``ps_d`` group)."""
    FOLDER = "(?P<ps_d>/)"
    """``name/``: a ``/`` follows; a folder match."""


class _Anything(Enum):
    """The unanchored expressions pathspec substitutes for some whole patterns."""

    NONEMPTY = "."  # '**', '*', '**/*': every path (a file match)
    HAS_SLASH = "/"  # '*/**': every path below a folder (a file match)
    HAS_SLASH_FOLDER = "(?P<ps_d>/)"  # '**/', '*/': the same, as a folder match


_ANY = "any"  # '.' (pathspec's '.+'): any character
_NOT_SLASH = "not /"  # '[^/]' ('?', '*', a '*' segment)


class _Position(NamedTuple):
    """One character the pattern consumes: ``accepts`` is the character itself, ``_ANY``,
    ``_NOT_SLASH`` or a bracket expression (compiled by ``re``, as pathspec has it);
    ``loop``: it may consume more (``*``, ``.+``); ``skippable``: it starts an optional group
    of that many positions (0: it is mandatory). A tuple: 20,000 patterns make 250,000."""

    accepts: str | re.Pattern[str]
    loop: bool = False
    skippable: int = 0


_LITERALS: dict[str, _Position] = {}
_GLOB_CHARACTERS = re.compile(r"[*?\[\\]")


def _literal(char: str) -> _Position:
    found = _LITERALS.get(char)
    if found is None:
        found = _LITERALS[char] = _Position(char)
    return found


@dataclass(frozen=True)
class _Sequence:
    positions: tuple[_Position, ...]
    tail: _Tail


@dataclass(frozen=True)
class _Compiled:
    include: bool
    body: _Sequence | _Anything


class _RangeError(Exception):
    """An unclosed ``[``: git, hence pathspec, drops the whole pattern."""


@functools.lru_cache(maxsize=1 << 16)
def compile_pattern(line: str) -> _Compiled | None:
    """``line`` as pathspec's ``GitIgnoreSpecPattern.pattern_to_regex`` reads it; ``None``
    for a line that matches nothing (blank, comment, ``/``, an unclosed ``[``). Memoised:
    a configured pattern is read when the settings are validated, in its set, and alone
    (``exclusion_below``), and the result is immutable."""
    text = line if line.endswith("\\ ") else line.rstrip()
    if not text or text.startswith("#") or text == "/":
        return None
    include = not text.startswith("!")
    if not include:
        text = text[1:]
    segments = text.split("/")
    is_folder = not segments[-1]
    if not segments[0]:
        del segments[0]
    elif (len(segments) == 1 or (len(segments) == 2 and not segments[1])) and segments[0] != "**":
        segments.insert(0, "**")
    if not segments:
        raise GlobError(f"invalid pattern {line!r}: nothing left to match")
    if not segments[-1]:
        segments[-1] = "**"
    segments = [s for i, s in enumerate(segments) if not (i and s == "**" == segments[i - 1])]
    if segments == ["**"]:
        return _Compiled(include, _Anything.HAS_SLASH_FOLDER if is_folder else _Anything.NONEMPTY)
    if segments == ["**", "*"]:
        return _Compiled(include, _Anything.NONEMPTY)
    if segments == ["**", "*", "**"]:
        return _Compiled(include, _Anything.HAS_SLASH_FOLDER if is_folder else _Anything.HAS_SLASH)
    try:
        sequence = _translate(segments, is_folder, line)
    except _RangeError:
        return None
    return _Compiled(include, sequence)


def _translate(segments: list[str], is_folder: bool, line: str) -> _Sequence:
    """pathspec's ``__translate_segments``, into positions instead of regex text."""
    positions: list[_Position] = []
    classes: list[str] = []
    need_slash = False
    tail = _Tail.FILE_OR_FOLDER
    last = len(segments) - 1
    for index, segment in enumerate(segments):
        if segment == "**":
            if index == 0:  # '^(?:.+/)?'
                positions += [_Position(_ANY, loop=True, skippable=2), _Position("/")]
            elif index < last:  # '(?:/.+)?'
                positions += [_Position("/", skippable=2), _Position(_ANY, loop=True)]
                need_slash = True
            else:
                tail = _Tail.FOLDER if is_folder else _Tail.BELOW
            continue
        if need_slash:
            positions.append(_literal("/"))
        if segment == "*":
            positions.append(_Position(_NOT_SLASH, loop=True))
        else:
            positions += _translate_glob(segment, classes, line)
        need_slash = True
    if not classes:
        return _Sequence(tuple(positions), tail)
    compiled = {text: _compile_class(text, line) for text in classes}
    return _Sequence(
        tuple(
            _Position(compiled[p.accepts], p.loop, p.skippable)
            if isinstance(p.accepts, str) and p.accepts in compiled
            else p
            for p in positions
        ),
        tail,
    )


_CLASS_MARK = "\0class:"


def _translate_glob(segment: str, classes: list[str], line: str) -> list[_Position]:
    """pathspec's ``_translate_segment_glob`` (from ``fnmatch.translate``): ``*`` is
    ``[^/]*``, ``?`` ``[^/]``, ``[...]`` a regex bracket expression with ``!`` or ``^``
    negating it (which, being a regex class, also matches ``/``), ``\\`` escapes. A bracket
    expression is recorded in ``classes`` and compiled once the whole pattern is read: an
    unclosed ``[`` later on drops the pattern before a bad range here could be an error."""
    if not _GLOB_CHARACTERS.search(segment):
        return [_literal(char) for char in segment]
    positions: list[_Position] = []
    escape = False
    i, end = 0, len(segment)
    while i < end:
        char = segment[i]
        i += 1
        if escape:
            escape = False
            positions.append(_Position(char))
        elif char == "\\":
            escape = True
        elif char == "*":
            star = _Position(_NOT_SLASH, loop=True, skippable=1)
            if not positions or positions[-1] != star:  # '[^/]*[^/]*' is '[^/]*'
                positions.append(star)
        elif char == "?":
            positions.append(_Position(_NOT_SLASH))
        elif char == "[":
            j = i
            if j < end and segment[j] in "!^":
                j += 1
            if j < end and segment[j] == "]":
                j += 1
            while j < end and segment[j] != "]":
                j += 1
            if j >= end:
                raise _RangeError
            j += 1
            expression = "["
            if segment[i] in "!^":
                expression += "^"
                i += 1
            expression += segment[i:j].replace("\\", "\\\\")
            i = j
            classes.append(_CLASS_MARK + expression)
            positions.append(_Position(_CLASS_MARK + expression))
        else:
            positions.append(_Position(char))
    if escape:
        raise GlobError(f"invalid pattern {line!r}: it ends with an escaping '\\'")
    return positions


def _compile_class(marked: str, line: str) -> re.Pattern[str]:
    try:
        return re.compile(marked.removeprefix(_CLASS_MARK))
    except re.error as err:
        raise GlobError(f"invalid pattern {line!r}: {err}") from None


def _bits(indices: Iterable[int], size: int) -> int:
    """An ``int`` with the bits ``indices`` set, built in one pass (or-ing bits one by one
    into a growing ``int`` is quadratic)."""
    buffer = bytearray((size >> 3) + 1)
    for bit in indices:
        buffer[bit >> 3] |= 1 << (bit & 7)
    return int.from_bytes(buffer, "little")


class _Automaton:
    """The position automaton of several patterns, in one bit vector.

    Pattern ``k`` has bits ``base[k]`` (its start, set only before the first character) and
    ``base[k] + 1 + j`` for its position ``j``. After each character the vector holds the
    positions that consumed it. Every position follows the one before it (a shift by one),
    looping ones follow themselves, and optional groups add shifts by more than one.
    """

    def __init__(self, sequences: list[tuple[int, _Sequence]]) -> None:
        self.bases: list[int] = []
        self.origins: list[int] = []
        literal: dict[str, list[int]] = {}
        not_slash: list[int] = []
        anything: list[int] = []
        classes: dict[re.Pattern[str], list[int]] = {}
        loops: list[int] = []
        skips: dict[int, list[int]] = {}
        finals: dict[_Tail, list[int]] = {tail: [] for tail in _Tail}
        starts: list[int] = []
        bit = 0
        for origin, sequence in sequences:
            self.bases.append(bit)
            self.origins.append(origin)
            starts.append(bit)
            positions = sequence.positions
            if any(position.skippable for position in positions):
                for point in range(len(positions) + 1):  # point p: after position p - 1
                    reach, ends = _follow(positions, point)
                    for target in reach:
                        distance = target + 1 - point
                        if distance > 1:
                            skips.setdefault(distance, []).append(bit + point)
                    if ends:
                        finals[sequence.tail].append(bit + point)
            else:  # each position follows the one before; only the last ends the pattern
                finals[sequence.tail].append(bit + len(positions))
            for at, (accepts, loop, _) in enumerate(positions, bit + 1):
                if loop:
                    loops.append(at)
                if accepts.__class__ is not str:
                    classes.setdefault(accepts, []).append(at)  # type: ignore[arg-type]
                elif accepts == _ANY:
                    anything.append(at)
                elif accepts == _NOT_SLASH:
                    not_slash.append(at)
                else:
                    literal.setdefault(accepts, []).append(at)
            bit += len(positions) + 1
        self.size = bit
        self.literal = literal
        self.classes = classes
        self.not_slash = _bits(not_slash, bit)
        self.anything = _bits(anything, bit)
        self.loops = _bits(loops, bit)
        self.skips = [(distance, _bits(at, bit)) for distance, at in sorted(skips.items())]
        self.final_file_or_folder = _bits(finals[_Tail.FILE_OR_FOLDER], bit)
        self.final_folder = _bits(finals[_Tail.FILE_OR_FOLDER] + finals[_Tail.FOLDER], bit)
        self.final_below = _bits(finals[_Tail.BELOW], bit)
        self.start = _bits(starts, bit)
        self.accepts: dict[str, int] = {}
        self.lock = threading.Lock()
        self.max_states = max(64, min(_MAX_STATES, _STATES_BUDGET_BITS // max(bit, 1)))
        self.table = _Table(self.start)

    def winners(self, path: str) -> tuple[int, int]:
        """The last pattern matching ``path`` itself and the last one matching a folder
        above it (-1: none), as indices into the lines."""
        table = self.table
        if len(table.states) > self.max_states:
            table = self.table = _Table(self.start)  # a thread still on the old one is fine
        moves, state = table.moves, 0
        for char in path:
            following = moves[state].get(char)
            if following is None:
                following = self._move(table, state, char)
            state = following
        end = table.ends[state]
        vector, folder, file = table.states[state]
        if end is None:
            end = table.ends[state] = max(file, self._last(vector & self.final_file_or_folder))
        return end, folder

    def all_matching(self, path: str) -> Iterator[int]:
        """Every pattern matching ``path`` itself or a folder above it (not only the last:
        no memo, one bit-parallel pass)."""
        vector, hits = self.start, 0
        with self.lock:
            for char in path:
                if char == "/":
                    hits |= vector & (self.final_folder | self.final_below)
                vector = self._step(vector, char)
        hits |= vector & self.final_file_or_folder
        while hits:
            top = hits.bit_length() - 1
            number = bisect_right(self.bases, top) - 1
            yield self.origins[number]
            hits &= (1 << self.bases[number]) - 1

    def _step(self, vector: int, char: str) -> int:
        following = (vector << 1) | (vector & self.loops)
        for distance, sources in self.skips:
            following |= (vector & sources) << distance
        return following & self._accepting(char)

    def _move(self, table: _Table, state: int, char: str) -> int:
        with self.lock:
            vector, folder, file = table.states[state]
            if char == "/":
                folder = max(folder, self._last(vector & self.final_folder))
                file = max(file, self._last(vector & self.final_below))
            number = table.number((self._step(vector, char), folder, file))
            table.moves[state][char] = number
            return number

    def _accepting(self, char: str) -> int:
        """The positions that can consume ``char``."""
        found = self.accepts.get(char)
        if found is None:
            bits = list(self.literal.get(char, ()))
            for pattern, at in self.classes.items():
                if pattern.fullmatch(char):
                    bits += at
            found = _bits(bits, self.size) | self.anything
            if char != "/":
                found |= self.not_slash
            self.accepts[char] = found
        return found

    def _last(self, bits: int) -> int:
        if not bits:
            return -1
        return self.origins[bisect_right(self.bases, bits.bit_length() - 1) - 1]


class _Table:
    """The lazy DFA's memory: states (position vector, last folder match, last file
    match), their moves by character and their outcome at the path's end."""

    def __init__(self, start: int) -> None:
        self.states: list[tuple[int, int, int]] = [(start, -1, -1)]
        self.numbers: dict[tuple[int, int, int], int] = {self.states[0]: 0}
        self.moves: list[dict[str, int]] = [{}]
        self.ends: list[int | None] = [None]

    def number(self, state: tuple[int, int, int]) -> int:
        found = self.numbers.get(state)
        if found is None:
            found = self.numbers[state] = len(self.states)
            self.states.append(state)
            self.moves.append({})
            self.ends.append(None)
        return found


def _follow(positions: tuple[_Position, ...], point: int) -> tuple[list[int], bool]:
    """The positions that can consume the next character at ``point`` (after position
    ``point - 1``; 0: the start), and whether the pattern may end there. A looping
    position's own loop is not listed (the automaton keeps it apart)."""
    reach: list[int] = []
    j = point
    while j < len(positions):
        reach.append(j)
        skip = positions[j].skippable
        if not skip:
            return reach, False
        j += skip
    return reach, True


class GlobSet:
    """Lines in ``.gitignore`` syntax, matched as ``pathspec.GitIgnoreSpec.from_lines``
    matches them (see the module's docstring), in time linear in the path.

    ``skip_invalid``: drop a line pathspec would refuse instead of raising
    :class:`GlobError` (a ``.gitignore`` file, where git skips what it cannot use, as
    against a configured pattern, which is an error naming its key)."""

    def __init__(self, lines: Iterable[str], *, skip_invalid: bool = False) -> None:
        self.patterns = tuple(lines)
        self.skip_invalid = skip_invalid
        self.includes: list[bool] = []
        sequences: list[tuple[int, _Sequence]] = []
        self._nonempty = self._has_slash = self._has_slash_folder = -1  # the last of each
        self._anything: list[tuple[int, _Anything]] = []
        for line in self.patterns:
            try:
                compiled = compile_pattern(line)
            except GlobError:
                if not skip_invalid:
                    raise
                compiled = None
            index = len(self.includes)
            self.includes.append(compiled is not None and compiled.include)
            if compiled is None:
                continue
            if isinstance(compiled.body, _Anything):
                self._anything.append((index, compiled.body))
            if compiled.body is _Anything.NONEMPTY:
                self._nonempty = index
            elif compiled.body is _Anything.HAS_SLASH:
                self._has_slash = index
            elif compiled.body is _Anything.HAS_SLASH_FOLDER:
                self._has_slash_folder = index
            else:
                sequences.append((index, compiled.body))
        self._sequences: list[tuple[int, _Sequence]] | None = sequences
        self._built: _Automaton | None = None
        self._building = threading.Lock()

    @property
    def _automaton(self) -> _Automaton:
        """Built at the first match: a pattern read only to be validated never needs it."""
        built = self._built
        if built is None:
            with self._building:
                built = self._built
                if built is None:
                    assert self._sequences is not None
                    built = self._built = _Automaton(self._sequences)
                    self._sequences = None
        return built

    @classmethod
    def from_lines(cls, lines: Iterable[str], *, skip_invalid: bool = False) -> GlobSet:
        return cls(lines, skip_invalid=skip_invalid)

    def __reduce__(self) -> tuple[object, ...]:
        """Sent to a worker process as its lines (a configuration holds its sets): the
        automaton holds a lock and a memo, both made again there."""
        return _restore, (self.patterns, self.skip_invalid)

    def match_file(self, path: str) -> bool:
        """Whether ``path`` (relative, ``/``-separated; a folder with a trailing ``/``) is
        matched, i.e. the winning pattern is not a ``!`` one."""
        path = _normalized(path)
        file, folder = self._automaton.winners(path)
        if path:
            file = max(file, self._nonempty)
        if "/" in path:
            file = max(file, self._has_slash)
            folder = max(folder, self._has_slash_folder)
        winner = file if file >= 0 else folder
        return winner >= 0 and self.includes[winner]

    def match_files(self, paths: Iterable[str]) -> Iterator[str]:
        return (path for path in paths if self.match_file(path))

    def alone_matches(self, path: str) -> list[bool]:
        """For each line, whether a set of that line alone matches ``path`` (a ``!`` line
        alone never does): one pass over ``path`` for all lines, where asking
        ``GlobSet([line]).match_file(path)`` line by line builds an automaton per line
        (20,000 configured excludes and a folder named on the command line)."""
        path = _normalized(path)
        matched = [False] * len(self.patterns)
        for index in self._automaton.all_matching(path):
            matched[index] = True
        for index, body in self._anything:
            matched[index] = bool(path) if body is _Anything.NONEMPTY else "/" in path
        return [hit and include for hit, include in zip(matched, self.includes, strict=True)]


def _normalized(path: str) -> str:
    """pathspec's ``normalize_file``: no leading ``/`` or ``./``."""
    if path.startswith("/"):
        return path[1:]
    if path.startswith("./"):
        return path[2:]
    return path


def _restore(patterns: tuple[str, ...], skip_invalid: bool) -> GlobSet:
    return GlobSet(patterns, skip_invalid=skip_invalid)
