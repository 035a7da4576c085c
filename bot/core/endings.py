"""Endings that are not moves: cancelling, an admin's end, abandoned turns, withdrawals and draw offers."""

from __future__ import annotations

# AI_LEVELS, level_list and Refusal are imported from here by bot.games.common too.
from bot.core.computer_seats import AI_LEVELS as AI_LEVELS
from bot.core.computer_seats import computer_level
from bot.core.computer_seats import level_list as level_list
from bot.core.names import escape_name
from bot.core.refusals import DrawClosed
from bot.core.refusals import Refusal as Refusal
from bot.core.service_core import (
    ARCHIVE_AFTER_SECONDS,
    DRAW_GONE,
    DRAW_LAPSED,
    Answer,
    DrawAnswer,
    ServiceCore,
    Turn,
)
from bot.storage.database import StaleMatch
from bot.storage.extras_store import MatchExtras
from bot.storage.records import MatchRecord, MatchStatus, Notice, NoticeKind, TurnKind
from engines import GAMES
from engines.base import ABANDONED, AGREED, FORFEIT


class Endings(ServiceCore):
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

    async def end_match(self, guild_id: int, match_id: int, *, by: str, reason: str) -> Answer:
        """End a server's running match by its number, for a moderator (Manage Server) anywhere in the server.

        Nothing is rated; the reason is stored with the match and announced where its players are.
        """
        async with self._match(match_id):
            record = await self.store.get(match_id)
            if record is None or record.guild_id != guild_id or record.status != MatchStatus.ACTIVE:
                raise Refusal("There is no running game number {number} in this server.", number=match_id)
            humans = tuple(seat.user_id for seat in record.players if computer_level(seat.user_id) is None)
            notice = Notice(NoticeKind.TURN, mentions=humans, board=False, detail={"ended": by, "reason": reason})
            now = self.clock()
            tidy = {"archive_at": now + ARCHIVE_AFTER_SECONDS} if record.thread_id is not None else {}
            record, announced = await self.store.update_announcing(
                record,
                [notice],
                status=MatchStatus.CANCELLED,
                deadline=None,
                finished_at=now,
                end_reason=reason,
                now=now,
                **tidy,
            )
            return Answer(record, None, False, tuple(announced))

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

    async def withdraw(self, match_id: int, user_id: int) -> Turn | None:
        """End ``user_id``'s part in a running match as a forfeit (they left an event); ``None`` if not running."""
        async with self._match(match_id):
            record = await self.store.get(match_id)
            if record is None or record.status != MatchStatus.ACTIVE or record.seat_of(user_id) is None:
                return None
            return await self._forfeit(record, self._seat(record, user_id), user_id, FORFEIT)

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
