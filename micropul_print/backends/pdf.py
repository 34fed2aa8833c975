"""Drawing -> PDF (reportlab).

:func:`draw` paints a Drawing onto any reportlab canvas (the sheet and rulebook pages
use it); :func:`to_pdf` makes a one-page PDF of a single drawing. Text is set in Lato,
embedded as a subset; no standard-14 font is ever used. Positions are given like
everywhere else in the project: millimetres from the page's top-left corner.
"""

from __future__ import annotations

import functools
import hashlib
import io
import os
import string
from typing import IO, Any, NamedTuple, assert_never

from reportlab.lib.colors import toColor
from reportlab.lib.units import mm
from reportlab.pdfbase import pdfdoc, pdfmetrics, ttfonts
from reportlab.pdfgen.canvas import Canvas

from micropul_print.backends import fonts
from micropul_print.draw.primitives import (
    Circle,
    Drawing,
    Group,
    Line,
    Polygon,
    Primitive,
    Rect,
    Text,
)

# reportlab names of the registered faces.
FONT_NAMES = {
    "regular": fonts.FAMILY,
    "bold": f"{fonts.FAMILY}-Bold",
    "italic": f"{fonts.FAMILY}-Italic",
    "bold_italic": f"{fonts.FAMILY}-BoldItalic",
}
_FONT_FILES = {"regular": fonts.REGULAR, "bold": fonts.BOLD, "italic": fonts.ITALIC,
               "bold_italic": fonts.BOLD_ITALIC}
CREATOR = "micropul-print"


def subset_tag(font_name: bytes, codes: list[int]) -> bytes:
    """The six capital letters before the "+" of an embedded subset's name: drawn from
    a hash of the font and the characters of the subset, so equal subsets get equal
    tags and different ones (almost surely) different tags, the same on every run.
    reportlab numbers subsets instead (AAAAAA, AAAAAB...), so every PDF's first subset
    of every font is AAAAAA+ and a shop merging two of them gets two fonts of one name."""
    digest = hashlib.sha256(font_name + b"\0" + ",".join(map(str, codes)).encode()).digest()
    number = int.from_bytes(digest[:8], "big")
    letters = []
    for _ in range(6):
        number, letter = divmod(number, 26)
        letters.append(string.ascii_uppercase[letter])
    return "".join(letters).encode()


# Subsets made and compressed in this process, the most recent last: a book's A4 and
# Letter files, and its booklet's, embed the same subsets (the same text, set in the
# same order), and making a subset and compressing it was a twentieth of a rulebook's
# time. A dozen is a book's worth (four faces, one to three subsets each).
SUBSETS_KEPT = 24


class _KeptSubsets:
    """What reportlab makes of a subset, kept per process by what it depends on: the
    font file's bytes of a subset (by font file and character codes) and their
    compressed form (by those bytes). The same bytes out as reportlab's own."""

    def __init__(self) -> None:
        self.made: dict[tuple[str, tuple[int, ...]], bytes] = {}
        self.compressed: dict[bytes, bytes] = {}

    def make(self, face: Any, subset: list[int]) -> bytes:
        key = (str(face.filename), tuple(subset))
        content = self.made.pop(key, None)
        if content is None:
            content = ttfonts.TTFontFile.makeSubset(face, subset)
        self.made[key] = content
        _drop_oldest(self.made)
        return content

    def compress(self, content: bytes | str) -> bytes:
        if isinstance(content, str):
            content = content.encode("utf8")
        packed = self.compressed.pop(content, None)
        if packed is None:
            packed = _FLATE.encode(content)
        self.compressed[content] = packed
        _drop_oldest(self.compressed)
        return packed


def _drop_oldest(kept: dict[Any, bytes]) -> None:
    while len(kept) > SUBSETS_KEPT:
        del kept[next(iter(kept))]


_KEPT_SUBSETS = _KeptSubsets()


def _kept_subset(face: Any, subset: list[int]) -> bytes:
    return _KEPT_SUBSETS.make(face, subset)

_FLATE = pdfdoc.PDFStreamFilterZCompress()  # reportlab's own, whatever is lent


class _KeptFlate:
    """reportlab's Flate filter, answering from _KEPT_SUBSETS."""

    pdfname = "FlateDecode"

    def encode(self, content: bytes | str) -> bytes:
        return _KEPT_SUBSETS.compress(content)

    def decode(self, encoded: bytes) -> bytes:
        return bytes(_FLATE.decode(encoded))


_KEPT_FLATE = _KeptFlate()


class TaggedTTFont(ttfonts.TTFont):  # type: ignore[misc]  # reportlab is untyped
    """reportlab's TrueType font, its subsets tagged by subset_tag rather than by
    their number, and each subset made and compressed once per process."""

    def __init__(self, name: str, filename: str) -> None:
        super().__init__(name, filename)
        face = self.face
        face.makeSubset = functools.partial(_kept_subset, face)

    def addObjects(self, doc: Any) -> None:
        state = self.state.get(doc)
        subsets = [] if state is None else [list(subset) for subset in state.subsets]
        tags = [subset_tag(self.face.name, subset) for subset in subsets]
        # reportlab builds each subset's name with the module's SUBSETN(n), and gives
        # its streams the module's PDFZCompress, inside this method: lend it ours for
        # the call (a build paints in one thread).
        numbered, flate = ttfonts.SUBSETN, pdfdoc.PDFZCompress
        ttfonts.SUBSETN = lambda n: tags[n]
        pdfdoc.PDFZCompress = _KEPT_FLATE
        try:
            super().addObjects(doc)
        finally:
            ttfonts.SUBSETN, pdfdoc.PDFZCompress = numbered, flate


def register_fonts() -> None:
    """Make Lato (regular, bold, italic, bold italic) known to reportlab under
    FONT_NAMES, with family mapping so <b>/<i> in paragraphs use them. Idempotent,
    and cheap once done."""
    registered = set(pdfmetrics.getRegisteredFontNames())
    if registered.issuperset(FONT_NAMES.values()):
        return
    for style in FONT_NAMES:
        register_face(style)
    pdfmetrics.registerFontFamily(fonts.FAMILY, normal=FONT_NAMES["regular"],
                                  bold=FONT_NAMES["bold"], italic=FONT_NAMES["italic"],
                                  boldItalic=FONT_NAMES["bold_italic"])


@functools.cache
def register_face(style: str) -> str:
    """Make one face of Lato known to reportlab (once); its name. A sheet uses two of
    the four faces: reportlab reads a whole font file to register it."""
    name = FONT_NAMES[style]
    if name not in pdfmetrics.getRegisteredFontNames():
        pdfmetrics.registerFont(TaggedTTFont(name, str(_FONT_FILES[style])))
    return name


_EPOCH = "SOURCE_DATE_EPOCH"  # reportlab.lib.utils.TimeStamp reads it


class PageCanvas(Canvas):  # type: ignore[misc]  # reportlab is untyped
    """A reportlab Canvas that tells its page size (``page_size``, in points), which
    :func:`draw` needs to place drawings from the page's top edge: Canvas keeps it in a
    private attribute. Pass it as ``canvasmaker`` to a reportlab document's build."""

    def __init__(self, *args: Any, pagesize: tuple[float, float], **kwargs: Any) -> None:
        # reportlab dates a document by SOURCE_DATE_EPOCH, read as it is made, even in
        # invariant mode: the kit's bytes followed the environment (dates, /ID) and a
        # value that is not a whole number raised ValueError. Made without it, then put
        # back: reportlab takes the date from nowhere else.
        epoch = os.environ.pop(_EPOCH, None)
        try:
            super().__init__(*args, pagesize=pagesize, **kwargs)
        finally:
            if epoch is not None:
                os.environ[_EPOCH] = epoch
        self.page_size = pagesize

    def setPageSize(self, size: tuple[float, float]) -> None:
        super().setPageSize(size)
        self.page_size = size


def draw(canvas: PageCanvas, drawing: Drawing, x: float, y: float) -> None:
    """Paint ``drawing`` with its top-left corner at (x, y) mm from the page's top-left."""
    paint(canvas, drawing, (x * mm, float(canvas.page_size[1]) - y * mm))


# A step of a painting's replay: operators to add as they are, or a text to set.
Step = str | Text


class Program(NamedTuple):
    """The replay of a painting: its steps, and whether it set a fill and a stroke
    colour (reportlab's colour setters also mark the document as using opacity, a
    PDF 1.4 feature: the replay does the same)."""

    steps: tuple[Step, ...]
    fills: bool
    strokes: bool


# Programs kept at most (a build draws a few hundred distinct pictures; a watch session
# that edits for hours starts over past this rather than grow).
PROGRAMS_KEPT = 2048
# Per painted tuple of items, its replay; None: painted once, not recorded (a picture
# painted only once, as most on the tile path are, costs no recording).
_programs: dict[tuple[Primitive, ...], Program | None] = {}
_UNSEEN: Any = object()
# Where a text was left out of a recording (no operator of reportlab's holds a NUL).
_TEXT_MARK = "\0text\0"


def paint_items(canvas: Canvas, items: tuple[Primitive, ...]) -> None:
    """Paint ``items`` in the canvas's current frame (1 unit = 1 mm, y down).

    The operators a painting adds to the page depend on the items alone, not on the
    page nor on the document: the same picture on both papers, in the book and the
    booklet, in every language, is the same operators. Painted a second time, they
    are recorded, and replayed from then on: the very text painting would add
    (reportlab joins a page's operators with newlines; a replayed run is one literal
    of them joined so). Texts' glyphs alone are set anew each time: their codes are
    those of the document's own font subsets. Painting only adds operators (reportlab
    writes every colour and line width it is given; colours are opaque "#rrggbb"; and
    shapes depend on no canvas state but the fill rule, which no canvas of ours
    changes from reportlab's default), and paint() restores the graphics state the
    replay leaves untracked."""
    program = _programs.get(items, _UNSEEN)
    if program is _UNSEEN or program is None:
        if len(_programs) >= PROGRAMS_KEPT:
            _programs.clear()
        if program is _UNSEEN:  # painted once only (a tile's face in its SVG's PDF)?
            _programs[items] = None
            for item in items:
                _paint(canvas, item)
            return
        program = _programs[items] = _record(items)  # seen twice: worth a recording
    if program.fills:
        canvas.setFillAlpha(1)  # what setFillColor does besides its operator
    if program.strokes:
        canvas.setStrokeAlpha(1)
    for step in program.steps:
        if isinstance(step, Text):
            _set_text(canvas, step)
        else:
            canvas.addLiteral(step)


class _RecordingCanvas(Canvas):  # type: ignore[misc]  # reportlab is untyped
    """A scratch canvas that notes whether a fill or a stroke colour was set."""

    fills = strokes = False

    def setFillColor(self, colour: Any, alpha: float | None = None) -> None:
        self.fills = True
        super().setFillColor(colour, alpha)

    def setStrokeColor(self, colour: Any, alpha: float | None = None) -> None:
        self.strokes = True
        super().setStrokeColor(colour, alpha)


def _record(items: tuple[Primitive, ...]) -> Program:
    """What replays the painting of ``items``: their operators, painted on a scratch
    canvas, cut where a text's glyphs go, with that text in their place (its place,
    colour and the graphics state around it are recorded: only _set_text is left)."""
    scratch = _RecordingCanvas(io.BytesIO(), invariant=1,
                               initialFontName=register_face("regular"))
    texts: list[Text] = []
    for item in items:
        _paint(scratch, item, texts)
    runs = scratch.getCurrentPageContent().split(_TEXT_MARK)
    steps: list[Step] = []
    for index, run in enumerate(runs):
        # Each mark is an operator of its own: drop the newlines joining it to its runs.
        if index > 0:
            run = run.removeprefix("\n")
            steps.append(texts[index - 1])
        if index < len(runs) - 1:
            run = run.removesuffix("\n")
        if run:
            steps.append(run)
    return Program(tuple(steps), scratch.fills, scratch.strokes)


def paint(canvas: Canvas, drawing: Drawing, at: tuple[float, float] | None = None) -> None:
    """Paint ``drawing`` with its top-left corner at ``at`` (points from the current
    origin; None: at the origin itself, the same operators wherever it is and whatever
    the page's size)."""
    canvas.saveState()
    if at is not None:
        canvas.translate(*at)  # reportlab folds it and the scale into one operator
    # From here on, one unit is 1 mm and y runs down, as in the primitives.
    canvas.scale(mm, -mm)
    paint_items(canvas, drawing.items)
    canvas.restoreState()


def to_pdf(drawing: Drawing, title: str = "") -> bytes:
    """A one-page PDF exactly the drawing's size; identical bytes for identical input."""
    buffer = io.BytesIO()
    canvas = make_canvas(buffer, (drawing.width * mm, drawing.height * mm), title)
    draw(canvas, drawing, 0.0, 0.0)
    canvas.showPage()
    canvas.save()
    return buffer.getvalue()


def make_canvas(target: str | IO[bytes], pagesize: tuple[float, float],
                title: str = "") -> PageCanvas:
    """A reproducible canvas (``pagesize`` in points): invariant mode, fixed metadata,
    and Lato as its initial font, so not even reportlab's page preamble names a
    standard-14 font (a plain Canvas would reference an unembedded Helvetica)."""
    canvas = PageCanvas(target, pagesize=pagesize, invariant=1, pageCompression=1,
                        initialFontName=register_face("regular"))
    set_metadata(canvas, title)
    return canvas


def set_metadata(canvas: Canvas, title: str = "") -> None:
    """Fixed document information: nothing that changes from one run to the next."""
    canvas.setCreator(CREATOR)
    canvas.setProducer(CREATOR)
    canvas.setAuthor(CREATOR)
    canvas.setTitle(title)


@functools.cache
def _colour(text: str) -> Any:
    """The reportlab Color of "#rrggbb": what the canvas would make of the string itself,
    made once (reportlab parses a colour string anew on every call, through its colour
    name table: a sixth of the time of a rulebook)."""
    return toColor(text)


def _set_paint(canvas: Canvas, fill: str | None, stroke: str | None,
               stroke_width: float) -> tuple[int, int]:
    do_fill = int(fill is not None)
    do_stroke = int(stroke is not None and stroke_width > 0)
    if fill is not None:
        canvas.setFillColor(_colour(fill))
    if do_stroke and stroke is not None:
        canvas.setStrokeColor(_colour(stroke))
        canvas.setLineWidth(stroke_width)
    return do_fill, do_stroke


def _set_text(canvas: Any, item: Text) -> None:
    """The part of painting ``item`` that depends on the document: its font, and its
    glyphs' codes in the document's subsets of it. The canvas is at its anchor, the
    fill colour set."""
    canvas.setFont(register_face(item.weight), item.size)
    if item.anchor == "middle":
        canvas.drawCentredString(0, 0, item.text)
    elif item.anchor == "end":
        canvas.drawRightString(0, 0, item.text)
    else:
        canvas.drawString(0, 0, item.text)


def _paint(canvas: Any, item: Primitive, texts: list[Text] | None = None) -> None:
    """Paint ``item``; with ``texts`` (recording), put a mark where a text's glyphs go
    instead (_set_text), and the text on the list."""
    match item:
        case Rect():
            fill, stroke = _set_paint(canvas, item.fill, item.stroke, item.stroke_width)
            if fill or stroke:
                if item.corner_radius > 0:
                    canvas.roundRect(item.x, item.y, item.width, item.height, item.corner_radius,
                                     stroke=stroke, fill=fill)
                else:
                    canvas.rect(item.x, item.y, item.width, item.height, stroke=stroke, fill=fill)
        case Circle():
            fill, stroke = _set_paint(canvas, item.fill, item.stroke, item.stroke_width)
            if fill or stroke:
                canvas.circle(item.cx, item.cy, item.r, stroke=stroke, fill=fill)
        case Line():
            _fill, stroke = _set_paint(canvas, None, item.stroke, item.stroke_width)
            if stroke:
                canvas.line(item.x1, item.y1, item.x2, item.y2)
        case Polygon():
            fill, stroke = _set_paint(canvas, item.fill, item.stroke, item.stroke_width)
            if (fill or stroke) and item.points:
                path = canvas.beginPath()
                path.moveTo(*item.points[0])
                for point in item.points[1:]:
                    path.lineTo(*point)
                path.close()
                canvas.drawPath(path, stroke=stroke, fill=fill)
        case Text():
            if item.fill is None:
                return
            canvas.saveState()
            canvas.translate(item.x, item.y)
            canvas.scale(1, -1)  # upright glyphs in the y-down frame
            canvas.setFillColor(_colour(item.fill))
            if texts is None:
                _set_text(canvas, item)
            else:
                canvas.addLiteral(_TEXT_MARK)
                texts.append(item)
            canvas.restoreState()
        case Group():
            canvas.saveState()
            canvas.translate(item.dx, item.dy)
            if item.rotate % 360:
                # In the y-down frame a positive reportlab angle turns clockwise on the page.
                canvas.translate(item.rotate_cx, item.rotate_cy)
                canvas.rotate(item.rotate % 360)
                canvas.translate(-item.rotate_cx, -item.rotate_cy)
            for child in item.items:
                _paint(canvas, child, texts)
            canvas.restoreState()
        case _:
            # mypy proves every primitive type has its case above.
            assert_never(item)
