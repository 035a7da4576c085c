"""The turn path while the computer reviews games: p99 at 100 matches, with and without two reviews running.

Each scenario is a fresh bot on a fresh SQLite file (:class:`bench.load.Load`: discord.py's real command tree,
the match service, the renderer's two worker processes, a recorder in place of Discord) with the computer's
workers as the bot runs them (one process; reviews in its niced background process).  Two finished Pond games
are reviewed at the default budget while 100 matches play at 100 moves/s offered; the same scenario without
reviews runs alternately, so a busy moment of the shared machine weighs on both.  Goal: p99 with two reviews
within 1.2x of without.

    python -m bench.review_load [--seconds 10] [--rounds 2] [--json]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import tempfile
from pathlib import Path
from typing import Any

from bench.load import Load, Patch
from bot.delivery.workers import WorkerPool
from bot.storage import Seat

MATCHES = 100
OFFERED = 100.0


async def finished_game(load: Load, channel: int, seed: int) -> int:
    """Play a Pond game to its end through the service with random legal moves; return its id."""
    service = load.bot.service
    a, b = load.people[-1 - seed], load.people[-100 - seed]
    challenge = await service.challenge(
        guild_id=1, channel_id=channel, game="pond", challenger=Seat(a.id, a.name),
        opponents=[Seat(b.id, b.name)], options={},
    )  # fmt: skip
    await service.answer(challenge.record.id, Seat(b.id, b.name), True)
    rng = random.Random(seed)
    while True:
        record, state = await service.running(channel)
        assert state.to_move is not None
        move = state.move_text(rng.choice(state.legal_moves()))
        turn = await service.play(channel, record.players[state.to_move].user_id, move)
        if turn.record.status == "finished":
            return record.id


async def scenario(folder: Path, seconds: float, reviews: bool, run: int) -> dict[str, Any]:
    """One run of the turn path at 100 matches, with two reviews running in the background or without."""
    patch = Patch()
    load = Load(folder, MATCHES, seed=MATCHES, label=f"-reviews-{reviews}-{run}")
    pool = WorkerPool("computer", 1)
    try:
        await load.start(patch)
        maker = load.bot.reviews.maker
        maker.workers = pool
        ids = [await finished_game(load, 90_000 + n, n + 1) for n in range(2)]
        jobs: list[asyncio.Task[Any]] = []
        moves = []
        if reviews:
            started = asyncio.Event()
            for match_id in ids:
                rebuilt = await load.bot.replays.rebuilt(match_id, 1)
                moves.append(len(rebuilt.game.plies))

                def progress(done: int, total: int) -> None:
                    if done:
                        started.set()

                jobs.append(
                    asyncio.ensure_future(
                        maker.review(match_id, rebuilt.record.seed, rebuilt.states, rebuilt.game.plies, progress)
                    )
                )
            await asyncio.wait_for(started.wait(), 120)  # the background process is up and judging
        row = await load.run(seconds, OFFERED)
        row["reviews_running"] = sum(not job.done() for job in jobs)
        row["reviewed_moves"] = moves
        for job in jobs:
            job.cancel()  # what the reviews judged so far stays stored, as a restart leaves it
        await asyncio.gather(*jobs, return_exceptions=True)
        row["with_reviews"] = reviews
        return row
    finally:
        await load.stop()
        pool.stop()
        patch.undo()


async def measure(seconds: float, rounds: int) -> dict[str, Any]:
    rows = []
    with tempfile.TemporaryDirectory() as folder:
        for run in range(rounds):
            order = (False, True) if run % 2 == 0 else (True, False)
            for reviews in order:
                rows.append(await scenario(Path(folder), seconds, reviews, run))
    without = round(statistics.median(r["p99_ms"] for r in rows if not r["with_reviews"]), 1)
    with_ = round(statistics.median(r["p99_ms"] for r in rows if r["with_reviews"]), 1)
    return {
        "rows": rows,
        "p99_ms_without": without,
        "p99_ms_with_two_reviews": with_,
        "ratio": round(with_ / without, 2),
        "goal": "ratio <= 1.2",
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--rounds", type=int, default=2, help="runs of each (alternating which goes first)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    found = asyncio.run(measure(args.seconds, args.rounds))
    if args.json:
        print(json.dumps(found, indent=2))
        return
    for row in found["rows"]:
        print(
            f"{'with two reviews' if row['with_reviews'] else 'without reviews '}: p99 {row['p99_ms']:7.1f} ms, "
            f"median {row['median_ms']:6.1f} ms, {row['moves_per_second']:6.1f} moves/s, "
            f"loop stall {row['max_loop_stall_ms']:5.1f} ms"
            + (f", reviews still running at the end: {row['reviews_running']}" if row["with_reviews"] else "")
        )
    print(
        f"p99 at {MATCHES} matches: {found['p99_ms_without']} ms without reviews, "
        f"{found['p99_ms_with_two_reviews']} ms with two running: {found['ratio']}x (goal <= 1.2x)"
    )


if __name__ == "__main__":
    main()
