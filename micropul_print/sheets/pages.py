"""The pages of a duplex card sheet, planned as pure data: which drawing goes where, and
the page's own marks as drawing primitives.

Pages alternate front, back, front, back..., so that a printer printing double-sided
puts every back page behind the front before it. The optional calibration page comes
first, with its own back, and keeps that order. Cards are (front, back) pairs of one
cut size; tokens are extra pieces (each also with a back) laid into free slots of the
last front page, or onto a page of their own. Nothing here knows what a card shows.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal, NamedTuple

from micropul_print.draw.primitives import Drawing, Line, Primitive, Text
from micropul_print.sheets.calibration import calibration_back, calibration_front
from micropul_print.sheets.duplex import Flip, back_slot
from micropul_print.sheets.layout import Grid, SheetLayout, plan_grid

Side = Literal["front", "back"]

MARK_COLOUR = "#000000"
CUT_LINE_COLOUR = "#b0b0b0"
CUT_LINE_WIDTH = 0.1
FOOTER_COLOUR = "#555555"


class Card(NamedTuple):
    """A two-sided piece. ``back`` None leaves the back blank."""

    front: Drawing
    back: Drawing | None = None


class SheetOptions(NamedTuple):
    bleed: float = 0.0  # art beyond the cut line, mm; the drawings must include it
    flip: Flip = "long"  # which edge the printer turns the sheet over
    back_offset: tuple[float, float] = (0.0, 0.0)  # printer drift correction, mm
    calibration: bool = True  # lead with the calibration page and its back
    # The printer's scale, per cent across and down the page, that the PDF enlarges
    # every page to make up for (sheets/pdf.py); the calibration page reads it.
    scale: tuple[float, float] = (100.0, 100.0)


DEFAULT_OPTIONS = SheetOptions()


class Placement(NamedTuple):
    """A drawing with its top-left corner at (x, y) mm on the page, clipped to its size."""

    drawing: Drawing
    x: float
    y: float


class Page(NamedTuple):
    side: Side
    label: str  # the footer line
    placements: tuple[Placement, ...]  # painted first, in order
    marks: Drawing  # page-sized, painted over the placements: marks, footer, calibration art


class SheetPlan(NamedTuple):
    layout: SheetLayout
    grid: Grid
    options: SheetOptions
    pages: tuple[Page, ...]

    @property
    def card_pages(self) -> int:
        """Front/back page pairs holding cards or tokens (the calibration page excluded)."""
        return sum(1 for p in self.pages if p.side == "front") - int(self.options.calibration)


def plan_sheets(layout: SheetLayout, cards: Sequence[Card], card_width: float,
                card_height: float, title: str, *, tokens: Sequence[Card] = (),
                options: SheetOptions = DEFAULT_OPTIONS) -> SheetPlan:
    """Lay ``cards`` (drawings of card size plus the bleed on every side) and ``tokens``
    (drawings no larger than that) onto duplex pages of ``layout``."""
    bleed = options.bleed
    cell_w, cell_h = card_width + 2 * bleed, card_height + 2 * bleed
    for n, card in enumerate(cards):
        for face in (card.front, card.back):
            if face is None:
                continue
            if not (_close(face.width, cell_w) and _close(face.height, cell_h)):
                raise ValueError(f"card {n}: drawing is {face.width} x {face.height} mm, "
                                 f"expected {cell_w} x {cell_h} (cut size plus bleed)")
    for n, token in enumerate(tokens):
        for face in (token.front, token.back):
            if face is not None and (face.width > cell_w + 1e-9 or face.height > cell_h + 1e-9):
                raise ValueError(f"token {n} is larger than a card slot")

    grid = plan_grid(layout, card_width, card_height, bleed)
    per_page = grid.capacity
    # Slot contents per card page: a card fills its slot, a token is centred in it.
    sheets: list[list[tuple[int, Card, bool]]] = [
        [(i % per_page, card, False) for i, card in enumerate(cards[start:start + per_page],
                                                               start)]
        for start in range(0, len(cards), per_page)
    ]
    if tokens:
        used = len(sheets[-1]) if sheets else per_page
        if not sheets or per_page - used < len(tokens):
            sheets.append([])
            used = 0
        if per_page - used < len(tokens):
            raise ValueError(f"{len(tokens)} tokens do not fit on one page of {per_page} slots")
        sheets[-1].extend((used + k, token, True) for k, token in enumerate(tokens))

    pages: list[Page] = []
    if options.calibration:
        pages.append(Page("front", f"{title} — calibration page, front", (),
                          _with_footer(calibration_front(layout, options.flip,
                                                         options.back_offset, options.scale),
                                       layout, f"{title} — calibration page, front")))
        pages.append(Page("back", f"{title} — calibration page, back", (),
                          _with_footer(calibration_back(layout, options.flip, options.back_offset),
                                       layout, f"{title} — calibration page, back")))
    total = len(sheets)
    for number, content in enumerate(sheets, 1):
        rows_used = max(slot for slot, _piece, _token in content) // grid.columns + 1
        fronts: list[Placement] = []
        backs: list[Placement] = []
        for slot, piece, is_token in content:
            column, row = grid.slot(slot)
            fronts.append(_place(grid, piece.front, column, row, is_token, (0.0, 0.0)))
            if piece.back is not None:
                back_column, back_row = back_slot(column, row, grid.columns, grid.rows,
                                                  options.flip)
                backs.append(_place(grid, piece.back, back_column, back_row, is_token,
                                    options.back_offset))
        front_label = f"{title} — fronts, page {number}/{total}"
        back_label = f"{title} — backs, page {number}/{total}"
        pages.append(Page("front", front_label, tuple(fronts),
                          _with_footer(_grid_marks(layout, grid, rows_used), layout,
                                       front_label)))
        pages.append(Page("back", back_label, tuple(backs),
                          _with_footer(Drawing(layout.paper_width, layout.paper_height),
                                       layout, back_label)))
    return SheetPlan(layout, grid, options, tuple(pages))


def _close(a: float, b: float) -> bool:
    return abs(a - b) < 1e-6


def _place(grid: Grid, drawing: Drawing, column: int, row: int, centred: bool,
           offset: tuple[float, float]) -> Placement:
    x, y = grid.cut_origin(column, row)
    x, y = x - grid.bleed + offset[0], y - grid.bleed + offset[1]
    if centred:  # a token sits in the middle of its slot
        x += (grid.card_width + 2 * grid.bleed - drawing.width) / 2
        y += (grid.card_height + 2 * grid.bleed - drawing.height) / 2
    return Placement(drawing, x, y)


def _grid_marks(layout: SheetLayout, grid: Grid, rows: int) -> Drawing:
    """Crop marks on every cut line of the first ``rows`` rows (those in use), from just
    outside the art out to the margin, so the first cut removes none of them; without
    bleed, thin lines along the cuts as well."""
    marks = layout.crop_marks
    items: list[Primitive] = []
    gap = grid.bleed + marks.offset
    top_limit = layout.margin + layout.footer_band
    bottom_limit = layout.paper_height - layout.margin - layout.footer_band
    left_limit, right_limit = layout.margin, layout.paper_width - layout.margin
    grid_right = grid.left + grid.width
    grid_bottom = grid.top + rows * grid.card_height + (rows - 1) * grid.gutter
    lines_x = grid.cut_lines_x()
    lines_y = [y for y in grid.cut_lines_y() if y <= grid_bottom + 1e-6]
    if layout.cut_lines and grid.bleed == 0:
        for x in lines_x:
            items.append(Line(x, grid.top, x, grid_bottom, CUT_LINE_COLOUR, CUT_LINE_WIDTH))
        for y in lines_y:
            items.append(Line(grid.left, y, grid_right, y, CUT_LINE_COLOUR, CUT_LINE_WIDTH))
    for x in lines_x:
        items.append(Line(x, top_limit, x, grid.top - gap, MARK_COLOUR, marks.width))
        items.append(Line(x, grid_bottom + gap, x, bottom_limit, MARK_COLOUR, marks.width))
    for y in lines_y:
        items.append(Line(left_limit, y, grid.left - gap, y, MARK_COLOUR, marks.width))
        items.append(Line(grid_right + gap, y, right_limit, y, MARK_COLOUR, marks.width))
    return Drawing(layout.paper_width, layout.paper_height, tuple(items))


def _with_footer(drawing: Drawing, layout: SheetLayout, label: str) -> Drawing:
    """``drawing`` plus the footer line, centred in the band above the bottom margin."""
    baseline = layout.paper_height - layout.margin - (layout.footer_band - layout.footer_size) / 2
    footer = Text(layout.paper_width / 2, baseline, label, layout.footer_size,
                  fill=FOOTER_COLOUR, anchor="middle")
    return Drawing(drawing.width, drawing.height, (*drawing.items, footer))

