"""The papers a kit is printed on: one row each, read by the sheets, the boards, the
rulebooks and the booklets alike (the ``--paper`` choices, the file names' ``<paper>``).

Adding a paper is one row of :data:`PAPERS` (and its tests): its tile sheets and
gutter-fold sheets take the geometry of the A4 layout files on its own size unless
``sheets/layouts/<name>.yaml`` gives them their own (micropul_print.sheets.layout).

Sizes are in points (1/72 inch), computed as reportlab computes its own page sizes so
that a page is the very same number whichever module asks; nothing here imports it.
"""

from __future__ import annotations

from micropul_print.base.record import record

POINTS_PER_INCH = 72.0
# reportlab's mm (reportlab.lib.units): the same float, so A4 is A4 to the last bit.
POINTS_PER_MM = POINTS_PER_INCH / 2.54 * 0.1


def millimetres(width: float, height: float) -> tuple[float, float]:
    """A size in mm, in points."""
    return width * POINTS_PER_MM, height * POINTS_PER_MM


def inches(width: float, height: float) -> tuple[float, float]:
    """A size in inches, in points."""
    return width * POINTS_PER_INCH, height * POINTS_PER_INCH


@record
class Paper:
    """A paper size and what each part of the kit does with it."""

    name: str  # the --paper value and the <paper> of file names: "a4"
    label: str  # for people: "A4"
    size: tuple[float, float]  # portrait, points
    # A booklet's page: half the sheet, folded (A5 on A4); the booklet is printed on
    # the sheet turned landscape (booklet_sheet).
    booklet_page: tuple[float, float]
    # What every home printer prints inside, mm: the sheets' margin (their layout files
    # say the same; a test holds them to it).
    margin: float = 5.0

    @property
    def size_mm(self) -> tuple[float, float]:
        width, height = self.size
        return width / POINTS_PER_MM, height / POINTS_PER_MM

    @property
    def booklet_sheet(self) -> tuple[float, float]:
        """The sheet a booklet is printed on: this paper, landscape."""
        width, height = self.size
        return max(width, height), min(width, height)


PAPERS: dict[str, Paper] = {paper.name: paper for paper in (
    Paper("a4", "A4", millimetres(210, 297), booklet_page=millimetres(148, 210)),
    Paper("letter", "Letter", inches(8.5, 11), booklet_page=inches(5.5, 8.5)),
)}
PAPER_NAMES = tuple(PAPERS)
# The paper of a build that names none (and of `init`'s configuration).
DEFAULT_PAPER = "a4"


def paper(name: str) -> Paper:
    """The paper named ``name``; KeyError naming the known ones if none."""
    try:
        return PAPERS[name]
    except KeyError:
        raise KeyError(f"unknown paper {name!r} (known: {', '.join(PAPERS)})") from None
