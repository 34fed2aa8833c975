"""kit/changes.py: which faces an edit of a catalogue changes, and whether the
rulebooks show one of them."""

from __future__ import annotations

from pathlib import Path

from micropul_print.catalogue.loader import load_catalogue, shipped_catalogue
from micropul_print.draw.theme import load_theme
from micropul_print.game import registry
from micropul_print.kit.changes import KitState, books_change, changed_faces, kit_state
from micropul_print.kit.plan import KitOptions

SHIPPED = shipped_catalogue("micropul").read_text()


def _state(tmp_path: Path, old: str = "", new: str = "", *, theme: str = "classic",
           options: KitOptions | None = None) -> KitState:
    path = tmp_path / f"edited-{abs(hash((old, new, theme)))}.yaml"
    text = SHIPPED.replace(old, new, 1)
    assert text != SHIPPED or old == new
    path.write_text(text)
    catalogue = load_catalogue(path)
    return kit_state(registry.get("micropul"), catalogue, load_theme(theme),
                     options or KitOptions())


TILE_1 = ("  - id: 1\n    face:\n      - W .\n      - . .\n",
          "  - id: 1\n    face:\n      - W .\n      - . 1\n")
TILE_37 = ("  - id: 37\n    big: {colour: W, catalyst: P}\n",
           "  - id: 37\n    big: {colour: W, catalyst: 2}\n")


def test_the_faces_of_the_edited_tiles_are_found(tmp_path: Path) -> None:
    before = _state(tmp_path)
    assert changed_faces(before, _state(tmp_path)) == frozenset()
    assert changed_faces(before, _state(tmp_path, *TILE_1)) == frozenset({"tile-01"})
    swapped = _state(tmp_path, "  - id: 2\n    face:\n      - B .\n",
                     "  - id: 2\n    face:\n      - . B\n")
    assert changed_faces(before, swapped) == frozenset({"tile-02"})


def test_more_than_an_edit_of_faces_is_not_one(tmp_path: Path) -> None:
    before = _state(tmp_path)
    assert changed_faces(before, _state(tmp_path, theme="ink-saver")) is None
    assert changed_faces(before, _state(tmp_path, options=KitOptions(numbers=False))) is None
    assert changed_faces(before, _state(tmp_path, options=KitOptions(bleed=1.0))) is None


def test_the_books_change_only_with_a_tile_they_show_or_a_value_they_quote(
        tmp_path: Path) -> None:
    before = _state(tmp_path)
    tile_1 = _state(tmp_path, *TILE_1)
    assert not books_change(before, tile_1, frozenset({"tile-01"}))
    legend = _state(tmp_path, *TILE_37)  # the legend's big tile
    assert books_change(before, legend, frozenset({"tile-37"}))
    figure = _state(tmp_path, "  - id: 9\n    face:\n      - W B\n      - . 1\n",
                    "  - id: 9\n    face:\n      - W B\n      - . 2\n")
    assert books_change(before, figure, frozenset({"tile-09"}))
    named = _state(tmp_path, "name: Micropul\n", "name: Micropul edited\n")
    assert books_change(before, named, frozenset())


def test_micropul_names_the_tiles_of_each_figure_and_of_the_legend() -> None:
    from micropul_print.games.micropul.rulebook import MICROPUL, shown_tiles

    catalogue = load_catalogue(shipped_catalogue("micropul"))
    shown = shown_tiles(MICROPUL.load_book(), catalogue, MICROPUL.folder)
    assert shown["figures/setup.yaml"] == {"tile-41"}
    assert shown["figures/legal.yaml"] == {"tile-41", "tile-09"}
    assert shown["figures/clash-turned.yaml"] == {"tile-41", "tile-16"}  # 16's counted
    assert shown["legend"] == {"tile-37"}  # the first big tile
    assert MICROPUL.shown_tiles is shown_tiles
