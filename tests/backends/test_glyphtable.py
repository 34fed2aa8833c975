"""The generated Lato table (micropul_print/backends/lato_glyphs.py) against the font itself."""

from __future__ import annotations

import subprocess
import sys

import pytest

from micropul_print.backends import fonts, glyphtable
from micropul_print.backends.svg import _font_outline, text_outline
from micropul_print.draw.primitives import Text


def test_the_table_is_what_the_installed_font_gives() -> None:
    # Fails when the font or the generator changed: run
    # python -m micropul_print.backends.glyphtable.
    assert glyphtable.TABLE_PATH.read_text(encoding="utf-8") == glyphtable.table_source()


@pytest.mark.parametrize("weight", ["regular", "bold"])
@pytest.mark.parametrize("size, x, y, anchor", [
    (2.2, 27.8, 28.2, "end"),  # a tile number
    (4.5, 15.0, 17.0, "middle"),  # START
    (10.0, 0.0, 10.0, "start"),
    (3.7, -12.345, 101.5, "middle"),
])
def test_table_outlines_are_the_fonts_to_the_character(weight: str, size: float, x: float,
                                                       y: float, anchor: str) -> None:
    for char in glyphtable.CHARACTERS:
        text = Text(x, y, f"{char}0{char}", size, anchor=anchor,  # type: ignore[arg-type]
                    weight=weight)  # type: ignore[arg-type]
        assert text_outline(text) == _font_outline(text), repr(char)
    sentence = Text(x, y, glyphtable.CHARACTERS, size, anchor=anchor,  # type: ignore[arg-type]
                    weight=weight)  # type: ignore[arg-type]
    assert text_outline(sentence) == _font_outline(sentence)


def test_table_widths_are_the_fonts() -> None:
    font = fonts.lato("bold")
    cmap, metrics = font.getBestCmap(), font["hmtx"]
    for char in glyphtable.CHARACTERS:
        assert fonts.text_width(char, 2000.0, "bold") == pytest.approx(
            metrics[cmap[ord(char)]][0], abs=1e-9)


def test_text_outside_the_table_is_drawn_from_the_font() -> None:
    text = Text(0.0, 10.0, "Żółć 12", 10.0)
    assert fonts.table_glyph("Ż", "regular") is None
    assert text_outline(text) == _font_outline(text)
    assert text_outline(text).count("M") >= 6


def test_tile_text_loads_no_font_parser() -> None:
    script = ("import sys\n"
              "from micropul_print.backends.svg import text_outline\n"
              "from micropul_print.draw.primitives import Text\n"
              "from micropul_print.backends.fonts import text_width\n"
              "text_outline(Text(1.0, 2.0, 'START 48', 3.0, weight='bold'))\n"
              "text_width('17', 2.0)\n"
              "print('fontTools.ttLib' in sys.modules)\n")
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                            check=True)
    assert result.stdout.strip() == "False"
