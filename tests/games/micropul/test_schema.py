"""tiledefs/schema.json, the JSON Schema editors use: it accepts the shipped catalogue,
refuses what it can express, and describes every key."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import jsonschema  # type: ignore[import-untyped]
import pytest
import yaml

from micropul_print.catalogue.loader import shipped_catalogue

SCHEMA_PATH = shipped_catalogue("micropul").parent / "schema.json"
BAD = Path(__file__).resolve().parents[2] / "data" / "bad"

# Fixtures whose problem the schema can express, and those only the loader can see.
REFUSED = [
    "wrong_root_type",
    "unknown_key",
    "unknown_symbol",
    "wrong_quadrant_count",
    "wrong_row_count",
    "missing_id",
    "big_bad_colour",
    "big_bad_catalyst",
    "big_with_face",
    "wrong_type",
    "unknown_game",
]
BEYOND_THE_SCHEMA = [
    "duplicate_id",
    "no_micropul",
    "no_start_tile",
    "several_start_tiles",
    "start_tile_not_two_white_two_black",
    "tile_count_mismatch",
]


@pytest.fixture(scope="module")
def validator() -> Any:
    schema = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


def load(path: Path) -> object:
    return yaml.safe_load(path.read_text(encoding="utf-8"))


def test_shipped_catalogue_is_valid(validator: Any) -> None:
    assert list(validator.iter_errors(load(shipped_catalogue("micropul")))) == []


def test_shipped_catalogue_points_editors_at_the_schema() -> None:
    header = shipped_catalogue("micropul").read_text(encoding="utf-8").splitlines()[:20]
    assert "# yaml-language-server: $schema=schema.json" in header


@pytest.mark.parametrize("name", REFUSED)
def test_schema_refuses(name: str, validator: Any) -> None:
    assert not validator.is_valid(load(BAD / f"{name}.yaml"))


@pytest.mark.parametrize("name", BEYOND_THE_SCHEMA)
def test_schema_cannot_see_cross_tile_rules(name: str, validator: Any) -> None:
    # These need the loader; the schema's description says so.
    assert validator.is_valid(load(BAD / f"{name}.yaml"))


def test_big_catalyst_accepts_numbers_and_text(validator: Any) -> None:
    data: dict[str, Any] = {
        "game": "micropul",
        "name": "Two bigs",
        "tile_count": 2,
        "tiles": [
            {"id": 1, "big": {"colour": "W", "catalyst": 2}},
            {"id": 2, "start": True, "big": {"colour": "B", "catalyst": "2"}},
        ],
    }
    assert validator.is_valid(data)
    data["tiles"][0]["big"]["catalyst"] = 3
    assert not validator.is_valid(data)


def described(node: object, where: str = "#") -> Iterator[str]:
    """Paths of the schemas (mappings with 'type', 'const' or 'enum') lacking a description."""
    if isinstance(node, dict):
        if any(k in node for k in ("type", "const", "enum")) and "description" not in node:
            yield where
        for key, value in node.items():
            yield from described(value, f"{where}/{key}")
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from described(value, f"{where}/{index}")


def test_every_key_has_a_description_for_editors() -> None:
    schema = json.loads(SCHEMA_PATH.read_text(encoding="utf-8"))
    assert list(described(schema)) == []
