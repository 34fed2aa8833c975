"""Position files: structure checks with exact messages (tests/data/bad/position_*.yaml)."""

from __future__ import annotations

from pathlib import Path

import pytest

from micropul_print.base.errors import Diagnostic, Severity, UserError
from micropul_print.games.micropul.model import BL, TL, Catalogue
from micropul_print.games.micropul.position import (
    PlacementSpec,
    StoneSpec,
    Where,
    load_position,
    read_position,
)

DATA = Path(__file__).resolve().parents[2] / "data"
BAD = DATA / "bad"

EXPECTED = {
    "unknown_key": [
        "{path}:3:41: warning: unknown key 'flipped' in placement "
        "(expected tile, x, y or rotation)",
    ],
    "missing_key": ["{path}:3:5: error: placement is missing the required key 'y'"],
    "wrong_type": ["{path}:3:18: error: 'x' must be a whole number, got 'one'"],
    "unknown_tile": ["{path}:3:12: error: unknown tile 49 (the catalogue has tiles 1 to 48)"],
    "tile_twice": [
        "{path}:3:12: error: tile 41 is placed twice "
        "(first at line 2; each tile may be placed once)"
    ],
    "bad_rotation": [
        "{path}:3:37: error: rotation 45 is not allowed "
        "(expected 0, 90, 180 or 270 degrees clockwise)"
    ],
    "bad_quadrant": ["{path}:5:39: error: unknown quadrant 'top-left' (expected tl, tr, br or bl)"],
    "bad_player": ["{path}:5:14: error: player 0 is not allowed (expected 1 or more)"],
    "empty_placements": ["{path}:1:13: error: 'placements' is empty (expected at least one tile)"],
    "wrong_root_type": [
        "{path}:1:1: error: a position file must be a mapping with the keys 'placements' "
        "and optionally 'stones', got a list"
    ],
    "missing_placements": [
        "{path}:1:1: error: the position is missing the required key 'placements'"
    ],
}


def messages(path: Path | str, catalogue: Catalogue) -> list[str]:
    return [str(d) for d in read_position(path, catalogue)[1]]


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_bad_fixture_reports_exactly(name: str, catalogue: Catalogue) -> None:
    path = BAD / f"position_{name}.yaml"
    assert messages(path, catalogue) == [line.format(path=path) for line in EXPECTED[name]]


def test_every_bad_position_fixture_is_tested() -> None:
    fixtures = {p.stem.removeprefix("position_") for p in BAD.glob("position_*.yaml")}
    assert fixtures == set(EXPECTED)


def test_errors_raise_every_problem(catalogue: Catalogue) -> None:
    path = BAD / "position_bad_rotation.yaml"
    assert read_position(path, catalogue)[0] is None
    with pytest.raises(UserError) as raised:
        load_position(path, catalogue)
    assert [str(d) for d in raised.value.diagnostics] == messages(path, catalogue)


def test_unknown_key_is_a_warning_unless_strict(catalogue: Catalogue) -> None:
    path = BAD / "position_unknown_key.yaml"
    assert len(load_position(path, catalogue).placements) == 2
    with pytest.raises(UserError) as raised:
        load_position(path, catalogue, strict=True)
    assert [d.severity for d in raised.value.diagnostics] == [Severity.WARNING]


def test_good_position_reads_every_value(catalogue: Catalogue) -> None:
    path = DATA / "good" / "position_two_tiles.yaml"
    position = load_position(path, catalogue)
    source = str(path)
    assert position.source == source
    assert position.placements == (
        PlacementSpec(41, 0, 0, 0, Where(source, 4, 5)),
        PlacementSpec(7, 1, 0, 90, Where(source, 5, 5)),
    )
    assert position.stones == (StoneSpec(1, 0, 0, TL, Where(source, 7, 5)),)


def test_several_problems_in_file_order_and_negative_cells(
    tmp_path: Path, catalogue: Catalogue
) -> None:
    path = tmp_path / "figure.yaml"
    path.write_text(
        "placements:\n"
        "  - tile: 41\n"
        "    x: -1\n"
        "    y: -2\n"
        "    rotation: 180\n"
        "  - {tile: 0, x: 0, y: 0, rotation: 360}\n"
        "stones:\n"
        "  - {player: 2, x: -1, y: -2, quadrant: bl}\n"
        "  - {player: two, x: 0, y: 0}\n"
        "  - just a stone\n",
        encoding="utf-8",
    )
    assert messages(path, catalogue) == [
        f"{path}:6:12: error: unknown tile 0 (the catalogue has tiles 1 to 48)",
        f"{path}:6:37: error: rotation 360 is not allowed "
        "(expected 0, 90, 180 or 270 degrees clockwise)",
        f"{path}:9:5: error: stone is missing the required key 'quadrant'",
        f"{path}:9:14: error: 'player' must be a whole number, got 'two'",
        f"{path}:10:5: error: a stone must be a mapping of keys, got 'just a stone'",
    ]
    path.write_text(
        "placements:\n  - {tile: 41, x: -1, y: -2, rotation: 180}\n"
        "stones:\n  - {player: 2, x: -1, y: -2, quadrant: bl}\n",
        encoding="utf-8",
    )
    position = load_position(path, catalogue)
    assert position.placements[0] == PlacementSpec(41, -1, -2, 180, Where(str(path), 2, 5))
    assert position.stones[0] == StoneSpec(2, -1, -2, BL, Where(str(path), 4, 5))


def test_stones_are_optional_and_may_be_empty(tmp_path: Path, catalogue: Catalogue) -> None:
    path = tmp_path / "p.yaml"
    for stones in ("", "stones:\n", "stones: []\n"):
        path.write_text(f"placements: [{{tile: 7, x: 0, y: 0, rotation: 270}}]\n{stones}")
        assert load_position(path, catalogue).stones == ()


def test_file_problems_come_from_the_yaml_reader(catalogue: Catalogue) -> None:
    path = BAD / "python_tag.yaml"
    with pytest.raises(UserError) as raised:
        load_position(path, catalogue)
    assert raised.value.diagnostics[0].message.startswith("unsupported tag '!!python/object")


def test_where_makes_diagnostics() -> None:
    where = Where("figure.yaml", 3, 5)
    assert where.diagnostic("stone on an empty cell") == Diagnostic(
        "figure.yaml", 3, 5, "stone on an empty cell", Severity.ERROR
    )
    assert str(where.diagnostic("odd", Severity.WARNING)) == "figure.yaml:3:5: warning: odd"
