"""Toy's rules: a pile of stones; in turn, each player takes 1 to ``most`` of them; who takes the last one wins.

Moves are ``take N``.  A position is lost for the player to move exactly when the pile is a multiple of
``most + 1`` (they cannot stop the other from restoring it), which the computer's knowledge uses.

>>> state = SPEC.new(seed=1, stones=5)
>>> state.play("take 3").play("Take  2").outcome().winners
(1,)
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from engines.base import (
    ABANDONED,
    AGREED,
    FORFEIT,
    SAVE_FORMAT,
    TIMEOUT,
    GameSpec,
    IllegalMove,
    InvalidMoveText,
    InvalidState,
    OptionSpec,
    Outcome,
    check_forfeit,
    forfeit_of_two,
    int_list,
    load_saved,
    resolve_options,
    saved_options,
    win_for,
)
from engines.moves import MoveField, MoveForm, MoveKind, field_text

NAME = "toy"
SEATS = ("first", "second")
OPTIONS = (
    OptionSpec("stones", 10, "Stones in the pile at the start", minimum=3, maximum=30),
    OptionSpec("most", 3, "The most stones one turn may take", minimum=2, maximum=5),
)


class Termination(StrEnum):
    """How a game of Toy ends."""

    LAST_STONE = "last_stone"  # a player took the last stone and won
    FORFEIT = FORFEIT
    TIMEOUT = TIMEOUT
    ABANDONED = ABANDONED
    AGREED = AGREED


@dataclass(frozen=True, slots=True)
class ToyEvent:
    """What a ply did: ``player`` took ``took`` stones."""

    player: int
    took: int

    def to_json(self) -> dict[str, Any]:
        return {"player": self.player, "took": self.took}


@dataclass(frozen=True, slots=True)
class ToyState:
    """A position: the pile, what each player took, whose turn (by ply) and the result."""

    start: int
    most: int
    seed: int
    stones: int
    taken: tuple[int, int] = (0, 0)
    ply: int = 0
    result: Outcome | None = None
    last: ToyEvent | None = None

    @property
    def game(self) -> str:
        return NAME

    @property
    def players(self) -> int:
        return 2

    @property
    def to_move(self) -> int | None:
        return None if self.result is not None else self.ply % 2

    @property
    def last_event(self) -> ToyEvent | None:
        return self.last

    @property
    def may_take_back(self) -> bool:
        return self.last is not None and self.result is None  # nothing in Toy is drawn at random

    def legal_moves(self) -> tuple[int, ...]:
        return () if self.result is not None else tuple(range(1, min(self.most, self.stones) + 1))

    def move_text(self, move: int) -> str:
        return f"take {move}"

    def parse_move(self, text: str) -> int:
        words = str(text).strip().lower().split()
        if len(words) != 2 or words[0] != "take" or not words[1].isdigit():
            raise InvalidMoveText("Write a move as take N, e.g. take 2.")
        return int(words[1])

    def play(self, move: int | str) -> ToyState:
        took = self.parse_move(move) if isinstance(move, str) else move
        if self.result is not None:
            raise IllegalMove("The game is over.")
        if took not in self.legal_moves():
            raise IllegalMove("Take 1 to {most} stones; {left} are left.", most=self.most, left=self.stones)
        player = self.ply % 2
        taken = (self.taken[0] + took, self.taken[1]) if player == 0 else (self.taken[0], self.taken[1] + took)
        left = self.stones - took
        result = win_for(player, taken, Termination.LAST_STONE) if left == 0 else None
        return ToyState(self.start, self.most, self.seed, left, taken, self.ply + 1, result, ToyEvent(player, took))

    def forfeit(self, player: int, how: str = FORFEIT) -> ToyState:
        check_forfeit(self.result, player, 2)
        result = forfeit_of_two(player, self.taken, how, Termination)
        return ToyState(self.start, self.most, self.seed, self.stones, self.taken, self.ply, result, self.last)

    def scores(self) -> tuple[int, ...]:
        return self.taken

    def outcome(self) -> Outcome | None:
        return self.result

    def board_text(self) -> str:
        return f"pile: {self.stones} of {self.start} (take 1 to {self.most}); taken: {self.taken[0]}, {self.taken[1]}"

    def to_json(self) -> dict[str, Any]:
        return {
            "game": NAME,
            "format": SAVE_FORMAT,
            "seed": self.seed,
            "options": {"stones": self.start, "most": self.most},
            "stones": self.stones,
            "taken": list(self.taken),
            "ply": self.ply,
            "result": None if self.result is None else self.result.to_json(),
            "last": None if self.last is None else self.last.to_json(),
        }


def new(players: int = 2, seed: int = 0, **options: Any) -> ToyState:
    """Start a game of Toy; options: ``stones``, ``most``."""
    if players != 2:
        raise IllegalMove("Toy is for 2 players.")
    chosen = resolve_options(OPTIONS, options)
    return ToyState(chosen["stones"], chosen["most"], seed, chosen["stones"])


def _from_json(data: Mapping[str, Any]) -> ToyState:
    state = new(2, data["seed"], **saved_options(data, NAME, "Toy"))
    taken = int_list(data["taken"], "taken stones")
    stones, ply = data["stones"], data["ply"]
    if len(taken) != 2 or type(stones) is not int or stones + sum(taken) != state.start or type(ply) is not int:
        raise InvalidState("The saved pile does not add up.")
    result = None if data["result"] is None else Outcome.from_json(data["result"], 2, Termination)
    last = data["last"]
    event = None if last is None else ToyEvent(int(last["player"]), int(last["took"]))
    return ToyState(state.start, state.most, state.seed, stones, (taken[0], taken[1]), ply, result, event)


def from_json(data: Mapping[str, Any]) -> ToyState:
    """Rebuild a state saved by :meth:`ToyState.to_json`."""
    return load_saved("Toy", _from_json, data)


def seat_names(players: int) -> tuple[str, ...]:
    """Name the seats: first moves first."""
    return SEATS


def _read_count(text: str) -> str | None:
    words = field_text(text).removeprefix("take").split()
    return str(int(words[0])) if len(words) == 1 and words[0].isdigit() else None


# A take names how many stones: the one field of the one kind of move.
MOVES = MoveForm(
    kinds=(MoveKind("take", (MoveField("count", _read_count),), lambda fields: f"take {fields.get('count', '')}"),),
    describe=lambda state, move: ("take", {"count": str(move)}),
)


SPEC = GameSpec(
    name=NAME,
    title="Toy",
    min_players=2,
    max_players=2,
    new=new,
    from_json=from_json,
    seat_names=seat_names,
    options=OPTIONS,
    test_configs=({}, {"stones": 7, "most": 2}),
    parts="tests.toy",
    moves=MOVES,
)
