"""A gallery of every game's boards in the situations that matter, to look at before a release.

:func:`scenes` finds the situations by seeded random play (:class:`engines.rng.Rng`, so the gallery is the same
every time): each game's start, each kind of last-move mark, every way a game ends, two to four players, every
board and wall, the largest and smallest boards, long and non-Latin names, and a set of them in every language.
The few that random play does not reach (an ending by a rarely met safety rule) a game builds by hand (a board's
``staged`` situations); every way a game is left (resigned, on time, abandoned, a draw agreed) ends its middle.
Each game lists its boards and what to look for on them in its render module (``gallery()`` in
``render/<game>``, returning a :class:`Showcase`); this module only finds and writes them.
:func:`write_gallery` writes each as a PNG with a name that says what it shows (``azul-4p-colour-round-end-en.png``)
and an ``index.html`` that shows them at phone width, grouped by game.

    python -m render --gallery DIR [--quick]

>>> quick = scenes(quick=True)
>>> len({scene.game for scene in quick}) == len(GAMES), all(scene.file.endswith(".png") for scene in quick)
(True, True)
"""

from __future__ import annotations

import contextlib
import html
import importlib
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from engines import GAMES, GameError, GameState
from engines.base import ABANDONED, AGREED, FORFEIT, TIMEOUT
from engines.rng import Rng
from i18n.catalog import SUPPORTED
from render import render

# Names that a card must cope with: short ones, long ones, and names in other scripts (and an emoji).
SHORT = ("Ana", "Bo", "Cy", "Dee")
LONG = (
    "Anastasia Featherstonehaugh",
    "Cyrus the Magnificent of Persia",
    "Bartholomew Wolfgang Higginbottom",
    "Dagny Thorvaldsdottir-Ramirez",
)
SCRIPTS = ("李小龍", "محمد الفارسي", "Анастасия 🐸", "สมชาย ใจดี")
NAME_SETS = {"short": SHORT, "long": LONG, "scripts": SCRIPTS}


@dataclass(frozen=True)
class Scene:
    """One picture of the gallery: a game's position, the names on it and its language."""

    game: str
    config: str  # what sets the board apart: ``4p-colour``, ``hex-12``
    situation: str  # what the picture shows: ``start``, ``last-merged``, ``end-forfeit``
    state: GameState
    names: tuple[str, ...]
    locale: str
    name_set: str = "short"

    @property
    def file(self) -> str:
        """Return the PNG's file name: game, board, situation, names (unless short) and language."""
        names = "" if self.name_set == "short" else f"-{self.name_set}-names"
        return f"{self.game}-{self.config}-{self.situation}{names}-{self.locale}.png"


Key = Callable[[GameState], str | None]


def _play(new: Callable[[], GameState], seed: int, limit: int = 4000) -> Iterator[GameState]:
    """Yield every position of one game of seeded random moves, the start first."""
    rng = Rng(seed)
    state = new()
    yield state
    for _ in range(limit):
        moves = state.legal_moves()
        if not moves:
            return
        state = state.play(moves[rng.below(len(moves))])
        yield state


def find(new: Callable[[], GameState], key: Key, wanted: Sequence[str], games: int = 40) -> dict[str, GameState]:
    """Return the first position of each ``wanted`` kind (as ``key`` names it), searching ``games`` random games."""
    found: dict[str, GameState] = {}
    for seed in range(games):
        for state in _play(new, seed):
            kind = key(state)
            if kind is not None and kind in wanted and kind not in found:
                found[kind] = state
        if len(found) == len(wanted):
            break
    return found


def ending(state: GameState) -> str | None:
    """Name how a finished game ended (``end-wall_row``); ``None`` while it goes on."""
    outcome = state.outcome()
    return None if outcome is None else f"end-{outcome.termination}"


def left_games(state: GameState) -> dict[str, GameState]:
    """Return ``state`` ended by every way of leaving its engine allows the player to move.

    Resigning, running out of time and abandoning the turn end every game; a draw by agreement ends those of two
    players whose engine has one.
    """
    player = state.to_move if state.to_move is not None else 0
    left = {f"end-{how}": state.forfeit(player, how) for how in (FORFEIT, TIMEOUT, ABANDONED)}
    with contextlib.suppress(GameError):  # a game without a draw by agreement (Azul) refuses one
        left[f"end-{AGREED}"] = state.forfeit(player, AGREED)
    return left


def middle(new: Callable[[], GameState], seed: int = 0, share: float = 0.5) -> GameState:
    """Return a position ``share`` of the way through a random game (one with pieces on the board)."""
    states = list(_play(new, seed))
    return states[int((len(states) - 1) * share)]


# -- each game's boards: ``gallery()`` in the game's render module ------------------------------------------------


@dataclass(frozen=True)
class Board:
    """One board to show: its name in file names, its players and options, what to look for.

    A game's render module lists its boards without its name (:class:`Showcase`); :func:`boards` fills in
    ``game`` and ``kind`` (how the game names a running position's situation).
    """

    config: str
    players: int
    options: Mapping[str, Any]
    wanted: tuple[str, ...]
    games: int = 40
    texts: bool = False  # show its busiest situations with long and non-Latin names, in every language
    quick: bool = False  # one of the boards the quick gallery (for tests) keeps
    # Situations random play does not reach (an ending by a safety rule), each with what builds its position.
    staged: tuple[tuple[str, Callable[[], GameState]], ...] = ()
    game: str = ""
    kind: Key | None = None

    def key(self, state: GameState) -> str | None:
        """Name the situation ``state`` shows: how it ended (``end-target``), or the game's name for it."""
        ended = ending(state)
        if ended is not None or self.kind is None:
            return ended
        return self.kind(state)

    def new(self, **more: Any) -> Callable[[], GameState]:
        options = {**self.options, **more}
        return lambda: GAMES[self.game].new(players=self.players, seed=3, **options)


@dataclass(frozen=True)
class Showcase:
    """What a game shows in the gallery, from ``gallery()`` in its render module (``render/<game>``)."""

    kind: Key  # names a running position's situation (``last-scored``), ``None`` for one not worth a picture
    boards: tuple[Board, ...]
    # A safety limit set short, and the end it reaches (``end-move_limit``); None for a game without one.
    limit: tuple[Mapping[str, Any], str] | None
    quick: tuple[str, ...]  # the situations the quick gallery keeps
    busy: tuple[str, ...]  # the busiest mid-game situations, first found shown with long names in every language
    ends: tuple[str, ...]  # the endings with the longest words, likewise


def showcase(game: str) -> Showcase:
    """Return what ``game`` shows in the gallery (``gallery()`` in its render module)."""
    module = importlib.import_module(GAMES[game].module("render"))
    found: Showcase = module.gallery()
    return found


def boards() -> list[Board]:
    """Return every registered game's boards, in the registry's order, each knowing its game."""
    return [
        replace(board, game=game, kind=shown.kind)
        for game in GAMES
        for shown in (showcase(game),)
        for board in shown.boards
    ]


def _situations(board: Board, quick: bool) -> dict[str, GameState]:
    """Return one board's situations: its start, what random play found, the staged ones, the ends by leaving."""
    shown = showcase(board.game)
    new = board.new()
    wanted = tuple(w for w in board.wanted if not quick or w in shown.quick)
    found: dict[str, GameState] = {"start": new()}
    found.update(find(new, board.key, wanted, board.games))
    if quick:
        return found
    found.update((situation, build()) for situation, build in board.staged)
    found.update(left_games(middle(new)))
    if shown.limit is not None:
        options, name = shown.limit
        found.update(find(board.new(**options), board.key, (name,), 6))
    return found


def scenes(quick: bool = False) -> list[Scene]:
    """Return the gallery's pictures: every board's situations, then names and languages on a chosen few.

    ``quick`` keeps a handful (a start and a busy card per game), for tests.
    """
    out: list[Scene] = []
    seen_limits: set[str] = set()
    for board in boards():
        if quick and not board.quick:
            continue
        shown = showcase(board.game)
        situations = _situations(board, quick)
        for situation, state in situations.items():
            if shown.limit is not None and situation == shown.limit[1]:
                # One limit's end per game is enough.
                if board.game in seen_limits:
                    continue
                seen_limits.add(board.game)
            out.append(Scene(board.game, board.config, situation, state, SHORT[: board.players], "en"))
        if not board.texts:
            continue
        # Long and non-Latin names, and every language, on the busiest situations of the board and an ending.
        busy = [s for s in shown.busy if s in situations][:1] + [s for s in shown.ends if s in situations][:1]
        for situation in busy if not quick else busy[:1]:
            state = situations[situation]
            for locale in SUPPORTED if not quick else ("en", "ru"):
                sets = ("long", "scripts") if locale == "en" else ("short", "long")
                for name_set in sets:
                    names = NAME_SETS[name_set][: board.players]
                    out.append(Scene(board.game, board.config, situation, state, names, locale, name_set))
        if not quick:
            # The start's status line names who is to move: long names in every language.
            for locale in SUPPORTED:
                names = LONG[: board.players]
                out.append(Scene(board.game, board.config, "start", situations["start"], names, locale, "long"))
    return out


# -- writing --------------------------------------------------------------------------------------------------------

PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Tabula boards</title>
<style>
body {{ background: #1e1f22; color: #dbdee1; font: 15px/1.4 sans-serif; margin: 0 auto; max-width: 380px; }}
h2 {{ margin: 28px 8px 6px; }}
figure {{ margin: 0 0 18px; }}
img {{ width: 360px; max-width: 100%; display: block; }}
figcaption {{ padding: 4px 8px; color: #b5bac1; }}
nav a {{ color: #00a8fc; margin-right: 10px; }}
</style></head><body>
<h1>Tabula boards</h1>
<p>{count} boards, shown at a phone's width (360 points). Click one for full size.</p>
<nav>{nav}</nav>
{sections}
</body></html>
"""


def write_gallery(directory: Path, chosen: Sequence[Scene] | None = None) -> list[Path]:
    """Render ``chosen`` (default: every scene) into ``directory`` with an ``index.html``; return the PNG paths."""
    directory.mkdir(parents=True, exist_ok=True)
    chosen = scenes() if chosen is None else chosen
    paths: list[Path] = []
    sections: dict[str, list[str]] = {}
    for scene in chosen:
        path = directory / scene.file
        path.write_bytes(render(scene.state, players=scene.names, locale=scene.locale))
        paths.append(path)
        label = html.escape(f"{scene.config} · {scene.situation} · {scene.name_set} names · {scene.locale}")
        link = html.escape(scene.file)
        sections.setdefault(scene.game, []).append(
            f'<figure><a href="{link}"><img src="{link}" alt="{label}" loading="lazy"></a>'
            f"<figcaption>{label}</figcaption></figure>"
        )
    nav = " ".join(f'<a href="#{game}">{game}</a>' for game in sections)
    body = "\n".join(f'<h2 id="{game}">{game}</h2>\n' + "\n".join(items) for game, items in sections.items())
    (directory / "index.html").write_text(PAGE.format(count=len(paths), nav=nav, sections=body), encoding="utf-8")
    return paths


# The registered games' boards and safety limits when this module was imported (for tests and tools).
BOARDS: tuple[Board, ...] = tuple(boards())
LIMITS: dict[str, tuple[Mapping[str, Any], str]] = {
    game: limit for game in GAMES if (limit := showcase(game).limit) is not None
}
