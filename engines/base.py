"""The contract every Tabula game engine implements.

An engine is pure, synchronous and deterministic: no discord, no Pillow, no I/O,
no clock and no global ``random``.  A game's state is an immutable value;
``state.play(move)`` returns the next state or raises a :class:`GameError` whose
message a player can read, and never half-applies a move.

>>> from engines import GAMES
>>> state = GAMES["pond"].new(players=2, seed=7, variant="mini")
>>> after = state.play("place b2")
>>> after.to_move, state.to_move, after.move_text(after.parse_move(" Place  C3 "))
(1, 0, 'place c3')
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar, runtime_checkable

S = TypeVar("S")


class GameError(ValueError):
    """A problem a player can read about: ``str(error)`` is a full sentence."""


class InvalidMoveText(GameError):
    """The text of a move could not be understood at all."""


class IllegalMove(GameError):
    """The move is well formed but not allowed in this position."""


class InvalidOption(GameError):
    """A game option is unknown or out of range."""


class InvalidState(GameError):
    """A serialised state is malformed or describes an impossible position."""


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a finished game ended.

    ``winners`` are the players sharing first place (a two-player draw names
    both), ``places`` gives each player's finishing place (1 is first; tied
    players share a place), and ``reason`` is a sentence for the players.
    """

    winners: tuple[int, ...]
    scores: tuple[int, ...]
    reason: str
    places: tuple[int, ...] = ()

    @property
    def is_draw(self) -> bool:
        """Tell whether every player shares first place."""
        return len(self.winners) == len(self.scores) > 1

    def to_json(self) -> dict[str, Any]:
        """Return a JSON-safe dict of this outcome."""
        return {
            "winners": list(self.winners),
            "scores": list(self.scores),
            "reason": self.reason,
            "places": list(self.places),
        }

    @classmethod
    def from_json(cls, data: Any, players: int) -> Outcome:
        """Rebuild an outcome, rejecting anything malformed with :class:`InvalidState`."""
        if not isinstance(data, Mapping):
            raise InvalidState("The saved result is not an object.")
        try:
            winners = tuple(int_list(data["winners"], "winners"))
            scores = tuple(int_list(data["scores"], "scores"))
            places = tuple(int_list(data.get("places", []), "places"))
            reason = data["reason"]
        except KeyError as missing:
            raise InvalidState(f"The saved result lacks {missing}.") from None
        if not isinstance(reason, str) or not reason:
            raise InvalidState("The saved result has no reason.")
        if len(scores) != players or len(places) not in (0, players):
            raise InvalidState("The saved result does not match the number of players.")
        if not winners or any(not 0 <= w < players for w in winners) or len(set(winners)) != len(winners):
            raise InvalidState("The saved result names impossible winners.")
        return cls(winners, scores, reason, places)


def places_from_ranking(keys: tuple[Any, ...]) -> tuple[int, ...]:
    """Turn per-player comparable keys (higher is better) into shared finishing places."""
    return tuple(1 + sum(1 for other in keys if other > mine) for mine in keys)


def outcome_by_keys(keys: tuple[Any, ...], scores: tuple[int, ...], reason: str) -> Outcome:
    """Build an outcome where the players with the best key share first place."""
    places = places_from_ranking(keys)
    winners = tuple(i for i, place in enumerate(places) if place == 1)
    return Outcome(winners, scores, reason, places)


def int_list(value: Any, what: str) -> list[int]:
    """Check that ``value`` is a list of plain ints (bools excluded) and return it."""
    if not isinstance(value, list) or any(type(v) is not int for v in value):
        raise InvalidState(f"The saved {what} must be a list of whole numbers.")
    return value


@runtime_checkable
class GameState(Protocol):
    """What the bot, the renderer and the tests may rely on for any game's state."""

    @property
    def game(self) -> str:
        """The registered name of the game."""

    @property
    def players(self) -> int:
        """How many seats the game has."""

    @property
    def seed(self) -> int:
        """The seed the game's randomness came from."""

    @property
    def to_move(self) -> int | None:
        """Index of the player to move; ``None`` once the game is over."""

    def legal_moves(self) -> tuple[Any, ...]:
        """Every legal move, sorted, without duplicates; empty exactly when over."""

    def move_text(self, move: Any) -> str:
        """The one canonical lowercase text of ``move``."""

    def parse_move(self, text: str) -> Any:
        """Parse a move leniently (case, spaces); raise :class:`GameError` on bad text."""

    def play(self, move: Any) -> GameState:
        """Return the state after ``move`` (a move value or its text)."""

    def forfeit(self, player: int, reason: str) -> GameState:
        """Return the state after ``player`` leaves the game (resignation, lost deadline)."""

    def scores(self) -> tuple[int, ...]:
        """One int per player."""

    def outcome(self) -> Outcome | None:
        """``None`` while the game runs; how it ended otherwise."""

    def last_summary(self, names: Sequence[str] | None = None) -> str:
        """One line saying what the last ply did, for the chat, naming players by ``names`` if given."""

    def board_text(self) -> str:
        """The position as plain text, for the command-line tool and the logs."""

    def to_json(self) -> dict[str, Any]:
        """A JSON-safe dict from which ``GameSpec.from_json`` rebuilds this state exactly."""


@dataclass(frozen=True)
class OptionSpec:
    """One game option: its name, default, allowed values and a short description."""

    name: str
    default: Any
    description: str
    choices: tuple[Any, ...] | None = None
    minimum: int | None = None
    maximum: int | None = None


@dataclass(frozen=True)
class GameSpec:
    """A registered game: how to start one and how to rebuild a saved one."""

    name: str
    title: str
    min_players: int
    max_players: int
    new: Callable[..., GameState]
    from_json: Callable[[Mapping[str, Any]], GameState]
    seat_names: Callable[[int], tuple[str, ...]]
    options: tuple[OptionSpec, ...] = field(default=())
    # Option combinations the conformance test should cover in addition to the defaults.
    test_configs: tuple[Mapping[str, Any], ...] = field(default=({},))


def resolve_options(specs: tuple[OptionSpec, ...], given: Mapping[str, Any]) -> dict[str, Any]:
    """Check ``given`` against ``specs`` and return every option with defaults filled in."""
    known = {spec.name: spec for spec in specs}
    for name in given:
        if name not in known:
            names = ", ".join(sorted(known)) or "none"
            raise InvalidOption(f"Unknown option {name!r}; this game's options are: {names}.")
    resolved: dict[str, Any] = {}
    for spec in specs:
        value = given.get(spec.name, spec.default)
        if value is None and spec.default is None:
            resolved[spec.name] = None
            continue
        if spec.choices is not None:
            if isinstance(value, str):
                value = value.strip().lower()
            if value not in spec.choices:
                allowed = ", ".join(str(c) for c in spec.choices)
                raise InvalidOption(f"{spec.name} must be one of: {allowed}.")
        if spec.minimum is not None or spec.maximum is not None:
            if isinstance(value, str) and value.strip().lstrip("-").isdigit():
                value = int(value)
            if type(value) is not int:
                raise InvalidOption(f"{spec.name} must be a whole number.")
            if spec.minimum is not None and value < spec.minimum:
                raise InvalidOption(f"{spec.name} must be at least {spec.minimum}.")
            if spec.maximum is not None and value > spec.maximum:
                raise InvalidOption(f"{spec.name} must be at most {spec.maximum}.")
        resolved[spec.name] = value
    return resolved


def load_saved(title: str, loader: Callable[[Mapping[str, Any]], S], data: Mapping[str, Any]) -> S:
    """Run a game's ``loader`` on saved ``data`` so that anything wrong raises :class:`InvalidState` only.

    Loaders may raise any :class:`GameError` (a bad option, say) or stumble on a missing key
    or a wrong type; all of it means the save is damaged.
    """
    try:
        return loader(data)
    except InvalidState:
        raise
    except GameError as error:
        raise InvalidState(f"The saved {title} game is damaged: {error}") from None
    except (KeyError, TypeError, ValueError, AttributeError, IndexError) as exc:
        raise InvalidState(f"The saved {title} game is damaged ({type(exc).__name__}).") from None


def saved_options(data: Any, game: str, title: str) -> Mapping[str, Any]:
    """Check that ``data`` is a save of ``game`` in format 1 and return its options object."""
    if not isinstance(data, Mapping) or data.get("game") != game or data.get("format") != 1:
        raise InvalidState(f"That is not a saved {title} game.")
    options = data["options"]
    if not isinstance(options, Mapping):
        raise InvalidState("The saved options are not an object.")
    return options


def check_seed(seed: Any) -> int:
    """Return ``seed`` if it is a usable non-negative int, else raise :class:`InvalidOption`."""
    if type(seed) is not int or not 0 <= seed < 2**63:
        raise InvalidOption("The seed must be a whole number from 0 to 2**63 - 1.")
    return seed


def check_players(players: Any, minimum: int, maximum: int) -> int:
    """Return ``players`` if the game takes that many, else raise :class:`InvalidOption`."""
    if type(players) is not int or not minimum <= players <= maximum:
        if minimum == maximum:
            raise InvalidOption(f"This game is for exactly {minimum} players.")
        raise InvalidOption(f"This game is for {minimum} to {maximum} players.")
    return players
