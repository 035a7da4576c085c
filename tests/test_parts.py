"""Every registered game has each of its parts, found by its name in ``engines.GAMES``.

Adding a game means writing ``engines/<name>.py`` (its ``SPEC`` in ``engines.GAMES``), ``render/<name>.py``
(``render_<name>``), ``ai/<name>.py`` (``KNOWLEDGE``) and ``i18n/<name>.py`` (its texts); these tests fail
when one is missing.
"""

from __future__ import annotations

import importlib
from enum import StrEnum

import pytest

import i18n
from ai.knowledge import Knowledge, knowledge_class, knowledge_for
from engines import GAMES
from engines.base import FORFEIT, TIMEOUT
from render import renderer_for


@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_game_has_a_picture(name: str) -> None:
    renderer = renderer_for(name)
    assert renderer.__module__ == f"render.{name}"


@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_game_has_its_own_knowledge_for_the_computer(name: str) -> None:
    found = knowledge_class(name)
    assert found is not None, f"ai/{name}.py must define KNOWLEDGE"
    assert isinstance(knowledge_for(name), found) and issubclass(found, Knowledge) and found is not Knowledge


@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_game_has_its_texts(name: str) -> None:
    module = i18n.texts_for(name)
    assert module.__name__ == f"i18n.{name}"
    assert all(callable(getattr(module, part, None)) for part in i18n.PARTS)


@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_game_ends_with_codes_that_include_both_ways_of_leaving(name: str) -> None:
    codes = importlib.import_module(f"engines.{name}").Termination
    assert issubclass(codes, StrEnum)
    values = {str(code) for code in codes}
    assert {FORFEIT, TIMEOUT} <= values and len(values) >= 3
    assert all(value == value.lower() and " " not in value for value in values)


def test_an_unregistered_name_finds_nothing() -> None:
    assert knowledge_class("mcts") is None and knowledge_class("nothing") is None
    with pytest.raises(LookupError):
        i18n.texts_for("common")
