"""Play the AI levels against each other and against a random player, in every registered game.

Each pairing plays ``--games`` games in pairs: every deal (game seed) is played
twice with the seats swapped, so neither side profits from the deal or from
moving first.  The table gives the first side's wins, draws and losses, its win
rate with a 95% Wilson interval, its score (a draw counting half) as an Elo
difference with the same interval's error bars, and each side's time per move:
mean, max, and how many moves overran their budget by more than 20% (wall-clock
time, which is what the budget limits; the same figures in CPU time tell a busy
machine's delays apart).  Every computer seat keeps its own tree between moves,
as the bot's workers do.

    python -m bench.tournament [--game pond] [--games 20] [--scale 0.2] [--pair hard-easy] [--all-pairs]
                               [--players 4] [--level NAME=BASE,setting=value] [--quick] [--workers 2]

By default the goal pairings (hard against medium, medium against easy) play
with budgets scaled to 0.2 of the real ones.  ``--scale`` multiplies the time
budget of the levels that think for a time (hard); easy and medium are a fixed
number of playouts and always play at their real budgets, so ``--scale 1`` is
the real thing and a smaller scale handicaps only hard.  ``--all-pairs`` plays
every pairing; ``--level`` defines a variant for tuning (see
:func:`parse_level`); ``--quick`` is a smoke run.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import random
import time
from collections.abc import Callable, Iterable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import replace
from typing import Any

from ai import BUDGET_SHARE, LEVELS, Level, SearchMemory, analyse, level_settings, search_seed
from engines import GAMES

# A move over its budget by more than this share counts as an overrun.
OVERRUN = 0.2
# The pairings the goals are about: each level wins 80% of its games against the one below.
GOAL_PAIRINGS = (("hard", "medium"), ("medium", "easy"))
ALL_PAIRINGS = (
    ("hard", "random"),
    ("medium", "random"),
    ("easy", "random"),
    ("hard", "easy"),
    ("hard", "medium"),
    ("medium", "easy"),
)
QUICK_PAIRINGS = (("medium", "easy"), ("easy", "random"))
# By default hard's budget is a fifth of its real one, for quick comparisons; pass scale=1.0 for the real budgets.
DEFAULT_SCALE = 0.2
QUICK_GAMES = 4
QUICK_SCALE = 0.05


def wilson(successes: float, trials: int, z: float = 1.96) -> tuple[float, float]:
    """Return the 95% Wilson score interval of a proportion."""
    if trials == 0:
        return (0.0, 1.0)
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    return (max(0.0, centre - half), min(1.0, centre + half))


def elo(score: float) -> float:
    """Return the Elo difference that expects ``score`` (a share of the points), clamped at ±800.

    >>> round(elo(0.5)), round(elo(0.8)), round(elo(0.2)), elo(1.0)
    (0, 241, -241, 800.0)
    """
    if score <= 0.0 or score >= 1.0:
        return math.copysign(800.0, score - 0.5)
    return max(-800.0, min(800.0, -400.0 * math.log10(1.0 / score - 1.0)))


def scaled_level(level: Level, scale: float) -> Level:
    """Return ``level`` with its time budget multiplied by ``scale`` if time is what limits it.

    A level of a fixed number of playouts keeps its real budget at any scale.
    """
    if level.budget != "time":
        return level
    return replace(level, time_limit=level.time_limit * scale)


def parse_level(text: str) -> Level:
    """Read a level variant for tuning, e.g. ``wide=hard,widening=1.5,temperature=0.5``.

    A name that is a :class:`Level` field changes the level (``budget`` takes
    ``time`` or ``iterations``); ``GAME.FIELD`` changes a field in one game
    only; any other name changes the game's knowledge (see ``ai.knowledge``), on top
    of the tuning a game gives the base level.  Values are numbers, ``none``,
    ``true`` or ``false``.

    >>> level = parse_level("m50=medium,querni.iterations=50,querni.temperature=0.5")
    >>> level.for_game("querni").iterations, level.for_game("querni").temperature, level.for_game("pond").iterations
    (50, 0.5, 500)
    """
    head, *settings = text.split(",")
    name, _, base = head.partition("=")
    # A renamed variant keeps its base level's settings in every game (the games find theirs by the level's name).
    kept = tuple((game, key, value) for game in GAMES for key, value in level_settings(game, base or name).items())
    level = replace(LEVELS[base or name], name=name, per_game=kept)
    fields = {f.name for f in dataclasses.fields(Level)}
    for setting in settings:
        key, _, raw = setting.partition("=")
        if key == "budget":
            level = replace(level, budget="time" if raw.strip() == "time" else "iterations")
            continue
        value = _value(raw)
        game, dot, field = key.partition(".")
        if dot and field in fields:
            level = replace(level, per_game=(*level.per_game, (game, field, value)))
        elif key in fields:
            level = replace(level, **{key: value})
        else:
            # A knowledge setting goes on top of the level's own tuning, and of a game's (LEVEL_SETTINGS).
            setting_pair = (key, value)
            per_game = tuple(
                (which, kept_field, (*kept_value, setting_pair))
                if kept_field == "tuning"
                else (which, kept_field, kept_value)
                for which, kept_field, kept_value in level.per_game
            )
            level = replace(level, tuning=(*level.tuning, setting_pair), per_game=per_game)
    return level


def _value(raw: str) -> Any:
    """Read a setting's value: an int, a float, None or a bool."""
    lowered = raw.strip().lower()
    if lowered == "none":
        return None
    if lowered in ("true", "false"):
        return lowered == "true"
    try:
        return int(lowered)
    except ValueError:
        return float(lowered)


def play_game(
    game: str, players: int, config: dict[str, Any], seats: tuple[str, ...], seed: int, levels: dict[str, Level]
) -> dict[str, Any]:
    """Play one game with ``seats[i]`` ("random" or a level's name) in seat ``i``; return the result and timings."""
    spec = GAMES[game]
    state = spec.new(players=players, seed=seed, **config)
    chooser = random.Random(seed * 7919 + 1)
    times: dict[str, list[float]] = {name: [] for name in seats if name != "random"}
    cpu: dict[str, list[float]] = {name: [] for name in times}
    budgets = {name: levels[name].for_game(game) for name in times}
    # Each seat keeps its own tree between its moves, as a bot worker does for a seat.
    memories = {seat: SearchMemory(capacity=1, freeze=True) for seat, name in enumerate(seats) if name != "random"}
    ply = 0
    while state.outcome() is None:
        player = state.to_move
        assert player is not None
        who = seats[player]
        moves = state.legal_moves()
        if who == "random":
            move = chooser.choice(moves)
        else:
            level = budgets[who]
            # The same budget path as the bot: JSON in, a clock injected, the text out.
            started = time.perf_counter()
            cpu_started = time.process_time()
            rebuilt = spec.from_json(state.to_json())
            result = analyse(
                rebuilt,
                level=level,
                seed=search_seed(seed, state.ply),
                time_limit=level.time_limit,
                clock=time.perf_counter,
                started=started,
                memory=memories[player],
                key=player,
            )
            text = rebuilt.move_text(result.move)
            times[who].append(time.perf_counter() - started)
            cpu[who].append(time.process_time() - cpu_started)
            move = state.parse_move(text)
        state = state.play(move)
        ply += 1
    outcome = state.outcome()
    assert outcome is not None
    return {"places": list(outcome.places), "plies": ply, "times": times, "cpu": cpu}


def _tasks(
    game: str, players: int, pairing: tuple[str, str], count: int, base_seed: int
) -> Iterable[tuple[tuple[str, ...], int, int]]:
    """Yield (seats, seed, seat of the first side) for ``count`` games, swapping seats on every deal."""
    first, second = pairing
    for i in range(count):
        seed = base_seed + i // 2
        # Side one takes seat (i % players); the rest of the table is side two.
        seat = i % players
        seats = tuple(first if s == seat else second for s in range(players))
        yield seats, seed, seat


def run(
    games: list[str] | None = None,
    count: int = 20,
    quick: bool = False,
    scale: float = DEFAULT_SCALE,
    workers: int = 2,
    players: int = 2,
    pairings: Iterable[tuple[str, str]] | None = None,
    base_seed: int = 1000,
    progress: Callable[[dict[str, Any]], None] | None = None,
    extra_levels: Iterable[Level] = (),
) -> list[dict[str, Any]]:
    """Play every pairing in every selected game and return one row per (game, pairing).

    ``extra_levels`` adds level variants (see :func:`parse_level`) that pairings may name.
    """
    if quick:
        count = min(count, QUICK_GAMES)
        scale = min(scale, QUICK_SCALE)
        pairings = pairings or QUICK_PAIRINGS
    chosen_pairings = tuple(pairings or GOAL_PAIRINGS)
    levels = {name: scaled_level(level, scale) for name, level in LEVELS.items()}
    levels.update((level.name, scaled_level(level, scale)) for level in extra_levels)
    rows = []
    with ProcessPoolExecutor(max_workers=workers) as pool:
        for game in games or sorted(GAMES):
            seats_for = max(GAMES[game].min_players, min(players, GAMES[game].max_players))
            for pairing in chosen_pairings:
                tasks = list(_tasks(game, seats_for, pairing, count, base_seed))
                futures = [
                    (seat, pool.submit(play_game, game, seats_for, {}, seats, seed, levels))
                    for seats, seed, seat in tasks
                ]
                results = [(seat, future.result()) for seat, future in futures]
                rows.append(_row(game, seats_for, pairing, results, scale, levels))
                if progress is not None:
                    progress(rows[-1])
    return rows


def _row(
    game: str,
    players: int,
    pairing: tuple[str, str],
    results: list[tuple[int, dict[str, Any]]],
    scale: float,
    levels: dict[str, Level],
) -> dict[str, Any]:
    """Summarise one pairing's games: the first side's results and both sides' move times."""
    first, second = pairing
    wins = draws = losses = 0
    plies = 0
    times: dict[str, list[float]] = {}
    cpu: dict[str, list[float]] = {}
    for seat, result in results:
        places = result["places"]
        mine = places[seat]
        best_other = min(p for s, p in enumerate(places) if s != seat)
        if mine < best_other:
            wins += 1
        elif mine == best_other:
            draws += 1
        else:
            losses += 1
        plies += result["plies"]
        for name, values in result["times"].items():
            times.setdefault(name, []).extend(values)
        for name, values in result["cpu"].items():
            cpu.setdefault(name, []).extend(values)
    total = len(results)
    low, high = wilson(wins, total)
    score = wins + draws / 2  # a draw is half a point
    score_low, score_high = wilson(score, total)
    row: dict[str, Any] = {
        "game": game,
        "players": players,
        "first": first,
        "second": second,
        "games": total,
        "wins": wins,
        "draws": draws,
        "losses": losses,
        "win_rate": wins / total if total else 0.0,
        "ci_low": low,
        "ci_high": high,
        # The score as an Elo difference, with its Wilson interval's bounds.
        "elo": elo(score / total) if total else 0.0,
        "elo_low": elo(score_low),
        "elo_high": elo(score_high),
        "mean_plies": plies / total if total else 0.0,
        "scale": scale,
    }
    for side, name in (("first", first), ("second", second)):
        values = times.get(name, [])
        budget = levels[name].time_limit if name != "random" else 0.0
        row[f"{side}_moves"] = len(values)
        row[f"{side}_mean_s"] = sum(values) / len(values) if values else 0.0
        row[f"{side}_max_s"] = max(values, default=0.0)
        row[f"{side}_budget_s"] = budget
        row[f"{side}_overruns"] = sum(1 for v in values if v > budget * (1 + OVERRUN))
        # CPU time tells the search's own overshoot apart from a busy machine's delays.
        cpu_values = cpu.get(name, [])
        row[f"{side}_cpu_max_s"] = max(cpu_values, default=0.0)
        row[f"{side}_cpu_overruns"] = sum(1 for v in cpu_values if v > budget * (1 + OVERRUN))
    return row


def format_row(row: dict[str, Any]) -> str:
    """Return one line of the results table."""
    line = (
        f"{row['game']:<7} {row['players']}p {row['first']:>6} vs {row['second']:<6} "
        f"{row['wins']:>3}-{row['draws']}-{row['losses']:<3} "
        f"win {100 * row['win_rate']:5.1f}% [{100 * row['ci_low']:5.1f}, {100 * row['ci_high']:5.1f}]  "
        f"Elo {row['elo']:+4.0f} [{row['elo_low']:+4.0f}, {row['elo_high']:+4.0f}]  "
        f"{row['mean_plies']:5.1f} plies"
    )
    for side in ("first", "second"):
        if row[f"{side}_moves"]:
            line += (
                f"  | {row[side]}: {1000 * row[f'{side}_mean_s']:.0f} ms mean, {1000 * row[f'{side}_max_s']:.0f} max"
                f" / {1000 * row[f'{side}_budget_s']:.0f} budget, {row[f'{side}_overruns']} over"
                f" (cpu max {1000 * row[f'{side}_cpu_max_s']:.0f}, {row[f'{side}_cpu_overruns']} over)"
            )
    return line


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", action="append", help="only this game (repeatable)")
    parser.add_argument("--games", type=int, default=20, help="games per pairing (default 20)")
    parser.add_argument("--quick", action="store_true", help="a smoke run: 4 games, 5%% budgets, two pairings")
    parser.add_argument("--workers", "--jobs", type=int, default=2, help="processes (default 2)")
    parser.add_argument(
        "--scale", type=float, default=DEFAULT_SCALE, help=f"multiply every time budget (default {DEFAULT_SCALE})"
    )
    parser.add_argument("--players", type=int, default=2, help="seats per game where the game allows")
    parser.add_argument("--pair", action="append", help="a pairing like hard-easy (repeatable)")
    parser.add_argument("--all-pairs", action="store_true", help="every pairing of the levels and random")
    parser.add_argument("--seed", type=int, default=1000, help="first deal's seed")
    parser.add_argument(
        "--level", action="append", default=[], help="a level variant for tuning, e.g. wide=hard,widening=1.5"
    )
    parser.add_argument("--json", action="store_true", help="print JSON rows instead of a table")
    args = parser.parse_args()
    pairings = [(p.split("-", 1)[0], p.split("-", 1)[-1]) for p in args.pair] if args.pair else None
    if args.all_pairs:
        pairings = [*(pairings or []), *ALL_PAIRINGS]
    extra = [parse_level(text) for text in args.level]
    known = {*LEVELS, *(level.name for level in extra), "random"}
    for pairing in pairings or ():
        for name in pairing:
            if name not in known:
                parser.error(f"unknown player {name!r}")
    scale = min(args.scale, QUICK_SCALE) if args.quick else args.scale
    budgets = ", ".join(
        f"{name} {level.time_limit * scale:g} s"
        if level.budget == "time"
        else f"{name} {level.iterations} playouts"
        + "".join(f" ({game} {field} {value})" for game in GAMES for field, value in level_settings(game, name).items())
        for name, level in LEVELS.items()
    )
    print(f"budgets x{scale:g}: {budgets} (the search stops at {BUDGET_SHARE:.0%} of its time)", flush=True)
    show = None if args.json else lambda row: print(format_row(row), flush=True)
    rows = run(
        args.game, args.games, args.quick, args.scale, args.workers, args.players, pairings, args.seed, show, extra
    )
    if args.json:
        print(json.dumps(rows, indent=2))


if __name__ == "__main__":
    main()
