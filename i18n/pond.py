"""Pond's texts: the result, the chat line of a ply, the board's status line."""

from __future__ import annotations

from collections.abc import Sequence

from engines.pond import FACE, FACES, SEATS, PondState, Termination
from i18n.common import is_forfeit, two_player_forfeit

TARGET_WIN = "The target of {target} was reached: {winner} wins {high} to {low}."
TARGET_DRAW = "The target of {target} was reached and the scores are level at {score}: a draw."
MOVE_LIMIT = "Ended by the move limit ({limit} plies): a draw."
ELIMINATED = "{Loser} has no legal action and is eliminated: {winner} wins."


def result(state: PondState, names: Sequence[str], locale: str) -> str:
    """Return the result sentence (see :func:`i18n.result_text`)."""
    outcome = state.outcome()
    assert outcome is not None
    code = outcome.termination
    if is_forfeit(code):
        return two_player_forfeit(code, outcome.winners[0], names, locale)
    light, dark = state.scored
    if code == Termination.TARGET:
        if light == dark:
            return TARGET_DRAW.format(target=state.target, score=light)
        winner = 0 if light > dark else 1
        return TARGET_WIN.format(target=state.target, winner=SEATS[winner], high=max(light, dark), low=min(light, dark))
    if code == Termination.MOVE_LIMIT:
        return MOVE_LIMIT.format(limit=state.max_plies)
    winner = outcome.winners[0]
    return ELIMINATED.format(Loser=SEATS[1 - winner].capitalize(), winner=SEATS[winner])


def summary(state: PondState, names: Sequence[str], locale: str) -> str:
    """Return the chat line of the last ply (see :func:`i18n.summary_text`)."""
    event = state.last_event
    if event is None:
        return "The game has begun."
    cell = state.geometry.names
    who = names[event.player]
    if event.move.frm < 0:
        parts = [f"{who} placed an egg on {cell[event.move.to]}"]
    else:
        kind = FACES[FACE[event.actor]]
        parts = [f"{who} moved a {kind} from {cell[event.move.frm]} to {cell[event.move.to]}"]
    if event.developed:
        parts.append("developed " + ", ".join(cell[c] for c in event.developed))
    if event.scored:
        gains = " and ".join(f"{names[p]} +{g}" for p, g in enumerate(event.gains) if g)
        parts.append(f"scored {', '.join(cell[c] for c, _ in event.scored)} ({gains})")
    return "; ".join(parts) + "."


def status(state: PondState, names: Sequence[str], locale: str) -> str:
    """Return the board's status line (see :func:`i18n.status_text`)."""
    outcome = state.outcome()
    light, dark = state.scored
    if outcome is None:
        mover = state.to_move if state.to_move is not None else 0
        return f"{names[mover]} to move · ply {state.ply + 1} · move limit {state.max_plies}"
    draw = len(outcome.winners) > 1
    head = f"Draw {light} – {dark}" if draw else f"{names[outcome.winners[0]]} wins"
    code = outcome.termination
    if code == Termination.TARGET:
        if not draw:
            head += f" {max(light, dark)} – {min(light, dark)}"
        why = "target reached"
    elif code == Termination.MOVE_LIMIT:
        # A SAFETY rule, not a rule of the game: say so.
        why = f"ended by the move limit ({state.max_plies} plies)"
    elif code == Termination.ELIMINATION:
        why = f"{names[1 - outcome.winners[0]]} had no legal action"
    else:
        why = two_player_forfeit(code, outcome.winners[0], names, locale).rstrip(".")
    return f"{head} · {why}"


def caption(state: PondState, names: Sequence[str], locale: str) -> str:
    """Pond's picture has no caption line: its marks and the status line say it all."""
    return ""
