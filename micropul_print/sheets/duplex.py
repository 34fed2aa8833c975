"""Where a card's back goes so that it lies exactly behind its front after duplex printing.

A printer turning the sheet over its long edge (the default of most printers for
portrait pages) puts the point (x, y) of the front behind the point (W - x, y) of the
back page: columns are mirrored. Turning over the short edge puts it behind (x, H - y):
rows are mirrored. Because the card grid is centred on the page, mirroring a slot is
mirroring its position.
"""

from __future__ import annotations

from typing import Literal

Flip = Literal["long", "short"]
FLIPS: tuple[Flip, ...] = ("long", "short")


def back_slot(column: int, row: int, columns: int, rows: int,
              flip: Flip = "long") -> tuple[int, int]:
    """The slot (column, row) on the back page behind slot (column, row) of the front."""
    if not (0 <= column < columns and 0 <= row < rows):
        raise IndexError(f"slot ({column}, {row}) outside a {columns} × {rows} grid")
    if flip == "long":
        return columns - 1 - column, row
    if flip == "short":
        return column, rows - 1 - row
    raise ValueError(f"unknown flip {flip!r}")


def back_point(x: float, y: float, page_width: float, page_height: float,
               flip: Flip = "long",
               offset: tuple[float, float] = (0.0, 0.0)) -> tuple[float, float]:
    """The point of the back page behind point (x, y) of the front, moved by the
    printer-drift correction ``offset`` (mm, in the back page's own axes)."""
    if flip == "long":
        bx, by = page_width - x, y
    elif flip == "short":
        bx, by = x, page_height - y
    else:
        raise ValueError(f"unknown flip {flip!r}")
    return bx + offset[0], by + offset[1]


def front_point(x: float, y: float, page_width: float, page_height: float,
                flip: Flip = "long") -> tuple[float, float]:
    """The point of the front page in front of point (x, y) of the back page (no offset):
    flipping is its own inverse."""
    return back_point(x, y, page_width, page_height, flip)
