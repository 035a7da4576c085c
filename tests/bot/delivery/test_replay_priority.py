"""Replay step buttons never wait behind turn boards: urgent worker calls, boards drawn ahead and kept."""

from __future__ import annotations

import asyncio
import os
from collections.abc import Callable
from typing import Any, TypeVar

from bot.commands.replays import draw_board, positions_and_board
from bot.delivery.workers import WorkerPool
from tests.bot.commands.test_replay import button, finished_match
from tests.bot_world import CY, DEE, World, only

T = TypeVar("T")


class GatedPool(WorkerPool):
    """A one-process pool whose work finishes only when the test opens its gate (no processes started)."""

    def __init__(self) -> None:
        super().__init__("gated", 1)
        self.started: list[str] = []
        self.gates: dict[str, asyncio.Event] = {}

    async def _run(self, function: Callable[..., T], *args: Any, urgent: bool = False) -> T:
        name = args[0]
        self.started.append(name)
        gate = self.gates.setdefault(name, asyncio.Event())
        await gate.wait()
        return function(*args)


async def test_urgent_work_passes_the_ordinary_calls_waiting() -> None:
    pool = GatedPool()
    turns = [asyncio.ensure_future(pool.run(str.upper, f"turn{i}")) for i in range(5)]
    await asyncio.sleep(0)
    assert pool.started == ["turn0", "turn1"]  # one running, one handed ahead; the rest wait on the loop
    press = asyncio.ensure_future(pool.run(str.upper, "press", urgent=True))
    await asyncio.sleep(0)
    assert pool.started[-1] == "press"  # handed over at once, before turn2..turn4
    pool.gates["press"].set()
    assert await press == "PRESS"
    turns[2].cancel()  # a caller that gives up while waiting frees nothing it never held
    pool.gates["turn0"].set()
    await asyncio.sleep(0)
    await asyncio.sleep(0)
    assert pool.started == ["turn0", "turn1", "press", "turn3"]
    for name in ("turn1", "turn3", "turn4"):
        pool.gates.setdefault(name, asyncio.Event()).set()
    assert [await turns[i] for i in (0, 1, 3, 4)] == ["TURN0", "TURN1", "TURN3", "TURN4"]
    assert pool.handed == 0 and not pool._queued and pool.waiting == 0


async def test_a_step_press_is_drawn_urgently_and_its_neighbours_are_answered_from_the_cache(world: World) -> None:
    match_id = await finished_match(world, 920, "pond", 2, {"variant": "mini"}, seed=4)
    plies = len(await world.bot.store.matches.log(match_id))
    posted = only(await world.command(CY, 920, "history", "", match=match_id), "followup")
    world = await world.restart()  # a new process: the first press rebuilds the positions
    pool = world.bot.renderer.workers
    calls: list[tuple[str, bool]] = []
    real = pool.run

    async def recording(function: Callable[..., T], *args: Any, urgent: bool = False) -> T:
        calls.append((function.__name__, urgent))
        return await real(function, *args, urgent=urgent)

    pool.run = recording  # type: ignore[method-assign]
    back = only(await world.discord.press(DEE, 920, button(posted, "prev")), "edit")
    assert f"Move {plies - 1} of {plies}" in back.content
    # the positions and the pressed board in one urgent trip, then the boards the next presses may show
    assert calls[0] == (positions_and_board.__name__, True)
    assert all(urgent for _, urgent in calls)
    assert {name for name, _ in calls[1:]} == {draw_board.__name__}
    replays = world.bot.replays
    for _ in range(50):  # the boards drawn ahead are finished in the background
        if not replays._prefetching:
            break
        await asyncio.sleep(0.02)
    drawn = len(calls)
    assert drawn == 1 + 3  # ply-2, the start and the end (the final position: ply=plies)
    again = only(await world.discord.press(CY, 920, button(back, "prev")), "edit")
    assert f"Move {plies - 2} of {plies}" in again.content
    start = only(await world.discord.press(CY, 920, button(again, "first")), "edit")
    assert f"Start ({plies} plies)" in start.content
    assert calls[drawn] == (draw_board.__name__, True)  # only what those presses newly neighbour is drawn
    assert all(name == draw_board.__name__ for name, _ in calls[drawn:])
    for _ in range(50):
        if not world.bot.replays._prefetching:
            break
        await asyncio.sleep(0.02)
    assert len(calls) - drawn == 2  # ply-3, then ply 1: the pressed boards were drawn already
    await world.stop()


async def test_urgent_work_runs_in_a_process_of_its_own_and_stops_with_the_pool() -> None:
    pool = WorkerPool("test", 1)
    try:
        ordinary = await pool.run(os.getpid)
        urgent = await pool.run(os.getpid, urgent=True)
        assert len({ordinary, urgent, os.getpid()}) == 3  # neither waits in the other's queue
        assert sorted(pool.pids()) == sorted([ordinary, urgent])
        processes = pool.running_processes()
        assert sorted(process.pid for process in processes) == sorted([ordinary, urgent])
    finally:
        pool.stop()
    assert pool.pids() == [] and not any(process.is_alive() for process in processes)
