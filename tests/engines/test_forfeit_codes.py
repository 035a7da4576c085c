"""Forfeits are codes: how a player left is its termination code, never a sentence searched for words.

A player named "Ran out of time Rick" who resigns is recorded and announced as having resigned, in every
language; a claim reads as it always did; and what was written before (format-1 saves, move-log rows and
records holding the bot's English sentences) still loads, through the one legacy reader.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

import i18n
from bot.commands.replays import plies_of, ply_caption
from bot.storage import MatchStore
from bot.text.formatting import forfeit_line
from engines import GAMES, InvalidOption
from engines.base import ABANDONED, FORFEIT, FORFEIT_CODES, TIMEOUT, legacy_forfeit_code
from engines.record import Forfeit, ply_text
from tests import FIXTURES
from tests.bot.games.test_azul import start_azul
from tests.bot_world import BO, CY, World, only
from tests.harness import Person

RICK = "Ran out of time Rick"
LOCALES = ("en", "ru", "fr")
DISCORD_LOCALES = {"en": "en-US", "ru": "ru", "fr": "fr"}


@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_forfeit_is_given_by_its_code_only(game: str) -> None:
    state = GAMES[game].new(seed=1)
    with pytest.raises(InvalidOption, match="not a way to leave a game"):
        state.forfeit(0, f"{RICK} resigned.")
    for words in ("ran out of time", "Timeout!", "", "forfeit "):
        with pytest.raises(InvalidOption):
            state.forfeit(0, words)
    over = state.forfeit(0, FORFEIT)
    outcome = over.outcome()
    if outcome is None:  # three or more players: the others play on
        assert state.players > 2 and over.left == (0,)  # type: ignore[attr-defined]
        return
    assert outcome.termination == FORFEIT
    names = [RICK, "Bo", "Cy", "Dee"][: state.players]
    for locale in LOCALES:
        said = i18n.result_text(over, names, locale)
        assert i18n.forfeit_text(FORFEIT, RICK, "Bo", locale=locale) in said
        assert i18n.forfeit_text(TIMEOUT, RICK, "Bo", locale=locale) not in said
    timed_out = state.forfeit(0, TIMEOUT).outcome()
    assert timed_out is not None and timed_out.termination == TIMEOUT


def test_every_code_is_said_and_anything_else_is_refused() -> None:
    for code in FORFEIT_CODES:
        assert i18n.forfeit_text(code, "Ana", "Bo", locale="fr")
    with pytest.raises(InvalidOption):
        i18n.forfeit_text(f"{RICK} resigned.", RICK)


@pytest.mark.parametrize(
    ("sentence", "code"),
    [
        (f"{RICK} resigned.", FORFEIT),
        ("Ana resigned.", FORFEIT),
        ("Ana ran out of time; Bo claimed the win.", TIMEOUT),
        (f"{RICK} ran out of time; Bo claimed the win.", TIMEOUT),
        ("Bo resigned. ran out of time; Ana claimed the win.", TIMEOUT),  # a name ending "resigned."
        ("Cy ran out of time and leaves the game (Ana resigned claimed it).", TIMEOUT),
        ("abandoned", ABANDONED),
        ("agreed", "agreed"),
        ("timeout", TIMEOUT),
    ],
)
def test_the_legacy_reader_reads_the_sentences_the_bot_once_wrote(sentence: str, code: str) -> None:
    assert legacy_forfeit_code(sentence) == code


def fixture_saves() -> list[dict[str, Any]]:
    with open(FIXTURES / "saves_v1.json", encoding="utf-8") as handle:
        return json.load(handle)


@pytest.mark.parametrize("game", sorted(GAMES))
def test_an_old_save_of_a_resignation_by_ran_out_of_time_rick_loads_as_a_resignation(game: str) -> None:
    entry = next(
        e
        for e in fixture_saves()
        if e["game"] == game and e["expect"]["outcome"] and e["expect"]["outcome"]["reason"].endswith(" resigned.")
    )
    data = json.loads(json.dumps(entry["state"]))
    assert data["format"] == 1
    data["result"]["reason"] = f"{RICK} resigned."
    outcome = GAMES[game].from_json(data).outcome()
    assert outcome is not None and outcome.termination == FORFEIT


async def test_every_old_forfeit_row_is_announced_and_replayed_as_it_was_logged(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    shutil.copy(FIXTURES / "matches_v1.db", path)
    store = await MatchStore.open(str(path))
    seen = 0
    try:
        for match_id in range(1, 100):
            record = await store.matches.get(match_id)
            if record is None or record.state is None:
                continue
            entries = await store.matches.log(match_id)
            plies = plies_of(entries, record)
            names = [seat.name for seat in record.players]
            for entry, ply in zip(entries, plies, strict=True):
                if entry.kind != "forfeit":
                    continue
                assert forfeit_line(record, entry.seat, entry.text, "en", entry.user_id) == entry.text
                assert ply_caption(ply, names) == f"forfeit {entry.seat + 1}: {entry.text}"
                seen += 1
    finally:
        await store.close()
    assert seen > 30


RICK_PERSON = Person(100000000000000042, RICK)


async def start_rick(world: World, channel: int, locale: str) -> None:
    world.discord.guild_locale = DISCORD_LOCALES[locale]
    reply = only(await world.command(RICK_PERSON, channel, "pond", "start", opponent=BO), "reply")
    accept = next(cid for cid in reply.custom_ids if ":accept:" in cid)
    await world.discord.press(BO, channel, accept)


@pytest.mark.parametrize("locale", LOCALES)
async def test_ran_out_of_time_rick_resigns_and_is_announced_as_resigned(world: World, locale: str) -> None:
    channel = 620
    await start_rick(world, channel, locale)
    record = await world.bot.service.store.open_match(channel)
    assert record is not None
    posted = only(await world.command(RICK_PERSON, channel, "pond", "resign"), "followup")
    entries = await world.bot.service.store.log(record.id)
    assert (entries[-1].kind, entries[-1].text, entries[-1].user_id) == ("forfeit", FORFEIT, RICK_PERSON.id)
    assert i18n.forfeit_text(FORFEIT, RICK, locale=locale) in posted.content
    assert i18n.forfeit_text(TIMEOUT, RICK, BO.name, locale=locale) not in posted.content
    state = await world.bot.service.replay(record)
    outcome = state.outcome()
    assert outcome is not None and outcome.termination == FORFEIT
    # The replay's caption says it as the log's row once did, and the record file holds the code.
    (ply,) = plies_of(entries, record)
    number = record.players.index(next(p for p in record.players if p.user_id == RICK_PERSON.id)) + 1
    assert ply_caption(ply, [seat.name for seat in record.players]) == f"forfeit {number}: {RICK} resigned."
    assert ply_text(ply) == f"forfeit {number}: forfeit"


@pytest.mark.parametrize("locale", LOCALES)
async def test_a_claim_on_ran_out_of_time_rick_reads_as_before(world: World, locale: str) -> None:
    channel = 621
    await start_rick(world, channel, locale)
    record = await world.bot.service.store.open_match(channel)
    assert record is not None
    first = RICK_PERSON if record.players[0].user_id == RICK_PERSON.id else BO
    late = BO if first is RICK_PERSON else RICK_PERSON
    await world.command(first, channel, "pond", "place", cell="b2")
    world.clock.advance(24 * 3600 + 5)
    posted = only(await world.command(first, channel, "pond", "claim"), "followup")
    entries = await world.bot.service.store.log(record.id)
    assert (entries[-1].seat, entries[-1].text, entries[-1].user_id) == (1, TIMEOUT, first.id)
    assert i18n.forfeit_text(TIMEOUT, late.name, first.name, locale=locale) in posted.content


@pytest.mark.parametrize("locale", LOCALES)
async def test_a_claim_in_a_three_player_game_names_its_claimer_from_the_log(world: World, locale: str) -> None:
    channel = 622
    seats = await start_azul(world, channel, BO, CY)  # its challenge is checked in English
    world.discord.guild_locale = DISCORD_LOCALES[locale]
    record = await world.bot.service.store.open_match(channel)
    assert record is not None
    _, state = await world.bot.service.running(channel, "azul")
    late = state.to_move
    assert late is not None
    claimer = seats[(late + 2) % 3]  # not the next player: the claimer is who claimed, not a guess
    world.clock.advance(24 * 3600 + 5)
    posted = only(await world.command(claimer, channel, "azul", "claim"), "followup")
    entries = await world.bot.service.store.log(record.id)
    assert (entries[-1].seat, entries[-1].text, entries[-1].user_id) == (late, TIMEOUT, claimer.id)
    said = i18n.forfeit_text(TIMEOUT, seats[late].name, claimer.name, players=3, locale=locale)
    assert said in posted.content
    (ply,) = plies_of(entries, record)
    assert ply == Forfeit(late, TIMEOUT, by=seats.index(claimer))
    assert ply_caption(ply, [p.name for p in seats]) == f"forfeit {late + 1}: " + i18n.forfeit_text(
        TIMEOUT, seats[late].name, claimer.name, players=3
    )
