"""Draw offers in two-player games: offering one, and accepting, declining or withdrawing it."""

from __future__ import annotations

from bot.core.computer_seats import computer_level
from bot.core.names import escape_name
from bot.core.refusals import DrawClosed, Refusal
from bot.core.service_core import DRAW_GONE, DRAW_LAPSED, DrawAnswer, ServiceCore
from bot.storage.extras_store import MatchExtras
from bot.storage.records import MatchRecord, MatchStatus, TurnKind
from engines import GAMES
from engines.base import AGREED


class DrawOffers:
    """Draw offers on the service's ``core``, kept in ``extras`` (the tools that build a bare service have none:
    they are refused)."""

    def __init__(self, core: ServiceCore, extras: MatchExtras | None = None) -> None:
        self.core = core
        self.extras = extras

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
        found = await self.core.running_record(channel_id, game, user_id=user_id, guild_id=guild_id)
        async with self.core.match_lock(found.id):
            record = await self.core.fresh(found.id, game)
            seat = self.core.player_seat(record, user_id)
            if GAMES[record.game].max_players != 2 or len(record.players) != 2:
                raise Refusal("Draw offers are for two-player games.")
            opponent = record.players[1 - seat]
            if computer_level(opponent.user_id):
                raise Refusal(
                    "{player} declines the draw: the computer plays every game to the end.",
                    player=escape_name(opponent.name),
                )
            pending = await self._draws().offer_draw(record, seat, user_id, self.core.clock())
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
        record = await self.core.store.get(match_id)
        if record is None:
            raise Refusal(DRAW_GONE)
        async with self.core.match_lock(match_id):
            record = await self.core.store.get(match_id)
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
            state = self.core.state_of(record)
            turn = await self.core.commit(record, state.forfeit(seat, AGREED), seat, user_id, TurnKind.FORFEIT, AGREED)
            await self._draws().withdraw_draw(match_id, version)
            return DrawAnswer(turn.record, offer, "accepted", turn)
