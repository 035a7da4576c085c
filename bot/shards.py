"""Which Discord shards this bot process runs, from ``TABULA_SHARDS`` (for example ``0-3/8``).

Discord splits a bot's servers into shards by ``(guild_id >> 22) % shard_count``; each process of a
sharded bot connects the shards it was given, and does the background work (challenge expiry,
computer turns, outbox delivery) only for servers on those shards, so that processes sharing one
PostgreSQL database do not all do the same work.  No ``TABULA_SHARDS``: one process, every server.
"""

from __future__ import annotations

from dataclasses import dataclass


class ShardsError(ValueError):
    """``TABULA_SHARDS`` cannot be read; the message says what it should look like."""


@dataclass(frozen=True, slots=True)
class Shards:
    """Shards ``ids`` of ``count``."""

    ids: tuple[int, ...]
    count: int

    @classmethod
    def parse(cls, text: str) -> Shards:
        """Read ``FIRST-LAST/COUNT``, ``ID/COUNT`` or ``A,B,C/COUNT``.

        >>> Shards.parse("0-3/8")
        Shards(ids=(0, 1, 2, 3), count=8)
        >>> Shards.parse("5/8").ids, Shards.parse("1,4/6").ids
        ((5,), (1, 4))
        """
        usage = f"TABULA_SHARDS must look like 0-3/8 (shards 0 to 3 of 8), not {text!r}"
        ranges, slash, total = text.replace(" ", "").partition("/")
        if not slash or not total.isdigit() or int(total) < 1:
            raise ShardsError(usage + ".")
        count = int(total)
        ids: set[int] = set()
        for part in ranges.split(","):
            first, dash, last = part.partition("-")
            if not first.isdigit() or (dash and not last.isdigit()):
                raise ShardsError(usage + ".")
            low, high = int(first), int(last) if dash else int(first)
            if low > high or high >= count:
                raise ShardsError(f"{usage}: the shards must lie between 0 and {count - 1}, first to last.")
            ids.update(range(low, high + 1))
        return cls(tuple(sorted(ids)), count)

    def shard_of(self, guild_id: int) -> int:
        """The shard Discord puts ``guild_id`` on.

        >>> Shards((0,), 2).shard_of(1 << 22), Shards((0,), 2).shard_of(2 << 22)
        (1, 0)
        """
        return (guild_id >> 22) % self.count

    def owns(self, guild_id: int) -> bool:
        """Whether this process runs the shard of ``guild_id``."""
        return self.shard_of(guild_id) in self.ids

    def __str__(self) -> str:
        return f"{','.join(map(str, self.ids))}/{self.count}"
