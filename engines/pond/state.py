"""Pond's state: the legal moves, notation, playing a move (develop, score), the end, leaving."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from engines.base import (
    FORFEIT,
    SAVE_FORMAT,
    IllegalMove,
    InvalidMoveText,
    Outcome,
    check_forfeit,
    draw_of_two,
    forfeit_of_two,
    keyword_replace,
    outcome_by_keys,
    win_for,
)
from engines.pond.board import (
    DEVELOP,
    EGG,
    EMPTY,
    FACE,
    GEOMETRY,
    OWNER,
    SEATS,
    Geometry,
    PondEvent,
    PondMove,
    Termination,
    piece_code,
)

_CELL = r"([a-z])\s*([0-9]{1,2})"  # ASCII digits only: \d would read "b٢" as b2
_PLACE_RE = re.compile(rf"^(?:place|p|egg)?\s*{_CELL}$")
_MOVE_RE = re.compile(rf"^(?:move|m)?\s*{_CELL}\s*(?:-|>|to|->|\s)?\s*{_CELL}$")


@dataclass(frozen=True, slots=True)
class PondState:
    """An immutable Pond position.  Build one with :func:`new` or :func:`from_json`."""

    variant: str
    size: int
    spawn_size: int
    target: int
    max_plies: int
    seed: int
    board: tuple[int, ...]
    spawn: tuple[int, int]
    scored: tuple[int, int]
    turn: int
    ply: int
    result: Outcome | None = None
    last: PondEvent | None = None
    _legal: tuple[PondMove, ...] | None = field(default=None, compare=False, repr=False)

    game = "pond"
    players = 2

    # -- reading the position -------------------------------------------------

    @property
    def last_event(self) -> PondEvent | None:
        """Return what the last ply did (``None`` before the first)."""
        return self.last

    @property
    def may_take_back(self) -> bool:
        """Whether the last ply may be taken back: any move while the game goes on (nothing here is random)."""
        return self.last is not None and self.result is None

    @property
    def geometry(self) -> Geometry:
        return GEOMETRY[self.size]

    @property
    def to_move(self) -> int | None:
        return None if self.result is not None else self.turn

    def cell_name(self, cell: int) -> str:
        return GEOMETRY[self.size].names[cell]

    def scores(self) -> tuple[int, ...]:
        return self.scored

    def outcome(self) -> Outcome | None:
        return self.result

    def options(self) -> dict[str, Any]:
        return {"variant": self.variant, "spawn": self.spawn_size, "target": self.target, "max_plies": self.max_plies}

    def can_act(self, player: int) -> bool:
        """Tell whether ``player`` would have a legal action on this board (the elimination rule)."""
        return bool(_moves_for(self.board, self.spawn, player, self.size))

    def legal_moves(self) -> tuple[PondMove, ...]:
        legal = self._legal
        if legal is None:
            legal = () if self.result is not None else _moves_for(self.board, self.spawn, self.turn, self.size)
            object.__setattr__(self, "_legal", legal)
        return legal

    # -- notation -------------------------------------------------------------

    def move_text(self, move: PondMove) -> str:
        names = GEOMETRY[self.size].names
        if move.frm < 0:
            return f"place {names[move.to]}"
        return f"move {names[move.frm]} {names[move.to]}"

    def parse_move(self, text: str) -> PondMove:
        if not isinstance(text, str):
            raise InvalidMoveText("A move must be text such as 'place b2' or 'move a3 c3'.")
        clean = " ".join(text.lower().split())
        if len(clean) > 40:
            raise InvalidMoveText("That move is too long; write it like 'place b2' or 'move a3 c3'.")
        match = _PLACE_RE.match(clean)
        if match:
            return PondMove(-1, self._cell(match.group(1), match.group(2)))
        match = _MOVE_RE.match(clean)
        if match:
            return PondMove(self._cell(match.group(1), match.group(2)), self._cell(match.group(3), match.group(4)))
        raise InvalidMoveText(
            "I can't read {text!r}; write a move like 'place b2' or 'move a3 c3'.", text=text.strip()[:40]
        )

    def parse_cell(self, text: str) -> int:
        """Return the cell index named by ``text`` (e.g. ``"B2"``); raise :class:`GameError`."""
        match = re.fullmatch(_CELL, " ".join(str(text).lower().split()))
        if not match:
            raise InvalidMoveText("{text!r} is not a cell; cells look like 'b2'.", text=str(text).strip()[:20])
        return self._cell(match.group(1), match.group(2))

    def _cell(self, letter: str, number: str) -> int:
        name = f"{letter}{int(number)}"
        cell = GEOMETRY[self.size].index.get(name)
        if cell is None:
            last = GEOMETRY[self.size].names[-1]
            raise InvalidMoveText(
                "{cell} is not on this {size}x{size} board (a1 to {last}).", cell=name, size=self.size, last=last
            )
        return cell

    # -- playing --------------------------------------------------------------

    def play(self, move: PondMove | str) -> PondState:
        if isinstance(move, str):
            move = self.parse_move(move)
        elif not isinstance(move, PondMove):
            raise InvalidMoveText("That is not a Pond move.")
        self._check(move)
        geo = GEOMETRY[self.size]
        player = self.turn
        board = list(self.board)
        spawn = list(self.spawn)
        to = move.to
        if move.frm < 0:
            board[to] = EGG[player]
            spawn[player] -= 1
        else:
            board[to] = board[move.frm]
            board[move.frm] = EMPTY

        developed = []
        for cell in geo.orth[to]:
            value = board[cell]
            if value:
                board[cell] = DEVELOP[value]
                developed.append(cell)

        # Sets can only form in windows through a cell that changed this ply.
        in_set: set[int] = set()
        for cell in (to, *developed):
            for a, b, c in geo.windows_by_cell[cell]:
                fa = FACE[board[a]]
                if fa >= 0 and fa == FACE[board[b]] == FACE[board[c]]:
                    in_set.update((a, b, c))
        scored = list(self.scored)
        gains = [0, 0]
        removed: tuple[tuple[int, int], ...] = ()
        if in_set:
            removed = tuple((cell, board[cell]) for cell in sorted(in_set))
            for cell, value in removed:
                gains[OWNER[value]] += 1
                board[cell] = EMPTY
            scored[0] += gains[0]
            scored[1] += gains[1]

        event = PondEvent(
            player,
            move,
            EGG[player] if move.frm < 0 else self.board[move.frm],
            tuple(developed),
            removed,
            (gains[0], gains[1]),
        )
        board_t = tuple(board)
        spawn_t = (spawn[0], spawn[1])
        scored_t = (scored[0], scored[1])
        ply = self.ply + 1
        nxt = 1 - player
        result: Outcome | None = None
        legal: tuple[PondMove, ...] = ()
        if scored_t[0] >= self.target or scored_t[1] >= self.target:
            result = outcome_by_keys(scored_t, scored_t, Termination.TARGET)
        elif ply >= self.max_plies:
            result = draw_of_two(scored_t, Termination.MOVE_LIMIT)
        else:
            legal = _moves_for(board_t, spawn_t, nxt, self.size)
            if not legal:
                result = win_for(player, scored_t, Termination.ELIMINATION)
        return _replace(
            self,
            board=board_t,
            spawn=spawn_t,
            scored=scored_t,
            turn=nxt,
            ply=ply,
            result=result,
            last=event,
            _legal=legal,
        )

    def _check(self, move: PondMove) -> None:
        if self.result is not None:
            raise IllegalMove("The game is over.")
        geo = GEOMETRY[self.size]
        cells = geo.cells
        if not (-1 <= move.frm < cells and 0 <= move.to < cells):
            raise IllegalMove("That move leaves the board.")
        names = geo.names
        player = self.turn
        if self.board[move.to] != EMPTY:
            raise IllegalMove("{cell} is occupied.", cell=names[move.to])
        if move.frm < 0:
            if self.spawn[player] == 0:
                raise IllegalMove("You have no eggs left in your spawn.")
            return
        piece = self.board[move.frm]
        if piece == EMPTY:
            raise IllegalMove("There is no piece on {cell}.", cell=names[move.frm])
        if OWNER[piece] != player:
            raise IllegalMove(
                "The piece on {cell} is {side}'s; you move only your own.",
                cell=names[move.frm],
                side=SEATS[OWNER[piece]],
            )
        face = FACE[piece]
        if face == 0:
            raise IllegalMove("The piece on {cell} is an egg, and eggs never move.", cell=names[move.frm])
        if face == 1 and move.to not in geo.orth[move.frm]:
            raise IllegalMove("A tadpole moves one cell up, down, left or right.")
        if face == 2 and move.to not in geo.frog[move.frm]:
            raise IllegalMove("A frog moves one or two cells in a straight line up, down, left or right.")

    def forfeit(self, player: int, how: str = FORFEIT) -> PondState:
        """Return the state after ``player`` resigns (``forfeit``) or loses on time (``timeout``): the other wins.

        ``agreed`` ends the game as a draw by agreement instead.
        """
        check_forfeit(self.result, player, 2)
        return _replace(self, result=forfeit_of_two(player, self.scored, how, Termination), _legal=())

    # -- text -----------------------------------------------------------------

    def board_text(self) -> str:
        files = "abcde"[: self.size]
        lines = ["   " + "  ".join(files)]
        for r in range(self.size - 1, -1, -1):
            row = " ".join(piece_code(self.board[r * self.size + f]) for f in range(self.size))
            lines.append(f"{r + 1} {row}")
        spawn, scored = self.spawn, self.scored
        lines.append(f"spawn: light {spawn[0]}, dark {spawn[1]}")
        lines.append(f"scored: light {scored[0]}, dark {scored[1]} (target {self.target})")
        return "\n".join(lines)

    def to_json(self) -> dict[str, Any]:
        size = self.size
        return {
            "game": "pond",
            "format": SAVE_FORMAT,
            "seed": self.seed,
            "options": self.options(),
            "board": [[piece_code(self.board[r * size + f]) for f in range(size)] for r in range(size)],
            "spawn": list(self.spawn),
            "scored": list(self.scored),
            "turn": self.turn,
            "ply": self.ply,
            "result": None if self.result is None else self.result.to_json(),
            "last": None if self.last is None else self.last.to_json(),
        }


def _moves_for(board: tuple[int, ...], spawn: tuple[int, int], player: int, size: int) -> tuple[PondMove, ...]:
    """Every legal action of ``player``, in sorted order (placements first, then by cell)."""
    geo = GEOMETRY[size]
    moves: list[PondMove] = []
    if spawn[player]:
        moves = [PondMove(-1, cell) for cell, value in enumerate(board) if value == EMPTY]
    tadpole = 2 + 3 * player
    frog = tadpole + 1
    for cell, value in enumerate(board):
        if value == tadpole:
            moves.extend(PondMove(cell, to) for to in geo.orth[cell] if board[to] == EMPTY)
        elif value == frog:
            moves.extend(PondMove(cell, to) for to in geo.frog[cell] if board[to] == EMPTY)
    return tuple(moves)


_replace = keyword_replace(PondState)
