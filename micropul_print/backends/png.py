"""Drawing -> PNG (Pillow), anti-aliased by painting at a whole multiple of the target
resolution (at least PAINT_PX_PER_MM) and averaging each block of pixels.

The image is exactly round(mm / 25.4 * dpi) pixels each way, the drawing stretched to
fill them, so a pixel is not quite 1/dpi inch (a 36 mm tile at 300 dpi is 425 pixels,
which at 300 dpi would print 35.983 mm). Its pHYs chunk records the resolution that
makes the image print at the drawing's own size: pixels per metre chosen so that
pixels / (pixels per metre) is as close to the size as a whole number allows (36 mm:
11806 px/m, printing 35.9986 mm). The colours are sRGB, and say so (sRGB chunk, with
the gAMA and cHRM chunks the PNG specification asks of sRGB writers for older
readers). No timestamp or other varying chunk is written: the same Drawing gives the
same bytes.
"""

from __future__ import annotations

import math
import struct
import zlib
from dataclasses import dataclass
from functools import lru_cache
from typing import assert_never

from PIL import Image, ImageChops, ImageDraw, ImageFont

from micropul_print.backends import fonts
from micropul_print.draw.bounds import item_bounds
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

# Pillow paints whole pixels: at this resolution a 0.3 mm hatch line is over 10 px
# wide, so rounding its width to a whole pixel changes its ink by under 5 %. At 300 dpi
# it means painting 3 x 3 pixels per image pixel (4 x 4 looked no different at 100 %
# zoom and cost half as much again).
PAINT_PX_PER_MM = 35.0
MM_PER_INCH = 25.4
# Supersampled pixels painted at once (12 MB in RGB): larger pictures go in bands.
MAX_PAINT_PIXELS = 1 << 22
_ANCHORS = {"start": "ls", "middle": "ms", "end": "rs"}
# Where a rendered image keeps the size (mm) of the drawing it shows, for png_bytes.
SIZE_INFO = "micropul_print.size_mm"
# The sRGB chunk (rendering intent: perceptual) and, for readers that do not know it,
# the gAMA and cHRM values the PNG specification gives for sRGB (in 1/100000).
_SRGB_CHUNKS = (
    (b"sRGB", b"\x00"),
    (b"gAMA", struct.pack(">I", 45455)),
    (b"cHRM", struct.pack(">8I", 31270, 32900, 64000, 33000, 30000, 60000, 15000, 6000)),
)


def pixel_size(mm: float, dpi: int) -> int:
    return round(mm / MM_PER_INCH * dpi)


def supersample(dpi: int) -> int:
    """How many times finer than ``dpi`` to paint before scaling down."""
    return max(2, math.ceil(PAINT_PX_PER_MM / (dpi / MM_PER_INCH)))


def to_image(drawing: Drawing, dpi: int = 300) -> Image.Image:
    """The drawing as an RGBA image at ``dpi`` (unpainted areas stay transparent)."""
    return _render(drawing, dpi).convert("RGBA")


def to_png(drawing: Drawing, dpi: int = 300) -> bytes:
    """PNG bytes of the drawing; without alpha when fully opaque (tile faces), else
    with; greyscale when grey. It prints at the drawing's size (see pixels_per_metre)."""
    return png_bytes(_render(drawing, dpi), dpi)


def to_raster(drawing: Drawing, dpi: int = 300) -> Image.Image:
    """The image to_png encodes: RGB when the drawing is opaque (L when every colour in
    it is a grey), else RGBA; it remembers the drawing's size for png_bytes."""
    return _render(drawing, dpi)


def pixels_per_metre(pixels: int, mm: float) -> int:
    """The whole number of pixels per metre at which ``pixels`` span ``mm`` most
    exactly (what a PNG's pHYs chunk can say)."""
    if pixels < 1 or mm <= 0:
        raise ValueError("an image of no pixels or no size has no resolution")
    # The size falls as the resolution rises: the best whole resolution is next to
    # the exact one, on one side or the other.
    best = round(pixels / (mm / 1000.0))
    candidates = [ppm for ppm in (best - 1, best, best + 1) if ppm > 0]
    return min(candidates, key=lambda ppm: abs(pixels / ppm * 1000.0 - mm))


def _render(drawing: Drawing, dpi: int) -> Image.Image:
    """RGB when the first item paints the whole drawing (a face with its background):
    a quarter less memory and no alpha to premultiply; L when besides every colour is a
    grey (the classic and ink-saver themes): a quarter of RGB's memory, to fill, average
    and encode, and the same pixels, as Pillow paints and averages each channel alike;
    RGBA otherwise.

    A large picture (a board, an overview) is painted in horizontal bands of at most
    MAX_PAINT_PIXELS supersampled pixels each, so memory stays bounded whatever its size."""
    width, height = pixel_size(drawing.width, dpi), pixel_size(drawing.height, dpi)
    if width < 1 or height < 1:
        raise ValueError(f"{drawing.width} × {drawing.height} mm at {dpi} dpi is under a pixel")
    image = _render_pixels(drawing, dpi, width, height)
    image.info[SIZE_INFO] = (drawing.width, drawing.height)
    return image


def _render_pixels(drawing: Drawing, dpi: int, width: int, height: int) -> Image.Image:
    factor = supersample(dpi)
    first = drawing.background
    opaque = first is not None
    mode = ("L" if _grey_paint(drawing.items) else "RGB") if opaque else "RGBA"
    items = drawing.items
    background: str | tuple[int, int, int, int] = (255, 255, 255, 0)
    if first is not None:
        assert first.fill is not None
        if first.stroke is None or first.stroke_width <= 0:
            # The background fills every pixel anyway: start the image in its colour
            # instead of filling it twice (a tenth of the time of a tile).
            background = first.fill
            items = items[1:]
        else:
            background = "#ffffff"
    scale = _Affine(width * factor / drawing.width, 0.0, 0.0,
                    0.0, height * factor / drawing.height, 0.0)
    band_rows = max(1, MAX_PAINT_PIXELS // (width * factor * factor))
    if band_rows >= height:
        return _paint_band(items, scale, (width, height), factor, mode, background)
    image = Image.new(mode, (width, height))
    for top in range(0, height, band_rows):
        rows = min(band_rows, height - top)
        # The same transform moved up by the band's top: whole supersampled pixels.
        shifted = _Affine(scale.a, 0.0, 0.0, 0.0, scale.e, -float(top * factor))
        image.paste(_paint_band(items, shifted, (width, rows), factor, mode, background),
                    (0, top))
    return image


def _paint_band(items: tuple[Primitive, ...], scale: _Affine, size: tuple[int, int],
                factor: int, mode: str,
                background: str | tuple[int, int, int, int]) -> Image.Image:
    """``size`` pixels of the picture, painted ``factor`` times finer through ``scale``
    (millimetres -> supersampled pixels of this band) and scaled down."""
    if mode == "RGBA":
        big = Image.new(mode, (size[0] * factor, size[1] * factor), background)
        painter = _Painter(big)
        for item in items:
            painter.paint(item, scale)
        # Averaging each factor x factor block is exact area coverage: the ideal
        # anti-aliasing filter for supersampling. Premultiplied alpha keeps the
        # transparent white around round tokens from greying their edges.
        return big.convert("RGBa").reduce(factor).convert("RGBA")
    # An opaque picture is its background but where items put ink: only those patches
    # are painted finely and averaged (a tile face is two thirds background).
    patches = _patches(items, scale, size, factor)
    if len(patches) == 1 and patches[0][0] == (0, 0, size[0] * factor, size[1] * factor):
        return _patch(patches[0][1], scale, patches[0][0], factor, mode, background,
                      keep=False)
    image = Image.new(mode, size, background)
    for box, members in patches:
        image.paste(_patch(members, scale, box, factor, mode, background),
                    (box[0] // factor, box[1] // factor))
    return image


# Patches painted lately, averaged, by what they show and where: tile faces repeat the
# same symbols in the same places (a white circle at the top left on a third of them),
# and a watch paints the same faces again. At most PATCH_CACHE_PIXELS pixels are kept
# (8 MB in RGB); the cache is emptied when full.
PATCH_CACHE_PIXELS = 1 << 21
_PATCH_CACHE: dict[tuple[object, ...], Image.Image] = {}
_patch_cache_pixels = 0


def _patch(members: tuple[Primitive, ...], scale: _Affine, box: _Box, factor: int, mode: str,
           background: str | tuple[int, int, int, int], *, keep: bool = True) -> Image.Image:
    """The ``box`` (supersampled pixels) of the picture of ``members``, painted and
    averaged; kept for the next picture with the same patch when ``keep``."""
    global _patch_cache_pixels
    key = (members, scale, box, factor, mode, background) if keep else ()
    known = _PATCH_CACHE.get(key) if keep else None
    if known is not None:
        return known
    x0, y0, x1, y1 = box
    patch = Image.new(mode, (x1 - x0, y1 - y0), background)
    painter = _Painter(patch, (x0, y0))
    for item in members:
        painter.paint(item, scale)
    small = patch.reduce(factor)
    pixels = small.width * small.height
    if not keep:
        return small
    if _patch_cache_pixels + pixels > PATCH_CACHE_PIXELS:
        _PATCH_CACHE.clear()
        _patch_cache_pixels = 0
    if pixels <= PATCH_CACHE_PIXELS:
        _PATCH_CACHE[key] = small
        _patch_cache_pixels += pixels
    return small


# Around an item's bounds (draw/bounds.py), supersampled pixels that Pillow's rounding
# may still reach, and for text (bounded by its advance width) ems its glyphs may.
_PATCH_MARGIN_PX = 2
_TEXT_MARGIN_EM = 0.3
_Box = tuple[int, int, int, int]


def _patches(items: tuple[Primitive, ...], scale: _Affine, size: tuple[int, int],
             factor: int) -> list[tuple[_Box, tuple[Primitive, ...]]]:
    """The items grouped into patches of whole pixels (blocks of ``factor`` x ``factor``
    supersampled pixels) that hold all their ink, in supersampled pixels of the band;
    items whose patches share a pixel share a patch, painted in their order. An item
    Pillow might paint otherwise when moved (see _moves_exactly) takes the whole band."""
    whole: _Box = (0, 0, size[0] * factor, size[1] * factor)
    patches: list[tuple[_Box, list[int]]] = []
    for index, item in enumerate(items):
        box = _patch_box(item, scale, factor, whole)
        if box is None:
            continue
        members = [index]
        merged = True
        while merged:  # a grown patch may reach others
            merged = False
            for other in list(patches):
                (ax0, ay0, ax1, ay1), others = other
                if ax0 < box[2] and box[0] < ax1 and ay0 < box[3] and box[1] < ay1:
                    patches.remove(other)
                    box = (min(ax0, box[0]), min(ay0, box[1]), max(ax1, box[2]),
                           max(ay1, box[3]))
                    members += others
                    merged = True
        patches.append((box, members))
    return [(box, tuple(items[i] for i in sorted(members))) for box, members in patches]


def _patch_box(item: Primitive, scale: _Affine, factor: int, whole: _Box) -> _Box | None:
    """The whole pixels (in supersampled pixels) that hold the item's ink, within
    ``whole``; None when that is nothing."""
    if not _moves_exactly(item):
        return whole
    bounds = item_bounds(item)
    grow = _text_size(item) * _TEXT_MARGIN_EM
    (x0, y0), (x1, y1) = (scale(bounds.x0 - grow, bounds.y0 - grow),
                          scale(bounds.x1 + grow, bounds.y1 + grow))
    x0, x1 = sorted((x0, x1))
    y0, y1 = sorted((y0, y1))
    box = (max(whole[0], (math.floor(x0) - _PATCH_MARGIN_PX) // factor * factor),
           max(whole[1], (math.floor(y0) - _PATCH_MARGIN_PX) // factor * factor),
           min(whole[2], -(-(math.ceil(x1) + _PATCH_MARGIN_PX) // factor) * factor),
           min(whole[3], -(-(math.ceil(y1) + _PATCH_MARGIN_PX) // factor) * factor))
    return box if box[0] < box[2] and box[1] < box[3] else None


def _moves_exactly(item: Primitive) -> bool:
    """Whether Pillow paints the item the same, moved by whole pixels, when painted on a
    patch. Rectangles, circles and text are placed by whole pixels and a fraction that
    a move leaves alone. Polygons (lines are painted as polygons) are filled by edges
    worked out in floating point: exact for edges along the axes, but a slanted edge's
    crossings round differently at another distance from the origin (one pixel of the
    ink-saver hatching), and so do the joints of stroked outlines."""
    match item:
        case Group():
            return all(_moves_exactly(child) for child in item.items)
        case Line():
            return item.x1 == item.x2 or item.y1 == item.y2
        case Polygon():
            points = item.points
            return ((item.stroke is None or item.stroke_width <= 0)
                    and all(a[0] == b[0] or a[1] == b[1]
                            for a, b in zip(points, points[1:] + points[:1], strict=True)))
        case _:
            return True


def _text_size(item: Primitive) -> float:
    """The largest text size in the item (mm), 0 without text."""
    if isinstance(item, Group):
        return max((_text_size(child) for child in item.items), default=0.0)
    return item.size if isinstance(item, Text) else 0.0


# zlib level of colour PNG files: 3 encodes in half the time of zlib's default 6; the
# pixels are the same at any level.
COMPRESS_LEVEL = 3
# PNG colour types by Pillow mode (PNG specification, 11.2.2).
_COLOUR_TYPES = {"L": 0, "RGB": 2, "LA": 4, "RGBA": 6}


def png_bytes(image: Image.Image, dpi: int) -> bytes:
    """Encode ``image`` reproducibly, as sRGB; drops alpha when opaque, and writes
    grey images (every pixel with red = green = blue) as greyscale: the same pixels in a
    third of the bytes. Its pHYs chunk makes it print at the size of the drawing it was
    rendered from (to_raster), or at ``dpi`` for any other image."""
    size = image.info.get(SIZE_INFO)
    if size is not None:
        ppm = (pixels_per_metre(image.width, size[0]), pixels_per_metre(image.height, size[1]))
    else:
        ppm = (round(dpi / 0.0254),) * 2
    if image.mode not in _COLOUR_TYPES:
        image = image.convert("RGBA" if "A" in image.getbands() else "RGB")
    if image.mode in ("RGBA", "LA") and image.getchannel("A").getextrema() == (255, 255):
        image = image.convert(image.mode[:-1])
    if image.mode in ("RGB", "RGBA") and _grey(image):
        image = image.convert("L" if image.mode == "RGB" else "LA")
    return encode_png(image, ppm)


def _grey_paint(items: tuple[Primitive, ...]) -> bool:
    """Whether every colour the items paint is a grey (#rrggbb with rr = gg = bb)."""
    for item in items:
        if isinstance(item, Group):
            if not _grey_paint(item.items):
                return False
            continue
        for colour in (getattr(item, "fill", None), item.stroke if not isinstance(item, Text)
                       else None):
            if colour is not None:
                colour = colour.lower()
                if not colour[1:3] == colour[3:5] == colour[5:7]:
                    return False
    return True


def _grey(image: Image.Image) -> bool:
    red, green, blue = image.getchannel("R"), image.getchannel("G"), image.getchannel("B")
    return (ImageChops.difference(red, green).getbbox() is None
            and ImageChops.difference(green, blue).getbbox() is None)


def encode_png(image: Image.Image, pixels_per_metre: tuple[int, int]) -> bytes:
    """The PNG file of an L, LA, RGB or RGBA image: the sRGB chunks, pHYs at
    ``pixels_per_metre``, one IDAT chunk and nothing that varies between runs.

    Written here rather than by Pillow, whose encoder tries four filters on every row
    and keeps the one of least sum: on tile faces, large areas of one colour, filtering
    costs half the encoding time and makes the file larger, not smaller. Every row is
    left unfiltered (filter type 0). Greyscale pixels, one byte each, compress best as
    runs of one byte (zlib's Z_RLE strategy: a seventh of Pillow's time on the tile
    faces, under half the size); colour pixels at COMPRESS_LEVEL."""
    width, height = image.size
    stride = width * len(image.getbands())
    raw = memoryview(image.tobytes())
    # Each row's bytes after a 0: no filter.
    scanlines = b"\x00" + b"\x00".join([raw[top:top + stride]
                                        for top in range(0, len(raw), stride)])
    if image.mode == "L":
        packer = zlib.compressobj(COMPRESS_LEVEL, zlib.DEFLATED, 15, 9, zlib.Z_RLE)
    else:
        packer = zlib.compressobj(COMPRESS_LEVEL, zlib.DEFLATED, 15, 9)
    pixels = packer.compress(scanlines) + packer.flush()
    header = struct.pack(">IIBBBBB", width, height, 8, _COLOUR_TYPES[image.mode], 0, 0, 0)
    physical = struct.pack(">IIB", *pixels_per_metre, 1)  # unit 1: the metre
    return b"".join((b"\x89PNG\r\n\x1a\n", _chunk(b"IHDR", header),
                     *(_chunk(name, data) for name, data in _SRGB_CHUNKS),
                     _chunk(b"pHYs", physical), _chunk(b"IDAT", pixels), _chunk(b"IEND", b"")))


def _chunk(kind: bytes, data: bytes) -> bytes:
    return b"".join((struct.pack(">I", len(data)), kind, data,
                     struct.pack(">I", zlib.crc32(data, zlib.crc32(kind)))))


@dataclass(frozen=True)
class _Affine:
    """x' = a x + b y + c ; y' = d x + e y + f (millimetres -> supersampled pixels)."""

    a: float
    b: float
    c: float
    d: float
    e: float
    f: float

    def __call__(self, x: float, y: float) -> tuple[float, float]:
        return (self.a * x + self.b * y + self.c, self.d * x + self.e * y + self.f)

    def then(self, inner: _Affine) -> _Affine:
        """This transform applied after ``inner``."""
        return _Affine(
            self.a * inner.a + self.b * inner.d, self.a * inner.b + self.b * inner.e,
            self.a * inner.c + self.b * inner.f + self.c,
            self.d * inner.a + self.e * inner.d, self.d * inner.b + self.e * inner.e,
            self.d * inner.c + self.e * inner.f + self.f,
        )

    @property
    def scale(self) -> float:
        """Length scale (the transforms are rotations by right angles and uniform scales)."""
        return math.hypot(self.a, self.d)

    @property
    def quarter_turns(self) -> int:
        """Clockwise quarter turns on the page."""
        return round(math.degrees(math.atan2(self.d, self.a)) / 90) % 4


def _group_transform(group: Group) -> _Affine:
    turns = (group.rotate // 90) % 4
    cos, sin = ((1, 0), (0, 1), (-1, 0), (0, -1))[turns]
    cx, cy = group.rotate_cx, group.rotate_cy
    # Clockwise on a y-down page about (cx, cy), then the translation.
    return _Affine(cos, -sin, cx - cos * cx + sin * cy + group.dx,
                   sin, cos, cy - sin * cx - cos * cy + group.dy)


@lru_cache(maxsize=64)
def _font(weight: str, pixels: int) -> ImageFont.FreeTypeFont:
    path = fonts.BOLD if weight == "bold" else fonts.REGULAR
    return ImageFont.truetype(str(path), pixels, layout_engine=ImageFont.Layout.BASIC)


def overview_font(pixels: int) -> ImageFont.FreeTypeFont:
    """Lato Regular at ``pixels``, loaded once in a process (the overview's captions)."""
    return _font("regular", pixels)


class _Painter:
    """Paints primitives on ``image``, whose top-left pixel is ``origin`` of the
    picture (a patch of it: see _patches). Coordinates are worked out on the whole
    picture as ever, and moved by the origin (whole pixels) only as they go to Pillow,
    after our own rounding: a move by whole pixels is exact in floating point for
    coordinates inside the patch, and Pillow's own conversions to whole pixels
    (truncation, rounding half up) move with it, so a patch holds the very pixels the
    whole picture would."""

    def __init__(self, image: Image.Image, origin: tuple[int, int] = (0, 0)) -> None:
        self.image = image
        self.draw = ImageDraw.Draw(image)
        self.ox, self.oy = origin

    def paint(self, item: Primitive, t: _Affine) -> None:
        match item:
            case Rect():
                self._rect(item, t)
            case Circle():
                self._circle(item, t)
            case Line():
                if item.stroke is not None and item.stroke_width > 0:
                    self._line(item, t)
            case Polygon():
                self._polygon(item, t)
            case Text():
                self._text(item, t)
            case Group():
                inner = t.then(_group_transform(item))
                for child in item.items:
                    self.paint(child, inner)
            case _:
                # mypy proves every primitive type has its case above.
                assert_never(item)

    def _rect(self, item: Rect, t: _Affine) -> None:
        (x0, y0), (x1, y1) = t(item.x, item.y), t(item.x + item.width, item.y + item.height)
        x0, x1 = sorted((x0, x1))
        y0, y1 = sorted((y0, y1))
        radius = item.corner_radius * t.scale
        if item.fill is not None:
            self._box(x0, y0, x1, y1, radius, fill=item.fill)
        if item.stroke is not None and item.stroke_width > 0:
            # Pillow strokes inward from the box; grow it by half the width so the
            # stroke is centred on the outline, as in SVG and PDF.
            half = item.stroke_width * t.scale / 2
            self._box(x0 - half, y0 - half, x1 + half, y1 + half, radius + half,
                      outline=item.stroke, width=_px(2 * half))

    def _box(self, x0: float, y0: float, x1: float, y1: float, radius: float,
             fill: str | None = None, outline: str | None = None, width: int = 0) -> None:
        # Pixel p covers [p, p+1): a box [x0, x1) spans pixels round(x0)..round(x1)-1.
        box = (round(x0) - self.ox, round(y0) - self.oy, max(round(x0), round(x1) - 1) - self.ox,
               max(round(y0), round(y1) - 1) - self.oy)
        if radius >= 1:
            self.draw.rounded_rectangle(box, radius=round(radius), fill=fill, outline=outline,
                                        width=width)
        else:
            self.draw.rectangle(box, fill=fill, outline=outline, width=width)

    def _circle(self, item: Circle, t: _Affine) -> None:
        cx, cy = t(item.cx, item.cy)
        r = item.r * t.scale
        ox, oy = self.ox, self.oy
        if item.fill is not None:
            self.draw.ellipse((cx - r - ox, cy - r - oy, cx + r - ox, cy + r - oy), fill=item.fill)
        if item.stroke is not None and item.stroke_width > 0:
            half = item.stroke_width * t.scale / 2
            self.draw.ellipse((cx - r - half - ox, cy - r - half - oy,
                               cx + r + half - ox, cy + r + half - oy),
                              outline=item.stroke, width=_px(2 * half))

    def _line(self, item: Line, t: _Affine) -> None:
        # As the rectangle it covers (butt caps, like SVG and PDF): Pillow's own wide
        # lines come out several per cent too thin when diagonal.
        (x1, y1), (x2, y2) = t(item.x1, item.y1), t(item.x2, item.y2)
        length = math.hypot(x2 - x1, y2 - y1)
        if length == 0:
            return
        # Pillow fills a polygon's boundary pixels too: take half a pixel off each side.
        half = max(item.stroke_width * t.scale / 2 - 0.5, 0.25)
        nx, ny = -(y2 - y1) / length * half, (x2 - x1) / length * half
        self.draw.polygon(self._moved([(x1 + nx, y1 + ny), (x2 + nx, y2 + ny),
                                       (x2 - nx, y2 - ny), (x1 - nx, y1 - ny)]),
                          fill=item.stroke)

    def _moved(self, points: list[tuple[float, float]]) -> list[tuple[float, float]]:
        return [(x - self.ox, y - self.oy) for x, y in points]

    def _polygon(self, item: Polygon, t: _Affine) -> None:
        points = self._moved([t(x, y) for x, y in item.points])
        if len(points) < 2:
            return
        if item.fill is not None:
            self.draw.polygon(points, fill=item.fill)
        if item.stroke is not None and item.stroke_width > 0:
            self.draw.line([*points, points[0]], fill=item.stroke,
                           width=_px(item.stroke_width * t.scale), joint="curve")

    def _text(self, item: Text, t: _Affine) -> None:
        if item.fill is None or not item.text:
            return
        font = _font(item.weight, max(1, round(item.size * t.scale)))
        x, y = t(item.x, item.y)
        anchor = _ANCHORS[item.anchor]
        turns = t.quarter_turns
        if turns == 0:
            self.draw.text((x - self.ox, y - self.oy), item.text, fill=item.fill, font=font,
                           anchor=anchor)
            return
        # Pillow sets text upright only: set it on its own mask, turn the mask, and
        # stamp the colour through it so the anchor lands on (x, y).
        left, top, right, bottom = (math.floor(v) if i < 2 else math.ceil(v)
                                    for i, v in enumerate(font.getbbox(item.text, anchor=anchor)))
        mask = Image.new("L", (right - left + 2, bottom - top + 2), 0)
        ImageDraw.Draw(mask).text((-left + 1, -top + 1), item.text, fill=255, font=font,
                                  anchor=anchor)
        ax, ay = -left + 1, -top + 1  # the anchor inside the mask
        w, h = mask.size
        for _ in range(turns):  # one clockwise quarter turn: (ax, ay) -> (h - ay, ax)
            mask = mask.transpose(Image.Transpose.ROTATE_270)
            ax, ay = h - ay, ax
            w, h = h, w
        colour = Image.new(self.image.mode, mask.size, item.fill)
        self.image.paste(colour, (round(x - ax) - self.ox, round(y - ay) - self.oy), mask)


def _px(width: float) -> int:
    return max(1, round(width))
