"""The full turn path under load, and a reliability check at the same time.

A move arrives as a Discord-shaped interaction and goes through discord.py's
real command tree, the match service, the SQLite transaction, the engine and
the renderer (in a worker thread), to the follow-up handed to the HTTP layer,
which a recorder replaces (as in the bot's tests).  The database is a SQLite file, or
PostgreSQL: ``--database URL`` (a server where the benchmark may create databases) or
``--database postgresql`` (a throwaway server started from this machine's binaries) runs every
scenario on SQLite and on PostgreSQL side by side and reports the ratios: p99 of the turn path
at 100 matches (goal: PostgreSQL within 1.5x of SQLite) and moves per second at 1,000.  With 1, 100 and 1,000
Pond matches in play at once in one bot process, every match has a player who
moves as soon as the previous move's board arrives.  Reported: median and p99
latency per move, moves per second, the longest event-loop stall, memory per
active match, and database bytes per finished match.  Afterwards every match's
stored state must equal the replay of its move log, with no move applied twice
or lost.

    python -m bench.load [--matches 1 100 1000] [--seconds 10] [--quick] [--database sqlite|postgresql|URL]
    python -m bench.load --threads 400 4 [--seconds 10]   # many matches in few channels, a thread each

``--due`` runs the reminders-and-endings scenario instead (:func:`due_while_moving`): matches
whose players have walked away fall due for their reminder and then their automatic ending
(a short turn time makes both happen within the run) while the other matches keep moving, and the
background sweep runs as the bot runs it; reported are the same latencies and loop stall, the
reminders posted and the games ended, checked against the database (each reminder posted once).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import os
import random
import statistics
import tempfile
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from bench.discord_fake import APP_ID, BOT_USER_ID, Discord, Person, Recorder, install, option, user_payload
from bench.pgserver import create_database, drop_database, throwaway_server
from bot.client import TabulaBot, settle_memory
from bot.core import ratings
from bot.core.mining import MINE
from bot.settings import Settings
from bot.shards import Shards
from bot.storage import MatchStore, NoticeKind, Seat

if TYPE_CHECKING:
    import discord
    from discord.types.gateway import InteractionCreateEvent
    from discord.types.user import User as UserPayload

GUILD_PLAYERS = 4000
RENDER_PROCESSES = 2  # as the bot runs by default (TABULA_RENDER_PROCESSES)


class LoadRecorder(Recorder):
    """A recorder that keeps no history, only wakes whoever waits for an interaction's final answer."""

    def __init__(self) -> None:
        super().__init__()
        self.keep_state = False
        self.waiters: dict[str, asyncio.Future[str]] = {}
        self.steps: set[str] = set()  # tokens of presses on private steps (their answer may be an edit)

    def expect(self, token: str) -> asyncio.Future[str]:
        future: asyncio.Future[str] = asyncio.get_running_loop().create_future()
        self.waiters[token] = future
        return future

    async def webhook_request(self, route: Any, session: Any = None, **kwargs: Any) -> Any:
        path = route.path_for_recording
        body, _ = self._decode(kwargs.get("payload"), kwargs.get("multipart"), None, None)
        token = path.split("/")[3]
        final = None
        if path.startswith("/webhooks/") and route.method == "POST":
            final = "followup"
        elif path.endswith("/callback") and body.get("type") == 4:
            final = "refused"
        elif path.endswith("/callback") and body.get("type") == 7:
            final = "edited"  # a private step answered in place (moves by taps)
        elif path.endswith("/messages/@original") and route.method == "PATCH" and token in self.steps:
            final = "edited"  # a private step's preview, drawn after a deferred answer
        if final is not None:
            waiter = self.waiters.pop(token, None)
            if waiter is not None and not waiter.done():
                waiter.set_result(final)
        return self._respond(route.method, path, body)

    async def http_request(self, route: Any, **kwargs: Any) -> Any:
        body, _ = self._decode(kwargs.get("json"), None, None, kwargs.get("form"))
        return self._respond(route.method, route.path_for_recording, body)


class Patch:
    """A tiny stand-in for pytest's monkeypatch, undone on exit."""

    def __init__(self) -> None:
        self._undo: list[Callable[[], None]] = []

    def setattr(self, target: Any, name: str, value: Any) -> None:
        old = getattr(target, name)
        setattr(target, name, value)
        self._undo.append(lambda: setattr(target, name, old))

    def undo(self) -> None:
        while self._undo:
            self._undo.pop()()


async def watch_loop(stop: asyncio.Event, stalls: list[float], interval: float = 0.005) -> None:
    """Record how late the event loop wakes a sleeper: any lateness is time the loop was blocked."""
    loop = asyncio.get_running_loop()
    while not stop.is_set():
        before = loop.time()
        await asyncio.sleep(interval)
        stalls.append(loop.time() - before - interval)


class Load:
    """One bot process on a fresh database, with ``matches`` Pond matches in play."""

    def __init__(
        self,
        folder: Path,
        matches: int,
        seed: int,
        label: str = "",
        render_processes: int = RENDER_PROCESSES,
        service_options: dict[str, Any] | None = None,
        database: str | None = None,
        shards: Shards | None = None,
        guild_of: Callable[[int], int] = lambda channel: 1,
        ai_processes: int = 0,
        mining: bool = False,
    ) -> None:
        self.shards = shards
        self.ai_processes = ai_processes  # the computer's worker processes (0: threads; the bench plays no computer)
        self.mining = mining  # finished matches are mined for puzzles, as the bot does by default
        self.guild_of = guild_of  # the server of each channel
        self.render_processes = render_processes
        self.service_options = service_options or {}
        self.path = folder / f"load-{matches}{label}.sqlite3"
        # A SQLite file in ``folder`` unless a database (a PostgreSQL URL) is given.
        self.database = database or str(self.path)
        self.matches = matches
        self.rng = random.Random(seed)
        self.recorder = LoadRecorder()
        self.latencies: list[float] = []
        self.refused = 0
        self.ids: list[int] = []
        self.own_trips = 0  # round trips of the bench's own reads (which move to send)

    async def start(self, patch: Patch) -> None:
        install(patch, self.recorder)
        store = await MatchStore.open(self.database, rating=ratings, finish_jobs=(MINE,) if self.mining else ())
        settings = Settings(
            database=self.database,
            render_processes=self.render_processes,
            ai_processes=self.ai_processes,
            shards=self.shards,
            puzzle_mining=self.mining,
        )
        self.bot = TabulaBot(settings, store=store, rng=random.Random(1), **self.service_options)
        await self.bot._async_setup_hook()
        self.bot._connection.application_id = APP_ID
        self.bot._connection.user = _client_user(self.bot)
        await self.bot.prepare()
        self.discord = Discord(self.bot, self.recorder)
        self.people = [Person(10**17 + i, f"Player{i}") for i in range(GUILD_PLAYERS)]
        settle_memory()  # as the bot's setup_hook does

    async def open_match(self, channel: int) -> None:
        service = self.bot.service
        a, b = self.rng.sample(self.people, 2)
        challenge = await service.challenge(
            guild_id=self.guild_of(channel), channel_id=channel, game="pond", challenger=Seat(a.id, a.name),
            opponents=[Seat(b.id, b.name)], options={},
        )  # fmt: skip
        record = challenge.record
        await service.answer(record.id, Seat(b.id, b.name), True)
        self.ids.append(record.id)

    async def one_move(self, channel: int) -> tuple[int, int, str]:
        """Send the move of the player to move in ``channel`` and wait for its board.

        Return the match's id, its ply before the move, and ``"followup"`` (the move was played and its
        board posted) or ``"refused"``."""
        service = self.bot.service
        current = await service.current(channel)
        self.own_trips += 1  # the bench's look (one SELECT), not the bot's: left out of its round trips
        if current is None:
            await self.open_match(channel)
            current = await service.current(channel)
        elif current[1] is None:
            # A challenge a killed predecessor made and never saw answered: its opponent accepts it now.
            waiting = current[0]
            for seat in waiting.players:
                if seat.user_id in waiting.invited:
                    await service.answer(waiting.id, seat, True)
            current = await service.current(channel)
        assert current is not None and current[1] is not None
        record, state = current
        assert state is not None and state.to_move is not None  # a running match: someone is to move
        move = self.rng.choice(state.legal_moves())
        seat = record.players[state.to_move]
        person = Person(seat.user_id, seat.name)
        parts = state.move_text(move).split()
        if parts[0] == "place":
            sub, options = "place", [option("cell", parts[1])]
        else:
            sub, options = "move", [option("from", parts[1]), option("to", parts[2])]
        return record.id, state.ply, await self.send(person, channel, sub, options)

    async def send(self, person: Person, channel: int, sub: str, options: list[dict[str, Any]]) -> str:
        """Send one ``/pond`` command as ``person`` and wait for its answer, timing it (refusals counted)."""
        payload = self.discord.command_payload(person, channel, "pond", sub, options)
        done = self.recorder.expect(payload["token"])
        started = time.perf_counter()
        self.bot._connection.parse_interaction_create(cast("InteractionCreateEvent", payload))
        outcome = await asyncio.wait_for(done, 30)
        self.latencies.append(time.perf_counter() - started)
        if outcome == "refused":
            self.refused += 1
        return str(outcome)

    async def player(self, channel: int, until: float, think: float) -> None:
        rng = random.Random(channel)
        if think:
            await asyncio.sleep(rng.uniform(0, think))  # players do not all start at the same instant
        while time.perf_counter() < until:
            await self.one_move(channel)
            if think:
                pause = min(rng.expovariate(1 / think), until - time.perf_counter())
                if pause > 0:
                    await asyncio.sleep(pause)

    async def run(self, seconds: float, offered: float | None) -> dict[str, Any]:
        """Play for ``seconds``; each match's player thinks so that all together offer ``offered`` moves/s.

        ``offered=None`` means no thinking at all: every player moves again the moment their board
        arrives, which measures the most the bot can sustain (latency then just reflects the queue).
        """
        think = self.matches / offered if offered else 0.0
        channels = list(range(10_000, 10_000 + self.matches))
        for channel in channels:
            await self.open_match(channel)
        # Warm up: fonts, sprites and palettes load once per process.
        await self.one_move(channels[0])
        self.latencies.clear()
        stalls: list[float] = []
        stop = asyncio.Event()
        watcher = asyncio.create_task(watch_loop(stop, stalls))
        database = self.bot.service.store.database
        trips, self.own_trips = database.round_trips, 0
        started = time.perf_counter()
        await asyncio.gather(*(self.player(channel, started + seconds, think) for channel in channels))
        elapsed = time.perf_counter() - started
        trips = database.round_trips - trips - self.own_trips
        stop.set()
        await watcher
        moves = len(self.latencies)
        ordered = sorted(self.latencies)
        return {
            "matches": self.matches,
            "offered_moves_per_second": offered,
            "moves": moves,
            "seconds": round(elapsed, 2),
            "moves_per_second": round(moves / elapsed, 1),
            "median_ms": round(statistics.median(ordered) * 1000, 1),
            "p99_ms": round(ordered[min(moves - 1, int(moves * 0.99))] * 1000, 1),
            "max_loop_stall_ms": round(max(stalls) * 1000, 1),
            "refused": self.refused,
            # Every statement the bot sent while playing (its background sweep's too), per move played.
            "round_trips_per_move": round(trips / max(1, moves), 2),
        }

    async def verify(self) -> dict[str, Any]:
        """Every match's state equals the replay of its log, and the log has one row per ply."""
        service = self.bot.service
        checked = finished = 0
        for match_id in self.ids:
            record = await service.store.get(match_id)
            assert record is not None and record.state is not None
            replayed = await service.replay(record)
            assert replayed.to_json() == record.state, f"match {match_id} does not replay to its state"
            log = await service.store.log(match_id)
            assert [entry.seq for entry in log] == list(range(1, len(log) + 1))
            moves = sum(1 for entry in log if entry.kind == "move")
            assert moves == replayed.ply, f"match {match_id} logged {moves} moves for {replayed.ply} plies"
            checked += 1
            finished += record.status == "finished"
        return {"replayed_matches": checked, "finished_matches": finished}

    async def stop(self) -> None:
        await self.bot.close()


class DueRecorder(LoadRecorder):
    """The load recorder, also counting the reminders posted in each channel."""

    def __init__(self) -> None:
        super().__init__()
        self.reminders: dict[int, int] = {}

    async def http_request(self, route: Any, **kwargs: Any) -> Any:
        path = route.path_for_recording
        body, _ = self._decode(kwargs.get("json"), None, None, kwargs.get("form"))
        if route.method == "POST" and path.endswith("/messages") and "⏰" in ((body or {}).get("content") or ""):
            channel = int(path.split("/")[2])
            self.reminders[channel] = self.reminders.get(channel, 0) + 1
        return self._respond(route.method, path, body)


class DueLoad(Load):
    """Moving matches, and matches left alone whose reminders and automatic endings fall due meanwhile."""

    recorder: DueRecorder  # set in __init__: the load recorder that also counts reminders

    def __init__(self, folder: Path, matches: int, idle: int, turn_seconds: float, seed: int = 17) -> None:
        super().__init__(folder, matches, seed, label="-due", service_options={"turn_seconds": turn_seconds})
        self.recorder = DueRecorder()
        self.idle = idle
        self.turn_seconds = turn_seconds
        self.idle_ids: list[int] = []

    async def open_idle(self, channel: int, players: int) -> None:
        """A match whose players never move: Pond for two, or Azul for three (the others play on)."""
        service = self.bot.service
        seated = [Seat(p.id, p.name) for p in self.rng.sample(self.people, players)]
        game = "pond" if players == 2 else "azul"
        challenge = await service.challenge(
            guild_id=1, channel_id=channel, game=game, challenger=seated[0], opponents=seated[1:], options={}
        )
        for seat in seated[1:]:
            await service.answer(challenge.record.id, seat, True)
        self.ids.append(challenge.record.id)
        self.idle_ids.append(challenge.record.id)

    async def sweeper(self, stop: asyncio.Event, every: float, durations: list[float]) -> None:
        """The bot's background sweep, run as often as ``every`` seconds."""
        while not stop.is_set():
            started = time.perf_counter()
            await self.bot.sweep()
            durations.append(time.perf_counter() - started)
            await asyncio.sleep(every)

    async def run_due(self, seconds: float, offered: float, sweep_every: float = 0.25) -> dict[str, Any]:
        think = self.matches / offered
        channels = list(range(10_000, 10_000 + self.matches))
        for channel in channels:
            await self.open_match(channel)
        for index in range(self.idle):
            await self.open_idle(30_000 + index, 3 if index % 4 == 3 else 2)  # one idle match in four: Azul for 3
        await self.one_move(channels[0])
        self.latencies.clear()
        stalls: list[float] = []
        sweeps: list[float] = []
        stop = asyncio.Event()
        watcher = asyncio.create_task(watch_loop(stop, stalls))
        sweeping = asyncio.create_task(self.sweeper(stop, sweep_every, sweeps))
        started = time.perf_counter()
        await asyncio.gather(*(self.player(channel, started + seconds, think) for channel in channels))
        elapsed = time.perf_counter() - started
        stop.set()
        await watcher
        await sweeping
        await self.bot.sweep()  # what fell due at the very end
        await settle_tasks()
        ordered = sorted(self.latencies)
        moves = len(ordered)
        database = self.bot.store.database
        sent = (await database.rows("SELECT COUNT(*) FROM match_reminders WHERE sent = 1"))[0][0]
        posted = sum(self.recorder.reminders.values())
        assert posted == sent, f"{sent} reminders saved but {posted} posted"
        # (The start of each match opened straight through the service stays in the outbox: not this test's.)
        left = [
            a
            for a in await self.bot.store.matches.pending_announcements()
            if a.kind in (NoticeKind.REMIND, NoticeKind.TURN)
        ]
        assert not left, (
            f"announcements left undelivered: {[(a.kind, a.attempts, a.error) for a in left][:5]} of {len(left)}"
        )
        ended = 0
        for match_id in self.idle_ids:
            record = await self.bot.store.matches.get(match_id)
            assert record is not None
            log = await self.bot.store.matches.log(match_id)
            ended += sum(1 for entry in log if entry.kind == "forfeit")
            assert all(entry.kind == "forfeit" for entry in log), "an idle match got a move"
        return {
            "matches": self.matches,
            "idle_matches": self.idle,
            "turn_seconds": self.turn_seconds,
            "offered_moves_per_second": offered,
            "moves": moves,
            "seconds": round(elapsed, 2),
            "moves_per_second": round(moves / elapsed, 1),
            "median_ms": round(statistics.median(ordered) * 1000, 1),
            "p99_ms": round(ordered[min(moves - 1, int(moves * 0.99))] * 1000, 1),
            "max_loop_stall_ms": round(max(stalls) * 1000, 1),
            "sweeps": len(sweeps),
            "longest_sweep_ms": round(max(sweeps, default=0.0) * 1000, 1),
            "reminders_posted": posted,
            "idle_turns_ended": ended,
            "refused": self.refused,
        }


async def settle_tasks() -> None:
    """Let the deliveries the last sweep started finish."""
    current = asyncio.current_task()
    for _ in range(100):
        pending = [t for t in asyncio.all_tasks() if t is not current and not t.done()]
        if not pending:
            return
        await asyncio.wait(pending, timeout=5)


async def due_while_moving(
    matches: int = 100, idle: int = 400, seconds: float = 10.0, offered: float = 100.0, turn_seconds: float = 4.0
) -> dict[str, Any]:
    """Run the reminders-and-endings scenario; return its row (see :meth:`DueLoad.run_due`).

    With ``turn_seconds`` 4, every idle match is reminded 3 s in and ended 8 s in; a mover who thinks
    longer than 3 s is reminded too.
    """
    with tempfile.TemporaryDirectory() as folder:
        patch = Patch()
        load = DueLoad(Path(folder), matches, idle, turn_seconds)
        try:
            await load.start(patch)
            row = await load.run_due(seconds, offered)
            row.update(await load.verify())
        finally:
            await load.stop()
            patch.undo()
    return row


def _client_user(bot: TabulaBot) -> discord.ClientUser:
    import discord

    payload = cast("UserPayload", user_payload(BOT_USER_ID, "Tabula", bot=True))
    return discord.ClientUser(state=bot._connection, data=payload)


async def memory_per_match(folder: Path, count: int) -> float:
    """Bytes of Python memory each active match holds in the bot (its record and cached state)."""
    patch = Patch()
    load = Load(folder, count, seed=5, label="-memory")
    try:
        await load.start(patch)
        await load.open_match(1)  # warm imports and caches
        gc.collect()
        tracemalloc.start()
        before = tracemalloc.take_snapshot()
        for channel in range(2, count + 2):
            await load.open_match(channel)
            await load.one_move(channel)
        gc.collect()
        after = tracemalloc.take_snapshot()
        tracemalloc.stop()
        grown = sum(stat.size_diff for stat in after.compare_to(before, "filename"))
        return grown / count
    finally:
        await load.stop()
        patch.undo()


async def bytes_per_finished_match(folder: Path, count: int) -> float:
    """Database bytes each finished match adds (match row, players, move log, ratings)."""
    patch = Patch()
    load = Load(folder, 1, seed=6, label="-bytes")
    try:
        await load.start(patch)
        await load.open_match(1)
        await load.bot.store.database.rows("PRAGMA wal_checkpoint(TRUNCATE)")
        before = os.path.getsize(load.path)
        finished = 0
        channel = 1
        while finished < count:
            current = await load.bot.service.current(channel)
            await load.one_move(channel)
            if current is not None and (await load.bot.service.current(channel)) is None:
                finished += 1
                channel += 1
                await load.open_match(channel)
        await load.bot.store.database.rows("PRAGMA wal_checkpoint(TRUNCATE)")
        return (os.path.getsize(load.path) - before) / count
    finally:
        await load.stop()
        patch.undo()


# Offered load per scenario: one player moving as fast as boards arrive; 100 busy matches offering
# 100 moves/s (each player moves about once a second, faster than anyone types); 1,000 matches offering
# 250 moves/s; then 1,000 matches with nobody thinking, the most the bot can sustain.
SCENARIOS: dict[int, list[float | None]] = {1: [None], 100: [100.0], 1000: [250.0, None]}
# ``python -m bench --quick``: 1,000 flat out only
QUICK_SCENARIOS: dict[int, list[float | None]] = {1: [None], 100: [100.0], 1000: [None]}


async def scenario(
    folder: Path, size: int, offered: float | None, seconds: float, server: str | None, run: int = 0
) -> dict[str, Any]:
    """One scenario on a fresh database: SQLite in ``folder``, or a new database on the PostgreSQL ``server``."""
    name = f"tabula_load_{size}_{offered or 'max'}".replace(".", "_")
    database = await create_database(server, name) if server else None
    patch = Patch()
    load = Load(folder, size, seed=size, label=f"-{offered or 'max'}-{run}", database=database)
    try:
        await load.start(patch)
        row = await load.run(seconds, offered)
        row.update(await load.verify())
        row["backend"] = "postgresql" if server else "sqlite"
        return row
    finally:
        await load.stop()
        patch.undo()
        if server:
            await drop_database(server, name)


def ratios(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """PostgreSQL against SQLite: p99 at 100 matches (goal <= 1.5) and moves/s at 1,000.

    With several runs of a scenario (``--repeat``), each backend's median over its runs is compared.
    """

    def median(backend: str, matches: int, offered: float | None, key: str) -> float | None:
        found = [
            r[key]
            for r in rows
            if r.get("backend") == backend and r["matches"] == matches and r["offered_moves_per_second"] == offered
        ]
        return statistics.median(found) if found else None

    found: dict[str, Any] = {}
    sqlite, postgres = median("sqlite", 100, 100.0, "p99_ms"), median("postgresql", 100, 100.0, "p99_ms")
    if sqlite and postgres:
        found["p99_100_ratio"] = round(postgres / sqlite, 2)
        found["p99_100_ms"] = {"sqlite": round(sqlite, 1), "postgresql": round(postgres, 1)}
    for offered in (None, 250.0):
        sqlite = median("sqlite", 1000, offered, "moves_per_second")
        postgres = median("postgresql", 1000, offered, "moves_per_second")
        if sqlite and postgres:
            key = "max" if offered is None else f"{offered:g}"
            found[f"moves_per_second_1000_{key}_ratio"] = round(postgres / sqlite, 2)
            found[f"moves_per_second_1000_{key}"] = {"sqlite": round(sqlite, 1), "postgresql": round(postgres, 1)}
    return found


async def measure(
    sizes: list[int], seconds: float, postgres: str | None = None, repeat: int = 1, quick: bool = False
) -> list[dict[str, Any]]:
    """Every scenario on SQLite, and on PostgreSQL right after it when a server URL is given.

    ``repeat`` runs each scenario that many times, alternating the backends, so that a busy moment of
    a shared machine weighs on both alike."""
    rows = []
    with tempfile.TemporaryDirectory() as folder:
        scenarios = QUICK_SCENARIOS if quick else SCENARIOS
        for size, offered in [(n, rate) for n in sizes for rate in scenarios.get(n, [None])]:
            for number in range(repeat if postgres else 1):
                for server in (None, postgres) if postgres else (None,):
                    rows.append(await scenario(Path(folder), size, offered, seconds, server, number))
        extra: dict[str, Any] = {
            "memory_per_active_match_bytes": round(await memory_per_match(Path(folder), 200)),
            "db_bytes_per_finished_match": round(await bytes_per_finished_match(Path(folder), 20)),
        }
        if postgres:
            extra["postgresql_vs_sqlite"] = ratios(rows)
        rows.append(extra)
    return rows


# -- moves by taps: each step of a move is an interaction of its own ------------------------------------------


class TapLoad(Load):
    """:class:`Load` whose players move by taps: a choice on the board post, the private steps, then Play.

    Each step's answer is timed on its own (from the interaction's arrival to the answer players see: the
    next step, or the move's preview with its picture); a move's board is the announcer's, as for commands.
    """

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.step_latencies: list[float] = []

    async def one_move(self, channel: int) -> tuple[int, int, str]:
        from bot.commands.taps import PICK, PLAY
        from bot.core.taps import joined, walk
        from engines import GAMES

        service = self.bot.service
        current = await service.current(channel)
        if current is None:
            await self.open_match(channel)
            current = await service.current(channel)
        assert current is not None
        record, found = current
        assert found is not None
        state = found
        to_move = state.to_move
        assert to_move is not None
        seat = record.players[to_move]
        person = Person(seat.user_id, seat.name)
        form = GAMES[record.game].moves
        assert form is not None
        step = walk(state, form, ())
        private = False
        while True:
            index = self.rng.randrange(len(step.choices))
            chosen = step.choices[index]
            part = index // 25
            menu = PICK.build(part=part, match=record.id, version=record.version, path=joined(step.path))
            payload = self.discord.select_payload(person, channel, menu, chosen.token, 1, ephemeral=private)
            outcome = await self.timed(payload)
            if outcome == "refused" and private:
                return record.id, state.ply, outcome
            step = walk(state, form, (*step.path, chosen.token))
            private = True
            if step.complete:
                break
        play = PLAY.build(match=record.id, version=record.version, path=joined(step.path))
        payload = self.discord.button_payload(person, channel, play, 1)
        payload["message"]["flags"] = 64
        outcome = await self.timed(payload)
        return record.id, state.ply, outcome

    async def timed(self, payload: dict[str, Any]) -> str:
        """Send one component interaction and wait for its answer, timing it as a step."""
        token = payload["token"]
        if payload["message"]["flags"] & 64:
            self.recorder.steps.add(token)
        done = self.recorder.expect(token)
        started = time.perf_counter()
        self.bot._connection.parse_interaction_create(cast("InteractionCreateEvent", payload))
        outcome = await asyncio.wait_for(done, 30)
        elapsed = time.perf_counter() - started
        self.step_latencies.append(elapsed)
        self.latencies.append(elapsed)
        self.recorder.steps.discard(token)
        return str(outcome)


async def tap_steps(matches: int, seconds: float, offered: float | None) -> dict[str, Any]:
    """Matches played by taps on SQLite: each step's answer time (median, p99) and the moves made."""
    patch = Patch()
    with tempfile.TemporaryDirectory() as folder:
        load = TapLoad(Path(folder), matches, seed=matches, label="-taps")
        try:
            await load.start(patch)  # confirmation on (the default): every move shows its preview
            row = await load.run(seconds, offered)
            steps = sorted(load.step_latencies)
            row["steps"] = len(steps)
            row["step_median_ms"] = round(statistics.median(steps) * 1000, 1)
            row["step_p99_ms"] = round(steps[min(len(steps) - 1, int(len(steps) * 0.99))] * 1000, 1)
            row.update(await load.verify())
            return row
        finally:
            await load.stop()
            patch.undo()


# -- many matches in few channels, each in its own thread -------------------------------------------------


class ThreadRecorder(LoadRecorder):
    """Also wakes whoever waits for the first post in a channel (the opening board in a new thread)."""

    def __init__(self) -> None:
        super().__init__()
        self.posts: dict[int, asyncio.Future[None]] = {}

    def expect_post(self, channel: int) -> asyncio.Future[None]:
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.posts[channel] = future
        return future

    async def http_request(self, route: Any, **kwargs: Any) -> Any:
        answer = await super().http_request(route, **kwargs)
        path = route.path_for_recording
        if route.method == "POST" and path.endswith("/messages") and path.count("/") == 3:
            waiter = self.posts.pop(int(path.split("/")[2]), None)
            if waiter is not None and not waiter.done():
                waiter.set_result(None)
        return answer


class ThreadLoad(Load):
    """``matches`` Pond matches in ``channels`` text channels, each match in the thread its challenge opened.

    Matches are challenged and accepted through the real commands and buttons, so every thread is made
    by the announcer as Discord would see it; players move in their threads.  A player sometimes resigns
    (one move in a hundred), so games end during the run: the result goes to the thread and the channel,
    and the player challenges again in the same channel, opening a new thread while the others move.
    A sweeper runs every second as the bot's does.
    """

    def __init__(
        self, folder: Path, matches: int, channels: int, seed: int, render_processes: int = RENDER_PROCESSES
    ) -> None:
        super().__init__(folder, matches, seed, label=f"-threads-{channels}", render_processes=render_processes)
        self.recorder = ThreadRecorder()
        self.channels = channels
        self.slots: dict[int, int] = {}  # slot -> its current match
        self.opened: list[float] = []  # seconds from Accept to the opening board in the new thread

    async def open_in_channel(self, slot: int) -> None:
        """Challenge and accept in the slot's channel through the commands; wait for the thread's first board."""
        recorder = self.recorder
        assert isinstance(recorder, ThreadRecorder)
        channel = 20_000 + slot % self.channels
        a, b = self.rng.sample(self.people, 2)
        payload = self.discord.command_payload(
            a, channel, "pond", "start", [option("opponent", str(b.id), kind=6)], users=[b]
        )
        done = recorder.expect(payload["token"])
        self.bot._connection.parse_interaction_create(cast("InteractionCreateEvent", payload))
        await asyncio.wait_for(done, 30)
        waiting = [
            r
            for r in await self.bot.service.store.open_matches_at(channel)
            if r.status == "challenge" and r.players[0].user_id == a.id
        ]
        record = waiting[-1]
        for _ in range(1000):  # the challenge message's ID is saved just after the reply
            if record.message_id is not None:
                break
            await asyncio.sleep(0.001)
            record = await self.bot.service.store.get(record.id) or record
        assert record.message_id is not None
        posted = recorder.expect_post(record.message_id)  # a thread bears its starter message's ID
        started = time.perf_counter()
        custom_id = f"tabula:challenge:accept:{record.id}"
        self.bot._connection.parse_interaction_create(
            cast("InteractionCreateEvent", self.discord.button_payload(b, channel, custom_id, record.message_id))
        )
        await asyncio.wait_for(posted, 30)
        self.opened.append(time.perf_counter() - started)
        self.slots[slot] = record.id
        self.ids.append(record.id)

    async def move_in_thread(self, slot: int) -> None:
        """The player to move in the slot's match moves (or now and then resigns) in its thread."""
        service = self.bot.service
        current = await service.match_state(self.slots[slot])
        if current is None:
            await self.open_in_channel(slot)
            current = await service.match_state(self.slots[slot])
        assert current is not None
        record, state = current
        assert record.thread_id is not None
        seat = record.players[state.to_move or 0]
        person = Person(seat.user_id, seat.name)
        if self.rng.random() < 0.01:
            sub, options = "resign", []
        else:
            parts = state.move_text(self.rng.choice(state.legal_moves())).split()
            if parts[0] == "place":
                sub, options = "place", [option("cell", parts[1])]
            else:
                sub, options = "move", [option("from", parts[1]), option("to", parts[2])]
        await self.send(person, record.thread_id, sub, options)

    async def thread_player(self, slot: int, until: float, think: float) -> None:
        rng = random.Random(slot)
        await asyncio.sleep(rng.uniform(0, think))
        while time.perf_counter() < until:
            await self.move_in_thread(slot)
            pause = min(rng.expovariate(1 / think), until - time.perf_counter())
            if pause > 0:
                await asyncio.sleep(pause)

    async def sweeper(self, stop: asyncio.Event) -> None:
        while not stop.is_set():
            await self.bot.sweep()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), 1.0)

    async def run_threads(self, seconds: float, offered: float) -> dict[str, Any]:
        """Open every match through the commands, then play for ``seconds`` offering ``offered`` moves/s."""
        for slot in range(self.matches):
            await self.open_in_channel(slot)
        await self.move_in_thread(0)  # warm up
        self.latencies.clear()
        opened_before = len(self.opened)
        stalls: list[float] = []
        stop = asyncio.Event()
        watcher = asyncio.create_task(watch_loop(stop, stalls))
        sweeper = asyncio.create_task(self.sweeper(stop))
        started = time.perf_counter()
        think = self.matches / offered
        await asyncio.gather(*(self.thread_player(slot, started + seconds, think) for slot in range(self.matches)))
        elapsed = time.perf_counter() - started
        stop.set()
        await watcher
        await sweeper
        moves = len(self.latencies)
        ordered = sorted(self.latencies)
        during = self.opened[opened_before:]
        return {
            "matches": self.matches,
            "channels": self.channels,
            "offered_moves_per_second": offered,
            "moves": moves,
            "seconds": round(elapsed, 2),
            "moves_per_second": round(moves / elapsed, 1),
            "median_ms": round(statistics.median(ordered) * 1000, 1),
            "p99_ms": round(ordered[min(moves - 1, int(moves * 0.99))] * 1000, 1),
            "max_loop_stall_ms": round(max(stalls) * 1000, 1),
            "refused": self.refused,
            "threads_opened": len(self.opened),
            "threads_opened_during_run": len(during),
            "accept_to_thread_board_median_ms": round(statistics.median(self.opened) * 1000, 1),
            "accept_to_thread_board_max_ms": round(max(self.opened) * 1000, 1),
        }

    async def verify_threads(self) -> dict[str, Any]:
        """Every match replays exactly and has exactly one thread, the one its challenge message started."""
        verified = await self.verify()
        store = self.bot.service.store
        threads = set()
        for match_id in self.ids:
            record = await store.get(match_id)
            assert record is not None and record.thread_id == record.message_id is not None
            threads.add(record.thread_id)
        assert len(threads) == len(self.ids) == len(self.recorder.threads), "a match without its one thread"
        assert not await store.pending_announcements(), "announcements left undelivered"
        return {**verified, "distinct_threads": len(threads)}


async def measure_threads(matches: int, channels: int, seconds: float, offered: float) -> dict[str, Any]:
    """Run the thread scenario once on a fresh database; return its row."""
    with tempfile.TemporaryDirectory() as folder:
        patch = Patch()
        load = ThreadLoad(Path(folder), matches, channels, seed=matches + channels)
        try:
            await load.start(patch)
            row = await load.run_threads(seconds, offered)
            row.update(await load.verify_threads())
            return row
        finally:
            await load.stop()
            patch.undo()


def run_threads(matches: int = 400, channels: int = 4, seconds: float = 10.0, offered: float = 100.0) -> dict[str, Any]:
    """Many matches in few channels, each in its thread (``python -m bench.load --threads``)."""
    return asyncio.run(measure_threads(matches, channels, seconds, offered))


def print_threads(row: dict[str, Any]) -> None:
    print(
        f"{row['matches']:>5} matches in {row['channels']} channels, threads, offered "
        f"{row['offered_moves_per_second']:g}/s: {row['moves']} moves in {row['seconds']} s = "
        f"{row['moves_per_second']} moves/s; median {row['median_ms']} ms, p99 {row['p99_ms']} ms; longest loop "
        f"stall {row['max_loop_stall_ms']} ms; {row['threads_opened']} threads opened "
        f"({row['threads_opened_during_run']} while moves arrived; Accept to first board median "
        f"{row['accept_to_thread_board_median_ms']} ms, max {row['accept_to_thread_board_max_ms']} ms); "
        f"{row['finished_matches']} finished; {row['replayed_matches']} replayed exactly, one thread each"
    )


def run(
    sizes: list[int] | None = None,
    seconds: float = 10.0,
    database: str = "sqlite",
    repeat: int = 1,
    quick: bool = False,
) -> list[dict[str, Any]]:
    """Run the load test; the last row holds the memory and database figures (and the backends' ratios).

    ``quick``: at 1,000 matches only the flat-out scenario (:data:`QUICK_SCENARIOS`).
    ``database``: ``"sqlite"``, ``"postgresql"`` (a throwaway server) or a PostgreSQL server URL.
    """
    if database == "sqlite":
        return asyncio.run(measure(sizes or [1, 100, 1000], seconds, quick=quick))
    if database != "postgresql":
        return asyncio.run(measure(sizes or [1, 100, 1000], seconds, database, repeat))
    with throwaway_server() as url:
        return asyncio.run(measure(sizes or [1, 100, 1000], seconds, url, repeat))


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, nargs="+", default=[1, 100, 1000])
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--quick", action="store_true", help="3 seconds per size")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--taps", action="store_true", help="moves by taps: each step's answer time")
    parser.add_argument("--due", action="store_true", help="reminders and automatic endings falling due while moving")
    parser.add_argument("--idle", type=int, default=400, help="with --due: matches left alone")
    parser.add_argument(
        "--threads",
        type=int,
        nargs=2,
        metavar=("MATCHES", "CHANNELS"),
        help="only the thread scenario: MATCHES matches in CHANNELS channels, each in its own thread",
    )
    parser.add_argument(
        "--database",
        default="sqlite",
        help="sqlite (default); postgresql: also on a throwaway PostgreSQL; or a postgresql:// server URL "
        "(where the benchmark may create databases): every scenario on both, side by side",
    )
    parser.add_argument(
        "--repeat", type=int, default=1, help="with PostgreSQL: run each scenario N times, backends alternating"
    )
    args = parser.parse_args(argv)
    if args.threads:
        matches, channels = args.threads
        row = run_threads(matches, channels, 3.0 if args.quick else args.seconds)
        if args.json:
            print(json.dumps(row, indent=2))
        else:
            print_threads(row)
        return
    if args.taps:
        matches = 100 if args.matches == [1, 100, 1000] else args.matches[0]
        rate: float | None = 100.0 if matches == 100 else None
        row = asyncio.run(tap_steps(matches, 3.0 if args.quick else args.seconds, rate))
        if args.json:
            print(json.dumps(row, indent=2))
            return
        print(
            f"{row['matches']} matches moving by taps: {row['steps']} steps in {row['seconds']} s; "
            f"step answer median {row['step_median_ms']} ms, p99 {row['step_p99_ms']} ms; "
            f"longest loop stall {row['max_loop_stall_ms']} ms; {row['replayed_matches']} matches replayed exactly"
        )
        return
    if args.due:
        seconds = 3.0 if args.quick else args.seconds
        movers = 100 if args.matches == [1, 100, 1000] else args.matches[0]  # the default sizes: 100 moving
        due = asyncio.run(due_while_moving(movers, args.idle, max(seconds, 9.0)))
        if args.json:
            print(json.dumps(due, indent=2))
            return
        print(
            f"{due['matches']} moving + {due['idle_matches']} idle matches, turn {due['turn_seconds']:g} s: "
            f"{due['moves']} moves in {due['seconds']} s = {due['moves_per_second']} moves/s; "
            f"median {due['median_ms']} ms, p99 {due['p99_ms']} ms; longest loop stall {due['max_loop_stall_ms']} ms; "
            f"{due['sweeps']} sweeps (longest {due['longest_sweep_ms']} ms); {due['reminders_posted']} reminders "
            f"posted once each; {due['idle_turns_ended']} idle turns ended on time; "
            f"{due['replayed_matches']} matches replayed exactly"
        )
        return
    rows = run(args.matches, 3.0 if args.quick else args.seconds, args.database, args.repeat)
    if args.json:
        print(json.dumps(rows, indent=2))
        return
    for row in rows[:-1]:
        offered = f"offered {row['offered_moves_per_second']:g}/s" if row["offered_moves_per_second"] else "flat out"
        print(
            f"{row['backend']:>10} {row['matches']:>5} matches, {offered:>14}: "
            f"{row['moves']:>6} moves in {row['seconds']} s = "
            f"{row['moves_per_second']} moves/s; median {row['median_ms']} ms, p99 {row['p99_ms']} ms; "
            f"longest loop stall {row['max_loop_stall_ms']} ms; {row['finished_matches']} finished; "
            f"{row['replayed_matches']} replayed exactly"
        )
    extra = rows[-1]
    print(f"memory per active match: {extra['memory_per_active_match_bytes'] / 1024:.1f} KB")
    print(f"database bytes per finished match: {extra['db_bytes_per_finished_match'] / 1024:.1f} KB")
    for line in ratio_lines(extra.get("postgresql_vs_sqlite", {})):
        print(line)


def ratio_lines(found: dict[str, Any]) -> list[str]:
    """The PostgreSQL/SQLite comparison in words."""
    lines = []
    if "p99_100_ratio" in found:
        ms = found["p99_100_ms"]
        verdict = "within" if found["p99_100_ratio"] <= 1.5 else "NOT within"
        lines.append(
            f"p99 of the turn path at 100 matches: SQLite {ms['sqlite']} ms, PostgreSQL {ms['postgresql']} ms = "
            f"{found['p99_100_ratio']}x ({verdict} the 1.5x goal)"
        )
    for key in ("max", "250"):
        if f"moves_per_second_1000_{key}" in found:
            rate = found[f"moves_per_second_1000_{key}"]
            how = "flat out" if key == "max" else f"offered {key}/s"
            lines.append(
                f"moves/s at 1,000 matches ({how}): SQLite {rate['sqlite']}, PostgreSQL {rate['postgresql']} = "
                f"{found[f'moves_per_second_1000_{key}_ratio']}x"
            )
    return lines


if __name__ == "__main__":
    main()
