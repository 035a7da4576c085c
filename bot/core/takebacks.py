"""Taking a move back: asked by the player who just moved, granted by every other player (or at once by the
computer), until the next player moves.

What may be taken back is the asker's last move and, in a game against the computer, the computer's replies
since: every ply after the asker's move must be a computer's, or someone else has moved and it is too late.
The engine says which plies may be taken back at all (:attr:`engines.base.GameState.may_take_back`: never a
ply that revealed something drawn at random, never one that ended the game).  Event games never allow it.

The move log stays the truth: a granted takeback removes the taken-back plies from the log in the same
version-checked transaction that stores the position before them, so replays, records, reviews and ratings
show the game as it was finally played.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass

from bot.core.computer_seats import computer_level, mentions_for
from bot.core.names import escape_name
from bot.core.refusals import Refusal
from bot.core.service_core import ServiceCore
from bot.storage.database import N_
from bot.storage.extras_store import MatchExtras, TakebackOffer
from bot.storage.records import Announcement, MatchRecord, MatchStatus, Notice, NoticeKind, TurnKind
from engines import GameState

TAKEBACK_GONE = N_("This request to take a move back is no longer open.")
TAKEBACK_LAPSED = N_("This request has lapsed: a move was played since it was made.")


@dataclass(frozen=True, slots=True)
class TakenBack:
    """A granted takeback: the match and state after it, how many plies went, and what is to be announced."""

    record: MatchRecord
    state: GameState
    seat: int  # who asked
    plies: int
    announcements: tuple[Announcement, ...] = ()


@dataclass(frozen=True, slots=True)
class TakebackAnswer:
    """What a press on a request did: ``how`` is ``asked``, ``agreed`` (others still to answer), ``declined``,
    ``withdrawn`` or ``granted`` (then ``done`` holds the takeback)."""

    record: MatchRecord
    offer: TakebackOffer | None
    how: str
    done: TakenBack | None = None
    waiting: tuple[int, ...] = ()  # the seats still to answer


class EventGames:
    """Whether a match is an event game, asked of the tournaments' store once per match (it never changes:
    an event's games are paired as they are made); at most ``kept`` answers are kept."""

    def __init__(self, pairing_of_match: Callable[[int], Awaitable[object | None]], kept: int = 10_000) -> None:
        self.pairing_of_match = pairing_of_match
        self.kept = kept
        self._known: dict[int, bool] = {}

    async def __call__(self, match_id: int) -> bool:
        known = self._known.get(match_id)
        if known is None:
            if len(self._known) >= self.kept:
                self._known.clear()
            known = self._known[match_id] = await self.pairing_of_match(match_id) is not None
        return known


class Takebacks:
    """Requests to take moves back, on the service's ``core``, kept in ``extras``.

    ``in_event`` tells whether a match is an event game (the tournaments' store), where nothing is taken back.
    """

    def __init__(self, core: ServiceCore, extras: MatchExtras, in_event: Callable[[int], Awaitable[bool]]) -> None:
        self.core = core
        self.extras = extras
        self.in_event = in_event

    async def ask(self, match_id: int, version: int, user_id: int) -> TakebackAnswer:
        """``user_id`` asks to take back their last move in match ``match_id`` as it stood at ``version``.

        Against computers only, it is granted at once (their replies since go too); otherwise the request
        waits for every other player's answer.
        """
        async with self.core.match_lock(match_id):
            record = await self._running(match_id)
            seat = self.core.player_seat(record, user_id)
            if record.version != version:
                raise Refusal(
                    "The game has moved on since that board: a move can be taken back only until the next player moves."
                )
            keep, before = await self._keep(record, seat)
            others = self._others(record, seat)
            if not others:
                done = await self._take_back(record, seat, keep, before)
                return TakebackAnswer(done.record, None, "granted", done)
            now = self.core.clock()
            pending = await self.extras.ask_takeback(record, seat, user_id, keep, now)
            if pending is not None:
                if pending.seat == seat:
                    raise Refusal("You have already asked; the other players can accept or decline.")
                raise Refusal(
                    "{player} has already asked to take back a move: answer with the buttons on the request.",
                    player=escape_name(record.players[pending.seat].name),
                )
            offer = TakebackOffer(match_id, record.version, seat, user_id, keep, (), now)  # as just written
            return TakebackAnswer(record, offer, "asked", waiting=others)

    async def answer(self, match_id: int, version: int, user_id: int, accept: bool) -> TakebackAnswer:
        """Accept or decline the request made at ``version`` (the one who asked may withdraw it)."""
        async with self.core.match_lock(match_id):
            record = await self.core.store.get(match_id)
            if record is None:
                raise Refusal(TAKEBACK_GONE)
            seat = record.seat_of(user_id)
            if seat is None:
                raise Refusal("This request is for the players of this game.")
            offer = await self.extras.takeback_offer(match_id)
            if record.status != MatchStatus.ACTIVE or offer is None or offer.version != version:
                raise Refusal(TAKEBACK_GONE)
            if record.version != version:
                raise Refusal(TAKEBACK_LAPSED)
            if seat == offer.seat:
                if accept:
                    raise Refusal("You asked for this takeback; the other players answer it.")
                await self.extras.withdraw_takeback(match_id, version)
                return TakebackAnswer(record, offer, "withdrawn")
            if not accept:
                await self.extras.withdraw_takeback(match_id, version)
                return TakebackAnswer(record, offer, "declined")
            agreed = await self.extras.agree_takeback(match_id, version, seat)
            if agreed is None:
                raise Refusal(TAKEBACK_GONE)
            waiting = tuple(other for other in self._others(record, offer.seat) if other not in agreed.accepted)
            if waiting:
                return TakebackAnswer(record, agreed, "agreed", waiting=waiting)
            done = await self._take_back(record, offer.seat, offer.keep)
            await self.extras.withdraw_takeback(match_id, version)
            return TakebackAnswer(done.record, agreed, "granted", done)

    # -- what may go back ------------------------------------------------------------------------------------

    async def _running(self, match_id: int) -> MatchRecord:
        record = await self.core.store.get(match_id)
        if record is None or record.status != MatchStatus.ACTIVE:
            raise Refusal("This game is over: its moves stay as they were played.")
        if await self.in_event(match_id):
            raise Refusal("Moves can't be taken back in event games.")
        return record

    def _others(self, record: MatchRecord, seat: int) -> tuple[int, ...]:
        """The seats that must agree: every other player still in the game who is not the computer."""
        state_left: tuple[int, ...] = tuple(getattr(self.core.state_of(record), "left", ()))
        return tuple(
            other
            for other, player in enumerate(record.players)
            if other != seat and other not in state_left and computer_level(player.user_id) is None
        )

    async def _keep(self, record: MatchRecord, seat: int) -> tuple[int, GameState]:
        """How many log entries stay when ``seat`` takes back their last move (and the computer's replies since),
        and the position they make.

        Refuses when someone else has moved since, when the asker has no move to take back, or when a ply
        to go may not be taken back (the engine's word).
        """
        entries = await self.core.store.log(record.id)
        mine = next((i for i in range(len(entries) - 1, -1, -1) if entries[i].seat == seat), None)
        if mine is None or entries[mine].kind != TurnKind.MOVE:
            raise Refusal("You have no move to take back.")
        for later in entries[mine + 1 :]:
            if later.kind != TurnKind.MOVE or computer_level(record.players[later.seat].user_id) is None:
                raise Refusal(
                    "{player} has moved since: a move can be taken back only until the next player moves.",
                    player=escape_name(record.players[later.seat].name),
                )
        keep = entries[mine].seq - 1
        before = state = await self.core.replay(record, keep)
        for entry in entries[mine:]:  # every one a move, checked above
            state = state.play(entry.text)
            if not state.may_take_back:
                # The engine allows every move of a running game but one that revealed something drawn at
                # random: today, an Azul move that ended a round and refilled the factories.
                raise Refusal(
                    "That move can't be taken back: it ended a round, and what was drawn for the next one "
                    "is on the table now."
                )
        return keep, before

    async def _take_back(self, record: MatchRecord, seat: int, keep: int, state: GameState | None = None) -> TakenBack:
        """Store the position after the first ``keep`` log entries (``state``, when known), removing the later
        ones, and announce it."""
        if state is None:
            state = await self.core.replay(record, keep)
        now = self.core.clock()
        fields = self.core.finish_fields(state, now, await self.core.turn_seconds_of(record), record)
        notice = Notice(
            NoticeKind.TURN,
            mentions=mentions_for(record.players, state),
            detail={"takeback": seat},
        )
        plies = self.core.state_of(record).ply - state.ply
        updated, announced = await self.core.store.take_back(record, keep, now=now, announce=[notice], **fields)
        self.core.remember(updated, state)
        return TakenBack(updated, state, seat, plies, tuple(announced))
