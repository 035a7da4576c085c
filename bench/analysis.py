"""The computer's review: how long a review takes, and whether it is honest.

Default mode: a 60-ply Pond game, a 2-player Azul game, a Querni game and a 6×6 Summer game, each
played by the easy level against itself, are reviewed position by position on ONE worker process
(``ai.review.judge_saved`` in a ``ProcessPoolExecutor(max_workers=1)``; the bot runs it in its one background
worker process, ``bot.delivery.workers``) at each
game's default budget (``REVIEW_ITERATIONS``).  Reported: seconds per game (goal < 60 s) and per
position; and the evaluation graph's render time and PNG size (goal < 50 ms, < 80 KB).

``--honesty`` (whether the review's verdicts match how the games went): in every game, ``--games`` (50) games
of the easy level against the hard level, seats alternating on each deal, hard at a fixed
:data:`HARD_ITERATIONS` playouts a move (no clock, so the games are the same on any machine); each game is
reviewed at ``--fraction`` of the game's review budget.  Reported per game: the share of games where easy's
average loss per move is larger than hard's, with its 95 % Wilson interval (goal ≥ 80 %), and a blunder check:
in a sample of the games' positions, the move the hard level plays with another seed is judged; how many are
called blunders (goal 0) and mistakes, and the largest loss.

    python -m bench.analysis [--game pond] [--json]
    python -m bench.analysis --honesty [--games 50] [--fraction 0.25] [--samples 2] [--game querni]

Measured on the shared 2-core machine (2026-12-02, another benchmark on the other core): a review on one
worker at the default budget took Pond (60 plies, 2000 playouts) 46.5 s, 0.77 s a position; Azul (57 plies,
3000) 12.8 s, 0.22 s; Querni (24 plies, 500) 9.7 s, 0.40 s; Summer 6×6 (36 plies, 2000) 20.1 s, 0.56 s.
On the same machine at rest: Pond 18.2 s (0.30 s a position), Azul 13.7 s, Querni 8.7 s, Summer 16.3 s;
the graph 6.9–8.3 ms and 15–21 KB.
Honesty, 50 games each, hard at 1000 playouts, at a quarter of the review budget: easy lost more than hard
in 50/50 games of every game (100 %, Wilson [93, 100]); hard's own moves judged: 0 blunders and 0 mistakes
in 150 per game (worst losses: Querni 0.066, Pond 0.103, Azul 0.000, Summer 0.029).  At the full budget:
the same in every game, 50/50 [93, 100] and 0 blunders or mistakes in 150 (worst losses: Querni 0.057, Pond
0.055, Azul 0.039, Summer 0.041; mean loss easy/hard: Querni 0.061/0.002, Pond 0.043/0.003, Azul 0.015/0.001,
Summer 0.034/0.002).

The turn path's p99 while reviews run (reviews must not slow the live turns) is measured by
:mod:`bench.review_load`, with the reviews made as the bot makes them.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from ai import choose_move, search_seed, warm_up
from ai.review import (
    BLUNDER,
    Judgement,
    Review,
    final_rewards,
    judge,
    judge_saved,
    review_game,
    review_iterations,
)
from bench.tournament import wilson
from engines import GAMES
from engines.base import GameState

# The games the default mode reviews: (game, options, plies: the first game from the seed on that lasts at least
# this many plies, its first ``plies`` reviewed; None: the seed's own game, all of it).
REVIEWED: tuple[tuple[str, dict[str, Any], int | None], ...] = (
    ("pond", {}, 60),
    ("azul", {}, None),
    ("querni", {}, None),
    ("summer", {"size": 6}, None),
)
# Playouts a move for the hard level in the honesty games: about what it searches in 0.1–0.5 s on one
# core, a fixed amount so that the games are the same on any machine.
HARD_ITERATIONS = 1000
HONESTY_GAMES = 50
HONESTY_FRACTION = 0.25
HONESTY_SAMPLES = 2  # positions per game whose hard move is judged
HONESTY_SEED = 3100
SEARCH_SEED_SHIFT = 7_777_777  # the blunder check's hard move and judgement use seeds the games never did


@dataclass
class Played:
    """A game as a review takes it: the position before each move, the moves' texts, and the last position."""

    states: list[GameState] = field(default_factory=list)
    moves: list[str] = field(default_factory=list)


def play(
    game: str,
    seats: tuple[str, ...],
    seed: int,
    options: dict[str, Any] | None = None,
    max_plies: int | None = None,
    hard_iterations: int = HARD_ITERATIONS,
) -> Played:
    """Play a game with ``seats[i]`` (a level's name) in seat ``i``; stop after ``max_plies`` if given.

    ``states`` ends with the final position when the game finished (one more state than moves).
    """
    state = GAMES[game].new(players=len(seats), seed=seed, **(options or {}))
    played = Played()
    while True:
        if state.outcome() is not None:
            played.states.append(state)
            break
        if max_plies is not None and len(played.moves) >= max_plies:
            break
        level = seats[state.to_move or 0]
        budget = hard_iterations if level == "hard" else None
        move = choose_move(state, level=level, seed=search_seed(seed, state.ply), iterations=budget)
        played.states.append(state)
        played.moves.append(state.move_text(move))
        state = state.play(move)
    return played


def long_game(game: str, options: dict[str, Any], plies: int | None, seed: int, tries: int = 200) -> Played:
    """Return the first easy-against-easy game from ``seed`` on lasting ``plies`` plies, cut there (None: any)."""
    for attempt in range(seed, seed + tries):
        played = play(game, ("easy", "easy"), attempt, options, plies)
        if plies is None or len(played.moves) >= plies:
            return played
    raise ValueError(f"No game of {game} in {tries} seeds lasted {plies} plies.")


def review_on_worker(pool: ProcessPoolExecutor, game: str, played: Played, iterations: int, seed: int) -> Review:
    """Review ``played`` one position per call on ``pool``, as the bot does, and return the review."""
    judged = []
    for index, move in enumerate(played.moves):
        state = played.states[index]
        future = pool.submit(judge_saved, game, state.to_json(), move, iterations, search_seed(seed, state.ply))
        judged.append(Judgement.from_json(future.result()))
    finished = len(played.states) > len(played.moves)
    final = final_rewards(played.states[-1]) if finished else None
    return Review(game, played.states[0].players, iterations, tuple(judged), final)


def graph_timing(review: Review, repeat: int = 20) -> dict[str, Any]:
    """Time the review's evaluation graph (:func:`render.review.render_review_graph`): median ms and PNG KB."""
    from render.review import render_review_graph

    names = [f"Player {seat + 1}" for seat in range(review.players)]
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        png = render_review_graph(review, players=names)
        times.append(time.perf_counter() - started)
    times.sort()
    return {"graph_median_ms": round(1000 * times[len(times) // 2], 1), "graph_kb": round(len(png) / 1024, 1)}


def speed(games: list[str] | None = None, seed: int = 11) -> list[dict[str, Any]]:
    """Review one game of each chosen game on one worker process; return seconds per game and position."""
    rows = []
    with ProcessPoolExecutor(max_workers=1, initializer=warm_up) as pool:
        pool.submit(int).result()  # the worker is up and warm before the clock starts
        for game, options, plies in REVIEWED:
            if games and game not in games:
                continue
            played = long_game(game, options, plies, seed)
            budget = review_iterations(game)
            started = time.perf_counter()
            review = review_on_worker(pool, game, played, budget, seed)
            seconds = time.perf_counter() - started
            row: dict[str, Any] = {
                "game": game,
                "options": options,
                "plies": len(played.moves),
                "iterations": budget,
                "seconds": round(seconds, 2),
                "seconds_per_position": round(seconds / len(played.moves), 3),
            }
            row.update(graph_timing(review))
            rows.append(row)
    return rows


def honesty(
    game: str,
    count: int = HONESTY_GAMES,
    fraction: float = HONESTY_FRACTION,
    samples: int = HONESTY_SAMPLES,
    base_seed: int = HONESTY_SEED,
    hard_iterations: int = HARD_ITERATIONS,
) -> dict[str, Any]:
    """Play ``count`` easy-against-hard games of ``game``, review them, and check hard's moves are no blunders."""
    budget = max(1, int(review_iterations(game) * fraction))
    picker = random.Random(base_seed)
    easy_worse = 0
    easy_losses: list[float] = []
    hard_losses: list[float] = []
    checked = blunders = mistakes = 0
    worst = 0.0
    worst_position: dict[str, Any] = {}
    started = time.perf_counter()
    for index in range(count):
        seed = base_seed + index // 2
        easy_seat = index % 2
        seats = ("easy", "hard") if easy_seat == 0 else ("hard", "easy")
        played = play(game, seats, seed, hard_iterations=hard_iterations)
        review = review_game(played.states, played.moves, iterations=budget, seed=seed)
        easy, hard = review.summary(easy_seat).average_loss, review.summary(1 - easy_seat).average_loss
        easy_losses.append(easy)
        hard_losses.append(hard)
        easy_worse += easy > hard
        for at in picker.sample(range(len(played.moves)), min(samples, len(played.moves))):
            state = played.states[at]
            other = search_seed(seed + SEARCH_SEED_SHIFT, state.ply)
            move = choose_move(state, level="hard", seed=other, iterations=hard_iterations)
            judged = judge(state, move, iterations=budget, seed=other)
            checked += 1
            blunders += judged.loss >= BLUNDER
            mistakes += judged.verdict == "mistake"
            if judged.loss > worst:
                worst = judged.loss
                worst_position = {"seed": seed, "ply": state.ply, "move": judged.played, "best": judged.best}
    low, high = wilson(easy_worse, count)
    return {
        "game": game,
        "games": count,
        "review_iterations": budget,
        "hard_iterations": hard_iterations,
        "easy_worse": easy_worse,
        "share": round(easy_worse / count, 3),
        "ci_low": round(low, 3),
        "ci_high": round(high, 3),
        "easy_mean_loss": round(sum(easy_losses) / count, 4),
        "hard_mean_loss": round(sum(hard_losses) / count, 4),
        "hard_moves_checked": checked,
        "hard_moves_blunders": blunders,
        "hard_moves_mistakes": mistakes,
        "hard_moves_worst_loss": round(worst, 3),
        "worst": worst_position,
        "seconds": round(time.perf_counter() - started, 1),
    }


def honesty_line(row: dict[str, Any]) -> str:
    """Return one line of the honesty table."""
    return (
        f"{row['game']:<7} {row['games']} games (review {row['review_iterations']} playouts, hard "
        f"{row['hard_iterations']}): easy lost more in {row['easy_worse']}/{row['games']} = "
        f"{100 * row['share']:.0f}% [{100 * row['ci_low']:.0f}, {100 * row['ci_high']:.0f}] "
        f"(mean loss easy {row['easy_mean_loss']:.3f}, hard {row['hard_mean_loss']:.3f}); hard's own moves: "
        f"{row['hard_moves_blunders']} blunders, {row['hard_moves_mistakes']} mistakes in "
        f"{row['hard_moves_checked']}, worst loss {row['hard_moves_worst_loss']:.3f} {row['worst']}; "
        f"{row['seconds']} s"
    )


def speed_line(row: dict[str, Any]) -> str:
    """Return one line of the speed table."""
    options = " ".join(f"{k}={v}" for k, v in row["options"].items()) or "default"
    graph = f"graph {row['graph_median_ms']} ms, {row['graph_kb']} KB"
    return (
        f"{row['game']:<7} {options:<8} {row['plies']:>3} plies at {row['iterations']} playouts: "
        f"{row['seconds']:6.1f} s ({row['seconds_per_position']:.3f} s a position); {graph}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.analysis", description=__doc__.splitlines()[0])
    parser.add_argument("--game", action="append", choices=sorted(GAMES), help="only this game (repeatable)")
    parser.add_argument("--honesty", action="store_true", help="the honesty check instead of the speed")
    parser.add_argument("--games", type=int, default=HONESTY_GAMES, help="honesty: games per game (default 50)")
    parser.add_argument(
        "--fraction", type=float, default=HONESTY_FRACTION, help="honesty: share of the review budget (default 0.25)"
    )
    parser.add_argument("--samples", type=int, default=HONESTY_SAMPLES, help="honesty: hard moves judged per game")
    parser.add_argument("--json", action="store_true", help="print JSON rows as well")
    args = parser.parse_args()
    rows = []
    if args.honesty:
        # Quickest first, so that a long run has shown something early.
        for game in [g for g in ("querni", "pond", "azul", "summer") if not args.game or g in args.game]:
            row = honesty(game, args.games, args.fraction, args.samples)
            print(honesty_line(row), flush=True)
            rows.append(row)
    else:
        for row in speed(args.game):
            print(speed_line(row), flush=True)
            rows.append(row)
    if args.json:
        print(json.dumps(rows, indent=2))


if __name__ == "__main__":
    main()
