"""The words Azul's move text is read with."""

from __future__ import annotations

import re

from engines.azul.tables import BLACK, COLOURS, LETTERS, WHITE, YELLOW

# -- reading move text -----------------------------------------------------------

_ALLOWED_TEXT = re.compile(r"[a-z0-9 ,>:.\-]*")
_TOKEN = re.compile(r"[a-z]+|\d+")
_FILLER = frozenset(("take", "takes", "all", "the", "from", "to", "into", "onto", "on", "in", "tiles", "of", "and"))
_CENTRE_WORDS = frozenset(("c", "centre", "center", "middle", "mid"))
_FACTORY_WORDS = frozenset(("f", "factory", "fac", "fact", "display"))
_FLOOR_WORDS = frozenset(("floor", "f", "fl", "flr", "floorline"))
_LINE_WORDS = frozenset(("line", "l", "ln", "row", "pattern", "patternline"))
_WALL_WORDS = frozenset(("wall", "w", "tile", "place"))
_COLUMN_WORDS = frozenset(("c", "col", "column"))
_COLOUR_WORDS: dict[str, int] = {}
for _k, _name in enumerate(COLOURS):
    _COLOUR_WORDS.update({_name: _k, _name + "s": _k, LETTERS[_k]: _k})
_COLOUR_WORDS.update({"blk": BLACK, "yel": YELLOW, "wht": WHITE})
