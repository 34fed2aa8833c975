"""tiledefs/cellulae.schema.json, the JSON Schema editors use for a Cellulae catalogue: it
accepts the shipped catalogue, refuses what it can express, describes every key, and
tells a Micropul catalogue from a Cellulae one (each game's schema refuses the other's)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import jsonschema  # type: ignore[import-untyped]
import pytest
import yaml

from micropul_print.base.errors import Severity
from micropul_print.catalogue.loader import read_catalogue, shipped_catalogue
from micropul_print.draw.theme import THEME_NAMES, load_theme

CATALOGUE = shipped_catalogue("cellulae")
SCHEMA_PATH = CATALOGUE.parent / "cellulae.schema.json"
MICROPUL_SCHEMA_PATH = shipped_catalogue("micropul").parent / "schema.json"
BAD = Path(__file__).resolve().parents[2] / "data" / "bad" / "cellulae"

# Position files share the fixture folder; they are not catalogues.
POSITION_PREFIX = "position_"

# Fixtures whose problem the schema can express, and those only the loader can see.
REFUSED = [
    "bad_tile_size",
    "board_side_too_small",
    "boards_not_a_list",
    "both_faces_same_colour",
    "duplicate_board",  # the same board repeated whole: uniqueItems
    "empty_boards",
    "even_board_side",
    "missing_author",
    "one_face",
    "tile_size_not_a_number",
    "two_tile_kinds",
    "unknown_face_colour",
    "unknown_face_key",
    "unknown_key",
    "zero_count",
]
BEYOND_THE_SCHEMA = [
    "board_tiles_not_one_per_square",
    "tile_count_mismatch",
    "too_few_tiles_for_largest_board",
]


def load_json(path: Path) -> Any:
    return json.loads(path.read_text(encoding="utf-8"))


def load(path: Path) -> Any:
    return yaml.safe_load(path.read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def validator() -> Any:
    schema = load_json(SCHEMA_PATH)
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


def test_schema_is_draft_2020_12() -> None:
    schema = load_json(SCHEMA_PATH)
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    jsonschema.Draft202012Validator.check_schema(schema)


def test_shipped_catalogue_is_valid(validator: Any) -> None:
    assert list(validator.iter_errors(load(CATALOGUE))) == []


def test_shipped_catalogue_points_editors_at_the_schema() -> None:
    header = CATALOGUE.read_text(encoding="utf-8").splitlines()[:20]
    assert "# yaml-language-server: $schema=cellulae.schema.json" in header


@pytest.mark.parametrize("name", REFUSED)
def test_schema_refuses(name: str, validator: Any) -> None:
    assert not validator.is_valid(load(BAD / f"{name}.yaml"))


@pytest.mark.parametrize("name", REFUSED)
def test_the_loader_refuses_or_warns_too(name: str) -> None:
    # The schema refuses nothing the tool accepts silently (unknown keys are warnings).
    _, diagnostics = read_catalogue(BAD / f"{name}.yaml")
    assert diagnostics


@pytest.mark.parametrize("name", BEYOND_THE_SCHEMA)
def test_schema_cannot_see_rules_between_keys(name: str, validator: Any) -> None:
    # These compare one key with another; the loader sees them, the description says so.
    assert validator.is_valid(load(BAD / f"{name}.yaml"))
    _, diagnostics = read_catalogue(BAD / f"{name}.yaml")
    assert any(d.severity is Severity.ERROR for d in diagnostics)


def test_every_catalogue_fixture_is_classified() -> None:
    catalogues = {
        path.stem for path in BAD.glob("*.yaml") if not path.stem.startswith(POSITION_PREFIX)
    }
    assert catalogues == {*REFUSED, *BEYOND_THE_SCHEMA}
    assert not set(REFUSED) & set(BEYOND_THE_SCHEMA)


def test_position_fixtures_are_not_catalogues() -> None:
    positions = sorted(BAD.glob(f"{POSITION_PREFIX}*.yaml"))
    assert positions
    for path in positions:
        data = load(path)
        assert not (isinstance(data, dict) and "game" in data), path.name


def test_a_board_side_repeated_with_another_count_is_beyond_the_schema(validator: Any) -> None:
    # uniqueItems only sees a board repeated whole; the loader also reports the count.
    data = load(CATALOGUE)
    data["boards"].append({"side": 5, "tiles": 26})
    assert validator.is_valid(data)


def test_faces_in_either_order(validator: Any) -> None:
    data = load(CATALOGUE)
    data["tiles"][0]["faces"].reverse()
    assert validator.is_valid(data)
    data["tiles"][0]["faces"][0]["colour"] = "white"
    assert not validator.is_valid(data)


def test_tile_size_may_be_a_fraction_from_5_to_150(validator: Any) -> None:
    data = load(CATALOGUE)
    for size, valid in ((25.4, True), (5, True), (150, True), (150.5, False), (4.9, False),
                        (0.0001, False), (0, False), (True, False)):
        data["tile_size_mm"] = size
        assert validator.is_valid(data) is valid, size


def test_marks_are_those_every_built_in_theme_defines() -> None:
    # A mark some theme lacks fails when that theme draws the set.
    schema = load_json(SCHEMA_PATH)
    marks = set(schema["$defs"]["face"]["properties"]["mark"]["enum"])
    common = set.intersection(*(set(load_theme(name).marks) for name in THEME_NAMES))
    assert marks == common


def test_shipped_colours_and_marks_are_in_the_enums() -> None:
    schema = load_json(SCHEMA_PATH)["$defs"]["face"]["properties"]
    for face in load(CATALOGUE)["tiles"][0]["faces"]:
        assert face["colour"] in schema["colour"]["enum"]
        assert face["mark"] in schema["mark"]["enum"]


def test_each_games_schema_refuses_the_others_catalogue(validator: Any) -> None:
    micropul = jsonschema.Draft202012Validator(load_json(MICROPUL_SCHEMA_PATH))
    for schema, other in ((validator, shipped_catalogue("micropul")), (micropul, CATALOGUE)):
        errors = list(schema.iter_errors(load(other)))
        assert [list(error.path) for error in errors if error.validator == "const"] == [["game"]]


def described(node: object, where: str = "#") -> Iterator[str]:
    """Paths of the schemas (mappings with 'type', 'const' or 'enum') lacking a description.
    As test_schema.py's: test modules are not importable packages here (mypy, pytest)."""
    if isinstance(node, dict):
        if any(k in node for k in ("type", "const", "enum")) and "description" not in node:
            yield where
        for key, value in node.items():
            yield from described(value, f"{where}/{key}")
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from described(value, f"{where}/{index}")


def test_every_key_has_a_description_for_editors() -> None:
    assert list(described(load_json(SCHEMA_PATH))) == []
