"""Endings that are not moves: cancelling, an admin's end, abandoned turns and withdrawals."""

from __future__ import annotations

# AI_LEVELS, level_list and Refusal are imported from here by bot.games.common too.
from bot.core.computer_seats import AI_LEVELS as AI_LEVELS
from bot.core.computer_seats import computer_level
from bot.core.computer_seats import level_list as level_list
from bot.core.refusals import Refusal as Refusal
from bot.core.service_core import (
    ARCHIVE_AFTER_SECONDS,
    Answer,
    ServiceCore,
    Turn,
)
from bot.storage.database import StaleMatch
from bot.storage.records import MatchRecord, MatchStatus, Notice, NoticeKind
from engines.base import ABANDONED, FORFEIT


class Endings:
    """Endings that are not moves (cancelling, a moderator's end, abandoned turns, withdrawals), on the
    service's ``core``."""

    def __init__(self, core: ServiceCore) -> None:
        self.core = core

    async def _to_cancel(self, channel_id: int, user_id: int) -> MatchRecord:
        """The open match ``/… cancel`` in ``channel_id`` means: the thread's, the channel's only one,
        or the asker's only challenge there."""
        here = await self.core.store.open_matches_at(channel_id)
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
        async with self.core.match_lock(found.id):
            record = await self.core.store.get(found.id)
            if record is None or record.status not in (MatchStatus.CHALLENGE, MatchStatus.ACTIVE):
                raise Refusal("There is nothing to cancel in this channel.")
            own_challenge = record.status == MatchStatus.CHALLENGE and record.players[0].user_id == user_id
            if not (can_manage or own_challenge):
                raise Refusal("Only a member with the Manage Server permission can cancel a game.")
            notices = []
            if record.status == MatchStatus.CHALLENGE:
                notices.append(Notice(NoticeKind.CLOSE, board=False, detail={"how": "cancelled", "by": ""}))
            now = self.core.clock()
            tidy = {"archive_at": now + ARCHIVE_AFTER_SECONDS} if record.thread_id is not None else {}
            record, announced = await self.core.store.update_announcing(
                record, notices, status=MatchStatus.CANCELLED, deadline=None, finished_at=now, **tidy
            )
            return Answer(record, None, False, tuple(announced))

    async def end_match(self, guild_id: int, match_id: int, *, by: str, reason: str) -> Answer:
        """End a server's running match by its number, for a moderator (Manage Server) anywhere in the server.

        Nothing is rated; the reason is stored with the match and announced where its players are.
        """
        async with self.core.match_lock(match_id):
            record = await self.core.store.get(match_id)
            if record is None or record.guild_id != guild_id or record.status != MatchStatus.ACTIVE:
                raise Refusal("There is no running game number {number} in this server.", number=match_id)
            humans = tuple(seat.user_id for seat in record.players if computer_level(seat.user_id) is None)
            notice = Notice(NoticeKind.TURN, mentions=humans, board=False, detail={"ended": by, "reason": reason})
            now = self.core.clock()
            tidy = {"archive_at": now + ARCHIVE_AFTER_SECONDS} if record.thread_id is not None else {}
            record, announced = await self.core.store.update_announcing(
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
        async with self.core.channel_lock(record.channel_id):
            fresh = await self.core.store.get(record.id)
            if (
                fresh is None
                or fresh.version != record.version
                or fresh.status != MatchStatus.ACTIVE
                or fresh.deadline is None
            ):
                return None
            if self.core.clock() < 2 * fresh.deadline - fresh.updated_at:  # the deadline plus the turn's time
                return None
            state = self.core.state_of(fresh)
            late = state.to_move
            if late is None or computer_level(fresh.players[late].user_id):
                return None  # the computer never abandons; its turn is retried by the sweeper
            try:  # logged as its code: the text layer says it in each server's language
                return await self.core.forfeit(fresh, late, fresh.players[late].user_id, ABANDONED)
            except StaleMatch:
                return None

    async def withdraw(self, match_id: int, user_id: int) -> Turn | None:
        """End ``user_id``'s part in a running match as a forfeit (they left an event); ``None`` if not running."""
        async with self.core.match_lock(match_id):
            record = await self.core.store.get(match_id)
            if record is None or record.status != MatchStatus.ACTIVE or record.seat_of(user_id) is None:
                return None
            return await self.core.forfeit(record, self.core.player_seat(record, user_id), user_id, FORFEIT)
