"""Opening the database ``TABULA_DATABASE`` names and bringing its schema up to date, on either backend.

Any reason the database cannot be used raises :class:`~bot.storage.problems.DatabaseUnavailable` with nothing
left open: no connection, no thread, no lock.
"""

from __future__ import annotations

import sqlite3

from bot.storage.database import POSTGRESQL, Database, SQLiteDatabase, redact
from bot.storage.lock import lock_file, unlock_file
from bot.storage.problems import (
    SETTING,
    DatabaseUnavailable,
    explain,
    path_problem,
    postgres_problem,
    too_new,
    unusable,
)
from bot.storage.schema import migrations


async def open_sqlite(path: str) -> tuple[SQLiteDatabase, int | None]:
    """Open (creating if needed) the SQLite file ``path``, migrated; return it and the lock held on it.

    One process at a time per file: the exclusive lock on ``<path>.lock`` (released with
    :func:`~bot.storage.lock.unlock_file`) refuses a second bot on the same file.
    """
    problem = path_problem(path)
    if problem is not None:
        raise DatabaseUnavailable(unusable(path, *problem))
    lock = lock_file(path)
    database: SQLiteDatabase | None = None
    try:
        database = await SQLiteDatabase.connect(path)
        found = await database.schema_version()
        latest = max((number for number, _ in migrations()), default=0)
        if found > latest:
            raise DatabaseUnavailable(unusable(path, *too_new(found, latest)))
        await database.configure()
        await database.migrate(migrations())
    except BaseException as error:
        if database is not None:
            await database.close()  # its thread and file handle go with it
        unlock_file(lock)
        if isinstance(error, sqlite3.Error):
            raise DatabaseUnavailable(explain(path, error)) from error
        raise
    return database, lock


async def open_postgres(url: str, connections: int) -> Database:
    """Connect a pool of ``connections`` to the PostgreSQL database at ``url``, migrated."""
    try:
        from bot.storage.postgres import PostgresDatabase
    except ImportError as error:  # asyncpg is the optional extra
        raise DatabaseUnavailable(
            f"cannot use the database at {SETTING}: PostgreSQL needs the asyncpg driver ({error}); "
            "install it with pip install 'tabula[postgres]'."
        ) from error
    database: PostgresDatabase | None = None
    try:
        database = await PostgresDatabase.connect(url, connections)
        found = await database.schema_version()
        latest = max((number for number, _ in migrations(POSTGRESQL)), default=0)
        if found > latest:
            problem, advice = too_new(found, latest)
            raise DatabaseUnavailable(f"cannot use the database {redact(url)} ({SETTING}): {problem}; {advice}.")
        await database.migrate(migrations(POSTGRESQL))
    except BaseException as error:
        if database is not None:
            await database.close()
        if isinstance(error, DatabaseUnavailable) or not isinstance(error, Exception):
            raise
        raise DatabaseUnavailable(postgres_problem(url, error)) from error
    return database
