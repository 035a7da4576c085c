"""The standings picture: pure, phone-readable, the leader marked by shape, every word the caller's."""

from __future__ import annotations

import io

from PIL import Image

from bot.core import tournament_formats as f
from bot.delivery.event_posts import result_letters, standings_png, standings_text
from bot.storage.tournament_store import Event, EventFormat, EventStatus
from render.standings import CHIPS, GOLD, StandingRow, render_standings, standings_image
from render.theme import DEFAULT_THEME

ROWS = [
    StandingRow(1, "Ana", "4½", ("12", "9¼"), ("W", "W", "D", "W", "W"), leader=True),
    StandingRow(2, "Bo", "4", ("11½", "8"), ("W", "L", "W", "W", "W")),
    StandingRow(3, "Cy", "1", ("9", "2"), ("L", "L", "B", "W", "L"), withdrawn=True),
]


def test_the_picture_is_pure_and_sized_for_a_phone() -> None:
    one = render_standings("Spring Pond", "after round 5 of 6", ("Pts", "BH", "SB"), ROWS)
    assert one == render_standings("Spring Pond", "after round 5 of 6", ("Pts", "BH", "SB"), ROWS)
    image = Image.open(io.BytesIO(one))
    assert image.width == 720  # shown about 360 points wide on a phone: the theme's text sizes stay readable
    assert image.height < 92 + 80 * 4 + 40


def test_the_leader_has_a_gold_bar_and_nobody_else_does() -> None:
    image = standings_image("Spring Pond", "after round 5", ("Pts", "BH", "SB"), ROWS)
    bar = [image.getpixel((21, 92 + 80 * row + 40)) for row in range(3)]
    assert bar[0] == GOLD and bar[1] != GOLD and bar[2] != GOLD


def test_the_card_changes_with_the_results_and_the_language() -> None:
    event = Event(
        1,
        1,
        1,
        "Spring Pond",
        "pond",
        {},
        EventFormat.SWISS,
        3,
        None,
        None,
        EventStatus.RUNNING,
        2,
        1,
        1,
        None,
        0.0,
        0.0,
        None,
    )
    lines = f.standings(f.SWISS, [(1, "Ana", 1, False), (2, "Bo", 2, False)], [f.Played(1, (1, 2), (1, 2))], 3)
    english, russian = standings_png(event, lines, "en", 1), standings_png(event, lines, "ru", 1)
    assert english != russian
    flipped = f.standings(f.SWISS, [(1, "Ana", 1, False), (2, "Bo", 2, False)], [f.Played(1, (1, 2), (2, 1))], 3)
    assert standings_png(event, flipped, "en", 1) != english


def test_the_chips_carry_the_letters_of_the_server_language_on_unchanged_colours() -> None:
    assert result_letters("en", ("W", "D", "L", "B", "-", "2")) == ("W", "D", "L", "B", "-", "2")
    assert result_letters("ru", ("W", "D", "L", "B", "-")) == ("В", "Н", "П", "С", "-")
    assert result_letters("fr", ("W", "D", "L", "B", "-")) == ("G", "N", "P", "E", "-")
    marks = ("W", "D", "L", "B")
    english = standings_image("Cup", "after round 4", ("Pts",), [StandingRow(1, "Ana", "2½", (), marks)])
    russian = standings_image(
        "Cup", "after round 4", ("Pts",), [StandingRow(1, "Ana", "2½", (), marks, labels=("В", "Н", "П", "С"))]
    )
    left, middle = DEFAULT_THEME.padding + 58, 92 + 46 + 13
    for i, mark in enumerate(marks):  # each chip's colour is its mark's, whatever letter is drawn on it
        assert english.getpixel((left + 32 * i + 2, middle)) == CHIPS[mark]
        assert russian.getpixel((left + 32 * i + 2, middle)) == CHIPS[mark]
    for i in range(len(marks)):  # the letters differ: the renderer draws what it is given
        box = (left + 32 * i, 92 + 46, left + 32 * i + 28, 92 + 72)
        assert english.crop(box).tobytes() != russian.crop(box).tobytes()


def test_the_text_standings_use_the_same_letters() -> None:
    event = Event(
        1, 1, 1, "Cup", "pond", {}, EventFormat.SWISS, 3, None, None, EventStatus.RUNNING, 2, 1, 1, None, 0.0, 0.0, None
    )
    lines = f.standings(f.SWISS, [(1, "Ana", 1, False), (2, "Bo", 2, False)], [f.Played(1, (1, 2), (1, 2))], 3)
    assert standings_text(event, lines, "ru", final=False).splitlines()[-2].endswith("  В")
    assert standings_text(event, lines, "fr", final=False).splitlines()[-1].endswith("  P")
    assert standings_text(event, lines, "en", final=False).splitlines()[-2].endswith("  W")
