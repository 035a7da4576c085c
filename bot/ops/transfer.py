"""Move a server's data from its SQLite file to PostgreSQL: ``python -m bot migrate --to postgresql://…``.

Everything is copied — matches, move logs, players and ratings, the outbox, per-server settings
and the bot's metadata (every table the migrations made), with their ids — in one transaction on
the target, which must be empty (a second run never doubles anything).  Then the copy is verified:
the rows of every table are counted on both sides, and every match's stored row and state on the
target must equal the source's and the replay of its move log on the target.  The source is only
read (after being brought to the current schema), and its lock keeps a running bot from writing
to it meanwhile: stop the bot first.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from bot.core.service import MatchService
from bot.storage import DatabaseUnavailable, MatchStore
from bot.storage.database import SQLiteDatabase, is_url, redact

BATCH = 2000


class TransferRefused(Exception):
    """The copy cannot be made (or did not verify); the message says why and what to do."""


@dataclass
class TransferReport:
    """What was copied and checked."""

    counts: dict[str, int] = field(default_factory=dict)
    replayed: int = 0  # matches whose stored state equals the replay of their log on the target
    unchanged: int = 0  # matches whose state already differed from their replay in the source (kept as they were)

    def lines(self) -> list[str]:
        tables = ", ".join(f"{count} {table}" for table, count in self.counts.items())
        said = [f"copied and counted on both sides: {tables}"]
        said.append(f"{self.replayed} matches replay from their move log to their stored state on the target")
        if self.unchanged:
            said.append(f"{self.unchanged} matches did not replay to their state in the source either; copied as is")
        return said


async def _tables(source: SQLiteDatabase) -> list[tuple[str, list[str]]]:
    """The source's tables with their columns, each after the tables its foreign keys name."""
    rows = await source.rows("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
    names = sorted(str(row[0]) for row in rows)
    parents: dict[str, set[str]] = {}
    columns: dict[str, list[str]] = {}
    for name in names:
        keys = await source.rows(f"SELECT \"table\" FROM pragma_foreign_key_list('{name}')")
        parents[name] = {str(row[0]) for row in keys} - {name}
        info = await source.rows(f"SELECT name FROM pragma_table_info('{name}') ORDER BY cid")
        columns[name] = [str(row[0]) for row in info]
    ordered: list[str] = []
    while len(ordered) < len(names):
        ready = [n for n in names if n not in ordered and parents[n] <= set(ordered)]
        if not ready:
            raise TransferRefused(f"the source's foreign keys form a cycle among {sorted(set(names) - set(ordered))}")
        ordered.extend(ready)
    return [(name, columns[name]) for name in ordered]


async def _count(store: MatchStore, table: str) -> int:
    rows = await store.database.rows(f'SELECT COUNT(*) FROM "{table}"')
    return int(rows[0][0])


async def _integer_columns(target: MatchStore, table: str) -> set[str]:
    rows = await target.database.rows(
        "SELECT column_name FROM information_schema.columns WHERE table_schema = current_schema() "
        "AND table_name = ? AND data_type IN ('bigint', 'integer', 'smallint')",
        (table,),
    )
    return {str(row[0]) for row in rows}


def _fit(row: Sequence[Any], integers: Sequence[bool]) -> tuple[Any, ...]:
    """SQLite lets an INTEGER column hold 3.0; PostgreSQL's BIGINT takes it as 3."""
    return tuple(
        int(value) if whole and isinstance(value, float) and value.is_integer() else value
        for value, whole in zip(row, integers, strict=True)
    )


async def copy_database(
    source_path: str, target_url: str, *, say: Callable[[str], None] = lambda _: None
) -> TransferReport:
    """Copy the SQLite database at ``source_path`` into the empty PostgreSQL database at ``target_url``, and verify."""
    if is_url(source_path):
        raise TransferRefused(
            f"the source must be a SQLite file (TABULA_DATABASE or --from), not {redact(source_path)}"
        )
    if not is_url(target_url):
        raise TransferRefused(f"the target must be a postgresql:// URL, not {target_url!r}")
    source = await MatchStore.open(source_path)  # locked: no bot writes to it while we copy
    try:
        target = await MatchStore.open(target_url)
        try:
            return await _copy(source, target, target_url, say)
        finally:
            await target.close()
    finally:
        await source.close()


async def _copy(source: MatchStore, target: MatchStore, target_url: str, say: Callable[[str], None]) -> TransferReport:
    assert isinstance(source.database, SQLiteDatabase)
    tables = await _tables(source.database)
    held = {table: await _count(target, table) for table, _ in tables}
    if any(held.values()):
        what = ", ".join(f"{count} {table}" for table, count in held.items() if count)
        raise TransferRefused(
            f"the target database {redact(target_url)} already holds data ({what}); nothing was copied. "
            "Copy into a new, empty database (createdb), or empty this one first if it holds nothing you need"
        )
    report = TransferReport()
    reader = source.database
    async with target.database.transaction() as db:
        for table, columns in tables:
            integers = await _integer_columns(target, table)
            whole = [name in integers for name in columns]
            names = ", ".join(f'"{name}"' for name in columns)
            insert = f'INSERT INTO "{table}" ({names}) VALUES ({", ".join("?" for _ in columns)})'
            copied = 0
            async for batch in reader.chunks(f'SELECT {names} FROM "{table}"', BATCH):
                await db.executemany(insert, [_fit(row, whole) for row in batch])
                copied += len(batch)
            report.counts[table] = copied
            say(f"copied {copied} rows of {table}")
    reset = getattr(target.database, "reset_identities", None)
    if reset is not None:
        await reset()  # new matches and announcements get ids after the copied ones
    await _verify(source, target, tables, report, say)
    return report


async def _verify(
    source: MatchStore,
    target: MatchStore,
    tables: list[tuple[str, list[str]]],
    report: TransferReport,
    say: Callable[[str], None],
) -> None:
    for table, _ in tables:
        mine, theirs = await _count(source, table), await _count(target, table)
        if mine != theirs or theirs != report.counts[table]:
            raise TransferRefused(f"verification failed: {table} has {mine} rows in the source, {theirs} in the target")
    old = MatchService(source.matches)
    new = MatchService(target.matches)
    last = 0
    while True:
        ids = await source.database.rows("SELECT id FROM matches WHERE id > ? ORDER BY id LIMIT ?", (last, BATCH))
        if not ids:
            break
        for (match_id,) in ids:
            last = int(match_id)
            before, after = await source.matches.get(last), await target.matches.get(last)
            if before is None or after != before:
                raise TransferRefused(f"verification failed: match {last} differs between the source and the target")
            if await source.matches.log(last) != await target.matches.log(last):
                raise TransferRefused(f"verification failed: the move log of match {last} differs in the target")
            if after.state is None:
                continue
            replayed = (await new.replay(after)).to_json()
            if replayed == new.state_of(after).to_json() or saved_agrees(after.state, replayed):
                report.replayed += 1
            elif not saved_agrees(before.state, (await old.replay(before)).to_json()):
                report.unchanged += 1
            else:
                raise TransferRefused(f"verification failed: match {last} does not replay to its state in the target")
    say(f"verified {report.replayed + report.unchanged} matches against their move logs")


def saved_agrees(saved: Any, replayed: Any) -> bool:
    """Tell whether a stored state says what its replay says, in every field the stored one has.

    A state saved by an older release lacks the fields a newer engine adds to describe the last ply (Azul's
    scores before a round's end, say); its loader fills them as well as the saved boards tell, which is not
    always exactly. What the save does hold must match the replay to the letter.
    """
    if isinstance(saved, dict):
        return isinstance(replayed, dict) and all(
            key in replayed and saved_agrees(value, replayed[key]) for key, value in saved.items()
        )
    if isinstance(saved, list):
        return (
            isinstance(replayed, list)
            and len(saved) == len(replayed)
            and all(saved_agrees(a, b) for a, b in zip(saved, replayed, strict=True))
        )
    return bool(saved == replayed)


def describe_failure(error: BaseException) -> str:
    """One line for the command line."""
    if isinstance(error, TransferRefused | DatabaseUnavailable):
        return str(error)
    if isinstance(error, sqlite3.Error):
        return f"the source database could not be read: {error}"
    return f"{type(error).__name__}: {error}"
