"""Summer: two players race weighted pieces across plus and minus cells.

Rules in brief (``docs/summer.md`` gives them in full).  An N×N board
(``size`` 3 to 12, default 8), square or hexagonal.  White fills rank 1 and moves
first, Black fills rank N; White's weights are drawn from 1 to N and Black's are
a permutation of them.  Every cell between the start rows is *plus* or *minus*.

* A piece moves one cell forward, diagonally forward or sideways, never back.
  On the hex board (odd rows shifted half a cell right) it moves to one of the
  two cells in the row ahead or one of the two beside it.  Any cell will do.
* Onto an own piece (merge): lighter mover -> the sum, heavier mover -> the
  difference, equal -> both removed.
* Onto an enemy (collision): ``classic`` -- the heavier survives minus the
  lighter, equal -> both removed; ``field`` -- on a plus cell the mover always
  wins and adds the enemy's weight, elsewhere classic.
* Then the cell's +1 or -1 applies to the surviving piece if it is the mover's;
  a piece that reaches 0 is removed.
* When all White pieces stand on rank N (or White has none), Black gets one last
  ply; when all Black pieces stand on rank 1 (or Black has none), the game ends.
  Each side scores the weight of its own pieces on the opponent's start row;
  higher wins.  ``max_plies`` (default 4·N·N) is a safety limit that scores the
  position as it stands.

Running out of moves: with N >= 3 every piece has a cell beside it, and any cell
is a legal target, so only a side with no pieces could lack a move.  The end
bookkeeping never hands the turn to such a side: Black with no pieces counts as
arrived, which ends the game at once (rule i); White with no pieces counts as
arrived, so after White's ply Black gets its one last ply (rule ii) and after a
Black ply the game ends (rule iii).  Hence ``legal_moves()`` is empty exactly
when the game is over, and no "pass" move exists.

Notation: cells ``a1`` (White's side, left) to ``h8``, the same names on the hex
board; a move is ``c2-c3`` (lenient input: ``C2 c3``, ``c2 - c3``).

>>> state = new(size=3, weights=[1, 2, 3], black_weights=[3, 1, 2], terrain=["...", "+-+", "..."])
>>> state = state.play("C1 b2")
>>> state.last_event.action, state.last_event.weight, state.last_event.result
('moved', 3, 2)
>>> state.move_text(state.legal_moves()[0]), state.scores()
('a3-a2', (0, 0))
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from itertools import chain, compress
from typing import Any, NamedTuple

from engines.base import (
    ABANDONED,
    AGREED,
    FORFEIT,
    SAVE_FORMAT,
    TIMEOUT,
    GameSpec,
    IllegalMove,
    InvalidMoveText,
    InvalidOption,
    InvalidState,
    OptionSpec,
    Outcome,
    check_forfeit,
    check_players,
    check_seed,
    forfeit_of_two,
    int_list,
    keyword_replace,
    legacy_forfeit_code,
    load_saved,
    outcome_by_keys,
    resolve_options,
    saved_options,
)
from engines.rng import Rng

SEATS = ("white", "black")
FILES = "abcdefghijkl"
MIN_SIZE, MAX_SIZE, DEFAULT_SIZE = 3, 12, 8
SHAPES = ("square", "hex")
MODES = ("classic", "field")
# SAFETY: the default move limit is this many plies per cell (4·N·N).
PLIES_PER_CELL = 4
MAX_PLIES_LIMIT = 10_000

# What a ply did on its target cell (SummerEvent.action).
MOVED = "moved"  # onto an empty cell
MERGED = "merged"  # onto an own piece of another weight: one piece is left
COLLIDED = "collided"  # onto an enemy of another weight: the heavier survives, minus the lighter
DESTROYED = "destroyed"  # onto a piece of equal weight, own or enemy: both removed
FIELD_WIN = "field_win"  # field mode, enemy on a plus cell: the mover wins and adds its weight
ACTIONS = (MOVED, MERGED, COLLIDED, DESTROYED, FIELD_WIN)

OPTIONS = (
    OptionSpec("size", DEFAULT_SIZE, "Board size N (N×N cells), 3 to 12.", minimum=MIN_SIZE, maximum=MAX_SIZE),
    OptionSpec("board", "square", "Board: square or hex.", SHAPES),
    OptionSpec("mode", "classic", "Collisions: classic, or field (on a plus cell the mover always wins).", MODES),
    OptionSpec(
        "max_plies",
        None,
        "Safety limit: after this many plies the position is scored (default 4·N·N).",
        minimum=1,
        maximum=MAX_PLIES_LIMIT,
    ),
    OptionSpec("weights", None, "White's starting weights, 1 to N, in file order (default: drawn from the seed)."),
    OptionSpec("black_weights", None, "Black's starting weights in file order, a permutation of White's."),
    OptionSpec("terrain", None, "One string of +, - and . per rank, rank 1 first (default: drawn and mirrored)."),
)


class Termination(StrEnum):
    """How a game of Summer ends (every natural ending scores the goal rows; higher wins)."""

    BLACK_ARRIVED = "black_arrived"  # (i) every Black piece stands on rank 1
    BLACK_GONE = "black_gone"  # (i) Black has no pieces left
    LAST_MOVE = "last_move"  # (iii) White had arrived and Black made its one last move
    WHITE_HOME = "white_home"  # (iii) Black's move left every White piece on rank N (it removed the last one away)
    WHITE_GONE = "white_gone"  # (iii) Black's move removed White's last piece
    MOVE_LIMIT = "move_limit"  # the max_plies safety limit scored the position as it stood
    FORFEIT = FORFEIT  # a player resigned
    TIMEOUT = TIMEOUT  # a player let the deadline pass
    ABANDONED = ABANDONED  # a player let the deadline pass twice over: the game ended on time by itself
    AGREED = AGREED  # the players agreed to a draw


def _legacy_termination(reason: str) -> Termination:
    """Return the code of a format-1 result sentence."""
    for start, code in (
        ("All Black pieces have reached rank 1", Termination.BLACK_ARRIVED),
        ("Black has no pieces left", Termination.BLACK_GONE),
        ("Black has made its last move", Termination.LAST_MOVE),
        ("Black's move left every White piece on rank", Termination.WHITE_HOME),
        ("White has no pieces left", Termination.WHITE_GONE),
        ("Ended by the move limit", Termination.MOVE_LIMIT),
    ):
        if reason.startswith(start):
            return code
    return Termination(legacy_forfeit_code(reason))


class SummerMove(NamedTuple):
    """A Summer move: the piece on cell ``frm`` goes to cell ``to`` (cell = rank * size + file)."""

    frm: int
    to: int


class Geometry:
    """Names and move targets of one board size and shape, shared by every state that uses them."""

    def __init__(self, size: int, hexagonal: bool) -> None:
        self.size = size
        self.cells = size * size
        self.hexagonal = hexagonal
        self.names = tuple(f"{FILES[i % size]}{i // size + 1}" for i in range(self.cells))
        self.index = {name: i for i, name in enumerate(self.names)}
        targets: list[tuple[tuple[int, ...], ...]] = []
        moves: list[tuple[tuple[SummerMove, ...], ...]] = []
        for ahead in (1, -1):  # White moves up the ranks, Black down
            per_cell = tuple(tuple(sorted(self._targets(cell, ahead))) for cell in range(self.cells))
            targets.append(per_cell)
            moves.append(tuple(tuple(SummerMove(cell, to) for to in tos) for cell, tos in enumerate(per_cell)))
        self.targets = (targets[0], targets[1])
        # Per player and cell, the ranks a piece there still has to cross to reach its goal row
        # (White's is rank N, Black's rank 1); 0 on the goal row itself.
        ranks = [cell // size for cell in range(self.cells)]
        self.goal_distance = (tuple(size - 1 - rank for rank in ranks), tuple(ranks))
        # Per player and cell, the moves of a piece there, sorted; legal_moves() concatenates them.
        self.moves = (moves[0], moves[1])

    def _targets(self, cell: int, ahead: int) -> list[int]:
        size = self.size
        rank, file = divmod(cell, size)
        files_ahead: tuple[int, ...]
        if self.hexagonal:
            # Odd rows sit half a cell to the right, so the two cells of a
            # neighbouring row are files f-1, f from an even row and f, f+1 from an odd one.
            files_ahead = (file - 1, file) if rank % 2 == 0 else (file, file + 1)
        else:
            files_ahead = (file - 1, file, file + 1)
        out = [rank * size + f for f in (file - 1, file + 1) if 0 <= f < size]
        if 0 <= rank + ahead < size:
            out.extend((rank + ahead) * size + f for f in files_ahead if 0 <= f < size)
        return out


_GEOMETRY: dict[tuple[int, bool], Geometry] = {}


def geometry(size: int, hexagonal: bool) -> Geometry:
    """Return the (cached) geometry of one board size and shape."""
    key = (size, hexagonal)
    geo = _GEOMETRY.get(key)
    if geo is None:
        geo = _GEOMETRY[key] = Geometry(size, hexagonal)
    return geo


def piece_code(value: int) -> str:
    """Return the text of a cell's piece: ``W3`` (White, weight 3), ``B6`` or ``.`` when empty."""
    if value == 0:
        return "."
    return f"W{value}" if value > 0 else f"B{-value}"


def piece_from_code(code: Any) -> int:
    """Return the signed cell value of a piece text (White positive); raise :class:`InvalidState`."""
    if code == ".":
        return 0
    if (
        isinstance(code, str)
        and 2 <= len(code) <= 7
        and code[0] in "WB"
        and code.isascii()
        and code[1:].isdigit()
        and code[1] != "0"
    ):
        weight = int(code[1:])
        return weight if code[0] == "W" else -weight
    raise InvalidState("{code!r} is not a Summer piece.", code=str(code)[:12])


def owner_of(value: int) -> int:
    """Return the side of a signed piece value: 0 White (positive), 1 Black (negative)."""
    return 0 if value > 0 else 1


def resolve(player: int, weight: int, resident: int, cell: int, field_mode: bool) -> tuple[str, int, int, bool]:
    """Resolve a piece of ``weight`` landing on a cell holding ``resident`` (signed; 0 empty).

    ``cell`` is the cell's modifier (+1, -1, or 0 on a start row).  Return
    ``(action, modifier applied, signed piece left on the cell, mover removed at 0)``.
    The merge or collision uses the weights before the move; the cell's ±1 then
    applies only to a surviving piece of the mover's (an enemy did not land).
    """
    sign = 1 if player == 0 else -1
    if resident == 0:
        action, survivor = MOVED, weight
    else:
        other = resident * sign  # positive: own piece, negative: enemy
        if other > 0:
            if weight == other:
                return DESTROYED, 0, 0, False
            action, survivor = MERGED, (weight + other if weight < other else weight - other)
        else:
            enemy = -other
            if field_mode and cell > 0:
                action, survivor = FIELD_WIN, weight + enemy
            elif weight > enemy:
                action, survivor = COLLIDED, weight - enemy
            elif weight < enemy:
                return COLLIDED, 0, resident + sign * weight, False
            else:
                return DESTROYED, 0, 0, False
    final = survivor + cell
    if final <= 0:
        return action, cell, 0, True
    return action, cell, sign * final, False


@dataclass(frozen=True, slots=True)
class SummerEvent:
    """What one ply did, kept in the state for the summary line and the picture.

    ``weight`` is the mover's weight before the ply, ``resident`` the signed piece
    that stood on the target (0 if empty), ``modifier`` the cell's ±1 as applied
    to the mover's surviving piece (0 if none was applied), ``result`` the signed
    piece left on the target (0 if none) and ``zeroed`` whether the mover's piece
    reached weight 0 and was removed.  The properties say the rest as data for the
    text layer and the picture: whose pieces met, what survived and what was removed.
    """

    player: int
    move: SummerMove
    weight: int
    resident: int
    action: str
    modifier: int
    result: int
    zeroed: bool

    @property
    def resident_owner(self) -> int | None:
        """Return who owned the piece that stood on the target (0 White, 1 Black), or ``None`` if it was empty."""
        return None if self.resident == 0 else owner_of(self.resident)

    @property
    def onto_own(self) -> bool:
        """Tell whether the mover landed on a piece of its own (a merge, or equal weights removing both)."""
        return self.resident_owner == self.player

    @property
    def survivor(self) -> int:
        """Return the weight the merge or collision left on the target, before the cell's ±1 (0 if none).

        A piece the cell's −1 then took to 0 weighed 1 here.
        """
        return abs(self.result) - self.modifier

    @property
    def survivor_owner(self) -> int | None:
        """Return whose piece the merge or collision left on the target (even if the cell's −1 then removed it).

        ``None`` when equal weights removed both pieces.
        """
        if self.zeroed:
            return self.player
        return None if self.result == 0 else owner_of(self.result)

    @property
    def removed_piece(self) -> tuple[int, int] | None:
        """Return ``(owner, weight)`` of the piece removed on the target (the one to show crossed out), or ``None``.

        When equal weights removed both pieces it is the one that stood there; when the cell's −1
        took the mover's piece to 0, it is that piece at the weight it had just before (the survivor's).
        A mover beaten in a collision never stood on the target, so it is not named here.
        """
        if self.action == DESTROYED:
            return owner_of(self.resident), abs(self.resident)
        if self.zeroed:
            return self.player, self.survivor
        return None

    def to_json(self) -> dict[str, Any]:
        """Return a JSON-safe dict of this event (cells as indexes, pieces as signed weights)."""
        return {
            "player": self.player,
            "move": list(self.move),
            "weight": self.weight,
            "resident": self.resident,
            "action": self.action,
            "modifier": self.modifier,
            "result": self.result,
            "zeroed": self.zeroed,
        }

    @classmethod
    def from_json(cls, data: Any) -> SummerEvent:
        """Rebuild an event saved by :meth:`to_json`; raise :class:`InvalidState` if malformed."""
        if not isinstance(data, Mapping):
            raise InvalidState("The saved last move is not an object.")
        move = int_list(data["move"], "last move")
        fields = [data[k] for k in ("player", "weight", "resident", "modifier", "result")]
        if len(move) != 2 or any(type(v) is not int for v in fields) or type(data["zeroed"]) is not bool:
            raise InvalidState("The saved last move is malformed.")
        if data["action"] not in ACTIONS:
            raise InvalidState("The saved last move is malformed.")
        player, weight, resident, modifier, result = fields
        return cls(
            player, SummerMove(move[0], move[1]), weight, resident, data["action"], modifier, result, data["zeroed"]
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


_replace = keyword_replace(SummerState)


def seat_names(players: int) -> tuple[str, ...]:
    """Name the seats: White moves first."""
    return SEATS


SPEC = GameSpec(
    name="summer",
    title="Summer",
    min_players=2,
    max_players=2,
    new=new,
    from_json=from_json,
    seat_names=seat_names,
    options=OPTIONS,
    test_configs=(
        {},
        {"board": "hex"},
        {"mode": "field"},
        {"board": "hex", "mode": "field", "size": 5},
        {"size": 3},
        {"board": "hex", "size": 12},
    ),
    bench_configs=((2, {}), (2, {"board": "hex"})),
)
