"""Drawing -> SVG bytes (svgwrite). Units: the viewBox is in millimetres, and the root
width/height say "mm", so the file prints at its true size.

One SVG element per primitive (a Group is one ``g``), in the same order; numbers are
written with at most four decimals, so the same Drawing always gives the same bytes.
Text becomes a ``path`` of Lato's glyph outlines, labelled with the text: the file
prints the same on a machine without Lato, as the PDF and PNG do. Printable ASCII comes
from the generated glyph table (no font parsing, no fontTools import); any other text is
drawn by fontTools. Both give the very same path data (tests/test_glyphtable.py).
"""

from __future__ import annotations

from typing import Any

import svgwrite

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
from micropul_print.draw.recording import mm_text as num
from micropul_print.fonts import PenCall, lato, table_glyph, units_per_em


def to_svg(drawing: Drawing) -> bytes:
    """The drawing as a standalone SVG document, ``drawing.width`` mm wide."""
    document = svgwrite.Drawing(
        size=(f"{num(drawing.width)}mm", f"{num(drawing.height)}mm"),
        viewBox=f"0 0 {num(drawing.width)} {num(drawing.height)}",
        profile="full",
        debug=False,
    )
    for item in drawing.items:
        document.add(_element(document, item))
    text: str = document.tostring()
    return text.encode("utf-8") + b"\n"


def _paint(fill: str | None, stroke: str | None, stroke_width: float) -> dict[str, str]:
    paint = {"fill": fill or "none"}
    if stroke is not None and stroke_width > 0:
        paint["stroke"] = stroke
        paint["stroke_width"] = num(stroke_width)
    return paint


def _element(document: Any, item: Primitive) -> Any:
    if isinstance(item, Rect):
        extra = {}
        if item.corner_radius > 0:
            extra = {"rx": num(item.corner_radius), "ry": num(item.corner_radius)}
        return document.rect(insert=(num(item.x), num(item.y)),
                             size=(num(item.width), num(item.height)),
                             **extra, **_paint(item.fill, item.stroke, item.stroke_width))
    if isinstance(item, Circle):
        return document.circle(center=(num(item.cx), num(item.cy)), r=num(item.r),
                               **_paint(item.fill, item.stroke, item.stroke_width))
    if isinstance(item, Line):
        return document.line(start=(num(item.x1), num(item.y1)), end=(num(item.x2), num(item.y2)),
                             **_paint(None, item.stroke, item.stroke_width))
    if isinstance(item, Polygon):
        return document.polygon(points=[(num(x), num(y)) for x, y in item.points],
                                **_paint(item.fill, item.stroke, item.stroke_width))
    if isinstance(item, Text):
        return document.path(d=text_outline(item), fill=item.fill or "none",
                             **{"aria-label": item.text})
    if isinstance(item, Group):
        transforms = []
        if item.dx or item.dy:
            transforms.append(f"translate({num(item.dx)} {num(item.dy)})")
        if item.rotate % 360:
            transforms.append(f"rotate({item.rotate % 360} {num(item.rotate_cx)} "
                              f"{num(item.rotate_cy)})")
        group = document.g(transform=" ".join(transforms)) if transforms else document.g()
        for child in item.items:
            group.add(_element(document, child))
        return group
    raise TypeError(f"not a drawing primitive: {item!r}")


def text_outline(text: Text) -> str:
    """The path data of ``text`` set in Lato at its anchor: glyph outlines placed by
    their advance widths (Lato has no legacy kerning table; the PDF and PNG backends
    do not kern either)."""
    glyphs = [table_glyph(char, text.weight) for char in text.text]
    if any(glyph is None for glyph in glyphs):
        return _font_outline(text)
    scale = text.size / units_per_em()
    width = sum(glyph[0] for glyph in glyphs if glyph is not None) * scale
    x = text.x - {"start": 0.0, "middle": width / 2, "end": width}[text.anchor]
    pen = _PathWriter()
    for glyph in glyphs:
        assert glyph is not None
        pen.draw(glyph[1], scale, x, text.y)
        x += glyph[0] * scale
    return pen.commands()


def _font_outline(text: Text) -> str:
    """text_outline through fontTools, for characters outside the glyph table."""
    from fontTools.pens.svgPathPen import SVGPathPen  # type: ignore[import-untyped]
    from fontTools.pens.transformPen import TransformPen  # type: ignore[import-untyped]

    font = lato(text.weight)
    cmap = font.getBestCmap()
    glyphs = font.getGlyphSet()
    metrics = font["hmtx"]
    scale = text.size / font["head"].unitsPerEm
    names = [cmap.get(ord(char), ".notdef") for char in text.text]
    width = sum(metrics[name][0] for name in names) * scale
    x = text.x - {"start": 0.0, "middle": width / 2, "end": width}[text.anchor]
    pen = SVGPathPen(glyphs, ntos=num)
    for name in names:
        # Font units have y upward from the baseline; the page has y downward.
        glyphs[name].draw(TransformPen(pen, (scale, 0, 0, -scale, x, text.y)))
        x += metrics[name][0] * scale
    commands: str = pen.getCommands()
    return commands


class _PathWriter:
    """Path data from table pen calls, character for character what fontTools writes
    (a TransformPen into an SVGPathPen with ``ntos=num``): the same arithmetic in the
    same order, the same implied on-curve points, the same M/L/H/V/Q/Z shortening."""

    def __init__(self) -> None:
        self._commands: list[str] = []
        self._last_command: str | None = None
        self._last: tuple[float, float] | None = None

    def commands(self) -> str:
        return "".join(self._commands)

    def draw(self, calls: tuple[PenCall, ...], scale: float, dx: float, dy: float) -> None:
        """One glyph, font units scaled by ``scale``, y flipped, moved to (dx, dy)."""
        yy = -scale
        for operator, numbers in calls:
            # fontTools' Transform(scale, 0, 0, -scale, dx, dy).transformPoint, verbatim.
            points = [(scale * numbers[i] + 0 * numbers[i + 1] + dx,
                       0 * numbers[i] + yy * numbers[i + 1] + dy)
                      for i in range(0, len(numbers), 2)]
            if operator == "M":
                self._move(points[0])
            elif operator == "L":
                self._line(points[0])
            elif operator == "Q":
                self._quadratic(points)
            elif operator == "Z":
                self._commands.append("Z")
                self._last_command = "Z"
                self._last = None
            else:
                raise ValueError(f"unknown pen call in the glyph table: {operator!r}")

    def _move(self, point: tuple[float, float]) -> None:
        if self._last_command == "M":  # a lone move is dropped, as SVGPathPen does
            self._commands.pop()
        self._commands.append(f"M{num(point[0])} {num(point[1])}")
        self._last_command = "M"
        self._last = point

    def _line(self, point: tuple[float, float]) -> None:
        x, y = point
        last_x, last_y = self._last if self._last is not None else (None, None)
        if x == last_x and y == last_y:
            return
        if x == last_x:
            command: str | None = "V"
            text = num(y)
        elif y == last_y:
            command, text = "H", num(x)
        elif self._last_command == "M":
            command, text = None, f" {num(x)} {num(y)}"
        else:
            command, text = "L", f"{num(x)} {num(y)}"
        if command:
            self._last_command = command
            text = command + text
        self._commands.append(text)
        self._last = point

    def _quadratic(self, points: list[tuple[float, float]]) -> None:
        # BasePen.qCurveTo: an implied on-curve point halfway between two off-curve ones.
        if len(points) == 1:
            self._line(points[0])
            return
        for i in range(len(points) - 2):
            (x, y), (nx, ny) = points[i], points[i + 1]
            self._quadratic_one(points[i], (0.5 * (x + nx), 0.5 * (y + ny)))
        self._quadratic_one(points[-2], points[-1])

    def _quadratic_one(self, control: tuple[float, float], end: tuple[float, float]) -> None:
        self._commands.append(f"Q{num(control[0])} {num(control[1])} {num(end[0])} {num(end[1])}")
        self._last_command = "Q"
        self._last = end
