"""Summer's texts: the result, the chat line of a ply, the board's status line and caption."""

from __future__ import annotations

from collections.abc import Sequence

from engines.summer import DESTROYED, FIELD_WIN, MERGED, MOVED, SEATS, SummerState, Termination
from i18n.common import is_forfeit, two_player_forfeit

MINUS = "\u2212"  # a true minus sign: a hyphen reads as a dash at small sizes

# One whole sentence per ending and result, so that each translates as a unit.
WINS = {
    Termination.BLACK_ARRIVED: "All Black pieces have reached rank 1: {winner} wins {high} to {low}.",
    Termination.BLACK_GONE: "Black has no pieces left: {winner} wins {high} to {low}.",
    Termination.LAST_MOVE: "Black has made its last move: {winner} wins {high} to {low}.",
    Termination.WHITE_HOME: "Black's move left every White piece on rank {size}: {winner} wins {high} to {low}.",
    Termination.WHITE_GONE: "White has no pieces left: {winner} wins {high} to {low}.",
    Termination.MOVE_LIMIT: "Ended by the move limit ({limit} plies): {winner} wins {high} to {low}.",
}
DRAWS = {
    Termination.BLACK_ARRIVED: "All Black pieces have reached rank 1: the goal rows are level at {score}, a draw.",
    Termination.BLACK_GONE: "Black has no pieces left: the goal rows are level at {score}, a draw.",
    Termination.LAST_MOVE: "Black has made its last move: the goal rows are level at {score}, a draw.",
    Termination.WHITE_HOME: (
        "Black's move left every White piece on rank {size}: the goal rows are level at {score}, a draw."
    ),
    Termination.WHITE_GONE: "White has no pieces left: the goal rows are level at {score}, a draw.",
    Termination.MOVE_LIMIT: "Ended by the move limit ({limit} plies): the goal rows are level at {score}, a draw.",
}
# The status line's short reasons.
WHY = {
    Termination.BLACK_ARRIVED: "all Black pieces on rank 1",
    Termination.BLACK_GONE: "Black has no pieces left",
    Termination.LAST_MOVE: "Black made its last move",
    Termination.WHITE_HOME: "Black stopped White's last piece",
    Termination.WHITE_GONE: "White has no pieces left",
    Termination.MOVE_LIMIT: "move limit reached",
}


def _seat(seat: int) -> str:
    return SEATS[seat].capitalize()


def result(state: SummerState, names: Sequence[str], locale: str) -> str:
    """Return the result sentence (see :func:`i18n.result_text`)."""
    outcome = state.outcome()
    assert outcome is not None
    code = outcome.termination
    if is_forfeit(code):
        return two_player_forfeit(code, outcome.winners[0], names, locale)
    white, black = outcome.scores
    facts = {"size": state.size, "limit": state.max_plies}
    if white == black:
        return DRAWS[Termination(code)].format(score=white, **facts)
    winner = _seat(0 if white > black else 1)
    return WINS[Termination(code)].format(winner=winner, high=max(white, black), low=min(white, black), **facts)


def summary(state: SummerState, names: Sequence[str], locale: str) -> str:
    """Return the chat line of the last ply (see :func:`i18n.summary_text`)."""
    event = state.last_event
    if event is None:
        return "The game has begun."
    cells = state.geometry.names
    who = names[event.player]
    other = names[1 - event.player]
    text = f"{who} moved {cells[event.move.frm]}-{cells[event.move.to]} ({event.weight})"
    resident = abs(event.resident)
    survivor = abs(event.result) - event.modifier if event.result else -event.modifier
    kind = "plus" if state.terrain[event.move.to] > 0 else "minus"
    if event.action == MOVED:
        text += f" to a {kind} cell" if event.modifier else ""
    elif event.action == MERGED:
        text += f" onto its own {resident}: merged into {survivor}"
    elif event.action == FIELD_WIN:
        text += f" into {other}'s {resident} on a plus cell: the mover wins with {survivor}"
    elif event.action == DESTROYED:
        whose = "its own" if event.resident * (1 if event.player == 0 else -1) > 0 else f"{other}'s"
        text += f" onto {whose} {resident}: equal weights, both removed"
    elif event.zeroed or (event.result > 0) == (event.player == 0):
        text += f" into {other}'s {resident}: {who}'s piece survives with {survivor}"
    else:
        text += f" into {other}'s {resident}: {other}'s piece survives with {abs(event.result)}"
    if event.zeroed:
        text += "; the minus cell takes it to 0 and it is removed" if event.action != MOVED else ": it is removed"
    elif event.modifier:
        sep = ": now" if event.action == MOVED else f"; the {kind} cell makes it"
        text += f"{sep} {abs(event.result)}"
    text += "."
    if state.black_last_move:
        if max(state.board) > 0:
            text += " All White pieces have arrived: Black has one last move."
        else:
            text += " White has no pieces left: Black has one last move."
    return text


def status(state: SummerState, names: Sequence[str], locale: str) -> str:
    """Return the board's status line (see :func:`i18n.status_text`)."""
    outcome = state.outcome()
    if outcome is None:
        if state.black_last_move:
            why = "White has arrived" if max(state.board) > 0 else "White has no pieces"
            return f"{why}: {names[1]} has one last move"
        return f"{names[state.turn]} to move · ply {state.ply + 1} · move limit {state.max_plies}"
    white, black = state.scores()
    code = outcome.termination
    natural = not is_forfeit(code)
    if natural:
        # Black's last move may also have removed White's last piece: the picture says that.
        gone = code == Termination.LAST_MOVE and max(state.board) <= 0
        why = WHY[Termination.WHITE_GONE if gone else Termination(code)]
    else:
        why = two_player_forfeit(code, outcome.winners[0], names, locale).rstrip(".")
    if len(outcome.winners) > 1:
        return f"Draw {white} – {black} · {why}"
    head = f"{names[outcome.winners[0]]} wins"
    if natural:
        head += f" {max(white, black)} – {min(white, black)}"
    return f"{head} · {why}"


def _change(modifier: int, result: int, zeroed: bool) -> str:
    """Describe the cell's ±1 on the mover's piece, e.g. ``", −1 → 7"`` (empty if none applied)."""
    if not modifier:
        return ""
    sign = "+" if modifier > 0 else MINUS
    return f", {sign}1 → 0, removed" if zeroed else f", {sign}1 → {abs(result)}"


def caption(state: SummerState, names: Sequence[str], locale: str) -> str:
    """Return one short line about the last ply, e.g. ``White c1-b2: merged 3 + 5 = 8, −1 → 7``.

    It names the seats (the header rows show which player has which colour).
    """
    event = state.last_event
    if event is None:
        return "White moves first · each side races to the far row"
    cells = state.geometry.names
    who = _seat(event.player)
    head = f"{who} {cells[event.move.frm]}-{cells[event.move.to]}"
    weight, other = event.weight, abs(event.resident)
    change = _change(event.modifier, event.result, event.zeroed)
    # The merged or surviving weight before the cell's ±1; a piece the −1 took to 0 weighed 1.
    survivor = 1 if event.zeroed else abs(event.result) - event.modifier
    own = event.resident * (1 if event.player == 0 else -1) > 0
    if event.action == MOVED:
        return f"{head} ({weight})" + (f":{change[1:]}" if change else "")
    if event.action == MERGED:
        sign = "+" if weight < other else MINUS
        return f"{head}: merged {weight} {sign} {other} = {survivor}{change}"
    if event.action == DESTROYED:
        return f"{head}: {weight} onto {'own' if own else _seat(1 - event.player)} {other}, both removed"
    if event.action == FIELD_WIN:
        return f"{head}: field win {weight} + {other} = {survivor}{change}"
    if event.zeroed or (event.result > 0) == (event.player == 0):
        return f"{head}: hit {_seat(1 - event.player)} {other}, {weight} {MINUS} {other} = {survivor}{change}"
    left = abs(event.result)
    return f"{head}: {weight} hit {other}, {_seat(1 - event.player)} keeps {other} {MINUS} {weight} = {left}"
