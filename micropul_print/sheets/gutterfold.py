"""Gutter-fold sheets, for printers that cannot print both sides: each page carries the
fronts on its left half and their backs on its right half, mirrored across the fold
line (the page's vertical centre line). Fold the page along that line, printed sides
out, glue the halves together and cut the pieces out: every back lies behind its front.

Folding maps the point (x, y) of the left half onto (W - x, y) of the right half, so
the back of a piece whose front fills [x0, x1] fills [W - x1, W - x0]. The drawings
are placed as they are (a back reads the right way up once the folded sheet is turned
over), only their places mirror.

The fold is checked by two targets on the fold line, above and below the pieces: each
is a "D" on either side of the line with a millimetre scale. Folded on the line and
held against the light, the two halves of each target lie on each other; a fold off
the line by e shows them 2e apart.

Crop marks are on both halves (they meet once folded), at the cut lines of the rows and
columns holding pieces, from the art to the paper's margin or to the fold gap; the thin
cut lines of sheets without bleed only on the fronts. One page footer, on the front
half; a hint on how to fold on the back half.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import NamedTuple

from micropul_print.draw.bounds import Box, union
from micropul_print.draw.primitives import Drawing, Group, Line, Polygon, Primitive, Text
from micropul_print.sheets.layout import Grid, SheetLayout, plan_grid
from micropul_print.sheets.pages import (
    DEFAULT_OPTIONS,
    FOOTER_CLEARANCE,
    Card,
    Page,
    Placement,
    SheetOptions,
    SheetPlan,
    check_drawings,
    grid_marks,
    place,
    placed_at,
    slot_box,
    with_footer,
)

FOLD_COLOUR = "#808080"
FOLD_WIDTH = 0.2
FOLD_DASH = (3.0, 2.0)  # dash and gap along the fold line, mm
FOLD_LABEL_SIZE = 2.2
TARGET_COLOUR = "#000000"
TARGET_RADIUS = 3.0  # of each fold target's half circles, mm (smaller in a tight band)
TARGET_WIDTH = 0.2
TARGET_CLEARANCE = 0.5  # between a target and the crop marks' ends or the margin, mm
TARGET_TICK = 0.8  # length of the scale's millimetre ticks
TARGET_STEPS = 24  # straight pieces along each half circle
HINT = "fold on the dashed line, printed sides out; glue; cut"


class FoldPlan(NamedTuple):
    """A gutter-fold sheet plan and where its fold lies."""

    plan: SheetPlan
    fold_x: float  # the fold line, x on the page
    front_grid: Grid  # the left half's grid
    back_grid: Grid  # the right half's grid, its mirror image


def plan_gutterfold(layout: SheetLayout, cards: Sequence[Card], card_width: float,
                    card_height: float, title: str, *, tokens: Sequence[Card] = (),
                    options: SheetOptions = DEFAULT_OPTIONS) -> FoldPlan:
    """Lay ``cards`` (and then ``tokens`` in the free slots, in a row under the grid of
    the last pages, or on pages of their own) on gutter-fold pages of ``layout``, which
    must be a gutter-fold layout (fold_gap set). Only ``options.bleed`` applies: there
    is no flip, offset or calibration page (each page checks its own fold), and no
    registration marks (cut files are made from duplex sheets)."""
    if layout.fold_gap is None:
        raise ValueError(f"layout {layout.name!r} is not a gutter-fold layout (no fold gap)")
    check_drawings(cards, tokens, card_width, card_height, options.bleed)
    width, height = layout.paper_width, layout.paper_height
    fold = width / 2
    band = layout.margin + layout.footer_band
    area = Box(layout.margin, band, fold - layout.fold_gap, height - band)
    front_grid = plan_grid(layout, card_width, card_height, options.bleed, area=area)
    per_page = front_grid.capacity
    contents: list[list[tuple[Card, bool]]] = [
        [(card, False) for card in cards[start:start + per_page]]
        for start in range(0, len(cards), per_page)]
    # Tokens in a row under the grid, per page (by contents' index), with their cards.
    under: dict[int, list[tuple[Placement, Card]]] = {}
    if tokens:
        if contents and per_page - len(contents[-1]) >= len(tokens):
            contents[-1] += [(token, True) for token in tokens]
        elif (raised := _token_row(layout, front_grid, area, tokens, len(contents))) \
                is not None:
            # Under the grid of the last pages, raised to the top of its area: a page
            # of their own would take a sheet for a few tokens (on Letter, 8 rows of
            # 30 mm cards leave 21 mm: no room for a 9th, but room for small tokens).
            front_grid, centre_y = raised
            columns = front_grid.columns
            first = len(contents) - -(-len(tokens) // columns)
            for n, extra in enumerate(tokens):
                front = _in_row(front_grid, extra.front, n % columns, centre_y, extra.round)
                under.setdefault(first + n // columns, []).append((front, extra))
        else:  # on pages of their own (more than one where the bleed leaves few slots)
            contents += [[(token, True) for token in tokens[start:start + per_page]]
                         for start in range(0, len(tokens), per_page)]
    back_grid = front_grid._replace(left=width - front_grid.left - front_grid.width)
    sheet_options = options._replace(calibration=False, back_offset=(0.0, 0.0),
                                     registration=False)
    pages: list[Page] = []
    total = len(contents)
    for number, content in enumerate(contents, 1):
        label = f"{title} — gutter fold, page {number}/{total}"
        placements: list[Placement] = []
        backs: list[Placement] = []
        used: set[tuple[int, int]] = set()
        for slot, (piece, token) in enumerate(content):
            column, row = front_grid.slot(slot)
            used.add((column, row))
            front = place(front_grid, piece.front, column, row, centred=token,
                          round_cut=piece.round)
            placements.append(front)
            if piece.back is not None:
                backs.append(mirrored(front, piece.back, width))
        cuts: list[Box | None] = [slot_box(front_grid, c, r) for c, r in used]
        under_faces = {face for _front, card in under.get(number - 1, ())
                       for face in (card.front, card.back) if face is not None}
        for front, token_card in under.get(number - 1, ()):
            placements.append(front)
            cuts.append(front.cut)
            if token_card.back is not None:
                backs.append(mirrored(front, token_card.back, width))
                cuts.append(backs[-1].cut)
        back_used = {(front_grid.columns - 1 - column, row) for column, row in used}
        tokens_row = [p for p in placements + backs if p.drawing in under_faces]
        row_cut = union(p.cut for p in tokens_row if p.cut is not None)
        row_art = union(Box(p.x, p.y, p.x + p.drawing.width, p.y + p.drawing.height)
                        for p in tokens_row)
        if tokens_row and not _beside_marks(layout, front_grid,
                                            [p.drawing for p in tokens_row]):
            row_cut = row_art  # the marks stop above the tokens' art, not only their cut
        marks = _page_marks(layout, front_grid, back_grid, used, back_used, label, fold,
                            row_cut, row_art)
        trim = union([*(cut for cut in cuts if cut is not None),
                      *(slot_box(back_grid, c, r) for c, r in back_used)])
        pages.append(Page("front", label, (*placements, *backs), marks, trim))
    plan = SheetPlan(layout, front_grid, sheet_options, tuple(pages), double_sided=False)
    return FoldPlan(plan, fold, front_grid, back_grid)




def _token_row(layout: SheetLayout, grid: Grid, area: Box, tokens: Sequence[Card],
               pages: int) -> tuple[Grid, float] | None:
    """Room for ``tokens`` in a row under the grid of the last of ``pages`` pages: the
    grid raised to the top of ``area`` and the row's centre line (y), a token centred
    in each column (clear of the column's crop marks, which run down its cut lines);
    None where the tokens do not fit there (too tall, or more than a row per page)."""
    if not pages or -(-len(tokens) // grid.columns) > pages:
        return None
    faces = [face for token in tokens for face in (token.front, token.back)
             if face is not None]
    size = max(face.height for face in faces)
    if max(face.width for face in faces) > grid.card_width:
        return None
    marks = layout.crop_marks
    raised = grid._replace(top=area.y0 + grid.bleed + marks.offset + marks.min_length)
    # Under the grid's art: its bottom crop marks, which stop above the tokens (never
    # beside them), then the tokens down to the footer band (the lower fold target goes
    # under them, in the margin's band). The marks run down cut lines between the
    # tokens' columns, far from their ink: a token's bleed may lie beside a mark's end
    # (so A4 with --bleed 1 keeps its stones under the tiles, not on a sheet of their own).
    marks_end = (raised.top + raised.height + raised.bleed + marks.offset + marks.min_length
                 + marks.width / 2)
    # A token whose art reaches its column's cut lines (a bleed of 8 mm and more round a
    # 14 mm stone in a 30 mm column) would have the marks run along its art: it starts
    # below their ends.
    low = marks_end - (grid.bleed if _beside_marks(layout, grid, faces) else 0.0)
    high = area.y1
    if high - low < size:
        return None
    return raised, (low + high) / 2


def _beside_marks(layout: SheetLayout, grid: Grid, faces: Sequence[Drawing]) -> bool:
    """Whether tokens of these faces, centred under the grid's columns, keep their art
    (bleed included) clear of the columns' cut lines, where the crop marks run: then
    their bleed may lie beside a mark's end."""
    return max(face.width for face in faces) < grid.card_width - layout.crop_marks.width


def _in_row(grid: Grid, drawing: Drawing, column: int, centre_y: float,
            round_cut: bool) -> Placement:
    """``drawing`` (a token with the grid's bleed) centred under column ``column`` on
    the line ``centre_y``."""
    x = grid.left + column * grid.pitch_x + (grid.card_width - drawing.width) / 2
    return placed_at(drawing, x, centre_y - drawing.height / 2, grid.bleed, round_cut)


def mirrored(front: Placement, back: Drawing, page_width: float) -> Placement:
    """``back`` placed where folding the page puts it behind ``front``: its rectangle
    the mirror image of the front's across the page's vertical centre line."""
    x = page_width - front.x - back.width
    y = front.y + (front.drawing.height - back.height) / 2
    cut = None
    if front.cut is not None:
        cut = Box(page_width - front.cut.x1, front.cut.y0, page_width - front.cut.x0,
                  front.cut.y1)
    return Placement(back, x, y, cut, front.round)


def _page_marks(layout: SheetLayout, front_grid: Grid, back_grid: Grid,
                used: set[tuple[int, int]], back_used: set[tuple[int, int]], label: str,
                fold: float, row_cut: Box | None = None,
                row_art: Box | None = None) -> Drawing:
    """The page's marks; ``row_cut`` and ``row_art``: where the tokens of a row under
    the grid are cut and where they print, if the page has one."""
    width, height = layout.paper_width, layout.paper_height
    gap = layout.fold_gap or 0.0
    front_frame = Box(layout.margin, layout.margin, fold - gap, height - layout.margin)
    back_frame = Box(fold + gap, layout.margin, width - layout.margin, height - layout.margin)
    # Each half's footer line keeps clear of the lower fold target.
    beside_target = TARGET_RADIUS + FOOTER_CLEARANCE
    front_bounds = (layout.margin, fold - beside_target)
    back_bounds = (fold + beside_target, width - layout.margin)
    # A row of tokens under the grid: the grid's marks stop above it (marks never run
    # beside a piece) and the lower fold target goes under it.
    keep_out = [] if row_cut is None else [Box(0.0, row_cut.y0, width, row_cut.y1)]
    items: list[Primitive] = []
    items += grid_marks(layout, front_grid, used, footer=label, footer_x=fold / 2,
                        footer_bounds=front_bounds, frame=front_frame, keep_out=keep_out)
    items += grid_marks(layout, back_grid, back_used, footer=HINT, footer_x=(fold + width) / 2,
                        footer_bounds=back_bounds, frame=back_frame, cut_lines=False,
                        keep_out=keep_out)
    # The fold targets sit on the fold line in the bands above and below the pieces (the
    # footer lines are beside the fold, so the lower band reaches the margin).
    art_top = front_grid.top - front_grid.bleed - layout.crop_marks.offset
    art_bottom = (front_grid.top + front_grid.height + front_grid.bleed
                  + layout.crop_marks.offset)
    if row_art is not None:
        art_bottom = row_art.y1
    targets = []
    for low, high in ((layout.margin, art_top), (art_bottom, height - layout.margin)):
        radius = min(TARGET_RADIUS, (high - low) / 2 - TARGET_CLEARANCE)
        targets.append(((low + high) / 2, radius))
        items += fold_target(fold, (low + high) / 2, radius)
    (top_y, top_r), (bottom_y, bottom_r) = targets
    items += _fold_line(fold, top_y + top_r + 1.0, bottom_y - bottom_r - 1.0)
    drawing = Drawing(width, height, tuple(items))
    drawing = with_footer(drawing, layout, label, fold / 2, front_bounds)
    return with_footer(drawing, layout, HINT, (fold + width) / 2, back_bounds)


def fold_target(x: float, y: float, radius: float) -> list[Primitive]:
    """A target centred on the fold line at (x, y): a "D" on each side, its flat side on
    the line, and a scale of millimetre ticks along its middle; folded on the line, the
    two halves lie on each other."""
    items: list[Primitive] = []
    for side in (-1.0, 1.0):
        angles = [math.pi * k / TARGET_STEPS for k in range(TARGET_STEPS + 1)]
        arc = [(x + side * radius * math.sin(a), y - radius * math.cos(a)) for a in angles]
        items.append(Polygon(tuple(arc), stroke=TARGET_COLOUR, stroke_width=TARGET_WIDTH))
        items.append(Line(x, y, x + side * radius, y, TARGET_COLOUR, TARGET_WIDTH))
        for mm in range(1, int(radius) + 1):
            tick = TARGET_TICK if mm % 2 else TARGET_TICK * 1.6
            items.append(Line(x + side * mm, y - tick / 2, x + side * mm, y + tick / 2,
                              TARGET_COLOUR, TARGET_WIDTH / 2))
    return items


def _fold_line(x: float, top: float, bottom: float) -> list[Primitive]:
    """A dashed line from ``top`` to ``bottom`` at ``x``, with "fold" written along it
    at the top."""
    label_length = 8.0
    centre = top + label_length / 2
    items: list[Primitive] = [Group(
        (Text(x, centre + 0.36 * FOLD_LABEL_SIZE, "fold", FOLD_LABEL_SIZE, FOLD_COLOUR),),
        rotate=90, rotate_cx=x, rotate_cy=centre)]
    dash, space = FOLD_DASH
    y = top + label_length
    while y < bottom:
        items.append(Line(x, y, x, min(y + dash, bottom), FOLD_COLOUR, FOLD_WIDTH))
        y += dash + space
    return items
