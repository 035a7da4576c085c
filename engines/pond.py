"""Pond: eggs, tadpoles and frogs on a 4x4 or 5x5 pond.

Rules in brief (``docs/pond.md`` gives them in full).  Two players,
light (moves first) and dark.  A turn is *Action*, *Develop*, *Score*:

* Action: place an egg from your spawn on any empty cell, move one of your
  tadpoles to an orthogonally adjacent empty cell, or move one of your frogs one
  or two cells in a straight orthogonal line onto an empty cell (hopping over
  whatever is in between).
* Develop: every piece orthogonally next to where the acting piece now stands
  advances one face, Egg -> Tadpole -> Frog -> Egg, whoever owns it.
* Score: every run of three or more identical faces in a row or column leaves
  the board, each piece to its owner's score.
The game ends when a player reaches the target (more scored pieces wins; equal
is a draw), when the player to move has no action (they lose), or at the
``max_plies`` safety limit (a draw).

Notation: cells ``a1`` (bottom left) to ``d4`` (``e5`` on the large board);
moves ``place b3`` and ``move a3 c3``.

>>> state = new(variant="mini")
>>> state = state.play("place b2").play("Place  C2")
>>> state.scores(), state.to_move, state.move_text(state.legal_moves()[0])
((0, 0), 0, 'place a1')
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
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
    InvalidState,
    OptionSpec,
    Outcome,
    check_forfeit,
    check_players,
    check_seed,
    draw_of_two,
    forfeit_of_two,
    int_list,
    keyword_replace,
    legacy_forfeit_code,
    load_saved,
    outcome_by_keys,
    resolve_options,
    saved_options,
    win_for,
)
from engines.moves import MoveField, MoveForm, MoveKind, read_cell

SEATS = ("light", "dark")
FACES = ("egg", "tadpole", "frog")
FACE_LETTERS = "ETF"

EMPTY = 0
# A piece is 1 + 3 * owner + face, face 0 egg, 1 tadpole, 2 frog.
OWNER = (-1, 0, 0, 0, 1, 1, 1)
FACE = (-1, 0, 1, 2, 0, 1, 2)
DEVELOP = (0, 2, 3, 1, 5, 6, 4)
EGG = (1, 4)


class Variant(NamedTuple):
    """One variant's board and piece counts."""

    size: int  # the board is size x size cells
    spawn: int  # eggs per player
    target: int  # scored pieces that end the game


# Light moves first (DECIDED).
VARIANTS = {"standard": Variant(4, 13, 10), "mini": Variant(4, 10, 7), "large": Variant(5, 14, 10)}
DEFAULT_VARIANT = "standard"
DEFAULT_MAX_PLIES = 300

OPTIONS = (
    OptionSpec("variant", DEFAULT_VARIANT, "Board and piece counts: standard, mini or large.", tuple(VARIANTS)),
    OptionSpec("spawn", None, "Eggs per player (default: the variant's).", minimum=1, maximum=25),
    OptionSpec("target", None, "Scored pieces that end the game (default: the variant's).", minimum=1, maximum=25),
    OptionSpec(
        "max_plies",
        DEFAULT_MAX_PLIES,
        "Safety limit: the game is a draw after this many plies.",
        minimum=1,
        maximum=5000,
    ),
)


def piece_code(value: int) -> str:
    """Return the two-letter code of a cell's content, e.g. ``lE`` or ``..``."""
    if value == EMPTY:
        return ".."
    return "ld"[OWNER[value]] + FACE_LETTERS[FACE[value]]


def piece_from_code(code: str) -> int:
    """Return the cell value for a two-letter code; raise :class:`InvalidState` if unknown."""
    if code == "..":
        return EMPTY
    if len(code) == 2 and code[0] in "ld" and code[1] in FACE_LETTERS:
        return 1 + 3 * "ld".index(code[0]) + FACE_LETTERS.index(code[1])
    raise InvalidState("{code!r} is not a Pond piece.", code=code)


class Geometry:
    """Precomputed neighbourhoods of one board size, shared by every state of that size."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.cells = size * size
        self.names = tuple(f"{'abcde'[i % size]}{i // size + 1}" for i in range(self.cells))
        self.index = {name: i for i, name in enumerate(self.names)}
        orth: list[tuple[int, ...]] = []
        frog: list[tuple[int, ...]] = []
        for i in range(self.cells):
            f, r = i % size, i // size
            near, jumps = [], []
            for df, dr in ((0, -1), (-1, 0), (1, 0), (0, 1)):
                for step in (1, 2):
                    nf, nr = f + df * step, r + dr * step
                    if 0 <= nf < size and 0 <= nr < size:
                        jumps.append(nr * size + nf)
                        if step == 1:
                            near.append(nr * size + nf)
            orth.append(tuple(sorted(near)))
            frog.append(tuple(sorted(jumps)))
        self.orth = tuple(orth)
        self.frog = tuple(frog)
        # Every window of three consecutive cells in a row or a column; a set is a
        # union of windows whose three faces agree, so runs of 4 and 5 come for free.
        windows = []
        for r in range(size):
            for f in range(size - 2):
                windows.append(tuple(r * size + f + k for k in range(3)))
        for f in range(size):
            for r in range(size - 2):
                windows.append(tuple((r + k) * size + f for k in range(3)))
        self.windows = tuple(windows)
        self.windows_by_cell = tuple(tuple(w for w in windows if i in w) for i in range(self.cells))


GEOMETRY = {size: Geometry(size) for size in sorted({variant.size for variant in VARIANTS.values()})}


class Termination(StrEnum):
    """How a game of Pond ends."""

    TARGET = "target"  # a player reached the target (more scored pieces wins; equal is a draw)
    ELIMINATION = "elimination"  # the player to move had no legal action and lost
    MOVE_LIMIT = "move_limit"  # the max_plies safety limit: a draw
    FORFEIT = FORFEIT  # a player resigned
    TIMEOUT = TIMEOUT  # a player let the deadline pass
    ABANDONED = ABANDONED  # a player let the deadline pass twice over: the game ended on time by itself
    AGREED = AGREED  # the players agreed to a draw


def _legacy_termination(reason: str) -> Termination:
    """Return the code of a format-1 result sentence."""
    if reason.startswith("The target of"):
        return Termination.TARGET
    if "has no legal action" in reason or "eliminated" in reason:
        return Termination.ELIMINATION
    if reason.startswith("Ended by the move limit"):
        return Termination.MOVE_LIMIT
    return Termination(legacy_forfeit_code(reason))


class PondMove(NamedTuple):
    """A Pond action: ``frm`` is -1 for placing an egg on ``to``."""

    frm: int
    to: int


@dataclass(frozen=True, slots=True)
class PondEvent:
    """What one ply did, kept in the state for the summary line and the picture."""

    player: int
    move: PondMove
    actor: int  # the acting piece's value: an egg, a tadpole or a frog
    developed: tuple[int, ...]
    scored: tuple[tuple[int, int], ...]  # (cell, piece value as it scored)
    gains: tuple[int, int]

    def to_json(self) -> dict[str, Any]:
        """Return a JSON-safe dict of this event."""
        return {
            "player": self.player,
            "move": list(self.move),
            "actor": self.actor,
            "developed": list(self.developed),
            "scored": [list(pair) for pair in self.scored],
            "gains": list(self.gains),
        }

    @classmethod
    def from_json(cls, data: Any) -> PondEvent:
        """Rebuild an event saved by :meth:`to_json` (on the largest board); raise :class:`InvalidState`."""
        return _event_from_json(data, GEOMETRY[5])


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


_replace = keyword_replace(PondState)


def seat_names(players: int) -> tuple[str, ...]:
    """Name the seats: light moves first."""
    return SEATS


# -- the fields of a move ----------------------------------------------------------


def _describe(state: PondState, move: PondMove) -> tuple[str, dict[str, str]]:
    names = GEOMETRY[state.size].names
    if move.frm < 0:
        return "place", {"cell": names[move.to]}
    return "move", {"from": names[move.frm], "to": names[move.to]}


# Placing an egg names its cell; moving a tadpole or frog names where it is, then where it goes.
MOVES = MoveForm(
    kinds=(
        MoveKind("place", (MoveField("cell", read_cell),), lambda fields: f"place {fields.get('cell', '')}"),
        MoveKind(
            "move",
            (MoveField("from", read_cell), MoveField("to", read_cell)),
            lambda fields: f"move {fields.get('from', '')} {fields.get('to', '')}",
        ),
    ),
    describe=_describe,
)


SPEC = GameSpec(
    name="pond",
    title="Pond",
    min_players=2,
    max_players=2,
    new=new,
    from_json=from_json,
    seat_names=seat_names,
    options=OPTIONS,
    test_configs=({}, {"variant": "mini"}, {"variant": "large"}, {"variant": "mini", "spawn": 11}, {"max_plies": 40}),
    bench_configs=((2, {"variant": "standard"}), (2, {"variant": "mini"}), (2, {"variant": "large"})),
    moves=MOVES,
)
