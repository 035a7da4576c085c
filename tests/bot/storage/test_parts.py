"""The match store is composed of parts, each built with what it uses; Matches keeps the old method names."""

from __future__ import annotations

import inspect
import random
from pathlib import Path

from bot.core.service import MatchService
from bot.shards import Shards
from bot.storage import Matches, MatchStore, Seat
from bot.storage.match_base import MatchReader, Schedule
from bot.storage.match_store import MatchRecords
from bot.storage.outbox_store import Outbox
from bot.storage.places_store import Places
from bot.storage.records import Notice, NoticeKind

ANA, BO = Seat(100000000000000001, "Ana"), Seat(100000000000000002, "Bo")
GUILD = 1 << 22
# What the parts offer one another, not callers: no name on the compatibility surface.
PART_HELPERS = {"announce", "fetch_one", "fetch_all", "fetch_flagged", "note_ordinary"}


def test_every_public_method_of_a_part_is_on_matches_and_is_that_parts_own() -> None:
    matches = Matches(MatchStore.unopened().database)
    parts = {"reader": MatchReader, "outbox": Outbox, "places": Places, "records": MatchRecords}
    seen = set()
    for attribute, kind in parts.items():
        part = getattr(matches, attribute)
        assert isinstance(part, kind)
        for name, _ in inspect.getmembers(kind, inspect.isfunction):
            if name.startswith("_") or name in PART_HELPERS:
                continue
            assert getattr(matches, name) == getattr(part, name), name
            seen.add(name)
    assert {"get", "append", "mark_delivered", "relocate", "announce_in", "log"} <= seen
    assert len(seen) == 34


async def test_parts_built_alone_share_only_what_they_are_handed(tmp_path: Path) -> None:
    """An outbox built beside the store's own sees what the store's moves announced; the schedule they are given
    hears what becomes due and limits the background queries to its shards."""
    store = await MatchStore.open(str(tmp_path / "parts.sqlite3"))
    try:
        service = MatchService(store.matches, rng=random.Random(5), clock=lambda: 1000.0)
        asked = await service.challenge(
            guild_id=GUILD, channel_id=61, game="pond", challenger=ANA, opponents=[BO], options={}
        )
        record = (await service.answer(asked.record.id, BO, True)).record
        heard: list[float] = []
        schedule = Schedule(on_due=heard.append)
        outbox = Outbox(store.database, schedule)
        async with store.database.transaction() as db:
            made = await outbox.announce_in(db, record, [Notice(NoticeKind.TURN, mentions=(ANA.user_id,))], 1000.0)
        assert heard == [1060.0]
        assert [a.id for a in await outbox.pending_announcements(2000.0)][-1] == made[0].id
        assert made[0].id in {a.id for a in await store.matches.pending_announcements(2000.0)}
        schedule.shards = Shards((1,), 2)  # the guild's shard is (GUILD >> 22) % 2 == 1
        assert made[0].id in {a.id for a in await outbox.pending_announcements(2000.0)}
        schedule.shards = Shards((0,), 2)
        assert await outbox.pending_announcements(2000.0) == []
        assert store.matches.shards is None  # the store's own schedule was not touched
    finally:
        await store.close()
