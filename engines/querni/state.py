"""Querni's state: the legal moves, notation, playing a turn, leaving."""

from __future__ import annotations

import re
from bisect import bisect_left
from dataclasses import dataclass, field
from typing import Any

from engines.base import (
    FORFEIT,
    SAVE_FORMAT,
    GameError,
    IllegalMove,
    InvalidMoveText,
    Outcome,
    check_forfeit,
    draw_of_two,
    forfeit_of_two,
    keyword_replace,
    positional_replace,
    win_for,
)
from engines.querni.board import (
    CELLS,
    COLOUR,
    EMPTY,
    FILES,
    HEIGHT,
    INDEX,
    MIN_CHAIN,
    NAMES,
    NEAR_SET,
    NUMBER,
    PASS,
    PIECES,
    SEATS,
    STRANDS,
    WIDTH,
    QuerniEvent,
    QuerniMove,
    Route,
    Termination,
    _link_mask,
    _make_event,
    _ranges,
    jumped_squares,
    piece_code,
    piece_value,
)
from engines.querni.generate import (
    _ends,
    _generate,
    _path,
    _stranding,
    has_chain_left,
    judge_removal,
    present_numbers,
    short_runs,
)

_SQUARE = r"([a-z])\s*([0-9]{1,2})"  # ASCII digits only: \d would read "c٣" as c3
_NUMBER_SEP = r"(?:\s*(?:-+|\.{2,3}|…|to)\s*|\s+)"
_TURN_RE = re.compile(
    rf"^(?:(?:move\s+)?{_SQUARE}\s*(?:-+>?|>|to|\s)?\s*{_SQUARE})?"
    rf"\s*(?:,|;|\+|and|then)?\s*"
    rf"(?:(?:x|remove)\s*(\d{{1,2}}){_NUMBER_SEP}(\d{{1,2}}))?$"
)
_REVERSED_RE = re.compile(rf"^(?:x|remove)\s*\d.*{_SQUARE}\s*(?:-+>?|>|to|\s)?\s*{_SQUARE}$")


@dataclass(frozen=True, slots=True)
class QuerniState:
    """An immutable Querni position.  Build one with :func:`new` or :func:`from_json`.

    ``board`` has 70 cells, a1 = 0 to j7 = 69 rank by rank, each 0 (empty) or a
    piece value ``16 * colour + number`` (see :meth:`piece`); ``removed`` counts
    each side's pieces off the board; ``counter`` the plies since the last removal.
    """

    seed: int
    layout: tuple[tuple[str, str], ...] | None
    isolation: str
    draw_plies: int
    draw_count: str
    board: tuple[int, ...]
    removed: tuple[int, int]
    counter: int
    turn: int
    ply: int
    result: Outcome | None = None
    last: QuerniEvent | None = None
    _legal: tuple[QuerniMove, ...] | None = field(default=None, compare=False, repr=False)
    # Square of each piece value (index 1..32), -1 once removed: derived from the board.
    _where: tuple[int, ...] | None = field(default=None, compare=False, repr=False)

    game = "querni"
    players = 2

    # -- reading the position -------------------------------------------------

    @property
    def last_event(self) -> QuerniEvent | None:
        """Return what the last ply did (``None`` before the first)."""
        return self.last

    @property
    def may_take_back(self) -> bool:
        """Whether the last ply may be taken back: any move while the game goes on (nothing here is random)."""
        return self.last is not None and self.result is None

    def short_runs(self, colour: int) -> tuple[int, ...]:
        """Return ``colour``'s remaining numbers that stand in a run of consecutive numbers shorter than a chain."""
        return short_runs(present_numbers(self.where(), colour))

    def has_chain_left(self, colour: int) -> bool:
        """Tell whether ``colour`` still has three consecutive numbers on the board."""
        return has_chain_left(present_numbers(self.where(), colour))

    def stranded(self, colour: int) -> tuple[int, ...]:
        """Return the numbers whose stranding lost ``colour`` the game (a ``stranded`` ending), else ``()``."""
        result = self.result
        if result is None or result.termination != Termination.STRANDED or colour in result.winners:
            return ()
        return self.short_runs(colour)

    def strands(self, move: QuerniMove | str) -> tuple[int, ...]:
        """Return the numbers ``move``'s removal would leave stranded, losing the game at once; ``()`` if it does not.

        A move alone never loses, nor does a removal that clears the board.  Under ``no_triple_left`` the
        numbers named are every one left, since none of them stands in a chain any more.

        >>> from engines.querni import new
        >>> state = new(layout={"a1": "B1", "b1": "B2", "c1": "B3", "d1": "B4", "e1": "B5", "j7": "R1"})
        >>> state.strands("x2-4"), state.strands("x1-5"), state.strands("x1-3"), state.strands("a1-a2")
        ((1, 5), (), (4, 5), ())
        """
        if isinstance(move, str):
            move = self.parse_move(move)
        if move.lo < 0:
            return ()
        present = present_numbers(self.where(), self.turn)
        if judge_removal(present, move.lo, move.hi, self.isolation) != STRANDS:
            return ()
        return short_runs(present & ~(((1 << (move.hi - move.lo + 1)) - 1) << (move.lo - 1)))

    @property
    def to_move(self) -> int | None:
        """Index of the player to move (0 blue, 1 red); ``None`` once the game is over."""
        return None if self.result is not None else self.turn

    @property
    def draw_limit(self) -> int:
        """Return the plies without a removal that draw the game."""
        return self.draw_plies * (2 if self.draw_count == "moves" else 1)

    def cell_name(self, cell: int) -> str:
        """Return the name of square ``cell``, e.g. ``c3``."""
        return NAMES[cell]

    def piece(self, cell: int) -> tuple[int, int] | None:
        """Return ``(colour, number)`` of the piece on ``cell``, or ``None`` if it is empty."""
        value = self.board[cell]
        return None if value == EMPTY else (COLOUR[value], NUMBER[value])

    def square_of(self, colour: int, number: int) -> int:
        """Return the square of ``colour``'s piece ``number``, or -1 if it was removed."""
        return self.where()[piece_value(colour, number)]

    def where(self) -> tuple[int, ...]:
        """Return the square of every piece value (index 1..32; index 0 unused), -1 if removed."""
        where = self._where
        if where is None:
            table = [-1] * (2 * PIECES + 1)
            for cell, value in enumerate(self.board):
                if value:
                    table[value] = cell
            where = tuple(table)
            object.__setattr__(self, "_where", where)
        return where

    def scores(self) -> tuple[int, ...]:
        """Return each side's removed pieces."""
        return self.removed

    def outcome(self) -> Outcome | None:
        """Return ``None`` while the game runs, how it ended otherwise."""
        return self.result

    def options(self) -> dict[str, Any]:
        """Return the game's options as given to :func:`new`."""
        return {
            "layout": None if self.layout is None else dict(self.layout),
            "isolation": self.isolation,
            "draw_plies": self.draw_plies,
            "draw_count": self.draw_count,
        }

    def legal_moves(self) -> tuple[QuerniMove, ...]:
        """Return every legal turn, sorted: pass, removals alone, then each move alone and with each removal."""
        legal = self._legal
        if legal is None:
            legal = () if self.result is not None else _generate(self.board, self.where(), self.turn)
            object.__setattr__(self, "_legal", legal)
        return legal

    def reachable(self, cell: int) -> tuple[int, ...]:
        """Return every square the piece on ``cell`` can move to, whoever owns it."""
        if not 0 <= cell < CELLS or not self.board[cell]:
            return ()
        return tuple(_ends(self.board, cell))

    def chains(self, colour: int | None = None) -> tuple[tuple[int, int], ...]:
        """Return every removable range ``(lo, hi)`` of ``colour`` (default: the player to move)."""
        colour = self.turn if colour is None else colour
        return _ranges(_link_mask(self.where(), colour * PIECES))

    def path(self, move: QuerniMove | str) -> tuple[int, ...]:
        """Return every landing of ``move``'s piece, start first (one step, or each jump); () if none moves.

        Raise :class:`IllegalMove` if the piece cannot get there.
        """
        if isinstance(move, str):
            move = self.parse_move(move)
        if move.frm < 0:
            return ()
        self._check_piece_move(move)
        return _path(self.board, move.frm, move.to)

    def route(self, move: QuerniMove | str) -> Route:
        """Return how ``move``'s piece gets there: its landings and the squares it jumps (a step, or jumps).

        Raise :class:`IllegalMove` if the piece cannot get there; an empty route if no piece moves.
        """
        path = self.path(move)
        return Route(path, jumped_squares(path))

    def removal_squares(self, move: QuerniMove | str) -> tuple[int, ...]:
        """Return the squares of ``move``'s chain, lowest number first, as they stand once its piece has moved.

        Empty if the turn removes nothing; -1 stands for a number no longer on the board.
        """
        if isinstance(move, str):
            move = self.parse_move(move)
        if move.lo < 0:
            return ()
        where = self.where()
        base = self.turn * PIECES
        squares = []
        for number in range(move.lo, move.hi + 1):
            square = where[base + number]
            squares.append(move.to if move.frm >= 0 and square == move.frm else square)
        return tuple(squares)

    # -- notation -------------------------------------------------------------

    def move_text(self, move: QuerniMove) -> str:
        """Return the canonical text of ``move``: ``c3-e5``, ``x4-7``, ``c3-e5 x4-7`` or ``pass``."""
        parts = []
        if move.frm >= 0:
            parts.append(f"{NAMES[move.frm]}-{NAMES[move.to]}")
        if move.lo >= 0:
            parts.append(f"x{move.lo}-{move.hi}")
        return " ".join(parts) or "pass"

    def parse_move(self, text: str) -> QuerniMove:
        """Read a turn leniently (case, spaces, ``c3 e5``, ``x4..7``, ``x 4-7``); raise :class:`GameError`."""
        if not isinstance(text, str):
            raise InvalidMoveText("A turn must be text; write a turn like 'c3-e5', 'x4-7', 'c3-e5 x4-7' or 'pass'.")
        clean = " ".join(text.lower().replace("–", "-").replace("—", "-").replace("→", "-").split())
        if len(clean) > 40:
            raise InvalidMoveText("That turn is too long; write a turn like 'c3-e5', 'x4-7', 'c3-e5 x4-7' or 'pass'.")
        if clean in ("pass", "p", "skip"):
            return PASS
        match = _TURN_RE.match(clean)
        if not clean or not match:
            if _REVERSED_RE.match(clean):
                raise InvalidMoveText("Move first, then remove: write the move before the chain, like 'c3-e5 x4-7'.")
            if re.fullmatch(r"[a-j]\s*\d{1,2}", clean):
                raise InvalidMoveText("Name both the start and the end square of a move, like 'c3-e5'.")
            raise InvalidMoveText(
                "I can't read {text!r}; write a turn like 'c3-e5', 'x4-7', 'c3-e5 x4-7' or 'pass'.",
                text=text.strip()[:40],
            )
        f1, r1, f2, r2, lo_text, hi_text = match.groups()
        if f1 is None and lo_text is None:
            raise InvalidMoveText(
                "I can't read {text!r}; write a turn like 'c3-e5', 'x4-7', 'c3-e5 x4-7' or 'pass'.",
                text=text.strip()[:40],
            )
        frm = to = lo = hi = -1
        if f1 is not None:
            frm = _square(f1, r1)
            to = _square(f2, r2)
        if lo_text is not None:
            lo, hi = sorted((int(lo_text), int(hi_text)))
            if lo < 1 or hi > PIECES:
                raise InvalidMoveText(
                    "Pieces are numbered 1 to {pieces}, so x{lo}-{hi} cannot be removed.", pieces=PIECES, lo=lo, hi=hi
                )
        return QuerniMove(frm, to, lo, hi)

    def parse_square(self, text: str) -> int:
        """Return the square named by ``text`` (e.g. ``"C3"``); raise :class:`GameError`."""
        match = re.fullmatch(_SQUARE, " ".join(str(text).lower().split()))
        if not match:
            raise InvalidMoveText("{text!r} is not a square; squares look like 'c3'.", text=str(text).strip()[:20])
        return _square(match.group(1), match.group(2))

    # -- playing --------------------------------------------------------------

    def play(self, move: QuerniMove | str) -> QuerniState:
        """Return the state after ``move`` (a move value or its text); raise :class:`GameError` if illegal."""
        if isinstance(move, str):
            move = self.parse_move(move)
        elif type(move) is not QuerniMove or not (
            type(move[0]) is int and type(move[1]) is int and type(move[2]) is int and type(move[3]) is int
        ):
            raise InvalidMoveText("That is not a Querni turn.")
        if self.result is not None:
            raise IllegalMove("The game is over.")
        legal = self.legal_moves()
        i = bisect_left(legal, move)
        if i == len(legal) or legal[i] != move:
            raise self._refusal(move)

        player = self.turn
        base = player * PIECES
        old = self.board
        board = list(old)
        where = list(self.where())
        frm, to, lo, hi = move
        path: tuple[int, ...] = ()
        number = 0
        if frm >= 0:
            path = _path(old, frm, to)
            value = old[frm]
            board[frm] = EMPTY
            board[to] = value
            where[value] = to
            number = value - base
        gone: tuple[tuple[int, int], ...] = ()
        removed = self.removed
        result: Outcome | None = None
        if lo >= 0:
            pairs = []
            for n in range(lo, hi + 1):
                cell = where[base + n]
                pairs.append((n, cell))
                board[cell] = EMPTY
                where[base + n] = -1
            gone = tuple(pairs)
            removed = (removed[0] + len(pairs), removed[1]) if player == 0 else (removed[0], removed[1] + len(pairs))
            counter = 0
            result = self._after_removal(where, removed, player)
        else:
            counter = self.counter + 1
            if counter >= self.draw_limit:
                result = draw_of_two(removed, Termination.NO_REMOVAL)
        event = _make_event(player, move, number, path, gone, counter)
        return _after_play(
            self,
            tuple(board),
            removed,
            counter,
            1 - player,
            self.ply + 1,
            result,
            event,
            None if result is None else (),
            tuple(where),
        )

    def _after_removal(self, where: list[int], removed: tuple[int, int], player: int) -> Outcome | None:
        """Judge a removal by ``player``: clearing wins (checked first), stranding loses."""
        if removed[player] == PIECES:
            return win_for(player, removed, Termination.CLEARED)
        doomed = _stranding(where, player * PIECES, self.isolation)
        if doomed is None:
            return None
        return win_for(1 - player, removed, Termination.STRANDED if doomed else Termination.NO_TRIPLE)

    def _check_piece_move(self, move: QuerniMove) -> None:
        """Raise :class:`IllegalMove` unless the player to move can move ``move.frm`` to ``move.to``."""
        frm, to = move.frm, move.to
        if not (0 <= frm < CELLS and 0 <= to < CELLS):
            raise IllegalMove("That move leaves the board.")
        value = self.board[frm]
        if value == EMPTY:
            raise IllegalMove("There is no piece on {cell}.", cell=NAMES[frm])
        if COLOUR[value] != self.turn:
            raise IllegalMove(
                "The piece on {cell} is {side}'s; you move only your own ({own}).",
                cell=NAMES[frm],
                side=SEATS[COLOUR[value]],
                own=SEATS[self.turn],
            )
        if frm == to:
            raise IllegalMove("A move must end on another square than it starts.")
        if self.board[to] != EMPTY:
            raise IllegalMove("{cell} is occupied.", cell=NAMES[to])
        if to not in _ends(self.board, frm):
            raise IllegalMove(
                "The piece on {cell} cannot reach {to}: it steps to a neighbouring empty square "
                "or jumps over adjacent pieces onto empty squares.",
                cell=NAMES[frm],
                to=NAMES[to],
            )

    def _refusal(self, move: QuerniMove) -> GameError:
        """Explain why ``move`` (not in the legal list) is refused."""
        frm, to, lo, hi = move
        if (frm < 0) != (to < 0) or (lo < 0) != (hi < 0) or min(move) < -1:
            return InvalidMoveText(
                "That is not a Querni turn; write a turn like 'c3-e5', 'x4-7', 'c3-e5 x4-7' or 'pass'."
            )
        try:
            if frm >= 0:
                self._check_piece_move(move)
        except IllegalMove as error:
            return error
        if lo < 0:
            return IllegalMove("That turn is not allowed here.")
        if lo > hi or lo < 1 or hi > PIECES:
            return IllegalMove("Pieces are numbered 1 to {pieces}; name a removal like x4-7.", pieces=PIECES)
        if hi - lo < MIN_CHAIN - 1:
            return IllegalMove(
                "A removal takes at least {n} consecutive numbers; {lo}-{hi} is too few.", n=MIN_CHAIN, lo=lo, hi=hi
            )
        where = list(self.where())
        base = self.turn * PIECES
        moved = False
        if frm >= 0:
            where[self.board[frm]] = to
            moved = True
        for n in range(lo, hi + 1):
            if where[base + n] < 0:
                return IllegalMove("Your piece {n} is no longer on the board.", n=n)
        for n in range(lo, hi):
            if where[base + n + 1] not in NEAR_SET[where[base + n]]:
                if moved:
                    return IllegalMove(
                        "Your {next} does not touch your {n} after your move, so {lo}-{hi} is not a chain.",
                        next=n + 1,
                        n=n,
                        lo=lo,
                        hi=hi,
                    )
                return IllegalMove(
                    "Your {next} does not touch your {n}, so {lo}-{hi} is not a chain.", next=n + 1, n=n, lo=lo, hi=hi
                )
        return IllegalMove("That turn is not allowed here.")

    def forfeit(self, player: int, how: str = FORFEIT) -> QuerniState:
        """Return the state after ``player`` resigns (``forfeit``) or loses on time (``timeout``): the other wins.

        ``agreed`` ends the game as a draw by agreement instead.
        """
        check_forfeit(self.result, player, 2)
        result = forfeit_of_two(player, self.removed, how, Termination)
        return _replace(self, result=result, _legal=(), _where=self._where)

    # -- text -----------------------------------------------------------------

    def _counter_text(self) -> str:
        """Say how close the draw is, in English, for the command line and the logs."""
        if self.draw_count == "moves":
            return f"{self.counter} plies without a removal (a draw after {self.draw_plies} full moves)"
        return f"{self.counter} of {self.draw_plies} plies without a removal"

    def board_text(self) -> str:
        """Return the position as text, rank 7 at the top."""
        lines = []
        for r in range(HEIGHT - 1, -1, -1):
            row = "".join(f"{piece_code(v) if v else '.':>4}" for v in self.board[r * WIDTH : (r + 1) * WIDTH])
            lines.append(f"{r + 1}{row}")
        lines.append(" " + "".join(f"{f:>4}" for f in FILES))
        whose = "game over" if self.result is not None else f"{SEATS[self.turn]} to move"
        lines.append(
            f"removed: blue {self.removed[0]}, red {self.removed[1]} of {PIECES}; {self._counter_text()}; {whose}"
        )
        return "\n".join(lines)

    def to_json(self) -> dict[str, Any]:
        """Return a JSON-safe dict from which :func:`from_json` rebuilds this state exactly."""
        return {
            "game": "querni",
            "format": SAVE_FORMAT,
            "seed": self.seed,
            "options": self.options(),
            "board": [[piece_code(v) for v in self.board[r * WIDTH : (r + 1) * WIDTH]] for r in range(HEIGHT)],
            "removed": list(self.removed),
            "counter": self.counter,
            "turn": self.turn,
            "ply": self.ply,
            "result": None if self.result is None else self.result.to_json(),
            "last": None if self.last is None else self.last.to_json(),
        }


def _square(letter: str, number: str) -> int:
    """Return the index of a square from its letter and number; raise :class:`InvalidMoveText` if off the board."""
    name = f"{letter}{int(number)}"
    cell = INDEX.get(name)
    if cell is None:
        raise InvalidMoveText("There is no square {cell}; the board runs from a1 to j7.", cell=name)
    return cell


_replace = keyword_replace(QuerniState)
_after_play = positional_replace(QuerniState, "board removed counter turn ply result last _legal _where")
