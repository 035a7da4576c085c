"""``python -m bot backup FILE``: a consistent, checked copy while the bot runs.

(The copy taken from a bot process under load is tested in tests/bot/test_service_stop.py.)
"""

from __future__ import annotations

import asyncio
import sqlite3
from pathlib import Path

import pytest

from bot.__main__ import main
from bot.core.service import MatchService
from bot.ops.backup import BackupError, back_up
from bot.storage import MatchStore
from tests.bot_world import Clock, World
from tests.harness import Recorder, install


@pytest.fixture
async def sqlite_world(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> World:
    recorder = Recorder()
    install(monkeypatch, recorder)
    running = await World.start(tmp_path / "tabula.sqlite3", recorder, Clock())
    yield running  # type: ignore[misc]
    await running.stop()


async def play_on(world: World, channel: int, moves: int) -> None:
    people = await world.start_pond(channel)
    for _ in range(moves):
        _, state = await world.bot.service.running(channel)
        parts = state.move_text(state.legal_moves()[-1]).split()
        person = people[state.to_move or 0]
        if parts[0] == "place":
            await world.command(person, channel, "pond", "place", cell=parts[1])
        else:
            await world.command(person, channel, "pond", "move", from_=parts[1], to=parts[2])


async def keep_moving(world: World, channel: int, moves: int) -> None:
    """Play ``moves`` moves through the match service (commands wait for each other to settle)."""
    service = world.bot.service
    for _ in range(moves):
        current = await service.current(channel)
        if current is None or current[1] is None:
            return  # the game ended
        record, state = current
        move = state.move_text(state.legal_moves()[0])
        await service.play_match(record.id, record.players[state.to_move or 0].user_id, move)
        await asyncio.sleep(0)


async def test_a_backup_taken_while_moves_are_written_replays_every_match(sqlite_world: World, tmp_path: Path) -> None:
    for channel in range(2971, 2975):
        await play_on(sqlite_world, channel, 2)
    target = tmp_path / "copy.sqlite3"
    moving = asyncio.gather(*(keep_moving(sqlite_world, channel, 30) for channel in range(2971, 2975)))
    report = await back_up(sqlite_world.database, str(target))  # the bot holds its lock and keeps writing
    await moving
    assert "integrity ok" in report and "running matches replay exactly" in report
    assert not Path(f"{target}-wal").exists()  # one self-contained file
    copy = await MatchStore.open(str(target))
    try:
        service = MatchService(copy.matches)
        rows = await copy.database.rows("SELECT id FROM matches WHERE status = 'active'")
        assert len(rows) >= 4
        for (match_id,) in rows:
            record = await copy.matches.get(match_id)
            assert record is not None and (await service.replay(record)).to_json() == record.state
    finally:
        await copy.close()


async def test_a_copy_whose_match_does_not_replay_is_reported(sqlite_world: World, tmp_path: Path) -> None:
    await play_on(sqlite_world, 2981, 2)
    damaged = tmp_path / "damaged.sqlite3"
    with sqlite3.connect(sqlite_world.database) as raw:
        raw.execute("DELETE FROM moves WHERE seq = 2")  # a lost move: the state no longer replays
    with pytest.raises(BackupError, match="not the replay of their move log"):
        await back_up(sqlite_world.database, str(damaged))


async def test_a_backup_never_overwrites_and_needs_a_database(tmp_path: Path) -> None:
    taken = tmp_path / "taken.sqlite3"
    taken.write_text("mine")
    store = await MatchStore.open(str(tmp_path / "db.sqlite3"))
    await store.close()
    with pytest.raises(BackupError, match="exists already"):
        await back_up(str(tmp_path / "db.sqlite3"), str(taken))
    with pytest.raises(BackupError, match="no SQLite database"):
        await back_up(str(tmp_path / "missing.sqlite3"), str(tmp_path / "new.sqlite3"))
    assert taken.read_text() == "mine"


def test_the_command_backs_up_sqlite_and_points_postgresql_to_pg_dump(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    database = tmp_path / "tabula.sqlite3"
    asyncio.run(_create(database))
    monkeypatch.setenv("TABULA_DATABASE", str(database))
    assert main(["backup", str(tmp_path / "b.sqlite3")]) == 0
    assert "integrity ok; 0 running matches replay exactly" in capsys.readouterr().out
    assert main(["backup", str(tmp_path / "b.sqlite3")]) == 1  # exists
    assert "exists already" in capsys.readouterr().err
    monkeypatch.setenv("TABULA_DATABASE", "postgresql://tabula:secret@db.example/tabula")
    assert main(["backup", "tabula.dump"]) == 2
    said = capsys.readouterr().err
    assert "pg_dump --format=custom --file=tabula.dump" in said and "secret" not in said


async def _create(path: Path) -> None:
    store = await MatchStore.open(str(path))
    await store.close()
