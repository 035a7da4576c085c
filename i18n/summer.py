"""Summer's texts: the result, the chat line of a ply, the board's status line and caption (``game:summer``)."""

from __future__ import annotations

from collections.abc import Sequence

from engines.summer import DESTROYED, FIELD_WIN, MERGED, MOVED, SEATS, SummerState, Termination
from i18n.catalog import npgettext, pgettext
from i18n.common import agreed_sentence, agreed_status, is_agreed, is_forfeit, two_player_forfeit, two_player_reason

MINUS = "\u2212"  # a true minus sign: a hyphen reads as a dash at small sizes


def seat(locale: str, seat: int) -> str:
    """Name a seat, capitalised as the rules write it: ``White``/``Black``."""
    return pgettext(locale, "game:summer", "White") if seat == 0 else pgettext(locale, "game:summer", "Black")


def _ending(code: Termination, state: SummerState, locale: str) -> str:
    """Say why the game ended, as the first half of the result sentence."""
    if code == Termination.BLACK_ARRIVED:
        return pgettext(locale, "game:summer", "All Black pieces have reached rank 1")
    if code == Termination.BLACK_GONE:
        return pgettext(locale, "game:summer", "Black has no pieces left")
    if code == Termination.LAST_MOVE:
        return pgettext(locale, "game:summer", "Black has made its last move")
    if code == Termination.WHITE_HOME:
        return pgettext(locale, "game:summer", "Black's move left every White piece on rank {size}", size=state.size)
    if code == Termination.WHITE_GONE:
        return pgettext(locale, "game:summer", "White has no pieces left")
    return npgettext(
        locale,
        "game:summer",
        "Ended by the move limit ({n} ply)",
        "Ended by the move limit ({n} plies)",
        state.max_plies,
    )


def seat_label(locale: str, number: int) -> str:
    """Return seat ``number``'s name as a player's default name (``White``)."""
    return seat(locale, number)


def result(state: SummerState, names: Sequence[str], locale: str) -> str:
    """Return the result sentence (see :func:`i18n.result_text`): the ending, then the score."""
    outcome = state.outcome()
    assert outcome is not None
    code = outcome.termination
    if is_agreed(code):
        return agreed_sentence(locale)
    if is_forfeit(code):
        return two_player_forfeit(code, outcome.winners[0], names, locale)
    white, black = outcome.scores
    ending = _ending(Termination(code), state, locale)
    if white == black:
        return pgettext(
            locale, "game:summer", "{ending}: the goal rows are level at {score}, a draw.", ending=ending, score=white
        )
    winner = seat(locale, 0 if white > black else 1)
    return pgettext(
        locale,
        "game:summer",
        "{ending}: {winner} wins {high} to {low}.",
        ending=ending,
        winner=winner,
        high=max(white, black),
        low=min(white, black),
    )


def _why(code: Termination, locale: str) -> str:
    """The status line's short reasons."""
    if code == Termination.BLACK_ARRIVED:
        return pgettext(locale, "game:summer", "all Black pieces on rank 1")
    if code == Termination.BLACK_GONE:
        return pgettext(locale, "game:summer", "Black has no pieces left")
    if code == Termination.LAST_MOVE:
        return pgettext(locale, "game:summer", "Black made its last move")
    if code == Termination.WHITE_HOME:
        return pgettext(locale, "game:summer", "Black stopped White's last piece")
    if code == Termination.WHITE_GONE:
        return pgettext(locale, "game:summer", "White has no pieces left")
    return pgettext(locale, "game:summer", "move limit reached")


def _outcome_clause(state: SummerState, names: Sequence[str], locale: str) -> str:
    """What the ply did to the pieces, as the second half of the chat line."""
    event = state.last_event
    assert event is not None
    who, other = names[event.player], names[1 - event.player]
    resident = abs(event.resident)
    survivor = event.survivor
    plus = state.terrain[event.move.to] > 0
    now = abs(event.result)
    if event.action == MOVED:
        if not event.modifier:
            return ""
        if event.zeroed:
            return pgettext(locale, "game:summer", " to a minus cell: it is removed")
        if plus:
            return pgettext(locale, "game:summer", " to a plus cell: now {now}", now=now)
        return pgettext(locale, "game:summer", " to a minus cell: now {now}", now=now)
    if event.action == MERGED:
        text = pgettext(
            locale,
            "game:summer",
            " onto its own {resident}: merged into {survivor}",
            resident=resident,
            survivor=survivor,
        )
    elif event.action == FIELD_WIN:
        text = pgettext(
            locale,
            "game:summer",
            " into {other}'s {resident} on a plus cell: the mover wins with {survivor}",
            other=other,
            resident=resident,
            survivor=survivor,
        )
    elif event.action == DESTROYED:
        if event.onto_own:
            text = pgettext(
                locale, "game:summer", " onto its own {resident}: equal weights, both removed", resident=resident
            )
        else:
            text = pgettext(
                locale,
                "game:summer",
                " onto {other}'s {resident}: equal weights, both removed",
                other=other,
                resident=resident,
            )
    elif event.survivor_owner == event.player:
        text = pgettext(
            locale,
            "game:summer",
            " into {other}'s {resident}: {who}'s piece survives with {survivor}",
            other=other,
            resident=resident,
            who=who,
            survivor=survivor,
        )
    else:
        text = pgettext(
            locale,
            "game:summer",
            " into {other}'s {resident}: {other}'s piece survives with {left}",
            other=other,
            resident=resident,
            left=now,
        )
    if event.zeroed:
        return text + pgettext(locale, "game:summer", "; the minus cell takes it to 0 and it is removed")
    if event.modifier:
        if plus:
            return text + pgettext(locale, "game:summer", "; the plus cell makes it {now}", now=now)
        return text + pgettext(locale, "game:summer", "; the minus cell makes it {now}", now=now)
    return text


def summary(state: SummerState, names: Sequence[str], locale: str) -> str:
    """Return the chat line of the last ply (see :func:`i18n.summary_text`).

    The line is one sentence ``{who} moved {frm}-{to} ({weight}){what}.``: ``{what}`` is one translated unit per
    kind of collision (with the cell's effect as a unit of its own), then a sentence for Black's last move.
    """
    event = state.last_event
    if event is None:
        return pgettext(locale, "game:summer", "The game has begun.")
    cells = state.geometry.names
    text = pgettext(
        locale,
        "game:summer",
        "{who} moved {frm}-{to} ({weight}){what}.",
        who=names[event.player],
        frm=cells[event.move.frm],
        to=cells[event.move.to],
        weight=event.weight,
        what=_outcome_clause(state, names, locale),
    )
    if state.black_last_move:
        if state.pieces_left(0):
            last = pgettext(locale, "game:summer", "All White pieces have arrived: Black has one last move.")
        else:
            last = pgettext(locale, "game:summer", "White has no pieces left: Black has one last move.")
        text = pgettext(locale, "game:common", "{line} {result}", line=text, result=last)
    return text


def status(state: SummerState, names: Sequence[str], locale: str) -> str:
    """Return the board's status line (see :func:`i18n.status_text`)."""
    outcome = state.outcome()
    if outcome is None:
        if state.black_last_move:
            if state.pieces_left(0):
                return pgettext(locale, "game:summer", "White has arrived: {name} has one last move", name=names[1])
            return pgettext(locale, "game:summer", "White has no pieces: {name} has one last move", name=names[1])
        return pgettext(
            locale,
            "game:summer",
            "{name} to move · move {move} · move limit {limit}",
            name=names[state.turn],
            move=state.ply + 1,
            limit=state.max_plies,
        )
    white, black = state.scores()
    code = outcome.termination
    if is_agreed(code):
        return agreed_status(locale)
    natural = not is_forfeit(code)
    if natural:
        # Black's last move may also have removed White's last piece: the picture says that.
        gone = code == Termination.LAST_MOVE and not state.pieces_left(0)
        why = _why(Termination.WHITE_GONE if gone else Termination(code), locale)
    else:
        why = two_player_reason(code, outcome.winners[0], names, locale)
    if len(outcome.winners) > 1:
        return pgettext(locale, "game:summer", "Draw {white} – {black} · {why}", white=white, black=black, why=why)
    name = names[outcome.winners[0]]
    if natural:
        return pgettext(
            locale,
            "game:summer",
            "{name} wins {high} – {low} · {why}",
            name=name,
            high=max(white, black),
            low=min(white, black),
            why=why,
        )
    return pgettext(locale, "game:summer", "{name} wins · {why}", name=name, why=why)


def _change(modifier: int, result: int, zeroed: bool, locale: str) -> str:
    """Describe the cell's ±1 on the mover's piece, e.g. ``", −1 → 7"`` (empty if none applied)."""
    if not modifier:
        return ""
    sign = "+" if modifier > 0 else MINUS
    if zeroed:
        return pgettext(locale, "game:summer", ", {sign}1 → 0, removed", sign=sign)
    return f", {sign}1 → {abs(result)}"


def caption(state: SummerState, names: Sequence[str], locale: str) -> str:
    """Return one short line about the last ply, e.g. ``Ana c1-b2: merged 3 + 5 = 8, −1 → 7``.

    It names the players, as the header rows and the status line do (the header shows who plays which colour).
    """
    event = state.last_event
    if event is None:
        return pgettext(locale, "game:summer", "White moves first · each side races to the far row")
    cells = state.geometry.names
    head = f"{names[event.player]} {cells[event.move.frm]}-{cells[event.move.to]}"
    weight, other = event.weight, abs(event.resident)
    change = _change(event.modifier, event.result, event.zeroed, locale)
    # The merged or surviving weight before the cell's ±1 (the engine's: a piece the −1 took to 0 weighed 1).
    survivor = event.survivor
    own = event.onto_own
    them = names[1 - event.player]
    if event.action == MOVED:
        return f"{head} ({weight})" + (f":{change[1:]}" if change else "")
    if event.action == MERGED:
        sign = "+" if weight < other else MINUS
        return pgettext(
            locale,
            "game:summer",
            "{head}: merged {weight} {sign} {other} = {survivor}{change}",
            head=head,
            weight=weight,
            sign=sign,
            other=other,
            survivor=survivor,
            change=change,
        )
    if event.action == DESTROYED:
        if own:
            return pgettext(
                locale,
                "game:summer",
                "{head}: {weight} onto own {other}, both removed",
                head=head,
                weight=weight,
                other=other,
            )
        return pgettext(
            locale,
            "game:summer",
            "{head}: {weight} onto {them}'s {other}, both removed",
            head=head,
            weight=weight,
            them=them,
            other=other,
        )
    if event.action == FIELD_WIN:
        return pgettext(
            locale,
            "game:summer",
            "{head}: field win {weight} + {other} = {survivor}{change}",
            head=head,
            weight=weight,
            other=other,
            survivor=survivor,
            change=change,
        )
    if event.survivor_owner == event.player:
        return pgettext(
            locale,
            "game:summer",
            "{head}: hit {them}'s {other}, {weight} − {other} = {survivor}{change}",
            head=head,
            them=them,
            weight=weight,
            other=other,
            survivor=survivor,
            change=change,
        )
    left = abs(event.result)
    return pgettext(
        locale,
        "game:summer",
        "{head}: {weight} hit {other}, {them} keeps {other} − {weight} = {left}",
        head=head,
        weight=weight,
        other=other,
        them=them,
        left=left,
    )


__all__ = ["MINUS", "SEATS", "caption", "result", "status", "summary"]


def header_facts(state: SummerState, player: int, locale: str) -> tuple[str, str, str]:
    """Return what one header row counts, each said in words: pieces left, pieces on the goal row, the score's label.

    E.g. ``("10 in play", "0 on goal", "score")`` (the score, the weight of the pieces on the goal row, follows the
    label). "All on goal" (what hands Black its last move, or ends the game) and "none left" are said as such.
    """
    pieces = state.pieces_left(player)
    arrived = state.pieces_home(player)
    left = npgettext(locale, "board", "{n} in play", "{n} in play", pieces)
    if not pieces:
        home = pgettext(locale, "board", "none left")
    elif arrived == pieces:
        home = pgettext(locale, "board", "all on goal")
    else:
        home = npgettext(locale, "board", "{n} on goal", "{n} on goal", arrived)
    return left, home, pgettext(locale, "board", "score")


# -- the board's alt text, the bot's words and the refusals' params (found by name: i18n.texts_for) ------------------


def position(state: SummerState, names: Sequence[str], language: str) -> str:
    """Alt text: each side's pieces by cell with their weights (``a1 3, b1 5``), and the plus and minus cells."""
    from i18n.describe import list_text, seat_text

    sides = (pgettext(language, "alt", "White"), pgettext(language, "alt", "Black"))
    parts = []
    for side, sign in ((0, 1), (1, -1)):
        pieces = [
            f"{state.cell_name(cell)} {value * sign}" for cell, value in enumerate(state.board) if value * sign > 0
        ]
        parts.append(f"{seat_text(language, names[side], sides[side])}: {list_text(language, pieces)}.")
    rows = []
    for rank in range(state.size):
        marks = "".join(
            "+" if m > 0 else "-" if m < 0 else "." for m in state.terrain[rank * state.size : (rank + 1) * state.size]
        )
        if marks.strip("."):
            rows.append(f"{rank + 1} {marks}")
    parts.append(
        pgettext(
            language,
            "alt",
            "Terrain by rank, file a first (+ plus, - minus, . plain): {rows}.",
            rows="; ".join(rows) or list_text(language, []),
        )
    )
    return " ".join(parts)


def seat_words(language: str) -> dict[str, str]:
    """Name the engine's seats (``white``, ``black``) as the bot's messages do ("Ana plays white")."""
    return {"white": pgettext(language, "seat", "white"), "black": pgettext(language, "seat", "black")}


def option_words(language: str) -> dict[str, str]:
    """The words of Summer's start options and of their fixed values."""
    return {
        "size": pgettext(language, "start option", "size"),
        "board": pgettext(language, "start option", "board"),
        "square": pgettext(language, "start option", "square"),
        "hex": pgettext(language, "start option", "hex"),
        "mode": pgettext(language, "start option", "mode"),
        "classic": pgettext(language, "start option", "classic"),
        "field": pgettext(language, "start option", "field"),
    }


_ERROR_SIDES = ("White", "Black")


def error_param(language: str, name: str, value: object) -> str | None:
    """Translate a refusal's param that is one of Summer's words (a side), or return ``None``."""
    if name in ("side", "own") and value in _ERROR_SIDES:
        return pgettext(language, "game:summer", str(value))
    return None


# -- a move picked by taps (bot.core.taps): each choice in words -------------------------------------------------------


def choice(state: SummerState, kind: str, fields: dict[str, str], language: str) -> str:
    """A move chosen so far, in words: the piece's weight and square, ``5 on c1``, then ``5: c1 → c2``."""
    cell = fields["from"]
    weight = abs(state.board[state.geometry.names.index(cell)])
    if "to" not in fields:
        return pgettext(language, "tap", "{weight} on {cell}", weight=weight, cell=cell)
    return f"{weight}: {cell} → {fields['to']}"


def puzzle_goal(language: str, solver: int, goal: str, gain: int) -> str:
    """What a puzzle asks of its solver, naming their side: to win the game, to gain ``gain`` on the score, or
    (``best``) to find the one move that keeps the win."""
    side = seat(language, solver)
    if goal == "win":
        return pgettext(language, "game:summer", "{side} to move and win the game", side=side)
    if goal == "gain" and gain > 0:
        return npgettext(
            language,
            "game:summer",
            "{side} to move and add {n} to the goal row",
            "{side} to move and add {n} to the goal row",
            gain,
            side=side,
        )
    return pgettext(language, "game:summer", "{side} to move: find the only move that keeps the win", side=side)
