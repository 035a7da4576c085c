"""Querni's texts: the result, the chat line of a ply, the board's status line (context ``game:querni``)."""

from __future__ import annotations

from collections.abc import Sequence

from engines.querni import NAMES, PIECES, SEATS, QuerniState, Termination
from engines.querni.moves import read_chain
from i18n.catalog import npgettext, pgettext
from i18n.common import agreed_sentence, agreed_status, is_agreed, is_forfeit, two_player_forfeit, two_player_reason


def seat(locale: str, seat: int, capital: bool = False) -> str:
    """Name a seat: ``blue``/``red`` (``Blue`` to start a sentence)."""
    if seat == 0:
        return pgettext(locale, "game:querni", "Blue") if capital else pgettext(locale, "game:querni", "blue")
    return pgettext(locale, "game:querni", "Red") if capital else pgettext(locale, "game:querni", "red")


def _no_removal(state: QuerniState, locale: str) -> str:
    if state.draw_count == "moves":
        return npgettext(
            locale,
            "game:querni",
            "No chain was removed for {n} full move: a draw.",
            "No chain was removed for {n} full moves: a draw.",
            state.draw_plies,
        )
    return npgettext(
        locale,
        "game:querni",
        "No chain was removed for {n} ply: a draw.",
        "No chain was removed for {n} plies: a draw.",
        state.draw_plies,
    )


def seat_label(locale: str, number: int) -> str:
    """Return seat ``number``'s name as a player's default name (``Blue``)."""
    return seat(locale, number, True)


def result(state: QuerniState, names: Sequence[str], locale: str) -> str:
    """Return the result sentence (see :func:`i18n.result_text`)."""
    outcome = state.outcome()
    assert outcome is not None
    code = outcome.termination
    if is_agreed(code):
        return agreed_sentence(locale)
    if code == Termination.NO_REMOVAL:
        return _no_removal(state, locale)
    winner = outcome.winners[0]
    if is_forfeit(code):
        return two_player_forfeit(code, winner, names, locale)
    loser = 1 - winner
    seats = {"Winner": seat(locale, winner, True), "winner": seat(locale, winner), "Loser": seat(locale, loser, True)}
    if code == Termination.CLEARED:
        return pgettext(locale, "game:querni", "{Winner} removed all their pieces: {winner} wins.", **seats)
    if code == Termination.STRANDED:
        numbers = pgettext(locale, "game:common", ", ").join(map(str, state.stranded(loser)))
        return pgettext(
            locale,
            "game:querni",
            "{Loser}'s removal stranded {numbers}, which can never form a chain again: {winner} wins.",
            numbers=numbers,
            **seats,
        )
    return pgettext(
        locale, "game:querni", "{Loser}'s removal left no three consecutive numbers: {winner} wins.", **seats
    )


def board_counter_text(state: QuerniState, locale: str = "en") -> str:
    """Return the board's draw counter, e.g. ``4 of 30 moves without a removal``.

    The board counts a turn as a move, as its status line does ("move 7"); the chat line says plies.  The noun
    goes with the limit, so English says "moves" in both forms ("1 of 30 moves").

    >>> from engines import GAMES
    >>> board_counter_text(GAMES["querni"].new(seed=1))
    '0 of 30 moves without a removal'
    """
    if state.draw_count == "moves":
        return npgettext(
            locale,
            "board",
            "{n} move without a removal (a draw after {limit} by each player)",
            "{n} moves without a removal (a draw after {limit} by each player)",
            state.counter,
            limit=state.draw_plies,
        )
    return npgettext(
        locale,
        "board",
        "{n} of {limit} moves without a removal",
        "{n} of {limit} moves without a removal",
        state.counter,
        limit=state.draw_plies,
    )


def counter_text(state: QuerniState, locale: str = "en") -> str:
    """Return how close the draw is, e.g. ``4 of 30 plies without a removal``.

    English has always said "1 plies" here (the fixtures pin it): its singular is the plural form.
    """
    if state.draw_count == "moves":
        return npgettext(
            locale,
            "game:querni",
            "{n} plies without a removal (a draw after {limit} full moves)",
            "{n} plies without a removal (a draw after {limit} full moves)",
            state.counter,
            limit=state.draw_plies,
        )
    return npgettext(
        locale,
        "game:querni",
        "{n} of {limit} plies without a removal",
        "{n} of {limit} plies without a removal",
        state.counter,
        limit=state.draw_plies,
    )


def summary(state: QuerniState, names: Sequence[str], locale: str) -> str:
    """Return the chat line of the last ply (see :func:`i18n.summary_text`).

    One sentence per kind of ply (moved, jumped, removed, both, passed), then the draw counter and the result.
    """
    event = state.last_event
    if event is None:
        if state.outcome() is not None:
            return result(state, names, locale)
        return pgettext(locale, "game:querni", "The game has begun: blue moves first.")
    who = names[event.player]
    facts: dict[str, object] = {"who": who, "counter": counter_text(state, locale)}
    if event.path:
        facts["piece"] = event.piece
        facts["route"] = "-".join(NAMES[c] for c in event.path)
    if event.removed:
        facts["squares"] = " ".join(NAMES[c] for _, c in event.removed)
        facts["low"], facts["high"] = event.removed[0][0], event.removed[-1][0]
    if event.path and event.removed:
        if event.jumped:
            line = pgettext(
                locale,
                "game:querni",
                "{who} jumped {piece} {route} and removed the chain {low}-{high} ({squares}); {counter}.",
                **facts,
            )
        else:
            line = pgettext(
                locale,
                "game:querni",
                "{who} moved {piece} {route} and removed the chain {low}-{high} ({squares}); {counter}.",
                **facts,
            )
    elif event.path:
        if event.jumped:
            line = pgettext(locale, "game:querni", "{who} jumped {piece} {route}; {counter}.", **facts)
        else:
            line = pgettext(locale, "game:querni", "{who} moved {piece} {route}; {counter}.", **facts)
    elif event.removed:
        line = pgettext(locale, "game:querni", "{who} removed the chain {low}-{high} ({squares}); {counter}.", **facts)
    else:
        line = pgettext(locale, "game:querni", "{who} passed; {counter}.", **facts)
    if state.outcome() is not None:
        line = pgettext(locale, "game:common", "{line} {result}", line=line, result=result(state, names, locale))
    return line


def status(state: QuerniState, names: Sequence[str], locale: str) -> str:
    """Return the board's status line (see :func:`i18n.status_text`)."""
    outcome = state.outcome()
    if outcome is None:
        name, colour = names[state.turn], SEATS[state.turn]
        # Say the seat's colour too, unless the name already is it ("Blue to move").
        if name.lower() in (colour, seat(locale, state.turn)):
            return pgettext(locale, "game:querni", "{name} to move · move {move}", name=name, move=state.ply + 1)
        return pgettext(
            locale,
            "game:querni",
            "{name} ({seat}) to move · move {move}",
            name=name,
            seat=seat(locale, state.turn),
            move=state.ply + 1,
        )
    blue, red = state.removed
    code = outcome.termination
    if is_agreed(code):
        return agreed_status(locale)
    if code == Termination.NO_REMOVAL:
        if state.draw_count == "moves":
            return npgettext(
                locale,
                "game:querni",
                "Draw {blue} – {red} · no chain removed for {n} full move",
                "Draw {blue} – {red} · no chain removed for {n} full moves",
                state.draw_plies,
                blue=blue,
                red=red,
            )
        return npgettext(
            locale,
            "game:querni",
            "Draw {blue} – {red} · no chain removed for {n} move",
            "Draw {blue} – {red} · no chain removed for {n} moves",
            state.draw_plies,
            blue=blue,
            red=red,
        )
    winner = outcome.winners[0]
    loser = 1 - winner
    name, other = names[winner], names[loser]
    if code == Termination.CLEARED:
        return npgettext(
            locale,
            "game:querni",
            "{name} wins · all {n} pieces removed",
            "{name} wins · all {n} pieces removed",
            PIECES,
            name=name,
        )
    if code == Termination.STRANDED:
        numbers = pgettext(locale, "game:common", ", ").join(map(str, state.stranded(loser)))
        return pgettext(
            locale, "game:querni", "{name} wins · {loser} stranded {numbers}", name=name, loser=other, numbers=numbers
        )
    if code == Termination.NO_TRIPLE:
        return pgettext(locale, "game:querni", "{name} wins · {loser} left no three in a row", name=name, loser=other)
    return pgettext(
        locale, "game:querni", "{name} wins · {why}", name=name, why=two_player_reason(code, winner, names, locale)
    )


def caption(state: QuerniState, names: Sequence[str], locale: str) -> str:
    """Querni's picture has no caption line: its marks, the status line and the draw counter say it all."""
    return ""


# -- the board's alt text, the bot's words and the refusals' params (found by name: i18n.texts_for) ------------------


def position(state: QuerniState, names: Sequence[str], language: str) -> str:
    """Alt text: each side's numbered pieces in order with their squares (``1 c3, 2 d4``), and the draw counter."""
    from engines.querni import COLOUR, NUMBER
    from i18n.describe import list_text, seat_text

    sides = (pgettext(language, "alt", "Blue"), pgettext(language, "alt", "Red"))
    parts = []
    for side in (0, 1):
        pieces = sorted(
            (NUMBER[value], state.cell_name(cell))
            for cell, value in enumerate(state.board)
            if value and COLOUR[value] == side
        )
        listed = [f"{number} {square}" for number, square in pieces]
        parts.append(f"{seat_text(language, names[side], sides[side])}: {list_text(language, listed)}.")
    parts.append(
        npgettext(
            language,
            "alt",
            "{n} ply without a removal.",
            "{n} plies without a removal.",
            state.counter,
        )
    )
    return " ".join(parts)


def seat_words(language: str) -> dict[str, str]:
    """Name the engine's seats (``blue``, ``red``) as the bot's messages do ("Ana plays blue")."""
    return {"blue": pgettext(language, "seat", "blue"), "red": pgettext(language, "seat", "red")}


def option_words(language: str) -> dict[str, str]:
    """The words of Querni's start options and of their fixed values."""
    return {
        "isolation": pgettext(language, "start option", "isolation"),
        "any_stranded": pgettext(language, "start option", "any stranded"),
        "no_triple_left": pgettext(language, "start option", "no triple left"),
        "draw_plies": pgettext(language, "start option", "draw plies"),
    }


_ERROR_SIDES = ("blue", "Blue", "red", "Red")


def error_param(language: str, name: str, value: object) -> str | None:
    """Translate a refusal's param that is one of Querni's words (a side), or return ``None``."""
    if name in ("side", "own") and value in _ERROR_SIDES:
        return pgettext(language, "game:querni", str(value))
    return None


# -- a move picked by taps (bot.core.taps): each choice in words -------------------------------------------------------


def choice(state: QuerniState, kind: str, fields: dict[str, str], language: str) -> str:
    """A turn chosen so far, in words: ``4 on c3``, ``4: c3 → e5``, ``4: c3 → e5, remove 4–7``, ``pass``.

    A removal that would lose at once says so first: ``⚠️ loses, strands 1, 5 · remove 2–4``.
    """
    from engines.querni import NAMES, NUMBER

    if kind == "pass":
        return pgettext(language, "tap", "pass")
    if kind == "remove":
        words = pgettext(language, "tap", "remove {chain}", chain=fields["chain"].replace("-", "–"))
        return losing_mark(state, fields["chain"], words, language)
    cell = fields["from"]
    number = NUMBER[state.board[NAMES.index(cell)]]
    if "to" not in fields:
        return pgettext(language, "tap", "{number} on {cell}", number=number, cell=cell)
    move = f"{number}: {cell} → {fields['to']}"
    if "remove" in fields:
        words = pgettext(language, "tap", "{move}, remove {chain}", move=move, chain=fields["remove"].replace("-", "–"))
        return losing_mark(state, fields["remove"], words, language)
    return move


def losing_mark(state: QuerniState, chain: str, words: str, language: str) -> str:
    """``words`` about removing ``chain`` (``4-7``), marked first when the removal loses the game at once."""
    numbers = read_chain(chain)
    if numbers is None:
        return words
    stranded = state.strands(f"x{numbers}")
    if not stranded:
        return words
    return pgettext(
        language,
        "game:querni",
        "⚠️ loses, strands {numbers} · {words}",
        numbers=pgettext(language, "game:common", ", ").join(map(str, stranded)),
        words=words,
    )


def puzzle_goal(language: str, solver: int, goal: str, gain: int) -> str:
    """What a puzzle asks of its solver, naming their side: to win the game, to gain ``gain`` on the score, or
    (``best``) to find the one move that keeps the win."""
    side = seat(language, solver, True)
    if goal == "win":
        return pgettext(language, "game:querni", "{side} to move and win the game", side=side)
    if goal == "gain" and gain > 0:
        return npgettext(
            language,
            "game:querni",
            "{side} to move and win {n} piece",
            "{side} to move and win {n} pieces",
            gain,
            side=side,
        )
    return pgettext(language, "game:querni", "{side} to move: find the only move that keeps the win", side=side)
