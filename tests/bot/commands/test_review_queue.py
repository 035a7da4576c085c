"""``/analyse`` through the queue of background jobs: the place while waiting, the daily limits, a restart, and the
work done by another runner (another process) while the asker's message waits."""

from __future__ import annotations

import asyncio
from typing import Any

from ai.review import judge_saved
from bot.core.background import LEASE_SECONDS, BackgroundRunner, DailyLimit
from bot.core.reviews import REVIEW, moves_to_judge
from bot.ops.worker import background_runner
from bot.storage import Job
from bot.storage.job_store import ASKED, DONE
from tests.bot.commands.test_replay import finished_match
from tests.bot.commands.test_reviews import PNG_MAGIC, CountingWorkers
from tests.bot_world import ANA, BO, CY, DEE, World, only
from tests.harness import GUILD_ID, PARKED


def contents(world: World, kind: str = "edit-original") -> list[str]:
    return [str(c.payload["content"]) for c in world.recorder.calls if c.kind == kind and c.payload]  # type: ignore[index]


def posted_review(world: World, match_id: int, start: int = 0) -> bool:
    return any(c.kind == "edit-original" and f"review-{match_id}.png" in c.files for c in world.recorder.calls[start:])


async def test_analyse_shows_its_place_in_the_queue_then_the_review(world: World) -> None:
    first = await finished_match(world, 931, "pond", 2, {"variant": "mini"}, seed=1)
    second = await finished_match(world, 932, "pond", 2, {"variant": "mini"}, seed=2)
    mine = await finished_match(world, 933, "pond", 2, {"variant": "mini"}, seed=3)
    runner = world.bot.parts.runner
    # Bo and Cy asked first (queued straight into the store: nothing runs until Dee asks).
    now = world.clock()
    for owner, match_id in ((BO, first), (CY, second)):
        await world.bot.store.jobs.submit(REVIEW, GUILD_ID, owner.id, match_id, priority=ASKED, now=now)
    review = runner.handlers[REVIEW]
    shown = asyncio.Event()

    async def held(job: Job) -> bool:
        # Bo's first slice waits until Dee's message has shown its place: then everything runs.
        if not shown.is_set():
            for _ in range(500):
                if any("queued" in text for text in contents(world)):
                    break
                await asyncio.sleep(0.01)
            shown.set()
        return await review(job)

    runner.handlers[REVIEW] = held
    calls = await world.command(DEE, 933, "analyse", "", match=mine)
    assert calls[0].kind == "defer" and not calls[0].ephemeral
    edits = [str(c.payload["content"]) for c in calls if c.kind == "edit-original"]  # type: ignore[index]
    # Bo's job is running and Cy's waits before Dee's (all three have had nothing yet; theirs are older).
    assert edits[0] == "Your review is queued: 2 ahead of it."
    assert any(c.kind == "edit-original" and f"review-{mine}.png" in c.files for c in calls)
    for match_id in (first, second, mine):
        stored = await world.bot.store.reviews.get(match_id)
        assert stored is not None and stored.complete
    jobs = await world.bot.store.database.rows("SELECT owner_id, state FROM background_jobs ORDER BY id")
    assert jobs == [(BO.id, DONE), (CY.id, DONE), (DEE.id, DONE)]


async def test_over_the_daily_limit_a_member_is_told_privately_and_nothing_is_queued(world: World) -> None:
    games = [await finished_match(world, 940 + n, "pond", 2, {"variant": "mini"}, seed=n) for n in range(1, 4)]
    runner = world.bot.parts.runner
    runner.limits[REVIEW] = DailyLimit(member=1, server=2)
    await world.command(ANA, 941, "analyse", "", match=games[0])
    assert posted_review(world, games[0])
    # Asking again for the review made is no new ask: shown at once, counted nowhere.
    world.bot.reviews.maker.workers = CountingWorkers(world.bot.reviews.maker.workers, refuse=True)
    again = await world.command(ANA, 941, "analyse", "", match=games[0])
    assert any(c.kind == "edit-original" and f"review-{games[0]}.png" in c.files for c in again)
    world.bot.reviews.maker.workers = world.bot.reviews.maker.workers.inner
    refused = only(await world.command(ANA, 942, "analyse", "", match=games[1]), "reply")
    said = refused.payload["data"]["content"]  # type: ignore[index]
    assert refused.ephemeral and "1 review in the last 24 hours" in said and "<t:" in said
    assert str(int(world.clock() + 86_400)) in said  # a day after her first ask
    await world.command(BO, 942, "analyse", "", match=games[1])  # the server's second
    assert posted_review(world, games[1])
    refused = only(await world.command(CY, 943, "analyse", "", match=games[2]), "reply")
    said = refused.payload["data"]["content"]  # type: ignore[index]
    assert refused.ephemeral and "This server has asked for 2 reviews" in said
    rows = await world.bot.store.database.rows("SELECT subject FROM background_jobs ORDER BY id")
    assert [row[0] for row in rows] == games[:2]  # the refusals queued nothing
    assert await world.bot.store.reviews.get(games[2]) is None


async def test_a_review_running_when_the_bot_died_is_taken_again_and_goes_on_from_its_judgements(
    world: World,
) -> None:
    match_id = await finished_match(world, 951, "summer", 2, {"size": 4})
    rebuilt = await world.bot.replays.rebuilt(match_id, GUILD_ID)
    todo = moves_to_judge(rebuilt.states, rebuilt.game.plies)
    budget = world.bot.reviews.maker.budget("summer")
    # The dead process had judged three moves and held the job when it died.
    first = [judge_saved("summer", p.state.to_json(), p.move, budget, 1) for p in todo[:3]]
    await world.bot.store.reviews.save(match_id, budget, first, complete=False)
    store = world.bot.store
    job, _ = await store.jobs.submit(REVIEW, GUILD_ID, ANA.id, match_id, priority=ASKED, now=world.clock())
    held = await store.jobs.take("dead", [REVIEW], now=world.clock(), lease_seconds=LEASE_SECONDS)
    assert held is not None
    world = await world.restart()
    counting = CountingWorkers(world.bot.reviews.maker.workers)
    world.bot.reviews.maker.workers = counting
    # SQLite: the new process puts back what the last one left running.  PostgreSQL: another process may hold it,
    # so it waits for the lease to run out.
    world.clock.advance(LEASE_SECONDS + 1)
    await world.bot.parts.runner.start()
    start = len(world.recorder.calls)
    await world.command(BO, 951, "analyse", "", match=match_id)  # Bo joins the job and waits for it
    assert posted_review(world, match_id, start)
    assert counting.judged == len(todo) - 3
    stored = await world.bot.store.reviews.get(match_id)
    assert stored is not None and stored.complete and stored.judgements[:3] == tuple(first)
    after = await world.bot.store.jobs.get(job.id)
    assert after is not None and after.state == DONE and after.attempts == 1  # the lost run counted


async def test_the_asker_waits_for_a_review_another_process_makes(world: World) -> None:
    match_id = await finished_match(world, 961, "pond", 2, {"variant": "mini"}, seed=4)
    bot_runner = world.bot.parts.runner
    bot_runner.handlers.clear()  # this bot makes no reviews: another process (a worker) does
    bot_runner.poll_seconds = 0.05
    worker: BackgroundRunner = background_runner(
        world.bot.store, world.bot.reviews.maker.workers, iterations=world.bot.reviews.maker.iterations, name="w"
    )
    serving = asyncio.ensure_future(worker.serve(poll=0.05))
    PARKED.add(serving)  # the other process's loop: the command's settling does not wait for it
    try:
        calls = await world.command(ANA, 961, "analyse", "", match=match_id)
    finally:
        await worker.stop()
        await asyncio.gather(serving, return_exceptions=True)
        PARKED.discard(serving)
    review = [c for c in calls if c.kind == "edit-original" and f"review-{match_id}.png" in c.files]
    assert review and review[-1].files[f"review-{match_id}.png"].startswith(PNG_MAGIC)
    assert worker.slices >= 1
    rows = await world.bot.store.database.rows("SELECT taken_by, state FROM background_jobs")
    assert rows == [(None, DONE)]


async def test_a_review_that_failed_says_so(world: World) -> None:
    match_id = await finished_match(world, 971, "pond", 2, {"variant": "mini"}, seed=5)
    runner = world.bot.parts.runner

    async def broken(job: Job) -> Any:
        raise RuntimeError("the computer's workers are gone")

    runner.handlers[REVIEW] = broken
    calls = await world.command(ANA, 971, "analyse", "", match=match_id)
    assert "could not be reviewed" in str(calls[-1].payload["content"])  # type: ignore[index]
    rows = await world.bot.store.database.rows("SELECT state, attempts FROM background_jobs")
    assert rows == [("failed", 3)]
    assert await world.bot.store.reviews.get(match_id) is None
