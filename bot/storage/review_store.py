"""The computer's reviews of finished matches, one row per match in ``reviews`` (migration 010).

A review is written as it is made: the judgements so far (``ai.review.Judgement.to_json()`` of each move, in
order) and whether it is complete, so a review that a restart interrupted goes on from where it stopped, and
a complete one is shown again at once.  A review made at another budget (playouts per position) is not
reused: the next one starts afresh and replaces it.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from bot.storage.database import Database


@dataclass(frozen=True, slots=True)
class StoredReview:
    """A match's review as stored: its budget, the judgements made so far (JSON values) and whether it is done."""

    match_id: int
    budget: int
    judgements: tuple[dict[str, Any], ...]
    complete: bool


class Reviews:
    """Read and write reviews on a shared :class:`~bot.storage.database.Database`."""

    def __init__(self, database: Database, clock: Callable[[], float] = time.time) -> None:
        self.database = database
        self.clock = clock

    async def get(self, match_id: int) -> StoredReview | None:
        """Return the stored review of ``match_id`` (complete or not), or None."""
        rows = await self.database.rows(
            "SELECT budget, judgements, complete FROM reviews WHERE match_id = ?", (match_id,)
        )
        if not rows:
            return None
        budget, judgements, complete = rows[0]
        return StoredReview(match_id, int(budget), tuple(json.loads(judgements)), bool(complete))

    async def save(self, match_id: int, budget: int, judgements: Sequence[dict[str, Any]], complete: bool) -> None:
        """Write the review of ``match_id`` as it stands (replacing what was there)."""
        text = json.dumps(list(judgements), separators=(",", ":"))
        async with self.database.transaction() as db:
            await db.execute(
                "INSERT INTO reviews (match_id, budget, judgements, complete, updated_at) VALUES (?, ?, ?, ?, ?) "
                "ON CONFLICT (match_id) DO UPDATE SET budget = excluded.budget, judgements = excluded.judgements, "
                "complete = excluded.complete, updated_at = excluded.updated_at",
                (match_id, budget, text, int(complete), self.clock()),
            )
