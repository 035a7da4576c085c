"""Puzzles (ai.puzzles): a winning move planted in a position of every game is found and judged; a two-move win
is a line of two solver moves; an Azul line stops at the round's end; the opening is no puzzle; the same seed
makes the same puzzle.

Every planted position below is written out as the engine saves it, with a drawing of what matters, and the
tests check the plant itself (which moves win at once) before they check the search, so that a change in an
engine's rules shows up as a broken plant rather than as a puzzle the search missed.
"""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

import pytest

from ai.puzzles import Puzzle, answer, first_rating, make_puzzle, wins_at_once
from engines import GAMES, GameState
from engines.base import GameError

# Small budgets: near a game's end the search settles the exact result within a few playouts, and these are
# tests of the puzzles' logic, not of the search's strength (bench.puzzles checks the shipped set at full budget).
FEW = 60


def pond(board: list[list[str]], *, spawn: list[int], scored: list[int], ply: int) -> dict[str, Any]:
    """A saved game of Pond on the mini board (4x4, 10 eggs, 7 to win); ``board`` from rank 1 up."""
    return {
        "game": "pond",
        "format": 2,
        "seed": 1,
        "options": {"variant": "mini", "spawn": 10, "target": 7, "max_plies": 300},
        "board": board,
        "spawn": spawn,
        "scored": scored,
        "turn": ply % 2,
        "ply": ply,
        "result": None,
        "last": None,
    }


def azul(boards: list[dict[str, Any]], factories: list[str]) -> dict[str, Any]:
    """A saved game of Azul in its first round, the first player to move, nothing in the centre yet; the bag
    holds every tile that is not on the table or a board."""
    text = "".join(factories) + "".join("".join(b["wall"]) + "".join(b["lines"]) + b["floor"] for b in boards)
    counts = Counter(text)
    return {
        "game": "azul",
        "format": 2,
        "seed": 5,
        "players": len(boards),
        "options": {"first_player": None, "wall": "colour", "max_rounds": 100},
        "round": 1,
        "phase": "offer",
        "turn": 0,
        "starter": 0,
        "rng": 12345,
        "bag": [20 - counts[letter] for letter in "byrkw"],
        "lid": [0, 0, 0, 0, 0],
        "factories": factories,
        "centre": "",
        "marker": -1,
        "boards": boards,
        "left": [],
        "ply": 0,
        "result": None,
        "last": None,
    }


def azul_board(score: int, wall: list[str], lines: tuple[str, ...] = ("", "", "", "", "")) -> dict[str, Any]:
    """One player's Azul board (the wall's rows from the top, ``.`` an empty space)."""
    return {"score": score, "lines": list(lines), "wall": wall, "floor": ""}


EMPTY_ROWS = [".....", ".....", ".....", "....."]

# Azul's final round: the last tile on the table is one black.  Player 2's pattern line 1 already holds the black
# that completes their top row (the game ends at this round's tiling: +5 for the row's run, +2 for the row);
# player 1, two points ahead, wins only by completing their own top row with the same black (line 1), 27 to 25.
AZUL_2 = azul(
    [azul_board(20, ["byr.w", *EMPTY_ROWS]), azul_board(18, ["byr.w", *EMPTY_ROWS], ("k", "", "", "", ""))],
    ["k", "", "", "", ""],
)
# The same with a third player at 24: line 1 beats both opponents (27 to 25 and 24); anything else beats neither.
AZUL_3 = azul(
    [
        azul_board(20, ["byr.w", *EMPTY_ROWS]),
        azul_board(18, ["byr.w", *EMPTY_ROWS], ("k", "", "", "", "")),
        azul_board(24, [".....", *EMPTY_ROWS]),
    ],
    ["k", "", "", "", "", "", ""],
)


def querni() -> dict[str, Any]:
    """Querni, Blue to move with 14 15 16 left, Red with 1 2 3 (a standing chain: Red removes it and wins next):

    ```
    6  . . R1 R2 R3 . . . . .
    4  . . .  .  B14 B15 . B16 . .
       a b c  d  e   f   g h   i j
    ```
    Blue wins at once only by stepping 16 next to 15 (g3, g4 or g5) and removing 14..16.
    """
    rows = [[".."] * 10 for _ in range(7)]
    for code, cell in {"B14": "e4", "B15": "f4", "B16": "h4", "R1": "c6", "R2": "d6", "R3": "e6"}.items():
        rows[int(cell[1:]) - 1]["abcdefghij".index(cell[0])] = code
    red_passed = {"player": 1, "move": [-1, -1, -1, -1], "piece": 0, "path": [], "removed": [], "counter": 1}
    return {
        "game": "querni",
        "format": 2,
        "seed": 1,
        "options": {"layout": None, "isolation": "any_stranded", "draw_plies": 30, "draw_count": "plies"},
        "board": rows,
        "removed": [13, 13],
        "counter": 1,
        "turn": 0,
        "ply": 40,
        "result": None,
        "last": red_passed,
    }


def summer(
    board: str, weights: list[int], terrain: list[str], rows: list[list[str]], black: tuple[int, int, int, int]
) -> dict[str, Any]:
    """Summer on a 4x4 board, White to move at ply 12 after Black's move ``black`` (from cell, to cell, weight,
    the cell's modifier) to an empty cell; ``rows`` from rank 1 up."""
    start, end, weight, modifier = black
    return {
        "game": "summer",
        "format": 2,
        "seed": 1,
        "options": {
            "size": 4,
            "board": board,
            "mode": "classic",
            "max_plies": 64,
            "weights": weights,
            "black_weights": sorted(weights),
            "terrain": terrain,
        },
        "board": rows,
        "turn": 0,
        "ply": 12,
        "result": None,
        "last": {
            "player": 1,
            "move": [start, end],
            "weight": weight,
            "resident": 0,
            "action": "moved",
            "modifier": modifier,
            "result": -(weight + modifier),
            "zeroed": False,
        },
    }


# Each plant: the saved position, the winning moves (a win at once), and a legal move that does not win.
PLANTS: dict[str, tuple[dict[str, Any], set[str], str]] = {
    # Pond, mini board, dark to move, light 5 and dark 4 scored of 7:
    #   4  lE .. lT lE
    #   3  .. lT .. ..
    #   2  dE dF dE dF
    #   1  .. .. dT dE
    # Dark's tadpole c1 to b1 turns the frog on b2 back into an egg: three dark eggs on rank 2 score 3, 7 to 5.
    # Dark has no egg left to place; every other move lets light score a set and win first.
    "pond-mini": (
        pond(
            [["..", "..", "dT", "dE"], ["dE", "dF", "dE", "dF"], ["..", "lT", "..", ".."], ["lE", "..", "lT", "lE"]],
            spawn=[1, 0],
            scored=[5, 4],
            ply=29,
        ),
        {"move c1 b1"},
        "move d2 d3",
    ),
    "azul-2": (AZUL_2, {"f1 black 1"}, "f1 black floor"),
    "azul-3": (AZUL_3, {"f1 black 1"}, "f1 black 2"),
    "querni": (querni(), {"h4-g3 x14-16", "h4-g4 x14-16", "h4-g5 x14-16"}, "h4-g4"),
    # Summer, square board: White's 4 on b1 meets Black's last piece, a 4 on c2: both go, Black has nothing left
    # and the game ends with White's 2 on d4 home (2 to 0).  Otherwise Black's 4 walks home first and wins 4 to 2.
    "summer-square": (
        summer(
            "square",
            [4, 3, 4, 1],
            ["....", "-++-", "-++-", "...."],
            [["W2", "W4", ".", "."], [".", ".", "B4", "."], [".", ".", ".", "."], [".", ".", ".", "W2"]],
            (11, 6, 3, 1),
        ),
        {"b1-c2"},
        "a1-a2",
    ),
    # Summer, hex board (odd rows shifted right): White's 5 on b1 takes Black's last piece, the 4 on b2 (5 - 4,
    # then -1 on the minus cell: both gone), and White's 2 on c4 wins 2 to 0; otherwise Black's 4 gets home first.
    "summer-hex": (
        summer(
            "hex",
            [4, 1, 4, 1],
            ["....", "--++", "++--", "...."],
            [[".", "W5", ".", "."], [".", "B4", ".", "."], [".", ".", ".", "."], [".", ".", "W2", "."]],
            (6, 5, 5, -1),
        ),
        {"b1-b2"},
        "b1-a1",
    ),
}


def planted(name: str) -> tuple[GameState, set[str], str]:
    data, wins, wrong = PLANTS[name]
    return GAMES[data["game"]].from_json(data), wins, wrong


def legal_texts(state: GameState) -> list[str]:
    return [state.move_text(move) for move in state.legal_moves()]


def loses_at_once(state: GameState, move: str) -> bool:
    """Tell whether ``move`` lets the opponent win at once (or ends the game without the mover winning)."""
    after = state.play(state.parse_move(move))
    if after.outcome() is not None:
        return not wins_at_once(state, move)
    return any(wins_at_once(after, reply) for reply in legal_texts(after))


@pytest.mark.parametrize("name", sorted(PLANTS))
def test_the_plant_wins_at_once_and_nothing_else_does(name: str) -> None:
    state, wins, wrong = planted(name)
    texts = legal_texts(state)
    assert {text for text in texts if wins_at_once(state, text)} == wins
    assert wrong in texts
    assert all(loses_at_once(state, text) for text in texts if text not in wins)


@pytest.mark.parametrize("name", sorted(PLANTS))
def test_a_planted_win_is_found_and_judged(name: str) -> None:
    state, wins, wrong = planted(name)
    puzzle = make_puzzle(state, iterations=FEW, seed=7)
    assert puzzle is not None
    assert puzzle.game == state.game and puzzle.solver == state.to_move and puzzle.ply == state.ply
    assert len(puzzle.line) == 1 and puzzle.solver_moves[0] in wins
    assert puzzle.goal == "win"
    assert puzzle.value == 1.0 and puzzle.margin >= 0.35
    assert puzzle.choices == len(state.legal_moves())
    assert puzzle.state().to_json() == state.to_json()
    for move in wins:  # any win at once solves it, the line's or another
        assert answer(puzzle, 0, move) == "solved"
    assert answer(puzzle, 0, wrong) == "wrong"
    with pytest.raises(GameError):
        answer(puzzle, 0, "nonsense")


def test_an_illegal_move_is_refused_by_the_engine() -> None:
    state, _, _ = planted("pond-mini")
    puzzle = make_puzzle(state, iterations=FEW, seed=7)
    assert puzzle is not None
    with pytest.raises(GameError):
        answer(puzzle, 0, "move c1 a1")  # a tadpole steps one cell
    with pytest.raises(GameError):
        answer(puzzle, 0, "place a1")  # dark has no egg left


def test_any_of_several_wins_at_once_is_confirmed_whichever_each_search_settles_first() -> None:
    # In Querni three removals win; a search stops at the first win it settles, and which that is depends on its
    # seed.  The confirming search may settle another one: that is agreement, not doubt.
    state, wins, _ = planted("querni")
    found = [make_puzzle(state, iterations=FEW, seed=seed) for seed in range(8)]
    assert all(puzzle is not None and puzzle.solver_moves[0] in wins for puzzle in found)
    assert len({puzzle.line for puzzle in found if puzzle is not None}) > 1  # the seeds did settle different ones


# Pond, mini board, light to move, 6 to 6 of 7 (light has one egg left, dark none):
#   4  .. .. .. dE
#   3  dE .. .. ..
#   2  .. dT .. lF
#   1  lE lE dT ..
# Light's frog d2 to c2 turns b2 and c1 into frogs; whatever dark does then, light scores next move and wins.
# Every other light move lets dark score first.
WIN_IN_TWO = pond(
    [["lE", "lE", "dT", ".."], ["..", "dT", "..", "lF"], ["dE", "..", "..", ".."], ["..", "..", "..", "dE"]],
    spawn=[1, 0],
    scored=[6, 6],
    ply=28,
)


def test_a_win_in_two_is_a_line_of_two_solver_moves() -> None:
    state = GAMES["pond"].from_json(WIN_IN_TWO)
    texts = legal_texts(state)
    assert not any(wins_at_once(state, text) for text in texts)
    assert all(loses_at_once(state, text) for text in texts if text != "move d2 c2")
    puzzle = make_puzzle(state, iterations=FEW, seed=7)
    assert puzzle is not None
    assert len(puzzle.line) == 3 and puzzle.solver_moves[0] == "move d2 c2"
    assert puzzle.goal == "win" and puzzle.solver == 0
    reply = puzzle.line[1]
    second = puzzle.state_at(1)
    assert second.to_json() == state.play(state.parse_move("move d2 c2")).play(second.parse_move(reply)).to_json()
    assert second.to_move == puzzle.solver
    assert wins_at_once(second, puzzle.solver_moves[1])
    assert puzzle.state_at(0).to_json() == state.to_json()
    assert answer(puzzle, 0, "move d2 c2") == "right"
    assert answer(puzzle, 0, "move d2 d3") == "wrong"
    assert answer(puzzle, 1, puzzle.solver_moves[1]) == "solved"
    losing = next(text for text in legal_texts(second) if not wins_at_once(second, text))
    assert answer(puzzle, 1, losing) == "wrong"
    # A line of two solver moves rates harder than a win at once from as many choices would.
    assert puzzle.rating > first_rating(puzzle.choices, 1, puzzle.margin)


# Azul, not the last round: two takes are left, one red (factory 1) and four black (factory 2).  No pattern line
# of either player may take black (every wall row has one), so whoever takes the black drops all four to the
# floor.  Player 1's red on line 5 completes it, and the red then ends a run of four on the bottom row and fills
# column 2; player 2, well ahead, then has to take the black.  Player 2's reply ends the round.
ROUND_END = azul(
    [
        azul_board(10, [".yrk.", ".b.rk", "kw..r", "rk...", "y.kw."], ("", "", "", "", "rrrr")),
        azul_board(35, ["...k.", "....k", "k....", ".k...", "..k.."]),
    ],
    ["r", "kkkk", "", "", ""],
)


def test_an_azul_line_stops_at_the_rounds_end() -> None:
    state = GAMES["azul"].from_json(ROUND_END)
    puzzle = make_puzzle(state, iterations=FEW, seed=7)
    assert puzzle is not None
    assert puzzle.line == ("f1 red 5",)
    assert puzzle.goal == "best" and puzzle.gain == 0  # the red scores at the tiling, after the line
    assert [move for move, _ in puzzle.alternatives] == ["f1 red floor", "f2 black floor"]
    after = state.play(state.parse_move("f1 red 5"))
    assert after.last is not None and not after.last.round_ended and after.to_move == 1
    replies = legal_texts(after)
    for reply in replies:
        next_round = after.play(after.parse_move(reply))
        assert next_round.last is not None and next_round.last.round_ended
        assert next_round.to_move == puzzle.solver  # only the round's end stopped the line (no one took the marker)


@pytest.mark.parametrize(
    ("game", "options"),
    [("pond", {"variant": "mini"}), ("summer", {"size": 4}), ("querni", {}), ("azul", {"players": 2})],
)
def test_the_opening_has_no_clear_best_move(game: str, options: dict[str, Any]) -> None:
    state = GAMES[game].new(seed=3, **options)
    assert make_puzzle(state, iterations=FEW, seed=7) is None


def test_the_same_seed_makes_the_same_puzzle_and_it_survives_json() -> None:
    for data in (WIN_IN_TWO, ROUND_END, PLANTS["querni"][0]):
        state = GAMES[data["game"]].from_json(data)
        first = make_puzzle(state, iterations=FEW, seed=11)
        again = make_puzzle(GAMES[data["game"]].from_json(data), iterations=FEW, seed=11)
        assert first is not None and again is not None
        text = json.dumps(first.to_json(), sort_keys=True)
        assert json.dumps(again.to_json(), sort_keys=True) == text
        read = Puzzle.from_json(json.loads(text))
        assert json.dumps(read.to_json(), sort_keys=True) == text
        assert read.key == first.key and read.line == first.line and read.solver == first.solver
