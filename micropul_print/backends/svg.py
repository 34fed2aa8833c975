"""Drawing -> SVG bytes. Units: the viewBox is in millimetres, and the root width/height
say "mm", so the file prints at its true size.

One SVG element per primitive (a Group is one ``g``), in the same order; numbers are
written with at most four decimals, so the same Drawing always gives the same bytes.
Text becomes a ``path`` of Lato's glyph outlines, labelled with the text: the file
prints the same on a machine without Lato, as the PDF and PNG do. The outlines of
printable ASCII come from the generated glyph table (no font parsing); any other text's
are read from the font. Either way fontTools' SVGPathPen writes the path data.

The document is built with the standard library's ElementTree, in the form svgwrite
wrote it (the same root attributes, an empty ``defs``, attributes in name order, empty
ones left out): five element kinds need no SVG library, and importing svgwrite (with
its validators and parser) took longer than writing all 49 tile files.
"""

from __future__ import annotations

import functools
import xml.etree.ElementTree as ET
from collections.abc import Callable
from typing import Any, assert_never

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
    match item:
        case Rect():
            extra = {}
            if item.corner_radius > 0:
                extra = {"rx": num(item.corner_radius), "ry": num(item.corner_radius)}
            return _node("rect", {"x": num(item.x), "y": num(item.y), "width": num(item.width),
                                  "height": num(item.height), **extra,
                                  **_paint(item.fill, item.stroke, item.stroke_width)})
        case Circle():
            return _node("circle", {"cx": num(item.cx), "cy": num(item.cy), "r": num(item.r),
                                    **_paint(item.fill, item.stroke, item.stroke_width)})
        case Line():
            return _node("line", {"x1": num(item.x1), "y1": num(item.y1), "x2": num(item.x2),
                                  "y2": num(item.y2),
                                  **_paint(None, item.stroke, item.stroke_width)})
        case Polygon():
            points = " ".join(f"{num(x)},{num(y)}" for x, y in item.points)
            return _node("polygon", {"points": points,
                                     **_paint(item.fill, item.stroke, item.stroke_width)})
        case Text():
            return _node("path", {"d": text_outline(item), "fill": item.fill or "none",
                                  "aria-label": item.text})
        case Group():
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
        case _:
            # mypy proves every primitive type has its case above.
            assert_never(item)


# A glyph: its advance in font units, and what draws its outline (font units) on a pen.
_Glyph = tuple[int, Callable[[Any], None]]


def text_outline(text: Text) -> str:
    """The path data of ``text`` set in Lato at its anchor: glyph outlines placed by
    their advance widths (Lato has no legacy kerning table; the PDF and PNG backends
    do not kern either). Printable ASCII is drawn from the generated table, anything
    else from the font; both give the same pen calls (tests/test_glyphtable.py)."""
    glyphs = _table_glyphs(text)
    if glyphs is None:
        return _font_outline(text)
    return _outline(text, glyphs, units_per_em())


def _font_outline(text: Text) -> str:
    """text_outline with every glyph read from the font by fontTools, even one the
    table holds."""
    font = lato(text.weight)
    cmap = font.getBestCmap()
    glyph_set = font.getGlyphSet()
    metrics = font["hmtx"]
    names = [cmap.get(ord(char), ".notdef") for char in text.text]
    glyphs: list[_Glyph] = [(metrics[name][0], glyph_set[name].draw) for name in names]
    return _outline(text, glyphs, font["head"].unitsPerEm, glyph_set)


def _outline(text: Text, glyphs: list[_Glyph], units_per_em: int,
             glyph_set: Any = None) -> str:
    """The glyphs set one after the other from the anchor, ``units_per_em`` font units
    to ``text.size``, as SVG path data (fontTools' pen writes it). Composite glyphs
    (accented letters) draw their components from ``glyph_set``."""
    from fontTools.pens.svgPathPen import SVGPathPen  # type: ignore[import-untyped]
    from fontTools.pens.transformPen import TransformPen  # type: ignore[import-untyped]

    scale = text.size / units_per_em
    width = sum(advance for advance, _draw in glyphs) * scale
    x = text.x - {"start": 0.0, "middle": width / 2, "end": width}[text.anchor]
    pen = SVGPathPen(glyph_set, ntos=num)
    for advance, draw in glyphs:
        # Font units have y upward from the baseline; the page has y downward.
        draw(TransformPen(pen, (scale, 0, 0, -scale, x, text.y)))
        x += advance * scale
    commands: str = pen.getCommands()
    return commands


def _table_glyphs(text: Text) -> list[_Glyph] | None:
    """The glyphs of ``text`` from the generated table (no font parsing); None when a
    character is not in it."""
    glyphs: list[_Glyph] = []
    for char in text.text:
        entry = table_glyph(char, text.weight)
        if entry is None:
            return None
        advance, calls = entry
        glyphs.append((advance, functools.partial(_replay, calls)))
    return glyphs


def _replay(calls: tuple[PenCall, ...], pen: Any) -> None:
    for operator, numbers in calls:
        points = [(numbers[i], numbers[i + 1]) for i in range(0, len(numbers), 2)]
        if operator == "M":
            pen.moveTo(points[0])
        elif operator == "L":
            pen.lineTo(points[0])
        elif operator == "Q":
            pen.qCurveTo(*points)
        elif operator == "Z":
            pen.closePath()
        else:
            raise ValueError(f"unknown pen call in the glyph table: {operator!r}")
