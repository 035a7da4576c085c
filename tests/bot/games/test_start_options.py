"""The start commands' rule options come from the engines' option specs: no number or choice is repeated."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest
from discord import AppCommandOptionType

from bot.client import TabulaBot
from bot.games.common import StartOption, option_spec
from bot.settings import Settings
from engines import GAMES, GameError


def start_options(game: str) -> dict[str, dict[str, Any]]:
    """Return the ``start`` command's options of ``game`` as Discord receives them, by name."""
    group = next(c for c in TabulaBot(Settings()).command_payload() if c["name"] == game)
    start = next(o for o in group["options"] if o["name"] == "start")
    return {o["name"]: o for o in start["options"]}


@pytest.mark.parametrize("game", list(GAMES))
def test_rule_options_offer_exactly_what_the_engine_allows(game: str) -> None:
    offered = start_options(game)
    specs = {spec.name: spec for spec in GAMES[game].options}
    for name in set(offered) & set(specs):
        spec, option = specs[name], offered[name]
        if spec.choices is not None:
            assert [c["value"] for c in option["choices"]] == list(spec.choices), name
            for value in spec.choices:
                GAMES[game].new(seed=1, players=GAMES[game].min_players, **{name: value})
        if spec.minimum is not None and spec.maximum is not None:
            assert (option["min_value"], option["max_value"]) == (spec.minimum, spec.maximum), name
            assert f"{spec.minimum} to {spec.maximum} (default {spec.default})" in option["description"]
            for outside in (spec.minimum - 1, spec.maximum + 1):
                with pytest.raises(GameError):
                    GAMES[game].new(seed=1, players=GAMES[game].min_players, **{name: outside})


def test_the_games_offer_their_engines_options() -> None:
    expected = {"pond": {"variant"}, "summer": {"size", "board", "mode"}, "querni": {"isolation", "draw_plies"}}
    for game, names in expected.items():
        if game in GAMES:
            assert names <= set(start_options(game)) & {spec.name for spec in GAMES[game].options}


def test_from_spec_follows_the_engine(monkeypatch: pytest.MonkeyPatch) -> None:
    spec = GAMES["summer"]
    wider = tuple(replace(o, minimum=2, maximum=20, default=9) if o.name == "size" else o for o in spec.options)
    monkeypatch.setitem(GAMES, "summer", replace(spec, options=wider))
    size = StartOption.from_spec("summer", "size", "N: {minimum} to {maximum} (default {default})")
    assert (size.default, size.bounds, size.description) == (9, (2, 20), "N: 2 to 20 (default 9)")
    # Discord's schema gets the same range: an integer from 2 to 20.
    assert (size.annotation.min_value, size.annotation.max_value) == (2, 20)
    assert size.annotation.type == AppCommandOptionType.integer
    board = StartOption.from_spec("summer", "board", "Board", {"hex": "Hex", "square": "Square"})
    # The engine's order and default, whatever order the labels come in.
    assert [(c.value, c.name) for c in board.choices] == [("square", "Square"), ("hex", "Hex")]
    assert board.default == "square" and board.annotation is str and board.bounds is None


def test_from_spec_refuses_what_it_cannot_derive() -> None:
    with pytest.raises(ValueError, match="label"):
        StartOption.from_spec("summer", "board", "Board", {"square": "Square"})
    with pytest.raises(ValueError, match="label"):
        StartOption.from_spec("summer", "board", "Board", {"square": "Square", "hex": "Hex", "round": "Round"})
    with pytest.raises(ValueError, match="neither"):
        StartOption.from_spec("summer", "terrain", "Terrain")
    with pytest.raises(KeyError):
        option_spec("summer", "colour")
