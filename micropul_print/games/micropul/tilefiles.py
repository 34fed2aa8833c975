"""The per-tile image files of a kit (public contract, relative to the output dir):

    tiles/svg/tile-01.svg .. tile-48.svg, tile-back.svg   30 mm, no bleed, viewBox 0 0 30 30
    tiles/png/tile-01.png .. tile-48.png, tile-back.png   at ``dpi``, with ``bleed`` mm per side
    tiles/overview.png                                    the whole set on one picture

The drawings come from one :class:`TileArt` per build, shared with the sheets: each
face is drawn once. Pillow is loaded only when PNG files are written, so an SVG-only
build (write_tile_svgs) never imports it.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from micropul_print.backends.svg import to_svg
from micropul_print.draw.primitives import Drawing
from micropul_print.draw.theme import Theme
from micropul_print.games.micropul.faces import TILE_SIZE_MM, back_drawing, tile_drawing
from micropul_print.games.micropul.model import Catalogue
from micropul_print.outputs import OutputDir

if TYPE_CHECKING:
    from PIL import Image

SVG_DIR = "tiles/svg"
PNG_DIR = "tiles/png"
OVERVIEW = "tiles/overview.png"
BACK_NAME = "tile-back"

OVERVIEW_DPI = 100  # enough to read the numbers; the whole set stays under 1 MB
OVERVIEW_COLUMNS = 6
OVERVIEW_GAP_PX = 12
OVERVIEW_BACKDROP = "#c8c8c8"  # mid grey, so white tile edges stand out
# Each tile's number under it, legible at 100 %: the faces' own numbers are 1.9 mm, a
# few pixels at the overview's resolution.
OVERVIEW_CAPTION_PX = 17  # text size: capitals and figures 12 pixels high
OVERVIEW_CAPTION_BAND_PX = 22  # height of the band under each tile
OVERVIEW_CAPTION_COLOUR = "#202020"


def tile_name(tile_id: int) -> str:
    return f"tile-{tile_id:02d}"


class TileArt:
    """Each tile picture made once per build, shared by the tile files and the sheets
    (without bleed they are the very same drawings)."""

    def __init__(self, catalogue: Catalogue, theme: Theme, *, numbers: bool = True) -> None:
        self.catalogue, self.theme, self.numbers = catalogue, theme, numbers
        self._fronts: dict[float, list[Drawing]] = {}
        self._backs: dict[float, Drawing] = {}

    def fronts(self, bleed: float = 0.0) -> list[Drawing]:
        if bleed not in self._fronts:
            self._fronts[bleed] = [tile_drawing(tile, self.theme, bleed=bleed,
                                                show_number=self.numbers)
                                   for tile in self.catalogue.tiles]
        return self._fronts[bleed]

    def back(self, bleed: float = 0.0) -> Drawing:
        if bleed not in self._backs:
            self._backs[bleed] = back_drawing(self.theme, bleed=bleed)
        return self._backs[bleed]


def write_tile_files(art: TileArt, out: OutputDir, *, dpi: int = 300, bleed: float = 3.0,
                     progress: Callable[[str], None] | None = None) -> list[Path]:
    """Write every tile face and the back as SVG and PNG, and the overview; returns the
    paths written, in a fixed order."""
    from micropul_print.backends.png import png_bytes, to_raster

    catalogue = art.catalogue
    written = write_tile_svgs(art, out)
    # The overview is cut from the tile images when they show what it shows (numbers)
    # at no less detail: painting the faces again at 100 dpi costs a third of the PNGs.
    reuse = art.numbers and dpi >= OVERVIEW_DPI
    thumbnails = []
    total = len(catalogue.tiles)
    for index, (tile, front) in enumerate(zip(catalogue.tiles, art.fronts(bleed), strict=True),
                                          start=1):
        image = to_raster(front, dpi)
        written.append(out.write_bytes(f"{PNG_DIR}/{tile_name(tile.id)}.png",
                                       png_bytes(image, dpi)))
        if reuse:
            thumbnails.append(_thumbnail(image, dpi, bleed))
        if progress is not None:
            progress(f"tile {index}/{total}")
    back = to_raster(art.back(bleed), dpi)
    written.append(out.write_bytes(f"{PNG_DIR}/{BACK_NAME}.png", png_bytes(back, dpi)))
    numbers = [str(tile.id) for tile in catalogue.tiles]
    overview = (overview_from_images(thumbnails, captions=numbers) if reuse
                else overview_png(catalogue, art.theme))
    written.append(out.write_bytes(OVERVIEW, overview))
    if progress is not None:
        progress("tile overview")
    return written


def _thumbnail(image: Image.Image, dpi: int, bleed: float) -> Image.Image:
    """The cut square of a tile image (without its bleed) at OVERVIEW_DPI: the average of
    the pixels each overview pixel covers, fractions of pixels included."""
    from PIL import Image as PILImage

    from micropul_print.backends.png import pixel_size

    px_per_mm = dpi / 25.4
    start = bleed * px_per_mm
    # The image is a whole number of pixels, rounded: without bleed its last pixel may
    # end a fraction before the cut line (30 mm at 300 dpi is 354.33 pixels, drawn 354).
    end_x = min((bleed + TILE_SIZE_MM) * px_per_mm, image.width)
    end_y = min((bleed + TILE_SIZE_MM) * px_per_mm, image.height)
    side = pixel_size(TILE_SIZE_MM, OVERVIEW_DPI)
    return image.resize((side, side), PILImage.Resampling.BOX, box=(start, start, end_x, end_y))


def write_tile_svgs(art: TileArt, out: OutputDir) -> list[Path]:
    """Only the SVG files (30 mm, no bleed): faces in catalogue order, then the back."""
    written = [out.write_bytes(f"{SVG_DIR}/{tile_name(tile.id)}.svg", to_svg(drawing))
               for tile, drawing in zip(art.catalogue.tiles, art.fronts(), strict=True)]
    written.append(out.write_bytes(f"{SVG_DIR}/{BACK_NAME}.svg", to_svg(art.back())))
    return written


def overview_png(catalogue: Catalogue, theme: Theme, *, dpi: int = OVERVIEW_DPI,
                 columns: int = OVERVIEW_COLUMNS, gap: int = OVERVIEW_GAP_PX) -> bytes:
    """All faces in catalogue order, ``columns`` to a row, numbered, with small gaps,
    painted at ``dpi``."""
    from micropul_print.backends.png import to_raster

    # As cut from the tile images (printed with bleed: no outline), as write_tile_files does.
    images = [to_raster(tile_drawing(tile, theme, outline=False), dpi)
              for tile in catalogue.tiles]
    return overview_from_images(images, dpi=dpi, columns=columns, gap=gap,
                                captions=[str(tile.id) for tile in catalogue.tiles])


def overview_from_images(images: Sequence[Image.Image], *, dpi: int = OVERVIEW_DPI,
                         columns: int = OVERVIEW_COLUMNS, gap: int = OVERVIEW_GAP_PX,
                         captions: Sequence[str] = ()) -> bytes:
    """Square face images of one size, in order, ``columns`` to a row, as a PNG; with
    ``captions`` (one per image), each written under its image."""
    from PIL import Image as PILImage
    from PIL import ImageDraw, ImageFont

    from micropul_print import fonts
    from micropul_print.backends.png import png_bytes

    if not images:
        raise ValueError("the catalogue has no tiles")
    if captions and len(captions) != len(images):
        raise ValueError("one caption per image")
    size = images[0].width
    band = OVERVIEW_CAPTION_BAND_PX if captions else 0
    rows = math.ceil(len(images) / columns)
    sheet = PILImage.new("RGB", (columns * size + (columns + 1) * gap,
                                 rows * (size + band) + (rows + 1) * gap), OVERVIEW_BACKDROP)
    pen = ImageDraw.Draw(sheet)
    font = ImageFont.truetype(str(fonts.REGULAR), OVERVIEW_CAPTION_PX,
                              layout_engine=ImageFont.Layout.BASIC)
    for index, image in enumerate(images):
        row, col = divmod(index, columns)
        where = (gap + col * (size + gap), gap + row * (size + band + gap))
        if image.mode == "RGBA":
            sheet.paste(image, where, image)
        else:
            sheet.paste(image, where)
        if captions:
            middle = (where[0] + size / 2, where[1] + size + band / 2)
            pen.text(middle, captions[index], fill=OVERVIEW_CAPTION_COLOUR, font=font,
                     anchor="mm")
    return png_bytes(sheet, dpi)
