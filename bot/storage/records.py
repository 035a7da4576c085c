"""What the bot stores about a match, as plain values: its record, seats, move-log entries and announcements.

Shared by the stores (:mod:`bot.storage.match_store`), the match service and everything that shows a match;
only snowflake IDs and JSON-able values, never discord.py objects.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any


class MatchStatus(StrEnum):
    """Where a match is in its life."""

    CHALLENGE = "challenge"
    ACTIVE = "active"
    FINISHED = "finished"
    CANCELLED = "cancelled"
    DECLINED = "declined"
    EXPIRED = "expired"


OPEN_STATUSES = (MatchStatus.CHALLENGE, MatchStatus.ACTIVE)


class ThreadMode(StrEnum):
    """Where a match challenged in a text channel is played (``None``: where it was challenged, alone)."""

    THREAD = "thread"  # in a public thread opened from its challenge message once accepted
    CHANNEL = "channel"  # a thread was wanted but Discord refused one: in the channel, beside others


class Moved(StrEnum):
    """Why a match left the place it was played in (migration 007)."""

    LOCKED = "locked"  # a moderator locked its thread: played on in the parent channel
    DELETED = "deleted"  # its thread was deleted: played on in a new thread from the parent channel
    REFUSED = "refused"  # Discord refuses the bot in its thread: played on in the parent channel
    GONE = "gone"  # its channel was deleted (or nothing takes posts): played through the replies to commands


class TurnKind(StrEnum):
    """What one row of the move log holds."""

    MOVE = "move"
    FORFEIT = "forfeit"


class NoticeKind(StrEnum):
    """What an announcement says: a game began, a turn was played, a challenge closed, or a turn is nearly up."""

    START = "start"
    TURN = "turn"
    CLOSE = "close"
    REMIND = "remind"  # the player to move has a quarter of their time left (migration 006)


class Delivery(StrEnum):
    """An announcement's state: waiting to be posted, posted, or given up (with the reason kept)."""

    PENDING = "pending"
    DELIVERED = "delivered"
    FAILED = "failed"


@dataclass(frozen=True, slots=True)
class Seat:
    """A player of a match: their Discord user ID and the name shown on the board."""

    user_id: int
    name: str


@dataclass(frozen=True, slots=True)
class MatchRecord:
    """One row of ``matches``, decoded."""

    id: int
    guild_id: int
    channel_id: int
    game: str
    options: dict[str, Any]
    seed: int
    players: tuple[Seat, ...]
    invited: tuple[int, ...]
    status: MatchStatus
    state: dict[str, Any] | None
    version: int
    deadline: float | None
    message_id: int | None
    result: dict[str, Any] | None
    created_at: float
    updated_at: float
    finished_at: float | None
    rated: bool = True
    thread_mode: str | None = None  # None: played where challenged; see ThreadMode
    thread_id: int | None = None  # the match's own thread, once Discord opened it
    archive_at: float | None = None  # when its finished thread is to be archived
    moved: str | None = None  # why it left the place it was played in (see Moved); None: never
    moved_version: int | None = None  # the version it moved at (that announcement says where it went)
    followups: bool = False  # nothing in the server takes its posts: played through the replies to commands
    end_reason: str | None = None  # why an admin ended it (/tabula end)

    @property
    def place_id(self) -> int:
        """The channel (or thread) the match is played in: its thread once opened, else its channel."""
        return self.thread_id or self.channel_id

    @property
    def wants_thread(self) -> bool:
        """The match is to be played in a thread of its own that Discord has not opened yet."""
        return self.thread_mode == ThreadMode.THREAD and self.thread_id is None

    def seat_of(self, user_id: int) -> int | None:
        """Return the seat index of ``user_id``, or ``None`` if they do not play here."""
        for index, seat in enumerate(self.players):
            if seat.user_id == user_id:
                return index
        return None


@dataclass(frozen=True, slots=True)
class LogEntry:
    """One row of the move log: a move's text, or a forfeit with its reason."""

    seq: int
    kind: TurnKind
    seat: int
    user_id: int
    text: str
    created_at: float


@dataclass(frozen=True, slots=True)
class Notice:
    """What a write asks to announce: its kind, whom to ping, and details for the text."""

    kind: NoticeKind
    mentions: tuple[int, ...] = ()
    board: bool = True
    detail: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Announcement:
    """One row of the outbox: what to post where, about which version of which match."""

    id: int
    match_id: int
    channel_id: int
    guild_id: int
    kind: NoticeKind
    version: int  # the match version the announcement describes
    seq: int  # how many log entries the state it shows has played
    mentions: tuple[int, ...]
    board: bool
    detail: dict[str, Any]
    status: Delivery
    attempts: int
    next_at: float
    error: str | None
    message_id: int | None
    created_at: float

    @property
    def nonce(self) -> str:
        """The message nonce that makes Discord keep one message however often the post is retried."""
        return f"tabula{self.id}.{int(self.created_at * 1000) % 10**9}"
