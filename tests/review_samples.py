"""Small real reviews for the review's picture and text tests: easy computer games, judged at 40 playouts."""

from __future__ import annotations

import functools
from typing import Any

from ai import choose_move
from ai.review import Judgement, Review, review_game
from engines import GAMES

# (game, start options) of each sample: two players, then Azul with three and four.
SAMPLES: dict[int, tuple[str, dict[str, Any]]] = {
    2: ("pond", {"variant": "mini", "seed": 1}),
    3: ("azul", {"players": 3, "seed": 2}),
    4: ("azul", {"players": 4, "seed": 2}),
}
NAMES = ("Ana", "Bo", "Cyprien", "Dmitri")


@functools.cache
def sample(players: int) -> tuple[tuple[Any, ...], tuple[str, ...], Review]:
    """Play the sample game for ``players`` to its end and review it: ``(states, moves, review)``."""
    game, options = SAMPLES[players]
    state = GAMES[game].new(**options)
    states, moves = [state], []
    while state.outcome() is None:
        move = choose_move(state, level="easy", seed=state.ply, iterations=30)
        moves.append(state.move_text(move))
        state = state.play(move)
        states.append(state)
    return tuple(states), tuple(moves), review_game(states, moves, iterations=40)


def synthetic(losses: list[float], players: int = 2, final: tuple[float, ...] | None = None) -> Review:
    """A review of ``len(losses)`` moves, each losing the given share of its mover's chance (for counts and layout)."""
    judged = []
    value = [1.0 / 2] * players
    for ply, loss in enumerate(losses):
        mover = ply % players
        before = tuple(value)
        best = min(1.0, value[mover] + 0.1)
        value[mover] = max(0.0, best - loss)
        others = (1.0 - value[mover]) / (players - 1) if players > 1 else 0.0
        value = [value[mover] if seat == mover else others for seat in range(players)]
        # The mover's two values are the loss and 0, so that the loss is exactly the one given.
        judged.append(Judgement(ply, mover, "a", "b" if loss else "a", before, tuple(value), loss, 0.0, 5))
    return Review("pond", players, 40, tuple(judged), final)
