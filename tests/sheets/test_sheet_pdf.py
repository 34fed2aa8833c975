"""The sheet PDF measured in the file itself: the content streams are replayed with
pypdf (CTM, placed forms, stroked lines) and lengths compared in points."""

from __future__ import annotations

import io
import itertools
from dataclasses import dataclass
from typing import Any

import pytest
from pypdf import PdfReader
from pypdf.generic import ContentStream

from micropul_print.draw.primitives import Circle, Drawing, Rect, Text
from micropul_print.sheets import pdf as pdf_module
from micropul_print.sheets.layout import load_layout
from micropul_print.sheets.pages import Card, SheetOptions, SheetPlan, plan_sheets
from micropul_print.sheets.pdf import DocumentInfo, render_pdf

PT_PER_MM = 72 / 25.4
CUT_PT = 30 * PT_PER_MM  # 85.039 pt
TOLERANCE_PT = 0.01 * PT_PER_MM
STANDARD_14 = {"Courier", "Courier-Bold", "Courier-Oblique", "Courier-BoldOblique",
               "Helvetica", "Helvetica-Bold", "Helvetica-Oblique", "Helvetica-BoldOblique",
               "Times-Roman", "Times-Bold", "Times-Italic", "Times-BoldItalic", "Symbol",
               "ZapfDingbats"}
INFO = DocumentInfo(title="Game — tiles, A4", author="Someone", subject="Test sheet")

Matrix = tuple[float, float, float, float, float, float]


def make_plan(paper: str = "a4", bleed: float = 0.0, **options: Any) -> SheetPlan:
    size = 30.0 + 2 * bleed
    back = Drawing(size, size, (Rect(0, 0, size, size, fill="#224466"),
                                Circle(size / 2, size / 2, 9.0, fill="#ffffff")))
    cards = [Card(Drawing(size, size, (Rect(0, 0, size, size, fill="#f0e0d0"),
                                       Text(size / 2, size / 2, str(n), 6.0))), back)
             for n in range(48)]
    stone = Drawing(14.0, 14.0, (Circle(7.0, 7.0, 7.0, fill="#000000"),))
    return plan_sheets(load_layout(paper), cards, 30.0, 30.0, "Game",
                       tokens=[Card(stone, stone)] * 6,
                       options=SheetOptions(bleed=bleed, **options))


def read(plan: SheetPlan) -> PdfReader:
    return PdfReader(io.BytesIO(render_pdf(plan, INFO)))


def _multiply(m: Matrix, n: Matrix) -> Matrix:
    """m then n (PDF row-vector convention)."""
    a, b, c, d, e, f = m
    A, B, C, D, E, F = n
    return (a * A + b * C, a * B + b * D, c * A + d * C, c * B + d * D,
            e * A + f * C + E, e * B + f * D + F)


def _apply(m: Matrix, x: float, y: float) -> tuple[float, float]:
    a, b, c, d, e, f = m
    return a * x + c * y + e, b * x + d * y + f


@dataclass
class Replay:
    # Placed drawings in painting order: a form (its name) or a drawing painted in
    # place inside a clip ("clip"), with x0, y0, x1, y1 in points.
    forms: list[tuple[str, float, float, float, float]]
    lines: list[tuple[float, float, float, float, float]]  # x1, y1, x2, y2, width (points)
    rects: list[tuple[float, float, float, float]]  # filled or stroked rectangles: x, y, w, h


def replay(reader: PdfReader, page_number: int) -> Replay:
    page = reader.pages[page_number]
    xobjects: Any = page["/Resources"].get_object()
    xobjects = xobjects.get("/XObject", {})
    ctm: Matrix = (1, 0, 0, 1, 0, 0)
    stack: list[tuple[Matrix, float]] = []
    width = 1.0
    out = Replay([], [], [])
    start: tuple[float, float] = (0.0, 0.0)
    last_rect = (0.0, 0.0, 0.0, 0.0)
    for operands, op in ContentStream(page.get_contents(), reader).operations:
        if op == b"q":
            stack.append((ctm, width))
        elif op == b"Q":
            ctm, width = stack.pop()
        elif op == b"cm":
            ctm = _multiply(tuple(float(v) for v in operands), ctm)  # type: ignore[arg-type]
        elif op == b"w":
            width = float(operands[0])
        elif op == b"m":
            start = _apply(ctm, float(operands[0]), float(operands[1]))
        elif op == b"l":
            end = _apply(ctm, float(operands[0]), float(operands[1]))
            out.lines.append((*start, *end, width * abs(ctm[0])))
        elif op == b"re":
            x, y, w, h = (float(v) for v in operands)
            (x0, y0), (x1, y1) = _apply(ctm, x, y), _apply(ctm, x + w, y + h)
            last_rect = (min(x0, x1), min(y0, y1), abs(x1 - x0), abs(y1 - y0))
            out.rects.append(last_rect)
        elif op in (b"W", b"W*"):
            x, y, w, h = last_rect
            out.forms.append(("clip", x, y, x + w, y + h))
        elif op == b"Do":
            name = str(operands[0])
            bbox = [float(v) for v in xobjects[name].get_object()["/BBox"]]
            (x0, y0), (x1, y1) = _apply(ctm, bbox[0], bbox[1]), _apply(ctm, bbox[2], bbox[3])
            out.forms.append((name, min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1)))
    return out


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_every_tile_measures_30_mm_in_the_pdf(paper: str) -> None:
    reader = read(make_plan(paper, calibration=False))
    tiles = [f for f in replay(reader, 0).forms if f[3] - f[1] > 20 * PT_PER_MM]
    assert len(tiles) == 48
    for _name, x0, y0, x1, y1 in tiles:
        assert x1 - x0 == pytest.approx(CUT_PT, abs=TOLERANCE_PT)
        assert y1 - y0 == pytest.approx(CUT_PT, abs=TOLERANCE_PT)
    # Neighbours share their cut line: one pitch is one tile.
    xs = sorted({round(f[1], 3) for f in tiles})
    assert all(b - a == pytest.approx(CUT_PT, abs=TOLERANCE_PT) for a, b in itertools.pairwise(xs))


def _crop_marks(reader: PdfReader, page: int) -> list[tuple[float, float, float, float, float]]:
    return [ln for ln in replay(reader, page).lines
            if ln[4] == pytest.approx(0.2 * PT_PER_MM, abs=1e-3)]


@pytest.mark.parametrize("bleed", [0.0, 3.0])
def test_crop_marks_in_the_pdf_are_30_mm_apart_and_clear_of_the_art(bleed: float) -> None:
    plan = make_plan("a4", bleed=bleed, calibration=False)
    reader = read(plan)
    marks = _crop_marks(reader, 0)
    vertical = sorted({round(m[0], 3) for m in marks if m[0] == pytest.approx(m[2])})
    if bleed:
        pairs = list(zip(vertical[::2], vertical[1::2], strict=True))
        assert len(pairs) == plan.grid.columns
        for left, right in pairs:
            assert right - left == pytest.approx(CUT_PT, abs=TOLERANCE_PT)
    else:
        assert len(vertical) == plan.grid.columns + 1
        for left, right in itertools.pairwise(vertical):
            assert right - left == pytest.approx(CUT_PT, abs=TOLERANCE_PT)
    # No mark touches the placed art (forms include the bleed).
    art = [f for f in replay(reader, 0).forms]
    for x1, y1, x2, y2, _w in marks:
        for _name, ax0, ay0, ax1, ay1 in art:
            overlaps = (min(x1, x2) < ax1 and max(x1, x2) > ax0
                        and min(y1, y2) < ay1 and max(y1, y2) > ay0)
            assert not overlaps
    # Marks reach the margin: some start 5 mm from the page edge.
    margin_pt = plan.layout.margin * PT_PER_MM
    assert any(min(m[0], m[2]) == pytest.approx(margin_pt, abs=1e-3) for m in marks)


@pytest.mark.parametrize("flip", ["long", "short"])
def test_backs_in_the_pdf_lie_behind_the_fronts(flip: str) -> None:
    plan = make_plan("letter", flip=flip, back_offset=(1.0, -0.5), calibration=False)
    reader = read(plan)
    width = float(reader.pages[0].mediabox.width)
    height = float(reader.pages[0].mediabox.height)
    # The offset is (right, down) on the page; PDF's y runs up, so -0.5 mm is +0.5 mm.
    dx, dy = 1.0 * PT_PER_MM, 0.5 * PT_PER_MM
    for front_page in (0, 2):
        fronts = replay(reader, front_page).forms
        backs = replay(reader, front_page + 1).forms
        assert len(fronts) == len(backs) > 0
        for (_f, fx0, fy0, fx1, fy1), (_b, bx0, by0, bx1, by1) in zip(fronts, backs,
                                                                        strict=True):
            if flip == "long":
                expected = (width - fx1 + dx, fy0 + dy, width - fx0 + dx, fy1 + dy)
            else:
                expected = (fx0 + dx, height - fy1 + dy, fx1 + dx, height - fy0 + dy)
            assert (bx0, by0, bx1, by1) == pytest.approx(expected, abs=1e-3)


def test_identical_drawings_become_one_form() -> None:
    reader = read(make_plan("a4", calibration=False))
    fronts = replay(reader, 0).forms
    backs = replay(reader, 1).forms
    assert len(fronts) == len(backs) == 54
    # Faces are painted in place; the 48 card backs share one form, the 6 stones another.
    assert [name for name, *_ in fronts].count("clip") == 48
    assert len({name for name, *_ in backs}) == 2
    resources: Any = reader.pages[1]["/Resources"].get_object()
    assert len(resources["/XObject"]) == 2


def test_page_order_and_size() -> None:
    reader = read(make_plan("a4", bleed=3.0))
    assert len(reader.pages) == 6  # calibration + back, then two sheets of 35 slots
    for page in reader.pages:
        assert float(page.mediabox.width) == pytest.approx(210.0 * PT_PER_MM, abs=0.01)
        assert float(page.mediabox.height) == pytest.approx(297.0 * PT_PER_MM, abs=0.01)
    texts = [page.extract_text() for page in reader.pages]
    assert "Game — calibration page, front" in texts[0]
    assert "Game — calibration page, back" in texts[1]
    assert "Game — fronts, page 1/2" in texts[2]
    assert "Game — backs, page 1/2" in texts[3]
    assert "Game — fronts, page 2/2" in texts[4]
    assert "Game — backs, page 2/2" in texts[5]


def test_calibration_square_measures_30_mm_in_the_pdf() -> None:
    reader = read(make_plan("a4"))
    squares = [r for r in replay(reader, 0).rects
               if r[2] == pytest.approx(CUT_PT, abs=TOLERANCE_PT)
               and r[3] == pytest.approx(CUT_PT, abs=TOLERANCE_PT)]
    assert len(squares) == 1
    assert "this square must measure 30 mm" in reader.pages[0].extract_text()


def _fonts(resources: Any, seen: set[int]) -> list[Any]:
    found: list[Any] = []
    if resources is None:
        return found
    resources = resources.get_object()
    for font in resources.get("/Font", {}).values():
        found.append(font.get_object())
    for xobject in resources.get("/XObject", {}).values():
        stream = xobject.get_object()
        key = id(stream)
        if key not in seen:
            seen.add(key)
            found += _fonts(stream.get("/Resources"), seen)
    return found


def test_every_font_is_embedded_and_none_is_standard_14() -> None:
    reader = read(make_plan("a4"))
    fonts = [f for page in reader.pages for f in _fonts(page.get("/Resources"), set())]
    assert fonts
    for font in fonts:
        base = str(font["/BaseFont"]).lstrip("/").split("+")[-1]
        assert base not in STANDARD_14
        descriptor = font["/FontDescriptor"].get_object()
        assert "/FontFile2" in descriptor


def test_metadata_is_set() -> None:
    meta = read(make_plan("a4")).metadata
    assert meta is not None
    assert meta.title == INFO.title
    assert meta.author == INFO.author
    assert meta.subject == INFO.subject
    assert meta.creator == "micropul-print"


def test_same_plan_gives_identical_bytes() -> None:
    assert render_pdf(make_plan("a4", bleed=2.0), INFO) == render_pdf(
        make_plan("a4", bleed=2.0), INFO)


def test_card_backgrounds_are_painted_a_hair_larger_so_no_seam_shows() -> None:
    """Two cards' backgrounds meeting edge to edge leave a hairline of paper in some
    viewers (anti-aliasing on both edges): each page paints every covering background
    SEAM_OVERLAP larger on every side, under the cards."""
    plan = make_plan(calibration=False)
    reader = read(plan)
    overlap = pdf_module.SEAM_OVERLAP * PT_PER_MM
    page_h = plan.layout.paper_height * PT_PER_MM
    checked = 0
    for number, page in enumerate(plan.pages):
        rects = replay(reader, number).rects
        for placement in page.placements:
            if not isinstance(placement.drawing.items[0], Rect):
                continue  # a round token has no covering background
            x = placement.x * PT_PER_MM - overlap
            y = page_h - (placement.y + 30.0) * PT_PER_MM - overlap
            size = CUT_PT + 2 * overlap
            assert any(abs(rx - x) < TOLERANCE_PT and abs(ry - y) < TOLERANCE_PT
                       and abs(rw - size) < TOLERANCE_PT and abs(rh - size) < TOLERANCE_PT
                       for rx, ry, rw, rh in rects), (number, placement.x, placement.y)
            checked += 1
    assert checked == 2 * 48  # every front and every back


def viewer_preferences(pdf: bytes) -> dict[str, str]:
    root: Any = PdfReader(io.BytesIO(pdf)).trailer["/Root"]
    return {str(k): str(v) for k, v in root["/ViewerPreferences"].items()}


@pytest.mark.parametrize(("flip", "duplex"), [("long", "/DuplexFlipLongEdge"),
                                                ("short", "/DuplexFlipShortEdge")])
@pytest.mark.parametrize("calibration", [True, False])
def test_viewers_are_asked_for_actual_size_and_the_flip_of_the_backs(
        flip: str, duplex: str, calibration: bool) -> None:
    """A viewer's print dialog starts from these: no "fit to page" (it shrinks every
    tile by a few per cent) and double-sided with the flip the backs were mirrored for."""
    pdf = render_pdf(make_plan("letter", flip=flip, calibration=calibration), INFO)
    assert viewer_preferences(pdf) == {"/PrintScaling": "/None", "/Duplex": duplex}


def _box(page: Any, name: str) -> tuple[float, float, float, float]:
    return tuple(float(v) for v in page[name])  # type: ignore[return-value]


@pytest.mark.parametrize("paper", ["a4", "letter"])
@pytest.mark.parametrize("flip", ["long", "short"])
# A page enlarged for a printer's scale enlarges its bleed too, in each direction (the
# bleed box grew by the larger factor both ways: 0.05 mm too much down the page here).
@pytest.mark.parametrize("scale", [(100.0, 100.0), (97.0, 98.5)])
def test_with_bleed_every_page_has_trim_and_bleed_boxes(paper: str, flip: str,
                                                        scale: tuple[float, float]) -> None:
    """The trim box of a page of tiles is the area of its cut tiles (the outermost cut
    lines), measured here from where the PDF places each tile; the bleed box is that
    plus the bleed. Backs are measured on their own page, offset included."""
    bleed = 3.0
    plan = make_plan(paper, bleed=bleed, flip=flip, back_offset=(1.0, 0.5), scale=scale)
    reader = read(plan)
    fx, fy = 100.0 / scale[0], 100.0 / scale[1]
    bleed_x, bleed_y = bleed * PT_PER_MM * fx, bleed * PT_PER_MM * fy
    media = [float(v) for v in reader.pages[0].mediabox]
    for number, page in enumerate(reader.pages):
        trim = _box(page, "/TrimBox")
        bleed_box = _box(page, "/BleedBox")
        pieces = [f for f in replay(reader, number).forms if f[3] - f[1] > 10 * PT_PER_MM]
        if not pieces:  # the calibration page: nothing to cut, the page is its own trim
            assert trim == pytest.approx(media) and bleed_box == pytest.approx(media)
            continue
        # Every piece is centred on its slot: the slot's cut square is 30 mm round it.
        centres = [((f[1] + f[3]) / 2, (f[2] + f[4]) / 2) for f in pieces]
        half_x, half_y = CUT_PT / 2 * fx, CUT_PT / 2 * fy
        cut = (min(x for x, _ in centres) - half_x, min(y for _, y in centres) - half_y,
               max(x for x, _ in centres) + half_x, max(y for _, y in centres) + half_y)
        assert trim == pytest.approx(cut, abs=TOLERANCE_PT)
        assert bleed_box == pytest.approx((cut[0] - bleed_x, cut[1] - bleed_y,
                                           cut[2] + bleed_x, cut[3] + bleed_y),
                                          abs=TOLERANCE_PT)


def test_without_bleed_no_trim_or_bleed_box() -> None:
    reader = read(make_plan("a4"))
    assert all("/TrimBox" not in page and "/BleedBox" not in page for page in reader.pages)


@pytest.mark.parametrize("flip", ["long", "short"])
def test_scaled_sheets_measure_30_mm_after_the_printer_s_shrink(flip: str) -> None:
    scale = (97.0, 98.5)  # what the printer does, across and down
    reader = read(make_plan("a4", flip=flip, scale=scale, calibration=False))
    width = float(reader.pages[0].mediabox.width)
    height = float(reader.pages[0].mediabox.height)
    for number in (0, 1):
        tiles = [f for f in replay(reader, number).forms if f[3] - f[1] > 20 * PT_PER_MM]
        assert len(tiles) == 48
        for _name, x0, y0, x1, y1 in tiles:
            # Enlarged in the file; the printer's 97 % x 98.5 % brings it back to 30 mm.
            assert (x1 - x0) * scale[0] / 100 == pytest.approx(CUT_PT, abs=TOLERANCE_PT)
            assert (y1 - y0) * scale[1] / 100 == pytest.approx(CUT_PT, abs=TOLERANCE_PT)
        # Enlarged about the page's centre, so a centred grid stays centred (and backs
        # stay behind their fronts): each tile is where it is at 100 %, moved outwards.
        plain = [f for f in replay(read(make_plan("a4", flip=flip, calibration=False)),
                                   number).forms if f[3] - f[1] > 20 * PT_PER_MM]
        for (_n, x0, y0, x1, y1), (_p, px0, py0, px1, py1) in zip(tiles, plain, strict=True):
            expected = ((px0 + px1) / 2 - width / 2) * 100 / scale[0] + width / 2
            assert (x0 + x1) / 2 == pytest.approx(expected, abs=1e-3)
            expected = ((py0 + py1) / 2 - height / 2) * 100 / scale[1] + height / 2
            assert (y0 + y1) / 2 == pytest.approx(expected, abs=1e-3)


def test_at_100_per_cent_the_pdf_is_the_pdf_without_a_scale() -> None:
    assert render_pdf(make_plan("a4", scale=(100.0, 100.0)), INFO) == render_pdf(
        make_plan("a4"), INFO)
