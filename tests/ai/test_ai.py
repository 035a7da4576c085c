"""The computer opponent: determinism, legality, tactics in small Pond positions, budgets, the process-pool API."""

from __future__ import annotations

import dataclasses
import json
import random
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any

import pytest

from ai import LEVEL_NAMES, LEVELS, analyse, choose_move, search_seed, think, warm_up
from ai.knowledge import Knowledge, knowledge_for, reward_from_outcome, reward_from_places, soft_reward
from ai.mcts import search
from engines import GAMES, GameState, IllegalMove, Outcome, azul, pond

# -- helpers --------------------------------------------------------------------------------------------------------


def random_positions(name: str, count: int, seed: int) -> list[GameState]:
    """Return ``count`` positions of ``name`` that are not over, reached by seeded random play."""
    spec = GAMES[name]
    rng = random.Random(seed)
    positions: list[GameState] = []
    game_seed = seed
    while len(positions) < count:
        players = rng.randint(spec.min_players, spec.max_players)
        state = spec.new(players=players, seed=game_seed)
        game_seed += 1
        stop = rng.randint(0, 40)
        for _ in range(stop):
            moves = state.legal_moves()
            if not moves:
                break
            state = state.play(rng.choice(moves))
        if state.outcome() is None:
            positions.append(state)
    return positions


def pond_position(rows: list[str], *, scored: tuple[int, int], turn: int = 0, variant: str = "mini") -> pond.PondState:
    """Build a Pond position from rows drawn rank 4 first (``lE dF ..``), with spawns making the counts add up."""
    board = [row.split() for row in reversed(rows)]  # the saved board lists rank 1 first
    spawn_size = pond.VARIANTS[variant][1]
    flat = [code for row in board for code in row]
    spawn = [spawn_size - scored[p] - sum(1 for c in flat if c[0] == "ld"[p]) for p in (0, 1)]
    data = {
        "game": "pond",
        "format": 1,
        "seed": 0,
        "options": {"variant": variant, "spawn": None, "target": None, "max_plies": 300},
        "board": board,
        "spawn": spawn,
        "scored": list(scored),
        "turn": turn,
        "ply": 20 + turn,
        "result": None,
        "last": None,
    }
    return pond.from_json(data)


def wins_at_once(state: GameState, move: Any) -> bool:
    """Tell whether ``move`` ends the game with the mover as the sole winner."""
    outcome = state.play(move).outcome()
    return outcome is not None and outcome.winners == (state.to_move,)


def loses_at_once(state: GameState, move: Any) -> bool:
    """Tell whether the opponent can win at once after ``move`` (a two-player game)."""
    after = state.play(move)
    if after.outcome() is not None:
        return after.outcome().winners == (after.to_move,)  # type: ignore[union-attr]
    return any(wins_at_once(after, reply) for reply in after.legal_moves())


class FakeClock:
    """A clock that advances ``step`` seconds every time it is read."""

    def __init__(self, step: float) -> None:
        self.now = 100.0
        self.step = step
        self.reads = 0

    def __call__(self) -> float:
        self.now += self.step
        self.reads += 1
        return self.now


# -- a tiny three-player game, to check the search beyond two players -------------------------------------------------


@dataclass(frozen=True)
class CountState:
    """Players in turn add 1 or 2 to a counter; whoever makes it reach ``goal`` wins, the others share second place."""

    players: int
    counter: int = 0
    goal: int = 10
    turn: int = 0
    winner: int | None = None
    seed: int = 0
    game: str = field(default="count", init=False)

    @property
    def to_move(self) -> int | None:
        return None if self.winner is not None else self.turn

    def legal_moves(self) -> tuple[int, ...]:
        if self.winner is not None:
            return ()
        return tuple(step for step in (1, 2) if self.counter + step <= self.goal)

    def play(self, move: Any) -> CountState:
        if move not in self.legal_moves():
            raise IllegalMove("That step is not allowed.")
        counter = self.counter + move
        winner = self.turn if counter == self.goal else None
        return CountState(self.players, counter, self.goal, (self.turn + 1) % self.players, winner)

    def move_text(self, move: int) -> str:
        return str(move)

    def scores(self) -> tuple[int, ...]:
        return tuple(int(p == self.winner) for p in range(self.players))

    def outcome(self) -> Outcome | None:
        if self.winner is None:
            return None
        places = tuple(1 if p == self.winner else 2 for p in range(self.players))
        return Outcome((self.winner,), self.scores(), "Reached the goal.", places)


# -- rewards ----------------------------------------------------------------------------------------------------------


def test_rewards_follow_places() -> None:
    assert reward_from_places((1, 2)) == (1.0, 0.0)
    assert reward_from_places((1, 1)) == (0.5, 0.5)
    assert reward_from_places((2, 1, 3, 4)) == (2 / 3, 1.0, 1 / 3, 0.0)
    assert reward_from_places((1, 1, 3)) == (0.75, 0.75, 0.0)
    # An engine that gives no places still names its winners.
    assert reward_from_outcome(Outcome((1,), (0, 0, 0), "won"), 3) == (0.25, 1.0, 0.25)
    even = soft_reward([2.0, 2.0, 2.0])
    assert all(abs(r - 0.5) < 1e-12 for r in even)
    ahead = soft_reward([3.0, 0.0])
    assert ahead[0] > 0.9 and abs(sum(ahead) - 1.0) < 1e-12


# -- determinism and legality -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("level", sorted(LEVELS))
def test_same_seed_same_move(level: str) -> None:
    for state in random_positions("pond", 4, seed=11):
        first = analyse(state, level=level, seed=5, iterations=120)
        again = analyse(state, level=level, seed=5, iterations=120)
        assert first.move == again.move
        assert first.root_visits == again.root_visits
        assert first.move in state.legal_moves()


def test_different_seeds_can_differ_at_easy() -> None:
    state = pond.new(variant="standard")
    chosen = {choose_move(state, level="easy", seed=seed, iterations=60) for seed in range(12)}
    assert len(chosen) > 1, "easy samples its move, so seeds should not all agree on the opening"


@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_registered_game_gets_legal_moves(name: str) -> None:
    for i, state in enumerate(random_positions(name, 4, seed=3)):
        for level in LEVELS:
            move = choose_move(state, level=level, seed=i, iterations=25)
            assert move in state.legal_moves()
        # The generic search must work without any of the game's knowledge.
        result = search(state, iterations=25, seed=i, knowledge=Knowledge())
        assert result.move in state.legal_moves()


CONFIGS = [
    pytest.param(name, config, id=f"{name}-{'-'.join(f'{k}={v}' for k, v in config.items()) or 'default'}")
    for name, spec in sorted(GAMES.items())
    for config in spec.test_configs
]


@pytest.mark.parametrize(("name", "config"), CONFIGS)
def test_every_option_combination_gets_legal_moves_to_the_end(name: str, config: dict[str, Any]) -> None:
    """Play a whole game at easy against random moves: every position the options lead to must be searchable."""
    spec = GAMES[name]
    rng = random.Random(5)
    state = spec.new(players=spec.max_players, seed=5, **config)
    ply = 0
    while state.outcome() is None and ply < 400:
        moves = state.legal_moves()
        move = choose_move(state, level="easy", seed=ply, iterations=8) if ply % 2 == 0 else rng.choice(moves)
        assert move in moves
        state = state.play(move)
        ply += 1


def test_azul_grey_wall_tiling_choices_are_searched() -> None:
    """On the grey wall a round ends with players choosing columns: the search must handle those moves too."""
    rng = random.Random(3)
    state = azul.new(players=2, seed=3, wall="grey")
    seen = 0
    while state.outcome() is None and seen < 3:
        if state.phase == azul.TILING:
            move = choose_move(state, level="hard", seed=seen, iterations=100)
            assert move in state.legal_moves() and move.source == azul.WALL
            seen += 1
            state = state.play(move)
        else:
            state = state.play(rng.choice(state.legal_moves()))
    assert seen


@pytest.mark.parametrize("name", sorted(GAMES))
def test_think_round_trips_through_json(name: str) -> None:
    for i, state in enumerate(random_positions(name, 2, seed=21)):
        saved = json.loads(json.dumps(state.to_json()))
        text = think(name, saved, "medium", seed=i, iterations=30)
        assert state.parse_move(text) in state.legal_moves()
        assert text == state.move_text(state.parse_move(text))
        assert text == state.move_text(choose_move(state, level="medium", seed=i, iterations=30))


def test_a_game_plays_to_the_end_against_itself() -> None:
    state: GameState = pond.new(variant="mini", max_plies=60)
    ply = 0
    while state.outcome() is None:
        state = state.play(choose_move(state, level="easy", seed=ply, iterations=20))
        ply += 1
    assert ply <= 60


# -- tactics in small Pond positions ----------------------------------------------------------------------------------

# Light (to move) has 6 of 7: placing an egg on c1 turns the frog on b1 into an egg, and a1 b1 c1 score.
WIN_ROWS = [
    "dT .. .. ..",
    ".. .. dE ..",
    ".. .. .. ..",
    "lE lF .. ..",
]

# Dark threatens the same trick on rank 4 (dark egg a4, dark frog b4, c4 empty), and is one piece from the target.
THREAT_ROWS = [
    "dE dF .. ..",
    ".. .. .. ..",
    ".. lT .. ..",
    ".. .. .. lE",
]


@pytest.mark.parametrize("level", sorted(LEVELS))
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_finds_an_immediate_win(level: str, seed: int) -> None:
    state = pond_position(WIN_ROWS, scored=(4, 5))
    winning = [m for m in state.legal_moves() if wins_at_once(state, m)]
    assert winning and len(winning) < len(state.legal_moves())
    result = analyse(state, level=level, seed=seed, iterations=60)
    assert result.move in winning
    assert result.solved


@pytest.mark.parametrize("level", sorted(LEVELS))
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_avoids_an_immediate_loss(level: str, seed: int) -> None:
    state = pond_position(THREAT_ROWS, scored=(1, 4))
    moves = state.legal_moves()
    assert not any(wins_at_once(state, m) for m in moves)
    safe = [m for m in moves if not loses_at_once(state, m)]
    assert safe and len(safe) < len(moves) // 2, "most moves should lose at once for the test to mean something"
    move = choose_move(state, level=level, seed=seed, iterations=300)
    assert move in safe


def test_the_same_tactics_for_dark() -> None:
    mirrored = [row.replace("l", "x").replace("d", "l").replace("x", "d") for row in WIN_ROWS]
    state = pond_position(mirrored, scored=(5, 4), turn=1)
    assert wins_at_once(state, choose_move(state, level="hard", seed=0, iterations=60))


def test_three_players_take_their_own_win() -> None:
    state = CountState(players=3, counter=8)
    result = search(state, iterations=50, seed=0)
    assert result.move == 2 and result.solved
    # The whole tree is small enough for the solver to settle the root.
    state = CountState(players=3, counter=5, turn=1)
    result = search(state, iterations=2000, seed=0)
    assert result.move in state.legal_moves()
    assert result.solved


# -- hidden chance ----------------------------------------------------------------------------------------------------


def near_round_end(players: int, seed: int) -> azul.AzulState:
    """Return an Azul position of round 1 with few tiles left on the table, reached by seeded random takes."""
    rng = random.Random(seed)
    state = azul.new(players=players, seed=seed)
    while True:
        on_table = sum(state.centre) + sum(sum(f) for f in state.factories)
        if on_table <= 7:
            return state
        state = state.play(rng.choice(state.legal_moves()))


@pytest.mark.parametrize("players", [2, 4])
def test_azul_search_ignores_the_bag_order(players: int) -> None:
    """The next round's tiles come from the bag; the AI must choose the same whatever the bag's hidden order."""
    state = near_round_end(players, seed=players)
    other = dataclasses.replace(state, rng=state.rng ^ 0x5DEECE66D)
    # The two differ only in the factories the next round will draw.
    ends = []
    for start in (state, other):
        while start.round == 1 and start.outcome() is None:
            start = start.play(start.legal_moves()[0])
        ends.append(start.factories)
    assert ends[0] != ends[1]
    first = analyse(state, level="hard", seed=4, iterations=400)
    second = analyse(other, level="hard", seed=4, iterations=400)
    assert first.move == second.move and first.root_visits == second.root_visits


def test_azul_horizon_is_the_end_of_a_round() -> None:
    know = knowledge_for("azul")
    state = near_round_end(2, seed=9)
    assert not know.horizon(state)
    while state.round == 1:
        state = state.play(state.legal_moves()[0])
    assert know.horizon(state) == (state.outcome() is None)


# -- budgets ----------------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("level", sorted(LEVELS))
def test_time_budget_is_kept_with_a_fake_clock(level: str) -> None:
    state = pond.new(variant="standard")
    clock = FakeClock(step=0.001)
    start = clock.now
    result = analyse(state, level=level, seed=0, time_limit=0.05, iterations=10**9, clock=clock)
    assert 0 < result.iterations < 10**9
    assert clock.now - start <= 0.05 * 1.2


def test_long_rollouts_read_the_clock() -> None:
    """A playout to the end of a long game must not run past the deadline: it looks at the clock as it goes."""
    state = CountState(players=2, goal=3000)  # random playouts last about 2000 plies
    clock = FakeClock(step=0.0)

    class SlowRollouts(Knowledge):
        """Rollouts to the end, each ply costing a simulated millisecond."""

        max_rollout_plies = 5000
        has_rollout_policy = True

        def rollout_move(self, state: Any, moves: Any, rng: Any) -> Any:
            clock.now += 0.001
            return super().rollout_move(state, moves, rng)

    start = clock.now
    result = search(state, iterations=10**9, seed=0, knowledge=SlowRollouts(), clock=clock, deadline=start + 0.2)
    assert result.move in state.legal_moves()
    assert clock.now - start <= 0.2 * 1.2


def test_think_starts_the_clock_before_rebuilding() -> None:
    state = pond.new(variant="mini")
    clock = FakeClock(step=0.001)
    start = clock.now
    text = think("pond", state.to_json(), "hard", seed=0, time_limit=0.03, clock=clock)
    assert state.parse_move(text) in state.legal_moves()
    assert clock.now - start <= 0.03 * 1.2


def test_a_single_legal_move_costs_no_search() -> None:
    state = pond_position(
        [
            "lE dE lT dT",
            "dT lT dE lE",
            "lE dE lT dT",
            "dT lT dE ..",
        ],
        scored=(0, 0),
        variant="standard",
    )
    assert state.legal_moves() == (pond.PondMove(-1, 3),)
    result = analyse(state, level="hard", seed=0)
    assert result.move == state.legal_moves()[0] and result.iterations == 0


def test_think_runs_in_a_process_pool() -> None:
    """The bot's path: a worker warmed up by ``warm_up``, plain arguments in, the move's text out."""
    state = pond.new(variant="mini")
    with ProcessPoolExecutor(max_workers=1, initializer=warm_up) as pool:
        text = pool.submit(think, "pond", state.to_json(), "easy", 1, 0.05, time.perf_counter).result(timeout=60)
    assert state.parse_move(text) in state.legal_moves()


def test_bad_requests_are_refused() -> None:
    state = pond.new(variant="mini")
    with pytest.raises(ValueError, match="level"):
        choose_move(state, level="grandmaster")
    with pytest.raises(ValueError, match="clock"):
        choose_move(state, time_limit=1.0)
    with pytest.raises(ValueError, match="game"):
        think("chess", state.to_json(), "easy", iterations=5)
    over = state.forfeit(0, "forfeit")
    with pytest.raises(ValueError, match="over"):
        choose_move(over, iterations=5)


def test_every_game_has_knowledge_or_the_generic_default() -> None:
    for name in GAMES:
        assert isinstance(knowledge_for(name), Knowledge)
    assert type(knowledge_for("no such game")) is Knowledge
    assert type(knowledge_for("pond", generic=True)) is Knowledge


def test_levels_can_tune_the_knowledge() -> None:
    know = knowledge_for("pond", (("widening", 1.5), ("rollout_depth", 3)))
    assert (know.widening, know.rollout_depth) == (1.5, 3)
    assert knowledge_for("pond").widening == 0.0, "overrides change one instance, not the class"
    with pytest.raises(ValueError, match="setting"):
        knowledge_for("pond", (("no_such_setting", 1),))
    level = dataclasses.replace(LEVELS["medium"], tuning=(("exploration", 0.2), ("widening", 1.0)))
    state = pond.new(variant="mini")
    assert choose_move(state, level=level, seed=0, iterations=50) in state.legal_moves()


# -- the tournament script ---------------------------------------------------------------------------------------------


def test_tournament_helpers() -> None:
    from bench import tournament

    low, high = tournament.wilson(19, 20)
    assert 0.763 < low < 0.765 and 0.99 < high < 0.992
    assert tournament.wilson(0, 0) == (0.0, 1.0)
    level = tournament.parse_level("wide=hard,widening=1.5,temperature=0.5,rollout_depth=none")
    assert level.name == "wide" and level.temperature == 0.5 and level.time_limit == LEVELS["hard"].time_limit
    assert level.tuning == (("widening", 1.5), ("rollout_depth", None))
    fixed = tournament.parse_level("m50=medium,querni.iterations=50,iterations=300,budget=time")
    assert fixed.for_game("querni").iterations == 50 and fixed.for_game("pond").iterations == 300
    assert fixed.budget == "time"
    # Elo from a score, and error bars from the score's interval.
    assert round(tournament.elo(0.75)) == 191 and tournament.elo(0.5) == 0.0
    assert tournament.elo(0.0) == -800.0 and tournament.elo(1.0) == 800.0


def test_a_scaled_tournament_shortens_only_the_levels_that_think_for_a_time() -> None:
    from bench import tournament

    assert tournament.scaled_level(LEVELS["hard"], 0.2).time_limit == pytest.approx(0.6)
    assert tournament.scaled_level(LEVELS["medium"], 0.2) == LEVELS["medium"]  # 500 playouts at any scale
    assert tournament.scaled_level(LEVELS["easy"], 0.2) == LEVELS["easy"]


def test_tournament_runs_a_tiny_match() -> None:
    from bench import tournament

    rows = tournament.run(["pond"], count=2, scale=0.01, workers=1, pairings=[("easy", "random")])
    (row,) = rows
    assert row["games"] == 2 and row["wins"] + row["draws"] + row["losses"] == 2
    assert row["first_moves"] > 0 and row["second_moves"] == 0
    assert -800 <= row["elo_low"] <= row["elo"] <= row["elo_high"] <= 800
    assert "pond" in tournament.format_row(row) and "Elo" in tournament.format_row(row)


def test_levels_are_defined_once_with_their_budgets_and_labels() -> None:
    assert LEVEL_NAMES == ("easy", "medium", "hard")
    budgets = [LEVELS[name].time_limit for name in LEVEL_NAMES]
    assert budgets == sorted(budgets) and budgets[-1] > budgets[-2]
    for game in GAMES:
        caps = [LEVELS[name].for_game(game).iterations for name in LEVEL_NAMES]
        assert caps == sorted(caps) and len(set(caps)) == 3, game
    assert [LEVELS[name].budget for name in LEVEL_NAMES] == ["iterations", "iterations", "time"]
    assert [LEVELS[name].label for name in LEVEL_NAMES] == ["Tabula (easy)", "Tabula (medium)", "Tabula (hard)"]


@pytest.mark.parametrize("name", sorted(GAMES))
def test_the_search_seed_differs_on_every_ply_of_every_game(name: str) -> None:
    spec = GAMES[name]
    rng = random.Random(5)
    state = spec.new(players=spec.max_players, seed=11)
    seeds = []
    while state.outcome() is None and len(seeds) < 60:
        seeds.append(search_seed(11, state.ply))
        state = state.play(rng.choice(state.legal_moves()))
    assert len(seeds) > 10 and len(set(seeds)) == len(seeds)
    assert all(0 <= seed < 2**63 for seed in seeds) and search_seed(12, 0) != search_seed(11, 0)


# -- tree reuse -----------------------------------------------------------------------------------------------------


def play_with_memory(name: str, players: int, seed: int, plies: int) -> tuple[list[Any], list[int], list[GameState]]:
    """Let one searcher with a tree memory play every seat; return its moves, reused playouts and positions."""
    from ai.mcts import SearchMemory

    memory = SearchMemory()
    state = GAMES[name].new(players=players, seed=seed)
    moves, reused, positions = [], [], []
    for ply in range(plies):
        if state.outcome() is not None:
            break
        result = search(state, iterations=150, seed=ply, memory=memory, key=state.to_move)
        moves.append(result.move)
        reused.append(result.reused)
        positions.append(state)
        state = state.play(result.move)
    return moves, reused, positions


@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_reused_tree_is_deterministic_for_a_seed_and_is_used(name: str) -> None:
    first = play_with_memory(name, 2, 3, 16)
    again = play_with_memory(name, 2, 3, 16)
    assert first[0] == again[0] and first[1] == again[1]
    assert sum(first[1]) > 0  # later moves started from what earlier searches learnt


def test_azul_never_reuses_a_tree_across_a_rounds_end() -> None:
    _, reused, positions = play_with_memory("azul", 2, 11, 60)
    starts = [i for i, state in enumerate(positions) if state.last is not None and state.last.round_ended]
    assert starts and all(reused[i] == 0 for i in starts)  # the bag's new factories were never searched
    assert any(reused[i] > 0 for i in range(len(reused)) if i not in starts)
