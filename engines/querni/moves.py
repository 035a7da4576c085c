"""How a player names a Querni turn: a move (``from``, ``to``, and a chain to ``remove`` after it if
they like), a removal alone (its ``chain``), or a pass.

A chain is read as its numbers, ``4-7``; ``x4-7``, ``remove 4-7`` and ``4..7`` say the same.

>>> from engines.querni import new
>>> state = new(seed=3)
>>> [kind.name for kind in MOVES.kinds], MOVES.text("move", {"from": "c3", "to": "e5", "remove": "4-7"})
(['move', 'remove', 'pass'], 'c3 e5 x4-7')
>>> read_chain("Remove 7..4"), read_chain("x4"), MOVES.fields_of(state, state.legal_moves()[0])
('4-7', None, ('pass', {}))
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import TYPE_CHECKING

from engines.moves import MoveField, MoveForm, MoveKind, field_text, read_cell
from engines.querni.board import NAMES, PASS, QuerniMove

if TYPE_CHECKING:
    from engines.querni.state import QuerniState

_CHAIN = re.compile(r"(?:x|remove)?\s*([0-9]{1,2})\s*(?:-+|\.{2,3}|…|to|\s)\s*([0-9]{1,2})")


def read_chain(text: str) -> str | None:
    """Read the numbers of a chain to remove, lowest first: ``4-7``; None if it is not two numbers."""
    match = _CHAIN.fullmatch(field_text(text))
    if match is None:
        return None
    lo, hi = sorted((int(match[1]), int(match[2])))
    return f"{lo}-{hi}"


def chain_prefix(typed: str) -> str:
    """Return the start of a chain a player is typing, without its removal word: ``x5`` is ``5``."""
    return typed.strip().lower().removeprefix("x")


def removal_text(chain: str) -> str:
    """Return the removal's notation for what a player typed as a chain (``4-7``, ``x4-7`` or ``remove 4-7``)."""
    text = " ".join(chain.lower().split())
    return text if text.startswith(("x", "remove")) else f"x{text}"


def _move_text(fields: Mapping[str, str]) -> str:
    text = f"{fields.get('from', '')} {fields.get('to', '')}"
    remove = fields.get("remove")
    return f"{text} {removal_text(remove)}" if remove else text


def _describe(state: QuerniState, move: QuerniMove) -> tuple[str, dict[str, str]]:
    if move == PASS:
        return "pass", {}
    chain = f"{move.lo}-{move.hi}"
    if move.frm < 0:
        return "remove", {"chain": chain}
    fields = {"from": NAMES[move.frm], "to": NAMES[move.to]}
    if move.lo >= 0:
        fields["remove"] = chain
    return "move", fields


MOVES = MoveForm(
    kinds=(
        MoveKind(
            "move",
            (MoveField("from", read_cell), MoveField("to", read_cell), MoveField("remove", read_chain, optional=True)),
            _move_text,
        ),
        MoveKind("remove", (MoveField("chain", read_chain),), lambda fields: removal_text(fields.get("chain", ""))),
        MoveKind("pass", (), lambda fields: "pass"),
    ),
    describe=_describe,
)
