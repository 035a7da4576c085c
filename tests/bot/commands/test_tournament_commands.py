"""``/tournament`` through the real command tree and the fake Discord: sign-up with the buttons, start (Manage
Server), each game in its own thread named after the event and round, rounds that run on as games end, the
standings and the winner, a restart between rounds, and the texts in each language."""

from __future__ import annotations

import pytest

from bot.core import tournament_formats as f
from bot.delivery.event_posts import standings_text, winner_text
from bot.storage.tournament_store import EventStatus
from tests.bot_world import ANA, BO, CY, MOD, World
from tests.harness import GUILD_ID, Call, Failure, Person, option, settle

CHANNEL = 902


async def threads_on(world: World) -> None:
    await world.bot.store.settings.change(GUILD_ID, threads=True)


async def create(world: World, **extra: object) -> int:
    opts = [option("game", "pond"), option("format", f.SWISS), option("name", "Spring Pond")]
    opts += [option(k, v, kind=4 if isinstance(v, int) else 3) for k, v in extra.items()]
    calls = await world.discord.command(MOD, CHANNEL, "tournament", "create", opts)
    reply = next(c for c in calls if c.kind == "reply")
    assert "Spring Pond" in reply.content and any(":join:" in cid for cid in reply.custom_ids)
    events = await world.bot.store.tournaments.of_guild(GUILD_ID)
    return events[0].id


def texts(calls: list[Call]) -> list[str]:
    return [c.content for c in calls if c.content]


async def finish_round(world: World) -> list[Call]:
    """Every running game of the current round ends: the player to move resigns in the game's thread."""
    start = len(world.recorder.calls)
    event = (await world.bot.store.tournaments.of_guild(GUILD_ID))[0]
    for pairing in await world.bot.store.tournaments.pairings(event.id, event.round):
        if pairing.match_id is None:
            continue
        record = await world.bot.store.matches.get(pairing.match_id)
        assert record is not None
        if record.status != "active":
            continue
        state = world.bot.service.state_of(record)
        mover = next(p for p in (ANA, BO, CY) if p.id == record.players[state.to_move or 0].user_id)
        await world.command(mover, record.place_id, "pond", "resign")
        await settle()
    return world.recorder.calls[start:]


async def test_a_swiss_event_from_the_sign_up_buttons_to_the_winner(world: World) -> None:
    await threads_on(world)
    event_id = await create(world, rounds=2)
    join = f"tabula:event:join:{event_id}"
    pressed = await world.discord.press(ANA, CHANNEL, join)
    assert any(c.kind == "edit" and "Ana" in c.content for c in pressed)  # the list of entrants grows
    await world.discord.press(BO, CHANNEL, join)
    refused = await world.discord.press(BO, CHANNEL, join)
    assert any("already entered" in t for t in texts(refused))
    await world.command(CY, CHANNEL, "tournament", "join")
    refused = await world.command(ANA, CHANNEL, "tournament", "start")
    assert any("Manage Server" in t for t in texts(refused))

    calls = await world.command(MOD, CHANNEL, "tournament", "start")
    await settle()
    assert any("round 1 of 2" in t for t in texts(calls))
    names = [t["name"] for t in world.recorder.threads.values()]
    assert len(names) == 1 and names[0].startswith("Spring Pond · R1 · ")  # three players: one game, one bye
    event = await world.bot.store.tournaments.get(event_id)
    assert event is not None and event.round == 1

    after = await finish_round(world)
    await settle()
    posted = [c for c in after if c.kind == "message" and "standings after round 1 of 2" in c.content]
    assert len(posted) == 1 and posted[0].files, [(c.kind, c.content) for c in after]
    png = next(iter(posted[0].files.values()))
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    alt = posted[0].descriptions["standings.png"] or ""
    assert "standings after round 1 of 2" in alt  # the same as text, for screen readers
    event = await world.bot.store.tournaments.get(event_id)
    assert event is not None and event.round == 2

    world = await world.restart()  # between two games of round 2: the event goes on
    final = await finish_round(world)
    await settle()
    event = await world.bot.store.tournaments.get(event_id)
    assert event is not None and event.status == EventStatus.FINISHED
    winner = [c for c in final if c.kind == "message" and "is over" in c.content]
    assert len(winner) == 1 and "wins" in winner[0].content
    mentioned = set(winner[0].payload.get("allowed_mentions", {}).get("users", []))  # type: ignore[union-attr]
    assert {int(m) for m in mentioned} == {p.id for p in (ANA, BO, CY)}  # the entrants are pinged once, at the end

    standings = await world.command(BO, CHANNEL, "tournament", "standings")
    assert any("final standings" in t for t in texts(standings))
    listed = await world.command(BO, CHANNEL, "tournament", "list")
    assert any("Spring Pond" in t and "finished" in t for t in texts(listed))

    stats = await world.command(BO, CHANNEL, "stats", "")
    fields = stats[-1].data["embeds"][0]["fields"]
    events = [f["value"] for f in fields if f["name"] == "Events"]
    assert len(events) == 1 and "**Spring Pond** (Pond): rank " in events[0] and "of 3" in events[0]
    history = await world.command(BO, CHANNEL, "history", "", player=BO)
    lines = history[-1].data["embeds"][0]["description"]
    assert "Spring Pond · R1" in lines or "Spring Pond · R2" in lines  # each event game names its event and round
    await world.stop()


async def test_only_manage_server_creates_and_cancels(world: World) -> None:
    opts = [option("game", "pond"), option("format", f.SWISS)]
    calls = await world.discord.command(ANA, CHANNEL, "tournament", "create", opts)
    assert any("Manage Server" in t for t in texts(calls))
    await create(world)
    assert any("Manage Server" in t for t in texts(await world.command(ANA, CHANNEL, "tournament", "cancel")))
    assert any("cancelled" in t for t in texts(await world.command(MOD, CHANNEL, "tournament", "cancel")))
    await world.stop()


@pytest.mark.parametrize("language", ["en", "ru", "fr"])
def test_every_event_text_in_each_language(language: str) -> None:
    from bot.storage.tournament_store import Event, EventFormat

    event = Event(1, 1, 1, "Spring Pond", "pond", {}, EventFormat.SWISS, 3, None, None, EventStatus.RUNNING, 2, 1,
                  1, None, 0.0, 0.0, None)  # fmt: skip
    lines = f.standings(
        f.SWISS, [(1, "Ana", 1, False), (2, "Bo", 2, True)], [f.Played(1, (1, 2), (1, 2)), f.Played(2, (1,), (1,))], 3
    )
    text = standings_text(event, lines, language) + winner_text(event, lines, language)
    english = standings_text(event, lines, "en") + winner_text(event, lines, "en")
    assert "Ana" in text and "2" in text
    assert (text == english) == (language == "en")


async def test_the_event_turn_time_holds_for_every_turn_and_the_organiser_removes_a_player(world: World) -> None:
    await threads_on(world)
    event_id = await create(world, turn_time="1h")
    for person in (ANA, BO, CY):
        await world.command(person, CHANNEL, "tournament", "join")
    await world.command(MOD, CHANNEL, "tournament", "start")
    await settle()
    pairing = next(p for p in await world.bot.store.tournaments.pairings(event_id, 1) if p.match_id)
    record = await world.bot.store.matches.get(pairing.match_id or 0)
    assert record is not None and record.deadline == pytest.approx(world.clock() + 3600)
    state = world.bot.service.state_of(record)
    mover = next(p for p in (ANA, BO, CY) if p.id == record.players[state.to_move or 0].user_id)
    cell = state.move_text(state.legal_moves()[0]).split()[1]
    world.clock.advance(600)
    await world.command(mover, record.place_id, "pond", "place", cell=cell)
    moved = await world.bot.store.matches.get(record.id)
    assert moved is not None and moved.deadline == pytest.approx(world.clock() + 3600)  # the event's hour, not 24h

    refused = await world.command(ANA, CHANNEL, "tournament", "remove", player=BO)
    assert any("Manage Server" in t for t in texts(refused))
    seated = record.players[0].user_id
    gone = next(p for p in (ANA, BO, CY) if p.id == seated)
    await world.command(MOD, CHANNEL, "tournament", "remove", player=gone)
    await settle()
    ended = await world.bot.store.matches.get(record.id)
    assert ended is not None and ended.status == "finished"  # their game is forfeited
    entrants = {e.user_id: e for e in await world.bot.store.tournaments.entrants(event_id)}
    assert entrants[gone.id].withdrawn == 1
    await world.stop()


async def test_the_game_options_apply_to_every_game_of_the_event(world: World) -> None:
    event_id = await create(world, options="variant=mini")
    event = await world.bot.store.tournaments.get(event_id)
    assert event is not None and event.options == {"variant": "mini"}
    for person in (ANA, BO):
        await world.command(person, CHANNEL, "tournament", "join")
    await world.command(MOD, CHANNEL, "tournament", "start")
    await settle()
    record = next(iter(await world.bot.store.matches.running_matches_of(GUILD_ID, ANA.id)))
    assert record.options == {"variant": "mini"}
    for bad in ("colour=red", "variant=huge", "max_plies=zero", "max_plies=0"):
        opts = [option("game", "pond"), option("format", f.SWISS), option("options", bad)]
        refused = await world.discord.command(MOD, CHANNEL, "tournament", "create", opts)
        assert any(c.ephemeral for c in refused if c.kind == "reply"), bad
    await world.stop()


@pytest.mark.parametrize(
    ("name", "value", "said"),
    [
        ("turn_time", "0m", "from 1 minute to 14 days"),
        ("turn_time", "15d", "from 1 minute to 14 days"),
        ("turn_time", "8d 8d", "from 1 minute to 14 days"),
        ("turn_time", "soon", "like `30m`"),
        ("starts", "in 99999999d", "from 1 minute to 90 days"),
        ("starts", "in 91d", "from 1 minute to 90 days"),
        ("options", "variant=mini,variant=large", "given twice"),
    ],
)
async def test_create_refuses_what_is_out_of_bounds_and_makes_nothing(
    world: World, name: str, value: str, said: str
) -> None:
    """As ``/tabula turn_time`` refuses a turn outside what a server may set, ``create`` refuses it too (and a
    start some 270,000 years ahead, and an option given twice), privately, saying what is allowed."""
    opts = [option("game", "pond"), option("format", f.SWISS), option("name", "Spring Pond"), option(name, value)]
    calls = await world.discord.command(MOD, CHANNEL, "tournament", "create", opts)
    replies = [c for c in calls if c.kind == "reply"]
    assert len(replies) == 1 and replies[0].ephemeral and said in replies[0].content, replies
    assert not any(":join:" in cid for c in calls for cid in c.custom_ids)
    assert await world.bot.store.tournaments.of_guild(GUILD_ID) == []
    await world.stop()


async def test_create_takes_the_edges_of_what_is_allowed(world: World) -> None:
    event_id = await create(world, turn_time="14d", starts="in 90d")
    event = await world.bot.store.tournaments.get(event_id)
    assert event is not None and event.turn_seconds == 14 * 86400 and event.starts_at is not None
    await world.stop()


async def test_the_refusals_speak_the_askers_language(world: World) -> None:
    opts = [option("game", "pond"), option("format", f.SWISS), option("turn_time", "15d")]
    french = Person(MOD.id, "Mod", admin=True, locale="fr")
    calls = await world.discord.command(french, CHANNEL, "tournament", "create", opts)
    assert any("14 jours" in t for t in texts(calls)), texts(calls)
    await world.stop()


async def test_a_game_opened_just_before_a_stop_gets_its_line_and_thread_after_the_restart(world: World) -> None:
    await threads_on(world)
    await create(world)
    for person in (ANA, BO):
        await world.command(person, CHANNEL, "tournament", "join")

    async def stopped(*args: object) -> None:
        return None  # the process died after opening the game, before posting anything about it

    world.bot.event_posts.open_game = stopped  # type: ignore[method-assign]
    await world.command(MOD, CHANNEL, "tournament", "start")
    await settle()
    assert world.recorder.threads == {}
    world = await world.restart()
    await world.bot.event_posts.resume()  # as setup_hook does, before the outbox is resumed
    await world.bot.announcer.resume(everything=True)
    await settle()
    names = [t["name"] for t in world.recorder.threads.values()]
    assert len(names) == 1 and names[0].startswith("Spring Pond · R1 · "), names
    record = next(iter(await world.bot.store.matches.running_matches_of(GUILD_ID, ANA.id)))
    assert record.thread_id is not None and record.thread_mode == "thread"
    await world.stop()


async def test_an_entrant_who_left_the_server_is_not_paired_again(world: World) -> None:
    await threads_on(world)
    event_id = await create(world, rounds=3)
    for person in (ANA, BO, CY):
        await world.command(person, CHANNEL, "tournament", "join")
    await world.command(MOD, CHANNEL, "tournament", "start")
    await settle()
    # Bo, who played Ana in round 1 (Cy had the bye), leaves the server (Tabula gets no event for it: no privileged
    # intent); Ana and Cy, who have not met, play round 2.
    world.recorder.departed.add(BO.id)
    world.recorder.fail("member", Failure(503, 0), times=1)  # a flaky answer about someone else withdraws nobody
    await finish_round(world)
    await settle()
    event = await world.bot.store.tournaments.get(event_id)
    assert event is not None and event.round == 2
    entrants = {e.user_id: e for e in await world.bot.store.tournaments.entrants(event_id)}
    assert entrants[BO.id].withdrawn == 1 and entrants[ANA.id].withdrawn is None and entrants[CY.id].withdrawn is None
    pairings = await world.bot.store.tournaments.pairings(event_id, 2)
    assert [set(p.players) for p in pairings] == [{ANA.id, CY.id}]
    asked = [c for c in world.recorder.calls if c.method == "GET" and "/members/" in c.path]
    assert {int(c.path.rsplit("/", 1)[1]) for c in asked} >= {ANA.id, BO.id, CY.id}


@pytest.mark.parametrize("language", ["en", "ru", "fr"])
def test_players_sharing_first_place_share_the_win_and_the_medal(language: str) -> None:
    from bot.storage.tournament_store import Event, EventFormat

    event = Event(1, 1, 1, "Arena Night", "pond", {}, EventFormat.SWISS, 3, None, None, EventStatus.FINISHED, 2, 1,
                  1, None, 0.0, 0.0, None)  # fmt: skip
    lines = [
        f.Line(1, 11, "Ana", 1, 28.0, (), ()),
        f.Line(1, 13, "Cy", 2, 28.0, (), ()),
        f.Line(3, 12, "Bo", 3, 0.0, (), ()),
        f.Line(3, 14, "Dee", 4, 0.0, (), ()),
        f.Line(5, 15, "Eve", 5, 0.0, (), ()),
    ]
    head, podium, *rest = winner_text(event, lines, language).split("\n")
    assert "<@11>, <@13>" in head and "<@12>" not in head  # both named, as sharing the win
    assert podium == "🥇 <@11>, 🥇 <@13>, 🥉 <@12>, 🥉 <@14>"  # a shared rank shares its medal
    assert rest and "<@15>" in rest[0]
    alone = winner_text(event, [lines[0], *lines[2:]], language).split("\n")[0]
    assert "<@11>" in alone and "<@13>" not in alone
