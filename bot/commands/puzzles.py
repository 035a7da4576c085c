"""``/puzzle``: a puzzle privately, solved with the same taps as a move or typed; and the daily puzzle's Solve.

``/puzzle`` (optionally ``game:``) answers privately with the board, what to find ("Light to move and win 2
frogs"), where the puzzle came from and the asker's puzzle rating, under the menus of the first step of a move,
built from the position exactly as a game's board post builds them (:func:`bot.core.taps.walk`, each choice in the
game's words).  A try in progress is shown again rather than a new one started.  ``/puzzle move:`` answers by
typing (autocomplete offers the position's legal moves).

Each answer goes to :meth:`bot.core.puzzles.PuzzleService.play`: a right move shows the defender's reply on the
board and asks for the next; the last right move says solved, with the rating change and the streak; a wrong one
shows the solution in blue and the answer in amber on the position (a marked board whose legend says so), and
what each would have given.  Every control carries the try, the step and the choices so far in its custom ID, so it
works after a restart; a control of a step the try has left changes nothing.  An illegal or unreadable move is
refused politely and changes nothing.

The daily post's **Solve** (:func:`solve_button`) opens its puzzle privately for whoever presses it.
"""

from __future__ import annotations

import io
import logging
from collections.abc import Sequence
from typing import Any

import discord
from discord import app_commands

from bot import limits
from bot.commands.components import CustomId, Number, Pattern, persistent_button, persistent_select
from bot.commands.ladder import GAME_CHOICES
from bot.commands.reviews import draw_marked
from bot.commands.taps import MENUS_MAX, menus, step_words
from bot.commands.ui import choices, user_language
from bot.commands.views import routed_view
from bot.core.puzzles import RIGHT, WRONG, Opened, PuzzleService, Verdict
from bot.core.refusals import Refusal
from bot.core.taps import PATH_PATTERN, BadPath, Step, joined, previous, split, walk
from bot.delivery.ports import BOARD_FILE
from bot.delivery.rendering import BoardRenderer
from bot.storage.database import N_
from bot.text import puzzles as words
from engines import GAMES, GameState, MoveForm
from i18n.catalog import gettext

log = logging.getLogger(__name__)

_PATH = Pattern("path", PATH_PATTERN)
PICK = CustomId("puzzle", Number("part", 1), Number("attempt", 19), Number("step", 2), _PATH)
BACK = CustomId("puzzleback", Number("attempt", 19), Number("step", 2), _PATH)
SOLVE = CustomId("puzzlesolve", Number("puzzle", 19))

STALE = N_("This puzzle has moved on since that message: use its latest one.")


def puzzle_view(
    state: GameState, opened: Opened, step: Step, back: Sequence[str] | None, language: str
) -> discord.ui.View:
    """The controls of a puzzle's private message: the step's menus, and Back to the step before."""
    view = routed_view()
    attempt = opened.attempt

    def custom_id(part: int) -> str:
        return PICK.build(part=part, attempt=attempt.id, step=attempt.step, path=joined(step.path))

    for select in menus(state, step, gettext(language, "Choose your move…"), language, custom_id):
        view.add_item(select)
    if back is not None:
        view.add_item(
            discord.ui.Button(
                label=gettext(language, "Back"),
                style=discord.ButtonStyle.secondary,
                custom_id=BACK.build(attempt=opened.attempt.id, step=opened.attempt.step, path=joined(back)),
                row=MENUS_MAX,
            )
        )
    return view


def solve_view(puzzle_id: int, language: str) -> discord.ui.View:
    """The daily post's Solve button."""
    view = routed_view()
    view.add_item(solve_item(puzzle_id, language))
    return view


def solve_item(puzzle_id: int, language: str = "en") -> discord.ui.Button[Any]:
    return discord.ui.Button(
        label=gettext(language, "Solve"),
        emoji="🧩",
        style=discord.ButtonStyle.primary,
        custom_id=SOLVE.build(puzzle=puzzle_id),
    )


class PuzzleCommands:
    """Answers ``/puzzle``, the puzzle's menus and Back, and the daily post's Solve."""

    def __init__(self, service: PuzzleService, renderer: BoardRenderer) -> None:
        self.service = service
        self.renderer = renderer

    # -- showing ------------------------------------------------------------------------------------------

    async def _board(self, opened: Opened, language: str) -> discord.File | None:
        """The try's position as a board image with its alt text (None if drawing failed)."""
        state = opened.puzzle.state_at(opened.attempt.step)
        names = words.names_of(opened.stored, language)
        try:
            png, alt = await self.renderer.board(state, names, language)
        except Exception:
            log.exception("drawing puzzle %s failed", opened.stored.id)
            return None
        return discord.File(io.BytesIO(png), filename=BOARD_FILE, description=words.board_alt(alt, language))

    async def _marked(self, verdict: Verdict, language: str) -> discord.File | None:
        """A wrong answer's board: the answer in amber, the solution in blue, on the position it was made in."""
        from i18n.describe import alt_text

        puzzle = verdict.opened.puzzle
        state = puzzle.state_at(verdict.step)
        names = words.names_of(verdict.opened.stored, language)
        solution = puzzle.solver_moves[verdict.step]
        try:
            png = await self.renderer.workers.run(
                draw_marked, state, verdict.move, solution, tuple(names), language, "puzzle"
            )
        except Exception:
            log.exception("drawing the solution of puzzle %s failed", verdict.opened.stored.id)
            return None
        alt = words.board_alt(alt_text(state, names, language), language, marked=True)
        return discord.File(io.BytesIO(png), filename=BOARD_FILE, description=alt)

    def _first_step(self, opened: Opened) -> tuple[GameState, Step | None]:
        state = opened.puzzle.state_at(opened.attempt.step)
        form = GAMES[opened.stored.game].moves
        if form is None:
            return state, None
        try:
            return state, walk(state, form, ())
        except BadPath:
            return state, None

    async def _send_new(self, interaction: discord.Interaction[Any], opened: Opened) -> None:
        """Answer privately with the puzzle, its board and its first menus (after a deferral)."""
        language = user_language(interaction)
        state, step = self._first_step(opened)
        content = words.step_prompt(opened.stored, opened.rating, opened.attempt.step, "", language)
        kwargs: dict[str, Any] = {"content": limits.clip(content, limits.MESSAGE_CONTENT_MAX), "ephemeral": True}
        if step is not None:
            kwargs["view"] = puzzle_view(state, opened, step, None, language)
        file = await self._board(opened, language)
        if file is not None:
            kwargs["file"] = file
        await interaction.followup.send(**kwargs)

    async def _show_verdict(self, interaction: discord.Interaction[Any], verdict: Verdict, *, edit: bool) -> None:
        """Show what an answer did: the next position and menus, or the end (after a deferral)."""
        language = user_language(interaction)
        opened = verdict.opened
        names = words.names_of(opened.stored, language)
        content = words.verdict_text(verdict, names, language)
        view: discord.ui.View | None = None
        if verdict.result == RIGHT:
            file = await self._board(opened, language)
            state, step = self._first_step(opened)
            if step is not None:
                view = puzzle_view(state, opened, step, None, language)
        elif verdict.result == WRONG:
            file = await self._marked(verdict, language)
        else:
            solved = opened.puzzle.state_at(verdict.step).play(verdict.move)
            try:
                png, alt = await self.renderer.board(solved, names, language)
                file = discord.File(io.BytesIO(png), filename=BOARD_FILE, description=words.board_alt(alt, language))
            except Exception:
                log.exception("drawing solved puzzle %s failed", opened.stored.id)
                file = None
        if edit:
            await interaction.edit_original_response(
                content=content, view=view, attachments=[file] if file is not None else []
            )
            return
        kwargs: dict[str, Any] = {"content": content, "ephemeral": True}
        if view is not None:
            kwargs["view"] = view
        if file is not None:
            kwargs["file"] = file
        await interaction.followup.send(**kwargs)

    # -- answering ----------------------------------------------------------------------------------------

    async def ask(self, interaction: discord.Interaction[Any], game: str | None, move: str | None) -> None:
        """``/puzzle``: a puzzle (the one in progress, else a new one), or with ``move`` an answer to it."""
        if interaction.guild_id is None:
            raise Refusal("Puzzles belong to servers; use this command in a server.")
        if game is not None and game not in GAMES:
            raise Refusal("There is no such game.")
        if move is None:
            opened = await self.service.next_for(interaction.guild_id, interaction.user.id, game)
            await interaction.response.defer(ephemeral=True, thinking=True)
            await self._send_new(interaction, opened)
            return
        current = await self.service.current(interaction.guild_id, interaction.user.id)
        if current is None:
            raise Refusal("You have no puzzle in progress: ask for one with `/puzzle`.")
        verdict = await self.service.play(current, current.attempt.step, move)  # refused before anything is sent
        await interaction.response.defer(ephemeral=True, thinking=True)
        await self._show_verdict(interaction, verdict, edit=False)

    async def complete(self, interaction: discord.Interaction[Any], typed: str) -> list[app_commands.Choice[str]]:
        """The legal moves of the asker's puzzle in progress, those starting with what was typed first."""
        if interaction.guild_id is None:
            return []
        current = await self.service.current(interaction.guild_id, interaction.user.id)
        if current is None:
            return []
        state = current.puzzle.state_at(current.attempt.step)
        return choices([state.move_text(move) for move in state.legal_moves()], typed)

    async def _playing(self, interaction: discord.Interaction[Any], attempt_id: int, step: int) -> Opened:
        opened = await self.service.open(attempt_id, interaction.user.id)
        if opened.attempt.status != "playing":
            raise Refusal("This puzzle is over. Ask for another with `/puzzle`.")
        if opened.attempt.step != step:
            raise Refusal(STALE)
        return opened

    @staticmethod
    def _form(opened: Opened) -> MoveForm:
        form = GAMES[opened.stored.game].moves
        if form is None:
            raise Refusal("This game's moves are typed with its commands.")
        return form

    def _walk(self, opened: Opened, path: Sequence[str]) -> tuple[GameState, Step]:
        state = opened.puzzle.state_at(opened.attempt.step)
        try:
            return state, walk(state, self._form(opened), path)
        except BadPath:
            raise Refusal(STALE) from None

    async def pick(
        self, interaction: discord.Interaction[Any], attempt_id: int, step: int, path: str, chosen: str
    ) -> None:
        """A choice in a puzzle's menu: the next step, or (the move chosen) the answer judged."""
        opened = await self._playing(interaction, attempt_id, step)
        try:
            before = split(path)
        except BadPath:
            raise Refusal(STALE) from None
        state, walked = self._walk(opened, (*before, chosen))
        language = user_language(interaction)
        if not walked.complete:
            content = words.step_prompt(
                opened.stored, opened.rating, step, step_words(state, walked, language), language
            )
            view = puzzle_view(state, opened, walked, before, language)
            await interaction.response.edit_message(content=limits.clip(content, limits.MESSAGE_CONTENT_MAX), view=view)
            return
        verdict = await self.service.play(opened, step, state.move_text(walked.move))
        await interaction.response.defer()  # the private message is edited once the board is drawn
        await self._show_verdict(interaction, verdict, edit=True)

    async def back(self, interaction: discord.Interaction[Any], attempt_id: int, step: int, path: str) -> None:
        """Back: the step at ``path`` again."""
        opened = await self._playing(interaction, attempt_id, step)
        try:
            tokens = split(path)
        except BadPath:
            raise Refusal(STALE) from None
        state, walked = self._walk(opened, tokens)
        language = user_language(interaction)
        back = previous(state, self._form(opened), walked.path)
        content = words.step_prompt(opened.stored, opened.rating, step, step_words(state, walked, language), language)
        view = puzzle_view(state, opened, walked, back, language)
        await interaction.response.edit_message(content=limits.clip(content, limits.MESSAGE_CONTENT_MAX), view=view)

    async def solve(self, interaction: discord.Interaction[Any], puzzle_id: int) -> None:
        """The daily post's Solve: its puzzle, privately, for whoever pressed."""
        if interaction.guild_id is None:
            raise Refusal("Puzzles belong to servers; use this command in a server.")
        opened = await self.service.open_puzzle(interaction.guild_id, interaction.user.id, puzzle_id)
        await interaction.response.defer(ephemeral=True, thinking=True)
        await self._send_new(interaction, opened)


def add_puzzle_command(tree: app_commands.CommandTree[Any], puzzles: PuzzleCommands) -> None:
    """Add ``/puzzle`` to the bot's tree."""

    @tree.command(name="puzzle", description="Solve a puzzle from this server's games (only you see it).")
    @app_commands.describe(
        game="Which game's puzzles (default: any)", move="Your answer to your puzzle in progress, typed"
    )
    @app_commands.choices(game=GAME_CHOICES)
    @app_commands.guild_only()
    async def puzzle(
        interaction: discord.Interaction,
        game: str | None = None,
        move: app_commands.Range[str, 1, 60] | None = None,
    ) -> None:
        await puzzles.ask(interaction, game, move)

    @puzzle.autocomplete("move")
    async def complete(interaction: discord.Interaction, typed: str) -> list[app_commands.Choice[str]]:
        return await puzzles.complete(interaction, typed)


def puzzle_items(puzzles: PuzzleCommands) -> list[type[discord.ui.DynamicItem[Any]]]:
    """The dynamic items routing every press of a puzzle's controls and the daily post's Solve, on any message."""
    from bot.commands.errors import guarded

    return [
        persistent_select(
            PICK,
            "PuzzlePick",
            lambda interaction, values, chosen: guarded(
                interaction, puzzles.pick(interaction, values["attempt"], values["step"], values["path"], chosen)
            ),
        ),
        persistent_button(
            BACK,
            "PuzzleBack",
            lambda values: discord.ui.Button(custom_id=BACK.build(**values)),
            lambda interaction, values: guarded(
                interaction, puzzles.back(interaction, values["attempt"], values["step"], values["path"])
            ),
        ),
        persistent_button(
            SOLVE,
            "PuzzleSolve",
            lambda values: solve_item(values["puzzle"]),
            lambda interaction, values: guarded(interaction, puzzles.solve(interaction, values["puzzle"])),
        ),
    ]


__all__ = ["PuzzleCommands", "add_puzzle_command", "puzzle_items", "solve_view"]
