"""Starting a game of Azul and reading a saved one, rejecting anything impossible."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from engines.azul.state import AzulState
from engines.azul.tables import (
    ALL_FREE,
    COLOURS,
    EMPTY5,
    EMPTY_BOARD,
    FACTORIES,
    FACTORY_SIZE,
    FLOOR,
    FLOOR_LOSS,
    FLOOR_SPACES,
    LETTERS,
    MARKER,
    MARKER_LETTER,
    OFFER,
    OPTIONS,
    OVER,
    PHASES,
    TILES_PER_COLOUR,
    TILING,
    WALL,
    WALL_COLOUR,
    AzulEvent,
    AzulMove,
    Board,
    Discard,
    Placement,
    Termination,
    _legacy_termination,
    bonus_points,
)
from engines.azul.tiling import _Tiling, fill_factories
from engines.base import (
    ABANDONED,
    FORFEIT,
    SAVE_FORMAT,
    TIMEOUT,
    InvalidOption,
    InvalidState,
    Outcome,
    check_players,
    check_seed,
    int_list,
    legacy_forfeit_code,
    load_saved,
    resolve_options,
    saved_options,
)
from engines.rng import Rng

# -- starting and loading -------------------------------------------------------------


def _options(players: Any, seed: Any, options: Mapping[str, Any]) -> dict[str, Any]:
    """Check the player count, the seed and the options; return the options with defaults filled in."""
    check_players(players, 2, 4)
    check_seed(seed)
    if isinstance(options.get("wall"), str):
        spelled = options["wall"].strip().lower()
        options = {**options, "wall": {"color": "colour", "gray": "grey"}.get(spelled, spelled)}
    opts = resolve_options(OPTIONS, options)
    if opts["first_player"] is not None and opts["first_player"] >= players:
        raise InvalidOption("first_player must be a seat from 0 to {last}.", last=players - 1)
    return opts


def new(players: int = 2, seed: int = 0, **options: Any) -> AzulState:
    """Start a game of Azul; options: ``first_player``, ``wall`` (colour or grey), ``max_rounds``."""
    opts = _options(players, seed, options)
    first_option = opts["first_player"]
    generator = Rng(seed)
    # The draw is made even when the option decides, so a seed always deals the same tiles.
    drawn = generator.below(players)
    first = drawn if first_option is None else first_option
    full_bag = (TILES_PER_COLOUR,) * 5
    factories, bag, lid, rng = fill_factories(full_bag, EMPTY5, generator.state, FACTORIES[players])
    return AzulState(
        players=players,
        seed=seed,
        grey_wall=opts["wall"] == "grey",
        first_player=first_option,
        max_rounds=opts["max_rounds"],
        round=1,
        phase=OFFER,
        turn=first,
        starter=first,
        rng=rng,
        bag=bag,
        lid=lid,
        factories=factories,
        centre=EMPTY5,
        marker=-1,
        boards=(EMPTY_BOARD,) * players,
    )


def from_json(data: Mapping[str, Any]) -> AzulState:
    """Rebuild a state saved by :meth:`AzulState.to_json`, rejecting anything impossible."""
    return load_saved("Azul", _from_json, data)


def _counts(value: Any, what: str) -> tuple[int, ...]:
    counts = int_list(value, what)
    if len(counts) != 5 or any(n < 0 for n in counts):
        raise InvalidState("The saved {what} must be five tile counts, one per colour.", what=what)
    return tuple(counts)


_TILES_TEXT = re.compile("(b*)(y*)(r*)(k*)(w*)")


def _letters(value: Any, what: str, most: int) -> tuple[int, ...]:
    """Return tile counts of a letter string in colour order such as ``'bbr'``."""
    match = _TILES_TEXT.fullmatch(value) if isinstance(value, str) and len(value) <= most else None
    if match is None:
        raise InvalidState(
            "The saved {what} is not a string of at most {most} tile letters (b, y, r, k, w in order).",
            what=what,
            most=most,
        )
    return tuple(map(len, match.groups()))


_COLOUR_WALL_TEXT = re.compile("".join(f"[.{LETTERS[WALL_COLOUR[r][c]]}]" for r in range(5) for c in range(5)))
_GREY_WALL_TEXT = re.compile("[.byrkw]{25}")
# The five pattern lines joined by "|": line n holds up to n tiles of one colour.
_LINES_TEXT = re.compile(r"\|".join(f"(b{{0,{n}}}|y{{0,{n}}}|r{{0,{n}}}|k{{0,{n}}}|w{{0,{n}}})" for n in range(1, 6)))
_FLOOR_TEXT = re.compile(f"[byrkw{MARKER_LETTER}]{{0,{FLOOR_SPACES}}}")
_SPACE_VALUE = {letter: k for k, letter in enumerate(LETTERS)} | {".": -1, MARKER_LETTER: MARKER}


_ROW_COLOURS: dict[str, int] = {}
# _SPREAD[mask] moves colour bit k of a 5-bit mask to bit 5 * k, the layout of ``Board.free``.


_SPREAD = tuple(sum(1 << (5 * k) for k in range(5) if mask >> k & 1) for mask in range(32))


def _row_colours(spaces: str) -> int:
    """Return the colours present in five wall spaces as a 5-bit mask, or -1 if a colour repeats."""
    mask = _ROW_COLOURS.get(spaces)
    if mask is None:
        tiles = [_SPACE_VALUE[ch] for ch in spaces if ch != "."]
        mask = sum(1 << k for k in set(tiles)) if len(set(tiles)) == len(tiles) else -1
        _ROW_COLOURS[spaces] = mask  # at most 6 ** 5 different texts
    return mask


def _board_from_json(data: Any, grey: bool, seat: int) -> Board:
    """Rebuild one board, checking its wall, pattern lines and floor."""
    if type(data) is not dict and not isinstance(data, Mapping):
        raise InvalidState("The saved board of player {number} is not an object.", number=seat + 1)
    score, lines, rows, floor_text = data["score"], data["lines"], data["wall"], data["floor"]
    if type(score) is not int or score < 0:
        raise InvalidState("The saved score of player {number} is not a whole number of points.", number=seat + 1)
    # str.join refuses anything but strings; from_json turns that TypeError into InvalidState.
    if type(rows) is not list or list(map(len, rows)) != [5, 5, 5, 5, 5]:
        raise InvalidState(
            "The saved wall of player {number}'s board is not five rows of five spaces.", number=seat + 1
        )
    text = "".join(rows)
    if not (_GREY_WALL_TEXT if grey else _COLOUR_WALL_TEXT).fullmatch(text):
        raise InvalidState("The saved wall of player {number}'s board holds a tile where none can be.", number=seat + 1)
    wall = tuple(map(_SPACE_VALUE.__getitem__, text))
    free = ALL_FREE
    for r, row in enumerate(rows):
        present = _row_colours(row)
        if grey and (present < 0 or _row_colours(text[r::5]) < 0):
            raise InvalidState(
                "The saved wall of player {number}'s board repeats a colour in a row or a column.", number=seat + 1
            )
        free &= ~(_SPREAD[present] << r)
    if type(lines) is not list or len(lines) != 5:
        raise InvalidState("The saved pattern lines of player {number}'s board are not five lines.", number=seat + 1)
    if _LINES_TEXT.fullmatch("|".join(lines)) is None:
        raise InvalidState("The saved pattern lines of player {number}'s board are impossible.", number=seat + 1)
    colours = tuple(_SPACE_VALUE[line[0]] if line else -1 for line in lines)
    counts = tuple(map(len, lines))
    for i, colour in enumerate(colours):
        if colour >= 0 and not free >> (5 * colour + i) & 1:
            raise InvalidState(
                "Pattern line {line} of player {number}'s board holds a colour its wall row already has.",
                line=i + 1,
                number=seat + 1,
            )
    if not isinstance(floor_text, str) or not _FLOOR_TEXT.fullmatch(floor_text) or floor_text.count(MARKER_LETTER) > 1:
        raise InvalidState("The saved floor line of player {number}'s board is impossible.", number=seat + 1)
    floor = tuple(map(_SPACE_VALUE.__getitem__, floor_text))
    return Board(score, colours, counts, wall, floor, free)


def _seat(value: Any, players: int, what: str) -> int:
    if type(value) is not int or not 0 <= value < players:
        raise InvalidState("The saved {what} is not a seat of this game.", what=what)
    return value


def _from_json(data: Mapping[str, Any]) -> AzulState:
    """Rebuild a state; any impossibility raises :class:`InvalidState`."""
    options = saved_options(data, "azul", "Azul")
    players, seed = data["players"], data["seed"]
    try:
        opts = _options(players, seed, options)
    except InvalidOption as exc:
        raise InvalidState("The saved options are impossible: {error}", error=exc) from None
    grey, max_rounds = opts["wall"] == "grey", opts["max_rounds"]
    round_, phase, rng = data["round"], data["phase"], data["rng"]
    if type(round_) is not int or not 1 <= round_ <= max_rounds:
        raise InvalidState("The saved round number is impossible.")
    if phase not in PHASES or (phase == TILING and not grey):
        raise InvalidState("The saved phase is impossible.")
    if type(rng) is not int or not 0 <= rng < 2**64:
        raise InvalidState("The saved generator state is impossible.")
    turn = _seat(data["turn"], players, "player to move")
    starter = _seat(data["starter"], players, "first player")
    marker = data["marker"]
    if marker != -1:
        marker = _seat(marker, players, "marker holder")
    bag, lid = _counts(data["bag"], "bag"), _counts(data["lid"], "lid")
    factories_data = data["factories"]
    if not isinstance(factories_data, list) or len(factories_data) != FACTORIES[players]:
        raise InvalidState(
            "A {players}-player game has {factories} factories.", players=players, factories=FACTORIES[players]
        )
    factories = tuple(_letters(text, "factory", FACTORY_SIZE) for text in factories_data)
    centre = _letters(data["centre"], "centre", 5 * TILES_PER_COLOUR)
    boards_data = data["boards"]
    if not isinstance(boards_data, list) or len(boards_data) != players:
        raise InvalidState("The saved game does not have one board per player.")
    boards = tuple(_board_from_json(b, grey, i) for i, b in enumerate(boards_data))
    left_list = int_list(data["left"], "leavers")
    if len(set(left_list)) != len(left_list) or any(not 0 <= p < players for p in left_list):
        raise InvalidState("The saved list of players who left is impossible.")
    left = tuple(left_list)

    # Every one of the 100 tiles is somewhere, exactly once (the texts were all checked above).
    pieces = [*factories_data, data["centre"]]
    for board_data in boards_data:
        pieces += board_data["wall"]
        pieces += board_data["lines"]
        pieces.append(board_data["floor"])
    text = "".join(pieces)
    for colour, letter in enumerate(LETTERS):
        total = bag[colour] + lid[colour] + text.count(letter)
        if total != TILES_PER_COLOUR:
            raise InvalidState(
                "The saved game has {total} {colour} tiles instead of {expected}.",
                total=total,
                colour=COLOURS[colour],
                expected=TILES_PER_COLOUR,
            )
    carriers = [p for p, board in enumerate(boards) if MARKER in board.floor]
    if len(carriers) > 1 or (carriers and carriers[0] != marker):
        raise InvalidState("The first-player marker is on the wrong floor line.")
    # A holder without the marker on their floor took it onto a full floor (or has left the game).
    if phase != OVER and marker >= 0 and not carriers and marker not in left and len(boards[marker].floor) < 7:
        raise InvalidState("The first-player marker's holder does not have it on their floor line.")

    version = data["format"]
    legacy = _legacy_termination if version == 1 else None
    result = None if data["result"] is None else Outcome.from_json(data["result"], players, Termination, legacy)
    last = None
    if data["last"] is not None:
        last = _event_from_json(data["last"], players, len(factories), version, boards, grey)
        if last.after and last.after != tuple(board.score for board in boards):
            raise InvalidState("The saved last move's scores do not match the boards.")
    # Format 1 did not count plies: such a game counts them from where it was saved.
    ply = 0 if version == 1 else data["ply"]
    if type(ply) is not int or ply < 0:
        raise InvalidState("The saved ply count is impossible.")
    state = AzulState(
        players=players,
        seed=seed,
        grey_wall=grey,
        first_player=opts["first_player"],
        max_rounds=max_rounds,
        round=round_,
        phase=phase,
        turn=turn,
        starter=starter,
        rng=rng,
        bag=bag,
        lid=lid,
        factories=factories,
        centre=centre,
        marker=marker,
        boards=boards,
        left=left,
        result=result,
        last=last,
        ply=ply,
    )
    active = [p for p in range(players) if p not in left]
    if (phase == OVER) != (result is not None):
        raise InvalidState("The saved phase and result disagree.")
    if result is not None:
        if result.scores != state.scores():
            raise InvalidState("The saved result does not match the scores.")
        return state
    if len(active) < 2:
        raise InvalidState("The saved game should be over: fewer than two players remain.")
    if turn in left:
        raise InvalidState("The saved player to move has left the game.")
    if any(any(boards[p].line_counts) or boards[p].floor for p in left):
        raise InvalidState("A player who left still has tiles in play.")
    if last is None and (round_ != 1 or phase != OFFER or marker != -1 or turn != starter or centre != EMPTY5):
        raise InvalidState("The saved game has no last move but is not at its start.")
    table_empty = centre == EMPTY5 and all(tiles == EMPTY5 for tiles in factories)
    if phase == OFFER:
        if table_empty:
            raise InvalidState("The saved factory offer has no tiles left to take.")
        if any(boards[p].complete_rows() for p in active):
            raise InvalidState("The saved game should be over: a wall row is complete.")
    else:
        if not table_empty:
            raise InvalidState("The saved wall tiling still has tiles on the table.")
        draft = _Tiling(state, boards, lid, marker, state.ply)
        if draft.waiting() != turn or draft.placements or draft.discards:
            raise InvalidState("The saved wall tiling is not waiting for this player.")
    return state


def _event_from_json(
    data: Any,
    players: int,
    factories: int,
    version: int = SAVE_FORMAT,
    boards: tuple[Board, ...] | None = None,
    grey: bool = False,
) -> AzulEvent:
    """Rebuild the last ply's event, checking its ranges.

    An event saved before the engine kept where the take's tiles went and the scores around the ply (it has no
    ``after``) gets them from the saved ``boards`` when they are given (see :func:`_legacy_event`).
    """
    if not isinstance(data, Mapping):
        raise InvalidState("The saved last move is not an object.")
    player = data["player"]
    _seat(player, players, "last mover")
    move_data = data["move"]
    move = None
    if move_data is not None:
        values = int_list(move_data, "last move")
        if len(values) != 4:
            raise InvalidState("The saved last move is malformed.")
        move = AzulMove(*values)
        source, colour, line, column = move
        if source == WALL:
            ok = 0 <= colour < 5 and 1 <= line <= 5 and 1 <= column <= 5
        else:
            ok = 0 <= source <= factories and 0 <= colour < 5 and 1 <= line <= FLOOR and column == 0
        if not ok:
            raise InvalidState("The saved last move is impossible.")
    numbers = [data[name] for name in ("taken", "to_line", "to_floor", "to_lid", "round_ended")]
    if any(type(n) is not int or n < 0 for n in numbers) or type(data["marker"]) is not bool:
        raise InvalidState("The saved last move's counts are malformed.")
    taken, to_line, to_floor, to_lid, round_ended = numbers
    if taken != to_line + to_floor + to_lid or taken > 4 * factories * 5:
        raise InvalidState("The saved last move's tile counts do not add up.")
    left = data["left"]
    if version == 1 and isinstance(left, str) and left:
        left = legacy_forfeit_code(left)  # format 1 kept the bot's sentence ("Bo resigned.")
    if not isinstance(left, str) or (move is None) != bool(left) or left not in ("", FORFEIT, TIMEOUT, ABANDONED):
        raise InvalidState("The saved last move's leaving reason is malformed.")
    placements = []
    for item in _list(data["placements"], "placements"):
        values = int_list(item, "placement")
        if len(values) != 5:
            raise InvalidState("A saved placement is malformed.")
        placement = Placement(*values)
        if not (0 <= placement.player < players and 1 <= placement.row <= 5 and 1 <= placement.column <= 5):
            raise InvalidState("A saved placement is off the wall.")
        if not (0 <= placement.colour < 5 and 1 <= placement.points <= 10):
            raise InvalidState("A saved placement is impossible.")
        placements.append(placement)
    discards = []
    for item in _list(data["discards"], "discards"):
        values = int_list(item, "discard")
        if len(values) != 4:
            raise InvalidState("A saved discard is malformed.")
        discard = Discard(*values)
        if not (0 <= discard.player < players and 1 <= discard.row <= 5 and 0 <= discard.colour < 5):
            raise InvalidState("A saved discard is impossible.")
        if discard.tiles != discard.row:
            raise InvalidState("A saved discard is impossible.")
        discards.append(discard)
    penalties = tuple(int_list(data["penalties"], "penalties"))
    if penalties and (len(penalties) != players or any(not 0 <= n <= FLOOR_LOSS[-1] for n in penalties)):
        raise InvalidState("The saved floor penalties are impossible.")
    if bool(penalties) != bool(round_ended):
        raise InvalidState("The saved round end is malformed.")
    bonuses = []
    for item in _list(data["bonuses"], "bonuses"):
        values = int_list(item, "bonus")
        if len(values) != 3 or any(not 0 <= n <= 5 for n in values):
            raise InvalidState("A saved bonus is impossible.")
        bonuses.append((values[0], values[1], values[2]))
    if bonuses and (len(bonuses) != players or not round_ended):
        raise InvalidState("The saved bonuses are impossible.")
    event = AzulEvent(
        player=player,
        move=move,
        taken=taken,
        to_line=to_line,
        to_floor=to_floor,
        to_lid=to_lid,
        marker=data["marker"],
        placements=tuple(placements),
        discards=tuple(discards),
        round_ended=round_ended,
        penalties=penalties,
        bonuses=tuple(bonuses),
        left=left,
    )
    if "after" in data:
        return _event_details(event, data, players)
    return event if boards is None else _legacy_event(event, boards, grey)


def _event_details(event: AzulEvent, data: Mapping[str, Any], players: int) -> AzulEvent:
    """Add the saved landing spaces and scores to ``event``, checking that they agree with the rules."""
    line_start, floor_start, held = data["line_start"], data["floor_start"], data["marker_held"]
    if type(line_start) is not int or type(floor_start) is not int or type(held) is not bool:
        raise InvalidState("The saved last move's landing spaces are malformed.")
    move = event.move
    line = move.line if move is not None and move.source != WALL and move.line != FLOOR else 0
    if not (line_start == event.to_line == 0 or (line_start >= 0 and line_start + event.to_line <= line)):
        raise InvalidState("The saved last move's pattern-line spaces are impossible.")
    if held and not event.marker:
        raise InvalidState("The saved last move holds a marker it did not take.")
    event = event._replace(line_start=line_start, floor_start=floor_start, marker_held=held)
    if floor_start < 0 or floor_start + len(event.floor_spaces()) > FLOOR_SPACES:
        raise InvalidState("The saved last move's floor spaces are impossible.")
    before_data = _list(data["before"], "scores before the last move")
    if any(n is not None and (type(n) is not int or n < 0) for n in before_data):
        raise InvalidState("The saved scores before the last move are impossible.")
    before: tuple[int | None, ...] = tuple(before_data)
    after = tuple(int_list(data["after"], "scores after the last move"))
    clipped = tuple(_list(data["clipped"], "clipped scores"))
    if len(before) != len(after) or len(after) not in (0, players) or any(n < 0 for n in after):
        raise InvalidState("The saved scores around the last move are impossible.")
    if any(type(c) is not bool for c in clipped) or len(clipped) != (players if event.round_ended else 0):
        raise InvalidState("The saved clipped scores are impossible.")
    event = event._replace(before=before, after=after, clipped=clipped)
    for p, was in enumerate(before):
        step = event.score_step(p)
        if step is None:
            if was != after[p]:
                raise InvalidState("The saved scores around the last move do not add up.")
            continue
        if was is None:  # kept by a save made before the engine knew it (see _legacy_scores)
            continue
        total = was + step.gain - step.penalty
        if step.clipped != (total < 0) or step.after != max(0, total) + step.bonus:
            raise InvalidState("The saved scores around the last move do not add up.")
    return event


def _legacy_event(event: AzulEvent, boards: tuple[Board, ...], grey: bool) -> AzulEvent:
    """Fill in what an event saved before the engine kept it lacks, from the saved boards after the ply.

    Such a save says where the take's tiles went and the scores around the ply only through the boards, so they
    are worked out from them as the text and the picture did then: a save shows and reads exactly as before.
    """
    changes: dict[str, Any] = {}
    move = event.move
    mover = event.player
    if move is not None and move.source != WALL:
        board = boards[mover]
        if move.line != FLOOR and event.to_line:
            emptied = any(p.player == mover and p.row == move.line for p in event.placements) or any(
                d.player == mover and d.row == move.line for d in event.discards
            )
            filled = move.line if emptied else board.line_counts[move.line - 1]
            changes["line_start"] = max(0, filled - event.to_line)
        if not event.round_ended:  # the round's end emptied the floor: nothing is left to tell
            on_floor = event.marker and MARKER in board.floor
            changes["marker_held"] = event.marker and not on_floor
            count = event.to_floor + (1 if on_floor else 0)
            # Grey-wall lines that went to the floor in this ply came after the take's tiles.
            later = sum(d.tiles for d in event.discards if d.player == mover)
            changes["floor_start"] = max(count, len(board.floor) - later) - count
    if event.placements or event.discards or event.round_ended:
        changes.update(_legacy_scores(event, boards, grey))
    return event._replace(**changes) if changes else event


def _legacy_scores(event: AzulEvent, boards: tuple[Board, ...], grey: bool) -> dict[str, Any]:
    """Return the scores around an old save's ply (``before``, ``after``, ``clipped``) as far as its boards tell.

    Without a clip they add up backwards from the score after.  When the floor took a score to 0 the score before
    is only known in round 1 of the coloured wall (every tile of the round was scored in that ply, from 0);
    otherwise it is ``None`` and the score counts as clipped.
    """
    after = tuple(board.score for board in boards)
    before: list[int | None] = []
    clipped: list[bool] = []
    for p, score in enumerate(after):
        gain = sum(pl.points for pl in event.placements if pl.player == p)
        penalty = event.penalties[p] if event.penalties else 0
        before_bonus = score - (bonus_points(event.bonuses[p]) if event.bonuses else 0)
        if not penalty or before_bonus > 0:
            was = before_bonus + penalty - gain
            before.append(was if was >= 0 else None)
            clipped.append(False)
        elif event.round_ended == 1 and not grey:
            before.append(0)
            clipped.append(gain < penalty)
        else:
            before.append(None)
            clipped.append(True)
    return {"before": tuple(before), "after": after, "clipped": tuple(clipped) if event.round_ended else ()}


def _list(value: Any, what: str) -> list[Any]:
    if not isinstance(value, list):
        raise InvalidState("The saved {what} are not a list.", what=what)
    return value
