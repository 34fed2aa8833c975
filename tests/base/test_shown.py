"""How a catalogue's file is named to the user: a command's words (as given) and a
report's (never an absolute path); the shipped catalogue as ``shipped:NAME`` in both."""

from __future__ import annotations

from pathlib import Path

import pytest

from micropul_print.base.shown import shown_source
from micropul_print.game import registry


@pytest.fixture
def shipped(tmp_path: Path) -> Path:
    """A stand-in for a game's shipped catalogue, in a folder of its own."""
    package = tmp_path / "site-packages" / "game"
    package.mkdir(parents=True)
    path = package / "set.yaml"
    path.write_text("game: x\n", "utf-8")
    return path


def test_the_shipped_catalogue_is_its_name_in_a_command_and_in_a_report(
        shipped: Path, tmp_path: Path) -> None:
    assert shown_source(str(shipped), [shipped]) == "shipped:set.yaml"
    assert shown_source(str(shipped), [shipped], within=tmp_path) == "shipped:set.yaml"


def test_the_shipped_catalogue_is_known_however_its_path_is_spelled(
        shipped: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.chdir(tmp_path)
    spelled = "site-packages/game/../game/set.yaml"
    assert shown_source(spelled, [tmp_path / "other.yaml", shipped]) == "shipped:set.yaml"


def test_a_copy_of_the_shipped_catalogue_is_not_it(shipped: Path, tmp_path: Path) -> None:
    copy = tmp_path / "set.yaml"
    copy.write_text(shipped.read_text("utf-8"), "utf-8")
    assert shown_source(str(copy), [shipped]) == str(copy)


def test_a_command_shows_any_other_file_as_the_user_gave_it(shipped: Path) -> None:
    assert shown_source("variants/a.yaml", [shipped]) == "variants/a.yaml"
    assert shown_source("/elsewhere/a.yaml") == "/elsewhere/a.yaml"


def test_a_report_shows_a_file_under_its_folder_relative_to_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    assert shown_source("variants/a.yaml", within=tmp_path) == "variants/a.yaml"
    assert shown_source(str(tmp_path / "variants" / "a.yaml"),
                        within=tmp_path) == "variants/a.yaml"
    assert shown_source("./variants/../b.yaml", within=tmp_path) == "b.yaml"


def test_a_report_shows_a_file_elsewhere_by_its_name_alone(tmp_path: Path) -> None:
    inside = tmp_path / "here"
    inside.mkdir()
    assert shown_source(str(tmp_path / "there" / "a.yaml"), within=inside) == "a.yaml"
    assert shown_source("/elsewhere/deep/a.yaml", within=inside) == "a.yaml"


def test_spaces_and_letters_beyond_ascii_are_kept(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    assert shown_source("mes variantes/été 2.yaml",
                        within=tmp_path) == "mes variantes/été 2.yaml"
    assert shown_source("/ailleurs/mes variantes/été 2.yaml",
                        within=tmp_path) == "été 2.yaml"
    assert shown_source("mes variantes/été 2.yaml") == "mes variantes/été 2.yaml"


def test_a_path_that_cannot_be_resolved_is_shown_not_raised(shipped: Path) -> None:
    assert shown_source("a\0b.yaml", [shipped]) == "a\0b.yaml"


def test_the_shipped_games_catalogues_are_shipped_names() -> None:
    catalogues = registry.shipped_catalogues()
    assert catalogues
    for path in catalogues:
        assert shown_source(str(path), catalogues,
                            within=Path.cwd()) == f"shipped:{path.name}"
