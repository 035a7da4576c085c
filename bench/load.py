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
"""

from __future__ import annotations

import argparse
import asyncio
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
from typing import Any

from bench.pgserver import Throwaway, create_database, drop_database, find_binaries
from bot.client import TabulaBot, settle_memory
from bot.settings import Settings
from bot.shards import Shards
from bot.storage import MatchStore, Seat
from bot.testing import APP_ID, BOT_USER_ID, Discord, Person, Recorder, install, option, user_payload

GUILD_PLAYERS = 4000
RENDER_PROCESSES = 2  # as the bot runs by default (TABULA_RENDER_PROCESSES)


class LoadRecorder(Recorder):
    """A recorder that keeps no history, only wakes whoever waits for an interaction's final answer."""

    def __init__(self) -> None:
        super().__init__()
        self.keep_state = False
        self.waiters: dict[str, asyncio.Future[str]] = {}

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
        database: str | None = None,
        shards: Shards | None = None,
        guild_of: Callable[[int], int] = lambda channel: 1,
    ) -> None:
        self.shards = shards
        self.guild_of = guild_of  # the server of each channel
        self.render_processes = render_processes
        self.path = folder / f"load-{matches}{label}.sqlite3"
        # A SQLite file in ``folder`` unless a database (a PostgreSQL URL) is given.
        self.database = database or str(self.path)
        self.matches = matches
        self.rng = random.Random(seed)
        self.recorder = LoadRecorder()
        self.latencies: list[float] = []
        self.refused = 0
        self.ids: list[int] = []

    async def start(self, patch: Patch) -> None:
        install(patch, self.recorder)
        store = await MatchStore.open(self.database)
        settings = Settings(
            database=self.database, render_processes=self.render_processes, ai_processes=0, shards=self.shards
        )
        self.bot = TabulaBot(settings, store=store, rng=random.Random(1))
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
        if current is None or current[1] is None:
            await self.open_match(channel)
            current = await service.current(channel)
        assert current is not None and current[1] is not None
        record, state = current
        move = self.rng.choice(state.legal_moves())
        seat = record.players[state.to_move]
        person = Person(seat.user_id, seat.name)
        parts = state.move_text(move).split()
        if parts[0] == "place":
            sub, options = "place", [option("cell", parts[1])]
        else:
            sub, options = "move", [option("from", parts[1]), option("to", parts[2])]
        payload = self.discord.command_payload(person, channel, "pond", sub, options)
        done = self.recorder.expect(payload["token"])
        started = time.perf_counter()
        self.bot._connection.parse_interaction_create(payload)
        outcome = await asyncio.wait_for(done, 30)
        self.latencies.append(time.perf_counter() - started)
        if outcome == "refused":
            self.refused += 1
        return record.id, state.ply, outcome

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
        started = time.perf_counter()
        await asyncio.gather(*(self.player(channel, started + seconds, think) for channel in channels))
        elapsed = time.perf_counter() - started
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


def _client_user(bot: TabulaBot) -> Any:
    import discord

    return discord.ClientUser(state=bot._connection, data=user_payload(BOT_USER_ID, "Tabula", bot=True))


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
        await load.bot.store.database.connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
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
        await load.bot.store.database.connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        return (os.path.getsize(load.path) - before) / count
    finally:
        await load.stop()
        patch.undo()


# Offered load per scenario: one player moving as fast as boards arrive; 100 busy matches offering
# 100 moves/s (each player moves about once a second, faster than anyone types); 1,000 matches offering
# 250 moves/s; then 1,000 matches with nobody thinking, the most the bot can sustain.
SCENARIOS = {1: [None], 100: [100.0], 1000: [250.0, None]}


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
    sizes: list[int], seconds: float, postgres: str | None = None, repeat: int = 1
) -> list[dict[str, Any]]:
    """Every scenario on SQLite, and on PostgreSQL right after it when a server URL is given.

    ``repeat`` runs each scenario that many times, alternating the backends, so that a busy moment of
    a shared machine weighs on both alike."""
    rows = []
    with tempfile.TemporaryDirectory() as folder:
        for size, offered in [(n, rate) for n in sizes for rate in SCENARIOS.get(n, [None])]:
            for number in range(repeat if postgres else 1):
                for server in (None, postgres) if postgres else (None,):
                    rows.append(await scenario(Path(folder), size, offered, seconds, server, number))
        extra = {
            "memory_per_active_match_bytes": round(await memory_per_match(Path(folder), 200)),
            "db_bytes_per_finished_match": round(await bytes_per_finished_match(Path(folder), 20)),
        }
        if postgres:
            extra["postgresql_vs_sqlite"] = ratios(rows)
        rows.append(extra)
    return rows


def run(
    sizes: list[int] | None = None, seconds: float = 10.0, database: str = "sqlite", repeat: int = 1
) -> list[dict[str, Any]]:
    """Run the load test; the last row holds the memory and database figures (and the backends' ratios).

    ``database``: ``"sqlite"``, ``"postgresql"`` (a throwaway server) or a PostgreSQL server URL.
    """
    if database == "sqlite":
        return asyncio.run(measure(sizes or [1, 100, 1000], seconds))
    if database != "postgresql":
        return asyncio.run(measure(sizes or [1, 100, 1000], seconds, database, repeat))
    binaries = find_binaries()
    if binaries is None:
        raise SystemExit("no PostgreSQL server binaries (initdb, postgres) found; give --database URL instead")
    server = Throwaway(binaries)
    server.start()
    try:
        return asyncio.run(measure(sizes or [1, 100, 1000], seconds, server.url, repeat))
    finally:
        server.stop()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, nargs="+", default=[1, 100, 1000])
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--quick", action="store_true", help="3 seconds per size")
    parser.add_argument("--json", action="store_true")
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
