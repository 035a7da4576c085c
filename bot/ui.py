"""The Discord side of every game's commands: one path per kind of action.

Slash commands and buttons of every game call these methods.  They validate
first and refuse at once (ephemeral), then acknowledge, render the board in a
worker thread (never on the event loop) and follow up with the image.
"""

from __future__ import annotations

import io
import logging
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import discord

from bot import formatting
from bot.service import Ladders, MatchService, Refusal, Turn, computer_level
from bot.storage import ChannelBusy, MatchRecord, Seat
from engines import GAMES, GameState

if TYPE_CHECKING:
    from bot.client import TabulaBot

log = logging.getLogger(__name__)

BOARD_FILE = "board.png"
NO_MENTIONS = discord.AllowedMentions.none()


def seat_of(user: discord.abc.User) -> Seat:
    """The seat record for a Discord user: their ID and current display name."""
    return Seat(user.id, user.display_name[:64])


class MatchUI:
    """Turn interactions into calls on the match service and replies in the channel."""

    def __init__(self, bot: TabulaBot) -> None:
        self.bot = bot

    @property
    def service(self) -> MatchService:
        return self.bot.service

    async def board_file(self, state: GameState, record: MatchRecord) -> discord.File | None:
        """Render the board off the event loop; on failure log it and carry on without an image."""
        try:
            png = await self.bot.renderer.png(state, [seat.name for seat in record.players])
        except Exception:
            log.exception("rendering %s match %s failed", record.game, record.id)
            return None
        return discord.File(io.BytesIO(png), filename=BOARD_FILE)

    async def send_board(
        self,
        interaction: discord.Interaction,
        record: MatchRecord,
        state: GameState,
        content: str,
        *,
        mentions: Sequence[int] = (),
    ) -> None:
        """Follow up an acknowledged interaction with the board image and ``content``."""
        file = await self.board_file(state, record)
        allowed = discord.AllowedMentions(users=[discord.Object(i) for i in mentions], roles=False, everyone=False)
        kwargs: dict[str, Any] = {"content": content, "allowed_mentions": allowed}
        if file is not None:
            kwargs["file"] = file
        await interaction.followup.send(**kwargs)

    # -- challenges ---------------------------------------------------------------

    async def challenge(
        self,
        interaction: discord.Interaction,
        game: str,
        opponents: Sequence[discord.abc.User],
        options: dict[str, Any],
        computers: Sequence[str] = (),
    ) -> None:
        """Post a challenge with Accept and Decline buttons for the invited players.

        With no one to invite (only computer seats), the game starts at once instead.
        """
        from bot.views import challenge_view

        if interaction.guild_id is None or interaction.channel_id is None:
            raise Refusal("Games are played in server channels, not in direct messages.")
        for opponent in opponents:
            if opponent.id == interaction.user.id:
                raise Refusal("You can't challenge yourself; pick someone else in this server.")
            if opponent.bot:
                raise Refusal(f"{opponent.display_name} is a bot and can't accept challenges.")
        try:
            record = await self.service.challenge(
                guild_id=interaction.guild_id,
                channel_id=interaction.channel_id,
                game=game,
                challenger=seat_of(interaction.user),
                opponents=[seat_of(o) for o in opponents],
                options=options,
                computers=computers,
            )
        except ChannelBusy:
            raise Refusal(
                "This channel already has a game or a pending challenge. "
                "Start a thread from this channel and challenge there, or wait for the game to end."
            ) from None
        if record.status == "active":
            await interaction.response.defer(thinking=True)
            await self.begin(interaction, record, self.service.state_of(record))
            return
        allowed = discord.AllowedMentions(users=[discord.Object(o.id) for o in opponents], roles=False, everyone=False)
        callback = await interaction.response.send_message(
            formatting.challenge_text(record), view=challenge_view(record), allowed_mentions=allowed
        )
        message_id = getattr(callback, "message_id", None)
        if message_id:
            await self.service.set_message(record, message_id)

    async def answer(self, interaction: discord.Interaction, match_id: int, accept: bool) -> None:
        """Handle an Accept or Decline press on a challenge message."""
        from bot.views import challenge_view

        answer = await self.service.answer(match_id, seat_of(interaction.user), accept)
        record = answer.record
        if not answer.accepted:
            user = interaction.user.display_name
            how = "withdrawn." if record.players[0].user_id == interaction.user.id else f"declined by {user}."
            await interaction.response.edit_message(
                content=formatting.challenge_closed_text(record, how), view=None, allowed_mentions=NO_MENTIONS
            )
            return
        if answer.state is None:
            await interaction.response.edit_message(
                content=formatting.challenge_text(record), view=challenge_view(record), allowed_mentions=NO_MENTIONS
            )
            return
        await interaction.response.edit_message(
            content=formatting.challenge_closed_text(record, "accepted: the game is on!"),
            view=None,
            allowed_mentions=NO_MENTIONS,
        )
        await self.begin(interaction, record, answer.state)

    async def begin(self, interaction: discord.Interaction, record: MatchRecord, state: GameState) -> None:
        """Post the first board of a match that just started, and let a computer move first."""
        start = formatting.start_text(record, state)
        await self.send_board(interaction, record, state, start, mentions=self.mentions(record, state))
        self.bot.computer.wake(record, state)

    async def close_challenge_message(self, record: MatchRecord, how: str) -> None:
        """Edit a challenge's message to say how it ended, removing its buttons."""
        if record.message_id is None:
            return
        channel = self.bot.get_partial_messageable(record.channel_id, guild_id=record.guild_id)
        try:
            await channel.get_partial_message(record.message_id).edit(
                content=formatting.challenge_closed_text(record, how), view=None, allowed_mentions=NO_MENTIONS
            )
        except discord.HTTPException as error:
            log.info("could not edit challenge %s: %s", record.id, error)

    # -- playing -------------------------------------------------------------------

    async def play(self, interaction: discord.Interaction, game: str, move: str) -> None:
        """Apply a move typed or picked by the player, then post the new board."""
        turn = await self.service.play(interaction.channel_id or 0, interaction.user.id, move, game=game)
        await interaction.response.defer(thinking=True)
        await self.post_turn(interaction, turn)

    async def post_turn(self, interaction: discord.Interaction, turn: Turn) -> None:
        """Follow up an accepted action with the board, the summary and the next player's mention."""
        state = turn.state
        mentions = self.mentions(turn.record, state)
        extra = await self.turn_extras(turn)
        await self.send_board(interaction, turn.record, state, formatting.turn_text(turn, extra), mentions=mentions)
        self.bot.computer.wake(turn.record, state)

    async def turn_extras(self, turn: Turn) -> list[str]:
        """Lines added to a turn's message: the rating changes once a game ends."""
        if not turn.finished:
            return []
        changes = await Ladders(self.service.store).changes(turn.record)
        if changes:
            return ["Ratings: " + " · ".join(change.text() for change in changes)]
        return [] if turn.record.rated else ["This game was not rated."]

    @staticmethod
    def mentions(record: MatchRecord, state: GameState) -> list[int]:
        """Whom to notify: the person to move (never a computer seat)."""
        if state.to_move is None:
            return []
        user_id = record.players[state.to_move].user_id
        return [] if computer_level(user_id) else [user_id]

    async def resign(self, interaction: discord.Interaction, game: str) -> None:
        turn = await self.service.resign(interaction.channel_id or 0, interaction.user.id, game=game)
        await interaction.response.defer(thinking=True)
        await self.post_turn(interaction, turn)

    async def claim(self, interaction: discord.Interaction, game: str) -> None:
        turn = await self.service.claim(interaction.channel_id or 0, interaction.user.id, game=game)
        await interaction.response.defer(thinking=True)
        await self.post_turn(interaction, turn)

    async def board(self, interaction: discord.Interaction, game: str) -> None:
        record, state = await self.service.running(interaction.channel_id or 0, game)
        await interaction.response.defer(thinking=True)
        await self.send_board(interaction, record, state, formatting.board_text(record, state))

    async def cancel(self, interaction: discord.Interaction) -> None:
        permissions = interaction.permissions
        record = await self.service.cancel(
            interaction.channel_id or 0, interaction.user.id, can_manage=permissions.manage_guild
        )
        title = GAMES[record.game].title
        await interaction.response.send_message(
            f"{interaction.user.display_name} cancelled this channel's {title} game. It will not be rated.",
            allowed_mentions=NO_MENTIONS,
        )
        if record.state is None:
            await self.close_challenge_message(record, "cancelled.")

    async def rules(self, interaction: discord.Interaction, text: str) -> None:
        """Explain a game's rules to the one who asked."""
        await interaction.response.send_message(formatting.clip(text), ephemeral=True)

    # -- autocomplete --------------------------------------------------------------

    async def my_position(self, interaction: discord.Interaction, game: str) -> GameState | None:
        """The channel's state if it is the asking player's turn in ``game``, else ``None``."""
        current = await self.service.current(interaction.channel_id or 0)
        if current is None:
            return None
        record, state = current
        if state is None or record.game != game or state.to_move is None:
            return None
        if record.seat_of(interaction.user.id) != state.to_move:
            return None
        return state


def choices(values: Sequence[str], typed: str) -> list[discord.app_commands.Choice[str]]:
    """At most 25 choices among ``values`` that start with (or else contain) what was typed."""
    needle = typed.strip().lower()
    values = list(dict.fromkeys(values))
    starting = [v for v in values if v.startswith(needle)]
    containing = [v for v in values if needle in v and v not in starting]
    return [discord.app_commands.Choice(name=v, value=v) for v in (starting + containing)[:25]]
