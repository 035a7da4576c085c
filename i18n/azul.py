"""Azul's texts: the result, the chat line of a ply, the board's status line and caption."""

from __future__ import annotations

from collections.abc import Sequence

from engines.azul import (
    CENTRE,
    COLOURS,
    FLOOR,
    WALL,
    AzulEvent,
    AzulState,
    Placement,
    Termination,
    bonus_points,
    seat_names,
)
from i18n.common import forfeit_sentence, is_forfeit, join_names, plural

# Why the game ended, then who won: each ending with each kind of victory is one sentence.
ENDINGS = {
    Termination.WALL_ROW: "A wall row is complete",
    Termination.ROUND_LIMIT: "Ended by the round limit ({rounds}, a safety rule)",
    Termination.NO_TILES: "Ended as no tile is left to fill the factories (a safety rule)",
}
WINS = "{ending}: {winner} wins with {points} points."
WINS_TIE = "{ending}: {winner} wins the tie at {points} points with more complete rows ({rows} to {others})."
SHARED = "{ending}: {winners} share the victory with {points} points and {rows} each."
LAST_LEFT = "{leaving} {winner} is the last player left and wins."
STATUS_WHY = {
    Termination.WALL_ROW: "a wall row is complete",
    Termination.ROUND_LIMIT: "round limit {limit} (safety rule)",
    Termination.NO_TILES: "no tiles left (safety rule)",
}


def _seats(state: AzulState) -> list[str]:
    return [name.capitalize() for name in seat_names(state.players)]


def _victory(state: AzulState, names: Sequence[str], locale: str) -> str:
    """Return the result sentence of a game that ended on the wall, naming players by ``names``."""
    outcome = state.outcome()
    assert outcome is not None
    rounds = plural(state.max_rounds, "round", "rounds", locale)
    ending = ENDINGS[Termination(outcome.termination)].format(rounds=rounds)
    points, rows, others = state.victory()
    winners = [names[p] for p in outcome.winners]
    if len(winners) > 1:
        complete = plural(rows, "complete row", "complete rows", locale)
        return SHARED.format(ending=ending, winners=join_names(winners, locale), points=points, rows=complete)
    if others is not None:
        return WINS_TIE.format(ending=ending, winner=winners[0], points=points, rows=rows, others=others)
    return WINS.format(ending=ending, winner=winners[0], points=points)


def _leaving(state: AzulState, event: AzulEvent, names: Sequence[str], locale: str) -> str:
    return forfeit_sentence(event.left, names[event.player], None, players=state.players, locale=locale)


def result(state: AzulState, names: Sequence[str], locale: str) -> str:
    """Return the result sentence (see :func:`i18n.result_text`).

    As the bot always said, it names the seats (``Player 1 wins with 56 points.``) except for
    who left, who is named by ``names``.
    """
    outcome = state.outcome()
    assert outcome is not None
    if not is_forfeit(outcome.termination):
        return _victory(state, _seats(state), locale)
    winner = outcome.winners[0]
    leaver = state.left[-1]
    if state.players == 2:
        return forfeit_sentence(outcome.termination, names[leaver], names[winner], players=2, locale=locale)
    leaving = forfeit_sentence(outcome.termination, names[leaver], None, players=state.players, locale=locale)
    return LAST_LEFT.format(leaving=leaving, winner=_seats(state)[winner])


def _take_sentence(event: AzulEvent, who: str) -> str:
    move = event.move
    assert move is not None
    source = "the centre" if move.source == CENTRE else f"factory {move.source}"
    text = f"{who} took {event.taken} {COLOURS[move.colour]} from {source}"
    extra = []
    if move.line == FLOOR:
        text += " to the floor line"
        if event.to_lid:
            extra.append(f"{event.to_lid} to the lid as the floor was full")
    else:
        text += f" into line {move.line}"
        if event.to_floor:
            extra.append(f"{event.to_floor} fell to the floor")
        if event.to_lid:
            extra.append(f"{event.to_lid} to the lid as the floor was full")
    if extra:
        text += f" ({', '.join(extra)})"
    if event.marker:
        text += ", with the first-player marker"
    return text


def _round_sentence(
    state: AzulState, event: AzulEvent, placements: Sequence[Placement], names: Sequence[str], locale: str
) -> str:
    parts = []
    for p in range(state.players):
        if p in state.left:
            continue
        mine = [pl for pl in placements if pl.player == p]
        gained = sum(pl.points for pl in mine)
        text = f"{names[p]} +{gained}"
        details = [f"row {pl.row} {COLOURS[pl.colour]} +{pl.points}" for pl in mine]
        details += [f"line {d.row} {COLOURS[d.colour]} to the floor" for d in event.discards if d.player == p]
        if details:
            text += f" ({', '.join(details)})"
        if event.penalties and event.penalties[p]:
            text += f", floor −{event.penalties[p]}"
        if event.bonuses and any(event.bonuses[p]):
            counts = zip(event.bonuses[p], (("row", "rows"), ("column", "columns"), ("colour", "colours")), strict=True)
            counted = ", ".join(plural(n, one, many, locale) for n, (one, many) in counts if n)
            text += f", bonus +{bonus_points(event.bonuses[p])} ({counted})"
        text += f": {plural(state.boards[p].score, 'point', 'points', locale)}"
        parts.append(text)
    return f"Round {event.round_ended} ended: " + "; ".join(parts)


def summary(state: AzulState, names: Sequence[str], locale: str) -> str:
    """Return the chat line of the last ply (see :func:`i18n.summary_text`)."""
    event = state.last_event
    if event is None:
        return f"Round 1 begins; {names[state.turn]} starts."
    who = names[event.player]
    outcome = state.outcome()
    sentences: list[str] = []
    move = event.move
    if move is None:
        how = "resigned" if event.left == "forfeit" else "ran out of time"
        text = f"{who} left the game ({who} {how})"
        if outcome is None:
            text += "; the others play on"
        else:
            text += f"; {join_names([names[p] for p in outcome.winners], locale)} wins"
        sentences.append(text)
    elif move.source == WALL:
        points = next((p.points for p in event.placements if p.player == event.player), 0)
        colour = COLOURS[move.colour]
        sentences.append(f"{who} tiled line {move.line}'s {colour} in column {move.column} (+{points})")
    else:
        sentences.append(_take_sentence(event, who))
    placements = event.placements[1:] if move is not None and move.source == WALL else event.placements
    if event.round_ended:
        sentences.append(_round_sentence(state, event, placements, names, locale))
    elif placements or event.discards:
        bits = [f"{names[pl.player]} row {pl.row} {COLOURS[pl.colour]} +{pl.points}" for pl in placements]
        bits += [f"{names[d.player]} line {d.row} {COLOURS[d.colour]} to the floor" for d in event.discards]
        sentences.append("Tiled: " + "; ".join(bits))
    if outcome is None:
        if event.round_ended:
            sentences.append(f"Round {state.round} begins; {names[state.turn]} starts")
        elif state.pending_line():
            sentences.append(f"{names[state.turn]} chooses where line {state.pending_line()} goes on the wall")
    elif move is not None:
        # Say the result again, naming the players.
        sentences.append(_victory(state, names, locale).rstrip("."))
    return ". ".join(sentences) + "."


def status(state: AzulState, names: Sequence[str], locale: str) -> str:
    """Return the board's status line (see :func:`i18n.status_text`)."""
    outcome = state.outcome()
    if outcome is None:
        who = names[state.turn]
        if state.pending_line():
            return f"Round {state.round} · {who}: choose the wall column for line {state.pending_line()}"
        return f"Round {state.round} · {who} to move"
    winners = [names[p] for p in outcome.winners]
    best = max(state.scores()[p] for p in outcome.winners)
    head = f"{winners[0]} wins with {best}" if len(winners) == 1 else f"{join_names(winners)} share the win with {best}"
    if is_forfeit(outcome.termination):
        why = "the last player left"
    else:
        why = STATUS_WHY[Termination(outcome.termination)].format(limit=state.max_rounds)
    return f"{head} · {why}"


def caption(state: AzulState, names: Sequence[str], locale: str) -> str:
    """Return a short line saying what the last ply did (the chat message says it in full)."""
    event = state.last_event
    if event is None:
        return "A new game: take all tiles of one colour from a factory or the centre."
    who = names[event.player]
    move = event.move
    if move is None:
        return f"{who} left the game" + ("; the others play on." if state.outcome() is None else ".")
    if move.source == WALL:
        points = next((p.points for p in event.placements if p.player == event.player), 0)
        text = f"{who} tiled line {move.line} in column {move.column} (+{points})"
    else:
        source = "c" if move.source == CENTRE else f"f{move.source}"
        where = "floor" if move.line == FLOOR else f"line {move.line}"
        text = f"{who} took {event.taken} {COLOURS[move.colour]} from {source} → {where}"
        extra = []
        if event.to_floor and move.line != FLOOR:
            extra.append(f"{event.to_floor} to floor")
        if event.to_lid:
            extra.append(f"{event.to_lid} to lid")
        if event.marker:
            extra.append("+ marker")
        if extra:
            text += f" ({', '.join(extra)})"
    for discard in event.discards:
        text += f" · {names[discard.player]}'s line {discard.row} {COLOURS[discard.colour]} → floor"
    if event.round_ended:
        text += f" · round {event.round_ended} scored"
    return text + "."
