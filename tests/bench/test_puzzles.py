"""The puzzle sets' benchmark (bench.puzzles) on a set made of planted puzzles: their contents are counted, the
verification agrees on a planted win and not on a puzzle whose solution was swapped, and the JSON is written."""

from __future__ import annotations

import json
from pathlib import Path

from ai.puzzles import Puzzle, make_puzzle
from bench import puzzles as bench
from engines import GAMES
from tests.ai.test_puzzles import PLANTS, WIN_IN_TWO


def test_a_planted_set_is_counted_and_verified(tmp_path: Path) -> None:
    win = make_puzzle(GAMES["pond"].from_json(PLANTS["pond-mini"][0]), iterations=60, seed=7)
    two = make_puzzle(GAMES["pond"].from_json(WIN_IN_TWO), iterations=60, seed=7)
    assert win is not None and two is not None
    # The same position with a losing first move as its "solution": the stronger search must disagree.
    wrong = Puzzle.from_json(two.to_json() | {"line": ["move d2 d3"]})
    entries = [puzzle.to_json() | {"source": {"self_play": 0, "ply": puzzle.ply}} for puzzle in (win, two, wrong)]
    (tmp_path / "pond.json").write_text(json.dumps({"version": 1, "game": "pond", "puzzles": entries}))
    out = tmp_path / "bench.json"
    assert bench.main(["--games", "pond", "--sets", str(tmp_path), "--json", str(out)]) == 0
    found = json.loads(out.read_text())
    assert found["contents"] == [
        {
            "game": "pond",
            "puzzles": 3,
            "goals": {"win": 3},
            "solver_moves": {"1": 2, "2": 1},
            "rating": bench.spread([entry["rating"] for entry in entries]),  # as the file rounds them
        }
    ]
    (verified,) = found["verification"]
    assert verified["checked"] == 3 and verified["agreed"] == 2 and verified["still_clear"] == 2
    assert [row["key"] for row in verified["disagreements"]] == [wrong.key]
    assert verified["disagreements"][0]["best"] == "move d2 c2"
    assert found["mining"] == []


def test_a_sample_is_spread_over_the_file_and_a_missing_set_is_empty(tmp_path: Path) -> None:
    entries = [{"n": n} for n in range(10)]
    assert bench.sample(entries, 3) == [{"n": 0}, {"n": 3}, {"n": 6}]
    assert bench.sample(entries, None) == entries and bench.sample(entries, 20) == entries
    assert bench.load_set("azul", tmp_path) == []
    assert bench.contents("azul", [])["puzzles"] == 0
