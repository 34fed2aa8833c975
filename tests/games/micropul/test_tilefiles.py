"""The per-tile files: exact names, true sizes, and the same bytes on every run."""

from __future__ import annotations

import io
import xml.etree.ElementTree as ET
from collections.abc import Callable
from pathlib import Path

import pytest
from PIL import Image

from micropul_print.backends.png import pixel_size
from micropul_print.draw.theme import Theme, load_theme
from micropul_print.games.micropul.model import Catalogue
from micropul_print.games.micropul.pieces import OVERVIEW_GAP_PX, TileArt
from micropul_print.kit.outputs import OutputDir
from micropul_print.kit.plan import OVERVIEW_CAPTION_BAND_PX

DPI = 72  # small images: the contract is about names and sizes, not detail


def write_tile_files(art: TileArt, out: OutputDir, *, dpi: int, bleed: float | None = None,
                     progress: Callable[[str], None] | None = None) -> list[Path]:
    """The core's tile files (kitplan.write_tile_files) of Micropul's pieces."""
    return _write(art.catalogue, art.theme, out, png=True, dpi=dpi, bleed=bleed,
                  numbers=art.numbers, progress=progress)


def _write(catalogue: Catalogue, theme: Theme, out: OutputDir, *, png: bool, dpi: int = 300,
           bleed: float | None = None, numbers: bool = True,
           progress: Callable[[str], None] | None = None) -> list[Path]:
    from micropul_print.game import registry
    from micropul_print.kit import plan as kitplan

    kit = kitplan.game_kit(registry.get("micropul"), catalogue, theme, out, numbers=numbers)
    return kitplan.write_tile_files(kit, png=png, dpi=dpi, bleed=bleed, progress=progress).paths


@pytest.fixture(scope="module")
def kit(catalogue: Catalogue, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[Path]]:
    root = tmp_path_factory.mktemp("kit")
    messages: list[str] = []
    written = write_tile_files(TileArt(catalogue, load_theme("classic")), OutputDir(root), dpi=DPI,
                               bleed=3.0, progress=messages.append)
    assert messages[0] == "writing tile files: tile 1/48"
    assert messages[-1] == "writing tile files: tile overview"
    return root, written


def expected_names() -> set[str]:
    names = {f"tiles/{kind}/tile-{n:02d}.{kind}" for kind in ("svg", "png") for n in range(1, 49)}
    return names | {"tiles/svg/tile-back.svg", "tiles/png/tile-back.png", "tiles/overview.png"}


def test_exactly_the_contracted_files(kit: tuple[Path, list[Path]]) -> None:
    root, written = kit
    on_disk = {p.relative_to(root).as_posix() for p in root.rglob("*") if p.is_file()}
    assert on_disk == expected_names()
    assert sorted(p.relative_to(root).as_posix() for p in written) == sorted(expected_names())


def test_every_svg_is_30_mm_without_bleed(kit: tuple[Path, list[Path]]) -> None:
    root, _written = kit
    svgs = sorted((root / "tiles/svg").glob("*.svg"))
    assert len(svgs) == 49
    for path in svgs:
        svg = ET.parse(path).getroot()
        assert (svg.get("width"), svg.get("height"), svg.get("viewBox")) == (
            "30mm", "30mm", "0 0 30 30"), path.name


def test_every_png_carries_the_bleed(kit: tuple[Path, list[Path]]) -> None:
    root, _written = kit
    side = pixel_size(36.0, DPI)
    for path in sorted((root / "tiles/png").glob("*.png")):
        with Image.open(path) as image:
            assert image.size == (side, side), path.name
            # Its recorded resolution prints it at 36 mm (as exactly as whole pixels
            # per metre allow: within 5 um at this resolution; tests/backends/test_png.py).
            assert image.info["dpi"] == pytest.approx((DPI, DPI), abs=0.2)
            assert side / image.info["dpi"][0] * 25.4 == pytest.approx(36.0, abs=0.005)


def test_overview_shows_six_columns_of_eight_rows(kit: tuple[Path, list[Path]]) -> None:
    root, _written = kit
    with Image.open(root / "tiles/overview.png") as image:
        tile = pixel_size(30.0, 100)
        assert image.width > 6 * tile and image.width < 7 * tile
        # Eight rows of a tile and its number's band.
        band = tile + OVERVIEW_CAPTION_BAND_PX
        assert image.height > 8 * band and image.height < 9 * band


def test_overview_numbers_are_legible_at_100_percent(kit: tuple[Path, list[Path]]) -> None:
    """Each tile's number under it, its figures at least 10 pixels high (the faces' own
    numbers are about 6: unreadable)."""
    root, _written = kit
    with Image.open(root / "tiles/overview.png") as image:
        grey = image.convert("L")
    tile, gap = pixel_size(30.0, 100), OVERVIEW_GAP_PX
    for column, number in ((0, "1"), (5, "6")):
        left = gap + column * (tile + gap)
        band = grey.crop((left, gap + tile, left + tile, gap + tile + OVERVIEW_CAPTION_BAND_PX))
        ink = band.point(lambda v: 255 if v < 96 else 0).getbbox()
        assert ink is not None, number
        assert ink[3] - ink[1] >= 10, number
        assert abs((ink[0] + ink[2]) / 2 - tile / 2) <= 2  # centred under its tile


# 72 dpi paints the overview afresh; 100 and 300 cut it from tile images whose 30 mm
# (118.11 and 354.33 pixels) are rounded down: `build --bleed 0` failed with "box can't
# exceed original image size".
@pytest.mark.parametrize("dpi", [DPI, 100, 300])
def test_zero_bleed_gives_exactly_30_mm(catalogue: Catalogue, tmp_path: Path, dpi: int) -> None:
    small = Catalogue(catalogue.game, catalogue.name, catalogue.tiles[:2])
    write_tile_files(TileArt(small, load_theme("ink-saver")), OutputDir(tmp_path), dpi=dpi,
                     bleed=0.0)
    with Image.open(tmp_path / "tiles/png/tile-01.png") as image:
        assert image.size == (pixel_size(30.0, dpi),) * 2
    with Image.open(tmp_path / "tiles/overview.png") as overview:
        assert overview.width > 2 * pixel_size(30.0, 100)


def test_numbers_can_be_left_off(catalogue: Catalogue, tmp_path: Path) -> None:
    small = Catalogue(catalogue.game, catalogue.name, catalogue.tiles[40:41])  # tile 41
    write_tile_files(TileArt(small, load_theme("classic"), numbers=False), OutputDir(tmp_path),
                     dpi=DPI)
    texts = [e.get("aria-label") for e in ET.parse(tmp_path / "tiles/svg/tile-41.svg").getroot()
             if e.get("aria-label")]
    assert texts == ["START"]


def test_two_runs_write_identical_bytes(catalogue: Catalogue, tmp_path: Path) -> None:
    theme = load_theme("colour-safe")
    first = write_tile_files(TileArt(catalogue, theme), OutputDir(tmp_path / "a"), dpi=DPI)
    second = write_tile_files(TileArt(catalogue, theme), OutputDir(tmp_path / "b"), dpi=DPI)
    assert len(first) == len(second) == 99
    for a, b in zip(first, second, strict=True):
        assert a.read_bytes() == b.read_bytes(), a.name


def test_png_files_decode_opaque_and_grey_in_a_grey_theme(kit: tuple[Path, list[Path]]) -> None:
    root, _written = kit
    data = (root / "tiles/png/tile-41.png").read_bytes()
    assert Image.open(io.BytesIO(data)).mode == "L"  # no alpha, one byte a pixel


def test_svg_only_writing_loads_no_raster_library(tmp_path: Path) -> None:
    import subprocess
    import sys

    script = (
        "import sys\n"
        "from micropul_print.catalogue.loader import load_catalogue\n"
        "from micropul_print.draw.theme import load_theme\n"
        "from micropul_print.kit.outputs import OutputDir\n"
        "from micropul_print.game import registry\n"
        "from micropul_print.kit import plan as kitplan\n"
        f"out = OutputDir({str(tmp_path)!r})\n"
        "kit = kitplan.game_kit(registry.get('micropul'), load_catalogue(),\n"
        "                       load_theme('classic'), out)\n"
        "paths = kitplan.write_tile_files(kit, png=False).paths\n"
        "assert len(paths) == 49, len(paths)\n"
        "print(sorted(m for m in ('PIL', 'reportlab') if m in sys.modules))\n"
    )
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                            check=True)
    assert result.stdout.strip() == "[]"


def test_overview_cut_from_the_tile_images_matches_a_painted_one(catalogue: Catalogue,
                                                                  tmp_path: Path) -> None:
    from PIL import ImageChops, ImageStat

    from micropul_print.backends.png import to_raster
    from micropul_print.kit.plan import face_grid_png

    small = Catalogue(catalogue.game, catalogue.name, catalogue.tiles[38:44])  # START too
    theme = load_theme("classic")  # fine hatching would differ by its phase alone
    write_tile_files(TileArt(small, theme), OutputDir(tmp_path), dpi=300, bleed=3.0)
    cut = Image.open(tmp_path / "tiles/overview.png").convert("RGB")
    faces = TileArt(small, theme).overview_faces()
    numbers = [str(tile.id) for tile in small.tiles]
    painted = Image.open(io.BytesIO(face_grid_png([to_raster(face, 100) for face in faces],
                                                  columns=6, gap=12, captions=numbers))
                         ).convert("RGB")
    assert cut.size == painted.size
    difference = ImageChops.difference(cut, painted).convert("L")
    assert max(ImageStat.Stat(difference).mean) < 3.0  # the same picture, edges aside
    # Off by a single pixel (a bleed left in, a tile out of place) differs far more.
    shifted = ImageChops.offset(painted, 1, 0)
    assert max(ImageStat.Stat(ImageChops.difference(cut, shifted).convert("L")).mean) > 6.0


def test_overview_of_grey_faces_is_laid_out_in_greyscale_with_the_same_pixels(
        catalogue: Catalogue) -> None:
    """Grey faces go on a greyscale sheet, captions and all: the pixels of the colour
    sheet, which png_bytes writes as greyscale too."""
    from micropul_print.backends.png import to_raster
    from micropul_print.kit.plan import face_grid_png

    small = Catalogue(catalogue.game, catalogue.name, catalogue.tiles[40:41])  # START
    faces = [to_raster(face, 100)
             for face in TileArt(small, load_theme("classic")).overview_faces()] * 3
    assert {face.mode for face in faces} == {"L"}
    grey = Image.open(io.BytesIO(face_grid_png(faces, columns=2, gap=12,
                                               captions=["41", "41", "41"])))
    colour = Image.open(io.BytesIO(face_grid_png([face.convert("RGB") for face in faces],
                                                 columns=2, gap=12,
                                                 captions=["41", "41", "41"])))
    assert grey.mode == colour.mode == "L"  # grey either way: png_bytes finds it grey
    assert grey.tobytes() == colour.tobytes()
