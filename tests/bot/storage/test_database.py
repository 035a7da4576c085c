"""The two storage backends behind one interface: the same rows, errors, migrations and shard filters on both."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

import pytest

from bot.core import ratings
from bot.core.computer_seats import computer_ids
from bot.core.service import MatchService
from bot.shards import Shards
from bot.storage import POSTGRESQL, SQLITE, DatabaseUnavailable, MatchStore, Seat, migrations
from bot.storage.database import IntegrityError, redact, to_postgres

ANA, BO = Seat(1, "Ana"), Seat(2, "Bo")
# Each table with the columns that order its rows.
TABLES = {
    "matches": "id",
    "moves": "match_id, seq",
    "match_players": "match_id, seat",
    "ratings": "guild_id, game, user_id",
    "outbox": "id",
    "guild_settings": "guild_id",
    "bot_meta": "key",
}


def test_placeholders_are_numbered_outside_quotes_and_comments() -> None:
    assert to_postgres("SELECT * FROM t WHERE a = ? AND b = ?") == "SELECT * FROM t WHERE a = $1 AND b = $2"
    assert to_postgres("SELECT ?1, ?2, ?1") == "SELECT $1, $2, $1"
    assert to_postgres("SELECT ?2, ?") == "SELECT $2, $3"  # as SQLite numbers a bare ? after ?NNN
    assert to_postgres("SELECT 'what?', 'it''s ?', ?") == "SELECT 'what?', 'it''s ?', $1"
    assert to_postgres('SELECT "col?" FROM t WHERE x = ?') == 'SELECT "col?" FROM t WHERE x = $1'
    assert to_postgres("SELECT ? -- really?\n, ? /* or ? */ , ?") == "SELECT $1 -- really?\n, $2 /* or ? */ , $3"


def test_the_password_never_reaches_a_message() -> None:
    assert redact("postgresql://bot:hunter2@db:5432/tabula") == "postgresql://bot:***@db:5432/tabula"
    assert redact("postgresql://db/tabula") == "postgresql://db/tabula"


def test_both_dialects_have_the_same_numbered_migrations() -> None:
    sqlite, postgres = migrations(SQLITE), migrations(POSTGRESQL)
    assert [n for n, _ in sqlite] == [n for n, _ in postgres] == list(range(1, len(sqlite) + 1))
    for _, script in postgres:
        assert "WITHOUT ROWID" not in script and "AUTOINCREMENT" not in script and "json_each" not in script


async def play_a_little(store: MatchStore) -> None:
    """The same scripted history on any backend: challenges, moves, a finish with ratings, settings, meta."""
    service = MatchService(store.matches, rng=random.Random(5), clock=lambda: 1_000.5)
    rng = random.Random(3)
    for channel in (10, 11, 12):
        answer = await service.challenge(
            guild_id=7 << 22, channel_id=channel, game="pond", challenger=ANA, opponents=[BO], options={}
        )
        if channel == 12:
            continue  # left pending
        answer = await service.answer(answer.record.id, BO, True)
        record, state = answer.record, answer.state
        moves = 400 if channel == 10 else 5
        while state.outcome() is None and moves:
            turn = await service.play(
                channel, record.players[state.to_move].user_id, state.move_text(rng.choice(state.legal_moves()))
            )
            record, state, moves = turn.record, turn.state, moves - 1
        if state.outcome() is None:
            await service.resign(channel, ANA.user_id)
    store.settings.clock = lambda: 1_000.25
    await store.settings.set_language(7 << 22, "fr")
    await store.set_meta("commands-hash:global", "abc")


async def dump(store: MatchStore) -> dict[str, list[tuple]]:
    return {
        table: await store.database.rows(f"SELECT * FROM {table} ORDER BY {order}")  # fixed names, no input
        for table, order in TABLES.items()
    }


async def test_both_backends_store_and_return_exactly_the_same_rows(tmp_path: Path, postgres_database: str) -> None:
    found = []
    for where in (str(tmp_path / "same.sqlite3"), postgres_database):
        store = await MatchStore.open(where, rating=ratings)
        try:
            await play_a_little(store)
            found.append(await dump(store))
        finally:
            await store.close()
    sqlite, postgres = found
    assert sqlite["ratings"] and sqlite["moves"] and sqlite["outbox"]
    for table in TABLES:
        assert [[type(v) for v in row] for row in postgres[table]] == [[type(v) for v in row] for row in sqlite[table]]
        assert postgres[table] == sqlite[table], table


async def test_a_constraint_violation_is_the_same_error_on_both(database: str) -> None:
    store = await MatchStore.open(database)
    try:
        with pytest.raises(IntegrityError):
            async with store.database.transaction() as db:
                await db.execute("INSERT INTO bot_meta (key, value) VALUES (?, ?)", ("k", "1"))
                await db.execute("INSERT INTO bot_meta (key, value) VALUES (?, ?)", ("k", "2"))
        assert await store.get_meta("k") is None  # the whole transaction was rolled back
        with pytest.raises(IntegrityError):
            await store.database.write("INSERT INTO moves (match_id, seq, kind, seat, user_id, text, created_at) "
                                       "VALUES (999, 1, 'move', 0, 1, 'x', 0)")  # fmt: skip
        async with store.database.transaction() as db:
            changed = await db.execute("UPDATE bot_meta SET value = ? WHERE key = ?", ("3", "nothing"))
        assert changed == 0
    finally:
        await store.close()


async def test_postgresql_migrates_once_even_when_processes_start_together(postgres_database: str) -> None:
    stores = await asyncio.gather(*(MatchStore.open(postgres_database) for _ in range(3)))
    try:
        latest = max(n for n, _ in migrations(POSTGRESQL))
        assert [await s.schema_version() for s in stores] == [latest] * 3
        rows = await stores[0].database.rows("SELECT id, version FROM tabula_schema")
        assert rows == [(1, latest)]
    finally:
        for store in stores:
            await store.close()


async def test_a_newer_postgresql_schema_is_refused(postgres_database: str) -> None:
    store = await MatchStore.open(postgres_database)
    await store.database.write("UPDATE tabula_schema SET version = 999")
    await store.close()
    with pytest.raises(DatabaseUnavailable, match="newer than this release"):
        await MatchStore.open(postgres_database)


async def test_an_unreachable_postgresql_is_one_clear_line_without_the_password() -> None:
    with pytest.raises(DatabaseUnavailable) as refused:
        await MatchStore.open("postgresql://tabula:hunter2@127.0.0.1:1/tabula")
    text = str(refused.value)
    assert "hunter2" not in text and "tabula:***@127.0.0.1:1" in text and "TABULA_DATABASE" in text


# -- shards ------------------------------------------------------------------------------------------------


def test_shard_ranges_are_read_and_checked() -> None:
    assert Shards.parse("0-3/8") == Shards((0, 1, 2, 3), 8)
    assert Shards.parse("1/2").owns(1 << 22) and not Shards.parse("1/2").owns(2 << 22)
    for bad in ("0-3", "4-2/8", "0-8/8", "x/2", "1/0"):
        with pytest.raises(ValueError, match="TABULA_SHARDS"):
            Shards.parse(bad)


async def test_background_queries_see_only_this_processs_shards(database: str) -> None:
    store = await MatchStore.open(database)
    service = MatchService(store.matches, rng=random.Random(2), clock=lambda: 50.0, challenge_seconds=10)
    try:
        guilds = [shard << 22 for shard in range(4)]  # one server on each of 4 shards
        for number, guild in enumerate(guilds):
            await service.challenge(  # a challenge that will expire
                guild_id=guild, channel_id=100 + number, game="pond", challenger=ANA, opponents=[BO], options={}
            )
            await service.challenge(  # a computer's game, which announces its start
                guild_id=guild,
                channel_id=200 + number,
                game="pond",
                challenger=ANA,
                opponents=[],
                options={},
                computers=["easy"],
            )
        matches = store.matches
        low, high = 0, 2**62
        everything = (
            await matches.expired_challenges(1e9),
            await matches.pending_announcements(),
            await matches.active_matches_seating(low, high),
        )
        assert [len(found) for found in everything] == [4, 4, 4]
        for shards in (Shards((0, 2), 4), Shards((1,), 4), Shards((3,), 4)):
            matches.shards = shards
            expired = await matches.expired_challenges(1e9)
            pending = await matches.pending_announcements()
            computers = await matches.active_matches_seating(*computer_ids())
            assert sorted(r.guild_id for r in expired) == [g for g in guilds if shards.owns(g)]
            assert sorted(a.guild_id for a in pending) == [g for g in guilds if shards.owns(g)]
            assert sorted(r.guild_id for r in computers) == [g for g in guilds if shards.owns(g)]
    finally:
        await store.close()
