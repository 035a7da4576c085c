"""Challenges: posting one, its Accept and Decline, the game's start, and challenges that expire."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

# AI_LEVELS, level_list and Refusal are imported from here by bot.games.common too.
from bot.core.computer_seats import AI_LEVELS as AI_LEVELS
from bot.core.computer_seats import computer_seat, mentions_for
from bot.core.computer_seats import level_list as level_list
from bot.core.refusals import ChallengeClosed
from bot.core.refusals import Refusal as Refusal
from bot.core.service_core import (
    CHALLENGE_CLOSED,
    CHALLENGE_GONE,
    Answer,
    ServiceCore,
)
from bot.storage.records import MatchRecord, MatchStatus, Notice, NoticeKind, Seat, ThreadMode
from engines import GAMES


class Challenges:
    """Challenges: posting one, Accept and Decline, the game's start, expiry; on the service's ``core``."""

    def __init__(self, core: ServiceCore) -> None:
        self.core = core

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
        now = self.core.clock()
        expires = now + await self.core.challenge_seconds_for(guild_id)
        async with self.core.channel_lock(channel_id):
            record = await self.core.store.create_challenge(
                guild_id=guild_id,
                channel_id=channel_id,
                game=game,
                options=options,
                seed=self.core.rng.getrandbits(63),
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
        async with self.core.match_lock(record.id):
            fresh = await self.core.store.get(record.id)
            if fresh is not None and fresh.status == MatchStatus.CHALLENGE:
                await self.core.store.update(fresh, status=MatchStatus.CANCELLED, deadline=None, now=self.core.clock())

    async def set_message(self, record: MatchRecord, message_id: int) -> MatchRecord:
        """Remember the challenge message so it can be edited when the challenge ends."""
        async with self.core.match_lock(record.id):
            fresh = await self.core.store.get(record.id)
            if fresh is None or fresh.message_id == message_id:
                return fresh or record
            return await self.core.store.update(fresh, message_id=message_id)

    async def answer(self, match_id: int, user: Seat, accept: bool) -> Answer:
        """Record ``user`` accepting or declining a challenge; start the game once all accepted."""
        record = await self.core.store.get(match_id)
        if record is None:
            raise Refusal("This challenge no longer exists.")
        async with self.core.match_lock(record.id):
            record = await self.core.store.get(match_id)
            assert record is not None
            if record.status != MatchStatus.CHALLENGE:
                # A late press: the answer says so, and the message loses its buttons.
                raise ChallengeClosed(CHALLENGE_CLOSED.get(record.status, CHALLENGE_GONE), record)
            challenger = record.players[0].user_id
            now = self.core.clock()
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
                record = await self.core.store.update(record, invited=invited, players=players, now=now)
                return Answer(record, None, True)
            return await self._begin(record, players, now)

    async def _close(self, record: MatchRecord, status: MatchStatus, how: str, by: str, now: float) -> Answer:
        """End a pending challenge, recording that its message must lose its buttons."""
        notice = Notice(NoticeKind.CLOSE, board=False, detail={"how": how, "by": by})
        record, announced = await self.core.store.update_announcing(
            record, [notice], status=status, deadline=None, now=now
        )
        return Answer(record, None, False, tuple(announced))

    async def _begin(self, record: MatchRecord, players: Sequence[Seat], now: float) -> Answer:
        seats = list(players)
        self.core.rng.shuffle(seats)  # who moves first is drawn at random
        state = GAMES[record.game].new(players=len(seats), seed=record.seed, **record.options)
        notices = [Notice(NoticeKind.START, mentions=mentions_for(seats, state))]
        if record.invited:  # a challenge message was posted: it loses its buttons
            notices.insert(0, Notice(NoticeKind.CLOSE, board=False, detail={"how": "accepted", "by": ""}))
        record, announced = await self.core.store.update_announcing(
            record,
            notices,
            players=seats,
            invited=(),
            status=MatchStatus.ACTIVE,
            state=state.to_json(),
            deadline=now + await self.core.turn_seconds_for(record.guild_id),
            now=now,
        )
        self.core.remember(record, state)
        return Answer(record, state, True, tuple(announced))

    async def expire_challenges(self) -> list[Answer]:
        """Mark every overdue challenge expired; return them, with the announcements that close their messages."""
        expired: list[Answer] = []
        for record in await self.core.store.expired_challenges(self.core.clock()):
            async with self.core.match_lock(record.id):
                fresh = await self.core.store.get(record.id)
                if fresh is None or fresh.status != MatchStatus.CHALLENGE:
                    continue
                expired.append(await self._close(fresh, MatchStatus.EXPIRED, "expired", "", self.core.clock()))
        return expired
