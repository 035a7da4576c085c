"""Azul: worked examples of the rules (``docs/azul.md``), tile conservation, the grey wall, leaving, notation, JSON."""

from __future__ import annotations

import copy
import dataclasses
import json
import random
from typing import Any

import pytest

from engines import GAMES, GameError, IllegalMove, InvalidMoveText, InvalidOption, InvalidState, azul
from engines.azul import (
    BLACK,
    BLUE,
    CENTRE,
    FLOOR,
    MARKER,
    RED,
    WALL,
    WHITE,
    YELLOW,
    AzulMove,
    AzulState,
    Board,
    Discard,
    Placement,
)
from engines.azul import state as azul_state
from engines.azul import tiling as azul_tiling
from i18n import result_text, summary_text

EMPTY_WALL = ["....."] * 5
# Any well-formed last move: positions built below are mid-game, and only the very start has none.
SOME_LAST = {
    "player": 0,
    "move": [1, 0, FLOOR, 0],
    "taken": 1,
    "to_line": 0,
    "to_floor": 1,
    "to_lid": 0,
    "marker": False,
    "placements": [],
    "discards": [],
    "round_ended": 0,
    "penalties": [],
    "bonuses": [],
    "left": "",
}


def colour_wall(*cells: tuple[int, int]) -> list[str]:
    """Return five wall rows with a tile, in its printed colour, on each (row, column) counted from 1."""
    rows = [["."] * 5 for _ in range(5)]
    for row, column in cells:
        rows[row - 1][column - 1] = azul.LETTERS[azul.WALL_COLOUR[row - 1][column - 1]]
    return ["".join(row) for row in rows]


def board(score: int = 0, lines: tuple[str, ...] = ("",) * 5, wall: list[str] | None = None, floor: str = "") -> dict:
    """Return one board in the saved format (pattern lines as letters, ``m`` the marker on the floor)."""
    return {"score": score, "lines": list(lines), "wall": wall or EMPTY_WALL, "floor": floor}


def position(
    players: int = 2,
    *,
    boards: list[dict] | None = None,
    factories: list[str] | None = None,
    centre: str = "",
    lid: tuple[int, ...] = (0, 0, 0, 0, 0),
    turn: int = 0,
    starter: int = 0,
    marker: int = -1,
    round_: int = 2,
    phase: str = "offer",
    left: tuple[int, ...] = (),
    **options: Any,
) -> AzulState:
    """Build a mid-game position through ``from_json``; the bag holds every tile not placed elsewhere."""
    boards = boards or [board() for _ in range(players)]
    factories = factories if factories is not None else [""] * azul.FACTORIES[players]
    factories = factories + [""] * (azul.FACTORIES[players] - len(factories))
    text = "".join(factories) + centre
    text += "".join("".join(b["wall"]) + "".join(b["lines"]) + b["floor"] for b in boards)
    bag = [azul.TILES_PER_COLOUR - text.count(letter) - lid[k] for k, letter in enumerate(azul.LETTERS)]
    data = {
        "game": "azul",
        "format": 1,
        "seed": 1,
        "players": players,
        "options": {"first_player": None, "wall": "colour", "max_rounds": 100, **options},
        "round": round_,
        "phase": phase,
        "turn": turn,
        "starter": starter,
        "rng": 12345,
        "bag": bag,
        "lid": list(lid),
        "factories": factories,
        "centre": centre,
        "marker": marker,
        "boards": boards,
        "left": list(left),
        "result": None,
        "last": SOME_LAST,
    }
    return azul.from_json(data)


def wall_board(cells: list[tuple[int, int]], score: int = 0) -> Board:
    """Return a :class:`Board` whose colour wall holds ``cells`` (row, column from 1)."""
    wall = [-1] * 25
    for row, column in cells:
        wall[5 * (row - 1) + column - 1] = azul.WALL_COLOUR[row - 1][column - 1]
    return Board(score, azul.NO_LINES, azul.EMPTY5, tuple(wall), (), azul.wall_free(tuple(wall)))


def check_invariants(state: AzulState) -> None:
    """Check what must hold after every ply: 100 tiles, sane boards, scores never negative."""
    assert state.tile_counts() == (20, 20, 20, 20, 20)
    assert sum(state.bag) + sum(state.lid) + sum(map(sum, state.factories)) + sum(state.centre) <= 100
    assert all(sum(tiles) <= 4 for tiles in state.factories)
    for b in state.boards:
        assert b.score >= 0
        assert len(b.floor) <= 7 and b.floor.count(MARKER) <= 1
        for row in range(5):
            assert 0 <= b.line_counts[row] <= row + 1
            assert (b.line_counts[row] == 0) == (b.line_colours[row] == -1)
        assert b.free == azul.wall_free(b.wall)
        for i in range(5):
            in_row = [t for t in b.wall[5 * i : 5 * i + 5] if t >= 0]
            in_column = [t for t in b.wall[i::5] if t >= 0]
            assert len(set(in_row)) == len(in_row) and len(set(in_column)) == len(in_column)


# -- the worked examples of the rules ----------------------------------------------------------


def test_example_1_four_plus_three() -> None:
    # Row 3 holds black (column 1), white (2) and yellow (4); column 3 holds red (row 1) and yellow (row 2).
    wall = colour_wall((3, 1), (3, 2), (3, 4), (1, 3), (2, 3))
    assert wall[2] == "kw.y." and [row[2] for row in wall[:2]] == ["r", "y"]
    state = position(
        boards=[board(10, ("", "", "bb", "", ""), wall), board(0, floor="m")],
        centre="b",
        marker=1,
    )
    after = state.play("c blue 3")
    assert after.last.placements == (Placement(0, 3, 3, BLUE, 7),)
    assert after.boards[0].score == 17
    assert after.boards[0].wall[5 * 2 + 2] == BLUE and after.boards[0].line_counts[2] == 0
    assert azul.tile_points(after.boards[0].wall, 2, 2) == 7


def test_example_2_alone_and_joining_two() -> None:
    assert azul.tile_points(wall_board([(2, 2)]).wall, 1, 1) == 1
    row = wall_board([(4, 1), (4, 2), (4, 3)]).wall
    assert azul.tile_points(row, 3, 2) == 3  # placed at the end of a run of three
    between = wall_board([(4, 1), (4, 2), (4, 3), (1, 5)]).wall
    assert azul.tile_points(between, 3, 1) == 3  # placed in the middle, nothing above or below


def test_example_3_floor_with_four_tiles_and_the_marker() -> None:
    assert azul.FLOOR_LOSS == (0, 1, 2, 4, 6, 8, 11, 14)
    state = position(boards=[board(6, floor="mbbyy"), board(3)], factories=["r"], marker=0, turn=1)
    after = state.play("f1 red 1")
    assert after.last.penalties == (8, 0)
    assert after.scores() == (0, 4)  # 6 - 8 stops at 0; player 2 placed red alone, +1
    assert after.boards[0].floor == () and after.lid[BLUE] == 2 and after.lid[YELLOW] == 2
    assert after.to_move == 0 and after.starter == 0 and after.marker == -1  # the marker's holder starts


def test_example_4_order_matters() -> None:
    state = position(boards=[board(0, ("b", "ww", "", "", "")), board(0)], factories=["k"], turn=1)
    after = state.play("f1 black floor")
    row_2_white = azul.WALL_COLUMN[1][WHITE] + 1
    assert after.last.placements == (Placement(0, 1, 1, BLUE, 1), Placement(0, 2, row_2_white, WHITE, 2))
    assert after.scores() == (3, 0)
    assert after.lid[WHITE] == 1  # the other white tile of line 2
    assert "Round 2 ended: Player 1 +3 (row 1 blue +1, row 2 white +2): 3" in summary_text(after)


def test_example_5_overflow_and_refused_lines() -> None:
    state = position(
        boards=[board(0, ("", "r", "y", "", ""), colour_wall((1, 3))), board(0)],
        factories=["yrrr", "bbkw"],
    )
    after = state.play("f1 red 2")
    assert after.boards[0].line_counts[1] == 2 and after.boards[0].floor == (RED, RED)
    assert (after.last.taken, after.last.to_line, after.last.to_floor) == (3, 1, 2)
    assert after.centre == (0, 1, 0, 0, 0)
    with pytest.raises(IllegalMove, match="Line 3 already holds yellow"):
        state.play("f1 red 3")
    with pytest.raises(IllegalMove, match="row 1 already has red"):
        state.play("f1 red 1")
    red_lines = {m.line for m in state.legal_moves() if m.source == 1 and m.colour == RED}
    assert red_lines == {2, 4, 5, FLOOR}


def test_example_6_factory_take_then_centre_with_the_marker() -> None:
    state = position(factories=["bbyr", "kkkk"])
    state = state.play("f1 blue 2")
    assert state.last.taken == 2 and state.centre == (0, 1, 1, 0, 0) and state.factories[0] == azul.EMPTY5
    state = state.play("c red 1")
    assert state.last.taken == 1 and state.last.marker
    assert state.boards[1].floor == (MARKER,) and state.marker == 1
    assert azul.FLOOR_LOSS[len(state.boards[1].floor)] == 1
    assert "with the first-player marker" in summary_text(state)
    # Only the first player to take from the centre gets the marker.
    state = state.play("c yellow 3")
    assert not state.last.marker and state.boards[0].floor == ()


def test_example_7_bonuses() -> None:
    row_1 = [(1, c) for c in range(1, 6)]
    column_1 = [(r, 1) for r in range(2, 6)]
    blue = [(r, r) for r in range(2, 6)]  # the diagonal; (1, 1) is already counted
    final = wall_board(row_1 + column_1 + blue)
    assert sum(t >= 0 for t in final.wall) == 13
    assert final.bonuses() == (1, 1, 1) and azul.bonus_points(final.bonuses()) == 19
    # Through the engine: line 1's yellow completes row 1 and ends the game.
    cells = [cell for cell in row_1 + column_1 + blue if cell != (1, 2)]
    state = position(boards=[board(30, ("y", "", "", "", ""), colour_wall(*cells)), board(50)], factories=["k"], turn=1)
    over = state.play("f1 black 3")
    assert over.last.placements == (Placement(0, 1, 2, YELLOW, 7),)  # a row of 5, a column of 2
    assert over.last.bonuses == ((1, 1, 1), (0, 0, 0))
    assert over.scores() == (30 + 7 + 19, 50)
    outcome = over.outcome()
    assert outcome is not None and outcome.winners == (0,) and outcome.places == (1, 2)
    assert result_text(over) == "A wall row is complete: Player 1 wins with 56 points."
    assert over.legal_moves() == () and over.to_move is None and over.phase == "over"


def test_example_8_tie_break_and_shared_victory() -> None:
    two_rows = wall_board([(1, c) for c in range(1, 6)] + [(2, c) for c in range(1, 6)], score=50)
    one_row = wall_board([(1, c) for c in range(1, 6)], score=50)
    wall_row = azul.Termination.WALL_ROW
    outcome = azul.final_outcome((two_rows, one_row), (), 2, wall_row)
    assert outcome.winners == (0,) and outcome.places == (1, 2) and outcome.termination == "wall_row"
    ended = azul.new(players=2)
    ended = dataclasses.replace(ended, boards=(two_rows, one_row), phase="over", result=outcome)
    assert ended.victory() == (50, 2, 1)
    assert result_text(ended) == (
        "A wall row is complete: Player 1 wins the tie at 50 points with more complete rows (2 to 1)."
    )
    outcome = azul.final_outcome((one_row, one_row._replace(score=50)), (), 2, wall_row)
    assert outcome.winners == (0, 1) and outcome.places == (1, 1) and outcome.is_draw
    shared = dataclasses.replace(ended, boards=(one_row, one_row), result=outcome)
    assert result_text(shared, ["Ana", "Bo"]) == (
        "A wall row is complete: Player 1 and Player 2 share the victory with 50 points and 1 complete row each."
    )
    # Three players: everyone is ranked, ties share a place.
    low = one_row._replace(score=20)
    outcome = azul.final_outcome((low, two_rows, one_row), (), 3, wall_row)
    assert outcome.places == (3, 1, 2)


def test_example_9_bag_refill() -> None:
    bag, lid = (2, 1, 3, 0, 0), (4, 5, 6, 7, 8)
    factories, new_bag, new_lid, _ = azul.fill_factories(bag, lid, 99, 5)
    assert [sum(f) for f in factories] == [4, 4, 4, 4, 4]
    first_six = tuple(a + b for a, b in zip(factories[0], factories[1], strict=True))
    assert all(first_six[k] >= bag[k] for k in range(5))  # the bag's 6 tiles were drawn first
    assert new_lid == azul.EMPTY5 and sum(new_bag) == 6 + 30 - 20
    assert tuple(sum(x) for x in zip(*factories, new_bag, strict=True)) == tuple(
        b + c for b, c in zip(bag, lid, strict=True)
    )
    # With the lid empty too, factories 1 and 2 get 4 and 2 tiles and the rest stay empty.
    factories, new_bag, new_lid, _ = azul.fill_factories(bag, azul.EMPTY5, 99, 5)
    assert [sum(f) for f in factories] == [4, 2, 0, 0, 0]
    assert new_bag == azul.EMPTY5 == new_lid


def test_refill_at_the_end_of_a_round_pours_the_lid() -> None:
    # The bag holds 6 tiles: the round's refill must use the lid as well.
    walls = [colour_wall(*[(r, c) for r in range(1, 6) for c in range(1, 6) if c != m]) for m in (1, 2)]
    boards = [board(5, ("", "", "", "", ""), walls[0]), board(5, ("", "", "", "", ""), walls[1])]
    # 40 tiles on the walls, 1 on the table, 6 in the bag: the lid holds the other 53.
    lid = (11, 11, 11, 10, 10)
    state = position(boards=boards, factories=["w"], lid=lid, turn=1)
    assert sum(state.bag) == 6
    after = state.play("f1 white floor")
    assert [sum(f) for f in after.factories] == [4] * 5
    assert sum(after.bag) + sum(after.lid) == 6 + 54 - 20 and sum(after.lid) == 0
    check_invariants(after)


# -- more rules --------------------------------------------------------------------------------


def test_setup_first_player_and_factories() -> None:
    for players, factories in ((2, 5), (3, 7), (4, 9)):
        state = azul.new(players=players, seed=4)
        assert len(state.factories) == factories and all(sum(f) == 4 for f in state.factories)
        assert sum(state.bag) == 100 - 4 * factories and state.round == 1 and state.marker == -1
        assert state.to_move == state.starter
        chosen = azul.new(players=players, seed=4, first_player=players - 1)
        assert chosen.to_move == players - 1 and chosen.factories == state.factories  # same seed, same tiles
    assert {azul.new(players=4, seed=seed).to_move for seed in range(40)} == {0, 1, 2, 3}
    with pytest.raises(InvalidOption):
        azul.new(players=2, seed=1, first_player=2)
    with pytest.raises(InvalidOption):
        azul.new(players=2, seed=1, wall="purple")
    assert azul.new(players=2, seed=1, wall="Gray").grey_wall


def test_legal_moves_at_the_start() -> None:
    state = azul.new(players=2, seed=8)
    distinct = sum(sum(1 for n in tiles if n) for tiles in state.factories)
    assert len(state.legal_moves()) == 6 * distinct  # five empty lines and the floor per colour and factory
    assert state.legal_moves() == tuple(sorted(set(state.legal_moves())))


def test_full_and_other_colour_lines_are_not_offered() -> None:
    state = position(boards=[board(0, ("b", "yy", "r", "", "")), board()], factories=["byrk"])
    lines = {colour: {m.line for m in state.legal_moves() if m.colour == colour} for colour in range(4)}
    assert lines[BLUE] == {4, 5, FLOOR}  # line 1 is full of blue, lines 2 and 3 hold other colours
    assert lines[YELLOW] == {4, 5, FLOOR}
    assert lines[RED] == {3, 4, 5, FLOOR}
    with pytest.raises(IllegalMove, match="Line 1 is already full"):
        state.play("f1 blue 1")


def test_marker_taken_onto_a_full_floor_is_held_for_free() -> None:
    state = position(boards=[board(20, floor="bbbyyyk"), board(0)], centre="r", factories=["kk"])
    after = state.play("c red floor")
    assert after.marker == 0 and after.boards[0].floor == state.boards[0].floor
    assert after.last.marker and after.last.to_lid == 1 and after.lid[RED] == 1
    after = after.play("f1 black floor")  # the last tiles: the round ends
    assert after.last.penalties == (14, 2)
    assert after.scores()[0] == 6 and after.to_move == 0  # 14 for seven spaces, nothing for the marker


def test_the_same_player_starts_when_nobody_took_from_the_centre() -> None:
    state = position(3, factories=["kkkk"], turn=0, starter=1)
    after = state.play("f1 black floor")
    assert after.round == 3 and after.to_move == 1 and after.starter == 1


def test_round_limit_is_a_safety_rule() -> None:
    state = azul.new(players=2, seed=5, max_rounds=1)
    rng = random.Random(5)
    while state.round == 1 and state.outcome() is None:
        state = state.play(rng.choice(state.legal_moves()))
    outcome = state.outcome()
    assert outcome is not None and result_text(state).startswith("Ended by the round limit (1 round, a safety rule)")
    assert "Ended by the round limit" in summary_text(state)


def test_no_tiles_left_ends_the_game() -> None:
    # Four walls without column m (4 of each colour on each) and incomplete lines of the one colour
    # each row still lacks hold all 100 tiles but one, which player 4 takes: nothing is left to refill.
    def lines(m: int, counts: dict[int, int]) -> tuple[str, ...]:
        return tuple(azul.LETTERS[(m - 1 - r) % 5] * counts.get(r + 1, 0) for r in range(5))

    walls = [colour_wall(*[(r, c) for r in range(1, 6) for c in range(1, 6) if c != m]) for m in (1, 2, 3, 4)]
    all_lines = [lines(1, {5: 4}), lines(2, {2: 1, 5: 4}), lines(3, {3: 2, 5: 4}), lines(4, {5: 4})]
    boards = [board(10 * (p + 1), all_lines[p], walls[p]) for p in range(4)]
    state = position(4, boards=boards, centre="b", turn=3)
    assert sum(state.bag) == 0 and sum(state.lid) == 0
    over = state.play("c blue 4")
    outcome = over.outcome()
    assert outcome is not None and result_text(over).startswith("Ended as no tile is left to fill the factories")
    assert over.last.bonuses == ((0, 4, 0),) * 4  # four complete columns each
    assert over.scores() == (38, 48, 58, 67)  # +28 each; player 4 paid 1 for the marker
    assert outcome.places == (4, 3, 2, 1)


def test_scores_during_the_game_exclude_bonuses() -> None:
    cells = [(1, c) for c in range(1, 5)] + [(r, 5) for r in range(2, 6)]
    state = position(boards=[board(4, wall=colour_wall(*cells)), board(0)], factories=["kk", "b"])
    assert state.scores() == (4, 0) and state.outcome() is None


# -- conservation and random games ---------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("wall", ["colour", "grey"])
def test_random_games_conserve_all_100_tiles(players: int, wall: str) -> None:
    for seed in range(6):
        rng = random.Random(1000 * players + seed)
        state = azul.new(players=players, seed=seed, wall=wall)
        check_invariants(state)
        tiled = 0
        while state.outcome() is None:
            move = rng.choice(state.legal_moves())
            tiled += move.source == WALL
            state = state.play(move)
            check_invariants(state)
            assert state.last is not None and summary_text(state)
        assert wall == "grey" or tiled == 0
        assert state.phase == "over" and max(state.scores()) >= 0
        assert state.last is not None and state.last.bonuses  # a full game ends with a scored round


def test_grey_wall_games_reach_the_end_with_decisions() -> None:
    decisions = 0
    for seed in range(8):
        rng = random.Random(seed)
        state = azul.new(players=2, seed=seed, wall="grey")
        while state.outcome() is None:
            if state.phase == "tiling":
                decisions += 1
                assert all(m.source == WALL and m.line == state.pending_line() for m in state.legal_moves())
                assert len(state.legal_moves()) >= 2  # a single legal space is tiled without asking
            state = state.play(rng.choice(state.legal_moves()))
        assert state.outcome() is not None
    assert decisions > 20


@pytest.mark.parametrize(
    ("wall", "plies", "scores"),
    [("colour", 110, (42, 19, 3)), ("grey", 148, (43, 20, 3))],
)
def test_a_recorded_game_replays_to_the_same_end(wall: str, plies: int, scores: tuple[int, ...]) -> None:
    # Always the first legal move: a fixed line of play, recorded when the engine was written, whose
    # end must not drift silently (a deliberate rule change updates these numbers).
    state = azul.new(players=3, seed=2026, wall=wall)
    texts = []
    while state.outcome() is None:
        move = state.legal_moves()[0]
        texts.append(state.move_text(move))
        state = state.play(move)
    assert (len(texts), state.round, state.scores()) == (plies, 5, scores)
    outcome = state.outcome()
    assert outcome is not None and outcome.places == (1, 2, 3)
    assert result_text(state) == f"A wall row is complete: Player 1 wins with {scores[0]} points."
    assert summary_text(state).endswith(result_text(state))
    rebuilt = azul.new(players=3, seed=2026, wall=wall)
    for text in texts:
        rebuilt = rebuilt.play(text)
    assert rebuilt == state


# -- the grey wall --------------------------------------------------------------------------------


def test_grey_wall_tiling_asks_for_a_column() -> None:
    # Player 1's line 2 (red) may go in columns 1, 4 or 5: column 2 holds red in row 4, column 3 is taken.
    # Player 2's yellow for line 1 has one legal space, column 4 (column 5 holds yellow in row 3).
    mine = [".....", "..k..", ".....", ".r...", "....."]
    theirs = ["bkr..", ".....", "....y", ".....", "....."]
    boards = [board(0, ("", "rr", "", "", ""), mine), board(0, wall=theirs)]
    state = position(boards=boards, factories=["y"], turn=1, wall="grey")
    state = state.play("f1 yellow 1")
    assert state.phase == "tiling" and state.to_move == 0 and state.pending_line() == 2
    assert [state.move_text(m) for m in state.legal_moves()] == ["wall 2 c1", "wall 2 c4", "wall 2 c5"]
    assert "Player 1 chooses where line 2 goes on the wall" in summary_text(state)
    with pytest.raises(IllegalMove, match="Column 2 of your wall already has red"):
        state.play("wall 2 c2")
    with pytest.raises(IllegalMove, match="already tiled"):
        state.play("wall 2 c3")
    with pytest.raises(IllegalMove, match="factory offer is over"):
        state.play(AzulMove(1, RED, 2))
    for text in ("wall 2 c4", "Wall 2 C 4", "w2c4", "row 2 column 4", "line 2 col 4", "c4", "col 4", "4"):
        assert state.parse_move(text) == AzulMove(WALL, RED, 2, 4)
    after = state.play("wall 2 c4")
    # Player 2's line 1 (yellow) had a single legal space: it was placed without asking; the round ended.
    assert after.phase == "offer" and after.round == 3
    assert after.last.placements[0] == Placement(0, 2, 4, RED, 2)
    assert after.last.placements[1] == Placement(1, 1, 4, YELLOW, 4) and after.last.round_ended == 2
    assert after.boards[0].wall[5 + 3] == RED
    assert "Player 1 tiled line 2's red in column 4 (+2)" in summary_text(after)


def test_grey_wall_lines_are_tiled_top_to_bottom() -> None:
    state = position(boards=[board(0, ("b", "yy", "", "", "")), board(0)], factories=["k"], turn=1, wall="grey")
    state = state.play("f1 black floor")
    assert state.pending_line() == 1 and state.to_move == 0
    with pytest.raises(IllegalMove, match="tile line 1 first"):
        state.play(AzulMove(WALL, YELLOW, 2, 1))
    state = state.play("wall 1 c3")
    assert state.pending_line() == 2 and state.to_move == 0
    assert [m.column for m in state.legal_moves()] == [1, 2, 3, 4, 5]
    state = state.play("wall 2 c3")  # below the blue: a vertical pair
    assert state.last.placements[0] == Placement(0, 2, 3, YELLOW, 2) and state.round == 3


def test_grey_wall_line_with_no_legal_space_goes_to_the_floor() -> None:
    # Row 3's free columns 4 and 5 both already hold black: line 3's three black tiles fall to the floor.
    wall = ["...k.", "....k", "bwy..", ".....", "....."]
    state = position(boards=[board(9, ("", "", "kkk", "", ""), wall), board(0)], factories=["r"], turn=1, wall="grey")
    after = state.play("f1 red floor")
    assert after.last.discards == (Discard(0, 3, BLACK, 3),)
    assert after.last.penalties[0] == 4 and after.scores()[0] == 5
    assert after.lid[BLACK] == 3 and after.boards[0].line_counts[2] == 0
    assert "line 3 black to the floor" in summary_text(after)


def test_single_legal_space_can_be_left_to_the_player(monkeypatch: pytest.MonkeyPatch) -> None:
    # The DECIDED ruling is a constant: with it off, even a forced placement waits for the player.
    theirs = ["bkr..", ".....", "....y", ".....", "....."]
    state = position(boards=[board(0, ("y", "", "", "", ""), theirs), board()], factories=["k"], turn=1, wall="grey")
    assert state.play("f1 black floor").phase == "offer"  # placed without asking
    # The ruling is read where the tiling runs.
    monkeypatch.setattr(azul_tiling, "AUTO_TILE_FORCED", False)
    waiting = state.play("f1 black floor")
    assert waiting.phase == "tiling" and [waiting.move_text(m) for m in waiting.legal_moves()] == ["wall 1 c4"]
    assert azul.from_json(waiting.to_json()) == waiting


def test_full_lines_can_be_offered(monkeypatch: pytest.MonkeyPatch) -> None:
    # The ruling is read where the takes are offered and checked.
    monkeypatch.setattr(azul_state, "OFFER_FULL_LINES", True)
    state = position(boards=[board(0, ("b", "", "", "", "")), board()], factories=["bbyr"])
    assert AzulMove(1, BLUE, 1) in state.legal_moves()
    after = state.play("f1 blue 1")
    assert (after.last.to_line, after.last.to_floor) == (0, 2) and after.boards[0].line_counts[0] == 1


def test_wall_moves_are_refused_on_the_coloured_wall_and_during_the_offer() -> None:
    with pytest.raises(IllegalMove, match="tiling is automatic"):
        azul.new(players=2, seed=1).parse_move("wall 1 c1")
    with pytest.raises(IllegalMove, match="after the factory offer"):
        azul.new(players=2, seed=1, wall="grey").play(AzulMove(WALL, BLUE, 1, 1))


# -- leaving --------------------------------------------------------------------------------------


def test_forfeit_with_two_players() -> None:
    state = azul.new(players=2, seed=3)
    state = state.play(state.legal_moves()[0])
    ended = state.forfeit(1, "forfeit")
    outcome = ended.outcome()
    assert outcome is not None and outcome.winners == (0,) and outcome.places == (1, 2)
    assert outcome.termination == "forfeit" and ended.legal_moves() == ()
    assert result_text(ended, ["Ana", "Bo"]) == "Bo resigned."
    assert summary_text(ended, ["Ana", "Bo"]) == "Bo left the game (Bo resigned); Ana wins."
    assert azul.from_json(json.loads(json.dumps(ended.to_json()))) == ended
    with pytest.raises(IllegalMove, match="game is over"):
        ended.forfeit(0)


def test_forfeit_with_three_players_lets_the_others_play_on() -> None:
    rng = random.Random(3)
    state = azul.new(players=3, seed=3, first_player=0)
    for _ in range(4):
        state = state.play(rng.choice(state.legal_moves()))
    mover = state.to_move
    assert mover is not None
    state = state.forfeit(mover, "timeout")
    assert state.outcome() is None and state.left == (mover,) and state.to_move == (mover + 1) % 3
    assert state.boards[mover].line_counts == azul.EMPTY5 and state.boards[mover].floor == ()
    assert state.last_event == azul.AzulEvent(mover, None, left="timeout")
    who = ["Ana", "Bo", "Cy"][mover]
    expected = f"{who} left the game ({who} ran out of time); the others play on."
    assert summary_text(state, ["Ana", "Bo", "Cy"]) == expected
    check_invariants(state)
    frozen = state.boards[mover]
    with pytest.raises(IllegalMove, match="already left"):
        state.forfeit(mover)
    while state.outcome() is None:
        assert state.to_move != mover
        state = state.play(rng.choice(state.legal_moves()))
        check_invariants(state)
        assert state.boards[mover] == frozen
    outcome = state.outcome()
    assert outcome is not None and outcome.places[mover] == 3 and mover not in outcome.winners


def test_forfeit_with_four_players_until_one_is_left() -> None:
    state = azul.new(players=4, seed=9, first_player=0)
    state = state.forfeit(2)
    state = state.play(state.legal_moves()[0])
    state = state.forfeit(0, "timeout")
    assert state.outcome() is None and state.active_players() == (1, 3)
    state = state.forfeit(3, "timeout")
    outcome = state.outcome()
    assert outcome is not None and outcome.winners == (1,)
    assert outcome.places == (3, 1, 4, 2)  # the last to leave ranks just after the winner
    assert outcome.termination == "timeout"
    names = ["Ana", "Bo", "Cy", "Dee"]
    assert (
        result_text(state, names)
        == "Dee ran out of time and leaves the game. Player 2 is the last player left and wins."
    )
    assert summary_text(state, names) == "Dee left the game (Dee ran out of time); Bo wins."
    assert azul.from_json(state.to_json()) == state


def test_forfeit_during_grey_tiling_carries_on() -> None:
    state = position(
        3, boards=[board(0, ("b", "", "", "", "")), board(0), board(0, ("y", "", "", "", ""))],
        factories=["k"], turn=1, wall="grey",
    )  # fmt: skip
    state = state.play("f1 black floor")
    assert state.phase == "tiling" and state.to_move == 0
    state = state.forfeit(0)
    assert state.phase == "tiling" and state.to_move == 2 and state.left == (0,)
    state = state.play("wall 1 c2")
    assert state.phase == "offer" and state.round == 3 and state.to_move in (1, 2)
    check_invariants(state)


def test_leaving_marker_holder_passes_the_start_on() -> None:
    state = position(3, boards=[board(), board(0, floor="m"), board()], factories=["kk", "w"], marker=1, turn=2)
    state = state.forfeit(1)
    assert state.marker == 1 and state.boards[1].floor == ()
    state = state.play("f1 black floor").play("f2 white floor")
    assert state.round == 3 and state.to_move == 2 and state.last.penalties[1] == 0


# -- notation -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "move"),
    [
        ("f3 red 4", AzulMove(3, RED, 4)),
        ("  F3   RED  4 ", AzulMove(3, RED, 4)),
        ("factory 3 r line 4", AzulMove(3, RED, 4)),
        ("f3r4", AzulMove(3, RED, 4)),
        ("f3 red -> 4", AzulMove(3, RED, 4)),
        ("take all red from factory 3 to line 4", AzulMove(3, RED, 4)),
        ("red from f3 into pattern line 4", AzulMove(3, RED, 4)),
        ("c blue floor", AzulMove(CENTRE, BLUE, FLOOR)),
        ("center b f", AzulMove(CENTRE, BLUE, FLOOR)),
        ("centre blues fl", AzulMove(CENTRE, BLUE, FLOOR)),
        ("c k 5", AzulMove(CENTRE, BLACK, 5)),
        ("w f2 floor", AzulMove(2, WHITE, FLOOR)),
        ("f1 yellow l1", AzulMove(1, YELLOW, 1)),
    ],
)
def test_parse_is_lenient(text: str, move: AzulMove) -> None:
    assert azul.new(players=2, seed=1).parse_move(text) == move


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("f3 purple 4", "'purple' is not a tile colour"),
        ("purple f3 4", "'purple' is not a tile colour"),
        ("f6 red 4", "There is no factory 6; this game has factories 1 to 5."),
        ("f3 red 6", "Pattern lines are numbered 1 to 5"),
        ("f3 red", "Say where the tiles go"),
        ("f3", "Say which colour"),
        ("red 4", "Say where you take from"),
        ("", "That move is empty"),
        ("f3 red 4 5", "I can't read"),
        ("f3 red 4 %", "I can't read"),
        ("f3 red " + "4" * 50, "too long"),
    ],
)
def test_bad_move_text_is_explained(text: str, message: str) -> None:
    with pytest.raises(InvalidMoveText, match=message):
        azul.new(players=2, seed=1).parse_move(text)


def test_illegal_moves_say_why_and_change_nothing() -> None:
    state = position(
        boards=[board(0, ("", "", "", "b", ""), colour_wall((2, 4))), board()],
        factories=["bbyy", "", "rkkk"],
        centre="w",
    )
    before = state.to_json()
    cases = [
        ("f3 blue 1", "Factory 3 has no blue tiles."),
        ("f2 red 1", "Factory 2 is empty."),
        ("c red 1", "The centre has no red tiles."),
        ("f3 red 4", "Line 4 already holds blue."),
        ("f3 red 2", "Your wall's row 2 already has red."),
    ]
    for text, message in cases:
        with pytest.raises(IllegalMove) as error:
            state.play(text)
        assert str(error.value) == message
    with pytest.raises(InvalidMoveText, match="not an Azul move"):
        state.play((1, 0, 1, 0))  # type: ignore[arg-type]
    with pytest.raises(IllegalMove, match="There is no factory 12"):
        state.play(AzulMove(12, RED, 1))
    assert state.to_json() == before


def test_move_text_round_trips() -> None:
    state = azul.new(players=4, seed=2)
    for move in state.legal_moves():
        text = state.move_text(move)
        assert text == text.lower().strip() and state.parse_move(text) == move
    assert state.move_text(AzulMove(CENTRE, BLACK, FLOOR)) == "c black floor"
    assert state.move_text(AzulMove(9, WHITE, 5)) == "f9 white 5"


def test_board_text_and_summaries() -> None:
    state = azul.new(players=2, seed=16, first_player=0)
    assert summary_text(state) == "Round 1 begins; Player 1 starts."
    text = state.board_text()
    assert text.startswith("Azul, round 1, factory offer: player 1 to move; bag 80, lid 0.")
    assert "f1 BYYR" in text and "centre: - + first-player marker" in text
    state = state.play("f1 yellow 2")
    assert summary_text(state, ["Ana", "Bo"]) == "Ana took 2 yellow from factory 1 into line 2."
    assert "  2    YY | w b y r k" in state.board_text()


# -- saved games --------------------------------------------------------------------------------


def _mid_game() -> AzulState:
    rng = random.Random(4)
    state = azul.new(players=3, seed=4)
    while state.round < 2 or state.to_move != state.starter:
        state = state.play(rng.choice(state.legal_moves()))
    for _ in range(3):
        state = state.play(rng.choice(state.legal_moves()))
    return state


def test_json_round_trip_is_exact() -> None:
    state = _mid_game()
    saved = state.to_json()
    assert json.loads(json.dumps(saved)) == saved
    assert azul.from_json(json.loads(json.dumps(saved))) == state
    assert GAMES["azul"].from_json(saved).to_json() == saved


def _broken(change: Any) -> dict:
    data = copy.deepcopy(_mid_game().to_json())
    change(data)
    return data


BAD_CHANGES = {
    "not a dict": lambda d: d.clear(),
    "other game": lambda d: d.update(game="pond"),
    "future format": lambda d: d.update(format=3),
    "unknown option": lambda d: d["options"].update(colourblind=True),
    "first player not a seat": lambda d: d["options"].update(first_player=5),
    "too many players": lambda d: d.update(players=5),
    "round zero": lambda d: d.update(round=0),
    "round as text": lambda d: d.update(round="2"),
    "unknown phase": lambda d: d.update(phase="break"),
    "tiling on the coloured wall": lambda d: d.update(phase="tiling"),
    "turn out of range": lambda d: d.update(turn=3),
    "turn as bool": lambda d: d.update(turn=True),
    "negative rng": lambda d: d.update(rng=-1),
    "one tile too many": lambda d: d["bag"].__setitem__(0, d["bag"][0] + 1),
    "negative bag": lambda d: d.update(bag=[-1, 0, 0, 0, 0]),
    "short lid": lambda d: d.update(lid=[0, 0]),
    "factory of five": lambda d: d["factories"].__setitem__(0, "bbbbb"),
    "factory out of order": lambda d: d["factories"].__setitem__(0, "yb"),
    "missing factory": lambda d: d["factories"].pop(),
    "strange tile": lambda d: d.update(centre="bq"),
    "wall colour in the wrong place": lambda d: d["boards"][0]["wall"].__setitem__(0, "y...."),
    "short wall row": lambda d: d["boards"][0]["wall"].__setitem__(0, "...."),
    "overfull line": lambda d: d["boards"][0]["lines"].__setitem__(1, "bbb"),
    "mixed line": lambda d: d["boards"][0]["lines"].__setitem__(2, "by"),
    "floor of eight": lambda d: d["boards"][0].update(floor="bbbbbbbb"),
    "two markers": lambda d: d["boards"][1].update(floor="mm"),
    "negative score": lambda d: d["boards"][1].update(score=-3),
    "missing board": lambda d: d["boards"].pop(),
    "marker on another floor": lambda d: d.update(marker=(d["marker"] + 1) % 3 if d["marker"] >= 0 else 0),
    "leaver still playing": lambda d: d.update(left=[d["turn"]]),
    "leaver twice": lambda d: d.update(left=[1, 1]),
    "result while playing": lambda d: d.update(result={"winners": [0], "scores": [0, 0, 0], "reason": "x"}),
    "last move off the table": lambda d: d["last"].update(move=[12, 0, 1, 0]),
    "last move counts": lambda d: d["last"].update(taken=9),
    "last move placement": lambda d: d["last"].update(placements=[[0, 6, 1, 0, 1]]),
    "no last move mid-game": lambda d: d.update(last=None),
    "missing key": lambda d: d.pop("boards"),
}


@pytest.mark.parametrize("name", sorted(BAD_CHANGES))
def test_bad_json_is_refused(name: str) -> None:
    with pytest.raises(InvalidState):
        azul.from_json(_broken(BAD_CHANGES[name]))


def test_line_holding_a_colour_its_wall_row_has_is_refused() -> None:
    with pytest.raises(InvalidState, match="already has"):
        position(boards=[board(0, ("", "r", "", "", ""), colour_wall((2, 4))), board()], factories=["b"])


def test_grey_wall_repeats_are_refused() -> None:
    wall = ["b....", "b....", ".....", ".....", "....."]
    with pytest.raises(InvalidState, match="repeats a colour"):
        position(boards=[board(0, wall=wall), board()], factories=["k"], wall="grey")


def test_damaged_json_only_ever_raises_invalid_state() -> None:
    garbage: list[Any] = [None, -1, 7, "x", "", [], {}, 1.5, True, [None], {"a": 1}]
    original = _mid_game().to_json()
    rng = random.Random(0)

    def paths(value: Any, prefix: tuple) -> list[tuple]:
        found = [prefix]
        if isinstance(value, dict):
            for key, item in value.items():
                found += paths(item, (*prefix, key))
        elif isinstance(value, list):
            for index, item in enumerate(value):
                found += paths(item, (*prefix, index))
        return found

    for path in paths(original, ())[1:]:
        for junk in rng.sample(garbage, 4):
            data = copy.deepcopy(original)
            target = data
            for key in path[:-1]:
                target = target[key]
            target[path[-1]] = junk
            try:
                state = azul.from_json(data)
            except InvalidState:
                continue
            assert azul.from_json(state.to_json()) == state  # whatever is accepted is a sound state
    for junk in garbage:
        with pytest.raises(InvalidState):
            azul.from_json(junk)


def test_errors_are_game_errors_with_sentences() -> None:
    state = azul.new(players=2, seed=1)
    for text in ("nonsense", "f9 red 1", "c red 1"):
        with pytest.raises(GameError) as error:
            state.play(text)
        message = str(error.value)
        assert message[0].isupper() and message.endswith(".")
