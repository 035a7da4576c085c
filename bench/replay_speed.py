"""Time and size of animated replays (``render.replay``), and the longest games' replay sizes.

Each game names its cases in its render module (``REPLAY_CASES``); today's rows:

* **pond 100 plies**: a whole Pond game that reaches a 100-ply move limit (played
  by the staller below: random games reach a target sooner); goal: built in under
  2 s on one core, under 3 MB;
* **azul 4p**: whole four-player Azul games by random play (same goals);
* **worst cases**: the longest games the engines allow, played by a *staller*
  that picks quiet moves (see :func:`quietness`), so Pond and Summer run to their
  move limits and Azul to its round cap.
  The replay must stay under Discord's 10 MiB.  By default that is Pond 300 plies,
  Summer 12x12 576 plies (4·N·N) and Azul 4p 100 rounds; the full run adds the
  options' extremes (Pond ``max_plies=5000``).  Querni's draw rule ends a game
  after 30 plies without a removal and each of at most ten removals resets it,
  so it is never longer than 11 x 30 = 330 plies: shorter than these.

Times are CPU seconds of this process (the build uses one core) and wall seconds.
Games are random or staller play from fixed seeds (the bench may use ``random``).

    python -m bench.replay_speed [--quick] [--json]
    python -m bench.replay_speed --quick --against /tmp/base [--rounds 3]   # A/B: alternate with another checkout
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

from PIL import GifImagePlugin, Image

from bench.alternate import alternate
from engines import GAMES, GameState
from render.replay import MAX_BYTES, replay_gif, sampling_step

NAMES = ("Ana", "Bartholomew", "Chidi", "Dagny")
DISCORD_LIMIT = 10 * 1024 * 1024


def play(name: str, players: int, seed: int, config: dict[str, Any], stall: bool = False) -> list[GameState]:
    """Return every state of one seeded game: random moves, or the staller's (see the module docstring)."""
    rng = random.Random(seed)
    state = GAMES[name].new(players=players, seed=seed, **config)
    states = [state]
    while moves := state.legal_moves():
        if stall:
            # A sample keeps long Azul games affordable; the staller needs a quiet move, not the quietest.
            candidates = rng.sample(moves, min(12, len(moves)))
            choices = [(state.move_text(move), state.play(move)) for move in candidates]
            state = min(choices, key=lambda choice: quietness(*choice))[1]
        else:
            state = state.play(rng.choice(moves))
        states.append(state)
    return states


def quietness(text: str, after: GameState) -> tuple[bool, bool, int, int]:
    """Sort key of the staller's moves: not ending the game, Azul tiles to the floor (so no wall row ever
    completes), low scores, and many moves left for the next player (so nobody is stuck and eliminated)."""
    return (after.outcome() is not None, not text.endswith("floor"), sum(after.scores()), -len(after.legal_moves()))


def build(states: list[GameState]) -> dict[str, Any]:
    """Build one replay; return its plies, frames, size and times."""
    names = NAMES[: states[0].players]
    cpu, wall = time.process_time(), time.perf_counter()
    gif = replay_gif(states, players=names)
    cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
    plies = len(states) - 1
    with Image.open(io.BytesIO(gif)) as image:
        assert isinstance(image, GifImagePlugin.GifImageFile)  # a replay is a GIF
        frames = image.n_frames
    return {
        "plies": plies,
        "first_step": sampling_step(plies),
        "frames": frames,
        "bytes": len(gif),
        "mb": round(len(gif) / 1e6, 2),
        "cpu_s": round(cpu, 2),
        "wall_s": round(wall, 2),
    }


def cases(quick: bool = False) -> list[tuple[str, str, int, dict[str, Any], bool, int]]:
    """Return ``(case, game, players, options, staller, seed)`` for every replay to build, game by game.

    Each game names its cases in its render module (``REPLAY_CASES``: case, players, options, whether the
    staller plays, the seeds, and whether a quick run builds it too; a quick run builds at most two seeds).
    """
    found = []
    for name, spec in GAMES.items():
        module = importlib.import_module(spec.module("render"))
        for case, players, options, staller, seeds, in_quick in getattr(module, "REPLAY_CASES", ()):
            if quick and not in_quick:
                continue
            chosen = seeds[:2] if quick else seeds
            for seed in chosen:
                label = f"{case} seed {seed}" if len(seeds) > 1 else case
                found.append((label, name, players, dict(options), staller, seed))
    return found


def run(quick: bool = False) -> list[dict[str, Any]]:
    """Measure the replays; one row per game built."""
    first = next(iter(GAMES.values()))
    build(play(first.name, first.min_players, 0, {}))  # warm the caches a running worker would have warm
    return [
        {"case": case, **build(play(name, players, seed, options, stall=staller))}
        for case, name, players, options, staller, seed in cases(quick)
    ]


def summary(rows: list[dict[str, Any]]) -> str:
    """One line on the whole games (median and worst) and on the largest worst case."""
    whole = [row for row in rows if not row["case"].startswith("worst")] or rows
    worst = [row for row in rows if row["case"].startswith("worst")] or rows
    return (
        f"whole games: median {statistics.median(r['mb'] for r in whole)} MB, "
        f"max {max(r['mb'] for r in whole)} MB, max {max(r['cpu_s'] for r in whole)} s CPU; "
        f"largest worst case {max(r['mb'] for r in worst)} MB "
        f"(budget {MAX_BYTES / 2**20:g} MiB, Discord {DISCORD_LIMIT / 2**20:g} MiB)"
    )


def line(row: dict[str, Any]) -> str:
    return (
        f"{row['case']:<34} {row['plies']:>5} plies, {row['frames']:>4} frames: {row['mb']:>5} MB, "
        f"{row['cpu_s']:>5} s CPU, {row['wall_s']:>5} s wall"
    )


def against(root: str, rounds: int, quick: bool) -> list[dict[str, Any]]:
    """Alternate this checkout's run with the one in ``root`` (another commit's checkout), ``rounds`` times each.

    Each run is a fresh process (``python -m bench.replay_speed --json`` in that checkout); every row gets the
    median CPU seconds over rounds of both, ``before_s`` (``root``'s) and ``cpu_s`` (this checkout's), and
    whether both replays had the same size.
    """
    argv = [sys.executable, "-m", "bench.replay_speed", "--json"] + (["--quick"] if quick else [])
    before, after = alternate(argv, root, rounds)
    rows: list[dict[str, Any]] = after[0]
    for i, row in enumerate(rows):
        row["before_s"] = round(statistics.median(run[i]["cpu_s"] for run in before), 2)
        row["cpu_s"] = round(statistics.median(run[i]["cpu_s"] for run in after), 2)
        row["same_size"] = before[0][i]["bytes"] == row["bytes"]
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="at most two seeds a case, no extreme-option worst cases")
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    parser.add_argument("--against", metavar="CHECKOUT", help="A/B: alternate with another commit's checkout")
    parser.add_argument("--rounds", type=int, default=3, help="with --against: runs of each side")
    args = parser.parse_args()
    if args.against:
        for row in against(args.against, args.rounds, args.quick):
            print(
                f"{row['case']:<34} {row['plies']:>5} plies: {row['before_s']:>5} -> {row['cpu_s']:>5} s CPU "
                f"({row['cpu_s'] / row['before_s']:.2f}x), same size: {row['same_size']}"
            )
        return
    rows = run(args.quick)
    if args.json:
        print(json.dumps(rows, indent=2))
        return
    for row in rows:
        print(line(row))
    print(summary(rows))


if __name__ == "__main__":
    main()
