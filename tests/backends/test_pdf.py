from __future__ import annotations

import io
from typing import Any

import pytest
from pypdf import PdfReader
from reportlab.lib.units import mm

from micropul_print.backends import pdf as pdf_backend
from micropul_print.backends.pdf import FONT_NAMES, PageCanvas, draw, register_fonts, to_pdf
from micropul_print.draw.primitives import Drawing, Group, Line, Rect, Text
from micropul_print.draw.theme import load_theme
from micropul_print.games.micropul.faces import tile_drawing
from micropul_print.games.micropul.model import BLACK, WHITE, Tile

from .rasterize import pdf_page_image

START = Tile(41, (WHITE, WHITE, BLACK, BLACK), start=True)


def test_one_page_the_drawings_size() -> None:
    reader = PdfReader(io.BytesIO(to_pdf(tile_drawing(START, load_theme("classic"), bleed=3.0))))
    (page,) = reader.pages
    assert float(page.mediabox.width) == pytest.approx(36 * mm)
    assert float(page.mediabox.height) == pytest.approx(36 * mm)


def test_same_drawing_same_bytes() -> None:
    drawing = tile_drawing(START, load_theme("ink-saver"))
    assert to_pdf(drawing) == to_pdf(drawing)


def test_text_is_lato_embedded_never_a_standard_font() -> None:
    reader = PdfReader(io.BytesIO(to_pdf(tile_drawing(START, load_theme("classic")))))
    resources: Any = reader.pages[0]["/Resources"]
    fonts = resources["/Font"]
    names = []
    for ref in fonts.values():
        font = ref.get_object()
        descendant = font["/DescendantFonts"][0].get_object() if "/DescendantFonts" in font \
            else font
        descriptor = descendant["/FontDescriptor"].get_object()
        assert "/FontFile2" in descriptor
        names.append(str(font["/BaseFont"]))
    assert names and all("Lato" in name for name in names)


def test_register_fonts_is_idempotent() -> None:
    register_fonts()
    register_fonts()
    from reportlab.pdfbase import pdfmetrics

    assert set(FONT_NAMES.values()) <= set(pdfmetrics.getRegisteredFontNames())


def _dark_box(pdf: bytes, page: int = 0) -> tuple[int, int, int, int] | None:
    image = pdf_page_image(pdf, 254, page)  # 10 px per mm
    box: tuple[int, int, int, int] | None = image.convert("L").point(
        lambda v: 255 if v < 128 else 0).getbbox()
    return box


def test_draw_places_the_top_left_corner_from_the_page_top() -> None:
    """A 10 mm black square drawn at (20 mm, 30 mm) on a 100 x 100 mm page."""
    buffer = io.BytesIO()
    canvas = PageCanvas(buffer, pagesize=(100 * mm, 100 * mm), invariant=1)
    draw(canvas, Drawing(10, 10, (Rect(0, 0, 10, 10, fill="#000000"),)), 20.0, 30.0)
    canvas.showPage()
    canvas.save()
    assert _dark_box(buffer.getvalue()) == pytest.approx((200, 300, 300, 400), abs=1)


def test_draw_measures_from_the_top_of_a_page_whose_size_changed() -> None:
    """The second page is taller (setPageSize): the square still sits 30 mm below its top."""
    buffer = io.BytesIO()
    canvas = PageCanvas(buffer, pagesize=(100 * mm, 100 * mm), invariant=1)
    square = Drawing(10, 10, (Rect(0, 0, 10, 10, fill="#000000"),))
    canvas.showPage()
    canvas.setPageSize((100 * mm, 150 * mm))
    draw(canvas, square, 20.0, 30.0)
    assert canvas.page_size == (100 * mm, 150 * mm)
    canvas.showPage()
    canvas.save()
    assert _dark_box(buffer.getvalue(), page=1) == pytest.approx((200, 300, 300, 400), abs=1)


def test_turned_group_text_stays_upright_relative_to_the_group() -> None:
    """Rotation and the y-down frame agree: text turned 90 degrees runs downward."""
    text = Text(10, 5, "START", 3.0, anchor="middle", weight="bold")
    drawing = Drawing(20, 20, (Rect(0, 0, 20, 20, fill="#ffffff"),
                               Group((text,), rotate=90, rotate_cx=10, rotate_cy=10)))
    image = pdf_page_image(to_pdf(drawing), 254).convert("L")
    bbox = image.point(lambda v: 255 if v < 128 else 0).getbbox()
    assert bbox is not None
    left, top, right, bottom = bbox
    assert bottom - top > 2 * (right - left)
    assert ((left + right) / 2, (top + bottom) / 2) == pytest.approx((160, 100), abs=12)


def _operators(*drawings: Drawing) -> list[str]:
    """The page operators of one page drawing ``drawings`` in turn at (5, 5) mm."""
    canvas = PageCanvas(io.BytesIO(), pagesize=(100 * mm, 100 * mm), invariant=1)
    for drawing in drawings:
        draw(canvas, drawing, 5.0, 5.0)
    content: str = canvas.getCurrentPageContent()
    return content.splitlines()


# A face with text at the top level and inside a turned group, between shapes.
_TEXTS = Drawing(30, 30, (
    Rect(0, 0, 30, 30, fill="#ffffff", stroke="#000000", stroke_width=0.3),
    Text(15, 10, "START", 3.0, weight="bold"),
    Group((Rect(1, 1, 5, 5, fill="#ff0000"), Text(3, 4, "12", 2.0, fill="#00ff00"),
           Line(0, 0, 6, 6)), dx=10, dy=10, rotate=90, rotate_cx=3, rotate_cy=3),
    Text(15, 28, "end", 2.0, anchor="end", fill=None),
))


def test_a_replayed_painting_appends_what_painting_appends(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A picture painted a second time is recorded, and replayed from then on: the
    page gets the same operators every time."""
    monkeypatch.setattr(pdf_backend, "_programs", {})
    painted = _operators(_TEXTS)
    assert pdf_backend._programs == {_TEXTS.items: None}  # painted, not recorded
    assert _operators(_TEXTS) == painted  # recorded, then replayed
    assert pdf_backend._programs[_TEXTS.items] is not None
    assert _operators(_TEXTS) == painted  # replayed
    assert _operators(_TEXTS, _TEXTS) == painted + painted


def test_replayed_text_takes_the_glyph_codes_of_its_own_document(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A document that set other letters first numbers its subset's glyphs otherwise:
    the picture's texts, replayed there, still read START and 12."""
    monkeypatch.setattr(pdf_backend, "_programs", {})
    to_pdf(_TEXTS)
    to_pdf(_TEXTS)  # recorded in a document of its own
    buffer = io.BytesIO()
    canvas = PageCanvas(buffer, pagesize=(100 * mm, 100 * mm), invariant=1)
    draw(canvas, Drawing(30, 10, (Text(15, 5, "xyzqw", 3.0, weight="bold"),
                                  Text(15, 8, "98765", 2.0))), 40.0, 40.0)
    draw(canvas, _TEXTS, 5.0, 5.0)
    canvas.showPage()
    canvas.save()
    text = PdfReader(buffer).pages[0].extract_text()
    assert "START" in text and "12" in text and "xyzqw" in text


def test_replay_is_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pdf_backend, "_programs", {})
    monkeypatch.setattr(pdf_backend, "PROGRAMS_KEPT", 3)
    for size in range(1, 8):
        _operators(Drawing(size, size, (Rect(0, 0, size, size, fill="#000000"),)))
        assert len(pdf_backend._programs) <= 3


def test_a_replayed_picture_makes_the_same_document(monkeypatch: pytest.MonkeyPatch) -> None:
    """Not only the page's operators: a colour set marks the document as PDF 1.4
    (reportlab's opacity), replayed or painted, text or none."""
    monkeypatch.setattr(pdf_backend, "_programs", {})
    shapes = Drawing(20, 20, (Rect(0, 0, 20, 20, fill="#ff0000"),
                              Line(0, 0, 20, 20, stroke="#0000ff")))
    for drawing in (shapes, _TEXTS):
        first = to_pdf(drawing)
        assert first.startswith(b"%PDF-1.4")
        assert to_pdf(drawing) == to_pdf(drawing) == first


@pytest.mark.parametrize("value", ["1", "abc"])
def test_source_date_epoch_changes_no_byte(value: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """reportlab dates an invariant document by SOURCE_DATE_EPOCH when it is set: every
    PDF of the kit changed with the environment (its dates and /ID), and a value that
    is not a whole number was an internal error (ValueError)."""
    drawing = Drawing(20.0, 10.0, (Rect(1.0, 1.0, 5.0, 5.0, fill="#000000"),))
    plain = to_pdf(drawing)
    monkeypatch.setenv("SOURCE_DATE_EPOCH", value)
    assert to_pdf(drawing) == plain
    assert "SOURCE_DATE_EPOCH" in __import__("os").environ  # the environment is left as found
