"""Querni's fast move generator lists exactly the turns the rules' plain reading gives."""

from __future__ import annotations

import random
from itertools import pairwise

import pytest

from engines import querni
from engines.querni import generate

# Each test reads every turn the slow way over hundreds of positions (5 to 25 seconds apiece); the quick run keeps
# test_querni.py's worked examples of legal turns.
pytestmark = pytest.mark.slow


def _plain_ranges(where: list[int], base: int) -> list[tuple[int, int]]:
    """List every removable ``(lo, hi)`` of the colour at ``base``: 3+ consecutive numbers, each next to the last."""
    found = []
    for lo in range(1, querni.PIECES - 1):
        for hi in range(lo + 2, querni.PIECES + 1):
            squares = [where[base + n] for n in range(lo, hi + 1)]
            if all(s >= 0 for s in squares) and all(b in querni.NEAR_SET[a] for a, b in pairwise(squares)):
                found.append((lo, hi))
    return found


def _plain_legal(state: querni.QuerniState) -> tuple[querni.QuerniMove, ...]:
    """Build the legal turns the slow way: every end of every piece, the chains judged on the board after the move."""
    base = state.turn * querni.PIECES
    where = list(state.where())
    moves = [querni.PASS]
    moves += [querni.QuerniMove(-1, -1, lo, hi) for lo, hi in _plain_ranges(where, base)]
    starts = sorted(where[base + n] for n in range(1, querni.PIECES + 1) if where[base + n] >= 0)
    for start in starts:
        value = state.board[start]
        for end in generate._ends(state.board, start):
            moves.append(querni.QuerniMove(start, end, -1, -1))
            after = list(where)
            after[value] = end
            moves += [querni.QuerniMove(start, end, lo, hi) for lo, hi in _plain_ranges(after, base)]
    return tuple(moves)


def _positions(seed: int, games: int, **options: object) -> list[querni.QuerniState]:
    draw = random.Random(seed)
    positions = []
    for number in range(games):
        state = querni.new(seed=seed * 1000 + number, **options)  # type: ignore[arg-type]
        while state.outcome() is None:
            positions.append(state)
            moves = state.legal_moves()
            # Favour removals now and then, so that later positions with few pieces are reached too.
            removals = [m for m in moves if m.lo >= 0]
            pool = removals if removals and draw.random() < 0.3 else moves
            state = state.play(pool[draw.randrange(len(pool))])
    return positions


@pytest.mark.parametrize(("seed", "options"), [(1, {}), (2, {"isolation": "no_triple_left"}), (3, {"draw_plies": 80})])
def test_generated_turns_are_the_plain_readings_turns(seed: int, options: dict[str, object]) -> None:
    positions = _positions(seed, 40, **options)
    assert len(positions) > 150
    for state in positions:
        legal = state.legal_moves()
        assert legal == _plain_legal(state)
        assert all(type(move) is querni.QuerniMove for move in legal)


def test_generated_turns_on_sparse_hand_made_boards() -> None:
    draw = random.Random(9)
    squares = list(querni.NAMES)
    for _ in range(300):
        blue, red = draw.randint(1, 16), draw.randint(1, 16)
        pieces = [f"B{n}" for n in draw.sample(range(1, 17), blue)] + [f"R{n}" for n in draw.sample(range(1, 17), red)]
        layout = dict(zip(draw.sample(squares, len(pieces)), pieces, strict=True))
        state = querni.new(layout=layout)
        for _ in range(2):
            assert state.legal_moves() == _plain_legal(state)
            state = state.play(querni.PASS)
