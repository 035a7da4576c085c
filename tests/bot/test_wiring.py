"""The parts are wired once: built after the database opens, handed one another in their constructors, and
told of moves and finished matches through the one typed mechanism (:class:`bot.core.signals.Signals`)."""

from __future__ import annotations

import logging
import random
from pathlib import Path

import pytest

from bot.client import TabulaBot
from bot.core.service import MatchService
from bot.core.signals import MatchFinished, MoveApplied, Signals
from bot.settings import Settings
from bot.storage import MatchStore
from bot.storage.records import Seat
from tests.bot_world import ANA, BO, World


def test_subscribers_hear_their_events_in_order_and_a_failing_one_stops_nobody(
    caplog: pytest.LogCaptureFixture,
) -> None:
    signals = Signals()
    heard: list[str] = []

    def broken(event: MoveApplied) -> None:
        raise ValueError("a subscriber's own fault")

    signals.subscribe(MoveApplied, lambda event: heard.append(f"first {event.game}"))
    signals.subscribe(MoveApplied, broken)
    signals.subscribe(MoveApplied, lambda event: heard.append(f"last {event.game}"))
    signals.subscribe(MatchFinished, lambda event: heard.append("finished"))
    with caplog.at_level(logging.ERROR, logger="bot.core.signals"):
        signals.publish(MoveApplied("pond"))
    assert heard == ["first pond", "last pond"]  # another type's subscribers hear nothing
    assert [record.getMessage() for record in caplog.records] == ["a subscriber to MoveApplied failed"]
    signals.publish(object())  # an event nobody subscribed to is nobody's business


async def test_the_service_publishes_moves_and_the_finished_match(tmp_path: Path) -> None:
    store = await MatchStore.open(str(tmp_path / "signals.sqlite3"))
    try:
        signals = Signals()
        heard: list[object] = []
        signals.subscribe(MoveApplied, heard.append)
        signals.subscribe(MatchFinished, heard.append)
        service = MatchService(store.matches, rng=random.Random(1), clock=lambda: 1000.0, signals=signals)
        ana, bo = Seat(ANA.id, "Ana"), Seat(BO.id, "Bo")
        challenge = await service.challenge(
            guild_id=1, channel_id=2, game="pond", challenger=ana, opponents=[bo], options={}
        )
        started = await service.answer(challenge.record.id, bo, True)
        assert started.state is not None and started.state.to_move is not None and heard == []
        mover = started.record.players[started.state.to_move].user_id
        move = started.state.move_text(started.state.legal_moves()[0])
        turn = await service.play(2, mover, move, game="pond")
        assert heard == [MoveApplied("pond")]
        ended = await service.resign(2, mover, game="pond")
        assert ended.finished and heard == [MoveApplied("pond"), MatchFinished(ended.record)]
        assert turn.record.version < ended.record.version
    finally:
        await store.close()


async def test_a_running_bot_builds_its_parts_once_over_the_open_database(world: World) -> None:
    bot = world.bot
    assert bot.parts.store is bot.store and bot.service.store is bot.store.matches
    parts = bot.parts
    await bot.prepare()  # again: nothing is built twice
    assert bot.parts is parts
    # The parts were handed one another: the announcer posts for the same service the commands call.
    assert bot.announcer.composer.boards is bot.service and bot.ui.service is bot.service
    await world.start_pond(900)
    assert set(await world.seats(900)) == {ANA, BO}


async def test_a_bot_only_described_opens_no_database_and_cannot_be_started() -> None:
    bot = TabulaBot(Settings(database="never/opened.sqlite3"))
    with pytest.raises(RuntimeError):
        bot.service  # noqa: B018 (nothing is built before the database opens)
    assert {command.name for command in bot.describe().get_commands()} >= {"pond", "azul", "help"}
    with pytest.raises(RuntimeError, match="cannot be started"):
        await bot.prepare()
