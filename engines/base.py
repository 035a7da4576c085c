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

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, fields
from enum import StrEnum
from typing import Any, Protocol, TypeVar, runtime_checkable

# A move's description is part of the contract; its types live in their own module, and are named here too.
from engines.moves import MoveField as MoveField
from engines.moves import MoveForm
from engines.moves import MoveKind as MoveKind

S = TypeVar("S")
E = TypeVar("E", bound=StrEnum)


class GameError(ValueError):
    """A problem a player can read about: ``str(error)`` is a full sentence.

    The error is data: ``template`` is an English sentence with ``{named}`` fields (the catalog key the
    text layer translates, see :func:`i18n.errors.error_text`) and ``params`` are the plain values that
    fill them (cells, numbers, move texts, codes, or another :class:`GameError` for a nested cause).

    >>> error = IllegalMove("{cell} is occupied.", cell="b2")
    >>> str(error), error.template, error.params
    ('b2 is occupied.', '{cell} is occupied.', {'cell': 'b2'})
    """

    def __init__(self, template: str, /, **params: Any) -> None:
        super().__init__(template)
        self.template = template
        self.params = params

    def __str__(self) -> str:
        return self.template.format(**self.params)

    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), (self.template,), {"params": self.params})


class InvalidMoveText(GameError):
    """The text of a move could not be understood at all."""


class IllegalMove(GameError):
    """The move is well formed but not allowed in this position."""


class InvalidOption(GameError):
    """A game option is unknown or out of range."""


class InvalidState(GameError):
    """A serialised state is malformed or describes an impossible position."""


# The two ways a player leaves a game, shared by every game's termination codes.
FORFEIT = "forfeit"  # the player resigned (or left)
TIMEOUT = "timeout"  # the player let their turn's deadline pass and another player claimed it
# A turn left twice its time (the deadline passed, and as long again, with no claim) ends by itself on time.
ABANDONED = "abandoned"
# A two-player game's players may also agree to end it as a draw (offered and accepted between turns).
AGREED = "agreed"


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a finished game ended.

    ``winners`` are the players sharing first place (a two-player draw names
    both), ``places`` gives each player's finishing place (1 is first; tied
    players share a place), and ``termination`` is the game's code for how it
    ended (a member of the engine's ``Termination`` enum, e.g. ``target``).
    Sentences for the players come from the text layer (:mod:`i18n`), not from here.
    """

    winners: tuple[int, ...]
    scores: tuple[int, ...]
    termination: StrEnum
    places: tuple[int, ...] = ()

    @property
    def is_draw(self) -> bool:
        """Tell whether every player shares first place."""
        return len(self.winners) == len(self.scores) > 1

    def __str__(self) -> str:
        """Describe the outcome in plain English for logs and the command line."""
        return f"{self.termination}: winners {list(self.winners)}, scores {list(self.scores)}"

    def to_json(self) -> dict[str, Any]:
        """Return a JSON-safe dict of this outcome."""
        return {
            "winners": list(self.winners),
            "scores": list(self.scores),
            "termination": str(self.termination),
            "places": list(self.places),
        }

    @classmethod
    def from_json(
        cls,
        data: Any,
        players: int,
        codes: type[StrEnum],
        legacy: Callable[[str], StrEnum] | None = None,
    ) -> Outcome:
        """Rebuild an outcome, rejecting anything malformed with :class:`InvalidState`.

        ``codes`` is the game's termination enum; ``legacy`` maps the ``reason`` sentence of a
        format-1 save to a code (given only when loading format 1).
        """
        if not isinstance(data, Mapping):
            raise InvalidState("The saved result is not an object.")
        try:
            winners = tuple(int_list(data["winners"], "winners"))
            scores = tuple(int_list(data["scores"], "scores"))
            places = tuple(int_list(data.get("places", []), "places"))
            if legacy is not None:
                reason = data["reason"]
                if not isinstance(reason, str) or not reason:
                    raise InvalidState("The saved result has no reason.")
                termination = legacy(reason)
            else:
                termination = codes(data["termination"])
        except KeyError as missing:
            raise InvalidState("The saved result lacks {key}.", key=str(missing)) from None
        except ValueError:
            raise InvalidState("The saved result's termination is not one of this game's.") from None
        if len(scores) != players or len(places) not in (0, players):
            raise InvalidState("The saved result does not match the number of players.")
        if not winners or any(not 0 <= w < players for w in winners) or len(set(winners)) != len(winners):
            raise InvalidState("The saved result names impossible winners.")
        return cls(winners, scores, termination, places)


def places_from_ranking(keys: tuple[Any, ...]) -> tuple[int, ...]:
    """Turn per-player comparable keys (higher is better) into shared finishing places."""
    return tuple(1 + sum(1 for other in keys if other > mine) for mine in keys)


def outcome_by_keys(keys: tuple[Any, ...], scores: tuple[int, ...], termination: StrEnum) -> Outcome:
    """Build an outcome where the players with the best key share first place."""
    places = places_from_ranking(keys)
    winners = tuple(i for i, place in enumerate(places) if place == 1)
    return Outcome(winners, scores, termination, places)


def places_for_winner(winner: int) -> tuple[int, int]:
    """Return the finishing places of a two-player game that ``winner`` (0 or 1) won."""
    return (1, 2) if winner == 0 else (2, 1)


def win_for(winner: int, scores: tuple[int, ...], termination: StrEnum) -> Outcome:
    """Return the outcome of a two-player game won by ``winner``."""
    return Outcome((winner,), scores, termination, places_for_winner(winner))


def draw_of_two(scores: tuple[int, ...], termination: StrEnum) -> Outcome:
    """Return the outcome of a drawn two-player game."""
    return Outcome((0, 1), scores, termination, (1, 1))


FORFEIT_CODES = (FORFEIT, TIMEOUT, ABANDONED, AGREED)


def forfeit_code(how: str) -> str:
    """Return ``how`` if it is a way of leaving (:data:`FORFEIT_CODES`); raise :class:`InvalidOption` otherwise.

    A forfeit is given by its code only: any other text is refused, never searched for words.

    >>> forfeit_code("timeout")
    'timeout'
    >>> forfeit_code("Ran out of time Rick resigned.")
    Traceback (most recent call last):
    ...
    engines.base.InvalidOption: 'Ran out of time Rick resigned.' is not a way to leave a game.
    """
    if isinstance(how, str) and how in FORFEIT_CODES:
        return str(how)  # a Termination member comes back as its plain code
    raise InvalidOption("{how!r} is not a way to leave a game.", how=how)


def legacy_forfeit_code(stored: str) -> str:
    """Return the code of a forfeit reason stored before forfeits were codes; codes pass through unchanged.

    The one reader of old data: format-1 saves, move-log rows and match records written before this
    change kept the bot's English sentence instead of the code.  The bot wrote exactly three sentences:
    ``{name} resigned.``, ``{name} ran out of time; {claimer} claimed the win.`` and ``{name} ran out of
    time and leaves the game ({claimer} claimed it).``; only a resignation ends with `` resigned.``, so a
    name holding other words ("Ran out of time Rick resigned.") is read as what it was.  Nothing else
    may call this on new data: new data is a code, given to :func:`forfeit_code`.

    >>> legacy_forfeit_code("Ran out of time Rick resigned.")
    'forfeit'
    >>> legacy_forfeit_code("Bo ran out of time; Ana claimed the win."), legacy_forfeit_code("agreed")
    ('timeout', 'agreed')
    """
    text = str(stored).strip()
    if text.lower() in FORFEIT_CODES:
        return text.lower()
    if text.endswith(" resigned."):
        return FORFEIT
    return TIMEOUT if "ran out of time" in text.lower() else FORFEIT


def check_forfeit(result: Outcome | None, player: Any, players: int) -> None:
    """Raise :class:`IllegalMove` unless ``player`` may leave now."""
    if result is not None:
        raise IllegalMove("The game is over.")
    if type(player) is not int or not 0 <= player < players:
        raise IllegalMove("There is no such player.")


def forfeit_of_two(player: int, scores: tuple[int, ...], how: str, codes: type[E]) -> Outcome:
    """Return the outcome when ``player`` of a two-player game leaves: the other wins.

    ``how`` :data:`AGREED` is a draw by agreement instead (``player`` is the one who accepted it).
    """
    kind = forfeit_code(how)
    if kind == AGREED:
        return draw_of_two(scores, codes(AGREED))
    return win_for(1 - player, scores, codes(kind))


def keyword_replace(cls: type[S]) -> Callable[..., S]:
    """Return a fast keyword-only ``replace(state, **changes)`` for the frozen, slotted dataclass ``cls``.

    Like :func:`dataclasses.replace`, but several times faster (the engines build a state on
    every ply): fields not given are copied, except cache fields (names starting with ``_``),
    which start empty (``None``) unless given.  Build the first state with the class's own
    keyword constructor.
    """
    names = [f.name for f in fields(cls)]  # type: ignore[arg-type]
    namespace: dict[str, Any] = {"_MISSING": _MISSING, "_new": object.__new__, "_cls": cls}
    lines = [f"def replace(self, *, {', '.join(f'{n}=_MISSING' for n in names)}):", "    new = _new(_cls)"]
    for name in names:
        namespace[f"_set{name}"] = cls.__dict__[name].__set__
        kept = "None" if name.startswith("_") else f"self.{name}"
        lines.append(f"    _set{name}(new, {kept} if {name} is _MISSING else {name})")
    lines.append("    return new")
    exec("\n".join(lines), namespace)  # generated once per class, like the dataclass methods themselves
    function: Callable[..., S] = namespace["replace"]
    function.__doc__ = f"Return a copy of a {cls.__name__} with the given fields changed (keywords only)."
    return function


_MISSING: Any = object()


def slot_constructor(cls: type[S]) -> Callable[..., S]:
    """Return ``make(v1, v2, ...)`` building the frozen, slotted dataclass ``cls`` from every field, in order.

    The same object as ``cls(v1, v2, ...)`` without the frozen ``__init__``'s ``object.__setattr__`` calls.
    """
    names = [f.name for f in fields(cls)]  # type: ignore[arg-type]
    namespace: dict[str, Any] = {"_new": object.__new__, "_cls": cls}
    lines = [f"def make({', '.join(names)}):", "    new = _new(_cls)"]
    for name in names:
        namespace[f"_set{name}"] = cls.__dict__[name].__set__
        lines.append(f"    _set{name}(new, {name})")
    lines.append("    return new")
    exec("\n".join(lines), namespace)  # generated once, like keyword_replace
    function: Callable[..., S] = namespace["make"]
    function.__doc__ = f"Build a {cls.__name__} from all its fields, positionally."
    return function


def positional_replace(cls: type[S], changed: str) -> Callable[..., S]:
    """Return ``replace(state, v1, v2, ...)`` setting the fields named in ``changed`` (space separated), in order.

    A faster :func:`keyword_replace` for an engine's hottest path: no keywords to match and no
    missing-value tests.  The other fields are copied, cache fields start empty (``None``).
    """
    names = [f.name for f in fields(cls)]  # type: ignore[arg-type]
    given = changed.split()
    unknown = set(given) - set(names)
    if unknown:
        raise ValueError(f"{cls.__name__} has no field {sorted(unknown)[0]!r}")
    namespace: dict[str, Any] = {"_new": object.__new__, "_cls": cls}
    lines = [f"def replace(self, {', '.join(given)}):", "    new = _new(_cls)"]
    for name in names:
        namespace[f"_set{name}"] = cls.__dict__[name].__set__
        value = name if name in given else "None" if name.startswith("_") else f"self.{name}"
        lines.append(f"    _set{name}(new, {value})")
    lines.append("    return new")
    exec("\n".join(lines), namespace)  # generated once, like keyword_replace
    function: Callable[..., S] = namespace["replace"]
    function.__doc__ = f"Return a copy of a {cls.__name__} with {', '.join(given)} changed (positional)."
    return function


def int_list(value: Any, what: str) -> list[int]:
    """Check that ``value`` is a list of plain ints (bools excluded) and return it."""
    if not isinstance(value, list) or any(type(v) is not int for v in value):
        raise InvalidState("The saved {what} must be a list of whole numbers.", what=what)
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

    @property
    def ply(self) -> int:
        """How many plies have been played so far."""

    @property
    def last_event(self) -> Any:
        """What the last ply did, as a frozen value with ``to_json()`` (``None`` before the first ply)."""

    @property
    def may_take_back(self) -> bool:
        """Whether the ply that made this state may be taken back: it was a move (not someone leaving), the
        game goes on, and the ply revealed nothing drawn at random (an Azul round's refill)."""

    def legal_moves(self) -> tuple[Any, ...]:
        """Every legal move, sorted, without duplicates; empty exactly when over."""

    def move_text(self, move: Any) -> str:
        """The one canonical lowercase text of ``move``."""

    def parse_move(self, text: str) -> Any:
        """Parse a move leniently (case, spaces); raise :class:`GameError` on bad text."""

    def play(self, move: Any) -> GameState:
        """Return the state after ``move`` (a move value or its text)."""

    def forfeit(self, player: int, how: str = FORFEIT) -> GameState:
        """Return the state after ``player`` leaves the game: ``how`` is one of :data:`FORFEIT_CODES`.

        Any other ``how`` raises :class:`InvalidOption` (see :func:`forfeit_code`).
        """

    def scores(self) -> tuple[int, ...]:
        """One int per player."""

    def outcome(self) -> Outcome | None:
        """``None`` while the game runs; how it ended otherwise."""

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
    """A registered game: how to start one and how to rebuild a saved one, and where its other layers live.

    Every layer finds a game's part by :meth:`module` (``render.<name>``, ``i18n.<name>``, ``ai.<name>``,
    ``bot.games.<name>``); nothing else lists the games.
    """

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
    # What the engine benchmark (bench.engine_speed) measures: (players, options); empty: the fewest, by default.
    bench_configs: tuple[tuple[int, Mapping[str, Any]], ...] = ()
    # The package holding the game's other layers, for a game kept outside Tabula's own packages
    # (``tests.toy``: ``tests.toy.render``, ``tests.toy.i18n`` …); ``None``: ``render.<name>``, ``i18n.<name>`` ….
    parts: str | None = None
    # What the game's moves are made of (kinds, fields, completion): what every way of entering a move reads.
    moves: MoveForm | None = None

    def module(self, layer: str) -> str:
        """Return the name of the module holding this game's part of ``layer`` (a package: ``render``, ``bot.games``).

        >>> from engines import GAMES
        >>> GAMES["pond"].module("render"), GAMES["pond"].module("bot.games")
        ('render.pond', 'bot.games.pond')
        >>> from dataclasses import replace
        >>> replace(GAMES["pond"], parts="tests.toy").module("bot.games")
        'tests.toy.games'
        """
        if self.parts is None:
            return f"{layer}.{self.name}"
        return f"{self.parts}.{layer.rsplit('.', 1)[-1]}"


def resolve_options(specs: tuple[OptionSpec, ...], given: Mapping[str, Any]) -> dict[str, Any]:
    """Check ``given`` against ``specs`` and return every option with defaults filled in."""
    known = {spec.name: spec for spec in specs}
    for name in given:
        if name not in known:
            names = ", ".join(sorted(known)) or "none"
            raise InvalidOption("Unknown option {name!r}; this game's options are: {names}.", name=name, names=names)
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
                raise InvalidOption("{name} must be one of: {allowed}.", name=spec.name, allowed=allowed)
        if spec.minimum is not None or spec.maximum is not None:
            if isinstance(value, str) and value.strip().lstrip("-").isdigit():
                value = int(value)
            if type(value) is not int:
                raise InvalidOption("{name} must be a whole number.", name=spec.name)
            if spec.minimum is not None and value < spec.minimum:
                raise InvalidOption("{name} must be at least {minimum}.", name=spec.name, minimum=spec.minimum)
            if spec.maximum is not None and value > spec.maximum:
                raise InvalidOption("{name} must be at most {maximum}.", name=spec.name, maximum=spec.maximum)
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
        raise InvalidState("The saved {title} game is damaged: {error}", title=title, error=error) from None
    except (KeyError, TypeError, ValueError, AttributeError, IndexError) as exc:
        raise InvalidState(
            "The saved {title} game is damaged ({kind}).", title=title, kind=type(exc).__name__
        ) from None


# Save format 2 stores termination codes instead of sentences (a player's name can read like one); format 1 still
# loads.
SAVE_FORMAT = 2
SAVE_FORMATS = (1, 2)


def saved_options(data: Any, game: str, title: str) -> Mapping[str, Any]:
    """Check that ``data`` is a save of ``game`` (format 1 or 2) and return its options object."""
    version = data.get("format") if isinstance(data, Mapping) else None
    if type(version) is not int or version not in SAVE_FORMATS or data.get("game") != game:
        raise InvalidState("That is not a saved {title} game.", title=title)
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
            raise InvalidOption("This game is for exactly {minimum} players.", minimum=minimum)
        raise InvalidOption("This game is for {minimum} to {maximum} players.", minimum=minimum, maximum=maximum)
    return players
