"""The Cellulae catalogue reader: the shipped tiledefs/cellulae.yaml, and one fixture per
failure with its exact messages (tests/data/bad/cellulae/<failure>.yaml: a folder of
their own, as tests/catalogue/test_loader.py expects every tests/data/bad/*.yaml to be
a Micropul fixture)."""

from __future__ import annotations

from pathlib import Path

import pytest

from micropul_print.base.errors import UserError
from micropul_print.catalogue.loader import load_catalogue, read_catalogue, shipped_catalogue
from micropul_print.games.cellulae.catalogue import BoardSize, CellFace, CellulaeCatalogue

CELLULAE = shipped_catalogue("cellulae")
BAD = Path(__file__).resolve().parents[2] / "data" / "bad" / "cellulae"

EXPECTED = {
    "bad_tile_size": [
        "{path}:4:15: error: 'tile_size_mm' must be a length in millimetres from 5 to 150, "
        "got '-30'",
    ],
    "tile_size_not_a_number": [
        "{path}:4:15: error: 'tile_size_mm' must be a length in millimetres from 5 to 150, "
        "got 'thirty'",
    ],
    "board_side_too_small": [
        "{path}:6:12: error: board side 1 is too small (expected 3 or more)",
    ],
    "even_board_side": [
        "{path}:7:12: error: board side 6 is even (expected an odd side, so that a full board "
        "cannot end in a tie)",
    ],
    "board_tiles_not_one_per_square": [
        "{path}:6:22: error: a 5 × 5 board needs 25 tiles, one per square, not 24",
    ],
    "boards_not_a_list": [
        "{path}:5:9: error: 'boards' must be a list, got '5'",
    ],
    "empty_boards": [
        "{path}:5:9: error: 'boards' is empty (expected at least one board)",
    ],
    "duplicate_board": [
        "{path}:7:12: error: board 5 × 5 is listed twice (first at line 6; expected each "
        "side once)",
    ],
    "missing_author": [
        "{path}:1:1: error: the catalogue is missing the required key 'author'",
    ],
    "tile_count_mismatch": [
        "{path}:8:13: error: 'tile_count' is 50 but the tiles listed add up to 49 (expected "
        "them to agree)",
    ],
    "too_few_tiles_for_largest_board": [
        "{path}:8:13: error: the set has 25 tiles but the 7 × 7 board needs 49 (expected at "
        "least one tile per square of every board)",
    ],
    "two_tile_kinds": [
        "{path}:9:1: error: Cellulae has one kind of tile (expected one entry in 'tiles', "
        "got 2)",
    ],
    "zero_count": [
        "{path}:11:12: error: 'count' is 0 (expected 1 or more tiles)",
    ],
    "one_face": [
        "{path}:13:7: error: 'faces' has 1 face (expected 2: a white face and a black face)",
    ],
    "both_faces_same_colour": [
        "{path}:14:9: error: both faces are white (expected one white face and one black face)",
    ],
    "unknown_face_colour": [
        "{path}:14:18: error: unknown face colour 'red' (expected white or black)",
    ],
    "unknown_key": [
        "{path}:4:1: warning: unknown key 'players' in the catalogue (expected game, name, "
        "tile_count, tiles, author, tile_size_mm or boards)",
    ],
    "unknown_face_key": [
        "{path}:14:44: warning: unknown key 'size' in face (expected colour or mark)",
    ],
}

WARNINGS_ONLY = {"unknown_key", "unknown_face_key"}


def messages(path: Path) -> list[str]:
    return [str(d) for d in read_catalogue(path)[1]]


def test_shipped_catalogue() -> None:
    catalogue, diagnostics = read_catalogue(CELLULAE)
    assert diagnostics == []
    assert isinstance(catalogue, CellulaeCatalogue)
    assert (catalogue.game, catalogue.name, catalogue.author) == (
        "cellulae",
        "Cellulae",
        "Federico Latini",
    )
    assert catalogue.faces == (CellFace("white", "square-light"), CellFace("black", "square-dark"))
    assert catalogue.boards == (BoardSize(5, 25), BoardSize(7, 49), BoardSize(9, 81))
    assert catalogue.sides == (5, 7, 9)
    assert catalogue.tile_total == 81 and catalogue.tile_size_mm == 30.0


def test_shipped_catalogue_json() -> None:
    catalogue = load_catalogue(CELLULAE, strict=True)
    assert catalogue.to_json() == {
        "game": "cellulae",
        "name": "Cellulae",
        "author": "Federico Latini",
        "tile_size_mm": 30.0,
        "tile_count": 81,
        "faces": [
            {"colour": "white", "mark": "square-light"},
            {"colour": "black", "mark": "square-dark"},
        ],
        "boards": [{"side": 5, "tiles": 25}, {"side": 7, "tiles": 49}, {"side": 9, "tiles": 81}],
    }


def test_same_tile_size_as_micropul() -> None:
    catalogue = load_catalogue(CELLULAE)
    assert isinstance(catalogue, CellulaeCatalogue)
    assert catalogue.tile_size_mm == 30.0


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_bad_fixture_reports_exactly(name: str) -> None:
    path = BAD / f"{name}.yaml"
    assert messages(path) == [line.format(path=path) for line in EXPECTED[name]]
    catalogue = read_catalogue(path)[0]
    assert (catalogue is not None) == (name in WARNINGS_ONLY)


def test_every_bad_cellulae_fixture_is_tested() -> None:
    found = {p.stem for p in BAD.glob("*.yaml") if not p.stem.startswith("position_")}
    assert found == set(EXPECTED)


def test_warnings_stop_the_load_only_when_strict() -> None:
    path = BAD / "unknown_key.yaml"
    assert isinstance(load_catalogue(path), CellulaeCatalogue)
    with pytest.raises(UserError) as raised:
        load_catalogue(path, strict=True)
    assert [str(d) for d in raised.value.diagnostics] == messages(path)


def test_faces_are_stored_white_first_whatever_the_file_order(tmp_path: Path) -> None:
    text = CELLULAE.read_text(encoding="utf-8")
    swapped = text.replace("{colour: white, mark: square-light}", "FIRST").replace(
        "{colour: black, mark: square-dark}", "{colour: white, mark: square-light}"
    ).replace("FIRST", "{colour: black, mark: square-dark}")
    assert swapped != text
    path = tmp_path / "swapped.yaml"
    path.write_text(swapped, encoding="utf-8")
    catalogue = load_catalogue(path)
    assert isinstance(catalogue, CellulaeCatalogue)
    assert [face.colour for face in catalogue.faces] == ["white", "black"]
    assert catalogue.face("black").mark == "square-dark"


def test_micropul_catalogues_still_warn_about_cellulae_keys(tmp_path: Path) -> None:
    """Only a Cellulae catalogue knows 'author': the Micropul reader is untouched."""
    text = shipped_catalogue("micropul").read_text(encoding="utf-8")
    path = tmp_path / "micropul.yaml"
    path.write_text(text.replace("name: Micropul\n", "name: Micropul\nauthor: J.-F. L.\n"))
    found = messages(path)
    assert len(found) == 1 and "unknown key 'author' in the catalogue" in found[0]
