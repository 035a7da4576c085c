"""A move's write, described once and rendered for each way it is sent.

A move (or a forfeit) writes three things in one transaction: the version-checked ``UPDATE`` of its match, its
row in the move log, and one outbox row per announcement.  :data:`LOG_ROW` and :data:`OUTBOX_ROW` say, column by
column, where each value comes from: the match as the update left it, the move's log row, the write's own
values, or each announcement's.  Every form of the write is rendered from them, so a new column is one line here:

* :meth:`MoveWrite.steps` — one statement after another, each reading what the earlier ones wrote (the match's
  row, the log's last number): SQLite's whole batch in one hand-off, and the statements after the ``UPDATE`` in a
  transaction that also runs a finish between them, on either backend;
* :meth:`MoveWrite.one_statement` — PostgreSQL's single statement, one round trip: the ``UPDATE`` feeds the log's
  ``INSERT``, which feeds the outbox's, through common table expressions;
* :func:`announcement` — an outbox row for a match whose record and log number are known (no move written).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from bot.storage.database import Step

#: The columns an outbox row is read back with.
OUTBOX_COLUMNS = (
    "id, match_id, channel_id, guild_id, kind, version, seq, mentions, board, detail, status, attempts, next_at, "
    "error, message_id, created_at"
)

# Where a column's value comes from.
MATCH = "match"  # a column of the match as the version-checked update left it
LOG = "log"  # a column of the move's log row (written just before)
NEXT = "next"  # the match's next log number
GIVEN = "given"  # a value of the write, the same for every row
EACH = "each"  # a value of each row (one row per announcement)
SQL = "sql"  # SQL as written


@dataclass(frozen=True, slots=True)
class Value:
    """Where one column's value comes from: ``kind``, and the column there (or the SQL, for :data:`SQL`).

    ``cast`` is PostgreSQL's type for a parameter whose type it cannot infer (in a ``VALUES`` list).
    """

    kind: str
    name: str = ""
    cast: str = ""


@dataclass(frozen=True, slots=True)
class Insert:
    """One ``INSERT … SELECT`` of a move's write: each column with where its value comes from."""

    table: str
    values: tuple[tuple[str, Value], ...]
    returning: str

    @property
    def columns(self) -> str:
        return ", ".join(name for name, _ in self.values)


LOG_ROW = Insert(
    "moves",
    (
        ("match_id", Value(MATCH, "id")),
        ("seq", Value(NEXT)),
        ("kind", Value(GIVEN)),
        ("seat", Value(GIVEN)),
        ("user_id", Value(GIVEN)),
        ("text", Value(GIVEN)),
        ("created_at", Value(GIVEN)),
    ),
    returning="seq",
)

OUTBOX_ROW = Insert(
    "outbox",
    (
        ("match_id", Value(MATCH, "id")),
        ("channel_id", Value(MATCH, "channel_id")),
        ("guild_id", Value(MATCH, "guild_id")),
        ("kind", Value(EACH, cast="::text")),
        ("version", Value(MATCH, "version")),
        ("seq", Value(LOG, "seq")),
        ("mentions", Value(EACH, cast="::text")),
        ("board", Value(EACH, cast="::bigint")),
        ("detail", Value(EACH, cast="::text")),
        ("status", Value(GIVEN, cast="::text")),
        ("attempts", Value(SQL, "0")),
        ("next_at", Value(GIVEN)),
        ("created_at", Value(GIVEN)),
    ),
    returning=OUTBOX_COLUMNS,
)


class _Marks:
    """Numbered placeholders (``?1``, ``?2`` …) and their parameters, for statements of any length."""

    def __init__(self) -> None:
        self.params: list[Any] = []

    def __call__(self, value: Any, cast: str = "") -> str:
        self.params.append(value)
        return f"?{len(self.params)}{cast}"


class _Source:
    """How one form of the write reaches the match, the log row and each row's values, and the ``FROM`` naming
    them.  The base form reads the match's row and the log as the statements before left them."""

    def __init__(self, match_id: int = 0) -> None:
        self.match_id = match_id

    def reference(self, kind: str, column: str, mark: _Marks) -> str:
        if kind == MATCH:
            return f"u.{column}"
        if kind == NEXT:
            return "(SELECT COALESCE(MAX(seq), 0) + 1 FROM moves WHERE match_id = u.id)"
        if column != "seq":
            raise ValueError(f"only the log row's seq can be read back, not {column}")
        return "(SELECT COALESCE(MAX(seq), 0) FROM moves WHERE match_id = u.id)"

    def value(self, value: Value, found: Any, mark: _Marks) -> str:
        """A given or per-row value: a parameter."""
        return mark(found)

    def tail(self, mark: _Marks) -> str:
        return f" FROM matches AS u WHERE u.id = {mark(self.match_id)}"


class _Known(_Source):
    """A match whose record and last log number are in hand: every value is a parameter."""

    def __init__(self, record: Any, seq: int) -> None:
        super().__init__(record.id)
        self.record = record
        self.seq = seq

    def reference(self, kind: str, column: str, mark: _Marks) -> str:
        if kind == MATCH:
            return mark(getattr(self.record, column))
        return mark(self.seq + 1 if kind == NEXT else self.seq)

    def tail(self, mark: _Marks) -> str:
        return ""


class _Chained(_Source):
    """PostgreSQL's one statement: the update is ``u``, the log row ``l``, the announcements the ``VALUES`` ``n``."""

    def reference(self, kind: str, column: str, mark: _Marks) -> str:
        return f"l.{column}" if kind == LOG else super().reference(kind, column, mark)

    def value(self, value: Value, found: Any, mark: _Marks) -> str:
        return mark(found, value.cast)

    def tail(self, mark: _Marks) -> str:
        return ""


def _select(insert: Insert, source: _Source, given: Mapping[str, Any], row: Mapping[str, Any], mark: _Marks) -> str:
    """The ``SELECT`` list of ``insert`` in the form ``source`` renders (``row``: one announcement's values)."""
    out = []
    for name, value in insert.values:
        if value.kind == SQL:
            out.append(value.name)
        elif value.kind == GIVEN:
            out.append(source.value(value, given[name], mark))
        elif value.kind == EACH:
            out.append(f"n.{name}" if isinstance(source, _Chained) else source.value(value, row[name], mark))
        else:
            out.append(source.reference(value.kind, value.name, mark))
    return ", ".join(out)


def _statement(insert: Insert, source: _Source, given: Mapping[str, Any], row: Mapping[str, Any]) -> Step:
    mark = _Marks()
    select = _select(insert, source, given, row, mark)
    sql = f"INSERT INTO {insert.table} ({insert.columns}) SELECT {select}{source.tail(mark)}"
    return Step(f"{sql} RETURNING {insert.returning}", tuple(mark.params))


def announcement(record: Any, seq: int, notice: Mapping[str, Any], given: Mapping[str, Any]) -> Step:
    """The outbox row of one announcement about ``record`` (its ``id``, ``channel_id``, ``guild_id``, ``version``),
    shown after log entry ``seq``."""
    return _statement(OUTBOX_ROW, _Known(record, seq), given, notice)


@dataclass(frozen=True, slots=True)
class MoveWrite:
    """One move's write: the version-checked update (SQL returning the match's columns), the log row's values,
    each announcement's values and the values every outbox row shares."""

    update: str
    update_params: Sequence[Any]
    match_id: int
    move: Mapping[str, Any]
    notices: Sequence[Mapping[str, Any]] = ()
    outbox: Mapping[str, Any] = field(default_factory=dict)

    def after_update(self) -> list[Step]:
        """The log row, then each announcement: statements that read the match as the update left it."""
        source = _Source(self.match_id)
        return [
            _statement(LOG_ROW, source, self.move, {}),
            *(_statement(OUTBOX_ROW, source, self.outbox, notice) for notice in self.notices),
        ]

    def steps(self) -> list[Step]:
        """The whole write as statements one after another; the update is required (no row: the match changed)."""
        return [Step(self.update, self.update_params, required=True), *self.after_update()]

    def one_statement(self, match_columns: str) -> tuple[str, list[Any]]:
        """The whole write as one PostgreSQL statement (a transaction by itself), for a move with announcements.

        Its rows: the match's columns, then one announcement's, one row per announcement in order; none when
        the version changed (the update found no row, so nothing was logged or announced).
        """
        if not self.notices:
            raise ValueError("one statement writes a move with its announcements")
        source = _Chained()
        mark = _Marks()
        mark.params.extend(self.update_params)  # the update's own placeholders are numbered ?1 …
        logged = f"INSERT INTO moves ({LOG_ROW.columns}) SELECT {_select(LOG_ROW, source, self.move, {}, mark)} FROM u"
        each = [name for name, value in OUTBOX_ROW.values if value.kind == EACH]
        rows = ", ".join(
            "("
            + ", ".join(mark(notice[name], value.cast) for name, value in OUTBOX_ROW.values if value.kind == EACH)
            + f", {position})"
            for position, notice in enumerate(self.notices)
        )
        outbox = (
            f"INSERT INTO outbox ({OUTBOX_ROW.columns}) SELECT {_select(OUTBOX_ROW, source, self.outbox, {}, mark)} "
            f"FROM u, l, (VALUES {rows}) AS n ({', '.join(each)}, ord) ORDER BY n.ord RETURNING {OUTBOX_COLUMNS}"
        )
        match = ", ".join("u." + c.strip() for c in match_columns.split(","))
        announced = ", ".join("o." + c.strip() for c in OUTBOX_COLUMNS.split(","))
        sql = (
            f"WITH u AS ({self.update}), l AS ({logged} RETURNING {LOG_ROW.returning}), o AS ({outbox}) "
            f"SELECT {match}, {announced} FROM u JOIN o ON TRUE ORDER BY o.id"
        )
        return sql, mark.params
