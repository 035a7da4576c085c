"""The shipped puzzle sets' builder (ai.puzzle_set): the same command makes the same file, ``load`` reads what
``main`` wrote, and every puzzle in a file (the one made here, and the shipped ones where they exist) is legal:
its line replays from its position, move by move, and a "win" ends the game won by the solver."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from ai import puzzle_set
from ai.knowledge import reward_from_outcome
from ai.puzzles import Puzzle
from engines import GAMES

# Querni's games are short and its puzzle budget the smallest: one puzzle is about two seconds of mining.
GAME = "querni"


@pytest.fixture(scope="module")
def written(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The folder where ``python -m ai.puzzle_set querni --target 1 --out <folder>`` wrote its file."""
    out = tmp_path_factory.mktemp("puzzle_sets")
    assert puzzle_set.main([GAME, "--target", "1", "--out", str(out)]) == 0
    return out


def replay_line(entry: dict[str, Any]) -> None:
    """Check one puzzle of a file: its position loads, its solver is to move, and its line is legal all along."""
    puzzle = Puzzle.from_json(entry)
    state = puzzle.state()
    assert state.to_move == puzzle.solver and state.ply == puzzle.ply and state.outcome() is None
    assert puzzle.choices == len(state.legal_moves()) >= 2
    assert len(puzzle.line) % 2 == 1
    for index, text in enumerate(puzzle.line):
        assert state.outcome() is None
        assert (state.to_move == puzzle.solver) == (index % 2 == 0)
        move = state.parse_move(text)  # raises the engine's GameError if the text is not a move here
        assert move in state.legal_moves() and state.move_text(move) == text
        state = state.play(move)
    outcome = state.outcome()
    if puzzle.goal == "win":
        assert outcome is not None and reward_from_outcome(outcome, state.players)[puzzle.solver] >= 1.0
    assert entry["source"]["ply"] == puzzle.ply


@pytest.mark.slow
def test_the_builder_makes_the_same_file_twice(written: Path) -> None:
    data = json.loads((written / f"{GAME}.json").read_text(encoding="utf-8"))
    assert data["version"] == puzzle_set.VERSION and data["game"] == GAME
    assert len(data["puzzles"]) == 1 and data["games"] >= 1
    # The file is the builder's dict as JSON: building again gives it back, key for key.
    assert json.loads(json.dumps(puzzle_set.build(GAME, 1))) == data


def test_load_reads_what_main_wrote(written: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(puzzle_set, "HERE", written)
    data = json.loads((written / f"{GAME}.json").read_text(encoding="utf-8"))
    assert puzzle_set.load(GAME) == data["puzzles"]
    assert puzzle_set.load("pond") == []  # a set that was not made: no puzzles, no error
    entry = data["puzzles"][0]
    assert entry["game"] == GAME and entry["source"]["self_play"] < data["games"]
    assert Puzzle.from_json(entry).key == Puzzle.from_json(puzzle_set.load(GAME)[0]).key


def test_the_written_puzzles_replay(written: Path) -> None:
    data = json.loads((written / f"{GAME}.json").read_text(encoding="utf-8"))
    for entry in data["puzzles"]:
        replay_line(entry)


@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_shipped_puzzles_replay(game: str) -> None:
    entries = puzzle_set.load(game)
    if not entries:
        pytest.skip(f"no shipped {game} set in {puzzle_set.HERE}")
    keys = [Puzzle.from_json(entry).key for entry in entries]
    assert len(set(keys)) == len(keys)  # none twice
    for entry in entries:
        assert entry["game"] == game
        replay_line(entry)


def test_an_unknown_game_is_refused(tmp_path: Path) -> None:
    with pytest.raises(SystemExit):
        puzzle_set.main(["chess", "--target", "1", "--out", str(tmp_path)])
    assert not list(tmp_path.iterdir())
