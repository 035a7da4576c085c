"""The Discord client and the composition root: the one place where Tabula's parts are wired.

``store → match service → renderer → one announcer → computer players → command groups``.
No other bot module imports this one, not even for types: each part receives what it
uses, typed by small protocols where a whole class would be too much.
"""

from __future__ import annotations

import asyncio
import dataclasses
import gc
import hashlib
import json
import logging
import os
import time
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any, TypeVar, cast

import discord
from discord import app_commands

from bot.commands.draws import Draws, add_draw_commands
from bot.commands.errors import guarded, report
from bot.commands.help import add_help_command
from bot.commands.ladder import add_ladder_commands, ladder_buttons, show_ladder
from bot.commands.moderation import add_end_command
from bot.commands.rematch import Rematches
from bot.commands.reminders import Reminders, add_reminder_command
from bot.commands.replays import Replays, replay_buttons
from bot.commands.reviews import Reviews, add_hint_commands, add_review_commands
from bot.commands.server_commands import add_server_commands
from bot.commands.tournaments import EventRecords, TournamentCommands, add_tournament_commands, sign_up_buttons
from bot.commands.ui import MatchUI
from bot.commands.views import analyse_buttons, challenge_buttons, draw_buttons, rematch_buttons
from bot.core.ladders import Ladders
from bot.core.reviews import ReviewMaker
from bot.core.service import MatchService
from bot.core.tournaments import TournamentService
from bot.delivery.announcer import Announcer
from bot.delivery.computer import ComputerPlayers
from bot.delivery.event_posts import EventPosts
from bot.delivery.members import Members
from bot.delivery.places import thread_state
from bot.delivery.rendering import BoardRenderer
from bot.games import build_groups
from bot.lifecycle import DRAIN_SECONDS, Drain
from bot.metrics import Metrics, MetricsServer, Probe
from bot.settings import Settings
from bot.storage import MatchStore
from bot.storage.database import is_url, redact
from bot.storage.extras_store import Due
from bot.storage.settings_store import GuildSettingsStore
from bot.sweeper import Sweeper
from bot.text.translator import CatalogTranslator, translated_payload
from engines import GAMES

log = logging.getLogger(__name__)
T = TypeVar("T")

# Events due to start, and rounds a cancelled game left open, are looked at this often.
EVENT_SECONDS = 30.0
# What the sweeper is told is due: the store's kinds of background work, and the events' next look.
_WITH_EVENTS = dataclasses.make_dataclass(
    "DueWithEvents", [*(field.name for field in dataclasses.fields(Due)), ("events", "float | None")], frozen=True
)


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


def intents() -> discord.Intents:
    """The gateway intents Tabula needs: servers and channels only, nothing privileged."""
    wanted = discord.Intents.none()
    wanted.guilds = True
    return wanted


class TabulaTree(app_commands.CommandTree):
    """The command tree with one error handler for every slash command and autocomplete."""

    async def on_error(self, interaction: discord.Interaction, error: app_commands.AppCommandError) -> None:
        cause = error.original if isinstance(error, app_commands.CommandInvokeError) else error
        await report(interaction, cause)


class TabulaBot(discord.Client):
    """Tabula's client.  ``store`` may be given (tests); otherwise it is opened from the settings.

    Every part is built by :meth:`_wire`, handed the parts it uses, and the command tree is filled
    with commands holding those parts.  The tree exists at once (so ``--print-commands`` needs no
    database): a bot not yet prepared is wired over a store without a database, and :meth:`prepare`
    opens the database and wires the parts again over it.
    """

    def __init__(
        self,
        settings: Settings,
        *,
        store: MatchStore | None = None,
        computer_iterations: int | None = None,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
        stop_seconds: float = DRAIN_SECONDS,
        **service_options: Any,
    ) -> None:
        sharding: dict[str, Any] = {}
        if settings.shards is not None and isinstance(self, discord.AutoShardedClient):
            sharding = {"shard_ids": list(settings.shards.ids), "shard_count": settings.shards.count}
        super().__init__(intents=intents(), allowed_mentions=discord.AllowedMentions.none(), **sharding)
        self.settings = settings
        self.tree = TabulaTree(self)
        self.renderer = BoardRenderer(settings.render_processes)
        self._store = store
        self._service_options = service_options
        self._computer_iterations = computer_iterations
        self._sleep = sleep
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
        # The command tree exists at once (``--print-commands`` needs no database): until prepare() opens
        # the database, its parts are built over a store that has none, and refuse to work.
        self._wire(store if store is not None else MatchStore.unopened())

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

    async def prepare(self) -> None:
        """Open the database and wire the parts over it (called by ``setup_hook``, or by tests)."""
        if self._prepared:
            return
        await self.install_translator()
        if self._store is None:
            self._store = await MatchStore.open(self.settings.database, connections=self.settings.database_connections)
            self._wire(self._store)
        # Background work (expiries, computer turns, the outbox) only for the servers on this process's shards.
        self._store.matches.shards = self.settings.shards
        self._add_buttons()
        self._prepared = True

    def _wire(self, store: MatchStore) -> None:
        """Build every part over ``store``, each handed what it uses, then the commands that call them."""
        options: dict[str, Any] = {
            "challenge_seconds": self.settings.challenge_minutes * 60,
            "turn_seconds": self.settings.turn_hours * 3600,
            **self._service_options,
        }
        clock: Callable[[], float] = options.get("clock", time.time)
        options.setdefault("server_settings", store.settings)
        self.service = MatchService(store.matches, extras=store.extras, **options)
        self.service.on_move = self.metrics.moved
        self.ladders = Ladders(store.ratings)
        self.announcer = Announcer(
            store.matches,
            self.service,
            self.renderer,
            self.ladders,
            self,
            clock=clock,
            sleep=self._sleep,
            languages=store.settings,
        )
        self.computer = ComputerPlayers(
            self.service, self.announcer, processes=self.settings.ai_processes, iterations=self._computer_iterations
        )
        self.computer.on_think = self.metrics.thought
        self.ui = MatchUI(self.service, self.announcer, self.renderer, self.computer, store.settings)
        self.replays = Replays(store.matches, self.renderer.workers, languages=store.settings)
        # The computer's reviews of finished games and hints in practice games.
        self.reviews = Reviews(
            ReviewMaker(store.reviews, self.computer.workers, iterations=self._computer_iterations),
            self.replays,
            self.renderer.workers,
            self.computer.workers,
            store.settings,
            store.settings,
            store.matches,
            self.service,
        )
        # Reminders, automatic endings, draw offers and rematches.
        self.reminders = Reminders(
            self.service, store.extras, store.settings, self.announcer, self.computer, clock=clock
        )
        self.draws = Draws(self.service, self.announcer, store.settings)
        self.rematches = Rematches(self.ui, store.matches, store.extras)
        # Tournaments: events whose rounds run themselves as their games end.
        self.events = TournamentService(
            store.tournaments,
            forfeit=self.service.withdraw,
            clock=clock,
            turn_seconds=self.service.turn_seconds_for,
            departed=Members(self.http).departed,  # who left the server, asked before each round
            workers=self.computer.workers,  # Swiss pairing of a big field: its own process, not the bot's
        )
        self.event_posts = EventPosts(self.events, store.matches, self.announcer, self, store.settings)
        self.service.finished = self.event_posts.match_finished
        self.service.own_turn_seconds = self.event_posts.turn_seconds
        self.announcer.threads.titles = self.event_posts.thread_title
        self.tournaments = TournamentCommands(self.events, self.event_posts, store.settings, clock)
        # Background work wakes when something is due; every write that makes something due tells it.
        self._events_next = 0.0  # events are looked at every EVENT_SECONDS, like the old sweep
        self.sweeper = Sweeper(
            self._next_due,
            {
                "challenges": self.expire_challenges,
                "reminders": self.reminders.sweep,
                "endings": self.reminders.sweep,
                "outbox": self.announcer.resume,
                "archives": self.announcer.threads.archive_threads,
                "events": self._run_events,
            },
            clock=clock,
        )
        store.matches.on_due = self.sweeper.due_at
        self._add_commands(store.settings)

    def _add_commands(self, server_settings: GuildSettingsStore) -> None:
        """Fill the command tree with the commands of the parts just built (replacing any before)."""
        self.tree.clear_commands(guild=None)
        groups = build_groups(self.ui)
        add_draw_commands(groups, self.draws)  # /<game> draw, in two-player games
        add_hint_commands(groups, self.reviews)  # /<game> hint, in practice games
        for group in groups:
            self.tree.add_command(group)
        add_reminder_command(self.tree, self.reminders)
        add_ladder_commands(self.tree, self.service, self.ladders, self.ui, self.replays, EventRecords(self.events))
        add_help_command(self.tree)
        add_review_commands(self.tree, self.reviews)
        add_tournament_commands(self.tree, self.tournaments)
        moderation = add_server_commands(
            self.tree,
            server_settings,
            turn_hours=self.settings.turn_hours,
            challenge_minutes=self.settings.challenge_minutes,
        )
        add_end_command(moderation, self.ui)  # a moderator ends any running match

    def _add_buttons(self) -> None:
        """The persistent buttons (challenges, ladders, replays, draws, rematches, reviews), once wired."""
        ui, ladders, replays, draws, rematches = self.ui, self.ladders, self.replays, self.draws, self.rematches
        tournaments, reviews = self.tournaments, self.reviews

        async def answer(interaction: discord.Interaction[Any], match_id: int, accept: bool) -> None:
            await guarded(interaction, ui.answer(interaction, match_id, accept))

        async def page(interaction: discord.Interaction[Any], game: str, number: int) -> None:
            await guarded(interaction, show_ladder(ladders, interaction, game, number, edit=True))

        async def step(interaction: discord.Interaction[Any], match_id: int, ply: int, how: str) -> None:
            await guarded(interaction, replays.step(interaction, match_id, ply, how))

        async def draw(interaction: discord.Interaction[Any], match_id: int, version: int, accept: bool) -> None:
            await guarded(interaction, draws.answer(interaction, match_id, version, accept))

        async def rematch(interaction: discord.Interaction[Any], match_id: int) -> None:
            await guarded(interaction, rematches.press(interaction, match_id))

        async def sign_up(interaction: discord.Interaction[Any], event_id: int, join: bool) -> None:
            await guarded(interaction, tournaments.sign_up(interaction, event_id, join))

        async def analyse(interaction: discord.Interaction[Any], match_id: int) -> None:
            await guarded(interaction, reviews.analyse(interaction, match_id))

        self.add_dynamic_items(
            analyse_buttons(analyse),
            sign_up_buttons(sign_up),
            challenge_buttons(answer),
            ladder_buttons(page),
            replay_buttons(step),
            draw_buttons(draw),
            rematch_buttons(rematch),
        )

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
            await self.sweeper.stop(timeout=self.stop_seconds / 2)
            computers = self.computer.finish()
            budget = max(0.0, self.stop_seconds - (time.monotonic() - started))
            finished, cut = await self.drain.wait(budget, *computers)
            self.announcer.close()  # retries end; what is undelivered stays in the outbox for the next start
            self.computer.close()
            self.reviews.maker.close()  # reviews in progress stop; what they judged is kept
            await asyncio.gather(
                asyncio.to_thread(self.renderer.workers.stop), asyncio.to_thread(self.computer.workers.stop)
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
        translator = self.tree.translator or CatalogTranslator()
        return _run_now(translated_payload(self.tree, translator))

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
        expired = await self.service.expire_challenges()
        for answer in expired:
            await self.announcer.deliver(answer.announcements)
        return len(expired)

    async def sweep(self) -> int:
        """Do every kind of background work now, due or not (tests and benchmarks; the bot's own
        :class:`~bot.sweeper.Sweeper` runs each kind when it is due); return the challenges expired."""
        expired = await self.expire_challenges()
        try:
            await self.reminders.sweep()  # reminders due, and turns abandoned twice over end on time
        except Exception:
            log.exception("reminders and automatic endings failed this time; the outbox and computers go on")
        await self.announcer.resume()  # what is due again in the outbox
        await self.announcer.threads.archive_threads()  # finished matches' threads, an hour after the end
        await self.computer.resume_all()  # a computer turn that failed is tried again
        try:
            await self.event_posts.resume()  # events due to start, rounds to close (a cancelled game)
        except Exception:
            log.exception("running the events failed this time")
        return expired

    async def _next_due(self, now: float) -> Any:
        """When each kind of background work is next due: the store's answer, and the events' next look."""
        due = await self.store.extras.next_due(now)
        times = {field.name: getattr(due, field.name) for field in dataclasses.fields(due)}
        return _WITH_EVENTS(**times, events=self._events_next)

    async def _run_events(self) -> None:
        """Start the events due to start and close rounds a cancelled game left open; look again later."""
        self._events_next = self.sweeper.clock() + EVENT_SECONDS
        await self.event_posts.resume()


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
