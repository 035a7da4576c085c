"""Azul in the gallery (:mod:`render.gallery`) and the benchmarks: its boards, situations and configurations."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engines.azul import CENTRE, FACTORIES, LETTERS, WALL_COLOUR, AzulMove, AzulState
from engines.azul import from_json as azul_from_json
from engines.azul import new as new_azul

if TYPE_CHECKING:  # the gallery's types, for gallery() at the end
    from render.gallery import Showcase


def _gallery_kind(state: AzulState) -> str | None:
    """Name the situation a running position shows: what its last ply did, or the wall to choose."""
    event = state.last
    if event is None or event.move is None:
        return None
    if state.phase == "tiling":
        return "wall-choice"
    if event.round_ended:
        overflow = event.to_floor >= 2 and any(p >= 8 for p in event.penalties)
        return "round-end-floor" if overflow else "round-end"
    if event.marker:
        return "last-marker"
    if event.to_floor and event.move.line != 6:
        return "last-overflow"
    return "last-factory" if event.move.source > 0 else "last-centre"


def no_tiles_left() -> AzulState:
    """Return a four-player game ended because no tile was left to fill the factories (a safety rule).

    Random play never gets there: it needs 99 of the 100 tiles on the walls and pattern lines at once.  Seat ``s``
    (from 0) leaves wall column ``s`` empty, and each of its rows holds that column's colour on a pattern line short of
    full; the last tile waits in the centre for Dee, so the round ends with nothing to refill from.
    """
    on_lines = ({4: 4}, {1: 1, 4: 4}, {2: 2, 4: 4}, {4: 4})  # tiles on each pattern line (row from 0), by seat
    boards: list[dict[str, object]] = []
    for player, lines in enumerate(on_lines):
        colours = [[LETTERS[WALL_COLOUR[row][column]] for column in range(5)] for row in range(5)]
        boards.append(
            {
                "score": 10 * (player + 1),
                "lines": [colours[row][player] * lines.get(row, 0) for row in range(5)],
                "wall": ["".join("." if column == player else row[column] for column in range(5)) for row in colours],
                "floor": "",
            }
        )
    # The move before Dee's: Cy took two blue from f1 to line 3.
    last = {
        "player": 2,
        "move": [1, 0, 3, 0],
        "taken": 2,
        "to_line": 2,
        "to_floor": 0,
        "to_lid": 0,
        "marker": False,
        "placements": [],
        "discards": [],
        "round_ended": 0,
        "penalties": [],
        "bonuses": [],
        "left": "",
        "line_start": 0,
        "floor_start": 0,
        "marker_held": False,
        "before": [],
        "after": [],
        "clipped": [],
    }
    saved = new_azul(players=4, seed=3).to_json()
    saved.update(round=5, ply=60, turn=3, starter=0, bag=[0] * 5, lid=[0] * 5, centre=LETTERS[0], boards=boards)
    saved.update(factories=[""] * FACTORIES[4], last=last)
    return azul_from_json(saved).play(AzulMove(CENTRE, 0, 4, 0))


def gallery() -> Showcase:
    """Return Azul's boards in the gallery: two to four players, both walls, every mark and ending."""
    from render.gallery import Board, Showcase

    return Showcase(
        kind=_gallery_kind,  # type: ignore[arg-type]
        boards=(
            Board("2p-colour", 2, {},
                  ("last-factory", "last-centre", "last-marker", "last-overflow", "round-end", "end-wall_row")),
            Board("3p-colour", 3, {}, ("round-end", "end-wall_row")),
            Board("4p-colour", 4, {}, ("last-factory", "round-end-floor", "end-wall_row"), texts=True, quick=True,
                  staged=(("end-no_tiles", no_tiles_left),)),
            Board("4p-grey", 4, {"wall": "grey"}, ("wall-choice", "round-end", "end-wall_row")),
        ),
        limit=({"max_rounds": 1}, "end-round_limit"),
        quick=("start", "round-end-floor"),
        busy=("round-end-floor",),
        ends=("end-wall_row", "end-forfeit"),
    )  # fmt: skip


# What the rendering benchmark (bench.render_speed) draws: (players, options).
BENCH_CONFIGS: tuple[tuple[int, dict[str, object]], ...] = ((2, {}), (4, {}), (4, {"wall": "grey"}))

# What the replay benchmark (bench.replay_speed) builds: (case, players, options, staller plays, seeds, in a quick
# run).  Whole four-player games by random play, and the 100-round cap.
REPLAY_CASES: tuple[tuple[str, int, dict[str, object], bool, tuple[int, ...], bool], ...] = (
    ("azul 4p", 4, {}, False, (0, 1, 2, 3, 4), True),
    ("worst azul 4p 100-round cap", 4, {}, True, (1,), False),
)
