"""Moves by taps from the board post: menus for the next move, a private preview with Play and Back, and
taking a move back.

The post that shows a running game's board carries the first step of the next move
(:func:`board_controls`): one to four menus of the choices :func:`bot.core.taps.walk` finds in the engine's move
description, in the server's language, and **Take back** while the last move may be taken back.  The player to
move chooses; each later step comes privately (ephemeral), edited in place, in the player's own language, with
**Back**.  Once the move is chosen it is shown marked on the board (drawn in the worker processes) with **Play**
and **Back** — or played at once for a player who turned confirmation off (``/settings confirm_moves:off``).
Anyone else who touches the controls is told privately whose turn it is.

Every control carries what it needs in its custom ID (the match, the version the board showed, the choices so
far), so it works after a restart; a press on a board the game has moved on from plays nothing and shows the
current board privately; the move itself goes through the match service's version-checked write, so two
presses at once never play twice.
"""

from __future__ import annotations

import io
import logging
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

import discord

import i18n
from bot import limits
from bot.commands.components import Choice, CustomId, Number, Pattern, persistent_button, persistent_select
from bot.commands.ui import MatchUI, user_language
from bot.commands.views import routed_view
from bot.core.moves import STALE_BOARD
from bot.core.refusals import Refusal, StaleBoard
from bot.core.takebacks import TakebackAnswer, Takebacks
from bot.core.taps import PATH_PATTERN, BadPath, Step, joined, previous, split, walk
from bot.delivery.composer import BoardView
from bot.delivery.ports import BOARD_FILE, NO_MENTIONS
from bot.delivery.rendering import BoardRenderer
from bot.storage.database import N_
from bot.storage.extras_store import MatchExtras
from bot.storage.records import MatchRecord
from bot.text import messages
from bot.text.escaping import escape_name
from engines import GAMES, GameState, MoveForm
from i18n.catalog import DEFAULT, gettext

log = logging.getLogger(__name__)

WITHDRAWN = N_("↩️ {player} withdrew the request to take a move back.")
DECLINED = N_("{player} declined to let the move be taken back.")

#: Menus a step may use: five action rows, one kept for the buttons.
MENUS_MAX = limits.MESSAGE_ACTION_ROWS_MAX - 1
CHOICES_MAX = MENUS_MAX * limits.SELECT_OPTIONS_MAX

_PATH = Pattern("path", PATH_PATTERN)
PICK = CustomId("pick", Number("part", 1), Number("match", 19), Number("version", 9), _PATH)
PLAY = CustomId("play", Number("match", 19), Number("version", 9), _PATH)
BACK = CustomId("back", Number("match", 19), Number("version", 9), _PATH)
TAKEBACK = CustomId(
    "takeback", Choice("action", ("ask", "accept", "decline")), Number("match", 19), Number("version", 9)
)


# -- what the controls show ---------------------------------------------------------------------------------------


def choice_words(state: GameState, step_choice: Any, language: str) -> str:
    """A choice in the player's words (each game's text module), fitted to a menu option's label."""
    words = i18n.texts_for(state.game).choice(state, step_choice.kind, step_choice.fields, language)
    return limits.clip(words, limits.SELECT_OPTION_LABEL_MAX)


def step_words(state: GameState, step: Step, language: str) -> str:
    """The move chosen so far in words (empty before the first choice)."""
    if step.kind is None:
        return ""
    return i18n.texts_for(state.game).choice(state, step.kind, step.fields, language)


def menus(
    state: GameState, step: Step, placeholder: str, language: str, custom_id: Callable[[int], str]
) -> list[discord.ui.Select[Any]]:
    """The menus of ``step``'s choices: at most :data:`MENUS_MAX`, each of at most 25 options, in order;
    ``custom_id(part)`` names each (a board's menus carry the match, a puzzle's its try)."""
    choices = step.choices[:CHOICES_MAX]
    if len(step.choices) > CHOICES_MAX:
        log.error(
            "%s offers %d choices at one step; menus show the first %d", state.game, len(step.choices), CHOICES_MAX
        )
    size = limits.SELECT_OPTIONS_MAX
    parts = [choices[start : start + size] for start in range(0, len(choices), size)]
    found: list[discord.ui.Select[Any]] = []
    for part, chunk in enumerate(parts):
        shown = placeholder if len(parts) == 1 else f"{placeholder} ({part + 1}/{len(parts)})"
        found.append(
            discord.ui.Select(
                custom_id=custom_id(part),
                placeholder=limits.clip(shown, limits.SELECT_PLACEHOLDER_MAX),
                options=[
                    discord.SelectOption(label=choice_words(state, choice, language), value=choice.token)
                    for choice in chunk
                ],
                row=part,
            )
        )
    return found


def _pick_ids(record: MatchRecord, step: Step) -> Callable[[int], str]:
    """The custom IDs of a board's menus for ``step``: the match, its version and the path so far."""
    return lambda part: PICK.build(part=part, match=record.id, version=record.version, path=joined(step.path))


def takeback_button(record: MatchRecord, language: str) -> discord.ui.Button[Any]:
    return discord.ui.Button(
        label=gettext(language, "Take back"),
        emoji="↩️",
        style=discord.ButtonStyle.secondary,
        custom_id=TAKEBACK.build(action="ask", match=record.id, version=record.version),
        row=MENUS_MAX,
    )


def board_controls(
    record: MatchRecord, state: GameState, language: str = DEFAULT, *, takeback: bool = True
) -> discord.ui.View | None:
    """The controls under a running game's board: the first step of the next move, and Take back while the
    last move may be taken back (never when ``takeback`` is false: an event game); ``None`` once nobody is to
    move."""
    form = GAMES[record.game].moves
    if state.to_move is None or form is None:
        return None
    try:
        step = walk(state, form, ())
    except BadPath:
        return None
    view = routed_view()
    player = escape_name(record.players[state.to_move].name)
    placeholder = gettext(language, "{player}: choose your move", player=player)
    for select in menus(state, step, placeholder, language, _pick_ids(record, step)):
        view.add_item(select)
    if takeback and state.ply > 0 and state.may_take_back:
        view.add_item(takeback_button(record, language))
    return view


def controls_for(in_event: Callable[[int], Awaitable[bool]]) -> BoardView:
    """:func:`board_controls` for every board post: without Take back in an event game (``in_event``)."""

    async def controls(record: MatchRecord, state: GameState, language: str) -> discord.ui.View | None:
        return board_controls(record, state, language, takeback=not await in_event(record.id))

    return controls


def step_view(state: GameState, record: MatchRecord, step: Step, back: Sequence[str] | None, language: str) -> Any:
    """A private step: its menus, and Back to the step before (``None``: there is none)."""
    view = routed_view()
    for select in menus(state, step, gettext(language, "Choose…"), language, _pick_ids(record, step)):
        view.add_item(select)
    if back is not None:
        view.add_item(_back_button(record, back, language))
    return view


def _back_button(record: MatchRecord, back: Sequence[str], language: str) -> discord.ui.Button[Any]:
    return discord.ui.Button(
        label=gettext(language, "Back"),
        style=discord.ButtonStyle.secondary,
        custom_id=BACK.build(match=record.id, version=record.version, path=joined(back)),
        row=MENUS_MAX,
    )


def preview_view(record: MatchRecord, path: Sequence[str], back: Sequence[str], language: str) -> discord.ui.View:
    """Play and Back under a move's private preview."""
    view = routed_view()
    view.add_item(
        discord.ui.Button(
            label=gettext(language, "Play"),
            style=discord.ButtonStyle.success,
            custom_id=PLAY.build(match=record.id, version=record.version, path=joined(path)),
        )
    )
    view.add_item(
        discord.ui.Button(
            label=gettext(language, "Back"),
            style=discord.ButtonStyle.secondary,
            custom_id=BACK.build(match=record.id, version=record.version, path=joined(back)),
        )
    )
    return view


def takeback_view(match_id: int, version: int, language: str) -> discord.ui.View:
    """Accept and Decline under a request to take a move back."""
    view = routed_view()
    view.add_item(
        discord.ui.Button(
            label=gettext(language, "Accept"),
            style=discord.ButtonStyle.success,
            custom_id=TAKEBACK.build(action="accept", match=match_id, version=version),
        )
    )
    view.add_item(
        discord.ui.Button(
            label=gettext(language, "Decline"),
            style=discord.ButtonStyle.secondary,
            custom_id=TAKEBACK.build(action="decline", match=match_id, version=version),
        )
    )
    return view


# -- answering the controls ---------------------------------------------------------------------------------------


class Taps:
    """Answers the board's menus, Play, Back and Take back."""

    def __init__(self, ui: MatchUI, renderer: BoardRenderer, extras: MatchExtras, takebacks: Takebacks) -> None:
        self.ui = ui
        self.service = ui.service
        self.renderer = renderer
        self.extras = extras
        self.takebacks = takebacks

    async def _position(
        self, interaction: discord.Interaction, match_id: int, version: int
    ) -> tuple[MatchRecord, GameState]:
        """The running match the control belongs to, at the version it showed, with the presser to move."""
        found = await self.service.match_state(match_id)
        if found is None:
            raise Refusal("This game is over. Start a new one with a `start` command.")
        record, state = found
        if record.version != version:
            raise StaleBoard(match_id, STALE_BOARD)
        seat = record.seat_of(interaction.user.id)
        if state.to_move is None:
            raise Refusal("The game is over: nobody is to move.")
        if seat != state.to_move:
            player = escape_name(record.players[state.to_move].name)
            if seat is None:
                raise Refusal(
                    "It is {player}'s turn in this game; only the players can use its controls.", player=player
                )
            raise Refusal("It is not your turn: {player} is to move.", player=player)
        return record, state

    async def pick(self, interaction: discord.Interaction, match_id: int, version: int, path: str, chosen: str) -> None:
        """A choice in a menu: the next step privately, or the move's preview, or (confirmation off) the move."""
        record, state = await self._position(interaction, match_id, version)
        before = self._split(match_id, path)
        step = self._walk(record, state, (*before, chosen))
        await self.show(interaction, record, state, step, back=before)

    async def back(self, interaction: discord.Interaction, match_id: int, version: int, path: str) -> None:
        """Back: the step at ``path`` again, privately."""
        record, state = await self._position(interaction, match_id, version)
        tokens = self._split(match_id, path)
        step = self._walk(record, state, tokens)
        back = previous(state, self._form(record), step.path)
        await self.show(interaction, record, state, step, back=back, confirm=True)

    async def show(
        self,
        interaction: discord.Interaction,
        record: MatchRecord,
        state: GameState,
        step: Step,
        *,
        back: Sequence[str] | None,
        confirm: bool | None = None,
    ) -> None:
        language = user_language(interaction)
        private = _is_private(interaction)
        if not step.complete:
            so_far = step_words(state, step, language)
            content = (
                gettext(language, "**{move}** — now choose what comes next.", move=so_far)
                if so_far
                else gettext(language, "Choose your move.")
            )
            view = step_view(state, record, step, back, language)
            await self._answer(interaction, private, content, view, None)
            return
        if confirm is None:
            confirm = await self.extras.confirm_moves(interaction.user.id)
        move_text = state.move_text(step.move)
        if not confirm:
            await self.play_now(interaction, record, move_text, private, step_words(state, step, language))
            return
        # The preview is drawn in a worker: answer at once (Discord waits 3 s), then show it.
        await self._defer(interaction, private)
        names = [seat.name for seat in record.players]
        try:
            png, alt = await self.renderer.preview(state, move_text, names, language)
            file: discord.File | None = discord.File(
                io.BytesIO(png),
                filename=BOARD_FILE,
                description=limits.clip(alt, limits.ATTACHMENT_DESCRIPTION_MAX),
            )
        except Exception:
            log.exception("drawing the preview of a %s move in match %s failed", record.game, record.id)
            file = None
        words = step_words(state, step, language)
        content = gettext(language, "**{move}** — marked on the board. Play it?", move=words)
        view = preview_view(record, step.path, back if back is not None else (), language)
        await self._after_defer(interaction, private, content, view, file)

    async def play(self, interaction: discord.Interaction, match_id: int, version: int, path: str) -> None:
        """Play: the previewed move is played (once, however often it is pressed)."""
        record, state = await self._position(interaction, match_id, version)
        step = self._walk(record, state, self._split(match_id, path))
        if not step.complete:
            raise StaleBoard(match_id, STALE_BOARD)
        language = user_language(interaction)
        words = step_words(state, step, language)
        await self.play_now(interaction, record, state.move_text(step.move), _is_private(interaction), words)

    async def play_now(
        self, interaction: discord.Interaction, record: MatchRecord, move_text: str, private: bool, words: str
    ) -> None:
        """Play the move; the board goes to the game's place (the public post's own answer, from a board post)."""
        turn = await self.service.play_match(
            record.id, interaction.user.id, move_text, game=record.game, version=record.version
        )
        if not private:
            await self.ui.post_turn(interaction, turn)
            return
        # From a private step: that message says what was played, and the board is posted where the game is.
        language = user_language(interaction)
        reply = self.ui.announcer.reply(interaction)
        try:
            await interaction.response.edit_message(
                content=gettext(language, "✅ You played **{move}**.", move=words), view=None, attachments=[]
            )
        except (discord.HTTPException, TimeoutError, OSError) as error:
            log.info("could not update the private step after a move in match %s: %s", record.id, error)
        await self.ui.server_language(interaction)
        await self.ui.announcer.deliver(turn.announcements, reply, state=turn.state, turn=turn)
        self.ui.computers.wake(turn.record, turn.state, reply)

    # -- stale boards -------------------------------------------------------------------------------------------

    async def show_current(self, interaction: discord.Interaction, stale: StaleBoard) -> None:
        """Say the board is old, privately, with the current board and its controls."""
        language = user_language(interaction)
        text = stale.text(language)
        found = await self.service.match_state(stale.match_id)
        if found is None:
            await _send_private(interaction, gettext(language, "This game is over."), None, None)
            return
        record, state = found
        if not interaction.response.is_done():
            await interaction.response.defer(ephemeral=True, thinking=True)
        file = await self.ui.board_file(state, record, language)
        content = limits.clip(text + "\n" + messages.board_text(record, state, language), limits.MESSAGE_CONTENT_MAX)
        kwargs: dict[str, Any] = {"content": content, "ephemeral": True, "allowed_mentions": NO_MENTIONS}
        if file is not None:
            kwargs["file"] = file
        view = await controls_for(self.takebacks.in_event)(record, state, language)
        if view is not None:
            kwargs["view"] = view
        await interaction.followup.send(**kwargs)

    # -- takebacks ---------------------------------------------------------------------------------------------

    async def takeback(self, interaction: discord.Interaction, action: str, match_id: int, version: int) -> None:
        """Take back: ask (the one who just moved), accept or decline (the others)."""
        if action == "ask":
            answer = await self.takebacks.ask(match_id, version, interaction.user.id)
        else:
            answer = await self.takebacks.answer(match_id, version, interaction.user.id, action == "accept")
        await self.tell(interaction, answer)

    async def tell(self, interaction: discord.Interaction, answer: TakebackAnswer) -> None:
        language = await self.ui.server_language(interaction)
        record = answer.record
        if answer.how == "granted" and answer.done is not None:
            reply = self.ui.announcer.reply(interaction)
            if answer.offer is not None:  # the request's message says it was granted, without its buttons
                words = gettext(language, "↩️ The move was taken back.")
                await _edit_or_reply(interaction, words)
            else:
                await self.ui.announcer.acknowledge(reply)
            await self.ui.announcer.deliver(
                answer.done.announcements, reply, state=answer.done.state, record=answer.done.record
            )
            return
        asker = escape_name(record.players[answer.offer.seat].name) if answer.offer is not None else ""
        if answer.how == "asked" and answer.offer is not None:
            others = ", ".join(f"<@{record.players[seat].user_id}>" for seat in answer.waiting)
            text = gettext(
                language,
                "↩️ {player} asks to take back their last move. {others}: do you agree?",
                player=asker,
                others=others,
            )
            await interaction.response.send_message(
                limits.clip(text, limits.MESSAGE_CONTENT_MAX),
                view=takeback_view(record.id, answer.offer.version, language),
                allowed_mentions=discord.AllowedMentions(
                    users=[discord.Object(record.players[seat].user_id) for seat in answer.waiting],
                    roles=False,
                    everyone=False,
                ),
            )
            return
        if answer.how == "agreed":
            names = ", ".join(escape_name(record.players[seat].name) for seat in answer.waiting)
            await interaction.response.send_message(
                gettext(user_language(interaction), "You agreed. Still waiting for {players}.", players=names),
                ephemeral=True,
            )
            return
        key = WITHDRAWN if answer.how == "withdrawn" else DECLINED
        who = escape_name(interaction.user.display_name) if answer.how == "declined" else asker
        await _edit_or_reply(interaction, gettext(language, key, player=who))

    # -- helpers ---------------------------------------------------------------------------------------------

    def _split(self, match_id: int, path: str) -> tuple[str, ...]:
        try:
            return split(path)
        except BadPath:
            raise StaleBoard(match_id, STALE_BOARD) from None

    @staticmethod
    def _form(record: MatchRecord) -> MoveForm:
        form = GAMES[record.game].moves
        if form is None:
            raise Refusal("This game's moves are typed with its commands.")
        return form

    def _walk(self, record: MatchRecord, state: GameState, path: Sequence[str]) -> Step:
        form = self._form(record)
        try:
            return walk(state, form, path)
        except BadPath:
            raise StaleBoard(record.id, STALE_BOARD) from None

    @staticmethod
    async def _defer(interaction: discord.Interaction, private: bool) -> None:
        if private:
            await interaction.response.defer()  # the private message is edited once the preview is drawn
        else:
            await interaction.response.defer(ephemeral=True, thinking=True)

    async def _answer(
        self, interaction: discord.Interaction, private: bool, content: str, view: Any, file: discord.File | None
    ) -> None:
        content = limits.clip(content, limits.MESSAGE_CONTENT_MAX)
        if private:
            await interaction.response.edit_message(
                content=content, view=view, attachments=[file] if file is not None else []
            )
        else:
            await _send_private(interaction, content, view, file)

    @staticmethod
    async def _after_defer(
        interaction: discord.Interaction, private: bool, content: str, view: Any, file: discord.File | None
    ) -> None:
        content = limits.clip(content, limits.MESSAGE_CONTENT_MAX)
        if private:
            await interaction.edit_original_response(
                content=content, view=view, attachments=[file] if file is not None else []
            )
        else:
            kwargs: dict[str, Any] = {"content": content, "view": view, "ephemeral": True}
            if file is not None:
                kwargs["file"] = file
            await interaction.followup.send(**kwargs)


def _is_private(interaction: discord.Interaction) -> bool:
    """Whether the press came from one of the private (ephemeral) step messages."""
    message = interaction.message
    return message is not None and bool(message.flags.ephemeral)


async def _send_private(interaction: discord.Interaction, content: str, view: Any, file: discord.File | None) -> None:
    kwargs: dict[str, Any] = {"content": content, "ephemeral": True}
    if view is not None:
        kwargs["view"] = view
    if file is not None:
        kwargs["file"] = file
    if interaction.response.is_done():
        await interaction.followup.send(**kwargs)
    else:
        await interaction.response.send_message(**kwargs)


async def _edit_or_reply(interaction: discord.Interaction, content: str) -> None:
    """Replace the pressed message's text and buttons with ``content``; else say it in a new message."""
    if interaction.response.is_done():
        await interaction.followup.send(content, allowed_mentions=NO_MENTIONS)
        return
    await interaction.response.edit_message(content=content, view=None, allowed_mentions=NO_MENTIONS)


def tap_items(taps: Taps) -> list[type[discord.ui.DynamicItem[Any]]]:
    """The dynamic items routing every press of the board's controls, on any message, to ``taps``."""
    from bot.commands.errors import report

    async def guarded(interaction: discord.Interaction[Any], work: Any) -> None:
        try:
            await work
        except StaleBoard as stale:
            try:
                await taps.show_current(interaction, stale)
            except Exception as error:
                await report(interaction, error)
        except Exception as error:
            await report(interaction, error)

    return [
        persistent_select(
            PICK,
            "MovePick",
            lambda interaction, values, chosen: guarded(
                interaction, taps.pick(interaction, values["match"], values["version"], values["path"], chosen)
            ),
        ),
        persistent_button(
            PLAY,
            "MovePlay",
            lambda values: discord.ui.Button(custom_id=PLAY.build(**values)),
            lambda interaction, values: guarded(
                interaction, taps.play(interaction, values["match"], values["version"], values["path"])
            ),
        ),
        persistent_button(
            BACK,
            "MoveBack",
            lambda values: discord.ui.Button(custom_id=BACK.build(**values)),
            lambda interaction, values: guarded(
                interaction, taps.back(interaction, values["match"], values["version"], values["path"])
            ),
        ),
        persistent_button(
            TAKEBACK,
            "TakebackButton",
            lambda values: discord.ui.Button(custom_id=TAKEBACK.build(**values)),
            lambda interaction, values: guarded(
                interaction, taps.takeback(interaction, values["action"], values["match"], values["version"])
            ),
        ),
    ]


__all__ = ["Taps", "board_controls", "tap_items"]
