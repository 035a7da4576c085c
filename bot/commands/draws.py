"""Draw offers in two-player games: ``/<game> draw``, and the opponent's Accept or Decline.

The offer is saved (migration 006) for the match's current version and posted with buttons whose
custom IDs carry the match and that version (:func:`bot.commands.views.draw_buttons`), so they work after a
restart and a move makes them lapse: the service checks the version on every press.  An accepted
offer ends the game as a draw by agreement through the service's forfeit path, announced (board,
result, ratings, Rematch) by the one announcer.  Azul has no draw offers: it is a game for two to
four whose ties are settled by its own tie-break, and its commands are the same at every table size.
The computer declines every offer (it plays each game to the end).
"""

from __future__ import annotations

import logging
from typing import Any

import discord
from discord import app_commands

from bot.commands.views import draw_view
from bot.core.ports import Languages
from bot.core.refusals import DrawClosed, Refusal
from bot.core.service import MatchService
from bot.delivery.announcer import Announcer
from bot.delivery.ports import NO_MENTIONS
from bot.storage.records import MatchRecord
from bot.text import formatting
from bot.text.escaping import escape_name
from engines import GAMES
from i18n.catalog import gettext

log = logging.getLogger(__name__)


def offer_text(record: MatchRecord, seat: int, language: str) -> str:
    """The public draw offer: who offers, to whom (mentioned), and that a move withdraws it."""
    return gettext(
        language,
        "🤝 **{player}** offers {opponent} a draw in this {game} game. "
        "The offer lapses as soon as either of you moves.",
        player=escape_name(record.players[seat].name),
        opponent=formatting.mention(record.players[1 - seat].user_id),
        game=GAMES[record.game].title,
    )


def closed_offer_text(record: MatchRecord, seat: int, how: str, by: str, language: str) -> str:
    """The draw offer once answered: its buttons go, and it says how it ended."""
    offerer = escape_name(record.players[seat].name)
    if how == "accepted":
        return gettext(language, "🤝 ~~{player} offered a draw~~: accepted by {by}.", player=offerer, by=by)
    if how == "declined":
        return gettext(language, "🤝 ~~{player} offered a draw~~: declined by {by}.", player=offerer, by=by)
    return gettext(language, "🤝 ~~{player} offered a draw~~: withdrawn.", player=offerer)


class Draws:
    """Offer draws and answer them, on the one match service and announcer."""

    def __init__(self, service: MatchService, announcer: Announcer, languages: Languages) -> None:
        self.service = service
        self.announcer = announcer
        self.languages = languages

    async def offer(self, interaction: discord.Interaction, game: str) -> None:
        """Offer the opponent a draw: saved first, then posted with Accept and Decline."""
        record = await self.service.offer_draw(
            interaction.channel_id or 0, interaction.user.id, game=game, guild_id=interaction.guild_id
        )
        seat = record.seat_of(interaction.user.id) or 0
        language = await self.languages.language(record.guild_id)
        opponent = record.players[1 - seat].user_id
        allowed = discord.AllowedMentions(users=[discord.Object(opponent)], roles=False, everyone=False)
        try:
            await interaction.response.send_message(
                offer_text(record, seat, language),
                view=draw_view(record.id, record.version, language),
                allowed_mentions=allowed,
            )
        except (discord.HTTPException, TimeoutError, OSError) as error:
            # Nobody saw the offer: it must not stay pending.
            await self.service.answer_draw(record.id, record.version, interaction.user.id, False)
            log.info("draw offer in match %s withdrawn: its message could not be posted (%s)", record.id, error)
            raise Refusal("Discord did not take the draw offer, so there is none: please offer again.") from None

    async def answer(self, interaction: discord.Interaction, match_id: int, version: int, accept: bool) -> None:
        """Handle Accept or Decline on a draw offer (the one who offered may withdraw it with Decline)."""
        try:
            answered = await self.service.answer_draw(match_id, version, interaction.user.id, accept)
        except DrawClosed as closed:
            record = await self.service.store.get(match_id)
            if record is not None and not interaction.response.is_done():
                language = await self.languages.language(record.guild_id)
                try:
                    await interaction.response.edit_message(
                        content=gettext(language, "🤝 ~~Draw offer~~: {why}", why=closed.text(language)),
                        view=None,
                        allowed_mentions=NO_MENTIONS,
                    )
                    return
                except discord.HTTPException as error:
                    log.info("could not close draw offer of match %s: %s", match_id, error)
            raise
        record = answered.record
        language = await self.languages.language(record.guild_id)
        by = escape_name(interaction.user.display_name)
        text = closed_offer_text(record, answered.offer.seat, answered.how, by, language)
        try:
            await interaction.response.edit_message(content=text, view=None, allowed_mentions=NO_MENTIONS)
        except (discord.HTTPException, TimeoutError, OSError) as error:
            log.info("could not update the draw offer of match %s: %s", match_id, error)
        if answered.turn is not None:
            turn = answered.turn
            await self.announcer.deliver(turn.announcements, state=turn.state, turn=turn)


def add_draw_commands(groups: list[app_commands.Group], draws: Draws) -> None:
    """Add ``draw`` to the command group of every two-player game."""
    for group in groups:
        game = group.name
        if game not in GAMES or GAMES[game].max_players != 2:
            continue
        group.add_command(_draw_command(group, game, draws))


def _draw_command(group: app_commands.Group, game: str, draws: Draws) -> app_commands.Command[Any, ..., None]:
    async def draw(interaction: discord.Interaction) -> None:
        await draws.offer(interaction, game)

    return app_commands.Command(
        name="draw",
        description="Offer your opponent a draw; it lapses when either of you moves.",
        callback=draw,
        parent=group,
    )
