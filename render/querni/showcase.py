"""Querni in the gallery (:mod:`render.gallery`) and the benchmarks: its boards, situations and configurations."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engines.querni import QuerniState

if TYPE_CHECKING:  # the gallery's types, for gallery() at the end
    from render.gallery import Showcase


# A hand-placed start with few pieces: random play soon clears a side.
GALLERY_CLEARING = {"c3": "B1", "d4": "B2", "e4": "B3", "f4": "B4", "h6": "R1", "i6": "R2", "j6": "R3", "j7": "R4"}


def _gallery_kind(state: QuerniState) -> str | None:
    """Name the situation a running position shows: what its last ply did."""
    event = state.last
    if event is None:
        return None
    if event.removed and event.piece:
        return "last-move-and-removal"
    if event.removed:
        return "last-removal"
    if event.jumped:
        return "last-jump" if len(event.jumped) == 1 else "last-jumps"
    return "last-step" if event.piece else None


def gallery() -> Showcase:
    """Return Querni's boards in the gallery: every mark, and every ending (a hand-placed start for one)."""
    from render.gallery import Board, Showcase

    return Showcase(
        kind=_gallery_kind,  # type: ignore[arg-type]
        boards=(
            Board("standard", 2, {},
                  ("last-step", "last-jump", "last-jumps", "last-removal", "last-move-and-removal", "end-stranded"),
                  texts=True, quick=True),
            Board("no-triple", 2, {"isolation": "no_triple_left"}, ("end-no_triple",), games=200),
            Board("custom", 2, {"layout": GALLERY_CLEARING}, ("end-cleared",), games=100),
        ),
        limit=({"draw_plies": 4}, "end-no_removal"),
        quick=("start",),
        busy=("last-move-and-removal",),
        ends=("end-stranded", "end-forfeit"),
    )  # fmt: skip


# What the rendering benchmark (bench.render_speed) draws: (players, options).
BENCH_CONFIGS: tuple[tuple[int, dict[str, object]], ...] = ((2, {}),)

# What the replay benchmark (bench.replay_speed) builds: nothing.  The draw rule ends a game after 30 plies without
# a removal and each of at most ten removals resets it, so a game is never longer than 11 x 30 = 330 plies:
# shorter than the other games' worst cases.
REPLAY_CASES: tuple[tuple[str, int, dict[str, object], bool, tuple[int, ...], bool], ...] = ()
