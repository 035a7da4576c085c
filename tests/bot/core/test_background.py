"""The background runner: fair slices between members, failures that never stop it, waking, following, stopping."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot.core.background import BackgroundRunner, DailyLimit
from bot.storage import DailyLimitReached, Job, MatchStore
from bot.storage.job_store import ASKED, DONE, FAILED, QUEUED, RUNNING, UNASKED
from tests.bot_world import Clock

ANA, BO = 11, 12
GUILD = 7


class Slices:
    """A handler whose jobs need ``slices`` slices each; it records who was served, in order, and each slice
    takes ``seconds`` on the fake timer."""

    def __init__(self, timer: Clock, slices: int = 3, seconds: float = 1.0) -> None:
        self.timer = timer
        self.slices = slices
        self.seconds = seconds
        self.served: list[tuple[int, int]] = []  # (owner, subject) per slice
        self.fail: set[int] = set()  # subjects whose slices raise

    async def __call__(self, job: Job) -> bool:
        self.timer.advance(self.seconds)
        if job.subject in self.fail:
            raise RuntimeError(f"slice of {job.subject} broke")
        self.served.append((job.owner_id, job.subject))
        return sum(1 for _, subject in self.served if subject == job.subject) >= self.slices


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[MatchStore]:
    opened = await MatchStore.open(str(tmp_path / "jobs.sqlite3"))
    yield opened
    await opened.close()


def runner_over(store: MatchStore, handler: Slices, clock: Clock, **options: Any) -> BackgroundRunner:
    return BackgroundRunner(store.jobs, {"review": handler}, clock=clock, timer=handler.timer, name="test", **options)


async def test_one_review_asked_after_fifty_waits_for_a_slice_not_for_fifty_reviews(store: MatchStore) -> None:
    clock, timer = Clock(), Clock(0.0)
    handler = Slices(timer)
    runner = runner_over(store, handler, clock)
    # Queued straight into the store, so that the runner only works when the test says so.
    for match in range(1, 51):
        await store.jobs.submit("review", GUILD, ANA, match, priority=ASKED, now=clock())
    first = await runner.step()  # Ana's first review has one slice before Bo asks
    assert first is not None and first.owner_id == ANA and first.state == QUEUED and first.served == 1.0
    bo, _ = await store.jobs.submit("review", GUILD, BO, 99, priority=ASKED, now=clock())
    await runner.drain()
    # Bo's three slices come straight after Ana's first (he has one job waiting, she fifty): his review is done
    # three slices after he asked, as alone, not after Ana's fifty reviews.
    assert handler.served[:5] == [(ANA, 1), (BO, 99), (BO, 99), (BO, 99), (ANA, 1)]
    finished = await store.jobs.get(bo.id)
    assert finished is not None and finished.state == DONE and finished.served == 3.0
    # Ana's fifty are made one after another, each to the end: never two of hers running at once.
    anas = [subject for owner, subject in handler.served if owner == ANA]
    assert anas == sorted(anas) and len(anas) == 150 and runner.slices == 153


async def test_asked_work_goes_before_work_nobody_asked_for(store: MatchStore) -> None:
    clock, timer = Clock(), Clock(0.0)
    handler = Slices(timer, slices=1)
    runner = BackgroundRunner(store.jobs, {"review": handler, "mine": handler}, clock=clock, timer=timer)
    await runner.submit("mine", GUILD, 0, 1, asked=False)
    clock.advance(10)
    await runner.submit("review", GUILD, ANA, 2, asked=True)
    await runner.drain()
    assert handler.served == [(ANA, 2), (0, 1)]


async def test_a_failing_slice_is_tried_again_then_fails_and_the_runner_goes_on(
    store: MatchStore, caplog: pytest.LogCaptureFixture
) -> None:
    clock, timer = Clock(), Clock(0.0)
    handler = Slices(timer, slices=1)
    handler.fail.add(1)
    runner = runner_over(store, handler, clock, max_attempts=3)
    broken = await runner.submit("review", GUILD, ANA, 1, asked=True)
    fine = await runner.submit("review", GUILD, BO, 2, asked=True)
    with caplog.at_level(logging.ERROR, logger="bot.core.background"):
        await runner.drain()
    failed, done = await store.jobs.get(broken.id), await store.jobs.get(fine.id)
    assert failed is not None and failed.state == FAILED and failed.attempts == 3 and failed.served == 3.0
    assert done is not None and done.state == DONE
    assert sum("slice of background job" in r.getMessage() for r in caplog.records) == 3
    assert any("given up" in r.getMessage() for r in caplog.records)


async def test_a_submit_wakes_the_runner_and_a_follower_sees_the_job_to_its_end(store: MatchStore) -> None:
    clock, timer = Clock(), Clock(0.0)
    handler = Slices(timer, slices=2)
    runner = runner_over(store, handler, clock)
    job = await runner.submit("review", GUILD, ANA, 5, asked=True)
    seen = [now.state async for now in runner.follow(job.id, poll=30.0)]  # woken by the runner, not the poll
    assert seen[-1] == DONE and set(seen) <= {QUEUED, RUNNING, DONE}
    assert handler.served == [(ANA, 5), (ANA, 5)]
    joined = await runner.submit("review", GUILD, BO, 5, asked=True)
    assert joined.id != job.id  # the finished job is not joined: a new one (the review itself says it is made)
    await asyncio.wait_for(runner.stop(), 5)


async def test_stopping_puts_the_job_in_hand_back(store: MatchStore) -> None:
    clock = Clock()
    entered, release = asyncio.Event(), asyncio.Event()

    async def endless(job: Job) -> bool:
        entered.set()
        await release.wait()
        return True

    runner = BackgroundRunner(store.jobs, {"review": endless}, clock=clock)
    job = await runner.submit("review", GUILD, ANA, 5, asked=True)
    await asyncio.wait_for(entered.wait(), 5)
    held = await store.jobs.get(job.id)
    assert held is not None and held.state == RUNNING and held.taken_by == runner.name
    await asyncio.wait_for(runner.stop(), 5)
    back = await store.jobs.get(job.id)
    assert back is not None and back.state == QUEUED and back.attempts == 0
    runner.wake()  # a stopped runner takes nothing more
    await asyncio.sleep(0.05)
    assert not release.is_set() and (await store.jobs.get(job.id)).state == QUEUED  # type: ignore[union-attr]


async def test_the_daily_limits_bind_asked_work_only(store: MatchStore) -> None:
    clock, timer = Clock(), Clock(0.0)
    runner = runner_over(store, Slices(timer), clock, limits={"review": DailyLimit(member=1, server=5)})
    await runner.stop()  # queue only: nothing is taken in this test
    await runner.submit("review", GUILD, ANA, 1, asked=True)
    with pytest.raises(DailyLimitReached):
        await runner.submit("review", GUILD, ANA, 2, asked=True)
    assert (await runner.submit("review", GUILD, ANA, 1, asked=True)).subject == 1  # joining is free
    await runner.submit("review", GUILD, 0, 3, asked=False)  # work nobody asked for has no limit
    await runner.submit("review", GUILD, 0, 4, asked=False)


async def test_a_serving_runner_takes_what_another_process_queued(store: MatchStore) -> None:
    clock, timer = Clock(), Clock(0.0)
    handler = Slices(timer, slices=1)
    worker = runner_over(store, handler, clock)
    bot = BackgroundRunner(store.jobs, {}, clock=clock)  # a process that queues reviews and does none
    serving = asyncio.ensure_future(worker.serve(poll=0.02))
    try:
        job = await bot.submit("review", GUILD, ANA, 8, asked=True)
        states = [now.state async for now in bot.follow(job.id, poll=0.02)]  # the other process is polled
        assert states[-1] == DONE and handler.served == [(ANA, 8)]
    finally:
        await asyncio.wait_for(worker.stop(), 5)
    assert serving.done()


async def test_after_a_slice_nobody_asked_for_the_runner_rests_unless_woken(store: MatchStore) -> None:
    clock, timer = Clock(), Clock(0.0)
    handler = Slices(timer, slices=2)
    runner = BackgroundRunner(store.jobs, {"mine": handler}, clock=clock, timer=timer, unasked_rest=0.2)
    await runner.submit("mine", GUILD, 0, 1, asked=False)
    started = time.perf_counter()
    await runner.drain()
    assert handler.served == [(0, 1), (0, 1)]
    assert time.perf_counter() - started >= 0.35  # it rested after each slice of mining
    runner.unasked_rest = 30.0
    await store.jobs.submit("mine", GUILD, 0, 2, priority=UNASKED, now=clock())
    draining = asyncio.ensure_future(runner.drain())
    while len(handler.served) < 3:
        await asyncio.sleep(0.01)
    await asyncio.sleep(0.1)
    assert len(handler.served) == 3  # resting
    await runner.submit("mine", GUILD, 0, 3, asked=False)  # a submit wakes it from its rest at once
    for _ in range(100):
        if len(handler.served) > 3:
            break
        await asyncio.sleep(0.01)
    assert len(handler.served) > 3
    await runner.stop()
    draining.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await draining
