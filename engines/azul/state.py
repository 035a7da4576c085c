"""Azul's state: reading the position, the legal moves, notation, playing a take or a tiling, leaving."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engines.azul.moves import parse_move
from engines.azul.tables import (
    _LINE_COLOUR_BITS,
    _LINE_ROWS,
    CENTRE,
    COLOURS,
    EMPTY5,
    FLOOR,
    FLOOR_LETTERS,
    FLOOR_LOSS,
    FLOOR_SPACES,
    LETTERS,
    MARKER,
    NO_LINES,
    OFFER,
    OFFER_FULL_LINES,
    OVER,
    SPACE_LETTERS,
    TAKES,
    TILING,
    WALL,
    WALL_COLOUR,
    WALL_COLUMN,
    AzulEvent,
    AzulMove,
    Board,
    Termination,
    _tuple_new,
    seat_names,
    tiles_text,
)
from engines.base import (
    ABANDONED,
    FORFEIT,
    SAVE_FORMAT,
    TIMEOUT,
    IllegalMove,
    InvalidMoveText,
    Outcome,
    check_forfeit,
    forfeit_code,
    keyword_replace,
    outcome_by_keys,
)

# -- the state ----------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class AzulState:
    """An immutable Azul position.  Build one with :func:`new` or :func:`from_json`.

    What a renderer reads: ``factories`` (per factory, tile counts by colour),
    ``centre`` (counts), ``marker`` (-1 in the centre, else the seat holding it;
    it also appears as :data:`MARKER` on that player's floor unless the floor was
    full), ``boards`` (a :class:`Board` per seat), ``bag`` and ``lid`` (counts),
    ``round``, ``phase`` (``offer``, ``tiling`` in the grey wall, ``over``),
    ``left`` (seats that left, in order) and ``last`` (an :class:`AzulEvent`).
    Colours are indexes into :data:`COLOURS`.  ``first_player`` is the option as
    given; ``starter`` is the seat that began the current round.
    """

    players: int
    seed: int
    grey_wall: bool
    first_player: int | None
    max_rounds: int
    round: int
    phase: str
    turn: int
    starter: int
    rng: int
    bag: tuple[int, ...]
    lid: tuple[int, ...]
    factories: tuple[tuple[int, ...], ...]
    centre: tuple[int, ...]
    marker: int
    boards: tuple[Board, ...]
    left: tuple[int, ...] = ()
    result: Outcome | None = None
    last: AzulEvent | None = None
    ply: int = 0
    _legal: tuple[AzulMove, ...] | None = field(default=None, compare=False, repr=False)

    game = "azul"

    # -- reading the position -------------------------------------------------

    @property
    def last_event(self) -> AzulEvent | None:
        """Return what the last ply did, or who left (``None`` before the first ply)."""
        return self.last

    @property
    def may_take_back(self) -> bool:
        """Whether the last ply may be taken back: a move (not a player leaving) while the game goes on that did
        not end a round, since ending one refills the factories from the bag, which reveals what was drawn."""
        last = self.last
        return last is not None and last.move is not None and not last.round_ended and self.result is None

    @property
    def to_move(self) -> int | None:
        """Return the seat to move (or to choose a wall column); None once the game is over."""
        return None if self.result is not None else self.turn

    def scores(self) -> tuple[int, ...]:
        """Return each player's points so far (end-of-game bonuses are added when the game ends)."""
        return tuple(board.score for board in self.boards)

    def outcome(self) -> Outcome | None:
        """Return how the game ended, or None while it runs."""
        return self.result

    def options(self) -> dict[str, Any]:
        """Return the game's options as given to :func:`new`."""
        return {
            "first_player": self.first_player,
            "wall": "grey" if self.grey_wall else "colour",
            "max_rounds": self.max_rounds,
        }

    def victory(self) -> tuple[int, int, int | None]:
        """Return how a game that ended on the wall was won: the winners' points, their complete rows,
        and the most complete rows among the other players tied on points (``None`` if nobody else was).
        """
        result = self.result
        if result is None:
            raise ValueError("The game is not over.")
        scores = self.scores()
        best = scores[result.winners[0]]
        rows = self.boards[result.winners[0]].complete_rows()
        others = [
            self.boards[p].complete_rows()
            for p in self.active_players()
            if scores[p] == best and p not in result.winners
        ]
        return best, rows, max(others) if others else None

    def active_players(self) -> tuple[int, ...]:
        """Return the seats still taking part, in seat order."""
        return tuple(p for p in range(self.players) if p not in self.left)

    @property
    def bag_count(self) -> int:
        """Return the number of tiles in the bag."""
        return sum(self.bag)

    @property
    def lid_count(self) -> int:
        """Return the number of tiles in the box lid."""
        return sum(self.lid)

    def tile_counts(self) -> tuple[int, ...]:
        """Count every tile of the game by colour: bag, lid, table and boards (always 20 of each)."""
        pieces = [tiles_text(tiles) for tiles in self.factories]
        pieces.append(tiles_text(self.centre))
        for board in self.boards:
            pieces.append("".join(map(SPACE_LETTERS.__getitem__, board.wall + board.floor)))
            pieces.extend(LETTERS[k] * n for k, n in zip(board.line_colours, board.line_counts, strict=True))
        text = "".join(pieces)
        return tuple(self.bag[k] + self.lid[k] + text.count(letter) for k, letter in enumerate(LETTERS))

    def factory_text(self, number: int) -> str:
        """Return factory ``number``'s tiles as letters, e.g. ``'bbry'`` (empty string when empty)."""
        return tiles_text(self.factories[number - 1])

    def centre_text(self) -> str:
        """Return the centre's tiles as letters (the marker is not a tile; see ``marker``)."""
        return tiles_text(self.centre)

    def pending_line(self) -> int:
        """Return the pattern line (1..5) the player to move must tile now; 0 outside the grey-wall tiling."""
        if self.phase != TILING:
            return 0
        counts = self.boards[self.turn].line_counts
        return next(i + 1 for i in range(5) if counts[i] == i + 1)

    def wall_columns(self, player: int, line: int) -> tuple[int, ...]:
        """Return the wall columns (1..5) where ``player``'s complete ``line`` could be tiled now."""
        board = self.boards[player]
        row = line - 1
        colour = board.line_colours[row]
        if colour < 0:
            return ()
        if self.grey_wall:
            return tuple(c + 1 for c in grey_columns(board.wall, row, colour))
        column = WALL_COLUMN[row][colour]
        return (column + 1,) if board.wall[5 * row + column] < 0 else ()

    def legal_moves(self) -> tuple[AzulMove, ...]:
        """Return every legal move, sorted; empty exactly when the game is over."""
        legal = self._legal
        if legal is None:
            if self.phase == OFFER:
                legal = self._take_moves()
            elif self.phase == TILING:
                line = self.pending_line()
                colour = self.boards[self.turn].line_colours[line - 1]
                legal = tuple(AzulMove(WALL, colour, line, c) for c in self.wall_columns(self.turn, line))
            else:
                legal = ()
            _set_legal(self, legal)
        return legal

    def _take_moves(self) -> tuple[AzulMove, ...]:
        """Return every legal take, in sorted order, from precomputed tables and move tuples (the hot path)."""
        board = self.boards[self.turn]
        # ``accept`` gets bit 5 * colour + line for every (colour, pattern line) pair that can take tiles: every
        # colour its wall row still lacks on an empty line, the line's own colour on a part-filled one.
        empty, partial, full = _LINE_ROWS[board.line_counts]
        if OFFER_FULL_LINES:
            partial |= full
        accept = board.free & empty | _LINE_COLOUR_BITS[board.line_colours] & partial
        a0 = accept & 31
        a1 = accept >> 5 & 31
        a2 = accept >> 10 & 31
        a3 = accept >> 15 & 31
        a4 = accept >> 20
        moves: list[AzulMove] = []
        extend = moves.extend
        for source, tiles in enumerate((self.centre, *self.factories)):
            if tiles is not EMPTY5:
                b, y, r, k, w = tiles
                table = TAKES[source]
                if b:
                    extend(table[0][a0])
                if y:
                    extend(table[1][a1])
                if r:
                    extend(table[2][a2])
                if k:
                    extend(table[3][a3])
                if w:
                    extend(table[4][a4])
        return tuple(moves)

    # -- notation -------------------------------------------------------------

    def move_text(self, move: AzulMove) -> str:
        """Return the canonical text of ``move``: ``f3 red 4``, ``c blue floor`` or ``wall 3 c2``."""
        source, colour, line, column = move
        if source == WALL:
            return f"wall {line} c{column}"
        where = "c" if source == CENTRE else f"f{source}"
        return f"{where} {COLOURS[colour]} {'floor' if line == FLOOR else line}"

    def parse_move(self, text: str) -> AzulMove:
        """Read a move leniently (case, spaces, words like 'factory' or 'line'); raise :class:`GameError`."""
        return parse_move(self, text)

    # -- playing --------------------------------------------------------------

    def play(self, move: AzulMove | str) -> AzulState:
        """Return the state after ``move`` (a move or its text); raise :class:`GameError` if it is illegal."""
        if type(move) is not AzulMove:
            if isinstance(move, str):
                move = self.parse_move(move)
            elif not isinstance(move, AzulMove):
                raise InvalidMoveText("That is not an Azul move.")
        if self.result is not None:
            raise IllegalMove("The game is over.")
        if self.phase == TILING:
            return self._tile(move)
        return self._take(move)

    def _not_tiling(self) -> IllegalMove:
        """Explain that a wall move is not played now."""
        if self.grey_wall:
            return IllegalMove("Lines are tiled after the factory offer, when the factories and the centre are empty.")
        return IllegalMove("On the coloured wall, tiling is automatic at the end of each round.")

    def _check_take(self, move: AzulMove) -> int:
        """Raise :class:`IllegalMove` unless ``move`` is a legal take; return the number of tiles taken."""
        source, colour, line, column = move
        if source == WALL or column:
            raise self._not_tiling()
        if type(colour) is not int or not 0 <= colour < 5:
            raise IllegalMove(
                "That is not a tile colour; the colours are blue, yellow, red, black or white (b, y, r, k, w)."
            )
        name = COLOURS[colour]
        factories = len(self.factories)
        if source == CENTRE:
            taken = self.centre[colour]
            if not taken:
                raise IllegalMove("The centre has no {colour} tiles.", colour=name)
        elif type(source) is int and 1 <= source <= factories:
            tiles = self.factories[source - 1]
            taken = tiles[colour]
            if not taken:
                if tiles == EMPTY5:
                    raise IllegalMove("Factory {source} is empty.", source=source)
                raise IllegalMove("Factory {source} has no {colour} tiles.", source=source, colour=name)
        else:
            raise IllegalMove(
                "There is no factory {source}; this game has factories 1 to {factories}.",
                source=source,
                factories=factories,
            )
        if line != FLOOR:
            if type(line) is not int or not 1 <= line <= 5:
                raise IllegalMove("Pattern lines are numbered 1 to 5 from the top; or choose the floor.")
            board = self.boards[self.turn]
            row = line - 1
            held = board.line_counts[row]
            if held:
                if board.line_colours[row] != colour:
                    raise IllegalMove(
                        "Line {line} already holds {colour}.", line=line, colour=COLOURS[board.line_colours[row]]
                    )
                if held == line and not OFFER_FULL_LINES:
                    raise IllegalMove("Line {line} is already full; choose another line or the floor.", line=line)
            elif not board.free >> (5 * colour + row) & 1:
                raise IllegalMove("Your wall's row {line} already has {colour}.", line=line, colour=name)
        return taken

    def _take(self, move: AzulMove) -> AzulState:
        """Play a take; rebuild only the mover's board and the table."""
        source, colour, line, column = move
        player = self.turn
        board = self.boards[player]
        factories = self.factories
        centre = self.centre
        # The usual case, a move as legal_moves gives it, is checked here; anything else goes through the full
        # check, which names what is wrong (and lets through only what is legal after all).
        taken = 0
        if type(source) is int and type(colour) is int and 0 <= colour < 5 and not column:
            if source == CENTRE:
                taken = centre[colour]
            elif 0 < source <= len(factories):
                taken = factories[source - 1][colour]
            if taken and line != FLOOR:
                row = line - 1
                if type(line) is not int or not 0 <= row < 5:
                    taken = 0
                else:
                    held = board.line_counts[row]
                    if held:
                        if held >= line or board.line_colours[row] != colour:
                            taken = 0
                    elif not board.free >> (5 * colour + row) & 1:
                        taken = 0
        if not taken:
            taken = self._check_take(move)
        marker = self.marker
        took_marker = False
        if source == CENTRE:
            emptied = list(centre)  # a list and one tuple: cheaper than slices around the new item
            emptied[colour] = 0
            centre = tuple(emptied)
            if marker < 0:
                marker = player
                took_marker = True
        else:
            rest = factories[source - 1]
            b, y, r, k, w = centre
            rb, ry, rr, rk, rw = rest
            centre = (
                b + rb if colour else b,
                y + ry if colour != 1 else y,
                r + rr if colour != 2 else r,
                k + rk if colour != 3 else k,
                w + rw if colour != 4 else w,
            )
            displays = list(factories)
            displays[source - 1] = EMPTY5
            factories = tuple(displays)

        floor_start = len(board.floor)
        held = took_marker and floor_start >= FLOOR_SPACES
        line_start = 0 if line == FLOOR else board.line_counts[line - 1]
        board, to_line, to_floor = board_after_take(board, colour, line, taken, took_marker)
        to_lid = taken - to_line - to_floor
        lid = self.lid
        if to_lid:
            lid_list = list(lid)
            lid_list[colour] += to_lid
            lid = tuple(lid_list)
        boards_list = list(self.boards)
        boards_list[player] = board
        boards = tuple(boards_list)
        # An AzulEvent with every field given (the end-of-round fields empty), built without its keyword constructor.
        event = _tuple_new(
            AzulEvent,
            (
                player,
                move,
                taken,
                to_line,
                to_floor,
                to_lid,
                took_marker,
                (),
                (),
                0,
                (),
                (),
                "",
                line_start,
                floor_start,
                held,
                (),
                (),
                (),
            ),
        )

        if centre == EMPTY5 and factories.count(EMPTY5) == len(factories):
            return self._end_offer(boards, lid, marker, event)
        turn = player + 1 if player + 1 < self.players else 0
        if self.left:
            turn = _next_active(player, self.players, self.left)
        return _after_take(self, turn, lid, factories, centre, marker, boards, event, self.ply + 1)

    def _end_offer(self, boards: tuple[Board, ...], lid: tuple[int, ...], marker: int, event: AzulEvent) -> AzulState:
        """Run wall tiling once the table is empty (all of it, or up to a grey-wall choice)."""
        draft = _Tiling(self, boards, lid, marker, self.ply + 1)
        return draft.run(event)

    def _tile(self, move: AzulMove) -> AzulState:
        """Play a grey-wall tiling choice, then carry on tiling."""
        source, colour, line, column = move
        pending = self.pending_line()
        if source != WALL:
            raise IllegalMove("The factory offer is over; tile your line {line}, e.g. 'wall {line} c1'.", line=pending)
        if line != pending:
            if type(line) is int and 1 <= line <= 5 and self.boards[self.turn].line_counts[line - 1] == line:
                raise IllegalMove("Lines are tiled from the top: tile line {line} first.", line=pending)
            raise IllegalMove("Your line {line} is the one to tile now.", line=pending)
        board = self.boards[self.turn]
        if colour != board.line_colours[line - 1]:
            raise IllegalMove(
                "Your line {line} holds {colour}.", line=line, colour=COLOURS[board.line_colours[line - 1]]
            )
        if type(column) is not int or not 1 <= column <= 5:
            raise IllegalMove("Wall columns are numbered 1 to 5.")
        if board.wall[5 * (line - 1) + column - 1] >= 0:
            raise IllegalMove("Row {line}, column {column} of your wall is already tiled.", line=line, column=column)
        if column not in self.wall_columns(self.turn, line):
            raise IllegalMove(
                "Column {column} of your wall already has {colour}.", column=column, colour=COLOURS[colour]
            )
        draft = _Tiling(self, self.boards, self.lid, self.marker, self.ply + 1)
        draft.place(self.turn, line - 1, column - 1)
        return draft.run(AzulEvent(self.turn, move))

    def forfeit(self, player: int, how: str = FORFEIT) -> AzulState:
        """Return the state after ``player`` leaves the game: ``how`` is ``forfeit`` (resigned) or ``timeout``.

        With two players the other wins; with more, see the module docstring.
        """
        check_forfeit(self.result, player, self.players)
        if player in self.left:
            raise IllegalMove("Player {number} has already left the game.", number=player + 1)
        if forfeit_code(how) not in (FORFEIT, TIMEOUT, ABANDONED):
            raise IllegalMove("Azul has no draw by agreement.")
        kind = Termination(forfeit_code(how))
        left = (*self.left, player)
        event = AzulEvent(player, None, left=str(kind))
        remaining = [p for p in range(self.players) if p not in left]
        if len(remaining) == 1:
            winner = remaining[0]
            keys = tuple((1, 0) if p == winner else (0, left.index(p)) for p in range(self.players))
            result = outcome_by_keys(keys, self.scores(), kind)
            return _replace(self, phase=OVER, left=left, result=result, last=event, _legal=())
        # The leaver's tiles in play go back to the box lid; their wall and score stay as they were.
        board = self.boards[player]
        lid = list(self.lid)
        for row in range(5):
            if board.line_counts[row]:
                lid[board.line_colours[row]] += board.line_counts[row]
        for tile in board.floor:
            if tile != MARKER:
                lid[tile] += 1
        board = board._replace(line_colours=NO_LINES, line_counts=EMPTY5, floor=())
        boards = (*self.boards[:player], board, *self.boards[player + 1 :])
        turn = self.turn if self.turn != player else _next_active(player, self.players, left)
        state = _replace(self, turn=turn, lid=tuple(lid), boards=boards, left=left, last=event)
        if self.phase == TILING:
            # The leaver may have been the one choosing; carry on with whoever is next.
            return _Tiling(state, boards, tuple(lid), self.marker, self.ply).run(event)
        return state

    # -- text -----------------------------------------------------------------

    def board_text(self) -> str:
        """Return the position as plain text."""
        names = seat_names(self.players)
        if self.phase == OVER:
            head = f"Azul, game over after round {self.round}"
        else:
            doing = "factory offer" if self.phase == OFFER else f"wall tiling (line {self.pending_line()})"
            head = f"Azul, round {self.round}, {doing}: {names[self.turn]} to move"
        lines = [f"{head}; bag {self.bag_count}, lid {self.lid_count}."]
        empty = "dots empty spaces" if self.grey_wall else "lower case the colour of an empty wall space"
        lines.append(f"(capitals are tiles, {empty}, M the first-player marker)")
        factories = "  ".join(f"f{i + 1} {tiles_text(tiles).upper() or '-'}" for i, tiles in enumerate(self.factories))
        lines.append(f"factories: {factories}")
        centre = tiles_text(self.centre).upper() or "-"
        lines.append(f"centre: {centre}" + (" + first-player marker" if self.marker < 0 else ""))
        for p, board in enumerate(self.boards):
            status = " (left the game)" if p in self.left else ""
            holder = " (first-player marker)" if self.marker == p else ""
            lines.append(f"{names[p]}{status}{holder}: {board.score} points")
            for row in range(5):
                n = board.line_counts[row]
                pattern = "." * (row + 1 - n) + (LETTERS[board.line_colours[row]].upper() * n if n else "")
                wall = " ".join(self._wall_char(board, row, c) for c in range(5))
                lines.append(f"  {row + 1} {pattern:>5} | {wall}")
            floor = " ".join(FLOOR_LETTERS[t] for t in board.floor).upper() or "-"
            lines.append(f"  floor: {floor}" + (f" (−{FLOOR_LOSS[len(board.floor)]})" if board.floor else ""))
        return "\n".join(lines)

    def _wall_char(self, board: Board, row: int, column: int) -> str:
        colour = board.wall[5 * row + column]
        if colour >= 0:
            return LETTERS[colour].upper()
        return "." if self.grey_wall else LETTERS[WALL_COLOUR[row][column]]

    def to_json(self) -> dict[str, Any]:
        """Return a JSON-safe dict from which :func:`from_json` rebuilds this state exactly."""
        return {
            "game": "azul",
            "format": SAVE_FORMAT,
            "seed": self.seed,
            "players": self.players,
            "options": self.options(),
            "round": self.round,
            "phase": self.phase,
            "turn": self.turn,
            "starter": self.starter,
            "rng": self.rng,
            "bag": list(self.bag),
            "lid": list(self.lid),
            "factories": [tiles_text(tiles) for tiles in self.factories],
            "centre": tiles_text(self.centre),
            "marker": self.marker,
            "boards": [_board_to_json(board) for board in self.boards],
            "left": list(self.left),
            "ply": self.ply,
            "result": None if self.result is None else self.result.to_json(),
            "last": None if self.last is None else self.last.to_json(),
        }


def _board_to_json(board: Board) -> dict[str, Any]:
    """Return one board in the saved format: letters, ``.`` for empty, ``m`` for the marker."""
    wall = "".join(map(SPACE_LETTERS.__getitem__, board.wall))
    return {
        "score": board.score,
        "lines": [LETTERS[k] * n for k, n in zip(board.line_colours, board.line_counts, strict=True)],
        "wall": [wall[0:5], wall[5:10], wall[10:15], wall[15:20], wall[20:25]],
        "floor": "".join(map(FLOOR_LETTERS.__getitem__, board.floor)),
    }


_replace = keyword_replace(AzulState)
_set_legal = AzulState.__dict__["_legal"].__set__  # the cache's slot, as object.__setattr__ would set it


# The round machinery (engines.azul.tiling) builds AzulStates, so it is imported once the class exists; the
# package imports this module first (its names sort before tiling's), which keeps the cycle harmless.
from engines.azul.tiling import _after_take, _next_active, _Tiling, board_after_take, grey_columns  # noqa: E402
