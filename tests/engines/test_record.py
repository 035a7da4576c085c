"""Match records as text: round trips for every game and option set, and malformed files refused."""

from __future__ import annotations

import dataclasses
import json
import random
from pathlib import Path

import pytest

from engines import GAMES
from engines.__main__ import main as engines_main
from engines.record import (
    Forfeit,
    GameRecord,
    RecordError,
    Result,
    format_record,
    merge_settings,
    new_record,
    parse_record,
    ply_text,
    replay,
    termination_of,
)

CASES = [
    pytest.param(
        name, players, config, id=f"{name}-{players}p-{'-'.join(f'{k}={v}' for k, v in config.items()) or 'default'}"
    )
    for name, spec in sorted(GAMES.items())
    for players in range(spec.min_players, spec.max_players + 1)
    for config in spec.test_configs
]
NAMES = ("Ana", "Bo, the second", "Cy: #3", "Dagny")


def random_plies(name: str, players: int, config: dict, seed: int) -> tuple[list[str], dict]:
    """Play a seeded random game of ``name`` to the end; return its move texts and final state's JSON."""
    rng = random.Random(seed)
    state = GAMES[name].new(players=players, seed=seed, **config)
    texts: list[str] = []
    while state.legal_moves():
        move = rng.choice(state.legal_moves())
        texts.append(state.move_text(move))
        state = state.play(move)
    return texts, state.to_json()


@pytest.mark.parametrize(("name", "players", "config"), CASES)
def test_a_random_game_round_trips_through_its_text(name: str, players: int, config: dict) -> None:
    seed = 11 + players
    texts, final = random_plies(name, players, config, seed)
    record = new_record(
        name, texts, options=config, seed=seed, players=players, names=NAMES[:players], date="2026-12-01T09:10:00Z"
    )
    text = format_record(record)
    parsed = parse_record(text)
    assert parsed == record
    assert replay(parsed)[-1].to_json() == final
    assert parsed.result is not None and parsed.result.scores == tuple(final_scores(name, final, record))
    assert len([line for line in text.splitlines() if not line.startswith("#")]) == len(texts)


def final_scores(name: str, final: dict, record: GameRecord) -> tuple[int, ...]:
    return GAMES[name].from_json(final).scores()


def first_move(name: str, players: int, seed: int, **options: object) -> str:
    state = GAMES[name].new(players=players, seed=seed, **options)
    return state.move_text(state.legal_moves()[0])


def test_the_header_says_everything_needed_to_replay() -> None:
    move = first_move("azul", 3, 5, wall="grey")
    record = new_record(
        "azul", [move], options={"wall": "grey"}, seed=5, players=3, names=("Ana", "Bo", "Cy"), date="2026-12-01"
    )
    lines = format_record(record).splitlines()
    assert lines[:9] == [
        "# Tabula match record",
        "# game: azul",
        '# options: {"wall": "grey"}',
        "# seed: 5",
        "# players: 3",
        "# player 1: Ana",
        "# player 2: Bo",
        "# player 3: Cy",
        "# date: 2026-12-01",
    ]
    assert lines[-1] == move
    assert record.result is None  # the game is not over: no result lines
    assert not any(line.startswith(("# winners", "# scores")) for line in lines)


def test_a_different_seed_is_a_different_azul_game() -> None:
    """The header's seed matters: Azul's bag depends on it, so the same moves may not even be legal."""
    texts, final = random_plies("azul", 2, {}, 3)
    text = format_record(new_record("azul", texts, seed=3, players=2))
    assert replay(parse_record(text))[-1].to_json() == final
    other = parse_record(text.replace("# seed: 3", "# seed: 4"))
    try:
        assert replay(other)[-1].to_json() != final
    except RecordError as error:
        assert "was refused" in str(error)


def test_forfeits_are_plies_and_round_trip() -> None:
    move = first_move("azul", 3, 2)
    record = new_record("azul", [move, Forfeit(1, "timeout", by=0), Forfeit(2, "forfeit")], seed=2, players=3)
    text = format_record(record)
    assert text.splitlines()[-2:] == ["forfeit 2: timeout by 1", "forfeit 3: forfeit"]
    parsed = parse_record(text)
    assert parsed == record
    assert replay(parsed)[-1].to_json() == replay(record)[-1].to_json()
    # A line break in a reason (or a name) cannot split the ply: it becomes a space.
    assert ply_text(Forfeit(1, "Bo resigned.\nBye")) == "forfeit 2: Bo resigned. Bye"


def test_a_forfeit_is_replayed_from_its_code_never_from_words() -> None:
    record = new_record("pond", ["place b2"], names=("Ana", "Bo"))
    with pytest.raises(RecordError, match="not a way to leave a game"):
        replay(dataclasses.replace(record, plies=("place b2", Forfeit(0, "Ran out of time Rick resigned."))))
    with pytest.raises(RecordError, match="claimed by player 2, who can't claim it"):
        parse_record(HEADER + "forfeit 2: timeout by 2\n")


@pytest.mark.parametrize(
    ("line", "ply", "termination"),
    [
        ("forfeit 1: Ana resigned.", Forfeit(0, "forfeit"), "forfeit"),
        ("forfeit 1: Ran out of time Rick resigned.", Forfeit(0, "forfeit"), "forfeit"),
        ("forfeit 1: Ana ran out of time; Bo claimed the win.", Forfeit(0, "timeout"), "timeout"),
        ("forfeit 1: abandoned", Forfeit(0, "abandoned"), "abandoned"),
        ("forfeit 1: Timeout by 2", Forfeit(0, "timeout", by=1), "timeout"),
    ],
)
def test_records_written_before_codes_still_replay(line: str, ply: Forfeit, termination: str) -> None:
    parsed = parse_record(HEADER + "place b2\n" + line + "\n")
    assert parsed.plies == ("place b2", ply)
    outcome = replay(parsed)[-1].outcome()
    assert outcome is not None and outcome.termination == termination


def test_a_two_player_forfeit_records_the_result() -> None:
    record = new_record("pond", ["place b2", Forfeit(0, "forfeit")], names=("Ana", "Bo"))
    assert record.result is not None and record.result.winners == (1,)
    text = format_record(record)
    assert "# winners: 2" in text
    assert parse_record(text).result == record.result


def test_a_byte_order_mark_and_windows_line_ends_are_read() -> None:
    text = format_record(GameRecord("pond", seed=3, plies=("place b2",))).replace("\n", "\r\n")
    assert parse_record("\ufeff" + text) == GameRecord("pond", seed=3, plies=("place b2",))


def test_a_plain_move_list_is_a_record_without_a_header() -> None:
    parsed = parse_record("place b2   # first\n\nplace c2\n# a remark: after the moves\n")
    assert parsed == GameRecord(plies=("place b2", "place c2"))
    with pytest.raises(RecordError, match="which game"):
        replay(parsed)


def test_termination_is_the_engines_code() -> None:
    resigned = GAMES["pond"].new().forfeit(0, "forfeit").outcome()
    timed_out = GAMES["pond"].new().forfeit(1, "timeout").outcome()
    assert resigned is not None and timed_out is not None
    assert (termination_of(resigned), termination_of(timed_out)) == ("forfeit", "timeout")
    state = GAMES["pond"].new(variant="mini", target=1)
    while state.outcome() is None:
        state = state.play(state.legal_moves()[0])
    outcome = state.outcome()
    assert outcome is not None and termination_of(outcome) == outcome.termination.value != "forfeit"


HEADER = "# game: pond\n# seed: 7\n# players: 2\n"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("# sead: 7\nplace b2\n", r"Line 1: unknown header key 'sead'"),
        ("# game: chess\n", r"Line 1: unknown game 'chess'; the games are: azul, pond, querni, summer"),
        ("# game: pond\n# seed: seven\n", r"Line 2: seed must be a whole number, not 'seven'"),
        ("# game: pond\n# seed: 1\n# seed: 2\n", r"Line 3: 'seed' is given twice \(also on line 2\)"),
        ("# game: pond\n# options: variant=mini\n", r"Line 2: options must be a JSON object"),
        ("# game: pond\n# options: [1, 2]\n", r"Line 2: options must be a JSON object"),
        ("# game: azul\n# players: 5\n", r"Line 2: Azul is played by 2 to 4 players, not 5"),
        ("# game: pond\n# players:\n", r"Line 2: 'players' has no value"),
        ("place b2\n# seed: 3\n", r"Line 2: the header line 'seed' comes after the first ply"),
        (HEADER + "# player 1: Ana\n# player 3: Cy\n", r"names players 1, 3; it needs exactly players 1 to 2"),
        (HEADER + "# date: yesterday\n", r"Line 4: the date must look like 2026-12-01"),
        (HEADER + "# winners: 1\n", r"needs both '# winners:' and '# scores:'"),
        (HEADER + "# winners: 1\n# scores: 3, 4, 5\n", r"Line 5: 3 scores for 2 players"),
        (HEADER + "# winners: 3\n# scores: 3, 4\n", r"Line 4: the winners must be different players 1 to 2"),
        (HEADER + "# termination: target\n", r"a termination needs"),
        (HEADER + "forfeit 3: gone\n", r"A forfeit names player 3, but the game has 2 players"),
        (HEADER + "forfeit 0: gone\n", r"Line 4: players are numbered from 1, not 0"),
    ],
)
def test_malformed_records_are_refused_with_a_readable_error(text: str, message: str) -> None:
    with pytest.raises(RecordError, match=message):
        parse_record(text)


def test_a_refused_ply_is_named_with_its_number() -> None:
    with pytest.raises(RecordError, match=r"Ply 2 \('place b2'\) was refused: .*b2"):
        replay(parse_record(HEADER + "place b2\nplace b2\n"))


def test_bad_options_in_the_header_are_a_record_error() -> None:
    with pytest.raises(RecordError, match=r"cannot start.*variant"):
        replay(parse_record('# game: pond\n# options: {"variant": "huge"}\n'))


def test_settings_from_elsewhere_must_agree_with_the_header() -> None:
    record = GameRecord("pond", options={"variant": "mini"}, seed=7, players=2)
    settings = merge_settings(record, game=None, seed=None, players=None, options={"variant": "mini"})
    assert (settings.game, settings.seed, settings.players, dict(settings.options)) == (
        "pond",
        7,
        2,
        {"variant": "mini"},
    )
    for given, message in [
        ({"game": "azul"}, "records pond, not azul"),
        ({"players": 3}, "records 2 players"),
        ({"options": {"variant": "large"}}, "options"),
        ({"options": {"max_plies": 40}}, "options"),
    ]:
        kwargs = {"game": None, "seed": None, "players": None, "options": {}, **given}
        with pytest.raises(RecordError, match=message):
            merge_settings(record, **kwargs)  # type: ignore[arg-type]
    # Without a header the settings given elsewhere stand.
    plain = merge_settings(GameRecord(), game="pond", seed=3, players=None, options={"max_plies": 40})
    assert (plain.game, plain.seed, dict(plain.options)) == ("pond", 3, {"max_plies": 40})


def test_the_engines_tool_replays_a_record_exactly(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    texts, final = random_plies("azul", 3, {"wall": "grey"}, 9)
    path = tmp_path / "match.txt"
    path.write_text(format_record(new_record("azul", texts, options={"wall": "grey"}, seed=9, players=3)))
    assert engines_main(["--moves-file", str(path), "--json"]) == 0
    out = capsys.readouterr().out
    assert json.loads(out[out.index("{\n") :]) == final


def test_the_engines_tool_refuses_a_record_it_cannot_follow(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    texts, _ = random_plies("pond", 2, {"variant": "mini"}, 4)
    record = new_record("pond", texts, options={"variant": "mini"}, seed=4)
    path = tmp_path / "match.txt"
    path.write_text(format_record(record))
    assert engines_main(["pond", "--seed", "5", "--moves-file", str(path)]) == 2
    assert "records seed 4, but seed 5" in capsys.readouterr().err
    assert record.result is not None
    wrong = Result(record.result.winners, tuple(score + 1 for score in record.result.scores), "")
    path.write_text(format_record(dataclasses.replace(record, result=wrong)))
    assert engines_main(["--moves-file", str(path)]) == 2
    assert "does not end with the recorded result" in capsys.readouterr().err
    path.write_text("# game: pond\n# sead: 4\n")
    assert engines_main(["--moves-file", str(path)]) == 2
    assert "Line 2: unknown header key 'sead'" in capsys.readouterr().err
    assert engines_main(["--moves-file", str(tmp_path / "missing.txt")]) == 2
    assert "Cannot read" in capsys.readouterr().err


def test_a_plain_moves_file_still_works_with_the_command_line_settings(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "moves.txt"
    path.write_text("place b2  # opening\nplace c2\n")
    assert engines_main(["pond", "-o", "variant=mini", "--seed", "7", "--moves-file", str(path), "--json"]) == 0
    out = capsys.readouterr().out
    expected = GAMES["pond"].new(seed=7, variant="mini").play("place b2").play("place c2").to_json()
    assert json.loads(out[out.index("{\n") :]) == expected
