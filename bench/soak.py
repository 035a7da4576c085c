"""Memory over a long run: does the bot's RSS stay flat while matches start, are played and finish?

``python -m bench.soak [--minutes 20] [--rate 60] [--matches 320] [--channels 8] [--tracemalloc]``

The thread scenario of :mod:`bench.load` (Pond matches challenged and accepted through the real commands,
each played in its own thread, a player now and then resigning and challenging again) runs for
``--minutes`` at ``--rate`` moves per second offered, with the bot's own sweeper running.  Every
minute the bot process's resident memory (RSS, from ``/proc/self/statm``) is printed with the moves so far.
Verdict: after the warm-up (the first ``--warmup`` minutes), every minute's RSS lies within 10 % of the
first minute after warm-up.  ``--tracemalloc`` also compares allocations at the end of warm-up with those
15 s after the load stopped and prints the lines that grew most (slow: Python traces every allocation).
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import tempfile
import time
import tracemalloc
from pathlib import Path
from typing import Any

from bench.load import Patch, ThreadLoad

PAGE = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096


def rss_mb() -> float:
    """This process's resident memory in MB."""
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * PAGE / 2**20


def growth(before: tracemalloc.Snapshot, after: tracemalloc.Snapshot, top: int = 12) -> list[str]:
    """The source lines whose live allocations grew most between two snapshots."""
    lines = []
    for stat in after.compare_to(before, "lineno")[:top]:
        frame = stat.traceback[0]
        lines.append(f"{stat.size_diff / 1024:+9.1f} KB {stat.count_diff:+7d} blocks  {frame.filename}:{frame.lineno}")
    return lines


async def soak(
    minutes: float,
    rate: float,
    matches: int,
    channels: int,
    warmup: float,
    trace: bool,
    folder: Path,
    every: float = 60.0,
) -> dict[str, Any]:
    """Run the soak; return the per-minute curve and the verdict."""
    patch = Patch()
    load = ThreadLoad(folder, matches, channels, seed=29)
    curve: list[dict[str, Any]] = []
    snapshot: tracemalloc.Snapshot | None = None
    try:
        await load.start(patch)
        for slot in range(matches):
            await load.open_in_channel(slot)
        if trace:
            tracemalloc.start(1)
        load.bot.sweeper.start()  # the bot's own background work, woken when something is due
        think = matches / rate
        started = time.perf_counter()
        moves = 0
        samples = max(1, round(minutes * 60 / every))
        for sample in range(1, samples + 1):
            until = started + sample * every
            await asyncio.gather(*(load.thread_player(slot, until, think) for slot in range(matches)))
            moves = len(load.latencies)
            gc.collect()
            minute = round(sample * every / 60, 2)
            point = {
                "minute": minute,
                "rss_mb": round(rss_mb(), 1),
                "python_mb": round(tracemalloc.get_traced_memory()[0] / 2**20, 1) if trace else None,
                "moves": moves,
                "moves_per_second": round(moves / (time.perf_counter() - started), 1),
                "finished": await _finished(load),
            }
            curve.append(point)
            print(json.dumps(point), flush=True)
            if trace and snapshot is None and minute >= warmup:
                snapshot = tracemalloc.take_snapshot()
        await load.bot.sweeper.stop()
        grew: list[str] = []
        if trace and snapshot is not None:
            await asyncio.sleep(15)  # 15 s after the load stopped: what the load left behind, not what it still holds
            gc.collect()
            grew = growth(snapshot, tracemalloc.take_snapshot())
            tracemalloc.stop()
        verified = await load.verify()
    finally:
        await load.stop()
        patch.undo()
    after = [point["rss_mb"] for point in curve if point["minute"] > warmup]
    base = after[0] if after else 0.0
    spread = max(abs(value - base) / base for value in after) if after else 0.0
    return {
        "curve": curve,
        "warmup_minutes": warmup,
        "rss_after_warmup_mb": base,
        "largest_departure_percent": round(100 * spread, 1),
        "flat": spread <= 0.10,
        "tracemalloc_growth": grew,
        **verified,
    }


async def _finished(load: ThreadLoad) -> int:
    rows = await load.bot.store.database.rows("SELECT COUNT(*) FROM matches WHERE status = 'finished'")
    return int(rows[0][0])


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=20.0)
    parser.add_argument("--rate", type=float, default=60.0, help="moves per second offered (at least 50)")
    parser.add_argument("--matches", type=int, default=320)
    parser.add_argument("--channels", type=int, default=8)
    parser.add_argument("--warmup", type=float, default=2, help="minutes of warm-up before RSS must stay flat")
    parser.add_argument("--every", type=float, default=60.0, help="seconds between two RSS samples")
    parser.add_argument("--tracemalloc", action="store_true", help="show what grew after the warm-up")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as folder:
        result = asyncio.run(
            soak(
                args.minutes,
                args.rate,
                args.matches,
                args.channels,
                args.warmup,
                args.tracemalloc,
                Path(folder),
                args.every,
            )
        )
    print(
        f"RSS after {args.warmup} min warm-up: {result['rss_after_warmup_mb']} MB; largest departure since: "
        f"{result['largest_departure_percent']} % ({'flat' if result['flat'] else 'NOT flat'}: goal within 10 %); "
        f"{result['replayed_matches']} matches replayed exactly, {result['finished_matches']} finished"
    )
    for line in result["tracemalloc_growth"]:
        print(line)


if __name__ == "__main__":
    main()
