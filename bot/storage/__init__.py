"""Tabula's database: opening and migrating it, bot metadata, and the stores by concern.

``TABULA_DATABASE`` is either a file path or a ``postgresql://`` URL, and :meth:`MatchStore.open`
opens the matching backend (:mod:`bot.storage.database`): a SQLite file (created if needed) in WAL mode
with foreign keys on, for one bot process, or a pool of connections to a PostgreSQL database
that several bot processes share (:mod:`bot.storage.postgres`, the optional extra ``tabula[postgres]``).
Either way it applies the numbered migrations: ``bot/storage/migrations/NNN_*.sql`` for SQLite (tracked by
``PRAGMA user_version``) and the same numbers in ``bot/storage/migrations/postgresql/`` for PostgreSQL
(tracked in the ``tabula_schema`` table).  The returned object holds the stores that own the SQL
of each concern, sharing the database and knowing nothing of its backend:

* :attr:`MatchStore.matches` — matches, their append-only move log and the
  outbox of announcements (:mod:`bot.storage.match_store`);
* :attr:`MatchStore.ratings` — ratings, ladders and rated history
  (:mod:`bot.storage.rating_store`);
* :attr:`MatchStore.settings` — per-server settings such as the language of
  public messages (:mod:`bot.storage.settings_store`);
* :attr:`MatchStore.extras` — reminders, automatic endings, draw offers and
  rematches (:mod:`bot.storage.extras_store`);
* :attr:`MatchStore.tournaments` — events, entrants, pairings and results
  (:mod:`bot.storage.tournament_store`);
* :attr:`MatchStore.reviews` — the computer's reviews of finished matches
  (:mod:`bot.storage.review_store`);
* :attr:`MatchStore.puzzles` — puzzles, players' puzzle ratings, their tries and the daily puzzle
  (:mod:`bot.storage.puzzle_store`);
* :attr:`MatchStore.jobs` — the queue of background work, taken fairly a slice at a time
  (:mod:`bot.storage.job_store`).

This package only names what callers import; the code lives in modules by concern: :mod:`~bot.storage.store`
(:class:`MatchStore`), :mod:`~bot.storage.opening` (opening either backend), :mod:`~bot.storage.lock` (one bot
per SQLite file), :mod:`~bot.storage.problems` (why a database cannot be used, in one line) and
:mod:`~bot.storage.schema` (the numbered migrations).
"""

from __future__ import annotations

from bot.storage.database import (
    POSTGRESQL,
    SQLITE,
    ChannelBusy,
    IntegrityError,
    StaleMatch,
    StorageError,
)
from bot.storage.extras_store import MatchExtras
from bot.storage.job_store import DailyLimitReached, Job, Jobs
from bot.storage.match_store import Matches
from bot.storage.problems import SETTING, DatabaseUnavailable
from bot.storage.rating_store import RatedSeat, RatingModel, RatingRow, Ratings
from bot.storage.records import (
    Announcement,
    Delivery,
    LogEntry,
    MatchRecord,
    MatchStatus,
    Notice,
    NoticeKind,
    Seat,
    TurnKind,
)
from bot.storage.review_store import Reviews, StoredReview
from bot.storage.schema import migrations
from bot.storage.settings_store import GuildSettings, GuildSettingsStore
from bot.storage.store import MatchStore
from bot.storage.tournament_store import Tournaments

__all__ = [
    "POSTGRESQL",
    "SETTING",
    "SQLITE",
    "Announcement",
    "ChannelBusy",
    "DailyLimitReached",
    "DatabaseUnavailable",
    "Delivery",
    "GuildSettings",
    "GuildSettingsStore",
    "IntegrityError",
    "Job",
    "Jobs",
    "LogEntry",
    "MatchExtras",
    "MatchRecord",
    "MatchStatus",
    "MatchStore",
    "Matches",
    "Notice",
    "NoticeKind",
    "RatedSeat",
    "RatingModel",
    "RatingRow",
    "Ratings",
    "Reviews",
    "Seat",
    "StaleMatch",
    "StorageError",
    "StoredReview",
    "Tournaments",
    "TurnKind",
    "migrations",
]
