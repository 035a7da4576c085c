"""Summer: worked examples of the rules (``docs/summer.md``), geometry, setup, notation, errors and saved games."""

from __future__ import annotations

import doctest
import json
import random
from typing import Any

import pytest

from engines import GAMES, GameError, IllegalMove, InvalidMoveText, InvalidOption, InvalidState, summer
from engines.summer import SummerMove, SummerState
from i18n import result_text, summary_text


def interior(size: int, row: str) -> list[str]:
    """Return a terrain with ``row`` (a string of size marks) on every rank between the start rows."""
    return ["." * size] + [row] * (size - 2) + ["." * size]


def position(
    terrain: list[str],
    pieces: dict[str, str],
    *,
    last: str,
    mode: str = "classic",
    board: str = "square",
    max_plies: int | None = None,
) -> SummerState:
    """Build a position through ``from_json``: ``pieces`` maps cells to ``W3``/``B6``.

    ``last`` is the previous ply (onto an empty cell), whose piece stands on its
    target in ``pieces``; the other side is to move.
    """
    size = len(terrain)
    options: dict[str, Any] = {"size": size, "board": board, "mode": mode, "terrain": terrain}
    options.update(weights=[size] * size, black_weights=[size] * size)
    if max_plies is not None:
        options["max_plies"] = max_plies
    start = summer.new(seed=1, **options)
    data = start.to_json()
    grid = [["."] * size for _ in range(size)]
    for name, code in pieces.items():
        grid[int(name[1:]) - 1][ord(name[0]) - ord("a")] = code
    to = last.split("-")[1]
    code = pieces[to]
    player = 0 if code[0] == "W" else 1
    modifier = data["options"]["terrain"][int(to[1:]) - 1][ord(to[0]) - ord("a")]
    modifier = {"+": 1, "-": -1, ".": 0}[modifier]
    move = list(start.parse_move(last))
    event = {"player": player, "move": move, "weight": int(code[1:]) - modifier, "resident": 0, "action": "moved"}
    event.update(modifier=modifier, result=summer.piece_from_code(code), zeroed=False)
    ply = 1 if player == 0 else 2
    data.update(board=grid, turn=ply % 2, ply=ply, last=event)
    return summer.from_json(data)


def cell(state: SummerState, name: str) -> str:
    """Return the piece text on a named cell."""
    return summer.piece_code(state.board[state.parse_cell(name)])


# -- the 12 worked examples, for White and mirrored for Black -------------------

# (mode, mover, resident or None, cell: "+", "-" or "start", expected piece on the target, action)
EXAMPLES = [
    ("classic", 3, None, "+", "W4", summer.MOVED),
    ("classic", 1, None, "-", ".", summer.MOVED),
    ("classic", 2, "W5", "-", "W6", summer.MERGED),
    ("classic", 5, "W2", "+", "W4", summer.MERGED),
    ("classic", 3, "W3", "+", ".", summer.DESTROYED),
    ("classic", 6, "B4", "-", "W1", summer.COLLIDED),
    ("classic", 4, "B6", "+", "B2", summer.COLLIDED),
    ("classic", 4, "B4", "+", ".", summer.DESTROYED),
    ("field", 2, "B6", "+", "W9", summer.FIELD_WIN),
    ("field", 2, "B6", "-", "B4", summer.COLLIDED),
    ("field", 5, "B5", "start", ".", summer.DESTROYED),
    ("classic", 1, "W1", "-", ".", summer.DESTROYED),
]


def swap(code: str) -> str:
    return {"W": "B", "B": "W"}[code[0]] + code[1:] if code != "." else code


@pytest.mark.parametrize("black", [False, True], ids=["white", "black"])
@pytest.mark.parametrize(("number", "example"), list(enumerate(EXAMPLES, 1)))
def test_worked_examples(number: int, example: tuple, black: bool) -> None:
    mode, weight, resident, kind, expected, action = example
    mark = "+" if kind == "+" else "-"
    terrain = interior(8, mark * 8)
    if black:
        # Black's mirror image: from c7 towards rank 1; the start-row case lands on c1.
        frm, to = ("c2", "c1") if kind == "start" else ("c7", "c6")
        pieces = {frm: f"B{weight}", "h1": "W1"}
        last = "g1-h1"
        resident, expected = (swap(resident) if resident else None), swap(expected)
    else:
        frm, to = ("c7", "c8") if kind == "start" else ("c2", "c3")
        pieces = {frm: f"W{weight}", "h8": "B1"}
        last = "g8-h8"
    if resident:
        pieces[to] = resident
    state = position(terrain, pieces, last=last, mode=mode)
    after = state.play(f"{frm}-{to}")
    assert cell(after, to) == expected, f"example {number}"
    assert cell(after, frm) == "."
    event = after.last
    assert event is not None and event.action == action
    assert event.zeroed == (number == 2)
    # The cell's ±1 reaches only the mover's surviving piece.
    mover_survives = expected != "." and expected[0] == ("B" if black else "W")
    assert event.modifier == (
        0 if kind == "start" or not (mover_survives or event.zeroed) else (1 if kind == "+" else -1)
    )
    assert summary_text(after).startswith(f"{'Black' if black else 'White'} moved {frm}-{to} ({weight})")
    assert summer.from_json(json.loads(json.dumps(after.to_json()))) == after


# Per worked example, what the engine says about the pieces (White's version; mover 0, other side 1):
# (owner of the resident, onto own, survivor before the cell's ±1, whose piece survived, piece removed on the target)
EXAMPLE_PIECES = [
    (None, False, 3, 0, None),
    (None, False, 1, 0, (0, 1)),  # the minus cell takes the mover's 1 to 0: it weighed 1
    (0, True, 7, 0, None),
    (0, True, 3, 0, None),
    (0, True, 0, None, (0, 3)),
    (1, False, 2, 0, None),
    (1, False, 2, 1, None),  # the beaten mover never stood on the target
    (1, False, 0, None, (1, 4)),
    (1, False, 8, 0, None),
    (1, False, 4, 1, None),
    (1, False, 0, None, (1, 5)),
    (0, True, 0, None, (0, 1)),
]


@pytest.mark.parametrize("black", [False, True], ids=["white", "black"])
@pytest.mark.parametrize(
    ("number", "example", "pieces"),
    [(n, *pair) for n, pair in enumerate(zip(EXAMPLES, EXAMPLE_PIECES, strict=True), 1)],
)
def test_events_name_the_owners_and_the_removed_piece(number: int, example: tuple, pieces: tuple, black: bool) -> None:
    mode, weight, resident, kind, _, _ = example
    terrain = interior(8, ("+" if kind == "+" else "-") * 8)
    if black:
        frm, to = ("c2", "c1") if kind == "start" else ("c7", "c6")
        board, last = {frm: f"B{weight}", "h1": "W1"}, "g1-h1"
        resident = swap(resident) if resident else None
    else:
        frm, to = ("c7", "c8") if kind == "start" else ("c2", "c3")
        board, last = {frm: f"W{weight}", "h8": "B1"}, "g8-h8"
    if resident:
        board[to] = resident
    event = position(terrain, board, last=last, mode=mode).play(f"{frm}-{to}").last_event
    assert event is not None

    def seat(side: int | None) -> int | None:
        return None if side is None else side ^ black

    owner, own, survivor, survivor_owner, removed = pieces
    assert event.resident_owner == seat(owner), f"example {number}"
    assert event.onto_own is own
    assert event.survivor == survivor
    assert event.survivor_owner == seat(survivor_owner)
    assert event.removed_piece == (None if removed is None else (seat(removed[0]), removed[1]))


def test_owner_of_reads_the_sign_of_a_piece() -> None:
    assert [summer.owner_of(v) for v in (1, 12, -1, -7)] == [0, 0, 1, 1]


def test_pieces_left_and_home_count_each_side() -> None:
    state = position(interior(4, "+-+-"), {"a1": "B2", "b1": "W3", "c4": "W1", "d4": "B4", "b3": "B1"}, last="b4-b3")
    assert [state.pieces_left(p) for p in (0, 1)] == [2, 3]
    # White's goal row is rank 4 (c4), Black's rank 1 (a1); the pieces of the other side there do not count.
    assert [state.pieces_home(p) for p in (0, 1)] == [1, 1]
    start = summer.new(size=5, seed=2)
    assert [start.pieces_left(p) for p in (0, 1)] == [5, 5] and [start.pieces_home(p) for p in (0, 1)] == [0, 0]


def test_goal_distance_counts_the_ranks_still_to_cross() -> None:
    for shape in ("square", "hex"):
        state = summer.new(size=5, board=shape, seed=3)
        white, black = state.geometry.goal_distance
        for cell in range(25):
            rank, _ = state.rank_file(cell)
            assert white[cell] == state.goal_distance(cell, 0) == 4 - rank
            assert black[cell] == state.goal_distance(cell, 1) == rank
        # A forward move brings a piece one rank nearer its goal row, a sideways move none.
        for move in state.legal_moves():
            assert white[move.frm] - white[move.to] == (1 if move.to >= move.frm + 2 else 0)


def test_equal_collision_is_destroyed_on_a_minus_cell_too() -> None:
    state = position(interior(8, "-" * 8), {"c2": "W4", "c3": "B4", "h8": "B1"}, last="g8-h8")
    after = state.play("c2-c3")
    assert cell(after, "c3") == "." and after.last is not None and after.last.action == summer.DESTROYED


def test_summary_lines_say_what_happened() -> None:
    state = position(interior(8, "+" * 8), {"c2": "W2", "c3": "B6", "h8": "B1"}, last="g8-h8", mode="field")
    assert summary_text(state.play("c2-c3")) == (
        "White moved c2-c3 (2) into Black's 6 on a plus cell: the mover wins with 8; the plus cell makes it 9."
    )
    state = position(interior(8, "-" * 8), {"c2": "W1", "d2": "W4", "h8": "B1"}, last="g8-h8")
    assert summary_text(state.play("c2-c3")) == ("White moved c2-c3 (1) to a minus cell: it is removed.")
    assert summary_text(state.play("d2-d3")) == "White moved d2-d3 (4) to a minus cell: now 3."
    state = position(interior(8, "+" * 8), {"c2": "W4", "c3": "B6", "a2": "W1", "h8": "B1"}, last="g8-h8")
    assert summary_text(state.play("c2-c3")) == "White moved c2-c3 (4) into Black's 6: Black's piece survives with 2."
    assert summary_text(GAMES["summer"].new(seed=3)) == "The game has begun."


# -- the end of the game --------------------------------------------------------

END_TERRAIN = ["....", "++--", "-+-+", "...."]


def end_position(**kwargs: Any) -> SummerState:
    """The 4x4 end example: W4 home on a4, W2 one step away on c3; B3 home on a1, B1 on d2."""
    pieces = {"a4": "W4", "c3": "W2", "a1": "B3", "d2": "B1"}
    return position(END_TERRAIN, pieces, last="a2-a1", **kwargs)


def test_end_example_white_arrives_and_black_gets_one_last_move() -> None:
    state = end_position().play("c3-c4")
    assert state.outcome() is None and state.to_move == 1
    assert state.white_arrived and state.black_last_move
    assert summary_text(state).endswith("All White pieces have arrived: Black has one last move.")
    assert "one last move" in state.board_text()
    ended = state.play("d2-d1")
    outcome = ended.outcome()
    assert outcome is not None and outcome.winners == (0,) and outcome.scores == (6, 4)
    assert outcome.places == (1, 2)
    assert result_text(ended) == "All Black pieces have reached rank 1: White wins 6 to 4."
    assert ended.legal_moves() == () and ended.to_move is None
    # A last move that does not bring Black home ends the game all the same.
    other = state.play("a1-b1")
    outcome = other.outcome()
    assert outcome is not None and outcome.scores == (6, 3)
    assert result_text(other) == "Black has made its last move: White wins 6 to 3."


def test_end_example_black_arriving_first_ends_at_once() -> None:
    state = end_position().play("c3-b3")  # White keeps a piece on the way
    assert state.outcome() is None
    ended = state.play("d2-d1")
    outcome = ended.outcome()
    assert outcome is not None and outcome.is_draw and outcome.scores == (4, 4) and outcome.places == (1, 1)
    assert result_text(ended) == "All Black pieces have reached rank 1: the goal rows are level at 4, a draw."


def test_black_removing_whites_last_laggard_ends_the_game() -> None:
    # White's W4 has just reached a4; its W1 on c2 is the last one on the way.
    state = position(END_TERRAIN, {"a4": "W4", "c2": "W1", "d3": "B3", "b4": "B2"}, last="a3-a4")
    ended = state.play("d3-c2")  # B3 beats W1: B2, and the minus cell makes it B1
    outcome = ended.outcome()
    assert outcome is not None
    assert result_text(ended) == "Black's move left every White piece on rank 4: White wins 4 to 0."


def test_white_losing_its_last_piece_gives_black_one_last_move() -> None:
    state = position(END_TERRAIN, {"c2": "W1", "d3": "B3", "b4": "B2"}, last="a4-b4")
    after = state.play("c2-c3")  # a minus cell: weight 0, removed
    assert after.outcome() is None and after.black_last_move
    assert summary_text(after).endswith("White has no pieces left: Black has one last move.")
    ended = after.play("d3-d2")
    outcome = ended.outcome()
    assert (
        outcome is not None
        and result_text(ended) == "Black has made its last move: the goal rows are level at 0, a draw."
    )


def test_black_with_no_pieces_left_ends_the_game() -> None:
    state = position(END_TERRAIN, {"c2": "W3", "c3": "B3", "b1": "W1"}, last="a1-b1")
    assert state.to_move == 1
    after = state.play("c3-c2")  # equal collision: both removed, Black has nothing left
    outcome = after.outcome()
    assert outcome is not None and result_text(after).startswith("Black has no pieces left: ")


def test_move_limit_scores_the_position_and_says_so() -> None:
    state = end_position(max_plies=3)
    ended = state.play("c3-c4")  # White has arrived, but the limit comes before Black's last move
    outcome = ended.outcome()
    assert outcome is not None and "ended by the move limit" in result_text(ended).lower()
    assert outcome.scores == (6, 3) and outcome.winners == (0,)
    option = next(o for o in summer.OPTIONS if o.name == "max_plies")
    assert "safety limit" in option.description.lower()
    assert summer.new(size=5).max_plies == 100 and summer.new().max_plies == 256


def test_forfeit_scores_the_goal_rows() -> None:
    state = end_position().play("c3-c4")
    ended = state.forfeit(1, "forfeit")
    outcome = ended.outcome()
    assert outcome is not None and outcome.winners == (0,) and outcome.scores == (6, 3)
    with pytest.raises(IllegalMove):
        ended.forfeit(0)
    with pytest.raises(IllegalMove):
        state.forfeit(2)


# -- moves and geometry -----------------------------------------------------------


def targets(state: SummerState, name: str) -> set[str]:
    frm = state.parse_cell(name)
    return {state.cell_name(m.to) for m in state.legal_moves() if m.frm == frm}


def test_square_moves_forward_diagonal_and_sideways_never_backward() -> None:
    terrain = interior(8, "+" * 8)
    state = position(terrain, {"c2": "W3", "a3": "W2", "e8": "W1", "d5": "B2", "h8": "B1"}, last="g8-h8")
    assert targets(state, "c2") == {"b2", "d2", "b3", "c3", "d3"}
    assert targets(state, "a3") == {"b3", "a4", "b4"}
    assert targets(state, "e8") == {"d8", "f8"}  # on the goal row only sideways
    black = state.play("c2-c3")
    assert targets(black, "d5") == {"c5", "e5", "c4", "d4", "e4"}
    assert targets(black, "h8") == {"g8", "g7", "h7"}


def test_hex_worked_example_moves() -> None:
    terrain = interior(6, "+" * 6)
    state = position(terrain, {"d3": "W3", "d4": "W2", "f6": "B1"}, last="e6-f6", board="hex")
    # Row 2 (even), column 3 -> row 2 columns 2, 4 and row 3 columns 2, 3.
    assert targets(state, "d3") == {"c3", "e3", "c4", "d4"}
    # Row 3 (odd), column 3 -> row 3 columns 2, 4 and row 4 columns 3, 4.
    assert targets(state, "d4") == {"c4", "e4", "d5", "e5"}
    black = position(terrain, {"d4": "B2", "a1": "W1"}, last="b1-a1", board="hex")
    # Black on row 3, column 3 -> row 3 columns 2, 4 and row 2 columns 3, 4.
    assert targets(black, "d4") == {"c4", "e4", "d3", "e3"}


def test_hex_edges_and_goal_row() -> None:
    terrain = interior(6, "-" * 6)
    state = position(terrain, {"a3": "W3", "f4": "W2", "c6": "W1", "a6": "B1"}, last="b6-a6", board="hex")
    assert targets(state, "a3") == {"b3", "a4"}  # even row at the left edge: only one cell ahead
    assert targets(state, "f4") == {"e4", "f5"}  # odd row at the right edge
    assert targets(state, "c6") == {"b6", "d6"}
    with pytest.raises(IllegalMove, match="hex board"):
        state.play("a3-b4")


def test_a_piece_always_has_a_move_so_only_the_end_empties_legal_moves() -> None:
    for size in (3, 8, 12):
        for shape in ("square", "hex"):
            geo = summer.geometry(size, shape == "hex")
            for player in (0, 1):
                assert all(geo.moves[player]), (size, shape, player)


# -- random games -------------------------------------------------------------------


@pytest.mark.parametrize(
    "config", [{}, {"board": "hex"}, {"mode": "field", "size": 5}, {"board": "hex", "size": 7, "mode": "field"}]
)
def test_random_game_invariants(config: dict[str, Any]) -> None:
    for seed in range(25):
        rng = random.Random(seed)
        start = summer.new(seed=seed, **config)
        state = start
        size = state.size
        while state.legal_moves():
            move = rng.choice(state.legal_moves())
            player = state.turn
            ahead = 1 if player == 0 else -1
            assert (move.to // size - move.frm // size) * ahead >= 0, "no piece moves backward"
            after = state.play(move)
            assert after.terrain == start.terrain, "the terrain never changes"
            assert all(after.piece_at(c) is None or after.piece_at(c)[1] >= 1 for c in range(size * size))
            for sign in (1, -1):
                assert sum(1 for v in after.board if v * sign > 0) <= sum(1 for v in state.board if v * sign > 0)
            assert sum(map(abs, after.board)) <= sum(map(abs, state.board)) + 1
            event = after.last
            assert event is not None and event.player == player and event.move == move
            assert after.board[move.to] == event.result and after.board[move.frm] == 0
            state = after
        outcome = state.outcome()
        assert outcome is not None and outcome.scores == state.scores()


def test_random_games_replay_from_the_seed() -> None:
    rng = random.Random(5)
    state = summer.new(seed=11, board="hex", size=7)
    texts = []
    while state.legal_moves():
        move = rng.choice(state.legal_moves())
        texts.append(state.move_text(move))
        state = state.play(move)
    replay = summer.new(seed=11, board="hex", size=7)
    for text in texts:
        replay = replay.play(text)
    assert replay == state


# -- setup ----------------------------------------------------------------------------


def terrain_grid(state: SummerState) -> list[list[int]]:
    n = state.size
    return [[state.terrain_at(r * n + f) for f in range(n)] for r in range(n)]


@pytest.mark.parametrize("shape", ["square", "hex"])
@pytest.mark.parametrize("size", range(3, 13))
def test_seeded_terrain_is_mirrored(size: int, shape: str) -> None:
    for seed in range(4):
        grid = terrain_grid(summer.new(seed=seed, size=size, board=shape))
        n = size
        assert grid[0] == [0] * n and grid[n - 1] == [0] * n
        assert all(v in (1, -1) for row in grid[1 : n - 1] for v in row)
        for r in range(n):
            for f in range(n):
                if shape == "hex" and n % 2 == 0:
                    assert grid[r][f] == grid[n - 1 - r][n - 1 - f]  # point reflection
                else:
                    assert grid[r][f] == grid[n - 1 - r][f]  # rank r mirrors rank N+1-r


def test_seeded_terrain_is_about_half_plus() -> None:
    cells = [v for seed in range(40) for v in summer.new(seed=seed).terrain if v]
    assert 0.4 < cells.count(1) / len(cells) < 0.6


def test_seeded_weights() -> None:
    for seed in range(30):
        state = summer.new(seed=seed, size=6)
        assert all(1 <= w <= 6 for w in state.weights)
        assert sorted(state.black_weights) == sorted(state.weights)
        assert state.board[:6] == state.weights
        assert state.board[-6:] == tuple(-w for w in state.black_weights)
        assert state.board[6:-6] == (0,) * 24
    assert summer.new(seed=4) == summer.new(seed=4)
    assert len({summer.new(seed=s).weights for s in range(10)}) > 1


def test_explicit_options() -> None:
    state = summer.new(seed=9, size="5", weights="1, 2, 3, 4, 5", black_weights=[5, 4, 3, 2, 1])
    assert state.weights == (1, 2, 3, 4, 5) and state.black_weights == (5, 4, 3, 2, 1)
    # A seed's terrain does not depend on whether the weights were given.
    assert state.terrain == summer.new(seed=9, size=5).terrain
    given = summer.new(seed=9, size=5, weights=[1, 2, 3, 4, 5])
    assert sorted(given.black_weights) == [1, 2, 3, 4, 5]
    state = summer.new(size=3, terrain="... / +-+ / ...")
    assert state.options()["terrain"] == ["...", "+-+", "..."]
    assert summer.new(size=3, terrain=["...", "-+-", "..."]).terrain[3:6] == (-1, 1, -1)


@pytest.mark.parametrize(
    ("options", "words"),
    [
        ({"size": 2}, "at least 3"),
        ({"size": 13}, "at most 12"),
        ({"board": "round"}, "square, hex"),
        ({"mode": "chaos"}, "classic, field"),
        ({"max_plies": 0}, "at least 1"),
        ({"weights": [1, 2]}, "8 weights"),
        ({"weights": [9] * 8}, "from 1 to 8"),
        ({"weights": "a b"}, "whole numbers"),
        ({"weights": [True] * 8}, "whole numbers"),
        ({"black_weights": [1] * 8}, "weights too"),
        ({"weights": [1] * 8, "black_weights": [2] * 8}, "permutation"),
        ({"size": 3, "terrain": ["...", "+-+"]}, "3 ranks"),
        ({"size": 3, "terrain": ["+..", "+-+", "..."]}, "start row"),
        ({"size": 3, "terrain": ["...", "+.+", "..."]}, "only '+' and '-'"),
        ({"size": 3, "terrain": 7}, "one string"),
        ({"colour": "red"}, "Unknown option"),
    ],
)
def test_bad_options_are_readable(options: dict[str, Any], words: str) -> None:
    with pytest.raises(InvalidOption) as error:
        summer.new(seed=1, **options)
    message = str(error.value)
    assert words in message and message.endswith(".")


# -- notation and errors ------------------------------------------------------------------


def test_parse_is_lenient_and_round_trips() -> None:
    state = summer.new(seed=2)
    move = SummerMove(state.parse_cell("c2"), state.parse_cell("c3"))
    for text in ("c2-c3", "C2 c3", "c2 - c3", "  C2-C3 ", "c2c3", "c2->c3", "c2 to c3", "c 2 - c 3"):
        assert state.parse_move(text) == move, text
    assert state.move_text(move) == "c2-c3"
    hexed = summer.new(seed=2, board="hex", size=12)
    for m in hexed.legal_moves():
        assert hexed.parse_move(hexed.move_text(m)) == m
    assert hexed.parse_move("L1 k2") == SummerMove(11, 22)


@pytest.mark.parametrize("text", ["", "c2", "pass", "c2-c3-c4", "c2 c3 please", "x" * 50, "2c-3c"])
def test_unreadable_moves(text: str) -> None:
    with pytest.raises(InvalidMoveText) as error:
        summer.new().play(text)
    assert str(error.value).endswith(".")


def test_off_board_and_non_text_moves() -> None:
    state = summer.new(size=5)
    with pytest.raises(InvalidMoveText, match=r"f1 is not on this 5x5 board \(a1 to e5\)\."):
        state.parse_move("f1-f2")
    with pytest.raises(InvalidMoveText):
        state.play(42)  # type: ignore[arg-type]
    with pytest.raises(IllegalMove):
        state.play(SummerMove(0, 99))
    with pytest.raises(IllegalMove):
        state.play(SummerMove("a1", "a2"))  # type: ignore[arg-type]
    with pytest.raises(InvalidMoveText):
        state.parse_cell("zz")


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("c3-c4", "There is no piece on c3."),
        ("c8-c7", "The piece on c8 is Black's; you move only your own."),
        ("c1-c3", "not such a move"),
        ("c1-e2", "not such a move"),
        ("c1-c1", "another cell"),
    ],
)
def test_illegal_moves_are_readable_and_change_nothing(text: str, words: str) -> None:
    state = summer.new(seed=3)
    before = state.to_json()
    with pytest.raises(IllegalMove) as error:
        state.play(text)
    assert words in str(error.value)
    assert state.to_json() == before


def test_backward_moves_are_refused() -> None:
    state = position(interior(8, "+" * 8), {"c3": "W3", "h8": "B1"}, last="g8-h8")
    with pytest.raises(IllegalMove, match="never move backward; c2 is behind c3"):
        state.play("c3-c2")
    with pytest.raises(IllegalMove, match="never move backward"):
        state.play("c3-d2")


def test_finished_game_refuses_moves() -> None:
    ended = end_position().play("c3-c4").play("d2-d1")
    with pytest.raises(IllegalMove, match=r"The game is over\."):
        ended.play("a4-b4")
    with pytest.raises(IllegalMove):
        ended.play(SummerMove(12, 13))


# -- saved games --------------------------------------------------------------------------------


def saved() -> dict[str, Any]:
    state = summer.new(seed=6, size=5)
    for text in ("a1-a2", "a5-a4"):
        state = state.play(text)
    return json.loads(json.dumps(state.to_json()))


def test_saved_games_round_trip() -> None:
    data = saved()
    state = summer.from_json(data)
    assert state.to_json() == data
    assert summer.from_json(state.to_json()) == state
    assert data["board"][0][0] == "." and data["last"]["move"] == list(state.parse_move("a5-a4"))


def damaged(path: tuple[Any, ...], value: Any) -> dict[str, Any]:
    data = saved()
    target: Any = data
    for key in path[:-1]:
        target = target[key]
    if value is KeyError:
        del target[path[-1]]
    else:
        target[path[-1]] = value
    return data


@pytest.mark.parametrize(
    "data",
    [
        pytest.param(None, id="not-a-dict"),
        pytest.param([], id="list"),
        pytest.param({"game": "pond", "format": 1}, id="other-game"),
        pytest.param(damaged(("format",), 3), id="format"),
        pytest.param(damaged(("options",), KeyError), id="no-options"),
        pytest.param(damaged(("options",), "big"), id="options-not-object"),
        pytest.param(damaged(("options", "size"), 20), id="bad-size"),
        pytest.param(damaged(("options", "terrain"), ["....."] * 5), id="bad-terrain"),
        pytest.param(damaged(("options", "weights"), [9, 9, 9, 9, 9]), id="bad-weights"),
        pytest.param(damaged(("seed",), -3), id="bad-seed"),
        pytest.param(damaged(("board",), [["."] * 5] * 4), id="board-rows"),
        pytest.param(damaged(("board", 2, 2), "W0"), id="weight-0"),
        pytest.param(damaged(("board", 2, 2), "X3"), id="bad-piece"),
        pytest.param(damaged(("board", 2, 2), 3), id="piece-not-text"),
        pytest.param(damaged(("board", 2, 2), "W999"), id="too-heavy"),
        pytest.param(damaged(("board", 2), ["W1"] * 5), id="too-many-pieces"),
        pytest.param(damaged(("turn",), 1), id="turn"),
        pytest.param(damaged(("ply",), "2"), id="ply-text"),
        pytest.param(damaged(("ply",), 0), id="ply-zero-needs-start"),
        pytest.param(damaged(("last",), None), id="no-last"),
        pytest.param(damaged(("last", "result"), "B9"), id="last-result"),
        pytest.param(damaged(("last", "move"), "a5-a3"), id="last-move-shape"),
        pytest.param(damaged(("last", "move"), 7), id="last-move-type"),
        pytest.param(damaged(("last", "player"), 0), id="last-player"),
        pytest.param(damaged(("last", "action"), "merged"), id="last-action"),
        pytest.param(damaged(("last", "zeroed"), 1), id="last-zeroed"),
        pytest.param(damaged(("last",), KeyError), id="last-missing"),
        pytest.param(damaged(("result",), {"winners": [0], "scores": [1, 0], "reason": "x"}), id="result-scores"),
        pytest.param(damaged(("result",), {"winners": [5], "scores": [0, 0], "reason": "x"}), id="result-winner"),
        pytest.param(damaged(("options", "max_plies"), 2), id="should-be-over"),
    ],
)
def test_bad_json_is_refused_with_invalid_state(data: Any) -> None:
    with pytest.raises(InvalidState):
        summer.from_json(data)


def test_a_live_game_that_should_have_ended_is_refused() -> None:
    data = end_position().play("c3-c4").play("d2-d1").to_json()
    data["result"] = None
    with pytest.raises(InvalidState, match="already be over"):
        summer.from_json(data)


# -- text for players and the renderer ------------------------------------------------------------------


def test_board_text_and_reading_helpers() -> None:
    state = summer.new(size=3, weights=[1, 2, 3], black_weights=[3, 1, 2], terrain=["...", "+-+", "..."])
    text = state.board_text()
    assert " 3   B3   B1   B2" in text and " 2  +    -    +" in text and " 1   W1   W2   W3" in text
    assert "White to move." in text and "White 0, Black 0" in text
    assert state.pieces[0] == (0, 1) and state.pieces[4] is None and state.goal_totals() == (0, 0)
    assert state.piece_at(0) == (0, 1) and state.piece_at(8) == (1, 2) and state.piece_at(4) is None
    assert state.terrain_at(3) == 1 and state.terrain_at(4) == -1 and state.rank_file(5) == (1, 2)
    assert not state.white_arrived and not state.black_arrived and not state.black_last_move
    hexed = summer.new(size=4, board="hex")
    assert "\n 2    " in hexed.board_text()  # odd rows are drawn half a cell to the right


def test_the_module_example_runs() -> None:
    failures, tried = doctest.testmod(summer)
    assert tried and not failures


def test_registered() -> None:
    assert GAMES["summer"] is summer.SPEC
    assert GAMES["summer"].seat_names(2) == ("white", "black")
    configs = summer.SPEC.test_configs
    assert {c.get("board", "square") for c in configs} == {"square", "hex"}
    assert {c.get("mode", "classic") for c in configs} == {"classic", "field"}
    assert issubclass(InvalidState, GameError)
