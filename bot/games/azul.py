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

import re
from collections.abc import Iterable
from typing import TYPE_CHECKING

import discord
from discord import app_commands

from bot.commands.ui import user_language
from bot.games.common import StartOption, add_common_commands, add_start_command, new_group, typed_option
from engines.azul import CENTRE, COLOURS, FLOOR, FLOOR_SPACES, LETTERS, WALL, AzulMove, AzulState
from i18n.catalog import DEFAULT, gettext, pgettext

if TYPE_CHECKING:
    from bot.commands.ui import MatchUI

GAME = "azul"
CHOICE_LIMIT = 25  # Discord shows at most 25 autocomplete choices
CHOICE_NAME_LIMIT = 100  # characters in a choice's name

RULES = (
    "**Azul** — 2 to 4 players draft coloured tiles to fill pattern lines and tile a wall. Most points wins.\n"
    "**Your turn**: take **all** tiles of one colour from one factory (`f1`, `f2`…; the rest of it slides to the "
    "centre) or from the centre (`c`; the first to do so this round also takes the **1** marker onto their floor "
    "and starts the next round). Put them all in **one** pattern line, or on the floor.\n"
    "• Line *n* holds *n* tiles of one colour, never a colour its wall row already has. Tiles that do not fit "
    "fall to the floor (−1 −1 −2 −2 −2 −3 −3); past 7 they go to the lid.\n"
    "**End of a round** (factories and centre empty): each full line moves one tile to its wall row (the "
    "rest go to the lid) and scores it: 1 alone, else the length of its row run plus its column run (each "
    "counted when 2 or more). Then the floor costs its points (never below 0).\n"
    "**End**: after the round in which someone completes a wall row. Bonuses: +2 per complete row, +7 per "
    "column, +10 per colour with all five tiles. Ties: more complete rows wins, else shared. "
    "Safety rules: the game also ends after 100 rounds, or when no tile is left to fill the factories.\n"
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

# Lenient readings of what a player typed in another option, so autocomplete can narrow on it.
_SOURCE = re.compile(r"^(?:f|fac|factory|display)?\s*(\d+)$")
_CENTRE_WORDS = frozenset(("c", "centre", "center", "middle"))
_LINE = re.compile(r"^(?:line|l|row)?\s*(\d+)$")
_FLOOR_WORDS = frozenset(("floor", "fl", "f", "floor line"))
_COLOUR_WORDS = {name: k for k, name in enumerate(COLOURS)} | {letter: k for k, letter in enumerate(LETTERS)}


def read_source(text: str) -> int | None:
    """Return the source a player named (0 the centre, 1.. a factory), or ``None`` if blank or unreadable."""
    clean = " ".join(text.lower().split()).split(" ·")[0]
    if clean in _CENTRE_WORDS:
        return CENTRE
    match = _SOURCE.match(clean)
    return int(match[1]) if match else None


def read_colour(text: str) -> int | None:
    """Return the colour a player named (by name or letter), or ``None`` if blank or unreadable."""
    words = text.lower().split()
    if not words:
        return None
    return _COLOUR_WORDS.get(words[0], _COLOUR_WORDS.get(words[0].removesuffix("s")))


def read_line(text: str) -> int | None:
    """Return the destination a player named (1..5, or :data:`FLOOR`), or ``None`` if blank or unreadable."""
    clean = " ".join(text.lower().split()).split(" (")[0]
    if clean in _FLOOR_WORDS:
        return FLOOR
    match = _LINE.match(clean)
    return int(match[1]) if match else None


def labelled(items: Iterable[tuple[str, str]], typed: str) -> list[app_commands.Choice[str]]:
    """Return at most 25 choices of ``(value, label)``: values starting with what was typed, then labels holding it."""
    needle = typed.strip().lower()
    unique = dict(items)  # first label wins; order kept
    starting = [value for value in unique if value.startswith(needle)]
    containing = [value for value, label in unique.items() if value not in starting and needle in label.lower()]
    return [
        app_commands.Choice(name=unique[value][:CHOICE_NAME_LIMIT], value=value)
        for value in (starting + containing)[:CHOICE_LIMIT]
    ]


def _takes(state: AzulState, source: int | None, colour: int | None, line: int | None) -> list[AzulMove]:
    """Return the legal takes that agree with whatever the player already chose."""
    return [
        m
        for m in state.legal_moves()
        if m.source != WALL
        and (source is None or m.source == source)
        and (colour is None or m.colour == colour)
        and (line is None or m.line == line)
    ]


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


def _source_name(source: int) -> str:
    return "c" if source == CENTRE else f"f{source}"


def source_choices(
    state: AzulState, colour: str, line: str, typed: str, language: str = DEFAULT
) -> list[app_commands.Choice[str]]:
    """Offer the factories holding tiles and the centre, narrowed by a chosen colour and line."""
    sources = dict.fromkeys(m.source for m in _takes(state, None, read_colour(colour), read_line(line)))
    items = []
    for source in sorted(sources, key=lambda s: (s == CENTRE, s)):  # factories first, as on the board
        if source == CENTRE:
            tiles = _tiles_phrase(state.centre, language)
            if state.marker < 0:
                label = gettext(language, "c · centre: {tiles} + first-player marker", tiles=tiles)
            else:
                label = gettext(language, "c · centre: {tiles}", tiles=tiles)
            items.append(("c", label))
        else:
            items.append((f"f{source}", f"f{source} · {_tiles_phrase(state.factories[source - 1], language)}"))
    return labelled(items, typed)


def colour_choices(
    state: AzulState, source: str, line: str, typed: str, language: str = DEFAULT
) -> list[app_commands.Choice[str]]:
    """Offer the colours the chosen source holds (any source's before one is chosen), narrowed by a chosen line."""
    chosen = read_source(source)
    moves = _takes(state, chosen, None, read_line(line))
    items = []
    for colour in sorted(dict.fromkeys(m.colour for m in moves)):
        name, letter = COLOURS[colour], LETTERS[colour].upper()
        word = colour_word(colour, language)
        if chosen is not None:
            count = state.centre[colour] if chosen == CENTRE else state.factories[chosen - 1][colour]
            label = gettext(
                language,
                "{colour} ({letter}) · {count} in {source}",
                colour=word,
                letter=letter,
                count=count,
                source=_source_name(chosen),
            )
        else:
            where = ", ".join(_source_name(s) for s in sorted({m.source for m in moves if m.colour == colour}))
            label = gettext(language, "{colour} ({letter}) · in {sources}", colour=word, letter=letter, sources=where)
        items.append((name, label))
    return labelled(items, typed)


def line_choices(
    state: AzulState, source: str, colour: str, typed: str, language: str = DEFAULT
) -> list[app_commands.Choice[str]]:
    """Offer the pattern lines that can take the chosen colour, and the floor, saying what each would do."""
    chosen_source, chosen_colour = read_source(source), read_colour(colour)
    moves = _takes(state, chosen_source, chosen_colour, None)
    board = state.boards[state.turn]
    items = []
    for line in sorted(dict.fromkeys(m.line for m in moves)):
        if line == FLOOR:
            free = FLOOR_SPACES - len(board.floor)
            label = gettext(language, "floor ({free} of {spaces} free)", free=free, spaces=FLOOR_SPACES)
            value = "floor"
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
            value = str(line)
        # Only with the source and colour known is the move itself known: then the engine says where the tiles go.
        if chosen_source is not None and chosen_colour is not None:
            label += _consequence(state, AzulMove(chosen_source, chosen_colour, line), language)
        items.append((value, label))
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


def _wall_moves(state: AzulState) -> list[AzulMove]:
    return [m for m in state.legal_moves() if m.source == WALL]


def wall_line_choices(state: AzulState, typed: str, language: str = DEFAULT) -> list[app_commands.Choice[str]]:
    """Offer the pattern line waiting to be tiled on the grey wall."""
    lines = dict.fromkeys((m.line, m.colour) for m in _wall_moves(state))
    items = [
        (str(line), gettext(language, "line {line} · {line} {colour}", line=line, colour=colour_word(colour, language)))
        for line, colour in lines
    ]
    return labelled(items, typed)


def wall_column_choices(
    state: AzulState, line: str, typed: str, language: str = DEFAULT
) -> list[app_commands.Choice[str]]:
    """Offer the wall columns the waiting line may go to, with the points the engine would score there."""
    chosen = read_line(line)
    items = []
    for move in _wall_moves(state):
        if chosen is not None and move.line != chosen:
            continue
        event = state.play(move).last
        points = next((p.points for p in event.placements if p.player == state.turn), 0) if event else 0
        items.append(
            (str(move.column), gettext(language, "column {column} (+{points})", column=move.column, points=points))
        )
    return labelled(items, typed.strip().lower().removeprefix("column").removeprefix("c").strip())


def take_text(source: str, colour: str, line: str) -> str:
    """Return the move text for the engine: ``f3 red 4`` (a bare factory number is read as that factory)."""
    source = source.strip()
    if source.isdigit():
        source = f"f{source}"
    return f"{source} {colour.strip()} {line.strip()}"


def build(ui: MatchUI) -> app_commands.Group:
    """Build the ``/azul`` command group."""
    group = new_group(GAME, "Azul: draft tiles from the factories, fill your pattern lines, tile your wall.")

    async def position(interaction: discord.Interaction) -> AzulState | None:
        return await ui.my_position(interaction, GAME)  # type: ignore[return-value]

    add_start_command(
        group,
        GAME,
        ui,
        description="Challenge one to three people (or me) in this channel to Azul.",
        opponent_help="Who you challenge (pick me, Tabula, to play the computer)",
        options=[StartOption.from_spec(GAME, "wall", "Wall side (default Colour)", WALLS)],
    )

    @group.command(name="take", description="Take all tiles of one colour from a factory or the centre.")
    @app_commands.describe(
        source="A factory like f3, or c for the centre",
        color="The colour to take: blue, yellow, red, black or white",
        line="The pattern line 1 to 5 to put them in, or floor",
    )
    async def take(
        interaction: discord.Interaction,
        source: app_commands.Range[str, 1, 16],
        color: app_commands.Range[str, 1, 16],
        line: app_commands.Range[str, 1, 16],
    ) -> None:
        await ui.play(interaction, GAME, take_text(source, color, line))

    @take.autocomplete("source")
    async def take_sources(interaction: discord.Interaction, typed: str) -> list[app_commands.Choice[str]]:
        state = await position(interaction)
        if state is None:
            return []
        colour, line = typed_option(interaction, "color"), typed_option(interaction, "line")
        return source_choices(state, colour, line, typed, user_language(interaction))

    @take.autocomplete("color")
    async def take_colours(interaction: discord.Interaction, typed: str) -> list[app_commands.Choice[str]]:
        state = await position(interaction)
        if state is None:
            return []
        source, line = typed_option(interaction, "source"), typed_option(interaction, "line")
        return colour_choices(state, source, line, typed, user_language(interaction))

    @take.autocomplete("line")
    async def take_lines(interaction: discord.Interaction, typed: str) -> list[app_commands.Choice[str]]:
        state = await position(interaction)
        if state is None:
            return []
        source, colour = typed_option(interaction, "source"), typed_option(interaction, "color")
        return line_choices(state, source, colour, typed, user_language(interaction))

    @group.command(name="wall", description="Grey wall: choose the column for the pattern line being tiled.")
    @app_commands.describe(line="The pattern line being tiled, 1 to 5", column="The wall column, 1 to 5")
    async def wall(
        interaction: discord.Interaction,
        line: app_commands.Range[str, 1, 16],
        column: app_commands.Range[str, 1, 16],
    ) -> None:
        await ui.play(interaction, GAME, f"wall {line.strip()} {column.strip()}")

    @wall.autocomplete("line")
    async def wall_lines(interaction: discord.Interaction, typed: str) -> list[app_commands.Choice[str]]:
        state = await position(interaction)
        return [] if state is None else wall_line_choices(state, typed, user_language(interaction))

    @wall.autocomplete("column")
    async def wall_columns(interaction: discord.Interaction, typed: str) -> list[app_commands.Choice[str]]:
        state = await position(interaction)
        chosen = typed_option(interaction, "line")
        return [] if state is None else wall_column_choices(state, chosen, typed, user_language(interaction))

    add_common_commands(group, GAME, ui, rules_text=RULES)
    return group
