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

from micropul_print.draw.bounds import Box
from micropul_print.draw.primitives import Drawing, Rect
from micropul_print.sheets.duplex import Flip
from micropul_print.sheets.layout import SheetLayout
from micropul_print.sheets.pages import Placement, SheetPlan

if TYPE_CHECKING:
    from micropul_print.backends.pdf import PageCanvas

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


# How a viewer's print dialog should start for each way of printing: never scaled (the
# default "fit to page" of most viewers shrinks a 30 mm tile by a few per cent), and
# double-sided with the flip the backs were mirrored for, or single-sided.
DUPLEX_NAMES = {"long": "DuplexFlipLongEdge", "short": "DuplexFlipShortEdge", None: "Simplex"}


def document_canvas(target: IO[bytes], layout: SheetLayout, info: DocumentInfo, *,
                    duplex: Flip | None = None) -> PageCanvas:
    """A reproducible canvas of the layout's paper (backends.pdf.make_canvas) carrying
    the document's information and its viewer preferences: /PrintScaling /None, and
    /Duplex for ``duplex`` (the flip of a double-sided document; None: single-sided)."""
    return sized_canvas(target, (layout.paper_width, layout.paper_height), info,
                        duplex=duplex)


def sized_canvas(target: IO[bytes], size: tuple[float, float], info: DocumentInfo, *,
                 duplex: Flip | None = None) -> PageCanvas:
    """document_canvas for a first page of ``size`` (width, height) mm."""
    from micropul_print.backends import pdf as backend

    canvas = backend.make_canvas(target, (size[0] * MM, size[1] * MM), info.title)
    canvas.setAuthor(info.author)
    canvas.setSubject(info.subject)
    canvas.setCreator(info.creator)
    canvas.setProducer(info.creator)
    set_print_preferences(canvas, duplex)
    return canvas


def set_print_preferences(canvas: PageCanvas, duplex: Flip | None) -> None:
    """Ask viewers to print at actual size, double-sided with ``duplex``'s flip or
    single-sided (None)."""
    canvas.setViewerPreference("PrintScaling", "None")
    canvas.setViewerPreference("Duplex", DUPLEX_NAMES[duplex])


def render_pdf(plan: SheetPlan, info: DocumentInfo) -> bytes:
    from micropul_print.backends import pdf as backend

    page_h = plan.layout.paper_height
    buffer = io.BytesIO()
    canvas = document_canvas(buffer, plan.layout, info, duplex=plan.duplex)
    painter = PlacementPainter(canvas, [pl.drawing for page in plan.pages
                                        for pl in page.placements])
    for page in plan.pages:
        scaled = scale_page(canvas, plan.layout, plan.options.scale)
        backend.draw(canvas, _underlay(page.placements, plan.layout.paper_width, page_h),
                     0.0, 0.0)
        for placement in page.placements:
            painter.paint(placement, page_h)
        backend.draw(canvas, page.marks, 0.0, 0.0)
        if plan.options.bleed > 0:
            set_page_boxes(canvas, plan.layout.paper_width, page_h, page.trim,
                           plan.options.bleed, plan.options.scale)
        if scaled:
            canvas.restoreState()
        canvas.showPage()
    canvas.save()
    return buffer.getvalue()


class PlacementPainter:
    """Paints placed drawings on a canvas: a drawing placed once in place, one placed
    more often as a form defined at its first use; each clipped to its rectangle."""

    def __init__(self, canvas: PageCanvas, drawings: Sequence[Drawing]) -> None:
        from micropul_print.backends import pdf as backend

        self.canvas, self.backend = canvas, backend
        # Equal drawings share a form. Each drawing object is looked up by its id after
        # it is hashed once here (a drawing's hash walks all of its primitives, and a
        # sheet's 108 placements asked it two or three times each), kept alive here so
        # that no id is reused. id -> the first drawing equal to it:
        self.drawings = list(drawings)
        self.equal: dict[int, Drawing] = {}
        self.first: dict[Drawing, Drawing] = {}
        first = self.first
        self.uses: dict[int, int] = {}  # id of such a first drawing -> its placements
        for drawing in drawings:
            same = self.equal.get(id(drawing))
            if same is None:
                same = self.equal[id(drawing)] = first.setdefault(drawing, drawing)
            self.uses[id(same)] = self.uses.get(id(same), 0) + 1
        self.forms: dict[int, str] = {}  # id of such a first drawing -> its form

    def paint(self, placement: Placement, page_h: float) -> None:
        """``placement`` on the current page, ``page_h`` mm high."""
        canvas, drawing = self.canvas, placement.drawing
        same = self.equal.get(id(drawing)) or self.first.get(drawing)
        if same is None or self.uses[id(same)] <= 1:
            draw_clipped(canvas, drawing, placement.x, placement.y, page_h)
            return
        name = self.forms.get(id(same))
        if name is None:
            name = self.forms[id(same)] = f"D{len(self.forms)}"
            _define_form(canvas, self.backend, name, drawing, page_h)
        # The form holds the drawing at the page's top-left: move it into place.
        canvas.saveState()
        canvas.translate(placement.x * MM, -placement.y * MM)
        canvas.doForm(name)
        canvas.restoreState()


def set_page_boxes(canvas: PageCanvas, page_w: float, page_h: float, trim: Box | None,
                   bleed: float, scale: tuple[float, float] = (100.0, 100.0)) -> None:
    """The current page's /TrimBox (``trim``, mm from the top-left; None: the whole
    page) and /BleedBox (the trim box ``bleed`` larger, inside the page), as print
    shops' tools read them (PDF/X). With a printer ``scale`` (scale_page), the boxes are
    where the enlarged page puts the trim: the page boxes ignore the drawing transform."""
    media = Box(0.0, 0.0, page_w, page_h)
    trim = trim or media
    bleed_x = bleed_y = bleed
    if trim != media and scale != (100.0, 100.0):
        cx, cy, fx, fy = page_w / 2, page_h / 2, 100.0 / scale[0], 100.0 / scale[1]
        trim = Box(cx + (trim.x0 - cx) * fx, cy + (trim.y0 - cy) * fy,
                   cx + (trim.x1 - cx) * fx, cy + (trim.y1 - cy) * fy)
        bleed_x, bleed_y = bleed * fx, bleed * fy  # the bleed is enlarged with the art
    art = Box(trim.x0 - bleed_x, trim.y0 - bleed_y, trim.x1 + bleed_x, trim.y1 + bleed_y)
    art = Box(max(art.x0, 0.0), max(art.y0, 0.0), min(art.x1, page_w), min(art.y1, page_h))
    canvas.setTrimBox(_points(trim, page_h))
    canvas.setBleedBox(_points(art, page_h))


def _points(box: Box, page_h: float) -> tuple[float, float, float, float]:
    """A box in mm from the top-left as PDF's [llx lly urx ury] in points."""
    return (box.x0 * MM, (page_h - box.y1) * MM, box.x1 * MM, (page_h - box.y0) * MM)


def scale_page(canvas: PageCanvas, layout: SheetLayout, scale: tuple[float, float]) -> bool:
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


def draw_clipped(canvas: PageCanvas, drawing: Drawing, x: float, y: float,
                 page_h: float) -> None:
    """Paint ``drawing`` with its top-left at (x, y) mm of a page ``page_h`` mm high,
    clipped to its rectangle."""
    from micropul_print.backends import pdf as backend

    canvas.saveState()
    clip = canvas.beginPath()
    clip.rect(x * MM, (page_h - y - drawing.height) * MM, drawing.width * MM,
              drawing.height * MM)
    canvas.clipPath(clip, stroke=0, fill=0)
    backend.draw(canvas, drawing, x, y)
    canvas.restoreState()
