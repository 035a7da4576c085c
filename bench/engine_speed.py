"""Random-play throughput of every registered engine, one core.

A ply is one ``legal_moves()`` plus one ``play()``; the random choice of move is
made from a precomputed stream so that it costs next to nothing.  Each game names
what to measure in its engine's ``SPEC`` (``bench_configs``: players and options).

    python -m bench.engine_speed [--seconds 3] [--game pond]

``--compare-with PATH`` measures another checkout (e.g. a worktree of the base commit) against this one,
alternating the two in fresh processes for ``--rounds`` rounds, so that a shared, noisy machine slows both alike;
it prints each side's median (and range) and the median of the per-round ratios.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

from bench.alternate import alternate
from engines import GAMES


def measure(name: str, players: int, config: dict[str, Any], seconds: float) -> dict[str, Any]:
    """Play random games of one configuration for about ``seconds``; return plies per second."""
    spec = GAMES[name]
    picks = [(i * 2654435761) % 1000003 for i in range(4096)]
    plies = games = 0
    seed = 0
    elapsed = 0.0
    while elapsed < seconds:
        state = spec.new(players=players, seed=seed, **config)
        seed += 1
        k = seed
        start = time.perf_counter()
        while True:
            moves = state.legal_moves()
            if not moves:
                break
            state = state.play(moves[picks[k & 4095] % len(moves)])
            k += 1
            plies += 1
        elapsed += time.perf_counter() - start
        games += 1
    return {
        "game": name,
        "players": players,
        "config": config,
        "plies": plies,
        "games": games,
        "plies_per_second": round(plies / elapsed),
    }


def configs(name: str) -> list[tuple[int, dict[str, Any]]]:
    """Return what to measure of a game: its engine's ``bench_configs``, else the fewest players by default."""
    spec = GAMES[name]
    return [(players, dict(options)) for players, options in spec.bench_configs] or [(spec.min_players, {})]


def run(seconds: float = 3.0, games: list[str] | None = None) -> list[dict[str, Any]]:
    """Measure every configuration of the selected games (all registered games by default)."""
    rows = []
    for name in games or sorted(GAMES):
        for players, config in configs(name):
            rows.append(measure(name, players, config, seconds))
    return rows


def compare(other: Path, rounds: int, seconds: float, games: list[str] | None) -> list[dict[str, Any]]:
    """Alternate the checkout at ``other`` and this one ``rounds`` times; return a row per configuration."""
    command = [sys.executable, "-m", "bench.engine_speed", "--json", "--seconds", str(seconds)]
    command += [flag for game in games or () for flag in ("--game", game)]
    before, after = alternate(command, other, rounds)
    speeds: dict[str, dict[str, list[int]]] = {}
    for side, runs in (("other", before), ("here", after)):
        for rows in runs:
            for row in rows:
                config = " ".join(f"{k}={v}" for k, v in row["config"].items()) or "default"
                key = f"{row['game']} {row['players']}p {config}"
                speeds.setdefault(key, {"other": [], "here": []})[side].append(row["plies_per_second"])
    out = []
    for key, sides in speeds.items():
        if len(sides["other"]) != len(sides["here"]):
            continue  # a configuration only one side measures
        ratios = [mine / theirs for theirs, mine in zip(sides["other"], sides["here"], strict=True)]
        out.append(
            {
                "configuration": key,
                "other": sides["other"],
                "here": sides["here"],
                "other_median": statistics.median(sides["other"]),
                "here_median": statistics.median(sides["here"]),
                "ratio_median": round(statistics.median(ratios), 3),
                "ratio_range": [round(min(ratios), 3), round(max(ratios), 3)],
            }
        )
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="time per configuration")
    parser.add_argument("--game", action="append", help="only this game (repeatable)")
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    parser.add_argument("--compare-with", type=Path, metavar="PATH", help="another checkout to alternate with")
    parser.add_argument("--rounds", type=int, default=5, help="alternations with --compare-with")
    args = parser.parse_args()
    if args.compare_with is not None:
        compared = compare(args.compare_with.resolve(), args.rounds, args.seconds, args.game)
        if args.json:
            print(json.dumps(compared, indent=2))
            return
        for item in compared:
            low, high = item["ratio_range"]
            print(
                f"{item['configuration']:<30} {item['other_median']:>9,.0f} -> {item['here_median']:>9,.0f} plies/s"
                f"  x{item['ratio_median']:.2f} (rounds {low:.2f}-{high:.2f})"
            )
        return
    rows = run(args.seconds, args.game)
    if args.json:
        print(json.dumps(rows, indent=2))
        return
    for row in rows:
        config = " ".join(f"{k}={v}" for k, v in row["config"].items()) or "default"
        speed = row["plies_per_second"]
        print(f"{row['game']:<8} {row['players']}p {config:<22} {speed:>9,} plies/s  ({row['games']} games)")


if __name__ == "__main__":
    main()
