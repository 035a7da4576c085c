"""``/history match:N`` end to end: the replay, the match record that replays exactly, and the step buttons."""

from __future__ import annotations

import random
from typing import Any

import pytest

from bot.commands.replays import LABELS, REPLAY_TEMPLATE, Replays, step_target
from bot.storage.records import Seat
from engines import GAMES
from engines.record import Forfeit, parse_record, replay
from tests.bot_world import ANA, BO, CY, DEE, World, only
from tests.harness import GUILD_ID, Call

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
PEOPLE = (ANA, BO, CY, DEE)


async def finished_match(
    world: World,
    channel: int,
    game: str,
    players: int,
    options: dict[str, Any],
    *,
    resign_at: int | None = None,
    seed: int = 1,
) -> int:
    """Play a match through the service with random legal moves to its end; ``resign_at``: a player resigns there."""
    service = world.bot.service
    seats = [Seat(p.id, p.name) for p in PEOPLE[:players]]
    answer = await service.challenge(
        guild_id=GUILD_ID, channel_id=channel, game=game, challenger=seats[0], opponents=seats[1:], options=options
    )
    for seat in seats[1:]:
        answer = await service.answer(answer.record.id, seat, True)
    match_id = answer.record.id
    rng = random.Random(seed)
    ply = 0
    while True:
        record, state = await service.running(channel)
        if ply == resign_at:
            leaver = next(s for s in range(players) if s != state.to_move and s not in getattr(state, "left", ()))
            turn = await service.resign(channel, record.players[leaver].user_id)
        else:
            assert state.to_move is not None
            move = state.move_text(rng.choice(state.legal_moves()))
            turn = await service.play(channel, record.players[state.to_move].user_id, move)
        ply += 1
        if turn.record.status == "finished":
            return match_id


GAMES_PLAYED = [
    ("pond", 2, {"variant": "mini"}, None),
    ("pond", 2, {"variant": "mini"}, 5),  # a resignation ends it: the record's last line is a forfeit
    ("azul", 3, {"max_rounds": 2}, 7),  # one of three leaves, the others play on
    ("querni", 2, {"draw_plies": 8}, None),
    ("summer", 2, {"size": 4}, None),
]


@pytest.mark.parametrize(("game", "players", "options", "resign_at"), GAMES_PLAYED)
async def test_the_record_replays_exactly_to_the_stored_final_state(
    world: World, game: str, players: int, options: dict[str, Any], resign_at: int | None
) -> None:
    match_id = await finished_match(world, 901, game, players, options, resign_at=resign_at)
    posted = only(await world.command(CY, 901, "history", "", match=match_id), "followup")
    assert posted.files[f"replay-{match_id}.gif"].startswith(b"GIF89a")
    text = posted.files[f"match-{match_id}.txt"].decode("utf-8")
    record = parse_record(text)
    stored = await world.bot.store.matches.get(match_id)
    assert stored is not None and stored.state is not None
    assert record.game == game and record.seed == stored.seed and record.players == players
    assert record.names == tuple(seat.name for seat in stored.players) and record.date is not None
    assert dict(record.options) == stored.options
    assert len(record.plies) == len(await world.bot.store.matches.log(match_id))
    assert any(isinstance(p, Forfeit) for p in record.plies) == (resign_at is not None)
    final = replay(record)[-1]
    assert final.to_json() == GAMES[game].from_json(stored.state).to_json()
    assert record.result is not None and list(record.result.scores) == stored.result["scores"]  # type: ignore[index]
    assert posted.descriptions[f"replay-{match_id}.gif"]  # the final position, for screen readers
    assert f"{len(record.plies)} plies" in posted.content
    assert sorted(step for step in LABELS if any(cid.endswith(f":{step}") for cid in posted.custom_ids)) == sorted(
        LABELS
    )


def button(call: Call, step: str) -> str:
    return next(cid for cid in call.custom_ids if cid.endswith(f":{step}"))


def disabled(call: Call) -> set[str]:
    """The steps whose buttons are disabled on a message."""
    found = set()
    for row in call.data.get("components") or []:
        for item in row.get("components", []):
            if item.get("disabled"):
                found.add(item["custom_id"].rsplit(":", 1)[1])
    return found


async def test_the_buttons_step_through_the_match_for_anyone_and_after_a_restart(world: World) -> None:
    match_id = await finished_match(world, 902, "pond", 2, {"variant": "mini"}, seed=3)
    plies = len(await world.bot.store.matches.log(match_id))
    posted = only(await world.command(CY, 902, "history", "", match=match_id), "followup")
    assert disabled(posted) == {"next", "last"}  # the replay ends on the final position
    back = only(await world.discord.press(DEE, 902, button(posted, "prev")), "edit")  # DEE did not play
    assert f"Move {plies - 1} of {plies}" in back.content
    assert back.board is not None and back.board.startswith(PNG_MAGIC)
    assert back.files[f"match-{match_id}.txt"]  # the move list stays downloadable
    alt = back.descriptions["board.png"]
    assert alt and len(alt) <= 1024 and "Scores:" in alt
    first = only(await world.discord.press(ANA, 902, button(back, "first")), "edit")
    assert f"Start ({plies} plies)" in first.content and disabled(first) == {"first", "prev"}
    world = await world.restart()  # the buttons carry everything: a new process answers them
    second = only(await world.discord.press(BO, 902, button(first, "next")), "edit")
    assert f"Move 1 of {plies}" in second.content
    stored = await world.bot.store.matches.get(match_id)
    assert stored is not None
    first_move = (await world.bot.store.matches.log(match_id))[0].text
    assert first_move in second.content
    last = only(await world.discord.press(CY, 902, button(second, "last")), "edit")
    assert f"Move {plies} of {plies}" in last.content
    await world.stop()


async def test_a_button_for_another_server_or_a_running_match_is_refused(world: World) -> None:
    await world.start_pond(903)
    running = await world.bot.store.matches.open_match(903)
    assert running is not None
    reply = only(await world.discord.press(CY, 903, f"tabula:replay:{running.id}:0:first"), "reply")
    assert reply.ephemeral and "no finished game" in reply.content
    reply = only(await world.discord.press(CY, 903, "tabula:replay:987654:0:first"), "reply")
    assert reply.ephemeral and "no finished game" in reply.content


async def test_rebuilt_positions_are_cached_and_evicted_oldest_first(world: World) -> None:
    ids = [await finished_match(world, 910 + i, "pond", 2, {"variant": "mini"}, seed=i) for i in range(3)]
    replays = Replays(world.bot.store.matches, world.bot.renderer.workers, cache_size=2)
    first = await replays.rebuilt(ids[0], GUILD_ID)
    assert await replays.rebuilt(ids[0], GUILD_ID) is first  # a second press reuses the positions
    await replays.rebuilt(ids[1], GUILD_ID)
    await replays.rebuilt(ids[2], GUILD_ID)  # the cache holds two: the oldest goes
    assert await replays.rebuilt(ids[0], GUILD_ID) is not first


def test_step_targets_stay_in_the_game_and_ids_fit_the_template() -> None:
    import re

    for ply in (0, 5, 9):
        for step in LABELS:
            target = step_target(step, ply, 9)
            assert 0 <= target <= 9
            assert re.fullmatch(REPLAY_TEMPLATE, f"tabula:replay:{2**53}:{target}:{step}")
    assert len(f"tabula:replay:{2**63}:999999:first") <= 100  # Discord's custom ID limit


async def test_every_board_the_bot_posts_has_alt_text(world: World) -> None:
    light, dark = await world.start_pond(904, variant="mini")
    await world.command(light, 904, "pond", "place", cell="a1")
    await world.command(dark, 904, "pond", "board")
    await world.command(dark, 904, "pond", "resign")
    posted = [call for call in world.recorder.calls if call.board is not None]
    assert len(posted) >= 3
    for call in posted:
        alt = call.descriptions.get("board.png")
        assert alt and len(alt) <= 1024, call
        assert "Scores:" in alt and "Ana" in alt
