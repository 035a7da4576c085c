"""Tournaments: a server's event run from sign-up to the winner.

An organiser creates an event; players join (or leave) while it is open; starting it pairs round 1.
Each pairing is a normal match (rated, with the event's turn time, reminders and automatic endings),
opened as a running match in its own thread.  A round closes when its last game has a result (the
match store writes it in the transaction that finishes the match, :mod:`bot.storage.tournament_store`);
then the next round is paired at once, or the event ends.  A player who withdraws forfeits their running
game and is not paired again.  Everything is read back from the database, so after a restart
:meth:`Tournaments.resume` continues exactly: it opens the matches of a paired round that were not yet
opened, and closes a round whose last game ended while the bot was down.

The formats themselves (pairings, points, standings) are pure: :mod:`bot.core.tournament_formats`.
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
    ) -> None:
        """``forfeit(match_id, user_id)`` ends a withdrawing player's running game (the match service's);
        ``departed(guild_id, user_ids)`` names those who left the server (asked before each round is paired:
        they are withdrawn and not paired again); ``workers`` pair Swiss rounds in another process (a big
        field takes seconds, much of it Python, which in a thread would hold the bot's interpreter)."""
        self.store = store
        self._workers = workers
        self._departed = departed
        self.clock = clock
        self._forfeit = forfeit
        self._turn_seconds = turn_seconds
        self._rng = rng or random.SystemRandom()
        self._locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()

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
    ) -> Event:
        """Create an event taking entrants; refuse a format the game cannot be played in."""
        spec = GAMES[game]
        name = " ".join(name.split())[:NAME_LIMIT] or spec.title
        if format not in formats.FORMATS:
            raise Refusal("Unknown format.")
        if format == formats.TABLES and spec.max_players < 3:
            raise Refusal("{title} is a game for two: choose swiss or round robin.", title=spec.title)
        if format != formats.TABLES and spec.min_players > 2:
            raise Refusal("{title} is played at tables of three or four: choose tables.", title=spec.title)
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
            if event.status != EventStatus.OPEN:
                raise Refusal("This event is no longer taking entrants.")
            if not await self.store.join(event, user_id, name, self.clock()):
                raise Refusal("You are already entered in this event.")
            return await self.event(event_id)

    async def leave(self, event_id: int, user_id: int) -> tuple[Event, tuple[Turn, ...]]:
        """Leave an open event, or withdraw from a running one (forfeiting a running game)."""
        event = await self.event(event_id)
        if event.status == EventStatus.RUNNING:
            return await self.withdraw(event_id, user_id)
        async with self._lock(event_id):
            event = await self.event(event_id)
            if event.status != EventStatus.OPEN:
                raise Refusal("This event is over.")
            if not await self.store.leave(event, user_id, self.clock()):
                raise Refusal("You are not entered in this event.")
            return await self.event(event_id), ()

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
            if len(entrants) < MIN_ENTRANTS:
                raise Refusal("An event needs at least two entrants to start.")
            rounds = event.rounds or formats.default_rounds(event.format, len(entrants))
            rounds = min(rounds, formats.most_rounds(event.format, len(entrants)))
            try:
                event = await self._pair(event, entrants, 1, status=EventStatus.RUNNING, rounds=rounds)
            except StaleMatch:
                raise Refusal("This event has already started.") from None
        return await self._open_matches(event)

    async def cancel(self, event_id: int, *, can_manage: bool) -> Event:
        """Cancel an event (its running games play on as ordinary rated games)."""
        if not can_manage:
            raise Refusal("Only a member with the Manage Server permission can cancel an event.")
        async with self._lock(event_id):
            event = await self.event(event_id)
            if event.status in (EventStatus.FINISHED, EventStatus.CANCELLED):
                raise Refusal("This event is over.")
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
        and paired once (version-checked), and a round still being played is left alone.
        """
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

    async def _settle_cancelled(self, pairings: Sequence[Pairing]) -> None:
        """A cancelled event game (Manage Server) counts as lost by everyone at its table."""
        waiting = [p for p in pairings if p.result is None and p.match_id is not None]
        records = {r.id: r for r in await self.store.match_records([p.match_id for p in waiting if p.match_id])}
        for pairing in waiting:
            record = records.get(pairing.match_id or 0)
            if record is not None and record.status not in (MatchStatus.ACTIVE, MatchStatus.FINISHED):
                size = len(pairing.players)
                await self.store.settle(pairing, {"places": [size] * size, "scores": [0] * size, "void": True})

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
        """Open the running match of every pairing of the current round that has none yet."""
        entrants = {e.user_id: e for e in await self.store.entrants(event.id)}
        opened = []
        turn = event.turn_seconds
        if turn is None and self._turn_seconds is not None:
            turn = await self._turn_seconds(event.guild_id)
        for pairing in await self.store.pairings(event.id, event.round):
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
        return formats.standings(event.format, _entrant_rows(entrants), _played(played), max(event.rounds, 1))


def _forfeit_result(players: Sequence[int], leaver: int) -> dict[str, Any]:
    """The result of a table whose ``leaver`` withdrew before it began: they are last, the others share first."""
    size = len(players)
    return {"places": [size if user == leaver else 1 for user in players], "scores": [0] * size, "forfeit": True}


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
