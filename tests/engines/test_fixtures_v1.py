"""Old games keep working: saves and a database written before termination codes (format 1).

The fixtures were made by ``tests/fixtures/make_v1.py`` with the code of save format 1; they hold
what that code said about each position (legal moves, scores, the player to move, the result and
the texts players saw).  Loading them now must give the same game, and the same words.
"""

from __future__ import annotations

import json
import random
import re
import shutil
import sqlite3
from functools import cache
from pathlib import Path
from typing import Any

import pytest

import i18n
from bot.core.service import MatchService
from bot.storage import MatchStore
from engines import GAMES, InvalidOption
from engines.base import legacy_forfeit_code
from i18n.azul import score_change
from tests import FIXTURES

NAMES = ("Ana", "Bo", "Cy", "Dee")

# How each old result sentence ended, written out independently of the engines' own mapping.
OLD_ENDINGS: dict[str, list[tuple[str, str]]] = {
    "pond": [
        (r"^The target of \d+ was reached", "target"),
        (r"has no legal action and is eliminated", "elimination"),
        (r"^Ended by the move limit", "move_limit"),
    ],
    "querni": [
        (r"removed all their pieces", "cleared"),
        (r"'s removal stranded", "stranded"),
        (r"'s removal left no three consecutive numbers", "no_triple"),
        (r"^No chain was removed", "no_removal"),
    ],
    "summer": [
        (r"^All Black pieces have reached rank 1", "black_arrived"),
        (r"^Black has no pieces left", "black_gone"),
        (r"^Black has made its last move", "last_move"),
        (r"^Black's move left every White piece", "white_home"),
        (r"^White has no pieces left", "white_gone"),
        (r"^Ended by the move limit", "move_limit"),
    ],
    "azul": [
        (r"^A wall row is complete", "wall_row"),
        (r"^Ended by the round limit", "round_limit"),
        (r"^Ended as no tile is left", "no_tiles"),
    ],
}


def old_code(game: str, reason: str) -> str:
    for pattern, code in OLD_ENDINGS[game]:
        if re.search(pattern, reason):
            return code
    # The bot's own sentences for a player leaving.
    return "timeout" if "ran out of time" in reason else "forfeit"


@cache
def saves() -> list[dict[str, Any]]:
    with open(FIXTURES / "saves_v1.json", encoding="utf-8") as handle:
        return json.load(handle)


def save_id(entry: dict[str, Any]) -> str:
    options = "-".join(f"{k}={v}" for k, v in entry["config"].items() if k != "layout") or "default"
    return f"{entry['game']}-{entry['players']}p-{options}-seed{entry['seed']}-{len(entry['log'])}"


def test_the_fixture_covers_every_game_option_and_ending() -> None:
    entries = saves()
    assert {e["game"] for e in entries} == set(GAMES)
    for name, spec in GAMES.items():
        mine = [e for e in entries if e["game"] == name]
        assert {e["players"] for e in mine} == set(range(spec.min_players, spec.max_players + 1))
        for config in spec.test_configs:
            assert any(e["config"] == dict(config) for e in mine), (name, config)
        options = {key for e in mine for key in e["config"]}
        assert options >= {option.name for option in spec.options}, name
        codes = {old_code(name, e["expect"]["outcome"]["reason"]) for e in mine if e["expect"]["outcome"]}
        assert codes >= {code for _, code in OLD_ENDINGS[name]} - {"no_tiles"}, name
        assert {"forfeit", "timeout"} <= codes
        assert any(e["expect"]["outcome"] is None for e in mine)


@pytest.mark.parametrize("entry", saves(), ids=save_id)
def test_every_old_save_loads_as_the_same_game(entry: dict[str, Any]) -> None:
    spec = GAMES[entry["game"]]
    expect = entry["expect"]
    state = spec.from_json(entry["state"])
    assert [state.move_text(m) for m in state.legal_moves()] == expect["legal"]
    assert list(state.scores()) == expect["scores"] and state.to_move == expect["to_move"]
    outcome = state.outcome()
    if expect["outcome"] is None:
        assert outcome is None
    else:
        assert outcome is not None
        old = expect["outcome"]
        assert [list(outcome.winners), list(outcome.scores), list(outcome.places)] == [
            old["winners"],
            old["scores"],
            old["places"],
        ]
        assert outcome.termination == old_code(entry["game"], old["reason"])
    # Saved again, it is format 2 and loads back to the same state.
    again = state.to_json()
    assert again["format"] == 2 and spec.from_json(json.loads(json.dumps(again))) == state
    # The move log still replays to it (format 1 did not count Azul's plies); its forfeits hold the bot's old
    # sentences, which only the legacy reader reads (the engine itself takes codes).
    replayed = spec.new(players=entry["players"], seed=entry["seed"], **entry["config"])
    for kind, *rest in entry["log"]:
        if kind == "move":
            replayed = replayed.play(rest[0])
        else:
            with pytest.raises(InvalidOption):
                replayed.forfeit(rest[0], rest[1])
            replayed = replayed.forfeit(rest[0], legacy_forfeit_code(rest[1]))
    if entry["game"] == "azul":
        assert without_details({**replayed.to_json(), "ply": 0}) == without_details(again)
        assert replayed.ply == sum(k == "move" for k, *_ in entry["log"])
    else:
        assert replayed == state and state.ply == len(entry["log"]) - sum(k == "forfeit" for k, *_ in entry["log"])


# What an Azul event keeps that a format-1 save did not: where the take's tiles went and the scores around the
# ply.  Loading fills them in from the saved boards as far as they tell (tests/engines/test_azul_events.py checks that);
# the replay knows them exactly, so the two are compared without them.
AZUL_DETAILS = ("line_start", "floor_start", "marker_held", "before", "after", "clipped")


def without_details(data: dict[str, Any]) -> dict[str, Any]:
    """Return a saved state without what only the current engine keeps in an Azul event."""
    if data["game"] != "azul" or data["last"] is None:
        return data
    return {**data, "last": {k: v for k, v in data["last"].items() if k not in AZUL_DETAILS}}


def left_by_timeout_among_many(entry: dict[str, Any]) -> bool:
    outcome = entry["expect"]["outcome"]
    return entry["players"] > 2 and outcome is not None and "leaves the game (" in outcome["reason"]


def caption_now(entry: dict[str, Any], state: Any, names: list[str]) -> str:
    """Return the old caption with what was changed on purpose for phone players, and nothing else.

    Summer's caption names the players, as its header and status line do, not their colours ("Bo b2-b1 (5)",
    "hit Ana's 3"); Azul's says when the floor took a score to 0 and stopped there ("(scores stop at 0)").
    """
    old = entry["expect"]["caption"]
    if entry["game"] == "summer" and state.last_event is not None:
        seats = {"White": names[0], "Black": names[1]}
        old = re.sub(r"^(White|Black) ", lambda m: f"{seats[m[1]]} ", old)
        old = re.sub(r"(onto|hit) (White|Black) (\d+)", lambda m: f"{m[1]} {seats[m[2]]}'s {m[3]}", old)
        old = re.sub(r"(White|Black) keeps", lambda m: f"{seats[m[1]]} keeps", old)
    azul = entry["game"] == "azul"
    if azul and any((c := score_change(state, p)) is not None and c.clipped for p in range(state.players)):
        old = old.removesuffix(" scored.") + " scored (scores stop at 0)." if old.endswith(" scored.") else old
    return old


@pytest.mark.parametrize("entry", saves(), ids=save_id)
def test_players_see_the_same_words_as_before(entry: dict[str, Any]) -> None:
    state = GAMES[entry["game"]].from_json(entry["state"])
    expect = entry["expect"]
    names = list(NAMES[: entry["players"]])
    # One word changed on purpose: the status line counts "move 14", no longer the jargon "ply 14"
    # (same number, the move as players count it). Everything else in the line is as before.
    # It also counts the draws' plies as moves ("no chain removed for 30 moves", "the move limit (300 moves)").
    status = expect["status"].replace(" · ply ", " · move ")
    status = re.sub(r"(\d+) pl(y|ies)\b", lambda m: f"{m[1]} move{'' if m[2] == 'y' else 's'}", status)
    assert i18n.status_text(state, names) == status
    if "caption" in expect:
        assert i18n.caption_text(state, names) == caption_now(entry, state, names)
    if expect["outcome"] is not None:
        old = expect["outcome"]["reason"]
        if left_by_timeout_among_many(entry):
            # The engine never knew who claimed a lost deadline; the bot's own line still says it.
            old = re.sub(r" \((\w+) claimed it\)", "", old)
        assert i18n.result_text(state, names) == old
    summary = i18n.summary_text(state, names)
    event = state.last_event
    if entry["game"] == "azul" and event is not None and event.move is None:
        # A player who left: the line says how (resigned, ran out of time), no longer the bot's whole sentence.
        how = "resigned" if event.left == "forfeit" else "ran out of time"
        who = names[event.player]
        old = expect["summary"]
        assert old.startswith(f"{who} left the game (")
        assert summary == f"{who} left the game ({who} {how})" + old.rsplit(")", 1)[1]
    else:
        assert summary == expect["summary"]


async def test_every_running_match_of_the_old_database_opens_and_plays_on(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    shutil.copy(FIXTURES / "matches_v1.db", path)
    with sqlite3.connect(path) as raw:
        rows = raw.execute("SELECT id, game, status FROM matches ORDER BY id").fetchall()
        ratings = raw.execute("SELECT COUNT(*) FROM ratings").fetchone()[0]
    assert {game for _, game, _ in rows} == set(GAMES) and ratings > 0
    assert {status for *_, status in rows} == {"challenge", "active", "finished"}
    store = await MatchStore.open(str(path))
    service = MatchService(store.matches, rng=random.Random(1), clock=lambda: 1_900_000_000.0)
    rng = random.Random(14)
    played = 0
    try:
        for match_id, game, status in rows:
            record = await store.matches.get(match_id)
            assert record is not None and record.game == game and record.status == status
            if status == "challenge":
                assert record.state is None and record.invited
                continue
            state = service.state_of(record)
            replayed = await service.replay(record)
            assert without_details({**replayed.to_json(), "ply": 0}) == without_details({**state.to_json(), "ply": 0})
            if status == "finished":
                outcome = state.outcome()
                assert outcome is not None and record.result is not None
                assert old_code(game, record.result["reason"]) == outcome.termination
                assert i18n.result_text(state, [seat.name for seat in record.players])
                continue
            assert state.outcome() is None
            mover = record.players[state.to_move].user_id
            move = state.move_text(rng.choice(state.legal_moves()))
            turn = await service.play(record.channel_id, mover, move)
            assert turn.state == state.play(move) and turn.record.version == record.version + 1
            stored = await store.matches.get(match_id)
            assert stored is not None and stored.state == turn.state.to_json() and stored.state["format"] == 2
            assert GAMES[game].from_json(stored.state) == turn.state
            played += 1
    finally:
        await store.close()
    assert played == sum(1 for *_, status in rows if status == "active")
