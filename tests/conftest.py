"""Fixtures shared by the bot's tests, the two database backends they run on, and the test markers.

``database`` is a fresh, empty database for one test, once on a SQLite file and once on
PostgreSQL.  The PostgreSQL server is ``TABULA_TEST_POSTGRES`` (a URL whose user may create
databases) if set; otherwise a throwaway server started for the session from the PostgreSQL
binaries on this machine (:mod:`bench.pgserver`); otherwise the PostgreSQL half is skipped with one
line saying why, or fails when ``TABULA_REQUIRE_POSTGRES=1`` (as CI sets it, so CI always tests both).

The tests run in parallel (pytest-xdist, ``-n auto`` in pyproject.toml).  Each worker process has
its own session: its own throwaway server (a free port, its own folder, stopped when the worker
ends) and its own database names.  A worker's databases are reused from test to test: instead of
``DROP DATABASE`` and ``CREATE DATABASE`` (half a second each time, most of a PostgreSQL test), a
finished test's database is emptied (its sessions ended, its schemas dropped and ``public``
recreated as ``initdb`` makes it), which leaves it exactly as a new one for the storage code.

Markers (registered in pyproject.toml): tests on PostgreSQL get ``postgres`` here, from the
fixtures they use; the other kinds (``conformance``, ``gallery``, ``subprocess``) and ``slow`` are
on the tests themselves; every test of a slow kind is also marked ``slow``, so ``pytest -m "not
slow"`` is the quick subset.
"""

from __future__ import annotations

import asyncio
import itertools
import os
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
from hypothesis import settings

from bench.pgserver import Throwaway, find_binaries, with_database
from tests.bot_world import Clock, World
from tests.harness import Recorder, install

BACKENDS = ("sqlite", "postgresql")
_names = itertools.count(1)

# Property tests (tests/engines/test_properties.py) draw the same few examples on every run and keep no example
# database, so a run in CI is repeatable and quick; ``--hypothesis-profile=explore`` searches further at random.
settings.register_profile(
    "repeatable", max_examples=15, derandomize=True, database=None, deadline=None, print_blob=True
)
settings.register_profile("explore", max_examples=300, deadline=None)

# Empties a database for the next test: what CREATE DATABASE ... TEMPLATE template0 would give.
EMPTY = """
SELECT pg_terminate_backend(pid) FROM pg_stat_activity
 WHERE datname = current_database() AND pid <> pg_backend_pid();
DO $$
DECLARE schema_name text;
BEGIN
  FOR schema_name IN SELECT nspname FROM pg_namespace
     WHERE nspname NOT LIKE 'pg\\_%' AND nspname <> 'information_schema' LOOP
    EXECUTE format('DROP SCHEMA %I CASCADE', schema_name);
  END LOOP;
END $$;
CREATE SCHEMA public AUTHORIZATION pg_database_owner;
GRANT USAGE ON SCHEMA public TO PUBLIC;
COMMENT ON SCHEMA public IS 'standard public schema';
"""


def pytest_configure(config: pytest.Config) -> None:
    """Draw repeatable examples unless a profile was chosen with ``--hypothesis-profile``."""
    if not config.getoption("hypothesis_profile", None):
        settings.load_profile("repeatable")


# Markers that make a test slow too, so that ``-m "not slow"`` leaves them out.
SLOW_KINDS = ("postgres", "conformance", "gallery", "subprocess")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark every test that runs on PostgreSQL (the second half of ``database``, or ``postgres_database``) and
    every test of a slow kind as ``slow``."""
    for item in items:
        callspec = getattr(item, "callspec", None)
        on_postgres = "postgres_database" in getattr(item, "fixturenames", ())
        if callspec is not None and callspec.params.get("database") == "postgresql":
            on_postgres = True
        if on_postgres and item.get_closest_marker("postgres") is None:
            item.add_marker(pytest.mark.postgres)
        if item.get_closest_marker("slow") is None and any(item.get_closest_marker(kind) for kind in SLOW_KINDS):
            item.add_marker(pytest.mark.slow)


class NoPostgres(Exception):
    """Why the PostgreSQL half cannot run."""


class Databases:
    """A worker's PostgreSQL databases on one server: made when needed, emptied and reused after each test."""

    def __init__(self, server: str) -> None:
        self.server = server
        self.free: list[str] = []
        self.made: list[str] = []

    async def take(self) -> str:
        """The name of an empty database no other test is using."""
        if self.free:
            return self.free.pop()
        import asyncpg

        name = f"tabula_test_{os.getpid()}_{next(_names)}"
        admin = await asyncpg.connect(self.server)
        try:
            await admin.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
            await admin.execute(f"CREATE DATABASE {name} TEMPLATE template0 ENCODING 'UTF8'")
        finally:
            await admin.close()
        self.made.append(name)
        return name

    async def give_back(self, name: str) -> None:
        """Empty the database ``name`` for the next test; drop it if that fails."""
        import asyncpg

        try:
            connection = await asyncpg.connect(with_database(self.server, name))
            try:
                await connection.execute(EMPTY)
            finally:
                await connection.close()
        except (OSError, asyncpg.PostgresError):
            admin = await asyncpg.connect(self.server)
            try:
                await admin.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
            finally:
                await admin.close()
            self.made.remove(name)
            return
        self.free.append(name)

    async def drop_all(self) -> None:
        """Drop every database this worker made (on a server the tests did not start themselves)."""
        import asyncpg

        admin = await asyncpg.connect(self.server)
        try:
            for name in self.made:
                await admin.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
        finally:
            await admin.close()


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


@pytest.fixture(scope="session")
def postgres_databases(postgres_server: str | NoPostgres) -> Iterator[Databases | NoPostgres]:
    """This worker's reusable databases on the server; on a given server they are dropped at the end."""
    if isinstance(postgres_server, NoPostgres):
        yield postgres_server
        return
    databases = Databases(postgres_server)
    yield databases
    if databases.made and os.environ.get("TABULA_TEST_POSTGRES", "").strip():
        asyncio.run(databases.drop_all())  # a throwaway server is deleted whole instead


@pytest.fixture
async def postgres_database(postgres_databases: Databases | NoPostgres) -> AsyncIterator[str]:
    """The URL of an empty PostgreSQL database, for this test alone."""
    if isinstance(postgres_databases, NoPostgres):
        message = f"PostgreSQL half skipped: {postgres_databases}"
        if os.environ.get("TABULA_REQUIRE_POSTGRES") == "1":
            pytest.fail(message + " (TABULA_REQUIRE_POSTGRES=1)", pytrace=False)
        pytest.skip(message)
    name = await postgres_databases.take()
    yield with_database(postgres_databases.server, name)
    await postgres_databases.give_back(name)


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
    # Discord refuses a request outside its published limits; no test may make one unawares
    # (a test of such a refusal empties ``recorder.refused`` once it has checked it).
    assert not recorder.refused, "\n".join(f"{c.kind} {c.path}: {p}" for c, p in recorder.refused)
