"""``/puzzle`` end to end through discord.py's real command tree, on SQLite and PostgreSQL: solving by taps and by
typing in every game, a wrong answer, an illegal move, a restart between steps, and the ratings and lines that
``/stats`` and ``/leaderboard`` show."""

from __future__ import annotations

import json
from typing import Any

import pytest

from ai.puzzles import Puzzle
from bot.commands.puzzles import PICK
from bot.core.taps import walk
from bot.storage.puzzle_store import SHIPPED
from engines import GAMES, GameState
from tests.bot_world import ANA, BO, World, only
from tests.harness import GUILD_ID as GUILD
from tests.harness import Call, Person, option
from tests.puzzle_samples import FIXTURE

CHANNEL = 4700


async def load(world: World, games: tuple[str, ...] | None = None) -> dict[str, list[Puzzle]]:
    """Load the sample set (of ``games`` only, if given) as the shipped one; return its puzzles by game."""
    data = json.loads(FIXTURE.read_text(encoding="utf-8"))
    found: dict[str, list[Puzzle]] = {}
    for item in data["puzzles"]:
        puzzle = Puzzle.from_json(item)
        if games is None or puzzle.game in games:
            found.setdefault(puzzle.game, []).append(puzzle)
    every = [(p.key, p.to_json()) for ps in found.values() for p in ps]
    await world.bot.store.puzzles.load_shipped(every)
    return found


async def ask(world: World, person: Person, **options: Any) -> list[Call]:
    return await world.discord.command(
        person, CHANNEL, "puzzle", "", [option(name, value) for name, value in options.items()]
    )


async def shown_puzzle(world: World, person: Person) -> Puzzle:
    opened = await world.bot.parts.puzzles.service.current(GUILD, person.id)
    assert opened is not None
    return opened.puzzle


def tokens_to(state: GameState, target: str) -> list[str]:
    """The choices a player taps, in order, to make ``target`` in ``state`` (the steps taken for them left out)."""
    form = GAMES[state.game].moves
    assert form is not None

    def search(path: tuple[str, ...], picked: list[str]) -> list[str] | None:
        step = walk(state, form, path)
        if step.complete:
            return picked if state.move_text(step.move) == target else None
        for choice in step.choices:
            found = search((*step.path, choice.token), [*picked, choice.token])
            if found is not None:
                return found
        return None

    found = search((), [])
    assert found is not None, target
    return found


async def tap(world: World, person: Person, message: Call, target: str, state: GameState) -> Call:
    """Make ``target`` by taps from ``message``'s menus; return the call that showed the verdict."""
    menus = message.menus
    for token in tokens_to(state, target):
        custom_id = next(cid for cid, options in menus.items() if token in [value for _, value in options])
        calls = await world.discord.pick(person, CHANNEL, custom_id, token, ephemeral=True)
        assert "edit" in [c.kind for c in calls] or "edit-original" in [c.kind for c in calls], calls
        shown = [c for c in calls if c.kind in ("edit", "edit-original")][-1]
        menus = shown.menus
    return shown


@pytest.mark.parametrize("game", sorted(GAMES))
async def test_a_puzzle_is_solved_by_taps_in_every_game(world: World, game: str) -> None:
    await load(world, (game,))
    calls = await ask(world, ANA, game=game)
    message = only(calls, "followup")
    assert message.ephemeral and message.board is not None and message.descriptions["board.png"]
    assert "to move" in message.content and "Your puzzle rating: **1500**" in message.content
    assert "From a game the computer played against itself." in message.content
    assert all(PICK.read(cid) is not None for cid in message.menus)
    puzzle = await shown_puzzle(world, ANA)
    first = await tap(world, ANA, message, puzzle.line[0], puzzle.state())
    assert "Right!" in first.content and first.board is not None  # the defender's reply, and the next move
    last = await tap(world, ANA, first, puzzle.line[2], puzzle.state_at(1))
    assert "Solved!" in last.content and "Puzzle rating: 1500 → **" in last.content
    assert "Streak: 1 puzzle solved in a row (best 1)." in last.content and not last.menus
    player = await world.bot.store.puzzles.player(GUILD, ANA.id, game)
    assert player is not None and player.rating > 1500 and player.solved == 1


async def test_a_puzzle_is_solved_by_typing_with_autocomplete(world: World) -> None:
    await load(world, ("pond",))
    await ask(world, BO)
    puzzle = await shown_puzzle(world, BO)
    offered = await world.discord.autocomplete(
        BO, CHANNEL, "puzzle", "", [option("move", puzzle.line[0][:3], focused=True)]
    )
    assert puzzle.line[0] in offered
    right = only(await ask(world, BO, move=puzzle.line[0].upper()), "followup")  # typed loosely: still read
    assert "Right!" in right.content and right.ephemeral
    solved = only(await ask(world, BO, move=puzzle.line[2]), "followup")
    assert "Solved!" in solved.content


async def test_a_wrong_answer_shows_the_solution_and_rates_down(world: World) -> None:
    await load(world, ("summer",))
    message = only(await ask(world, ANA), "followup")
    puzzle = await shown_puzzle(world, ANA)
    wrong = puzzle.alternatives[0][0]
    shown = await tap(world, ANA, message, wrong, puzzle.state())
    # The moves in words, as the chat lines say them: the solution's (h1-h2 here) and the one played.
    assert "Not this one. The solution: **moved " + puzzle.line[0].split()[0] in shown.content
    assert f"(your move, in amber: **moved {wrong.split()[0]}" in shown.content
    assert "your move left 30 %" in shown.content and "Puzzle rating: 1500 → **" in shown.content
    assert shown.board is not None and "marked in blue" in (shown.descriptions["board.png"] or "")
    player = await world.bot.store.puzzles.player(GUILD, ANA.id, "summer")
    assert player is not None and player.rating < 1500 and player.streak == 0
    # The old menu changes nothing now: the try is over.
    again = await world.discord.pick(ANA, CHANNEL, next(iter(message.menus)), "x", ephemeral=True)
    assert "This puzzle is over" in only(again, "reply").content
    assert (await world.bot.store.puzzles.player(GUILD, ANA.id, "summer")) == player


async def test_an_illegal_move_is_refused_politely_and_changes_nothing(world: World) -> None:
    await load(world, ("querni",))
    await ask(world, ANA)
    before = await world.bot.parts.puzzles.service.current(GUILD, ANA.id)
    reply = only(await ask(world, ANA, move="zz99"), "reply")
    assert reply.ephemeral and reply.content and "Something went wrong" not in reply.content
    after = await world.bot.parts.puzzles.service.current(GUILD, ANA.id)
    assert before is not None and after is not None and after.attempt == before.attempt
    nothing = only(await ask(world, BO, move="a1"), "reply")
    assert "no puzzle in progress" in nothing.content


async def test_a_puzzle_goes_on_after_a_restart_between_steps(world: World) -> None:
    await load(world, ("azul",))
    message = only(await ask(world, ANA, game="azul"), "followup")
    puzzle = await shown_puzzle(world, ANA)
    first = await tap(world, ANA, message, puzzle.line[0], puzzle.state())
    world = await world.restart()
    try:
        last = await tap(world, ANA, first, puzzle.line[2], puzzle.state_at(1))
        assert "Solved!" in last.content
        # The first step's menus are of a step the try has left: refused, nothing changes.
        stale = await world.discord.pick(ANA, CHANNEL, next(iter(message.menus)), "x", ephemeral=True)
        assert "This puzzle is over" in only(stale, "reply").content
    finally:
        await world.stop()


async def test_stats_and_the_puzzle_leaderboard_show_puzzle_ratings(world: World) -> None:
    await load(world, ("pond",))
    await ask(world, ANA, game="pond")
    puzzle = await shown_puzzle(world, ANA)
    await ask(world, ANA, move=puzzle.line[0])
    await ask(world, ANA, move=puzzle.line[2])
    stats = only(await world.discord.command(ANA, CHANNEL, "stats", "", []), "reply")
    fields = {f["name"]: f["value"] for f in stats.data["embeds"][0]["fields"]}
    assert "Puzzles: rating **" in fields["Pond"] and "solved 1 of 1 · streak 1 (best 1)" in fields["Pond"]
    board = only(
        await world.discord.command(
            BO, CHANNEL, "leaderboard", "", [option("game", "pond"), option("board", "puzzles")]
        ),
        "reply",
    )
    embed = board.data["embeds"][0]
    assert embed["title"] == "Pond puzzle ratings" and f"<@{ANA.id}>" in embed["description"]
    empty = only(
        await world.discord.command(
            BO, CHANNEL, "leaderboard", "", [option("game", "azul"), option("board", "puzzles")]
        ),
        "reply",
    )
    assert "Nobody has solved" in empty.data["embeds"][0]["description"]


async def test_another_servers_puzzles_are_never_shown(world: World) -> None:
    made = Puzzle.from_json(json.loads(FIXTURE.read_text(encoding="utf-8"))["puzzles"][0])
    await world.bot.store.puzzles.add(GUILD + 1, made.to_json(), key=made.key)
    reply = only(await ask(world, ANA), "reply")
    assert "You have tried every puzzle" in reply.content
    assert await world.bot.store.puzzles.count(SHIPPED) == 0
