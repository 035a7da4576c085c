"""``/querni`` end to end: through discord.py's real command tree, with a recorder at the HTTP edge."""

from __future__ import annotations

import random
from typing import Any

import discord

from bot.client import TabulaBot
from bot.commands.taps import board_controls, step_words
from bot.core.taps import Step
from bot.games.common import labelled
from bot.games.querni import RULES, chain_choices, removal_choices, source_choices, target_choices
from bot.settings import DOCS_URL, Settings
from engines import querni as q
from engines.querni import QuerniMove, QuerniState
from engines.querni.moves import removal_text
from i18n import summary_text
from i18n.phrases import rules_link
from tests.bot_world import ANA, BO, CY, World, only
from tests.harness import Person

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
# Worked examples 1 and 2 of the rules (pieces added where a side needs one).
EXAMPLE_1 = {"c3": "B1", "d4": "R2", "f5": "B5", "g4": "R6", "f4": "B7", "a7": "R1"}
EXAMPLE_2 = {"d2": "B4", "e3": "B5", "e4": "B6", "f5": "B7", "h5": "B8", "j7": "R1"}


async def start_querni(world: World, channel: int, challenger: Person = ANA, opponent: Person = BO) -> list[Person]:
    """Challenge and accept a Querni game; return the players as (blue, red)."""
    calls = await world.command(challenger, channel, "querni", "start", opponent=opponent)
    reply = only(calls, "reply")
    assert not reply.ephemeral and "Querni" in reply.content and f"<@{opponent.id}>" in reply.content
    accept = next(cid for cid in reply.custom_ids if ":accept:" in cid)
    calls = await world.discord.press(opponent, channel, accept)
    first = only(calls, "message")
    assert first.files["board.png"].startswith(PNG_MAGIC)
    assert "plays blue" in first.content and "plays red" in first.content
    return list(await world.seats(channel))


def command_for(state: QuerniState, move: QuerniMove) -> tuple[str, dict[str, str]]:
    """Return the subcommand and options a player would use for ``move``."""
    if move == q.PASS:
        return "pass", {}
    if move.frm < 0:
        return "remove", {"chain": f"{move.lo}-{move.hi}"}
    options = {"from_": state.cell_name(move.frm), "to": state.cell_name(move.to)}
    if move.lo >= 0:
        options["remove"] = f"{move.lo}-{move.hi}"
    return "move", options


def kind(move: QuerniMove) -> str:
    if move == q.PASS:
        return "pass"
    return ("move+remove" if move.lo >= 0 else "move") if move.frm >= 0 else "remove"


def focused(name: str, value: str) -> dict[str, Any]:
    return {"name": name, "type": 3, "value": value, "focused": True}


def given(name: str, value: str) -> dict[str, Any]:
    return {"name": name, "type": 3, "value": value}


def names(choices: list[Any]) -> list[str]:
    return [choice.name for choice in choices]


def values(choices: list[Any]) -> list[str]:
    return [choice.value for choice in choices]


# -- whole games through the command tree ---------------------------------------------------------------------------


async def test_whole_games_with_every_kind_of_turn(world: World) -> None:
    rng = random.Random(11)
    people = {ANA.id: ANA, BO.id: BO}
    seen: set[str] = set()
    endings: list[str] = []
    channel = 600
    while len(seen) < 4:
        channel += 1
        assert channel < 620, "random games should show every kind of turn quickly"
        await start_querni(world, channel)
        while True:
            record, state = await world.bot.service.running(channel, "querni")
            legal = state.legal_moves()
            # Until every kind of turn has come up, avoid turns that end the game and favour the missing kinds.
            missing = {"pass", "move", "remove", "move+remove"} - seen
            pool = [m for m in legal if state.play(m).outcome() is None] if missing else []
            pool = pool or list(legal)
            kinds = sorted({kind(m) for m in pool})
            wanted = rng.choice([k for k in kinds if k in missing] or kinds)
            chosen = rng.choice([m for m in pool if kind(m) == wanted])
            sub, options = command_for(state, chosen)
            calls = await world.command(
                people[record.players[state.to_move].user_id], channel, "querni", sub, **options
            )
            assert [c.kind for c in calls] == ["defer", "followup"], [c.content for c in calls]
            posted = calls[-1]
            assert posted.files["board.png"].startswith(PNG_MAGIC)
            assert len(posted.content) <= 2000 and "Score:" in posted.content
            assert summary_text(state.play(chosen), [seat.name for seat in record.players]) in posted.content
            seen.add(kind(chosen))
            if (await world.bot.service.store.open_match(channel)) is None:
                endings.append(posted.content)
                break
        finished = await world.bot.service.store.get(record.id)
        assert finished is not None and finished.status == "finished"
        assert (await world.bot.service.replay(finished)).to_json() == finished.state
    assert seen == {"pass", "move", "remove", "move+remove"}
    assert all("wins" in text or "draw" in text for text in endings)


async def test_blue_is_drawn_at_random(world: World) -> None:
    blues = set()
    for channel in range(650, 656):
        blue, red = await start_querni(world, channel)
        assert {blue.id, red.id} == {ANA.id, BO.id}
        blues.add(blue.id)
        posted = only(await world.command(blue, channel, "querni", "pass"), "followup")
        assert f"{blue.name} passed; 1 of 30 plies without a removal." in posted.content
    assert blues == {ANA.id, BO.id}


async def test_refusals_are_ephemeral_and_change_nothing(world: World) -> None:
    channel = 660
    call = only(await world.command(ANA, channel, "querni", "pass"), "reply")
    assert call.ephemeral and "no running" in call.content
    call = only(await world.command(ANA, channel, "querni", "start", opponent=ANA), "reply")
    assert call.ephemeral and "yourself" in call.content
    blue, red = await start_querni(world, channel)
    record = await world.bot.service.store.open_match(channel)
    assert record is not None
    version = record.version
    refusals = [
        (red, "pass", {}, "not your turn"),
        (CY, "pass", {}, "not playing"),
        (blue, "move", {"from_": "b2", "to": "b3", "remove": "1-2"}, "at least 3"),
        (blue, "move", {"from_": "b6", "to": "b5"}, "red's"),
        (blue, "move", {"from_": "b1", "to": "b2"}, "occupied"),
        (blue, "move", {"from_": "b2", "to": "b5"}, "cannot reach b5"),
        (blue, "move", {"from_": "z9", "to": "b3"}, "no square z9"),
        (blue, "move", {"from_": "b2", "to": "b3", "remove": "lots"}, "can't read"),
        (blue, "remove", {"chain": "14-16"}, "not"),
        (blue, "remove", {"chain": "0-2"}, "numbered 1 to 16"),
    ]
    for person, sub, options, words in refusals:
        call = only(await world.command(person, channel, "querni", sub, **options), "reply")
        assert call.ephemeral, (sub, options, call.content)
        assert words in call.content, (sub, options, call.content)
        assert len(call.content) <= 2000
    record = await world.bot.service.store.open_match(channel)
    assert record is not None and record.version == version
    assert await world.bot.service.store.log(record.id) == []


async def test_a_removal_may_be_written_with_or_without_its_x(world: World) -> None:
    assert removal_text("4-7") == "x4-7"
    assert removal_text(" X4-7 ") == "x4-7"
    assert removal_text("remove 4..7") == "remove 4..7"
    assert q.new().parse_move(f"c3 e5 {removal_text('4 7')}") == QuerniMove(q.INDEX["c3"], q.INDEX["e5"], 4, 7)


async def test_board_resign_rules_and_claim(world: World) -> None:
    channel = 670
    blue, red = await start_querni(world, channel)
    await world.command(blue, channel, "querni", "move", from_="b2", to="b3")
    posted = only(await world.command(CY, channel, "querni", "board"), "followup")
    assert posted.files["board.png"].startswith(PNG_MAGIC) and "Querni" in posted.content
    rules = only(await world.command(CY, channel, "querni", "rules"), "reply")
    assert rules.ephemeral and rules.content == f"{RULES}\n{rules_link(DOCS_URL, 'querni', 'en')}"
    assert len(rules.content) <= 2000 and rules.content.endswith("/docs/querni.md>")
    call = only(await world.command(blue, channel, "querni", "claim"), "reply")
    assert call.ephemeral and "still has time" in call.content
    world.clock.advance(24 * 3600 + 5)
    posted = only(await world.command(blue, channel, "querni", "claim"), "followup")
    assert "ran out of time" in posted.content and f"**{blue.name}** wins" in posted.content
    channel = 671
    blue, red = await start_querni(world, channel)
    posted = only(await world.command(blue, channel, "querni", "resign"), "followup")
    assert "resigned" in posted.content and f"**{red.name}** wins" in posted.content
    assert (await world.bot.service.store.open_match(channel)) is None


async def test_querni_commands_are_refused_in_another_games_channel(world: World) -> None:
    channel = 680
    await start_querni(world, channel)
    call = only(await world.command(ANA, channel, "pond", "place", cell="b2"), "reply")
    assert call.ephemeral and "Querni" in call.content and "/querni" in call.content


# -- autocomplete ---------------------------------------------------------------------------------------------------


async def test_autocomplete_through_discord_offers_the_askers_legal_choices(world: World) -> None:
    channel = 690
    blue, red = await start_querni(world, channel)
    _, state = await world.bot.service.running(channel, "querni")
    movable = sorted({state.cell_name(m.frm) for m in state.legal_moves() if m.frm >= 0})
    sources = await world.discord.autocomplete(blue, channel, "querni", "move", [focused("from", "")])
    assert sorted(sources) == movable and len(sources) == 16
    assert await world.discord.autocomplete(red, channel, "querni", "move", [focused("from", "")]) == []
    assert await world.discord.autocomplete(CY, channel, "querni", "move", [focused("from", "")]) == []
    targets = await world.discord.autocomplete(
        blue, channel, "querni", "move", [given("from", "b2"), focused("to", "")]
    )
    assert sorted(targets) == ["a1", "a2", "a3", "b3", "c3"]
    assert await world.discord.autocomplete(blue, channel, "querni", "remove", [focused("chain", "")]) == sorted(
        values(chain_choices(state, {}, ""))
    )


def test_sources_are_labelled_with_their_numbers_lowest_first() -> None:
    state = q.new(layout=EXAMPLE_1)
    choices = source_choices(state, {}, "")
    assert values(choices) == ["c3", "f5", "f4"]  # pieces 1, 5 and 7; red's d4 and g4 are not blue's
    assert names(choices) == ["c3 · piece 1", "f5 · piece 5", "f4 · piece 7"]
    assert values(source_choices(state, {}, "f")) == ["f5", "f4"]
    assert values(source_choices(state, {}, "piece 7")) == ["f4"]


def test_targets_are_the_legal_ends_of_the_chosen_piece_saying_how() -> None:
    state = q.new(layout=EXAMPLE_1)
    choices = target_choices(state, {"from": "c3"}, "")
    # Worked example 1: jumps end on e5, g5, g3, e3 or c5; steps go to b2 b3 b4 c2 c4 d2 d3.
    assert sorted(values(choices)) == sorted(["e5", "g5", "g3", "e3", "c5", "b2", "b3", "b4", "c2", "c4", "d2", "d3"])
    labels = dict(zip(values(choices), names(choices), strict=True))
    assert labels["d3"] == "d3 · step"
    assert labels["e5"] == "e5 · 1 jump c3-e5"
    assert labels["g5"] == "g5 · 2 jumps c3-e5-g5"
    assert labels["c5"].startswith("c5 · 4 jumps c3-")
    assert values(target_choices(state, {"from": " C3 "}, "g")) == ["g3", "g5"]
    # With no piece chosen yet, every reachable square is offered once, and a step names its start.
    anywhere = target_choices(state, {"from": ""}, "")
    assert len(values(anywhere)) == len(set(values(anywhere))) <= 25
    assert target_choices(state, {"from": "a7"}, "") == []  # red's piece: blue cannot move it


def test_chains_now_and_after_the_chosen_move() -> None:
    state = q.new(layout=EXAMPLE_2)
    now = chain_choices(state, {}, "")
    # Worked example 2: 4..7, 4..6 and 5..7 can go; 4..8 cannot, since 8 on h5 does not touch 7.
    assert values(now) == ["4-6", "4-7", "5-7"]
    # Blue holds only 4 to 8 here, so each of them strands a number, and says so first.
    assert names(now) == [
        "⚠️ loses, strands 7, 8 · 4-6 · d2 e3 e4",
        "⚠️ loses, strands 8 · 4-7 · d2 e3 e4 f5",
        "⚠️ loses, strands 4, 8 · 5-7 · e3 e4 f5",
    ]
    # Typing a number offers the chains starting with it first, then those naming it elsewhere.
    assert values(chain_choices(state, {}, "x5"))[0] == "5-7"
    # After 8 steps from h5 to g5 it touches 7, and the chain runs on to 8, named where 8 will stand.
    after = removal_choices(state, {"from": "h5", "to": "g5"}, "")
    assert "4-8 · d2 e3 e4 f5 g5" in names(after) and "⚠️ loses, strands 4, 5 · 6-8 · e4 f5 g5" in names(after)
    # A move that breaks the chain leaves less: 5 stepping from e3 to f2 no longer touches 4 or 6.
    assert values(removal_choices(state, {"from": "e3", "to": "f2"}, "")) == []


# Worked example 4 of the rules: blue holds 1 2 3 4 5 and 9 10 11.
EXAMPLE_4 = {
    "a1": "B1", "b1": "B2", "c1": "B3", "d1": "B4", "e1": "B5",
    "a3": "B9", "b3": "B10", "c3": "B11", "j7": "R1",
}  # fmt: skip


async def labelled_offer(world: World, person: Person, channel: int, sub: str, options: list[Any]) -> dict[str, str]:
    """What autocomplete offers ``person``, each value with its label."""
    payload = world.discord.command_payload(person, channel, "querni", sub, options, autocomplete=True)
    answer = only(await world.discord.send(payload), "autocomplete")
    return {choice["value"]: choice["name"] for choice in answer.data["choices"]}


async def test_a_losing_removal_is_marked_wherever_it_is_offered(world: World) -> None:
    channel = 693
    blue, _red = await start_querni(world, channel)
    record, _state = await world.bot.service.running(channel, "querni")
    await world.bot.service.store.update(record, state=q.new(layout=EXAMPLE_4).to_json())
    offered = await labelled_offer(world, blue, channel, "remove", [focused("chain", "")])
    marked = {value for value, label in offered.items() if label.startswith("⚠️ loses, strands ")}
    assert marked == {"1-3", "1-4", "2-4", "2-5", "3-5"} and {"1-5", "9-11"} <= set(offered)
    assert offered["2-4"] == "⚠️ loses, strands 1, 5 · 2-4 · b1 c1 d1" and offered["1-5"] == "1-5 · a1 b1 c1 d1 e1"
    french = Person(blue.id, blue.name, locale="fr")
    offered = await labelled_offer(world, french, channel, "remove", [focused("chain", "")])
    assert offered["2-4"].startswith("⚠️ perd, isole 1, 5 · ")
    after_move = await labelled_offer(
        world, blue, channel, "move", [given("from", "c3"), given("to", "c4"), focused("remove", "")]
    )
    assert after_move["2-4"].startswith("⚠️ loses") and not after_move["1-5"].startswith("⚠️")


def test_labelled_choices_keep_discords_limits() -> None:
    items = [(f"v{i}", f"label {i} " + "x" * 200) for i in range(40)]
    choices = labelled(items, "")
    assert len(choices) == 25 and all(len(choice.name) <= 100 for choice in choices)
    assert values(labelled(items, "v3")) == ["v3", *(f"v{i}" for i in range(30, 40))][:25]


def test_querni_has_the_commands_players_expect() -> None:
    querni = next(c for c in TabulaBot(Settings()).command_payload() if c["name"] == "querni")
    subs = {o["name"]: o for o in querni["options"]}
    assert set(subs) == {
        "start",
        "move",
        "remove",
        "pass",
        "board",
        "resign",
        "rules",
        "claim",
        "cancel",
        "draw",
        "hint",
    }
    move = {o["name"]: o for o in subs["move"]["options"]}
    assert list(move) == ["from", "to", "remove"]
    assert move["from"]["required"] and move["to"]["required"] and not move["remove"]["required"]
    assert all(o.get("autocomplete") for o in move.values())
    assert subs["remove"]["options"][0]["name"] == "chain" and subs["remove"]["options"][0]["autocomplete"]
    start = {o["name"]: o for o in subs["start"]["options"]}
    assert list(start) == ["opponent", "isolation", "draw_plies", "difficulty"]
    assert {c["value"] for c in start["isolation"]["choices"]} == {"any_stranded", "no_triple_left"}
    assert (start["draw_plies"]["min_value"], start["draw_plies"]["max_value"]) == (1, 1000)
    assert querni["dm_permission"] is False


async def test_the_tap_menus_mark_a_losing_removal_on_the_board_and_in_the_preview(world: World) -> None:
    channel = 694
    await start_querni(world, channel)
    record, _state = await world.bot.service.running(channel, "querni")
    state = q.new(layout=EXAMPLE_4)
    record = await world.bot.service.store.update(record, state=state.to_json())
    view = board_controls(record, state, "en")
    assert view is not None
    labels = [option.label for item in view.children if isinstance(item, discord.ui.Select) for option in item.options]
    assert "⚠️ loses, strands 1, 5 · remove 2–4" in labels and "remove 1–5" in labels and "remove 9–11" in labels
    # The private preview of the chosen move says it again, in the mover's language.
    preview = step_words(state, Step(("x2-4",), "remove", {"chain": "2-4"}, (), state.parse_move("x2-4"), 1), "fr")
    assert preview.startswith("⚠️ perd, isole 1, 5 · ")
