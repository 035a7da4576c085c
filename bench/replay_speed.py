"""Time and size of animated replays (``render.replay``), and the longest games' replay sizes.

Rows:

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
"""

from __future__ import annotations

import argparse
import io
import json
import random
import statistics
import time
from typing import Any

from PIL import Image

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


def pond_100() -> list[GameState]:
    """Return a whole Pond game of 100 plies: random games end sooner, so the staller plays to a 100-ply limit."""
    states = play("pond", 2, 0, {"max_plies": 100}, stall=True)
    assert len(states) == 101, len(states)
    return states


def run(quick: bool = False) -> list[dict[str, Any]]:
    """Measure the replays; one row per game built."""
    rows: list[dict[str, Any]] = []
    build(play("pond", 2, 0, {}))  # warm the caches a running worker would have warm (font, sprites, palettes)
    rows.append({"case": "pond 100 plies", **build(pond_100())})
    for seed in range(2 if quick else 5):
        rows.append({"case": f"azul 4p seed {seed}", **build(play("azul", 4, seed, {}))})
    worst: list[tuple[str, str, int, dict[str, Any]]] = [
        ("worst pond 300-ply limit", "pond", 2, {}),
        ("worst summer 12x12 576-ply limit", "summer", 2, {"size": 12}),
    ]
    if not quick:
        worst += [
            ("worst azul 4p 100-round cap", "azul", 4, {}),
            ("worst pond max_plies=5000", "pond", 2, {"max_plies": 5000}),
        ]
    for case, name, players, config in worst:
        rows.append({"case": case, **build(play(name, players, 1, config, stall=True))})
    return rows


def summary(rows: list[dict[str, Any]]) -> str:
    """One line on the Azul games: median and worst."""
    azul = [row for row in rows if row["case"].startswith("azul")]
    return (
        f"azul 4p whole games: median {statistics.median(r['mb'] for r in azul)} MB, "
        f"max {max(r['mb'] for r in azul)} MB, max {max(r['cpu_s'] for r in azul)} s CPU; "
        f"largest worst case {max(r['mb'] for r in rows if r['case'].startswith('worst'))} MB "
        f"(budget {MAX_BYTES / 2**20:g} MiB, Discord {DISCORD_LIMIT / 2**20:g} MiB)"
    )


def line(row: dict[str, Any]) -> str:
    return (
        f"{row['case']:<34} {row['plies']:>5} plies, {row['frames']:>4} frames: {row['mb']:>5} MB, "
        f"{row['cpu_s']:>5} s CPU, {row['wall_s']:>5} s wall"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer Azul games, no extreme-option worst cases")
    parser.add_argument("--json", action="store_true", help="print JSON instead of a table")
    args = parser.parse_args()
    rows = run(args.quick)
    if args.json:
        print(json.dumps(rows, indent=2))
        return
    for row in rows:
        print(line(row))
    print(summary(rows))


if __name__ == "__main__":
    main()
