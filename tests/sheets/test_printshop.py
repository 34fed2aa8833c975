"""The print-shop file measured in the PDF: one piece per page, page = piece + bleed,
TrimBox = the piece."""

from __future__ import annotations

import io
from typing import Any

import pytest
from pypdf import PdfReader

from micropul_print.sheets.pdf import DocumentInfo
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
