"""The three backends paint the same picture: each region of a rasterized PDF and of a
rasterized SVG has the colour of the same region of the PNG. The SVG's 1:1 mapping to
primitives is checked in test_svg.py too."""

from __future__ import annotations

import io
from collections.abc import Callable

import pytest
import resvg_py
from PIL import Image, ImageStat

from micropul_print.backends.pdf import to_pdf
from micropul_print.backends.png import to_image
from micropul_print.backends.svg import to_svg
from micropul_print.draw.primitives import Drawing
from micropul_print.draw.theme import THEME_NAMES, load_theme
from micropul_print.games.micropul.faces import back_drawing, stone_drawing, tile_drawing
from micropul_print.games.micropul.model import (
    BLACK,
    DOT,
    DOUBLE,
    EMPTY,
    PLUS,
    WHITE,
    BigMicropul,
    Tile,
)

from .rasterize import pdf_page_image

DPI = 200  # at lower resolutions pdfium thickens thin hatch lines noticeably
GRID = 4  # compare a 4 x 4 grid of regions: finer than a quadrant, coarser than edges
TOLERANCE = 6.0  # mean difference per channel in a region, out of 255

PIECES = {
    "start": lambda t: tile_drawing(Tile(41, (WHITE, WHITE, BLACK, BLACK), start=True), t),
    "catalysts": lambda t: tile_drawing(Tile(31, (WHITE, DOUBLE, DOT, EMPTY)), t),
    "plus-bleed": lambda t: tile_drawing(Tile(20, (BLACK, DOT, EMPTY, PLUS)), t, bleed=3.0),
    "big": lambda t: tile_drawing(
        Tile(38, (BLACK, BLACK, BLACK, BLACK), big=BigMicropul(BLACK, PLUS)), t),
    "back": lambda t: back_drawing(t, bleed=3.0),
    "stone": lambda t: stone_drawing(2, t, diameter=30.0),
}


def region_means(image: Image.Image) -> list[list[float]]:
    w, h = image.size
    means = []
    for row in range(GRID):
        for col in range(GRID):
            box = (col * w // GRID, row * h // GRID, (col + 1) * w // GRID, (row + 1) * h // GRID)
            means.append(ImageStat.Stat(image.crop(box)).mean)
    return means


def flatten(image: Image.Image) -> Image.Image:
    """RGBA on white, as on paper."""
    paper = Image.new("RGB", image.size, "#ffffff")
    paper.paste(image, (0, 0), image)
    return paper


def pdf_image(drawing: Drawing, size: tuple[int, int]) -> Image.Image:
    # Render a touch large, then resample to the PNG's exact pixel grid.
    return pdf_page_image(to_pdf(drawing), DPI * 2).resize(size, Image.Resampling.LANCZOS)


def svg_image(drawing: Drawing, size: tuple[int, int]) -> Image.Image:
    """The SVG rasterized by resvg (a self-contained wheel) twice as large, resampled.
    The scale is set through the dpi at which resvg reads the root's millimetres: given
    a width instead, resvg scales from the size in whole pixels at its dpi, slightly off."""
    dpi = 2 * size[0] / (drawing.width / 25.4)
    png = resvg_py.svg_to_bytes(svg_string=to_svg(drawing).decode(), dpi=dpi,
                                background="white", skip_system_fonts=True)
    image = Image.open(io.BytesIO(png)).convert("RGB")
    return image.resize(size, Image.Resampling.LANCZOS)


def assert_same_regions(png: Image.Image, other: Image.Image, what: str) -> None:
    for index, (a, b) in enumerate(zip(region_means(png), region_means(other), strict=True)):
        worst = max(abs(x - y) for x, y in zip(a, b, strict=True))
        assert worst < TOLERANCE, f"region {divmod(index, GRID)}: PNG {a} vs {what} {b}"


@pytest.mark.parametrize("theme_name", THEME_NAMES)
@pytest.mark.parametrize("piece", sorted(PIECES))
def test_png_and_pdf_agree_region_by_region(theme_name: str, piece: str) -> None:
    drawing = PIECES[piece](load_theme(theme_name))
    png = flatten(to_image(drawing, DPI))
    assert_same_regions(png, pdf_image(drawing, png.size), "PDF")


@pytest.mark.parametrize("theme_name", THEME_NAMES)
@pytest.mark.parametrize("piece", sorted(PIECES))
def test_png_and_svg_agree_region_by_region(theme_name: str, piece: str) -> None:
    drawing = PIECES[piece](load_theme(theme_name))
    png = flatten(to_image(drawing, DPI))
    assert_same_regions(png, svg_image(drawing, png.size), "SVG")


@pytest.mark.parametrize("rasterize", [pdf_image, svg_image], ids=["PDF", "SVG"])
def test_the_comparison_notices_a_different_picture(
        rasterize: Callable[[Drawing, tuple[int, int]], Image.Image]) -> None:
    """Guard against a comparison too loose to fail: a swapped colour must trip it."""
    theme = load_theme("classic")
    one = tile_drawing(Tile(41, (WHITE, WHITE, BLACK, BLACK), start=True), theme)
    other = tile_drawing(Tile(42, (BLACK, BLACK, WHITE, WHITE)), theme)
    png = flatten(to_image(one, DPI))
    picture = rasterize(other, png.size)
    diffs = [max(abs(x - y) for x, y in zip(a, b, strict=True))
             for a, b in zip(region_means(png), region_means(picture), strict=True)]
    assert max(diffs) > 10 * TOLERANCE
