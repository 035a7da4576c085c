"""``python -m bot backup FILE``: a consistent copy of the SQLite database, taken while the bot runs.

Copying a live SQLite file (and its ``-wal``) by hand can catch it halfway through a write.  This uses
SQLite's online backup API instead: the copy is one consistent state of the database, even while the
bot writes (the bot's ``<db>.lock`` is Tabula's own and does not stop a reader).  The copy is then
checked: ``PRAGMA integrity_check`` must say ``ok``, and every running match's stored state must equal
the replay of its move log.  The copy is a single file in rollback-journal mode (no ``-wal`` beside it).

Restoring: stop the bot, move the database file and its ``-wal``/``-shm`` aside, copy the backup to
``TABULA_DATABASE``, start the bot (migrations bring an older backup up to date).

PostgreSQL has its own tools: :func:`pg_dump_advice` says which command to use.
"""

from __future__ import annotations

import asyncio
import os
import sqlite3
import time

from bot.core.service import MatchService
from bot.storage.database import SQLiteDatabase, redact
from bot.storage.match_store import Matches

BATCH = 500


class BackupError(Exception):
    """The backup could not be made or did not check out; the message says why."""


def pg_dump_advice(url: str, target: str) -> str:
    """What to run instead for a PostgreSQL database."""
    return (
        f"the database is PostgreSQL ({redact(url)}); back it up with PostgreSQL's own tool while the bot runs: "
        f"pg_dump --format=custom --file={target} '{redact(url)}' (the password from ~/.pgpass or PGPASSWORD), "
        "and restore with pg_restore --clean --dbname=URL FILE"
    )


def _copy(source: str, target: str) -> None:
    """Copy ``source`` into the new file ``target`` with SQLite's online backup (one consistent state)."""
    reader = sqlite3.connect(source, timeout=10.0)
    try:
        writer = sqlite3.connect(target)
        try:
            reader.backup(writer)  # all pages in one step: one read transaction, one consistent snapshot
            writer.execute("PRAGMA journal_mode = DELETE")  # a single self-contained file
        finally:
            writer.close()
    finally:
        reader.close()


def _integrity(target: str) -> str:
    connection = sqlite3.connect(target)
    try:
        rows = connection.execute("PRAGMA integrity_check").fetchall()
    finally:
        connection.close()
    return "; ".join(str(row[0]) for row in rows)


async def _replay_all(target: str) -> tuple[int, list[int]]:
    """Replay every running match of the copy; return how many, and the ids that differ from their state."""
    database = await SQLiteDatabase.connect(target)
    try:
        matches = Matches(database)
        service = MatchService(matches)
        checked, differ, after = 0, [], 0
        while True:
            batch = await matches.running_after(after, BATCH)
            for record in batch:
                after = record.id
                checked += 1
                if (await service.replay(record)).to_json() != record.state:
                    differ.append(record.id)
            if len(batch) < BATCH:
                return checked, differ
    finally:
        await database.close()


async def back_up(source: str, target: str) -> str:
    """Copy the SQLite database ``source`` to the new file ``target`` and check the copy; return the report."""
    where, to = os.path.abspath(source), os.path.abspath(target)
    if not os.path.isfile(source):
        raise BackupError(f"no SQLite database at {where} (TABULA_DATABASE); nothing to back up")
    if os.path.exists(target):
        raise BackupError(f"{to} exists already; give the backup a new file name (a backup never overwrites)")
    if not os.path.isdir(os.path.dirname(to)):
        raise BackupError(f"the folder {os.path.dirname(to)} does not exist; create it first")
    started = time.monotonic()
    try:
        await asyncio.to_thread(_copy, source, target)
    except sqlite3.Error as error:
        if os.path.exists(target):
            os.remove(target)
        raise BackupError(f"cannot copy {where}: {error}") from error
    integrity = await asyncio.to_thread(_integrity, target)
    if integrity != "ok":
        raise BackupError(f"the copy at {to} failed SQLite's integrity check ({integrity}); keep the original")
    checked, differ = await _replay_all(target)
    if differ:
        listed = ", ".join(map(str, differ[:20]))
        raise BackupError(
            f"the copy at {to} holds {len(differ)} running matches whose state is not the replay of their move "
            f"log (ids {listed}); the database itself may need repair"
        )
    size = os.path.getsize(target)
    return (
        f"backed up {where} to {to} ({size / 2**20:.1f} MB) in {time.monotonic() - started:.1f} s: integrity ok; "
        f"{checked} running matches replay exactly to their stored state"
    )
