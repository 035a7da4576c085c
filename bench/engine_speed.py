"""Random-play throughput of every registered engine, one core.

A ply is one ``legal_moves()`` plus one ``play()``; the random choice of move is
made from a precomputed stream so that it costs next to nothing.  Each game names
what to measure in its engine's ``SPEC`` (``bench_configs``: players and options).

    python -m bench.engine_speed [--seconds 3] [--game pond]
"""

from __future__ import annotations

import argparse
import json
import time
from typing import Any

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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="time per configuration")
    parser.add_argument("--game", action="append", help="only this game (repeatable)")
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    args = parser.parse_args()
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
