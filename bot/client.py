"""The Discord client: its events, its start and its graceful stop, over the parts the wiring builds.

The parts are built once, after the database opens, by :func:`bot.app.build_parts`; this module holds what
discord.py calls (``setup_hook``, ``on_ready``, the thread and channel events, ``close``), the command sync,
and the metrics server.  No other bot module imports it, not even for types (``[tool.importlinter]``).
"""

from __future__ import annotations

import asyncio
import gc
import hashlib
import json
import logging
import os
import time
from collections.abc import Awaitable, Callable, Coroutine
from pathlib import Path
from typing import Any, TypeVar, cast

import discord
from discord import app_commands

from bot.app import Parts, TabulaTree, add_commands, build_parts, buttons
from bot.commands.draws import Draws
from bot.commands.rematch import Rematches
from bot.commands.reminders import Reminders
from bot.commands.replays import Replays
from bot.commands.reviews import Reviews
from bot.commands.tournaments import TournamentCommands
from bot.commands.ui import MatchUI
from bot.core import ratings
from bot.core.ladders import Ladders
from bot.core.mining import BACKFILL_SECONDS, MINE, queue_unmined
from bot.core.puzzles import SHIPPED_SETS
from bot.core.service import MatchService
from bot.core.tournaments import TournamentService
from bot.delivery.announcer import Announcer
from bot.delivery.computer import ComputerPlayers
from bot.delivery.event_posts import EventPosts
from bot.delivery.places import thread_state
from bot.delivery.rendering import BoardRenderer
from bot.lifecycle import DRAIN_SECONDS, Drain
from bot.metrics import Metrics, MetricsServer, Probe
from bot.settings import Settings
from bot.storage import MatchStore
from bot.storage.database import is_url, redact
from bot.sweeper import Sweeper
from bot.text.translator import CatalogTranslator, translated_payload
from engines import GAMES

log = logging.getLogger(__name__)
T = TypeVar("T")


def settle_memory() -> None:
    """Keep garbage-collection pauses short once the bot has started.

    Everything loaded at start (modules, discord.py's caches, the command tree) lives for
    the whole run; freezing it takes it out of every later collection, and a larger
    first-generation threshold makes collections rarer.  Without this, full collections
    of a busy bot paused the event loop for up to ~100 ms in the load benchmark.
    """
    gc.collect()
    gc.freeze()
    gc.set_threshold(20_000, 50, 50)


def finish_jobs(settings: Settings) -> tuple[str, ...]:
    """The background jobs every finished match gets, queued in its finishing transaction: its mining for
    puzzles, unless the operator turned it off (``TABULA_PUZZLE_MINING=off``)."""
    return (MINE,) if settings.puzzle_mining else ()


def intents() -> discord.Intents:
    """The gateway intents Tabula needs: servers and channels only, nothing privileged."""
    wanted = discord.Intents.none()
    wanted.guilds = True
    return wanted


class TabulaBot(discord.Client):
    """Tabula's client: the Discord events, over the parts :func:`bot.app.build_parts` builds.

    ``store`` may be given (tests); otherwise :meth:`prepare` opens it from the settings.  The parts are built
    once, by :meth:`prepare`, over the open database, and the command tree is filled with their commands.  A
    bot that is only described (``--print-commands``, the catalogs, tests of the payload) is never prepared:
    :meth:`describe` builds its parts over a store without a database, and it cannot be started.
    """

    def __init__(
        self,
        settings: Settings,
        *,
        store: MatchStore | None = None,
        computer_iterations: int | None = None,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
        stop_seconds: float = DRAIN_SECONDS,
        puzzle_sets: Path | None = SHIPPED_SETS,
        **service_options: Any,
    ) -> None:
        sharding: dict[str, Any] = {}
        if settings.shards is not None and isinstance(self, discord.AutoShardedClient):
            sharding = {"shard_ids": list(settings.shards.ids), "shard_count": settings.shards.count}
        super().__init__(intents=intents(), allowed_mentions=discord.AllowedMentions.none(), **sharding)
        self.settings = settings
        self.tree = TabulaTree(self)
        self._store = store
        self._service_options = service_options
        self._computer_iterations = computer_iterations
        self._sleep = sleep
        # The shipped puzzle sets loaded at start (tests that need an empty catalogue hand in None).
        self._puzzle_sets = puzzle_sets
        self._parts: Parts | None = None
        self._described = False  # built over a store without a database, for its commands only
        self._prepared = False
        # Running like a service: metrics, the interactions in flight, a graceful stop.
        self.metrics = Metrics()
        self.metrics.watch_http(self.http)
        self.drain = Drain(timing=self._handled)
        self.drain.watch(self._connection)
        self.stop_seconds = stop_seconds
        self.stop_reason: str | None = None  # the signal that stopped the bot, for the last log line
        self._stopping: asyncio.Task[None] | None = None
        self._metrics_server: MetricsServer | None = None

    @staticmethod
    def create(settings: Settings, **options: Any) -> TabulaBot:
        """The bot for ``settings``: sharded (an ``AutoShardedClient`` for ``TABULA_SHARDS``) or not."""
        if settings.shards is not None:
            return ShardedTabulaBot(settings, **options)
        return TabulaBot(settings, **options)

    @property
    def store(self) -> MatchStore:
        if self._store is None:
            raise RuntimeError("the bot has not been set up yet")
        return self._store

    @property
    def parts(self) -> Parts:
        """Every part of the bot (built by :meth:`prepare`, or by :meth:`describe` for its commands only)."""
        if self._parts is None:
            raise RuntimeError("the bot has not been set up yet")
        return self._parts

    # -- the parts the events, the tools and the tests reach through the client ---------------

    @property
    def service(self) -> MatchService:
        """The match service."""
        return self.parts.service

    @property
    def renderer(self) -> BoardRenderer:
        """The board renderer."""
        return self.parts.renderer

    @property
    def ladders(self) -> Ladders:
        """The ladders."""
        return self.parts.ladders

    @property
    def announcer(self) -> Announcer:
        """The one announcer."""
        return self.parts.announcer

    @property
    def computer(self) -> ComputerPlayers:
        """The computer players."""
        return self.parts.computer

    @property
    def ui(self) -> MatchUI:
        """The game commands' common path."""
        return self.parts.ui

    @property
    def replays(self) -> Replays:
        """The replays."""
        return self.parts.replays

    @property
    def reviews(self) -> Reviews:
        """The reviews and hints."""
        return self.parts.reviews

    @property
    def reminders(self) -> Reminders:
        """The reminders and automatic endings."""
        return self.parts.reminders

    @property
    def draws(self) -> Draws:
        """The draw offers' commands."""
        return self.parts.draws

    @property
    def rematches(self) -> Rematches:
        """The rematches."""
        return self.parts.rematches

    @property
    def events(self) -> TournamentService:
        """The events (tournaments)."""
        return self.parts.events

    @property
    def event_posts(self) -> EventPosts:
        """What the bot posts about events."""
        return self.parts.event_posts

    @property
    def tournaments(self) -> TournamentCommands:
        """The events' commands."""
        return self.parts.tournaments

    @property
    def sweeper(self) -> Sweeper:
        """The background work's sweeper."""
        return self.parts.sweeper

    async def prepare(self) -> None:
        """Open the database and build the parts over it, once (called by ``setup_hook``, or by tests)."""
        if self._prepared:
            return
        if self._described:
            raise RuntimeError("a bot described without a database cannot be started; make a new one")
        await self.install_translator()
        if self._store is None:
            self._store = await MatchStore.open(
                self.settings.database,
                connections=self.settings.database_connections,
                rating=ratings,
                finish_jobs=finish_jobs(self.settings),
            )
        self._build(self._store)
        # Background work (expiries, computer turns, the outbox) only for the servers on this process's shards.
        self._store.matches.shards = self.settings.shards
        self.add_dynamic_items(*buttons(self.parts))
        if self._puzzle_sets is not None:  # the shipped puzzle sets, where the database lacks them
            await self.parts.puzzles.service.load_shipped(self._puzzle_sets)
        if self.settings.puzzle_mining:
            await queue_unmined(self._store.mining, self.parts.runner, since=time.time() - BACKFILL_SECONDS)
        self._prepared = True

    def describe(self) -> app_commands.CommandTree[Any]:
        """The command tree, filled without opening the database (the bot can then not be started)."""
        if self._parts is None:
            self._described = True
            self._build(MatchStore.unopened())
        return self.tree

    def _build(self, store: MatchStore) -> None:
        self._parts = build_parts(
            store,
            self.settings,
            self,
            self.metrics,
            sleep=self._sleep,
            computer_iterations=self._computer_iterations,
            service_options=self._service_options,
        )
        add_commands(self.tree, self._parts, self.settings)

    async def start(self, token: str, *, reconnect: bool = True) -> None:
        """Open the database first, so a file the bot cannot use stops it before it logs in."""
        await self.prepare()
        await super().start(token, reconnect=reconnect)

    async def setup_hook(self) -> None:
        await self.prepare()
        await self.sync_commands()
        await self.event_posts.resume()  # events: games not yet opened, rounds that ended while stopped
        await self.announcer.resume(everything=True)  # what the last run left undelivered
        await self.computer.resume_all()
        await self.parts.runner.start()  # background jobs the last run left, and any another process queued
        settle_memory()
        self.sweeper.start()
        await self.start_metrics()

    async def on_ready(self) -> None:
        log.info(
            "Tabula is ready as %s in %d servers%s; database %s",
            self.user,
            len(self.guilds),
            f" on shards {self.settings.shards}" if self.settings.shards else "",
            describe_database(self.settings.database),
        )

    # -- what moderators and Discord do to the matches' threads (no privileged intent needed) ----------

    async def on_raw_thread_update(self, payload: discord.RawThreadUpdateEvent) -> None:
        """A thread changed: when a match's thread is locked, the match moves (an archived one is reopened
        when its match next posts)."""
        _, locked = thread_state(dict(payload.data))
        if locked:
            await self.announcer.place_changed(payload.thread_id, locked=True)

    async def on_raw_thread_delete(self, payload: discord.RawThreadDeleteEvent) -> None:
        await self.announcer.place_changed(payload.thread_id, deleted=True)

    async def on_guild_channel_delete(self, channel: discord.abc.GuildChannel) -> None:
        await self.announcer.place_changed(channel.id, deleted=True)

    async def close(self) -> None:
        """Stop gracefully (:mod:`bot.lifecycle`): no new work, the work in flight finished (bounded), the
        workers stopped, the database closed; the outbox keeps what is undelivered.  Once, however often called."""
        if self._stopping is None:
            self._stopping = asyncio.ensure_future(self._stop())
        await asyncio.shield(self._stopping)

    async def _stop(self) -> None:
        started = time.monotonic()
        finished = cut = left = 0
        try:
            self.drain.stopping = True  # new interactions hear "restarting"
            parts = self._parts
            if parts is not None:
                await parts.sweeper.stop(timeout=self.stop_seconds / 2)
            computers = parts.computer.finish() if parts is not None else []
            budget = max(0.0, self.stop_seconds - (time.monotonic() - started))
            finished, cut = await self.drain.wait(budget, *computers)
            if parts is not None:
                parts.announcer.close()  # retries end; what is undelivered stays in the outbox for the next start
                parts.computer.close()
                await parts.runner.stop()  # the slice in hand stops; what it judged is kept, its job queued again
                await asyncio.gather(
                    asyncio.to_thread(parts.renderer.workers.stop), asyncio.to_thread(parts.computer.workers.stop)
                )
            await self.stop_metrics()
            self.metrics.unwatch()
            await super().close()
            left = await self._undelivered()
        finally:
            if self._store is not None:
                await self._store.close()  # and the lock is released, whatever happened above
        why = f" on {self.stop_reason}" if self.stop_reason else ""
        log.info(
            "Tabula stopped%s in %.1f s: %d commands and computer moves in flight finished, %d cut short, "
            "%d refused while stopping; %d announcements left in the outbox for the next start",
            why,
            time.monotonic() - started,
            finished,
            cut,
            self.drain.refused,
            left,
        )

    async def _undelivered(self) -> int:
        if self._store is None or not self._prepared:
            return 0
        try:
            return (await self._store.matches.operating_counts())["announcements"]["pending"]
        except Exception:
            return 0

    def request_stop(self, reason: str) -> None:
        """Begin a graceful stop (a signal handler calls this)."""
        if self._stopping is None:
            log.debug("%s received: stopping after the work in flight (at most %g s)", reason, self.stop_seconds)
            self.stop_reason = reason
            self._stopping = asyncio.ensure_future(self._stop())

    async def stopped(self) -> None:
        """Wait until a stop that began has ended."""
        while self._stopping is None:
            await asyncio.sleep(0.05)
        await asyncio.shield(self._stopping)

    # -- metrics and health -------------------------------------------------------------

    def connected(self) -> bool:
        """Whether the bot is connected to Discord (ready, not closed, its gateway socket open)."""
        if not self.is_ready() or self.is_closed() or self._stopping is not None:
            return False
        ws = self.ws
        return ws is None or bool(getattr(ws, "open", True))

    def _handled(self, kind: str, game: str | None, seconds: float) -> None:
        self.metrics.handled(kind, game if game in GAMES else None, seconds)

    def _latencies(self) -> list[tuple[int, float]]:
        by_shard = getattr(self, "latencies", None)  # an AutoShardedClient's, per shard
        if isinstance(by_shard, list):
            return [(int(shard), float(latency)) for shard, latency in by_shard]
        return [(0, float(self.latency))]

    async def start_metrics(self) -> MetricsServer | None:
        """Serve ``/metrics`` and ``/healthz`` when ``TABULA_METRICS_PORT`` is set (tests: port 0, any free one)."""
        if self.settings.metrics_port is None or self._metrics_server is not None:
            return self._metrics_server
        shards = self.settings.shards
        probe = Probe(
            connected=self.connected,
            latencies=self._latencies,
            shards=lambda: len(shards.ids) if shards is not None else 1,
            queues=lambda: {"render": self.renderer.workers.waiting, "computer": self.computer.workers.waiting},
            counts=self.store.matches.operating_counts,
            ping=lambda: self.store.database.rows("SELECT 1"),
        )
        server = MetricsServer(self.metrics, probe, self.settings.metrics_host, self.settings.metrics_port)
        await server.start()
        self._metrics_server = server
        return server

    async def stop_metrics(self) -> None:
        if self._metrics_server is not None:
            await self._metrics_server.stop()
            self._metrics_server = None

    # -- commands -------------------------------------------------------------------

    def command_payload(self) -> list[dict[str, Any]]:
        """The exact application-command payload this bot syncs to Discord, with its localisations."""
        tree = self.describe()
        translator = tree.translator or CatalogTranslator()
        return _run_now(translated_payload(tree, translator))

    async def install_translator(self) -> None:
        """Give the tree the catalog translator, so syncing sends every description in every language."""
        if self.tree.translator is None:
            await self.tree.set_translator(CatalogTranslator())

    def command_hash(self) -> str:
        """A stable hash of :meth:`command_payload`, to sync only when commands changed."""
        text = json.dumps(self.command_payload(), sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(text.encode()).hexdigest()

    async def sync_commands(self) -> bool:
        """Sync the commands to the development server, or globally, if they changed since the last sync."""
        guild = discord.Object(self.settings.dev_guild_id) if self.settings.dev_guild_id else None
        key = f"commands-hash:{guild.id if guild else 'global'}"
        digest = self.command_hash()
        if await self.store.get_meta(key) == digest:
            log.info("application commands unchanged; not syncing")
            return False
        if guild is not None:
            self.tree.copy_global_to(guild=guild)
        await self.tree.sync(guild=guild)
        await self.store.set_meta(key, digest)
        log.info(
            "synced %d application commands to %s", len(self.command_payload()), guild.id if guild else "all servers"
        )
        return True

    # -- background work --------------------------------------------------------------

    async def expire_challenges(self) -> int:
        """Expire the overdue challenges (their messages lose their buttons); return how many."""
        return await self.parts.background.expire_challenges()

    async def sweep(self) -> int:
        """Do every kind of background work now, due or not (tests and benchmarks; the bot's own
        :class:`~bot.sweeper.Sweeper` runs each kind when it is due); return the challenges expired."""
        return await self.parts.background.sweep()


class ShardedTabulaBot(TabulaBot, discord.AutoShardedClient):
    """Tabula as an ``AutoShardedClient`` running the shards ``TABULA_SHARDS`` names (one process of several)."""


def describe_database(database: str) -> str:
    """The database for the log: a SQLite file's absolute path, or a PostgreSQL URL without its password."""
    if is_url(database):
        return redact(database)
    return os.path.abspath(database)


def _run_now(work: Coroutine[Any, Any, T]) -> T:
    """Run a coroutine that never waits (the translator answers at once) from synchronous code.

    Works with or without a running event loop: the coroutine is stepped by hand, not scheduled.
    """
    try:
        work.send(None)
    except StopIteration as done:
        return cast(T, done.value)
    work.close()
    raise RuntimeError("the command payload had to wait for something")
