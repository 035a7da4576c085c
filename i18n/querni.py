"""Querni's texts: the result, the chat line of a ply, the board's status line."""

from __future__ import annotations

from collections.abc import Sequence

from engines.querni import NAMES, PIECES, SEATS, QuerniState, Termination
from i18n.common import is_forfeit, two_player_forfeit

CLEARED = "{Winner} removed all their pieces: {winner} wins."
STRANDED = "{Loser}'s removal stranded {numbers}, which can never form a chain again: {winner} wins."
NO_TRIPLE = "{Loser}'s removal left no three consecutive numbers: {winner} wins."
NO_REMOVAL_PLIES = "No chain was removed for {count} plies: a draw."
NO_REMOVAL_MOVES = "No chain was removed for {count} full moves: a draw."
COUNTER_PLIES = "{count} of {limit} plies without a removal"
COUNTER_MOVES = "{count} plies without a removal (a draw after {limit} full moves)"


def result(state: QuerniState, names: Sequence[str], locale: str) -> str:
    """Return the result sentence (see :func:`i18n.result_text`)."""
    outcome = state.outcome()
    assert outcome is not None
    code = outcome.termination
    if code == Termination.NO_REMOVAL:
        template = NO_REMOVAL_MOVES if state.draw_count == "moves" else NO_REMOVAL_PLIES
        return template.format(count=state.draw_plies)
    winner = outcome.winners[0]
    if is_forfeit(code):
        return two_player_forfeit(code, winner, names, locale)
    loser = 1 - winner
    seats = {"Winner": SEATS[winner].capitalize(), "winner": SEATS[winner], "Loser": SEATS[loser].capitalize()}
    if code == Termination.CLEARED:
        return CLEARED.format(**seats)
    if code == Termination.STRANDED:
        return STRANDED.format(numbers=", ".join(map(str, state.stranded(loser))), **seats)
    return NO_TRIPLE.format(**seats)


def counter_text(state: QuerniState, locale: str = "en") -> str:
    """Return how close the draw is, e.g. ``4 of 30 plies without a removal``."""
    if state.draw_count == "moves":
        return COUNTER_MOVES.format(count=state.counter, limit=state.draw_plies)
    return COUNTER_PLIES.format(count=state.counter, limit=state.draw_plies)


def summary(state: QuerniState, names: Sequence[str], locale: str) -> str:
    """Return the chat line of the last ply (see :func:`i18n.summary_text`)."""
    event = state.last_event
    if event is None:
        if state.outcome() is not None:
            return result(state, names, locale)
        return "The game has begun: blue moves first."
    who = names[event.player]
    parts = []
    if event.path:
        route = "-".join(NAMES[c] for c in event.path)
        verb = "jumped" if event.jumped else "moved"
        parts.append(f"{who} {verb} {event.piece} {route}")
    if event.removed:
        squares = " ".join(NAMES[c] for _, c in event.removed)
        lo, hi = event.removed[0][0], event.removed[-1][0]
        parts.append(f"{'and' if parts else who} removed the chain {lo}-{hi} ({squares})")
    if not parts:
        parts.append(f"{who} passed")
    line = " ".join(parts) + f"; {counter_text(state, locale)}."
    if state.outcome() is not None:
        line += f" {result(state, names, locale)}"
    return line


def status(state: QuerniState, names: Sequence[str], locale: str) -> str:
    """Return the board's status line (see :func:`i18n.status_text`)."""
    outcome = state.outcome()
    if outcome is None:
        name, seat = names[state.turn], SEATS[state.turn]
        # Say the seat's colour too, unless the name already is it ("Blue to move").
        who = name if name.lower() == seat else f"{name} ({seat})"
        return f"{who} to move · ply {state.ply + 1}"
    blue, red = state.removed
    code = outcome.termination
    if code == Termination.NO_REMOVAL:
        one = state.draw_plies == 1
        unit = ("full move" if one else "full moves") if state.draw_count == "moves" else ("ply" if one else "plies")
        return f"Draw {blue} – {red} · no chain removed for {state.draw_plies} {unit}"
    winner = outcome.winners[0]
    loser = 1 - winner
    head = f"{names[winner]} wins"
    if code == Termination.CLEARED:
        return f"{head} · all {PIECES} pieces removed"
    if code == Termination.STRANDED:
        return f"{head} · {names[loser]} stranded {', '.join(map(str, state.stranded(loser)))}"
    if code == Termination.NO_TRIPLE:
        return f"{head} · {names[loser]} left no three in a row"
    return f"{head} · {two_player_forfeit(code, winner, names, locale).rstrip('.')}"


def caption(state: QuerniState, names: Sequence[str], locale: str) -> str:
    """Querni's picture has no caption line: its marks, the status line and the draw counter say it all."""
    return ""
