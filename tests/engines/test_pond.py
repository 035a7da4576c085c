"""Pond: the worked examples of the rules, invariants on random games, and bad input."""

from __future__ import annotations

import json
import random
import string

import pytest

from engines import GAMES, GameError, IllegalMove, InvalidMoveText, InvalidState
from engines.pond import EMPTY, FACE, OWNER, PondMove, PondState, from_json, new, piece_from_code
from i18n import result_text, summary_text

SPEC = GAMES["pond"]


def position(
    rows: list[str],
    *,
    to_move: int = 0,
    scored: tuple[int, int] = (0, 0),
    variant: str = "standard",
    **options: object,
) -> PondState:
    """Build a position from rows drawn top rank first, like the rules file."""
    start = new(variant=variant, **options)
    cells = [row.split() for row in reversed(rows)]
    assert len(cells) == start.size and all(len(r) == start.size for r in cells)
    on_board = [sum(1 for row in cells for code in row if code[0] == "ld"[p]) for p in (0, 1)]
    data = start.to_json()
    data.update(
        board=cells,
        spawn=[start.spawn_size - on_board[p] - scored[p] for p in (0, 1)],
        scored=list(scored),
        turn=to_move,
        ply=to_move,
    )
    return from_json(data)


def cell(state: PondState, name: str) -> str:
    value = state.board[state.geometry.index[name]]
    return ".." if value == EMPTY else "ld"[OWNER[value]] + "ETF"[FACE[value]]


def test_example_1_an_egg_develops_three_neighbours_and_completes_a_mixed_set() -> None:
    before = position([".. dE dT ..", ".. .. lE ..", ".. lF lT ..", ".. .. .. .."])
    after = before.play("place b3")
    assert [cell(after, c) for c in ("b4", "b3", "b2", "c4", "c3", "c2")] == ["dT", "lE", "lE", "..", "..", ".."]
    assert after.scores() == (2, 1)
    names = [after.cell_name(c) for c, _ in after.last.scored]
    assert sorted(names) == ["c2", "c3", "c4"]
    assert sorted(after.cell_name(c) for c in after.last.developed) == ["b2", "b4", "c3"]
    assert "developed" in summary_text(after) and "Light +2 and Dark +1" in summary_text(after)


def test_example_2_a_frog_hop_develops_the_hopped_piece() -> None:
    before = position([".. .. .. ..", "lF dE .. dT", ".. .. lE ..", ".. .. .. .."])
    after = before.play("move a3 c3")
    assert [cell(after, c) for c in ("a3", "b3", "c3", "d3", "c2")] == ["..", "dT", "lF", "dF", "lT"]
    assert after.scores() == (0, 0)


def test_example_3_a_plus_scores_five_and_the_centre_once() -> None:
    before = position([".. dF .. ..", "lF lT dF ..", ".. .. lE dF", ".. .. .. .."], to_move=1)
    after = before.play("move d2 b2")
    assert after.scores() == (2, 3)
    assert {after.cell_name(c) for c, _ in after.last.scored} == {"b4", "b3", "b2", "a3", "c3"}
    assert cell(after, "c2") == "lT"


def test_example_4_a_line_of_four_scores_four_and_the_placed_egg_stays() -> None:
    before = position([".. .. .. ..", ".. .. .. ..", ".. .. .. ..", "lE dE dF lE"])
    after = before.play("place c2")
    assert after.scores() == (2, 2)
    assert cell(after, "c2") == "lE"
    assert all(cell(after, f"{f}1") == ".." for f in "abcd")


@pytest.mark.parametrize(("scored", "winners", "final"), [((9, 9), (1,), (10, 11)), ((9, 8), (0, 1), (10, 10))])
def test_example_5_both_reach_the_target(
    scored: tuple[int, int], winners: tuple[int, ...], final: tuple[int, int]
) -> None:
    # Light's egg on c2 turns c1 into a tadpole: rank 1 becomes dT dT lT, a set of one light and two dark.
    before = position([".. .. .. ..", ".. .. .. ..", ".. .. .. ..", "dT dT lE .."], scored=scored)
    after = before.play("place c2")
    assert after.scores() == final
    outcome = after.outcome()
    assert outcome is not None and outcome.winners == winners and after.to_move is None
    assert ("draw" in result_text(after)) == (len(winners) == 2)
    assert after.legal_moves() == ()


def test_the_mover_can_hand_the_opponent_the_win() -> None:
    before = position([".. .. .. ..", ".. .. .. ..", ".. .. .. ..", "dT dT lE .."], scored=(3, 8))
    after = before.play("place c2")
    assert after.scores() == (4, 10) and after.outcome().winners == (1,)


def test_example_6_frog_moves() -> None:
    state = position(["lF dE .. ..", ".. .. .. ..", "lE .. .. ..", ".. .. .. .."])
    frog_moves = [state.move_text(m) for m in state.legal_moves() if m.frm == state.geometry.index["a4"]]
    assert frog_moves == ["move a4 a3", "move a4 c4"]
    with pytest.raises(IllegalMove, match="a2 is occupied"):
        state.play("move a4 a2")
    with pytest.raises(IllegalMove, match="straight line"):
        state.play("move a4 b3")
    with pytest.raises(IllegalMove, match="straight line"):
        state.play("move a4 d4")


def test_example_7_elimination() -> None:
    # Light's spawn is empty (all 13 pieces accounted for), its egg cannot move and its tadpole is boxed in.
    start = position(["lT dE .. ..", "dE .. .. ..", "lE .. .. ..", ".. .. .. .."], scored=(11, 0), to_move=1, target=20)
    # Dark plays elsewhere without freeing a4: light, to move, has no action and loses.
    after = start.play("place d1")
    outcome = after.outcome()
    assert outcome is not None and outcome.winners == (1,) and "eliminated" in result_text(after)
    assert after.legal_moves() == () and after.to_move is None


def test_a_full_board_with_no_mobile_piece_eliminates() -> None:
    # Light still has eggs, but dark fills the last empty cell and no piece can move on a full board.
    rows = ["lE lE lT lT", "lT lT lE lE", "dE dE dT dT", "dE dE dT .."]
    state = position(rows, to_move=1)
    assert state.spawn[0] > 0
    after = state.play("place d1")
    assert after.scores() == (0, 0)
    outcome = after.outcome()
    assert outcome is not None and outcome.winners == (1,) and "Light has no legal action" in result_text(after)


def test_placing_needs_an_egg_in_the_spawn() -> None:
    state = position([".. .. .. ..", ".. .. .. ..", ".. .. .. ..", "lT .. .. .."], scored=(12, 0), target=20)
    assert state.spawn[0] == 0
    with pytest.raises(IllegalMove, match="no eggs left"):
        state.play("place c3")


def test_you_never_move_the_opponents_pieces_and_eggs_never_move() -> None:
    state = position([".. .. .. ..", ".. .. .. ..", ".. .. .. ..", "dT lE .. .."])
    with pytest.raises(IllegalMove, match="dark's"):
        state.play("move a1 a2")
    with pytest.raises(IllegalMove, match="egg"):
        state.play("move b1 b2")
    with pytest.raises(IllegalMove, match="no piece on c1"):
        state.play("move c1 c2")


def test_tadpoles_move_one_orthogonal_step() -> None:
    state = position([".. .. .. ..", ".. .. .. ..", ".. .. .. ..", "lT .. .. .."])
    moves = [state.move_text(m) for m in state.legal_moves() if m.frm >= 0]
    assert moves == ["move a1 b1", "move a1 a2"]
    with pytest.raises(IllegalMove, match="one cell"):
        state.play("move a1 b2")


def test_a_turn_develops_only_around_the_landing_cell() -> None:
    state = position([".. .. .. ..", "dE .. .. ..", "lF .. .. ..", "dE .. .. .."])
    after = state.play("move a2 c2")
    assert cell(after, "a3") == "dE" and cell(after, "a1") == "dE"


def test_the_move_limit_ends_in_a_labelled_draw() -> None:
    state = new(max_plies=2).play("place a1").play("place d4")
    outcome = state.outcome()
    assert outcome is not None and outcome.winners == (0, 1) and "move limit" in result_text(state)


@pytest.mark.parametrize(
    ("variant", "size", "spawn", "target"), [("standard", 4, 13, 10), ("mini", 4, 10, 7), ("large", 5, 14, 10)]
)
def test_variants(variant: str, size: int, spawn: int, target: int) -> None:
    state = new(variant=variant)
    assert (state.size, state.spawn, state.target) == (size, (spawn, spawn), target)
    assert len(state.legal_moves()) == size * size


def test_spawn_and_target_options_give_the_older_ponds() -> None:
    small = new(variant="mini", spawn=11)
    big = new(variant="large", spawn=15)
    assert small.spawn == (11, 11) and small.target == 7
    assert big.spawn == (15, 15) and big.size == 5


@pytest.mark.parametrize("text", [" Place B2 ", "place b2", "PLACE  b2", "b2", "p b2"])
def test_parse_is_lenient(text: str) -> None:
    assert new().parse_move(text) == PondMove(-1, 5)


@pytest.mark.parametrize("text", ["move a3 c3", "Move A3 C3", "a3 c3", "a3-c3", "move a3 to c3", " move  a3   c3 "])
def test_parse_moves(text: str) -> None:
    assert new().parse_move(text) == PondMove(8, 10)


@pytest.mark.parametrize(
    ("text", "message"),
    [("place e5", "not on this 4x4 board"), ("fly b2", "can't read"), ("", "can't read"), ("move a1", "can't read")],
)
def test_bad_text_is_explained(text: str, message: str) -> None:
    with pytest.raises(InvalidMoveText, match=message):
        new().play(text)


def test_large_board_names_e5() -> None:
    assert summary_text(new(variant="large").play("place e5")) == "Light placed an egg on e5."


def random_positions(games: int, seed: int = 11):
    rng = random.Random(seed)
    for variant in ("standard", "mini", "large"):
        for g in range(games):
            state = new(variant=variant, seed=g)
            while True:
                yield state
                moves = state.legal_moves()
                if not moves:
                    break
                state = state.play(rng.choice(moves))


def test_pieces_are_conserved_and_no_set_stands_at_the_start_of_a_turn() -> None:
    for state in random_positions(150):
        for player in (0, 1):
            on_board = sum(1 for v in state.board if v and OWNER[v] == player)
            assert state.spawn[player] + on_board + state.scored[player] == state.spawn_size
        for a, b, c in state.geometry.windows:
            assert not (state.board[a] and FACE[state.board[a]] == FACE[state.board[b]] == FACE[state.board[c]])


def test_random_strings_and_near_misses_only_raise_game_errors() -> None:
    rng = random.Random(5)
    states = [s for i, s in enumerate(random_positions(3, seed=2)) if i % 7 == 0]
    alphabet = string.ascii_letters + string.digits + " -><_.\n\t"
    texts = [
        "place",
        "move",
        "place a0",
        "place a9",
        "move a1 a1",
        "move z1 a2",
        "place b22",
        "b2 b2 b2",
        "☃",
        "place ｂ２",
    ]
    for _ in range(400):
        texts.append("".join(rng.choice(alphabet) for _ in range(rng.randint(0, 14))))
        texts.append(
            rng.choice(["place ", "move ", ""])
            + rng.choice("abcdefz")
            + str(rng.randint(0, 6))
            + " "
            + rng.choice("abcde")
            + str(rng.randint(0, 6))
        )
    for state in states:
        for text in texts:
            try:
                after = state.play(text)
            except GameError:
                continue
            assert state.parse_move(text) in state.legal_moves()
            assert after.ply == state.ply + 1
    for move in [PondMove(-2, 0), PondMove(0, 99), "x", None, 3]:
        with pytest.raises(GameError):
            new().play(move)  # type: ignore[arg-type]


def corruptions(data: dict) -> list[dict]:
    out = []
    for key in list(data):
        broken = json.loads(json.dumps(data))
        del broken[key]
        out.append(broken)
        for junk in (None, -1, "x", [], {}, [[1]], 10**9, True):
            broken = json.loads(json.dumps(data))
            broken[key] = junk
            out.append(broken)
    for path, junk in [
        (("board", 0, 0), "zz"),
        (("board", 0), ["lE"]),
        (("spawn", 0), 99),
        (("scored", 1), -3),
        (("options", "variant"), "huge"),
        (("options", "spawn"), 0),
        (("last", "move"), [1, 99]),
        (("last", "actor"), 9),
        (("result", "winners"), [7]),
    ]:
        broken = json.loads(json.dumps(data))
        target = broken
        for key in path[:-1]:
            if target is None:
                break
            target = target[key]
        if target is not None:
            target[path[-1]] = junk
            out.append(broken)
    return out


def test_corrupted_saves_only_raise_game_errors() -> None:
    samples = [s for i, s in enumerate(random_positions(2, seed=4)) if i % 9 == 0]
    refused = 0
    for state in samples:
        for broken in corruptions(state.to_json()):
            try:
                rebuilt = from_json(broken)
            except InvalidState:
                refused += 1
                continue
            assert from_json(rebuilt.to_json()) == rebuilt  # whatever is accepted is a sound position
    assert refused > 100
    for junk in (None, [], "pond", {"game": "pond"}, {"game": "azul", "format": 1}):
        with pytest.raises(InvalidState):
            from_json(junk)  # type: ignore[arg-type]


def test_impossible_positions_are_refused() -> None:
    data = new().to_json()
    data["board"][0][:3] = ["lE", "lE", "lE"]
    data["spawn"] = [10, 13]
    with pytest.raises(InvalidState, match="set"):
        from_json(data)
    data = new().to_json()
    data["board"][0][0] = "lE"
    with pytest.raises(InvalidState, match="add up"):
        from_json(data)
    assert piece_from_code("dF") == 6


def test_the_command_line_tool_replays_and_reports(capsys: pytest.CaptureFixture[str]) -> None:
    from engines.__main__ import main

    assert main(["pond", "--option", "variant=mini", "place b2", "place c2"]) == 0
    out = capsys.readouterr().out
    assert "to move: light" in out and "legal moves (17)" in out and "lT" in out
    assert main(["pond", "place b2", "place b2"]) == 2
    assert "b2 is occupied" in capsys.readouterr().err
    assert main(["pond", "-o", "variant=mini", "place b2"]) == 0  # -o is short for --option
    assert "legal moves (" in capsys.readouterr().out


def test_the_command_line_lists_games_with_their_player_counts(capsys: pytest.CaptureFixture[str]) -> None:
    from engines.__main__ import main

    assert main(["--list"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert "pond: Pond, 2 players" in lines and "azul: Azul, 2-4 players" in lines
    assert not any("2-2" in line for line in lines)


def test_each_variant_starts_with_the_engines_numbers() -> None:
    from engines.pond import DEFAULT_MAX_PLIES, DEFAULT_VARIANT, GEOMETRY, VARIANTS

    assert new().variant == DEFAULT_VARIANT and new().max_plies == DEFAULT_MAX_PLIES
    for name, variant in VARIANTS.items():
        state = new(variant=name)
        assert (state.size, state.spawn_size, state.target) == (variant.size, variant.spawn, variant.target)
        assert state.spawn == (variant.spawn, variant.spawn) and len(state.board) == variant.size**2
        assert GEOMETRY[variant.size].names[-1] == "abcde"[variant.size - 1] + str(variant.size)
