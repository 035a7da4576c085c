"""The texts of announcements and of delivery troubles, built on :mod:`bot.formatting`.

Every text here shows players' names escaped (:func:`safe_record`), and a
computer seat to move is never mentioned as a user: its turn line reads
"Tabula (easy) is thinking…", and its board follows.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Sequence

import discord

from bot import formatting
from bot.escaping import escape_name
from bot.match_store import LogEntry, MatchRecord, Seat, TurnKind
from bot.service import Turn
from engines import GameState

# The permissions a channel needs for a game: to see it, post boards (files, embeds) and check what was posted.
GAME_PERMISSIONS: tuple[tuple[str, str], ...] = (
    ("view_channel", "View Channel"),
    ("send_messages", "Send Messages"),
    ("attach_files", "Attach Files"),
    ("embed_links", "Embed Links"),
    ("read_message_history", "Read Message History"),
)
# Needed too once matches are played in threads (not yet).
THREAD_PERMISSIONS: tuple[tuple[str, str], ...] = (
    ("create_public_threads", "Create Public Threads"),
    ("send_messages_in_threads", "Send Messages in Threads"),
)

CLOSED_HOW = {
    "accepted": "accepted: the game is on!",
    "expired": "expired: nobody answered in time.",
    "cancelled": "cancelled.",
    "withdrawn": "withdrawn.",
}


def safe_record(record: MatchRecord) -> MatchRecord:
    """A copy of ``record`` whose player names are escaped, for building texts."""
    players = tuple(Seat(seat.user_id, escape_name(seat.name)) for seat in record.players)
    return dataclasses.replace(record, players=players)


def and_list(items: Sequence[str]) -> str:
    """Join words for a sentence: "A", "A and B", "A, B and C"."""
    items = list(items)
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " and " + items[-1]


def missing_permissions(
    granted: discord.Permissions, wanted: Iterable[tuple[str, str]] = GAME_PERMISSIONS
) -> list[str]:
    """The names (as Discord shows them) of the ``wanted`` permissions that ``granted`` lacks."""
    return [label for flag, label in wanted if not getattr(granted, flag)]


def needs_permissions_text(channel_id: int, missing: Sequence[str]) -> str:
    """Refuse to start a game where the bot can't post its boards, naming what a server admin must grant."""
    return (
        f"I can't run a game in <#{channel_id}>: I need {and_list(missing)} there. "
        "Ask a server admin to give me (or my role) those permissions in this channel, then start again."
    )


def start_text(record: MatchRecord, state: GameState) -> str:
    """The text of a match's first board."""
    shown = safe_record(record)
    return formatting.start_text(shown, state)


def turn_text(record: MatchRecord, state: GameState, entry: LogEntry, extra: Sequence[str] = ()) -> str:
    """The text of the board after the move or forfeit ``entry``."""
    shown = safe_record(record)
    turn = Turn(shown, state, entry.seat, entry.kind, entry.text)
    return formatting.turn_text(turn, extra)


def board_text(record: MatchRecord, state: GameState) -> str:
    """The text of a board shown again on request."""
    shown = safe_record(record)
    return formatting.board_text(shown, state)


def closed_text(record: MatchRecord, how: str, by: str = "") -> str:
    """The challenge message once the challenge is over (its buttons are removed with it)."""
    if how == "declined":
        words = f"declined by {escape_name(by)}." if by else "declined."
    else:
        words = CLOSED_HOW.get(how, f"{how}.")
    return formatting.challenge_closed_text(safe_record(record), words)


def challenge_text(record: MatchRecord) -> str:
    """The challenge message with its Accept and Decline buttons."""
    return formatting.challenge_text(safe_record(record))


def delayed_text(what: str) -> str:
    """Tell the player whose action was saved that its board is late (never "try again")."""
    return (
        f"✅ {what} is saved. Discord did not take the board just now; "
        "I'll post it in this channel as soon as it does. There is nothing you need to do."
    )


def trouble_text(channel_id: int, problem: str) -> str:
    """Say what keeps the board from the channel, in words a server admin can act on."""
    return f"⚠️ I could not post in <#{channel_id}>: {problem}"


def why_refused(status: int, code: int, *, board: bool) -> str:
    """Explain a permanent refusal from Discord (``status`` and its JSON ``code``) for a server admin."""
    if status == 403 and code == 50001:
        return "I can't see that channel. Ask a server admin to give me View Channel there."
    if status == 403:
        needed = "Send Messages and Attach Files" if board else "Send Messages"
        return (
            f"I need {needed} there (and View Channel, Embed Links and Read Message History). "
            "Ask a server admin to give me those permissions in that channel. The game is saved and goes on: "
            "its `board` command shows it at any time."
        )
    if status == 404:
        return "that channel no longer exists."
    return f"Discord refused the message (HTTP {status}, code {code}). The game is saved: its `board` command shows it."


def saved_what(entry: LogEntry | None) -> str:
    """Name the action that was saved: "Your move b2", "Your resignation"."""
    if entry is None:
        return "The game"
    if entry.kind == TurnKind.MOVE:
        return f"Your move `{entry.text}`"
    return "The forfeit"
