"""The catalogue loader: the shipped catalogue, and one fixture per failure with its
exact messages (tests/data/bad/<failure>.yaml)."""

from __future__ import annotations

import dataclasses
import sys
import types
from importlib.metadata import EntryPoint
from pathlib import Path

import pytest

from micropul_print.base.errors import Diagnostic, Severity, UserError
from micropul_print.base.yamlsource import YamlNode, YamlScalar
from micropul_print.catalogue.loader import (
    CatalogueHeader,
    load_catalogue,
    read_catalogue,
    shipped_catalogue,
)
from micropul_print.game import registry
from micropul_print.games.micropul import MicropulGame
from micropul_print.games.micropul.model import (
    BLACK,
    DOT,
    EMPTY,
    PLUS,
    WHITE,
    BigMicropul,
    Catalogue,
)

DATA = Path(__file__).resolve().parents[1] / "data"
BAD = DATA / "bad"

# Each fixture, and every line the loader reports for it ({path} is the fixture).
EXPECTED = {
    "syntax_error": [
        "{path}:2:15: error: invalid YAML: mapping values are not allowed in this context",
    ],
    "wrong_root_type": [
        "{path}:1:1: error: a catalogue must be a mapping with the keys game, name, tile_count "
        "and tiles, got a list",
    ],
    "unknown_key": [
        "{path}:6:5: warning: unknown key 'colour' in tile (expected id, face, big or start)",
    ],
    "letter_the_font_lacks": [
        "{path}:2:7: warning: 'name' has 'ů' (U+016F), 'Ř' (U+0158), which the font of the "
        "sheets, Lato, lacks: the PDF would leave them out",
    ],
    "unknown_symbol": [
        "{path}:7:11: error: unknown symbol 'X' (expected one of W, B, 1, 2, P, .)",
    ],
    "wrong_quadrant_count": [
        "{path}:7:9: error: row 'W . B' has 3 symbols (expected 2, like 'W .')",
    ],
    "wrong_row_count": [
        "{path}:7:7: error: 'face' has 3 rows (expected 2 rows of 2 symbols)",
    ],
    "duplicate_id": [
        "{path}:9:9: error: duplicate tile id 1 (already used at line 5; expected each id once)",
    ],
    "missing_id": [
        "{path}:5:5: error: tile is missing the required key 'id'",
    ],
    "no_micropul": [
        "{path}:7:7: error: tile has no micropul (expected at least one W or B)",
    ],
    "big_bad_colour": [
        "{path}:6:19: error: unknown big micropul colour 'R' (expected W or B)",
    ],
    "big_bad_catalyst": [
        "{path}:6:32: error: unknown big micropul catalyst '3' (expected 1, 2 or P)",
    ],
    "big_with_face": [
        "{path}:9:10: error: a tile has either 'face' or 'big', not both",
    ],
    "no_start_tile": [
        "{path}:4:1: error: no start tile (expected one tile with 'start: true')",
    ],
    "several_start_tiles": [
        "{path}:15:12: error: a second start tile (the first is at line 10; expected exactly one)",
    ],
    "start_tile_not_two_white_two_black": [
        "{path}:10:12: error: start tile 41 must have two white and two black micropul, "
        "got 'W W' above 'B W'",
    ],
    "tile_count_mismatch": [
        "{path}:3:13: error: 'tile_count' is 48 but 2 tiles are listed (expected them to agree)",
    ],
    "not_utf8": [
        "{path}:2:16: error: file is not valid UTF-8: byte 0xe9 cannot be decoded "
        "(save the file as UTF-8)",
    ],
    "empty_file": [
        "{path}: error: file is empty (no YAML content)",
    ],
    "python_tag": [
        "{path}:2:7: error: unsupported tag '!!python/object/apply:os.system' (only the standard "
        "tags !!str, !!int, !!float, !!bool, !!null, !!map and !!seq are allowed)",
    ],
    "alias_bomb": [
        "{path}:20:10: error: aliases expand to more than 100000 values "
        "(is this a 'billion laughs' alias bomb?)",
    ],
    "recursive_alias": [
        "{path}:8:15: error: recursive alias '*row' (it refers to a value that contains it)",
    ],
    "duplicate_key": [
        "{path}:11:5: error: duplicate key 'start' (already set at line 10; "
        "each key may appear once)",
    ],
    "wrong_type": [
        "{path}:5:9: error: 'id' must be a whole number, got 'seven'",
    ],
    "several_documents": [
        "{path}:14:1: error: several YAML documents in one file (expected one; "
        "remove the '---' line)",
    ],
    "unknown_game": [
        "{path}:1:7: error: unknown game 'chess' (expected micropul or cellulae)",
    ],
}


def messages(path: Path | str) -> list[str]:
    return [str(d) for d in read_catalogue(path)[1]]


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_bad_fixture_reports_exactly(name: str) -> None:
    path = BAD / f"{name}.yaml"
    assert messages(path) == [line.format(path=path) for line in EXPECTED[name]]


def test_every_bad_catalogue_fixture_is_tested() -> None:
    fixtures = {p.stem for p in BAD.glob("*.yaml") if not p.stem.startswith("position_")}
    assert fixtures == set(EXPECTED)


# The fixtures whose every problem is a warning: the catalogue still loads.
WARNINGS_ONLY = ("unknown_key", "letter_the_font_lacks")


@pytest.mark.parametrize("name", sorted(n for n in EXPECTED if n not in WARNINGS_ONLY))
def test_errors_give_no_catalogue_and_raise(name: str) -> None:
    path = BAD / f"{name}.yaml"
    assert read_catalogue(path)[0] is None
    with pytest.raises(UserError) as raised:
        load_catalogue(path)
    assert [str(d) for d in raised.value.diagnostics] == messages(path)


@pytest.mark.parametrize("name", WARNINGS_ONLY)
def test_a_warning_only_catalogue_loads_unless_strict(name: str) -> None:
    path = BAD / f"{name}.yaml"
    catalogue, diagnostics = read_catalogue(path)
    assert catalogue is not None and catalogue.tiles
    assert [d.severity for d in diagnostics] == [Severity.WARNING]
    assert load_catalogue(path).tiles == catalogue.tiles
    with pytest.raises(UserError) as raised:
        load_catalogue(path, strict=True)
    assert [str(d) for d in raised.value.diagnostics] == messages(path)


def test_file_not_found_shows_the_path_as_given(tmp_path: Path) -> None:
    missing = tmp_path / "nowhere" / "tiles.yaml"
    assert messages(missing) == [f"{missing}: error: file not found"]
    assert messages("no-such-tiles.yaml") == ["no-such-tiles.yaml: error: file not found"]


def test_oversized_file_is_refused_before_reading(tmp_path: Path) -> None:
    huge = tmp_path / "huge.yaml"
    with huge.open("wb") as handle:
        handle.truncate(50 * 1024 * 1024)  # sparse: 50 MB that never touch the disk
    assert messages(huge) == [
        f"{huge}: error: file is too large: 52428800 bytes (50 MiB); "
        "the limit is 1048576 bytes (1 MiB)"
    ]


def test_several_errors_are_all_reported_in_file_order(tmp_path: Path) -> None:
    path = tmp_path / "tiles.yaml"
    path.write_text(
        "game: micropul\n"  # 1
        "name: Micropul\n"  # 2
        "tile_count: 4\n"  # 3
        "tiles:\n"  # 4
        "  - id: 2\n"  # 5
        "    face: [W X, . .]\n"  # 6
        "  - id: 2\n"  # 7
        "    shape: round\n"  # 8
        "    big: {colour: G, catalyst: 1}\n"  # 9
        "  - id: 41\n"  # 10
        "    start: true\n"  # 11
        "    face: [W W, B B, . .]\n",  # 12
        encoding="utf-8",
    )
    assert messages(path) == [
        f"{path}:3:13: error: 'tile_count' is 4 but 3 tiles are listed (expected them to agree)",
        f"{path}:6:14: error: unknown symbol 'X' (expected one of W, B, 1, 2, P, .)",
        f"{path}:7:9: error: duplicate tile id 2 (already used at line 5; expected each id once)",
        f"{path}:8:5: warning: unknown key 'shape' in tile (expected id, face, big or start)",
        f"{path}:9:19: error: unknown big micropul colour 'G' (expected W or B)",
        f"{path}:12:11: error: 'face' has 3 rows (expected 2 rows of 2 symbols)",
    ]


def test_rows_must_be_two_symbols_separated_by_one_space(tmp_path: Path) -> None:
    path = tmp_path / "tiles.yaml"
    path.write_text(
        "game: micropul\nname: Rows\ntile_count: 1\ntiles:\n"
        "  - id: 41\n    start: true\n    face:\n"
        "      - 1\n"
        "      - WB\n",
        encoding="utf-8",
    )
    assert messages(path) == [
        f"{path}:8:9: error: row '1' has 1 symbol (expected 2, like 'W .')",
        f"{path}:9:9: error: row 'WB' is not two symbols separated by one space "
        "(expected 2, like 'W .')",
    ]


def test_shipped_catalogue_loads_without_any_diagnostic() -> None:
    catalogue, diagnostics = read_catalogue(shipped_catalogue("micropul"))
    assert diagnostics == []
    assert catalogue is not None
    assert catalogue.game == "micropul" and catalogue.name == "Micropul"
    assert [t.id for t in catalogue.tiles] == list(range(1, 49))
    assert [t.id for t in catalogue.tiles if t.start] == [41]
    assert catalogue.start_tile.quadrants == (WHITE, WHITE, BLACK, BLACK)
    assert catalogue.tile(19).quadrants == (WHITE, DOT, EMPTY, PLUS)
    bigs = {t.id: t.big for t in catalogue.tiles if t.big is not None}
    assert bigs == {
        37: BigMicropul(WHITE, PLUS),
        38: BigMicropul(BLACK, PLUS),
        43: BigMicropul(WHITE, DOT),
        44: BigMicropul(BLACK, DOT),
    }
    assert catalogue.tile(44).quadrants == (BLACK,) * 4
    assert catalogue.source == str(shipped_catalogue("micropul"))


def test_tiles_are_sorted_by_id_and_aliases_are_allowed(tmp_path: Path) -> None:
    path = tmp_path / "tiles.yaml"
    path.write_text(
        "game: micropul\nname: Tiny\ntile_count: 3\ntiles:\n"
        "  - {id: 41, start: true, face: &start [W W, B B]}\n"
        "  - {id: 3, face: [W B, P .]}\n"
        "  - {id: 2, face: *start}\n",
        encoding="utf-8",
    )
    catalogue = load_catalogue(path)
    assert [t.id for t in catalogue.tiles] == [2, 3, 41]
    assert catalogue.tile(2).quadrants == catalogue.tile(41).quadrants
    assert catalogue.tile(3).quadrants == (WHITE, BLACK, EMPTY, PLUS)


def test_another_game_plugs_in_by_its_game_key(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pips_seen: list[YamlNode | None] = []

    def read_plain_tiles(header: CatalogueHeader, out: list[Diagnostic]) -> Catalogue | None:
        pips_seen.append(header.root.get("pips"))  # the game's own key reaches its reader
        out.append(header.tiles_node.diagnostic("read by the other game", Severity.NOTICE))
        return Catalogue(header.game, header.name or "", (), header.source)

    class Dominoes(MicropulGame):  # a whole game, but for its name, keys and reader
        info = dataclasses.replace(MicropulGame.info, name="dominoes", order=20,
                                   catalogue_keys=("pips",))

        def read_catalogue(self, header: CatalogueHeader,
                           out: list[Diagnostic]) -> Catalogue | None:
            return read_plain_tiles(header, out)

    module = types.ModuleType("dominoes_plugin")
    module.GAME = Dominoes()  # type: ignore[attr-defined]
    monkeypatch.setitem(sys.modules, "dominoes_plugin", module)
    found = {**registry._entry_points(),
             "dominoes": EntryPoint("dominoes", "dominoes_plugin:GAME", registry.GROUP)}
    monkeypatch.setattr(registry, "_entry_points", lambda: found)
    registry._load.cache_clear()
    path = tmp_path / "dominoes.yaml"
    path.write_text("game: dominoes\nname: Dominoes\ntile_count: 0\ntiles: []\npips: 6\n")
    catalogue, diagnostics = read_catalogue(path)
    assert catalogue is not None and catalogue.game == "dominoes"
    assert isinstance(pips_seen[0], YamlScalar) and pips_seen[0].value == 6
    assert [str(d) for d in diagnostics] == [f"{path}:4:1: notice: read by the other game"]
    # The game's own keys are checked by the loader like the header's.
    path.write_text("game: dominoes\nname: Dominoes\ntile_count: 0\ntiles: []\n")
    assert messages(path) == [
        f"{path}:1:1: error: the catalogue is missing the required key 'pips'",
        f"{path}:4:1: notice: read by the other game",
    ]
    path.write_text("game: go\nname: Go\ntile_count: 0\ntiles: []\n")
    assert messages(path) == [
        f"{path}:1:7: error: unknown game 'go' (expected micropul, cellulae or dominoes)"
    ]


def test_thirty_thousand_unknown_keys_are_capped_and_an_error_past_them_still_counts(
        tmp_path: Path) -> None:
    """A catalogue with 30,000 unknown keys printed 30,000 warnings (the YAML reader and
    the translations stop at 100); the line standing for those left out is as grave as
    the gravest of them, so an error among them still makes the catalogue invalid."""
    text = shipped_catalogue("micropul").read_text(encoding="utf-8")
    extra = "".join(f"k{i}: 1\n" for i in range(30_000))
    path = tmp_path / "keys.yaml"
    path.write_text(text.replace("\ngame: micropul\n", f"\ngame: micropul\n{extra}", 1),
                    encoding="utf-8")
    catalogue, diagnostics = read_catalogue(path)
    assert catalogue is not None and len(diagnostics) == 101
    assert str(diagnostics[-1]) == (f"{path}:115:1: warning: more than 100 problems (30000 "
                                    "in all); the first 100 are shown")
    path.write_text(path.read_text(encoding="utf-8").replace("tile_count: 48", "tile_count: 4"),
                    encoding="utf-8")
    catalogue, diagnostics = read_catalogue(path)
    assert catalogue is None and len(diagnostics) == 101
    assert diagnostics[-1].severity is Severity.ERROR
