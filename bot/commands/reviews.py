"""``/analyse match:``, the Analyse button, and ``/<game> hint``: the computer's review and its hints.

A review is asked for with ``/analyse match:N`` (autocomplete offers the asker's finished games in the
server) or the **Analyse** button under a result and a replay.  Asking queues the review as a background job
owned by the asker (:mod:`bot.core.background`: fair between members, a slice at a time), or joins the job
already queued for that game; a member may ask for :attr:`~bot.settings.Settings.reviews_per_member_day`
reviews a day and a server for :attr:`~bot.settings.Settings.reviews_per_server_day` (joining is free), and
one over the limit is told privately when they may ask again, with nothing queued.  The answer is a public
message in the channel: while the job waits it gives its place ("Your review is queued: 3 ahead of it."), while
it runs how far it got ("Analysing game #12… 40 %"), edited at most every :data:`PROGRESS_SECONDS`; the waiting
works whichever process does the job (the store is read every few seconds; this process's own work is heard
at once).  Then the message becomes the review itself, in the server's language: the evaluation graph
(with alt text saying the same) and a summary line per player, followed by one message per player with up
to three of their moves that earned a verdict (costliest first), each with a board of the position before it,
the move played marked in amber and the better one in blue (the board's legend says which is which).  The
review is made by :class:`bot.core.reviews.ReviewMaker` (worker processes, behind live games) and kept, so
asking again shows it at once, without queueing.

``/<game> hint`` answers privately in a running practice game (unrated, against the computer) with the
move the search suggests, marked in blue on the board (its legend calls it the suggested move), and the
asker's chance with it.  Rated games and games between people refuse it, with the reason, and so does a
server that turned hints off (``/tabula hints``).
"""

from __future__ import annotations

import asyncio
import io
import logging
import math
import time
from collections.abc import Callable, Coroutine, Sequence
from typing import Any, Protocol

import discord
from discord import app_commands

from ai import search_seed
from ai.review import Judgement, Review
from bot import limits
from bot.commands.ladder import outcome_line
from bot.commands.replays import Replays
from bot.commands.ui import user_language
from bot.core.background import BackgroundRunner
from bot.core.computer_seats import computer_level
from bot.core.ports import Languages, ServerSettings, Workers
from bot.core.positions import Rebuilt
from bot.core.refusals import Refusal
from bot.core.reviews import REVIEW, ReviewMaker, moves_to_judge
from bot.delivery.ports import BOARD_FILE, NO_MENTIONS
from bot.storage.job_store import DONE, QUEUED, RUNNING, DailyLimitReached, Job
from bot.storage.records import MatchRecord
from bot.text import formatting
from bot.text.escaping import escape_name
from engines import GAMES, GameState
from i18n.catalog import gettext, ngettext
from i18n.review import costly_move_line, summary_line, thresholds_text

log = logging.getLogger(__name__)

PROGRESS_SECONDS = 3.0  # the progress message is edited at most this often


class Matches(Protocol):
    async def finished_matches(
        self, guild_id: int, *, channel_id: int | None = None, user_id: int | None = None, limit: int = 10
    ) -> list[MatchRecord]: ...


class Running(Protocol):
    async def running(
        self, channel_id: int, game: str | None = None, *, user_id: int = 0, guild_id: int | None = None
    ) -> tuple[MatchRecord, GameState]: ...


# -- worker side: pure, picklable -------------------------------------------------------------------------------------


def draw_review(review_json: dict[str, Any], names: Sequence[str], language: str) -> tuple[bytes, str]:
    """The review's graph as PNG bytes and its alt text (runs in a worker)."""
    from i18n.review import graph_alt_text
    from render.review import render_review_graph

    review = Review.from_json(review_json)
    png = render_review_graph(review, players=list(names), locale=language)
    return png, graph_alt_text(review, list(names), language)


def draw_marked(
    state: GameState, played: str | None, better: str | None, names: Sequence[str], language: str, meaning: str
) -> bytes:
    """``state`` with ``played`` marked in amber and ``better`` in blue, as PNG bytes (runs in a worker).

    ``meaning`` is what the board's legend says the colours are (:func:`render.render_marked`): a ``"review"``'s
    move played and better move, a ``"hint"``'s suggested move.
    """
    from render import render_marked

    return render_marked(state, played=played, better=better, meaning=meaning, players=list(names), locale=language)


def hint_and_board(
    state: GameState, names: Sequence[str], language: str, seed: int, iterations: int | None = None
) -> tuple[dict[str, Any], bytes]:
    """The search's suggestion in ``state`` (a judgement's JSON) and the board with it marked (runs in a worker)."""
    from ai.review import hint

    suggestion = hint(state, seed=seed, iterations=iterations)
    return suggestion.to_json(), draw_marked(state, None, suggestion.best, names, language, "hint")


# -- the review's messages ---------------------------------------------------------------------------------------------


def progress_text(language: str, match_id: int, done: int, total: int) -> str:
    """``Analysing game #12… 40 %``."""
    share = int(100 * done / total) if total else 0
    return gettext(language, "Analysing game #{number}… {percent} %", number=match_id, percent=share)


def queued_text(language: str, ahead: int) -> str:
    """``Your review is queued: 3 ahead of it.``"""
    return gettext(language, "Your review is queued: {ahead} ahead of it.", ahead=ahead)


def reviews_count(language: str, count: int) -> str:
    """``30 reviews``, in ``language``'s plural."""
    return ngettext(language, "{n} review", "{n} reviews", count)


def failed_text(language: str, match_id: int) -> str:
    """What the asker's message says when the review could not be made."""
    return gettext(language, "Game #{number} could not be reviewed this time. Please try again later.", number=match_id)


def hint_text(state: GameState, suggestion: Judgement, language: str) -> str:
    """``Suggested move: `c2` (your chance of winning with it: 62 %).``, for the player to move."""
    chance = round(100 * suggestion.best_value)
    if state.players == 2:
        return gettext(
            language,
            "Suggested move: `{move}`, marked in blue (your chance of winning with it: {percent} %). "
            "Only you see this.",
            move=suggestion.best,
            percent=chance,
        )
    return gettext(
        language,
        "Suggested move: `{move}`, marked in blue (with it you are expected to finish ahead of {percent} % of your "
        "opponents). Only you see this.",
        move=suggestion.best,
        percent=chance,
    )


class Reviews:
    """Answers ``/analyse``, the Analyse button and ``/<game> hint``."""

    def __init__(
        self,
        *,
        maker: ReviewMaker,
        runner: BackgroundRunner,
        replays: Replays,
        render_workers: Workers,
        computer_workers: Workers,
        languages: Languages,
        settings: ServerSettings,
        matches: Matches,
        service: Running,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.maker = maker
        self.runner = runner
        self.replays = replays
        self.render_workers = render_workers
        self.computer_workers = computer_workers
        self.languages = languages
        self.settings = settings
        self.matches = matches
        self.service = service
        self.clock = clock

    # -- /analyse and the button ------------------------------------------------------------------------------

    async def analyse(self, interaction: discord.Interaction[Any], match_id: int) -> None:
        """Post the review of finished match ``match_id``: at once when it is kept, else once its job is done.

        Everything that refuses (no such game, the daily limits) answers before anything is posted, privately.
        """
        record = await self.replays.finished(match_id, interaction.guild_id)  # a refusal before anything is posted
        kept = await self.maker.progress(match_id, record.game)
        job = None
        if not kept[1] and await self.replays.moves_played(match_id):
            job = await self._submit(interaction, match_id)
        await interaction.response.defer(thinking=True)
        language = await self.languages.language(interaction.guild_id or 0)
        rebuilt = await self.replays.rebuilt(match_id, interaction.guild_id)
        plies = list(rebuilt.game.plies)
        if not any(isinstance(ply, str) for ply in plies):
            await interaction.edit_original_response(
                content=gettext(
                    language, "Game #{number} ended before anyone moved: there is nothing to review.", number=match_id
                ),
            )
            return
        if job is not None and not await self._wait(interaction, job, rebuilt, language):
            return
        review = await self.maker.kept(match_id, rebuilt.states, plies)
        if review is None:  # made at another budget meanwhile, or lost: say so rather than post nothing
            await interaction.edit_original_response(content=failed_text(language, match_id))
            return
        await self._post(interaction, rebuilt, review, language)

    async def _submit(self, interaction: discord.Interaction[Any], match_id: int) -> Job:
        """Queue the review's job for the asker (or join the one queued); over a daily limit, refuse."""
        try:
            return await self.runner.submit(
                REVIEW, interaction.guild_id or 0, interaction.user.id, match_id, asked=True
            )
        except DailyLimitReached as reached:
            when = f"<t:{math.ceil(reached.again_at)}:R>"  # Discord shows it in the reader's language
            limit = reached.limit
            if reached.scope == "server":
                raise Refusal(
                    "This server has asked for {count} in the last 24 hours, the most a server may. "
                    "You can ask again {when}.",
                    count=lambda language: reviews_count(language, limit),
                    when=when,
                ) from None
            raise Refusal(
                "You have asked for {count} in the last 24 hours, the most one member may. You can ask again {when}.",
                count=lambda language: reviews_count(language, limit),
                when=when,
            ) from None

    async def _wait(self, interaction: discord.Interaction[Any], job: Job, rebuilt: Rebuilt, language: str) -> bool:
        """Show the job's place while it waits and its progress while it runs (edits at most every
        :data:`PROGRESS_SECONDS`) until it is done; return whether it was (a failure is said in the message)."""
        match_id = rebuilt.record.id
        total = len(moves_to_judge(rebuilt.states, rebuilt.game.plies))
        last_edit = -PROGRESS_SECONDS
        judged = 0
        edits: set[asyncio.Task[Any]] = set()

        def show(content: str) -> None:
            nonlocal last_edit
            now = self.clock()
            if now - last_edit < PROGRESS_SECONDS or edits:
                return
            last_edit = now
            edit = asyncio.ensure_future(interaction.edit_original_response(content=content))
            edits.add(edit)
            edit.add_done_callback(self._edited(edits))

        def progress(done: int, total: int) -> None:
            nonlocal judged
            judged = max(judged, done)
            if done < total:
                show(progress_text(language, match_id, done, total))

        stop = self.maker.watch(match_id, progress)  # each judgement, when this process makes them
        state = job.state
        try:
            async for now in self.runner.follow(job.id):
                state = now.state
                if state == QUEUED:
                    ahead = await self.runner.ahead(now)
                    if ahead:
                        show(queued_text(language, ahead))
                elif state == RUNNING:
                    stored, _ = await self.maker.progress(match_id, rebuilt.record.game)  # another process's work
                    progress(stored, total)
        finally:
            stop()
            for edit in list(edits):
                await asyncio.gather(edit, return_exceptions=True)
        if state == DONE:
            return True
        await interaction.edit_original_response(content=failed_text(language, match_id))
        return False

    @staticmethod
    def _edited(edits: set[asyncio.Task[Any]]) -> Callable[[asyncio.Task[Any]], None]:
        def done(task: asyncio.Task[Any]) -> None:
            edits.discard(task)
            if not task.cancelled() and task.exception() is not None:
                log.info("a review's progress could not be shown: %s", task.exception())

        return done

    async def _post(
        self, interaction: discord.Interaction[Any], rebuilt: Rebuilt, review: Review, language: str
    ) -> None:
        """Turn the progress message into the review, then post each player's costliest moves."""
        names = rebuilt.names
        record = rebuilt.record
        graph, alt = await self.render_workers.run(draw_review, review.to_json(), names, language)
        title = gettext(
            language,
            "**Review of game #{number}** ({game}, {budget} playouts a move)",
            number=record.id,
            game=GAMES[record.game].title,
            budget=review.iterations,
        )
        lines = [title]
        lines += [summary_line(review, seat, escape_name(names[seat]), language) for seat in range(len(names))]
        lines.append(f"-# {thresholds_text(language)}")
        content = formatting.clip("\n".join(lines))
        try:
            graph_file = discord.File(
                io.BytesIO(graph),
                filename=f"review-{record.id}.png",
                description=limits.clip(alt, limits.ATTACHMENT_DESCRIPTION_MAX),
            )
            await interaction.edit_original_response(
                content=content, attachments=[graph_file], allowed_mentions=NO_MENTIONS
            )
        except (discord.HTTPException, TimeoutError, OSError) as failed:
            # The progress message is gone or cannot be edited (deleted, a Discord hiccup): post the review anew.
            log.info("the review of game %s replaces no progress message (%s); posting it anew", record.id, failed)
            graph_file = discord.File(
                io.BytesIO(graph),
                filename=f"review-{record.id}.png",
                description=limits.clip(alt, limits.ATTACHMENT_DESCRIPTION_MAX),
            )
            await interaction.followup.send(content=content, file=graph_file, allowed_mentions=NO_MENTIONS)
        states = {state.ply: state for state in rebuilt.states}
        for seat, name in enumerate(names):
            costly = review.costliest(seat)
            if not costly:
                continue
            text = [
                gettext(
                    language,
                    "**{player}**: the costliest moves (on the boards, amber: the move played; blue: the better move)",
                    player=escape_name(name),
                )
            ]
            files = []
            for judged in costly:
                before = states[judged.ply]
                text.append(costly_move_line(review, judged, before, [escape_name(n) for n in names], language))
                said = costly_move_line(review, judged, before, list(names), language)  # alt text: no escapes
                png = await self.render_workers.run(
                    draw_marked, before, judged.played, judged.best, names, language, "review"
                )
                files.append(
                    discord.File(
                        io.BytesIO(png),
                        filename=f"move-{judged.ply + 1}.png",
                        description=limits.clip(said, limits.ATTACHMENT_DESCRIPTION_MAX),
                    )
                )
            await interaction.followup.send(
                content=formatting.clip("\n".join(text)), files=files, allowed_mentions=NO_MENTIONS
            )

    async def choices(self, interaction: discord.Interaction[Any], typed: str) -> list[app_commands.Choice[int]]:
        """Autocomplete of ``match:``: the asker's finished games in this server, newest first."""
        records = await self.matches.finished_matches(interaction.guild_id or 0, user_id=interaction.user.id, limit=25)
        language = user_language(interaction)
        found = []
        for record in records:
            if typed and not str(record.id).startswith(typed.strip().lstrip("#")):
                continue
            label = outcome_line(record, interaction.user.id, language).replace("*", "").replace("\\", "")
            found.append(app_commands.Choice(name=formatting.clip(label, limits.CHOICE_NAME_MAX), value=record.id))
        return found

    # -- /<game> hint --------------------------------------------------------------------------------------------

    async def hint(self, interaction: discord.Interaction[Any], game: str) -> None:
        """Suggest a move, privately, in the asker's running practice game against the computer."""
        language = user_language(interaction)
        record, state = await self.service.running(
            interaction.channel_id or 0, game, user_id=interaction.user.id, guild_id=interaction.guild_id
        )
        seat = record.seat_of(interaction.user.id)
        if seat is None:
            raise Refusal("Only the players of this game can ask for a hint.")
        computers = [s for s in record.players if computer_level(s.user_id) is not None]
        if not computers:
            raise Refusal("Hints are only for practice games against the computer: this game is between people.")
        if record.rated:
            raise Refusal("Hints are only for unrated practice games: this game is rated.")
        settings = await self.settings.get(interaction.guild_id or 0)
        if not settings.effective_hints():
            raise Refusal("Hints are turned off on this server.")
        if state.to_move != seat:
            raise Refusal("A hint is for your own turn: wait until it is your move.")
        await interaction.response.defer(ephemeral=True, thinking=True)
        names = [s.name for s in record.players]
        seed = search_seed(record.seed, state.ply)  # the seed the computer's own move here would search with
        found, png = await self.computer_workers.run(
            hint_and_board, state, names, language, seed, self.maker.iterations
        )
        text = hint_text(state, Judgement.from_json(found), language)
        picture = discord.File(
            io.BytesIO(png), filename=BOARD_FILE, description=limits.clip(text, limits.ATTACHMENT_DESCRIPTION_MAX)
        )
        await interaction.followup.send(content=text, file=picture, ephemeral=True, allowed_mentions=NO_MENTIONS)


def add_review_commands(tree: app_commands.CommandTree[Any], reviews: Reviews) -> None:
    """Add ``/analyse`` to the tree."""

    @tree.command(
        name="analyse", description="The computer's review of a finished game: a graph and the costliest moves."
    )
    @app_commands.describe(match="The game's number (see /history)")
    @app_commands.guild_only()
    async def analyse(
        interaction: discord.Interaction, match: app_commands.Range[int, 1, limits.INTEGER_OPTION_MAX]
    ) -> None:
        await reviews.analyse(interaction, match)

    @analyse.autocomplete("match")
    async def match_choices(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[int]]:
        return await reviews.choices(interaction, str(current))


def add_hint_commands(groups: Sequence[app_commands.Group], reviews: Reviews) -> None:
    """Add ``hint`` to every game's command group."""
    for group in groups:
        if group.name in GAMES:
            group.add_command(
                app_commands.Command(
                    name="hint",
                    description="Suggest a move in your practice game against the computer (only you see it).",
                    callback=_hint(reviews, group.name),
                    parent=group,
                )
            )


def _hint(reviews: Reviews, game: str) -> Callable[[discord.Interaction[Any]], Coroutine[Any, Any, None]]:
    async def hint(interaction: discord.Interaction[Any]) -> None:
        await reviews.hint(interaction, game)

    return hint


__all__ = [
    "Reviews",
    "add_hint_commands",
    "add_review_commands",
    "draw_marked",
    "draw_review",
    "hint_and_board",
]
