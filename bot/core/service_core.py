"""The match service's core: its locks, its cache of states, finding the match a command means, and the one
write every move and forfeit goes through (:meth:`ServiceCore.commit`).

The service's parts (challenges, moves, endings and draw offers) are each handed this core: see
:mod:`bot.core.challenges`, :mod:`bot.core.moves`, :mod:`bot.core.endings`, and :mod:`bot.core.service`,
which composes them.
"""

from __future__ import annotations

import asyncio
import random
import time
import weakref
from collections import OrderedDict
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any

# AI_LEVELS, level_list and Refusal are imported from here by bot.games.common too.
from bot.core.computer_seats import AI_LEVELS as AI_LEVELS
from bot.core.computer_seats import level_list as level_list
from bot.core.computer_seats import mentions_for
from bot.core.ports import ServerSettings
from bot.core.refusals import Refusal as Refusal
from bot.core.signals import MatchFinished, MoveApplied, Signals
from bot.storage.database import N_
from bot.storage.extras_store import DrawOffer
from bot.storage.match_store import Matches
from bot.storage.records import Announcement, MatchRecord, MatchStatus, Notice, NoticeKind, ThreadMode, TurnKind
from engines import GAMES, GameState
from engines.base import legacy_forfeit_code

# The result of a match played in a thread, posted in the channel the thread came from as well.
PARENT_RESULT = Notice(NoticeKind.TURN, detail={"where": "parent"})

CHALLENGE_GONE = N_("This challenge is no longer open.")
# Why a pressed challenge is no longer open, by the match's status.
CHALLENGE_CLOSED = {
    MatchStatus.ACTIVE: N_("This challenge is no longer open: it was accepted."),
    MatchStatus.FINISHED: N_("This challenge is no longer open: it was accepted."),
    MatchStatus.DECLINED: N_("This challenge is no longer open: it was declined."),
    MatchStatus.EXPIRED: N_("This challenge is no longer open: it expired."),
    MatchStatus.CANCELLED: N_("This challenge is no longer open: it was cancelled."),
}


@dataclass(frozen=True, slots=True)
class Turn:
    """What one accepted command did: the match after it, the new state, and what is to be announced."""

    record: MatchRecord
    state: GameState
    seat: int
    kind: TurnKind
    text: str  # the move's canonical text, or the forfeit's code (engines.base.FORFEIT_CODES)
    announcements: tuple[Announcement, ...] = ()
    user_id: int = 0  # who did it (a claim's claimer; 0: not known)

    @property
    def finished(self) -> bool:
        return self.state.outcome() is not None


@dataclass(frozen=True, slots=True)
class Answer:
    """The result of a player pressing Accept or Decline on a challenge."""

    record: MatchRecord
    state: GameState | None  # set once everyone has accepted and the game began
    accepted: bool
    announcements: tuple[Announcement, ...] = ()


#: How long a finished match's thread stays open (for a last word) before it is archived.
ARCHIVE_AFTER_SECONDS = 3600.0
# Decoded states kept, one per match (its newest version).  Measured with tracemalloc: a decoded state with
# its legal moves takes 1.5 KB (Pond) to 3.3 KB (Azul), so the cache stays under ~14 MB however long the bot runs.
STATE_CACHE = 4096


@dataclass(frozen=True, slots=True)
class DrawAnswer:
    """The result of a press on a draw offer: ``how`` is accepted, declined or withdrawn."""

    record: MatchRecord
    offer: DrawOffer
    how: str
    turn: Turn | None = None  # the game's end, when the draw was accepted


DRAW_LAPSED = N_("This draw offer has lapsed: a move was played since it was made.")
DRAW_GONE = N_("This draw offer is no longer open.")


class ServiceCore:
    """What every part of the match service shares: locks, states, finding matches, committing turns.

    ``challenge_seconds`` and ``turn_seconds`` are the bot's defaults; a server's own settings
    (``server_settings``) override them for its matches, and a match's own time (``own_turn_seconds``:
    an event game's, else ``None``) overrides both.  Every committed move and finished match is published
    on ``signals``.
    """

    def __init__(
        self,
        store: Matches,
        *,
        challenge_seconds: float = 15 * 60,
        turn_seconds: float = 24 * 3600,
        clock: Callable[[], float] = time.time,
        rng: random.Random | None = None,
        server_settings: ServerSettings | None = None,
        signals: Signals | None = None,
        own_turn_seconds: Callable[[int], Awaitable[float | None]] | None = None,
    ) -> None:
        self.store = store
        self.challenge_seconds = challenge_seconds
        self.turn_seconds = turn_seconds
        self.server_settings = server_settings
        self.clock = clock
        self.rng = rng or random.SystemRandom()
        self.signals = signals if signals is not None else Signals()
        self.own_turn_seconds = own_turn_seconds
        self._locks: weakref.WeakValueDictionary[Any, asyncio.Lock] = weakref.WeakValueDictionary()
        # match id -> (version, state): one state per match, the newest seen; the least recently used go first.
        self._states: OrderedDict[int, tuple[int, GameState]] = OrderedDict()

    @asynccontextmanager
    async def channel_lock(self, channel_id: int) -> AsyncIterator[None]:
        """One channel's new challenges are made one at a time (and abandoned turns ended one at a time)."""
        lock = self._locks.get(channel_id)
        if lock is None:
            lock = self._locks[channel_id] = asyncio.Lock()
        async with lock:
            yield

    @asynccontextmanager
    async def match_lock(self, match_id: int) -> AsyncIterator[None]:
        """One match's commands run one at a time (a channel may hold many matches, each in its thread)."""
        key = ("match", match_id)
        lock = self._locks.get(key)
        if lock is None:
            lock = self._locks[key] = asyncio.Lock()
        async with lock:
            yield

    async def turn_seconds_for(self, guild_id: int) -> float:
        """The time for a turn in this server: its own setting, else the bot's."""
        if self.server_settings is None or not guild_id:
            return self.turn_seconds
        return (await self.server_settings.get(guild_id)).effective_turn_seconds(self.turn_seconds)

    async def turn_seconds_of(self, record: MatchRecord) -> float:
        """The time for a turn in ``record``: its own (an event game's), else its server's, else the bot's."""
        own = await self.own_turn_seconds(record.id) if self.own_turn_seconds is not None else None
        return own or await self.turn_seconds_for(record.guild_id)

    async def challenge_seconds_for(self, guild_id: int) -> float:
        """How long a challenge stays open in this server: its own setting, else the bot's."""
        if self.server_settings is None or not guild_id:
            return self.challenge_seconds
        return (await self.server_settings.get(guild_id)).effective_challenge_seconds(self.challenge_seconds)

    def state_of(self, record: MatchRecord) -> GameState:
        """Decode the record's state, caching each match's latest version so hot paths skip the JSON."""
        cached = self._states.get(record.id)
        if cached is not None and cached[0] == record.version:
            self._states.move_to_end(record.id)
            return cached[1]
        if record.state is None:
            raise Refusal("This game has not started yet.")
        state = GAMES[record.game].from_json(record.state)
        if cached is None or cached[0] < record.version:
            self.remember(record, state)
        return state

    def remember(self, record: MatchRecord, state: GameState) -> None:
        """Keep ``state`` as the match's current one (its older versions go), at most :data:`STATE_CACHE` matches."""
        self._states[record.id] = (record.version, state)
        self._states.move_to_end(record.id)
        while len(self._states) > STATE_CACHE:
            self._states.popitem(last=False)

    async def running_record(
        self, channel_id: int, game: str | None, *, user_id: int = 0, guild_id: int | None = None
    ) -> MatchRecord:
        """The running match a command in ``channel_id`` means (see :meth:`find`), or a polite refusal."""
        record = await self.find(channel_id, user_id, game=game, guild_id=guild_id)
        return self.started(record, game)

    def started(self, record: MatchRecord, game: str | None) -> MatchRecord:
        """``record``, if it is a running match of ``game`` (any game when ``None``); else a polite refusal."""
        if game is not None and record.game != game:
            raise Refusal(
                "This channel's game is {title}; use its `/{command}` commands.",
                title=GAMES[record.game].title,
                command=record.game,
            )
        if record.status == MatchStatus.CHALLENGE:
            raise Refusal("The game has not started yet: the challenge is still waiting for an answer.")
        if record.status != MatchStatus.ACTIVE:
            raise Refusal("This game is over. Start a new one with a `start` command.")
        return record

    async def find(
        self, channel_id: int, user_id: int, *, game: str | None = None, guild_id: int | None = None
    ) -> MatchRecord:
        """The open match a command sent in ``channel_id`` by ``user_id`` acts on.

        In a match's own thread: that match.  In a channel or thread with one match played right there
        (the player's, or when they have no other): that one.  Elsewhere, with ``guild_id``: the player's
        only running match of ``game`` in the server; with several, a refusal naming their threads.
        What is returned may still be a challenge or another game: the caller refuses that.
        """
        here = await self.store.open_matches_at(channel_id)
        for record in here:
            if record.thread_id == channel_id:
                return record
        # Matches played right here; a challenge waiting to open its own thread is not one of them.
        local = [r for r in here if not (r.thread_mode == ThreadMode.THREAD and r.thread_id is None)]
        mine_here = [r for r in local if r.seat_of(user_id) is not None and (game is None or r.game == game)]
        if len(mine_here) == 1:
            return mine_here[0]
        if len(local) == 1 and (guild_id is None or local[0].seat_of(user_id) is not None):
            return local[0]
        if guild_id is not None and user_id:
            mine = await self.store.running_matches_of(guild_id, user_id, game)
            if len(mine) == 1:
                return mine[0]
            homeless = [r for r in mine if r.followups]
            if len(mine) > 1 and len(homeless) == 1:
                # A game nothing in the server takes posts for is played from anywhere (the replies to its
                # commands); the others are played in their threads, which a command there finds above.
                return homeless[0]
            if len(mine) > 1:
                places = ", ".join(dict.fromkeys(f"<#{r.place_id}>" for r in mine if not r.followups))
                if game is None:
                    raise Refusal(
                        "You are playing several games in this server: {places}. "
                        "Use the commands in the game's thread.",
                        places=places,
                    )
                raise Refusal(
                    "You are playing several {title} games in this server: {places}. "
                    "Use the commands in the game's thread.",
                    title=GAMES[game].title,
                    places=places,
                )
        if len(local) == 1:
            return local[0]
        if len(local) > 1:
            raise Refusal("Several games are played in this channel; use the commands in your game's thread.")
        if game is not None and guild_id is not None:
            raise Refusal(
                "You have no running {title} game in this server. Start one with `/{command} start`.",
                title=GAMES[game].title,
                command=game,
            )
        raise Refusal("There is no game in this channel. Start one with a `start` command.")

    async def fresh(self, match_id: int, game: str | None) -> MatchRecord:
        """Re-read a match under its lock: it must still be running."""
        record = await self.store.get(match_id)
        if record is None:
            raise Refusal("There is no game in this channel. Start one with a `start` command.")
        return self.started(record, game)

    def unchanged(self, found: MatchRecord | None, game: str | None) -> MatchRecord | None:
        """``found`` (read before the match's lock was taken), unless a newer version is known: then ``None``."""
        if found is None:
            return None
        cached = self._states.get(found.id)
        if cached is not None and cached[0] > found.version:
            return None
        return self.started(found, game)

    @staticmethod
    def player_seat(record: MatchRecord, user_id: int) -> int:
        """``user_id``'s seat in ``record``, or a refusal for someone not playing."""
        seat = record.seat_of(user_id)
        if seat is None:
            raise Refusal("You are not playing in this game.")
        return seat

    def finish_fields(
        self, state: GameState, now: float, turn_seconds: float | None = None, record: MatchRecord | None = None
    ) -> dict[str, Any]:
        """The match's fields after ``state``: the next deadline, or the result of a finished game."""
        outcome = state.outcome()
        if outcome is None:
            return {"state": state.to_json(), "deadline": now + (turn_seconds or self.turn_seconds)}
        fields = {
            "state": state.to_json(),
            "deadline": None,
            "status": MatchStatus.FINISHED,
            "result": outcome.to_json(),
            "finished_at": now,
        }
        if record is not None and record.thread_mode == ThreadMode.THREAD:
            fields["archive_at"] = now + ARCHIVE_AFTER_SECONDS  # its thread is archived an hour later
        return fields

    async def current(self, channel_id: int) -> tuple[MatchRecord, GameState | None] | None:
        """Return the channel's open match and its state (``None`` while a challenge)."""
        record = await self.store.open_match(channel_id)
        if record is None:
            return None
        return record, None if record.state is None else self.state_of(record)

    async def running(
        self, channel_id: int, game: str | None = None, *, user_id: int = 0, guild_id: int | None = None
    ) -> tuple[MatchRecord, GameState]:
        """Return the running match of ``game`` a command in ``channel_id`` means, or refuse politely."""
        record = await self.running_record(channel_id, game, user_id=user_id, guild_id=guild_id)
        return record, self.state_of(record)

    async def position(
        self, channel_id: int, user_id: int, game: str, guild_id: int | None
    ) -> tuple[MatchRecord, GameState] | None:
        """The running match of ``game`` a command of ``user_id`` would act on, and its state (for autocomplete)."""
        try:
            return await self.running(channel_id, game, user_id=user_id, guild_id=guild_id)
        except Refusal:
            return None

    async def match_state(self, match_id: int) -> tuple[MatchRecord, GameState] | None:
        """A running match by its ID, and its state; ``None`` once it is over."""
        record = await self.store.get(match_id)
        if record is None or record.status != MatchStatus.ACTIVE:
            return None
        return record, self.state_of(record)

    async def replay(self, record: MatchRecord, upto: int | None = None) -> GameState:
        """Rebuild a match's state from its seed, options and move log (the log is the truth).

        With ``upto``, only the first ``upto`` log entries are played: the state an old announcement shows.
        """
        spec = GAMES[record.game]
        state = spec.new(players=len(record.players), seed=record.seed, **record.options)
        for entry in await self.store.log(record.id, upto):
            if entry.kind == TurnKind.MOVE:
                state = state.play(entry.text)
            else:  # rows written before forfeits were codes hold a sentence: read by the legacy reader
                state = state.forfeit(entry.seat, legacy_forfeit_code(entry.text))
        return state

    async def forfeit(self, record: MatchRecord, seat: int, user_id: int, how: str) -> Turn:
        """Log ``seat`` leaving the game as ``how``, a forfeit code (``user_id`` is who did it: a claim's claimer)."""
        state = self.state_of(record)
        return await self.commit(record, state.forfeit(seat, how), seat, user_id, TurnKind.FORFEIT, how)

    async def commit(
        self, record: MatchRecord, after: GameState, seat: int, user_id: int, kind: TurnKind, text: str
    ) -> Turn:
        """Log one move or forfeit, store the new state and record its announcement, in one transaction.

        A finished game is rated in the same transaction (the store's finish hook).
        """
        now = self.clock()
        notices = [Notice(NoticeKind.TURN, mentions=mentions_for(record.players, after))]
        if after.outcome() is not None and record.thread_mode == ThreadMode.THREAD:
            notices.append(PARENT_RESULT)  # the channel the thread came from shows every result too
        fields = self.finish_fields(after, now, await self.turn_seconds_of(record), record)
        updated, announced = await self.store.append(
            record, kind=kind, seat=seat, user_id=user_id, text=text, now=now, announce=notices, **fields
        )
        self.remember(updated, after)
        if kind == TurnKind.MOVE:
            self.signals.publish(MoveApplied(record.game))
        if updated.status == MatchStatus.FINISHED:
            self.signals.publish(MatchFinished(updated))
        return Turn(updated, after, seat, kind, text, tuple(announced), user_id)
