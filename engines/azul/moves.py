"""How a player names an Azul move: the words it is read with, the reading, and the fields of a move.

Every way of entering a move reads it here: ``parse_move`` reads a whole move's text, and :data:`MOVES`
describes a move by its fields (a take's ``source``, ``colour`` and ``line``; a grey-wall tiling's ``line``
and ``column``), each with a reader built on the same words, so a command's options, its autocomplete and
the move text accept the same things.  Besides the notation of the module docstring, a destination may
be written ``floor line``, and a source given alone as a factory's number (``3``).

>>> from engines.azul import new
>>> state = new(players=2, seed=16, first_player=0)
>>> MOVES.complete(state, "take", {"source": "Factory 1", "colour": "Y"})["line"]
('1', '2', '3', '4', '5', 'floor')
>>> MOVES.move_of(state, "take", {"source": "1", "colour": "yellow", "line": "floor line"})
AzulMove(source=1, colour=1, line=6, column=0)
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import TYPE_CHECKING

from engines.azul.tables import BLACK, CENTRE, COLOURS, FLOOR, LETTERS, TILING, WALL, WHITE, YELLOW, AzulMove
from engines.base import InvalidMoveText
from engines.moves import MoveField, MoveForm, MoveKind, field_text

if TYPE_CHECKING:
    from engines.azul.state import AzulState

# -- reading move text -----------------------------------------------------------

_ALLOWED_TEXT = re.compile(r"[a-z0-9 ,>:.\-]*")
_TOKEN = re.compile(r"[a-z]+|\d+")
_FILLER = frozenset(("take", "takes", "all", "the", "from", "to", "into", "onto", "on", "in", "tiles", "of", "and"))
_CENTRE_WORDS = frozenset(("c", "centre", "center", "middle", "mid"))
_FACTORY_WORDS = frozenset(("f", "factory", "fac", "fact", "display"))
_FLOOR_WORDS = frozenset(("floor", "f", "fl", "flr", "floorline"))
_LINE_WORDS = frozenset(("line", "l", "ln", "row", "pattern", "patternline"))
_WALL_WORDS = frozenset(("wall", "w", "tile", "place"))
_COLUMN_WORDS = frozenset(("c", "col", "column"))
_COLOUR_WORDS: dict[str, int] = {}
for _k, _name in enumerate(COLOURS):
    _COLOUR_WORDS.update({_name: _k, _name + "s": _k, LETTERS[_k]: _k})
_COLOUR_WORDS.update({"blk": BLACK, "yel": YELLOW, "wht": WHITE})


# -- reading a move's text --------------------------------------------------------


def parse_move(state: AzulState, text: str) -> AzulMove:
    """Read a move leniently (case, spaces, words like 'factory' or 'line'); raise :class:`GameError`."""
    if not isinstance(text, str):
        raise InvalidMoveText(
            "A move must be text; "
            "write a move like 'f3 red 4' (factory 3, all red, to pattern line 4) or 'c blue floor'."
        )
    clean = " ".join(text.lower().split())
    if len(clean) > 40:
        raise InvalidMoveText(
            "That move is too long; "
            "write a move like 'f3 red 4' (factory 3, all red, to pattern line 4) or 'c blue floor'."
        )
    if not _ALLOWED_TEXT.fullmatch(clean):
        raise InvalidMoveText(
            "I can't read {text!r}; "
            "write a move like 'f3 red 4' (factory 3, all red, to pattern line 4) or 'c blue floor'.",
            text=text.strip()[:40],
        )
    tokens = [t for t in _TOKEN.findall(clean) if t not in _FILLER]
    if not tokens:
        raise InvalidMoveText(
            "That move is empty; "
            "write a move like 'f3 red 4' (factory 3, all red, to pattern line 4) or 'c blue floor'."
        )
    first = tokens[0]
    # "w" alone is white; "w3 c2" (w then a number) is a wall move.
    walled = first in _WALL_WORDS and (first != "w" or (len(tokens) > 1 and tokens[1].isdigit()))
    tiling = state.phase == TILING and (first in _COLUMN_WORDS or first in _LINE_WORDS or first.isdigit())
    if walled or tiling:
        return _parse_wall(state, tokens, text)
    return _parse_take(state, tokens, text)


def _parse_take(state: AzulState, tokens: list[str], text: str) -> AzulMove:
    # Either "source colour destination" (f3 red 4) or "colour source destination" (red from f3 to 4):
    # colour words and source words never overlap, so the order is never ambiguous.
    colour = _COLOUR_WORDS.get(tokens[0])
    if colour is None and len(tokens) > 1 and (tokens[1] in _CENTRE_WORDS or tokens[1] in _FACTORY_WORDS):
        raise InvalidMoveText(
            "{word!r} is not a tile colour; the colours are blue, yellow, red, black or white (b, y, r, k, w).",
            word=tokens[0],
        )
    if colour is not None:
        source, rest = _parse_source(state, tokens[1:])
    else:
        source, rest = _parse_source(state, tokens)
        if not rest:
            raise InvalidMoveText("Say which colour to take: blue, yellow, red, black or white (b, y, r, k, w).")
        colour = _COLOUR_WORDS.get(rest[0])
        if colour is None:
            raise InvalidMoveText(
                "{word!r} is not a tile colour; the colours are blue, yellow, red, black or white (b, y, r, k, w).",
                word=rest[0],
            )
        rest = rest[1:]
    if rest and rest[0] in _FLOOR_WORDS and all(t in _LINE_WORDS for t in rest[1:]):  # "floor", "floor line"
        return AzulMove(source, colour, FLOOR)
    while rest and rest[0] in _LINE_WORDS:  # "line 4", "pattern line 4"
        rest = rest[1:]
    if len(rest) == 1 and rest[0].isdigit():
        line = int(rest[0])
        if not 1 <= line <= 5:
            raise InvalidMoveText("Pattern lines are numbered 1 to 5 from the top; or write 'floor'.")
        return AzulMove(source, colour, line)
    if not rest:
        raise InvalidMoveText("Say where the tiles go: a pattern line 1 to 5 or 'floor'.")
    raise InvalidMoveText(
        "I can't read {text!r}; "
        "write a move like 'f3 red 4' (factory 3, all red, to pattern line 4) or 'c blue floor'.",
        text=text.strip()[:40],
    )


def _parse_source(state: AzulState, tokens: list[str]) -> tuple[int, list[str]]:
    """Read the centre or a factory at the start of ``tokens``; return it and the tokens after it."""
    if tokens and tokens[0] in _CENTRE_WORDS:
        return CENTRE, tokens[1:]
    if len(tokens) > 1 and tokens[0] in _FACTORY_WORDS and tokens[1].isdigit():
        factories = len(state.factories)
        source = int(tokens[1])
        if not 1 <= source <= factories:
            raise InvalidMoveText(
                "There is no factory {source}; this game has factories 1 to {factories}.",
                source=source,
                factories=factories,
            )
        return source, tokens[2:]
    raise InvalidMoveText(
        "Say where you take from, a factory like 'f3' or the centre 'c'; "
        "write a move like 'f3 red 4' (factory 3, all red, to pattern line 4) or 'c blue floor'."
    )


def _parse_wall(state: AzulState, tokens: list[str], text: str) -> AzulMove:
    if tokens[0] in _WALL_WORDS or tokens[0] in _LINE_WORDS:
        tokens = tokens[1:]
    numbers = [t for t in tokens if t not in _COLUMN_WORDS and t not in _LINE_WORDS]
    if not all(t.isdigit() for t in numbers) or not 1 <= len(numbers) <= 2:
        raise InvalidMoveText(
            "I can't read {text!r}; tile a line like 'wall 3 c2' (line 3 to column 2).", text=text.strip()[:40]
        )
    if state.phase != TILING:
        raise state._not_tiling()
    pending = state.pending_line()
    line = int(numbers[0]) if len(numbers) == 2 else pending
    column = int(numbers[-1])
    if not 1 <= line <= 5 or not 1 <= column <= 5:
        raise InvalidMoveText("Wall rows and columns are numbered 1 to 5.")
    return AzulMove(WALL, state.boards[state.turn].line_colours[line - 1], line, column)


# -- the fields of a move ----------------------------------------------------------


def _words(text: str) -> list[str]:
    """Return the tokens of a field's text."""
    return _TOKEN.findall(field_text(text))


def read_source(text: str) -> str | None:
    """Read a take's source: ``c`` for the centre, ``f3`` for factory 3 (``Factory 3``, ``fac3`` or ``3``)."""
    tokens = _words(text)
    if len(tokens) == 1 and tokens[0] in _CENTRE_WORDS:
        return "c"
    if tokens and tokens[0] in _FACTORY_WORDS:
        tokens = tokens[1:]
    return f"f{int(tokens[0])}" if len(tokens) == 1 and tokens[0].isdigit() else None


def read_colour(text: str) -> str | None:
    """Read a tile colour by its first word: a name (``red``, ``reds``), a letter (``r``, ``k`` for black)."""
    tokens = _words(text)
    colour = _COLOUR_WORDS.get(tokens[0], _COLOUR_WORDS.get(tokens[0].removesuffix("s"))) if tokens else None
    return None if colour is None else COLOURS[colour]


def read_line(text: str) -> str | None:
    """Read a take's destination: a pattern line ``1`` to ``5`` (``line 4``) or ``floor`` (``floor line``)."""
    tokens = _words(text)
    if tokens and tokens[0] in _FLOOR_WORDS and all(t in _LINE_WORDS for t in tokens[1:]):
        return "floor"
    return _number(tokens, _LINE_WORDS)


def read_row(text: str) -> str | None:
    """Read the pattern line a grey-wall tiling empties: ``3`` (``line 3``)."""
    return _number(_words(text), _LINE_WORDS)


def read_column(text: str) -> str | None:
    """Read a wall column: ``2`` (``c2``, ``column 2``)."""
    return _number(_words(text), _COLUMN_WORDS)


def _number(tokens: list[str], words: frozenset[str]) -> str | None:
    """Return the one number of ``tokens`` after any of ``words``, without leading zeros; None if there is none."""
    while tokens and tokens[0] in words:
        tokens = tokens[1:]
    return str(int(tokens[0])) if len(tokens) == 1 and tokens[0].isdigit() else None


def _take_text(fields: Mapping[str, str]) -> str:
    """Return a take's text: ``f3 red 4`` (a factory given as a bare number is that factory)."""
    source = fields.get("source", "").strip()
    if source.isdigit():
        source = f"f{source}"
    return f"{source} {fields.get('colour', '').strip()} {fields.get('line', '').strip()}"


def _wall_text(fields: Mapping[str, str]) -> str:
    return f"wall {fields.get('line', '').strip()} {fields.get('column', '').strip()}"


def _describe(state: AzulState, move: AzulMove) -> tuple[str, dict[str, str]]:
    source, colour, line, column = move
    if source == WALL:
        return "wall", {"line": str(line), "column": str(column)}
    where = "c" if source == CENTRE else f"f{source}"
    return "take", {"source": where, "colour": COLOURS[colour], "line": "floor" if line == FLOOR else str(line)}


MOVES = MoveForm(
    kinds=(
        MoveKind(
            "take",
            (MoveField("source", read_source), MoveField("colour", read_colour), MoveField("line", read_line)),
            _take_text,
            any_order=True,
            taps=(("source", "colour"), ("line",)),  # "3 blue from factory 4", then where they go
        ),
        MoveKind(
            "wall",
            (MoveField("line", read_row), MoveField("column", read_column)),
            _wall_text,
            taps=(("line", "column"),),  # a line and its column are one choice: at most 25
        ),
    ),
    describe=_describe,
)
