"""Summer's state: the legal moves, notation, playing a move, the end, leaving."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from itertools import chain, compress
from typing import Any

from engines.base import (
    FORFEIT,
    SAVE_FORMAT,
    IllegalMove,
    InvalidMoveText,
    Outcome,
    check_forfeit,
    forfeit_of_two,
    keyword_replace,
    outcome_by_keys,
)
from engines.summer.board import (
    FILES,
    SEATS,
    Geometry,
    SummerEvent,
    SummerMove,
    Termination,
    geometry,
    owner_of,
    piece_code,
    resolve,
)

_CELL = r"([a-z])\s*([0-9]{1,2})"  # ASCII digits only: \d would read "b٢" as b2
_MOVE_RE = re.compile(rf"^{_CELL}\s*(?:->|-|–|—|>|→|to|x|:)?\s*{_CELL}$")
_POSITIVE = (0).__lt__  # value > 0: a White piece
_NEGATIVE = (0).__gt__  # value < 0: a Black piece


@dataclass(frozen=True, slots=True)
class SummerState:
    """An immutable Summer position.  Build one with :func:`new` or :func:`from_json`.

    ``board`` holds one signed int per cell (cell = rank * size + file, rank 1
    first): a White piece of weight w is ``w``, a Black one ``-w``, empty ``0``.
    ``terrain`` holds each cell's modifier: +1 plus, -1 minus, 0 on a start row.
    """

    size: int
    shape: str
    mode: str
    max_plies: int
    seed: int
    weights: tuple[int, ...]
    black_weights: tuple[int, ...]
    terrain: tuple[int, ...]
    board: tuple[int, ...]
    turn: int
    ply: int
    result: Outcome | None = None
    last: SummerEvent | None = None
    _legal: tuple[SummerMove, ...] | None = field(default=None, compare=False, repr=False)

    game = "summer"
    players = 2

    # -- reading the position -------------------------------------------------

    @property
    def geometry(self) -> Geometry:
        """Return the board's names and move targets."""
        return geometry(self.size, self.shape == "hex")

    @property
    def to_move(self) -> int | None:
        return None if self.result is not None else self.turn

    @property
    def last_event(self) -> SummerEvent | None:
        """Return what the last ply did (``None`` before the first)."""
        return self.last

    @property
    def may_take_back(self) -> bool:
        """Whether the last ply may be taken back: any move while the game goes on (nothing here is random)."""
        return self.last is not None and self.result is None

    @property
    def white_arrived(self) -> bool:
        """Tell whether every White piece stands on rank N (true when White has none)."""
        size = self.size
        return max(self.board[: size * size - size]) <= 0

    @property
    def black_arrived(self) -> bool:
        """Tell whether every Black piece stands on rank 1 (true when Black has none)."""
        return min(self.board[self.size :]) >= 0

    @property
    def black_last_move(self) -> bool:
        """Tell whether Black is about to play its one last ply (all White pieces have arrived)."""
        return self.result is None and self.turn == 1 and self.white_arrived

    def cell_name(self, cell: int) -> str:
        """Return the name of ``cell``, e.g. ``c2``."""
        return self.geometry.names[cell]

    def rank_file(self, cell: int) -> tuple[int, int]:
        """Return ``(rank, file)`` of ``cell``, both counted from 0 (rank 0 is White's start row)."""
        rank, file = divmod(cell, self.size)
        return rank, file

    def pieces_left(self, player: int) -> int:
        """Return how many pieces ``player`` (0 White, 1 Black) still has on the board."""
        return sum(map(_POSITIVE if player == 0 else _NEGATIVE, self.board))

    def pieces_home(self, player: int) -> int:
        """Return how many of ``player``'s pieces stand on its goal row (the opponent's start row)."""
        size = self.size
        row = self.board[size * size - size :] if player == 0 else self.board[:size]
        return sum(map(_POSITIVE if player == 0 else _NEGATIVE, row))

    def goal_distance(self, cell: int, player: int) -> int:
        """Return how many ranks a piece of ``player`` on ``cell`` still has to cross to reach its goal row."""
        rank, _ = self.rank_file(cell)
        return self.size - 1 - rank if player == 0 else rank

    @property
    def pieces(self) -> tuple[tuple[int, int] | None, ...]:
        """Return ``(colour, weight)`` or ``None`` for every cell, in cell order (for the renderer)."""
        return tuple(None if v == 0 else (0, v) if v > 0 else (1, -v) for v in self.board)

    def board_before(self) -> tuple[int, ...]:
        """Return the board as it was before the last ply (the event says what stood on both cells)."""
        event = self.last
        if event is None:
            return self.board
        before = list(self.board)
        before[event.move.frm] = event.weight if event.player == 0 else -event.weight
        before[event.move.to] = event.resident
        return tuple(before)

    def goal_gains(self) -> tuple[int, int]:
        """Return how much the last ply changed each side's goal-row total (the score)."""
        then = _goal_totals(self.board_before(), self.size)
        now = _goal_totals(self.board, self.size)
        return (now[0] - then[0], now[1] - then[1])

    def goal_totals(self) -> tuple[int, int]:
        """Return White's weight on rank N and Black's on rank 1 (the scores so far)."""
        return _goal_totals(self.board, self.size)

    def piece_at(self, cell: int) -> tuple[int, int] | None:
        """Return ``(colour, weight)`` of the piece on ``cell`` (colour 0 White, 1 Black), or ``None``."""
        value = self.board[cell]
        if value == 0:
            return None
        return (0, value) if value > 0 else (1, -value)

    def terrain_at(self, cell: int) -> int:
        """Return the cell's modifier: +1 plus, -1 minus, 0 on a start row."""
        return self.terrain[cell]

    def scores(self) -> tuple[int, ...]:
        """Return each side's weight on its goal row (the opponent's start row)."""
        return _goal_totals(self.board, self.size)

    def outcome(self) -> Outcome | None:
        return self.result

    def options(self) -> dict[str, Any]:
        """Return every option of this game, resolved, as :func:`new` accepts them."""
        return {
            "size": self.size,
            "board": self.shape,
            "mode": self.mode,
            "max_plies": self.max_plies,
            "weights": list(self.weights),
            "black_weights": list(self.black_weights),
            "terrain": _terrain_rows(self.terrain, self.size),
        }

    def legal_moves(self) -> tuple[SummerMove, ...]:
        legal = self._legal
        if legal is None:
            if self.result is not None:
                legal = ()
            else:
                # Cells ascend and each cell's moves are sorted, so the concatenation is sorted.
                table = self.geometry.moves[self.turn]
                own = _POSITIVE if self.turn == 0 else _NEGATIVE
                legal = tuple(chain.from_iterable(compress(table, map(own, self.board))))
            object.__setattr__(self, "_legal", legal)
        return legal

    # -- notation -------------------------------------------------------------

    def move_text(self, move: SummerMove) -> str:
        names = self.geometry.names
        return f"{names[move.frm]}-{names[move.to]}"

    def parse_move(self, text: str) -> SummerMove:
        if not isinstance(text, str):
            raise InvalidMoveText("A move must be text such as 'c2-c3'.")
        clean = " ".join(text.lower().split())
        if len(clean) > 20:
            raise InvalidMoveText("That move is too long; write it like 'c2-c3'.")
        match = _MOVE_RE.match(clean)
        if not match:
            raise InvalidMoveText("I can't read {text!r}; write a move like 'c2-c3'.", text=text.strip()[:20])
        return SummerMove(self._cell(match.group(1), match.group(2)), self._cell(match.group(3), match.group(4)))

    def parse_cell(self, text: str) -> int:
        """Return the cell index named by ``text`` (e.g. ``"C2"``); raise :class:`GameError`."""
        match = re.fullmatch(_CELL, " ".join(str(text).lower().split()))
        if not match:
            raise InvalidMoveText("{text!r} is not a cell; cells look like 'c2'.", text=str(text).strip()[:20])
        return self._cell(match.group(1), match.group(2))

    def _cell(self, letter: str, number: str) -> int:
        name = f"{letter}{int(number)}"
        geo = self.geometry
        cell = geo.index.get(name)
        if cell is None:
            size = self.size
            raise InvalidMoveText(
                "{cell} is not on this {size}x{size} board (a1 to {last}).", cell=name, size=size, last=geo.names[-1]
            )
        return cell

    # -- playing --------------------------------------------------------------

    def play(self, move: SummerMove | str) -> SummerState:
        if move.__class__ is not SummerMove:
            if not isinstance(move, str):
                raise InvalidMoveText("That is not a Summer move; write one like 'c2-c3'.")
            move = self.parse_move(move)
        if self.result is not None:
            raise IllegalMove("The game is over.")
        size = self.size
        geo = geometry(size, self.shape == "hex")
        frm, to = move
        player = self.turn
        board = self.board
        cells = size * size
        if frm.__class__ is not int or to.__class__ is not int or not (0 <= frm < cells and 0 <= to < cells):
            raise IllegalMove("That move leaves the board.")
        weight = board[frm] if player == 0 else -board[frm]
        if weight <= 0 or to not in geo.targets[player][frm]:
            raise self._why_illegal(move)
        resident = board[to]
        action, modifier, result, zeroed = resolve(player, weight, resident, self.terrain[to], self.mode == "field")
        event = SummerEvent(player, move, weight, resident, action, modifier, result, zeroed)
        after = list(board)
        after[frm] = 0
        after[to] = result
        new_board = tuple(after)
        ply = self.ply + 1

        # The end bookkeeping of the rules, checked after every ply, in its order.
        outcome: Outcome | None = None
        if min(new_board[size:]) >= 0:  # (i) every Black piece has arrived, or Black has none
            cause = Termination.BLACK_ARRIVED if min(new_board) < 0 else Termination.BLACK_GONE
            outcome = _scored_outcome(new_board, size, cause)
        elif player == 1 and max(new_board[: cells - size]) <= 0:
            # (iii) Black's ply leaves every White piece arrived: it was Black's last move,
            # or it removed White's last piece on the way.
            if max(board[: cells - size]) <= 0:
                cause = Termination.LAST_MOVE
            elif max(new_board) > 0:
                cause = Termination.WHITE_HOME
            else:
                cause = Termination.WHITE_GONE
            outcome = _scored_outcome(new_board, size, cause)
        # (ii) needs nothing here: after White arrives it is simply Black's turn, and (iii) ends
        # the game after that ply.  The SAFETY limit comes last, so a natural end keeps its reason.
        if outcome is None and ply >= self.max_plies:
            outcome = _scored_outcome(new_board, size, Termination.MOVE_LIMIT)
        return _replace(
            self,
            board=new_board,
            turn=1 - player,
            ply=ply,
            result=outcome,
            last=event,
            _legal=() if outcome is not None else None,
        )

    def _why_illegal(self, move: SummerMove) -> IllegalMove:
        """Return the refusal explaining why ``move`` (on the board) is not legal here."""
        names = self.geometry.names
        frm, to = move
        value = self.board[frm]
        if value == 0:
            return IllegalMove("There is no piece on {cell}.", cell=names[frm])
        owner = owner_of(value)
        if owner != self.turn:
            return IllegalMove(
                "The piece on {cell} is {side}'s; you move only your own.",
                cell=names[frm],
                side=SEATS[owner].capitalize(),
            )
        if frm == to:
            return IllegalMove("A piece must move to another cell.")
        ahead = 1 if owner == 0 else -1
        if (to // self.size - frm // self.size) * ahead < 0:
            return IllegalMove("Pieces never move backward; {to} is behind {cell}.", to=names[to], cell=names[frm])
        if self.shape == "hex":
            return IllegalMove(
                "On the hex board a piece moves to one of the two cells in the row ahead or one of the two "
                "beside it; {cell}-{to} is not such a move.",
                cell=names[frm],
                to=names[to],
            )
        return IllegalMove(
            "A piece moves one cell forward, diagonally forward or sideways; {cell}-{to} is not such a move.",
            cell=names[frm],
            to=names[to],
        )

    def forfeit(self, player: int, how: str = FORFEIT) -> SummerState:
        """Return the state after ``player`` resigns (``forfeit``) or loses on time (``timeout``): the other wins.

        ``agreed`` ends the game as a draw by agreement instead.
        """
        check_forfeit(self.result, player, 2)
        return _replace(self, result=forfeit_of_two(player, self.scores(), how, Termination), _legal=())

    # -- text -----------------------------------------------------------------

    def board_text(self) -> str:
        size = self.size
        hexagonal = self.shape == "hex"
        lines = ["     " + "".join(f"{FILES[f]:<5}" for f in range(size)).rstrip()]
        for rank in range(size - 1, -1, -1):
            cells = []
            for f in range(size):
                cell = rank * size + f
                mark = {1: "+", -1: "-", 0: " "}[self.terrain[cell]]
                value = self.board[cell]
                cells.append(f"{mark}{piece_code(value) if value else '':<4}")
            indent = "  " if hexagonal and rank % 2 else ""
            lines.append(f"{rank + 1:>2}  {indent}{''.join(cells).rstrip()}")
        white, black = self.scores()
        if self.result is not None:
            state = f"Game over ({self.result})."
        elif self.black_last_move:
            state = "Black to move: its one last move."
        else:
            state = f"{SEATS[self.turn].capitalize()} to move."
        limit = f"Ply {self.ply}; the move limit (a safety rule) is {self.max_plies}."
        lines.append(f"{state} On the goal rows: White {white}, Black {black}. {limit}")
        lines.append(f"{self.shape} board, {self.mode} collisions; + adds 1, - takes 1.")
        return "\n".join(lines)

    def to_json(self) -> dict[str, Any]:
        size = self.size
        board = self.board
        return {
            "game": "summer",
            "format": SAVE_FORMAT,
            "seed": self.seed,
            "options": self.options(),
            "board": [[piece_code(board[r * size + f]) for f in range(size)] for r in range(size)],
            "turn": self.turn,
            "ply": self.ply,
            "result": None if self.result is None else self.result.to_json(),
            "last": None if self.last is None else self.last.to_json(),
        }


def _goal_totals(board: tuple[int, ...], size: int) -> tuple[int, int]:
    """Return (White's weight on rank N, Black's weight on rank 1)."""
    white = sum(v for v in board[size * size - size :] if v > 0)
    black = -sum(v for v in board[:size] if v < 0)
    return white, black


def _scored_outcome(board: tuple[int, ...], size: int, cause: Termination) -> Outcome:
    """Score the position: the higher goal row wins, equal is a draw."""
    scores = _goal_totals(board, size)
    return outcome_by_keys(scores, scores, cause)


def _terrain_rows(terrain: tuple[int, ...], size: int) -> list[str]:
    """Return the terrain as one string of ``+``, ``-`` and ``.`` per rank, rank 1 first."""
    marks = {1: "+", -1: "-", 0: "."}
    return ["".join(marks[terrain[r * size + f]] for f in range(size)) for r in range(size)]


_replace = keyword_replace(SummerState)
