"""A move picked by taps: the choices at each step, walked from the engine's move description alone.

A player on a phone makes a move by choosing it step by step from menus: Pond's egg or piece, then its square;
Azul's tiles ("3 blue from factory 4"), then their line.  The steps are the groups of a kind's fields
(:meth:`engines.moves.MoveKind.tap_groups`): the first step chooses the kind with its first group, each later
step one group.  What has been chosen is a *path*, one token per step: ``move,b3`` then ``b1``; a field a move
leaves out (Querni's optional removal) is :data:`NONE`.  From a state and a path, :func:`walk` returns the step:
the legal moves still agreeing with the path, and either the choices for the next step or the one move chosen.

A step with a single choice (only an egg to lay, a piece with one square to go to, a move after which no chain
can be removed) is taken for the player: it costs no tap, and the path returned holds it.  Nothing here knows
Discord or words; the menus (:mod:`bot.commands.taps`) and the words of each choice (each game's text module)
are views of it.

>>> from engines import GAMES
>>> state = GAMES["summer"].new(seed=1)
>>> first = walk(state, GAMES["summer"].moves, ())
>>> [choice.token for choice in first.choices][:3], first.choices[0].fields
(['move,a1', 'move,b1', 'move,c1'], {'from': 'a1'})
>>> step = walk(state, GAMES["summer"].moves, ("move,c1",))
>>> [choice.token for choice in step.choices], step.choices[0].fields
(['b1', 'd1', 'b2', 'c2', 'd2'], {'from': 'c1', 'to': 'b1'})
>>> walk(state, GAMES["summer"].moves, ("move,c1", "c2")).move
SummerMove(frm=2, to=10)

At the start a player can only lay an egg: that step is taken for them, and the menu shows the squares.

>>> start = walk(GAMES["pond"].new(seed=7, variant="mini"), GAMES["pond"].moves, ())
>>> start.path, start.choices[0].token, start.taps
(('place',), 'a1', 0)
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from engines.moves import MoveForm

#: The token of a field the move leaves out (no removal after a Querni move).
NONE = "_"
#: A path's tokens are joined with this in a custom ID.
SEPARATOR = "/"
#: What a path may hold once joined: field values are lower-case letters, digits and ``-``; tokens are joined
#: with ``,`` within a step and ``/`` between steps.  48 characters leave a custom ID room for the match and version.
PATH_PATTERN = r"[a-z0-9,_/\-]{0,48}"
_TOKEN = re.compile(r"[a-z0-9_\-]+(?:,[a-z0-9_\-]+)*")


class BadPath(ValueError):
    """The path does not lead to a legal move of this position (an old menu, or a made-up custom ID)."""


@dataclass(frozen=True, slots=True)
class Choice:
    """One choice of a step: the token it adds to the path, and the move so far with it (its kind and fields)."""

    token: str
    kind: str
    fields: dict[str, str] = field(hash=False)


@dataclass(frozen=True, slots=True)
class Step:
    """Where a path leads: the path (with the steps taken for the player), the move so far, and what follows.

    ``choices`` are the next step's (empty once the move is chosen); ``move`` is the engine's move once it
    is; ``taps`` counts the choices the player made (a step with a single choice is taken for them at no tap,
    except that a move is never made without one: a single legal move is offered as the one choice).
    """

    path: tuple[str, ...]
    kind: str | None
    fields: dict[str, str]
    choices: tuple[Choice, ...]
    move: Any | None
    taps: int

    @property
    def complete(self) -> bool:
        return self.move is not None


def joined(path: Sequence[str]) -> str:
    """The path as one string for a custom ID: ``move,b3/b1``."""
    return SEPARATOR.join(path)


def split(text: str) -> tuple[str, ...]:
    """The tokens of a joined path; :class:`BadPath` if it is not one."""
    if not text:
        return ()
    tokens = tuple(text.split(SEPARATOR))
    if not all(_TOKEN.fullmatch(token) for token in tokens):
        raise BadPath(text)
    return tokens


def _token(values: Sequence[str]) -> str:
    return ",".join(values)


def walk(state: Any, form: MoveForm, path: Sequence[str]) -> Step:
    """The step ``path`` leads to in ``state``: the choices that follow, or the move it names.

    Raise :class:`BadPath` when a token agrees with no legal move (the position changed, or the path was made up).
    """
    moves: list[tuple[Any, str, dict[str, str]]] = []
    for move in state.legal_moves():
        named, described = form.describe(state, move)
        moves.append((move, named, described))
    if not moves:
        raise BadPath("nobody is to move")
    tokens = list(path)
    taken: list[str] = []
    kind: str | None = None
    fields: dict[str, str] = {}
    taps = 0
    index = 0  # the group the next token chooses
    first: Step | None = None  # the first step, had it not been taken for the player
    given = False  # whether the player chose anything
    while True:
        choices = _choices(form, moves, kind, index)
        if not choices:  # every group chosen
            if len(moves) != 1:
                raise BadPath("the path names several moves")
            if taps == 0 and first is not None:
                return first  # a single legal move is still the player's to choose: one tap, never none
            return Step(tuple(taken), kind, fields, (), moves[0][0], max(taps, 1) if given else taps)
        if tokens:
            token = tokens.pop(0)
            given = True
            if len(choices) > 1:
                taps += 1
        elif len(choices) == 1:
            if first is None and not given:
                first = Step(tuple(taken), kind, fields, tuple(choices), None, taps)
            token = choices[0].token  # one way on: taken for the player, at no tap
        else:
            return Step(tuple(taken), kind, fields, tuple(choices), None, taps)
        chosen = next((choice for choice in choices if choice.token == token), None)
        if chosen is None:
            raise BadPath(token)
        taken.append(token)
        kind = chosen.kind
        fields = dict(chosen.fields)
        moves = [(m, k, f) for m, k, f in moves if k == kind and _agrees(f, fields, form, kind, index)]
        index += 1


def previous(state: Any, form: MoveForm, path: Sequence[str]) -> tuple[str, ...] | None:
    """The path of the step before the one at ``path`` where the player had a choice (``None``: there is none),
    for Back: a step taken for the player (one way on) is passed over."""
    tokens = list(path)
    while tokens:
        tokens.pop()
        if walk(state, form, tokens).path == tuple(tokens):
            return tuple(tokens)
    return None


def _group(form: MoveForm, kind: str, index: int) -> tuple[str, ...] | None:
    groups = form.kind(kind).tap_groups()
    return groups[index] if index < len(groups) else None


def _agrees(fields: dict[str, str], chosen: dict[str, str], form: MoveForm, kind: str, upto: int) -> bool:
    """Whether a legal move's ``fields`` agree with the ``chosen`` fields of the groups up to ``upto``."""
    for index in range(upto + 1):
        group = _group(form, kind, index) or ()
        for name in group:
            if fields.get(name, NONE) != chosen.get(name, NONE):
                return False
    return True


def _choices(
    form: MoveForm, moves: list[tuple[Any, str, dict[str, str]]], kind: str | None, index: int
) -> list[Choice]:
    """The distinct choices of group ``index`` among ``moves`` (the first group also chooses the kind), in order."""
    found: dict[str, Choice] = {}
    for _, named, fields in moves:
        group = _group(form, named, index)
        if group is None:
            continue
        values = [fields.get(name, NONE) for name in group]
        token = _token([named, *values] if index == 0 else values) if (index == 0 or values) else named
        if token in found:
            continue
        so_far = {name: value for name, value in fields.items() if _chosen_before(form, named, name, index)}
        found[token] = Choice(token, named, so_far)
    return list(found.values())


def _chosen_before(form: MoveForm, kind: str, name: str, index: int) -> bool:
    """Whether field ``name`` of ``kind`` is chosen in group ``index`` or before."""
    return any(name in (_group(form, kind, i) or ()) for i in range(index + 1))
