"""Drawing -> SVG bytes. Units: the viewBox is in millimetres, and the root width/height
say "mm", so the file prints at its true size.

One SVG element per primitive (a Group is one ``g``), in the same order; numbers are
written with at most four decimals, so the same Drawing always gives the same bytes.
Text becomes a ``path`` of Lato's glyph outlines, labelled with the text: the file
prints the same on a machine without Lato, as the PDF and PNG do. Printable ASCII comes
from the generated glyph table (no font parsing, no fontTools import); any other text is
drawn by fontTools. Both give the very same path data (tests/test_glyphtable.py).

The document is built with the standard library's ElementTree, in the form svgwrite
wrote it (the same root attributes, an empty ``defs``, attributes in name order, empty
ones left out): five element kinds need no SVG library, and importing svgwrite (with
its validators and parser) took longer than writing all 49 tile files.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET

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

_ROOT_ATTRIBUTES = {
    "baseProfile": "full",
    "version": "1.1",
    "xmlns": "http://www.w3.org/2000/svg",
    "xmlns:ev": "http://www.w3.org/2001/xml-events",
    "xmlns:xlink": "http://www.w3.org/1999/xlink",
}


def to_svg(drawing: Drawing) -> bytes:
    """The drawing as a standalone SVG document, ``drawing.width`` mm wide."""
    root = _node("svg", {
        **_ROOT_ATTRIBUTES,
        "width": f"{num(drawing.width)}mm",
        "height": f"{num(drawing.height)}mm",
        "viewBox": f"0 0 {num(drawing.width)} {num(drawing.height)}",
    })
    root.append(ET.Element("defs"))
    for item in drawing.items:
        root.append(_element(item))
    document: bytes = ET.tostring(root, encoding="utf-8")
    return document + b"\n"


def _node(tag: str, attributes: dict[str, str]) -> ET.Element:
    """An element with its non-empty attributes set in name order."""
    element = ET.Element(tag)
    for name in sorted(attributes):
        if attributes[name]:
            element.set(name, attributes[name])
    return element


def _paint(fill: str | None, stroke: str | None, stroke_width: float) -> dict[str, str]:
    paint = {"fill": fill or "none"}
    if stroke is not None and stroke_width > 0:
        paint["stroke"] = stroke
        paint["stroke-width"] = num(stroke_width)
    return paint


def _element(item: Primitive) -> ET.Element:
    if isinstance(item, Rect):
        extra = {}
        if item.corner_radius > 0:
            extra = {"rx": num(item.corner_radius), "ry": num(item.corner_radius)}
        return _node("rect", {"x": num(item.x), "y": num(item.y), "width": num(item.width),
                              "height": num(item.height), **extra,
                              **_paint(item.fill, item.stroke, item.stroke_width)})
    if isinstance(item, Circle):
        return _node("circle", {"cx": num(item.cx), "cy": num(item.cy), "r": num(item.r),
                                **_paint(item.fill, item.stroke, item.stroke_width)})
    if isinstance(item, Line):
        return _node("line", {"x1": num(item.x1), "y1": num(item.y1), "x2": num(item.x2),
                              "y2": num(item.y2), **_paint(None, item.stroke, item.stroke_width)})
    if isinstance(item, Polygon):
        points = " ".join(f"{num(x)},{num(y)}" for x, y in item.points)
        return _node("polygon", {"points": points,
                                 **_paint(item.fill, item.stroke, item.stroke_width)})
    if isinstance(item, Text):
        return _node("path", {"d": text_outline(item), "fill": item.fill or "none",
                              "aria-label": item.text})
    if isinstance(item, Group):
        transforms = []
        if item.dx or item.dy:
            transforms.append(f"translate({num(item.dx)} {num(item.dy)})")
        if item.rotate % 360:
            transforms.append(f"rotate({item.rotate % 360} {num(item.rotate_cx)} "
                              f"{num(item.rotate_cy)})")
        group = _node("g", {"transform": " ".join(transforms)})
        for child in item.items:
            group.append(_element(child))
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
