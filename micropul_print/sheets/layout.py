"""Page layouts: paper and sheet geometry read from data files, and the card grid they allow.

A layout file (``layouts/<name>.yaml``) says what the paper is and how much room the
printer and the cutter need; :func:`plan_grid` turns it, a card's cut size and a bleed
into the grid holding the most cards per page. Pure geometry: nothing here knows what
the cards show. All lengths are millimetres, origin at the page's top-left, y downward.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import NamedTuple

from micropul_print.base.errors import Diagnostic, UserError, errors_in
from micropul_print.base.paper import PAPER_NAMES, PAPERS
from micropul_print.draw.bounds import Box

LAYOUT_DIR = Path(__file__).parent / "layouts"
LAYOUT_NAMES = PAPER_NAMES  # duplex sheets: a layout per paper
# Gutter fold: fronts on the left half, backs on the right, folded along the middle.
FOLD_PREFIX = "gutterfold-"
FOLD_LAYOUT_NAMES = tuple(f"{FOLD_PREFIX}{name}" for name in PAPER_NAMES)
# The layout files whose geometry a paper without its own file takes, on its size.
TEMPLATE_LAYOUTS = {False: "a4", True: "gutterfold-a4"}

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
            f"a card of {card_width:g} × {card_height:g} mm with {bleed:g} mm bleed does not "
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
    """Read a layout by name (``a4``, ``letter``, ``gutterfold-a4``...) or from a YAML
    file, through the same YAML reader as every other input (limits, located errors);
    every problem found is reported at once as a UserError at its file:line:col."""
    from micropul_print.base.yamlsource import (
        YamlMapping,
        YamlNode,
        expect_bool,
        expect_text,
        number_value,
        read_yaml,
    )

    path = Path(name_or_path)
    name = str(name_or_path)
    fold = name.startswith(FOLD_PREFIX)
    own_size = None  # a paper of the table without a file of its own
    if name in (*LAYOUT_NAMES, *FOLD_LAYOUT_NAMES):
        path = layout_path(name)
        if not path.exists():
            own_size = PAPERS[name.removeprefix(FOLD_PREFIX)]
            path = layout_path(TEMPLATE_LAYOUTS[fold])
    source = str(path)
    root, problems = read_yaml(path)
    if root is None:
        if not path.exists():  # perhaps a misspelt name rather than a file
            known = ", ".join((*LAYOUT_NAMES, *FOLD_LAYOUT_NAMES))
            problems.append(Diagnostic(source, 0, 0, f"known layouts: {known}"))
        raise UserError(problems)
    if not isinstance(root, YamlMapping):
        raise UserError([*problems, root.diagnostic("a page layout must be a mapping")])
    values: dict[str, float] = {}

    def find(key: str) -> YamlNode | None:
        node: YamlNode | None = root
        for part in key.split("."):
            node = node.get(part) if isinstance(node, YamlMapping) else None
        return node

    def length(key: str, node: YamlNode) -> float | None:
        value = number_value(node)  # the one reader of numbers (YAML 1.2, bounded)
        if value is None or not math.isfinite(value) or value < 0:
            problems.append(node.diagnostic(
                f"'{key}' must be a non-negative number of millimetres"))
            return None
        return float(value)

    for key in _NUMBERS:
        node = find(key)
        if node is None:
            problems.append(root.diagnostic(f"missing key '{key}'"))
            continue
        number = length(key, node)
        if number is not None:
            values[key] = number
    margin = find("margin")
    if "margin" in values and margin is not None and values["margin"] < MIN_MARGIN:
        problems.append(margin.diagnostic(
            f"margin {values['margin']:g} mm is below {MIN_MARGIN:g} mm: many home "
            "printers cannot print that close to the edge"))
    cut_node = find("cut_lines")
    cut_lines = True
    if cut_node is not None:
        cut_lines = bool(expect_bool(cut_node, "'cut_lines'", problems))
    fold_gap: float | None = None
    fold_node = find("fold")
    if fold_node is not None:
        gap_node = find("fold.gap")
        if gap_node is None:
            problems.append(fold_node.diagnostic("missing key 'fold.gap'"))
        else:
            fold_gap = length("fold.gap", gap_node)
    names = {}
    for key in ("name", "label"):
        node = find(key)
        text = None if node is None else expect_text(node, f"'{key}'", problems)
        names[key] = text or path.stem
    errors = errors_in(problems)
    if errors:
        raise UserError(errors)
    layout = SheetLayout(
        name=str(names["name"]), label=str(names["label"]),
        paper_width=values["paper.width"], paper_height=values["paper.height"],
        margin=values["margin"], gutter=values["gutter"],
        crop_marks=CropMarks(values["crop_marks.offset"], values["crop_marks.min_length"],
                             values["crop_marks.width"]),
        cut_lines=cut_lines, footer_size=values["footer.size"],
        footer_band=values["footer.band"], source=source, fold_gap=fold_gap,
    )
    if own_size is None:
        return layout
    width, height = own_size.size_mm
    return layout._replace(name=name, label=own_size.label + ", gutter fold" * fold,
                           paper_width=width, paper_height=height, margin=own_size.margin)
