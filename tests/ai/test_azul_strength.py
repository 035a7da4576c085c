"""Azul's hard level: move values without playing, implicit minimax, widening, today's switches."""

from __future__ import annotations

import random

import pytest

from ai import LEVELS, analyse
from ai.azul import AzulKnowledge, _points, _summary
from ai.knowledge import knowledge_for
from ai.mcts import Node, _Tree, search
from bench.tournament import parse_level
from engines import azul
from engines.rng import Rng

# Today's hard in Azul as it was before its own search: every new setting switched off.
TODAY = (
    ("implicit_weight", 0.0),
    ("widening", 0.0),
    ("widen_past_settled", False),
    ("priors_use_children", True),
    ("free_cost", None),
)


def positions(count: int, seed: int, wall: str = "colour") -> list[azul.AzulState]:
    """Return ``count`` positions of random 2- to 4-player games, mid-round and at a round's last takes."""
    rng = random.Random(seed)
    out: list[azul.AzulState] = []
    while len(out) < count:
        state = azul.new(players=rng.randint(2, 4), seed=rng.randrange(1000), wall=wall)
        for _ in range(rng.randint(0, 60)):
            if state.outcome() is not None:
                break
            state = state.play(rng.choice(state.legal_moves()))
        if state.outcome() is None:
            out.append(state)
    return out


@pytest.mark.parametrize("wall", ["colour", "grey"])
def test_move_values_are_the_evaluations_of_the_positions_after_the_moves(wall: str) -> None:
    for state in positions(25, 5, wall):
        moves = state.legal_moves()
        arithmetic = AzulKnowledge()._move_values(state, moves)
        played = AzulKnowledge().child_values([state.play(move) for move in moves], state.players)
        assert arithmetic == played


def test_a_take_leaves_the_board_the_engine_leaves() -> None:
    for state in positions(20, 9):
        if state.phase != azul.OFFER:
            continue
        for move in state.legal_moves():
            source, colour, line, _ = move
            taken = (state.centre if source == azul.CENTRE else state.factories[source - 1])[colour]
            after, to_line, to_floor = azul.board_after_take(
                state.boards[state.turn], colour, line, taken, source == azul.CENTRE and state.marker < 0
            )
            played = state.play(move)
            last = played.last
            if last is not None and not last.round_ended:
                assert after == played.boards[state.turn]
                assert (to_line, to_floor) == (last.to_line, last.to_floor)


def test_the_round_evaluation_matches_a_hand_count() -> None:
    wall = list(azul.EMPTY_WALL)
    wall[5] = azul.WALL_COLOUR[1][0]  # row 2: white, blue in its first two columns
    wall[6] = azul.WALL_COLOUR[1][1]
    board = azul.Board(10, (-1, azul.YELLOW, azul.RED, -1, -1), (0, 2, 1, 0, 0), tuple(wall), (azul.BLACK,), 0)
    board = board._replace(free=azul.wall_free(board.wall))
    summary = _summary(board, False, True, {})
    # Line 2's yellow goes next to white and blue: 3 points; one floor tile costs 1: 12.
    # Line 3's single red (of 3) would score 1 alone: 0.6 * 1 * 1/3 = 0.2.
    # Bonuses by nearness, (n/5)^3: row 2 holds 3 (2 * 0.216), three columns and three colours hold 1 each
    # (3 * 7 * 0.008 and 3 * 10 * 0.008): 0.432 + 0.168 + 0.24 = 0.84.
    assert summary[0] == 12 and summary[1] == pytest.approx(0.2) and summary[2] == pytest.approx(0.84)
    assert _points([summary, summary], ()) == (13.04, 13.04)


def test_priors_prefer_completing_a_line_to_dropping_tiles_on_the_floor() -> None:
    state = azul.new(players=2, seed=16, first_player=0)  # factory 1 holds two yellows (see ai.azul's doctest)
    moves = state.legal_moves()
    know = AzulKnowledge()
    priors = know.priors(state, moves, None)
    assert priors is not None
    by_move = dict(zip((state.move_text(m) for m in moves), priors, strict=True))
    # Two yellows fill line 2 exactly; in line 1 one falls to the floor; in line 3 the line waits.
    assert by_move["f1 yellow 2"] > by_move["f1 yellow 3"] > by_move["f1 yellow 1"] > by_move["f1 yellow floor"]
    assert by_move["f1 yellow 2"] == max(priors)


def test_implicit_minimax_backs_up_the_movers_best_value() -> None:
    state = positions(1, 3)[0]
    know = knowledge_for("azul", (("implicit_weight", 0.5), ("priors_use_children", False)))
    tree = _Tree(know, Rng(1))
    root = Node(None, state, -1, 0.0)
    for _ in range(200):
        tree.iterate(root)
    mover = state.to_move
    assert mover is not None and root.implicit is not None and root.children
    for node in (root, *root.children):
        if node.exact is not None or node.untried is None or not node.children:
            continue
        player = node.state.to_move
        assert player is not None and node.implicit is not None
        below = [c.implicit[player] for c in node.children if c.implicit is not None]
        assert node.implicit[player] == max([*below, *([node.best_untried[player]] if node.best_untried else [])])
    assert root.implicit[mover] >= max(c.implicit[mover] for c in root.children if c.implicit is not None)


def test_hard_turns_the_new_search_on_and_the_switches_restore_todays_moves() -> None:
    tuning = dict(LEVELS["hard"].for_game("azul").tuning)
    assert tuning["implicit_weight"] > 0 and tuning["widening"] > 0 and tuning["widen_past_settled"] is True
    assert tuning["priors_use_children"] is False and tuning["free_cost"] < 25e-6
    assert LEVELS["medium"].for_game("azul").tuning == () and LEVELS["easy"].for_game("azul").tuning == ()
    # Moves today's hard chose (recorded before the change): 300 playouts a move, seed 100 * game + ply.
    recorded = ["f2 white 1", "f5 red 1", "f3 red 2", "f1 blue 2", "f4 yellow 3", "c red 3"]
    old = parse_level("old=hard," + ",".join(f"{key}={str(value).lower()}" for key, value in TODAY))
    assert dict(old.for_game("azul").tuning) | dict(TODAY) == dict(old.for_game("azul").tuning)
    state = azul.new(players=2, seed=0)
    for ply, text in enumerate(recorded):
        found = analyse(state, level=old, seed=ply, iterations=300)
        plain = search(state, iterations=300, seed=ply, knowledge=knowledge_for("azul"))
        assert state.move_text(found.move) == state.move_text(plain.move) == text
        state = state.play(found.move)


def test_widening_past_settled_lines_settles_a_rounds_last_moves() -> None:
    state = azul.new(players=2, seed=0)
    rng = random.Random(0)
    while len(state.legal_moves()) > 12 or state.ply < 4:
        state = state.play(rng.choice(state.legal_moves()))
    settings = (("widening", 0.15), ("implicit_weight", 0.5), ("priors_use_children", False))
    narrow = search(state, iterations=3000, seed=1, knowledge=knowledge_for("azul", settings))
    assert not narrow.solved, "widening alone never expands the moves a settled line hides"
    wide = search(
        state, iterations=3000, seed=1, knowledge=knowledge_for("azul", (*settings, ("widen_past_settled", True)))
    )
    today = search(state, iterations=3000, seed=1, knowledge=knowledge_for("azul"))
    assert wide.solved and today.solved and wide.iterations <= today.iterations
