"""The queue of background jobs on both backends: joins, the fair take, leases, attempts, daily limits."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest

from bot.storage import DailyLimitReached, Jobs, MatchStore
from bot.storage.job_store import ASKED, DAY, FAILED, KEEP_SECONDS, QUEUED, RUNNING, UNASKED

ANA, BO, CY = 11, 12, 13
GUILD, OTHER_GUILD = 7, 8
NOW = 1_800_000_000.0
LEASE = 60.0


@pytest.fixture
async def jobs(database: str) -> AsyncIterator[Jobs]:
    store = await MatchStore.open(database)
    yield store.jobs
    await store.close()


async def review(jobs: Jobs, owner: int, subject: int, now: float = NOW, **limits: int) -> int:
    job, joined = await jobs.submit("review", GUILD, owner, subject, priority=ASKED, now=now, **limits)
    assert not joined
    return job.id


async def serve(jobs: Jobs, worker: str, seconds: float, *, now: float = NOW, complete: bool = False) -> int:
    """Take the next job, give it ``seconds`` of work, put it back (or finish it); return its subject."""
    job = await jobs.take(worker, ["review", "mine"], now=now, lease_seconds=LEASE)
    assert job is not None and job.state == RUNNING and job.taken_by == worker
    assert await jobs.finish_slice(job, worker, seconds, complete, now=now) is not None
    return job.subject


async def test_asking_again_for_work_waiting_or_running_joins_it(jobs: Jobs) -> None:
    first, joined = await jobs.submit("review", GUILD, ANA, 100, priority=ASKED, now=NOW)
    assert not joined and first.state == QUEUED and first.owner_id == ANA and first.served == 0
    again, joined = await jobs.submit("review", GUILD, BO, 100, priority=ASKED, now=NOW + 1)
    assert joined and again == first  # Bo waits for Ana's job; it stays Ana's
    other, joined = await jobs.submit("mine", GUILD, 0, 100, priority=UNASKED, now=NOW)
    assert not joined and other.id != first.id  # another kind of work on the same subject is another job
    taken = await jobs.take("w", ["review"], now=NOW, lease_seconds=LEASE)
    assert taken is not None and taken.id == first.id
    assert (await jobs.submit("review", GUILD, CY, 100, priority=ASKED, now=NOW))[0].id == first.id  # running
    await jobs.finish_slice(taken, "w", 1.0, True, now=NOW)
    afresh, joined = await jobs.submit("review", GUILD, CY, 100, priority=ASKED, now=NOW)
    assert not joined and afresh.id != first.id  # a finished job is not joined: asked again, it is made again


async def test_the_member_with_fewer_jobs_goes_first_then_less_usage_then_the_oldest(jobs: Jobs) -> None:
    for match in range(1, 6):
        await review(jobs, ANA, match, NOW + match)  # Ana asks for five
    await review(jobs, BO, 50, NOW + 10)  # then Bo for one
    assert await serve(jobs, "w", 2.0) == 50  # Bo has one job waiting, Ana five: Bo's goes first
    assert await serve(jobs, "w", 2.0) == 50  # and again, whatever Bo has used, while Ana has more waiting
    assert await serve(jobs, "w", 1.0, complete=True) == 50
    assert await serve(jobs, "w", 1.0) == 1  # then Ana's, the oldest first
    await review(jobs, CY, 60, NOW + 20)
    await review(jobs, CY, 61, NOW + 21)
    await review(jobs, CY, 62, NOW + 22)
    await review(jobs, CY, 63, NOW + 23)
    await review(jobs, CY, 64, NOW + 24)  # Cy now has as many waiting as Ana (five each)
    assert await serve(jobs, "w", 1.0) == 60  # the same number waiting: Cy has used nothing, Ana 1 s
    assert await serve(jobs, "w", 1.0) == 1  # Ana 1 s, Cy 1 s: the oldest (Ana's first, put back)
    assert await jobs.usage(BO, now=NOW) == 5.0 and await jobs.usage(ANA, now=NOW) == 2.0
    # Usage is the last day's: a day later, nobody's old work counts.
    assert await jobs.usage(BO, now=NOW + DAY + 1) == 0.0


async def test_asked_work_goes_before_work_nobody_asked_for(jobs: Jobs) -> None:
    await jobs.submit("mine", GUILD, 0, 1, priority=UNASKED, now=NOW - 100)
    await review(jobs, ANA, 2)
    assert await serve(jobs, "w", 50.0) == 2  # Ana's review, although the mining waited longer
    assert await serve(jobs, "w", 0.5, complete=True) == 2  # Ana has had 50 s, nobody 0 s: still the asked work
    assert await serve(jobs, "w", 1.0) == 1  # only then the mining


async def test_a_member_has_one_job_running_at_a_time(jobs: Jobs) -> None:
    await review(jobs, ANA, 1)
    await review(jobs, ANA, 2)
    first = await jobs.take("w1", ["review"], now=NOW, lease_seconds=LEASE)
    assert first is not None and first.subject == 1
    assert await jobs.take("w2", ["review"], now=NOW, lease_seconds=LEASE) is None  # Ana's second waits
    await review(jobs, BO, 3)
    bo = await jobs.take("w2", ["review"], now=NOW, lease_seconds=LEASE)
    assert bo is not None and bo.owner_id == BO
    # Work nobody asked for is not bound by this: two mining jobs may run at once.
    await jobs.submit("mine", GUILD, 0, 4, priority=UNASKED, now=NOW)
    await jobs.submit("mine", GUILD, 0, 5, priority=UNASKED, now=NOW)
    mined = [await jobs.take(w, ["mine"], now=NOW, lease_seconds=LEASE) for w in ("w3", "w4")]
    assert {job.subject for job in mined if job is not None} == {4, 5}


async def test_a_job_whose_lease_ran_out_is_taken_again_and_counts_an_attempt(jobs: Jobs) -> None:
    await review(jobs, ANA, 1)
    held = await jobs.take("dead", ["review"], now=NOW, lease_seconds=LEASE)
    assert held is not None and held.attempts == 0 and held.lease_until == NOW + LEASE
    assert await jobs.take("alive", ["review"], now=NOW + LEASE - 1, lease_seconds=LEASE) is None
    assert await jobs.next_due(["review"]) == NOW + LEASE
    again = await jobs.take("alive", ["review"], now=NOW + LEASE, lease_seconds=LEASE)
    assert again is not None and again.id == held.id and again.taken_by == "alive" and again.attempts == 1
    # The dead runner's late report changes nothing: the job is no longer its.
    assert await jobs.finish_slice(held, "dead", 5.0, True, now=NOW + LEASE) is None
    assert (await jobs.get(held.id)) == again


async def test_a_failing_job_is_put_back_then_fails_after_its_attempts(jobs: Jobs) -> None:
    await review(jobs, ANA, 1)
    for attempt in (1, 2, 3):
        job = await jobs.take("w", ["review"], now=NOW, lease_seconds=LEASE)
        assert job is not None
        after = await jobs.fail_slice(job, "w", 0.5, now=NOW + attempt, max_attempts=3)
        assert after is not None and after.attempts == attempt
        assert after.state == (FAILED if attempt == 3 else QUEUED)
    assert after.finished_at == NOW + 3 and after.served == 1.5
    assert await jobs.take("w", ["review"], now=NOW, lease_seconds=LEASE) is None


async def test_the_daily_limits_refuse_and_change_nothing(jobs: Jobs) -> None:
    for match in (1, 2):
        await review(jobs, ANA, match, NOW + match, member_limit=2, server_limit=3)
    with pytest.raises(DailyLimitReached) as refused:
        await jobs.submit("review", GUILD, ANA, 3, priority=ASKED, now=NOW + 10, member_limit=2, server_limit=3)
    assert refused.value.scope == "member" and refused.value.limit == 2 and refused.value.again_at == NOW + 1 + DAY
    # Joining a job already queued is never refused, and does not count.
    joined, was_joined = await jobs.submit(
        "review", GUILD, ANA, 1, priority=ASKED, now=NOW + 10, member_limit=2, server_limit=3
    )
    assert was_joined and joined.subject == 1
    await review(jobs, BO, 4, NOW + 5, member_limit=2, server_limit=3)  # the server's third
    with pytest.raises(DailyLimitReached) as refused:
        await jobs.submit("review", GUILD, CY, 5, priority=ASKED, now=NOW + 10, member_limit=2, server_limit=3)
    assert refused.value.scope == "server" and refused.value.limit == 3
    await review(jobs, CY, 5, NOW + 10, member_limit=2, server_limit=3 + 1)  # another limit: another answer
    # Nothing was written by the refusals: Cy's job is the only one with subject 5, and subject 3 has none.
    rows = await jobs.database.rows("SELECT subject FROM background_jobs ORDER BY id")
    assert [row[0] for row in rows] == [1, 2, 4, 5]
    # Another server's limit is its own; and a day after Ana's first, she may ask again.
    await jobs.submit("review", OTHER_GUILD, CY, 6, priority=ASKED, now=NOW + 10, server_limit=1)
    await review(jobs, ANA, 7, NOW + 1 + DAY + 1, member_limit=2)


async def test_the_place_in_the_queue_counts_what_goes_first(jobs: Jobs) -> None:
    for match in (1, 2, 3):
        await review(jobs, ANA, match, NOW + match)
    await serve(jobs, "w", 4.0)  # Ana has used 4 s
    bo = await review(jobs, BO, 9, NOW + 20)
    job = await jobs.get(bo)
    assert job is not None
    assert await jobs.ahead(job, now=NOW) == 0  # Bo has used nothing: his goes first
    running = await jobs.take("w", ["review"], now=NOW, lease_seconds=LEASE)
    assert running is not None and running.owner_id == BO
    ana = await jobs.get(3)
    assert ana is not None and await jobs.ahead(ana, now=NOW) == 3  # Bo's running, then Ana's first and second


async def test_release_and_orphans_put_running_jobs_back(jobs: Jobs) -> None:
    await review(jobs, ANA, 1)
    await review(jobs, BO, 2)
    held = await jobs.take("stopping", ["review"], now=NOW, lease_seconds=LEASE)
    assert held is not None
    assert await jobs.release("stopping") == 1
    back = await jobs.get(held.id)
    assert back is not None and back.state == QUEUED and back.taken_by is None and back.attempts == 0
    await jobs.take("crashed", ["review"], now=NOW, lease_seconds=LEASE)
    orphans = await jobs.release_orphans()
    if jobs.database.dialect == "sqlite":
        assert orphans == 1  # one process per file: whatever is running was the last process's
    else:
        assert orphans == 0  # another process may hold it: its lease decides


async def test_finished_jobs_are_forgotten_after_two_days(jobs: Jobs) -> None:
    await review(jobs, ANA, 1)
    await serve(jobs, "w", 1.0, complete=True)
    await review(jobs, ANA, 2)
    assert await jobs.prune(now=NOW + KEEP_SECONDS - 1) == 0
    assert await jobs.prune(now=NOW + KEEP_SECONDS + 1) == 1
    kept = await jobs.get(2)
    assert await jobs.get(1) is None and kept is not None and kept.state == QUEUED


async def test_runners_on_postgresql_never_take_the_same_job(postgres_database: str) -> None:
    """Four runners, each on its own pool (as processes on other machines), take 40 jobs of 20 members at once."""
    stores = [await MatchStore.open(postgres_database, connections=2) for _ in range(4)]
    try:
        for match in range(40):
            await review(stores[0].jobs, 100 + match % 20, match)
        taken: dict[str, list[int]] = {}

        async def runner(name: str, jobs: Jobs) -> None:
            mine = taken.setdefault(name, [])
            while True:
                job = await jobs.take(name, ["review"], now=NOW, lease_seconds=LEASE)
                if job is None:
                    if sum(len(ids) for ids in taken.values()) == 40:
                        return
                    await asyncio.sleep(0.01)  # the rest belong to members whose job is running elsewhere
                    continue
                running = await jobs.database.rows(
                    "SELECT COUNT(*) FROM background_jobs WHERE owner_id = ? AND state = 'running'", (job.owner_id,)
                )
                assert running[0][0] == 1
                mine.append(job.id)
                await asyncio.sleep(0.005)
                assert await jobs.finish_slice(job, name, 0.005, True, now=NOW) is not None

        await asyncio.wait_for(asyncio.gather(*(runner(f"r{n}", s.jobs) for n, s in enumerate(stores))), 60)
        every = [job for ids in taken.values() for job in ids]
        assert len(every) == len(set(every)) == 40
        assert sum(1 for ids in taken.values() if ids) >= 2  # the work was really shared
    finally:
        for store in stores:
            await store.close()
