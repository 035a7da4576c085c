"""Time to draw and encode a board picture, for every game that has one.

Random mid-game positions are reached by playing seeded random moves (the bench
may use ``random``; the engines and the renderer may not).  Each position is
rendered once to warm the caches that a running bot would already have warm
(font, sprites, board base), then timed.  Each game names what to draw in its render
module (``BENCH_CONFIGS``: players and options).

    python -m bench.render_speed [--game pond] [--positions 200] [--locale ru] [--json]
    python -m bench.render_speed --against /tmp/base [--rounds 3]   # A/B: alternate with another checkout
"""

from __future__ import annotations

import argparse
import importlib
import io
import json
import random
import statistics
import sys
import time
from typing import Any

from PIL import Image

from bench.alternate import alternate
from engines import GAMES, GameState
from render import has_renderer, render

NAMES = ("Ana", "Bartholomew", "Chidi", "Dagny")


def positions(name: str, players: int, config: dict[str, Any], count: int, seed: int = 1) -> list[GameState]:
    """Return ``count`` positions reached by random play, spread over the opening, middle and end."""
    rng = random.Random(seed)
    spec = GAMES[name]
    found: list[GameState] = []
    game = 0
    while len(found) < count:
        state = spec.new(players=players, seed=game, **config)
        game += 1
        history = [state]
        while state.legal_moves():
            state = state.play(rng.choice(state.legal_moves()))
            history.append(state)
        # Several positions per game, finished ones included, skipping the empty start.
        picks = sorted({rng.randrange(1, len(history)) for _ in range(4)} | {len(history) - 1})
        found.extend(history[i] for i in picks if i > 0)
    return found[:count]


def percentile(values: list[float], share: float) -> float:
    """Return the ``share`` quantile (0..1) of ``values``, nearest rank."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(share * (len(ordered) - 1))))]


def measure(name: str, players: int, config: dict[str, Any], count: int, locale: str = "en") -> dict[str, Any]:
    """Render ``count`` random positions of one configuration; return timing, size and dimension figures."""
    states = positions(name, players, config, count)
    names = NAMES[:players]
    for state in states[:5]:
        render(state, players=names, locale=locale)
    times: list[float] = []
    sizes: list[int] = []
    dimensions: set[tuple[int, int]] = set()
    for state in states:
        start = time.perf_counter()
        png = render(state, players=names, locale=locale)
        times.append(time.perf_counter() - start)
        sizes.append(len(png))
        with Image.open(io.BytesIO(png)) as image:
            dimensions.add(image.size)
    return {
        "game": name,
        "players": players,
        "config": config,
        "images": len(states),
        "median_ms": round(statistics.median(times) * 1000, 2),
        "p95_ms": round(percentile(times, 0.95) * 1000, 2),
        "median_kb": round(statistics.median(sizes) / 1024, 1),
        "max_kb": round(max(sizes) / 1024, 1),
        "dimensions": sorted(f"{w}x{h}" for w, h in dimensions),
    }


def configs(name: str) -> list[tuple[int, dict[str, Any]]]:
    """Return what to draw of a game: ``BENCH_CONFIGS`` of its render module, else the fewest players by default."""
    module = importlib.import_module(GAMES[name].module("render"))
    found = getattr(module, "BENCH_CONFIGS", ())
    return [(players, dict(options)) for players, options in found] or [(GAMES[name].min_players, {})]


def run(count: int = 200, games: list[str] | None = None, locale: str = "en") -> list[dict[str, Any]]:
    """Measure every configuration of the selected games that have a renderer (all of them by default)."""
    rows = []
    for name in games or sorted(GAMES):
        if not has_renderer(name):
            continue
        for players, config in configs(name):
            rows.append(measure(name, players, config, count, locale))
    return rows


def against(root: str, rounds: int, count: int, games: list[str] | None, locale: str) -> list[dict[str, Any]]:
    """Alternate this checkout's run with the one in ``root`` (another commit's checkout), ``rounds`` times each.

    Each run is a fresh process (``python -m bench.render_speed --json`` in that checkout); every row gets the
    median over rounds of both medians, ``before_ms`` (``root``'s) and ``median_ms`` (this checkout's).
    """
    argv = [sys.executable, "-m", "bench.render_speed", "--json", "--positions", str(count), "--locale", locale]
    argv += [flag for name in games or [] for flag in ("--game", name)]
    before, after = alternate(argv, root, rounds)
    rows: list[dict[str, Any]] = after[0]
    for i, row in enumerate(rows):
        row["before_ms"] = round(statistics.median(run[i]["median_ms"] for run in before), 2)
        row["median_ms"] = round(statistics.median(run[i]["median_ms"] for run in after), 2)
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=200, help="positions per configuration")
    parser.add_argument("--game", action="append", help="only this game (repeatable)")
    parser.add_argument("--locale", default="en", help="the pictures' language (en, ru, fr)")
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    parser.add_argument("--against", metavar="CHECKOUT", help="A/B: alternate with another commit's checkout")
    parser.add_argument("--rounds", type=int, default=3, help="with --against: runs of each side")
    args = parser.parse_args()
    if args.against:
        rows = against(args.against, args.rounds, args.positions, args.game, args.locale)
        for row in rows:
            config = " ".join(f"{k}={v}" for k, v in row["config"].items()) or "default"
            print(
                f"{row['game']:<8} {row['players']}p {config:<18} median {row['before_ms']:6.2f} -> "
                f"{row['median_ms']:6.2f} ms ({row['median_ms'] / row['before_ms']:.2f}x)"
            )
        return
    rows = run(args.positions, args.game, args.locale)
    if args.json:
        print(json.dumps(rows, indent=2))
        return
    for row in rows:
        config = " ".join(f"{k}={v}" for k, v in row["config"].items()) or "default"
        print(
            f"{row['game']:<8} {row['players']}p {config:<18} {row['images']:>4} images  "
            f"median {row['median_ms']:6.2f} ms  p95 {row['p95_ms']:6.2f} ms  "
            f"PNG median {row['median_kb']:5.1f} KB  max {row['max_kb']:5.1f} KB  {', '.join(row['dimensions'])}"
        )


if __name__ == "__main__":
    main()
