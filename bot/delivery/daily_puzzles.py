"""The daily puzzle: once a UTC day, a puzzle posted in each server's puzzle channel, with a Solve button.

A server chooses its channel with ``/tabula puzzles channel:`` (and turns it off by leaving the channel out).
The sweeper runs :meth:`DailyPuzzles.run` when :meth:`DailyPuzzles.next_due` says (the store's
:meth:`~bot.storage.puzzle_store.Puzzles.next_daily_due`: at midnight UTC, or when a post is due a retry).  For each
server due, the day's puzzle is chosen once (:func:`bot.core.puzzles.daily_choice`, recorded before posting, so a
retry or another process posts the same one) and posted with its board, in the server's language
(:func:`bot.text.puzzles.daily_text`), saying how many solved yesterday's and what its solution was.

A post is its own small outbox, as the announcer's are: the message carries a nonce (the day), so Discord keeps one
message however often a post with an unknown outcome is repeated; a transient failure (5xx, a timeout, 429) is
tried again after a back-off, a permanent one (no access to the channel) is given up for the day, with the reason
kept in the row.
"""

from __future__ import annotations

import io
import logging
import time
from collections.abc import Callable
from typing import Any

import discord

from bot.core.ports import Languages
from bot.core.puzzles import daily_choice
from bot.delivery.failures import backoff, classify
from bot.delivery.ports import BOARD_FILE, NO_MENTIONS, Channels, Renderer
from bot.storage.puzzle_store import Daily, Puzzles, StoredPuzzle, previous_day, utc_day
from bot.text import puzzles as words
from engines import GAMES

log = logging.getLogger(__name__)

# The Solve button under a post: given by the commands (it is theirs to route), as the announcer's views are.
SolveView = Callable[[int, str], discord.ui.View]


class DailyPuzzles:
    """Choose and post each server's daily puzzle; retry a post Discord did not take."""

    def __init__(
        self,
        puzzles: Puzzles,
        settings: Any,
        renderer: Renderer,
        channels: Channels,
        languages: Languages,
        solve_view: SolveView,
        *,
        clock: Callable[[], float] = time.time,
        on_due: Callable[[float], None] | None = None,
    ) -> None:
        self.puzzles = puzzles
        self.settings = settings  # GuildSettingsStore: the puzzle channel is one of a server's settings
        self.renderer = renderer
        self.channels = channels
        self.languages = languages
        self.solve_view = solve_view
        self.clock = clock
        self.on_due = on_due

    async def next_due(self, now: float) -> float | None:
        """When the next daily post (or retry) is due, on this process's servers."""
        return await self.puzzles.next_daily_due(now)

    async def set_channel(self, guild_id: int, channel_id: int | None) -> None:
        """Post the daily puzzle in ``channel_id`` from now on (None: no more daily puzzles here)."""
        await self.settings.change(guild_id, puzzle_channel=channel_id)
        if channel_id is not None and self.on_due is not None:
            self.on_due(self.clock())  # today's may be due at once

    async def run(self) -> int:
        """Post every daily puzzle due now; return how many were posted."""
        now = self.clock()
        posted = 0
        for guild_id, channel_id in await self.puzzles.daily_channels(now):
            try:
                posted += await self.post(guild_id, channel_id, now)
            except Exception:
                log.exception("the daily puzzle of server %s failed; it is tried again later", guild_id)
        return posted

    async def post(self, guild_id: int, channel_id: int, now: float) -> int:
        """Choose (once) and post ``guild_id``'s puzzle of today; 1 if it was posted now."""
        today = utc_day(now)
        daily = await self.puzzles.daily(guild_id, today)
        if daily is None:
            chosen = daily_choice(await self.puzzles.daily_candidates(guild_id), guild_id, today)
            daily = await self.puzzles.choose_daily(
                guild_id, today, None if chosen is None else chosen.id, channel_id, now
            )
        if daily.status != "pending" or daily.puzzle_id is None:
            return 0
        stored = await self.puzzles.get(daily.puzzle_id)
        if stored is None:
            return 0
        language = await self.languages.language(guild_id)
        content = words.daily_text(stored, language, await self._yesterday(guild_id, today))
        kwargs: dict[str, Any] = {
            "content": content,
            "view": self.solve_view(stored.id, language),
            "allowed_mentions": NO_MENTIONS,
            "nonce": f"puzzle-{today}",  # one message per channel and day, however often it is retried
        }
        file = await self._board(stored, language)
        if file is not None:
            kwargs["file"] = file
        channel = self.channels.get_partial_messageable(daily.channel_id, guild_id=guild_id)
        try:
            message = await channel.send(**kwargs)
        except Exception as error:
            await self._failed(daily, error)
            return 0
        await self.puzzles.daily_posted(daily, message.id)
        return 1

    async def _failed(self, daily: Daily, error: BaseException) -> None:
        failure = classify(error)
        if failure is None:
            raise error
        if not failure.transient:
            log.info("the daily puzzle of server %s cannot be posted: %s", daily.guild_id, failure.text)
            await self.puzzles.daily_retry(daily, failure.text, self.clock(), give_up=True)
            return
        delay = failure.retry_after if failure.retry_after is not None else backoff(daily.attempts + 1)
        next_at = self.clock() + delay
        log.info("the daily puzzle of server %s is retried in %g s: %s", daily.guild_id, delay, failure.text)
        await self.puzzles.daily_retry(daily, failure.text, next_at)
        if self.on_due is not None:
            self.on_due(next_at)

    async def _yesterday(self, guild_id: int, today: str) -> tuple[StoredPuzzle, int] | None:
        """Yesterday's daily puzzle here, if one was posted, and how many solved it."""
        before = await self.puzzles.daily(guild_id, previous_day(today))
        if before is None or before.puzzle_id is None or before.status != "posted":
            return None
        stored = await self.puzzles.get(before.puzzle_id)
        return None if stored is None else (stored, before.solvers)

    async def _board(self, stored: StoredPuzzle, language: str) -> discord.File | None:
        """The daily puzzle's board and its alt text (None if drawing failed: the text goes alone)."""
        puzzle = GAMES[stored.game].from_json(stored.data["position"])
        try:
            png, alt = await self.renderer.board(puzzle, words.names_of(stored, language), language)
        except Exception:
            log.exception("drawing daily puzzle %s failed", stored.id)
            return None
        return discord.File(io.BytesIO(png), filename=BOARD_FILE, description=words.board_alt(alt, language))


__all__ = ["DailyPuzzles"]
