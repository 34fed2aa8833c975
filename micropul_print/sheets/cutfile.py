"""Cut files for cutting machines (print and cut): the cut lines of a sheet's front
pages as SVG, in the PDF page's own coordinates.

A sheet planned with ``SheetOptions(registration=True)`` prints registration marks on
every front page holding pieces (registration.py). For each such page this writes an
SVG of the same size: the same three marks (group ``registration-marks``, filled
black, for reference: the machine's software draws its own at these very places) and
one closed path per piece at its exact cut line (group ``cut-lines``: hairline red
strokes, no fill): a square's four edges, or the circle of a round token.

SVG has no pages, so the cut lines come two ways. :func:`cut_document` is the whole
set for one paper (``<game>-cut-a4.svg``): one layer per PDF page to cut (Inkscape's
layers, which Silhouette Studio and Cricut Design Space import as layers too), the
first shown and the others hidden, since each is cut on its own printed sheet. And
:func:`cut_pages` gives one file per page (:func:`cut_file_name`:
``<game>-cut-a4-page3.svg`` cuts page 3 of ``<game>-tiles-a4.pdf``) for software that
takes one sheet at a time. Lengths are millimetres (viewBox), written with at most
four decimals.
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
INKSCAPE = "http://www.inkscape.org/namespaces/inkscape"
CUT_WIDTH = 0.1  # mm: a hairline, as cutting software expects of a cut path


class CutPage(NamedTuple):
    number: int  # the PDF page it cuts, from 1
    svg: bytes


def cut_file_name(game: str, paper: str, page_number: int) -> str:
    """``<game>-cut-<paper>-page<N>.svg``: the cut file of page N of the tile sheets."""
    return f"{game}-cut-{paper}-page{page_number}.svg"


def cut_document_name(game: str, paper: str) -> str:
    """``<game>-cut-<paper>.svg``: every page's cut lines, a layer each."""
    return f"{game}-cut-{paper}.svg"


def pages_to_cut(plan: SheetPlan) -> list[tuple[int, Page]]:
    """The front pages of ``plan`` with pieces to cut, with their PDF page numbers. The
    plan must carry registration marks (SheetOptions.registration)."""
    if not plan.options.registration:
        raise ValueError("cut files need sheets planned with registration marks")
    return [(number, page) for number, page in enumerate(plan.pages, 1)
            if page.side == "front" and any(p.cut is not None for p in page.placements)]


def cut_pages(plan: SheetPlan, title: str) -> list[CutPage]:
    """An SVG for each front page of ``plan`` with pieces to cut, numbered as the PDF's
    pages."""
    return [CutPage(number, page_svg(plan, page, f"{title} — cut lines of page {number}"))
            for number, page in pages_to_cut(plan)]


def cut_document(plan: SheetPlan, title: str) -> bytes:
    """One SVG of the paper's size holding each page to cut as a layer (group
    ``page-<N>``, labelled "page N"): the first page's layer shown, the others hidden."""
    root = _svg_root(plan, f"{title} — cut lines, a layer per page")
    root.set("xmlns:inkscape", INKSCAPE)
    for index, (number, page) in enumerate(pages_to_cut(plan)):
        layer = ET.SubElement(root, "g", {"id": f"page-{number}",
                                          "inkscape:groupmode": "layer",
                                          "inkscape:label": f"page {number}"})
        if index:
            layer.set("style", "display:none")
        _page_groups(layer, plan, page, f"page-{number}-")
    return _document(root)


def page_svg(plan: SheetPlan, page: Page, title: str) -> bytes:
    """One page's registration marks and cut paths as an SVG document."""
    root = _svg_root(plan, title)
    _page_groups(root, plan, page, "")
    return _document(root)


def _svg_root(plan: SheetPlan, title: str) -> ET.Element:
    width, height = plan.layout.paper_width, plan.layout.paper_height
    root = ET.Element("svg", {
        "xmlns": "http://www.w3.org/2000/svg",
        "version": "1.1",
        "width": f"{num(width)}mm",
        "height": f"{num(height)}mm",
        "viewBox": f"0 0 {num(width)} {num(height)}",
    })
    ET.SubElement(root, "title").text = title
    return root


def _page_groups(parent: ET.Element, plan: SheetPlan, page: Page, id_prefix: str) -> None:
    """The page's registration marks and its cut paths, as two groups of ``parent``."""
    width, height = plan.layout.paper_width, plan.layout.paper_height
    marks = ET.SubElement(parent, "g", {"id": f"{id_prefix}registration-marks",
                                        "fill": "#000000", "stroke": "none"})
    for mark in registration.registration_marks(width, height):
        assert isinstance(mark, Polygon)
        ET.SubElement(marks, "path", {"d": polygon_path(mark.points)})
    cuts = ET.SubElement(parent, "g", {"id": f"{id_prefix}cut-lines", "fill": "none",
                                       "stroke": CUT_COLOUR, "stroke-width": num(CUT_WIDTH)})
    for placement in page.placements:
        if placement.cut is not None:
            path = circle_path(placement.cut) if placement.round else square_path(placement.cut)
            ET.SubElement(cuts, "path", {"d": path})


def _document(root: ET.Element) -> bytes:
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
