"""A running Tabula bot on a real database (a SQLite file or PostgreSQL), with a fake Discord around it."""

from __future__ import annotations

import asyncio
import random
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import discord

from bot.client import TabulaBot
from bot.core import ratings
from bot.core.mining import MINE
from bot.core.puzzles import SHIPPED_SETS
from bot.settings import Settings
from bot.storage import MatchStore
from tests.harness import APP_ID, BOT_USER_ID, GUILD_ID, PARKED, Call, Discord, Person, Recorder, option, user_payload


class Clock:
    """A clock the tests move by hand."""

    def __init__(self, now: float = 1_800_000_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds


class Sleeper:
    """The announcer's sleep between retries: it records the delay and moves the clock, without waiting."""

    def __init__(self, clock: Clock) -> None:
        self.clock = clock
        self.delays: list[float] = []
        self.hold = False  # park every retry until released (or the bot stops): a long outage

    async def __call__(self, seconds: float) -> None:
        self.delays.append(seconds)
        if self.hold:
            task = asyncio.current_task()
            assert task is not None
            PARKED.add(task)
            try:
                await asyncio.Event().wait()  # until the bot stops and cancels it
            finally:
                PARKED.discard(task)
        self.clock.advance(seconds)
        await asyncio.sleep(0)


ANA = Person(100000000000000001, "Ana")
BO = Person(100000000000000002, "Bo")
CY = Person(100000000000000003, "Cy")
DEE = Person(100000000000000004, "Dee")
MOD = Person(100000000000000009, "Mod", admin=True)
ROBOT = Person(100000000000000010, "Robot", bot=True)
TABULA = Person(BOT_USER_ID, "Tabula", bot=True)


@dataclass
class World:
    """One bot process: its store, its client and the fake Discord it talks to."""

    database: str  # a SQLite file path or a PostgreSQL URL
    recorder: Recorder
    clock: Clock
    bot: TabulaBot
    discord: Discord
    seed: int
    sleeper: Sleeper
    mining: bool = False
    shipped: bool = False

    @classmethod
    async def start(
        cls,
        database: str | Path,
        recorder: Recorder,
        clock: Clock,
        seed: int = 7,
        *,
        threads: bool | None = False,
        mining: bool = False,
        shipped: bool = False,
    ) -> World:
        """Start a bot on ``database`` (a SQLite path or a PostgreSQL URL).  ``threads``: the test server's
        thread-per-match setting (the older tests play in the channel, as a server with threads turned off does;
        ``None`` leaves it as stored).  ``mining``: finished matches are mined for puzzles, as the bot does by
        default (off in the tests that are not about it: mining would search every finished test game).
        ``shipped``: the shipped puzzle sets are loaded at start, as the bot does (off: tests load the puzzles they
        need, so what a test sees does not change when the shipped sets do)."""
        path = str(database)
        store = await MatchStore.open(path, rating=ratings, finish_jobs=(MINE,) if mining else ())
        if threads is not None:
            await store.settings.change(GUILD_ID, threads=threads)
        sleeper = Sleeper(clock)
        bot = TabulaBot(
            Settings(database=path, render_processes=0, ai_processes=0, puzzle_mining=mining),
            store=store,
            clock=clock,
            rng=random.Random(seed),
            computer_iterations=400 if mining else 40,  # mining finds a win at once in a few hundred playouts
            puzzle_sets=SHIPPED_SETS if shipped else None,
            sleep=sleeper,
        )
        await bot._async_setup_hook()  # binds the loop, as discord.py does at login
        bot._connection.application_id = APP_ID
        # What READY would tell the bot about itself.
        bot._connection.user = discord.ClientUser(
            state=bot._connection, data=user_payload(BOT_USER_ID, "Tabula", bot=True)
        )
        await bot.prepare()
        return cls(path, recorder, clock, bot, Discord(bot, recorder), seed, sleeper, mining, shipped)

    async def restart(self) -> World:
        """Stop this bot and start a new one on the same database (a crash loses nothing committed)."""
        await self.stop()
        return await World.start(
            self.database,
            self.recorder,
            self.clock,
            self.seed + 1,
            threads=None,
            mining=self.mining,
            shipped=self.shipped,
        )

    async def stop(self) -> None:
        await self.bot.close()

    # -- conveniences ---------------------------------------------------------------

    async def command(self, person: Person, channel: int, group: str, sub: str, **options: Any) -> list[Call]:
        users = [v for v in options.values() if isinstance(v, Person)]
        opts = [
            option(name.rstrip("_"), str(value.id), kind=6)
            if isinstance(value, Person)
            else option(name.rstrip("_"), value)
            for name, value in options.items()
        ]
        return await self.discord.command(person, channel, group, sub, opts, users=users)

    async def challenge(self, challenger: Person, opponent: Person, channel: int, **options: Any) -> Call:
        calls = await self.command(challenger, channel, "pond", "start", opponent=opponent, **options)
        replies = [c for c in calls if c.kind == "reply"]
        assert len(replies) == 1, calls
        return replies[0]

    async def start_pond(self, channel: int, **options: Any) -> tuple[Person, Person]:
        """Ana challenges Bo and Bo accepts; return (light, dark)."""
        reply = await self.challenge(ANA, BO, channel, **options)
        accept = next(cid for cid in reply.custom_ids if ":accept:" in cid)
        calls = await self.discord.press(BO, channel, accept)
        assert any(c.kind == "message" and c.board for c in calls), calls
        return await self.seats(channel)

    async def seats(self, channel: int) -> tuple[Person, ...]:
        """The people playing the channel's running match, in seat order."""
        record = await self.bot.service.store.open_match(channel)
        assert record is not None and record.status == "active"
        by_id = {p.id: p for p in (ANA, BO, CY, DEE, MOD)}
        return tuple(by_id[seat.user_id] for seat in record.players)


def only(calls: list[Call], kind: str) -> Call:
    """The one call of ``kind`` among ``calls``."""
    found = [c for c in calls if c.kind == kind]
    assert len(found) == 1, f"expected one {kind}, got {[c.kind for c in calls]}"
    return found[0]
