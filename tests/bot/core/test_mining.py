"""Mining finished matches for puzzles: a slice at a time, stored as it goes, resumed after a restart."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ai.puzzle_set import self_play
from bot.core.mining import SLICE, PuzzleMiner
from bot.core.refusals import Refusal
from bot.core.service import MatchService
from bot.storage import MatchStore, Seat
from bot.storage.records import MatchRecord
from engines import GameState

ANA, BO = Seat(1, "Ana"), Seat(2, "Bo")


@dataclass(frozen=True)
class Positions:
    """A finished match as mining reads it (the bot hands over its rebuilt matches): its record and positions."""

    record: MatchRecord
    states: Sequence[GameState]


ITERATIONS = 200  # small, as the other search tests use: game 0 of Querni still gives its puzzle at ply 11


class Sink:
    """The puzzle store's part mining uses: remembers what it was given, once per puzzle."""

    def __init__(self) -> None:
        self.added: list[dict[str, Any]] = []

    async def add(
        self,
        guild_id: int,
        puzzle: Mapping[str, Any],
        *,
        key: str,
        match_id: int | None = None,
        ply: int | None = None,
        players: Sequence[str] | None = None,
        blunderer: int | None = None,
        now: float | None = None,
    ) -> int | None:
        if any(entry["puzzle"] == puzzle for entry in self.added):
            return None
        self.added.append(
            {"guild": guild_id, "puzzle": dict(puzzle), "match": match_id, "ply": ply, "names": list(players or ()),
             "blunderer": blunderer}
        )  # fmt: skip
        return len(self.added)


class Inline:
    """The background worker, run inline (the search is deterministic, wherever it runs)."""

    def __init__(self) -> None:
        self.calls = 0

    async def run(self, function: Any, *args: Any, urgent: bool = False, background: bool = False) -> Any:
        assert background, "mining is background work"
        self.calls += 1
        return function(*args)


async def finished_match(store: MatchStore) -> int:
    service = MatchService(store.matches, rng=random.Random(1), clock=lambda: 1000.0)
    record = (
        await service.challenge(guild_id=7, channel_id=70, game="querni", challenger=ANA, opponents=[BO], options={})
    ).record
    await service.answer(record.id, BO, True)
    await service.resign(70, ANA.user_id)
    return record.id


async def test_a_finished_match_is_mined_slice_by_slice_and_its_puzzle_stored(database: str) -> None:
    store = await MatchStore.open(database)
    try:
        match_id = await finished_match(store)
        record = await store.matches.get(match_id)
        states = self_play("querni", 0)
        sink, workers = Sink(), Inline()

        async def positions(wanted: int, guild: int) -> Positions:
            assert (wanted, guild) == (match_id, 7)
            return Positions(record, states)

        miner = PuzzleMiner(store.mining, sink, positions, workers, iterations=ITERATIONS)
        assert await store.mining.unmined(0.0, 10) == [(match_id, 7)]
        slices = 0
        while not await miner.mine(match_id, 7):
            slices += 1
            kept = await store.mining.get(match_id)
            assert kept is not None and kept.screened == slices * SLICE and not kept.complete
        assert slices == (len(states) - 1) // SLICE
        kept = await store.mining.get(match_id)
        assert kept is not None and kept.complete and kept.screened == len(states)
        assert kept.found == len(sink.added) >= 1
        found = sink.added[0]
        assert found["guild"] == 7 and found["match"] == match_id and sorted(found["names"]) == ["Ana", "Bo"]
        assert found["names"] == [seat.name for seat in record.players]
        assert found["puzzle"]["game"] == "querni" and found["puzzle"]["goal"] == "win"
        mover_before = states[found["ply"] - 1].to_move
        assert found["blunderer"] == record.players[mover_before].user_id  # whose move the puzzle punishes
        assert await store.mining.unmined(0.0, 10) == []
        calls = workers.calls
        assert await miner.mine(match_id, 7)  # mined already: nothing is searched again
        assert workers.calls == calls
    finally:
        await store.close()


async def test_mining_resumes_after_a_restart_from_the_next_position(database: str) -> None:
    store = await MatchStore.open(database)
    try:
        match_id = await finished_match(store)
        record = await store.matches.get(match_id)
        states = self_play("querni", 0)

        async def positions(wanted: int, guild: int) -> Positions:
            return Positions(record, states)

        first = PuzzleMiner(store.mining, Sink(), positions, Inline(), iterations=ITERATIONS)
        assert not await first.mine(match_id, 7)
        # A new process: a new miner over the same database goes on from the stored progress.
        workers, sink = Inline(), Sink()
        second = PuzzleMiner(store.mining, sink, positions, workers, iterations=ITERATIONS)
        while not await second.mine(match_id, 7):
            pass
        looked_at = [s for s in states[SLICE:] if s.outcome() is None and s.ply >= 2 and len(s.legal_moves()) > 1]
        assert workers.calls == len(looked_at)
        assert [entry["ply"] for entry in sink.added] == [11]
    finally:
        await store.close()


async def test_a_match_that_cannot_be_rebuilt_is_marked_done_with_nothing_found(database: str) -> None:
    store = await MatchStore.open(database)
    try:
        match_id = await finished_match(store)

        async def positions(wanted: int, guild: int) -> Positions:
            raise Refusal("There is no finished game #{number} on this server.", number=wanted)

        workers = Inline()
        miner = PuzzleMiner(store.mining, Sink(), positions, workers, iterations=ITERATIONS)
        assert await miner.mine(match_id, 7)
        kept = await store.mining.get(match_id)
        assert kept is not None and kept.complete and kept.found == 0 and workers.calls == 0
    finally:
        await store.close()
