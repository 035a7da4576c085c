"""Fair background work: one member's review asked for behind another member's fifty.

Each scenario is a fresh SQLite store holding the same finished Pond (mini) games, played with random moves from
fixed seeds, and the bot's background path: the queue of jobs (:mod:`bot.storage.job_store`), one
:class:`~bot.core.background.BackgroundRunner` taking them a slice at a time, the reviews' handler
(:class:`~bot.core.reviews.ReviewJobs`) judging in the computer workers' niced background process
(:class:`~bot.delivery.workers.WorkerPool`, one process, as the bot runs it).

1. *alone*: member B asks for one review and nothing else runs; B's time from asking to the review complete
   (the median of ``--rounds`` runs, each on a fresh store).
2. *behind fifty*: member A asks for ``--reviews`` reviews at once, then B asks for the same one as in 1.
   B's time from asking to complete, and the time until A's last review is complete.

Goal: B finishes within 2x its time alone (a queue that took jobs in order would make B wait for all of A's).

    python -m bench.background_fair [--reviews 50] [--iterations 100] [--rounds 3] [--json]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from bot.core.background import BackgroundRunner
from bot.core.positions import MatchPositions
from bot.core.reviews import REVIEW, ReviewJobs, ReviewMaker
from bot.core.service import MatchService
from bot.delivery.workers import WorkerPool
from bot.storage import MatchStore, Seat

GUILD = 1
A, B = 1001, 1002  # the member asking for many, and the one asking for one
PLAYERS = (Seat(1, "Ana"), Seat(2, "Bo"))


async def finished_games(store: MatchStore, count: int) -> list[int]:
    """Play ``count`` Pond mini games to their end with random moves (the same games for the same count)."""
    service = MatchService(store.matches, rng=random.Random(1), clock=lambda: 1_000.0)
    ids = []
    for number in range(count):
        channel = 10 + number
        answer = await service.challenge(
            guild_id=GUILD, channel_id=channel, game="pond", challenger=PLAYERS[0], opponents=[PLAYERS[1]],
            options={"variant": "mini"},
        )  # fmt: skip
        answer = await service.answer(answer.record.id, PLAYERS[1], True)
        rng = random.Random(number)
        record, state = answer.record, answer.state
        while state is not None and state.outcome() is None:
            assert state.to_move is not None
            move = state.move_text(rng.choice(state.legal_moves()))
            turn = await service.play(channel, record.players[state.to_move].user_id, move)
            record, state = turn.record, turn.state
        ids.append(record.id)
    return ids


async def positions(store: MatchStore, pool: WorkerPool, match_id: int) -> tuple[list[Any], list[object]]:
    """The match's positions and plies, as the runner's handler rebuilds them."""
    rebuilt = await MatchPositions(store.matches, pool).rebuilt(match_id, GUILD)
    return rebuilt.states, list(rebuilt.game.plies)


async def until_done(runner: BackgroundRunner, job_id: int) -> float:
    """Follow the job to its end; return the time (perf_counter) it was seen done."""
    async for job in runner.follow(job_id):
        if job.finished:
            assert job.state == "done", job
    return time.perf_counter()


async def scenario(folder: Path, reviews: int, iterations: int, behind: bool, run: int = 0) -> dict[str, Any]:
    """One fresh store and runner: B's review alone, or behind A's ``reviews`` reviews asked just before."""
    store = await MatchStore.open(str(folder / f"fair-{behind}-{run}.sqlite3"))
    pool = WorkerPool("computer", 1)
    try:
        games = await finished_games(store, reviews + 1 if behind else 1)  # B's is the first: the same game
        maker = ReviewMaker(store.reviews, pool, iterations=iterations)
        runner = BackgroundRunner(store.jobs, {REVIEW: ReviewJobs(maker, MatchPositions(store.matches, pool).rebuilt)})
        # The background process is started, and has judged a position, before the clock runs: B alone must not
        # pay for the process's start and its first imports, which behind A's reviews A's first slice pays.
        await maker.advance(games[-1], 0, *(await positions(store, pool, games[-1])), limit=1)
        await store.reviews.save(games[-1], maker.budget("pond"), [], complete=False)
        row: dict[str, Any] = {"behind": behind}
        started = time.perf_counter()
        many = []
        if behind:
            for match_id in games[1:]:
                many.append(await runner.submit(REVIEW, GUILD, A, match_id, asked=True))
        asked = time.perf_counter()
        one = await runner.submit(REVIEW, GUILD, B, games[0], asked=True)
        row["b_seconds"] = await until_done(runner, one.id) - asked
        if many:
            ends = await asyncio.gather(*(until_done(runner, job.id) for job in many))
            row["a_total_seconds"] = max(ends) - started
        row["slices"] = runner.slices
        await runner.stop()
        return row
    finally:
        await asyncio.to_thread(pool.stop)
        await store.close()


async def measure(reviews: int, iterations: int, rounds: int) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as folder:
        # B alone is short, and a busy moment of a shared machine weighs on it: the median of a few runs.
        alone = statistics.median(
            [(await scenario(Path(folder), reviews, iterations, False, run))["b_seconds"] for run in range(rounds)]
        )
        behind = await scenario(Path(folder), reviews, iterations, behind=True)
    ratio = behind["b_seconds"] / alone
    return {
        "reviews_by_a": reviews,
        "iterations": iterations,
        "b_alone_seconds": round(alone, 2),
        "b_behind_seconds": round(behind["b_seconds"], 2),
        "ratio": round(ratio, 2),
        "a_total_seconds": round(behind["a_total_seconds"], 2),
        "slices": behind["slices"],
        "goal": "ratio <= 2",
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reviews", type=int, default=50, help="reviews member A asks for at once")
    parser.add_argument("--iterations", type=int, default=100, help="playouts per position judged")
    parser.add_argument("--rounds", type=int, default=3, help="runs of B's review alone (the median is used)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args(argv)
    found = asyncio.run(measure(args.reviews, args.iterations, args.rounds))
    if args.json:
        print(json.dumps(found, indent=2))
        return
    print(
        f"B's review alone: {found['b_alone_seconds']} s; behind A's {found['reviews_by_a']}: "
        f"{found['b_behind_seconds']} s ({found['ratio']}x, goal <= 2x); "
        f"A's {found['reviews_by_a']} reviews took {found['a_total_seconds']} s in {found['slices']} slices"
    )


if __name__ == "__main__":
    main()
