"""Engine refusals are data (an English template and plain params) and read in the player's language."""

from __future__ import annotations

import pickle
import random
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pytest
from babel.messages.pofile import read_po

from bot.core.refusals import describe_error
from engines import GAMES
from engines.base import GameError, IllegalMove, InvalidMoveText, InvalidState
from i18n import catalog
from i18n.errors import CONTEXT, error_text
from tests.bot_world import ANA, BO, Clock, World, only
from tests.harness import Person, Recorder, install

ANA_FR = Person(ANA.id, "Ana", locale="fr")


def refusal(state: Any, text: str) -> GameError:
    """Return the error ``state`` raises for the move ``text`` (the test fails if it plays)."""
    with pytest.raises(GameError) as caught:
        state.play(text)
    return caught.value


def pond_after_b2() -> Any:
    return GAMES["pond"].new(players=2, seed=7, variant="mini").play("place b2")


def azul_start() -> Any:
    return GAMES["azul"].new(players=2, seed=3)


def querni_start() -> Any:
    return GAMES["querni"].new(players=2, seed=3)


def summer_start() -> Any:
    return GAMES["summer"].new(players=2, seed=3)


def azul_empty_factory() -> tuple[Any, int, str]:
    """An Azul position after one take, the factory emptied by it, and a colour it had."""
    state = azul_start()
    move = next(m for m in state.legal_moves() if m.source >= 1)
    return state.play(move), move.source, ("blue", "yellow", "red", "black", "white")[move.colour]


# (a position, a move text, the English refusal today, the params the translations must show)
CASES: list[tuple[str, Any, str, str, tuple[str, ...]]] = [
    ("pond", pond_after_b2, "place b2", "b2 is occupied.", ("b2",)),
    ("pond", pond_after_b2, "move a1 a2", "There is no piece on a1.", ("a1",)),
    ("pond", pond_after_b2, "place z9", "z9 is not on this 4x4 board (a1 to d4).", ("z9", "4x4", "d4")),
    (
        "pond",
        pond_after_b2,
        "jump b2",
        "I can't read 'jump b2'; write a move like 'place b2' or 'move a3 c3'.",
        ("'jump b2'", "'place b2'", "'move a3 c3'"),
    ),
    (
        "azul",
        azul_start,
        "f9 red 4",
        "There is no factory 9; this game has factories 1 to 5.",
        ("9", "5"),
    ),
    (
        "azul",
        azul_start,
        "purple f1 4",
        "'purple' is not a tile colour; the colours are blue, yellow, red, black or white (b, y, r, k, w).",
        ("'purple'", "(b, y, r, k, w)"),
    ),
    (
        "azul",
        azul_start,
        "f1 red 7",
        "Pattern lines are numbered 1 to 5 from the top; or write 'floor'.",
        ("1", "5", "'floor'"),
    ),
    ("querni", querni_start, "a1-a2 x1-30", "Pieces are numbered 1 to 16, so x1-30 cannot be removed.", ("x1-30",)),
    ("querni", querni_start, "z1-z2", "There is no square z1; the board runs from a1 to j7.", ("z1", "a1", "j7")),
    (
        "querni",
        querni_start,
        "c3-e5 x9",
        "I can't read 'c3-e5 x9'; write a turn like 'c3-e5', 'x4-7', 'c3-e5 x4-7' or 'pass'.",
        ("'c3-e5 x9'", "'c3-e5 x4-7'", "'pass'"),
    ),
    ("summer", summer_start, "c5-c6", "There is no piece on c5.", ("c5",)),
    ("summer", summer_start, "c2-z2", "z2 is not on this 8x8 board (a1 to h8).", ("z2", "8x8", "h8")),
    ("summer", summer_start, "hop", "I can't read 'hop'; write a move like 'c2-c3'.", ("'hop'", "'c2-c3'")),
]


@pytest.mark.parametrize(("game", "position", "text", "english", "shown"), CASES, ids=[c[2] for c in CASES])
def test_refusals_keep_their_english_and_read_in_russian_and_french(
    game: str, position: Any, text: str, english: str, shown: tuple[str, ...]
) -> None:
    error = refusal(position(), text)
    assert str(error) == english
    assert error.template != english or not error.params  # the sentence is built from the template
    assert error_text(error, "en") == english
    russian, french = error_text(error, "ru"), error_text(error, "fr")
    assert len({english, russian, french}) == 3, (russian, french)
    for part in shown:
        assert part in russian and part in french, (part, russian, french)


def test_an_error_is_a_value_error_holding_its_template_and_params() -> None:
    error = refusal(pond_after_b2(), "place b2")
    assert isinstance(error, IllegalMove) and isinstance(error, ValueError)
    assert (error.template, error.params) == ("{cell} is occupied.", {"cell": "b2"})
    copy = pickle.loads(pickle.dumps(error))
    assert type(copy) is IllegalMove and str(copy) == "b2 is occupied." and copy.params == {"cell": "b2"}


def test_seats_and_colours_in_a_refusal_are_translated_too() -> None:
    error = refusal(summer_start(), "c8-c7")  # White moves first; c8 is Black's
    assert str(error) == "The piece on c8 is Black's; you move only your own."
    assert "Чёрные" in error_text(error, "ru") and "Noir" in error_text(error, "fr")
    state, source, colour = azul_empty_factory()
    error = refusal(state, f"f{source} {colour} 1")
    assert str(error) == f"Factory {source} is empty."
    centre_error = refusal(azul_start(), "c red 1")
    assert str(centre_error) == "The centre has no red tiles."
    assert "красный" in error_text(centre_error, "ru") and "rouge" in error_text(centre_error, "fr")


def test_a_nested_cause_is_translated_inside_its_sentence() -> None:
    inner = IllegalMove("{cell} is occupied.", cell="b2")
    outer = InvalidState("The saved {title} game is damaged: {error}", title="Pond", error=inner)
    assert str(outer) == "The saved Pond game is damaged: b2 is occupied."
    assert error_text(outer, "fr").endswith(error_text(inner, "fr"))
    assert error_text(inner, "fr") != str(inner)


def test_braces_in_a_template_without_params_read_as_single_braces() -> None:
    with pytest.raises(GameError) as caught:
        GAMES["querni"].new(players=2, seed=3, layout=["d2"])
    text = str(caught.value)
    assert "{'d2': 'B4', 'e3': 'R5'}" in text and "{{" not in text
    for language in ("ru", "fr"):
        translated = error_text(caught.value, language)
        assert "{'d2': 'B4', 'e3': 'R5'}" in translated and translated != text


def catalog_keys(language: str) -> set[str]:
    with catalog.catalog_path(language).open("rb") as file:
        data = read_po(file, locale=language, domain=catalog.DOMAIN)
    return {message.id for message in data if message.context == CONTEXT and message.string}


def bad_texts(rng: random.Random) -> Iterator[str]:
    pieces = ["place", "move", "wall", "f1", "f9", "c", "red", "purple", "floor", "x1-3", "x4-20", "pass"]
    pieces += ["a1", "b2", "c3", "e5", "j7", "k1", "z9", "c2-c3", "c3-e5", "1", "5", "7", "-", "", "??", "line"]
    for _ in range(120):
        yield " ".join(rng.choice(pieces) for _ in range(rng.randint(0, 4)))
    yield "p" * 60
    yield "   "


def test_every_refusal_of_a_fuzz_has_a_russian_and_a_french_entry() -> None:
    keys = {language: catalog_keys(language) for language in ("ru", "fr")}
    rng = random.Random(16)
    seen: set[str] = set()
    for name, spec in sorted(GAMES.items()):
        state = spec.new(players=spec.min_players, seed=5)
        for ply in range(6):
            for text in bad_texts(rng):
                try:
                    state.play(text)
                except GameError as error:
                    seen.add(error.template)
                    for language, known in keys.items():
                        assert error.template in known, (name, text, language, error.template)
            moves = state.legal_moves()
            if not moves or state.result is not None:
                break
            state = state.play(moves[ply % len(moves)])
    assert len(seen) >= 25, sorted(seen)  # the fuzz reaches refusals of every kind, not one or two


def test_describe_error_speaks_the_players_language() -> None:
    error = InvalidMoveText("{text!r} is not a cell; cells look like 'b2'.", text="zz")
    assert describe_error(error, "en") == str(error) == "'zz' is not a cell; cells look like 'b2'."
    assert describe_error(error, "fr") == "'zz' n'est pas une case ; les cases s'écrivent comme 'b2'."


@pytest.fixture
async def world(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[World]:
    recorder = Recorder()
    install(monkeypatch, recorder)
    running = await World.start(tmp_path / "tabula.sqlite3", recorder, Clock())
    yield running
    await running.stop()


async def test_a_french_players_illegal_move_is_refused_in_french(world: World) -> None:
    channel = 703
    reply = only(await world.command(ANA_FR, channel, "pond", "start", opponent=BO), "reply")
    accept = next(cid for cid in reply.custom_ids if ":accept:" in cid)
    await world.discord.press(BO, channel, accept)
    record, state = await world.bot.service.running(channel, "pond")
    if record.players[state.to_move].user_id != ANA.id:  # Bo places first; Ana answers
        await world.command(BO, channel, "pond", "place", cell="b2")
    else:
        await world.command(ANA_FR, channel, "pond", "place", cell="d4")
        await world.command(BO, channel, "pond", "place", cell="b2")
    _, before = await world.bot.service.running(channel, "pond")
    refused = only(await world.command(ANA_FR, channel, "pond", "place", cell="b2"), "reply")
    assert refused.ephemeral and refused.content == "b2 est occupée.", refused.content
    refused = only(await world.command(ANA_FR, channel, "pond", "move", from_="a1", to="a2"), "reply")
    assert refused.ephemeral and refused.content == "Il n'y a pas de pièce sur a1.", refused.content
    _, after = await world.bot.service.running(channel, "pond")
    assert after.to_json() == before.to_json()  # the refusals changed nothing
