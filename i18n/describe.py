"""Alt text for board pictures: what a screen reader says for a board, in the match's language.

:func:`alt_text` is the description attached to every board image the bot posts (Discord reads at most
1,024 characters): whose turn it is or the result (:func:`i18n.status_text`), the scores, what the last
ply did (:func:`i18n.summary_text`) and the position in compact text, one function per game reading the
engine's state: pieces by cell for Pond, Querni and Summer; each Azul player's pattern lines, wall and
floor, then the factories and the centre.  Words go through the catalog with the context ``alt``.

Pure: engine states and names in, text out.

>>> from engines import GAMES
>>> state = GAMES["pond"].new(variant="mini").play("place b2")
>>> print(position_text(state, ["Ana", "Bo"]))
Ana (Light): egg b2. Bo (Dark): none. Eggs to place: Ana 9, Bo 10.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import i18n
from i18n.catalog import npgettext, pgettext

LIMIT = 1024  # Discord's longest attachment description


def _list(language: str, items: Sequence[str]) -> str:
    """Items joined by commas, or the word for none."""
    return ", ".join(items) if items else pgettext(language, "alt", "none")


def _seat(language: str, name: str, seat: str) -> str:
    """A player with their side: ``Ana (light)``."""
    return pgettext(language, "alt", "{name} ({side})", name=name, side=seat)


# -- Pond ------------------------------------------------------------------------------------------------------------


def _pond_faces(language: str) -> tuple[str, str, str]:
    return (
        pgettext(language, "alt", "egg"),
        pgettext(language, "alt", "tadpole"),
        pgettext(language, "alt", "frog"),
    )


def _pond_sides(language: str) -> tuple[str, str]:
    return pgettext(language, "alt", "Light"), pgettext(language, "alt", "Dark")


def pond_position(state: Any, names: Sequence[str], language: str) -> str:
    """Each side's pieces by cell (``egg b2, frog c3``), then the eggs each still has to place."""
    from engines.pond import FACE, OWNER

    faces = _pond_faces(language)
    sides = _pond_sides(language)
    parts = []
    for seat in (0, 1):
        pieces = [
            f"{faces[FACE[value]]} {state.cell_name(cell)}"
            for cell, value in enumerate(state.board)
            if value and OWNER[value] == seat
        ]
        parts.append(f"{_seat(language, names[seat], sides[seat])}: {_list(language, pieces)}.")
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


# -- Querni ----------------------------------------------------------------------------------------------------------


def querni_position(state: Any, names: Sequence[str], language: str) -> str:
    """Each side's numbered pieces in order with their squares (``1 c3, 2 d4``), and the draw counter."""
    from engines.querni import COLOUR, NUMBER

    sides = (pgettext(language, "alt", "Blue"), pgettext(language, "alt", "Red"))
    parts = []
    for seat in (0, 1):
        pieces = sorted(
            (NUMBER[value], state.cell_name(cell))
            for cell, value in enumerate(state.board)
            if value and COLOUR[value] == seat
        )
        listed = [f"{number} {square}" for number, square in pieces]
        parts.append(f"{_seat(language, names[seat], sides[seat])}: {_list(language, listed)}.")
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


# -- Summer ----------------------------------------------------------------------------------------------------------


def summer_position(state: Any, names: Sequence[str], language: str) -> str:
    """Each side's pieces by cell with their weights (``a1 3, b1 5``), and the plus and minus cells."""
    sides = (pgettext(language, "alt", "White"), pgettext(language, "alt", "Black"))
    parts = []
    for seat, sign in ((0, 1), (1, -1)):
        pieces = [
            f"{state.cell_name(cell)} {value * sign}" for cell, value in enumerate(state.board) if value * sign > 0
        ]
        parts.append(f"{_seat(language, names[seat], sides[seat])}: {_list(language, pieces)}.")
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
            rows="; ".join(rows) or _list(language, []),
        )
    )
    return " ".join(parts)


# -- Azul ------------------------------------------------------------------------------------------------------------


def _azul_colours(language: str) -> tuple[str, ...]:
    return (
        pgettext(language, "alt", "blue"),
        pgettext(language, "alt", "yellow"),
        pgettext(language, "alt", "red"),
        pgettext(language, "alt", "black"),
        pgettext(language, "alt", "white"),
    )


def _tiles(language: str, counts: Sequence[int], colours: Sequence[str]) -> list[str]:
    """Tile counts by colour: ``2 blue``."""
    return [
        pgettext(language, "alt", "{count} {colour}", count=count, colour=colours[colour])
        for colour, count in enumerate(counts)
        if count
    ]


def _azul_board(language: str, board: Any, name: str, colours: Sequence[str], brief: bool) -> str:
    from engines.azul import MARKER

    lines = []
    for row, (colour, count) in enumerate(zip(board.line_colours, board.line_counts, strict=True)):
        if count:
            lines.append(f"{row + 1} {count}/{row + 1} {colours[colour]}")
    if brief:  # how many tiles each wall row holds
        wall = [str(sum(1 for v in board.wall[row * 5 : row * 5 + 5] if v >= 0)) for row in range(5)]
        wall_text = pgettext(language, "alt", "wall tiles by row {rows}", rows=" ".join(wall))
    else:
        rows = []
        for row in range(5):
            placed = [colours[v] for v in board.wall[row * 5 : row * 5 + 5] if v >= 0]
            if placed:
                rows.append(f"{row + 1} {' '.join(placed)}")
        wall_text = pgettext(language, "alt", "wall {rows}", rows="; ".join(rows) or _list(language, []))
    floor = [pgettext(language, "alt", "marker") if v == MARKER else colours[v] for v in board.floor]
    return pgettext(
        language,
        "alt",
        "{name}: lines {lines}; {wall}; floor {floor}.",
        name=name,
        lines=_list(language, lines),
        wall=wall_text,
        floor=_list(language, floor),
    )


def azul_position(state: Any, names: Sequence[str], language: str, *, brief: bool = False) -> str:
    """Each player's pattern lines, wall and floor; then the factories and the centre.

    ``brief`` counts the wall's tiles by row instead of naming them (for the largest positions).
    """
    colours = _azul_colours(language)
    parts = [_azul_board(language, board, names[seat], colours, brief) for seat, board in enumerate(state.boards)]
    factories = [
        f"{number} {' '.join(_tiles(language, counts, colours))}"
        for number, counts in enumerate(state.factories, 1)
        if any(counts)
    ]
    centre = _tiles(language, state.centre, colours)
    if state.marker < 0:
        centre.append(pgettext(language, "alt", "marker"))
    parts.append(pgettext(language, "alt", "Factories: {factories}.", factories=_list(language, factories)))
    parts.append(pgettext(language, "alt", "Centre: {tiles}.", tiles=_list(language, centre)))
    return " ".join(parts)


POSITIONS: dict[str, Callable[[Any, Sequence[str], str], str]] = {
    "pond": pond_position,
    "querni": querni_position,
    "summer": summer_position,
    "azul": azul_position,
}


def position_text(state: Any, names: Sequence[str] | None = None, language: str = "en") -> str:
    """Return the position of ``state`` as compact text in ``language``."""
    return POSITIONS[state.game](state, _names(state, names), language)


def position_forms(state: Any, names: Sequence[str], language: str) -> list[str]:
    """The position's texts, fullest first: Azul's may count the wall's tiles and number the players.

    The scores line names the players in seat order, so ``Player 2`` still says who.
    """
    forms = [POSITIONS[state.game](state, names, language)]
    if state.game == "azul":
        numbered = [pgettext(language, "alt", "Player {n}", n=seat + 1) for seat in range(len(names))]
        forms.append(azul_position(state, names, language, brief=True))
        forms.append(azul_position(state, numbered, language, brief=True))
    return forms


def _names(state: Any, names: Sequence[str] | None) -> list[str]:
    seats = i18n.seat_labels(state)
    given = list(names or ())[: state.players]
    return given + seats[len(given) :]


def scores_text(state: Any, names: Sequence[str], language: str) -> str:
    """``Scores: Ana 3, Bo 2.``"""
    listed = ", ".join(f"{name} {score}" for name, score in zip(names, state.scores(), strict=False))
    return pgettext(language, "alt", "Scores: {scores}.", scores=listed)


def _clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def alt_text(state: Any, names: Sequence[str] | None = None, language: str = "en", *, limit: int = LIMIT) -> str:
    """Return the board's description: status, scores, the last ply and the position, at most ``limit`` long.

    The position is never cut while it fits: the most complete of :func:`position_forms` that fits is
    used, and the last ply's sentence (an Azul round's scoring can be long) is cut
    to the room left, with an ellipsis.
    """
    seats = _names(state, names)
    lead = " ".join(
        _sentence(part)
        for part in (i18n.status_text(state, seats, language), scores_text(state, seats, language))
        if part.strip()
    )
    forms = position_forms(state, seats, language)
    position = next((form for form in forms if len(lead) + len(form) + 1 <= limit), forms[-1])
    room = limit - len(lead) - len(position) - 2
    if state.ply > 0 and state.last_event is not None and room > 0:
        summary = _sentence(i18n.summary_text(state, seats, language))
        if summary:
            lead = f"{lead} {_clip(summary, room)}"
    return _clip(f"{lead} {position}", limit)


def _sentence(text: str) -> str:
    text = text.strip()
    return text if not text or text.endswith((".", "!", "?", "…")) else text + "."
