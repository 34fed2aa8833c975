"""Page layouts: paper and sheet geometry read from data files, and the card grid they allow.

A layout file (``layouts/<name>.yaml``) says what the paper is and how much room the
printer and the cutter need; :func:`plan_grid` turns it, a card's cut size and a bleed
into the grid holding the most cards per page. Pure geometry: nothing here knows what
the cards show. All lengths are millimetres, origin at the page's top-left, y downward.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any, NamedTuple

from micropul_print.draw.bounds import Box
from micropul_print.errors import Diagnostic, UserError

LAYOUT_DIR = Path(__file__).parent / "layouts"
LAYOUT_NAMES = ("a4", "letter")  # duplex sheets
# Gutter fold: fronts on the left half, backs on the right, folded along the middle.
FOLD_LAYOUT_NAMES = ("gutterfold-a4", "gutterfold-letter")

# The smallest margin every home printer can print inside.
MIN_MARGIN = 5.0


class CropMarks(NamedTuple):
    offset: float  # gap between the art's outer edge (cut line + bleed) and a mark
    min_length: float  # a mark never gets shorter than this
    width: float  # stroke width


class SheetLayout(NamedTuple):
    name: str
    label: str  # for people: "A4", "Letter"
    paper_width: float
    paper_height: float
    margin: float
    gutter: float
    crop_marks: CropMarks
    cut_lines: bool
    footer_size: float  # text size of the footer line
    footer_band: float  # height reserved for the footer at the bottom (and at the top)
    source: str = ""
    # Gutter-fold layouts: kept free on each side of the fold (the page's vertical
    # centre line) besides the room for crop marks; None for duplex layouts.
    fold_gap: float | None = None


class Grid(NamedTuple):
    """Where the cut squares of the cards lie on a page.

    The grid is centred on the page in both directions, so that mirroring a page about
    either centre line maps every slot exactly onto another slot (see duplex.py).
    """

    columns: int
    rows: int
    card_width: float  # cut size
    card_height: float
    gutter: float  # between neighbouring cut squares
    bleed: float  # art beyond each cut edge
    left: float  # x of the first column's cut edge
    top: float  # y of the first row's cut edge
    page_width: float
    page_height: float

    @property
    def capacity(self) -> int:
        return self.columns * self.rows

    @property
    def pitch_x(self) -> float:
        return self.card_width + self.gutter

    @property
    def pitch_y(self) -> float:
        return self.card_height + self.gutter

    @property
    def width(self) -> float:
        """From the first cut edge to the last, bleed excluded."""
        return self.columns * self.card_width + (self.columns - 1) * self.gutter

    @property
    def height(self) -> float:
        return self.rows * self.card_height + (self.rows - 1) * self.gutter

    def slot(self, index: int) -> tuple[int, int]:
        """(column, row) of slot ``index``, filled row by row from the top-left."""
        if not 0 <= index < self.capacity:
            raise IndexError(f"slot {index} outside a grid of {self.capacity}")
        return index % self.columns, index // self.columns

    def cut_origin(self, column: int, row: int) -> tuple[float, float]:
        """Top-left corner of the cut square in slot (column, row)."""
        return self.left + column * self.pitch_x, self.top + row * self.pitch_y

    def cut_lines_x(self) -> list[float]:
        """Every vertical cut line, left to right (shared edges counted once)."""
        edges = {round(self.left + c * self.pitch_x, 6) for c in range(self.columns)}
        edges |= {round(self.left + c * self.pitch_x + self.card_width, 6)
                  for c in range(self.columns)}
        return sorted(edges)

    def cut_lines_y(self) -> list[float]:
        edges = {round(self.top + r * self.pitch_y, 6) for r in range(self.rows)}
        edges |= {round(self.top + r * self.pitch_y + self.card_height, 6)
                  for r in range(self.rows)}
        return sorted(edges)


def plan_grid(layout: SheetLayout, card_width: float, card_height: float,
              bleed: float = 0.0, *, area: Box | None = None) -> Grid:
    """The grid with the most cards per page that leaves the margin, the footer bands
    and room for crop marks (outside the bleed) free; centred on the page, or in
    ``area`` (the part of the page it and its marks may take; default: the paper less
    its margin and footer bands).

    Raises UserError when not even one card fits.
    """
    if bleed < 0:
        raise ValueError("bleed must not be negative")
    gutter = max(layout.gutter, 2 * bleed)
    marks = layout.crop_marks
    if area is None:
        area = Box(layout.margin, layout.margin + layout.footer_band,
                   layout.paper_width - layout.margin,
                   layout.paper_height - layout.margin - layout.footer_band)
    # Each side needs the bleed, the gap before a mark and a mark of minimum length.
    room = bleed + marks.offset + marks.min_length
    avail_w = area.width - 2 * room
    avail_h = area.height - 2 * room
    # n cards need n * size + (n - 1) * gutter; the epsilon forgives float noise.
    columns = max(0, math.floor((avail_w + gutter) / (card_width + gutter) + 1e-9))
    rows = max(0, math.floor((avail_h + gutter) / (card_height + gutter) + 1e-9))
    if columns == 0 or rows == 0:
        raise UserError([Diagnostic(
            layout.source or layout.name, 0, 0,
            f"a card of {card_width:g} x {card_height:g} mm with {bleed:g} mm bleed does not "
            f"fit on {layout.label} paper inside its margins")])
    width = columns * card_width + (columns - 1) * gutter
    height = rows * card_height + (rows - 1) * gutter
    return Grid(
        columns=columns, rows=rows, card_width=card_width, card_height=card_height,
        gutter=gutter, bleed=bleed,
        left=area.x0 + (area.width - width) / 2, top=area.y0 + (area.height - height) / 2,
        page_width=layout.paper_width, page_height=layout.paper_height,
    )


# --- loading layout files ------------------------------------------------------------

_NUMBERS = ("paper.width", "paper.height", "margin", "gutter", "crop_marks.offset",
            "crop_marks.min_length", "crop_marks.width", "footer.size", "footer.band")


def layout_path(name: str) -> Path:
    return LAYOUT_DIR / f"{name}.yaml"


def load_layout(name_or_path: str | Path) -> SheetLayout:
    """Read a layout by name (``a4``, ``letter``) or from a YAML file; every problem found
    is reported at once as a UserError with the file, line and column."""
    import yaml  # only the commands that lay out sheets need it

    from micropul_print.yamlsource import read_number

    path = Path(name_or_path)
    if str(name_or_path) in (*LAYOUT_NAMES, *FOLD_LAYOUT_NAMES):
        path = layout_path(str(name_or_path))
    source = str(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        known = ", ".join((*LAYOUT_NAMES, *FOLD_LAYOUT_NAMES))
        raise UserError([Diagnostic(source, 0, 0,
                                    f"cannot read page layout ({exc.strerror}); "
                                    f"known layouts: {known}")]) from None
    try:
        root = yaml.compose(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line, col = (mark.line + 1, mark.column + 1) if mark else (0, 0)
        raise UserError([Diagnostic(source, line, col,
                                    f"not valid YAML: {getattr(exc, 'problem', exc)}")]) from None
    problems: list[Diagnostic] = []
    values: dict[str, Any] = {}

    def at(node: yaml.Node | None) -> tuple[int, int]:
        if node is None:
            return (0, 0)
        return node.start_mark.line + 1, node.start_mark.column + 1

    def find(key: str) -> yaml.Node | None:
        node: yaml.Node | None = root
        for part in key.split("."):
            if not isinstance(node, yaml.MappingNode):
                return None
            node = next((v for k, v in node.value if k.value == part), None)
        return node

    if not isinstance(root, yaml.MappingNode):
        raise UserError([Diagnostic(source, *at(root), "a page layout must be a mapping")])
    for key in _NUMBERS:
        node = find(key)
        if node is None:
            problems.append(Diagnostic(source, *at(root), f"missing key '{key}'"))
            continue
        # The one reader of numbers (YAML 1.2, ASCII digits, bounded); None is no number.
        value = read_number(node.value).value if isinstance(node, yaml.ScalarNode) else None
        number = math.nan if value is None else float(value)
        if not math.isfinite(number) or number < 0:
            problems.append(Diagnostic(source, *at(node),
                                       f"'{key}' must be a non-negative number of millimetres"))
            continue
        values[key] = number
    if "margin" in values and values["margin"] < MIN_MARGIN:
        problems.append(Diagnostic(
            source, *at(find("margin")),
            f"margin {values['margin']:g} mm is below {MIN_MARGIN:g} mm: many home "
            "printers cannot print that close to the edge"))
    cut_node = find("cut_lines")
    cut_lines = True
    if cut_node is not None:
        if not isinstance(cut_node, yaml.ScalarNode) or cut_node.value not in ("true", "false"):
            problems.append(Diagnostic(source, *at(cut_node), "'cut_lines' must be true or false"))
        else:
            cut_lines = cut_node.value == "true"
    fold_gap: float | None = None
    fold_node = find("fold")
    if fold_node is not None:
        gap_node = find("fold.gap")
        try:
            fold_gap = (float(gap_node.value) if isinstance(gap_node, yaml.ScalarNode)
                        else math.nan)
        except ValueError:
            fold_gap = math.nan
        if not math.isfinite(fold_gap) or fold_gap < 0:
            problems.append(Diagnostic(source, *at(gap_node or fold_node),
                                       "'fold.gap' must be a non-negative number of "
                                       "millimetres"))
    names = {}
    for key in ("name", "label"):
        node = find(key)
        names[key] = node.value if isinstance(node, yaml.ScalarNode) else path.stem
    if problems:
        raise UserError(problems)
    return SheetLayout(
        name=str(names["name"]), label=str(names["label"]),
        paper_width=values["paper.width"], paper_height=values["paper.height"],
        margin=values["margin"], gutter=values["gutter"],
        crop_marks=CropMarks(values["crop_marks.offset"], values["crop_marks.min_length"],
                             values["crop_marks.width"]),
        cut_lines=cut_lines, footer_size=values["footer.size"],
        footer_band=values["footer.band"], source=source, fold_gap=fold_gap,
    )
