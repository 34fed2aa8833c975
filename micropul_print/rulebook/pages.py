"""The rulebook's pages: the page templates and their columns (the binding-side
margin alternating for duplex printing), and the furniture drawn around the columns
(running head, page number, a booklet cover's foot)."""

from __future__ import annotations

from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import Frame, PageTemplate

from micropul_print.backends.pdf import FONT_NAMES
from micropul_print.rulebook.blocks import Geometry, PageTexts
from micropul_print.rulebook.document import SHORT, RecordingFrame, column_of
from micropul_print.rulebook.styles import MUTED, RULE


def column_width(page_width: float, g: Geometry) -> float:
    """The width (points) of each column on a page ``page_width`` points wide."""
    return float(page_width - (g.inner + g.outer + (g.columns - 1) * g.gutter) * mm) / g.columns




def templates(page_width: float, page_height: float, g: Geometry) -> list[PageTemplate]:
    """The page templates: "first" (page 1: the title band over the columns) or
    "cover", then "even" and "odd" pages in turn. Their frames record, not draw; the
    furniture comes when the pages are drawn (:func:`_page_furniture`)."""
    column = column_width(page_width, g)
    body_height = page_height - (g.top + g.bottom) * mm

    def columns(left: float, height: float, name: str) -> list[Frame]:
        return [
            RecordingFrame(left + i * (column + g.gutter * mm), g.bottom * mm, column,
                           height, f"{name}-{i}")
            for i in range(g.columns)
        ]

    pages = [
        PageTemplate("even", columns(g.outer * mm, body_height, "even"),
                     autoNextPageTemplate="odd"),
        PageTemplate("odd", columns(g.inner * mm, body_height, "odd"),
                     autoNextPageTemplate="even"),
    ]
    if g.cover:
        cover = RecordingFrame(g.inner * mm, g.bottom * mm,
                               page_width - (g.inner + g.outer) * mm, body_height, "cover")
        return [PageTemplate("cover", [cover], autoNextPageTemplate="even"), *pages]
    title_height = g.title_height * mm
    title = RecordingFrame(g.inner * mm, page_height - g.top * mm - title_height,
                           page_width - (g.inner + g.outer) * mm, title_height, "title")
    return [
        PageTemplate("first", [title, *columns(g.inner * mm, body_height - title_height,
                                               "first")],
                     autoNextPageTemplate="even"),
        *pages,
    ]


def short_template(templates: list[PageTemplate], page: int,
                    height: float) -> PageTemplate:
    """The template of ``page`` with its columns ``height`` points tall, at their top."""
    if page == 1:
        model = templates[0]
    else:
        model = next(t for t in templates if t.id == ("odd" if page % 2 else "even"))
    frames = []
    for frame in model.frames:
        if column_of(frame) is not None:
            x, y, width, full_height = frame.box
            frame = RecordingFrame(x, y + full_height - height, width, height, frame.id)
        frames.append(frame)
    return PageTemplate(f"{model.id}{SHORT}", frames,
                        autoNextPageTemplate=model.autoNextPageTemplate)


def page_furniture(canvas: Canvas, page: int, template: str,
                    page_size: tuple[float, float], *, geometry: Geometry,
                    texts: PageTexts) -> None:
    """What a page of ``template`` shows around its columns."""
    if template == "cover":
        _cover_furniture(canvas, page_size[0], geometry, texts)
    else:
        _furniture(canvas, page, page_size[0], page_size[1], geometry, texts)


def _furniture(canvas: Canvas, page: int, page_width: float, page_height: float,
               g: Geometry, texts: PageTexts) -> None:
    """Running head (not on page 1) and page number, both on the outer side."""
    odd = page % 2 == 1
    left = (g.inner if odd else g.outer) * mm
    right = page_width - (g.outer if odd else g.inner) * mm
    outer_x = right if odd else left
    canvas.saveState()
    canvas.setFillColor(MUTED)
    canvas.setStrokeColor(RULE)
    canvas.setLineWidth(0.4)
    if page > 1:
        y = page_height - g.header_offset * mm
        canvas.setFont(FONT_NAMES["regular"], 8)
        if odd:
            canvas.drawRightString(outer_x, y, texts.running_head)
        else:
            canvas.drawString(outer_x, y, texts.running_head)
        canvas.line(left, y - 2.2 * mm, right, y - 2.2 * mm)
    number = texts.page_number.replace("{page}", str(page))
    canvas.setFont(FONT_NAMES["bold"], 8.5)
    y = g.footer_offset * mm
    if odd:
        canvas.drawRightString(outer_x, y, number)
    else:
        canvas.drawString(outer_x, y, number)
    canvas.restoreState()


def _cover_furniture(canvas: Canvas, page_width: float, g: Geometry,
                     texts: PageTexts) -> None:
    """The cover's foot, centred under a short rule: the document's title, and the
    language it is written in."""
    centre = (g.inner * mm + page_width - g.outer * mm) / 2
    y = g.bottom * mm
    canvas.saveState()
    canvas.setStrokeColor(RULE)
    canvas.setLineWidth(0.4)
    canvas.line(centre - 20 * mm, y + 11 * mm, centre + 20 * mm, y + 11 * mm)
    canvas.setFillColor(MUTED)
    canvas.setFont(FONT_NAMES["regular"], 9.5)
    canvas.drawCentredString(centre, y + 5 * mm, texts.title)
    canvas.setFont(FONT_NAMES["bold"], 9.5)
    canvas.drawCentredString(centre, y, texts.language)
    canvas.restoreState()
