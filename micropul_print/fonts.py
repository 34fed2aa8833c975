"""The one typeface of every output: Lato, shipped by the ``font_lato`` package.

Lato's "Western+Polish" build covers every letter of the rulebook languages
(English, Italian, Polish, Spanish). Only paths live here, so importing this module
loads no drawing library; :func:`text_width` loads Pillow when first called.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Literal

import font_lato

FAMILY = "Lato"

_DIR = Path(font_lato.font_directory)
REGULAR: Path = _DIR / "Lato-Regular.ttf"
BOLD: Path = _DIR / "Lato-Bold.ttf"
ITALIC: Path = _DIR / "Lato-Italic.ttf"
BOLD_ITALIC: Path = _DIR / "Lato-BoldItalic.ttf"

Weight = Literal["regular", "bold"]

# Height of Lato's capitals and lining figures, per em (1433 of 2000 units): centres a
# label or number vertically without measuring glyphs.
CAP_HEIGHT = 0.7165

# Advance widths are read at this pixel size and scaled: large enough that rounding
# to whole pixels costs under 0.1 % of a width.
_MEASURE_PX = 1000


def font_path(weight: Weight) -> Path:
    return BOLD if weight == "bold" else REGULAR


def text_width(text: str, size: float, weight: Weight = "regular") -> float:
    """Advance width of ``text`` set in Lato at em ``size`` (any unit; the result is in
    the same unit)."""
    return _advance_per_em(text, weight) * size


@lru_cache(maxsize=256)
def _advance_per_em(text: str, weight: Weight) -> float:
    from PIL import ImageFont

    font = ImageFont.truetype(str(font_path(weight)), _MEASURE_PX,
                              layout_engine=ImageFont.Layout.BASIC)
    return float(font.getlength(text)) / _MEASURE_PX
