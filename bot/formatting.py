"""Texts the bot sends: challenges, turn summaries, results and rules.

Everything here is pure string building, kept within Discord's limits
(2000 characters a message), so it can be tested without Discord.
"""

from __future__ import annotations

from collections.abc import Sequence

import i18n
from bot.service import Turn, computer_level
from bot.storage import MatchRecord
from engines import GAMES, GameState

MESSAGE_LIMIT = 2000


def clip(text: str, limit: int = MESSAGE_LIMIT) -> str:
    """Cut ``text`` to ``limit`` characters, marking the cut."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def mention(user_id: int) -> str:
    """Return a Discord user mention."""
    return f"<@{user_id}>"


def relative_time(timestamp: float) -> str:
    """Return a Discord timestamp that each reader sees in their own time, e.g. "in 3 hours"."""
    return f"<t:{int(timestamp)}:R>"


def describe_options(options: dict) -> str:
    """Say which variant or options a match uses, or an empty string for the defaults."""
    if not options:
        return ""
    return ", ".join(f"{key.replace('_', ' ')} {value}" for key, value in sorted(options.items()))


def challenge_text(record: MatchRecord) -> str:
    """The message that carries the Accept and Decline buttons."""
    spec = GAMES[record.game]
    challenger = record.players[0]
    invited = ", ".join(mention(user_id) for user_id in record.invited)
    options = describe_options(record.options)
    lines = [f"**{challenger.name}** challenges {invited} to **{spec.title}**{f' ({options})' if options else ''}."]
    accepted = [seat.name for seat in record.players[1:] if seat.user_id not in record.invited]
    if accepted:
        lines.append(f"Accepted so far: {', '.join(accepted)}.")
    if record.deadline is not None:
        lines.append(f"The challenge expires {relative_time(record.deadline)}.")
    return clip("\n".join(lines))


def challenge_closed_text(record: MatchRecord, how: str) -> str:
    """Replace the challenge message once it was declined, withdrawn, expired or cancelled."""
    spec = GAMES[record.game]
    names = " vs ".join(seat.name for seat in record.players)
    return clip(f"~~{spec.title}: {names}~~ — {how}")


def seats_text(record: MatchRecord) -> str:
    """Say who plays which seat ("Ana plays light, Bo plays dark"), or the order of play for numbered seats."""
    spec = GAMES[record.game]
    seat_names = spec.seat_names(len(record.players))
    if all(name.startswith("player") for name in seat_names):
        return "order of play: " + ", ".join(f"**{seat.name}**" for seat in record.players)
    return ", ".join(f"**{seat.name}** plays {seat_names[i]}" for i, seat in enumerate(record.players))


def scores_text(record: MatchRecord, state: GameState) -> str:
    """One line with every player's score."""
    return " · ".join(f"{seat.name} {score}" for seat, score in zip(record.players, state.scores(), strict=True))


def to_move_text(record: MatchRecord, state: GameState) -> str:
    """Mention the player to move with their deadline; a computer seat is never mentioned, it is thinking."""
    seat = state.to_move
    if seat is None:
        return ""
    if computer_level(record.players[seat].user_id) is not None:
        return f"**{record.players[seat].name}** is thinking…"
    deadline = f" (deadline {relative_time(record.deadline)})" if record.deadline else ""
    return f"{mention(record.players[seat].user_id)}, your move{deadline}."


def result_text(record: MatchRecord, state: GameState) -> str:
    """Announce the end of a game: winners and why."""
    outcome = state.outcome()
    if outcome is None:
        return ""
    winners = [record.players[i].name for i in outcome.winners]
    if outcome.is_draw:
        headline = "🤝 The game is a draw."
    elif len(winners) == 1:
        headline = f"🏆 **{winners[0]}** wins!"
    else:
        headline = f"🏆 Shared victory: {', '.join(f'**{w}**' for w in winners)}."
    return f"{headline} {i18n.result_text(state, [seat.name for seat in record.players])}"


def start_text(record: MatchRecord, state: GameState) -> str:
    """The message that goes with the first board."""
    spec = GAMES[record.game]
    return clip(f"**{spec.title}** begins: {seats_text(record)}.\n{to_move_text(record, state)}")


def turn_text(turn: Turn, extra: Sequence[str] = ()) -> str:
    """The message that goes with the board after an accepted move, resignation or claim."""
    record, state = turn.record, turn.state
    names = [seat.name for seat in record.players]
    lines = [i18n.summary_text(state, names) if turn.kind == "move" else turn.text]
    lines.append(f"Score: {scores_text(record, state)}")
    if turn.finished:
        lines.append(result_text(record, state))
    else:
        lines.append(to_move_text(record, state))
    lines.extend(extra)
    return clip("\n".join(line for line in lines if line))


def board_text(record: MatchRecord, state: GameState) -> str:
    """The message that goes with a re-posted board."""
    spec = GAMES[record.game]
    lines = [f"**{spec.title}**: {seats_text(record)}.", f"Score: {scores_text(record, state)}"]
    lines.append(result_text(record, state) if state.outcome() else to_move_text(record, state))
    return clip("\n".join(lines))
