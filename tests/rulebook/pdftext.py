"""Reading a rulebook PDF back as lines of text, where they are: by page (or booklet
page, a form drawn on a sheet) and column, with pypdf. A line knows whether it is in the
body of the page or in a margin (the running head, the page number). Positions are
those of the page the book was laid out on (BOOK_PAGE, BOOKLET_PAGE), which each paper
shows centred: the same on every paper."""

from __future__ import annotations

import io
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from pypdf import PageObject, PdfReader
from pypdf.generic import ContentStream
from reportlab.lib.units import mm

from micropul_print.rulebook.booklet import BOOKLET_PAGE
from micropul_print.rulebook.layout import BOOK_PAGE, GEOMETRY, Geometry, centred


@dataclass(frozen=True)
class Line:
    """One line of text: its column (0 = left), baseline height and left edge
    (points from the page's foot and left edge), and its words; ``body``: between the
    top and bottom margins (not the running head or the page number)."""

    column: int
    y: float
    x: float
    text: str
    body: bool = True
    size: float = 0.0  # the largest font size on it (points)


def _lines(extract: Callable[..., Any], size: tuple[float, float], geometry: Geometry,
           laid: tuple[float, float]) -> list[Line]:
    """The lines an extraction visits between the margins of a page ``laid`` out and
    drawn centred on a page of ``size``; runs on one baseline in one column are one
    line. Column = which of the geometry's columns, as equal strips of the page's
    width, the run starts in."""
    runs: dict[tuple[int, float], list[tuple[float, str, float]]] = {}
    width, columns = laid[0], geometry.columns
    dx, dy = centred(laid, size)

    def visit(text: str, cm: list[float], tm: list[float], font: object,
              font_size: float) -> None:
        x, y = cm[4] + tm[4] - dx, cm[5] + tm[5] - dy
        if text.strip():
            column = min(int(x / (width / columns)), columns - 1)
            runs.setdefault((column, round(y, 1)), []).append((x, text, font_size))

    extract(visitor_text=visit)
    bottom, top = geometry.bottom * mm, laid[1] - geometry.top * mm
    return sorted((Line(column, y, min(part[0] for part in parts),
                        " ".join(" ".join(part[1].split()) for part in sorted(parts)),
                        bottom < y < top, max(part[2] for part in parts))
                   for (column, y), parts in runs.items()),
                  key=lambda line: (line.column, -line.y))


def page_lines(pdf: bytes, geometry: Geometry = GEOMETRY) -> list[list[Line]]:
    """Each page's lines, column by column, top to bottom."""
    pages = PdfReader(io.BytesIO(pdf)).pages
    return [[line for line in _lines(page.extract_text, (float(page.mediabox.width),
                                                         float(page.mediabox.height)), geometry,
                                BOOK_PAGE)
             if line.body]
            for page in pages]


@dataclass(frozen=True)
class Half:
    """One booklet page drawn on a sheet side: left (0) or right (1), its lines."""

    slot: int
    lines: list[Line]


def sheet_halves(pdf: bytes, geometry: Geometry) -> list[list[Half]]:
    """Each sheet side's booklet pages (forms drawn by a ``Do``), left to right, with
    their lines in the page's own coordinates (``geometry``: the booklet page's),
    running head and page number included."""
    reader = PdfReader(io.BytesIO(pdf))
    sides = []
    for sheet in reader.pages:
        width = float(sheet.mediabox.width)
        resources: Any = sheet["/Resources"]
        forms = resources["/XObject"]
        halves = []
        x = 0.0
        for operands, operator in ContentStream(sheet.get_contents(), reader).operations:
            if operator == b"cm":
                x = float(operands[4])
            elif operator == b"Do":
                form = forms[operands[0]].get_object()
                size = float(form["/BBox"][2]), float(form["/BBox"][3])
                halves.append(Half(int(x >= width / 2 - 1),
                                   _form_lines(sheet, form, size, geometry)))
        sides.append(halves)
    return sides


def _form_lines(sheet: PageObject, form: Any, size: tuple[float, float],
                geometry: Geometry) -> list[Line]:
    def extract(visitor_text: Callable[..., None]) -> Any:
        return sheet.extract_xform_text(form, visitor_text=visitor_text)

    return _lines(extract, size, geometry, BOOKLET_PAGE)


@dataclass(frozen=True)
class Block:
    """One booklet page on a sheet side, measured by pdfium as a viewer lays it out:
    the left and right ends (points from the sheet's left edge) of its body text and
    of the rule under its running head (None on the cover)."""

    slot: int  # 0: left of the fold, 1: right of it
    body: tuple[float, float]
    rule: tuple[float, float] | None


def sheet_blocks(pdf: bytes, geometry: Geometry) -> list[tuple[float, list[Block]]]:
    """Each sheet side's width (points) and its pages' blocks. Body text: every
    character's advance box (pdfium's loose box, from the pen position to the next)
    between the top and bottom margins of a page centred on the sheet's height. The
    rule: the thin horizontal line (a path) in the page's form, its ends at the middle
    of its stroke."""
    import pypdfium2  # type: ignore[import-untyped]
    import pypdfium2.raw as pdfium_raw  # type: ignore[import-untyped]

    document = pypdfium2.PdfDocument(pdf)
    sides = []
    for index in range(len(document)):
        sheet = document[index]
        width, height = sheet.get_size()
        margin = (height - BOOKLET_PAGE[1]) / 2
        bottom, top = margin + geometry.bottom * mm, height - margin - geometry.top * mm
        rules: dict[int, tuple[float, float]] = {}
        offset = 0.0
        for item in sheet.get_objects(max_depth=2):
            if item.type == pdfium_raw.FPDF_PAGEOBJ_FORM:
                offset = item.get_matrix().e  # nested objects' bounds are the form's
            elif item.type == pdfium_raw.FPDF_PAGEOBJ_PATH and item.level == 1:
                left, low, right, high = item.get_bounds()
                stroke = high - low
                if stroke < 2 and right - left > BOOKLET_PAGE[0] / 2 and low > top:
                    rules[int(offset >= width / 2 - 1)] = (offset + left + stroke / 2,
                                                           offset + right - stroke / 2)
        text = sheet.get_textpage()
        body: dict[int, list[tuple[float, float]]] = {0: [], 1: []}
        for i in range(text.count_chars()):
            if not text.get_text_range(i, 1).strip():
                continue
            left, low, right, _high = text.get_charbox(i, loose=True)
            if bottom < low < top:
                body[int(left >= width / 2)].append((left, right))
        sides.append((width, [
            Block(slot, (min(b[0] for b in body[slot]), max(b[1] for b in body[slot])),
                  rules.get(slot))
            for slot in (0, 1) if body[slot]]))
    return sides
