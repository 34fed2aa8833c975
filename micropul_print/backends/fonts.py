"""The one typeface of every output: Lato, shipped inside this package (``lato/``).

Lato 1.104 "Western+Polish" (Lukasz Dziedzic, SIL Open Font License, ``lato/OFL.txt``)
covers every letter of the rulebook languages (English, French, German, Italian, Polish,
Spanish). The four faces are the files of the ``font-lato`` 0.1.0 wheel, unmodified;
they are kept here because that package is one person's unofficial repackaging,
released once. Importing this module loads no drawing library; :func:`lato` loads
fontTools (not Pillow, not reportlab) when first called.

Widths and outlines of printable ASCII come from a table generated from the same font
files (:mod:`micropul_print.backends.lato_glyphs`, made by
:mod:`micropul_print.backends.glyphtable`), so
tile numbers and labels need no font parsing; other characters are read from the font.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Any, Literal

from micropul_print.base.resources import package_file

FAMILY = "Lato"

# reportlab, Pillow and fontTools open fonts by path: the package is files on disk
# (micropul_print.base.resources).
REGULAR: Path = package_file("micropul_print", "lato", "Lato-Regular.ttf")
BOLD: Path = package_file("micropul_print", "lato", "Lato-Bold.ttf")
ITALIC: Path = package_file("micropul_print", "lato", "Lato-Italic.ttf")
BOLD_ITALIC: Path = package_file("micropul_print", "lato", "Lato-BoldItalic.ttf")

Weight = Literal["regular", "bold"]

# Height of Lato's capitals and lining figures, per em (1433 of 2000 units): centres a
# label or number vertically without measuring glyphs.
CAP_HEIGHT = 0.7165



def missing_letters(text: str) -> list[str]:
    """The characters of ``text`` (line ends aside) that some Lato face lacks, each
    once, in order: a PDF would leave them out without a word."""
    covered = _covered_characters()
    if covered.issuperset(text):  # the usual answer, found without a Python loop
        return []
    return [char for char in dict.fromkeys(text) if char not in covered]


@lru_cache(maxsize=1)
def _covered_characters() -> frozenset[str]:
    """Every character of the generated table's COVERED ranges, and the line end (no
    glyph, and none needed), made once: the rulebook check asks about each of its texts
    in every language. Lato maps NUL and CR to empty glyphs; they are no letters, and a
    text holding one is refused as one holding a tab is."""
    from micropul_print.backends.lato_glyphs import COVERED

    return frozenset(["\n", *(chr(code) for first, last in COVERED
                                 for code in range(max(first, 0x20), last + 1))])


def font_path(weight: Weight) -> Path:
    return BOLD if weight == "bold" else REGULAR


@lru_cache(maxsize=2)
def lato(weight: Weight) -> Any:
    """The parsed font (a fontTools TTFont, tables loaded on first use)."""
    from fontTools.ttLib import TTFont  # type: ignore[import-untyped]

    return TTFont(str(font_path(weight)), lazy=True)


def text_width(text: str, size: float, weight: Weight = "regular") -> float:
    """Advance width of ``text`` set in Lato at em ``size`` (any unit; the result is in
    the same unit). No kerning: Lato has no legacy kern table, and no backend kerns."""
    return _advance_per_em(text, weight) * size


ELLIPSIS = "\u2026"


def fit_line(text: str, size: float, room: float, *, smallest: float,
             weight: Weight = "regular") -> tuple[str, float]:
    """``text`` and its size made to fit ``room`` (same unit as ``size``): as it is if it
    fits; else set smaller, down to ``smallest``; then shortened in the middle with an
    ellipsis, both ends kept. A name or a list of numbers never runs off the paper."""
    room = max(0.0, room)
    width = text_width(text, size, weight)
    if width <= room:
        return text, size
    size = max(size * room / width, smallest)
    if text_width(text, size, weight) <= room:
        return text, size

    def shortened(kept: int) -> str:  # ``kept`` characters of text, half from each end
        head, tail = (kept + 1) // 2, kept // 2
        return text[:head].rstrip() + ELLIPSIS + text[len(text) - tail :].lstrip()

    # The most characters that fit, by bisection: a long name (a reprint of scattered
    # numbers, say) took a time growing with the square of its length one by one.
    low, high = 0, len(text) - 1  # shortened(low) is what is left when nothing fits
    while low < high:
        middle = (low + high + 1) // 2
        if text_width(shortened(middle), size, weight) <= room:
            low = middle
        else:
            high = middle - 1
    return shortened(low), size


@lru_cache(maxsize=256)
def _advance_per_em(text: str, weight: Weight) -> float:
    from micropul_print.backends.lato_glyphs import GLYPHS, UNITS_PER_EM

    table = GLYPHS[weight]
    if all(char in table for char in text):
        return float(sum(table[char][0] for char in text)) / float(UNITS_PER_EM)
    font = lato(weight)
    cmap = font.getBestCmap()
    metrics = font["hmtx"]
    units = sum(metrics[cmap.get(ord(char), ".notdef")][0] for char in text)
    return float(units) / float(font["head"].unitsPerEm)


# One pen call of a glyph outline, in font units: ("M" | "L" | "Q" | "Z", coordinates).
PenCall = tuple[str, tuple[int, ...]]


@lru_cache(maxsize=512)
def table_glyph(char: str, weight: Weight) -> tuple[int, tuple[PenCall, ...]] | None:
    """(advance, outline pen calls) of ``char`` from the generated table, in font units;
    None when the table does not hold it (read the font instead)."""
    from micropul_print.backends.lato_glyphs import GLYPHS

    entry = GLYPHS[weight].get(char)
    if entry is None:
        return None
    advance, outline = entry
    calls: list[tuple[str, list[int]]] = []
    for word in outline.split():
        if word.isalpha():
            calls.append((word, []))
        else:
            calls[-1][1].append(int(word))
    return advance, tuple((operator, tuple(numbers)) for operator, numbers in calls)


def units_per_em() -> int:
    from micropul_print.backends.lato_glyphs import UNITS_PER_EM

    return UNITS_PER_EM
