"""Fixtures shared by the bot's tests, and the two database backends they run on.

``database`` is a fresh, empty database for one test, once on a SQLite file and once on
PostgreSQL.  The PostgreSQL server is ``TABULA_TEST_POSTGRES`` (a URL whose user may create
databases) if set; otherwise a throwaway server started for the session from the PostgreSQL
binaries on this machine (:mod:`bench.pgserver`); otherwise the PostgreSQL half is skipped with one
line saying why, or fails when ``TABULA_REQUIRE_POSTGRES=1`` (as CI sets it, so CI always tests both).
"""

from __future__ import annotations

import itertools
import os
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from bench.pgserver import Throwaway, find_binaries, with_database
from tests.bot_world import Clock, World
from tests.harness import Recorder, install

BACKENDS = ("sqlite", "postgresql")
_names = itertools.count(1)


class NoPostgres(Exception):
    """Why the PostgreSQL half cannot run."""


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[str | NoPostgres]:
    """The URL of a PostgreSQL server the tests may create databases on, or why there is none."""
    try:
        import asyncpg  # noqa: F401
    except ImportError:
        yield NoPostgres("asyncpg is not installed (pip install -e '.[test]')")
        return
    given = os.environ.get("TABULA_TEST_POSTGRES", "").strip()
    if given:
        yield given
        return
    binaries = find_binaries()
    if binaries is None:
        yield NoPostgres("no TABULA_TEST_POSTGRES and no PostgreSQL server binaries (initdb, postgres) found")
        return
    server = Throwaway(binaries)
    try:
        server.start()
    except (RuntimeError, OSError) as error:
        yield NoPostgres(f"the throwaway PostgreSQL from {binaries} did not start: {error}")
        return
    try:
        yield server.url
    finally:
        server.stop()


@pytest.fixture
async def postgres_database(postgres_server: str | NoPostgres) -> AsyncIterator[str]:
    """The URL of a new, empty PostgreSQL database, dropped after the test."""
    if isinstance(postgres_server, NoPostgres):
        message = f"PostgreSQL half skipped: {postgres_server}"
        if os.environ.get("TABULA_REQUIRE_POSTGRES") == "1":
            pytest.fail(message + " (TABULA_REQUIRE_POSTGRES=1)", pytrace=False)
        pytest.skip(message)
    import asyncpg

    name = f"tabula_test_{os.getpid()}_{next(_names)}"
    admin = await asyncpg.connect(postgres_server)
    try:
        await admin.execute(f"CREATE DATABASE {name} TEMPLATE template0 ENCODING 'UTF8'")
        yield with_database(postgres_server, name)
        await admin.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
    finally:
        await admin.close()


@pytest.fixture(params=BACKENDS)
def database(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A fresh database for one test: a SQLite file path, or a PostgreSQL URL (the test runs once with each)."""
    if request.param == "postgresql":
        return str(request.getfixturevalue("postgres_database"))
    return str(tmp_path / "tabula.sqlite3")


@pytest.fixture
async def world(database: str, monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[World]:
    """A running bot on a fresh database (each backend in turn), with Discord's HTTP edge replaced by a recorder."""
    recorder = Recorder()
    install(monkeypatch, recorder)
    running = await World.start(database, recorder, Clock())
    yield running
    await running.stop()
