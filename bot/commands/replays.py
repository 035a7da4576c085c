"""``/history match:N``: a finished match as an animated replay, its move list, and buttons to step through it.

The replay message carries the animated GIF (:func:`render.replay.replay_gif`), the match record
(``match-N.txt``, :mod:`engines.record`: it replays exactly with ``python -m engines --moves-file``) and
four buttons ⏮ ◀ ▶ ⏭.  A button's custom ID holds the match and the ply it leads to, so the buttons work
for anyone and after restarts (a :class:`~discord.ui.DynamicItem` built by the composition root).  A press
replaces the picture with the board at that ply, drawn in a worker process from the positions rebuilt
from the move log, which a small LRU cache keeps per match so the next press is fast.

Everything CPU-heavy (replaying the log, the GIF, the boards) runs in the worker processes, never on the
event loop; a press that is not drawn in time for Discord's 3 s deadline is deferred and edited later.
A press never waits behind the turn boards: its work is ``urgent`` (a worker process of its own), a first
press rebuilds the positions and draws its board in one trip, and after each press the boards the next
press could show (both neighbours, the start, the end) are drawn ahead and kept.
"""

from __future__ import annotations

import asyncio
import io
import logging
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import replace
from typing import Any, Protocol

import discord

import i18n
from bot.commands.components import Choice, CustomId, Number, persistent_button
from bot.commands.views import analyse_button, routed_view
from bot.core.ports import English, Languages, Workers
from bot.core.positions import Rebuilt, game_record, plies_of, positions
from bot.core.refusals import Refusal
from bot.delivery.ports import BOARD_FILE, NO_MENTIONS
from bot.storage.records import LogEntry, MatchRecord, MatchStatus, TurnKind
from bot.text.escaping import escape_name
from engines import GameState
from engines.base import FORFEIT, TIMEOUT
from engines.record import Forfeit, GameRecord, Ply, format_record, ply_text, replay, result_of
from i18n.catalog import DEFAULT, pgettext
from i18n.describe import alt_text

log = logging.getLogger(__name__)

CACHE_SIZE = 32  # matches whose positions stay rebuilt
BOARD_CACHE_SIZE = 128  # boards drawn (about 30 KB each): the ones just shown and the next ones
ANSWER_SECONDS = 2.0  # past this, a press is deferred and its message edited when the board is drawn
STEPS = ("first", "prev", "next", "last")
LABELS = {"first": "⏮", "prev": "◀", "next": "▶", "last": "⏭"}
REPLAY = CustomId("replay", Number("match", 19), Number("ply", 6), Choice("step", STEPS))
REPLAY_TEMPLATE = REPLAY.template
MAX_PLY = 999_999

# (interaction, match ID, ply, step) -> the work of showing that ply in place of the pressed message's board
StepHandler = Callable[[discord.Interaction[Any], int, int, str], Awaitable[None]]


class Matches(Protocol):
    """What the replays read from the store."""

    async def get(self, match_id: int) -> MatchRecord | None: ...

    async def log(self, match_id: int, upto: int | None = None) -> list[LogEntry]: ...


# -- the record and the pictures (worker side: pure, picklable arguments) --------------------------------------------


def ply_caption(ply: Ply, names: Sequence[str]) -> str:
    """A ply as a replay shows it: a move as written, a resignation or a claim as the record line with its
    sentence, as the log's rows once read (``forfeit 2: Bo resigned.``, names escaped); other forfeits as
    their record line."""
    if not isinstance(ply, Forfeit) or ply.reason not in (FORFEIT, TIMEOUT):
        return ply_text(ply)
    by = 1 - ply.seat if ply.by is None and len(names) == 2 else ply.by
    claimer = None if by is None else escape_name(names[by])
    sentence = i18n.forfeit_text(ply.reason, escape_name(names[ply.seat]), claimer, players=len(names))
    return f"forfeit {ply.seat + 1}: {sentence}"


def build_replay(game: GameRecord, language: str = DEFAULT) -> tuple[bytes, str, list[GameState]]:
    """The animated GIF, the record's text (with its result) and every position (runs in a worker)."""
    from render.replay import replay_gif

    states = replay(game)
    moves = [ply_caption(ply, game.names) for ply in game.plies]
    gif = replay_gif(states, players=list(game.names), moves=moves, locale=language)
    return gif, format_record(replace(game, result=result_of(states[-1]))), states


def positions_and_board(game: GameRecord, ply: int, language: str = DEFAULT) -> tuple[list[GameState], int, bytes]:
    """Every position, and the board at ``ply`` (kept within the game) drawn in ``language``: a first press's
    work in one trip to a worker (runs in a worker)."""
    states = replay(game)
    ply = min(max(0, ply), len(states) - 1)
    return states, ply, draw_board(states[ply], game.names, language)


def draw_board(state: GameState, names: Sequence[str], language: str = DEFAULT) -> bytes:
    """One position as PNG bytes, in ``language`` (runs in a worker)."""
    from render import render

    return render(state, players=list(names), locale=language)


# -- the buttons -----------------------------------------------------------------------------------------------------


def step_target(step: str, ply: int, plies: int) -> int:
    """The ply a button leads to from ``ply`` in a game of ``plies``.

    >>> [step_target(s, 3, 10) for s in STEPS], [step_target(s, 0, 10) for s in STEPS]
    ([0, 2, 4, 10], [0, 0, 1, 10])
    """
    return {"first": 0, "prev": max(0, ply - 1), "next": min(plies, ply + 1), "last": plies}[step]


def step_button(match_id: int, target: int, step: str, *, disabled: bool = False) -> discord.ui.Button[Any]:
    """One of ⏮ ◀ ▶ ⏭: its custom ID carries the match and the ply it shows."""
    return discord.ui.Button(
        label=LABELS[step],
        style=discord.ButtonStyle.secondary,
        custom_id=REPLAY.build(match=match_id, ply=target, step=step),
        disabled=disabled,
    )


def step_view(match_id: int, ply: int, plies: int, language: str = DEFAULT) -> discord.ui.View:
    """The four buttons of a replay showing ``ply`` (those leading nowhere new are disabled), and Analyse."""
    view = routed_view()
    for step in STEPS:
        target = step_target(step, ply, plies)
        view.add_item(step_button(match_id, target, step, disabled=target == ply))
    view.add_item(analyse_button(match_id, language))
    return view


def replay_buttons(handler: StepHandler) -> type[discord.ui.DynamicItem[Any]]:
    """The dynamic item that routes every press of ⏮ ◀ ▶ ⏭, on any replay message, to ``handler``."""
    return persistent_button(
        REPLAY,
        "ReplayStepButton",
        lambda values: step_button(values["match"], values["ply"], values["step"]),
        lambda interaction, values: handler(interaction, values["match"], values["ply"], values["step"]),
    )


# -- the service -----------------------------------------------------------------------------------------------------


class Replays:
    """Posts replays and answers their buttons; keeps the last :data:`CACHE_SIZE` matches' positions."""

    def __init__(
        self, matches: Matches, workers: Workers, cache_size: int = CACHE_SIZE, languages: Languages | None = None
    ) -> None:
        self.matches = matches
        self.workers = workers
        self.languages: Languages = languages or English()
        self.cache_size = cache_size
        self._cache: OrderedDict[int, Rebuilt] = OrderedDict()
        self._building: dict[int, asyncio.Future[Rebuilt]] = {}
        self._boards: OrderedDict[tuple[int, int, str], asyncio.Future[bytes]] = OrderedDict()
        self._language: dict[int, str] = {}  # each match's server language, as last looked up
        self._prefetching: set[asyncio.Future[bytes]] = set()

    def _remember(self, rebuilt: Rebuilt) -> Rebuilt:
        self._cache[rebuilt.record.id] = rebuilt
        self._cache.move_to_end(rebuilt.record.id)
        while len(self._cache) > self.cache_size:
            self._cache.popitem(last=False)
        return rebuilt

    async def finished(self, match_id: int, guild_id: int | None) -> MatchRecord:
        """The finished match ``match_id`` of this server, or a :class:`~bot.core.service.Refusal`."""
        record = await self.matches.get(match_id)
        if record is None or record.guild_id != (guild_id or 0) or record.status != MatchStatus.FINISHED:
            raise Refusal("There is no finished game #{number} on this server.", number=match_id)
        return record

    async def moves_played(self, match_id: int) -> int:
        """How many moves the match's log holds (a forfeit is no move): known before anything is rebuilt."""
        found = self._cache.get(match_id)
        if found is not None:
            return sum(1 for ply in found.game.plies if isinstance(ply, str))
        return sum(1 for entry in await self.matches.log(match_id) if entry.kind == TurnKind.MOVE)

    async def rebuilt(self, match_id: int, guild_id: int | None, show: tuple[int, str] | None = None) -> Rebuilt:
        """The match's positions: from the cache, or rebuilt from its log in a worker (once, however many ask).

        ``show`` (a ply and a language): when the positions are rebuilt, that board is drawn in the same trip
        to the worker and kept with the others drawn.
        """
        found = self._cache.get(match_id)
        if found is not None and found.record.guild_id == (guild_id or 0):
            self._cache.move_to_end(match_id)
            return found
        pending = self._building.get(match_id)
        if pending is None:
            pending = asyncio.get_running_loop().create_future()
            self._building[match_id] = pending
            try:
                record = await self.finished(match_id, guild_id)
                game = game_record(record, plies_of(await self.matches.log(match_id), record))
                if show is None:
                    states = await self.workers.run(positions, game, urgent=True)
                else:
                    states, ply, png = await self.workers.run(positions_and_board, game, *show, urgent=True)
                    self._keep_board((match_id, ply, show[1]), png)
                rebuilt = self._remember(Rebuilt(record, game, states))
                pending.set_result(rebuilt)
            except BaseException as error:
                pending.set_exception(error)
                pending.exception()  # retrieved here: nobody else may be waiting
                raise
            finally:
                self._building.pop(match_id, None)
            return rebuilt
        rebuilt = await asyncio.shield(pending)
        if rebuilt.record.guild_id != (guild_id or 0):
            raise Refusal("There is no finished game #{number} on this server.", number=match_id)
        return rebuilt

    # -- /history match:N ---------------------------------------------------------------------------------------

    async def post(self, interaction: discord.Interaction[Any], match_id: int) -> None:
        """Answer ``/history match:N``: the animated replay, the record file and the step buttons."""
        record = await self.finished(match_id, interaction.guild_id)
        await interaction.response.defer(thinking=True)
        game = game_record(record, plies_of(await self.matches.log(match_id), record))
        language = await self.languages.language(record.guild_id)
        self._language[record.id] = language
        gif, text, states = await self.workers.run(build_replay, game, language)
        rebuilt = self._remember(Rebuilt(record, game, states))
        for ahead in (rebuilt.plies - 1, 0):  # what ◀ and ⏮ will show first
            self._draw_ahead(rebuilt, ahead)
        final = states[-1]
        names = rebuilt.names
        content = pgettext(
            language,
            "replay",
            "Game #{number}: the whole match, {plies} plies. Step through it with the buttons.",
            number=record.id,
            plies=rebuilt.plies,
        )
        files = [
            discord.File(
                io.BytesIO(gif), filename=f"replay-{record.id}.gif", description=alt_text(final, names, language)
            ),
            record_file(record.id, text),
        ]
        await interaction.followup.send(
            content=content,
            files=files,
            view=step_view(record.id, rebuilt.plies, rebuilt.plies, language),
            allowed_mentions=NO_MENTIONS,
        )

    # -- a button -----------------------------------------------------------------------------------------------

    async def step(self, interaction: discord.Interaction[Any], match_id: int, ply: int, step: str = "") -> None:
        """Show ply ``ply`` of the match in place of the pressed message's picture.

        The board one further in the direction of ``step`` is drawn in the background, so the next
        press of the same button finds it ready.
        """
        work = asyncio.ensure_future(self._frame(match_id, interaction.guild_id, ply, step))
        done, _ = await asyncio.wait({work}, timeout=ANSWER_SECONDS)
        if work in done:
            content, files, view = work.result()
            await interaction.response.edit_message(
                content=content, attachments=files, view=view, allowed_mentions=NO_MENTIONS
            )
            return
        await interaction.response.defer()
        content, files, view = await work
        await interaction.edit_original_response(content=content, attachments=files, view=view)

    def _board(self, rebuilt: Rebuilt, ply: int) -> asyncio.Future[bytes]:
        """The board at ``ply``, drawn once per language in a worker and kept (a failed drawing is not kept)."""
        language = self._language.get(rebuilt.record.id, DEFAULT)
        key = (rebuilt.record.id, ply, language)
        found = self._boards.get(key)
        if found is not None and not (found.done() and (found.cancelled() or found.exception() is not None)):
            self._boards.move_to_end(key)
            return found
        drawing = self.workers.run(draw_board, rebuilt.states[ply], rebuilt.names, language, urgent=True)
        future = asyncio.ensure_future(drawing)
        self._boards[key] = future
        while len(self._boards) > BOARD_CACHE_SIZE:
            self._boards.popitem(last=False)
        return future

    def _keep_board(self, key: tuple[int, int, str], png: bytes) -> None:
        drawn = asyncio.get_running_loop().create_future()
        drawn.set_result(png)
        self._boards[key] = drawn
        while len(self._boards) > BOARD_CACHE_SIZE:
            self._boards.popitem(last=False)

    def _prefetch(self, rebuilt: Rebuilt, ply: int, step: str) -> None:
        """Draw, in the background, every board the next press could show: the next one in the direction of
        ``step`` first, then the other neighbour, the start and the end (each drawn once and kept)."""
        ahead = {"first": 1, "prev": ply - 1, "next": ply + 1, "last": ply - 1}.get(step)
        for target in (ahead, ply - 1, ply + 1, 0, rebuilt.plies):
            if target is not None:
                self._draw_ahead(rebuilt, target)

    def _draw_ahead(self, rebuilt: Rebuilt, ahead: int) -> None:
        """Draw the board at ``ahead`` in the background, unless it is drawn or being drawn."""
        language = self._language.get(rebuilt.record.id, DEFAULT)
        if not 0 <= ahead <= rebuilt.plies or (rebuilt.record.id, ahead, language) in self._boards:
            return
        task = self._board(rebuilt, ahead)
        self._prefetching.add(task)
        task.add_done_callback(self._prefetched)

    def _prefetched(self, task: asyncio.Future[bytes]) -> None:
        self._prefetching.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.warning("drawing a replay board ahead failed", exc_info=task.exception())

    async def _frame(
        self, match_id: int, guild_id: int | None, ply: int, step: str = ""
    ) -> tuple[str, list[discord.File], discord.ui.View]:
        language = await self.languages.language(guild_id or 0)  # the match's server: checked just below
        self._language[match_id] = language
        rebuilt = await self.rebuilt(match_id, guild_id, (ply, language))
        ply = min(max(0, ply), rebuilt.plies)
        state = rebuilt.states[ply]
        board = self._board(rebuilt, ply)
        self._prefetch(rebuilt, ply, step)
        png = await asyncio.shield(board)
        move = ply_caption(rebuilt.game.plies[ply - 1], rebuilt.game.names) if ply > 0 else ""
        content = position_line(language, match_id, ply, rebuilt.plies, move)
        picture = discord.File(
            io.BytesIO(png), filename=BOARD_FILE, description=alt_text(state, rebuilt.names, language)
        )
        return (
            content,
            [picture, record_file(match_id, rebuilt.text)],
            step_view(match_id, ply, rebuilt.plies, language),
        )


def position_line(language: str, match_id: int, ply: int, plies: int, move: str) -> str:
    """``Game #12 · Move 3 of 40: place b2`` (``Start of 40 moves`` at ply 0)."""
    if ply == 0:
        return pgettext(language, "replay", "Game #{number} · Start ({plies} plies)", number=match_id, plies=plies)
    return pgettext(
        language,
        "replay",
        "Game #{number} · Move {ply} of {plies}: {move}",
        number=match_id,
        ply=ply,
        plies=plies,
        move=discord.utils.escape_markdown(move),
    )


def record_file(match_id: int, text: str) -> discord.File:
    """The match record as ``match-N.txt`` (UTF-8)."""
    return discord.File(io.BytesIO(text.encode("utf-8")), filename=f"match-{match_id}.txt")
