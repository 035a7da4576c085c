"""What a game's moves are made of, told once by its engine: kinds of move, their fields, and completion.

A player names a move part by part: an Azul take is a ``source``, a ``colour`` and a ``line``; a Pond move
is ``from`` and ``to``.  Each engine describes this once, as a :class:`MoveForm`: its kinds of move
(:class:`MoveKind`), each kind's fields in order (:class:`MoveField`, with the field's lenient reader), how
the fields make the move's text for ``parse_move``, and the fields of any legal move (``fields_of``).  From
that alone the form completes a partial move (:meth:`MoveForm.complete`: what may follow ``source: f3``),
finds the legal moves agreeing with it (:meth:`MoveForm.matching`), and turns a complete one into the
engine's move (:meth:`MoveForm.move_of`).  Slash options, autocomplete and any later way of entering moves
are views of it; none of them reads a move word of its own.

>>> from engines import GAMES
>>> state = GAMES["pond"].new(players=2, seed=7, variant="mini")
>>> form = GAMES["pond"].moves
>>> [kind.name for kind in form.kinds], [field.name for field in form.kind("move").fields]
(['place', 'move'], ['from', 'to'])
>>> form.complete(state, "place", {})["cell"][:3]
('a1', 'b1', 'c1')
>>> form.fields_of(state, state.legal_moves()[0]), form.move_of(state, "place", {"cell": " B2 "})
(('place', {'cell': 'a1'}), PondMove(frm=-1, to=5))
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

_NOTE = re.compile(r" ·| \(")  # what follows in a labelled value ("c3 · piece 4", "4 (1 of 4 free)") is a note
_CELL = re.compile(r"([a-z])\s*([0-9]{1,2})")  # ASCII digits only, as the engines read cells


def field_text(text: str) -> str:
    """Return a field's text as readers see it: lower case, single spaces, without a choice label's note."""
    return _NOTE.split(" ".join(text.lower().split()))[0]


def read_cell(text: str) -> str | None:
    """Read a cell (a square) named by its letter and number, ``B 2`` or ``b02``, as ``b2``; None otherwise."""
    match = _CELL.fullmatch(field_text(text))
    return None if match is None else f"{match[1]}{int(match[2])}"


@dataclass(frozen=True, slots=True)
class MoveField:
    """One part of a move as a player names it, e.g. the ``source`` of an Azul take.

    ``read`` turns what a player typed for the field into the field's canonical value (the text the
    field's legal values are written in: ``"f3"`` for ``"Factory 3"``), or ``None`` when it cannot be
    read.  It is lenient the way the engine's ``parse_move`` is, and never judges legality: that is for
    the legal moves.  An ``optional`` field may be left out of a move.
    """

    name: str
    read: Callable[[str], str | None]
    optional: bool = False


@dataclass(frozen=True, slots=True)
class MoveKind:
    """One kind of move: its name, its fields in order, and how given fields make the move's text.

    ``text`` receives every field the player gave, as typed (stripped), and returns the text for the
    engine's ``parse_move``, which reads it and names whatever is wrong.  With ``any_order`` the
    fields may be chosen in any order and each narrows the others (an Azul take: a colour first, then a
    source holding it); otherwise a field's values follow only the fields before it (a Pond move's
    ``to`` follows its ``from``).  ``taps`` groups the fields for picking a move by taps
    (:meth:`tap_groups`).
    """

    name: str
    fields: tuple[MoveField, ...]
    text: Callable[[Mapping[str, str]], str]
    any_order: bool = False
    taps: tuple[tuple[str, ...], ...] | None = None

    def tap_groups(self) -> tuple[tuple[str, ...], ...]:
        """How a player picks this kind's fields by taps: group by group, the first group together with the kind.

        ``taps`` gives the groups (an Azul take's source and colour are one choice, "3 blue from factory 4");
        by default each field is a group of its own.  A kind without fields is one group of none (a pass).
        """
        groups = self.taps if self.taps is not None else tuple((field.name,) for field in self.fields)
        return groups or ((),)

    def field(self, name: str) -> MoveField:
        """Return the field called ``name`` (``KeyError`` if the kind has none)."""
        for field in self.fields:
            if field.name == name:
                return field
        raise KeyError(f"a {self.name} move has no field {name!r}")

    def narrowing(self, name: str) -> tuple[str, ...]:
        """Return the names of the fields whose values narrow field ``name``'s values."""
        names = tuple(field.name for field in self.fields)
        if self.any_order:
            return tuple(other for other in names if other != name)
        return names[: names.index(name)]


@dataclass(frozen=True, slots=True)
class MoveForm:
    """A game's moves described once: its kinds, and the kind and fields of any legal move.

    ``describe(state, move)`` returns a legal move's kind and its fields' canonical values (a field a
    move leaves out is absent).
    """

    kinds: tuple[MoveKind, ...]
    describe: Callable[[Any, Any], tuple[str, dict[str, str]]]

    def kind(self, name: str) -> MoveKind:
        """Return the kind of move called ``name`` (``KeyError`` if the game has none)."""
        for kind in self.kinds:
            if kind.name == name:
                return kind
        raise KeyError(f"no kind of move {name!r}")

    def fields_of(self, state: Any, move: Any) -> tuple[str, dict[str, str]]:
        """Return ``move``'s kind and its fields' canonical values: the way back from a move to its fields."""
        return self.describe(state, move)

    def read(self, kind: str, given: Mapping[str, str]) -> dict[str, str]:
        """Return the canonical values of the fields in ``given`` that are filled in and readable."""
        fields = self.kind(kind)
        read = {}
        for name, text in given.items():
            if text and text.strip():
                value = fields.field(name).read(text)
                if value is not None:
                    read[name] = value
        return read

    def text(self, kind: str, given: Mapping[str, str]) -> str:
        """Return the move text for the engine from the fields as typed (blank fields left out)."""
        return self.kind(kind).text({name: text for name, text in given.items() if text and text.strip()})

    def move_of(self, state: Any, kind: str, given: Mapping[str, str]) -> Any:
        """Return the engine's move named by complete fields; the engine's ``GameError`` if it cannot be read."""
        return state.parse_move(self.text(kind, given))

    def matching(self, state: Any, kind: str, partial: Mapping[str, str]) -> list[tuple[Any, dict[str, str]]]:
        """Return the legal moves of ``kind`` whose fields agree with ``partial`` (canonical values), in order."""
        found = []
        describe = self.describe
        for move in state.legal_moves():
            named, fields = describe(state, move)
            if named == kind and all(fields.get(name) == value for name, value in partial.items()):
                found.append((move, fields))
        return found

    def complete(self, state: Any, kind: str, given: Mapping[str, str]) -> dict[str, tuple[str, ...]]:
        """Return, for each field of ``kind``, the values that may follow what is ``given`` (as typed).

        A field's values are those of the legal moves agreeing with the readable given fields that
        narrow it (:meth:`MoveKind.narrowing`), in the order of the legal moves, each once; an optional
        field a move leaves out offers nothing for it.  A complete move's fields walked through here one
        at a time reach exactly the legal moves.
        """
        described = self.kind(kind)
        read = self.read(kind, given)
        moves = [fields for _, fields in self.matching(state, kind, {})]
        values: dict[str, tuple[str, ...]] = {}
        for field in described.fields:
            wanted = {name: read[name] for name in described.narrowing(field.name) if name in read}
            found = (fields.get(field.name) for fields in moves if all(fields.get(n) == v for n, v in wanted.items()))
            values[field.name] = tuple(dict.fromkeys(value for value in found if value is not None))
        return values
