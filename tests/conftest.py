"""Fixtures shared by the bot's tests."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from tests.bot_world import Clock, World
from tests.harness import Recorder, install


@pytest.fixture
async def world(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[World]:
    """A running bot on a fresh SQLite file, with Discord's HTTP edge replaced by a recorder."""
    recorder = Recorder()
    install(monkeypatch, recorder)
    running = await World.start(tmp_path / "tabula.sqlite3", recorder, Clock())
    yield running
    await running.stop()
