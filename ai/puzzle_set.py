"""The puzzles Tabula ships, so that a new server has puzzles on its first day: ``python -m ai.puzzle_set``.

A server's own puzzles come from its finished games; a new server has none, so Tabula ships a set for every
game, mined the same way (:func:`mine_game`, the same search and thresholds as the bot's mining) from games the
computer played against itself.  The games are loose on purpose (the *easy* level, whose moves are sampled from
its search, against itself and against *medium*), so that they throw chances away as people do, and they cover
every option set a server can start (Pond's three boards, Azul for two to four and its grey wall, Querni's two
isolation rules, Summer's two boards and two collision modes).

Everything is fixed by the game's number (its seed, its options, its players' levels) and the searches have
fixed budgets, so the command makes the same files on any machine: rerun it after changing the search or the
thresholds, and the diff shows what changed.  Each file, ``ai/puzzle_sets/<game>.json``, holds
``{"version": 1, "game": ..., "puzzles": [Puzzle.to_json() with its "source", ...]}``.  Each game's setups are
``PUZZLE_SETUPS`` in its ``ai/<game>.py``, puzzles in the order
they were found, none twice.

Mining a game: every position with a choice is screened by a quick search (a quarter of the puzzle budget, none
of it spent again on the most promising moves, with lower thresholds); each position that passes is tried as a
puzzle by :func:`~ai.puzzles.make_puzzle` at the full budget, confirmed by a second search at twice that.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ai import choose_move, search_seed
from ai.knowledge import game_module
from ai.puzzles import MARGIN, WINNING, Puzzle, clear_choice, make_puzzle, puzzle_iterations
from engines import GAMES, GameState

VERSION = 1
HERE = Path(__file__).parent / "puzzle_sets"
# The screen's budget is this share of the puzzle budget, its thresholds these (lower than the puzzle's own:
# a quick search is rougher, and the full one decides).
SCREEN_SHARE = 4
SCREEN_WINNING = WINNING - 0.08
SCREEN_MARGIN = MARGIN - 0.15
MAX_PLIES = 300  # a self-played game stops here if it has not ended (none does in practice)
TARGET = 200  # puzzles per game in the shipped set


@dataclass(frozen=True, slots=True)
class Setup:
    """How one self-played game is started: the game's options, its players and their levels."""

    options: Mapping[str, Any] = field(hash=False)
    players: int = 2
    levels: tuple[str, ...] = ("easy", "easy")


def setups(game: str) -> tuple[Setup, ...]:
    """The setups of ``game``'s self-played games (``PUZZLE_SETUPS`` in ``ai/<game>.py``), taken in turn by the
    games' numbers; a game without them plays its default options, two easy players."""
    listed: Sequence[Mapping[str, Any]] = getattr(game_module(game), "PUZZLE_SETUPS", None) or ({},)
    return tuple(
        Setup(dict(item.get("options", {})), int(item.get("players", 2)), tuple(item.get("levels", ("easy", "easy"))))
        for item in listed
    )


def self_play(game: str, number: int) -> list[GameState]:
    """Play game ``number`` of ``game`` (computer against computer, by its :data:`SETUPS`) and return every
    position from the first to the last."""
    every = setups(game)
    setup = every[number % len(every)]
    state = GAMES[game].new(players=setup.players, seed=number, **setup.options)
    states = [state]
    while state.outcome() is None and state.ply < MAX_PLIES:
        mover = state.to_move
        assert mover is not None
        move = choose_move(state, level=setup.levels[mover], seed=search_seed(number, state.ply))
        state = state.play(move)
        states.append(state)
    return states


def screen(state: GameState, *, iterations: int, seed: int) -> bool:
    """Tell whether a quick search (``iterations`` is the puzzle budget; it spends a quarter) finds a clear
    choice in ``state``, by the screen's lower thresholds: worth trying as a puzzle."""
    if state.outcome() is not None or len(state.legal_moves()) < 2:
        return False
    quick = max(1, iterations // SCREEN_SHARE)
    found = clear_choice(state, iterations=quick, seed=seed, winning=SCREEN_WINNING, margin=SCREEN_MARGIN, contenders=0)
    return found is not None


def mine_game(states: Sequence[GameState], *, seed: int, iterations: int | None = None) -> Iterator[Puzzle]:
    """Yield the puzzles of a game (``states`` from its first position), in order of play."""
    for state in states:
        if state.outcome() is not None:
            break
        puzzle = mine_position(state, seed=search_seed(seed, state.ply), iterations=iterations)
        if puzzle is not None:
            yield puzzle


def mine_position(state: GameState, *, seed: int, iterations: int | None = None) -> Puzzle | None:
    """Return the puzzle ``state`` makes (screened, then made and confirmed), or None."""
    budget = puzzle_iterations(state.game) if iterations is None else iterations
    if not screen(state, iterations=budget, seed=seed):
        return None
    return make_puzzle(state, iterations=budget, seed=search_seed(seed, 1))


def mine_position_saved(
    game: str, state_json: Mapping[str, Any], seed: int, iterations: int | None = None
) -> dict[str, Any] | None:
    """:func:`mine_position` of a saved position, answering the puzzle's JSON or None (for a worker process)."""
    spec = GAMES.get(game)
    if spec is None:
        raise ValueError(f"Unknown game {game!r}.")
    puzzle = mine_position(spec.from_json(state_json), seed=seed, iterations=iterations)
    return None if puzzle is None else puzzle.to_json()


def build(game: str, target: int = TARGET, *, log: Any = None) -> dict[str, Any]:
    """Mine self-played games of ``game``, game 0 onwards, until ``target`` distinct puzzles are found; return
    the file's contents."""
    found: dict[str, dict[str, Any]] = {}
    number = 0
    while len(found) < target:
        states = self_play(game, number)
        for puzzle in mine_game(states, seed=number):
            if puzzle.key not in found and len(found) < target:
                entry = puzzle.to_json()
                entry["source"] = {"self_play": number, "ply": puzzle.ply}
                found[puzzle.key] = entry
        if log is not None:
            print(f"{game}: game {number} played ({len(states) - 1} plies), {len(found)} puzzles", file=log, flush=True)
        number += 1
    return {"version": VERSION, "game": game, "games": number, "puzzles": list(found.values())}


def read_set(path: Path) -> list[dict[str, Any]]:
    """Return the puzzles of the set file ``path`` (each a :meth:`Puzzle.to_json` with its ``source``); a file of
    another version is refused (ValueError)."""
    data = json.loads(path.read_text(encoding="utf-8"))
    if data.get("version") != VERSION:
        raise ValueError(f"{path.name}: a puzzle set of version {data.get('version')!r}; this reads version {VERSION}")
    return list(data["puzzles"])


def load(game: str, folder: Path | None = None) -> list[dict[str, Any]]:
    """Return the shipped puzzles of ``game`` (from ``folder``, default the shipped sets' :data:`HERE`), or none if
    the set was not made."""
    path = (folder or HERE) / f"{game}.json"
    return read_set(path) if path.exists() else []


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m ai.puzzle_set", description="Make the puzzle sets Tabula ships (deterministic)."
    )
    parser.add_argument("games", nargs="*", default=sorted(GAMES), help="games to make (default: all)")
    parser.add_argument("--target", type=int, default=TARGET, help=f"puzzles per game (default {TARGET})")
    parser.add_argument("--out", type=Path, default=HERE, help="where the files go (default: ai/puzzle_sets)")
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    for game in args.games:
        if game not in GAMES:
            parser.error(f"unknown game {game!r}; choose from {', '.join(sorted(GAMES))}")
        data = build(game, args.target, log=sys.stderr)
        text = json.dumps(data, indent=None, separators=(",", ":"), sort_keys=True)
        (args.out / f"{game}.json").write_text(text + "\n", encoding="utf-8")
        print(f"{game}: {len(data['puzzles'])} puzzles from {data['games']} games", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
