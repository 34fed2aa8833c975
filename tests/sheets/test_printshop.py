"""The print-shop file measured in the PDF: one piece per page, page = piece + bleed,
TrimBox = the piece."""

from __future__ import annotations

import io
from typing import Any

import pytest
from pypdf import PdfReader

from micropul_print.draw.bounds import Box
from micropul_print.sheets.layout import load_layout
from micropul_print.sheets.pages import SheetOptions, plan_sheets
from micropul_print.sheets.pdf import DocumentInfo, render_pdf
from micropul_print.sheets.printshop import plan_print_shop, render_print_shop_pdf

from .games import micropul_set
from .test_sheet_pdf import PT_PER_MM, TOLERANCE_PT, replay, viewer_preferences

INFO = DocumentInfo("Micropul — tiles for a print shop", "Someone", "Test")


@pytest.fixture(scope="module")
def pdf() -> bytes:
    game = micropul_set(bleed=3.0)
    plan = plan_print_shop(game.cards, 30.0, 30.0,
                           names=[f"tile {n}" for n in range(1, 49)], bleed=3.0)
    return render_print_shop_pdf(plan, INFO)


def test_a_page_per_face_each_the_tile_and_its_bleed(pdf: bytes) -> None:
    reader = PdfReader(io.BytesIO(pdf))
    assert len(reader.pages) == 2 * 48
    page_pt, cut_pt, bleed_pt = 36 * PT_PER_MM, 30 * PT_PER_MM, 3 * PT_PER_MM
    for page in reader.pages:
        boxes: Any = page
        media = [float(v) for v in page.mediabox]
        assert media == pytest.approx([0, 0, page_pt, page_pt], abs=TOLERANCE_PT)
        assert [float(v) for v in boxes["/BleedBox"]] == pytest.approx(media, abs=TOLERANCE_PT)
        trim = [float(v) for v in boxes["/TrimBox"]]
        assert trim == pytest.approx([bleed_pt, bleed_pt, bleed_pt + cut_pt,
                                      bleed_pt + cut_pt], abs=TOLERANCE_PT)


def test_nothing_but_the_art_no_marks(pdf: bytes) -> None:
    reader = PdfReader(io.BytesIO(pdf))
    page_pt = 36 * PT_PER_MM
    for number in (0, 1, 94, 95):
        painted = replay(reader, number)
        # One placed drawing filling the page (a face in place, or the common back's form)...
        assert len(painted.forms) == 1
        _name, x0, y0, x1, y1 = painted.forms[0]
        assert (x0, y0, x1, y1) == pytest.approx((0, 0, page_pt, page_pt), abs=TOLERANCE_PT)
        # ...and no footer line of text on any page.
        assert "—" not in reader.pages[number].extract_text()
    # The 48 backs are one form.
    names = {replay(reader, n).forms[0][0] for n in range(1, 96, 2)}
    assert len(names) == 1 and names != {"clip"}


def test_printed_at_actual_size_double_sided(pdf: bytes) -> None:
    assert viewer_preferences(pdf) == {"/PrintScaling": "/None",
                                       "/Duplex": "/DuplexFlipLongEdge"}


def test_a_print_shop_needs_bleed() -> None:
    game = micropul_set(bleed=0.0)
    with pytest.raises(ValueError, match="needs bleed"):
        plan_print_shop(game.cards, 30.0, 30.0, names=["x"] * 48, bleed=0.0)


def _digit_boxes(pdf: bytes, page: int) -> list[tuple[float, float, float, float]]:
    """Each digit the page prints, as pdfium finds its glyph's box (points)."""
    import pypdfium2 as pdfium  # type: ignore[import-untyped]

    document = pdfium.PdfDocument(pdf)
    try:
        text = document[page].get_textpage()
        return [text.get_charbox(i) for i in range(text.count_chars())
                if text.get_text_range(i, 1).isdigit()]
    finally:
        document.close()


def test_every_tile_number_is_inside_the_3_mm_safe_zone_of_the_trim(pdf: bytes) -> None:
    """Read back from the PDF: each front's number (its digits' glyph boxes) lies at
    least 3 mm inside the TrimBox (it used to sit 1 mm inside the cut line)."""
    reader = PdfReader(io.BytesIO(pdf))
    safe_pt = 3 * PT_PER_MM
    digits = 0
    for number in range(0, len(reader.pages), 2):
        trim: Any = reader.pages[number]["/TrimBox"]
        x0, y0, x1, y1 = (float(v) for v in trim)
        for left, bottom, right, top in _digit_boxes(pdf, number):
            assert x0 + safe_pt <= left and right <= x1 - safe_pt, number
            assert y0 + safe_pt <= bottom and top <= y1 - safe_pt, number
            digits += 1
    assert digits == 9 + 2 * 39  # tiles 1-9, then 10-48


@pytest.mark.parametrize("bleed", [0.5, 1.0, 3.0, 5.0, 10.0])
def test_on_sheets_with_bleed_every_number_is_3_mm_inside_its_tile(bleed: float) -> None:
    """--bleed sheets, any bleed: every digit printed lies in a tile's cut square less
    the 3 mm safe zone (read back from the PDF)."""
    game = micropul_set(bleed=bleed)
    plan = plan_sheets(load_layout("a4"), game.cards, 30.0, 30.0, "Micropul",
                       options=SheetOptions(bleed=bleed, calibration=False))
    pdf = render_pdf(plan, INFO)
    safe = 3.0
    digits = 0
    for number, page in enumerate(plan.pages):
        if page.side != "front":
            continue
        height = plan.layout.paper_height
        squares = [p.cut for p in page.placements if p.cut is not None]
        for left, bottom, right, top in _digit_boxes(pdf, number):
            x0, x1 = left / PT_PER_MM, right / PT_PER_MM
            y0, y1 = height - top / PT_PER_MM, height - bottom / PT_PER_MM
            if not any(cut.grown(bleed).overlaps(Box(x0, y0, x1, y1)) for cut in squares):
                continue  # the page footer's numbers
            assert any(cut.x0 + safe <= x0 and x1 <= cut.x1 - safe
                       and cut.y0 + safe <= y0 and y1 <= cut.y1 - safe
                       for cut in squares), (bleed, number, (x0, y0, x1, y1))
            digits += 1
    assert digits == 9 + 2 * 39  # tiles 1-9, then 10-48
