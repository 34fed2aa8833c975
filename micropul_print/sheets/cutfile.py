"""Cut files for cutting machines (print and cut): the cut lines of a sheet's front
pages as SVG, in the PDF page's own coordinates.

A sheet planned with ``SheetOptions(registration=True)`` prints registration marks on
every front page holding pieces (registration.py). For each such page this writes an
SVG of the same size: the same three marks (group ``registration-marks``, filled
black, for reference: the machine's software draws its own at these very places) and
one closed path per piece at its exact cut line (group ``cut-lines``: hairline red
strokes, no fill): a square's four edges, or the circle of a round token.

SVG has no pages, so there is one file per PDF page: :func:`cut_file_name` names it
after the page (``<game>-cut-a4-page3.svg`` cuts page 3 of ``<game>-tiles-a4.pdf``).
Lengths are millimetres (viewBox), written with at most four decimals.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from typing import NamedTuple

from micropul_print.draw.bounds import Box
from micropul_print.draw.primitives import Polygon
from micropul_print.draw.recording import mm_text as num
from micropul_print.sheets import registration
from micropul_print.sheets.pages import Page, SheetPlan

CUT_COLOUR = "#ff0000"
CUT_WIDTH = 0.1  # mm: a hairline, as cutting software expects of a cut path


class CutPage(NamedTuple):
    number: int  # the PDF page it cuts, from 1
    svg: bytes


def cut_file_name(game: str, paper: str, page_number: int) -> str:
    """``<game>-cut-<paper>-page<N>.svg``: the cut file of page N of the tile sheets."""
    return f"{game}-cut-{paper}-page{page_number}.svg"


def cut_pages(plan: SheetPlan, title: str) -> list[CutPage]:
    """An SVG for each front page of ``plan`` with pieces to cut, numbered as the PDF's
    pages. The plan must carry registration marks (SheetOptions.registration)."""
    if not plan.options.registration:
        raise ValueError("cut files need sheets planned with registration marks")
    pages = []
    for number, page in enumerate(plan.pages, 1):
        if page.side == "front" and any(p.cut is not None for p in page.placements):
            pages.append(CutPage(number, page_svg(plan, page, f"{title} — cut lines of "
                                                 f"page {number}")))
    return pages


def page_svg(plan: SheetPlan, page: Page, title: str) -> bytes:
    """One page's registration marks and cut paths as an SVG document."""
    width, height = plan.layout.paper_width, plan.layout.paper_height
    root = ET.Element("svg", {
        "xmlns": "http://www.w3.org/2000/svg",
        "version": "1.1",
        "width": f"{num(width)}mm",
        "height": f"{num(height)}mm",
        "viewBox": f"0 0 {num(width)} {num(height)}",
    })
    ET.SubElement(root, "title").text = title
    marks = ET.SubElement(root, "g", {"id": "registration-marks", "fill": "#000000",
                                      "stroke": "none"})
    for mark in registration.registration_marks(width, height):
        assert isinstance(mark, Polygon)
        ET.SubElement(marks, "path", {"d": polygon_path(mark.points)})
    cuts = ET.SubElement(root, "g", {"id": "cut-lines", "fill": "none", "stroke": CUT_COLOUR,
                                     "stroke-width": num(CUT_WIDTH)})
    for placement in page.placements:
        if placement.cut is not None:
            path = circle_path(placement.cut) if placement.round else square_path(placement.cut)
            ET.SubElement(cuts, "path", {"d": path})
    document: bytes = ET.tostring(root, encoding="utf-8", xml_declaration=True)
    return document + b"\n"


def square_path(box: Box) -> str:
    """The closed outline of ``box``, clockwise from its top-left corner."""
    return (f"M{num(box.x0)} {num(box.y0)}H{num(box.x1)}V{num(box.y1)}H{num(box.x0)}Z")


def circle_path(box: Box) -> str:
    """The closed circle inscribed in ``box``, as two half-circle arcs."""
    cx, cy = (box.x0 + box.x1) / 2, (box.y0 + box.y1) / 2
    r = min(box.width, box.height) / 2
    return (f"M{num(cx - r)} {num(cy)}A{num(r)} {num(r)} 0 1 0 {num(cx + r)} {num(cy)}"
            f"A{num(r)} {num(r)} 0 1 0 {num(cx - r)} {num(cy)}Z")


def polygon_path(points: tuple[tuple[float, float], ...]) -> str:
    head, *rest = points
    return f"M{num(head[0])} {num(head[1])}" + "".join(
        f"L{num(x)} {num(y)}" for x, y in rest) + "Z"
