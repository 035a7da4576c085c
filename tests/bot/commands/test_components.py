"""Persistent buttons: each custom ID is built and read from one template, in the formats posts already carry."""

from __future__ import annotations

import re

import pytest

from bot.commands.components import Choice, CustomId, Number
from bot.commands.ladder import LADDER, page_button
from bot.commands.replays import REPLAY, step_button
from bot.commands.tournaments import SIGN_UP, sign_up_button
from bot.commands.views import (
    ANALYSE,
    CHALLENGE,
    DRAW,
    REMATCH,
    analyse_button,
    challenge_button,
    draw_button,
    rematch_button,
)

BIG = 2**63 - 1  # the largest snowflake

# Custom IDs as buttons posted before this change carry them, with the values they hold.
POSTED = [
    (CHALLENGE, f"tabula:challenge:accept:{BIG}", {"action": "accept", "match": BIG}),
    (CHALLENGE, "tabula:challenge:decline:7", {"action": "decline", "match": 7}),
    (REMATCH, "tabula:rematch:12", {"match": 12}),
    (ANALYSE, "tabula:analyse:12", {"match": 12}),
    (DRAW, "tabula:draw:accept:12:999999999", {"action": "accept", "match": 12, "version": 999999999}),
    (LADDER, "tabula:ladder:azul:3:prev", {"game": "azul", "page": 3, "dir": "prev"}),
    (REPLAY, f"tabula:replay:{2**53}:40:last", {"match": 2**53, "ply": 40, "step": "last"}),
    (SIGN_UP, "tabula:event:leave:5", {"action": "leave", "event": 5}),
]


@pytest.mark.parametrize(("template", "custom_id", "values"), POSTED)
def test_posted_custom_ids_still_read_and_build_the_same(
    template: CustomId, custom_id: str, values: dict[str, object]
) -> None:
    assert template.read(custom_id) == values
    assert template.build(**values) == custom_id
    assert re.fullmatch(template.template, custom_id)


def test_every_button_carries_an_id_its_template_reads() -> None:
    buttons = [
        (CHALLENGE, challenge_button(9, False)),
        (REMATCH, rematch_button(9)),
        (ANALYSE, analyse_button(9)),
        (DRAW, draw_button(9, 4, True)),
        (LADDER, page_button("pond", 2, "next")),
        (REPLAY, step_button(9, 5, "prev")),
        (SIGN_UP, sign_up_button(9, True)),
    ]
    for template, button in buttons:
        assert button.custom_id is not None and template.read(button.custom_id) is not None


def test_an_id_that_does_not_fit_is_refused_when_built_and_not_read() -> None:
    template = CustomId("test", Choice("action", ("on", "off")), Number("n", 3))
    with pytest.raises(ValueError):
        template.build(action="maybe", n=1)
    with pytest.raises(ValueError):
        template.build(action="on", n=1000)
    assert template.read("tabula:test:on:1000") is None
    assert template.read("tabula:other:on:1") is None
