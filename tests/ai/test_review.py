"""The computer's review (ai.review): determinism, losses, blunders in tactical positions, the JSON round trip,
the summary's arithmetic, hints, forced moves, Azul with three and four players, and games ended by a forfeit."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from ai import choose_move, search_seed
from ai.review import (
    BLUNDER,
    INACCURACY,
    MISTAKE,
    Judgement,
    Review,
    Summary,
    final_rewards,
    hint,
    judge,
    judge_saved,
    review_game,
    review_iterations,
    verdict_of,
)
from engines import GAMES, GameState

# Small budgets: these are tests of the review's logic, not of its strength (bench.analysis --honesty is that).
FEW = 120


def replay(game: str, moves: list[str], **options: Any) -> GameState:
    """Return the position of ``game`` after ``moves`` (move texts) from a new game with ``options``."""
    state = GAMES[game].new(**options)
    for text in moves:
        state = state.play(state.parse_move(text))
    return state


def easy_game(game: str, seed: int, plies: int, **options: Any) -> tuple[list[GameState], list[str]]:
    """Play up to ``plies`` moves of ``game`` at the easy level; return the positions (the end too) and moves."""
    state = GAMES[game].new(seed=seed, **options)
    states: list[GameState] = [state]
    moves: list[str] = []
    while state.outcome() is None and len(moves) < plies:
        move = choose_move(state, level="easy", seed=search_seed(seed, state.ply), iterations=10)
        moves.append(state.move_text(move))
        state = state.play(move)
        states.append(state)
    if state.outcome() is None:
        states.pop()  # an unfinished game: one position per move
    return states, moves


def made(ply: int, player: int, loss: float, *, played: str = "a", best: str = "b") -> Judgement:
    """A judgement of the given loss (the mover's chance 0.6 with the preferred move), for the arithmetic."""
    after = (0.6 - loss, 0.4 + loss) if player == 0 else (0.4 + loss, 0.6 - loss)
    return Judgement(ply, player, played, best, (0.6, 0.4) if player == 0 else (0.4, 0.6), after, 0.6, 0.6 - loss, 5)


# -- determinism and losses ----------------------------------------------------------------------------------------


def test_the_same_seed_gives_the_same_review_and_another_seed_may_differ() -> None:
    states, moves = easy_game("pond", 4, 12, variant="mini")
    first = review_game(states, moves, iterations=FEW, seed=9)
    assert first == review_game(states, moves, iterations=FEW, seed=9)
    assert len(first.judgements) == len(moves) == 12
    assert [judged.ply for judged in first.judgements] == list(range(12))
    assert [judged.played for judged in first.judgements] == moves
    assert first.final is None and first.iterations == FEW and first.players == 2
    other = review_game(states, moves, iterations=FEW, seed=10)
    assert [j.played for j in other.judgements] == moves  # the moves are the game's whatever the seed


def test_losses_are_never_negative_and_the_preferred_move_loses_nothing() -> None:
    states, moves = easy_game("summer", 2, 40, size=4)
    review = review_game(states, moves, iterations=FEW, seed=1)
    for judged, state in zip(review.judgements, states, strict=False):
        assert judged.loss >= 0.0
        assert 0.0 <= judged.played_value <= 1.0 and 0.0 <= judged.best_value <= 1.0
        assert judged.verdict == verdict_of(judged.loss)
        assert state.parse_move(judged.best) in state.legal_moves()
        # The search's own preferred move, judged with the same seed, gives up nothing.
        again = judge(state, judged.best, iterations=FEW, seed=search_seed(1, state.ply))
        assert again.best == judged.best and again.loss == 0.0 and again.verdict is None


def test_verdict_thresholds_are_ordered_and_inclusive() -> None:
    assert 0 < INACCURACY < MISTAKE < BLUNDER < 1
    assert verdict_of(BLUNDER) == "blunder" and verdict_of(BLUNDER - 1e-9) == "mistake"
    assert verdict_of(MISTAKE) == "mistake" and verdict_of(INACCURACY) == "inaccuracy"
    assert verdict_of(INACCURACY - 1e-9) is None and verdict_of(0.0) is None


# -- blunders in tactical positions: each bad move hands the game away at once ---------------------------------------

# Pond (mini): light to move at ply 18; "place b4" lets dark score its last piece at once.
POND_MOVES = [
    "place d4",
    "place d3",
    "place d2",
    "place a2",
    "place d1",
    "place b1",
    "place d3",
    "place b2",
    "place b3",
    "place d4",
    "place c1",
    "place a1",
    "place c1",
    "move b2 b1",
    "move c1 c2",
    "move a2 a3",
    "place a2",
    "place d2",
]
# Summer (4×4, seed 3): White to move at ply 8; "d3-d4" lets Black win at once.
SUMMER_MOVES = ["b1-a1", "b4-a3", "d1-c2", "c4-d3", "c1-c2", "a4-b3", "c2-d3", "b3-a2"]
# Querni: blue's 1-4 in a chain, red's 1-3 in a chain (red removes them all next turn if blue lets it).
QUERNI_LAYOUT = {"c3": "B1", "d3": "B2", "e3": "B3", "f3": "B4", "j7": "R1", "i7": "R2", "h7": "R3"}
# Azul (2 players, the last round): taking the centre's four whites onto the floor throws the game away.
AZUL_LAST_ROUND: dict[str, Any] = {
    "game": "azul",
    "format": 2,
    "seed": 4,
    "players": 2,
    "options": {"first_player": None, "wall": "colour", "max_rounds": 100},
    "round": 6,
    "phase": "offer",
    "turn": 0,
    "starter": 0,
    "rng": 14427431683600197105,
    "bag": [6, 13, 12, 10, 8],
    "lid": [0, 0, 0, 0, 0],
    "factories": ["", "", "", "kwww", ""],
    "centre": "yykkwwww",
    "marker": 1,
    "boards": [
        {
            "score": 0,
            "lines": ["", "ww", "bbb", "bb", "k"],
            "wall": ["byrk.", ".b..k", "k....", "..w..", "...w."],
            "floor": "",
        },
        {
            "score": 0,
            "lines": ["", "", "bb", "rrrr", "bbbb"],
            "wall": [".yrk.", ".byrk", ".w..r", ".k...", "....."],
            "floor": "ymy",
        },
    ],
    "left": [],
    "ply": 60,
    "result": None,
    "last": {
        "player": 1,
        "move": [0, 2, 4, 0],
        "taken": 3,
        "to_line": 3,
        "to_floor": 0,
        "to_lid": 0,
        "marker": False,
        "placements": [],
        "discards": [],
        "round_ended": 0,
        "penalties": [],
        "bonuses": [],
        "left": "",
        "line_start": 1,
        "floor_start": 3,
        "marker_held": False,
        "before": [],
        "after": [],
        "clipped": [],
    },
}


def tactical_position(name: str) -> tuple[GameState, str]:
    """A position of the game ``name`` and a move there that loses the game at once."""
    if name == "pond":
        return replay("pond", POND_MOVES, variant="mini", seed=1), "place b4"
    if name == "summer":
        return replay("summer", SUMMER_MOVES, size=4, seed=3), "d3-d4"
    if name == "querni-pass":
        return GAMES["querni"].new(layout=QUERNI_LAYOUT), "pass"  # red then removes its last pieces
    if name == "querni-stranded":
        return GAMES["querni"].new(layout=QUERNI_LAYOUT), "x1-3"  # strands blue's 4: loses at once
    return GAMES["azul"].from_json(AZUL_LAST_ROUND), "c white floor"


@pytest.mark.parametrize("name", ["pond", "summer", "querni-pass", "querni-stranded", "azul"])
def test_a_move_that_hands_the_game_away_is_a_blunder(name: str) -> None:
    state, bad = tactical_position(name)
    mover = state.to_move
    assert mover is not None and state.parse_move(bad) in state.legal_moves()
    for seed in (1, 2):
        judged = judge(state, bad, iterations=300, seed=seed)
        assert judged.player == mover and judged.played == bad and judged.best != bad, name
        assert judged.verdict == "blunder", (name, judged)
        assert judged.loss >= BLUNDER and judged.played_value <= 0.1, (name, judged)
        # The preferred move keeps the game: judged on its own it is no mistake at all.
        assert judge(state, judged.best, iterations=300, seed=seed).loss < INACCURACY, name


def test_a_losing_move_is_also_a_turning_point_of_the_review() -> None:
    state = replay("summer", SUMMER_MOVES[:-1], size=4, seed=3)
    before = state
    state = state.play(state.parse_move(SUMMER_MOVES[-1]))
    review = review_game([before, state], [SUMMER_MOVES[-1], "d3-d4"], iterations=300, seed=5)
    assert review.judgements[1].verdict == "blunder"
    assert state.ply in review.turning_points()
    assert review.costliest(state.to_move or 0)[0].ply == state.ply
    assert review.summary(state.to_move or 0).blunders == 1


# -- the stored form ---------------------------------------------------------------------------------------------------


def test_a_review_survives_json_and_its_numbers_are_rounded_once() -> None:
    states, moves = easy_game("querni", 7, 8)
    review = review_game(states, moves, iterations=FEW, seed=2)
    text = json.dumps(review.to_json())
    back = Review.from_json(json.loads(text))
    assert back.to_json() == review.to_json()
    assert Review.from_json(back.to_json()) == back  # rounded values survive exactly from then on
    assert (back.game, back.players, back.iterations, back.final) == ("querni", 2, FEW, review.final)
    for old, new in zip(review.judgements, back.judgements, strict=True):
        assert (old.ply, old.player, old.played, old.best, old.choices) == (
            new.ply,
            new.player,
            new.played,
            new.best,
            new.choices,
        )
        assert abs(old.loss - new.loss) <= 2e-4
    finished = Review("pond", 2, 10, (made(0, 0, 0.3),), (1.0, 0.0))
    assert Review.from_json(json.loads(json.dumps(finished.to_json()))) == finished


def test_judge_saved_is_judge_from_a_saved_position() -> None:
    state = replay("summer", SUMMER_MOVES, size=4, seed=3)
    saved = judge_saved("summer", json.loads(json.dumps(state.to_json())), "d3-d4", 200, 7)
    assert Judgement.from_json(saved) == Judgement.from_json(judge(state, "d3-d4", iterations=200, seed=7).to_json())
    with pytest.raises(ValueError, match="Unknown game"):
        judge_saved("chess", state.to_json(), "d3-d4", 200, 7)


# -- the summary, the costliest moves and the turning points -----------------------------------------------------------


def test_summary_costliest_and_turning_points_add_up() -> None:
    losses = [0.0, 0.3, 0.1, 0.0, 0.16, 0.09, 0.02, 0.26, 0.5, 0.2]
    judgements = tuple(made(ply, ply % 2, loss) for ply, loss in enumerate(losses))
    review = Review("pond", 2, 100, judgements, (0.0, 1.0))
    light, dark = review.summary(0), review.summary(1)
    # Light (even plies): 0.0, 0.1, 0.16, 0.02, 0.5; dark: 0.3, 0.0, 0.09, 0.26, 0.2.
    assert (light.player, light.moves, light.inaccuracies, light.mistakes, light.blunders) == (0, 5, 1, 1, 1)
    assert light.average_loss == pytest.approx((0.1 + 0.16 + 0.02 + 0.5) / 5)
    assert (dark.moves, dark.inaccuracies, dark.mistakes, dark.blunders) == (5, 1, 1, 2)
    assert dark.average_loss == pytest.approx((0.3 + 0.09 + 0.26 + 0.2) / 5)
    assert [j.ply for j in review.costliest(0)] == [8, 4, 2]
    assert [j.ply for j in review.costliest(1)] == [1, 7, 9]
    assert [j.ply for j in review.costliest(1, 5)] == [1, 7, 9, 5]  # only moves with a verdict
    # The three costliest mistakes or worse (0.5, 0.3, 0.26), in the order they were played.
    assert review.turning_points() == (1, 7, 8)
    assert review.turning_points(10) == (1, 4, 7, 8, 9)
    curve = review.curve()
    assert len(curve) == len(losses) + 1 and curve[0] == (0.6, 0.4) and curve[-1] == (0.0, 1.0)
    assert curve[3] == judgements[2].after
    assert review.summary(1).moves + review.summary(0).moves == len(losses)


def test_a_tie_in_loss_is_broken_by_the_earlier_move_and_a_clean_game_has_no_turning_points() -> None:
    review = Review("summer", 2, 100, (made(0, 0, 0.2), made(1, 1, 0.0), made(2, 0, 0.2), made(3, 1, 0.05)))
    assert [j.ply for j in review.costliest(0, 1)] == [0]
    assert review.turning_points(1) == (0,)
    clean = Review("summer", 2, 100, (made(0, 0, 0.0), made(1, 1, 0.05)))
    assert clean.turning_points() == () and clean.costliest(0) == () and clean.costliest(1) == ()
    assert clean.summary(0) == Summary(0, 1, 0.0, 0, 0, 0)
    empty = Review("summer", 2, 100, ())
    assert empty.curve() == [] and empty.summary(0).average_loss == 0.0
    assert Review("summer", 2, 100, (), (0.5, 0.5)).curve() == [(0.5, 0.5)]


def test_a_move_named_differently_from_the_best_that_is_as_good_loses_nothing() -> None:
    equal = Judgement(3, 1, "a", "b", (0.3, 0.7), (0.25, 0.75), 0.7, 0.75, 4)  # the played one looked better
    assert equal.loss == 0.0 and equal.verdict is None
    same = Judgement(3, 1, "b", "b", (0.3, 0.7), (0.6, 0.4), 0.7, 0.4, 4)  # the preferred move: never a loss
    assert same.loss == 0.0


# -- hints, forced moves, three and four players, the end of a game ---------------------------------------------------


def test_a_hint_is_the_searchs_move_with_its_chance() -> None:
    state = GAMES["querni"].new(layout=QUERNI_LAYOUT)
    suggestion = hint(state, iterations=200, seed=4)
    assert suggestion.played == suggestion.best and suggestion.loss == 0.0 and suggestion.verdict is None
    assert suggestion.best_value == 1.0 and state.play(state.parse_move(suggestion.best)).outcome() is not None
    assert hint(state, iterations=200, seed=4) == suggestion
    pond = GAMES["pond"].new(variant="mini", seed=2)
    quick = hint(pond, iterations=60, seed=1)
    assert pond.parse_move(quick.played) in pond.legal_moves() and 0.0 <= quick.best_value <= 1.0
    assert quick.choices == len(pond.legal_moves())
    assert review_iterations("pond") >= 500 and all(review_iterations(game) > 0 for game in GAMES)


def test_a_forced_move_is_judged_without_loss() -> None:
    moves = [
        "place a4",
        "place b4",
        "move a4 a3",
        "place c2",
        "place b1",
        "place b2",
        "move a3 a4",
        "move c2 d2",
        "move b1 c1",
        "place c4",
        "place c3",
        "place a3",
        "move c1 d1",
        "place a2",
        "place c1",
        "move d2 c2",
        "place d2",
        "place b1",
        "move c1 c2",
        "move b4 d4",
        "place c2",
        "place d2",
        "move d1 c1",
        "place b2",
        "place a2",
        "move b1 a1",
        "move a4 c4",
        "place a4",
        "place c2",
    ]
    state = replay("pond", moves, variant="mini", seed=0)
    assert [state.move_text(move) for move in state.legal_moves()] == ["move a1 b1"]
    judged = judge(state, "move a1 b1", iterations=200, seed=3)
    assert judged.choices == 1 and judged.best == judged.played == "move a1 b1"
    assert judged.loss == 0.0 and judged.before == judged.after
    assert hint(state, iterations=200, seed=3).best == "move a1 b1"


@pytest.mark.parametrize("players", [3, 4])
def test_azul_with_three_and_four_players_gives_every_player_a_value(players: int) -> None:
    states, moves = easy_game("azul", 8, 2 * players, players=players)
    review = review_game(states, moves, iterations=60, seed=1)
    assert review.players == players and review.final is None
    for judged in review.judgements:
        assert len(judged.before) == len(judged.after) == players
        assert all(0.0 <= value <= 1.0 for value in (*judged.before, *judged.after))
        assert judged.loss >= 0.0
    assert [j.player for j in review.judgements] == [state.to_move for state in states]
    assert all(len(point) == players for point in review.curve())
    assert {review.summary(seat).moves for seat in range(players)} == {2}


def test_a_finished_azul_game_of_three_ends_on_its_places() -> None:
    rng = random.Random(3)
    state = GAMES["azul"].new(players=3, seed=3)
    while state.outcome() is None:
        state = state.play(rng.choice(state.legal_moves()))
    final = final_rewards(state)
    assert final is not None and len(final) == 3
    outcome = state.outcome()
    assert outcome is not None
    # Each player's share of the other two beaten (a tie counting half): first 1, last 0.
    for seat, place in enumerate(outcome.places):
        beaten = sum((place < other) + 0.5 * (place == other) for s, other in enumerate(outcome.places) if s != seat)
        assert final[seat] == pytest.approx(beaten / 2)


def test_a_finished_game_ends_the_curve_on_its_result_and_a_forfeit_has_no_final() -> None:
    state = GAMES["querni"].new(layout=QUERNI_LAYOUT)
    won = state.play(state.parse_move("x1-4"))
    review = review_game([state, won], ["x1-4"], iterations=FEW, seed=1)
    assert review.final == (1.0, 0.0) and review.curve()[-1] == (1.0, 0.0)
    left = state.forfeit(0, "forfeit")
    assert left.outcome() is not None and final_rewards(left) is None
    # The moves before the forfeit are reviewed; the curve ends on the last estimate, not on a result.
    states, moves = easy_game("pond", 5, 6, variant="mini")
    resigned = review_game(
        [*states, states[-1].play(states[-1].parse_move(moves[-1])).forfeit(1, "timeout")],
        moves,
        iterations=FEW,
        seed=1,
    )
    assert resigned.final is None and resigned.curve()[-1] == resigned.judgements[-1].after
    assert final_rewards(states[0]) is None  # not over


def test_nothing_to_judge_is_refused() -> None:
    state = GAMES["querni"].new(layout=QUERNI_LAYOUT)
    over = state.play(state.parse_move("x1-4"))
    with pytest.raises(ValueError):
        judge(over, None, iterations=10)
    with pytest.raises(ValueError):
        review_game([state], [], iterations=10)


# -- bench.analysis in miniature ---------------------------------------------------------------------------------------


def test_a_review_on_a_worker_process_is_the_review_in_process() -> None:
    from concurrent.futures import ProcessPoolExecutor

    from bench.analysis import long_game, review_on_worker

    played = long_game("pond", {"variant": "mini"}, 8, 30)
    assert len(played.moves) == 8 and len(played.states) == 8
    with ProcessPoolExecutor(max_workers=1) as pool:
        on_worker = review_on_worker(pool, "pond", played, 40, 6)
    in_process = review_game(played.states, played.moves, iterations=40, seed=6)
    assert on_worker.to_json() == in_process.to_json()


def test_the_honesty_check_counts_what_it_says() -> None:
    from bench.analysis import honesty, honesty_line

    row = honesty("querni", count=2, fraction=0.05, samples=1, hard_iterations=30)
    assert row["games"] == 2 and row["review_iterations"] == 25 and row["hard_moves_checked"] == 2
    assert 0 <= row["easy_worse"] <= 2 and row["ci_low"] <= row["share"] <= row["ci_high"]
    assert row["hard_moves_blunders"] <= row["hard_moves_checked"]
    assert "querni" in honesty_line(row)
