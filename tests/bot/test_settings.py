"""The settings a sharded process and the rules' links need, read and checked at start."""

from __future__ import annotations

import pytest

from bot.settings import DOCS_URL, Settings, SettingsError
from bot.shards import Shards


def test_the_template_gives_a_range_and_the_environment_file_its_count() -> None:
    settings = Settings.load({"TABULA_SHARDS": "4-7", "TABULA_SHARD_COUNT": "8"}, None)
    assert settings.shards == Shards((4, 5, 6, 7), 8)
    assert Settings.load({"TABULA_SHARDS": "4-7/8", "TABULA_SHARD_COUNT": "8"}, None).shards == settings.shards
    assert Settings.load({"TABULA_SHARDS": "4-7/8"}, None).shards == settings.shards


@pytest.mark.parametrize(
    ("environ", "words"),
    [
        ({"TABULA_SHARDS": "0-3"}, "set TABULA_SHARD_COUNT"),
        ({"TABULA_SHARD_COUNT": "8"}, "TABULA_SHARDS is not"),
        ({"TABULA_SHARDS": "0-3/4", "TABULA_SHARD_COUNT": "8"}, "make them agree"),
        ({"TABULA_SHARDS": "0-3", "TABULA_SHARD_COUNT": "eight"}, "TABULA_SHARD_COUNT must be"),
        ({"TABULA_SHARDS": "0-9", "TABULA_SHARD_COUNT": "8"}, "between 0 and 7"),
    ],
)
def test_a_missing_or_contradicting_shard_count_stops_the_start_naming_it(environ: dict[str, str], words: str) -> None:
    with pytest.raises(SettingsError, match=words):
        Settings.load(environ, None)


def test_the_rules_link_defaults_to_the_projects_pages_and_may_point_elsewhere() -> None:
    assert Settings.load({}, None).docs_url == DOCS_URL == Settings().docs_url
    fork = Settings.load({"TABULA_DOCS_URL": "https://example.org/tabula/docs/"}, None)
    assert fork.docs_url == "https://example.org/tabula/docs"
    with pytest.raises(SettingsError, match="TABULA_DOCS_URL"):
        Settings.load({"TABULA_DOCS_URL": "docs/"}, None)
