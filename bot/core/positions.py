"""A finished match's positions, rebuilt from its move log: for its replay, its review and the background runner.

The move log is the truth (:mod:`bot.storage.match_store`): :func:`plies_of` reads it as record plies,
:func:`game_record` makes the :class:`~engines.record.GameRecord` of a stored match, and :func:`positions` replays
it to every position (in a worker process: a long game is CPU work).  :class:`Rebuilt` holds the three together.
:class:`MatchPositions` rebuilds a match from the store by itself (a few kept), for the parts that have no replays
of their own: the background worker process (``python -m bot worker``) reviewing games without Discord.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Sequence
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from typing import Protocol

from bot.core.ports import Workers
from bot.core.refusals import Refusal
from bot.storage.records import LogEntry, MatchRecord, MatchStatus, TurnKind
from engines import GameState
from engines.base import TIMEOUT, legacy_forfeit_code
from engines.record import Forfeit, GameRecord, Ply, format_record, replay, result_of

KEPT = 8  # matches whose positions a MatchPositions keeps (a review needs its match for many slices)


class Matches(Protocol):
    """What rebuilding reads from the store (:class:`bot.storage.match_store.Matches`)."""

    async def get(self, match_id: int) -> MatchRecord | None: ...

    async def log(self, match_id: int, upto: int | None = None) -> list[LogEntry]: ...


def plies_of(entries: Sequence[LogEntry], record: MatchRecord | None = None) -> tuple[Ply, ...]:
    """The move log as record plies: moves as written, forfeits with their seat and code.

    A lost deadline's claimer is the row's user (found among ``record``'s players).  Rows logged
    before forfeits were codes hold a sentence: :func:`~engines.base.legacy_forfeit_code` reads it.
    """
    plies: list[Ply] = []
    for entry in entries:
        if entry.kind == TurnKind.MOVE:
            plies.append(entry.text)
            continue
        how = legacy_forfeit_code(entry.text)
        by = record.seat_of(entry.user_id) if record is not None and how == TIMEOUT else None
        plies.append(Forfeit(entry.seat, how, None if by == entry.seat else by))
    return tuple(plies)


def game_record(record: MatchRecord, plies: Sequence[Ply]) -> GameRecord:
    """The :class:`~engines.record.GameRecord` of a stored match (its result is filled in when replayed)."""
    when = record.finished_at or record.updated_at
    return GameRecord(
        game=record.game,
        options=dict(record.options),
        seed=record.seed,
        players=len(record.players),
        names=tuple(seat.name for seat in record.players),
        date=datetime.fromtimestamp(when, UTC).isoformat(timespec="seconds"),
        plies=tuple(plies),
    )


def positions(game: GameRecord) -> list[GameState]:
    """Every position of the recorded game, start to end (runs in a worker)."""
    return replay(game)


@dataclass(frozen=True)
class Rebuilt:
    """A finished match's positions, rebuilt from its log, and its record."""

    record: MatchRecord
    game: GameRecord
    states: list[GameState]

    @property
    def plies(self) -> int:
        return len(self.states) - 1

    @property
    def text(self) -> str:
        """The match record's text, result included (``match-N.txt``)."""
        return format_record(replace(self.game, result=result_of(self.states[-1])))

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(seat.name for seat in self.record.players)


class MatchPositions:
    """Rebuilds finished matches from the store in a worker, keeping the last :data:`KEPT`."""

    def __init__(self, matches: Matches, workers: Workers, kept: int = KEPT) -> None:
        self.matches = matches
        self.workers = workers
        self.kept = kept
        self._kept: OrderedDict[int, Rebuilt] = OrderedDict()

    async def rebuilt(self, match_id: int, guild_id: int | None) -> Rebuilt:
        """The finished match ``match_id`` of server ``guild_id``, rebuilt (or a :class:`Refusal`)."""
        found = self._kept.get(match_id)
        if found is None:
            record = await self.matches.get(match_id)
            if record is None or record.status != MatchStatus.FINISHED:
                raise Refusal("There is no finished game #{number} on this server.", number=match_id)
            game = game_record(record, plies_of(await self.matches.log(match_id), record))
            # Beside the reviews, in the background process: rebuilding never delays a live game's work.
            states = await self.workers.run(positions, game, background=True)
            found = Rebuilt(record, game, states)
            self._kept[match_id] = found
            while len(self._kept) > self.kept:
                self._kept.popitem(last=False)
        self._kept.move_to_end(match_id)
        if found.record.guild_id != (guild_id or 0):
            raise Refusal("There is no finished game #{number} on this server.", number=match_id)
        return found
