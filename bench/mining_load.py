"""The turn path while finished games are mined for puzzles: p99 at 100 matches, with and without mining running.

Each scenario is a fresh bot on a fresh SQLite file (:class:`bench.load.Load`: discord.py's real command tree, the
match service, the renderer's two worker processes, a recorder in place of Discord) with the computer's workers
as the bot runs them (one process; background work in its niced background process).  Before the clock starts,
``--finished`` Pond games are played to their end; with mining on (the bot's default) each finish queues its
mining in the same transaction and the background runner mines them, a slice at a time, while 100 matches play
at 100 moves/s offered.  The same scenario with mining off runs alternately, so a busy moment of the shared
machine weighs on both.  Goal: p99 with mining within 1.1x of without.

    python -m bench.mining_load [--seconds 10] [--rounds 2] [--finished 4] [--json]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from bench.load import Load, Patch
from bench.review_load import finished_game

MATCHES = 100
OFFERED = 100.0


async def scenario(folder: Path, seconds: float, finished: int, mining: bool, run: int) -> dict[str, Any]:
    """One run of the turn path at 100 matches, with finished games being mined in the background or not."""
    patch = Patch()
    load = Load(folder, MATCHES, seed=MATCHES, label=f"-mining-{mining}-{run}", ai_processes=1, mining=mining)
    try:
        await load.start(patch)
        store = load.bot.store
        ids = [await finished_game(load, 90_000 + n, n + 1) for n in range(finished)]
        if mining:
            started = time.monotonic()
            while await store.mining.get(ids[0]) is None:  # the background process is up and mining
                if time.monotonic() - started > 120:
                    raise RuntimeError("mining did not start within two minutes")
                await asyncio.sleep(0.05)
        before = [await store.mining.get(match_id) for match_id in ids]
        row = await load.run(seconds, OFFERED)
        after = [await store.mining.get(match_id) for match_id in ids]
        row["mined_positions"] = sum(
            (a.screened if a else 0) - (b.screened if b else 0) for a, b in zip(after, before, strict=True)
        )
        row["puzzles_found"] = sum(a.found for a in after if a is not None)
        row["with_mining"] = mining
        return row
    finally:
        await load.stop()
        patch.undo()


async def measure(seconds: float, rounds: int, finished: int) -> dict[str, Any]:
    rows = []
    with tempfile.TemporaryDirectory() as folder:
        for run in range(rounds):
            order = (False, True) if run % 2 == 0 else (True, False)
            for mining in order:
                rows.append(await scenario(Path(folder), seconds, finished, mining, run))
    without = round(statistics.median(r["p99_ms"] for r in rows if not r["with_mining"]), 1)
    with_ = round(statistics.median(r["p99_ms"] for r in rows if r["with_mining"]), 1)
    return {
        "rows": rows,
        "p99_ms_without": without,
        "p99_ms_with_mining": with_,
        "ratio": round(with_ / without, 2),
        "goal": "ratio <= 1.1",
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--rounds", type=int, default=2, help="runs of each (alternating which goes first)")
    parser.add_argument("--finished", type=int, default=4, help="finished games to mine while the load runs")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    found = asyncio.run(measure(args.seconds, args.rounds, args.finished))
    if args.json:
        print(json.dumps(found, indent=2))
        return
    for row in found["rows"]:
        print(
            f"{'with mining   ' if row['with_mining'] else 'without mining'}: p99 {row['p99_ms']:7.1f} ms, "
            f"median {row['median_ms']:6.1f} ms, {row['moves_per_second']:6.1f} moves/s, "
            f"loop stall {row['max_loop_stall_ms']:5.1f} ms"
            + (f", positions mined during the run: {row['mined_positions']}" if row["with_mining"] else "")
        )
    print(
        f"p99 at {MATCHES} matches: {found['p99_ms_without']} ms without mining, "
        f"{found['p99_ms_with_mining']} ms with it: {found['ratio']}x (goal <= 1.1x)"
    )


if __name__ == "__main__":
    main()
