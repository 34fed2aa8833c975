"""Themes: how each named mark of a face looks, read from a YAML data file.

A theme knows colours, stroke widths and sizes in millimetres, and nothing about any
game: the face layer (:mod:`micropul_print.draw.face`) asks it how to paint a mark
called ``disc-dark`` or ``dot2``; which game piece that mark stands for is the game
module's business. Built-in themes live in ``micropul_print/draw/themes/<name>.yaml``;
``load_theme`` also accepts the path of a user's own file (docs/themes.md).

Every problem in a theme file is reported at once, each at its ``file:line:col``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import field
from pathlib import Path
from typing import Literal, TypeVar

from micropul_print.backends.fonts import Weight
from micropul_print.base.errors import Diagnostic, UserError, errors_in, quoted, usable
from micropul_print.base.record import record
from micropul_print.base.yamlsource import (
    Where,
    YamlMapping,
    YamlNode,
    YamlScalar,
    check_keys,
    describe,
    read_document,
    read_number,
)

THEMES_DIR = Path(__file__).parent / "themes"
THEME_NAMES: tuple[str, ...] = ("classic", "ink-saver", "colour-safe")
DEFAULT_THEME = "classic"

Colour = str | None
Shape = Literal["none", "disc", "square", "dots", "cross"]
SHAPES: tuple[str, ...] = ("none", "disc", "square", "dots", "cross")

MAX_THEME_BYTES = 256 * 1024  # a theme is a page of settings; refuse anything bigger
_COLOUR = re.compile(r"#[0-9a-fA-F]{6}")


@record
class Hatch:
    """Parallel lines across a disc or square (ink-saving stand-in for a solid fill)."""

    spacing: float  # distance between line centres, mm
    width: float  # line width, mm
    angle: float  # degrees, counter-clockwise from the x axis as seen on the page
    colour: str


@record
class Ring:
    """A concentric circle inside a disc: a shape cue that survives greyscale."""

    inset: float  # from the disc's edge to the ring's centre line, mm
    width: float
    colour: str


@record
class MarkStyle:
    """How one named mark is painted inside its cell.

    ``disc`` and ``square`` fill the cell less ``margin`` on every side; ``dots`` are
    ``count`` discs of diameter ``size`` in a row, ``gap`` apart (centre to centre);
    ``cross`` is a plus sign ``size`` across with arms ``thickness`` thick; ``none``
    paints nothing. ``content`` is the colour of marks drawn on top of this one (a
    mark in the middle of a big disc); ``plate`` paints a disc of ``plate_colour``
    of that diameter under them first.
    """

    shape: Shape
    fill: Colour = None
    stroke: Colour = None
    stroke_width: float = 0.0
    margin: float = 0.0
    size: float = 0.0
    thickness: float = 0.0
    count: int = 1
    gap: float = 0.0
    hatch: Hatch | None = None
    ring: Ring | None = None
    core: float = 0.0  # diameter of a solid centre disc of ``core_colour``
    core_colour: Colour = None
    content: Colour = None
    plate: float = 0.0
    plate_colour: Colour = None


@record
class TextStyle:
    size: float  # em size, mm
    colour: str
    weight: Weight = "regular"
    inset: float = 0.0  # number: distance of the text box from the cut edges, mm


@record
class PlateStyle:
    """The rounded box behind a face label (e.g. START), so it reads over any mark."""

    fill: Colour
    stroke: Colour
    stroke_width: float
    padding: float  # around the text, mm
    corner_radius: float


@record
class Theme:
    name: str
    description: str
    background: str  # face background, painted to the drawing edge (bleed included)
    outline: Colour  # thin square (or circle) on the cut line; None: no outline
    outline_width: float
    number: TextStyle
    label: TextStyle
    plate: PlateStyle
    marks: dict[str, MarkStyle]
    source: str = ""
    # Where the marks are written, so that a game's missing mark is reported there.
    marks_where: Where | None = field(default=None, compare=False)
    # Where each mark's margin is written (a theme file's), for disc_margin_problems.
    margins_where: dict[str, Where] = field(default_factory=dict, compare=False)

    def missing_marks(self, needed: Iterable[str], needed_by: str) -> list[Diagnostic]:
        """A problem for each mark of ``needed`` (sorted) this theme does not define;
        ``needed_by`` says what needs it ("the tiles of <game>")."""
        problems = []
        for name in sorted(set(needed) - set(self.marks)):
            message = (f"theme {self.name!r} has no mark {name!r}, which {needed_by} "
                       f"need (it has: {', '.join(sorted(self.marks))})")
            problems.append(self.marks_where.diagnostic(message) if self.marks_where
                            else Diagnostic(self.source or self.name, 0, 0, message))
        return problems

    def disc_margin_problems(self, cells: dict[str, float],
                             drawn_in: str) -> list[Diagnostic]:
        """A problem, at the margin's place in the theme file, for each disc or square
        of ``cells`` (mark name -> the width of the smallest square cell the game paints
        it in, mm) whose margin leaves nothing: it drew nothing, without a word."""
        problems = []
        for name, cell in sorted(cells.items()):
            style = self.marks.get(name)
            if (style is None or style.shape not in ("disc", "square")
                    or style.margin < cell / 2):
                continue
            message = (f"marks.{name}.margin: a {style.shape}'s margin must be below half "
                       f"its cell, {cell / 2:g} mm ({drawn_in} {cell:g} mm wide); got "
                       f"{style.margin:g} mm, which leaves no {style.shape} to draw")
            where = self.margins_where.get(name, self.marks_where)
            problems.append(where.diagnostic(message) if where
                            else Diagnostic(self.source or self.name, 0, 0, message))
        return sorted(problems, key=lambda problem: (problem.line, problem.col))

    def mark(self, name: str) -> MarkStyle:
        """The style of mark ``name``; a KeyError names the theme and the known marks."""
        try:
            return self.marks[name]
        except KeyError:
            known = ", ".join(sorted(self.marks))
            raise KeyError(f"theme {self.name!r} has no mark {name!r} (has: {known})") from None


def load_theme(name_or_path: str, *, strict: bool = False) -> Theme:
    """A built-in theme by name (``THEME_NAMES``) or a theme file by path.

    Raises UserError carrying every error found (and every warning, if ``strict``),
    each at its file:line:col. Use read_theme to see warnings of a usable theme.
    """
    if name_or_path in THEME_NAMES:
        path = THEMES_DIR / f"{name_or_path}.yaml"
    else:
        path = Path(name_or_path)
        looks_like_path = path.suffix in (".yaml", ".yml") or "/" in name_or_path
        if not looks_like_path and not path.exists():
            raise UserError([Diagnostic(
                name_or_path, 0, 0,
                f"no theme {name_or_path!r}: give a built-in theme "
                f"({', '.join(THEME_NAMES)}) or the path of a theme .yaml file",
            )])
    return usable(*read_theme(path), strict)


def read_theme(path: Path) -> tuple[Theme | None, list[Diagnostic]]:
    """Parse and validate one theme file; the theme is None when there is any error."""
    return read_document(
        path, lambda root, out: _Reader(out).theme(root, default_name=path.stem,
                                                   source=str(path)),
        max_bytes=MAX_THEME_BYTES)


# --- validation -----------------------------------------------------------------

T = TypeVar("T")


class _Invalid(Exception):
    """A value already reported; the caller substitutes a placeholder and reads on."""


class _Reader:
    """Walks the located YAML tree, converting values and collecting diagnostics."""

    def __init__(self, diagnostics: list[Diagnostic]) -> None:
        self.diagnostics = diagnostics  # appended to: the caller's list
        self.margins_where: dict[str, Where] = {}  # mark name -> its margin's place

    def report(self, node: YamlNode, message: str) -> None:
        self.diagnostics.append(node.diagnostic(message))

    def mapping(self, node: YamlNode, what: str, required: tuple[str, ...],
                optional: tuple[str, ...]) -> dict[str, YamlNode]:
        if not isinstance(node, YamlMapping):
            self.report(node, f"{what} must be a mapping of keys, got {describe(node)}")
            raise _Invalid
        self.diagnostics += check_keys(node, what, required, optional)
        known = (*required, *optional)
        return {key: value for key in known if (value := node.get(key)) is not None}

    def scalar(self, node: YamlNode, what: str) -> str:
        if not isinstance(node, YamlScalar):
            self.report(node, f"{what} must be a single value, got {describe(node)}")
            raise _Invalid
        return node.raw

    def colour(self, node: YamlNode, what: str, *, allow_none: bool = True) -> Colour:
        text = self.scalar(node, what)
        if allow_none and isinstance(node, YamlScalar) and node.tag == "null":
            return None
        if not _COLOUR.fullmatch(text):
            extra = " or null for no paint" if allow_none else ""
            self.report(node, f"{what} must be a colour like \"#1a2b3c\"{extra}; "
                              f"got {quoted(text)}")
            raise _Invalid
        return text.lower()

    def _number(self, node: YamlNode, what: str, expected: str) -> tuple[int | float, str]:
        """The number a value's text is written as (quoted or not), read by the one
        reader of numbers, yamlsource.read_number; and that text (a number: short)."""
        text = self.scalar(node, what)
        number = read_number(text)
        if number.value is None:
            why = f" ({number.note})" if number.note else ""
            self.report(node, f"{what} must be {expected}; got {quoted(text)}{why}")
            raise _Invalid
        return number.value, text

    def length(self, node: YamlNode, what: str, *, maximum: float = 100.0) -> float:
        value, text = self._number(node, what, "a length in millimetres")
        if not 0.0 <= value <= maximum:  # .nan and .inf too
            self.report(node, f"{what} must be between 0 and {maximum:g} mm; got {text}")
            raise _Invalid
        return float(value)

    def number(self, node: YamlNode, what: str, low: float, high: float) -> float:
        value, text = self._number(node, what, "a number")
        if not low <= value <= high:
            self.report(node, f"{what} must be between {low:g} and {high:g}; got {text}")
            raise _Invalid
        return float(value)

    def count(self, node: YamlNode, what: str) -> int:
        value, text = self._number(node, what, "a whole number from 1 to 9")
        if not isinstance(value, int) or not 1 <= value <= 9:
            self.report(node, f"{what} must be a whole number from 1 to 9; got {text!r}")
            raise _Invalid
        return value

    def choice(self, node: YamlNode, what: str, choices: tuple[str, ...]) -> str:
        text = self.scalar(node, what)
        if text not in choices:
            self.report(node, f"{what} must be one of {', '.join(choices)}; got {quoted(text)}")
            raise _Invalid
        return text

    def field(self, fields: dict[str, YamlNode], key: str,
              convert: Callable[[YamlNode, str], T], what: str, default: T) -> T:
        node = fields.get(key)
        if node is None:
            return default
        try:
            return convert(node, f"{what}.{key}")
        except _Invalid:
            return default

    # -- sections --

    def theme(self, root: YamlNode, default_name: str, source: str) -> Theme | None:
        try:
            top = self.mapping(root, "theme", ("face", "number", "label", "marks"),
                               ("name", "description"))
        except _Invalid:
            return None
        name = self.field(top, "name", self.scalar, "theme", default_name)
        description = self.field(top, "description", self.scalar, "theme", "")
        face = self._section(top, "face", self._face)
        number = self._section(top, "number", self._text)
        label = self._section(top, "label", self._label)
        marks = self._section(top, "marks", self._marks)
        if face is None or number is None or label is None or marks is None:
            return None
        background, outline, outline_width = face
        label_style, plate = label
        return Theme(name=name, description=description, background=background,
                     outline=outline, outline_width=outline_width, number=number,
                     label=label_style, plate=plate, marks=marks, source=source,
                     marks_where=top["marks"].where, margins_where=self.margins_where)

    def _section(self, top: dict[str, YamlNode], key: str,
                 read: Callable[[YamlNode, str], T]) -> T | None:
        node = top.get(key)
        if node is None:
            return None
        try:
            return read(node, key)
        except _Invalid:
            return None

    def _face(self, node: YamlNode, what: str) -> tuple[str, Colour, float]:
        f = self.mapping(node, what, ("background",), ("outline", "outline_width"))
        background = self.field(f, "background",
                                lambda n, w: self.colour(n, w, allow_none=False), what, None)
        outline = self.field(f, "outline", self.colour, what, None)
        width = self.field(f, "outline_width", self.length, what, 0.0)
        if background is None:
            raise _Invalid
        return background, outline, width

    def _text(self, node: YamlNode, what: str) -> TextStyle:
        f = self.mapping(node, what, ("size", "colour"), ("weight", "inset"))
        return self._text_fields(f, what)

    def _text_fields(self, f: dict[str, YamlNode], what: str) -> TextStyle:
        size = self.field(f, "size", self._text_size, what, None)
        colour = self.field(f, "colour", lambda n, w: self.colour(n, w, allow_none=False),
                            what, None)
        weight = self.field(f, "weight",
                            lambda n, w: self.choice(n, w, ("regular", "bold")), what, "regular")
        inset = self.field(f, "inset", self.length, what, 0.0)
        if size is None or colour is None:
            raise _Invalid
        return TextStyle(size=size, colour=colour,
                         weight="bold" if weight == "bold" else "regular", inset=inset)

    def _text_size(self, node: YamlNode, what: str) -> float:
        size = self.length(node, what)
        if size <= 0.0:
            self.report(node, f"{what} must be more than 0 mm")
            raise _Invalid
        return size

    def _label(self, node: YamlNode, what: str) -> tuple[TextStyle, PlateStyle]:
        f = self.mapping(node, what, ("size", "colour", "plate"), ("weight",))
        text = self._text_fields(f, what)
        plate = self._plate(f["plate"], f"{what}.plate") if "plate" in f else None
        if plate is None:
            raise _Invalid
        return text, plate

    def _plate(self, node: YamlNode, what: str) -> PlateStyle:
        f = self.mapping(node, what, (),
                         ("fill", "stroke", "stroke_width", "padding", "corner_radius"))
        return PlateStyle(
            fill=self.field(f, "fill", self.colour, what, None),
            stroke=self.field(f, "stroke", self.colour, what, None),
            stroke_width=self.field(f, "stroke_width", self.length, what, 0.0),
            padding=self.field(f, "padding", self.length, what, 0.0),
            corner_radius=self.field(f, "corner_radius", self.length, what, 0.0),
        )

    def _marks(self, node: YamlNode, what: str) -> dict[str, MarkStyle]:
        if not isinstance(node, YamlMapping) or not node.entries:
            self.report(node, "marks must be a mapping of mark names to their styles")
            raise _Invalid
        marks: dict[str, MarkStyle] = {}
        failed = False
        for key_node, value_node in node.entries:
            if key_node.raw in marks:
                continue  # a duplicate key, already reported by yamlsource
            try:
                marks[key_node.raw] = self._mark(value_node, f"marks.{key_node.raw}")
            except _Invalid:
                failed = True
        if failed:
            raise _Invalid
        return marks

    _MARK_KEYS = ("fill", "stroke", "stroke_width", "margin", "size", "thickness", "count",
                  "gap", "hatch", "ring", "core", "core_colour", "content", "plate",
                  "plate_colour")

    def _mark(self, node: YamlNode, what: str) -> MarkStyle:
        before = len(errors_in(self.diagnostics))
        f = self.mapping(node, what, ("shape",), self._MARK_KEYS)
        if "margin" in f:
            self.margins_where[what.removeprefix("marks.")] = f["margin"].where
        shape = self.field(f, "shape", lambda n, w: self.choice(n, w, SHAPES), what, "none")
        style = MarkStyle(
            shape=shape,  # type: ignore[arg-type]  # checked against SHAPES above
            fill=self.field(f, "fill", self.colour, what, None),
            stroke=self.field(f, "stroke", self.colour, what, None),
            stroke_width=self.field(f, "stroke_width", self.length, what, 0.0),
            margin=self.field(f, "margin", self.length, what, 0.0),
            size=self.field(f, "size", self.length, what, 0.0),
            thickness=self.field(f, "thickness", self.length, what, 0.0),
            count=self.field(f, "count", self.count, what, 1),
            gap=self.field(f, "gap", self.length, what, 0.0),
            hatch=self.field(f, "hatch", self._hatch, what, None),
            ring=self.field(f, "ring", self._ring, what, None),
            core=self.field(f, "core", self.length, what, 0.0),
            core_colour=self.field(f, "core_colour", self.colour, what, None),
            content=self.field(f, "content", self.colour, what, None),
            plate=self.field(f, "plate", self.length, what, 0.0),
            plate_colour=self.field(f, "plate_colour", self.colour, what, None),
        )
        for problem in _style_problems(style):
            self.report(node, f"{what}: {problem}")
        if len(errors_in(self.diagnostics)) > before:
            raise _Invalid
        return style

    def _hatch(self, node: YamlNode, what: str) -> Hatch:
        f = self.mapping(node, what, ("spacing", "width", "colour"), ("angle",))
        spacing = self.field(f, "spacing", self.length, what, 0.0)
        width = self.field(f, "width", self.length, what, 0.0)
        colour = self.field(f, "colour", lambda n, w: self.colour(n, w, allow_none=False),
                            what, None)
        angle = self.field(f, "angle", lambda n, w: self.number(n, w, -180, 180), what, 45.0)
        if spacing < 0.2:
            self.report(node, f"{what}.spacing must be at least 0.2 mm")
            raise _Invalid
        if colour is None:
            raise _Invalid
        return Hatch(spacing=spacing, width=width, angle=angle, colour=colour)

    def _ring(self, node: YamlNode, what: str) -> Ring:
        f = self.mapping(node, what, ("inset", "width", "colour"), ())
        colour = self.field(f, "colour", lambda n, w: self.colour(n, w, allow_none=False),
                            what, None)
        if colour is None:
            raise _Invalid
        return Ring(inset=self.field(f, "inset", self.length, what, 0.0),
                    width=self.field(f, "width", self.length, what, 0.0), colour=colour)


def _style_problems(style: MarkStyle) -> Iterator[str]:
    """Combinations that would draw nothing or nonsense."""
    if style.shape in ("dots", "cross") and style.size <= 0.0:
        yield f"a {style.shape} mark needs a size above 0 mm"
    if style.shape == "cross" and not 0.0 < style.thickness <= style.size:
        yield "a cross needs a thickness above 0 mm and no larger than its size"
    if style.shape in ("dots", "cross") and style.fill is None:
        yield f"a {style.shape} mark needs a fill colour"
    if style.shape == "dots" and style.count > 1 and style.gap < style.size:
        yield "dots need a gap (centre to centre) at least as large as their size"
    if style.core > 0.0 and style.core_colour is None:
        yield "core needs a core_colour"
    if style.plate > 0.0 and style.plate_colour is None:
        yield "plate needs a plate_colour"
