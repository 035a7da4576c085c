"""Querni: the worked examples of the rules, move counts against an independent search, invariants, notation."""

from __future__ import annotations

import contextlib
import copy
import json
import random
from itertools import pairwise
from typing import Any

import pytest

from engines import GAMES, GameError, IllegalMove, InvalidMoveText, InvalidOption, InvalidState
from engines import querni as q
from engines.querni import QuerniMove, QuerniState
from i18n import result_text, summary_text

FILES = "abcdefghij"


def layout_state(layout: dict[str, str], **options: Any) -> QuerniState:
    """Start a game from a hand-made layout."""
    return q.new(layout=layout, **options)


def assert_sentence(message: str, words: str) -> None:
    """Check that an error reads as a sentence for a player and says ``words``."""
    assert words in message and message.endswith(".") and "Error" not in message
    assert message[0].isupper() or message[:2] in q.INDEX or message[:3] in q.INDEX  # "g4 is occupied."


def sq(name: str) -> int:
    """Return the engine's index of square ``name``."""
    return q.INDEX[name]


# -- an independent reference: the rules written plainly, sharing nothing with the engine ----------
#
# A position is a dict {(file, rank): (colour, number)} with files 0-9 and ranks 0-6.

Pieces = dict[tuple[int, int], tuple[int, int]]
KING = [(df, dr) for df in (-1, 0, 1) for dr in (-1, 0, 1) if (df, dr) != (0, 0)]


def ref_name(square: tuple[int, int]) -> str:
    return f"{FILES[square[0]]}{square[1] + 1}"


def on_board(square: tuple[int, int]) -> bool:
    return 0 <= square[0] < 10 and 0 <= square[1] < 7


def touching(a: tuple[int, int], b: tuple[int, int]) -> bool:
    return a != b and abs(a[0] - b[0]) <= 1 and abs(a[1] - b[1]) <= 1


def ref_pieces(state: QuerniState) -> Pieces:
    pieces: Pieces = {}
    for cell in range(70):
        piece = state.piece(cell)
        if piece is not None:
            pieces[(cell % 10, cell // 10)] = piece
    return pieces


def ref_jump_sequences(pieces: Pieces, start: tuple[int, int]) -> list[list[tuple[int, int]]]:
    """Every jump sequence from ``start``, as lists of landings, by plain depth-first enumeration."""
    others = {square for square in pieces if square != start}  # the mover has left its square
    found: list[list[tuple[int, int]]] = []

    def extend(path: list[tuple[int, int]]) -> None:
        here = path[-1]
        for df, dr in KING:
            over = (here[0] + df, here[1] + dr)
            land = (here[0] + 2 * df, here[1] + 2 * dr)
            if on_board(land) and over in others and land not in others and land not in path:
                found.append([*path, land])
                extend([*path, land])

    extend([start])
    return found


def ref_ends(pieces: Pieces, start: tuple[int, int]) -> set[tuple[int, int]]:
    steps = {(start[0] + df, start[1] + dr) for df, dr in KING}
    ends = {s for s in steps if on_board(s) and s not in pieces}
    ends.update(seq[-1] for seq in ref_jump_sequences(pieces, start))
    return ends


def ref_chains(pieces: Pieces, colour: int) -> list[tuple[int, int]]:
    at = {number: square for square, (c, number) in pieces.items() if c == colour}
    chains = []
    for lo in range(1, 17):
        for hi in range(lo + 2, 17):
            numbers = range(lo, hi + 1)
            if all(n in at for n in numbers) and all(touching(at[n], at[n + 1]) for n in range(lo, hi)):
                chains.append((lo, hi))
    return chains


def ref_turns(pieces: Pieces, player: int) -> dict[str, Pieces]:
    """Every turn text of ``player`` mapped to the position after it."""
    turns: dict[str, Pieces] = {"pass": pieces}
    for lo, hi in ref_chains(pieces, player):
        turns[f"x{lo}-{hi}"] = ref_remove(pieces, player, lo, hi)
    for start, (colour, number) in pieces.items():
        if colour != player:
            continue
        for end in ref_ends(pieces, start):
            moved = {s: p for s, p in pieces.items() if s != start}
            moved[end] = (colour, number)
            text = f"{ref_name(start)}-{ref_name(end)}"
            turns[text] = moved
            for lo, hi in ref_chains(moved, player):
                turns[f"{text} x{lo}-{hi}"] = ref_remove(moved, player, lo, hi)
    return turns


def ref_remove(pieces: Pieces, colour: int, lo: int, hi: int) -> Pieces:
    return {s: p for s, p in pieces.items() if not (p[0] == colour and lo <= p[1] <= hi)}


def ref_over(pieces: Pieces, player: int, removed: bool, counter: int, limit: int, isolation: str) -> bool:
    if not removed:
        return counter >= limit
    left = sorted(n for c, n in pieces.values() if c == player)
    if not left:
        return True
    runs: list[int] = []
    for n in left:
        if runs and n - 1 in left:
            runs[-1] += 1
        else:
            runs.append(1)
    if isolation == "any_stranded":
        return min(runs) < 3
    return max(runs) < 3


def ref_perft(
    pieces: Pieces, player: int, counter: int, depth: int, limit: int = 30, isolation: str = "any_stranded"
) -> int:
    turns = ref_turns(pieces, player)
    if depth == 1:
        return len(turns)
    total = 0
    for text, after in turns.items():
        removed = "x" in text
        next_counter = 0 if removed else counter + 1
        if not ref_over(after, player, removed, next_counter, limit, isolation):
            total += ref_perft(after, 1 - player, next_counter, depth - 1, limit, isolation)
    return total


def engine_perft(state: QuerniState, depth: int) -> int:
    moves = state.legal_moves()
    if depth == 1:
        return len(moves)
    return sum(engine_perft(after, depth - 1) for after in (state.play(m) for m in moves) if after.outcome() is None)


# -- setup ----------------------------------------------------------------------------------------


def test_start_squares_are_fixed_and_the_numbers_are_a_seeded_shuffle_per_side() -> None:
    state = q.new(seed=11)
    pieces = ref_pieces(state)
    blue = {s for s, (c, _) in pieces.items() if c == 0}
    red = {s for s, (c, _) in pieces.items() if c == 1}
    assert blue == {(f, r) for f in range(1, 9) for r in (0, 1)}
    assert red == {(f, r) for f in range(1, 9) for r in (5, 6)}
    for colour in (0, 1):
        assert sorted(n for c, n in pieces.values() if c == colour) == list(range(1, 17))
    assert state.to_move == 0 and state.removed == (0, 0) and state.counter == 0
    assert q.new(seed=11) == state
    layouts = {tuple(q.new(seed=seed).board) for seed in range(20)}
    assert len(layouts) == 20, "different seeds number the pieces differently"
    # Each side draws its own permutation: red's numbers are not blue's mirrored.
    blue_order = [state.piece(c)[1] for c in q.START_SQUARES[0]]
    red_order = [state.piece(c)[1] for c in q.START_SQUARES[1]]
    assert blue_order != red_order


def test_a_layout_places_pieces_and_the_rest_count_as_removed() -> None:
    state = layout_state({"d2": "B4", "E3": "r5", "a1": "blue 16"})
    assert state.piece(sq("d2")) == (0, 4) and state.piece(sq("e3")) == (1, 5) and state.piece(sq("a1")) == (0, 16)
    assert state.removed == (14, 15)
    assert state.options()["layout"] == {"a1": "B16", "d2": "B4", "e3": "R5"}
    assert q.new(layout="d2=B4, e3=R5, a1=B16") == state


@pytest.mark.parametrize(
    ("layout", "words"),
    [
        ({"k2": "B4", "a1": "R1"}, "square"),
        ({"d0": "B4", "a1": "R1"}, "square"),
        ({"d2": "B17", "a1": "R1"}, "piece"),
        ({"d2": "B0", "a1": "R1"}, "piece"),
        ({"d2": "G4", "a1": "R1"}, "piece"),
        ({"d2": "B4", "d3": "B4", "a1": "R1"}, "twice"),
        ({"d2": "B4"}, "red"),
        ({"a1": "R1"}, "blue"),
        ({}, "blue"),
        ("d2 B4", "layout"),
        (["d2", "B4"], "layout"),
        ({"d2": 4, "a1": "R1"}, "piece"),
    ],
)
def test_bad_layouts_are_refused_politely(layout: Any, words: str) -> None:
    with pytest.raises(InvalidOption) as caught:
        q.new(layout=layout)
    assert words in str(caught.value) and str(caught.value).endswith(".")


@pytest.mark.parametrize(
    "options",
    [{"isolation": "never"}, {"draw_plies": 0}, {"draw_plies": "many"}, {"draw_count": "turns"}, {"variant": "x"}],
)
def test_bad_options_are_refused(options: dict[str, Any]) -> None:
    with pytest.raises(InvalidOption):
        q.new(**options)


def test_blue_starts_and_pass_is_always_legal() -> None:
    state = q.new(seed=3)
    assert state.to_move == 0 and state.legal_moves()[0] == q.PASS
    after = state.play("pass")
    assert after.to_move == 1 and after.legal_moves()[0] == q.PASS and after.counter == 1


# -- worked example 1: jumps ----------------------------------------------------------------------

EXAMPLE_1 = {"c3": "B1", "d4": "R1", "f5": "B2", "g4": "R2", "f4": "R3"}


def test_example_1_multi_jump_ends_and_steps() -> None:
    state = layout_state(EXAMPLE_1)
    jumps = {"e5", "g5", "g3", "e3", "c5"}
    steps = {"b2", "b3", "b4", "c2", "c4", "d2", "d3"}
    reached = {state.cell_name(c) for c in state.reachable(sq("c3"))}
    assert reached == jumps | steps
    from_c3 = {state.move_text(m) for m in state.legal_moves() if m.frm == sq("c3")}
    assert from_c3 == {f"c3-{end}" for end in jumps | steps}
    # The reference's literal enumeration agrees and contains the sequence the rules quote.
    sequences = ref_jump_sequences(ref_pieces(state), (2, 2))
    assert {ref_name(seq[-1]) for seq in sequences} == jumps
    named = [[ref_name(s) for s in seq] for seq in sequences]
    assert ["c3", "e5", "g5", "e3", "c5"] in named
    assert ["c3", "e5", "g5", "g3", "e5"] not in named  # e5 twice
    assert ["c3", "e5", "c3"] not in named  # back to the start


def test_example_1_paths_are_real_jump_sequences() -> None:
    state = layout_state(EXAMPLE_1)
    for end in ("e5", "g5", "g3", "e3", "c5"):
        path = state.path(f"c3-{end}")
        assert state.cell_name(path[0]) == "c3" and state.cell_name(path[-1]) == end
        assert len(set(path)) == len(path), "no square is landed on twice, the start included"
        for a, b in pairwise(path):
            (fa, ra), (fb, rb) = (a % 10, a // 10), (b % 10, b // 10)
            assert {abs(fa - fb), abs(ra - rb)} <= {0, 2} and (fa, ra) != (fb, rb), "each hop is a straight jump"
            assert state.board[((ra + rb) // 2) * 10 + (fa + fb) // 2], "each jump passes over a piece"
    assert [state.cell_name(c) for c in state.path("c3-e5")] == ["c3", "e5"]
    assert [state.cell_name(c) for c in state.path("c3-b2")] == ["c3", "b2"]
    assert len(state.path("c3-c5")) == 5  # c3 e5 g5 e3 c5 is the only way
    assert state.path("pass") == () and state.path("x1-3") == ()


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("c3-c3", "another square"),
        ("c3-g4", "occupied"),
        ("c3-c6", "cannot reach"),
        ("c3-a5", "cannot reach"),
        ("d4-d5", "red's"),
        ("a1-a2", "no piece"),
    ],
)
def test_example_1_illegal_moves_are_explained(text: str, words: str) -> None:
    state = layout_state(EXAMPLE_1)
    with pytest.raises(IllegalMove) as caught:
        state.play(text)
    assert_sentence(str(caught.value), words)


def test_the_played_event_records_the_path_and_the_jumped_pieces() -> None:
    state = layout_state(EXAMPLE_1)
    after = state.play("c3-c5")
    event = after.last
    assert event is not None and event.piece == 1 and event.player == 0
    assert [after.cell_name(c) for c in event.path] == ["c3", "e5", "g5", "e3", "c5"]
    assert [after.cell_name(c) for c in event.jumped] == ["d4", "f5", "f4", "d4"]
    assert after.piece(sq("c5")) == (0, 1) and after.piece(sq("c3")) is None
    assert summary_text(after) == "Blue jumped 1 c3-e5-g5-e3-c5; 1 of 30 plies without a removal."
    assert summary_text(state.play("c3-d3")) == "Blue moved 1 c3-d3; 1 of 30 plies without a removal."


def test_jumps_cannot_pass_over_the_movers_empty_start() -> None:
    # b1 jumps over c2 to d3; from d3 a jump back over c2 would land on b1, the start; and from d3
    # nothing may jump "over" b1's own emptied square.  a1's piece sits behind the start.
    state = layout_state({"b1": "B1", "c2": "R1", "a1": "R2", "e4": "R3"})
    reached = {state.cell_name(c) for c in state.reachable(sq("b1"))}
    assert "d3" in reached and "f5" in reached and "b1" not in reached
    assert reached == {ref_name(s) for s in ref_ends(ref_pieces(state), (1, 0))}


# -- worked examples 2 and 3: chains ---------------------------------------------------------------

EXAMPLE_2 = {"d2": "B4", "e3": "B5", "e4": "B6", "f5": "B7", "h5": "B8", "a7": "R1"}


def test_example_2_chains() -> None:
    state = layout_state(EXAMPLE_2)
    assert state.chains() == ((4, 6), (4, 7), (5, 7))
    removals = [state.move_text(m) for m in state.legal_moves() if m.frm < 0 and m.lo > 0]
    assert removals == ["x4-6", "x4-7", "x5-7"]
    with pytest.raises(IllegalMove, match="at least 3"):
        state.play("x4-5")
    with pytest.raises(IllegalMove, match="8 does not touch your 7"):
        state.play("x4-8")
    with pytest.raises(IllegalMove, match="no longer on the board"):
        state.play("x2-4")


def test_example_3_colours_do_not_mix() -> None:
    state = layout_state({"d2": "B4", "e3": "R5", "e4": "B6", "j7": "R6"})
    assert state.chains(0) == () and state.chains(1) == ()
    assert not any(m.lo > 0 for m in state.legal_moves())
    assert not any(m.lo > 0 for m in state.play("pass").legal_moves())


def test_a_removal_is_judged_after_the_move() -> None:
    state = layout_state(EXAMPLE_2)
    # Moving 8 next to 7 makes 4..8 a chain; moving 5 away breaks 4..6 and 4..7 (and 5..7).
    made = {state.move_text(m) for m in state.legal_moves() if m.frm == sq("h5")}
    assert "h5-g5 x4-8" in made and "h5-g5 x6-8" in made and "h5-j5 x4-8" not in made
    broke = {state.move_text(m) for m in state.legal_moves() if m.frm == sq("e3") and m.to == sq("e2")}
    assert broke == {"e3-e2"}
    with pytest.raises(IllegalMove, match="after your move"):
        state.play("e3-e2 x4-6")
    after = state.play("h5-g5 x6-8")
    assert after.last is not None
    assert [(n, after.cell_name(c)) for n, c in after.last.removed] == [(6, "e4"), (7, "f5"), (8, "g5")]
    assert after.removed == (14, 15) and after.counter == 0


# -- worked example 4: stranding -------------------------------------------------------------------

EXAMPLE_4 = {
    "a1": "B1", "b1": "B2", "c1": "B3", "d1": "B4", "e1": "B5",
    "a3": "B9", "b3": "B10", "c3": "B11", "j7": "R1",
}  # fmt: skip


@pytest.mark.parametrize(
    ("removal", "loses", "stranded"),
    [("x2-4", True, "1, 5"), ("x1-3", True, "4, 5"), ("x3-5", True, "1, 2"), ("x1-5", False, ""), ("x9-11", False, "")],
)
def test_example_4_stranding(removal: str, loses: bool, stranded: str) -> None:
    before = layout_state(EXAMPLE_4)
    assert ", ".join(map(str, before.strands(removal))) == stranded  # said before it is played
    after = before.play(removal)
    outcome = after.outcome()
    if not loses:
        assert outcome is None and after.to_move == 1
        return
    assert outcome is not None and outcome.winners == (1,) and outcome.places == (2, 1)
    assert f"stranded {stranded}," in result_text(after) and after.legal_moves() == ()
    assert result_text(after) in summary_text(after)


def test_no_triple_left_loses_only_when_no_three_consecutive_numbers_remain() -> None:
    assert layout_state(EXAMPLE_4, isolation="no_triple_left").play("x2-4").outcome() is None
    short = {k: v for k, v in EXAMPLE_4.items() if v != "B11"}  # 1..5, 9, 10
    for isolation in ("any_stranded", "no_triple_left"):
        outcome = layout_state(short, isolation=isolation).play("x1-5").outcome()
        assert outcome is not None and outcome.winners == (1,)
    outcome = layout_state(short, isolation="no_triple_left").play("x1-3").outcome()
    assert outcome is not None and "no three consecutive numbers" in result_text(
        layout_state(short, isolation="no_triple_left").play("x1-3")
    )


@pytest.mark.parametrize("isolation", ["any_stranded", "no_triple_left"])
def test_strands_names_exactly_the_removals_that_lose_at_once(isolation: str) -> None:
    rng = random.Random(f"strands-{isolation}")
    for game in range(6):
        state = q.new(seed=game, isolation=isolation)
        while state.to_move is not None and state.ply < 240:
            for move in state.legal_moves():
                outcome = state.play(move).outcome()
                loses = outcome is not None and outcome.termination in ("stranded", "no_triple")
                assert bool(state.strands(move)) == loses, state.move_text(move)
            state = state.play(rng.choice(state.legal_moves()))


def test_removing_every_piece_wins_before_stranding_is_judged() -> None:
    state = layout_state({"a1": "B1", "b1": "B2", "c1": "B3", "j7": "R1"})
    outcome = state.play("x1-3").outcome()
    assert outcome is not None and outcome.winners == (0,) and outcome.scores == (16, 15)
    assert outcome.places == (1, 2)


# -- worked example 5: the draw counter ------------------------------------------------------------

DRAW_LAYOUT = {
    "a1": "B1", "j1": "B5",
    "b7": "R1", "c7": "R2", "d7": "R3", "e7": "R4", "f7": "R5", "g7": "R6",
}  # fmt: skip


def passes(state: QuerniState, count: int) -> QuerniState:
    for _ in range(count):
        state = state.play("pass")
    return state


@pytest.mark.parametrize("last", ["pass", "b7-b6"])
def test_example_5_the_thirtieth_ply_without_a_removal_draws(last: str) -> None:
    state = passes(layout_state(DRAW_LAYOUT), 29)
    assert state.counter == 29 and state.outcome() is None and state.to_move == 1
    ended = state.play(last)
    outcome = ended.outcome()
    assert outcome is not None and outcome.is_draw and outcome.places == (1, 1) and ended.counter == 30
    assert "30 plies" in result_text(ended) and ended.legal_moves() == ()


def test_example_5_a_removal_on_the_thirtieth_ply_restarts_the_counter() -> None:
    state = passes(layout_state(DRAW_LAYOUT), 29).play("x1-3")
    assert state.outcome() is None and state.counter == 0 and state.removed == (14, 13)
    assert "0 of 30 plies" in summary_text(state)
    assert passes(state, 29).outcome() is None and passes(state, 30).outcome() is not None


def test_the_draw_options() -> None:
    assert passes(layout_state(DRAW_LAYOUT, draw_plies=4), 4).outcome() is not None
    by_moves = layout_state(DRAW_LAYOUT, draw_count="moves")
    assert passes(by_moves, 59).outcome() is None
    outcome = passes(by_moves, 60).outcome()
    assert outcome is not None and outcome.is_draw and "30 full moves" in result_text(passes(by_moves, 60))
    assert "full moves" in by_moves.board_text()


# -- move counts against the independent reference -------------------------------------------------

MIDGAME = {
    "c3": "B1", "d4": "B2", "e4": "B3", "f4": "B4", "g5": "B5", "f6": "B7", "b2": "B9", "h2": "B12",
    "d5": "R1", "e5": "R2", "e3": "R3", "g3": "R5", "c5": "R6", "h6": "R8", "i6": "R9", "i7": "R10",
}  # fmt: skip
CROWD = {
    "d3": "B1", "e3": "B2", "f3": "B3", "d4": "B4", "f4": "B5", "d5": "B6", "e5": "B7", "f5": "B8",
    "c2": "R1", "c4": "R2", "c6": "R3", "e2": "R4", "e6": "R5", "g2": "R6", "g4": "R7", "g6": "R8",
}  # fmt: skip

# (position, depth 1, depth 2): computed by the reference search above and checked against the engine.
PERFT = [
    ("seed 0", 116, 13786),
    ("seed 42", 166, 7006),
    ("example 1", 22, 621),
    ("example 2", 143, 204),
    ("midgame", 283, 7528),
    ("crowd", 215, 12001),
]


def perft_position(name: str) -> QuerniState:
    if name.startswith("seed "):
        return q.new(seed=int(name.split()[1]))
    layouts = {"example 1": EXAMPLE_1, "example 2": EXAMPLE_2, "midgame": MIDGAME, "crowd": CROWD}
    return layout_state(layouts[name])


@pytest.mark.slow
@pytest.mark.parametrize(("name", "depth1", "depth2"), PERFT)
def test_move_counts_match_the_reference_search(name: str, depth1: int, depth2: int) -> None:
    state = perft_position(name)
    pieces = ref_pieces(state)
    assert {state.move_text(m) for m in state.legal_moves()} == set(ref_turns(pieces, 0))
    assert (engine_perft(state, 1), engine_perft(state, 2)) == (depth1, depth2)
    assert (ref_perft(pieces, 0, 0, 1), ref_perft(pieces, 0, 0, 2)) == (depth1, depth2)


# -- random games ---------------------------------------------------------------------------------


def check_position(state: QuerniState) -> None:
    """Check the invariants every position keeps."""
    values = [v for v in state.board if v]
    assert len(values) == len(set(values)), "a piece stands on one square only"
    assert len(state.board) == 70
    for colour in (0, 1):
        on_board = sum(1 for v in values if q.COLOUR[v] == colour)
        assert on_board + state.removed[colour] == 16
    where = state.where()
    for value in range(1, 33):
        cell = where[value]
        assert (cell >= 0 and state.board[cell] == value) or (cell == -1 and value not in values)
    assert 0 <= state.counter <= state.draw_limit


def check_event(before: QuerniState, after: QuerniState, move: QuerniMove) -> None:
    """Check that the event describes what changed between two positions."""
    event = after.last
    assert event is not None and event.move == move and event.player == before.turn
    if move.frm >= 0:
        path = event.path
        assert path[0] == move.frm and path[-1] == move.to and len(set(path)) == len(path)
        if len(path) > 2 or move.to not in q.NEAR_SET[move.frm]:
            assert len(event.jumped) == len(path) - 1
            assert all(before.board[c] for c in event.jumped if c != move.frm)
        assert event.piece == q.NUMBER[before.board[move.frm]]
        # The engine tells the bot beforehand what the event says afterwards: the route, and step or jump.
        route = before.route(move)
        assert route.path == path and route.jumped == event.jumped and route.jumps == len(event.jumped)
        (r0, f0), (r1, f1) = divmod(path[0], 10), divmod(path[-1], 10)
        assert event.stepped is route.stepped is (len(path) == 2 and max(abs(r1 - r0), abs(f1 - f0)) == 1)
    else:
        assert event.path == () and not event.stepped
    assert before.removal_squares(move) == tuple(cell for _, cell in event.removed)
    if move.lo >= 0:
        assert [n for n, _ in event.removed] == list(range(move.lo, move.hi + 1))
        for n, cell in event.removed:
            assert after.board[cell] == 0
            assert before.square_of(before.turn, n) in (cell, move.frm)
        assert after.counter == 0
    else:
        assert after.counter == before.counter + 1


def test_route_says_step_or_jump_and_removal_squares_follow_the_moved_piece() -> None:
    state = q.new(layout={"c3": "B1", "d4": "B2", "e4": "B3", "f5": "R1", "j7": "R2"})
    step = state.route("c3-d3")
    assert step.stepped and step.jumps == 0 and [state.cell_name(c) for c in step.path] == ["c3", "d3"]
    # c3 over d4 to e5, then e5 over f5 to g5.
    jumps = state.route("c3-g5")
    assert not jumps.stepped and jumps.jumps == 2
    assert [state.cell_name(c) for c in jumps.path] == ["c3", "e5", "g5"]
    assert [state.cell_name(c) for c in jumps.jumped] == ["d4", "f5"]
    one = state.route("c3-e5")
    assert not one.stepped and one.jumps == 1 and [state.cell_name(c) for c in one.jumped] == ["d4"]
    assert state.route("pass") == ((), ())
    turning = state.route("c3-c5")  # over d4, then e4, then d4 again: jumps turn freely
    assert [state.cell_name(c) for c in turning.path] == ["c3", "e5", "e3", "c5"] and turning.jumps == 3
    with pytest.raises(IllegalMove):
        state.route("c3-h1")
    # The chain's squares as they stand once the piece has moved: 1 now on e5.
    assert [state.cell_name(c) for c in state.removal_squares("c3-e5 x1-3")] == ["e5", "d4", "e4"]
    assert [state.cell_name(c) for c in state.removal_squares("x1-3")] == ["c3", "d4", "e4"]
    assert state.removal_squares("c3-e5") == ()
    after = state.play("c3-d3")
    assert after.last_event is not None and after.last_event.stepped
    assert not state.play("c3-e5").last_event.stepped


@pytest.mark.slow
@pytest.mark.parametrize("config", [{}, {"isolation": "no_triple_left", "draw_plies": 12}])
def test_random_games_keep_the_invariants_and_agree_with_the_reference(config: dict[str, Any]) -> None:
    rng = random.Random(2024)
    compared = 0
    for seed in range(20):
        state = q.new(seed=seed, **config)
        while state.outcome() is None:
            check_position(state)
            moves = state.legal_moves()
            assert {state.move_text(m) for m in moves} == set(ref_turns(ref_pieces(state), state.turn))
            compared += 1
            # Favour removals now and then but mostly avoid losing ones, so that games reach the
            # later, emptier positions.
            removals = [m for m in moves if m.lo > 0]
            for _ in range(6):
                move = rng.choice(removals if removals and rng.random() < 0.3 else moves)
                after = state.play(move)
                if after.outcome() is None or after.outcome().winners == (state.turn,):
                    break
            check_event(state, after, move)
            assert summary_text(after)
            state = after
        check_position(state)
    assert compared > 150


# -- notation and errors --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("c3-e5", "c3-e5"),
        ("  C3 E5 ", "c3-e5"),
        ("c3e5", "c3-e5"),
        ("c3 - e5", "c3-e5"),
        ("c3->e5", "c3-e5"),
        ("c3 to e5", "c3-e5"),
        ("x4-7", "x4-7"),
        ("X4..7", "x4-7"),
        ("x 4-7", "x4-7"),
        ("x 4 7", "x4-7"),
        ("x4 .. 7", "x4-7"),
        ("x7-4", "x4-7"),
        ("c3-e5 x4-7", "c3-e5 x4-7"),
        ("C3 E5 X 4..7", "c3-e5 x4-7"),
        ("c3-e5, x4-7", "c3-e5 x4-7"),
        ("c3–e5 x4–7", "c3-e5 x4-7"),
        ("PASS", "pass"),
        (" pass ", "pass"),
    ],
)
def test_parsing_is_lenient_and_text_is_canonical(text: str, canonical: str) -> None:
    state = q.new(seed=1)
    move = state.parse_move(text)
    assert state.move_text(move) == canonical
    assert state.parse_move(canonical) == move


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("", "can't read"),
        ("hello", "can't read"),
        ("x47", "can't read"),
        ("c3", "both"),
        ("k3-e5", "no square"),
        ("c8-c7", "no square"),
        ("x0-4", "numbered 1 to 16"),
        ("x4-17", "numbered 1 to 16"),
        ("x4-7 c3-e5", "Move first"),
        ("c3-e5 x4", "can't read"),
        ("c3-e5 " * 10, "too long"),
    ],
)
def test_unreadable_turns_get_a_readable_error(text: str, words: str) -> None:
    state = q.new(seed=1)
    with pytest.raises(InvalidMoveText) as caught:
        state.play(text)
    assert_sentence(str(caught.value), words)


def test_illegal_values_and_finished_games_are_refused_without_change() -> None:
    state = q.new(seed=1)
    before = state.to_json()
    for bad in (QuerniMove(-1, 5, -1, -1), QuerniMove(-1, -1, 4, -1), QuerniMove(-2, -1, -1, -1), (1, 2, 3, 4)):
        with pytest.raises(GameError):
            state.play(bad)  # type: ignore[arg-type]
    with pytest.raises(IllegalMove, match="at least 3"):
        state.play("x4-5")
    assert state.to_json() == before
    over = state.forfeit(0, "forfeit")
    with pytest.raises(IllegalMove, match="over"):
        over.play("pass")
    assert summary_text(over) == "Blue resigned."


def test_board_text_and_summaries() -> None:
    state = q.new(seed=0)
    text = state.board_text()
    assert text.splitlines()[0].startswith("7") and "blue to move" in text and "0 of 30 plies" in text
    assert summary_text(state) == "The game has begun: blue moves first."
    assert summary_text(state.play("pass")) == "Blue passed; 1 of 30 plies without a removal."
    removal = layout_state(EXAMPLE_2).play("x5-7")
    assert summary_text(removal).startswith("Blue removed the chain 5-7 (e3 e4 f5); 0 of 30")


# -- saving and restoring -------------------------------------------------------------------------


def test_json_round_trip_of_a_layout_game_with_events() -> None:
    state = layout_state(EXAMPLE_2, isolation="no_triple_left", draw_plies=9, draw_count="moves")
    for text in ("h5-g5", "a7-b7", "e3-d3", "b7-c7", "x4-8"):
        state = state.play(text)
        saved = json.loads(json.dumps(state.to_json()))
        assert q.from_json(saved) == state and GAMES["querni"].from_json(saved).to_json() == saved
    outcome = state.outcome()
    assert outcome is not None and outcome.winners == (0,)


def saved_game() -> dict[str, Any]:
    state = layout_state(EXAMPLE_2).play("h5-g5").play("pass")
    return json.loads(json.dumps(state.to_json()))


def corrupt(path: tuple[Any, ...], value: Any) -> dict[str, Any]:
    data = copy.deepcopy(saved_game())
    target: Any = data
    for key in path[:-1]:
        target = target[key]
    if value is DELETE:
        del target[path[-1]]
    else:
        target[path[-1]] = value
    return data


DELETE = object()
BAD_SAVES = [
    (("game",), "pond"),
    (("format",), 3),
    (("seed",), -1),
    (("seed",), "7"),
    (("options",), []),
    (("options", "isolation"), "never"),
    (("options", "layout"), {"z9": "B1"}),
    (("board",), "board"),
    (("board", 0), ["..."] * 10),
    (("board", 0, 0), "B4"),  # a second blue 4
    (("board", 0, 0), "b1"),
    (("board", 0, 0), "Q1"),
    (("board", 0, 0), 5),
    (("board", 6), None),
    (("options", "layout", "a7"), "R2"),  # the board's red 1 was never in the game
    (("removed",), [14, 15, 0]),
    (("removed", 0), 13),
    (("removed", 1), True),
    (("counter",), 99),
    (("counter",), -1),
    (("turn",), 1),
    (("ply",), 3),
    (("ply",), "2"),
    (("result",), {"winners": [5], "scores": [11, 15], "reason": "x"}),
    (("result",), "over"),
    (("last",), None),
    (("last",), []),
    (("last", "player"), 0),
    (("last", "move"), [1, 2]),
    (("last", "move", 0), 99),
    (("last", "counter"), 1),
    (("last", "path"), [9, 9]),
    (("last", "removed"), [[1, 2]]),
    (("last", "piece"), 3),
    (("counter",), DELETE),
    (("last",), DELETE),
    (("board",), DELETE),
]


@pytest.mark.parametrize(("path", "value"), BAD_SAVES)
def test_damaged_saves_are_refused_with_invalid_state(path: tuple[Any, ...], value: Any) -> None:
    with pytest.raises(InvalidState):
        q.from_json(corrupt(path, value))


def test_a_save_before_the_first_ply_must_hold_the_start() -> None:
    data = q.new(seed=4).to_json()
    data["board"][0][1], data["board"][0][2] = data["board"][0][2], data["board"][0][1]
    with pytest.raises(InvalidState, match="start"):
        q.from_json(data)


def test_saves_of_finished_games_must_carry_their_result() -> None:
    ended = passes(layout_state(DRAW_LAYOUT, draw_plies=2), 2)
    data = ended.to_json()
    assert q.from_json(data) == ended
    data["result"] = None
    with pytest.raises(InvalidState, match="already be over"):
        q.from_json(data)
    stranded = layout_state(EXAMPLE_4).play("x2-4").to_json()
    stranded["result"] = None
    with pytest.raises(InvalidState, match="already be over"):
        q.from_json(stranded)


def test_fuzzed_saves_raise_only_invalid_state() -> None:
    rng = random.Random(5)
    junk = [None, -1, 0, 1, 70, "x", "..", "B1", [], {}, [1, 2], True, 2.5]
    original = saved_game()

    def spots(node: Any, path: tuple[Any, ...]) -> list[tuple[Any, ...]]:
        found = [path] if path else []
        if isinstance(node, dict):
            for key, value in node.items():
                found += spots(value, (*path, key))
        elif isinstance(node, list):
            for i, value in enumerate(node):
                found += spots(value, (*path, i))
        return found

    places = spots(original, ())
    for _ in range(400):
        path = rng.choice(places)
        data = corrupt(path, rng.choice(junk))
        with contextlib.suppress(InvalidState):  # anything else escaping fails the test
            q.from_json(data)
