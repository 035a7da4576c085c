"""``/azul``: start (two to four players), take, wall (grey wall), and the shared subcommands.

Every move goes through :meth:`bot.commands.ui.MatchUI.play` as the engine's notation
(``f3 red 4``, ``c blue floor``, ``wall 3 c2``), so the engine checks it.  The
autocomplete lists come from ``state.legal_moves()``, narrowed by what the
player already put in the command's other options: the sources that hold tiles,
the colours in the chosen source, the pattern lines that can take the colour and
the floor, and on the grey wall the columns the line may go to.  What a choice
would do (tiles falling to the floor, points for a wall column) is read from the
engine by playing the move on the current state, never worked out here.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

from discord import app_commands

from bot.games.common import (
    MoveOption,
    StartOption,
    add_common_commands,
    add_move_command,
    add_start_command,
    labelled,
    new_group,
)
from engines.azul import (
    CENTRE,
    COLOUR_BONUS,
    COLOURS,
    COLUMN_BONUS,
    DEFAULT_MAX_ROUNDS,
    FLOOR,
    FLOOR_PENALTIES,
    FLOOR_SPACES,
    LETTERS,
    MOVES,
    ROW_BONUS,
    SPEC,
    AzulMove,
    AzulState,
)
from i18n.catalog import DEFAULT, gettext, pgettext

if TYPE_CHECKING:
    from bot.commands.ui import MatchUI

GAME = "azul"

RULES = (
    f"**Azul** — {SPEC.min_players} to {SPEC.max_players} players draft coloured tiles to fill pattern lines and "
    "tile a wall. Most points wins.\n"
    "**Your turn**: take **all** tiles of one colour from one factory (`f1`, `f2`…; the rest of it slides to the "
    "centre) or from the centre (`c`; the first to do so this round also takes the **1** marker onto their floor "
    "and starts the next round). Put them all in **one** pattern line, or on the floor.\n"
    "• Line *n* holds *n* tiles of one colour, never a colour its wall row already has. Tiles that do not fit "
    f"fall to the floor ({' '.join(f'−{points}' for points in FLOOR_PENALTIES)}); past {FLOOR_SPACES} they go to "
    "the lid.\n"
    "**End of a round** (factories and centre empty): each full line moves one tile to its wall row (the "
    "rest go to the lid) and scores it: 1 alone, else the length of its row run plus its column run (each "
    "counted when 2 or more). Then the floor costs its points (never below 0).\n"
    f"**End**: after the round in which someone completes a wall row. Bonuses: +{ROW_BONUS} per complete row, "
    f"+{COLUMN_BONUS} per column, +{COLOUR_BONUS} per colour with all five tiles. Ties: more complete rows wins, "
    f"else shared. Safety rules: the game also ends after {DEFAULT_MAX_ROUNDS} rounds, or when no tile is left to "
    "fill the factories.\n"
    "**Grey wall** (`wall: grey`): a tile may go in any column of its row where its colour is not yet in that "
    "column; you choose with `/azul wall line:3 column:2` (no such column: the tiles fall to the floor).\n"
    "**Commands**: `/azul take source:f3 color:red line:4` · `/azul take source:c color:blue line:floor`. "
    "Autocomplete offers only legal choices. Letters on the board: **B** blue, **Y** yellow, **R** red, "
    "**K** black, **W** white.\n"
    "A player who resigns in a 3- or 4-player game leaves it and ranks last; the others play on."
)

# The names of the engine's wall sides (the engine gives the values, their order and the default).
WALLS = {
    "colour": "Colour: each colour has its printed space",
    "grey": "Grey: choose the column when a line is tiled",
}


def _takes(state: AzulState, given: Mapping[str, str], field: str) -> list[tuple[AzulMove, dict[str, str]]]:
    """Return the legal takes (with their fields) that agree with what the player chose in the other options."""
    return MOVES.matching(state, "take", MOVES.read("take", {k: v for k, v in given.items() if k != field}))


def colour_word(colour: int, language: str = DEFAULT) -> str:
    """Name a tile colour in ``language`` (the option's value stays the English name)."""
    words = (
        pgettext(language, "tile colour", "blue"),
        pgettext(language, "tile colour", "yellow"),
        pgettext(language, "tile colour", "red"),
        pgettext(language, "tile colour", "black"),
        pgettext(language, "tile colour", "white"),
    )
    english = ("blue", "yellow", "red", "black", "white")
    name = COLOURS[colour]
    return words[english.index(name)] if name in english else name


def _tiles_phrase(counts: tuple[int, ...], language: str = DEFAULT) -> str:
    """Say tile counts by colour: ``2 red, 1 blue`` (most first)."""
    order = sorted((k for k in range(5) if counts[k]), key=lambda k: (-counts[k], k))
    return ", ".join(f"{counts[k]} {colour_word(k, language)}" for k in order)


def source_choices(
    state: AzulState, given: Mapping[str, str], typed: str, language: str = DEFAULT
) -> list[app_commands.Choice[str]]:
    """Offer the factories holding tiles and the centre, narrowed by a chosen colour and line."""
    sources = dict.fromkeys((move.source, fields["source"]) for move, fields in _takes(state, given, "source"))
    items = []
    for source, value in sorted(sources, key=lambda s: (s[0] == CENTRE, s[0])):  # factories first, as on the board
        if source == CENTRE:
            tiles = _tiles_phrase(state.centre, language)
            if state.marker < 0:
                label = gettext(language, "c · centre: {tiles} + first-player marker", tiles=tiles)
            else:
                label = gettext(language, "c · centre: {tiles}", tiles=tiles)
            items.append((value, label))
        else:
            items.append((value, f"{value} · {_tiles_phrase(state.factories[source - 1], language)}"))
    return labelled(items, typed)


def colour_choices(
    state: AzulState, given: Mapping[str, str], typed: str, language: str = DEFAULT
) -> list[app_commands.Choice[str]]:
    """Offer the colours the chosen source holds (any source's before one is chosen), narrowed by a chosen line."""
    chosen = MOVES.read("take", {"source": given.get("source", "")}).get("source")
    moves = _takes(state, given, "colour")
    items = []
    for colour in sorted({move.colour for move, _ in moves}):
        name, letter = COLOURS[colour], LETTERS[colour].upper()
        word = colour_word(colour, language)
        sources = sorted({(move.source, fields["source"]) for move, fields in moves if move.colour == colour})
        if chosen is not None:
            source = sources[0][0]
            count = state.centre[colour] if source == CENTRE else state.factories[source - 1][colour]
            label = gettext(
                language,
                "{colour} ({letter}) · {count} in {source}",
                colour=word,
                letter=letter,
                count=count,
                source=chosen,
            )
        else:
            where = ", ".join(value for _, value in sources)
            label = gettext(language, "{colour} ({letter}) · in {sources}", colour=word, letter=letter, sources=where)
        items.append((name, label))
    return labelled(items, typed)


def line_choices(
    state: AzulState, given: Mapping[str, str], typed: str, language: str = DEFAULT
) -> list[app_commands.Choice[str]]:
    """Offer the pattern lines that can take the chosen colour, and the floor, saying what each would do."""
    chosen = MOVES.read("take", {k: v for k, v in given.items() if k != "line"})
    board = state.boards[state.turn]
    items = []
    for move, fields in sorted(_takes(state, given, "line"), key=lambda found: found[0].line):
        line = move.line
        if line == FLOOR:
            free = FLOOR_SPACES - len(board.floor)
            label = gettext(language, "floor ({free} of {spaces} free)", free=free, spaces=FLOOR_SPACES)
        else:
            held, held_colour = board.line_counts[line - 1], board.line_colours[line - 1]
            if held:
                label = gettext(
                    language,
                    "line {line} (has {held} {colour}, {free} of {line} free)",
                    line=line,
                    held=held,
                    colour=colour_word(held_colour, language),
                    free=line - held,
                )
            else:
                label = gettext(language, "line {line} ({free} of {line} free)", line=line, free=line - held)
        # Only with the source and colour known is the move itself known: then the engine says where the tiles go.
        if "source" in chosen and "colour" in chosen:
            label += _consequence(state, move, language)
        items.append((fields["line"], label))
    return labelled(items, typed)


def _consequence(state: AzulState, move: AzulMove, language: str = DEFAULT) -> str:
    """Say what the engine does with ``move``'s tiles beyond its line: ``: 2 to the floor, 1 to the lid``."""
    event = state.play(move).last
    if event is None:
        return ""
    parts = []
    if event.move is not None and event.move.line != FLOOR and event.to_floor:
        parts.append(gettext(language, "{n} to the floor", n=event.to_floor))
    if event.to_lid:
        parts.append(gettext(language, "{n} to the lid", n=event.to_lid))
    if event.marker:
        parts.append(gettext(language, "with the marker"))
    return f": {', '.join(parts)}" if parts else ""


def wall_line_choices(
    state: AzulState, given: Mapping[str, str], typed: str, language: str = DEFAULT
) -> list[app_commands.Choice[str]]:
    """Offer the pattern line waiting to be tiled on the grey wall."""
    lines = dict.fromkeys((move.line, move.colour) for move, _ in MOVES.matching(state, "wall", {}))
    items = [
        (str(line), gettext(language, "line {line} · {line} {colour}", line=line, colour=colour_word(colour, language)))
        for line, colour in lines
    ]
    return labelled(items, typed)


def wall_column_choices(
    state: AzulState, given: Mapping[str, str], typed: str, language: str = DEFAULT
) -> list[app_commands.Choice[str]]:
    """Offer the wall columns the waiting line may go to, with the points the engine would score there."""
    items = []
    for move, fields in MOVES.matching(state, "wall", MOVES.read("wall", {"line": given.get("line", "")})):
        event = state.play(move).last
        points = next((p.points for p in event.placements if p.player == state.turn), 0) if event else 0
        items.append(
            (fields["column"], gettext(language, "column {column} (+{points})", column=move.column, points=points))
        )
    # What was typed is read as the engine reads a column ("c2" is 2); a column's word alone ("c") names none yet.
    column = MOVES.kind("wall").field("column").read(typed)
    return labelled(items, "".join(filter(str.isdigit, typed)) if column is None else column)


def build(ui: MatchUI) -> app_commands.Group:
    """Build the ``/azul`` command group."""
    group = new_group(GAME, "Azul: draft tiles from the factories, fill your pattern lines, tile your wall.")

    add_start_command(
        group,
        GAME,
        ui,
        description="Challenge one to three people (or me) in this channel to Azul.",
        opponent_help="Who you challenge (pick me, Tabula, to play the computer)",
        options=[StartOption.from_spec(GAME, "wall", "Wall side (default Colour)", WALLS)],
    )
    add_move_command(
        group,
        GAME,
        ui,
        "take",
        description="Take all tiles of one colour from a factory or the centre.",
        options={
            "source": MoveOption("A factory like f3, or c for the centre", 16, labels=source_choices),
            "colour": MoveOption(
                "The colour to take: blue, yellow, red, black or white", 16, name="color", labels=colour_choices
            ),
            "line": MoveOption("The pattern line 1 to 5 to put them in, or floor", 16, labels=line_choices),
        },
    )
    add_move_command(
        group,
        GAME,
        ui,
        "wall",
        description="Grey wall: choose the column for the pattern line being tiled.",
        options={
            "line": MoveOption("The pattern line being tiled, 1 to 5", 16, labels=wall_line_choices),
            "column": MoveOption("The wall column, 1 to 5", 16, labels=wall_column_choices),
        },
    )
    add_common_commands(group, GAME, ui, rules_text=RULES)
    return group
