"""Sweeps on time: background work wakes for the next thing due, not on a fixed beat.

The database says when each kind of work is next due in one query; writes that make something due
sooner wake the sweeper; a reminder of a short turn is posted within 2 s of its time; a kind whose
items keep failing rests instead of being polled; an idle bot sleeps.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass

import pytest

from bot.shards import Shards
from bot.sweeper import MAX_SLEEP, RETRY_SECONDS, SLACK, Sweeper
from tests.bot_world import ANA, BO, Clock, World
from tests.harness import Recorder, install, settle

TURN = 36.0  # TABULA_TURN_HOURS=0.01, the shortest the bot allows


def reminders(world: World, channel: int) -> list[object]:
    return [c for c in world.recorder.created if c.kind == "message" and "⏰" in c.content and f"/{channel}/" in c.path]


async def test_the_database_names_when_each_kind_of_work_is_next_due(world: World) -> None:
    world.bot.service.core.turn_seconds = TURN
    extras = world.bot.store.extras
    now = world.clock()
    assert await extras.next_due(now) == type(await extras.next_due(now))(None, None, None, None, None)
    await world.challenge(ANA, BO, 3101)
    challenge = await world.bot.store.matches.open_match(3101)
    assert challenge is not None and (await extras.next_due(now)).challenges == challenge.deadline
    await world.start_pond(3102)
    due = await extras.next_due(now)
    assert due.reminders == pytest.approx(now + 0.75 * TURN)  # a quarter of the turn left
    assert due.endings == pytest.approx(now + 2 * TURN)  # the deadline passed by a turn again
    # Exact within the horizon asked about; beyond it, the query may stop looking (no full scans).
    assert (await extras.next_due(now, horizon=10)).endings in (None, pytest.approx(now + 2 * TURN))
    world.clock.advance(0.75 * TURN)
    await world.bot.reminders.sweep()
    await settle()
    assert len(reminders(world, 3102)) == 1
    assert (await extras.next_due(world.clock())).reminders is None  # this turn was reminded


async def test_shards_keep_their_own_filter(world: World) -> None:
    world.bot.service.core.turn_seconds = TURN
    await world.start_pond(3103)
    matches = world.bot.store.matches
    record = await matches.open_match(3103)
    assert record is not None
    mine = Shards.parse("0/2") if Shards((0,), 2).shard_of(record.guild_id) == 0 else Shards.parse("1/2")
    other = Shards((1 - mine.ids[0],), 2)
    matches.shards = other
    assert (await world.bot.store.extras.next_due(world.clock())).reminders is None
    matches.shards = mine
    assert (await world.bot.store.extras.next_due(world.clock())).reminders is not None


@dataclass
class Due:
    challenges: float | None = None
    reminders: float | None = None
    endings: float | None = None
    outbox: float | None = None
    archives: float | None = None


class Fake:
    """A database answer the test sets, and the work it records."""

    def __init__(self) -> None:
        self.due = Due()
        self.queries = 0
        self.ran: list[str] = []

    async def next_due(self, now: float) -> Due:
        self.queries += 1
        return self.due

    def job(self, kind: str):  # type: ignore[no-untyped-def]
        async def work() -> None:
            self.ran.append(kind)

        return work


def sweeper_over(fake: Fake, clock: Clock) -> Sweeper:
    kinds = ("challenges", "reminders", "endings", "outbox", "archives")
    return Sweeper(fake.next_due, {kind: fake.job(kind) for kind in kinds}, clock=clock)


async def test_a_36_second_turn_wakes_the_sweeper_at_its_reminder_with_one_query() -> None:
    clock, fake = Clock(), Fake()
    sweeper = sweeper_over(fake, clock)
    start = clock()
    fake.due = Due(reminders=start + 0.75 * TURN, endings=start + 2 * TURN)
    assert await sweeper.step() == pytest.approx(0.75 * TURN + SLACK)
    assert fake.queries == 1 and fake.ran == []
    clock.advance(0.75 * TURN + SLACK)
    assert await sweeper.step() == 0.0  # the reminder ran; ask again at once
    assert fake.ran == ["reminders"]
    fake.due = Due(endings=start + 2 * TURN)
    assert await sweeper.step() == pytest.approx(1.25 * TURN)


async def test_nothing_due_sleeps_a_minute_and_a_write_wakes_it_sooner() -> None:
    clock, fake = Clock(), Fake()
    sweeper = sweeper_over(fake, clock)
    sweeper.start()
    await asyncio.sleep(0.01)
    assert fake.queries == 1 and sweeper.wake_at == pytest.approx(clock() + MAX_SLEEP)
    fake.due = Due(challenges=clock() - 1)  # a write says a challenge is due now
    sweeper.due_at(clock() - 1)
    await asyncio.sleep(0.01)
    assert fake.ran == ["challenges"]
    await sweeper.stop()


async def test_a_write_during_the_query_is_not_lost() -> None:
    clock, fake = Clock(), Fake()
    sweeper = sweeper_over(fake, clock)

    async def slow(now: float) -> Due:
        sweeper.due_at(now + 5)  # a move commits while the query runs: its answer may not include it
        return Due()

    sweeper.next_due = slow
    delay = await sweeper.step()
    await sweeper._sleep(0) if False else None
    assert delay == MAX_SLEEP
    sweeper._stopping = True  # only compute the wake time
    await sweeper._sleep(delay)
    assert sweeper.wake_at == pytest.approx(clock() + 5)


async def test_a_kind_that_stays_due_rests_instead_of_being_polled() -> None:
    clock, fake = Clock(), Fake()
    sweeper = sweeper_over(fake, clock)
    stuck = clock() - 10
    fake.due = Due(outbox=stuck)  # an announcement that fails every time
    assert await sweeper.step() == 0.0 and fake.ran == ["outbox"]
    delay = await sweeper.step()  # still due from before it ran: rest
    assert fake.ran == ["outbox"] and delay == pytest.approx(RETRY_SECONDS + SLACK)
    clock.advance(RETRY_SECONDS + SLACK)
    assert await sweeper.step() == 0.0 and fake.ran == ["outbox", "outbox"]


@pytest.mark.slow  # waits on the real clock for the reminder, about three seconds
async def test_a_reminder_of_a_short_turn_is_posted_within_2_seconds_of_its_time(
    tmp_path: object, monkeypatch: pytest.MonkeyPatch
) -> None:
    class Now(Clock):
        def __call__(self) -> float:
            return time.time()

        def advance(self, seconds: float) -> None:
            return None

    recorder = Recorder()
    install(monkeypatch, recorder)
    world = await World.start(f"{tmp_path}/tabula.sqlite3", recorder, Now())
    try:
        world.bot.service.core.turn_seconds = 4.0  # the mechanism is the same for any turn: a reminder 3 s in
        world.bot.sweeper.start()
        await world.start_pond(3104)
        record = await world.bot.store.matches.open_match(3104)
        assert record is not None and record.deadline is not None
        due = (3 * record.deadline + record.updated_at) / 4
        wakes = world.bot.sweeper.wakes
        while not reminders(world, 3104) and time.time() < due + 5:
            await asyncio.sleep(0.01)
        posted = time.time()
        assert reminders(world, 3104), "no reminder"
        assert 0 <= posted - due < 2.0, f"the reminder came {posted - due:.2f} s after its time"
        assert world.bot.sweeper.wakes - wakes <= 6  # woken for the work due, never polling
    finally:
        await world.stop()


async def test_a_longer_turn_started_later_still_has_its_reminder_found(world: World) -> None:
    extras, service = world.bot.store.extras, world.bot.service
    service.core.turn_seconds = TURN
    await world.start_pond(3105)
    await extras.next_due(world.clock())  # the longest turn is read now: 36 s
    service.core.turn_seconds = 3600.0  # then a server gives an hour a turn
    await world.start_pond(3106)
    record = await world.bot.store.matches.open_match(3106)
    assert record is not None and world.bot.store.matches.longest_turn == pytest.approx(3600.0)
    world.clock.advance(0.75 * 3600)
    due = await extras.due_reminders(world.clock())
    assert record.id in [found.id for found in due]
