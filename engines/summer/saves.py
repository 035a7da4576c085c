"""Starting a game of Summer (terrain, weights) and reading a saved one, rejecting anything impossible."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engines.base import (
    InvalidOption,
    InvalidState,
    Outcome,
    check_players,
    check_seed,
    load_saved,
    resolve_options,
    saved_options,
)
from engines.rng import Rng
from engines.summer.board import (
    OPTIONS,
    PLIES_PER_CELL,
    SummerEvent,
    Termination,
    _legacy_termination,
    piece_from_code,
    resolve,
)
from engines.summer.state import SummerState, _replace

# -- setup ---------------------------------------------------------------------


def _weights_option(value: Any, name: str, size: int) -> tuple[int, ...]:
    """Check an explicit list of starting weights (a list of ints or a text like ``"3 1 4"``)."""
    if isinstance(value, str):
        parts = value.replace(",", " ").split()
        if not all(p.isdigit() for p in parts):
            raise InvalidOption("{name} must be whole numbers, such as '3 1 4'.", name=name)
        value = [int(p) for p in parts]
    if not isinstance(value, Sequence) or any(type(v) is not int for v in value):
        raise InvalidOption("{name} must be a list of whole numbers.", name=name)
    if len(value) != size or any(not 1 <= v <= size for v in value):
        raise InvalidOption(
            "{name} must give {size} weights, one per file, each from 1 to {size}.", name=name, size=size
        )
    return tuple(value)


def _terrain_option(value: Any, size: int) -> tuple[int, ...]:
    """Check an explicit terrain: one string per rank, rank 1 first, ``.`` on the start rows."""
    if isinstance(value, str):
        value = value.replace("/", " ").split()
    if not isinstance(value, Sequence) or any(not isinstance(row, str) for row in value):
        raise InvalidOption("terrain must be one string of +, - and . per rank.")
    rows = [row.replace(" ", "") for row in value]
    if len(rows) != size or any(len(row) != size for row in rows):
        raise InvalidOption("terrain must have {size} ranks of {size} cells each.", size=size)
    cells: list[int] = []
    for rank, row in enumerate(rows):
        if rank in (0, size - 1):
            if row != "." * size:
                raise InvalidOption("terrain rank {rank} is a start row and must be all '.'.", rank=rank + 1)
        elif any(mark not in "+-" for mark in row):
            raise InvalidOption("terrain rank {rank} may hold only '+' and '-'.", rank=rank + 1)
        cells.extend(1 if mark == "+" else -1 if mark == "-" else 0 for mark in row)
    return tuple(cells)


def _mirror(cell: int, size: int, hexagonal: bool) -> int:
    """Return the cell whose terrain ``cell`` copies so that both sides face the same terrain."""
    rank, file = divmod(cell, size)
    if hexagonal and size % 2 == 0:
        # Ranks r and N-1-r differ in parity, so only the point reflection maps the hex grid onto itself.
        return (size - 1 - rank) * size + (size - 1 - file)
    return (size - 1 - rank) * size + file


def _seeded_terrain(rng: Rng, size: int, hexagonal: bool) -> tuple[int, ...]:
    """Draw each cell plus or minus with probability ½ in cell order, copying mirrored cells."""
    terrain = [0] * (size * size)
    for cell in range(size, size * size - size):
        twin = _mirror(cell, size, hexagonal)
        terrain[cell] = terrain[twin] if twin < cell else (1 if rng.below(2) else -1)
    return tuple(terrain)


def new(players: int = 2, seed: int = 0, **options: Any) -> SummerState:
    """Start a game of Summer; options: ``size``, ``board``, ``mode``, ``max_plies``, ``weights``,
    ``black_weights``, ``terrain``.

    From the seed, in this order: White's weights (N draws from 1 to N, file
    order), Black's as a shuffle of White's, then the terrain.  Everything is
    drawn even when some of it is given, so that a seed's terrain does not
    depend on whether the weights were given; nothing is drawn when all is given.
    """
    check_players(players, 2, 2)
    check_seed(seed)
    opts = resolve_options(OPTIONS, options)
    size: int = opts["size"]
    hexagonal = opts["board"] == "hex"
    max_plies = opts["max_plies"] if opts["max_plies"] is not None else PLIES_PER_CELL * size * size
    weights = None if opts["weights"] is None else _weights_option(opts["weights"], "weights", size)
    black = None if opts["black_weights"] is None else _weights_option(opts["black_weights"], "black_weights", size)
    terrain = None if opts["terrain"] is None else _terrain_option(opts["terrain"], size)
    if black is not None and weights is None:
        raise InvalidOption("Give White's weights too when you give black_weights.")
    if black is not None and weights is not None and sorted(black) != sorted(weights):
        raise InvalidOption("black_weights must be a permutation of White's weights.")
    if weights is None or black is None or terrain is None:
        rng = Rng(seed)
        drawn = tuple(rng.between(1, size) for _ in range(size))
        weights = weights or drawn
        shuffled = tuple(rng.shuffled(weights))
        black = black or shuffled
        terrain = terrain or _seeded_terrain(rng, size, hexagonal)
    cells = size * size
    board = weights + (0,) * (cells - 2 * size) + tuple(-w for w in black)
    return SummerState(
        size=size,
        shape=opts["board"],
        mode=opts["mode"],
        max_plies=max_plies,
        seed=seed,
        weights=weights,
        black_weights=black,
        terrain=terrain,
        board=board,
        turn=0,
        ply=0,
    )


def from_json(data: Mapping[str, Any]) -> SummerState:
    """Rebuild a state saved by :meth:`SummerState.to_json`, rejecting anything impossible."""
    return load_saved("Summer", _from_json, data)


def _from_json(data: Mapping[str, Any]) -> SummerState:
    options = saved_options(data, "summer", "Summer")
    start = new(2, data["seed"], **options)
    size = start.size
    rows = data["board"]
    if not isinstance(rows, list) or len(rows) != size or any(not isinstance(r, list) or len(r) != size for r in rows):
        raise InvalidState("The saved board is not {size}x{size}.", size=size)
    board = tuple(piece_from_code(code) for row in rows for code in row)
    turn, ply = data["turn"], data["ply"]
    if type(turn) is not int or type(ply) is not int or not 0 <= ply <= start.max_plies or turn != ply % 2:
        raise InvalidState("The saved turn and ply count disagree.")
    if sum(1 for v in board if v > 0) > size or sum(1 for v in board if v < 0) > size:
        raise InvalidState("A side has more than {size} pieces.", size=size)
    # Merges and collisions never add weight; only a plus cell (or a field win's +1) adds 1 per ply.
    if sum(abs(v) for v in board) > sum(start.weights) + sum(start.black_weights) + ply:
        raise InvalidState("The saved pieces weigh more than this game could have produced.")
    if ply == 0 and board != start.board:
        raise InvalidState("The saved board is not this game's starting position.")
    legacy = _legacy_termination if data["format"] == 1 else None
    result = None if data["result"] is None else Outcome.from_json(data["result"], 2, Termination, legacy)
    last = None if data["last"] is None else _event_from_json(data["last"], start, board, data["format"])
    if (last is None) != (ply == 0) or (last is not None and last.player != 1 - turn):
        raise InvalidState("The saved last move does not match the ply count.")
    state = _replace(start, board=board, turn=turn, ply=ply, result=result, last=last)
    if result is None:
        if state.black_arrived or (turn == 0 and state.white_arrived) or ply >= state.max_plies:
            raise InvalidState("The saved game should already be over.")
    elif result.scores != state.scores():
        raise InvalidState("The saved result does not match the goal rows.")
    return state


def _event_from_json(data: Any, start: SummerState, board: tuple[int, ...], version: int) -> SummerEvent:
    """Rebuild the last ply's event and check that it is the ply that led to ``board``."""
    if not isinstance(data, Mapping):
        raise InvalidState("The saved last move is not an object.")
    if version == 1:
        # Format 1 wrote the move as text and the pieces as codes.
        if not isinstance(data["move"], str):
            raise InvalidState("The saved last move is impossible.")
        parsed = start.parse_move(data["move"])
        data = {
            **data,
            "move": list(parsed),
            "resident": piece_from_code(data["resident"]),
            "result": piece_from_code(data["result"]),
        }
    event = SummerEvent.from_json(data)
    player, move, weight, resident = event.player, event.move, event.weight, event.resident
    action, modifier, result, zeroed = event.action, event.modifier, event.result, event.zeroed
    cells = start.size * start.size
    ok = (
        player in (0, 1)
        and weight >= 1
        and 0 <= move.frm < cells
        and 0 <= move.to < cells
        and move.to in start.geometry.targets[player][move.frm]
        and board[move.frm] == 0
        and board[move.to] == result
        and resolve(player, weight, resident, start.terrain[move.to], start.mode == "field")
        == (action, modifier, result, zeroed)
    )
    if not ok:
        raise InvalidState("The saved last move is impossible.")
    return SummerEvent(player, move, weight, resident, action, modifier, result, zeroed)
