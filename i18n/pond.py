"""Pond's texts: the result, the chat line of a ply, the board's status line (context ``game:pond``)."""

from __future__ import annotations

from collections.abc import Sequence

from engines.pond import FACE, FACES, PondState, Termination
from i18n.catalog import npgettext, pgettext
from i18n.common import (
    agreed_sentence,
    agreed_status,
    clauses,
    is_agreed,
    is_forfeit,
    sentence,
    two_player_forfeit,
    two_player_reason,
)


def seat(locale: str, seat: int, capital: bool = False) -> str:
    """Name a seat as the rules do: ``light``/``dark`` (``Light`` to start a sentence)."""
    if seat == 0:
        return pgettext(locale, "game:pond", "Light") if capital else pgettext(locale, "game:pond", "light")
    return pgettext(locale, "game:pond", "Dark") if capital else pgettext(locale, "game:pond", "dark")


def seat_label(locale: str, number: int) -> str:
    """Return seat ``number``'s name as a player's default name (``Light``)."""
    return seat(locale, number, True)


def result(state: PondState, names: Sequence[str], locale: str) -> str:
    """Return the result sentence (see :func:`i18n.result_text`)."""
    outcome = state.outcome()
    assert outcome is not None
    code = outcome.termination
    if is_agreed(code):
        return agreed_sentence(locale)
    if is_forfeit(code):
        return two_player_forfeit(code, outcome.winners[0], names, locale)
    light, dark = state.scored
    if code == Termination.TARGET:
        if light == dark:
            return pgettext(
                locale,
                "game:pond",
                "The target of {target} was reached and the scores are level at {score}: a draw.",
                target=state.target,
                score=light,
            )
        winner = 0 if light > dark else 1
        return pgettext(
            locale,
            "game:pond",
            "The target of {target} was reached: {winner} wins {high} to {low}.",
            target=state.target,
            winner=seat(locale, winner),
            high=max(light, dark),
            low=min(light, dark),
        )
    if code == Termination.MOVE_LIMIT:
        return npgettext(
            locale,
            "game:pond",
            "Ended by the move limit ({n} ply): a draw.",
            "Ended by the move limit ({n} plies): a draw.",
            state.max_plies,
        )
    winner = outcome.winners[0]
    return pgettext(
        locale,
        "game:pond",
        "{Loser} has no legal action and is eliminated: {winner} wins.",
        Loser=seat(locale, 1 - winner, True),
        winner=seat(locale, winner),
    )


def _action(state: PondState, names: Sequence[str], locale: str) -> str:
    event = state.last_event
    assert event is not None
    cell = state.geometry.names
    who = names[event.player]
    if event.move.frm < 0:
        return pgettext(locale, "game:pond", "{who} placed an egg on {cell}", who=who, cell=cell[event.move.to])
    frm, to = cell[event.move.frm], cell[event.move.to]
    if FACES[FACE[event.actor]] == "frog":
        return pgettext(locale, "game:pond", "{who} moved a frog from {frm} to {to}", who=who, frm=frm, to=to)
    if FACES[FACE[event.actor]] == "tadpole":
        return pgettext(locale, "game:pond", "{who} moved a tadpole from {frm} to {to}", who=who, frm=frm, to=to)
    return pgettext(locale, "game:pond", "{who} moved an egg from {frm} to {to}", who=who, frm=frm, to=to)


def summary(state: PondState, names: Sequence[str], locale: str) -> str:
    """Return the chat line of the last ply (see :func:`i18n.summary_text`).

    Each clause (the action, what developed, what scored) is one translated unit; :func:`i18n.common.clauses`
    joins them.
    """
    event = state.last_event
    if event is None:
        return pgettext(locale, "game:pond", "The game has begun.")
    cell = state.geometry.names
    comma = pgettext(locale, "game:common", ", ")
    parts = [_action(state, names, locale)]
    if event.developed:
        parts.append(
            pgettext(locale, "game:pond", "developed {cells}", cells=comma.join(cell[c] for c in event.developed))
        )
    if event.scored:
        gains = [
            pgettext(locale, "game:pond", "{name} +{gain}", name=names[p], gain=g)
            for p, g in enumerate(event.gains)
            if g
        ]
        joined = (
            gains[0]
            if len(gains) == 1
            else pgettext(locale, "game:common", "{names} and {last}", names=gains[0], last=gains[1])
        )
        cells = comma.join(cell[c] for c, _ in event.scored)
        parts.append(pgettext(locale, "game:pond", "scored {cells} ({gains})", cells=cells, gains=joined))
    return sentence(clauses(parts, locale), locale)


def status(state: PondState, names: Sequence[str], locale: str) -> str:
    """Return the board's status line (see :func:`i18n.status_text`)."""
    outcome = state.outcome()
    light, dark = state.scored
    if outcome is None:
        mover = state.to_move if state.to_move is not None else 0
        return pgettext(
            locale,
            "game:pond",
            "{name} to move · move {move} · move limit {limit}",
            name=names[mover],
            move=state.ply + 1,
            limit=state.max_plies,
        )
    draw = len(outcome.winners) > 1
    code = outcome.termination
    if is_agreed(code):
        return agreed_status(locale)
    high, low = max(light, dark), min(light, dark)
    if code == Termination.TARGET:
        if draw:
            return pgettext(locale, "game:pond", "Draw {light} – {dark} · target reached", light=light, dark=dark)
        return pgettext(
            locale,
            "game:pond",
            "{name} wins {high} – {low} · target reached",
            name=names[outcome.winners[0]],
            high=high,
            low=low,
        )
    if code == Termination.MOVE_LIMIT:
        # A SAFETY rule, not a rule of the game: say so.
        return npgettext(
            locale,
            "game:pond",
            "Draw {light} – {dark} · ended by the move limit ({n} move)",
            "Draw {light} – {dark} · ended by the move limit ({n} moves)",
            state.max_plies,
            light=light,
            dark=dark,
        )
    winner = names[outcome.winners[0]]
    if code == Termination.ELIMINATION:
        return pgettext(
            locale,
            "game:pond",
            "{name} wins · {loser} had no legal action",
            name=winner,
            loser=names[1 - outcome.winners[0]],
        )
    why = two_player_reason(code, outcome.winners[0], names, locale)
    return pgettext(locale, "game:pond", "{name} wins · {why}", name=winner, why=why)


def caption(state: PondState, names: Sequence[str], locale: str) -> str:
    """Pond's picture has no caption line: its marks and the status line say it all."""
    return ""


# -- the board's alt text, the bot's words and the refusals' params (found by name: i18n.texts_for) ------------------


def position(state: PondState, names: Sequence[str], language: str) -> str:
    """Alt text: each side's pieces by cell (``egg b2, frog c3``), then the eggs each still has to place."""
    from engines.pond import OWNER
    from i18n.describe import list_text, seat_text

    faces = (
        pgettext(language, "alt", "egg"),
        pgettext(language, "alt", "tadpole"),
        pgettext(language, "alt", "frog"),
    )
    sides = (pgettext(language, "alt", "Light"), pgettext(language, "alt", "Dark"))
    parts = []
    for side in (0, 1):
        pieces = [
            f"{faces[FACE[value]]} {state.cell_name(cell)}"
            for cell, value in enumerate(state.board)
            if value and OWNER[value] == side
        ]
        parts.append(f"{seat_text(language, names[side], sides[side])}: {list_text(language, pieces)}.")
    spawn = pgettext(
        language,
        "alt",
        "Eggs to place: {first} {a}, {second} {b}.",
        first=names[0],
        a=state.spawn[0],
        second=names[1],
        b=state.spawn[1],
    )
    return " ".join([*parts, spawn])


def seat_words(language: str) -> dict[str, str]:
    """Name the engine's seats (``light``, ``dark``) as the bot's messages do ("Ana plays light")."""
    return {"light": pgettext(language, "seat", "light"), "dark": pgettext(language, "seat", "dark")}


def option_words(language: str) -> dict[str, str]:
    """The words of Pond's start options and of their fixed values."""
    return {
        "variant": pgettext(language, "start option", "variant"),
        "standard": pgettext(language, "start option", "standard"),
        "mini": pgettext(language, "start option", "mini"),
        "large": pgettext(language, "start option", "large"),
    }


_ERROR_SIDES = ("light", "Light", "dark", "Dark")


def error_param(language: str, name: str, value: object) -> str | None:
    """Translate a refusal's param that is one of Pond's words (a side), or return ``None``."""
    if name in ("side", "own") and value in _ERROR_SIDES:
        return pgettext(language, "game:pond", str(value))
    return None


# -- a move picked by taps (bot.core.taps): each choice in words -------------------------------------------------------


def choice(state: PondState, kind: str, fields: dict[str, str], language: str) -> str:
    """A move chosen so far, in words: ``an egg``, ``egg on b2``, ``frog b3``, ``frog b3 → b1``."""
    from engines.pond.board import GEOMETRY

    if kind == "place":
        if "cell" not in fields:
            return pgettext(language, "tap", "an egg")
        return pgettext(language, "tap", "egg on {cell}", cell=fields["cell"])
    cell = fields["from"]
    value = state.board[GEOMETRY[state.size].names.index(cell)]  # the table cell_name reads
    faces = (pgettext(language, "alt", "egg"), pgettext(language, "alt", "tadpole"), pgettext(language, "alt", "frog"))
    piece = f"{faces[FACE[value]]} {cell}"
    return f"{piece} → {fields['to']}" if "to" in fields else piece


def puzzle_goal(language: str, solver: int, goal: str, gain: int) -> str:
    """What a puzzle asks of its solver, naming their side: to win the game, to gain ``gain`` on the score, or
    (``best``) to find the one move that keeps the win."""
    side = seat(language, solver, True)
    if goal == "win":
        return pgettext(language, "game:pond", "{side} to move and win the game", side=side)
    if goal == "gain" and gain > 0:
        return npgettext(
            language,
            "game:pond",
            "{side} to move and win {n} frog",
            "{side} to move and win {n} frogs",
            gain,
            side=side,
        )
    return pgettext(language, "game:pond", "{side} to move: find the only move that keeps the win", side=side)
