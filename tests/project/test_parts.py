"""Every registered game has each of its parts, found by its name in ``engines.GAMES``; nothing else names it.

A game is its engine (``engines/<name>.py``, its ``SPEC`` registered in ``engines/__init__.py``) and one module
in each other layer, named by :meth:`engines.base.GameSpec.module`: ``render/<name>.py``, ``i18n/<name>.py``,
``ai/<name>.py`` and ``bot/games/<name>.py``, plus its rules pages ``docs/<name>.md`` in every language
(CONTRIBUTING.md lists what each must hold).  :func:`missing_parts` says what a game lacks; the tests run it
on every registered game, and ``tests/project/test_toy_game.py`` on a game kept outside Tabula's packages.
"""

from __future__ import annotations

import ast
import dataclasses
import importlib
import inspect
from collections.abc import Iterator, Mapping
from enum import StrEnum
from pathlib import Path
from types import ModuleType

import pytest

import i18n
from ai import LEVELS, Level
from ai.knowledge import Knowledge, game_module, knowledge_class, knowledge_for
from engines import GAMES
from engines.base import FORFEIT, TIMEOUT
from render import NoRenderer, renderer_for
from tests import ROOT

#: The layers that hold a module per game.
LAYERS = ("render", "i18n", "ai", "bot.games")
#: Where product code lives: no module there may name a game other than its own.
PRODUCT = ("bot", "i18n", "render", "ai", "engines")


def _module(name: str) -> ModuleType | None:
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as missing:
        if f"{name}.".startswith(f"{missing.name}."):  # the module, or its package, is not there
            return None
        raise


def missing_parts(name: str) -> list[str]:
    """Return what the registered game ``name`` lacks, one line per missing part (empty when it is complete)."""
    spec = GAMES[name]
    missing: list[str] = []
    modules = {layer: _module(spec.module(layer)) for layer in LAYERS}
    missing += [f"no module {spec.module(layer)}" for layer, module in modules.items() if module is None]

    # The engine: termination codes, both ways of leaving among them.
    codes = getattr(importlib.import_module(spec.new.__module__), "Termination", None)
    if not (isinstance(codes, type) and issubclass(codes, StrEnum) and {FORFEIT, TIMEOUT} <= set(codes)):
        missing.append("engine: no Termination codes including forfeit and timeout")

    # The picture, and the gallery's boards.
    try:
        if renderer_for(name).__module__ != spec.module("render"):
            missing.append("render: render_<name> is not the game's own")
        keywords = inspect.signature(renderer_for(name)).parameters
        if "marks" not in keywords:
            missing.append("render: render_<name> takes no marks= (a review's and a hint's moves)")
        if "legend" not in keywords:
            missing.append("render: render_<name> takes no legend= (what a marked board's colours mean)")
    except NoRenderer as error:
        missing.append(f"render: {error}")
    if modules["render"] is not None:
        from render.gallery import Board, Showcase

        shown = getattr(modules["render"], "gallery", lambda: None)()
        if not isinstance(shown, Showcase) or not shown.boards or not callable(shown.kind):
            missing.append("render: no gallery() showing its boards")
        elif not all(isinstance(b, Board) for b in shown.boards) or not any(b.quick for b in shown.boards):
            missing.append("render: the gallery has no quick board")

    # The texts: result, chat line, status, caption, seat label, alt-text position, the bot's words, refusals.
    texts = modules["i18n"]
    if texts is not None:
        missing += [f"i18n: no {part}()" for part in i18n.PARTS if not callable(getattr(texts, part, None))]
        if callable(getattr(texts, "seat_words", None)):
            words = texts.seat_words("en")
            for players in range(spec.min_players, spec.max_players + 1):
                missing += [
                    f"i18n: no seat word for {seat!r}"
                    for seat in spec.seat_names(players)
                    if seat not in words and not seat.startswith("player ")
                ]
        if callable(getattr(texts, "option_words", None)):
            known = {o.name for o in spec.options} | {
                c for o in spec.options for c in o.choices or () if type(c) is str
            }
            unknown = [word for word in texts.option_words("en") if word not in known]
            missing += [f"i18n: option word {word!r} is no option of the game" for word in unknown]

    # The computer: its own knowledge, and its settings of the levels (possibly none).
    knowledge = knowledge_class(name)
    if not (isinstance(knowledge, type) and issubclass(knowledge, Knowledge) and knowledge is not Knowledge):
        missing.append("ai: no KNOWLEDGE of its own")
    settings = getattr(modules["ai"], "LEVEL_SETTINGS", None)
    fields = {f.name for f in dataclasses.fields(Level)}
    if not isinstance(settings, Mapping):
        missing.append("ai: no LEVEL_SETTINGS")
    elif not set(settings) <= set(LEVELS) or not all(set(s) <= fields for s in settings.values()):
        missing.append("ai: LEVEL_SETTINGS names an unknown level or setting")

    # The commands and the short rules the catalogs carry.
    bot = modules["bot.games"]
    if bot is not None:
        if not callable(getattr(bot, "build", None)):
            missing.append("bot: no build(ui)")
        if not isinstance(getattr(bot, "RULES", None), str) or not bot.RULES.strip():
            missing.append("bot: no RULES text")

    # The rules pages, for a game shipped with Tabula.
    if spec.parts is None:
        for folder in ("", "ru/", "fr/"):
            if not (ROOT / "docs" / f"{folder}{name}.md").is_file():
                missing.append(f"docs: no docs/{folder}{name}.md")
    return missing


@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_game_has_every_part(name: str) -> None:
    assert missing_parts(name) == []


@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_game_has_its_own_knowledge_for_the_computer(name: str) -> None:
    found = knowledge_class(name)
    assert found is not None and isinstance(knowledge_for(name), found)


def test_a_game_without_its_modules_is_reported_part_by_part(monkeypatch: pytest.MonkeyPatch) -> None:
    ghost = dataclasses.replace(GAMES["pond"], name="ghost", parts="tests.no_such_package")
    monkeypatch.setitem(GAMES, "ghost", ghost)
    missing = missing_parts("ghost")
    for name in ("tests.no_such_package.render", "tests.no_such_package.i18n", "tests.no_such_package.games"):
        assert f"no module {name}" in missing
    assert "ai: no KNOWLEDGE of its own" in missing and "ai: no LEVEL_SETTINGS" in missing
    assert any(line.startswith("render: There is no picture") for line in missing)
    assert not any(line.startswith("docs:") for line in missing)  # pages are asked only of Tabula's own games


def test_an_unregistered_name_finds_nothing() -> None:
    assert knowledge_class("mcts") is None and knowledge_class("nothing") is None and game_module("knowledge") is None
    with pytest.raises(LookupError):
        i18n.texts_for("common")
    with pytest.raises(NoRenderer):
        renderer_for("draw")


# -- nothing else names a game ---------------------------------------------------------------------------------


def _docstrings(tree: ast.AST) -> set[int]:
    """Return the ids of the docstring nodes of ``tree`` (their doctests may show a game by name)."""
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                found.add(id(first.value))
    return found


def _product_modules() -> Iterator[tuple[str, Path]]:
    for package in PRODUCT:
        for path in sorted((ROOT / package).rglob("*.py")):
            dotted = ".".join(path.relative_to(ROOT).with_suffix("").parts)
            yield dotted.removesuffix(".__init__"), path


def game_names_outside_their_modules() -> list[str]:
    """Return ``file:line name`` for each string literal equal to a registered game's name outside its modules.

    A game's own modules are its engine and its module in each layer, and the modules inside any of them that
    is a package (``engines/azul/``); the registration line is in its engine (``SPEC``).  Docstrings are
    skipped: their examples (doctests) may start a game by name.
    """
    own = {
        name: {spec.new.__module__, spec.module("engines"), *(spec.module(layer) for layer in LAYERS)}
        for name, spec in GAMES.items()
    }
    found = []
    for dotted, path in _product_modules():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        docstrings = _docstrings(tree)
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value in own):
                continue
            if id(node) not in docstrings and not any(
                dotted.startswith(m + ".") or dotted == m for m in own[node.value]
            ):
                found.append(f"{path.relative_to(ROOT)}:{node.lineno} {node.value!r}")
    return found


def test_no_product_module_names_a_game_outside_its_own_modules() -> None:
    assert game_names_outside_their_modules() == []


def test_a_game_named_in_another_module_is_found(monkeypatch: pytest.MonkeyPatch) -> None:
    # "start" is a string literal in product code (a command's name, the gallery's first situation): registered
    # as a game's name, every such literal outside that game's modules is reported.
    monkeypatch.setitem(GAMES, "start", dataclasses.replace(GAMES["pond"], name="start"))
    found = game_names_outside_their_modules()
    assert found and all(line.endswith("'start'") for line in found)
