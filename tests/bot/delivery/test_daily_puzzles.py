"""The daily puzzle, end to end on SQLite and PostgreSQL: chosen with ``/tabula puzzles``, posted once a UTC day
with its Solve button, the next day's post saying how many solved it and its solution, a failed post retried."""

from __future__ import annotations

import json
from typing import Any

from ai.puzzles import Puzzle
from bot.commands.puzzles import SOLVE
from bot.storage.puzzle_store import StoredPuzzle, utc_day
from bot.text.puzzles import daily_text
from tests.bot_world import BO, MOD, World, only
from tests.harness import GUILD_ID, SERVER_ERROR, Call, option
from tests.puzzle_samples import FIXTURE, sample

CHANNEL = 4800
PUZZLES = 4801


async def load(world: World) -> None:
    data = json.loads(FIXTURE.read_text(encoding="utf-8"))
    every = [(Puzzle.from_json(item).key, item) for item in data["puzzles"] if item["game"] == "pond"]
    await world.bot.store.puzzles.load_shipped(every)


async def choose_channel(world: World, channel: int | None) -> Call:
    """``/tabula puzzles channel:`` as a moderator sends it (the channel resolved, as Discord sends it)."""
    options = [] if channel is None else [option("channel", str(channel), kind=7)]
    payload = world.discord.command_payload(MOD, CHANNEL, "tabula", "puzzles", options)
    if channel is not None:
        resolved: dict[str, Any] = {"id": str(channel), "type": 0, "name": "puzzles", "permissions": "8"}
        payload["data"]["resolved"] = {"channels": {str(channel): resolved}}
    return only(await world.discord.send(payload), "reply")


def posts(world: World) -> list[Call]:
    return [c for c in world.recorder.calls if c.kind == "message" and f"/channels/{PUZZLES}/" in c.path]


async def test_the_daily_puzzle_is_posted_once_a_day_and_summed_up_the_next(world: World) -> None:
    await load(world)
    refused = only(await world.discord.command(BO, CHANNEL, "tabula", "puzzles", []), "reply")
    assert "Manage Server" in refused.content  # only a manager chooses the channel
    chosen = await choose_channel(world, PUZZLES)
    assert f"Daily puzzle: posted in <#{PUZZLES}>" in chosen.content
    due = await world.bot.parts.background.next_due(world.clock())
    assert due.puzzles is not None and due.puzzles <= world.clock()
    await world.bot.parts.background.daily.run()
    await world.bot.parts.background.daily.run()  # the same day again: nothing more
    (post,) = posts(world)
    assert "**Daily puzzle** (Pond)" in post.content and post.board is not None
    assert post.descriptions["board.png"]
    (solve,) = post.custom_ids
    puzzle_id = SOLVE.read(solve)["puzzle"]  # type: ignore[index]
    after = await world.bot.parts.background.next_due(world.clock())
    assert after.puzzles is not None and after.puzzles > world.clock()  # tomorrow
    # Bo presses Solve: the puzzle privately, and solves it by typing.
    opened = only(await world.discord.press(BO, PUZZLES, solve), "followup")
    assert opened.ephemeral and opened.board is not None and opened.menus
    stored = await world.bot.store.puzzles.get(puzzle_id)
    assert stored is not None
    line = stored.data["line"]
    await world.discord.command(BO, PUZZLES, "puzzle", "", [option("move", line[0])])
    await world.discord.command(BO, PUZZLES, "puzzle", "", [option("move", line[2])])
    # The next day: the first post fails (Discord's 5xx), and is retried until it lands.
    world.clock.advance(86400)
    world.recorder.fail("message", SERVER_ERROR)
    await world.bot.parts.background.daily.run()
    row = await world.bot.store.puzzles.daily(GUILD_ID, utc_day(world.clock()))
    assert row is not None and row.status == "pending" and row.attempts == 1 and row.next_at > world.clock()
    assert len(posts(world)) == 2 and row.puzzle_id != puzzle_id  # the refused try, never yesterday's again
    world.clock.advance(row.next_at - world.clock())
    await world.bot.parts.background.daily.run()
    landed = posts(world)[-1]
    assert "Yesterday's puzzle was solved by 1 player. Its solution: ||" in landed.content
    done = await world.bot.store.puzzles.daily(GUILD_ID, utc_day(world.clock()))
    assert done is not None and done.status == "posted" and done.message_id is not None
    # Turned off: nothing is due any more.
    stopped = await choose_channel(world, None)
    assert "Daily puzzle: off" in stopped.content
    assert (await world.bot.parts.background.next_due(world.clock())).puzzles is None


def test_the_daily_text_names_the_source_game_and_yesterdays_solution() -> None:
    made = sample("pond")
    mined = StoredPuzzle(
        9, GUILD_ID, made.key, "pond", made.to_json(), 12, 22, ("Ana", "Bo"), 1, 1500.0, 300.0, 0.06, 0, 0, 0.0
    )
    shipped = StoredPuzzle(
        3, 0, made.key, "pond", made.to_json(), None, None, None, None, 1500.0, 300.0, 0.06, 0, 0, 0.0
    )
    text = daily_text(mined, "en", (shipped, 4))
    assert "Light to move and win 2 frogs" in text
    assert "From Ana vs Bo, game #12, move 23." in text and "/history match:12" in text
    assert "solved by 4 players" in text and "||Light" in text
    assert "computer played against itself" in daily_text(shipped, "en")
    for language in ("ru", "fr"):
        assert daily_text(mined, language, (shipped, 4)) != text
