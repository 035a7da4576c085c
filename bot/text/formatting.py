"""Texts the bot sends: challenges, turn summaries, results and rules.

Everything here is pure string building, kept within Discord's limits
(:mod:`bot.limits`: 2000 characters a message), so it can be tested without Discord.  Every text
takes the ``language`` it is written in (a server's, for public messages); the
sentences are catalog keys (:mod:`i18n.catalog`), whole and with named fields.

The ``compose_*`` texts take a record whose players' names are already escaped: the rest of the
bot calls :mod:`bot.text.messages` (``start_text``, ``turn_text``, ``board_text``, ``challenge_text``),
which escapes the names and composes here.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import i18n
from bot import limits
from bot.core.computer_seats import computer_level
from bot.core.service import Turn
from bot.storage import MatchRecord
from engines import GAMES, GameState
from engines.base import AGREED, TIMEOUT, legacy_forfeit_code
from i18n.catalog import DEFAULT, gettext, pgettext

MESSAGE_LIMIT = limits.MESSAGE_CONTENT_MAX


def clip(text: str, limit: int = MESSAGE_LIMIT) -> str:
    """Cut ``text`` to ``limit`` characters (a message's, unless told), marking the cut."""
    return limits.clip(text, limit)


def mention(user_id: int) -> str:
    """Return a Discord user mention."""
    return f"<@{user_id}>"


def channel_link(channel_id: int) -> str:
    """Return a Discord channel (or thread) link, shown as its name."""
    return f"<#{channel_id}>"


def relative_time(timestamp: float) -> str:
    """Return a Discord timestamp that each reader sees in their own time, e.g. "in 3 hours"."""
    return f"<t:{int(timestamp)}:R>"


def option_words(language: str, game: str) -> dict[str, str]:
    """The words of ``game``'s start options and of their fixed values, in ``language`` (from its text module)."""
    return i18n.texts_for(game).option_words(language)


def describe_options(options: dict[str, Any], language: str = DEFAULT, *, game: str) -> str:
    """Say which variant or options a match uses, or an empty string for the defaults.

    English shows the option names and values as the commands spell them (``board hex, size 4``).
    """
    if not options:
        return ""
    if language == DEFAULT:
        return ", ".join(f"{key.replace('_', ' ')} {value}" for key, value in sorted(options.items()))
    words = option_words(language, game)
    return ", ".join(
        f"{words.get(key, key.replace('_', ' '))} {words.get(str(value), value)}"
        for key, value in sorted(options.items())
    )


def and_list(items: Sequence[str], language: str = DEFAULT) -> str:
    """Join words for a sentence: "A", "A and B", "A, B and C" (in ``language``)."""
    items = list(items)
    if len(items) <= 1:
        return "".join(items)
    return gettext(language, "{names} and {last}", names=", ".join(items[:-1]), last=items[-1])


def seat_word(name: str, language: str = DEFAULT, *, game: str) -> str:
    """Name a seat of ``game`` (``light``, ``blue``…) in ``language``; numbered seats are ``player N``."""
    words = i18n.texts_for(game).seat_words(language)
    if name in words:
        return words[name]
    if name.startswith("player "):
        return pgettext(language, "seat", "player {number}", number=name.split()[-1])
    return name


def compose_challenge(record: MatchRecord, language: str = DEFAULT) -> str:
    """The message that carries the Accept and Decline buttons."""
    spec = GAMES[record.game]
    challenger = record.players[0]
    invited = ", ".join(mention(user_id) for user_id in record.invited)
    options = describe_options(record.options, language, game=record.game)
    if options:
        first = gettext(
            language,
            "**{challenger}** challenges {invited} to **{game}** ({options}).",
            challenger=challenger.name,
            invited=invited,
            game=spec.title,
            options=options,
        )
    else:
        first = gettext(
            language,
            "**{challenger}** challenges {invited} to **{game}**.",
            challenger=challenger.name,
            invited=invited,
            game=spec.title,
        )
    lines = [first]
    accepted = [seat.name for seat in record.players[1:] if seat.user_id not in record.invited]
    if accepted:
        lines.append(gettext(language, "Accepted so far: {names}.", names=", ".join(accepted)))
    if record.deadline is not None:
        lines.append(gettext(language, "The challenge expires {when}.", when=relative_time(record.deadline)))
    return clip("\n".join(lines))


def challenge_closed_text(record: MatchRecord, how: str) -> str:
    """Replace the challenge message once it was declined, withdrawn, expired or cancelled."""
    spec = GAMES[record.game]
    names = " vs ".join(seat.name for seat in record.players)
    return clip(f"~~{spec.title}: {names}~~ — {how}")


def seats_text(record: MatchRecord, language: str = DEFAULT) -> str:
    """Say who plays which seat ("Ana plays light, Bo plays dark"), or the order of play for numbered seats."""
    spec = GAMES[record.game]
    seat_names = spec.seat_names(len(record.players))
    if all(name.startswith("player") for name in seat_names):
        names = ", ".join(f"**{seat.name}**" for seat in record.players)
        return gettext(language, "order of play: {names}", names=names)
    return ", ".join(
        gettext(
            language,
            "**{player}** plays {seat}",
            player=seat.name,
            seat=seat_word(seat_names[i], language, game=record.game),
        )
        for i, seat in enumerate(record.players)
    )


def scores_text(record: MatchRecord, state: GameState) -> str:
    """One line with every player's score."""
    return " · ".join(f"{seat.name} {score}" for seat, score in zip(record.players, state.scores(), strict=True))


def to_move_text(record: MatchRecord, state: GameState, language: str = DEFAULT) -> str:
    """Mention the player to move with their deadline; a computer seat is never mentioned, it is thinking."""
    seat = state.to_move
    if seat is None:
        return ""
    if computer_level(record.players[seat].user_id) is not None:
        return gettext(language, "**{player}** is thinking…", player=record.players[seat].name)
    who = mention(record.players[seat].user_id)
    if record.deadline:
        return gettext(
            language, "{player}, your move (deadline {when}).", player=who, when=relative_time(record.deadline)
        )
    return gettext(language, "{player}, your move.", player=who)


def result_text(record: MatchRecord, state: GameState, language: str = DEFAULT) -> str:
    """Announce the end of a game: winners and why."""
    outcome = state.outcome()
    if outcome is None:
        return ""
    winners = [record.players[i].name for i in outcome.winners]
    if outcome.is_draw:
        headline = gettext(language, "🤝 The game is a draw.")
    elif len(winners) == 1:
        headline = gettext(language, "🏆 **{player}** wins!", player=winners[0])
    else:
        headline = gettext(language, "🏆 Shared victory: {names}.", names=", ".join(f"**{w}**" for w in winners))
    names = [seat.name for seat in record.players]
    return f"{headline} {i18n.result_text(state, names, locale=language)}"


def forfeit_line(record: MatchRecord, seat: int, text: str, language: str = DEFAULT, user_id: int = 0) -> str:
    """Say a logged forfeit of ``seat`` in ``language``: ``text`` is its code, ``user_id`` the row's user.

    A lost deadline's claimer is the row's user (a two-player game's is the other player when not known);
    a draw by agreement was offered by the other player.  Rows logged before forfeits were codes hold the
    bot's English sentence: :func:`~engines.base.legacy_forfeit_code` reads them.
    """
    names = [seat.name for seat in record.players]
    players = len(names)
    how = legacy_forfeit_code(text)
    claimer = None
    if how == TIMEOUT:
        by = record.seat_of(user_id) if user_id else None
        if by is None and players == 2:
            by = 1 - seat
        claimer = names[by] if by is not None and by != seat else None
    elif how == AGREED and players == 2:
        claimer = names[1 - seat]
    return i18n.forfeit_text(how, names[seat], claimer, players=players, locale=language)


def compose_start(record: MatchRecord, state: GameState, language: str = DEFAULT) -> str:
    """The message that goes with the first board."""
    spec = GAMES[record.game]
    first = gettext(language, "**{game}** begins: {seats}.", game=spec.title, seats=seats_text(record, language))
    return clip(f"{first}\n{to_move_text(record, state, language)}")


def compose_turn(turn: Turn, extra: Sequence[str] = (), language: str = DEFAULT) -> str:
    """The message that goes with the board after an accepted move, resignation or claim."""
    record, state = turn.record, turn.state
    names = [seat.name for seat in record.players]
    if turn.kind == "move":
        lines = [i18n.summary_text(state, names, locale=language)]
    else:
        lines = [forfeit_line(record, turn.seat, turn.text, language, turn.user_id)]
    lines.append(gettext(language, "Score: {scores}", scores=scores_text(record, state)))
    if turn.finished:
        lines.append(result_text(record, state, language))
    else:
        lines.append(to_move_text(record, state, language))
    lines.extend(extra)
    return clip("\n".join(line for line in lines if line))


def compose_board(record: MatchRecord, state: GameState, language: str = DEFAULT) -> str:
    """The message that goes with a re-posted board."""
    spec = GAMES[record.game]
    lines = [
        gettext(language, "**{game}**: {seats}.", game=spec.title, seats=seats_text(record, language)),
        gettext(language, "Score: {scores}", scores=scores_text(record, state)),
    ]
    lines.append(result_text(record, state, language) if state.outcome() else to_move_text(record, state, language))
    return clip("\n".join(lines))
