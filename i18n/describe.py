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
Ana (light): egg b2. Bo (dark): none. Eggs to place: Ana 9, Bo 10.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import i18n
from i18n.catalog import npgettext, pgettext

LIMIT = 1024  # Discord's longest attachment description
CONTEXT = "alt"


def _list(language: str, items: Sequence[str]) -> str:
    """Items joined by commas, or the word for none."""
    return ", ".join(items) if items else pgettext(language, CONTEXT, "none")


def _seat(language: str, name: str, seat: str) -> str:
    """A player with their side: ``Ana (light)``."""
    return pgettext(language, CONTEXT, "{name} ({side})", name=name, side=seat)


# -- Pond ------------------------------------------------------------------------------------------------------------


def _pond_faces(language: str) -> tuple[str, str, str]:
    return (
        pgettext(language, CONTEXT, "egg"),
        pgettext(language, CONTEXT, "tadpole"),
        pgettext(language, CONTEXT, "frog"),
    )


def _pond_sides(language: str) -> tuple[str, str]:
    return pgettext(language, CONTEXT, "light"), pgettext(language, CONTEXT, "dark")


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
        CONTEXT,
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

    sides = (pgettext(language, CONTEXT, "blue"), pgettext(language, CONTEXT, "red"))
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
            CONTEXT,
            "{n} ply without a removal.",
            "{n} plies without a removal.",
            state.counter,
        )
    )
    return " ".join(parts)


# -- Summer ----------------------------------------------------------------------------------------------------------


def summer_position(state: Any, names: Sequence[str], language: str) -> str:
    """Each side's pieces by cell with their weights (``a1 3, b1 5``), and the plus and minus cells."""
    sides = (pgettext(language, CONTEXT, "white"), pgettext(language, CONTEXT, "black"))
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
            CONTEXT,
            "Terrain by rank, file a first (+ plus, - minus, . plain): {rows}.",
            rows="; ".join(rows) or _list(language, []),
        )
    )
    return " ".join(parts)


# -- Azul ------------------------------------------------------------------------------------------------------------


def _azul_colours(language: str) -> tuple[str, ...]:
    return (
        pgettext(language, CONTEXT, "blue"),
        pgettext(language, CONTEXT, "yellow"),
        pgettext(language, CONTEXT, "red"),
        pgettext(language, CONTEXT, "black"),
        pgettext(language, CONTEXT, "white"),
    )


def _tiles(language: str, counts: Sequence[int], colours: Sequence[str]) -> list[str]:
    """Tile counts by colour: ``2 blue``."""
    return [f"{count} {colours[colour]}" for colour, count in enumerate(counts) if count]


def _azul_board(language: str, board: Any, name: str, colours: Sequence[str], brief: bool) -> str:
    from engines.azul import MARKER

    lines = []
    for row, (colour, count) in enumerate(zip(board.line_colours, board.line_counts, strict=True)):
        if count:
            lines.append(f"{row + 1} {count}/{row + 1} {colours[colour]}")
    if brief:  # how many tiles each wall row holds
        wall = [str(sum(1 for v in board.wall[row * 5 : row * 5 + 5] if v >= 0)) for row in range(5)]
        wall_text = pgettext(language, CONTEXT, "wall tiles by row {rows}", rows=" ".join(wall))
    else:
        rows = []
        for row in range(5):
            placed = [colours[v] for v in board.wall[row * 5 : row * 5 + 5] if v >= 0]
            if placed:
                rows.append(f"{row + 1} {' '.join(placed)}")
        wall_text = pgettext(language, CONTEXT, "wall {rows}", rows="; ".join(rows) or _list(language, []))
    floor = [pgettext(language, CONTEXT, "marker") if v == MARKER else colours[v] for v in board.floor]
    return pgettext(
        language,
        CONTEXT,
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
        centre.append(pgettext(language, CONTEXT, "marker"))
    parts.append(pgettext(language, CONTEXT, "Factories: {factories}.", factories=_list(language, factories)))
    parts.append(pgettext(language, CONTEXT, "Centre: {tiles}.", tiles=_list(language, centre)))
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


def _names(state: Any, names: Sequence[str] | None) -> list[str]:
    seats = i18n.seat_labels(state)
    given = list(names or ())[: state.players]
    return given + seats[len(given) :]


def scores_text(state: Any, names: Sequence[str], language: str) -> str:
    """``Scores: Ana 3, Bo 2.``"""
    listed = ", ".join(f"{name} {score}" for name, score in zip(names, state.scores(), strict=False))
    return pgettext(language, CONTEXT, "Scores: {scores}.", scores=listed)


def _clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def alt_text(state: Any, names: Sequence[str] | None = None, language: str = "en", *, limit: int = LIMIT) -> str:
    """Return the board's description: status, scores, the last ply and the position, at most ``limit`` long.

    The position is never cut while it fits: the Azul wall is counted by row instead of named when the
    full text would be too long, and the last ply's sentence (an Azul round's scoring can be long) is cut
    to the room left, with an ellipsis.
    """
    seats = _names(state, names)
    lead = " ".join(
        _sentence(part)
        for part in (i18n.status_text(state, seats, language), scores_text(state, seats, language))
        if part.strip()
    )
    position = POSITIONS[state.game](state, seats, language)
    if len(lead) + len(position) + 2 > limit and state.game == "azul":
        position = azul_position(state, seats, language, brief=True)
    room = limit - len(lead) - len(position) - 2
    if state.ply > 0 and state.last_event is not None and room > 0:
        summary = _sentence(i18n.summary_text(state, seats, language))
        if summary:
            lead = f"{lead} {_clip(summary, room)}"
    return _clip(f"{lead} {position}", limit)


def _sentence(text: str) -> str:
    text = text.strip()
    return text if not text or text.endswith((".", "!", "?", "…")) else text + "."
