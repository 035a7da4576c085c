"""Azul's table-driven fast paths agree with the plain rules they replace."""

from __future__ import annotations

import itertools
import random

from engines import IllegalMove, azul
from engines.azul import tables


def _plain_accept(board: azul.Board) -> int:
    """Return the (colour, line) pairs a board accepts, bit 5 * colour + line, line by line as the rules say."""
    accept = 0
    for row in range(5):
        held = board.line_counts[row]
        for colour in range(5):
            if held == 0:
                ok = board.free >> (5 * colour + row) & 1
            else:
                ok = board.line_colours[row] == colour and (held <= row or azul.OFFER_FULL_LINES)
            if ok:
                accept |= 1 << (5 * colour + row)
    return accept


def test_the_line_tables_accept_what_the_rules_accept() -> None:
    draw = random.Random(7)
    for counts in itertools.product(*(range(row + 2) for row in range(5))):
        colours = tuple(draw.randrange(5) if n else -1 for n in counts)
        board = azul.Board(0, colours, counts, azul.EMPTY_WALL, (), draw.getrandbits(25))
        empty, partial, _ = tables._LINE_ROWS[counts]
        fast = board.free & empty | tables._LINE_COLOUR_BITS[colours] & partial
        assert fast == _plain_accept(board), (counts, colours)
        rows, cleared = tables._COMPLETE_LINES[counts]
        assert rows == tuple(r for r in range(5) if counts[r] == r + 1)
        assert cleared == tuple(0 if r in rows else n for r, n in enumerate(counts))


def test_colour_wall_scoring_from_the_free_mask_matches_tile_points() -> None:
    draw = random.Random(11)
    for _ in range(3000):
        wall = [colour if draw.random() < 0.5 else -1 for colour in itertools.chain(*azul.WALL_COLOUR)]
        placed = azul.ALL_FREE ^ azul.wall_free(tuple(wall))
        for index, colour in enumerate(wall):
            if colour < 0:
                continue
            row, column = divmod(index, 5)
            across = tables._RUN_LENGTH[tables._ROW_SPACES[row][placed >> row & tables._COLOUR_ROW_BITS]][column]
            down = tables._RUN_LENGTH[tables._COLUMN_SPACES[column][placed & tables._COLUMN_BITS[column]]][row]
            points = down if across == 1 else across if down == 1 else across + down
            assert points == azul.tile_points(wall, row, column), (wall, row, column)


def _reference_tile_points(wall: list[int], row: int, column: int) -> int:
    """Score a placed tile by walking its row and column, as the engine did before its rewrite."""
    left = right = column
    while left > 0 and wall[5 * row + left - 1] >= 0:
        left -= 1
    while right < 4 and wall[5 * row + right + 1] >= 0:
        right += 1
    top = bottom = row
    while top > 0 and wall[5 * (top - 1) + column] >= 0:
        top -= 1
    while bottom < 4 and wall[5 * (bottom + 1) + column] >= 0:
        bottom += 1
    across, down = right - left + 1, bottom - top + 1
    if across == 1 and down == 1:
        return 1
    return (across if across > 1 else 0) + (down if down > 1 else 0)


def test_tile_points_matches_the_walk_on_any_wall() -> None:
    draw = random.Random(13)
    for _ in range(3000):
        wall = [draw.randrange(5) if draw.random() < 0.55 else -1 for _ in range(25)]
        for index in range(25):
            if wall[index] >= 0:
                assert azul.tile_points(wall, *divmod(index, 5)) == _reference_tile_points(wall, *divmod(index, 5))


def test_a_hand_built_move_with_odd_types_still_gets_the_full_check() -> None:
    state = azul.new(players=2, seed=16, first_player=0)
    move = state.legal_moves()[0]
    # bool is an int subclass: the inline check leaves it to the full check, which refuses it as before.
    odd = azul.AzulMove(True, move.colour, move.line)
    try:
        state.play(odd)
    except IllegalMove as error:
        assert "factory" in str(error).lower()
    else:
        raise AssertionError("a bool source was accepted")
