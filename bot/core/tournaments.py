"""Tournaments: a server's event run from sign-up to the winner.

An organiser creates an event; players join (or leave) while it is open; starting it pairs round 1.
Each pairing is a normal match (rated, with the event's turn time, reminders and automatic endings),
opened as a running match in its own thread.  A round closes when its last game has a result (the
match store writes it in the transaction that finishes the match, :mod:`bot.storage.tournament_store`);
then the next round is paired at once, or the event ends.  A player who withdraws forfeits their running
game and is not paired again.  Everything is read back from the database, so after a restart
:meth:`Tournaments.resume` continues exactly: it opens the matches of a paired round that were not yet
opened, and closes a round whose last game ended while the bot was down.

An arena has no rounds: it runs from its start for its ``duration``.  Players join (and pause, and come back)
whenever they like; each :meth:`TournamentService.look` seats whoever is free (:mod:`bot.core.arena` chooses
whom with whom) and opens their games.  A look runs when a game ends, when someone joins, and on the sweeper's
events kind: every :data:`LOOK_SECONDS` while anyone waits, and at the end time, when the arena finishes and
its games still running stop counting.  :meth:`TournamentService.next_look` tells the sweeper when.  A player
who loses an arena game on time is paused by the store, in the finishing transaction.

The formats themselves (pairings, points, standings) are pure: :mod:`bot.core.tournament_formats` and
:mod:`bot.core.arena`.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import random
import time
import weakref
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any

from bot.core import arena
from bot.core import tournament_formats as formats
from bot.core.computer_seats import computer_level, mentions_for
from bot.core.ports import Workers
from bot.core.refusals import Refusal
from bot.core.service import Turn
from bot.core.swiss import SwissError
from bot.storage.database import StaleMatch
from bot.storage.records import Announcement, MatchRecord, MatchStatus, Notice, NoticeKind, Seat
from bot.storage.tournament_store import Entrant, Event, EventFormat, EventStatus, Pairing, Tournaments
from engines import GAMES

log = logging.getLogger(__name__)

#: The longest event name (it heads every game's thread name, within Discord's 100 characters).
NAME_LIMIT = 40
MIN_ENTRANTS = 2
#: An arena's length when the organiser names none, and its time for a turn (arenas are live: minutes, not days).
ARENA_SECONDS = 3600.0
ARENA_TURN_SECONDS = 180.0
#: While anyone in an arena waits, it is looked at again this often (a game's end and a join look at once; this
#: is the safety net for what tells nobody, such as a game cancelled by a moderator, and costs a few queries).
LOOK_SECONDS = 3.0


@dataclass(frozen=True, slots=True)
class Progress:
    """What one step of an event did, for the bot to announce: matches opened, a round closed, the end."""

    event: Event
    opened: tuple[tuple[MatchRecord, tuple[Announcement, ...]], ...] = ()
    closed_round: int = 0  # the round that just closed (its standings are to be posted)
    finished: bool = False


class EventTurns:
    """An event game's own time for a turn (the event's, if it set one), read from the store once per match.

    Handed to the match service, which asks it at every turn: it needs only the store, so it exists before
    the service and the events are built.
    """

    def __init__(self, store: Tournaments) -> None:
        self.store = store
        self._turns: dict[int, float | None] = {}  # match -> its event's time for a turn (None: not an event's)

    async def turn_seconds(self, match_id: int) -> float | None:
        """Match ``match_id``'s own time for a turn, or ``None`` for an ordinary match."""
        if match_id not in self._turns:
            if len(self._turns) > 10_000:
                self._turns.clear()
            pairing = await self.store.pairing_of_match(match_id)
            event = None if pairing is None else await self.store.get(pairing.tournament_id)
            self._turns[match_id] = None if event is None else event.turn_seconds
        return self._turns[match_id]


class TournamentService:
    """Create, fill, start and run events; every write is version-checked by the store."""

    def __init__(
        self,
        store: Tournaments,
        *,
        forfeit: Callable[[int, int], Awaitable[Turn | None]] | None = None,
        clock: Callable[[], float] = time.time,
        rng: random.Random | None = None,
        turn_seconds: Callable[[int], Any] | None = None,
        departed: Callable[[int, Sequence[int]], Awaitable[set[int]]] | None = None,
        workers: Workers | None = None,
        on_due: Callable[[float], object] | None = None,
    ) -> None:
        """``forfeit(match_id, user_id)`` ends a withdrawing player's running game (the match service's);
        ``departed(guild_id, user_ids)`` names those who left the server (asked before each round is paired:
        they are withdrawn and not paired again); ``workers`` pair Swiss rounds in another process (a big
        field takes seconds, much of it Python, which in a thread would hold the bot's interpreter); ``on_due(when)``
        tells the sweeper an arena wants a look at ``when``."""
        self.store = store
        self._workers = workers
        self._departed = departed
        self.clock = clock
        self._forfeit = forfeit
        self._turn_seconds = turn_seconds
        self._rng = rng or random.SystemRandom()
        self._locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()
        self._on_due = on_due
        self._looks: dict[int, float] = {}  # running arena -> when it next wants a look (rebuilt by resume)

    def _lock(self, event_id: int) -> asyncio.Lock:
        lock = self._locks.get(event_id)
        if lock is None:
            lock = self._locks[event_id] = asyncio.Lock()
        return lock

    # -- sign-up ----------------------------------------------------------------------------

    async def create(
        self,
        *,
        guild_id: int,
        channel_id: int,
        organiser_id: int,
        name: str,
        game: str,
        format: str,
        rounds: int = 0,
        turn_seconds: float | None = None,
        starts_at: float | None = None,
        options: dict[str, Any] | None = None,
        duration: float | None = None,
    ) -> Event:
        """Create an event taking entrants; refuse a format the game cannot be played in.

        An arena runs for ``duration`` seconds (default :data:`ARENA_SECONDS`) instead of rounds, and its games'
        time for a turn defaults to :data:`ARENA_TURN_SECONDS`; every game can be played in an arena (games for
        three or four at tables)."""
        spec = GAMES[game]
        name = " ".join(name.split())[:NAME_LIMIT] or spec.title
        if format not in formats.FORMATS:
            raise Refusal("Unknown format.")
        if format == formats.TABLES and spec.max_players < 3:
            raise Refusal("{title} is a game for two: choose swiss or round robin.", title=spec.title)
        if format not in (formats.TABLES, formats.ARENA) and spec.min_players > 2:
            raise Refusal("{title} is played at tables of three or four: choose tables.", title=spec.title)
        if format == formats.ARENA:
            if rounds:
                raise Refusal("An arena runs for a time, not rounds: give a duration instead.")
            duration = duration or ARENA_SECONDS
            turn_seconds = turn_seconds or ARENA_TURN_SECONDS
        elif duration is not None:
            raise Refusal("Only an arena runs for a duration; the other formats play rounds.")
        spec.new(players=2 if format != formats.TABLES else spec.min_players, seed=1, **(options or {}))
        return await self.store.create(
            guild_id=guild_id,
            channel_id=channel_id,
            name=name,
            game=game,
            options=dict(options or {}),
            format=EventFormat(format),
            rounds=max(0, rounds),
            turn_seconds=turn_seconds,
            starts_at=starts_at,
            organiser_id=organiser_id,
            now=self.clock(),
            duration=duration,
        )

    async def event(self, event_id: int, guild_id: int | None = None) -> Event:
        found = await self.store.get(event_id)
        if found is None or (guild_id is not None and found.guild_id != guild_id):
            raise Refusal("There is no such event in this server.")
        return found

    async def join(self, event_id: int, user_id: int, name: str) -> Event:
        """Enter ``user_id``; refused once the event started, or if they are in already."""
        async with self._lock(event_id):
            event = await self.event(event_id)
            if computer_level(user_id):
                raise Refusal("Games against the computer have no place in an event.")
            if event.format == EventFormat.ARENA and event.status == EventStatus.RUNNING:
                return await self._arena_join(event, user_id, name)
            if event.status != EventStatus.OPEN:
                raise Refusal("This event is no longer taking entrants.")
            if not await self.store.join(event, user_id, name, self.clock()):
                raise Refusal("You are already entered in this event.")
            return await self.event(event_id)

    async def _arena_join(self, event: Event, user_id: int, name: str) -> Event:
        """Enter a running arena, or come back to it after a pause: free to be paired from now."""
        now = self.clock()
        entrant = next((e for e in await self.store.entrants(event.id) if e.user_id == user_id), None)
        if entrant is None:
            await self.store.join(event, user_id, name, now)
        elif not entrant.paused or not await self.store.come_back(event, user_id, now):
            raise Refusal("You are already playing in this arena.")
        return await self.event(event.id)

    async def leave(self, event_id: int, user_id: int, *, forfeit: bool = False) -> tuple[Event, tuple[Turn, ...]]:
        """Leave an open event, or withdraw from a running one (forfeiting a running game).

        In a running arena, leaving pauses: the player is not paired again until they join again, their points
        stay, and a game they are playing plays on (unless ``forfeit``: an organiser removing them)."""
        event = await self.event(event_id)
        if event.status == EventStatus.RUNNING and event.format == EventFormat.ARENA:
            return await self.pause(event_id, user_id, forfeit=forfeit)
        if event.status == EventStatus.RUNNING:
            return await self.withdraw(event_id, user_id)
        async with self._lock(event_id):
            event = await self.event(event_id)
            if event.status != EventStatus.OPEN:
                raise Refusal("This event is over.")
            if not await self.store.leave(event, user_id, self.clock()):
                raise Refusal("You are not entered in this event.")
            return await self.event(event_id), ()

    async def pause(self, event_id: int, user_id: int, *, forfeit: bool = False) -> tuple[Event, tuple[Turn, ...]]:
        """Pause ``user_id`` in a running arena (their game plays on, unless ``forfeit``)."""
        async with self._lock(event_id):
            event = await self.event(event_id)
            if event.status != EventStatus.RUNNING:
                raise Refusal("This event is not running.")
            entrant = next((e for e in await self.store.entrants(event.id) if e.user_id == user_id), None)
            if entrant is None:
                raise Refusal("You are not playing in this event.")
            if not await self.store.pause(event, user_id, self.clock()) and not forfeit:
                raise Refusal("You have paused already: join again to play on.")
            running = [p for p in await self.store.open_pairings(event.id) if user_id in p.players]
        forfeited = []
        for pairing in running if forfeit else []:
            if pairing.match_id is not None and self._forfeit is not None:
                turn = await self._forfeit(pairing.match_id, user_id)
                if turn is not None:
                    forfeited.append(turn)
        return await self.event(event_id), tuple(forfeited)

    async def withdraw(self, event_id: int, user_id: int) -> tuple[Event, tuple[Turn, ...]]:
        """Pair ``user_id`` no more; their running game of this round is forfeited (through the match service).

        Returns the event and the matches forfeited; the round may close as a result (the finish hook
        records the forfeit's result and :meth:`after_match` is called for it by whoever announces it).
        """
        async with self._lock(event_id):
            event = await self.event(event_id)
            if event.status != EventStatus.RUNNING:
                raise Refusal("This event is not running.")
            if not await self.store.withdraw(event.id, user_id, event.round):
                raise Refusal("You are not playing in this event.")
            pairings = await self.store.pairings(event.id, event.round)
        forfeited = []
        for pairing in pairings:
            if user_id not in pairing.players or pairing.result is not None:
                continue
            if pairing.match_id is None:  # paired but not opened: the others win by forfeit at once
                await self.store.settle(pairing, _forfeit_result(pairing.players, user_id))
            elif self._forfeit is not None:
                turn = await self._forfeit(pairing.match_id, user_id)
                if turn is not None:
                    forfeited.append(turn)
        return event, tuple(forfeited)

    # -- running -------------------------------------------------------------------------------

    async def start(self, event_id: int, user_id: int, *, can_manage: bool) -> Progress:
        """Start the event: fix its rounds and pair round 1.  Started once, however many press at once."""
        if not can_manage:
            raise Refusal("Only a member with the Manage Server permission can start an event.")
        async with self._lock(event_id):
            event = await self.event(event_id)
            if event.status != EventStatus.OPEN:
                raise Refusal("This event has already started.")
            entrants = await self.store.entrants(event.id)
            if self._departed is not None:
                gone = await self._departed(event.guild_id, [entrant.user_id for entrant in entrants])
                for user_id in gone:
                    await self.store.leave(event, user_id, self.clock())
                entrants = [entrant for entrant in entrants if entrant.user_id not in gone]
            if event.format == EventFormat.ARENA:  # it runs from now, however few are in yet: more may join
                now = self.clock()
                try:
                    event = await self.store.update(
                        event, now, status=EventStatus.RUNNING, ends_at=now + (event.duration or ARENA_SECONDS)
                    )
                except StaleMatch:
                    raise Refusal("This event has already started.") from None
            else:
                if len(entrants) < MIN_ENTRANTS:
                    raise Refusal("An event needs at least two entrants to start.")
                rounds = event.rounds or formats.default_rounds(event.format, len(entrants))
                rounds = min(rounds, formats.most_rounds(event.format, len(entrants)))
                try:
                    event = await self._pair(event, entrants, 1, status=EventStatus.RUNNING, rounds=rounds)
                except StaleMatch:
                    raise Refusal("This event has already started.") from None
        if event.format == EventFormat.ARENA:
            return await self.look(event.id) or Progress(event)
        return await self._open_matches(event)

    async def cancel(self, event_id: int, *, can_manage: bool) -> Event:
        """Cancel an event (its running games play on as ordinary rated games)."""
        if not can_manage:
            raise Refusal("Only a member with the Manage Server permission can cancel an event.")
        async with self._lock(event_id):
            event = await self.event(event_id)
            if event.status in (EventStatus.FINISHED, EventStatus.CANCELLED):
                raise Refusal("This event is over.")
            self._looks.pop(event_id, None)
            return await self.store.update(event, self.clock(), status=EventStatus.CANCELLED, finished_at=self.clock())

    async def after_match(self, match_id: int) -> Progress | None:
        """A match ended: if it was an event's and closed its round, pair the next round or end the event."""
        pairing = await self.store.pairing_of_match(match_id)
        if pairing is None:
            return None
        return await self.advance(pairing.tournament_id)

    async def advance(self, event_id: int) -> Progress | None:
        """Close the event's round if every game of it has a result, then pair the next one (or finish).

        Safe to call any time and from anywhere (restart, sweeper, finish of a match): a round is closed
        and paired once (version-checked), and a round still being played is left alone.  An arena is looked
        at instead (:meth:`look`).
        """
        if (await self.event(event_id)).format == EventFormat.ARENA:
            return await self.look(event_id)
        async with self._lock(event_id):
            event = await self.event(event_id)
            if event.status != EventStatus.RUNNING:
                return None
            pairings = await self.store.pairings(event.id, event.round)
            await self._settle_cancelled(pairings)
            pairings = await self.store.pairings(event.id, event.round)
            if any(p.result is None for p in pairings):
                return None
            closed = event.round
            await self._withdraw_departed(event, closed)
            try:
                if closed >= event.rounds or len(await self._playing(event)) < MIN_ENTRANTS:
                    now = self.clock()
                    event = await self.store.update(event, now, status=EventStatus.FINISHED, finished_at=now)
                    return Progress(event, closed_round=closed, finished=True)
                try:
                    event = await self._pair(event, await self.store.entrants(event.id), closed + 1)
                except SwissError:
                    # Everyone left has met everyone they could be paired with: as on Lichess, the event ends
                    # early rather than repeat a pairing or give a second bye.
                    log.info("event %s: round %s cannot be paired without a repeat; it ends", event.id, closed + 1)
                    now = self.clock()
                    event = await self.store.update(
                        event, now, status=EventStatus.FINISHED, finished_at=now, rounds=closed
                    )
                    return Progress(event, closed_round=closed, finished=True)
            except StaleMatch:
                return None
        progress = await self._open_matches(event)
        return Progress(progress.event, progress.opened, closed_round=closed)

    async def resume(self) -> list[Progress]:
        """After a restart: open the matches of paired rounds not yet opened, and close finished rounds."""
        done = []
        for event in await self.store.running():
            opened = await self._open_matches(event)
            if opened.opened:
                done.append(opened)
            advanced = await self.advance(event.id)
            if advanced is not None:
                done.append(advanced)
        return done

    # -- arenas ---------------------------------------------------------------------------------

    async def look(self, event_id: int) -> Progress | None:
        """Seat whoever in a running arena is free, or end it once its time is up; open the new games.

        Safe to call any time and from anywhere (a game's end, a join, the sweeper, a restart): the games of one
        look are stored with the event's move to the next "round", version-checked, so a player is seated once.
        """
        async with self._lock(event_id):
            event = await self.event(event_id)
            if event.status != EventStatus.RUNNING or event.format != EventFormat.ARENA:
                self._looks.pop(event_id, None)
                return None
            now = self.clock()
            busy = await self.store.open_pairings(event.id)
            if await self._settle_cancelled(busy, freed_at=now):
                busy = await self.store.open_pairings(event.id)
            try:
                if event.ends_at is not None and now >= event.ends_at:
                    # No pairing after the end; games still running count for nothing (as on Lichess).
                    event = await self.store.end_arena(event, now)
                    self._looks.pop(event.id, None)
                    return Progress(event, finished=True)
                entrants = await self.store.entrants(event.id)
                played = await self.store.pairings(event.id)
                waiting = _waiting(event, entrants, played, {user for p in busy for user in p.players})
                tables, until = arena.pair(
                    waiting, seats=GAMES[event.game].max_players, now=now, others_playing=bool(busy)
                )
                if tables:
                    event = await self.store.open_round(event, event.round + 1, tables, {}, now)
            except StaleMatch:  # a join, a pause or another look moved the event on: look again shortly
                self._plan(event_id, now + LOOK_SECONDS)
                return None
            seated = sum(len(table) for table in tables)
            soonest = [event.ends_at or now + ARENA_SECONDS]
            if seated < len(waiting):
                soonest.append(now + LOOK_SECONDS)
            if until is not None:
                soonest.append(until)
            self._plan(event.id, min(soonest))
        return await self._open_matches(event)

    def _plan(self, event_id: int, when: float) -> None:
        """Look at the arena again at ``when`` (and tell the sweeper)."""
        self._looks[event_id] = when
        if self._on_due is not None:
            self._on_due(when)

    def next_look(self) -> float | None:
        """When the soonest running arena wants a look (``None``: no arena runs here)."""
        return min(self._looks.values(), default=None)

    async def due(self) -> list[Progress]:
        """Start the open events whose start time has come (the sweeper calls this)."""
        started = []
        for event in await self.store.due_to_start(self.clock()):
            try:
                started.append(await self.start(event.id, 0, can_manage=True))
            except Refusal:  # too few entrants: it waits for the organiser (or more players)
                async with self._lock(event.id):
                    fresh = await self.event(event.id)
                    if fresh.status == EventStatus.OPEN and fresh.starts_at is not None:
                        with contextlib.suppress(StaleMatch):
                            await self.store.update(fresh, self.clock(), status=EventStatus.CANCELLED)
        return started

    async def _withdraw_departed(self, event: Event, after_round: int) -> None:
        """Withdraw the entrants who left the server (they are not paired again); their games are over already."""
        if self._departed is None or after_round >= event.rounds:
            return
        playing = [entrant.user_id for entrant in await self._playing(event)]
        for user_id in sorted(await self._departed(event.guild_id, playing)):
            if await self.store.withdraw(event.id, user_id, after_round):
                log.info("event %s: %s left the server and is not paired again", event.id, user_id)

    async def _playing(self, event: Event) -> list[Entrant]:
        return [e for e in await self.store.entrants(event.id) if e.playing]

    async def _settle_cancelled(self, pairings: Sequence[Pairing], freed_at: float | None = None) -> bool:
        """A cancelled event game (Manage Server) counts as lost by everyone at its table (an arena's: as void,
        its players free from ``freed_at``); return whether any was."""
        waiting = [p for p in pairings if p.result is None and p.match_id is not None]
        records = {r.id: r for r in await self.store.match_records([p.match_id for p in waiting if p.match_id])}
        settled = False
        for pairing in waiting:
            record = records.get(pairing.match_id or 0)
            if record is not None and record.status not in (MatchStatus.ACTIVE, MatchStatus.FINISHED):
                size = len(pairing.players)
                result = {"places": [size] * size, "scores": [0] * size, "void": True}
                settled = await self.store.settle(pairing, result, freed_at) or settled
        return settled

    async def _pair(self, event: Event, entrants: Sequence[Entrant], round_number: int, **changes: Any) -> Event:
        """Pair ``round_number`` from the stored results and store it with the event's move to it."""
        playing = [e.user_id for e in entrants if e.playing]
        numbers = {e.user_id: e.number for e in entrants}
        played = await self.store.pairings(event.id)
        total = changes.get("rounds", event.rounds)
        if event.format == EventFormat.TABLES:
            lines = formats.standings(event.format, _entrant_rows(entrants), _played(played), max(total, 1))
            ranked = [line.user_id for line in lines if line.user_id in set(playing)]
            firsts: dict[int, int] = {}
            for p in played:
                firsts[p.players[0]] = firsts.get(p.players[0], 0) + 1
            tables = formats.pair_tables(ranked, firsts)
        else:
            by_round: list[list[tuple[tuple[int, ...], Sequence[float] | None]]] = [[] for _ in range(1, round_number)]
            for p in played:
                if p.round < round_number:
                    game = _played_one(p)
                    by_round[p.round - 1].append((game.players, formats.seat_points(event.format, game)))
            # The history is rebuilt in the worker too: for thousands of players it is tens of milliseconds.
            pair = functools.partial(formats.pair_round, event.format, numbers, playing, by_round, round_number, total)
            if self._workers is not None:  # beside live work, at the lowest priority: never ahead of a move
                tables = await self._workers.run(pair, background=True)
            else:
                tables = await asyncio.to_thread(pair)
        byes = {t[0]: {"places": [1], "scores": [0], "bye": True} for t in tables if len(t) == 1}
        return await self.store.open_round(event, round_number, tables, byes, self.clock(), **changes)

    async def _open_matches(self, event: Event) -> Progress:
        """Open the running match of every pairing of the current round that has none yet (an arena's: of any
        look, since a restart may fall between a look and its games)."""
        entrants = {e.user_id: e for e in await self.store.entrants(event.id)}
        opened = []
        turn = event.turn_seconds
        if turn is None and self._turn_seconds is not None:
            turn = await self._turn_seconds(event.guild_id)
        if event.format == EventFormat.ARENA:
            pairings = await self.store.open_pairings(event.id)
        else:
            pairings = await self.store.pairings(event.id, event.round)
        for pairing in pairings:
            if pairing.bye or pairing.match_id is not None or pairing.result is not None:
                continue
            seats = [Seat(user, entrants[user].name) for user in pairing.players]
            seed = self._rng.randrange(2**31)
            state = GAMES[event.game].new(players=len(seats), seed=seed, **event.options)
            now = self.clock()
            made = await self.store.open_match(
                event,
                pairing,
                seats=seats,
                state=state.to_json(),
                seed=seed,
                deadline=now + (turn or 24 * 3600),
                notices=[Notice(NoticeKind.START, mentions=mentions_for(seats, state), detail={"event": event.id})],
                now=now,
            )
            if made is not None:
                opened.append((made[0], tuple(made[1])))
        return Progress(event, tuple(opened))

    # -- reading ----------------------------------------------------------------------------------

    async def standings(self, event: Event) -> list[formats.Line]:
        """The event's standings from its stored results."""
        entrants = await self.store.entrants(event.id)
        played = await self.store.pairings(event.id)
        if event.format == EventFormat.ARENA:
            rows = [(e.user_id, e.name, e.number, e.paused) for e in entrants]
            return arena.standings(rows, _arena_games(event, played))
        return formats.standings(event.format, _entrant_rows(entrants), _played(played), max(event.rounds, 1))


def _forfeit_result(players: Sequence[int], leaver: int) -> dict[str, Any]:
    """The result of a table whose ``leaver`` withdrew before it began: they are last, the others share first."""
    size = len(players)
    return {"places": [size if user == leaver else 1 for user in players], "scores": [0] * size, "forfeit": True}


def _arena_games(event: Event, pairings: Sequence[Pairing]) -> list[arena.Game]:
    """An arena's games in the order they were paired; one that finished after the end counts for nothing."""
    games = []
    for pairing in pairings:
        result = pairing.result
        places = None if result is None else tuple(int(p) for p in result.get("places", ()))
        late = result is not None and event.ends_at is not None and float(result.get("at", 0.0)) > event.ends_at
        games.append(arena.Game(pairing.players, places, bool(result and result.get("void")) or late))
    return games


def _waiting(
    event: Event, entrants: Sequence[Entrant], played: Sequence[Pairing], busy: set[int]
) -> list[arena.Waiting]:
    """An arena's free players (neither paused nor in a game) with what pairing them reads: rank, since when they
    wait, their last game's other players, and how often they sat first."""
    rows = [(e.user_id, e.name, e.number, e.paused) for e in entrants]
    rank = {line.user_id: line.rank for line in arena.standings(rows, _arena_games(event, played))}
    last: dict[int, frozenset[int]] = {}
    firsts: dict[int, int] = {}
    games: dict[int, int] = {}
    for pairing in played:  # in the order paired: the last one seen is each player's last game
        firsts[pairing.players[0]] = firsts.get(pairing.players[0], 0) + 1
        for user in pairing.players:
            last[user] = frozenset(pairing.players) - {user}
            games[user] = games.get(user, 0) + 1
    return [
        arena.Waiting(
            e.user_id,
            rank[e.user_id],
            e.free_since if e.free_since is not None else 0.0,
            last.get(e.user_id, frozenset()),
            firsts.get(e.user_id, 0),
            games.get(e.user_id, 0),
        )
        for e in entrants
        if not e.paused and e.user_id not in busy
    ]


def _entrant_rows(entrants: Sequence[Entrant]) -> list[tuple[int, str, int, bool]]:
    return [(e.user_id, e.name, e.number, not e.playing) for e in entrants]


def _played_one(pairing: Pairing) -> formats.Played:
    result = pairing.result
    places = None if result is None else tuple(int(p) for p in result.get("places", ()))
    scores = None if result is None else tuple(int(s) for s in result.get("scores", ()))
    void = bool(result and result.get("void"))
    return formats.Played(pairing.round, pairing.players, places, scores, void)


def _played(pairings: Sequence[Pairing]) -> list[formats.Played]:
    return [_played_one(p) for p in pairings]
