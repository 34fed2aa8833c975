"""Cut files measured against the PDF they cut: each SVG page has the PDF page's size,
its registration marks where the PDF prints them, and a closed path on every piece's
cut line (to 0.01 mm)."""

from __future__ import annotations

import io
import re
import xml.etree.ElementTree as ET
from collections.abc import Callable

import pypdfium2 as pdfium  # type: ignore[import-untyped]
import pytest
from PIL import Image
from pypdf import PdfReader

from micropul_print.sheets import registration
from micropul_print.sheets.cutfile import (
    cut_document,
    cut_document_name,
    cut_file_name,
    cut_pages,
)
from micropul_print.sheets.layout import load_layout
from micropul_print.sheets.pages import SheetOptions, SheetPlan, plan_sheets
from micropul_print.sheets.pdf import DocumentInfo, render_pdf

from .games import GameSet, cellulae_set, micropul_set
from .test_sheet_pdf import PT_PER_MM, replay

SVG = "{http://www.w3.org/2000/svg}"
INFO = DocumentInfo("Game — tiles", "Someone", "Test")
GAMES: dict[str, Callable[[float], GameSet]] = {"micropul": micropul_set,
                                                 "cellulae": cellulae_set}
SQUARE = re.compile(r"M([\d.]+) ([\d.]+)H([\d.]+)V([\d.]+)H([\d.]+)Z")
CIRCLE = re.compile(r"M([\d.]+) ([\d.]+)A([\d.]+) ([\d.]+) 0 1 0 ([\d.]+) ([\d.]+)A")


def pdf_page_image(pdf: bytes, dpi: int, page: int) -> Image.Image:
    document = pdfium.PdfDocument(pdf)
    try:
        image: Image.Image = document[page].render(scale=dpi / 72).to_pil()
        return image.convert("L")
    finally:
        document.close()


def registered_plan(game: str, paper: str, bleed: float) -> SheetPlan:
    pieces = GAMES[game](bleed)
    return plan_sheets(load_layout(paper), pieces.cards, pieces.size, pieces.size,
                       pieces.name, tokens=pieces.tokens,
                       options=SheetOptions(bleed=bleed, registration=True))


Square = tuple[float, float, float, float]
Circle = tuple[float, float, float]


def svg_cuts(svg: bytes) -> tuple[list[Square], list[Circle]]:
    """Squares (x0, y0, x1, y1) and circles (cx, cy, r) of the cut-lines group, mm."""
    root = ET.fromstring(svg)
    (group,) = [g for g in root.iter(f"{SVG}g") if g.get("id") == "cut-lines"]
    squares: list[Square] = []
    circles: list[Circle] = []
    for path in group.iter(f"{SVG}path"):
        d = path.get("d", "")
        if match := SQUARE.fullmatch(d):
            x0, y0, x1, y1, back = (float(v) for v in match.groups())
            assert back == x0  # closed
            squares.append((x0, y0, x1, y1))
        else:
            match = CIRCLE.match(d)
            assert match is not None and d.endswith("Z"), d
            left, cy, r, _r, right, _y = (float(v) for v in match.groups())
            assert right - left == pytest.approx(2 * r)
            circles.append(((left + right) / 2, cy, r))
    return squares, circles


@pytest.mark.parametrize("game", sorted(GAMES))
@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("bleed", [0.0, 3.0])
def test_cut_paths_lie_on_the_pdf_tiles_edges(game: str, paper: str, bleed: float) -> None:
    plan = registered_plan(game, paper, bleed)
    reader = PdfReader(io.BytesIO(render_pdf(plan, INFO)))
    page_h = plan.layout.paper_height
    pages = cut_pages(plan, "Game")
    assert pages
    for cut in pages:
        root = ET.fromstring(cut.svg)
        assert root.get("viewBox") == f"0 0 {plan.layout.paper_width:g} {page_h:g}"
        assert root.get("width") == f"{plan.layout.paper_width:g}mm"
        squares, circles = svg_cuts(cut.svg)
        # What the PDF page paints, in mm from the top-left: tiles less their bleed.
        painted = [(x0 / PT_PER_MM, page_h - y1 / PT_PER_MM, x1 / PT_PER_MM,
                    page_h - y0 / PT_PER_MM)
                   for _n, x0, y0, x1, y1 in replay(reader, cut.number - 1).forms
                   if x1 - x0 > 10 * PT_PER_MM]
        tiles = [(a + bleed, b + bleed, c - bleed, d - bleed) for a, b, c, d in painted
                 if c - a > 25]
        tokens = [p for p in painted if p[2] - p[0] <= 25]
        assert len(squares) == len(tiles) and len(circles) == len(tokens)
        for tile in tiles:
            assert any(all(abs(s - t) <= 0.01 for s, t in zip(square, tile, strict=True))
                       for square in squares), tile
        for x0, y0, x1, y1 in tokens:
            centre = ((x0 + x1) / 2, (y0 + y1) / 2, (x1 - x0) / 2 - bleed)
            assert any(all(abs(c - t) <= 0.01 for c, t in zip(circle, centre, strict=True))
                       for circle in circles), centre


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_registration_marks_are_printed_where_the_cut_file_has_them(paper: str) -> None:
    plan = registered_plan("micropul", paper, 0.0)
    pdf = render_pdf(plan, INFO)
    width, height = plan.layout.paper_width, plan.layout.paper_height
    inset = registration.INSET
    # The middle of the square and of each L's arms, and points well clear of them.
    inked = [(inset + 2.5, inset + 2.5), (width - inset - 10, inset),
             (width - inset, inset + 10), (inset + 10, height - inset),
             (inset, height - inset - 10)]
    clear = [(inset + 12, inset + 12), (width - inset - 10, inset + 10),
             (inset + 10, height - inset - 10)]
    dpi = 200
    for cut in cut_pages(plan, "Game"):
        image = pdf_page_image(pdf, dpi, cut.number - 1)

        def pixel(x: float, y: float, image: Image.Image = image) -> int:
            value = image.getpixel((round(x / 25.4 * dpi), round(y / 25.4 * dpi)))
            assert isinstance(value, int)
            return value

        assert all(pixel(x, y) < 64 for x, y in inked)
        assert all(pixel(x, y) > 192 for x, y in clear)
        root = ET.fromstring(cut.svg)
        (group,) = [g for g in root.iter(f"{SVG}g") if g.get("id") == "registration-marks"]
        assert len(list(group.iter(f"{SVG}path"))) == 3


def test_registration_keeps_the_marks_corners_free() -> None:
    plan = registered_plan("micropul", "a4", 0.0)
    zones = registration.keep_out(210.0, 297.0)
    for page in plan.pages:
        for placed in page.placements:
            box = (placed.x, placed.y, placed.x + placed.drawing.width,
                   placed.y + placed.drawing.height)
            assert not any(zone.overlaps(type(zone)(*box)) for zone in zones)
    fronts = [p for p in plan.pages if p.side == "front" and p.placements]
    # A4 keeps 51 of its 54 slots: 48 tiles on the first sheet, the stones on the
    # calibration sheet.
    assert [len(p.placements) for p in fronts] == [6, 48]


def test_one_file_per_front_page_named_after_it() -> None:
    plan = registered_plan("micropul", "letter", 0.0)
    pages = cut_pages(plan, "Micropul")
    assert [p.number for p in pages] == [3, 5]  # 45 a page: the stones join the last tiles
    assert cut_file_name("micropul", "letter", 3) == "micropul-cut-letter-page3.svg"
    assert cut_pages(plan, "Micropul") == pages  # reproducible


@pytest.mark.parametrize("game", sorted(GAMES))
@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_the_paper_s_cut_file_holds_each_page_as_a_layer(game: str, paper: str) -> None:
    plan = registered_plan(game, paper, 3.0)
    document = ET.fromstring(cut_document(plan, "Game"))
    assert document.get("viewBox") == (
        f"0 0 {plan.layout.paper_width:g} {plan.layout.paper_height:g}")
    layers = [g for g in document if g.tag == f"{SVG}g"]
    pages = cut_pages(plan, "Game")
    assert [layer.get("id") for layer in layers] == [f"page-{p.number}" for p in pages]
    inkscape = "{http://www.inkscape.org/namespaces/inkscape}"
    assert all(layer.get(f"{inkscape}groupmode") == "layer" for layer in layers)
    # Each page is cut on its own sheet: only the first layer shows.
    assert [layer.get("style") for layer in layers] == [None] + ["display:none"] * (
        len(layers) - 1)
    for layer, page in zip(layers, pages, strict=True):
        alone = ET.fromstring(page.svg)
        assert [p.get("d") for p in layer.iter(f"{SVG}path")] == [
            p.get("d") for p in alone.iter(f"{SVG}path")]
    ids = [element.get("id") for element in document.iter() if element.get("id")]
    assert len(ids) == len(set(ids))
    assert cut_document_name(game, paper) == f"{game}-cut-{paper}.svg"


def test_cut_files_need_registration_marks_on_the_sheets() -> None:
    pieces = micropul_set()
    plan = plan_sheets(load_layout("a4"), pieces.cards, 30.0, 30.0, "Game")
    with pytest.raises(ValueError, match="registration marks"):
        cut_pages(plan, "Game")


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_registration_marks_measure_as_silhouette_studio_draws_them(paper: str) -> None:
    """The square 5 mm a side with its outer edges 10 mm from the top and left edges;
    the Ls' 0.5 mm lines centred 10 mm from the edges (Studio's Type 1 defaults)."""
    plan = registered_plan("micropul", paper, 0.0)
    dpi = 400
    (first, *_rest) = cut_pages(plan, "Game")
    image = pdf_page_image(render_pdf(plan, INFO), dpi, first.number - 1)
    width = plan.layout.paper_width

    def inked(x0: float, y0: float, x1: float, y1: float) -> tuple[float, ...]:
        """The box of the dark pixels inside (x0, y0, x1, y1) mm, in mm."""
        left, top, right, bottom = (round(v / 25.4 * dpi) for v in (x0, y0, x1, y1))
        box = image.crop((left, top, right, bottom))
        found = box.point(lambda v: 255 if v < 128 else 0).getbbox()
        assert found is not None
        return tuple(round(origin + pixels * 25.4 / dpi, 1)
                     for origin, pixels in zip((x0, y0, x0, y0), found, strict=True))

    assert inked(5, 5, 20, 20) == (10.0, 10.0, 15.0, 15.0)
    # The top-right L: its horizontal arm's top and bottom edges, its vertical arm's
    # outer edge.
    assert inked(width - 25, 5, width - 15, 15) == (round(width - 25, 1), 9.8,
                                                    round(width - 15, 1), 10.2)


def _pdf_missing_pairs(pdf: bytes, page: int, bleed: float) -> list[str]:
    """Read back from the PDF page: the cut lines of its square pieces (the placed tiles
    less their bleed) without a crop mark (a 0.2 mm line on that line, outside every
    piece) beyond either end of the pieces along it, in mm."""
    reader = PdfReader(io.BytesIO(pdf))
    drawn = replay(reader, page)
    size = (30.0 + 2 * bleed) * PT_PER_MM  # a tile and its bleed (not a stone)
    art = [(x0, y0, x1, y1) for _n, x0, y0, x1, y1 in drawn.forms
           if abs(x1 - x0 - size) < 0.01 * PT_PER_MM]
    cuts = [tuple(round(v / PT_PER_MM + d, 3) for v, d in
                  zip(box, (bleed, bleed, -bleed, -bleed), strict=True)) for box in art]
    marks = [tuple(v / PT_PER_MM for v in line[:4]) for line in drawn.lines
             if line[4] == pytest.approx(0.2 * PT_PER_MM, abs=1e-3)]
    missing = []
    for axis in (0, 1):  # 0: vertical cut lines (an x), 1: horizontal ones (a y)
        along = 1 - axis
        for at in sorted({box[axis] for box in cuts} | {box[axis + 2] for box in cuts}):
            pieces = [box for box in cuts if min(abs(box[axis] - at),
                                                 abs(box[axis + 2] - at)) < 0.01]
            first = min(box[along] for box in pieces)
            last = max(box[along + 2] for box in pieces)
            on = [(min(m[along], m[along + 2]), max(m[along], m[along + 2])) for m in marks
                  if abs(m[axis] - at) < 0.01 and abs(m[axis + 2] - at) < 0.01]
            if not any(high <= first + 0.01 for _low, high in on):
                missing.append(f"{'xy'[axis]} = {at}: none before {first}")
            if not any(low >= last - 0.01 for low, _high in on):
                missing.append(f"{'xy'[axis]} = {at}: none after {last}")
    return missing


@pytest.mark.parametrize("game", sorted(GAMES))
@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("bleed", [0.0, 3.0, 6.5, 8.0, 10.0])
@pytest.mark.parametrize("reprint", [False, True])
def test_every_cut_line_has_its_pair_of_marks_in_the_pdf(game: str, paper: str, bleed: float,
                                                          reprint: bool) -> None:
    """Measured in the PDF of the sheets cut files go with (registration marks in the
    corners), on every front page, and on a reprint of two tiles: the first column's
    left cut and the first row's top cut used to have no mark (the registration marks
    took their place), and with a bleed from 6.5 mm a piece beside a mark left no room
    for one."""
    pieces = GAMES[game](bleed)
    cards = [pieces.cards[6], pieces.cards[11]] if reprint else pieces.cards
    plan = plan_sheets(load_layout(paper), cards, pieces.size, pieces.size, pieces.name,
                       tokens=() if reprint else pieces.tokens,
                       options=SheetOptions(bleed=bleed, registration=True,
                                            calibration=not reprint))
    pdf = render_pdf(plan, INFO)
    checked = 0
    for number, page in enumerate(plan.pages):
        if page.side == "front" and any(not p.round for p in page.placements) \
                and not page.label.endswith("calibration page, front"):
            assert _pdf_missing_pairs(pdf, number, bleed) == [], (page.label, number)
            checked += 1
    assert checked
