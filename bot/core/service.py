"""The match service: the one place where challenges, moves and endings happen.

Commands, buttons and the deadline sweeper all call this service; it knows
nothing of discord.py beyond snowflake IDs and display names.  Each match has
an asyncio lock so that its commands run one at a time, and every write is
version-checked by the store, so two presses at the same moment can never apply
two moves, or one move twice.

A channel holds any number of matches played each in its own thread (opened by
the announcer from the challenge message once accepted), or one match played in
the channel itself (a thread, or a channel where threads are unavailable).  A
command finds its match with :meth:`MatchService.find`: the thread's match in a
match's thread, else the player's only running match of that game in the server.

The write that starts a match, plays a move or a forfeit, or closes a challenge
also records what must be announced (the outbox, :class:`~bot.storage.records.Notice`);
the results carry those announcements for the one announcer (:mod:`bot.delivery.announcer`)
to post.
"""

from __future__ import annotations

import asyncio
import random
import time
import weakref
from collections import OrderedDict
from collections.abc import AsyncIterator, Callable, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any

# AI_LEVELS, level_list and Refusal are imported from here by bot.games.common too.
from bot.core.computer_seats import AI_LEVELS as AI_LEVELS
from bot.core.computer_seats import computer_level, computer_seat, mentions_for
from bot.core.computer_seats import level_list as level_list
from bot.core.refusals import ChallengeClosed, DrawClosed
from bot.core.refusals import Refusal as Refusal
from bot.shared import ServerSettings
from bot.storage.database import N_, StaleMatch
from bot.storage.extras_store import DrawOffer, MatchExtras
from bot.storage.match_store import Matches
from bot.storage.records import Announcement, MatchRecord, MatchStatus, Notice, NoticeKind, Seat, ThreadMode, TurnKind
from bot.text.escaping import escape_name
from engines import GAMES, GameState
from engines.base import ABANDONED, AGREED, FORFEIT, TIMEOUT, legacy_forfeit_code

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


class MatchService:
    """Create, play and finish matches, one match at a time.

    ``challenge_seconds`` and ``turn_seconds`` are the bot's defaults; a server's own settings
    (``server_settings``) override them for its matches.
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
        extras: MatchExtras | None = None,
    ) -> None:
        self.store = store
        self.extras = extras  # draw offers (issue 17); the tools that build a bare service need none
        self.challenge_seconds = challenge_seconds
        self.turn_seconds = turn_seconds
        self.server_settings = server_settings
        self.clock = clock
        self._rng = rng or random.SystemRandom()
        self._locks: weakref.WeakValueDictionary[Any, asyncio.Lock] = weakref.WeakValueDictionary()
        # match id -> (version, state): one state per match, the newest seen; the least recently used go first.
        self._states: OrderedDict[int, tuple[int, GameState]] = OrderedDict()
        self.on_move: Callable[[str], None] | None = None  # told the game of every move applied (the metrics)

    # -- helpers ------------------------------------------------------------------

    @asynccontextmanager
    async def _channel(self, channel_id: int) -> AsyncIterator[None]:
        lock = self._locks.get(channel_id)
        if lock is None:
            lock = self._locks[channel_id] = asyncio.Lock()
        async with lock:
            yield

    @asynccontextmanager
    async def _match(self, match_id: int) -> AsyncIterator[None]:
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
            self._remember(record, state)
        return state

    def _remember(self, record: MatchRecord, state: GameState) -> None:
        """Keep ``state`` as the match's current one (its older versions go), at most :data:`STATE_CACHE` matches."""
        self._states[record.id] = (record.version, state)
        self._states.move_to_end(record.id)
        while len(self._states) > STATE_CACHE:
            self._states.popitem(last=False)

    async def _running(
        self, channel_id: int, game: str | None, *, user_id: int = 0, guild_id: int | None = None
    ) -> MatchRecord:
        """The running match a command in ``channel_id`` means (see :meth:`find`), or a polite refusal."""
        record = await self.find(channel_id, user_id, game=game, guild_id=guild_id)
        return self._started(record, game)

    def _started(self, record: MatchRecord, game: str | None) -> MatchRecord:
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
            if len(mine) > 1:
                places = ", ".join(dict.fromkeys(f"<#{r.place_id}>" for r in mine))
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

    async def _fresh(self, match_id: int, game: str | None) -> MatchRecord:
        """Re-read a match under its lock: it must still be running."""
        record = await self.store.get(match_id)
        if record is None:
            raise Refusal("There is no game in this channel. Start one with a `start` command.")
        return self._started(record, game)

    @staticmethod
    def _seat(record: MatchRecord, user_id: int) -> int:
        seat = record.seat_of(user_id)
        if seat is None:
            raise Refusal("You are not playing in this channel's game.")
        return seat

    def _finish_fields(
        self, state: GameState, now: float, turn_seconds: float | None = None, record: MatchRecord | None = None
    ) -> dict[str, Any]:
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

    # -- reading --------------------------------------------------------------------

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
        record = await self._running(channel_id, game, user_id=user_id, guild_id=guild_id)
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

    # -- challenges -----------------------------------------------------------------

    async def challenge(
        self,
        *,
        guild_id: int,
        channel_id: int,
        game: str,
        challenger: Seat,
        opponents: Sequence[Seat],
        options: dict[str, Any],
        computers: Sequence[str] = (),
        thread: bool = False,
    ) -> Answer:
        """Challenge ``opponents`` (people) and seat ``computers`` (levels) beside ``challenger``.

        The game starts when every invited person has accepted: at once when there is nobody
        to invite (the answer then holds the first state and its announcement).  A match with a
        computer seat is not rated.  With ``thread`` (and someone to invite) the match is played in a
        thread opened from the challenge message, so the channel may hold any number of them.
        """
        spec = GAMES[game]
        if len(computers) > spec.max_players:
            raise Refusal(
                "{title} is for {low} to {high} players.", title=spec.title, low=spec.min_players, high=spec.max_players
            )
        several = len(computers) > 1
        seated = [computer_seat(level, index, several=several) for index, level in enumerate(computers)]
        ids = [challenger.user_id, *(o.user_id for o in opponents), *(c.user_id for c in seated)]
        if challenger.user_id in ids[1:]:
            raise Refusal("You can't challenge yourself; pick someone else in this server.")
        if len(set(ids)) != len(ids):
            raise Refusal("Each opponent can be invited only once.")
        if not spec.min_players <= len(ids) <= spec.max_players:
            raise Refusal(
                "{title} is for {low} to {high} players.", title=spec.title, low=spec.min_players, high=spec.max_players
            )
        spec.new(players=len(ids), seed=0, **options)  # validates the options, raising a readable GameError
        now = self.clock()
        expires = now + await self.challenge_seconds_for(guild_id)
        async with self._channel(channel_id):
            record = await self.store.create_challenge(
                guild_id=guild_id,
                channel_id=channel_id,
                game=game,
                options=options,
                seed=self._rng.getrandbits(63),
                players=[challenger, *opponents, *seated],
                invited=[o.user_id for o in opponents],
                expires_at=expires,
                now=now,
                rated=not seated,
                thread_mode=ThreadMode.THREAD if thread else None,
            )
            if opponents:
                return Answer(record, None, True)
            return await self._begin(record, record.players, now)

    async def discard_challenge(self, record: MatchRecord) -> None:
        """Remove a challenge whose message could not be posted, so it never blocks the channel."""
        async with self._match(record.id):
            fresh = await self.store.get(record.id)
            if fresh is not None and fresh.status == MatchStatus.CHALLENGE:
                await self.store.update(fresh, status=MatchStatus.CANCELLED, deadline=None, now=self.clock())

    async def set_message(self, record: MatchRecord, message_id: int) -> MatchRecord:
        """Remember the challenge message so it can be edited when the challenge ends."""
        async with self._match(record.id):
            fresh = await self.store.get(record.id)
            if fresh is None or fresh.message_id == message_id:
                return fresh or record
            return await self.store.update(fresh, message_id=message_id)

    async def answer(self, match_id: int, user: Seat, accept: bool) -> Answer:
        """Record ``user`` accepting or declining a challenge; start the game once all accepted."""
        record = await self.store.get(match_id)
        if record is None:
            raise Refusal("This challenge no longer exists.")
        async with self._match(record.id):
            record = await self.store.get(match_id)
            assert record is not None
            if record.status != MatchStatus.CHALLENGE:
                # A late press: the answer says so, and the message loses its buttons.
                raise ChallengeClosed(CHALLENGE_CLOSED.get(record.status, CHALLENGE_GONE), record)
            challenger = record.players[0].user_id
            now = self.clock()
            if user.user_id not in record.invited:
                if user.user_id == challenger and not accept:
                    return await self._close(record, MatchStatus.DECLINED, "withdrawn", user.name, now)
                if record.seat_of(user.user_id) is not None:
                    raise Refusal("You have already accepted; waiting for the others.")
                raise Refusal("This challenge is not addressed to you.")
            if record.deadline is not None and now >= record.deadline:
                closed = await self._close(record, MatchStatus.EXPIRED, "expired", "", now)
                raise ChallengeClosed("This challenge has expired.", closed.record, closed.announcements)
            if not accept:
                return await self._close(record, MatchStatus.DECLINED, "declined", user.name, now)
            players = tuple(Seat(p.user_id, user.name if p.user_id == user.user_id else p.name) for p in record.players)
            invited = tuple(i for i in record.invited if i != user.user_id)
            if invited:
                record = await self.store.update(record, invited=invited, players=players, now=now)
                return Answer(record, None, True)
            return await self._begin(record, players, now)

    async def _close(self, record: MatchRecord, status: MatchStatus, how: str, by: str, now: float) -> Answer:
        """End a pending challenge, recording that its message must lose its buttons."""
        notice = Notice(NoticeKind.CLOSE, board=False, detail={"how": how, "by": by})
        record, announced = await self.store.update_announcing(record, [notice], status=status, deadline=None, now=now)
        return Answer(record, None, False, tuple(announced))

    async def _begin(self, record: MatchRecord, players: Sequence[Seat], now: float) -> Answer:
        seats = list(players)
        self._rng.shuffle(seats)  # who moves first is drawn at random
        state = GAMES[record.game].new(players=len(seats), seed=record.seed, **record.options)
        notices = [Notice(NoticeKind.START, mentions=mentions_for(seats, state))]
        if record.invited:  # a challenge message was posted: it loses its buttons
            notices.insert(0, Notice(NoticeKind.CLOSE, board=False, detail={"how": "accepted", "by": ""}))
        record, announced = await self.store.update_announcing(
            record,
            notices,
            players=seats,
            invited=(),
            status=MatchStatus.ACTIVE,
            state=state.to_json(),
            deadline=now + await self.turn_seconds_for(record.guild_id),
            now=now,
        )
        self._remember(record, state)
        return Answer(record, state, True, tuple(announced))

    async def expire_challenges(self) -> list[Answer]:
        """Mark every overdue challenge expired; return them, with the announcements that close their messages."""
        expired: list[Answer] = []
        for record in await self.store.expired_challenges(self.clock()):
            async with self._match(record.id):
                fresh = await self.store.get(record.id)
                if fresh is None or fresh.status != MatchStatus.CHALLENGE:
                    continue
                expired.append(await self._close(fresh, MatchStatus.EXPIRED, "expired", "", self.clock()))
        return expired

    # -- playing --------------------------------------------------------------------

    async def play(
        self, channel_id: int, user_id: int, move: str, *, game: str | None = None, guild_id: int | None = None
    ) -> Turn:
        """Apply ``user_id``'s move in the match the command means (:meth:`find`), or refuse with a reason."""
        record = await self._running(channel_id, game, user_id=user_id, guild_id=guild_id)
        return await self.play_match(record.id, user_id, move, game=game)

    async def play_match(self, match_id: int, user_id: int, move: str, *, game: str | None = None) -> Turn:
        """Apply ``user_id``'s move in match ``match_id``, or refuse with a readable reason."""
        async with self._match(match_id):
            record = await self._fresh(match_id, game)
            seat = self._seat(record, user_id)
            state = self.state_of(record)
            if state.to_move != seat:
                if state.to_move is None:
                    raise Refusal("The game is over: nobody is to move.")
                raise Refusal(
                    "It is not your turn: {player} is to move.", player=escape_name(record.players[state.to_move].name)
                )
            parsed = state.parse_move(move)
            after = state.play(parsed)
            return await self._commit(record, after, seat, user_id, TurnKind.MOVE, state.move_text(parsed))

    async def resign(
        self, channel_id: int, user_id: int, *, game: str | None = None, guild_id: int | None = None
    ) -> Turn:
        """Let a player resign: in a two-player game the other wins; with more, they leave the game."""
        found = await self._running(channel_id, game, user_id=user_id, guild_id=guild_id)
        async with self._match(found.id):
            record = await self._fresh(found.id, game)
            seat = self._seat(record, user_id)
            return await self._forfeit(record, seat, user_id, FORFEIT)

    async def claim(
        self, channel_id: int, user_id: int, *, game: str | None = None, guild_id: int | None = None
    ) -> Turn:
        """Let a waiting player claim the win once the player to move has let the deadline pass."""
        found = await self._running(channel_id, game, user_id=user_id, guild_id=guild_id)
        async with self._match(found.id):
            record = await self._fresh(found.id, game)
            seat = self._seat(record, user_id)
            state = self.state_of(record)
            late = state.to_move
            if late is None or late == seat:
                raise Refusal("It is your turn: you can't claim a win on your own time. Make a move instead.")
            if record.deadline is None or self.clock() < record.deadline:
                stamp = "<t:" + str(int(record.deadline or 0)) + ":R>"
                raise Refusal(
                    "{player} still has time to move: the deadline is {deadline}.",
                    player=escape_name(record.players[late].name),
                    deadline=stamp,
                )
            # Logged as its code under the late player's seat; the claimer is the row's user.
            return await self._forfeit(record, late, user_id, TIMEOUT)

    async def _forfeit(self, record: MatchRecord, seat: int, user_id: int, how: str) -> Turn:
        """Log ``seat`` leaving the game as ``how``, a forfeit code (``user_id`` is who did it: a claim's claimer)."""
        state = self.state_of(record)
        return await self._commit(record, state.forfeit(seat, how), seat, user_id, TurnKind.FORFEIT, how)

    async def _commit(
        self, record: MatchRecord, after: GameState, seat: int, user_id: int, kind: TurnKind, text: str
    ) -> Turn:
        """Log one move or forfeit, store the new state and record its announcement, in one transaction.

        A finished game is rated in the same transaction (the store's finish hook).
        """
        now = self.clock()
        notices = [Notice(NoticeKind.TURN, mentions=mentions_for(record.players, after))]
        if after.outcome() is not None and record.thread_mode == ThreadMode.THREAD:
            notices.append(PARENT_RESULT)  # the channel the thread came from shows every result too
        fields = self._finish_fields(after, now, await self.turn_seconds_for(record.guild_id), record)
        updated, announced = await self.store.append(
            record, kind=kind, seat=seat, user_id=user_id, text=text, now=now, announce=notices, **fields
        )
        self._remember(updated, after)
        if kind == TurnKind.MOVE and self.on_move is not None:
            self.on_move(record.game)
        return Turn(updated, after, seat, kind, text, tuple(announced), user_id)

    async def _to_cancel(self, channel_id: int, user_id: int) -> MatchRecord:
        """The open match ``/… cancel`` in ``channel_id`` means: the thread's, the channel's only one,
        or the asker's only challenge there."""
        here = await self.store.open_matches_at(channel_id)
        for record in here:
            if record.thread_id == channel_id:
                return record
        if len(here) == 1:
            return here[0]
        if not here:
            raise Refusal("There is nothing to cancel in this channel.")
        own = [r for r in here if r.status == MatchStatus.CHALLENGE and r.players[0].user_id == user_id]
        if len(own) == 1:
            return own[0]
        raise Refusal("This channel has several games and challenges: cancel a game in its own thread.")

    async def cancel(self, channel_id: int, user_id: int, *, can_manage: bool) -> Answer:
        """Cancel the channel's match (Manage Server) or withdraw one's own challenge; nothing is rated."""
        found = await self._to_cancel(channel_id, user_id)
        async with self._match(found.id):
            record = await self.store.get(found.id)
            if record is None or record.status not in (MatchStatus.CHALLENGE, MatchStatus.ACTIVE):
                raise Refusal("There is nothing to cancel in this channel.")
            own_challenge = record.status == MatchStatus.CHALLENGE and record.players[0].user_id == user_id
            if not (can_manage or own_challenge):
                raise Refusal("Only a member with the Manage Server permission can cancel a game.")
            notices = []
            if record.status == MatchStatus.CHALLENGE:
                notices.append(Notice(NoticeKind.CLOSE, board=False, detail={"how": "cancelled", "by": ""}))
            now = self.clock()
            tidy = {"archive_at": now + ARCHIVE_AFTER_SECONDS} if record.thread_id is not None else {}
            record, announced = await self.store.update_announcing(
                record, notices, status=MatchStatus.CANCELLED, deadline=None, finished_at=now, **tidy
            )
            return Answer(record, None, False, tuple(announced))

    # -- automatic endings and draw offers (issue 17) -------------------------------------

    async def abandon(self, record: MatchRecord) -> Turn | None:
        """End the turn of ``record`` as lost on time: its deadline passed twice over and nobody claimed it.

        Exactly a claim without a claimer, through the same forfeit path: the player to move loses on time
        (rated as a loss); with more than two players they leave and the others play on.  Version-checked:
        ``None`` when the match moved on since ``record`` was read (or is not due after all).
        """
        async with self._channel(record.channel_id):
            fresh = await self.store.get(record.id)
            if (
                fresh is None
                or fresh.version != record.version
                or fresh.status != MatchStatus.ACTIVE
                or fresh.deadline is None
            ):
                return None
            if self.clock() < 2 * fresh.deadline - fresh.updated_at:  # the deadline plus the turn's time
                return None
            state = self.state_of(fresh)
            late = state.to_move
            if late is None or computer_level(fresh.players[late].user_id):
                return None  # the computer never abandons; its turn is retried by the sweeper
            try:  # logged as its code: the text layer says it in each server's language
                return await self._forfeit(fresh, late, fresh.players[late].user_id, ABANDONED)
            except StaleMatch:
                return None

    def _draws(self) -> MatchExtras:
        if self.extras is None:
            raise RuntimeError("this service was built without draw offers")
        return self.extras

    async def offer_draw(
        self, channel_id: int, user_id: int, *, game: str | None = None, guild_id: int | None = None
    ) -> MatchRecord:
        """Offer the opponent a draw in the channel's two-player match; return the match it is offered in.

        The offer holds until either player moves (it is valid for the match's current version only).
        The computer declines every offer: it plays each game to the end.
        """
        found = await self._running(channel_id, game, user_id=user_id, guild_id=guild_id)
        async with self._match(found.id):
            record = await self._fresh(found.id, game)
            seat = self._seat(record, user_id)
            if GAMES[record.game].max_players != 2 or len(record.players) != 2:
                raise Refusal("Draw offers are for two-player games.")
            opponent = record.players[1 - seat]
            if computer_level(opponent.user_id):
                raise Refusal(
                    "{player} declines the draw: the computer plays every game to the end.",
                    player=escape_name(opponent.name),
                )
            pending = await self._draws().offer_draw(record, seat, user_id, self.clock())
            if pending is not None:
                if pending.seat == seat:
                    raise Refusal(
                        "You have already offered a draw; {player} can accept or decline it.",
                        player=escape_name(opponent.name),
                    )
                raise Refusal(
                    "{player} has already offered you a draw: accept or decline it with the buttons on the offer.",
                    player=escape_name(opponent.name),
                )
            return record

    async def answer_draw(self, match_id: int, version: int, user_id: int, accept: bool) -> DrawAnswer:
        """Accept or decline the draw offered at ``version`` (the one who offered may withdraw it).

        An accepted offer ends the game as a draw by agreement: logged as a forfeit of kind ``agreed``
        (so replaying the log rebuilds it), announced in the same transaction, and rated as a draw.
        """
        record = await self.store.get(match_id)
        if record is None:
            raise Refusal(DRAW_GONE)
        async with self._match(match_id):
            record = await self.store.get(match_id)
            if record is None:
                raise DrawClosed(DRAW_GONE)
            seat = record.seat_of(user_id)
            if seat is None:
                raise Refusal("This draw offer is for the players of this game.")
            offer = await self._draws().draw_offer(match_id)
            if record.status != MatchStatus.ACTIVE or offer is None or offer.version != version:
                raise DrawClosed(DRAW_GONE)
            if record.version != version:
                raise DrawClosed(DRAW_LAPSED)
            if seat == offer.seat:
                if accept:
                    raise Refusal(
                        "You can't accept your own draw offer; {player} answers it.",
                        player=escape_name(record.players[1 - seat].name),
                    )
                await self._draws().withdraw_draw(match_id, version)
                return DrawAnswer(record, offer, "withdrawn")
            if not accept:
                await self._draws().withdraw_draw(match_id, version)
                return DrawAnswer(record, offer, "declined")
            state = self.state_of(record)
            turn = await self._commit(record, state.forfeit(seat, AGREED), seat, user_id, TurnKind.FORFEIT, AGREED)
            await self._draws().withdraw_draw(match_id, version)
            return DrawAnswer(turn.record, offer, "accepted", turn)
