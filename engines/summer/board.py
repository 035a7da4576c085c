"""Summer's board and values: cells and geometry, pieces, what a move onto a cell does, moves and events."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, NamedTuple

from engines.base import (
    ABANDONED,
    AGREED,
    FORFEIT,
    TIMEOUT,
    InvalidState,
    OptionSpec,
    int_list,
    legacy_forfeit_code,
)

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


def seat_names(players: int) -> tuple[str, ...]:
    """Name the seats: White moves first."""
    return SEATS
