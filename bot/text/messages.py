"""The texts of announcements and of delivery troubles, built on :mod:`bot.text.formatting`.

Every text here shows players' names escaped (:func:`safe_record`), and a
computer seat to move is never mentioned as a user: its turn line reads
"Tabula (easy) is thinking…", and its board follows.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Sequence

import discord

from bot import limits
from bot.core.service import Turn
from bot.storage.database import N_
from bot.storage.records import LogEntry, MatchRecord, Seat, TurnKind
from bot.text import formatting
from bot.text.escaping import escape_name
from engines import GAMES, GameState
from i18n.catalog import DEFAULT, gettext, pgettext

# The permissions a channel needs for a game: to see it, post boards (files, embeds) and check what was posted.
# The labels are Discord's English names; :func:`permission_name` says them as Discord does in each language.
GAME_PERMISSIONS: tuple[tuple[str, str], ...] = (
    ("view_channel", "View Channel"),
    ("send_messages", "Send Messages"),
    ("attach_files", "Attach Files"),
    ("embed_links", "Embed Links"),
    ("read_message_history", "Read Message History"),
)


def permission_name(label: str, language: str = DEFAULT) -> str:
    """Name a permission as Discord's settings show it in ``language``."""
    names = {
        "View Channel": pgettext(language, "permission", "View Channel"),
        "Send Messages": pgettext(language, "permission", "Send Messages"),
        "Attach Files": pgettext(language, "permission", "Attach Files"),
        "Embed Links": pgettext(language, "permission", "Embed Links"),
        "Read Message History": pgettext(language, "permission", "Read Message History"),
        "Create Public Threads": pgettext(language, "permission", "Create Public Threads"),
        "Send Messages in Threads": pgettext(language, "permission", "Send Messages in Threads"),
    }
    return names.get(label, label)


# Needed too for a thread per match; without them matches are played in the channel, one at a time.
THREAD_PERMISSIONS: tuple[tuple[str, str], ...] = (
    ("create_public_threads", "Create Public Threads"),
    ("send_messages_in_threads", "Send Messages in Threads"),
)


def invite_permissions(*, threads: bool = True) -> int:
    """The permissions integer of the invite link (``permissions=`` in the URL): what a game's channel needs,
    with (``threads``) or without what a thread per game needs.  The admins' page quotes both numbers."""
    wanted = GAME_PERMISSIONS + (THREAD_PERMISSIONS if threads else ())
    return discord.Permissions(**{flag: True for flag, _label in wanted}).value


CLOSED_HOW = {
    "accepted": N_("accepted: the game is on!"),
    "expired": N_("expired: nobody answered in time."),
    "cancelled": N_("cancelled."),
    "withdrawn": N_("withdrawn."),
}


def safe_record(record: MatchRecord) -> MatchRecord:
    """A copy of ``record`` whose player names are escaped, for building texts."""
    players = tuple(Seat(seat.user_id, escape_name(seat.name)) for seat in record.players)
    if players == record.players:
        return record  # nothing to escape (most names): the record as it is, not a copy of it
    return dataclasses.replace(record, players=players)


def missing_permissions(
    granted: discord.Permissions, wanted: Iterable[tuple[str, str]] = GAME_PERMISSIONS
) -> list[str]:
    """The names (as Discord shows them) of the ``wanted`` permissions that ``granted`` lacks."""
    return [label for flag, label in wanted if not getattr(granted, flag)]


def needs_permissions_text(channel_id: int, missing: Sequence[str], language: str = DEFAULT) -> str:
    """Refuse to start a game where the bot can't post its boards, naming what a server admin must grant."""
    return gettext(
        language,
        "I can't run a game in {channel}: I need {permissions} there. "
        "Ask a server admin to give me (or my role) those permissions in this channel, then start again.",
        channel=formatting.channel_link(channel_id),
        permissions=formatting.and_list([permission_name(label, language) for label in missing], language),
    )


def start_text(record: MatchRecord, state: GameState, language: str = DEFAULT) -> str:
    """The text of a match's first board."""
    shown = safe_record(record)
    return formatting.compose_start(shown, state, language)


def turn_text(
    record: MatchRecord, state: GameState, entry: LogEntry, extra: Sequence[str] = (), language: str = DEFAULT
) -> str:
    """The text of the board after the move or forfeit ``entry``."""
    shown = safe_record(record)
    turn = Turn(shown, state, entry.seat, entry.kind, entry.text, user_id=entry.user_id)
    return formatting.compose_turn(turn, extra, language)


def board_text(record: MatchRecord, state: GameState, language: str = DEFAULT) -> str:
    """The text of a board shown again on request."""
    shown = safe_record(record)
    return formatting.compose_board(shown, state, language)


def takeback_text(record: MatchRecord, state: GameState, seat: int, language: str = DEFAULT) -> str:
    """The text of the board after a move was taken back: who took it back, then the board's usual lines."""
    shown = safe_record(record)
    said = gettext(language, "↩️ {player} took their move back.", player=shown.players[seat].name)
    return formatting.clip(said + "\n" + formatting.compose_board(shown, state, language))


def closed_text(record: MatchRecord, how: str, by: str = "", language: str = DEFAULT) -> str:
    """The challenge message once the challenge is over (its buttons are removed with it)."""
    if how == "declined":
        if by:
            words = gettext(language, "declined by {player}.", player=escape_name(by))
        else:
            words = gettext(language, "declined.")
    elif how in CLOSED_HOW:
        words = gettext(language, CLOSED_HOW[how])
    else:
        words = f"{how}."
    return formatting.challenge_closed_text(safe_record(record), words)


def challenge_text(record: MatchRecord, language: str = DEFAULT) -> str:
    """The challenge message with its Accept and Decline buttons."""
    return formatting.compose_challenge(safe_record(record), language)


def delayed_text(what: str, language: str = DEFAULT) -> str:
    """Tell the player whose action was saved that its board is late (never "try again")."""
    return gettext(
        language,
        "✅ {what} is saved. Discord did not take the board just now; "
        "I'll post it in this channel as soon as it does. There is nothing you need to do.",
        what=what,
    )


def saved_text(what: str, language: str = DEFAULT) -> str:
    """Tell the player whose action was saved that its board is in the channel."""
    return gettext(language, "✅ {what} is saved; its board is posted in this channel.", what=what)


def saved_but_text(what: str, trouble: str, language: str = DEFAULT) -> str:
    """Tell the player whose action was saved what keeps its board from the channel."""
    return gettext(language, "✅ {what} is saved. {trouble}", what=what, trouble=trouble)


def trouble_text(channel_id: int, problem: str, language: str = DEFAULT) -> str:
    """Say what keeps the board from the channel, in words a server admin can act on."""
    return gettext(
        language,
        "⚠️ I could not post in {channel}: {problem}",
        channel=formatting.channel_link(channel_id),
        problem=problem,
    )


def why_refused(status: int, code: int, *, board: bool, language: str = DEFAULT) -> str:
    """Explain a permanent refusal from Discord (``status`` and its JSON ``code``) for a server admin."""
    if status == 403 and code == 50001:
        return gettext(language, "I can't see that channel. Ask a server admin to give me View Channel there.")
    if status == 403:
        if board:
            return gettext(
                language,
                "I need Send Messages and Attach Files there (and View Channel, Embed Links and Read Message "
                "History). Ask a server admin to give me those permissions in that channel. The game is saved "
                "and goes on: its `board` command shows it at any time.",
            )
        return gettext(
            language,
            "I need Send Messages there (and View Channel, Embed Links and Read Message History). "
            "Ask a server admin to give me those permissions in that channel. The game is saved and goes on: "
            "its `board` command shows it at any time.",
        )
    if status == 404:
        return gettext(language, "that channel no longer exists.")
    return gettext(
        language,
        "Discord refused the message (HTTP {status}, code {code}). The game is saved: its `board` command shows it.",
        status=status,
        code=code,
    )


def saved_what(entry: LogEntry | None, language: str = DEFAULT) -> str:
    """Name the action that was saved: "Your move b2", "Your resignation"."""
    if entry is None:
        return gettext(language, "The game")
    if entry.kind == TurnKind.MOVE:
        return gettext(language, "Your move {move}", move="`" + entry.text + "`")
    return gettext(language, "The forfeit")


def saved_there_text(what: str, channel_id: int, language: str = DEFAULT) -> str:
    """Tell the player whose action was saved that its board is in the match's thread."""
    return gettext(
        language, "✅ {what} is saved; its board is posted in {thread}.", what=what, thread=f"<#{channel_id}>"
    )


def started_there_text(channel_id: int, language: str = DEFAULT) -> str:
    """Tell the player who started a game against the computer where it is played."""
    return gettext(language, "▶️ The game is on in {thread}.", thread=f"<#{channel_id}>")


def parent_result_text(record: MatchRecord, state: GameState, language: str = DEFAULT) -> str:
    """One line for the channel a match's thread came from: the game, its thread and its result."""
    shown = safe_record(record)
    result = " ".join(formatting.result_text(shown, state, language).split())
    return formatting.clip(
        gettext(
            language,
            "**{game}** in {thread}: {result}",
            game=GAMES[record.game].title,
            thread=f"<#{record.thread_id}>",
            result=result,
        )
    )


def no_threads_text(missing: Sequence[str], language: str = DEFAULT) -> str:
    """Say once in a channel why its games are played there, one at a time, instead of in threads."""
    return gettext(
        language,
        "ℹ️ Games here are played in this channel, one at a time, because I need {permissions} to give each "
        "game its own thread. A server admin can grant them.",
        permissions=formatting.and_list([permission_name(label, language) for label in missing], language),
    )


def thread_refused_text(status: int, code: int, language: str = DEFAULT) -> str:
    """Say once in a channel why Discord's refusal of a thread has this game played in the channel."""
    if status == 403:
        return gettext(
            language,
            "ℹ️ Discord did not let me open a thread for this game, so it is played here. To give each game its "
            "own thread, a server admin can grant me Create Public Threads and Send Messages in Threads.",
        )
    return gettext(language, "ℹ️ Discord did not let me open a thread for this game, so it is played here.")


def reminder_text(record: MatchRecord, user_id: int, language: str = DEFAULT) -> str:
    """Remind the player to move that a quarter of their turn is left, with the deadline as a relative time."""
    return gettext(
        language,
        "⏰ {player}, your {game} move is due {when}. (Turn reminders off for you: `/reminders off`.)",
        player=formatting.mention(user_id),
        game=GAMES[record.game].title,
        when=formatting.relative_time(record.deadline or 0),
    )


def moved_text(why: str, place_id: int | None, language: str = DEFAULT) -> str:
    """One line saying why a game left its place and where it is now (``place_id`` ``None``: in the replies
    to the players' commands, when nothing in the server takes its posts)."""
    if place_id is None:
        if why == "gone":
            return gettext(
                language,
                "⚠️ This game's channel was deleted, so the game continues in the replies to your commands: "
                "use its commands in any channel of this server.",
            )
        return gettext(
            language,
            "⚠️ I can no longer post where this game was played, so the game continues in the replies to your "
            "commands: use its commands in any channel of this server.",
        )
    place = formatting.channel_link(place_id)
    if why == "locked":
        return gettext(
            language,
            "🔒 This game's thread was locked by a moderator, so the game continues here, in {place}.",
            place=place,
        )
    if why == "deleted":
        return gettext(
            language,
            "🧵 This game's thread was deleted, so the game continues here, in a new thread: {place}.",
            place=place,
        )
    return gettext(
        language, "🔒 I can no longer post in this game's thread, so the game continues here, in {place}.", place=place
    )


def new_thread_text(game: str, language: str = DEFAULT) -> str:
    """The message in the parent channel that a moved game's new thread opens from."""
    return gettext(
        language,
        "🧵 The thread of a {game} game was deleted, so the game continues in the thread opened from this message.",
        game=game,
    )


def followups_place_text(language: str = DEFAULT) -> str:
    """Where a game is played when nothing in the server takes its posts (with ``/… board``)."""
    return gettext(
        language,
        "This game is played in the replies to your commands: use its commands in any channel of this server.",
    )


#: The longest reason an admin may give for ending a game (``/tabula end reason:`` declares it; a longer one, stored
#: by an older release, is shortened): with the longest names in every seat it still fits one message.
END_REASON_MAX = 200


def ended_text(record: MatchRecord, by: str, reason: str, language: str = DEFAULT) -> str:
    """Announce, where the players are, that an admin ended their game, and why."""
    shown = safe_record(record)
    reason = limits.clip(" ".join(reason.split()), END_REASON_MAX)
    if not reason:
        return gettext(
            language,
            "🛑 {admin} ended this {game} game ({seats}). It will not be rated.",
            admin=escape_name(by),
            game=GAMES[record.game].title,
            seats=formatting.seats_text(shown, language),
        )
    text = gettext(
        language,
        "🛑 {admin} ended this {game} game ({seats}): {reason}. It will not be rated.",
        admin=escape_name(by),
        game=GAMES[record.game].title,
        seats=formatting.seats_text(shown, language),
        reason=escape_name(reason),
    )
    return formatting.clip(text)
