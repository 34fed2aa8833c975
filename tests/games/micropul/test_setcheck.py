"""Set facts, the comparison with the official set, and simulations
(micropul_print.games.micropul.setcheck); one catalogue per set-check failure or notice,
with its exact messages (tests/data/setcheck/errors/<failure>.yaml, .../notices/...)."""

from __future__ import annotations

from pathlib import Path

import pytest

from micropul_print.base.errors import Severity
from micropul_print.cli import main
from micropul_print.games.micropul.model import Catalogue, Tile
from micropul_print.games.micropul.rules.game import END_REASONS
from micropul_print.games.micropul.setcheck import (
    activation_example,
    compare_with_official,
    comparison_problems,
    format_comparison,
    format_facts,
    format_simulation,
    set_facts,
    simulate,
)


def test_the_official_set(catalogue: Catalogue) -> None:
    facts = set_facts(catalogue)
    assert [d for d in facts.diagnostics if d.severity != Severity.NOTICE] == []
    assert [(a, b) for a, b, _ in facts.same_up_to_rotation] == [(35, 36), (41, 42), (45, 46)]
    assert next(str(d) for d in facts.diagnostics) == (
        f"{catalogue.source}:159:5: notice: tile 36 is the same as tile 35 (line 155) "
        "turned 90 degrees clockwise"
    )
    assert facts.swap_pairs == 24
    assert facts.big == {"white": 2, "black": 2}
    assert facts.symbols["white"] == facts.symbols["black"]
    # 44 small tiles x 4 quadrants, plus one micropul and one catalyst per big tile.
    assert sum(facts.symbols.values()) == 44 * 4 + 4 * 2
    assert facts.catalysts == facts.symbols["dot"] + facts.symbols["double"] + facts.symbols["plus"]
    # Catalysts whose both sides are blank or catalysts need a helper tile to be reached.
    assert facts.catalysts_needing_third_tile == [
        "7 br",
        "8 br",
        "25 br",
        "26 br",
        "31 br",
        "32 br",
    ]
    assert "catalysts that can be activated: 46 of 46" in format_facts(facts)


def test_activation_example_is_a_legal_sequence(catalogue: Catalogue) -> None:
    from micropul_print.games.micropul.rules import Board

    example = activation_example(catalogue, catalogue.tile(25), 2)
    assert example is not None and len(example) == 4
    board = Board(catalogue)
    board.place(*example[0], check=False)
    for placement in example[1:]:
        done = board.place(*placement)
    assert ("br", 0, 0) in {(c.position, c.x, c.y) for c in done.activated}


def small_set(*tiles: Tile, name: str = "test") -> Catalogue:
    return Catalogue(game="micropul", name=name, tiles=tiles, source="small.yaml")


@pytest.mark.parametrize("name", ["test", "MICROPUL"])
def test_missing_swap_and_unreachable_catalyst(name: str) -> None:
    """The colour pairing is the official set's, which holds it: a set that breaks it is
    a variant, whatever its name, and is told in a notice; an unreachable catalyst is an
    error for any set."""
    severity = "notice"
    start = Tile(1, ("white", "white", "black", "black"), start=True)
    swap = Tile(2, ("black", "black", "white", "white"))
    lonely = Tile(3, ("white", "empty", "dot", "empty"))  # like 7, whose dot needs helpers
    facts = set_facts(small_set(start, swap, lonely, name=name))
    assert [str(d) for d in facts.diagnostics if d.severity != Severity.NOTICE
            or "twin" in d.message] == [
        f"small.yaml: {severity}: tile 3 has no colour-swapped twin in the set",
        "small.yaml: error: tile 3: the one-dot catalyst at br can never be activated",
    ]


def test_tiles_that_cannot_attach() -> None:
    """Tiles of one colour each, a micropul in one corner: any contact clashes or links
    nothing. (A valid catalogue's start tile, two white and two black micropul, takes
    every tile: there the fact fails only for a set of one tile, see the fixture.)"""
    white = Tile(1, ("white", "empty", "empty", "empty"), start=True)
    black = Tile(2, ("black", "empty", "empty", "empty"))
    assert [str(d) for d in set_facts(small_set(white, black)).diagnostics
            if d.severity == Severity.ERROR] == [
        "small.yaml: error: tile 1 cannot be placed legally next to any other tile of the set",
        "small.yaml: error: tile 2 cannot be placed legally next to any other tile of the set",
    ]
    twin = Tile(3, ("white", "empty", "empty", "empty"))  # tile 1 now has a partner
    assert [d.message for d in set_facts(small_set(white, black, twin)).diagnostics
            if d.severity == Severity.ERROR] == [
        "tile 2 cannot be placed legally next to any other tile of the set",
    ]


def test_simulations(catalogue: Catalogue) -> None:
    for players in (1, 2):
        sim = simulate(catalogue, 30, seed=5, players=players)
        assert sim.games == len(sim.turns) == 30
        assert sum(sim.reasons.values()) == 30 and set(sim.reasons) == set(END_REASONS)
        assert all(len(s) == players for s in sim.scores)
        assert simulate(catalogue, 30, seed=5, players=players).scores == sim.scores
        lines = format_simulation(sim)
        assert lines[0].startswith("30 " + ("two-player" if players == 2 else "solitaire"))
        assert any(line.startswith("  ended by: core exhausted") for line in lines)


def test_progress_is_reported(catalogue: Catalogue) -> None:
    seen: list[int] = []
    simulate(catalogue, 200, players=2, progress=seen.append)
    assert seen[0] == 2 and seen[-1] == 200


def test_a_tile_repeated_three_times_is_noted_with_the_first_only() -> None:
    start = Tile(1, ("white", "white", "black", "black"), start=True)
    swap = Tile(2, ("black", "black", "white", "white"))
    copies = [Tile(i, ("white", "dot", "black", "empty")) for i in (3, 5)]
    turned = Tile(7, ("empty", "white", "dot", "black"))  # 3 turned 90 degrees
    twins = [Tile(i, ("black", "dot", "white", "empty")) for i in (4, 6, 8)]
    facts = set_facts(small_set(start, swap, copies[0], twins[0], copies[1], twins[1],
                                turned, twins[2]))
    assert facts.same_up_to_rotation == [
        (1, 2, 180), (3, 5, 0), (3, 7, 90), (4, 6, 0), (4, 8, 0)
    ]
    assert [d.message for d in facts.diagnostics if "tile 3" in d.message] == [
        "tile 5 is an exact duplicate of tile 3",
        "tile 7 is the same as tile 3 turned 90 degrees clockwise",
    ]


def test_a_rotation_is_said_with_its_direction() -> None:
    """A tile three quarter turns clockwise of another was said to be it "turned 270
    degrees", and one a quarter turn clockwise "turned 90 degrees": which way, the
    notice did not say, and a tile that is no half-turn of itself differs each way."""
    start = Tile(1, ("white", "white", "black", "black"), start=True)
    swap = Tile(2, ("black", "black", "white", "white"))
    tile = Tile(3, ("white", "dot", "black", "empty"))
    back = Tile(4, ("dot", "black", "empty", "white"))  # 3 turned 270 degrees clockwise
    facts = set_facts(small_set(start, swap, tile, back))
    assert [d.message for d in facts.diagnostics if "same as tile 3" in d.message] == [
        "tile 4 is the same as tile 3 turned 90 degrees anticlockwise",
    ]
    assert [d.message for d in facts.diagnostics if "same as tile 1" in d.message] == [
        "tile 2 is the same as tile 1 turned 180 degrees",
    ]


DATA = Path(__file__).resolve().parents[2] / "data" / "setcheck"

# Each set-check fixture, and every line ``check`` writes to stderr for it ({path}: the
# fixture): errors/ fail the check (exit 1), notices/ pass it (exit 0).
EXPECTED = {
    "errors/tile_cannot_attach": [
        "{path}:7:5: error: tile 1 cannot be placed legally next to any other tile of the set",
    ],
    "errors/catalyst_never_activated": [
        "{path}:8:5: notice: tile 2 is the same as tile 1 (line 5) turned 180 degrees",
        "{path}:10:5: notice: tile 3 has no colour-swapped twin in the set",
        "{path}:10:5: error: tile 3: the one-dot catalyst at br can never be activated",
    ],
    "warnings/official_name_but_other_tiles": [
        "{path}:3:7: warning: the set is named 'Micropul' like the official set (Micropul "
        "1.2.1) but differs from it in 46 tiles (listed in the report): give a variant a "
        "name of its own",
        "{path}:9:5: notice: tile 42 is the same as tile 41 (line 6) turned 180 degrees",
        "{path}:11:5: notice: tile 43 has no colour-swapped twin in the set",
    ],
    "notices/exact_duplicate_tile": [
        "{path}:8:5: notice: tile 2 is the same as tile 1 (line 5) turned 180 degrees",
        "{path}:10:5: notice: tile 3 has no colour-swapped twin in the set",
        "{path}:12:5: notice: tile 4 has no colour-swapped twin in the set",
        "{path}:12:5: notice: tiles 3 and 4 are not colour swaps of each other (the official "
        "numbering pairs tiles 2k-1 and 2k)",
        "{path}:12:5: notice: tile 4 is an exact duplicate of tile 3 (line 10)",
    ],
    "notices/turned_duplicate_tile": [
        "{path}:8:5: notice: tile 2 has no colour-swapped twin in the set",
        "{path}:8:5: notice: tiles 1 and 2 are not colour swaps of each other (the official "
        "numbering pairs tiles 2k-1 and 2k)",
        "{path}:10:5: notice: tile 3 has no colour-swapped twin in the set",
        "{path}:10:5: notice: tile 3 is the same as tile 2 (line 8) turned 90 degrees clockwise",
    ],
    "notices/variant_without_colour_twin": [
        "{path}:8:5: notice: tile 2 is the same as tile 1 (line 5) turned 180 degrees",
        "{path}:10:5: notice: tile 3 has no colour-swapped twin in the set",
        "{path}:12:5: notice: tile 4 has no colour-swapped twin in the set",
        "{path}:12:5: notice: tiles 3 and 4 are not colour swaps of each other (the official "
        "numbering pairs tiles 2k-1 and 2k)",
    ],
}


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_set_check_fixture_reports_exactly(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    path = DATA / f"{name}.yaml"
    status = main(["check", str(path), "--games", "1"])
    out, err = capsys.readouterr()
    assert err.splitlines() == [line.format(path=path) for line in EXPECTED[name]]
    assert status == (1 if name.startswith("errors/") else 0)
    assert out.splitlines()[-1] == ("check passed" if status == 0 else
                                    f"check failed: {err.count(': error: ')} problem(s) "
                                    "with the set")


def test_every_set_check_fixture_is_tested() -> None:
    fixtures = {f"{p.parent.name}/{p.stem}" for p in DATA.glob("*/*.yaml")}
    assert fixtures == set(EXPECTED)


def test_a_variant_is_listed_by_what_differs(catalogue: Catalogue) -> None:
    """Tile N against official tile N, either turned any way; a changed or added tile
    that is another official tile says which; a long list is cut."""
    tiles = {t.id: t for t in catalogue.tiles}
    tiles[7] = Tile(7, ("white", "empty", "double", "empty"))  # its dot made a double
    tiles[9] = Tile(9, catalogue.tile(9).rotated(270))  # turned: the same tile
    tiles[49] = Tile(49, catalogue.tile(36).quadrants)  # one more 35/36
    del tiles[12]
    variant = Catalogue("micropul", "Mine", tuple(sorted(tiles.values(), key=lambda t: t.id)),
                        source="mine.yaml", tile_at={7: (40, 5), 49: (201, 5)},
                        tiles_at=(18, 1))
    comparison = compare_with_official(variant, catalogue)
    assert not comparison.official and not comparison.claimed
    assert format_comparison(variant, comparison) == [
        "variant of Micropul 1.2.1: 1 tile changed, 1 tile added, 1 tile removed",
        "  mine.yaml:40:5: tile 7 changed: 'W .' above '. 2', official tile 7 is 'W .' "
        "above '. 1'",
        "  mine.yaml:18:1: tile 12 removed: '1 B' above 'B W'",
        "  mine.yaml:201:5: tile 49 added: 'B W' above 'W B' (official tile 35)",
    ]
    assert comparison_problems(variant, comparison) == []
    start_moved = Catalogue("micropul", "Micropul", tuple(
        Tile(t.id, t.quadrants, start=t.id == 42, big=t.big) for t in catalogue.tiles))
    comparison = compare_with_official(start_moved, catalogue)
    assert [d.text for d in comparison.differences] == [
        "tile 41 changed: no longer the start tile", "tile 42 changed: now the start tile"]
    assert [d.message for d in comparison_problems(start_moved, comparison)] == [
        "the set is named 'Micropul' like the official set (Micropul 1.2.1) but differs "
        "from it in 2 tiles (listed in the report): give a variant a name of its own"]
    many = Catalogue("micropul", "Many", catalogue.tiles[:1], source="many.yaml")
    lines = format_comparison(many, compare_with_official(many, catalogue))
    assert lines[0] == (
        "variant of Micropul 1.2.1: 0 tiles changed, 0 tiles added, 47 tiles removed")
    assert len(lines) == 1 + 10 + 1 and lines[-1] == "  ... and 37 more"


def test_the_official_set_is_the_official_set(catalogue: Catalogue) -> None:
    comparison = compare_with_official(catalogue, catalogue)
    assert comparison.official and comparison.claimed
    assert format_comparison(catalogue, comparison) == ["official set (Micropul 1.2.1)"]


def _shipped_with(folder: Path, old: str, new: str) -> Path:
    """The shipped Micropul catalogue with ``old`` replaced by ``new``, as mine.yaml in
    ``folder``."""
    from micropul_print.catalogue.loader import shipped_catalogue

    text = Path(shipped_catalogue("micropul")).read_text(encoding="utf-8")
    edited = text.replace(old, new)
    assert edited != text
    path = folder / "mine.yaml"
    path.write_text(edited, encoding="utf-8")
    return path


def test_the_shipped_catalogue_with_one_tile_changed_is_a_variant_that_passes(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A designer's first edit of an `init` copy: the set is a variant (the pairing facts
    become notices), the official name is warned, and check passes unless --strict."""
    path = _shipped_with(tmp_path, "  - id: 7\n    face:\n      - W .\n      - . 1\n",
                         "  - id: 7\n    face:\n      - B .\n      - . 1\n")
    assert main(["check", str(path), "--games", "2"]) == 0
    out, err = capsys.readouterr()
    assert "variant of Micropul 1.2.1: 1 tile changed, 0 tiles added, 0 tiles removed" in out
    assert out.endswith("check passed\n")
    severities = {line.split(": ")[1] for line in err.splitlines()}
    assert severities == {"warning", "notice"}, err
    assert ": warning: the set is named 'Micropul' like the official set" in err
    assert main(["check", str(path), "--games", "2", "--strict"]) == 1
    # Said as what failed it: a warning, by --strict.
    assert capsys.readouterr().out.endswith(
        "check failed: 1 warning(s) with the set treated as errors (--strict)\n")


def test_the_guide_s_table_says_what_check_gives_a_variant_named_micropul(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """docs/catalogue.md's column "official set, or a catalogue named `Micropul`" against
    check on the shipped catalogue with tile 1 changed and its name kept."""
    path = _shipped_with(tmp_path, "  - id: 1\n    face:\n      - W .\n",
                         "  - id: 1\n    face:\n      - B .\n")
    assert main(["check", str(path), "--games", "2"]) == 0
    err = capsys.readouterr().err

    def severity(fragment: str) -> str:
        (line,) = [line for line in err.splitlines() if fragment in line]
        return line.split(": ")[1]

    guide = (Path(__file__).resolve().parents[3] / "docs" / "catalogue.md").read_text("utf-8")
    table = {row.split(" | ")[0].strip("| "): row.split(" | ")[1]
             for row in guide.splitlines() if row.startswith("| ") and " | " in row}
    assert severity("like the official set") == "warning"
    assert table["the set differs from the official set"].startswith("warning at `name`")
    assert severity("tile 1 has no colour-swapped twin") == "notice"
    assert table["every tile's colour-swapped twin is in the set"] == "notice at the tile"
    assert severity("tiles 1 and 2 are not colour swaps") == "notice"
    assert table["tiles 2k-1 and 2k are colour swaps of each other"] == "notice at tile 2k"
