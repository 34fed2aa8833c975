from __future__ import annotations

import io
import struct
import zlib

import pytest
from PIL import Image, ImageChops, ImageStat

from micropul_print.backends.png import (
    pixel_size,
    pixels_per_metre,
    png_bytes,
    to_image,
    to_png,
    to_raster,
)
from micropul_print.draw.primitives import (
    Circle,
    Drawing,
    Group,
    Line,
    Primitive,
    Rect,
    Text,
)
from micropul_print.draw.theme import load_theme
from micropul_print.games.micropul.faces import stone_drawing, tile_drawing
from micropul_print.games.micropul.model import (
    BLACK,
    DOT,
    DOUBLE,
    EMPTY,
    PLUS,
    WHITE,
    BigMicropul,
    Tile,
)

START = Tile(41, (WHITE, WHITE, BLACK, BLACK), start=True)


def png_chunks(data: bytes) -> list[tuple[bytes, bytes]]:
    """The (type, data) of each chunk of a PNG file, in order."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    chunks, at = [], 8
    while at < len(data):
        (length,) = struct.unpack(">I", data[at:at + 4])
        chunks.append((data[at + 4:at + 8], data[at + 8:at + 8 + length]))
        at += 12 + length
    return chunks


def printed_size_mm(data: bytes) -> tuple[float, float]:
    """Width and height at the resolution the pHYs chunk records."""
    (header,) = [d for t, d in png_chunks(data) if t == b"IHDR"]
    (physical,) = [d for t, d in png_chunks(data) if t == b"pHYs"]
    width, height = struct.unpack(">II", header[:8])
    ppm_x, ppm_y, unit = struct.unpack(">IIB", physical)
    assert unit == 1  # pixels per metre
    return width / ppm_x * 1000, height / ppm_y * 1000


@pytest.mark.parametrize(("mm", "dpi", "pixels"), [
    (30.0, 300, 354), (36.0, 300, 425), (30.0, 100, 118), (14.0, 600, 331), (36.0, 72, 102)])
def test_exact_pixel_size_and_printed_size(mm: float, dpi: int, pixels: int) -> None:
    """Whole pixels at about ``dpi``; the recorded resolution prints them at exactly
    the drawing's size, as exactly as whole pixels per metre allow (30 mm at 300 dpi is
    354 pixels: at 300 dpi they would print 29.97 mm)."""
    assert pixel_size(mm, dpi) == pixels
    data = to_png(Drawing(mm, mm, (Rect(0, 0, mm, mm, fill="#ffffff"),)), dpi)
    image = Image.open(io.BytesIO(data))
    assert image.size == (pixels, pixels)
    width, height = printed_size_mm(data)
    ppm = pixels_per_metre(pixels, mm)
    # No whole number of pixels per metre does better...
    for other in (ppm - 1, ppm + 1):
        assert abs(pixels / other * 1000 - mm) >= abs(width - mm)
    # ...and the one chosen is within half a step of the exact size.
    step = pixels * 1000 / ppm - pixels * 1000 / (ppm + 1)
    assert width == pytest.approx(mm, abs=step / 2) and height == width
    assert image.info["dpi"][0] == pytest.approx(dpi, rel=0.005)


def test_a_36_mm_tile_at_300_dpi_prints_36_mm_to_the_micrometre() -> None:
    data = to_png(tile_drawing(START, load_theme("classic"), bleed=3.0), 300)
    width, height = printed_size_mm(data)
    assert (width, height) == pytest.approx((36.0, 36.0), abs=0.002)  # 300 dpi: 35.983
    assert pixels_per_metre(425, 36.0) == 11806


def test_colours_are_declared_srgb_before_the_pixels() -> None:
    data = to_png(Drawing(10, 10, (Rect(0, 0, 10, 10, fill="#336699"),)), 100)
    kinds = [kind for kind, _data in png_chunks(data)]
    first_pixels = kinds.index(b"IDAT")
    for kind in (b"sRGB", b"gAMA", b"cHRM", b"pHYs"):
        assert kinds.index(kind) < first_pixels, kind
    chunks = dict(png_chunks(data))
    assert chunks[b"sRGB"] == b"\x00"  # perceptual intent
    assert struct.unpack(">I", chunks[b"gAMA"]) == (45455,)


def scanline_filters(data: bytes) -> set[int]:
    """The filter type byte of every row of a PNG's pixels."""
    (header,) = [d for t, d in png_chunks(data) if t == b"IHDR"]
    width, height, depth, colour_type = struct.unpack(">IIBB", header[:10])
    channels = {0: 1, 2: 3, 4: 2, 6: 4}[colour_type]
    pixels = zlib.decompress(b"".join(d for t, d in png_chunks(data) if t == b"IDAT"))
    stride = 1 + width * channels * depth // 8
    assert len(pixels) == stride * height
    return {pixels[row * stride] for row in range(height)}


@pytest.mark.parametrize(("theme", "mode", "flevel"), [
    ("classic", "L", 0),  # Z_RLE: zlib's header says "fastest"
    ("colour-safe", "RGB", 1),  # COMPRESS_LEVEL 3: "fast"
])
def test_faces_are_encoded_unfiltered_with_the_pixels_pillow_writes(
        theme: str, mode: str, flevel: int) -> None:
    """Our encoder's file decodes to the very pixels of Pillow's own (at zlib's default
    level); grey faces come out as greyscale, one byte a pixel; rows are unfiltered."""
    image = to_raster(tile_drawing(START, load_theme(theme), bleed=3.0), 150)
    data = png_bytes(image, 150)
    decoded = Image.open(io.BytesIO(data))
    assert decoded.mode == mode
    (idat,) = [d for t, d in png_chunks(data) if t == b"IDAT"]
    assert idat[1] >> 6 == flevel
    assert scanline_filters(data) == {0}
    pillows = io.BytesIO()
    image.save(pillows, format="PNG", compress_level=6)
    theirs = Image.open(io.BytesIO(pillows.getvalue()))
    assert decoded.size == theirs.size
    assert decoded.convert("RGBA").tobytes() == theirs.convert("RGBA").tobytes()


@pytest.mark.parametrize(("colour", "mode"), [("#808080", "LA"), ("#cc0000", "RGBA")])
def test_transparent_pictures_keep_their_alpha(colour: str, mode: str) -> None:
    image = to_image(Drawing(10.0, 10.0, (Circle(5.0, 5.0, 4.0, fill=colour),)), 100)
    decoded = Image.open(io.BytesIO(png_bytes(image, 100)))
    assert decoded.mode == mode
    assert decoded.convert("RGBA").tobytes() == image.tobytes()


def test_one_pixel_off_grey_stays_colour() -> None:
    image = Image.new("RGB", (20, 10), "#777777")
    image.putpixel((19, 9), (119, 119, 120))
    decoded = Image.open(io.BytesIO(png_bytes(image, 100)))
    assert decoded.mode == "RGB" and decoded.tobytes() == image.tobytes()


def test_an_opaque_rgba_image_is_written_without_alpha() -> None:
    image = Image.new("RGBA", (10, 10), (10, 20, 30, 255))
    decoded = Image.open(io.BytesIO(png_bytes(image, 100)))
    assert decoded.mode == "RGB" and decoded.getpixel((5, 5)) == (10, 20, 30)


def test_an_image_not_rendered_from_a_drawing_prints_at_its_dpi() -> None:
    data = png_bytes(Image.new("RGB", (100, 50), "#ffffff"), 100)
    physical = dict(png_chunks(data))[b"pHYs"]
    assert struct.unpack(">IIB", physical) == (3937, 3937, 1)  # 100 dpi


def test_same_drawing_same_bytes() -> None:
    drawing = tile_drawing(START, load_theme("colour-safe"), bleed=3.0)
    assert to_png(drawing, 150) == to_png(drawing, 150)


def test_opaque_faces_have_no_alpha_round_tokens_keep_transparent_corners() -> None:
    theme = load_theme("colour-safe")
    face = Image.open(io.BytesIO(to_png(tile_drawing(START, theme), 100)))
    assert face.mode == "RGB"
    decoded = Image.open(io.BytesIO(to_png(stone_drawing(2, theme), 100)))
    assert decoded.mode in ("LA", "RGBA")  # grey stones in greyscale
    stone = decoded.convert("RGBA")
    assert stone.getpixel((0, 0))[3] == 0  # type: ignore[index]
    assert stone.getpixel((stone.width // 2, stone.height // 2))[3] == 255  # type: ignore[index]


def test_shapes_land_where_the_millimetres_say() -> None:
    drawing = Drawing(20, 10, (Rect(0, 0, 20, 10, fill="#ffffff"),
                               Circle(15, 5, 3, fill="#000000"),
                               Rect(1, 1, 4, 4, fill="#ff0000")))
    image = to_image(drawing, 254)  # 10 px per mm
    assert image.size == (200, 100)
    assert image.getpixel((150, 50)) == (0, 0, 0, 255)
    assert image.getpixel((30, 30)) == (255, 0, 0, 255)
    assert image.getpixel((100, 50)) == (255, 255, 255, 255)
    assert image.getpixel((150, 85)) == (255, 255, 255, 255)  # just outside the circle


def test_strokes_are_centred_on_the_outline() -> None:
    drawing = Drawing(20, 20, (Rect(0, 0, 20, 20, fill="#ffffff"),
                               Circle(10, 10, 6, stroke="#000000", stroke_width=2.0)))
    image = to_image(drawing, 254).convert("L")
    row = [image.getpixel((x, 100)) for x in range(200)]
    dark = [x for x, v in enumerate(row) if isinstance(v, int) and v < 128]
    # the ring spans radius 5..7 mm on each side of the centre (x = 100 px)
    assert min(dark) == pytest.approx(30, abs=1) and max(dark) == pytest.approx(169, abs=1)


def test_groups_rotate_clockwise_about_their_centre() -> None:
    square = Group((Rect(0, 0, 5, 5, fill="#000000"),), rotate=90, rotate_cx=5, rotate_cy=5)
    image = to_image(Drawing(10, 10, (Rect(0, 0, 10, 10, fill="#ffffff"), square)), 254)
    # the top-left square turns to the top-right
    assert image.getpixel((75, 25))[:3] == (0, 0, 0)  # type: ignore[index]
    assert image.getpixel((25, 25))[:3] == (255, 255, 255)  # type: ignore[index]


@pytest.mark.parametrize("turn", [0, 90, 180, 270])
def test_text_turns_with_its_group(turn: int) -> None:
    """Text in a turned group is set upright, then turned; its ink stays near the
    turned anchor point."""
    text = Text(10, 5, "START", 3.0, anchor="middle", weight="bold")
    group = Group((text,), rotate=turn, rotate_cx=10, rotate_cy=10)
    image = to_image(Drawing(20, 20, (Rect(0, 0, 20, 20, fill="#ffffff"), group)), 254)
    bbox = Image.eval(image.convert("L"), lambda v: 255 - v).getbbox()
    assert bbox is not None
    left, top, right, bottom = bbox
    long_side, short_side = (right - left, bottom - top)
    if turn in (90, 270):
        long_side, short_side = short_side, long_side
    assert long_side > 2 * short_side  # a word, lying along the turned baseline
    centre = ((left + right) / 2, (top + bottom) / 2)
    expected = {0: (100, 40), 90: (160, 100), 180: (100, 160), 270: (40, 100)}[turn]
    assert centre == pytest.approx(expected, abs=12)


def test_a_covering_background_is_painted_with_its_outline() -> None:
    plain = to_raster(Drawing(10.0, 10.0, (Rect(0.0, 0.0, 10.0, 10.0, fill="#ff0000"),)), 100)
    assert plain.mode == "RGB" and plain.getcolors() == [(plain.width ** 2, (255, 0, 0))]
    outlined = to_raster(Drawing(10.0, 10.0, (
        Rect(0.0, 0.0, 10.0, 10.0, fill="#ff0000", stroke="#0000ff", stroke_width=1.0),)), 100)
    assert outlined.getpixel((0, 0)) == (0, 0, 255)  # the outline, not only the fill
    assert outlined.getpixel((20, 20)) == (255, 0, 0)


@pytest.mark.parametrize("theme", ["classic", "ink-saver", "colour-safe"])
@pytest.mark.parametrize("opaque", [True, False])
def test_a_large_picture_is_painted_in_bands_that_join_without_seams(
        monkeypatch: pytest.MonkeyPatch, theme: str, opaque: bool) -> None:
    from micropul_print.backends import png

    style = load_theme(theme)
    tiles = [tile_drawing(Tile(n, (WHITE, BLACK, "empty", WHITE)), style) for n in range(6)]
    items: list[Primitive] = [Group(t.items, dx=30.0 * (n % 2), dy=30.0 * (n // 2))
                              for n, t in enumerate(tiles)]
    if opaque:
        items = [Rect(0.0, 0.0, 60.0, 90.0, fill="#ffffff"), *items]
    else:
        items = [Circle(30.0, 45.0, 20.0, fill="#cc0000"), *items[:-1]]
    picture = Drawing(60.0, 90.0, tuple(items))
    whole = png.to_raster(picture, 100)
    monkeypatch.setattr(png, "MAX_PAINT_PIXELS", 100_000)  # bands of a few rows
    banded = png.to_raster(picture, 100)
    assert (banded.size, banded.mode) == (whole.size, whole.mode)
    assert banded.mode == (("RGB" if theme == "colour-safe" else "L") if opaque else "RGBA")
    # Shapes cut by a band's edge are painted from coordinates moved by whole pixels;
    # Pillow may round an edge one supersampled row apart (a ninth of a pixel), no more.
    difference = ImageChops.difference(whole, banded)
    stats = ImageStat.Stat(difference)
    assert max(stats.mean) < 1.0  # diagonal hatching: most of it


@pytest.mark.parametrize(("items", "grey"), [
    ((Rect(0, 0, 10, 10, fill="#ffffff"), Circle(5, 5, 2, stroke="#1C1C1C", stroke_width=1)),
     True),
    ((Rect(0, 0, 10, 10, fill="#ffffff"), Text(5, 5, "7", 2.0, fill="#0072b2")), False),
    ((Rect(0, 0, 10, 10, fill="#ffffff"),
      Group((Group((Line(0, 0, 5, 5, stroke="#fe0000"),)),))), False),
    ((Rect(0, 0, 10, 10, fill="#e0e0e0", stroke="#e0e0e1", stroke_width=1),), False),
])
def test_a_drawing_of_greys_alone_is_painted_in_greyscale(items: tuple[Primitive, ...],
                                                          grey: bool) -> None:
    image = to_raster(Drawing(10.0, 10.0, items), 100)
    assert image.mode == ("L" if grey else "RGB")


@pytest.mark.parametrize("theme", ["classic", "ink-saver"])
@pytest.mark.parametrize("tile", [
    START,  # the START label, turned with its group
    Tile(38, (BLACK, BLACK, BLACK, BLACK), big=BigMicropul(BLACK, PLUS)),
    Tile(31, (WHITE, DOUBLE, DOT, EMPTY)),
])
def test_greyscale_painting_gives_the_pixels_of_rgb_painting(
        monkeypatch: pytest.MonkeyPatch, theme: str, tile: Tile) -> None:
    """Pillow fills, stamps text and averages each channel alike: painting a grey
    picture in one channel changes no pixel, at either resolution's supersampling."""
    from micropul_print.backends import png

    for dpi in (100, 300):
        drawing = tile_drawing(tile, load_theme(theme), bleed=3.0)
        grey = png.to_raster(drawing, dpi)
        with monkeypatch.context() as patch:
            patch.setattr(png, "_grey_paint", lambda _items: False)
            colour = png.to_raster(drawing, dpi)
        assert (grey.mode, colour.mode) == ("L", "RGB")
        assert grey.convert("RGB").tobytes() == colour.tobytes()


def test_an_opaque_picture_is_painted_in_patches_where_its_items_put_ink() -> None:
    """Patches are whole pixels (3 x 3 supersampled at 254 dpi: 10 px a mm) around
    each item's bounds and a margin; items whose patches meet share one, in order; a
    slanted line takes the whole picture."""
    from micropul_print.backends.png import _Affine, _patches

    factor = 3
    scale = _Affine(30.0, 0.0, 0.0, 0.0, 30.0, 0.0)  # 10 px a mm, painted 3 x finer
    dot = Circle(2.0, 2.0, 1.0, fill="#000000")  # 1..3 mm: 30..90 supersampled px
    far = Rect(6.0, 6.0, 2.0, 1.0, fill="#000000")  # 180..240 x 180..210
    near = Circle(3.5, 2.0, 1.0, fill="#555555")  # meets the dot's patch
    assert _patches((dot, far), scale, (100, 100), factor) == [
        ((27, 27, 93, 93), (dot,)), ((177, 177, 243, 213), (far,))]
    (_far, merged) = _patches((dot, far, near), scale, (100, 100), factor)
    assert merged == ((27, 27, 138, 93), (dot, near))
    slanted = Line(0.5, 0.5, 1.5, 1.0, stroke="#000000", stroke_width=0.2)
    assert _patches((dot, slanted), scale, (100, 100), factor) == [
        ((0, 0, 300, 300), (dot, slanted))]
    assert _patches((Circle(-5.0, 2.0, 1.0, fill="#000000"),), scale, (100, 100), factor) == []


@pytest.mark.parametrize("theme", ["classic", "ink-saver", "colour-safe"])
@pytest.mark.parametrize("dpi", [100, 300])
def test_patches_hold_the_pixels_of_the_whole_picture(monkeypatch: pytest.MonkeyPatch,
                                                      theme: str, dpi: int) -> None:
    """Painted in patches, kept and reused from the patch cache (however small), or all
    at once: the same pixels, on faces with every kind of item (START turned)."""
    from micropul_print.backends import png

    style = load_theme(theme)
    faces = [tile_drawing(START, style, bleed=3.0),
             tile_drawing(Tile(38, (BLACK, BLACK, BLACK, BLACK), big=BigMicropul(BLACK, PLUS)),
                          style),
             tile_drawing(Tile(31, (WHITE, DOUBLE, DOT, EMPTY)), style, bleed=3.0),
             tile_drawing(Tile(20, (BLACK, DOT, EMPTY, PLUS)), style),
             # slanted lines that Pillow fills a supersampled pixel apart when moved
             Drawing(30.0, 30.0, (Rect(0.0, 0.0, 30.0, 30.0, fill="#ffffff"),
                                  Line(12.0, 17.9, 15.2, 20.5, stroke="#000000"),
                                  Line(5.1, 10.2, 9.1, 11.9, stroke="#000000"),
                                  Circle(25.0, 5.0, 2.0, fill="#000000")))]
    monkeypatch.setattr(png, "_PATCH_CACHE", {})
    patched = [png.to_raster(face, dpi).tobytes() for face in faces]
    again = [png.to_raster(face, dpi).tobytes() for face in faces]  # from the cache
    monkeypatch.setattr(png, "PATCH_CACHE_PIXELS", 5_000)
    crowded = [png.to_raster(face, dpi).tobytes() for face in faces]
    monkeypatch.setattr(png, "_patches", lambda items, _scale, size, factor: [
        ((0, 0, size[0] * factor, size[1] * factor), items)])
    whole = [png.to_raster(face, dpi).tobytes() for face in faces]
    assert patched == again == crowded == whole
