"""Persistent components from one template: a custom ID's builder and its parser come from the same fields.

A button that must work after a restart carries what it needs in its custom ID, which discord.py's
:class:`~discord.ui.DynamicItem` matches against a regular expression.  Written by hand, the expression and
the f-string that builds the ID can drift apart; here both are made from one :class:`CustomId` (a name and
typed fields), so an ID the bot builds is always one it can read back.

>>> DRAW = CustomId("draw", Choice("action", ("accept", "decline")), Number("match", 19), Number("version", 9))
>>> DRAW.build(action="accept", match=12, version=3)
'tabula:draw:accept:12:3'
>>> DRAW.template
'tabula:draw:(?P<action>accept|decline):(?P<match>[0-9]{1,19}):(?P<version>[0-9]{1,9})'
>>> DRAW.read("tabula:draw:decline:12:3")
{'action': 'decline', 'match': 12, 'version': 3}
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import Any

import discord

PREFIX = "tabula"


@dataclass(frozen=True)
class Number:
    """A whole number of at most ``digits`` digits (a Discord snowflake needs 19)."""

    name: str
    digits: int

    @property
    def pattern(self) -> str:
        return f"[0-9]{{1,{self.digits}}}"

    def text(self, value: Any) -> str:
        text = str(int(value))
        if not int(value) >= 0 or len(text) > self.digits:
            raise ValueError(f"{self.name} {value!r} does not fit a custom ID")
        return text

    def value(self, text: str) -> int:
        return int(text)


@dataclass(frozen=True)
class Choice:
    """One of a few words."""

    name: str
    words: tuple[str, ...]

    @property
    def pattern(self) -> str:
        return "|".join(map(re.escape, self.words))

    def text(self, value: Any) -> str:
        if value not in self.words:
            raise ValueError(f"{self.name} {value!r} is not one of {self.words}")
        return str(value)

    def value(self, text: str) -> str:
        return text


@dataclass(frozen=True)
class Letters:
    """A word of lower-case letters, at most ``longest`` of them (a game's name)."""

    name: str
    longest: int

    @property
    def pattern(self) -> str:
        return f"[a-z]{{1,{self.longest}}}"

    def text(self, value: Any) -> str:
        if not re.fullmatch(self.pattern, str(value)):
            raise ValueError(f"{self.name} {value!r} does not fit a custom ID")
        return str(value)

    def value(self, text: str) -> str:
        return text


@dataclass(frozen=True)
class Pattern:
    """Text matching a regular expression of its own (a path of choices: ``move,b3/b1``)."""

    name: str
    pattern: str

    def text(self, value: Any) -> str:
        if not re.fullmatch(self.pattern, str(value)):
            raise ValueError(f"{self.name} {value!r} does not fit a custom ID")
        return str(value)

    def value(self, text: str) -> str:
        return text


Field = Number | Choice | Letters | Pattern


class CustomId:
    """A custom ID's template: ``tabula:<name>:<field>:<field>…``, built and read from the same fields."""

    def __init__(self, name: str, *fields: Field) -> None:
        self.name = name
        self.fields = fields
        self.template = ":".join((PREFIX, name, *(f"(?P<{field.name}>{field.pattern})" for field in fields)))

    def build(self, **values: Any) -> str:
        """Return the custom ID holding ``values`` (one per field); ``ValueError`` if one does not fit."""
        return ":".join((PREFIX, self.name, *(field.text(values[field.name]) for field in self.fields)))

    def values(self, match: re.Match[str]) -> dict[str, Any]:
        """Return the fields' values from a match of :attr:`template`, each in its type."""
        return {field.name: field.value(match[field.name]) for field in self.fields}

    def read(self, custom_id: str) -> dict[str, Any] | None:
        """Return the fields' values of ``custom_id``, or ``None`` if it is not one of these."""
        match = re.fullmatch(self.template, custom_id)
        return None if match is None else self.values(match)


# What a press does: the interaction and the values its custom ID carries.
Press = Callable[[discord.Interaction[Any], Mapping[str, Any]], Awaitable[None]]


def persistent_button(
    custom_id: CustomId, name: str, button: Callable[[Mapping[str, Any]], discord.ui.Button[Any]], press: Press
) -> type[discord.ui.DynamicItem[Any]]:
    """Return the dynamic item routing every press of ``custom_id``'s buttons, on any message, to ``press``.

    ``button`` draws the button from the values of its custom ID (it must build the ID with
    ``custom_id.build``); the class is called ``name`` in logs and tracebacks.
    """

    class PersistentButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=custom_id.template):
        def __init__(self, values: Mapping[str, Any]) -> None:
            super().__init__(button(values))
            self.values = dict(values)

        @classmethod
        async def from_custom_id(
            cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str], /
        ) -> PersistentButton:
            return cls(custom_id.values(match))

        async def callback(self, interaction: discord.Interaction[Any]) -> None:
            await press(interaction, self.values)

    PersistentButton.__name__ = PersistentButton.__qualname__ = name
    return PersistentButton


# What a choice in a menu does: the interaction, the values its custom ID carries, and the value chosen.
Pick = Callable[[discord.Interaction[Any], Mapping[str, Any], str], Awaitable[None]]


def persistent_select(custom_id: CustomId, name: str, pick: Pick) -> type[discord.ui.DynamicItem[Any]]:
    """Return the dynamic item routing every choice in ``custom_id``'s menus, on any message, to ``pick``.

    The menu's options live on the message; what the player chose comes with the interaction, so the item
    rebuilt after a restart needs nothing but the custom ID.
    """

    class PersistentSelect(discord.ui.DynamicItem[discord.ui.Select[Any]], template=custom_id.template):
        def __init__(self, values: Mapping[str, Any]) -> None:
            super().__init__(discord.ui.Select(custom_id=custom_id.build(**values), options=[]))
            self.values = dict(values)

        @classmethod
        async def from_custom_id(
            cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any], match: re.Match[str], /
        ) -> PersistentSelect:
            return cls(custom_id.values(match))

        async def callback(self, interaction: discord.Interaction[Any]) -> None:
            chosen = self.item.values
            await pick(interaction, self.values, chosen[0] if chosen else "")

    PersistentSelect.__name__ = PersistentSelect.__qualname__ = name
    return PersistentSelect
