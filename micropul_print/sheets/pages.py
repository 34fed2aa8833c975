"""The pages of a duplex card sheet, planned as pure data: which drawing goes where, and
the page's own marks as drawing primitives.

Pages alternate front, back, front, back..., so that a printer printing double-sided
puts every back page behind the front before it. The optional calibration page comes
first, with its own back, and keeps that order. Cards are (front, back) pairs of one
cut size; tokens are extra pieces (each also with a back) laid into free slots of the
last front page; when it has too few, onto free room of the calibration page (clear of
its art on both sides), and only then onto a page of their own. Nothing here knows
what a card shows.

Crop marks mark the cut lines of the rows and columns that hold pieces, and only
those; each runs from just outside the grid to the paper's margin (stopping above the
footer line where it would cross it), so a mark never runs over empty slots and a cut
along one never cuts another away.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import replace
from typing import Literal, NamedTuple

from micropul_print.backends.fonts import fit_line, text_width
from micropul_print.draw.bounds import Box, drawing_bounds, union
from micropul_print.draw.primitives import Drawing, Line, Primitive, Text
from micropul_print.sheets import registration
from micropul_print.sheets.duplex import Flip, back_slot
from micropul_print.sheets.layout import Grid, SheetLayout, plan_grid

Side = Literal["front", "back"]

MARK_COLOUR = "#000000"
CUT_LINE_COLOUR = "#b0b0b0"
CUT_LINE_WIDTH = 0.1
FOOTER_COLOUR = "#555555"
FOOTER_CLEARANCE = 1.5  # a crop mark passing closer than this to the footer stops above it
ART_CLEARANCE = 2.0  # between a token laid on the calibration page and the page's art, mm


class Card(NamedTuple):
    """A two-sided piece. ``back`` None leaves the back blank. ``round``: cut along the
    circle inscribed in the cut square (a token), not along the square."""

    front: Drawing
    back: Drawing | None = None
    round: bool = False


class SheetOptions(NamedTuple):
    bleed: float = 0.0  # art beyond the cut line, mm; the drawings must include it
    flip: Flip = "long"  # which edge the printer turns the sheet over
    back_offset: tuple[float, float] = (0.0, 0.0)  # printer drift correction, mm
    calibration: bool = True  # lead with the calibration page and its back
    # Print-and-cut: registration marks on every front page holding pieces (see
    # registration.py); the slots and marks their corners need stay empty.
    registration: bool = False
    # The printer's scale, per cent across and down the page, that the PDF enlarges
    # every page to make up for (sheets/pdf.py); the calibration page reads it.
    scale: tuple[float, float] = (100.0, 100.0)


DEFAULT_OPTIONS = SheetOptions()


class Placement(NamedTuple):
    """A drawing with its top-left corner at (x, y) mm on the page, clipped to its size.

    ``cut`` is the piece's cut outline (its bounding box; the drawing less its bleed),
    ``round`` says it is the circle inscribed in that box. None: nothing is cut here."""

    drawing: Drawing
    x: float
    y: float
    cut: Box | None = None
    round: bool = False


class Page(NamedTuple):
    side: Side
    label: str  # the footer line
    placements: tuple[Placement, ...]  # painted first, in order
    marks: Drawing  # page-sized, painted over the placements: marks, footer, calibration art
    # The area of the pieces to cut out (the slots they lie in): the PDF's TrimBox.
    # None: the page holds nothing to cut (the whole page is its own trim).
    trim: Box | None = None


class SheetPlan(NamedTuple):
    layout: SheetLayout
    grid: Grid
    options: SheetOptions
    pages: tuple[Page, ...]
    double_sided: bool = True  # False: every page is printed on its own sheet

    @property
    def card_pages(self) -> int:
        """Front/back page pairs holding cards or tokens (the calibration page excluded,
        even when it carries tokens)."""
        return sum(1 for p in self.pages if p.side == "front") - int(self.options.calibration)

    @property
    def duplex(self) -> Flip | None:
        """How the document is to be printed: the flip, or None for single-sided."""
        return self.options.flip if self.double_sided else None


class _Laid(NamedTuple):
    """A piece in a slot (index into the grid) of a front page."""

    slot: int
    piece: Card
    token: bool  # centred in its slot (smaller than a card)


def check_drawings(cards: Sequence[Card], tokens: Sequence[Card], card_width: float,
                   card_height: float, bleed: float) -> None:
    """Refuse cards not exactly card size plus bleed, and tokens larger than that or
    not larger than their bleed."""
    cell_w, cell_h = card_width + 2 * bleed, card_height + 2 * bleed
    for n, card in enumerate(cards):
        for face in (card.front, card.back):
            if face is None:
                continue
            if not (_close(face.width, cell_w) and _close(face.height, cell_h)):
                raise ValueError(f"card {n}: drawing is {face.width} × {face.height} mm, "
                                 f"expected {cell_w} × {cell_h} (cut size plus bleed)")
    for n, token in enumerate(tokens):
        for face in (token.front, token.back):
            if face is None:
                continue
            if face.width > cell_w + 1e-9 or face.height > cell_h + 1e-9:
                raise ValueError(f"token {n} is larger than a card slot")
            if min(face.width, face.height) <= 2 * bleed:
                raise ValueError(f"token {n} is no larger than its bleed (the drawings "
                                 f"include the sheet's {bleed:g} mm bleed on every side)")


def plan_sheets(layout: SheetLayout, cards: Sequence[Card], card_width: float,
                card_height: float, title: str, *, tokens: Sequence[Card] = (),
                options: SheetOptions = DEFAULT_OPTIONS) -> SheetPlan:
    """Lay ``cards`` (drawings of card size plus the bleed on every side) and ``tokens``
    (drawings no larger than that, the same bleed included) onto duplex pages of
    ``layout``. A reprint is the same call with some of the cards."""
    check_drawings(cards, tokens, card_width, card_height, options.bleed)
    grid = plan_grid(layout, card_width, card_height, options.bleed)
    width, height = layout.paper_width, layout.paper_height
    keep_out = registration.keep_out(width, height) if options.registration else []
    usable = [slot for slot in range(grid.capacity)
              if not any(_art_box(grid, *grid.slot(slot)).overlaps(box) for box in keep_out)
              and _marks_have_room(layout, grid, *grid.slot(slot), keep_out)]
    if not usable:
        raise ValueError("the registration marks leave no slot free")
    sheets: list[list[_Laid]] = [
        [_Laid(slot, card, False) for slot, card in zip(usable, cards[start:start + len(usable)],
                                                       strict=False)]
        for start in range(0, len(cards), len(usable))
    ]
    # The calibration page's art, drawn (and its module imported) only when it prints.
    art = _calibration_art(layout, options, title) if options.calibration else None
    on_calibration: list[_Laid] = []
    if tokens:
        free = usable[len(sheets[-1]):] if sheets else []
        clear = (_clear_slots(grid, layout, *art, tokens, options, keep_out)
                 if art is not None else [])
        if len(free) >= len(tokens):
            sheets[-1] += [_Laid(slot, token, True) for slot, token in zip(free, tokens,
                                                                           strict=False)]
        elif len(clear) >= len(tokens):
            on_calibration = [_Laid(slot, token, True)
                              for slot, token in zip(clear, tokens, strict=False)]
        else:  # on pages of their own (more than one where the bleed leaves few slots)
            sheets += [[_Laid(slot, token, True)
                        for slot, token in zip(usable, tokens[start:start + len(usable)],
                                               strict=False)]
                       for start in range(0, len(tokens), len(usable))]

    pages: list[Page] = []
    if art is not None:
        front_art, back_art = art
        fronts, backs = _placements(grid, on_calibration, options)
        if on_calibration and options.registration:
            front_art = _with_registration(front_art)
        pages.append(Page("front", f"{title} — calibration page, front", fronts, front_art,
                          _trim(grid, on_calibration, options, back=False)))
        pages.append(Page("back", f"{title} — calibration page, back", backs, back_art,
                          _trim(grid, on_calibration, options, back=True)))
    total = len(sheets)
    for number, content in enumerate(sheets, 1):
        fronts, backs = _placements(grid, content, options)
        front_label = f"{title} — fronts, page {number}/{total}"
        back_label = f"{title} — backs, page {number}/{total}"
        used = {grid.slot(laid.slot) for laid in content}
        marks = grid_marks(layout, grid, used, footer=front_label, keep_out=keep_out)
        front_marks = with_footer(Drawing(width, height, tuple(marks)), layout, front_label)
        if options.registration:
            front_marks = _with_registration(front_marks)
        pages.append(Page("front", front_label, fronts, front_marks,
                          _trim(grid, content, options, back=False)))
        pages.append(Page("back", back_label, backs,
                          with_footer(Drawing(width, height), layout, back_label),
                          _trim(grid, content, options, back=True)))
    return SheetPlan(layout, grid, options, tuple(pages))


def _calibration_art(layout: SheetLayout, options: SheetOptions,
                     title: str) -> tuple[Drawing, Drawing]:
    """The calibration page's front and back art, each with its footer."""
    from micropul_print.sheets.calibration import calibration_back, calibration_front

    front_art = with_footer(calibration_front(layout, options.flip, options.back_offset,
                                              options.scale), layout,
                            f"{title} — calibration page, front")
    back_art = with_footer(calibration_back(layout, options.flip, options.back_offset),
                           layout, f"{title} — calibration page, back")
    return front_art, back_art


def _placements(grid: Grid, content: Sequence[_Laid], options: SheetOptions,
                ) -> tuple[tuple[Placement, ...], tuple[Placement, ...]]:
    """Each piece on the front page, and its back behind it on the back page."""
    fronts: list[Placement] = []
    backs: list[Placement] = []
    for laid in content:
        column, row = grid.slot(laid.slot)
        piece = laid.piece
        fronts.append(place(grid, piece.front, column, row, centred=laid.token,
                            round_cut=piece.round))
        if piece.back is not None:
            back_column, back_row = back_slot(column, row, grid.columns, grid.rows,
                                              options.flip)
            backs.append(place(grid, piece.back, back_column, back_row, centred=laid.token,
                               round_cut=piece.round, offset=options.back_offset))
    return tuple(fronts), tuple(backs)


def _trim(grid: Grid, content: Sequence[_Laid], options: SheetOptions, *,
          back: bool) -> Box | None:
    """The slots of the page's pieces, together: on the back page, the slots behind."""
    boxes = []
    for laid in content:
        column, row = grid.slot(laid.slot)
        if back:
            column, row = back_slot(column, row, grid.columns, grid.rows, options.flip)
            boxes.append(slot_box(grid, column, row).moved(*options.back_offset))
        else:
            boxes.append(slot_box(grid, column, row))
    return union(boxes)


def _close(a: float, b: float) -> bool:
    return abs(a - b) < 1e-6


def slot_box(grid: Grid, column: int, row: int) -> Box:
    """The cut square of a slot."""
    x, y = grid.cut_origin(column, row)
    return Box(x, y, x + grid.card_width, y + grid.card_height)


def _art_box(grid: Grid, column: int, row: int) -> Box:
    """A slot's cut square and its bleed: where its art may print."""
    return slot_box(grid, column, row).grown(grid.bleed)


def _marks_have_room(layout: SheetLayout, grid: Grid, column: int, row: int,
                     zones: Sequence[Box]) -> bool:
    """Whether each of the slot's four cut lines has room, both ways, for a crop mark of
    the minimum length just outside its art, clear of the registration marks' ``zones``.
    A slot without that room stays empty: with a large bleed, a piece beside a zone left
    its cut line no mark on the zone's side (Letter from --bleed 6.5, A4 at 8); a piece
    further from the zone then ends that cut line, with room for its mark."""
    if not zones:
        return True
    marks = layout.crop_marks
    cut, art = slot_box(grid, column, row), _art_box(grid, column, row)
    near, far = marks.offset, marks.offset + marks.min_length
    segments = [Line(x, y0, x, y1, MARK_COLOUR, marks.width) for x in (cut.x0, cut.x1)
                for y0, y1 in ((art.y0 - far, art.y0 - near), (art.y1 + near, art.y1 + far))]
    segments += [Line(x0, y, x1, y, MARK_COLOUR, marks.width) for y in (cut.y0, cut.y1)
                 for x0, x1 in ((art.x0 - far, art.x0 - near), (art.x1 + near, art.x1 + far))]
    return not any(_blocked(segment, zones) for segment in segments)


def place(grid: Grid, drawing: Drawing, column: int, row: int, *, centred: bool = False,
          round_cut: bool = False, offset: tuple[float, float] = (0.0, 0.0)) -> Placement:
    """``drawing`` (with the grid's bleed on every side) in slot (column, row), moved by
    ``offset``; ``centred`` lays a smaller piece in the middle of the slot."""
    x, y = grid.cut_origin(column, row)
    x, y = x - grid.bleed + offset[0], y - grid.bleed + offset[1]
    if centred:  # a token sits in the middle of its slot
        x += (grid.card_width + 2 * grid.bleed - drawing.width) / 2
        y += (grid.card_height + 2 * grid.bleed - drawing.height) / 2
    return placed_at(drawing, x, y, grid.bleed, round_cut)


def placed_at(drawing: Drawing, x: float, y: float, bleed: float,
              round_cut: bool = False) -> Placement:
    """``drawing`` (a piece with ``bleed`` on every side) with its top-left at (x, y),
    cut along its edges less the bleed."""
    cut = Box(x + bleed, y + bleed, x + drawing.width - bleed, y + drawing.height - bleed)
    return Placement(drawing, x, y, cut, round_cut)


def _clear_slots(grid: Grid, layout: SheetLayout, front_art: Drawing, back_art: Drawing,
                 tokens: Sequence[Card], options: SheetOptions,
                 keep_out: Sequence[Box]) -> list[int]:
    """Slots inside the calibration page's zone for pieces where a token, and its back
    behind it, lie clear of the page's art on both sides (and of the registration
    marks), in reading order."""
    size_w = max(face.width for token in tokens for face in (token.front, token.back)
                 if face is not None)
    size_h = max(face.height for token in tokens for face in (token.front, token.back)
                 if face is not None)
    from micropul_print.sheets.calibration import pieces_zone

    zone = pieces_zone(layout)
    front_boxes = [*drawing_bounds(front_art), *keep_out]
    back_boxes = drawing_bounds(back_art)

    def token_box(column: int, row: int, offset: tuple[float, float]) -> Box:
        cell = slot_box(grid, column, row).moved(*offset)
        cx, cy = (cell.x0 + cell.x1) / 2, (cell.y0 + cell.y1) / 2
        return Box(cx - size_w / 2, cy - size_h / 2, cx + size_w / 2,
                   cy + size_h / 2).grown(ART_CLEARANCE)

    clear = []
    for slot in range(grid.capacity):
        column, row = grid.slot(slot)
        back_column, back_row = back_slot(column, row, grid.columns, grid.rows, options.flip)
        front = token_box(column, row, (0.0, 0.0))
        back = token_box(back_column, back_row, options.back_offset)
        inside = zone.contains(front.x0, front.y0) and zone.contains(front.x1, front.y1)
        if (inside and not any(front.overlaps(box) for box in front_boxes)
                and not any(back.overlaps(box) for box in back_boxes)):
            clear.append(slot)
    return clear


# --- marks ----------------------------------------------------------------------------


# A footer line too long for its room is set smaller, down to this share of the
# layout's size, then shortened in the middle ("…"): a name or a reprint's list of
# numbers never runs off the paper or into the marks.
SMALLEST_FOOTER = 0.7


def fitted_footer(layout: SheetLayout, label: str, x: float | None = None,
                  bounds: tuple[float, float] | None = None) -> tuple[float, str, float]:
    """The footer line centred on ``x`` (default: the page's middle) within ``bounds``
    (left and right, mm; default: the margins): its centre, its text and its size."""
    x = layout.paper_width / 2 if x is None else x
    left, right = bounds or (layout.margin, layout.paper_width - layout.margin)
    text, size = fit_line(label, layout.footer_size, 2 * min(x - left, right - x),
                          smallest=layout.footer_size * SMALLEST_FOOTER)
    return x, text, size


def footer_box(layout: SheetLayout, label: str, x: float | None = None,
               bounds: tuple[float, float] | None = None) -> Box:
    """Where the footer line prints, centred on ``x`` (default: the page's middle)
    within ``bounds``, as with_footer sets it."""
    baseline = _footer_baseline(layout)
    x, text, size = fitted_footer(layout, label, x, bounds)
    width = text_width(text, size)
    return Box(x - width / 2, baseline - size, x + width / 2, baseline + 0.22 * size)


def grid_marks(layout: SheetLayout, grid: Grid, used: Collection[tuple[int, int]], *,
               footer: str = "", footer_x: float | None = None,
               footer_bounds: tuple[float, float] | None = None,
               keep_out: Sequence[Box] = (), frame: Box | None = None,
               cut_lines: bool = True) -> list[Primitive]:
    """Crop marks on the cut lines of the rows and columns holding pieces (slots
    ``used``), from just outside the grid's art out to ``frame`` (the paper inside its
    margin): across no empty slot, and above the ``footer`` line (centred on
    ``footer_x`` within ``footer_bounds``) where they would cross it; none touching a
    ``keep_out`` zone: a mark such a zone blocks runs instead from the pieces on its cut
    line towards the zone, across the empty slots kept free for it. Without bleed (and
    with ``cut_lines``), thin lines along the edges of the slots in use."""
    marks = layout.crop_marks
    frame = frame or Box(layout.margin, layout.margin, layout.paper_width - layout.margin,
                         layout.paper_height - layout.margin)
    items: list[Primitive] = []
    if cut_lines and layout.cut_lines and grid.bleed == 0:
        items += _cut_lines(grid, used)
    gap = grid.bleed + marks.offset
    left, top = grid.left, grid.top
    right, bottom = grid.left + grid.width, grid.top + grid.height
    stop_above = layout.paper_height - layout.margin - layout.footer_band
    avoid = (footer_box(layout, footer, footer_x, footer_bounds).grown(FOOTER_CLEARANCE)
             if footer else None)
    columns = sorted({column for column, _row in used})
    rows = sorted({row for _column, row in used})
    xs = sorted({round(x, 9) for column in columns
                 for x in (left + column * grid.pitch_x,
                           left + column * grid.pitch_x + grid.card_width)})
    ys = sorted({round(y, 9) for row in rows
                 for y in (top + row * grid.pitch_y, top + row * grid.pitch_y + grid.card_height)})
    # Each mark as (its line, where the pieces along its cut line end, how far it may
    # run that way): the second mark is the fallback of a mark a keep-out zone blocks.
    wanted: list[tuple[Line, float, float]] = []
    boxes = [slot_box(grid, column, row) for column, row in used]  # once, not per line
    for x in xs:
        first, last = _span(x, boxes, vertical=True)
        end = frame.y1
        if avoid is not None and avoid.x0 <= x <= avoid.x1:
            end = min(end, stop_above)
        wanted.append((Line(x, frame.y0, x, top - gap, MARK_COLOUR, marks.width),
                       first - gap, frame.y0))
        wanted.append((Line(x, bottom + gap, x, end, MARK_COLOUR, marks.width),
                       last + gap, end))
    for y in ys:
        first, last = _span(y, boxes, vertical=False)
        wanted.append((Line(frame.x0, y, left - gap, y, MARK_COLOUR, marks.width),
                       first - gap, frame.x0))
        wanted.append((Line(right + gap, y, frame.x1, y, MARK_COLOUR, marks.width),
                       last + gap, frame.x1))
    for line, start, limit in wanted:
        if _blocked(line, keep_out):
            # A registration mark's zone took the mark's place (the first column's left
            # cut, the first row's top cut): the mark runs instead from the pieces on
            # its cut line, across the empty slots kept free for that registration
            # mark, up to the zone; so every cut line keeps its pair of marks. It is no
            # longer than the mark it stands for: on a page the pieces fill only in
            # part, the way to the zone crosses rows left unused, not a mark's length.
            reach = abs(line.x2 - line.x1) + abs(line.y2 - line.y1)
            line = _up_to_zones(line, start, limit, keep_out, reach)
        length = abs(line.x2 - line.x1) + abs(line.y2 - line.y1)
        if length >= marks.min_length - 1e-9 and not _blocked(line, keep_out):
            items.append(line)
    return items


def _blocked(line: Line, zones: Sequence[Box]) -> bool:
    reach = Box(min(line.x1, line.x2), min(line.y1, line.y2), max(line.x1, line.x2),
                max(line.y1, line.y2)).grown(line.stroke_width / 2)
    return any(reach.overlaps(zone) for zone in zones)


def _span(at: float, boxes: Sequence[Box], *, vertical: bool) -> tuple[float, float]:
    """Where the pieces (their cut squares ``boxes``) lying along the cut line at ``at``
    (an x for a ``vertical`` line, else a y) begin and end along it: their first and
    last cut edge."""
    starts, ends = [], []
    for box in boxes:
        edges = (box.x0, box.x1) if vertical else (box.y0, box.y1)
        if any(_close(edge, at) for edge in edges):
            starts.append(box.y0 if vertical else box.x0)
            ends.append(box.y1 if vertical else box.x1)
    return min(starts), max(ends)


def _up_to_zones(line: Line, start: float, limit: float, zones: Sequence[Box],
                 longest: float) -> Line:
    """``line`` moved onto its own axis from ``start`` towards ``limit``, at most
    ``longest`` long, stopping short of the first of ``zones`` in the way (by its
    stroke's half width)."""
    half = line.stroke_width / 2
    vertical = _close(line.x1, line.x2)
    at = line.x1 if vertical else line.y1
    outward = 1.0 if limit > start else -1.0
    end = limit if abs(limit - start) <= longest else start + outward * longest
    for zone in zones:
        low, high = (zone.x0, zone.x1) if vertical else (zone.y0, zone.y1)
        if not low - half < at < high + half:
            continue
        near, far = (zone.y0, zone.y1) if vertical else (zone.x0, zone.x1)
        if outward < 0:
            near, far = far, near
        if (far - start) * outward <= 0:
            continue  # behind the mark
        edge = near - outward * half
        if (edge - start) * outward < (end - start) * outward:
            end = edge
    if (end - start) * outward <= 0:
        end = start  # a zone reaches the pieces themselves: no room
    if vertical:
        return replace(line, y1=start, y2=end)
    return replace(line, x1=start, x2=end)


def _cut_lines(grid: Grid, used: Collection[tuple[int, int]]) -> list[Primitive]:
    """Thin lines along every edge of the slots in use, joined where they meet."""
    runs_x: dict[float, list[tuple[float, float]]] = {}  # vertical lines: x -> spans of y
    runs_y: dict[float, list[tuple[float, float]]] = {}
    for column, row in used:
        box = slot_box(grid, column, row)
        for x in (box.x0, box.x1):
            runs_x.setdefault(round(x, 9), []).append((box.y0, box.y1))
        for y in (box.y0, box.y1):
            runs_y.setdefault(round(y, 9), []).append((box.x0, box.x1))
    items: list[Primitive] = []
    for x, spans in sorted(runs_x.items()):
        for y0, y1 in _joined(spans):
            items.append(Line(x, y0, x, y1, CUT_LINE_COLOUR, CUT_LINE_WIDTH))
    for y, spans in sorted(runs_y.items()):
        for x0, x1 in _joined(spans):
            items.append(Line(x0, y, x1, y, CUT_LINE_COLOUR, CUT_LINE_WIDTH))
    return items


def _joined(spans: list[tuple[float, float]]) -> list[tuple[float, float]]:
    """Spans along a line, those that touch or overlap joined into one."""
    joined: list[tuple[float, float]] = []
    for start, end in sorted(spans):
        if joined and start <= joined[-1][1] + 1e-9:
            joined[-1] = (joined[-1][0], max(joined[-1][1], end))
        else:
            joined.append((start, end))
    return joined


def _footer_baseline(layout: SheetLayout) -> float:
    return layout.paper_height - layout.margin - (layout.footer_band - layout.footer_size) / 2


def with_footer(drawing: Drawing, layout: SheetLayout, label: str,
                 x: float | None = None, bounds: tuple[float, float] | None = None) -> Drawing:
    """``drawing`` plus the footer line, in the band above the bottom margin, centred
    on ``x`` (default: the page's middle), fitted within ``bounds`` (fitted_footer)."""
    x, text, size = fitted_footer(layout, label, x, bounds)
    footer = Text(x, _footer_baseline(layout), text, size, fill=FOOTER_COLOUR,
                  anchor="middle")
    return Drawing(drawing.width, drawing.height, (*drawing.items, footer))


def _with_registration(drawing: Drawing) -> Drawing:
    marks = registration.registration_marks(drawing.width, drawing.height)
    return Drawing(drawing.width, drawing.height, (*drawing.items, *marks))
