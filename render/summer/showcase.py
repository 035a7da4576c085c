"""Summer in the gallery (:mod:`render.gallery`) and the benchmarks: its boards, situations and configurations."""

from __future__ import annotations

from typing import TYPE_CHECKING

from engines.summer import SummerState

if TYPE_CHECKING:  # the gallery's types, for gallery() at the end
    from render.gallery import Showcase


GALLERY_MARKS = (
    "last-moved", "last-merged", "last-collided", "last-destroyed", "last-zeroed",
    "last-moved-plus", "last-moved-minus", "last-merged-minus", "last-collided-plus",
)  # fmt: skip


def _gallery_kind(state: SummerState) -> str | None:
    """Name the situation a running position shows: what its last ply did, and on which terrain."""
    event = state.last
    if event is None:
        return None
    if event.zeroed:
        return "last-zeroed"
    if event.modifier:
        return f"last-{event.action}-{'plus' if event.modifier > 0 else 'minus'}"
    return f"last-{event.action}"


def gallery() -> Showcase:
    """Return Summer's boards in the gallery: square and hex, the smallest and largest, both modes."""
    from render.gallery import Board, Showcase

    return Showcase(
        kind=_gallery_kind,  # type: ignore[arg-type]
        boards=(
            Board("square-8", 2, {}, (*GALLERY_MARKS, "end-black_arrived", "end-last_move")),
            Board("hex-8", 2, {"board": "hex"}, (*GALLERY_MARKS, "end-black_arrived"), texts=True),
            Board("square-3", 2, {"size": 3}, ("last-moved", "end-black_gone", "end-white_gone"), games=200),
            Board("hex-12", 2, {"size": 12, "board": "hex"}, ("last-merged", "last-collided", "end-white_home"),
                  games=200, texts=True, quick=True),
            Board("square-12", 2, {"size": 12}, ("last-collided", "end-black_arrived"), games=12),
            Board("field-8", 2, {"mode": "field"}, ("last-field_win-plus", "end-black_arrived")),
        ),
        limit=({"max_plies": 10}, "end-move_limit"),
        quick=("start", "last-merged", "end-white_home"),
        busy=("last-merged-minus", "last-merged"),
        ends=("end-black_arrived", "end-white_home", "end-forfeit"),
    )  # fmt: skip


# What the rendering benchmark (bench.render_speed) draws: (players, options).
BENCH_CONFIGS: tuple[tuple[int, dict[str, object]], ...] = (
    (2, {}),
    (2, {"board": "hex"}),
    (2, {"size": 12}),
    (2, {"size": 12, "board": "hex"}),
)

# What the replay benchmark (bench.replay_speed) builds: (case, players, options, staller plays, seeds, in a quick
# run).  The largest board's move limit (4·N·N plies).
REPLAY_CASES: tuple[tuple[str, int, dict[str, object], bool, tuple[int, ...], bool], ...] = (
    ("worst summer 12x12 576-ply limit", 2, {"size": 12}, True, (1,), True),
)
