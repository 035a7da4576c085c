"""The computer's review and hints through the command tree: ``/analyse``, the Analyse buttons, ``/<game> hint``."""

from __future__ import annotations

import asyncio
import itertools
from typing import Any

import pytest

from ai.review import Judgement, judge_saved
from bot.core.reviews import moves_to_judge
from bot.delivery.workers import WorkerPool
from engines import GAMES
from tests.bot.commands.test_replay import finished_match
from tests.bot_world import ANA, BO, CY, World, only
from tests.harness import GUILD_ID, SERVER_ERROR, TIMEOUT, option, settle

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


class CountingWorkers:
    """The computer's workers, counting the positions judged (and able to refuse to judge any)."""

    def __init__(self, inner: Any, *, refuse: bool = False) -> None:
        self.inner = inner
        self.refuse = refuse
        self.judged = 0

    async def run(self, function: Any, *args: Any, urgent: bool = False, background: bool = False) -> Any:
        if function is judge_saved:
            if self.refuse:
                raise AssertionError("a kept review was judged again")
            self.judged += 1
            assert background, "a review must run as background work, behind live games"
        return await self.inner.run(function, *args, urgent=urgent)


def moves_of(world: World, match_id: int) -> Any:
    async def count() -> int:
        return sum(1 for entry in await world.bot.store.matches.log(match_id) if entry.kind == "move")

    return count()


async def test_analyse_posts_a_graph_summaries_and_the_costliest_moves_then_keeps_the_review(world: World) -> None:
    match_id = await finished_match(world, 911, "pond", 2, {"variant": "mini"})
    counting = CountingWorkers(world.bot.reviews.maker.workers)
    world.bot.reviews.maker.workers = counting
    calls = await world.command(CY, 911, "analyse", "", match=match_id)
    assert calls[0].kind == "defer"
    review = [c for c in calls if c.kind == "edit-original" and f"review-{match_id}.png" in c.files][-1]
    assert review.files[f"review-{match_id}.png"].startswith(PNG_MAGIC)
    content = review.payload["content"]  # type: ignore[index]
    assert f"#{match_id}" in content and "Ana" in content and "Bo" in content
    stored = await world.bot.store.reviews.get(match_id)
    moves = await moves_of(world, match_id)
    assert stored is not None and stored.complete and len(stored.judgements) == moves == counting.judged
    followups = [c for c in calls if c.kind == "followup"]
    costly = {Judgement.from_json(j).player for j in stored.judgements if Judgement.from_json(j).verdict}
    assert len(followups) == len(costly)  # one message per player with a costly move
    for post in followups:
        assert post.files and all(png.startswith(PNG_MAGIC) for png in post.files.values())
        assert 1 <= len(post.files) <= 3
    # Asked again (by anyone): the kept review, at once, judging nothing.
    world.bot.reviews.maker.workers = CountingWorkers(counting.inner, refuse=True)
    again = await world.command(ANA, 911, "analyse", "", match=match_id)
    repeat = [c for c in again if c.kind == "edit-original" and f"review-{match_id}.png" in c.files][-1]
    assert repeat.payload["content"] == content  # type: ignore[index]


async def test_the_result_and_the_replay_carry_an_analyse_button_that_works(world: World) -> None:
    channel = 912
    match_id = await finished_match(world, channel, "pond", 2, {"variant": "mini"}, seed=2)
    await world.bot.announcer.resume(everything=True)  # the moves were played through the service: post them
    button = f"tabula:analyse:{match_id}"
    assert any(button in c.custom_ids for c in world.recorder.calls), "the result message carries Analyse"
    replay = only(await world.command(CY, channel, "history", "", match=match_id), "followup")
    assert button in replay.custom_ids
    pressed = await world.discord.press(BO, channel, button)
    assert pressed[0].kind == "defer"
    assert any(c.kind == "edit-original" and f"review-{match_id}.png" in c.files for c in pressed)


async def test_a_game_without_moves_has_nothing_to_review(world: World) -> None:
    channel = 921
    light, _ = await world.start_pond(channel, variant="mini")
    await world.command(light, channel, "pond", "resign")
    record = (await world.bot.store.matches.finished_matches(GUILD_ID, channel_id=channel, limit=1))[0]
    calls = await world.command(CY, channel, "analyse", "", match=record.id)
    said = [c for c in calls if c.kind == "edit-original"]
    assert said and "nothing to review" in said[-1].payload["content"]  # type: ignore[index]
    assert await world.bot.store.reviews.get(record.id) is None


async def test_a_review_shows_its_progress_and_goes_on_after_a_restart(world: World) -> None:
    match_id = await finished_match(world, 913, "summer", 2, {"size": 4})
    maker = world.bot.reviews.maker
    rebuilt = await world.bot.replays.rebuilt(match_id, GUILD_ID)
    todo = moves_to_judge(rebuilt.states, rebuilt.game.plies)
    budget = maker.budget("summer")
    # A review cut short by a restart: its first three judgements were kept.
    first = [
        judge_saved("summer", p.state.to_json(), p.move, budget, 1) for p in todo[:3]
    ]  # fmt: skip
    await world.bot.store.reviews.save(match_id, budget, first, complete=False)
    counting = CountingWorkers(maker.workers)
    maker.workers = counting
    ticks = itertools.count(0.0, 10.0)
    world.bot.reviews.clock = lambda: next(ticks)
    calls = await world.command(ANA, 913, "analyse", "", match=match_id)
    assert counting.judged == len(todo) - 3
    progress = [c for c in calls if c.kind == "edit-original" and not c.files]
    assert progress and all("%" in c.payload["content"] for c in progress)  # type: ignore[index]
    assert any(f"#{match_id}" in c.payload["content"] for c in progress)  # type: ignore[index]
    stored = await world.bot.store.reviews.get(match_id)
    assert stored is not None and stored.complete and stored.judgements[:3] == tuple(first)


async def test_two_askers_share_one_review(world: World) -> None:
    match_id = await finished_match(world, 914, "pond", 2, {"variant": "mini"}, seed=3)
    counting = CountingWorkers(world.bot.reviews.maker.workers)
    world.bot.reviews.maker.workers = counting
    start = len(world.recorder.calls)
    for person in (ANA, BO):  # both asks arrive before either is answered
        payload = world.discord.command_payload(person, 914, "analyse", "", [option("match", match_id, kind=4)])
        world.bot._connection.parse_interaction_create(payload)
    await settle()
    assert counting.judged == await moves_of(world, match_id)
    reviews = [c for c in world.recorder.calls[start:] if c.kind == "edit-original" and c.files]
    assert len(reviews) == 2 and all(f"review-{match_id}.png" in c.files for c in reviews)


async def test_analyse_refuses_what_it_cannot_review_and_changes_nothing(world: World) -> None:
    calls = await world.command(ANA, 915, "analyse", "", match=4242)
    reply = only(calls, "reply")
    assert reply.ephemeral and "4242" in reply.payload["data"]["content"]  # type: ignore[index]
    await world.start_pond(915, variant="mini")
    running = (await world.bot.store.matches.open_matches_at(915))[0]
    refused = only(await world.command(ANA, 915, "analyse", "", match=running.id), "reply")
    assert refused.ephemeral
    assert await world.bot.store.reviews.get(running.id) is None


async def test_analyse_offers_the_askers_finished_games(world: World) -> None:
    mine = await finished_match(world, 916, "pond", 2, {"variant": "mini"})
    offered = await world.discord.autocomplete(ANA, 916, "analyse", "", [option("match", "", kind=4, focused=True)])
    assert offered == [mine]
    assert await world.discord.autocomplete(CY, 916, "analyse", "", [option("match", "", kind=4, focused=True)]) == []


# -- hints -------------------------------------------------------------------------------------------------------


async def test_a_hint_in_a_practice_game_is_private_and_drawn(world: World) -> None:
    channel = 917
    await world.command(ANA, channel, "pond", "start", difficulty="easy", variant="mini")
    record = (await world.bot.store.matches.open_matches_at(channel))[0]
    assert not record.rated
    calls = await world.command(ANA, channel, "pond", "hint")
    assert calls[0].kind == "defer" and calls[0].ephemeral
    answer = only(calls, "followup")
    assert answer.ephemeral and "`" in answer.payload["content"] and "%" in answer.payload["content"]  # type: ignore[index]
    assert next(iter(answer.files.values())).startswith(PNG_MAGIC)
    after = await world.bot.store.matches.get(record.id)
    assert after is not None and after.version == record.version  # a hint changes nothing


async def test_the_review_and_hint_boards_say_what_their_colours_mean(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A review's boards are drawn as a review's (amber the move played, blue the better), a hint's as a hint's."""
    import render

    meanings: list[str] = []
    drawn = render.render_marked

    def recording(*args: Any, **kwargs: Any) -> bytes:
        meanings.append(kwargs["meaning"])
        return drawn(*args, **kwargs)

    monkeypatch.setattr(render, "render_marked", recording)
    match_id = await finished_match(world, 924, "pond", 2, {"variant": "mini"})
    await world.command(CY, 924, "analyse", "", match=match_id)
    assert meanings and set(meanings) == {"review"}
    meanings.clear()
    await world.command(ANA, 925, "pond", "start", difficulty="easy", variant="mini")
    await world.command(ANA, 925, "pond", "hint")
    assert meanings == ["hint"]


async def test_hints_are_refused_between_people_and_when_the_server_turned_them_off(world: World) -> None:
    await world.start_pond(918, variant="mini")
    between = only(await world.command(ANA, 918, "pond", "hint"), "reply")
    assert between.ephemeral and "between people" in between.payload["data"]["content"]  # type: ignore[index]
    await world.command(ANA, 919, "pond", "start", difficulty="easy", variant="mini")
    await world.bot.store.settings.change(GUILD_ID, hints=False)
    off = only(await world.command(ANA, 919, "pond", "hint"), "reply")
    assert off.ephemeral and "off" in off.payload["data"]["content"]  # type: ignore[index]


# -- background work waits behind live games ---------------------------------------------------------------------------


def _busy_then_niceness(seconds: float) -> int:
    import os
    import time

    until = time.perf_counter() + seconds
    while time.perf_counter() < until:
        pass
    return os.nice(0)


@pytest.mark.subprocess
async def test_background_work_runs_beside_the_live_work_at_the_lowest_priority() -> None:
    pool = WorkerPool("test", 1)
    try:
        review = asyncio.ensure_future(pool.run(_busy_then_niceness, 3.0, background=True))
        live = await pool.run(_busy_then_niceness, 0.0)  # answered while the review still runs
        assert not review.done() and live == 0
        assert await review == 19
        assert len(pool.pids()) == 2
    finally:
        pool.stop()


def test_every_game_reviews_and_hints_through_the_same_worker_functions() -> None:
    from bot.commands.reviews import hint_and_board

    for name, spec in sorted(GAMES.items()):
        state = spec.new(players=spec.min_players, seed=2)
        judged, png = hint_and_board(state, ["Ana", "Bo", "Cy", "Dee"][: state.players], "en", 1, 30)
        assert png.startswith(PNG_MAGIC), name
        assert Judgement.from_json(judged).best in {state.move_text(m) for m in state.legal_moves()}


async def test_a_review_whose_progress_message_cannot_be_edited_is_posted_anew(world: World) -> None:
    match_id = await finished_match(world, 922, "pond", 2, {"variant": "mini"}, seed=5)
    world.recorder.fail("edit-original", SERVER_ERROR, times=50)
    calls = await world.command(ANA, 922, "analyse", "", match=match_id)
    posted = [c for c in calls if c.kind == "followup" and f"review-{match_id}.png" in c.files]
    assert len(posted) == 1 and f"#{match_id}" in posted[0].payload["content"]  # type: ignore[index]


async def test_a_review_that_could_not_be_posted_is_shown_at_once_when_asked_again(world: World) -> None:
    match_id = await finished_match(world, 923, "pond", 2, {"variant": "mini"}, seed=6)
    world.recorder.fail("edit-original", TIMEOUT, times=50)
    world.recorder.fail("followup", SERVER_ERROR, times=1)
    await world.command(ANA, 923, "analyse", "", match=match_id)
    stored = await world.bot.store.reviews.get(match_id)
    assert stored is not None and stored.complete  # made and kept, although Discord took none of it
    world.recorder.heal()
    world.bot.reviews.maker.workers = CountingWorkers(world.bot.reviews.maker.workers, refuse=True)
    again = await world.command(ANA, 923, "analyse", "", match=match_id)
    assert any(c.kind == "edit-original" and f"review-{match_id}.png" in c.files for c in again)
