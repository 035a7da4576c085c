"""The Discord side of every game's commands: one path per kind of action.

Slash commands and buttons of every game call these methods.  They validate
first and refuse at once (ephemeral); then the service saves the action together
with its announcement (the outbox), and the one announcer posts it
(:mod:`bot.delivery.announcer`): the same code posts human and computer moves.
"""

from __future__ import annotations

import io
import logging
from collections.abc import Sequence
from typing import Any, Protocol

import discord

from bot import limits
from bot.core.refusals import ChallengeClosed, Refusal
from bot.core.service import Answer, MatchService, Turn
from bot.delivery.announcer import Announcer
from bot.delivery.composer import BoardView, closed_how
from bot.delivery.ports import BOARD_FILE, NO_MENTIONS, Computers, Renderer
from bot.delivery.rendering import board_alt
from bot.delivery.replies import Reply, Result
from bot.settings import DOCS_URL
from bot.storage.database import ChannelBusy
from bot.storage.records import MatchRecord, Seat
from bot.storage.settings_store import GuildSettings
from bot.text import formatting, messages
from bot.text.escaping import escape_name
from engines import GAMES, GameState
from i18n.catalog import DEFAULT, gettext, locale_for
from i18n.phrases import rules_link, rules_text

log = logging.getLogger(__name__)

NAME_LIMIT = 64


def seat_of(user: discord.abc.User) -> Seat:
    """The seat record for a Discord user: their ID and current display name."""
    return Seat(user.id, user.display_name[:NAME_LIMIT])


def check_move_text(text: str) -> str:
    """Refuse a move written with anything but plain letters, the digits 0-9 and punctuation."""
    if not text.isascii():
        raise Refusal(
            "I can only read moves written with the letters a-z and the digits 0-9 (like `b2`); "
            "please type it again that way."
        )
    return text


def within(value: int, low: int, high: int, what: str) -> int:
    """Re-check an integer option the command schema bounds (a client may ignore the bounds)."""
    if not low <= value <= high:
        raise Refusal("{what} must be a whole number from {low} to {high}.", what=what, low=low, high=high)
    return value


THREAD_TYPES = (discord.ChannelType.public_thread, discord.ChannelType.private_thread, discord.ChannelType.news_thread)
# Channels whose messages can start a public thread.
THREAD_PARENTS = (discord.ChannelType.text, discord.ChannelType.news)


def channel_type(interaction: discord.Interaction) -> discord.ChannelType | None:
    """The kind of channel the interaction came from, as Discord sent it (``None`` if unknown)."""
    return getattr(interaction.channel, "type", None)


def in_thread(interaction: discord.Interaction) -> bool:
    """Whether the interaction came from a thread."""
    return channel_type(interaction) in THREAD_TYPES


def user_language(interaction: discord.Interaction) -> str:
    """The language of private replies: the asking user's Discord language, if Tabula speaks it."""
    return locale_for(interaction.locale)


class MissingPermissions(Refusal):
    """The bot lacks permissions in the channel; the refusal names them in the reader's words."""

    def __init__(self, channel_id: int, missing: Sequence[str]) -> None:
        self.channel_id = channel_id
        self.missing = tuple(missing)
        super().__init__(messages.needs_permissions_text(channel_id, missing))

    def text(self, language: str) -> str:
        return messages.needs_permissions_text(self.channel_id, self.missing, language)


class ServerLanguages(Protocol):
    """The per-server settings (:class:`bot.storage.settings_store.GuildSettingsStore`): language, threads."""

    async def language(self, guild_id: int | None) -> str: ...

    async def get(self, guild_id: int) -> GuildSettings: ...

    async def remember_locale(self, guild_id: int | None, guild_locale: object) -> None: ...


class MatchUI:
    """Turn interactions into calls on the match service, and hand what they saved to the announcer."""

    def __init__(
        self,
        service: MatchService,
        announcer: Announcer,
        renderer: Renderer,
        computers: Computers,
        languages: ServerLanguages,
        board_view: BoardView | None = None,
        docs_url: str = DOCS_URL,
    ) -> None:
        self.service = service
        self.announcer = announcer
        self.renderer = renderer
        self.computers = computers
        self.languages = languages
        self.board_view = board_view  # the controls under a running game's board (moves by taps)
        self.docs_url = docs_url  # the folder of the full rule pages, which ``rules`` links to

    async def server_language(self, interaction: discord.Interaction) -> str:
        """The language of the server's public messages; notes the server's Discord locale for later posts."""
        await self.languages.remember_locale(interaction.guild_id, interaction.guild_locale)
        return await self.languages.language(interaction.guild_id)

    async def board_file(self, state: GameState, record: MatchRecord, language: str = DEFAULT) -> discord.File | None:
        """Render the board off the event loop; on failure log it and carry on without an image."""
        try:
            png, alt = await self.renderer.board(state, [seat.name for seat in record.players], language)
        except Exception:
            log.exception("rendering %s match %s failed", record.game, record.id)
            return None
        description = alt if alt is not None else board_alt(record, state, language)
        return discord.File(io.BytesIO(png), filename=BOARD_FILE, description=description)

    async def send_board(
        self,
        interaction: discord.Interaction,
        record: MatchRecord,
        state: GameState,
        content: str,
        language: str = DEFAULT,
    ) -> None:
        """Follow up an acknowledged interaction with the board image and ``content`` (no pings), and the
        controls for the next move while the game runs."""
        file = await self.board_file(state, record, language)
        kwargs: dict[str, Any] = {"content": content, "allowed_mentions": NO_MENTIONS}
        if file is not None:
            kwargs["file"] = file
        view = await self.board_view(record, state, language) if self.board_view is not None else None
        if view is not None:
            kwargs["view"] = view
        await interaction.followup.send(**kwargs)

    # -- challenges ---------------------------------------------------------------

    @staticmethod
    def check_channel(interaction: discord.Interaction) -> None:
        """Refuse at once where the bot could not post its boards, naming the missing permissions."""
        if interaction.guild_id is None or interaction.channel_id is None:
            raise Refusal("Games are played in server channels, not in direct messages.")
        wanted = messages.GAME_PERMISSIONS
        if in_thread(interaction):  # in a thread, posting takes Send Messages in Threads instead
            wanted = tuple(
                ("send_messages_in_threads", "Send Messages in Threads") if flag == "send_messages" else (flag, label)
                for flag, label in wanted
            )
        missing = messages.missing_permissions(interaction.app_permissions, wanted)
        if missing:
            raise MissingPermissions(interaction.channel_id, missing)

    async def thread_choice(self, interaction: discord.Interaction) -> tuple[bool, list[str]]:
        """Whether a challenge made here gets a thread of its own once accepted, and which permissions
        keep it from one (to say why, once per channel).

        Only a text channel's messages can start a thread: a challenge in a thread is played in that thread.
        A server may turn threads off (``/tabula threads``).
        """
        if channel_type(interaction) not in THREAD_PARENTS or not interaction.guild_id:
            return False, []
        if not (await self.languages.get(interaction.guild_id)).effective_threads():
            return False, []
        missing = messages.missing_permissions(interaction.app_permissions, messages.THREAD_PERMISSIONS)
        return not missing, missing

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
        from bot.commands.views import challenge_view

        self.check_channel(interaction)
        for opponent in opponents:
            if opponent.id == interaction.user.id:
                raise Refusal("You can't challenge yourself; pick someone else in this server.")
            if opponent.bot:
                raise Refusal(
                    "{player} is a bot and can't accept challenges.", player=escape_name(opponent.display_name)
                )
        thread, no_thread = await self.thread_choice(interaction)
        try:
            answer = await self.service.challenge(
                guild_id=interaction.guild_id or 0,
                channel_id=interaction.channel_id or 0,
                game=game,
                challenger=seat_of(interaction.user),
                opponents=[seat_of(o) for o in opponents],
                options=options,
                computers=computers,
                thread=thread,
            )
        except ChannelBusy:
            raise Refusal(
                "This channel already has a game or a pending challenge. "
                "Start a thread from this channel and challenge there, or wait for the game to end."
            ) from None
        record = answer.record
        language = await self.server_language(interaction)
        if answer.state is not None:
            reply = self.announcer.reply(interaction)
            await self.announcer.acknowledge(reply)
            if record.thread_mode is not None and reply.message_id is not None:
                # Against the computer alone there is no challenge message: the thread opens from this reply.
                await self.service.store.set_starter(record.id, reply.message_id)
            await self.begin(reply, answer)
            return
        allowed = discord.AllowedMentions(users=[discord.Object(o.id) for o in opponents], roles=False, everyone=False)
        content = messages.challenge_text(record, language)
        if no_thread and await self.service.store.note_once(record.channel_id, "no-threads", self.service.clock()):
            content = formatting.clip(content + "\n" + messages.no_threads_text(no_thread, language))
        try:
            callback = await interaction.response.send_message(
                content,
                view=challenge_view(record, language),
                allowed_mentions=allowed,
            )
            message_id = getattr(callback, "message_id", None)
        except discord.HTTPException as error:
            message_id = await self._posted_anyway(interaction, error)
            if message_id is None:
                # Nothing half-made: a challenge nobody can see must not block the channel.
                await self.service.discard_challenge(record)
                log.info("challenge %s withdrawn: its message could not be posted (%s)", record.id, error)
                raise Refusal(
                    "Discord did not take the challenge message, so there is no challenge: please start again."
                ) from None
        except (TimeoutError, OSError) as error:
            message_id = await self._posted_anyway(interaction, error)
            if message_id is None:
                await self.service.discard_challenge(record)
                raise Refusal("Discord did not answer in time, so there is no challenge: please start again.") from None
        if message_id:
            await self.service.set_message(record, message_id)

    @staticmethod
    async def _posted_anyway(interaction: discord.Interaction, error: BaseException) -> int | None:
        """After a failed or unanswered reply, see whether the message exists after all; return its ID."""
        if isinstance(error, discord.HTTPException) and error.status < 500:
            return None  # Discord answered: it refused
        try:
            original = await interaction.original_response()
        except (discord.HTTPException, TimeoutError, OSError):
            return None
        return original.id

    async def answer(self, interaction: discord.Interaction, match_id: int, accept: bool) -> None:
        """Handle an Accept or Decline press on a challenge message."""
        from bot.commands.views import challenge_view

        reply = self.announcer.reply(interaction)
        language = await self.server_language(interaction)
        try:
            answer = await self.service.answer(match_id, seat_of(interaction.user), accept)
        except ChallengeClosed as closed:
            # A late press: the message loses its buttons, and the presser learns why.
            if closed.announcements:
                await self.announcer.deliver(closed.announcements, reply, record=closed.record)
            if not interaction.response.is_done():
                how = closed_how(closed.record.status)
                try:
                    await interaction.response.edit_message(
                        content=messages.closed_text(closed.record, how, language=language),
                        view=None,
                        allowed_mentions=NO_MENTIONS,
                    )
                except discord.HTTPException as error:
                    log.info("could not close challenge %s on a late press: %s", match_id, error)
            raise
        if not answer.accepted:
            await self.announcer.deliver(answer.announcements, reply, record=answer.record)
            return
        if answer.state is None:
            await interaction.response.edit_message(
                content=messages.challenge_text(answer.record, language),
                view=challenge_view(answer.record, language),
                allowed_mentions=NO_MENTIONS,
            )
            return
        await self.begin(reply, answer)

    async def begin(self, reply: Reply, answer: Answer) -> None:
        """Announce a match that just started (closing its challenge), and let a computer move first."""
        await self.announcer.deliver(answer.announcements, reply, state=answer.state, record=answer.record)
        self.computers.wake(answer.record, answer.state)

    # -- playing -------------------------------------------------------------------

    async def play(self, interaction: discord.Interaction, game: str, move: str) -> None:
        """Apply a move typed or picked by the player, then post the new board."""
        turn = await self.service.play(
            interaction.channel_id or 0,
            interaction.user.id,
            check_move_text(move),
            game=game,
            guild_id=interaction.guild_id,
        )
        await self.post_turn(interaction, turn)

    async def post_turn(self, interaction: discord.Interaction, turn: Turn) -> None:
        """Acknowledge an accepted action and announce it: the board, the summary and the next player's mention."""
        reply = self.announcer.reply(interaction)
        await self.server_language(interaction)  # notes the server's Discord locale for the announcer
        await self.announcer.acknowledge(reply)
        result = await self.announcer.deliver(turn.announcements, reply, state=turn.state, turn=turn)
        if result != Result.POSTED:
            log.info("turn of match %s saved; its board is %s", turn.record.id, result)
        # The computer's answer reaches this player through this interaction if the match's place refuses it.
        self.computers.wake(turn.record, turn.state, reply)

    async def resign(self, interaction: discord.Interaction, game: str) -> None:
        turn = await self.service.resign(
            interaction.channel_id or 0, interaction.user.id, game=game, guild_id=interaction.guild_id
        )
        await self.post_turn(interaction, turn)

    async def claim(self, interaction: discord.Interaction, game: str) -> None:
        turn = await self.service.claim(
            interaction.channel_id or 0, interaction.user.id, game=game, guild_id=interaction.guild_id
        )
        await self.post_turn(interaction, turn)

    async def board(self, interaction: discord.Interaction, game: str) -> None:
        """Post the channel's board again; it also says why earlier boards could not be posted, if so."""
        record, state = await self.service.running(
            interaction.channel_id or 0, game, user_id=interaction.user.id, guild_id=interaction.guild_id
        )
        language = await self.server_language(interaction)
        await interaction.response.defer(thinking=True)
        problems = await self.announcer.explain(record)
        text = messages.board_text(record, state, language)
        if record.followups:  # nothing in the server takes its posts: the replies to commands are its place
            text += "\n" + messages.followups_place_text(language)
        elif problems:
            text += "\n" + messages.trouble_text(record.place_id, problems[-1], language)
        if record.place_id != interaction.channel_id and not record.followups:
            text += "\n" + gettext(language, "The game is played in {thread}.", thread=f"<#{record.place_id}>")
        await self.send_board(interaction, record, state, formatting.clip(text), language)
        if problems:
            await self.announcer.settle_failed(record)

    async def cancel(self, interaction: discord.Interaction) -> None:
        permissions = interaction.permissions
        answer = await self.service.cancel(
            interaction.channel_id or 0, interaction.user.id, can_manage=permissions.manage_guild
        )
        title = GAMES[answer.record.game].title
        language = await self.server_language(interaction)
        text = gettext(
            language,
            "{player} cancelled this {game} game. It will not be rated.",
            player=escape_name(interaction.user.display_name),
            game=title,
        )
        await interaction.response.send_message(text, allowed_mentions=NO_MENTIONS)
        await self.announcer.deliver(answer.announcements, record=answer.record)

    async def rules(self, interaction: discord.Interaction, game: str, english: str) -> None:
        """Explain a game's rules to the one who asked, in their language, ending with the full page's link."""
        language = user_language(interaction)
        link = rules_link(self.docs_url, game, language)
        text = formatting.clip(rules_text(language, game, english), limits.MESSAGE_CONTENT_MAX - len(link) - 1)
        await interaction.response.send_message(f"{text}\n{link}", ephemeral=True)

    # -- autocomplete --------------------------------------------------------------

    async def my_position(self, interaction: discord.Interaction, game: str) -> GameState | None:
        """The channel's state if it is the asking player's turn in ``game``, else ``None``."""
        current = await self.service.position(
            interaction.channel_id or 0, interaction.user.id, game, interaction.guild_id
        )
        if current is None:
            return None
        record, state = current
        if state.to_move is None:
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
    return [
        discord.app_commands.Choice(name=v, value=v) for v in (starting + containing)[: limits.AUTOCOMPLETE_CHOICES_MAX]
    ]
