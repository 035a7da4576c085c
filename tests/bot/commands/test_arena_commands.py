"""``/tournament create format:arena`` through the real command tree and the fake Discord, on both databases.

An arena of Pond and one of Azul at tables from the start to the final post; every game ends by resignations in
its thread, so the test chooses who wins.  The points are checked against a recomputation written here from the
matches' own stored results (not the pairings' copies), streaks included; a restart in the middle loses and
doubles nothing; a player joins late, pauses and comes back; nothing is paired after the end, and a game still
running then does not count; the live standings message is written at most once per
:data:`~bot.delivery.event_posts.STANDINGS_EDIT_SECONDS`; a bad ``duration:`` is refused and makes nothing.
"""

from __future__ import annotations

import itertools

import pytest

from bot.core import tournament_formats as f
from bot.core.tournaments import ARENA_TURN_SECONDS, LOOK_SECONDS
from bot.delivery.event_posts import STANDINGS_EDIT_SECONDS
from bot.storage.records import MatchStatus
from bot.storage.tournament_store import EventStatus, Pairing
from tests.bot_world import ANA, BO, CY, DEE, MOD, World
from tests.harness import GUILD_ID, Call, Person, option, settle

CHANNEL = 903
EVE = Person(100000000000000005, "Eve")
FAY = Person(100000000000000006, "Fay")
GUS = Person(100000000000000007, "Gus")
PEOPLE = {p.id: p for p in (ANA, BO, CY, DEE, EVE, FAY, GUS)}


async def create(world: World, game: str = "pond", **extra: object) -> int:
    await world.bot.store.settings.change(GUILD_ID, threads=True)
    opts = [option("game", game), option("format", f.ARENA), option("name", "Arena Night")]
    opts += [option(k, v) for k, v in extra.items()]
    calls = await world.discord.command(MOD, CHANNEL, "tournament", "create", opts)
    reply = next(c for c in calls if c.kind == "reply")
    assert "Arena Night" in reply.content and any(":join:" in cid for cid in reply.custom_ids), reply.content
    return (await world.bot.store.tournaments.of_guild(GUILD_ID))[0].id


def texts(calls: list[Call]) -> list[str]:
    return [c.content for c in calls if c.content]


async def running_games(world: World, event_id: int) -> list[Pairing]:
    return [p for p in await world.bot.store.tournaments.open_pairings(event_id) if p.match_id is not None]


async def end_game(world: World, pairing: Pairing, winner: int) -> None:
    """Everyone at the table but ``winner`` resigns in the game's thread, in seat order."""
    for user in pairing.players:
        if user == winner:
            continue
        record = await world.bot.store.matches.get(pairing.match_id or 0)
        assert record is not None
        if record.status != MatchStatus.ACTIVE:
            break
        await world.command(PEOPLE[user], record.place_id, record.game, "resign")
        await settle()
    record = await world.bot.store.matches.get(pairing.match_id or 0)
    assert record is not None and record.status == MatchStatus.FINISHED, record


async def recomputed(world: World, event_id: int) -> dict[int, int]:
    """Every player's points as the rules say, from the matches' stored places in the order the games were paired.

    Written apart from bot.core.arena: alone first wins 2, last loses 0, anything else 1, and a player whose two
    previous counted games were both wins scores double.  Only games that finished by the end count.
    """
    store = world.bot.store.tournaments
    event = await store.get(event_id)
    assert event is not None
    pairings = await store.pairings(event_id)
    records = {r.id: r for r in await store.match_records([p.match_id for p in pairings if p.match_id])}
    history: dict[int, list[str]] = {e.user_id: [] for e in await store.entrants(event_id)}
    points = dict.fromkeys(history, 0)
    for pairing in pairings:
        record = records.get(pairing.match_id or 0)
        if record is None or record.status != MatchStatus.FINISHED or record.finished_at is None:
            continue
        if event.ends_at is not None and record.finished_at > event.ends_at:
            continue
        places = (record.result or {})["places"]
        for seat, user in enumerate(p.user_id for p in record.players):
            mine = places[seat]
            if places.count(min(places)) == 1 and mine == min(places):
                kind, base = "win", 2
            elif mine == max(places) and min(places) != max(places):
                kind, base = "loss", 0
            else:
                kind, base = "draw", 1
            streak = history[user][-2:] == ["win", "win"]
            points[user] += base * (2 if streak else 1)
            history[user].append(kind)
    return points


async def standings_points(world: World, event_id: int) -> dict[int, int]:
    event = await world.bot.store.tournaments.get(event_id)
    assert event is not None
    return {line.user_id: int(line.points) for line in await world.bot.events.standings(event)}


async def join(world: World, event_id: int, *people: Person) -> None:
    for person in people:
        await world.discord.press(person, CHANNEL, f"tabula:event:join:{event_id}")
    await settle()


async def test_a_pond_arena_from_the_start_to_the_winner_with_streaks_and_a_restart(world: World) -> None:
    event_id = await create(world, duration="1h")
    event = await world.bot.store.tournaments.get(event_id)
    assert event is not None and event.duration == 3600 and event.turn_seconds == ARENA_TURN_SECONDS
    await join(world, event_id, ANA, BO, CY, DEE)
    calls = await world.command(MOD, CHANNEL, "tournament", "start")
    await settle()
    assert any("has started" in t for t in texts(calls))
    games = await running_games(world, event_id)
    assert len(games) == 2 and {u for g in games for u in g.players} == {ANA.id, BO.id, CY.id, DEE.id}
    names = [t["name"] for t in world.recorder.threads.values()]
    assert len(names) == 2 and all(n.startswith("Arena Night · ") for n in names), names

    # Ana wins every game: her third and later wins count 4.  Each end pairs the two who are free at once.
    for step in range(8):
        world.clock.advance(60)
        games = await running_games(world, event_id)
        assert len(games) == 2, (step, games)  # whoever finished was paired again within the same second
        for game in games:
            winner = ANA.id if ANA.id in game.players else game.players[step % 2]
            await end_game(world, game, winner)
        if step == 3:  # a restart in the middle (the process stops between two looks)
            world = await world.restart()
            await world.bot.event_posts.resume()
            await settle()
    assert await standings_points(world, event_id) == await recomputed(world, event_id)
    points = await standings_points(world, event_id)
    assert points[ANA.id] == 2 + 2 + 4 * 6  # the streak doubled every win after the second
    pairings = await world.bot.store.tournaments.pairings(event_id)
    assert all(len(set(p.players)) == 2 for p in pairings)
    ids = [p.match_id for p in pairings if p.match_id]
    assert len(ids) == len(set(ids)) == len(pairings)  # every pairing opened exactly one game

    # Time is up: the look at the end finishes the arena; a game still running counts for nothing.
    world.clock.advance(3600)
    running = await running_games(world, event_id)
    assert running
    await world.bot.parts.background.run_events()
    await settle()
    event = await world.bot.store.tournaments.get(event_id)
    assert event is not None and event.status == EventStatus.FINISHED
    final = [c for c in world.recorder.calls if c.kind == "message" and "is over" in c.content]
    assert len(final) == 1 and final[0].files and "do not count" in final[0].content
    # Ana and Cy won every game at their boards: tied on points, games and wins, they share the win.
    assert f"<@{ANA.id}>, <@{CY.id}> share first place" in final[0].content
    before = await standings_points(world, event_id)
    await end_game(world, running[0], running[0].players[0])  # it ends after the arena: nothing changes
    await world.bot.parts.background.run_events()
    await settle()
    assert await standings_points(world, event_id) == before == await recomputed(world, event_id)
    assert await running_games(world, event_id) == []
    assert len(await world.bot.store.tournaments.pairings(event_id)) == len(pairings)  # nothing paired after the end

    stats = await world.command(ANA, CHANNEL, "stats", "")
    fields = stats[-1].data["embeds"][0]["fields"]
    events = [field["value"] for field in fields if field["name"] == "Events"]
    assert len(events) == 1 and "**Arena Night** (Pond): rank 1 of 4" in events[0], events
    standings = await world.command(BO, CHANNEL, "tournament", "standings")
    assert any("final standings of the arena" in t for t in texts(standings))
    await world.stop()


async def test_an_azul_arena_seats_tables_of_three_and_four_and_two_after_a_wait(world: World) -> None:
    event_id = await create(world, game="azul", duration="30m")
    await join(world, event_id, ANA, BO, CY, DEE, EVE, FAY, GUS)
    await world.command(MOD, CHANNEL, "tournament", "start")
    await settle()
    games = await running_games(world, event_id)
    assert sorted(len(g.players) for g in games) == [3, 4]  # seven: a table of four and one of three

    # The table of three ends: its three wait and are seated together again only if nobody else is free; they are
    # the only ones, so they play on as a table of three at once.
    three = next(g for g in games if len(g.players) == 3)
    world.clock.advance(120)
    await end_game(world, three, three.players[-1])
    games = await running_games(world, event_id)
    assert sorted(len(g.players) for g in games) == [3, 4]

    # The table of four ends: four players free and three playing; seated at once as a table of four.
    four = next(g for g in games if len(g.players) == 4)
    await end_game(world, four, four.players[0])
    games = await running_games(world, event_id)
    assert sorted(len(g.players) for g in games) == [3, 4]

    # Two of the table of four pause; when it ends, the other two are alone free while three play: they wait a
    # while for a third (looked at every few seconds), then play as a table of two.
    four = next(g for g in games if len(g.players) == 4)
    paused = [PEOPLE[u] for u in four.players[:2]]
    for person in paused:
        calls = await world.command(person, CHANNEL, "tournament", "leave")
        assert any("paused" in t for t in texts(calls))
    await end_game(world, four, four.players[-1])
    games = await running_games(world, event_id)
    assert len(games) == 1  # the two left of the table of four wait: two alone wait for a third a while
    waiting = await world.bot.store.tournaments.entrants(event_id)
    assert sum(1 for e in waiting if e.paused) == 2
    world.clock.advance(LOOK_SECONDS)
    await world.bot.parts.background.run_events()
    await settle()
    assert len(await running_games(world, event_id)) == 1  # not yet: 20 seconds
    world.clock.advance(20)
    await world.bot.parts.background.run_events()
    await settle()
    games = await running_games(world, event_id)
    assert sorted(len(g.players) for g in games) == [2, 3]  # then a table of two

    # One who paused comes back; the end comes; points match the recomputation (2/1/0 and 2/1/1/0 by place).
    await world.command(paused[0], CHANNEL, "tournament", "join")
    await settle()
    for game in await running_games(world, event_id):
        await end_game(world, game, game.players[0])
    world.clock.advance(1800)
    await world.bot.parts.background.run_events()
    await settle()
    event = await world.bot.store.tournaments.get(event_id)
    assert event is not None and event.status == EventStatus.FINISHED
    assert await standings_points(world, event_id) == await recomputed(world, event_id)
    await world.stop()


async def test_join_pause_and_come_back(world: World) -> None:
    event_id = await create(world, duration="20m")
    await join(world, event_id, ANA, BO)
    await world.command(MOD, CHANNEL, "tournament", "start")
    await settle()
    assert len(await running_games(world, event_id)) == 1
    # Cy joins while it runs: alone, Cy waits; Dee joins and the two are paired at once.
    calls = await world.command(CY, CHANNEL, "tournament", "join")
    assert any("You are in" in t for t in texts(calls))
    assert len(await running_games(world, event_id)) == 1
    await world.command(DEE, CHANNEL, "tournament", "join")
    await settle()
    games = await running_games(world, event_id)
    assert len(games) == 2 and {CY.id, DEE.id} in [set(g.players) for g in games]
    refused = await world.command(DEE, CHANNEL, "tournament", "join")
    assert any("already playing" in t for t in texts(refused))

    # Ana pauses while playing: her game plays on and counts; she is not paired again.
    first = next(g for g in games if ANA.id in g.players)
    await world.command(ANA, CHANNEL, "tournament", "leave")
    refused = await world.command(ANA, CHANNEL, "tournament", "leave")
    assert any("paused already" in t for t in texts(refused))
    await end_game(world, first, ANA.id)
    assert await standings_points(world, event_id) == {ANA.id: 2, BO.id: 0, CY.id: 0, DEE.id: 0}
    assert all(ANA.id not in g.players for g in await running_games(world, event_id))
    # Bo, alone free (Cy and Dee play), waits; when their game ends, Bo is paired with one of them, not Ana.
    second = next(g for g in await running_games(world, event_id))
    await end_game(world, second, CY.id)
    games = await running_games(world, event_id)
    assert len(games) == 1 and BO.id in games[0].players and ANA.id not in games[0].players
    # Ana comes back and is paired with whoever is free (Cy or Dee, whichever waits), points kept.
    await world.command(ANA, CHANNEL, "tournament", "join")
    await settle()
    games = await running_games(world, event_id)
    assert len(games) == 2 and any(ANA.id in g.players for g in games)
    assert (await standings_points(world, event_id))[ANA.id] == 2
    await world.stop()


async def test_the_two_who_just_met_are_not_paired_again_while_another_is_free(world: World) -> None:
    event_id = await create(world, duration="20m")
    await join(world, event_id, ANA, BO, CY, DEE)
    await world.command(MOD, CHANNEL, "tournament", "start")
    await settle()
    first, second = await running_games(world, event_id)
    # Both games end in the same second: the looks their ends ask for come after both (the sweeper's).
    original = world.bot.events.look
    world.bot.events.look = _nothing  # type: ignore[method-assign]
    await end_game(world, first, first.players[0])
    await end_game(world, second, second.players[0])
    world.bot.events.look = original  # type: ignore[method-assign]
    await world.bot.parts.background.run_events()
    await settle()
    met = {frozenset(first.players), frozenset(second.players)}
    games = await running_games(world, event_id)
    assert len(games) == 2 and not {frozenset(g.players) for g in games} & met
    await world.stop()


async def _nothing(*args: object) -> None:
    return None


async def test_a_kill_between_a_games_end_and_its_look_loses_and_doubles_nothing(world: World) -> None:
    """The result is committed with the game's end; the process dies before the look that would pair its players.
    After the restart they are paired (by the start's resume), and the game counts once."""
    event_id = await create(world, duration="1h")
    await join(world, event_id, ANA, BO, CY, DEE)
    await world.command(MOD, CHANNEL, "tournament", "start")
    await settle()
    first, second = await running_games(world, event_id)
    await end_game(world, first, first.players[0])  # paired again at once: an ordinary end
    world.bot.events.look = _nothing  # type: ignore[method-assign]  # and now the process "dies" after a commit
    await end_game(world, second, second.players[1])
    assert len(await running_games(world, event_id)) == 1  # its two wait: nobody looked
    world = await world.restart()
    await world.bot.event_posts.resume()  # as setup_hook does
    await settle()
    games = await running_games(world, event_id)
    assert len(games) == 2 and {u for g in games for u in g.players} == {ANA.id, BO.id, CY.id, DEE.id}
    await world.bot.event_posts.resume()  # a second look (the sweeper's) changes nothing
    await settle()
    assert len(await world.bot.store.tournaments.pairings(event_id)) == 4
    points = await standings_points(world, event_id)
    assert points == await recomputed(world, event_id) and sorted(points.values()) == [0, 0, 2, 2]
    await world.stop()


async def test_the_live_standings_are_edited_at_most_every_ten_seconds(world: World) -> None:
    event_id = await create(world, duration="1h")
    await join(world, event_id, ANA, BO, CY, DEE)
    await world.command(MOD, CHANNEL, "tournament", "start")
    await settle()
    event = await world.bot.store.tournaments.get(event_id)
    assert event is not None and event.standings_id is not None  # posted at the start
    writes: list[float] = [world.clock()]
    seen = len(world.recorder.calls)

    def edits() -> int:
        nonlocal seen
        found = [
            c for c in world.recorder.calls[seen:] if c.kind == "edit-message" and str(event.standings_id) in c.path
        ]
        seen = len(world.recorder.calls)
        return len(found)

    for second in range(60):  # a game ends every two seconds; the sweeper runs every second
        world.clock.advance(1)
        if second % 2 == 0:
            game = (await running_games(world, event_id))[0]
            await end_game(world, game, game.players[0])
        await world.bot.parts.background.run_events()
        await settle()
        if edits():
            writes.append(world.clock())
    gaps = [b - a for a, b in itertools.pairwise(writes)]
    assert len(writes) >= 5 and min(gaps) >= STANDINGS_EDIT_SECONDS, writes
    last = [c for c in world.recorder.calls if c.kind == "edit-message" and str(event.standings_id) in c.path][-1]
    assert "🏟️" in last.content and "Ana" in last.content
    # Whatever changed last is written once its time comes, not lost.
    world.clock.advance(STANDINGS_EDIT_SECONDS)
    await world.bot.parts.background.run_events()
    await settle()
    lines = await world.bot.events.standings(event)
    newest = [c for c in world.recorder.calls if c.kind == "edit-message" and str(event.standings_id) in c.path][-1]
    assert f"{lines[0].name}: {f.number_text(lines[0].points)}" in newest.content
    await world.stop()


async def test_a_player_who_loses_on_time_is_paused(world: World) -> None:
    """As Lichess pauses a player who does not move: their game ends by the turn timer, and they are not paired
    again until they join again."""
    event_id = await create(world, duration="1h")
    await join(world, event_id, ANA, BO, CY, DEE)
    await world.command(MOD, CHANNEL, "tournament", "start")
    await settle()
    first, second = await running_games(world, event_id)
    world.clock.advance(2 * ARENA_TURN_SECONDS + 1)  # nobody moves in either game: both end on time
    await world.bot.sweep()
    await settle()
    record = await world.bot.store.matches.get(first.match_id or 0)
    assert record is not None and record.status == MatchStatus.FINISHED
    assert (record.result or {}).get("termination") == "abandoned"
    late = first.players[(record.result or {})["places"].index(2)]
    entrants = {e.user_id: e for e in await world.bot.store.tournaments.entrants(event_id)}
    winners = {u for u in (*first.players, *second.players) if u != late} - {e.user_id for e in entrants.values()
                                                                              if e.paused}  # fmt: skip
    assert entrants[late].paused and len(winners) == 2 and sum(e.paused for e in entrants.values()) == 2
    assert all(late not in g.players for g in await running_games(world, event_id))
    for user in (u for u, e in entrants.items() if e.paused):  # both come back: paired again
        await world.command(PEOPLE[user], CHANNEL, "tournament", "join")
    await settle()
    assert any(late in g.players for g in await running_games(world, event_id))
    await world.stop()


@pytest.mark.parametrize(
    ("value", "said"),
    [("5m", "from 10 minutes to 24 hours"), ("25h", "from 10 minutes to 24 hours"), ("soon", "like `30m`")],
)
async def test_a_bad_duration_is_refused_and_makes_nothing(world: World, value: str, said: str) -> None:
    opts = [option("game", "pond"), option("format", f.ARENA), option("duration", value)]
    calls = await world.discord.command(MOD, CHANNEL, "tournament", "create", opts)
    replies = [c for c in calls if c.kind == "reply"]
    assert len(replies) == 1 and replies[0].ephemeral and said in replies[0].content, replies
    assert await world.bot.store.tournaments.of_guild(GUILD_ID) == []
    await world.stop()


async def test_a_duration_is_for_arenas_and_rounds_are_not(world: World) -> None:
    opts = [option("game", "pond"), option("format", f.SWISS), option("duration", "1h")]
    calls = await world.discord.command(MOD, CHANNEL, "tournament", "create", opts)
    assert any(c.ephemeral and "Only an arena" in c.content for c in calls if c.kind == "reply")
    opts = [option("game", "pond"), option("format", f.ARENA), option("rounds", 3, kind=4)]
    calls = await world.discord.command(MOD, CHANNEL, "tournament", "create", opts)
    assert any(c.ephemeral and "not rounds" in c.content for c in calls if c.kind == "reply")
    french = Person(MOD.id, "Mod", admin=True, locale="fr")
    opts = [option("game", "azul"), option("format", f.ARENA), option("duration", "2d")]
    calls = await world.discord.command(french, CHANNEL, "tournament", "create", opts)
    assert any("24 heures" in t for t in texts(calls)), texts(calls)
    assert await world.bot.store.tournaments.of_guild(GUILD_ID) == []
    await world.stop()


@pytest.mark.parametrize("language", ["en", "ru", "fr"])
def test_the_arena_texts_in_each_language(language: str) -> None:
    from bot.commands.tournaments import sign_up_text
    from bot.core import arena
    from bot.delivery.event_posts import arena_text
    from bot.storage.tournament_store import Event, EventFormat

    event = Event(1, 1, 1, "Azul Night", "azul", {}, EventFormat.ARENA, 0, 180.0, None, EventStatus.RUNNING, 4, 1,
                  1, None, 0.0, 0.0, None, 3600.0, 1_800_003_600.0)  # fmt: skip
    lines = arena.standings(
        [(1, "Ana", 1, False), (2, "Bo", 2, True)], [arena.Game((1, 2), (1, 2)), arena.Game((2, 1), (2, 1))]
    )
    live = arena_text(event, lines, language)
    texts = live + sign_up_text(event, ["Ana", "Bo"], language)
    english = arena_text(event, lines, "en") + sign_up_text(event, ["Ana", "Bo"], "en")
    assert "Ana" in live and "<t:1800003600:R>" in live and "2 2" in live
    assert (texts == english) == (language == "en")
    assert ("paused" in live) == (language == "en")
