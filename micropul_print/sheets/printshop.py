"""Files for a print shop: one piece per page, the page the piece and its bleed.

A shop imposes pages on its own press sheets, adds its own marks and cuts on the trim
box, so each page is exactly one face: page (MediaBox and BleedBox) = the cut size plus
the bleed on every side (3 mm is the common request), TrimBox = the cut size, centred,
and nothing but the art: no crop marks, no footer. Pages come in pairs, each front
followed by its back (a blank page where a piece has none), the order shops ask for
double-sided pieces; a piece's back needs no mirroring when it fills its page.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from typing import NamedTuple

from micropul_print.draw.bounds import Box
from micropul_print.draw.primitives import Drawing
from micropul_print.sheets.duplex import Flip
from micropul_print.sheets.pages import Card, Placement, Side, check_drawings
from micropul_print.sheets.pdf import (
    MM,
    DocumentInfo,
    PlacementPainter,
    set_page_boxes,
    sized_canvas,
)

SHOP_BLEED = 3.0  # mm: what print shops most often ask for


class ShopPage(NamedTuple):
    side: Side
    label: str  # "tile 7, front"
    drawing: Drawing | None  # None: the blank back of a one-sided piece
    width: float  # the page: cut size plus bleed, mm
    height: float
    trim: Box  # the cut size, centred on the page


class PrintShopPlan(NamedTuple):
    bleed: float
    pages: tuple[ShopPage, ...]


def plan_print_shop(cards: Sequence[Card], card_width: float, card_height: float, *,
                    names: Sequence[str], bleed: float = SHOP_BLEED) -> PrintShopPlan:
    """A front page and a back page for each card (drawings of card size plus
    ``bleed`` on every side); ``names[i]`` names card i on its pages ("tile 7")."""
    if bleed <= 0:
        raise ValueError("a print shop needs bleed")
    if len(names) != len(cards):
        raise ValueError("every card needs a name")
    check_drawings(cards, (), card_width, card_height, bleed)
    width, height = card_width + 2 * bleed, card_height + 2 * bleed
    trim = Box(bleed, bleed, bleed + card_width, bleed + card_height)
    pages: list[ShopPage] = []
    for card, name in zip(cards, names, strict=True):
        pages.append(ShopPage("front", f"{name}, front", card.front, width, height, trim))
        pages.append(ShopPage("back", f"{name}, back", card.back, width, height, trim))
    return PrintShopPlan(bleed, tuple(pages))


def render_print_shop_pdf(plan: PrintShopPlan, info: DocumentInfo,
                          duplex: Flip = "long") -> bytes:
    """The plan as PDF bytes: each page its own size with its trim and bleed boxes, the
    viewer asked for actual size and double-sided printing with the build's flip, as
    every double-sided sheet of the kit (a square page's back lies behind its front
    either way); a drawing on several pages (the common back) is stored once."""
    if not plan.pages:
        raise ValueError("nothing to print")
    buffer = io.BytesIO()
    first = plan.pages[0]
    canvas = sized_canvas(buffer, (first.width, first.height), info, duplex=duplex)
    painter = PlacementPainter(canvas, [p.drawing for p in plan.pages if p.drawing])
    for page in plan.pages:
        canvas.setPageSize((page.width * MM, page.height * MM))
        if page.drawing is not None:
            painter.paint(Placement(page.drawing, 0.0, 0.0), page.height)
        set_page_boxes(canvas, page.width, page.height, page.trim, plan.bleed)
        canvas.showPage()
    canvas.save()
    return buffer.getvalue()
