"""A match as text: a header of ``# key: value`` lines, then one ply a line.

The format extends the move files ``python -m engines --moves-file`` has always read
(one move a line, ``#`` starts a comment), so a plain move list is a record with an
empty header and a record is still a move list to an older reader.  Header lines come
before the first ply; every value is plain text except ``options``, which is a JSON
object (options can be lists or tables, as Summer's weights or Querni's layout)::

    # Tabula match record
    # game: pond
    # options: {"variant": "mini"}
    # seed: 7
    # players: 2
    # player 1: Ana
    # player 2: Bo
    # date: 2026-12-01T09:10:00+00:00
    # winners: 1
    # scores: 7, 5
    # termination: forfeit
    place b2
    place c2
    forfeit 2: forfeit

Seats are numbered from 1 in the text (``player 1``, ``winners``, ``forfeit 2``) and
from 0 in the values.  A ply line is a move in the game's notation, or
``forfeit N: CODE`` for a player who left, CODE being how (``forfeit``: resigned,
``timeout``, ``abandoned``, ``agreed``), followed by ``by M`` when player M claimed a
lost deadline (``forfeit 3: timeout by 1``).  Records written before forfeits were codes
hold the bot's sentence there ("Bo resigned."): it is read with
:func:`~engines.base.legacy_forfeit_code`.  Unknown header keys are refused rather
than skipped: a mistyped ``sead`` must not silently replay a different Azul bag.

Pure: strings in, strings and values out; the caller supplies the date.

>>> record = GameRecord("pond", options={"variant": "mini"}, seed=7, players=2, names=("Ana", "Bo"),
...                     plies=("place b2", "place c2"))
>>> parse_record(format_record(record)) == record
True
>>> replay(record)[-1].to_json() == GAMES["pond"].new(players=2, seed=7, variant="mini").play("place b2").play(
...     "place c2").to_json()
True
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from engines import GAMES, GameError, GameState, Outcome
from engines.base import FORFEIT_CODES, legacy_forfeit_code

TITLE = "# Tabula match record"
# The order header fields are written in; "player N" lines follow "players".
FIELDS = ("game", "options", "seed", "players", "date", "winners", "scores", "termination")
_KEY = re.compile(r"#\s*([A-Za-z][A-Za-z_]*(?: [0-9]+)?)\s*:(.*)")
_FORFEIT = re.compile(r"forfeit\s+([0-9]+)\s*:(.*)", re.IGNORECASE)
_HOW = re.compile(r"([a-z_]+)(?:\s+by\s+([0-9]+))?", re.IGNORECASE)
_DATE = re.compile(r"\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?")
_INT = re.compile(r"[+-]?[0-9]+")


class RecordError(GameError):
    """A match record that cannot be read or replayed; ``str()`` names the line or ply."""


@dataclass(frozen=True, slots=True)
class Forfeit:
    """A ply where ``seat`` (0-based) left the game: ``reason`` is how, a code of :data:`~engines.base.FORFEIT_CODES`.

    ``by`` is the seat that claimed a lost deadline (``None``: nobody, or not known).
    """

    seat: int
    reason: str
    by: int | None = None


Ply = str | Forfeit


@dataclass(frozen=True, slots=True)
class Result:
    """How the recorded game ended: winners (0-based seats), scores and the termination."""

    winners: tuple[int, ...]
    scores: tuple[int, ...]
    termination: str = ""


@dataclass(frozen=True)
class GameRecord:
    """A match as data.  Absent header fields are ``None`` (``options``: empty); see :func:`start_state`."""

    game: str | None = None
    options: Mapping[str, Any] = field(default_factory=dict)
    seed: int | None = None
    players: int | None = None
    names: tuple[str, ...] = ()
    date: str | None = None
    result: Result | None = None
    plies: tuple[Ply, ...] = ()


def termination_of(outcome: Outcome) -> str:
    """Say how ``outcome`` ended as header text: its termination code."""
    return str(outcome.termination)


def result_of(state: GameState) -> Result | None:
    """Return the result of a finished ``state``, or ``None`` while it runs."""
    outcome = state.outcome()
    if outcome is None:
        return None
    return Result(tuple(outcome.winners), tuple(outcome.scores), termination_of(outcome))


def apply_ply(state: GameState, ply: Ply) -> GameState:
    """Play one recorded ply: a move text, or a forfeit."""
    if isinstance(ply, Forfeit):
        return state.forfeit(ply.seat, ply.reason)
    return state.play(ply)


def ply_text(ply: Ply) -> str:
    """Return the line a ply is written as (a forfeit's seat counted from 1)."""
    if isinstance(ply, Forfeit):
        by = "" if ply.by is None else f" by {ply.by + 1}"
        return f"forfeit {ply.seat + 1}: {_one_line(ply.reason)}{by}".rstrip()
    return ply


def start_state(record: GameRecord) -> GameState:
    """Start the recorded game: its options and seed (default 0), its players (default the game's minimum)."""
    if record.game is None:
        raise RecordError("The record does not say which game it is (a '# game: NAME' line).")
    spec = GAMES.get(record.game)
    if spec is None:
        raise RecordError(
            "Unknown game {game!r}; the games are: {games}.", game=record.game, games=", ".join(sorted(GAMES))
        )
    players = record.players if record.players is not None else spec.min_players
    seed = record.seed if record.seed is not None else 0
    try:
        return spec.new(players=players, seed=seed, **dict(record.options))
    except GameError as error:
        raise RecordError("The record's game cannot start: {error}", error=error) from None


def replay(record: GameRecord) -> list[GameState]:
    """Return every position of the recorded game, from the start to after its last ply.

    Raises :class:`RecordError` naming the first ply the rules refuse.
    """
    states = [start_state(record)]
    for number, ply in enumerate(record.plies, 1):
        try:
            states.append(apply_ply(states[-1], ply))
        except GameError as error:
            raise RecordError(
                "Ply {number} ({move!r}) was refused: {error}", number=number, move=ply_text(ply), error=error
            ) from None
    return states


@dataclass(frozen=True, slots=True)
class Settings:
    """What starts a game: its name, seed, number of players and options (``None``: not given)."""

    game: str | None
    seed: int | None
    players: int | None
    options: Mapping[str, Any]


def merge_settings(
    record: GameRecord, *, game: str | None, seed: int | None, players: int | None, options: Mapping[str, Any]
) -> Settings:
    """Combine a record's header with settings given elsewhere (a command line), which must agree with it.

    >>> merge_settings(GameRecord("pond", seed=7), game=None, seed=None, players=2, options={}).seed
    7
    >>> merge_settings(GameRecord("pond", seed=7), game="pond", seed=3, players=None, options={})
    Traceback (most recent call last):
    ...
    engines.record.RecordError: The file records seed 7, but seed 3 was given.
    """
    if record.game is not None:
        if game is not None and game.lower() != record.game:
            raise RecordError("The file records {recorded}, not {game}.", recorded=record.game, game=game)
        game = record.game
    if record.seed is not None:
        if seed is not None and seed != record.seed:
            raise RecordError(
                "The file records seed {recorded}, but seed {seed} was given.", recorded=record.seed, seed=seed
            )
        seed = record.seed
    if record.players is not None:
        if players is not None and players != record.players:
            raise RecordError(
                "The file records {recorded} players, but {players} were given.",
                recorded=record.players,
                players=players,
            )
        players = record.players
    if record.game is not None or record.options:
        if any(key not in record.options or record.options[key] != value for key, value in options.items()):
            recorded = json.dumps(dict(record.options), sort_keys=True)
            raise RecordError(
                "The file records the options {recorded}; other options must agree with them.", recorded=recorded
            )
        options = record.options
    return Settings(game, seed, players, dict(options))


def new_record(
    game: str,
    plies: Sequence[Ply],
    *,
    options: Mapping[str, Any] | None = None,
    seed: int = 0,
    players: int | None = None,
    names: Sequence[str] = (),
    date: str | None = None,
) -> GameRecord:
    """Build the record of a game, replaying ``plies`` to check them and to fill in the result."""
    spec = GAMES.get(game)
    if spec is None:
        raise RecordError("Unknown game {game!r}; the games are: {games}.", game=game, games=", ".join(sorted(GAMES)))
    record = GameRecord(
        game=game,
        options=dict(options or {}),
        seed=seed,
        players=players if players is not None else spec.min_players,
        names=tuple(names),
        date=date,
        plies=tuple(plies),
    )
    return replace(record, result=result_of(replay(record)[-1]))


# -- writing ---------------------------------------------------------------------------------------------------------


def _one_line(text: str) -> str:
    """Replace line breaks and other control characters by spaces, so a value stays on its line."""
    return "".join(" " if unicodedata.category(ch)[0] == "C" else ch for ch in text).strip()


def _seats(seats: Sequence[int]) -> str:
    return ", ".join(str(seat + 1) for seat in seats)


def format_record(record: GameRecord) -> str:
    """Write ``record`` as text: the title, the header fields that are set, then one ply a line."""
    lines = [TITLE]
    if record.game is not None:
        lines.append(f"# game: {record.game}")
        lines.append(f"# options: {json.dumps(dict(record.options), sort_keys=True, ensure_ascii=False)}")
    elif record.options:
        lines.append(f"# options: {json.dumps(dict(record.options), sort_keys=True, ensure_ascii=False)}")
    if record.seed is not None:
        lines.append(f"# seed: {record.seed}")
    if record.players is not None:
        lines.append(f"# players: {record.players}")
    for seat, name in enumerate(record.names, 1):
        lines.append(f"# player {seat}: {_one_line(name) or f'Player {seat}'}")
    if record.date is not None:
        lines.append(f"# date: {_one_line(record.date)}")
    if record.result is not None:
        lines.append(f"# winners: {_seats(record.result.winners)}")
        lines.append(f"# scores: {', '.join(str(score) for score in record.result.scores)}")
        if record.result.termination:
            lines.append(f"# termination: {_one_line(record.result.termination)}")
    lines.extend(ply_text(ply) for ply in record.plies)
    return "\n".join(lines) + "\n"


# -- reading ---------------------------------------------------------------------------------------------------------


def _number(value: str, key: str, line: int) -> int:
    if not _INT.fullmatch(value):
        raise RecordError("Line {line}: {key} must be a whole number, not {value!r}.", line=line, key=key, value=value)
    return int(value)


def _numbers(value: str, key: str, line: int) -> tuple[int, ...]:
    parts = [part.strip() for part in value.split(",")]
    return tuple(_number(part, key, line) for part in parts)


def parse_record(text: str) -> GameRecord:
    """Read a record written by :func:`format_record`, or a plain move list.

    Raises :class:`RecordError` with the line number for a malformed header: an
    unknown key, a repeated one, a value that does not parse, a header line after
    the first ply, names or results that do not match the number of players.
    """
    values: dict[str, Any] = {}
    lines_of: dict[str, int] = {}
    names: dict[int, str] = {}
    plies: list[Ply] = []
    for number, raw in enumerate(text.removeprefix("\ufeff").splitlines(), 1):  # a byte-order mark is no ply
        line = raw.strip()
        if not line:
            continue
        if line.startswith("#"):
            match = _KEY.fullmatch(line)
            if match is None:
                continue  # a remark such as the title line
            key, value = match.group(1).lower(), match.group(2).strip()
            is_name = key.startswith("player ")
            if key not in FIELDS and not is_name:
                if plies:
                    continue  # after the moves, '#' lines are free remarks
                known = ", ".join((*FIELDS, "player N"))
                raise RecordError(
                    "Line {line}: unknown header key {key!r}; the keys are: {known}.", line=number, key=key, known=known
                )
            if plies:
                raise RecordError(
                    "Line {line}: the header line {key!r} comes after the first ply.", line=number, key=key
                )
            if key in lines_of:
                raise RecordError(
                    "Line {line}: {key!r} is given twice (also on line {other}).",
                    line=number,
                    key=key,
                    other=lines_of[key],
                )
            lines_of[key] = number
            if not value and key != "termination":
                raise RecordError("Line {line}: {key!r} has no value.", line=number, key=key)
            if is_name:
                names[int(key.split()[1])] = value
            else:
                values[key] = _header_value(key, value, number)
            continue
        forfeit = _FORFEIT.fullmatch(line)
        if forfeit is not None:
            seat = int(forfeit.group(1))
            if seat < 1:
                raise RecordError("Line {line}: players are numbered from 1, not {seat}.", line=number, seat=seat)
            plies.append(_forfeit_ply(seat - 1, forfeit.group(2).strip()))
            continue
        move = line.split("#", 1)[0].strip()
        if move:
            plies.append(move)
    return _check(values, lines_of, names, tuple(plies))


def _forfeit_ply(seat: int, text: str) -> Forfeit:
    """Read the part of a forfeit line after the colon: ``CODE`` or ``CODE by M``, or an old record's sentence."""
    how = _HOW.fullmatch(text)
    if how is not None and how.group(1).lower() in FORFEIT_CODES:
        by = None if how.group(2) is None else int(how.group(2)) - 1
        return Forfeit(seat, how.group(1).lower(), by)
    return Forfeit(seat, legacy_forfeit_code(text))


def _header_value(key: str, value: str, line: int) -> Any:
    """Decode one header value; raise :class:`RecordError` naming the line if it is malformed."""
    if key == "game":
        game = value.lower()
        if game not in GAMES:
            raise RecordError(
                "Line {line}: unknown game {game!r}; the games are: {games}.",
                line=line,
                game=value,
                games=", ".join(sorted(GAMES)),
            )
        return game
    if key == "options":
        try:
            options = json.loads(value)
        except json.JSONDecodeError:
            options = None
        if not isinstance(options, dict):
            raise RecordError('Line {line}: options must be a JSON object such as {{"variant": "mini"}}.', line=line)
        return options
    if key in ("seed", "players"):
        return _number(value, key, line)
    if key == "date":
        if not _DATE.fullmatch(value):
            raise RecordError("Line {line}: the date must look like 2026-12-01 or 2026-12-01T09:10:00Z.", line=line)
        return value
    if key in ("winners", "scores"):
        return _numbers(value, key, line)
    return value  # termination: free text


def _check(
    values: dict[str, Any], lines_of: dict[str, int], names: dict[int, str], plies: tuple[Ply, ...]
) -> GameRecord:
    """Check the header fields against each other and build the record."""
    game: str | None = values.get("game")
    players: int | None = values.get("players")
    spec = GAMES[game] if game is not None else None
    if players is not None and spec is not None and not spec.min_players <= players <= spec.max_players:
        raise RecordError(
            "Line {line}: {title} is played by {minimum} to {maximum} players, not {players}.",
            line=lines_of["players"],
            title=spec.title,
            minimum=spec.min_players,
            maximum=spec.max_players,
            players=players,
        )
    if names:
        expected = players if players is not None else len(names)
        if sorted(names) != list(range(1, expected + 1)):
            listed = ", ".join(str(seat) for seat in sorted(names))
            raise RecordError(
                "The header names players {listed}; it needs exactly players 1 to {expected}.",
                listed=listed,
                expected=expected,
            )
    seats = players if players is not None else (len(names) or None)
    result = None
    if "winners" in values or "scores" in values:
        if "winners" not in values or "scores" not in values:
            raise RecordError("A result needs both '# winners:' and '# scores:' lines.")
        winners = tuple(seat - 1 for seat in values["winners"])
        scores: tuple[int, ...] = values["scores"]
        if seats is not None and len(scores) != seats:
            raise RecordError(
                "Line {line}: {n} scores for {seats} players.", line=lines_of["scores"], n=len(scores), seats=seats
            )
        if any(not 0 <= seat < len(scores) for seat in winners) or len(set(winners)) != len(winners):
            raise RecordError(
                "Line {line}: the winners must be different players 1 to {n}.", line=lines_of["winners"], n=len(scores)
            )
        result = Result(winners, scores, values.get("termination", ""))
    elif "termination" in values:
        raise RecordError(
            "Line {line}: a termination needs '# winners:' and '# scores:' lines.", line=lines_of["termination"]
        )
    for ply in plies:
        if isinstance(ply, Forfeit) and seats is not None and ply.seat >= seats:
            raise RecordError(
                "A forfeit names player {number}, but the game has {seats} players.", number=ply.seat + 1, seats=seats
            )
        by = ply.by if isinstance(ply, Forfeit) and ply.by is not None else None
        if isinstance(ply, Forfeit) and by is not None and (by < 0 or by == ply.seat or by >= (seats or by + 1)):
            raise RecordError("A forfeit is claimed by player {number}, who can't claim it.", number=by + 1)
    return GameRecord(
        game=game,
        options=values.get("options", {}),
        seed=values.get("seed"),
        players=players,
        names=tuple(names[seat] for seat in sorted(names)),
        date=values.get("date"),
        result=result,
        plies=plies,
    )
