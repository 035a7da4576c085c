"""Starting a game of Pond and reading a saved one, rejecting anything impossible."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engines.base import (
    InvalidState,
    Outcome,
    check_players,
    check_seed,
    int_list,
    load_saved,
    resolve_options,
    saved_options,
)
from engines.pond.board import (
    EMPTY,
    FACE,
    GEOMETRY,
    OPTIONS,
    OWNER,
    SEATS,
    VARIANTS,
    Geometry,
    PondEvent,
    PondMove,
    Termination,
    _legacy_termination,
    piece_from_code,
)
from engines.pond.state import PondState, _replace


def new(players: int = 2, seed: int = 0, **options: Any) -> PondState:
    """Start a game of Pond; options: ``variant``, ``spawn``, ``target``, ``max_plies``."""
    check_players(players, 2, 2)
    check_seed(seed)
    opts = resolve_options(OPTIONS, options)
    size, spawn, target = VARIANTS[opts["variant"]]
    spawn = opts["spawn"] if opts["spawn"] is not None else spawn
    target = opts["target"] if opts["target"] is not None else target
    return PondState(
        variant=opts["variant"],
        size=size,
        spawn_size=spawn,
        target=target,
        max_plies=opts["max_plies"],
        seed=seed,
        board=(EMPTY,) * (size * size),
        spawn=(spawn, spawn),
        scored=(0, 0),
        turn=0,
        ply=0,
    )


def from_json(data: Mapping[str, Any]) -> PondState:
    """Rebuild a state saved by :meth:`PondState.to_json`, rejecting anything impossible."""
    return load_saved("Pond", _from_json, data)


def _from_json(data: Mapping[str, Any]) -> PondState:
    options = saved_options(data, "pond", "Pond")
    state = new(2, data["seed"], **options)
    size = state.size
    rows = data["board"]
    if not isinstance(rows, list) or len(rows) != size or any(not isinstance(r, list) or len(r) != size for r in rows):
        raise InvalidState("The saved board is not {size}x{size}.", size=size)
    board = tuple(
        piece_from_code(code) if isinstance(code, str) else piece_from_code("?") for row in rows for code in row
    )
    spawn = int_list(data["spawn"], "spawn")
    scored = int_list(data["scored"], "scores")
    turn, ply = data["turn"], data["ply"]
    if len(spawn) != 2 or len(scored) != 2 or type(turn) is not int or type(ply) is not int:
        raise InvalidState("The saved spawn, scores or turn are malformed.")
    for player in (0, 1):
        on_board = sum(1 for v in board if v and OWNER[v] == player)
        if spawn[player] < 0 or scored[player] < 0 or spawn[player] + on_board + scored[player] != state.spawn_size:
            raise InvalidState(
                "{side}'s pieces do not add up to {n}.", side=SEATS[player].capitalize(), n=state.spawn_size
            )
    geo = GEOMETRY[size]
    for a, b, c in geo.windows:
        if board[a] and FACE[board[a]] == FACE[board[b]] == FACE[board[c]]:
            raise InvalidState("The saved board holds a set that should have scored.")
    if not 0 <= ply <= state.max_plies or turn != ply % 2:
        raise InvalidState("The saved turn and ply count disagree.")
    legacy = _legacy_termination if data["format"] == 1 else None
    result = None if data["result"] is None else Outcome.from_json(data["result"], 2, Termination, legacy)
    last = None if data["last"] is None else _event_from_json(data["last"], geo)
    if last is not None and ply == 0:
        raise InvalidState("The saved last move does not match the ply count.")
    state = _replace(
        state,
        board=board,
        spawn=(spawn[0], spawn[1]),
        scored=(scored[0], scored[1]),
        turn=turn,
        ply=ply,
        result=result,
        last=last,
    )
    if result is None:
        over = max(scored) >= state.target or ply >= state.max_plies or not state.legal_moves()
        if over:
            raise InvalidState("The saved game should already be over.")
    elif result.scores != state.scored:
        raise InvalidState("The saved result does not match the scores.")
    return state


def _event_from_json(data: Any, geo: Geometry) -> PondEvent:
    if not isinstance(data, Mapping):
        raise InvalidState("The saved last move is not an object.")
    move = int_list(data["move"], "last move")
    developed = int_list(data["developed"], "developed cells")
    gains = int_list(data["gains"], "gains")
    scored = data["scored"]
    player = data["player"]
    actor = data["actor"]
    if not isinstance(scored, list) or any(not isinstance(p, list) or len(p) != 2 for p in scored):
        raise InvalidState("The saved scored cells are malformed.")
    pairs = tuple((int_list(p, "scored cell")[0], p[1]) for p in scored)
    cells = geo.cells
    ok = (
        player in (0, 1)
        and type(actor) is int
        and 1 <= actor <= 6
        and OWNER[actor] == player
        and len(move) == 2
        and -1 <= move[0] < cells
        and 0 <= move[1] < cells
        and all(0 <= c < cells for c in developed)
        and all(0 <= c < cells and 1 <= v <= 6 for c, v in pairs)
        and len(gains) == 2
        and all(g >= 0 for g in gains)
    )
    if not ok:
        raise InvalidState("The saved last move is impossible.")
    return PondEvent(player, PondMove(move[0], move[1]), actor, tuple(developed), pairs, (gains[0], gains[1]))
