"""The shipped puzzle sets: what they hold, whether a stronger search still agrees with them, and mining's speed.

Per game (``ai/puzzle_sets/<game>.json``, or ``--sets DIR``):

* the set: how many puzzles, by goal (win, gain, best) and by line length (the solver's moves), and the spread
  of their first ratings (least, quartiles, most);
* verification: each puzzle (or ``--sample N`` of them, spread evenly over the file) is searched again from its
  position with FOUR times the puzzle budget (``puzzle_iterations(game) * 4``) and a seed the miner never used
  (derived from the puzzle's key); the puzzle agrees when the first solver move is still the search's best (for
  a "win", any move that wins at once counts, as a solver's answer does).  Reported: the agreement in percent
  (goal >= 95 %), how many are still clear by the puzzle's thresholds (at least ``WINNING`` for the solver and
  ``MARGIN`` ahead of the runner-up), and the seconds;
* ``--mine-games N``: N self-played games of each game, numbered from 10 000 (games the shipped set never used),
  mined as the builder mines them (``ai.puzzle_set.self_play`` and ``mine_game``): puzzles found per game and
  seconds per game.

    python -m bench.puzzles [--games querni --games pond] [--sets DIR] [--sample 20] [--mine-games 2]
                            [--json PATH]

Measured (2026-12-06, the shared two-core machine at a load of 4 to 8, niced): on a six-puzzle Querni set made
with ``python -m ai.puzzle_set querni --target 6`` (9 games), all six are wins at once in one move, first ratings
1245 to 1366; the verification at 2000 playouts agreed on 6/6 (100 %), all still clear, in under 0.1 s (the
searches settle the win at once); mining games 10 000 and 10 001 found 1 and 0 puzzles, 12.5 s a game of 29
plies.  The full shipped sets were not made yet when this was written.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ai import puzzle_set, search_seed
from ai.puzzles import MARGIN, WINNING, Puzzle, Ranked, puzzle_iterations, rank_moves, wins_at_once
from engines import GAMES, GameState

# The verifying search spends this many times the puzzle budget.
VERIFY_FACTOR = 4
# Self-played games for ``--mine-games`` are numbered from here: the shipped sets use games 0 onwards.
MINE_FROM = 10_000
# A seed of the verification: the puzzle's key, moved away from the miner's seeds (small game numbers).
VERIFY_SALT = 4_444_444
GOAL = 0.95


def load_set(game: str, sets: Path) -> list[dict[str, Any]]:
    """Return the puzzles of ``game`` in the folder ``sets`` (none if the file is not there)."""
    path = sets / f"{game}.json"
    if not path.exists():
        return []
    return list(json.loads(path.read_text(encoding="utf-8"))["puzzles"])


def spread(values: Sequence[float]) -> dict[str, float]:
    """The least, the quartiles and the most of ``values`` (rounded), or nothing for no values."""
    if not values:
        return {}
    ordered = sorted(values)
    if len(ordered) == 1:
        low = middle = high = ordered[0]
    else:
        low, middle, high = statistics.quantiles(ordered, n=4, method="inclusive")
    return {
        "min": round(ordered[0]),
        "q1": round(low),
        "median": round(middle),
        "q3": round(high),
        "max": round(ordered[-1]),
    }


def contents(game: str, entries: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """What a set holds: its size, its goals, its lines' lengths (solver moves) and its first ratings."""
    puzzles = [Puzzle.from_json(entry) for entry in entries]
    goals = Counter(puzzle.goal for puzzle in puzzles)
    lengths = Counter(len(puzzle.solver_moves) for puzzle in puzzles)
    return {
        "game": game,
        "puzzles": len(puzzles),
        "goals": dict(sorted(goals.items())),
        "solver_moves": {str(k): v for k, v in sorted(lengths.items())},
        "rating": spread([puzzle.rating for puzzle in puzzles]),
    }


def sample(entries: Sequence[dict[str, Any]], count: int | None) -> list[dict[str, Any]]:
    """``count`` of ``entries`` spread evenly over the file (the early and the late games alike), or all."""
    if count is None or count >= len(entries):
        return list(entries)
    if count <= 0:
        return []
    step = len(entries) / count
    return [entries[int(index * step)] for index in range(count)]


def verify_seed(puzzle: Puzzle) -> int:
    """The verification's seed: from the puzzle's key, never one the miner used (``search_seed`` of game numbers)."""
    return search_seed(int(puzzle.key, 16) % 2**48, VERIFY_SALT)


def runner_up(state: GameState, ranked: Sequence[Ranked]) -> Ranked | None:
    """The best ranked move after the first that is not also a win at once when the first is one."""
    best = ranked[0]
    others = list(ranked[1:])
    if best.exact and wins_at_once(state, best.move):
        others = [r for r in others if not (r.exact and wins_at_once(state, r.move))]
    return others[0] if others else None


def verify_one(puzzle: Puzzle, iterations: int) -> dict[str, Any]:
    """Search ``puzzle``'s position again with ``iterations`` playouts: does its first solver move stay best?"""
    state = puzzle.state()
    ranked = rank_moves(state, iterations=iterations, seed=verify_seed(puzzle))
    best = ranked[0]
    solution = puzzle.solver_moves[0]
    agrees = best.move == solution or (puzzle.goal == "win" and best.exact and wins_at_once(state, best.move))
    second = runner_up(state, ranked)
    margin = best.value - (second.value if second is not None else 0.0)
    return {
        "key": puzzle.key,
        "agrees": agrees,
        "clear": agrees and best.value >= WINNING and margin >= MARGIN,
        "solution": solution,
        "best": best.move,
        "value": round(best.value, 3),
        "margin": round(margin, 3),
    }


def verification(game: str, entries: Sequence[dict[str, Any]], count: int | None) -> dict[str, Any]:
    """Verify ``count`` of a set's puzzles (all with None) at :data:`VERIFY_FACTOR` times the puzzle budget."""
    chosen = sample(entries, count)
    iterations = puzzle_iterations(game) * VERIFY_FACTOR
    started = time.perf_counter()
    checked = [verify_one(Puzzle.from_json(entry), iterations) for entry in chosen]
    seconds = time.perf_counter() - started
    agreed = sum(row["agrees"] for row in checked)
    return {
        "game": game,
        "iterations": iterations,
        "checked": len(checked),
        "agreed": agreed,
        "agreement": round(100 * agreed / len(checked), 1) if checked else None,
        "still_clear": sum(row["clear"] for row in checked),
        "seconds": round(seconds, 1),
        "seconds_per_puzzle": round(seconds / len(checked), 2) if checked else None,
        "disagreements": [row for row in checked if not row["agrees"]],
    }


def mining(game: str, games: int) -> dict[str, Any]:
    """Mine ``games`` self-played games of ``game`` (numbers from :data:`MINE_FROM`) as the builder does."""
    found = []
    plies = []
    seconds = []
    for number in range(MINE_FROM, MINE_FROM + games):
        started = time.perf_counter()
        states = puzzle_set.self_play(game, number)
        found.append(sum(1 for _ in puzzle_set.mine_game(states, seed=number)))
        seconds.append(time.perf_counter() - started)
        plies.append(len(states) - 1)
    return {
        "game": game,
        "games": games,
        "puzzles": sum(found),
        "puzzles_per_game": round(sum(found) / games, 2) if games else None,
        "plies_per_game": round(sum(plies) / games, 1) if games else None,
        "seconds_per_game": round(sum(seconds) / games, 1) if games else None,
        "per_game": found,
    }


def contents_line(row: dict[str, Any]) -> str:
    goals = " ".join(f"{goal} {count}" for goal, count in row["goals"].items()) or "-"
    lengths = " ".join(f"{moves}:{count}" for moves, count in row["solver_moves"].items()) or "-"
    rating = row["rating"]
    ratings = f"{rating['min']}/{rating['q1']}/{rating['median']}/{rating['q3']}/{rating['max']}" if rating else "-"
    return f"{row['game']:<7} {row['puzzles']:>4} puzzles  goals: {goals:<24} solver moves: {lengths:<16} {ratings}"


def verification_line(row: dict[str, Any]) -> str:
    if not row["checked"]:
        return f"{row['game']:<7} nothing to verify"
    return (
        f"{row['game']:<7} {row['agreed']:>4}/{row['checked']:<4} agree = {row['agreement']:5.1f}% "
        f"(goal >= {100 * GOAL:.0f}%), {row['still_clear']} still clear, at {row['iterations']} playouts: "
        f"{row['seconds']:7.1f} s ({row['seconds_per_puzzle']} s a puzzle)"
    )


def mining_line(row: dict[str, Any]) -> str:
    return (
        f"{row['game']:<7} {row['games']} games of {row['plies_per_game']} plies: {row['puzzles']} puzzles "
        f"({row['puzzles_per_game']} a game, {row['per_game']}), {row['seconds_per_game']} s a game"
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.puzzles", description=__doc__.splitlines()[0])
    parser.add_argument("--games", action="append", choices=sorted(GAMES), help="only this game (repeatable)")
    parser.add_argument("--sets", type=Path, default=puzzle_set.HERE, help="the sets' folder (default: the shipped)")
    parser.add_argument("--sample", type=int, default=None, help="puzzles verified per game (default: all)")
    parser.add_argument("--no-verify", action="store_true", help="leave the verification out")
    parser.add_argument("--mine-games", type=int, default=0, help="self-played games to mine per game (default 0)")
    parser.add_argument("--json", type=Path, default=None, help="write the results here as JSON")
    args = parser.parse_args(argv)
    games = [game for game in sorted(GAMES) if not args.games or game in args.games]
    found: dict[str, Any] = {"sets": str(args.sets), "contents": [], "verification": [], "mining": []}
    sets = {game: load_set(game, args.sets) for game in games}
    print(f"== the sets in {args.sets} (first ratings: min/q1/median/q3/max)")
    for game in games:
        row = contents(game, sets[game])
        found["contents"].append(row)
        print(contents_line(row), flush=True)
    if not args.no_verify:
        print(f"== verification at {VERIFY_FACTOR}x the puzzle budget, new seeds")
        for game in games:
            row = verification(game, sets[game], args.sample)
            found["verification"].append(row)
            print(verification_line(row), flush=True)
            for wrong in row["disagreements"][:5]:
                print(f"        {wrong['key']}: {wrong['solution']!r}, the search now {wrong['best']!r}")
    if args.mine_games:
        print(f"== mining {args.mine_games} self-played games per game, from game {MINE_FROM}")
        for game in games:
            row = mining(game, args.mine_games)
            found["mining"].append(row)
            print(mining_line(row), flush=True)
    if args.json is not None:
        args.json.write_text(json.dumps(found, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
