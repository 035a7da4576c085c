"""The wiring: the one place where Tabula's parts are built, each handed the parts it uses in its constructor.

``store → signals → match service → renderer → one announcer → computer players → commands → background work``.
:func:`build_parts` builds them once, over an open database (or, for a bot that is only described, over a store
without one).  What one part tells the others goes out on the one :class:`~bot.core.signals.Signals`: a move
applied and a match finished (the match service), a computer's thinking time (the computer players); the
metrics and the events subscribe here.  Nothing is assigned into a part after it is built.

Only the client (:mod:`bot.client`) imports this module; the import contracts (``[tool.importlinter]``) hold
every other module below it.
"""

from __future__ import annotations

import dataclasses
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import discord
from discord import app_commands

from bot.commands.draws import Draws, add_draw_commands
from bot.commands.errors import guarded, report
from bot.commands.help import add_help_command
from bot.commands.ladder import add_ladder_commands, ladder_buttons, show_ladder
from bot.commands.moderation import add_end_command
from bot.commands.personal import PersonalSettings, add_settings_command
from bot.commands.puzzles import PuzzleCommands, add_puzzle_command, puzzle_items, solve_view
from bot.commands.rematch import Rematches
from bot.commands.reminders import Reminders, add_reminder_command
from bot.commands.replays import Replays, replay_buttons
from bot.commands.reviews import Reviews, add_hint_commands, add_review_commands
from bot.commands.server_commands import add_server_commands
from bot.commands.taps import Taps, controls_for, tap_items
from bot.commands.tournaments import EventRecords, TournamentCommands, add_tournament_commands, sign_up_buttons
from bot.commands.ui import MatchUI
from bot.commands.views import analyse_buttons, challenge_buttons, draw_buttons, rematch_buttons, rematch_view
from bot.core.background import UNASKED_REST, BackgroundRunner, DailyLimit
from bot.core.ladders import Ladders
from bot.core.mining import MINE, PuzzleMiner
from bot.core.positions import MatchPositions
from bot.core.puzzles import PuzzleService
from bot.core.reviews import REVIEW, ReviewJobs, ReviewMaker
from bot.core.service import MatchService
from bot.core.signals import MatchFinished, MoveApplied, Signals
from bot.core.takebacks import EventGames, Takebacks
from bot.core.tournaments import EventTurns, TournamentService
from bot.delivery.announcer import Announcer
from bot.delivery.computer import ComputerPlayers, ComputerThought
from bot.delivery.daily_puzzles import DailyPuzzles
from bot.delivery.event_posts import EventPosts, ThreadTitles
from bot.delivery.members import Members
from bot.delivery.rendering import BoardRenderer
from bot.games import build_groups
from bot.metrics import Metrics
from bot.settings import Settings
from bot.storage import MatchStore
from bot.storage.extras_store import Due, MatchExtras
from bot.sweeper import Sweeper

log = logging.getLogger(__name__)

# Events due to start, and rounds a cancelled game left open, are looked at this often (a running arena with
# players waiting, or standings to write, sooner: EventPosts.next_due).
EVENT_SECONDS = 30.0
# What the sweeper is told is due: the store's kinds of background work, the events' next look, the next
# daily puzzle (or its retry), and the queue's next job to take.
_WITH_EVENTS = dataclasses.make_dataclass(
    "DueWithEvents",
    [
        *(field.name for field in dataclasses.fields(Due)),
        ("events", "float | None"),
        ("puzzles", "float | None"),
        ("jobs", "float | None"),
    ],
    frozen=True,
)


class TabulaTree(app_commands.CommandTree):
    """The command tree with one error handler for every slash command and autocomplete."""

    async def on_error(self, interaction: discord.Interaction, error: app_commands.AppCommandError) -> None:
        cause = error.original if isinstance(error, app_commands.CommandInvokeError) else error
        await report(interaction, cause)


class Background:
    """The bot's background work, each kind run by the sweeper when it is due: challenges that expire,
    reminders and abandoned turns, the outbox, threads to archive, the events, the daily puzzles, and the queue
    of background jobs (the runner drains it by itself when a job is submitted; the sweeper wakes it for another
    process's job and for a lease that ran out)."""

    def __init__(
        self,
        *,
        service: MatchService,
        announcer: Announcer,
        reminders: Reminders,
        computer: ComputerPlayers,
        event_posts: EventPosts,
        extras: MatchExtras,
        daily: DailyPuzzles,
        runner: BackgroundRunner,
        clock: Callable[[], float],
    ) -> None:
        self.service = service
        self.announcer = announcer
        self.reminders = reminders
        self.computer = computer
        self.event_posts = event_posts
        self.extras = extras
        self.daily = daily
        self.runner = runner
        self.clock = clock
        self.events_next = 0.0  # events are looked at every EVENT_SECONDS

    async def expire_challenges(self) -> int:
        """Expire the overdue challenges (their messages lose their buttons); return how many."""
        expired = await self.service.expire_challenges()
        for answer in expired:
            await self.announcer.deliver(answer.announcements)
        return len(expired)

    async def sweep(self) -> int:
        """Do every kind of background work now, due or not (tests and benchmarks; the sweeper runs each kind
        when it is due); return the challenges expired."""
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
        await self.daily.run()  # the daily puzzles due, and their retries
        await self.run_jobs()
        return expired

    async def next_due(self, now: float) -> Any:
        """When each kind of background work is next due: the store's answer, the events' next look, the daily
        puzzles' and the queue's."""
        due = await self.extras.next_due(now)
        times = {field.name: getattr(due, field.name) for field in dataclasses.fields(due)}
        arenas = self.event_posts.next_due()
        return _WITH_EVENTS(
            **times,
            events=self.events_next if arenas is None else min(self.events_next, arenas),
            puzzles=await self.daily.next_due(now),
            jobs=await self.runner.next_due(),
        )

    async def run_jobs(self) -> None:
        """Have the runner look at the queue of background jobs (it takes them in a task of its own)."""
        self.runner.wake()

    async def run_events(self) -> None:
        """Start the events due to start, close rounds a cancelled game left open, look at the arenas and write
        their standings when due; look again later."""
        self.events_next = self.clock() + EVENT_SECONDS
        await self.event_posts.resume()

    def sweeper(self) -> Sweeper:
        """The sweeper that runs each kind of this work when it is due."""
        return Sweeper(
            self.next_due,
            {
                "challenges": self.expire_challenges,
                "reminders": self.reminders.sweep,
                "endings": self.reminders.sweep,
                "outbox": self.announcer.resume,
                "archives": self.announcer.threads.archive_threads,
                "events": self.run_events,
                "puzzles": self.daily.run,
                "jobs": self.run_jobs,
            },
            clock=self.clock,
        )


@dataclass(frozen=True)
class Parts:
    """Every part of a running bot, built once by :func:`build_parts`."""

    store: MatchStore
    signals: Signals
    service: MatchService
    renderer: BoardRenderer
    ladders: Ladders
    announcer: Announcer
    computer: ComputerPlayers
    ui: MatchUI
    replays: Replays
    reviews: Reviews
    runner: BackgroundRunner
    reminders: Reminders
    draws: Draws
    rematches: Rematches
    taps: Taps
    puzzles: PuzzleCommands
    daily: DailyPuzzles
    personal: PersonalSettings
    events: TournamentService
    event_posts: EventPosts
    tournaments: TournamentCommands
    background: Background
    sweeper: Sweeper


def build_parts(
    store: MatchStore,
    settings: Settings,
    client: discord.Client,
    metrics: Metrics,
    *,
    sleep: Callable[[float], Awaitable[None]],
    computer_iterations: int | None = None,
    service_options: dict[str, Any] | None = None,
) -> Parts:
    """Build every part over ``store``, each handed what it uses; ``client`` reaches Discord's channels.

    ``service_options`` adjust the match service (tests: its ``clock`` and ``rng``); its clock is every part's.
    """
    options: dict[str, Any] = {
        "challenge_seconds": settings.challenge_minutes * 60,
        "turn_seconds": settings.turn_hours * 3600,
        "server_settings": store.settings,
        **(service_options or {}),
    }
    clock: Callable[[], float] = options.get("clock", time.time)
    signals = Signals()
    signals.subscribe(MoveApplied, lambda moved: metrics.moved(moved.game))
    signals.subscribe(ComputerThought, lambda thought: metrics.thought(thought.level, thought.seconds))
    service = MatchService(
        store.matches,
        extras=store.extras,
        signals=signals,
        own_turn_seconds=EventTurns(store.tournaments).turn_seconds,  # an event game's own time for a turn
        **options,
    )
    renderer = BoardRenderer(settings.render_processes)
    in_event = EventGames(store.tournaments.pairing_of_match)  # an event game's board offers no Take back
    controls = controls_for(in_event)

    ladders = Ladders(store.ratings)
    announcer = Announcer(
        store.matches,
        service,
        renderer,
        ladders,
        client,
        result_view=rematch_view,
        board_view=controls,  # the next move by taps, from the board post itself
        clock=clock,
        sleep=sleep,
        languages=store.settings,
        thread_titles=ThreadTitles(store.tournaments),  # an event game's thread is named after its round
    )
    computer = ComputerPlayers(
        service, announcer, processes=settings.ai_processes, iterations=computer_iterations, signals=signals
    )
    ui = MatchUI(service, announcer, renderer, computer, store.settings, controls, settings.docs_url)
    replays = Replays(store.matches, renderer.workers, languages=store.settings)
    # The computer's reviews of finished games, and hints in practice games.  Reviews are background jobs: the
    # runner takes them fairly from the queue, a slice at a time, into the computer's niced background process.
    maker = ReviewMaker(store.reviews, computer.workers, iterations=computer_iterations)
    runner = BackgroundRunner(
        store.jobs,
        {
            REVIEW: ReviewJobs(maker, replays.rebuilt),
            # Every finished match is mined for puzzles, behind the reviews members ask for; its positions are
            # rebuilt in the background process (as a worker process does), not in the render process that
            # answers replay buttons, and outside the replays' cache.
            MINE: PuzzleMiner(
                store.mining,
                store.puzzles,
                MatchPositions(store.matches, computer.workers).rebuilt,
                computer.workers,
                iterations=computer_iterations,
            ),
        },
        limits={REVIEW: DailyLimit(settings.reviews_per_member_day, settings.reviews_per_server_day)},
        clock=clock,
        unasked_rest=UNASKED_REST,  # mining rests between slices in the bot's own process
    )
    reviews = Reviews(
        maker=maker,
        runner=runner,
        replays=replays,
        render_workers=renderer.workers,
        computer_workers=computer.workers,
        languages=store.settings,
        settings=store.settings,
        matches=store.matches,
        service=service,
    )
    # Reminders, automatic endings, draw offers and rematches.
    reminders = Reminders(service, store.extras, store.settings, announcer, computer, clock=clock)
    draws = Draws(service, announcer, store.settings)
    rematches = Rematches(ui, store.matches, store.extras)
    # Moves by taps from the board post, and taking a move back (never in an event game).
    takebacks = Takebacks(service.core, store.extras, in_event)
    taps = Taps(ui, renderer, store.extras, takebacks)
    personal = PersonalSettings(store.extras)
    # Puzzles: /puzzle privately, and each server's daily puzzle (a kind of background work).
    puzzles = PuzzleCommands(PuzzleService(store.puzzles, clock=clock), renderer)
    daily = DailyPuzzles(
        store.puzzles,
        store.settings,
        renderer,
        client,
        store.settings,
        solve_view,
        clock=clock,
        on_due=lambda when: store.matches.on_due(when) if store.matches.on_due is not None else None,
    )

    # Tournaments: events whose rounds run themselves as their games end.  An arena asks the sweeper for a look
    # within seconds while anyone waits, and for its standings' next write.
    def wake_at(when: float) -> None:
        if store.matches.on_due is not None:
            store.matches.on_due(when)

    events = TournamentService(
        store.tournaments,
        forfeit=service.withdraw,
        clock=clock,
        turn_seconds=service.turn_seconds_for,
        departed=Members(client.http).departed,  # who left the server, asked before each round
        workers=computer.workers,  # Swiss pairing of a big field: its own process, not the bot's
        on_due=wake_at,
    )
    event_posts = EventPosts(events, store.matches, announcer, client, store.settings, on_due=wake_at)
    signals.subscribe(MatchFinished, event_posts.match_finished)  # an event runs its rounds on
    signals.subscribe(MatchFinished, lambda finished: runner.wake())  # its mining was queued as it finished
    tournaments = TournamentCommands(events, event_posts, store.settings, clock)
    # Background work wakes when something is due; every write that makes something due tells it.
    background = Background(
        service=service,
        announcer=announcer,
        reminders=reminders,
        computer=computer,
        event_posts=event_posts,
        extras=store.extras,
        daily=daily,
        runner=runner,
        clock=clock,
    )
    sweeper = background.sweeper()
    store.matches.on_due = sweeper.due_at  # the store's own hook: it tells whoever runs the background work
    return Parts(
        store=store,
        signals=signals,
        service=service,
        renderer=renderer,
        ladders=ladders,
        announcer=announcer,
        computer=computer,
        ui=ui,
        replays=replays,
        reviews=reviews,
        runner=runner,
        reminders=reminders,
        draws=draws,
        rematches=rematches,
        taps=taps,
        puzzles=puzzles,
        daily=daily,
        personal=personal,
        events=events,
        event_posts=event_posts,
        tournaments=tournaments,
        background=background,
        sweeper=sweeper,
    )


def add_commands(tree: app_commands.CommandTree[Any], parts: Parts, settings: Settings) -> None:
    """Fill ``tree`` with the commands of ``parts`` (replacing any before)."""
    tree.clear_commands(guild=None)
    groups = build_groups(parts.ui)
    add_draw_commands(groups, parts.draws)  # /<game> draw
    add_hint_commands(groups, parts.reviews)  # /<game> hint
    for group in groups:
        tree.add_command(group)
    add_reminder_command(tree, parts.reminders)
    add_settings_command(tree, parts.personal)
    add_ladder_commands(
        tree, parts.service, parts.ladders, parts.ui, parts.replays, EventRecords(parts.events), parts.store.puzzles
    )
    add_puzzle_command(tree, parts.puzzles)
    add_help_command(tree, settings.docs_url)
    add_review_commands(tree, parts.reviews)
    add_tournament_commands(tree, parts.tournaments)
    moderation = add_server_commands(
        tree,
        parts.store.settings,
        turn_hours=settings.turn_hours,
        challenge_minutes=settings.challenge_minutes,
        puzzles=parts.daily,
    )
    add_end_command(moderation, parts.ui)  # a moderator ends any running match


def buttons(parts: Parts) -> list[type[discord.ui.DynamicItem[Any]]]:
    """The persistent buttons (challenges, ladders, replays, draws, rematches, events, reviews, puzzles) of
    ``parts``."""
    ui, ladders, replays, draws, rematches = parts.ui, parts.ladders, parts.replays, parts.draws, parts.rematches
    tournaments, reviews = parts.tournaments, parts.reviews

    async def answer(interaction: discord.Interaction[Any], match_id: int, accept: bool) -> None:
        await guarded(interaction, ui.answer(interaction, match_id, accept))

    async def page(interaction: discord.Interaction[Any], game: str, number: int) -> None:
        await guarded(interaction, show_ladder(ladders, interaction, game, number, edit=True, languages=ui))

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

    return [
        analyse_buttons(analyse),
        sign_up_buttons(sign_up),
        challenge_buttons(answer),
        ladder_buttons(page),
        replay_buttons(step),
        draw_buttons(draw),
        rematch_buttons(rematch),
        *tap_items(parts.taps),
        *puzzle_items(parts.puzzles),
    ]
