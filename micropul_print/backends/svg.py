"""Drawing -> SVG bytes. Units: the viewBox is in millimetres, and the root width/height
say "mm", so the file prints at its true size.

One SVG element per primitive (a Group is one ``g``), in the same order; numbers are
written with at most four decimals, so the same Drawing always gives the same bytes.
Text becomes a ``path`` of Lato's glyph outlines, labelled with the text: the file
prints the same on a machine without Lato, as the PDF and PNG do. The outlines of
printable ASCII come from the generated glyph table (no font parsing), written as
fontTools' SVGPathPen writes them; any other text's are read from the font, and the
pen writes them.

The document is written as text, in the form svgwrite wrote it (the same root
attributes, an empty ``defs``, attributes in name order, empty ones left out) and as
the standard library's ElementTree serialises it (``<defs />``, its escapes): five
element kinds need no SVG library. Importing svgwrite (with its validators and parser)
took longer than writing all 49 tile files, and building ElementTree elements only to
serialise them a fifth of the time of writing them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, assert_never

from micropul_print.backends.fonts import PenCall, lato, table_glyph, units_per_em
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
from micropul_print.draw.recording import mm_text

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
    }, ["<defs />", *map(_element, drawing.items)])
    return root.encode("utf-8", "xmlcharrefreplace") + b"\n"


# Each number's text, once: a tile's shapes sit at the same places on every tile (some
# 1,600 different numbers among the 12,600 of the 49 tile files). Cleared when large.
_NUMBERS: dict[float, str] = {}
_NUMBERS_KEPT = 100_000


def num(value: float) -> str:
    """mm_text, remembered."""
    text = _NUMBERS.get(value)
    if text is None:
        if len(_NUMBERS) >= _NUMBERS_KEPT:
            _NUMBERS.clear()
        text = _NUMBERS[value] = mm_text(value)
    return text


def _escape(value: str) -> str:
    """An attribute's value as ElementTree escapes it."""
    if "&" in value:
        value = value.replace("&", "&amp;")
    for plain, escaped in _ESCAPES:
        if plain in value:
            value = value.replace(plain, escaped)
    return value


_ESCAPES = (("<", "&lt;"), (">", "&gt;"), ('"', "&quot;"), ("\r", "&#13;"), ("\n", "&#10;"),
            ("\t", "&#09;"))


def _node(tag: str, attributes: dict[str, str], children: list[str] | None = None) -> str:
    """An element with its non-empty attributes in name order, and its children."""
    attrs = "".join([f' {name}="{_escape(attributes[name])}"' for name in sorted(attributes)
                     if attributes[name]])
    if children:
        return f"<{tag}{attrs}>{''.join(children)}</{tag}>"
    return f"<{tag}{attrs} />"


def _paint(fill: str | None, stroke: str | None, stroke_width: float) -> dict[str, str]:
    paint = {"fill": fill or "none"}
    if stroke is not None and stroke_width > 0:
        paint["stroke"] = stroke
        paint["stroke-width"] = num(stroke_width)
    return paint


def _element(item: Primitive) -> str:
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
            return _node("g", {"transform": " ".join(transforms)},
                         [_element(child) for child in item.items])
        case _:
            # mypy proves every primitive type has its case above.
            assert_never(item)


# A glyph: its advance in font units, and what draws its outline (font units) on a pen.
_Glyph = tuple[int, Callable[[Any], None]]


def text_outline(text: Text) -> str:
    """The path data of ``text`` set in Lato at its anchor: glyph outlines placed by
    their advance widths (Lato has no legacy kerning table; the PDF and PNG backends
    do not kern either). Printable ASCII is drawn from the generated table, anything
    else from the font; both give the same path data (tests/backends/test_glyphtable.py)."""
    entries = [table_glyph(char, text.weight) for char in text.text]
    if any(entry is None for entry in entries):
        return _font_outline(text)
    return _table_outline(text, [entry for entry in entries if entry is not None],
                          units_per_em())


def _table_outline(text: Text, glyphs: list[tuple[int, tuple[PenCall, ...]]],
                   units_per_em: int) -> str:
    """_outline of glyphs from the generated table, written straight from their pen
    calls: the very path data fontTools' TransformPen and SVGPathPen make of them
    (the same arithmetic, the same commands), without the pens' layers of calls, which
    took most of the time of writing a tile's SVG."""
    scale = text.size / units_per_em
    width = sum(advance for advance, _calls in glyphs) * scale
    x = text.x - {"start": 0.0, "middle": width / 2, "end": width}[text.anchor]
    y = text.y
    path = _PathData()
    for advance, calls in glyphs:
        for operator, numbers in calls:
            # Font units have y upward from the baseline; the page has y downward (as
            # TransformPen computes it: scale * x + 0 * y + dx, 0 * x + -scale * y + dy).
            points = [(scale * numbers[i] + x, -scale * numbers[i + 1] + y)
                      for i in range(0, len(numbers), 2)]
            if operator == "M":
                path.move(points[0])
            elif operator == "L":
                path.line(points[0])
            elif operator == "Q":
                path.quad(points)
            elif operator == "Z":
                path.close()
            else:
                raise ValueError(f"unknown pen call in the glyph table: {operator!r}")
        x += advance * scale
    return "".join(path.parts)


class _PathData:
    """SVG path data as fontTools' SVGPathPen writes it (its rules: a move replacing
    a move, H and V for level lines, a line after a move without a letter, repeated
    points dropped), from points already on the page."""

    def __init__(self) -> None:
        self.parts: list[str] = []
        self.last: str | None = None
        self.at: tuple[float, float] | None = None

    def move(self, point: tuple[float, float]) -> None:
        if self.last == "M":
            self.parts.pop()
        self.parts.append(f"M{num(point[0])} {num(point[1])}")
        self.last, self.at = "M", point

    def line(self, point: tuple[float, float]) -> None:
        x, y = point
        at_x, at_y = self.at if self.at is not None else (None, None)
        if x == at_x and y == at_y:
            return
        if x == at_x:
            self.parts.append(f"V{num(y)}")
            self.last = "V"
        elif y == at_y:
            self.parts.append(f"H{num(x)}")
            self.last = "H"
        elif self.last == "M":
            self.parts.append(f" {num(x)} {num(y)}")
        else:
            self.parts.append(f"L{num(x)} {num(y)}")
            self.last = "L"
        self.at = point

    def quad(self, points: list[tuple[float, float]]) -> None:
        """A string of quadratic segments, an on-curve point implied midway between two
        off-curve ones (the last point is on the curve)."""
        if len(points) == 1:
            self.line(points[0])
            return
        # _segment's work inlined, each number's text looked up first: a tile's SVG
        # writes some 50 of these segments per tile number.
        known = _NUMBERS.get
        parts = self.parts
        x0, y0 = points[0]
        for x1, y1 in points[1:-1]:
            mid_x, mid_y = 0.5 * (x0 + x1), 0.5 * (y0 + y1)
            parts.append(f"Q{known(x0) or num(x0)} {known(y0) or num(y0)} "
                         f"{known(mid_x) or num(mid_x)} {known(mid_y) or num(mid_y)}")
            x0, y0 = x1, y1
        self._segment((x0, y0), points[-1])

    def _segment(self, control: tuple[float, float], end: tuple[float, float]) -> None:
        self.parts.append(f"Q{num(control[0])} {num(control[1])} {num(end[0])} {num(end[1])}")
        self.last, self.at = "Q", end

    def close(self) -> None:
        self.parts.append("Z")
        self.last, self.at = "Z", None


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
