"""Starting a game of Querni and reading a saved one, rejecting anything impossible."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from itertools import pairwise
from typing import Any

from engines.base import (
    InvalidOption,
    InvalidState,
    Outcome,
    check_players,
    check_seed,
    int_list,
    load_saved,
    resolve_options,
    saved_options,
)
from engines.querni.board import (
    CELLS,
    COLOUR,
    EMPTY,
    HEIGHT,
    INDEX,
    JUMPS,
    MIN_CHAIN,
    NAMES,
    NEAR_SET,
    OPTIONS,
    PIECES,
    SEATS,
    START_SQUARES,
    WIDTH,
    QuerniEvent,
    QuerniMove,
    Termination,
    _legacy_termination,
    _parse_piece,
    piece_code,
    piece_value,
)
from engines.querni.generate import _stranding
from engines.querni.state import QuerniState, _replace
from engines.rng import Rng

# -- starting and restoring -----------------------------------------------------

_LAYOUT_ITEM_RE = re.compile(r"([a-z])\s*(\d{1,2})\s*[:=]\s*([a-z]+\s*\d{1,2})")


def _layout_items(layout: Any) -> Iterable[tuple[Any, Any]]:
    """Return a layout's ``(square, piece)`` pairs, from a mapping or from text like ``d2=B4, e3=R5``."""
    if isinstance(layout, Mapping):
        return layout.items()
    if isinstance(layout, str):
        text = " ".join(layout.lower().split())
        items = [(f + r, piece) for f, r, piece in _LAYOUT_ITEM_RE.findall(text)]
        if _LAYOUT_ITEM_RE.sub("", text).strip(" ,;{}") or not items:
            raise InvalidOption("Write a layout like 'd2=B4, e3=R5'.")
        return items
    raise InvalidOption("The layout must map squares to pieces, like {{'d2': 'B4', 'e3': 'R5'}}.")


def normalise_layout(layout: Any) -> tuple[tuple[str, str], ...]:
    """Check a layout (a mapping or text like ``d2=B4 e3=R5``) and return it as sorted ``(square, piece)`` pairs."""
    placed: dict[int, int] = {}
    seen: set[int] = set()
    for square, piece in _layout_items(layout):
        if not isinstance(square, str) or INDEX.get(" ".join(square.lower().split()).replace(" ", "")) is None:
            raise InvalidOption("{text!r} is not a square of the board (a1 to j7).", text=str(square)[:20])
        cell = INDEX[square.lower().replace(" ", "")]
        value = _parse_piece(piece, InvalidOption)
        if cell in placed:
            raise InvalidOption("The layout names {cell} twice.", cell=NAMES[cell])
        if value in seen:
            raise InvalidOption("The layout places {piece} twice.", piece=piece_code(value))
        placed[cell] = value
        seen.add(value)
    for colour in (0, 1):
        if not any(COLOUR[v] == colour for v in seen):
            raise InvalidOption("The layout must give {side} at least one piece.", side=SEATS[colour])
    return tuple((NAMES[cell], piece_code(placed[cell])) for cell in sorted(placed))


def start_board(seed: int) -> tuple[int, ...]:
    """Return the fixed start squares numbered from ``seed``: one shuffle for blue, then one for red."""
    rng = Rng(seed)
    board = [EMPTY] * CELLS
    for colour in (0, 1):
        numbers = rng.shuffled(tuple(range(1, PIECES + 1)))
        for cell, number in zip(START_SQUARES[colour], numbers, strict=True):
            board[cell] = piece_value(colour, number)
    return tuple(board)


def new(players: int = 2, seed: int = 0, **options: Any) -> QuerniState:
    """Start a game of Querni; options: ``layout``, ``isolation``, ``draw_plies``, ``draw_count``."""
    check_players(players, 2, 2)
    check_seed(seed)
    opts = resolve_options(OPTIONS, options)
    layout = None if opts["layout"] is None else normalise_layout(opts["layout"])
    if layout is None:
        board = start_board(seed)
    else:
        cells = [EMPTY] * CELLS
        for name, code in layout:
            cells[INDEX[name]] = _parse_piece(code, InvalidOption)
        board = tuple(cells)
    on_board = [0, 0]
    for value in board:
        if value:
            on_board[COLOUR[value]] += 1
    removed = (PIECES - on_board[0], PIECES - on_board[1])
    return QuerniState(
        seed=seed,
        layout=layout,
        isolation=opts["isolation"],
        draw_plies=opts["draw_plies"],
        draw_count=opts["draw_count"],
        board=board,
        removed=removed,
        counter=0,
        turn=0,
        ply=0,
    )


def from_json(data: Mapping[str, Any]) -> QuerniState:
    """Rebuild a state saved by :meth:`QuerniState.to_json`, rejecting anything impossible."""
    return load_saved("Querni", _from_json, data)


def _from_json(data: Mapping[str, Any]) -> QuerniState:
    """Rebuild a state, raising :class:`GameError` (or a lookup error) on anything wrong."""
    options = saved_options(data, "querni", "Querni")
    start = new(2, data["seed"], **options)
    rows = data["board"]
    if (
        not isinstance(rows, list)
        or len(rows) != HEIGHT
        or any(not isinstance(r, list) or len(r) != WIDTH for r in rows)
    ):
        raise InvalidState("The saved board is not {width}x{height}.", width=WIDTH, height=HEIGHT)
    board = tuple(EMPTY if code == ".." else _parse_piece(code, InvalidState) for row in rows for code in row)
    if any(piece_code(v) != code for v, code in zip(board, (c for row in rows for c in row), strict=True)):
        raise InvalidState("The saved board has a piece written in a non-canonical way.")
    values = [v for v in board if v]
    if len(set(values)) != len(values):
        raise InvalidState("The saved board holds the same piece twice.")
    removed_list = int_list(data["removed"], "removed counts")
    counter, turn, ply = data["counter"], data["turn"], data["ply"]
    if len(removed_list) != 2 or any(type(x) is not int for x in (counter, turn, ply)):
        raise InvalidState("The saved counts, turn or ply are malformed.")
    removed = (removed_list[0], removed_list[1])
    for colour in (0, 1):
        if removed[colour] != PIECES - sum(1 for v in values if COLOUR[v] == colour):
            raise InvalidState("{side}'s pieces do not add up to {n}.", side=SEATS[colour].capitalize(), n=PIECES)
    if not set(values) <= {v for v in start.board if v}:
        raise InvalidState("The saved board holds a piece the game never had.")
    if ply < 0 or turn != ply % 2:
        raise InvalidState("The saved turn and ply count disagree.")
    if ply == 0 and board != start.board:
        raise InvalidState("The saved board is not this game's start.")
    if not 0 <= counter <= min(ply, start.draw_limit):
        raise InvalidState("The saved draw counter is out of range.")
    legacy = _legacy_termination if data["format"] == 1 else None
    result = None if data["result"] is None else Outcome.from_json(data["result"], 2, Termination, legacy)
    last = None if data["last"] is None else _check_event(_event_from_json(data["last"]), board)
    if (last is None) != (ply == 0):
        raise InvalidState("The saved last move does not match the ply count.")
    if last is not None and (last.player != 1 - turn or last.counter != counter):
        raise InvalidState("The saved last move does not match the turn or the draw counter.")
    state = _replace(start, board=board, removed=removed, counter=counter, turn=turn, ply=ply, result=result, last=last)
    if result is None:
        over = counter >= state.draw_limit or PIECES in removed
        if last is not None and last.removed:
            over = over or _stranding(state.where(), last.player * PIECES, state.isolation) is not None
        if over:
            raise InvalidState("The saved game should already be over.")
    elif result.scores != removed or len(result.places) != 2:
        raise InvalidState("The saved result does not match the removed pieces.")
    return state


def _event_from_json(data: Any) -> QuerniEvent:
    """Rebuild a saved event, checking its shape and ranges (the board is checked by :func:`_check_event`)."""
    if not isinstance(data, Mapping):
        raise InvalidState("The saved last move is not an object.")
    player, piece, counter = data["player"], data["piece"], data["counter"]
    move = int_list(data["move"], "last move")
    path = int_list(data["path"], "path")
    pairs = data["removed"]
    if not isinstance(pairs, list) or any(not isinstance(p, list) or len(p) != 2 for p in pairs):
        raise InvalidState("The saved removed chain is malformed.")
    removed = tuple((p[0], p[1]) for p in (int_list(p, "removed piece") for p in pairs))
    if player not in (0, 1) or type(piece) is not int or type(counter) is not int or len(move) != 4:
        raise InvalidState("The saved last move is impossible.")
    frm, to, lo, hi = move
    return QuerniEvent(player, QuerniMove(frm, to, lo, hi), piece, tuple(path), removed, counter)


def _check_event(event: QuerniEvent, board: tuple[int, ...]) -> QuerniEvent:
    """Check the last ply's event against the board it produced; return it."""
    bad = InvalidState("The saved last move is impossible.")
    player, piece, counter, path, removed = event.player, event.piece, event.counter, event.path, event.removed
    frm, to, lo, hi = event.move
    if frm >= 0:
        if not (frm < CELLS and 0 <= to < CELLS and 1 <= piece <= PIECES and len(path) >= 2):
            raise bad
        if path[0] != frm or path[-1] != to or any(not 0 <= c < CELLS for c in path) or len(set(path)) != len(path):
            raise bad
        for a, b in pairwise(path):
            if b not in NEAR_SET[a] and all(land != b for _, land in JUMPS[a]):
                raise bad
        moved_still_there = all(n != piece for n, _ in removed)
        if moved_still_there and board[to] != piece_value(player, piece):
            raise bad
        if board[frm] != EMPTY:
            raise bad
    elif frm != -1 or to != -1 or piece != 0 or path:
        raise bad
    if lo >= 0:
        numbers = [n for n, _ in removed]
        if hi - lo < MIN_CHAIN - 1 or not 1 <= lo <= hi <= PIECES or numbers != list(range(lo, hi + 1)):
            raise bad
        if any(not 0 <= c < CELLS or board[c] != EMPTY for _, c in removed) or counter != 0:
            raise bad
        if any(piece_value(player, n) in board for n in numbers):
            raise bad
    elif lo != -1 or hi != -1 or removed or counter < 1:
        raise bad
    return event
