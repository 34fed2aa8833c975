"""The per-tile image files of a kit (public contract, relative to the output dir):

    tiles/svg/tile-01.svg .. tile-48.svg, tile-back.svg   30 mm, no bleed, viewBox 0 0 30 30
    tiles/png/tile-01.png .. tile-48.png, tile-back.png   at ``dpi``, with ``bleed`` mm per side
    tiles/overview.png                                    the whole set on one picture

Command modules import this inside run(). Pillow is loaded only when PNG files are
written, so an SVG-only build (write_tile_svgs) never imports it.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from pathlib import Path

from micropul_print.backends.svg import to_svg
from micropul_print.catalogue.model import Catalogue
from micropul_print.draw.theme import Theme
from micropul_print.games.micropul import back_drawing, tile_drawing
from micropul_print.outputs import OutputDir

SVG_DIR = "tiles/svg"
PNG_DIR = "tiles/png"
OVERVIEW = "tiles/overview.png"
BACK_NAME = "tile-back"

OVERVIEW_DPI = 100  # enough to read the numbers; the whole set stays under 1 MB
OVERVIEW_COLUMNS = 6
OVERVIEW_GAP_PX = 12
OVERVIEW_BACKDROP = "#c8c8c8"  # mid grey, so white tile edges stand out


def tile_name(tile_id: int) -> str:
    return f"tile-{tile_id:02d}"


def write_tile_files(catalogue: Catalogue, theme: Theme, out: OutputDir, *, dpi: int = 300,
                     bleed: float = 3.0, show_numbers: bool = True,
                     progress: Callable[[str], None] | None = None) -> list[Path]:
    """Write every tile face and the back as SVG and PNG, and the overview; returns the
    paths written, in a fixed order."""
    from micropul_print.backends.png import to_png

    written = write_tile_svgs(catalogue, theme, out, show_numbers=show_numbers)
    total = len(catalogue.tiles)
    for index, tile in enumerate(catalogue.tiles, start=1):
        bled = tile_drawing(tile, theme, bleed=bleed, show_number=show_numbers)
        written.append(out.write_bytes(f"{PNG_DIR}/{tile_name(tile.id)}.png", to_png(bled, dpi)))
        if progress is not None:
            progress(f"tile {index}/{total}")
    written.append(out.write_bytes(f"{PNG_DIR}/{BACK_NAME}.png",
                                   to_png(back_drawing(theme, bleed=bleed), dpi)))
    written.append(out.write_bytes(OVERVIEW, overview_png(catalogue, theme)))
    if progress is not None:
        progress("tile overview")
    return written


def write_tile_svgs(catalogue: Catalogue, theme: Theme, out: OutputDir, *,
                    show_numbers: bool = True) -> list[Path]:
    """Only the SVG files (30 mm, no bleed): faces in catalogue order, then the back."""
    written = [out.write_bytes(f"{SVG_DIR}/{tile_name(tile.id)}.svg",
                               to_svg(tile_drawing(tile, theme, show_number=show_numbers)))
               for tile in catalogue.tiles]
    written.append(out.write_bytes(f"{SVG_DIR}/{BACK_NAME}.svg", to_svg(back_drawing(theme))))
    return written


def overview_png(catalogue: Catalogue, theme: Theme, *, dpi: int = OVERVIEW_DPI,
                 columns: int = OVERVIEW_COLUMNS, gap: int = OVERVIEW_GAP_PX) -> bytes:
    """All faces in catalogue order, ``columns`` to a row, numbered, with small gaps."""
    from PIL import Image

    from micropul_print.backends.png import png_bytes, to_image

    images = [to_image(tile_drawing(tile, theme), dpi) for tile in catalogue.tiles]
    if not images:
        raise ValueError("the catalogue has no tiles")
    size = images[0].width
    rows = math.ceil(len(images) / columns)
    sheet = Image.new("RGB", (columns * size + (columns + 1) * gap,
                              rows * size + (rows + 1) * gap), OVERVIEW_BACKDROP)
    for index, image in enumerate(images):
        row, col = divmod(index, columns)
        sheet.paste(image, (gap + col * (size + gap), gap + row * (size + gap)), image)
    return png_bytes(sheet, dpi)
