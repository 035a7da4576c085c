"""A gallery of every game's boards in the situations that matter, to look at before a release.

:func:`scenes` finds the situations by seeded random play (:class:`engines.rng.Rng`, so the gallery is the same
every time): each game's start, each kind of last-move mark, every way a game ends, two to four players, both
Azul walls, square and hex Summer boards, the largest and smallest boards, long and non-Latin names, and a set of
them in every language.  :func:`write_gallery` writes each as a PNG with a name that says what it shows
(``azul-4p-colour-round-end-en.png``) and an ``index.html`` that shows them at phone width, grouped by game.

    python -m render --gallery DIR [--quick]

>>> quick = scenes(quick=True)
>>> len({scene.game for scene in quick}), all(scene.file.endswith(".png") for scene in quick)
(4, True)
"""

from __future__ import annotations

import html
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engines import GAMES, GameState
from engines.base import FORFEIT, TIMEOUT
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
    """Return ``state`` ended by the player to move resigning, and by their running out of time."""
    player = state.to_move if state.to_move is not None else 0
    return {f"end-{FORFEIT}": state.forfeit(player, FORFEIT), f"end-{TIMEOUT}": state.forfeit(player, TIMEOUT)}


def middle(new: Callable[[], GameState], seed: int = 0, share: float = 0.5) -> GameState:
    """Return a position ``share`` of the way through a random game (one with pieces on the board)."""
    states = list(_play(new, seed))
    return states[int((len(states) - 1) * share)]


# -- each game's situations -----------------------------------------------------------------------------------------


def _pond_kind(state: GameState) -> str | None:
    event = getattr(state, "last", None)
    if state.outcome() is not None:
        return ending(state)
    if event is None:
        return None
    if event.scored:
        return "last-scored"
    if event.developed:
        return "last-grew"
    return "last-egg" if event.move.frm < 0 else "last-move"


def _azul_kind(state: GameState) -> str | None:
    event = getattr(state, "last", None)
    if state.outcome() is not None:
        return ending(state)
    if event is None or event.move is None:
        return None
    if getattr(state, "phase", "") == "tiling":
        return "wall-choice"
    if event.round_ended:
        overflow = event.to_floor >= 2 and any(p >= 8 for p in event.penalties)
        return "round-end-floor" if overflow else "round-end"
    if event.marker:
        return "last-marker"
    if event.to_floor and event.move.line != 6:
        return "last-overflow"
    return "last-factory" if event.move.source > 0 else "last-centre"


def _querni_kind(state: GameState) -> str | None:
    event = getattr(state, "last", None)
    if state.outcome() is not None:
        return ending(state)
    if event is None:
        return None
    if event.removed and event.piece:
        return "last-move-and-removal"
    if event.removed:
        return "last-removal"
    if event.jumped:
        return "last-jump" if len(event.jumped) == 1 else "last-jumps"
    return "last-step" if event.piece else None


def _summer_kind(state: GameState) -> str | None:
    event = getattr(state, "last", None)
    if state.outcome() is not None:
        return ending(state)
    if event is None:
        return None
    if event.zeroed:
        return "last-zeroed"
    if event.modifier:
        return f"last-{event.action}-{'plus' if event.modifier > 0 else 'minus'}"
    return f"last-{event.action}"


@dataclass(frozen=True)
class Board:
    """One board to show: its game, its name in file names, its players and options, what to look for."""

    game: str
    config: str
    players: int
    options: Mapping[str, Any]
    key: Key
    wanted: tuple[str, ...]
    games: int = 40
    texts: bool = False  # show its busiest situations with long and non-Latin names, in every language

    def new(self, **more: Any) -> Callable[[], GameState]:
        options = {**self.options, **more}
        return lambda: GAMES[self.game].new(players=self.players, seed=3, **options)


# A hand-placed Querni start with few pieces: random play soon clears a side.
CLEARING = {"c3": "B1", "d4": "B2", "e4": "B3", "f4": "B4", "h6": "R1", "i6": "R2", "j6": "R3", "j7": "R4"}
SUMMER_MARKS = (
    "last-moved", "last-merged", "last-collided", "last-destroyed", "last-zeroed",
    "last-moved-plus", "last-moved-minus", "last-merged-minus", "last-collided-plus",
)  # fmt: skip
BOARDS = (
    Board("pond", "standard", 2, {}, _pond_kind,
          ("last-egg", "last-move", "last-grew", "last-scored", "end-target", "end-elimination"), texts=True),
    Board("pond", "mini", 2, {"variant": "mini"}, _pond_kind, ("last-scored", "end-target")),
    Board("pond", "large", 2, {"variant": "large"}, _pond_kind, ("last-grew", "end-target")),
    Board("azul", "2p-colour", 2, {}, _azul_kind,
          ("last-factory", "last-centre", "last-marker", "last-overflow", "round-end", "end-wall_row")),
    Board("azul", "3p-colour", 3, {}, _azul_kind, ("round-end", "end-wall_row")),
    Board("azul", "4p-colour", 4, {}, _azul_kind, ("last-factory", "round-end-floor", "end-wall_row"), texts=True),
    Board("azul", "4p-grey", 4, {"wall": "grey"}, _azul_kind, ("wall-choice", "round-end", "end-wall_row")),
    Board("querni", "standard", 2, {}, _querni_kind,
          ("last-step", "last-jump", "last-jumps", "last-removal", "last-move-and-removal", "end-stranded"),
          texts=True),
    Board("querni", "no-triple", 2, {"isolation": "no_triple_left"}, _querni_kind, ("end-no_triple",), games=200),
    Board("querni", "custom", 2, {"layout": CLEARING}, _querni_kind, ("end-cleared",), games=100),
    Board("summer", "square-8", 2, {}, _summer_kind, (*SUMMER_MARKS, "end-black_arrived", "end-last_move")),
    Board("summer", "hex-8", 2, {"board": "hex"}, _summer_kind, (*SUMMER_MARKS, "end-black_arrived"), texts=True),
    Board("summer", "square-3", 2, {"size": 3}, _summer_kind, ("last-moved", "end-black_gone", "end-white_gone"),
          games=200),
    Board("summer", "hex-12", 2, {"size": 12, "board": "hex"}, _summer_kind,
          ("last-merged", "last-collided", "end-white_home"), games=200, texts=True),
    Board("summer", "square-12", 2, {"size": 12}, _summer_kind, ("last-collided", "end-black_arrived"), games=12),
    Board("summer", "field-8", 2, {"mode": "field"}, _summer_kind, ("last-field_win-plus", "end-black_arrived")),
)  # fmt: skip
# Safety limits end a game too: a short limit reaches them at once.
LIMITS = {
    "pond": ({"max_plies": 12}, "end-move_limit"),
    "azul": ({"max_rounds": 1}, "end-round_limit"),
    "querni": ({"draw_plies": 4}, "end-no_removal"),
    "summer": ({"max_plies": 10}, "end-move_limit"),
}
# What the names and languages are shown on: the busiest mid-game card, and the ending with the longest words.
BUSY = ("round-end-floor", "last-scored", "last-move-and-removal", "last-merged-minus", "last-merged")
ENDS = ("end-stranded", "end-wall_row", "end-target", "end-black_arrived", "end-white_home", "end-forfeit")
QUICK = {"pond": ("start", "last-scored"), "azul": ("start", "round-end-floor"), "querni": ("start",),
         "summer": ("start", "last-merged", "end-white_home")}  # fmt: skip


def _situations(board: Board, quick: bool) -> dict[str, GameState]:
    """Return the situations of one board: its start, what random play found, the ends by leaving and by limit."""
    new = board.new()
    wanted = tuple(w for w in board.wanted if not quick or w in QUICK[board.game])
    found: dict[str, GameState] = {"start": new()}
    found.update(find(new, board.key, wanted, board.games))
    if quick:
        return found
    found.update(left_games(middle(new)))
    options, name = LIMITS[board.game]
    limited = find(board.new(**options), board.key, (name,), 6)
    found.update(limited)
    return found


def scenes(quick: bool = False) -> list[Scene]:
    """Return the gallery's pictures: every board's situations, then names and languages on a chosen few.

    ``quick`` keeps a handful (a start and a busy card per game), for tests.
    """
    out: list[Scene] = []
    seen_limits: set[str] = set()
    for board in BOARDS:
        if quick and board.config not in ("standard", "4p-colour", "hex-12"):
            continue
        situations = _situations(board, quick)
        for situation, state in situations.items():
            if situation.endswith(("move_limit", "round_limit", "no_removal")):
                # One limit's end per game is enough.
                if board.game in seen_limits:
                    continue
                seen_limits.add(board.game)
            out.append(Scene(board.game, board.config, situation, state, SHORT[: board.players], "en"))
        if not board.texts:
            continue
        # Long and non-Latin names, and every language, on the busiest situations of the board and an ending.
        busy = [s for s in BUSY if s in situations][:1] + [s for s in ENDS if s in situations][:1]
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
