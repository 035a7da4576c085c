"""Composing announcements: the text, the pings, the board and its buttons of what the outbox holds.

Everything is built from the stored match when it is posted (not when it was saved), in the server's
language at that moment: a board posted late shows the position it announces, and pings nobody once
the game has moved on.
"""

from __future__ import annotations

import dataclasses
import io
import logging
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

import discord

from bot import limits
from bot.core.computer_seats import computer_level
from bot.core.ports import Languages
from bot.core.ratings import Change
from bot.core.service import Turn
from bot.delivery.ports import BOARD_FILE, Renderer
from bot.delivery.rendering import board_alt
from bot.storage.match_store import Matches
from bot.storage.records import Announcement, LogEntry, MatchRecord, MatchStatus, NoticeKind, ThreadMode, TurnKind
from bot.text import messages
from engines import GameState
from i18n.catalog import gettext

log = logging.getLogger(__name__)


class Boards(Protocol):
    """Where states come from: the match service."""

    def state_of(self, record: MatchRecord) -> GameState: ...

    async def replay(self, record: MatchRecord, upto: int | None = None) -> GameState: ...


class RatingChanges(Protocol):
    async def changes(self, record: MatchRecord) -> list[Change]: ...


class ResultView(Protocol):
    """The buttons under a finished game's result (Rematch and Analyse), made by the commands that answer
    their presses and handed in by the wiring, so posting knows no command."""

    def __call__(self, match_id: int, language: str, /) -> discord.ui.View: ...


class BoardView(Protocol):
    """The controls under a running game's board (the next move by taps, taking the last one back), made by the
    commands that answer them and handed in by the wiring."""

    async def __call__(self, record: MatchRecord, state: GameState, language: str, /) -> discord.ui.View | None: ...


class ThreadNotes(Protocol):
    """Why a match's thread was refused, said once with its first board (:class:`bot.delivery.threads.Threads`)."""

    def take_note(self, match_id: int) -> str | None: ...


@dataclass(frozen=True, slots=True)
class Composed:
    """An announcement made ready to post."""

    content: str
    mentions: tuple[int, ...]
    png: bytes | None
    edit_message_id: int | None = None  # for a closed challenge: the message to edit
    alt: str | None = None  # the board's description for screen readers
    channel_id: int | None = None  # where it goes when not the announcement's channel (the match's thread)
    view: discord.ui.View | None = None  # buttons under the post (a finished game's Rematch)
    followups: bool = False  # nothing in the server takes the match's posts: only a command's follow-up can
    says_move: bool = False  # it says where the match went, which nothing took before

    def __post_init__(self) -> None:
        # The texts are composed to fit; this keeps a post Discord would refuse (and so a game its players
        # never see) from ever leaving, whatever a long name, reason or translation adds on the way.
        object.__setattr__(self, "content", limits.clip(self.content, limits.MESSAGE_CONTENT_MAX))
        if self.alt is not None:
            object.__setattr__(self, "alt", limits.clip(self.alt, limits.ATTACHMENT_DESCRIPTION_MAX))

    def buttons(self) -> Any:
        return self.view if self.view is not None else discord.utils.MISSING

    def allowed(self) -> discord.AllowedMentions:
        return discord.AllowedMentions(
            users=[discord.Object(i) for i in self.mentions], roles=False, everyone=False, replied_user=False
        )

    def file(self) -> Any:
        return (
            discord.File(io.BytesIO(self.png), filename=BOARD_FILE, description=self.alt)
            if self.png is not None
            else discord.utils.MISSING
        )


# The saved match, its state and the turn, as the code that saved them holds them.
Known = tuple[MatchRecord, GameState | None, Turn | None]


class Composer:
    """Build what an announcement posts from the stored match, its board drawn by the renderer."""

    def __init__(
        self,
        matches: Matches,
        boards: Boards,
        renderer: Renderer,
        ratings: RatingChanges,
        languages: Languages,
        notes: ThreadNotes,
        result_view: ResultView,
        board_view: BoardView | None = None,
    ) -> None:
        self.matches = matches
        self.boards = boards
        self.renderer = renderer
        self.ratings = ratings
        self.languages = languages
        self.notes = notes
        self.result_view = result_view
        self.board_view = board_view

    async def entry(self, announcement: Announcement, turn: Turn | None) -> LogEntry | None:
        if turn is not None:
            return LogEntry(announcement.seq, TurnKind(turn.kind), turn.seat, turn.user_id, turn.text, 0.0)
        if announcement.seq <= 0:
            return None
        entries = await self.matches.log(announcement.match_id, announcement.seq)
        return entries[-1] if entries else None

    async def compose(self, announcement: Announcement, known: Known | None) -> Composed | None:
        """Build the text, pings and board of an announcement from the stored match (``None``: nothing to post).

        ``known`` is the saved match, its state and turn when the caller holds them (the version announced).
        """
        found, state, turn = known if known is not None else (None, None, None)
        record = found if found is not None else await self.matches.get(announcement.match_id)
        if record is not None and record.thread_mode is not None and announcement.kind != NoticeKind.CLOSE:
            # Its thread may have been opened, refused, locked or deleted since the caller read it (and the
            # match moved: bot.delivery.places): where to post is fresh.
            fresh = await self.matches.get(announcement.match_id)
            if fresh is not None:
                record = dataclasses.replace(
                    record,
                    thread_mode=fresh.thread_mode,
                    thread_id=fresh.thread_id,
                    message_id=fresh.message_id,
                    moved=fresh.moved,
                    moved_version=fresh.moved_version,
                    followups=fresh.followups,
                )
        if record is None:
            return None
        if self._superseded(announcement, record):
            return None  # the announcement saying where the match moved shows this board
        if "ended" in announcement.detail:
            return await self._compose_ended(announcement, record)
        if announcement.detail.get("where") == "parent":
            language = await self.languages.language(record.guild_id)
            return await self._compose_parent(announcement, record, language=language)
        # Public posts speak the server's language, as set when they are posted (not when saved).
        language = await self.languages.language(record.guild_id)
        if announcement.kind == NoticeKind.CLOSE:
            if record.message_id is None:
                return None
            detail = announcement.detail
            return Composed(
                messages.closed_text(record, str(detail.get("how", "")), str(detail.get("by", "")), language),
                (),
                None,
                record.message_id,
            )
        current = record.version == announcement.version
        if announcement.kind == NoticeKind.REMIND:
            # A reminder is about one turn: once that turn is over (a move, a claim), there is nothing to say.
            if not current or record.status != MatchStatus.ACTIVE or not announcement.mentions:
                return None
            return Composed(
                messages.reminder_text(record, announcement.mentions[0], language),
                announcement.mentions,
                None,
                channel_id=record.place_id if record.place_id != announcement.channel_id else None,
                followups=record.followups,
            )
        if state is None or not current:
            state = self.boards.state_of(record) if current else await self.boards.replay(record, announcement.seq)
        mentions = announcement.mentions if current else ()
        says_move = False
        if announcement.kind == NoticeKind.START:
            content = messages.start_text(record, state, language)
            if record.thread_id is not None:
                # The first post in the match's own thread names every player: it brings them all into it.
                people = tuple(seat.user_id for seat in record.players if computer_level(seat.user_id) is None)
                content = formatting_mentions(people) + "\n" + content
                mentions = tuple(dict.fromkeys((*mentions, *people)))
            note = self.notes.take_note(record.id)
            if note is not None:
                content += "\n" + note
        else:
            entry = await self.entry(announcement, turn)
            moved = announcement.detail.get("moved")
            if entry is None and moved is None and "takeback" not in announcement.detail:
                return None
            extra = await self._extras(record, language) if state.outcome() is not None else []
            if "takeback" in announcement.detail and current:
                content = messages.takeback_text(record, state, int(announcement.detail["takeback"]), language)
            elif entry is None:
                content = messages.start_text(record, state, language)
            else:
                content = messages.turn_text(record, state, entry, extra, language)
            if moved is not None:  # the game moved: the board, the next player and one line saying where
                if record.thread_id is not None and record.thread_mode == ThreadMode.THREAD:
                    content = formatting_mentions(mentions) + "\n" + content
                place = None if record.followups else record.place_id
                content += "\n" + messages.moved_text(str(moved), place, language)
            elif record.followups and current and await self._move_unsaid(record):
                # Nothing took the line saying where the game went: the first reply to a command says it.
                content += "\n" + messages.moved_text(str(record.moved), None, language)
                says_move = True
        # An old board (the game moved on while it waited) is history: it pings nobody.
        png, alt = await self._board(announcement, record, state, language)
        # A finished game's result carries the Rematch button (restart-proof: see bot.commands.views).
        view = self.result_view(record.id, language) if state.outcome() is not None and current else None
        if view is None and current and self.board_view is not None and record.status == MatchStatus.ACTIVE:
            view = await self.board_view(record, state, language)  # the next move by taps, from this very post
        return Composed(
            content,
            mentions,
            png,
            alt=alt,
            channel_id=record.place_id if record.place_id != announcement.channel_id else None,
            view=view,
            followups=record.followups,
            says_move=says_move,
        )

    async def _move_unsaid(self, record: MatchRecord) -> bool:
        """Whether the announcement saying where the match went found no place to be posted."""
        failed = await self.matches.failed_announcements(record.id)
        return any("moved" in announcement.detail for announcement in failed)

    @staticmethod
    def _superseded(announcement: Announcement, record: MatchRecord) -> bool:
        """Whether the announcement of the match's move shows this one's board (it moved at this version)."""
        if record.moved is None or record.moved_version != announcement.version:
            return False
        if announcement.kind not in (NoticeKind.START, NoticeKind.TURN) or "where" in announcement.detail:
            return False
        if "ended" in announcement.detail:
            return False
        moved = announcement.detail.get("moved")
        return moved is None or moved != record.moved

    async def _compose_ended(self, announcement: Announcement, record: MatchRecord) -> Composed:
        """An admin ended the match: say so where its players are, naming them."""
        language = await self.languages.language(record.guild_id)
        detail = announcement.detail
        content = messages.ended_text(record, str(detail.get("ended", "")), str(detail.get("reason", "")), language)
        return Composed(
            formatting_mentions(announcement.mentions) + "\n" + content if announcement.mentions else content,
            announcement.mentions,
            None,
            channel_id=record.place_id if record.place_id != announcement.channel_id else None,
            followups=record.followups,
        )

    async def _board(
        self, announcement: Announcement, record: MatchRecord, state: GameState, language: str
    ) -> tuple[bytes | None, str | None]:
        """The announcement's board image and its alt text, or ``(None, None)`` (none asked for, or rendering
        failed: the text still goes).  Both are made in one worker trip."""
        if not announcement.board:
            return None, None
        try:
            png, alt = await self.renderer.board(state, [seat.name for seat in record.players], language)
        except Exception:
            log.exception("rendering %s match %s failed", record.game, record.id)
            return None, None
        return png, alt if alt is not None else board_alt(record, state, language)

    async def _compose_parent(
        self, announcement: Announcement, record: MatchRecord, *, language: str
    ) -> Composed | None:
        """The one-line result, with the final board, for the channel a match's thread came from."""
        if record.thread_id is None:
            return None  # the match was played in the channel itself: its result is there already
        state = self.boards.state_of(record) if record.version == announcement.version else None
        if state is None:
            state = await self.boards.replay(record, announcement.seq)
        content = messages.parent_result_text(record, state, language)
        png, alt = await self._board(announcement, record, state, language)
        return Composed(content, (), png, alt=alt, channel_id=record.channel_id)

    async def _extras(self, record: MatchRecord, language: str) -> list[str]:
        changes = await self.ratings.changes(record)
        if changes:
            listed = " · ".join(change.text(language) for change in changes)
            return [gettext(language, "Ratings: {changes}", changes=listed)]
        return [] if record.rated else [gettext(language, "This game was not rated.")]


def formatting_mentions(user_ids: Sequence[int]) -> str:
    """Mention each of ``user_ids``: ``<@1> <@2>``."""
    return " ".join(f"<@{user_id}>" for user_id in user_ids)


def closed_how(status: MatchStatus) -> str:
    """The word for how a challenge that is no longer open ended."""
    return {
        MatchStatus.ACTIVE: "accepted",
        MatchStatus.FINISHED: "accepted",
        MatchStatus.DECLINED: "declined",
        MatchStatus.EXPIRED: "expired",
        MatchStatus.CANCELLED: "cancelled",
    }.get(status, str(status))
