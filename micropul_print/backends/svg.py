"""Drawing -> SVG bytes (svgwrite). Units: the viewBox is in millimetres, and the root
width/height say "mm", so the file prints at its true size.

One SVG element per primitive (a Group is one ``g``), in the same order; numbers are
written with at most four decimals, so the same Drawing always gives the same bytes.
Text becomes a ``path`` of Lato's glyph outlines (fontTools), labelled with the text:
the file prints the same on a machine without Lato, as the PDF and PNG do.
"""

from __future__ import annotations

from typing import Any

import svgwrite
from fontTools.pens.svgPathPen import SVGPathPen  # type: ignore[import-untyped]
from fontTools.pens.transformPen import TransformPen  # type: ignore[import-untyped]

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
from micropul_print.fonts import lato


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
