"""A figure of the Micropul rulebook as one Drawing: the tiles of its position drawn by the
game's own tile art (the very drawings of the print sheets), turned and set in their
cells, plus the figure marks: a coloured frame on the tiles just played, a cross on
an illegal placement (broken around its catalysts, which the caption may be about),
outlines of groups, and numbered stones. Pure: primitives in, primitives out.

Lengths are those of the tile art (a tile is ``cell`` mm); the page layout scales the
whole drawing down to the size it prints at.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

from micropul_print.backends.fonts import CAP_HEIGHT
from micropul_print.draw.primitives import Circle, Drawing, Group, Line, Primitive, Rect, Text
from micropul_print.games.micropul.analysis import group_at, quadrant_key
from micropul_print.games.micropul.model import (
    BL,
    BR,
    CATALYSTS,
    EMPTY,
    QUADRANT_NAMES,
    TR,
    Catalogue,
    Tile,
)
from micropul_print.rulebook.verify import VerifiedFigure

TileArt = Callable[[Tile], Drawing]  # a tile -> its face, a square Drawing
StoneArt = Callable[[int, float], Drawing]  # player, diameter -> a round token


@dataclass(frozen=True)
class FigureStyle:
    """How the figure marks look, in tile-art millimetres."""

    highlight: str = "#1864ab"  # frame on the tile just played
    highlight_width: float = 0.9
    cross: str = "#e03131"  # cross on an illegal placement
    cross_width: float = 1.1  # thin: the symbols under it must stay readable
    cross_frame_width: float = 1.6
    # The cross stops this far from the centre of each catalyst of the crossed tile,
    # so that a catalyst a caption points at is never under it: clears the shipped
    # themes' marks (two dots 4.2 mm apart, a plus 5.2 mm wide).
    cross_clearance: float = 3.8
    group: str = "#f08c00"  # outline of a group the caption talks about
    group_width: float = 0.7
    # Between the highlight frame and a group outline beside it: a clear line (0.3 mm
    # at 18 mm tiles), so both show where they run side by side.
    group_gap: float = 0.5
    table: str = "#f1f3f5"  # the table under the tiles
    margin: float = 4.0  # table around the tiles
    stone_diameter: float = 9.0  # ring and all clear of a label across the middle
    stone_halo: float = 1.0  # highlight-coloured ring around a stone
    stone_number_size: float = 5.0

    @property
    def group_inset(self) -> float:
        """How far inside the group's edge its outline's centre line runs: past the
        highlight frame and the gap, so only grazing a micropul (which starts 1.8 mm
        inside its quarter in the shipped themes; the outline ends 2.1 mm inside)."""
        return self.highlight_width + self.group_gap + self.group_width / 2


STYLE = FigureStyle()
_QUADRANT_CENTRES = ((0.25, 0.25), (0.75, 0.25), (0.75, 0.75), (0.25, 0.75))  # tl tr br bl


def figure_drawing(verified: VerifiedFigure, catalogue: Catalogue, tile_art: TileArt,
                   stone_art: StoneArt, style: FigureStyle = STYLE) -> Drawing:
    """The figure's position, every placement in its cell (illegal ones crossed out)."""
    placements = verified.position.placements
    cell = _cell_size(tile_art, catalogue)
    left = min(p.x for p in placements)
    top = min(p.y for p in placements)
    columns = max(p.x for p in placements) - left + 1
    rows = max(p.y for p in placements) - top + 1
    width = columns * cell + 2 * style.margin
    height = rows * cell + 2 * style.margin
    items: list[Primitive] = [Rect(0.0, 0.0, width, height, fill=style.table,
                                   corner_radius=style.margin)]

    def origin(x: int, y: int) -> tuple[float, float]:
        return style.margin + (x - left) * cell, style.margin + (y - top) * cell

    highlight = verified.figure.highlight
    if highlight is None:
        highlight = (len(placements),) if len(placements) > 1 else ()
    outlined = bool(verified.figure.outline)
    frames: list[Primitive] = []
    labels: list[Primitive] = []
    for number, (spec, outcome) in enumerate(
            zip(placements, verified.analysis["placements"], strict=True), start=1):
        x0, y0 = origin(spec.x, spec.y)
        tile = catalogue.tile(spec.tile)
        art = tile_art(tile).items
        words = _labels(art, cell) if outlined else ()
        # Over outlines, a tile's labels are drawn once, above them: a line never
        # hides a word, and the PDF's text says START once.
        items.append(Group(tuple(i for i in art if all(i is not w for w in words)),
                           dx=x0, dy=y0,
                           rotate=spec.rotation, rotate_cx=cell / 2, rotate_cy=cell / 2))
        if words:
            labels.append(Group(words, dx=x0, dy=y0, rotate=spec.rotation,
                                rotate_cx=cell / 2, rotate_cy=cell / 2))
        if not outcome["legal"]:
            frames += _cross(x0, y0, cell, style, _catalyst_centres(tile, spec.rotation))
        elif number in highlight:
            inset = style.highlight_width / 2
            frames.append(Rect(x0 + inset, y0 + inset, cell - 2 * inset, cell - 2 * inset,
                               stroke=style.highlight, stroke_width=style.highlight_width))
    # Outlines first, then frames and crosses: where an outline runs across a tile's
    # edge, the frame on that tile stays whole.
    marks: list[Primitive] = []
    for key in verified.figure.outline:
        x, y, quadrant = quadrant_key(key)
        group = group_at(verified.analysis, x, y, quadrant)
        assert group is not None  # verify_figures refuses outlines of no group
        marks += _group_outline([tuple(q) for q in group["quadrants"]], origin, cell, style)
    marks += frames + labels
    for stone in verified.position.stones:
        x0, y0 = origin(stone.x, stone.y)
        fx, fy = _QUADRANT_CENTRES[stone.quadrant]
        marks += stone_items(stone.player, x0 + fx * cell, y0 + fy * cell, stone_art, style)
    return Drawing(width, height, tuple(items + marks))


def stone_items(player: int, cx: float, cy: float, stone_art: StoneArt,
                style: FigureStyle = STYLE) -> list[Primitive]:
    """A stone centred on (cx, cy): a ring that sets it apart from a micropul, the
    game's stone token, and the player's number in the colour that reads on it."""
    d = style.stone_diameter
    token = stone_art(player, d)
    number_colour = "#000000" if _is_light(_main_fill(token)) else "#ffffff"
    return [
        Circle(cx, cy, d / 2 + style.stone_halo, fill=style.highlight),
        Group(token.items, dx=cx - token.width / 2, dy=cy - token.height / 2),
        Text(cx, cy + CAP_HEIGHT * style.stone_number_size / 2, str(player),
             style.stone_number_size,
             fill=number_colour, weight="bold"),
    ]


def _group_outline(quadrants: list[tuple[int, int, str]],
                   origin: Callable[[int, int], tuple[float, float]], cell: float,
                   style: FigureStyle) -> list[Primitive]:
    """The boundary of a group's quadrants, ``style.group_inset`` inside it: each
    quadrant side that no other quadrant of the group shares, moved inwards, shortened
    at outer corners and lengthened at inner ones. Lines run on by half their width so
    that corners close."""
    half = cell / 2
    squares: set[tuple[int, int]] = set()
    for x, y, quadrant in quadrants:
        q = QUADRANT_NAMES.index(quadrant)
        squares.add((2 * x + (q in (TR, BR)), 2 * y + (q in (BR, BL))))
    left = min(sx for sx, _ in squares) // 2
    top = min(sy for _, sy in squares) // 2
    x0, y0 = origin(left, top)
    inset, run = style.group_inset, style.group_width / 2
    lines: list[Primitive] = []
    for sx, sy in sorted(squares):
        ax, ay = x0 + (sx - 2 * left) * half, y0 + (sy - 2 * top) * half
        for (nx, ny), (px, py), (tx, ty) in _SIDES:
            if (sx + nx, sy + ny) in squares:
                continue
            start = _corner(squares, (sx - tx, sy - ty), (nx, ny), inset) + run
            end = _corner(squares, (sx + tx, sy + ty), (nx, ny), inset) + run
            x1 = ax + px * half - nx * inset - tx * start
            y1 = ay + py * half - ny * inset - ty * start
            x2 = ax + (px + tx) * half - nx * inset + tx * end
            y2 = ay + (py + ty) * half - ny * inset + ty * end
            lines.append(Line(x1, y1, x2, y2, stroke=style.group,
                              stroke_width=style.group_width))
    return lines


def _corner(squares: set[tuple[int, int]], beside: tuple[int, int],
            normal: tuple[int, int], inset: float) -> float:
    """How far the end of a side moves along it, given the square ``beside`` that end:
    in at an outer corner, out at an inner one, not at all where the boundary runs
    straight on."""
    if beside not in squares:
        return -inset
    return inset if (beside[0] + normal[0], beside[1] + normal[1]) in squares else 0.0


# A square's sides: outward normal, starting corner (in half cells), direction.
_SIDES = (((0, -1), (0, 0), (1, 0)), ((1, 0), (1, 0), (0, 1)),
          ((0, 1), (1, 1), (-1, 0)), ((-1, 0), (0, 1), (0, -1)))


def _labels(art: tuple[Primitive, ...], cell: float) -> tuple[Primitive, ...]:
    """A tile's words and the plates behind them: its texts, and each small rectangle
    (under a quarter of the tile) that holds a text's anchor."""
    texts = [item for item in art if isinstance(item, Text)]
    return tuple(item for item in art if item in texts or (
        isinstance(item, Rect) and item.width * item.height < cell * cell / 4
        and any(item.x <= t.x <= item.x + item.width
                and item.y <= t.y <= item.y + item.height for t in texts)))


def _catalyst_centres(tile: Tile, rotation: int) -> tuple[tuple[float, float], ...]:
    """Where the tile's catalysts lie once turned, as fractions of the cell."""
    if tile.big is not None:
        return ((0.5, 0.5),)
    return tuple(centre for value, centre in zip(tile.rotated(rotation), _QUADRANT_CENTRES,
                                                  strict=True) if value in CATALYSTS)


def _cross(x0: float, y0: float, cell: float, style: FigureStyle,
           clear: tuple[tuple[float, float], ...] = ()) -> list[Primitive]:
    """A red frame and an X from corner to corner inside it; each diagonal is broken
    around the points of ``clear`` (fractions of the cell), so the marks there show."""
    half = style.cross_frame_width / 2
    inset = style.cross_frame_width
    items: list[Primitive] = [
        Rect(x0 + half, y0 + half, cell - 2 * half, cell - 2 * half, stroke=style.cross,
             stroke_width=style.cross_frame_width)]
    for start, end in (((inset, inset), (cell - inset, cell - inset)),
                       ((cell - inset, inset), (inset, cell - inset))):
        for (ax, ay), (bx, by) in _broken(start, end, [(fx * cell, fy * cell)
                                                      for fx, fy in clear],
                                          style.cross_clearance):
            items.append(Line(x0 + ax, y0 + ay, x0 + bx, y0 + by, stroke=style.cross,
                              stroke_width=style.cross_width))
    return items


def _broken(start: tuple[float, float], end: tuple[float, float],
            points: list[tuple[float, float]], radius: float) -> list[
                tuple[tuple[float, float], tuple[float, float]]]:
    """The pieces of the segment start-end that lie ``radius`` or farther from every
    point (a point near the segment cuts a gap of its circle's chord out of it)."""
    (sx, sy), (ex, ey) = start, end
    length = math.hypot(ex - sx, ey - sy)
    ux, uy = (ex - sx) / length, (ey - sy) / length
    gaps = []
    for px, py in points:
        along = (px - sx) * ux + (py - sy) * uy
        across = abs((px - sx) * uy - (py - sy) * ux)
        if across < radius:
            chord = math.sqrt(radius * radius - across * across)
            gaps.append((along - chord, along + chord))
    pieces, at = [], 0.0
    for gap_start, gap_end in sorted(gaps):
        if gap_start > at:
            pieces.append((at, gap_start))
        at = max(at, gap_end)
    if at < length:
        pieces.append((at, length))
    return [((sx + ux * a, sy + uy * a), (sx + ux * b, sy + uy * b)) for a, b in pieces]


def legend_symbol(symbol: str, catalogue: Catalogue, tile_art: TileArt) -> Drawing:
    """One symbol of the tiles at the size it has on a tile: a quadrant value alone
    in the top-left quadrant of a tile face (the caller shows that quadrant only),
    or, for ``big``, a whole big tile of the catalogue."""
    if symbol == "big":
        return tile_art(next(t for t in catalogue.tiles if t.big is not None))
    return tile_art(Tile(id=0, quadrants=(symbol, EMPTY, EMPTY, EMPTY)))


def legend_mark(mark: str, cell: float, stone_art: StoneArt,
                style: FigureStyle = STYLE) -> Drawing:
    """A figure mark on its own, in a square of a quarter tile (``cell / 2``)."""
    size = cell / 2
    items: list[Primitive]
    if mark == "highlight":
        w = style.highlight_width
        items = [Rect(w, w, size - 2 * w, size - 2 * w, stroke=style.highlight,
                      stroke_width=w)]
    elif mark == "group":
        inset = style.group_inset
        items = [Rect(inset, inset, size - 2 * inset, size - 2 * inset, stroke=style.group,
                      stroke_width=style.group_width)]
    elif mark == "cross":
        items = _cross(0.0, 0.0, size, style)
    else:
        items = stone_items(1, size / 2, size / 2, stone_art, style)
    return Drawing(size, size, tuple(items))


def _cell_size(tile_art: TileArt, catalogue: Catalogue) -> float:
    return tile_art(catalogue.tiles[0]).width


def _main_fill(drawing: Drawing) -> str:
    """The fill of the first filled circle of a token (its body)."""
    for item in drawing.items:
        if isinstance(item, Circle) and item.fill is not None:
            return item.fill
    return "#ffffff"


def _is_light(colour: str) -> bool:
    r, g, b = (int(colour[i:i + 2], 16) for i in (1, 3, 5))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b > 127.5
