"""A planned sheet (pages.py) as PDF bytes, through the reportlab drawing backend.

A drawing placed more than once (the identical backs of a card set, the tokens) is
emitted once, as a PDF form XObject, and each placement only positions it; a drawing
placed once is painted in place (a form per face would cost time and 70 % more bytes).
Either way each placement is clipped to its drawing's rectangle, so art reaching past
it never touches a neighbour. Output is reproducible byte for byte (reportlab's invariant
mode: fixed dates and document id) and uses only embedded fonts: the canvas starts in
the registered Lato, so no standard-14 font (reportlab's Helvetica default) is ever
referenced.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from typing import IO, TYPE_CHECKING, Any, NamedTuple

from micropul_print.draw.primitives import Drawing, Rect
from micropul_print.sheets.layout import SheetLayout
from micropul_print.sheets.pages import Placement, SheetPlan

if TYPE_CHECKING:
    from reportlab.pdfgen.canvas import Canvas

MM = 72.0 / 25.4  # points per millimetre
# Where two cards' solid backgrounds meet (cards side by side, or bleeds meeting in the
# middle of a gutter), a viewer's anti-aliasing leaves a hairline of paper between
# them: white lines across a page of black backs. Each page first paints every card's
# background this much larger, so that ink lies under every seam; the cards then
# paint over it as before. Beyond a card's cut line it is a tenth of a millimetre of
# its own background, which a cut a little off the line is glad of.
SEAM_OVERLAP = 0.1  # mm


class DocumentInfo(NamedTuple):
    title: str
    author: str
    subject: str
    creator: str = "micropul-print"


def document_canvas(target: IO[bytes], layout: SheetLayout, info: DocumentInfo) -> Canvas:
    """A reproducible canvas of the layout's paper (backends.pdf.make_canvas) carrying
    the document's information."""
    from micropul_print.backends import pdf as backend

    canvas = backend.make_canvas(target, (layout.paper_width * MM, layout.paper_height * MM),
                                 info.title)
    canvas.setAuthor(info.author)
    canvas.setSubject(info.subject)
    canvas.setCreator(info.creator)
    canvas.setProducer(info.creator)
    return canvas


def render_pdf(plan: SheetPlan, info: DocumentInfo) -> bytes:
    from micropul_print.backends import pdf as backend

    page_h = plan.layout.paper_height
    buffer = io.BytesIO()
    canvas = document_canvas(buffer, plan.layout, info)

    uses: dict[Drawing, int] = {}
    for page in plan.pages:
        for placement in page.placements:
            uses[placement.drawing] = uses.get(placement.drawing, 0) + 1
    forms: dict[Drawing, str] = {}
    for page in plan.pages:
        scaled = scale_page(canvas, plan.layout, plan.options.scale)
        backend.draw(canvas, _underlay(page.placements, plan.layout.paper_width, page_h),
                     0.0, 0.0)
        for placement in page.placements:
            if uses[placement.drawing] == 1:
                _draw_clipped(canvas, backend, placement.drawing, placement.x, placement.y,
                              page_h)
                continue
            name = forms.get(placement.drawing)
            if name is None:
                name = forms[placement.drawing] = f"D{len(forms)}"
                _define_form(canvas, backend, name, placement.drawing, page_h)
            # The form holds the drawing at the page's top-left: move it into place.
            canvas.saveState()
            canvas.translate(placement.x * MM, -placement.y * MM)
            canvas.doForm(name)
            canvas.restoreState()
        backend.draw(canvas, page.marks, 0.0, 0.0)
        if scaled:
            canvas.restoreState()
        canvas.showPage()
    canvas.save()
    return buffer.getvalue()


def scale_page(canvas: Canvas, layout: SheetLayout, scale: tuple[float, float]) -> bool:
    """Enlarge what the page paints next by 100 / ``scale`` (per cent, across and down)
    about the page's centre, inside a saved graphics state to restore before the page
    ends; True if it did. A printer that prints at ``scale`` % then puts everything at
    its true size, and the centred card grid stays centred, so backs still lie behind
    their fronts. At 100 % nothing is written: the same bytes as without."""
    if scale == (100.0, 100.0):
        return False
    centre_x, centre_y = layout.paper_width * MM / 2, layout.paper_height * MM / 2
    canvas.saveState()
    canvas.translate(centre_x, centre_y)
    canvas.scale(100.0 / scale[0], 100.0 / scale[1])
    canvas.translate(-centre_x, -centre_y)
    return True


def _underlay(placements: Sequence[Placement], page_w: float, page_h: float) -> Drawing:
    """Each placed drawing's covering background, SEAM_OVERLAP larger on every side."""
    rects = []
    for placement in placements:
        background = placement.drawing.background
        if background is not None:
            rects.append(Rect(placement.x - SEAM_OVERLAP, placement.y - SEAM_OVERLAP,
                              placement.drawing.width + 2 * SEAM_OVERLAP,
                              placement.drawing.height + 2 * SEAM_OVERLAP,
                              fill=background.fill))
    return Drawing(page_w, page_h, tuple(rects))


def _define_form(canvas: Any, backend: Any, name: str, drawing: Drawing, page_h: float) -> None:
    """Record ``drawing`` as form ``name``, its top-left at the page's top-left, clipped
    to its own rectangle."""
    top = page_h * MM
    bottom = (page_h - drawing.height) * MM
    canvas.beginForm(name, 0, bottom, drawing.width * MM, top)
    clip = canvas.beginPath()
    clip.rect(0, bottom, drawing.width * MM, drawing.height * MM)
    canvas.clipPath(clip, stroke=0, fill=0)
    backend.draw(canvas, drawing, 0.0, 0.0)
    canvas.endForm()



def _draw_clipped(canvas: Any, backend: Any, drawing: Drawing, x: float, y: float,
                  page_h: float) -> None:
    """Paint ``drawing`` with its top-left at (x, y) mm, clipped to its rectangle."""
    canvas.saveState()
    clip = canvas.beginPath()
    clip.rect(x * MM, (page_h - y - drawing.height) * MM, drawing.width * MM,
              drawing.height * MM)
    canvas.clipPath(clip, stroke=0, fill=0)
    backend.draw(canvas, drawing, x, y)
    canvas.restoreState()
