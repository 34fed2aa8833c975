"""build --watch after edits of tiles: only the edited tiles' files, the sheets and the
overview are rewritten, the rulebooks only when a figure or the legend shows an edited
tile, and the kit is byte for byte the one a clean build of the final inputs makes."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

from micropul_print.catalogue.loader import shipped_catalogue
from micropul_print.kit.build import KitOptions, KitReport, build_kit
from micropul_print.kit.changes import KitState
from micropul_print.kit.outputs import MANIFEST
from micropul_print.kit.plan import KIT_PARTS
from micropul_print.watch import Input, Rebuild, _remember, rebuild_changed

# Tile 1 is in no figure of the rulebook, nor in its legend.
TILE_1 = ("  - id: 1\n    face:\n      - W .\n      - . .\n",
          "  - id: 1\n    face:\n      - W .\n      - . 1\n")
TILE_2 = ("  - id: 2\n    face:\n      - B .\n      - . .\n",
          "  - id: 2\n    face:\n      - B 2\n      - . .\n")
# The legend's big tile.
TILE_37 = ("  - id: 37\n    big: {colour: W, catalyst: P}\n",
           "  - id: 37\n    big: {colour: W, catalyst: 2}\n")


def _build(out: Path, options: KitOptions, *, quiet: bool, keep_unmade: bool = False,
           loaded: Any = None) -> KitReport:
    return build_kit(out, options, keep_unmade=keep_unmade, loaded=loaded)


def _kit(root: Path) -> dict[str, bytes]:
    return {path.relative_to(root).as_posix(): path.read_bytes()
            for path in sorted(root.rglob("*")) if path.is_file()}


class Session:
    """A watch's state between edits, driven as its loop drives it."""

    def __init__(self, folder: Path, parts: frozenset[str] = KIT_PARTS) -> None:
        self.catalogue = folder / "micropul.yaml"
        shutil.copy(shipped_catalogue("micropul"), self.catalogue)
        self.out = folder / "out"
        self.options = KitOptions(catalogue=self.catalogue, papers=("a4",), langs=("en",),
                                  booklets=False, parts=parts)
        self.kits: dict[str, KitState] = {}
        first = build_kit(self.out, self.options)
        _remember(self.kits, [(Rebuild("micropul", frozenset(self.options.parts)), first)],
                  self.options)
        self.said: list[str] = []

    def edit(self, old: str, new: str) -> str:
        text = self.catalogue.read_text()
        assert old in text
        self.catalogue.write_text(text.replace(old, new, 1))
        rebuild_changed([Input(self.catalogue.resolve(), "catalogue", "micropul")],
                        self.options, self.kits, self.out, _build, self.said.append,
                        "micropul.yaml")
        return self.said[-1]


def test_edits_of_tiles_rewrite_their_files_and_leave_a_clean_builds_kit(
        tmp_path: Path) -> None:
    session = Session(tmp_path)
    out = session.out
    book = out / "rules/micropul-rules-en-a4.pdf"
    untouched = {name: (out / name).stat().st_mtime_ns
                 for name in ("tiles/svg/tile-02.svg", "tiles/png/tile-02.png", book)}

    line = session.edit(*TILE_1)
    assert line.startswith("micropul.yaml changed: rebuilt micropul png, sheets, svg "
                           "(tile-01); micropul png (overview) (4 files, ")
    assert {name: (out / name).stat().st_mtime_ns for name in untouched} == untouched

    line = session.edit(*TILE_37)  # shown by the legend: the book follows
    assert line.startswith("micropul.yaml changed: rebuilt micropul png, sheets, svg "
                           "(tile-37); micropul png, rulebooks (overview) (5 files, ")
    assert book.stat().st_mtime_ns != untouched[book]

    # A bad edit is said at its place, and the next good one is still a tile's.
    session.edit(TILE_1[1], TILE_1[1].replace("- . 1", "- . 7"))
    assert len(session.said) == 2
    line = session.edit(TILE_1[1].replace("- . 1", "- . 7"), TILE_1[1].replace("- . 1", "- . 2"))
    assert "(tile-01); micropul png (overview)" in line

    assert session.edit("game: micropul\n", "game: micropul  # edited\n") == (
        "micropul.yaml changed: nothing to rebuild")
    session.edit(*TILE_2)
    session.edit(TILE_2[1], TILE_2[0])  # and back
    line = session.edit("name: Micropul\n", "name: Micropul edited\n")  # in every title
    assert line.startswith("micropul.yaml changed: rebuilt micropul png, sheets, svg; "
                           "micropul png, rulebooks (overview)")

    clean = tmp_path / "clean"
    build_kit(clean, session.options)
    assert _kit(out).keys() == _kit(clean).keys()
    differing = [name for name, data in _kit(out).items() if _kit(clean)[name] != data]
    assert differing == []
    assert (out / MANIFEST).read_bytes() == (clean / MANIFEST).read_bytes()


def test_an_edit_beyond_the_faces_rebuilds_the_whole_kit(tmp_path: Path) -> None:
    session = Session(tmp_path)
    session.kits.clear()  # as after a failed rebuild: nothing known of the kit
    line = session.edit(*TILE_1)
    assert line.startswith("micropul.yaml changed: rebuilt micropul png, sheets, svg; "
                           "micropul rulebooks (")
    line = session.edit(TILE_1[1], TILE_1[0])  # known again
    assert "(tile-01)" in line


def test_a_watch_of_the_rulebooks_alone_rebuilds_them_only_for_a_tile_they_show(
        tmp_path: Path) -> None:
    """As serve's second watcher runs (--only rulebooks)."""
    session = Session(tmp_path, frozenset({"rulebooks"}))
    assert session.edit(*TILE_1) == "micropul.yaml changed: nothing to rebuild"
    assert session.edit(*TILE_37).startswith(
        "micropul.yaml changed: rebuilt micropul rulebooks (1 file, ")
    # The checked book of each catalogue rebuilt is not kept for ever: the last one.
    from micropul_print.rulebook import _VERIFIED

    assert [known[0].game for known in _VERIFIED.values()].count("micropul") == 1


def test_files_of_the_kit_deleted_by_hand_are_made_again_at_the_next_edit(
        tmp_path: Path) -> None:
    """An edit of tile 1 rebuilt tile 1's files alone: a tile file and a sheet deleted
    by hand stayed missing, the manifest still listing them."""
    session = Session(tmp_path, frozenset({"svg", "sheets"}))
    out = session.out
    gone = [out / "tiles/svg/tile-05.svg", out / "sheets/micropul-tiles-a4.pdf"]
    for path in gone:
        path.unlink()
    line = session.edit(*TILE_1)
    # The sheets are made whole with the edited tile; the missing tile file is not.
    assert line.startswith("micropul.yaml changed: rebuilt micropul sheets, svg (tile-01); "
                           "micropul svg ("), line
    assert all(path.is_file() for path in gone)
    clean = tmp_path / "clean"
    build_kit(clean, session.options)
    assert _kit(out) == _kit(clean)
    untouched = (out / "tiles/svg/tile-02.svg").stat().st_mtime_ns
    line = session.edit(*TILE_2)  # the kit whole again: the edited tile alone
    assert "(tile-02)" in line
    assert (out / "tiles/svg/tile-02.svg").stat().st_mtime_ns != untouched
    gone[0].unlink()
    line = session.edit("# The 48 tiles", "# The forty-eight tiles")  # no tile edited
    assert line.startswith("micropul.yaml changed: rebuilt micropul svg ("), line
    assert gone[0].is_file()
