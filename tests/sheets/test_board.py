"""Splitting a drawing larger than the paper over pages (sheets/board.py): the pure
split, the pages planned from it, and the PDF, measured in its content stream."""

from __future__ import annotations

import io
import itertools
import math
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st
from pypdf import PdfReader
from pypdf.generic import ContentStream

from micropul_print.draw.bounds import item_bounds
from micropul_print.draw.primitives import (
    Circle,
    Drawing,
    Group,
    Line,
    Primitive,
    Rect,
    Text,
)
from micropul_print.sheets.board import (
    HEADER_BAND,
    OVERLAP,
    BoardPlan,
    Box,
    plan_board,
    render_board_pdf,
    room_for_parts,
    split_axis,
    split_drawing,
)
from micropul_print.sheets.layout import load_layout
from micropul_print.sheets.pdf import DocumentInfo

from .test_sheet_pdf import PT_PER_MM, Matrix, _multiply

INFO = DocumentInfo(title="Game — board, A4", author="Someone", subject="Test board")
STANDARD_14 = {"Courier", "Helvetica", "Times-Roman", "Symbol", "ZapfDingbats"}


# --- split_axis -----------------------------------------------------------------------


def test_a_length_that_fits_is_one_piece() -> None:
    assert split_axis(150.0, 193.0, OVERLAP) == ((0.0, 150.0),)


def test_equal_pieces_sharing_the_overlap() -> None:
    assert split_axis(286.0, 193.0, 10.0) == ((0.0, 148.0), (138.0, 286.0))


def test_seams_move_to_the_nearest_stop() -> None:
    grid = [8.0 + 30.0 * k for k in range(1, 9)]  # a 9 x 9 board's lines
    assert split_axis(286.0, 193.0, 10.0, grid) == ((0.0, 138.0), (128.0, 286.0))


def test_stops_that_would_overfill_a_piece_are_not_used() -> None:
    # Seams must lie in [85, 95] for both pieces to fit 105 mm: 80 and 100 do not, so
    # the pieces are the equal ones.
    assert split_axis(190.0, 105.0, 10.0, [80.0, 100.0]) == ((0.0, 100.0), (90.0, 190.0))
    assert split_axis(190.0, 105.0, 10.0, [80.0, 86.0, 100.0]) == ((0.0, 96.0), (86.0, 190.0))


def test_too_little_room_for_the_overlap_is_refused() -> None:
    with pytest.raises(ValueError, match="cannot hold an overlap"):
        split_axis(300.0, 10.0, 10.0)


@given(length=st.floats(1.0, 3000.0), room=st.floats(12.0, 400.0),
       overlap=st.floats(0.0, 11.0),
       stops=st.lists(st.floats(0.0, 3000.0), max_size=30))
def test_pieces_fit_cover_and_overlap_exactly(length: float, room: float, overlap: float,
                                             stops: list[float]) -> None:
    pieces = split_axis(length, room, overlap, stops)
    assert pieces[0][0] == 0.0 and pieces[-1][1] == length
    for start, end in pieces:
        assert end - start <= room + 1e-6
    for (start, end), (next_start, _next_end) in itertools.pairwise(pieces):
        assert end - next_start == pytest.approx(overlap, abs=1e-9)
        assert next_start > start
    # The fewest pieces: one fewer could not reach the end.
    fewer = len(pieces) - 1
    assert fewer * room - max(fewer - 1, 0) * overlap < length + 1e-6


# --- split_drawing --------------------------------------------------------------------


def test_parts_row_by_row_with_glue_strips_right_and_below() -> None:
    split = split_drawing(286.0, 286.0, 193.0, 262.0 - 124.0)
    assert (split.columns, split.rows) == (2, 3)
    assert [(p.number, p.column, p.row) for p in split.parts] == [
        (1, 0, 0), (2, 1, 0), (3, 0, 1), (4, 1, 1), (5, 0, 2), (6, 1, 2)]
    first = split.part(0, 0)
    assert [strip.under for strip in first.glue] == [2, 3]
    right, below = first.glue
    assert right.box == Box(first.window.x1 - OVERLAP, first.window.y0, first.window.x1,
                            first.window.y1)
    assert below.box == Box(first.window.x0, first.window.y1 - OVERLAP, first.window.x1,
                            first.window.y1)
    assert split.part(1, 2).glue == ()
    assert [strip.under for strip in split.part(1, 0).glue] == [4]  # below only
    assert [strip.under for strip in split.part(0, 2).glue] == [6]  # right only


def test_neighbours_share_exactly_their_glue_strip() -> None:
    split = split_drawing(286.0, 286.0, 193.0, 193.0)
    for part in split.parts:
        for strip in part.glue:
            over = split.parts[strip.under - 1]
            shared = Box(max(part.window.x0, over.window.x0), max(part.window.y0, over.window.y0),
                         min(part.window.x1, over.window.x1), min(part.window.y1, over.window.y1))
            assert shared == strip.box
            assert min(shared.width, shared.height) == pytest.approx(OVERLAP)


def test_alignment_marks_on_the_seams_at_the_same_coordinates_on_both_parts() -> None:
    split = split_drawing(286.0, 286.0, 193.0, 193.0, stops_x=[128.0], stops_y=[128.0])
    assert len(split.marks) == 2 * 4  # two crosses on each of the four seams
    for mark in split.marks:
        under, over = (split.parts[n - 1] for n in mark.parts)
        holding = [p.number for p in split.parts if p.window.contains(mark.x, mark.y)]
        assert holding == sorted(mark.parts)  # on both parts of its seam, on no other
        # On the seam: the over part's edge, where the under part's strip begins.
        strip = next(s for s in under.glue if s.under == over.number)
        if over.column != under.column:
            assert mark.x == over.window.x0 == strip.box.x0
        else:
            assert mark.y == over.window.y0 == strip.box.y0


# --- pages ----------------------------------------------------------------------------


def _big_drawing(width: float, height: float) -> Drawing:
    """Vertical lines every 10 mm: positions are easy to find again in the PDF."""
    lines = tuple(Line(float(x), 0.0, float(x), height, "#000000", 0.3)
                  for x in range(10, int(width), 10))
    return Drawing(width, height, (Rect(0.0, 0.0, width, height, fill="#ffffff"), *lines))


@pytest.fixture(scope="module", params=["a4", "letter"])
def plan(request: pytest.FixtureRequest) -> BoardPlan:
    return plan_board(load_layout(request.param), _big_drawing(286.0, 286.0),
                      "Game — board 9 x 9", stops_x=[128.0], stops_y=[128.0])


def test_labels_name_each_part_and_its_place(plan: BoardPlan) -> None:
    assert [page.label for page in plan.pages] == [
        "Game — board 9 x 9, part 1 of 4 (row 1, column 1)",
        "Game — board 9 x 9, part 2 of 4 (row 1, column 2)",
        "Game — board 9 x 9, part 3 of 4 (row 2, column 1)",
        "Game — board 9 x 9, part 4 of 4 (row 2, column 2)",
    ]
    single = plan_board(plan.layout, _big_drawing(150.0, 150.0), "Game — board 5 x 5")
    assert [page.label for page in single.pages] == ["Game — board 5 x 5"]


def test_every_page_stays_inside_the_printable_area(plan: BoardPlan) -> None:
    layout = plan.layout
    printable = Box(layout.margin, layout.margin, layout.paper_width - layout.margin,
                    layout.paper_height - layout.margin)
    room = room_for_parts(layout)
    for page in plan.pages:
        window = page.part.window
        placed = Box(page.x, page.y, page.x + window.width, page.y + window.height)
        assert room.x0 - 1e-9 <= placed.x0 and placed.x1 <= room.x1 + 1e-9
        assert room.y0 - 1e-9 <= placed.y0 and placed.y1 <= room.y1 + 1e-9
        for item in page.marks.items:
            box = item_bounds(item)
            assert printable.x0 - 1e-6 <= box.x0 and box.x1 <= printable.x1 + 1e-6, item
            assert printable.y0 - 1e-6 <= box.y0 and box.y1 <= printable.y1 + 1e-6, item


def test_header_text_clear_of_the_assembly_map(plan: BoardPlan) -> None:
    for page in plan.pages:
        header = [item for item in page.marks.items
                  if item_bounds(item).y1 <= plan.layout.margin + HEADER_BAND]
        texts = [item_bounds(i) for i in header if isinstance(i, Text) and i.anchor == "start"]
        cells = [item_bounds(i) for i in header if isinstance(i, Rect)]
        assert len(cells) == len(plan.pages) and texts
        assert max(t.x1 for t in texts) < min(c.x0 for c in cells)


def test_crosses_printed_at_the_same_board_point_on_both_parts(plan: BoardPlan) -> None:
    for mark in plan.split.marks:
        for number in mark.parts:
            page = plan.pages[number - 1]
            x, y = page.to_page(mark.x, mark.y)
            assert Circle(x, y, pytest.approx(2.5), stroke="#000000",  # type: ignore[arg-type]
                          stroke_width=0.2) in page.marks.items
        for other in plan.pages:
            if other.part.number not in mark.parts:
                x, y = other.to_page(mark.x, mark.y)
                assert not any(isinstance(i, Circle) and (i.cx, i.cy) == (x, y)
                               for i in other.marks.items)


def test_glue_strips_hatched_and_labelled(plan: BoardPlan) -> None:
    first = plan.pages[0]
    words = [i for i in first.marks.items if isinstance(i, Group | Text)
             and "glue part" in _text_of(i)]
    assert sorted(_text_of(w) for w in words) == ["glue part 2 here", "glue part 3 here"]
    strip = first.part.glue[0].box
    x0, y0 = first.to_page(strip.x0, strip.y0)
    x1, _y1 = first.to_page(strip.x1, strip.y1)
    hatch = [i for i in first.marks.items if isinstance(i, Line) and i.stroke == "#a0a0a0"
             and x0 - 1e-6 <= min(i.x1, i.x2) and max(i.x1, i.x2) <= x1 + 1e-6
             and min(i.y1, i.y2) >= y0 - 1e-6]
    assert len(hatch) > 20


def _text_of(item: Primitive) -> str:
    if isinstance(item, Text):
        return item.text
    if isinstance(item, Group):
        return "".join(_text_of(child) for child in item.items)
    return ""


# --- PDF ------------------------------------------------------------------------------

def replay(reader: PdfReader, page_number: int) -> tuple[list[tuple[float, float, float, float]],
                                                       list[Box]]:
    """Every stroked straight segment of the page (x1, y1, x2, y2) and every clipping
    rectangle, in millimetres from the page's top-left (y down), as a viewer places them."""
    page = reader.pages[page_number]
    height = float(page.mediabox.height)
    ctm: Matrix = (1, 0, 0, 1, 0, 0)
    stack: list[Matrix] = []
    path: list[tuple[float, float]] = []
    segments: list[tuple[tuple[float, float], tuple[float, float]]] = []
    rect: Box | None = None
    lines: list[tuple[float, float, float, float]] = []
    clips: list[Box] = []

    def place(x: float, y: float) -> tuple[float, float]:
        a, b, c, d, e, f = ctm
        px, py = a * x + c * y + e, b * x + d * y + f
        return px / PT_PER_MM, (height - py) / PT_PER_MM

    content: Any = ContentStream(page.get_contents(), reader)
    for operands, operator in content.operations:
        if operator == b"q":
            stack.append(ctm)
        elif operator == b"Q":
            ctm = stack.pop()
        elif operator == b"cm":
            ctm = _multiply(tuple(float(v) for v in operands), ctm)  # type: ignore[arg-type]
        elif operator == b"m":
            path = [place(float(operands[0]), float(operands[1]))]
        elif operator == b"l":
            point = place(float(operands[0]), float(operands[1]))
            segments.append((path[-1], point))
            path.append(point)
        elif operator == b"re":
            x, y, w, h = (float(v) for v in operands)
            (x0, y0), (x1, y1) = place(x, y), place(x + w, y + h)
            rect = Box(min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1))
        elif operator in (b"W", b"W*") and rect is not None:
            clips.append(rect)
        elif operator == b"S":
            lines += [(*start, *end) for start, end in segments]
            segments, rect = [], None
        elif operator in (b"n", b"f", b"f*", b"B", b"b"):
            segments, rect = [], None
    return lines, clips


@pytest.fixture(scope="module")
def pdf(plan: BoardPlan) -> bytes:
    return render_board_pdf([plan], INFO)


def test_pdf_has_a_page_per_part_and_is_reproducible(plan: BoardPlan, pdf: bytes) -> None:
    assert len(PdfReader(io.BytesIO(pdf)).pages) == len(plan.pages)
    assert render_board_pdf([plan], INFO) == pdf


def test_pdf_places_the_drawing_at_true_size(plan: BoardPlan, pdf: bytes) -> None:
    """The drawing's vertical lines come out on each page where the plan puts them,
    10.00 mm apart, clipped to the part's window."""
    reader = PdfReader(io.BytesIO(pdf))
    for number, page in enumerate(plan.pages):
        lines, clips = replay(reader, number)
        window = page.part.window
        assert Box(*page.to_page(window.x0, window.y0),
                   *page.to_page(window.x1, window.y1)) == pytest.approx(clips[0])
        found = sorted(x1 for x1, y1, x2, y2 in lines
                       if x1 == pytest.approx(x2, abs=1e-6) and abs(abs(y2 - y1) - 286.0) < 1e-3)
        expected = [page.to_page(float(x), 0.0)[0] for x in range(10, 286, 10)]
        assert found == pytest.approx(expected, abs=1e-3)
        gaps = [b - a for a, b in itertools.pairwise(found)]
        assert all(math.isclose(g, 10.0, abs_tol=0.01) for g in gaps)


def test_pdf_metadata_and_only_embedded_fonts(pdf: bytes) -> None:
    reader = PdfReader(io.BytesIO(pdf))
    assert reader.metadata is not None
    assert reader.metadata.title == INFO.title
    assert reader.metadata.author == INFO.author
    pages: Any = reader.pages
    for page in pages:
        fonts: Any = page["/Resources"].get_object().get("/Font", {})
        for ref in fonts.values():
            font = ref.get_object()
            name = str(font["/BaseFont"]).lstrip("/")
            assert not any(name.startswith(base) for base in STANDARD_14), name
            descendants = font.get("/DescendantFonts")
            descriptor = (descendants[0].get_object() if descendants else font)["/FontDescriptor"]
            assert "/FontFile2" in descriptor.get_object()


def test_boards_of_one_pdf_share_a_layout(plan: BoardPlan) -> None:
    other = plan_board(load_layout("letter" if plan.layout.name == "a4" else "a4"),
                       _big_drawing(150.0, 150.0), "Other")
    with pytest.raises(ValueError, match="same page layout"):
        render_board_pdf([plan, other], INFO)


def test_board_pdf_asks_for_actual_size_single_sided(pdf: bytes) -> None:
    root: Any = PdfReader(io.BytesIO(pdf)).trailer["/Root"]
    preferences = {str(k): str(v) for k, v in root["/ViewerPreferences"].items()}
    assert preferences == {"/PrintScaling": "/None", "/Duplex": "/Simplex"}


def test_a_scaled_board_measures_true_size_after_the_printer_s_shrink(plan: BoardPlan) -> None:
    """With --scale 97, the 10 mm squares are 10 / 0.97 mm apart in the file: 10.00 mm
    once the printer has shrunk the page to 97 %."""
    reader = PdfReader(io.BytesIO(render_board_pdf([plan], INFO, scale=(97.0, 97.0))))
    lines, _clips = replay(reader, 0)
    found = sorted(x1 for x1, y1, x2, y2 in lines
                   if x1 == pytest.approx(x2, abs=1e-6)
                   and abs(abs(y2 - y1) * 0.97 - 286.0) < 1e-3)
    gaps = [(b - a) * 0.97 for a, b in itertools.pairwise(found)]
    assert len(gaps) > 5 and all(math.isclose(g, 10.0, abs_tol=0.01) for g in gaps)


def test_page_boxes_are_each_part_s_cut_rectangle(plan: BoardPlan, pdf: bytes) -> None:
    """In a build with bleed every sheet PDF has trim and bleed boxes on every page (a
    board's pages had none): the part's window, where the PDF clips it, and no bleed."""
    reader = PdfReader(io.BytesIO(render_board_pdf([plan], INFO, page_boxes=True)))
    for number, page in enumerate(reader.pages):
        _lines, clips = replay(reader, number)
        height = float(page.mediabox.height)
        x0, y0, x1, y1 = (float(v) for v in page.trimbox)
        trim = Box(x0 / PT_PER_MM, (height - y1) / PT_PER_MM, x1 / PT_PER_MM,
                   (height - y0) / PT_PER_MM)
        assert trim == pytest.approx(clips[0], abs=0.01)
        assert "/BleedBox" in page and [float(v) for v in page.bleedbox] == [x0, y0, x1, y1]
    assert all("/TrimBox" not in page for page in PdfReader(io.BytesIO(pdf)).pages)


@pytest.mark.parametrize("side_mm", [100.0, 400.0])  # one part; several, with the map
def test_a_long_set_name_stays_inside_the_header_and_the_footer(side_mm: float) -> None:
    """A 107-character set name ran its bold header from the margin to 686 pt on a
    595 pt page, over the assembly map, losing "— board 5 x 5"."""
    from micropul_print.backends.fonts import text_width
    from micropul_print.sheets.board import _page_marks

    layout = load_layout("a4")
    name = ("Cellulae, Variante mit besonders langem Namen für den Spieleabend im "
            "Gemeindehaus Sankt Georg, Herbst 2026 — board 9 x 9")
    drawing = Drawing(side_mm, side_mm, (Rect(0, 0, side_mm, side_mm),))
    plan = plan_board(layout, drawing, name)
    for page in plan.pages:
        marks = _page_marks(layout, plan.split, page)
        texts = [item for item in marks.items if isinstance(item, Text)]
        header = next(t for t in texts if t.weight == "bold" and t.anchor == "start")
        map_cells = [item for item in marks.items if isinstance(item, Rect)
                     and item.y < layout.margin + HEADER_BAND]
        right = min((cell.x for cell in map_cells), default=layout.paper_width - layout.margin)
        assert header.x + text_width(header.text, header.size, "bold") <= right
        assert header.text.endswith(page.label[-12:])  # the part's own words kept
        footer = max(texts, key=lambda t: t.y)
        width = text_width(footer.text, footer.size)
        assert layout.margin <= footer.x - width / 2
        assert footer.x + width / 2 <= layout.paper_width - layout.margin
