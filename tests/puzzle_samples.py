"""Hand-built puzzles of every game, for the tests: real positions with legal lines, made in a blink.

The mined puzzles need the hard search (seconds per position); the bot's tests need only puzzles whose lines are
legal, so these are built by hand: a game of each kind played a few plies in by its first legal moves, then a line
of two solver moves around one reply, and one other legal move listed as the alternative (the wrong answer the
tests give).  ``tests/fixtures/puzzle_set.json`` holds them in the shipped set's format; ``python -m
tests.puzzle_samples`` writes it again (a test checks that it is what this module makes).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from ai.puzzles import Puzzle
from engines import GAMES, GameState

FIXTURE = Path(__file__).parent / "fixtures" / "puzzle_set.json"

# Each game's position: its options and how many plies in.
_STARTS: dict[str, tuple[dict[str, Any], int]] = {
    "pond": ({"variant": "mini"}, 4),
    "azul": ({}, 2),
    "querni": ({}, 4),
    "summer": ({}, 2),
}


def position(game: str, seed: int = 3) -> GameState:
    """A position a few plies into a game of ``game``, played by each side's first legal move."""
    options, plies = _STARTS[game]
    state = GAMES[game].new(seed=seed, **options)
    for _ in range(plies):
        state = state.play(state.legal_moves()[0])
    return state


def sample(game: str, seed: int = 3, rating: float = 1500.0, goal: str = "gain") -> Puzzle:
    """A puzzle of ``game``: the solver's last legal move, the defender's first, the solver's last again."""
    state = position(game, seed)
    moves = state.legal_moves()
    first = state.move_text(moves[-1])
    after = state.play(moves[-1])
    reply = after.move_text(after.legal_moves()[0])
    again = after.play(after.legal_moves()[0])
    second = again.move_text(again.legal_moves()[-1])
    other = state.move_text(moves[0])
    return Puzzle(
        game=game,
        position=state.to_json(),
        solver=state.to_move or 0,
        line=(first, reply, second),
        value=0.9,
        margin=0.5,
        alternatives=((other, 0.3),),
        goal=goal,
        gain=2 if goal == "gain" else 0,
        ply=state.ply,
        choices=len(moves),
        rating=rating,
    )


def samples() -> dict[str, list[Puzzle]]:
    """Two puzzles of each game (other seeds, other ratings)."""
    return {game: [sample(game, 3, 1500.0, "gain"), sample(game, 5, 1700.0, "best")] for game in sorted(GAMES)}


def shipped_json() -> dict[str, Any]:
    """The samples in the shipped set's format: ``{"version": 1, "puzzles": [...]}``, every game's together."""
    return {"version": 1, "puzzles": [p.to_json() for found in samples().values() for p in found]}


if __name__ == "__main__":
    FIXTURE.write_text(json.dumps(shipped_json(), indent=1, sort_keys=True) + "\n", encoding="utf-8")
