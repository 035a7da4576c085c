"""The daily puzzle's choice, a pure function: the server's proven best, else its newest fair one, else shipped;
and the shipped sets read from their files."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bot.core.puzzles import DAILY_PLAYS, daily_choice, shipped_puzzles
from bot.storage.puzzle_store import SHIPPED, StoredPuzzle
from tests.puzzle_samples import FIXTURE, shipped_json

GUILD = 7 << 22


def stored(pid: int, guild: int = GUILD, *, plays: int = 0, solves: int = 0, rating: float = 1500.0) -> StoredPuzzle:
    return StoredPuzzle(
        pid, guild, f"k{pid}", "pond", {}, 3 if guild else None, 4, None, None, rating, 300.0, 0.06, plays, solves,
        float(pid),
    )  # fmt: skip


def test_the_servers_best_proven_puzzle_comes_first() -> None:
    found = [
        stored(1, plays=DAILY_PLAYS, solves=DAILY_PLAYS),
        stored(2, plays=10, solves=8),
        stored(3, plays=10, solves=2),  # tried by many, solved by few: not a good one
        stored(4),  # newer, untried
        stored(5, SHIPPED),
    ]
    assert daily_choice(found, GUILD, "2027-01-15") == found[1]


def test_else_the_newest_fairly_rated_of_its_own() -> None:
    found = [stored(1, rating=1500.0), stored(2, rating=1700.0), stored(3, rating=2600.0), stored(4, SHIPPED)]
    assert daily_choice(found, GUILD, "2027-01-15") == found[1]


def test_else_a_shipped_one_another_each_day() -> None:
    found = [stored(1, rating=2600.0), stored(10, SHIPPED), stored(11, SHIPPED), stored(12, SHIPPED)]
    days = {daily_choice(found, GUILD, day).id for day in ("2027-01-30", "2027-01-31", "2027-02-01")}  # type: ignore[union-attr]
    assert days == {10, 11, 12}
    assert daily_choice([stored(1, rating=2600.0)], GUILD, "2027-01-15") is None
    assert daily_choice(found, GUILD, "2027-01-15") == daily_choice(found, GUILD + 1, "2027-01-15")


def test_the_sample_set_is_what_the_samples_make_and_reads_as_a_shipped_set(tmp_path: Path) -> None:
    assert json.loads(FIXTURE.read_text(encoding="utf-8")) == shipped_json()
    (tmp_path / "pond.json").write_text(FIXTURE.read_text(encoding="utf-8"), encoding="utf-8")
    found = shipped_puzzles(tmp_path)
    assert [p.to_json() for p in found] == shipped_json()["puzzles"]
    assert shipped_puzzles(tmp_path / "missing") == []
    (tmp_path / "azul.json").write_text('{"version": 2, "puzzles": []}', encoding="utf-8")
    with pytest.raises(ValueError, match="version 2"):
        shipped_puzzles(tmp_path)
