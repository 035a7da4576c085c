"""The SQLite connection's own thread: a closed database answers at once, and a closed loop does not stop it."""

from __future__ import annotations

import asyncio
import sqlite3
import threading
import time
from pathlib import Path

import pytest

from bot.storage.database import SQLiteDatabase, SQLiteWorker


async def test_a_closed_database_closes_again_and_refuses_calls_at_once(tmp_path: Path) -> None:
    database = await SQLiteDatabase.connect(str(tmp_path / "t.db"))
    assert await database.rows("SELECT 1") == [(1,)]
    await database.close()
    await asyncio.wait_for(database.close(), 5)  # a second close must not wait for a thread that has ended
    with pytest.raises(sqlite3.ProgrammingError):
        await asyncio.wait_for(database.rows("SELECT 1"), 5)


def test_a_call_whose_loop_closed_does_not_end_the_thread() -> None:
    worker = SQLiteWorker()
    started = threading.Event()
    release = threading.Event()

    def slow() -> int:
        started.set()
        release.wait(5)
        return 1

    async def ask_and_leave() -> None:
        worker.run(slow)  # nobody awaits it: its loop closes before the outcome comes back
        await asyncio.get_running_loop().run_in_executor(None, started.wait, 5)

    asyncio.run(ask_and_leave())
    release.set()
    time.sleep(0.05)  # the outcome is handed to the closed loop meanwhile

    async def ask_again() -> int:
        return await asyncio.wait_for(worker.run(lambda: 2), 5)

    try:
        assert asyncio.run(ask_again()) == 2
    finally:
        worker.stop()
