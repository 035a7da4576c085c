"""``python -m bot worker``: reviews made from the PostgreSQL queue without Discord; refused on SQLite."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

import pytest

from bot.__main__ import main
from bot.core.background import BackgroundRunner
from bot.core.reviews import REVIEW
from bot.core.service import MatchService
from bot.ops.worker import WorkerRefused, run_worker
from bot.settings import Settings
from bot.storage import MatchStore, Seat
from bot.storage.job_store import ASKED, DONE

ANA, BO = Seat(1, "Ana"), Seat(2, "Bo")
GUILD = 7 << 22


async def finished_game(store: MatchStore, channel: int = 10) -> int:
    """A Pond mini game played to its end with random moves; return its id."""
    service = MatchService(store.matches, rng=random.Random(5))
    answer = await service.challenge(
        guild_id=GUILD, channel_id=channel, game="pond", challenger=ANA, opponents=[BO], options={"variant": "mini"}
    )
    answer = await service.answer(answer.record.id, BO, True)
    rng = random.Random(3)
    record, state = answer.record, answer.state
    while state.outcome() is None:
        assert state.to_move is not None
        move = state.move_text(rng.choice(state.legal_moves()))
        turn = await service.play(channel, record.players[state.to_move].user_id, move)
        record, state = turn.record, turn.state
    return record.id


async def test_the_worker_reviews_a_queued_game_from_postgresql_and_stops_cleanly(postgres_database: str) -> None:
    store = await MatchStore.open(postgres_database)
    try:
        match_id = await finished_game(store)
        job, _ = await store.jobs.submit(REVIEW, GUILD, ANA.user_id, match_id, priority=ASKED, now=1.0)
        runners: list[BackgroundRunner] = []
        worker = asyncio.ensure_future(
            run_worker(Settings(database=postgres_database, ai_processes=0), iterations=30, started=runners.append)
        )
        for _ in range(600):
            done = await store.jobs.get(job.id)
            if (done is not None and done.state == DONE) or worker.done():
                break
            await asyncio.sleep(0.05)
        assert not worker.done(), worker  # still serving: it stops only when told
        (runner,) = runners
        await runner.stop()  # as SIGTERM does
        await asyncio.wait_for(worker, 30)
        finished = await store.jobs.get(job.id)
        assert finished is not None and finished.state == DONE and finished.taken_by is None
        review = await store.reviews.get(match_id)
        moves = sum(1 for entry in await store.matches.log(match_id) if entry.kind == "move")
        assert review is not None and review.complete and len(review.judgements) == moves
    finally:
        await store.close()


async def test_the_worker_refuses_a_sqlite_database(tmp_path: Path) -> None:
    with pytest.raises(WorkerRefused, match="one process"):
        await run_worker(Settings(database=str(tmp_path / "tabula.sqlite3")))
    assert not (tmp_path / "tabula.sqlite3").exists()  # refused before anything was opened


def test_the_worker_command_says_why_it_refuses_sqlite(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("TABULA_DATABASE", str(tmp_path / "tabula.sqlite3"))
    assert main(["worker"]) == 2
    said = capsys.readouterr().err
    assert "SQLite" in said and "PostgreSQL" in said and "TABULA_DATABASE" in said
