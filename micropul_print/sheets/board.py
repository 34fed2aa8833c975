"""A drawing larger than the paper (a game board) printed at its true size on several
pages that are cut out and glued together.

The drawing is split into a grid of parts of equal size; neighbouring parts share a
strip ``overlap`` mm wide. On the part to the left of (or above) a seam that strip is
hatched "glue here"; the part to the right (or below) shows it as drawing and is laid
over it. Alignment crosses are printed at the same drawing coordinates on both parts,
centred on the seam: once glued, the half left visible on the lower part continues the
half on the upper part. Each page carries its part's name, an assembly map and crop
marks on the part's edges, so every part is cut to exactly its rectangle.

:func:`split_drawing` is the pure geometry (drawing size in, parts out);
:func:`plan_board` lays the parts on pages of a layout; :func:`render_board_pdf` writes
them. Nothing here knows what the drawing shows: all lengths are millimetres, origin
at the top-left, y downward.
"""

from __future__ import annotations

import io
import math
from collections.abc import Sequence
from typing import NamedTuple

from micropul_print.backends.fonts import CAP_HEIGHT, fit_line
from micropul_print.draw.bounds import Box as Box  # where boards (its first users) found it
from micropul_print.draw.face import mark_items
from micropul_print.draw.primitives import Circle, Drawing, Group, Line, Primitive, Rect, Text
from micropul_print.draw.theme import Hatch, MarkStyle
from micropul_print.sheets.layout import SheetLayout
from micropul_print.sheets.pages import SMALLEST_FOOTER, fitted_footer
from micropul_print.sheets.pdf import DocumentInfo

OVERLAP = 10.0  # width of the glue strip shared by neighbouring parts, mm
HEADER_BAND = 14.0  # above the part: its name, the instruction and the assembly map, mm
INK = "#000000"
LABEL_SIZE = 4.2
NOTE_SIZE = 2.8
NOTE_COLOUR = "#333333"
CUT_LINE_COLOUR = "#b0b0b0"
CUT_LINE_WIDTH = 0.1
GLUE = MarkStyle(shape="square", fill="#ececec",
                 hatch=Hatch(spacing=2.5, width=0.2, angle=45.0, colour="#a0a0a0"))
GLUE_TEXT_SIZE = 3.0
GLUE_TEXT_COLOUR = "#555555"
CROSS_ARM = 4.0  # half the length of each arm of an alignment cross, mm
CROSS_RADIUS = 2.5
CROSS_WIDTH = 0.2
MAP_CELL = 6.0  # largest side of a cell of the assembly map, mm
MAP_WIDTH = 40.0  # the map never takes more than this much of the header, mm
MAP_GAP = 3.0  # between the part's name and the assembly map, mm

_EPS = 1e-9


class GlueStrip(NamedTuple):
    box: Box  # in drawing coordinates
    under: int  # the number of the part glued over it


class AlignmentMark(NamedTuple):
    """A cross at (x, y) in drawing coordinates, printed on both parts of a seam."""

    x: float
    y: float
    parts: tuple[int, int]  # the part under the seam's strip, then the part laid over it


class BoardPart(NamedTuple):
    number: int  # 1-based, row by row from the top-left
    column: int  # 0-based
    row: int
    window: Box  # the part of the drawing this page shows
    glue: tuple[GlueStrip, ...]  # strips of this part that neighbours cover


class BoardSplit(NamedTuple):
    width: float  # the whole drawing
    height: float
    overlap: float
    columns: int
    rows: int
    parts: tuple[BoardPart, ...]
    marks: tuple[AlignmentMark, ...]

    def part(self, column: int, row: int) -> BoardPart:
        return self.parts[row * self.columns + column]


def split_axis(length: float, room: float, overlap: float,
               stops: Sequence[float] = ()) -> tuple[tuple[float, float], ...]:
    """Cut ``[0, length]`` into the fewest pieces no longer than ``room`` where
    neighbours share ``overlap``: (start, end) of each piece.

    Without ``stops`` the pieces are equal: n * size - (n - 1) * overlap = length. Each
    seam (the start of a piece but the first, where the next piece's edge will lie) moves
    to the nearest of ``stops`` that still lets every piece fit, so seams can follow
    lines of the drawing (a board's grid) instead of crossing its squares."""
    if length <= 0 or room <= 0 or overlap < 0:
        raise ValueError("length and room must be positive, overlap not negative")
    if length <= room + _EPS:
        return ((0.0, float(length)),)
    if room <= overlap:
        raise ValueError(f"a piece of {room:g} mm cannot hold an overlap of {overlap:g} mm")
    count = math.ceil((length - overlap) / (room - overlap) - _EPS)
    step = (length - overlap) / count
    seams = [0.0]
    for k in range(1, count):
        previous, left = seams[-1], count - k  # pieces still to come after this seam

        def fits(seam: float, previous: float = previous, left: int = left) -> bool:
            return (previous < seam and seam + overlap - previous <= room + _EPS
                    and length - seam <= left * room - (left - 1) * overlap + _EPS)

        ideal = k * step
        usable = [stop for stop in stops if fits(stop)]
        if usable:
            seams.append(min(usable, key=lambda stop: (abs(stop - ideal), stop)))
            continue
        # No stop fits: the ideal seam, kept between the first seam that leaves the rest
        # coverable and the last one this piece can reach (never before the previous).
        earliest = length - (left * room - (left - 1) * overlap)
        latest = previous + room - overlap
        seam = min(max(ideal, earliest), latest)
        seams.append(seam if seam > previous else latest)
    ends = [seam + overlap for seam in seams[1:]] + [length]
    return tuple((float(start), float(end)) for start, end in zip(seams, ends, strict=True))


def split_drawing(width: float, height: float, room_width: float, room_height: float,
                  overlap: float = OVERLAP, *, stops_x: Sequence[float] = (),
                  stops_y: Sequence[float] = ()) -> BoardSplit:
    """The parts of a ``width`` x ``height`` drawing, each fitting ``room_width`` x
    ``room_height``, with glue strips and alignment crosses on every seam; seams follow
    ``stops_x`` and ``stops_y`` where they can (see split_axis)."""
    xs = split_axis(width, room_width, overlap, stops_x)
    ys = split_axis(height, room_height, overlap, stops_y)
    columns, rows = len(xs), len(ys)
    parts: list[BoardPart] = []
    for row, (y0, y1) in enumerate(ys):
        for column, (x0, x1) in enumerate(xs):
            number = row * columns + column + 1
            glue: list[GlueStrip] = []
            if column + 1 < columns:
                glue.append(GlueStrip(Box(x1 - overlap, y0, x1, y1), number + 1))
            if row + 1 < rows:
                glue.append(GlueStrip(Box(x0, y1 - overlap, x1, y1), number + columns))
            parts.append(BoardPart(number, column, row, Box(x0, y0, x1, y1), tuple(glue)))
    marks: list[AlignmentMark] = []
    for row, (y0, y1) in enumerate(ys):  # vertical seams: the left edge of the next column
        low, high = y0 + (overlap if row else 0.0), y1 - (overlap if row + 1 < rows else 0.0)
        for column in range(columns - 1):
            seam = xs[column + 1][0]
            number = row * columns + column + 1
            marks += [AlignmentMark(seam, y, (number, number + 1)) for y in _spots(low, high)]
    for column, (x0, x1) in enumerate(xs):  # horizontal seams: the top edge of the next row
        low, high = x0 + (overlap if column else 0.0), x1 - (overlap if column + 1 < columns
                                                             else 0.0)
        for row in range(rows - 1):
            seam = ys[row + 1][0]
            number = row * columns + column + 1
            marks += [AlignmentMark(x, seam, (number, number + columns))
                      for x in _spots(low, high)]
    return BoardSplit(width, height, overlap, columns, rows, tuple(parts), tuple(marks))


def _spots(low: float, high: float) -> tuple[float, float]:
    """Two places along a seam, a quarter from each end of the stretch no other seam's
    strip crosses: far enough apart to show a twist."""
    return (low + (high - low) / 4, high - (high - low) / 4)


# --- pages ----------------------------------------------------------------------------


class BoardPage(NamedTuple):
    part: BoardPart
    x: float  # where the window's top-left lies on the page, mm
    y: float
    label: str
    marks: Drawing  # page-sized, painted over the part: glue strips, crosses, texts

    def to_page(self, x: float, y: float) -> tuple[float, float]:
        """Page position of the drawing point (x, y)."""
        return self.x + x - self.part.window.x0, self.y + y - self.part.window.y0


class BoardPlan(NamedTuple):
    layout: SheetLayout
    drawing: Drawing
    split: BoardSplit
    pages: tuple[BoardPage, ...]


def room_for_parts(layout: SheetLayout) -> Box:
    """Where the parts may lie on the page: inside the margin, below the header band,
    above the footer band, with room outside for the crop marks."""
    marks = layout.crop_marks.offset + layout.crop_marks.min_length
    return Box(layout.margin + marks, layout.margin + HEADER_BAND + marks,
               layout.paper_width - layout.margin - marks,
               layout.paper_height - layout.margin - layout.footer_band - marks)


def plan_board(layout: SheetLayout, drawing: Drawing, title: str, *,
               overlap: float = OVERLAP, stops_x: Sequence[float] = (),
               stops_y: Sequence[float] = ()) -> BoardPlan:
    """The pages printing ``drawing`` at its true size on ``layout`` paper; ``title``
    names the drawing on every page (e.g. "<game> — board 9 × 9"). Seams follow
    ``stops_x`` / ``stops_y`` (x and y of the drawing's lines) where they can."""
    room = room_for_parts(layout)
    split = split_drawing(drawing.width, drawing.height, room.width, room.height, overlap,
                          stops_x=stops_x, stops_y=stops_y)
    pages = []
    total = len(split.parts)
    for part in split.parts:
        x = (layout.paper_width - part.window.width) / 2
        y = room.y0 + (room.height - part.window.height) / 2
        if total == 1:
            label = title
        else:
            label = (f"{title}, part {part.number} of {total} "
                     f"(row {part.row + 1}, column {part.column + 1})")
        page = BoardPage(part, x, y, label, Drawing(layout.paper_width, layout.paper_height))
        pages.append(page._replace(marks=_page_marks(layout, split, page)))
    return BoardPlan(layout, drawing, split, tuple(pages))


def window_drawing(drawing: Drawing, window: Box) -> Drawing:
    """The part of ``drawing`` inside ``window``, as a drawing of the window's size
    (the backends clip a placed drawing to its size)."""
    return Drawing(window.width, window.height,
                   (Group(drawing.items, dx=-window.x0, dy=-window.y0),))


def _page_marks(layout: SheetLayout, split: BoardSplit, page: BoardPage) -> Drawing:
    part = page.part
    items: list[Primitive] = []
    for strip in part.glue:
        items += _glue_items(page, strip)
    px0, py0 = page.to_page(part.window.x0, part.window.y0)
    px1, py1 = page.to_page(part.window.x1, part.window.y1)
    if layout.cut_lines:  # along the edges cut through the drawing (the seams)
        if part.column:
            items.append(Line(px0, py0, px0, py1, CUT_LINE_COLOUR, CUT_LINE_WIDTH))
        if part.column + 1 < split.columns:
            items.append(Line(px1, py0, px1, py1, CUT_LINE_COLOUR, CUT_LINE_WIDTH))
        if part.row:
            items.append(Line(px0, py0, px1, py0, CUT_LINE_COLOUR, CUT_LINE_WIDTH))
        if part.row + 1 < split.rows:
            items.append(Line(px0, py1, px1, py1, CUT_LINE_COLOUR, CUT_LINE_WIDTH))
    items += _crop_marks(layout, Box(px0, py0, px1, py1))
    for mark in split.marks:
        if part.number in mark.parts:
            items += _cross(*page.to_page(mark.x, mark.y))
    items += _header(layout, split, page)
    baseline = layout.paper_height - layout.margin - (layout.footer_band - layout.footer_size) / 2
    x, label, size = fitted_footer(layout, page.label)
    items.append(Text(x, baseline, label, size, NOTE_COLOUR))
    return Drawing(layout.paper_width, layout.paper_height, tuple(items))


def _glue_items(page: BoardPage, strip: GlueStrip) -> list[Primitive]:
    x0, y0 = page.to_page(strip.box.x0, strip.box.y0)
    x1, y1 = page.to_page(strip.box.x1, strip.box.y1)
    items = mark_items(GLUE, x0, y0, x1 - x0, y1 - y0)
    text = f"glue part {strip.under} here"
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    baseline = cy + CAP_HEIGHT * GLUE_TEXT_SIZE / 2
    words = Text(cx, baseline, text, GLUE_TEXT_SIZE, GLUE_TEXT_COLOUR, weight="bold")
    if y1 - y0 > x1 - x0:  # an upright strip: the words run down it
        items.append(Group((words,), rotate=90, rotate_cx=cx, rotate_cy=cy))
    else:
        items.append(words)
    return items


def _crop_marks(layout: SheetLayout, box: Box) -> list[Primitive]:
    """Two short marks off each corner of the part, on the lines of its edges."""
    gap, length, width = layout.crop_marks
    items: list[Primitive] = []
    for x in (box.x0, box.x1):
        items.append(Line(x, box.y0 - gap - length, x, box.y0 - gap, INK, width))
        items.append(Line(x, box.y1 + gap, x, box.y1 + gap + length, INK, width))
    for y in (box.y0, box.y1):
        items.append(Line(box.x0 - gap - length, y, box.x0 - gap, y, INK, width))
        items.append(Line(box.x1 + gap, y, box.x1 + gap + length, y, INK, width))
    return items


def _cross(x: float, y: float) -> list[Primitive]:
    return [
        Line(x - CROSS_ARM, y, x + CROSS_ARM, y, INK, CROSS_WIDTH),
        Line(x, y - CROSS_ARM, x, y + CROSS_ARM, INK, CROSS_WIDTH),
        Circle(x, y, CROSS_RADIUS, stroke=INK, stroke_width=CROSS_WIDTH),
    ]


def _header(layout: SheetLayout, split: BoardSplit, page: BoardPage) -> list[Primitive]:
    """The part's name and what to do with it, and (for several parts) the assembly map
    with this part filled in."""
    left, top = layout.margin, layout.margin
    if len(split.parts) == 1:
        note = "Cut along the crop marks, or play on the sheet as it is."
    else:
        note = ("Cut each part along its crop marks. Glue it over the hatched strips "
                "of its neighbours, the halves of each cross meeting.")
    right = layout.paper_width - layout.margin
    if len(split.parts) > 1:
        cell = min(MAP_CELL, (HEADER_BAND - 2.0) / split.rows, MAP_WIDTH / split.columns)
        inset = 0.5  # keeps the cells' outlines inside the margin
        map_left = layout.paper_width - layout.margin - inset - split.columns * cell
        right = map_left - MAP_GAP
    # A long set name is set smaller, then shortened: it ran off the page.
    label, label_size = fit_line(page.label, LABEL_SIZE, right - left,
                                 smallest=LABEL_SIZE * SMALLEST_FOOTER, weight="bold")
    items: list[Primitive] = [
        Text(left, top + 5.0, label, label_size, INK, anchor="start", weight="bold"),
        Text(left, top + 10.5, note, NOTE_SIZE, NOTE_COLOUR, anchor="start"),
    ]
    if len(split.parts) > 1:
        size = cell * 0.55
        for other in split.parts:
            x, y = map_left + other.column * cell, top + inset + other.row * cell
            here = other.number == page.part.number
            items.append(Rect(x, y, cell, cell, fill=INK if here else "#ffffff", stroke=INK,
                              stroke_width=0.2))
            items.append(Text(x + cell / 2, y + cell / 2 + CAP_HEIGHT * size / 2,
                              str(other.number), size, "#ffffff" if here else INK,
                              weight="bold"))
    return items


# --- PDF ------------------------------------------------------------------------------


def render_board_pdf(plans: Sequence[BoardPlan], info: DocumentInfo, *,
                     scale: tuple[float, float] = (100.0, 100.0),
                     page_boxes: bool = False) -> bytes:
    """The pages of one or more board plans (all on the same paper) as PDF bytes:
    reproducible, Lato only, each part clipped to its window; enlarged for a printer
    printing at ``scale`` per cent (sheets.pdf.scale_page). ``page_boxes``: each page's
    /TrimBox is its part's cut rectangle, its /BleedBox the same (a board has no bleed),
    as the tile sheets of a build with bleed have them."""
    from micropul_print.backends import pdf as backend
    from micropul_print.sheets.pdf import (
        document_canvas,
        draw_clipped,
        scale_page,
        set_page_boxes,
    )

    if not plans:
        raise ValueError("no board to render")
    layout = plans[0].layout
    page_h = layout.paper_height
    buffer = io.BytesIO()
    canvas = document_canvas(buffer, layout, info, duplex=None)  # boards: one side only
    for plan in plans:
        if plan.layout != layout:
            raise ValueError("every board of one PDF must use the same page layout")
        for page in plan.pages:
            window = page.part.window
            scaled = scale_page(canvas, layout, scale)
            draw_clipped(canvas, window_drawing(plan.drawing, window), page.x, page.y, page_h)
            backend.draw(canvas, page.marks, 0.0, 0.0)
            if scaled:
                canvas.restoreState()
            if page_boxes:
                cut = Box(page.x, page.y, page.x + window.width, page.y + window.height)
                set_page_boxes(canvas, layout.paper_width, page_h, cut, 0.0, scale)
            canvas.showPage()
    canvas.save()
    return buffer.getvalue()
