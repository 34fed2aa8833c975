"""The Cellulae kit (cellulae_kit.py): the files of its contract, their bytes from one
build to the next, board squares measured in the PDF, tile faces lined up front/back."""

from __future__ import annotations

import itertools
import math
from pathlib import Path
from typing import Any

import pytest
from PIL import Image
from pypdf import PdfReader
from pypdf.generic import ContentStream

from micropul_print.draw.primitives import Rect
from micropul_print.draw.theme import Theme, load_theme
from micropul_print.game import registry
from micropul_print.games.cellulae.catalogue import CellulaeCatalogue
from micropul_print.kit import plan as kitplan
from micropul_print.kit.outputs import OutputDir
from micropul_print.kit.plan import KitOptions, game_kit, kit_jobs
from micropul_print.rulebook import available_languages
from micropul_print.sheets.duplex import Flip, back_point
from micropul_print.sheets.layout import SheetLayout, load_layout
from micropul_print.sheets.pages import SheetOptions, SheetPlan

ROOT = Path(__file__).resolve().parents[3]
PT_PER_MM = 72 / 25.4
DPI = 100  # the PNG files' resolution in these tests: small and quick

CONTRACT = sorted([
    "cellulae/tiles/svg/tile-white.svg",
    "cellulae/tiles/svg/tile-black.svg",
    "cellulae/tiles/png/tile-white.png",
    "cellulae/tiles/png/tile-black.png",
    "cellulae/tiles/overview.png",
    *(f"cellulae/sheets/cellulae-tiles-{paper}.pdf" for paper in ("a4", "letter")),
    *(f"cellulae/sheets/cellulae-board-{side}-{paper}.pdf"
      for side in (5, 7, 9) for paper in ("a4", "letter")),
    # One rulebook per language and paper (as Micropul's).
    *(f"cellulae/rules/cellulae-rules-{lang}-{paper}.pdf"
      for lang in available_languages("cellulae") for paper in ("a4", "letter")),
])


@pytest.fixture(scope="module")
def theme() -> Theme:
    return load_theme("classic")


def build(catalogue: CellulaeCatalogue, theme: Theme, out: Path, *,
          parts: frozenset[str] = frozenset({"svg", "png", "sheets", "rulebooks"}),
          messages: list[str] | None = None, papers: tuple[str, ...] = ("a4", "letter"),
          langs: list[str] | None = None) -> list[Path]:
    """The core's plan of Cellulae's pieces, its jobs run here in order (no booklets)."""
    kit = game_kit(registry.get("cellulae"), catalogue, theme, OutputDir(out))
    options = KitOptions(papers=papers, dpi=DPI, parts=parts, booklets=False)
    layouts = [load_layout(paper) for paper in papers] if "sheets" in parts else []
    langs = langs or (available_languages("cellulae") if "rulebooks" in parts else [])
    say = (lambda _message: None) if messages is None else messages.append
    return [path for job in kit_jobs(kit, layouts, options, langs) for path in job.run(say).paths]


def plan_tile_sheets(catalogue: CellulaeCatalogue, theme: Theme, layout: SheetLayout,
                     options: SheetOptions) -> SheetPlan:
    kit = game_kit(registry.get("cellulae"), catalogue, theme, OutputDir(Path("unused")))
    plan: SheetPlan = kitplan.plan_tile_sheets(kit, layout, options)
    return plan


@pytest.fixture(scope="module")
def kit(tmp_path_factory: pytest.TempPathFactory, catalogue: CellulaeCatalogue,
        theme: Theme) -> tuple[Path, list[Path]]:
    out = tmp_path_factory.mktemp("kit")
    return out, build(catalogue, theme, out)


def test_the_contract_files_and_nothing_else(kit: tuple[Path, list[Path]]) -> None:
    out, written = kit
    on_disk = sorted(p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file())
    assert on_disk == CONTRACT
    assert sorted(p.relative_to(out).as_posix() for p in written) == CONTRACT


def test_same_inputs_same_bytes(kit: tuple[Path, list[Path]], tmp_path: Path,
                                catalogue: CellulaeCatalogue, theme: Theme) -> None:
    out, _written = kit
    build(catalogue, theme, tmp_path)
    for relative in CONTRACT:
        assert (tmp_path / relative).read_bytes() == (out / relative).read_bytes(), relative


def test_parts_build_only_their_files(tmp_path: Path, catalogue: CellulaeCatalogue,
                                      theme: Theme) -> None:
    messages: list[str] = []
    written = build(catalogue, theme, tmp_path, parts=frozenset({"svg"}), messages=messages)
    assert [p.name for p in written] == ["tile-white.svg", "tile-black.svg"]
    assert messages and all(m.startswith("writing ") for m in messages)
    with pytest.raises(ValueError, match="unknown kit parts"):
        build(catalogue, theme, tmp_path, parts=frozenset({"stickers"}))


def test_the_rulebooks_part_writes_the_languages_asked_on_each_paper(
        tmp_path: Path, catalogue: CellulaeCatalogue, theme: Theme) -> None:
    messages: list[str] = []
    written = build(catalogue, theme, tmp_path, papers=("letter", "a4"),
                    parts=frozenset({"rulebooks"}), messages=messages, langs=["en"])
    assert [p.relative_to(tmp_path).as_posix() for p in written] == [
        "cellulae/rules/cellulae-rules-en-letter.pdf", "cellulae/rules/cellulae-rules-en-a4.pdf"]
    page = PdfReader(written[0]).pages[0]
    assert (round(float(page.mediabox.width)), round(float(page.mediabox.height))) == (612, 792)
    assert messages == [f"writing rulebook en (English): {path}" for path in written]


def test_svg_faces_are_the_tile_size_in_millimetres(kit: tuple[Path, list[Path]]) -> None:
    out, _written = kit
    for colour in ("white", "black"):
        svg = (out / f"cellulae/tiles/svg/tile-{colour}.svg").read_text(encoding="utf-8")
        assert 'width="30mm"' in svg and 'height="30mm"' in svg
        assert 'viewBox="0 0 30 30"' in svg


def test_png_faces_have_the_bleed_and_record_their_dpi(kit: tuple[Path, list[Path]]) -> None:
    out, _written = kit
    side = round(36.0 / 25.4 * DPI)  # 30 mm and 3 mm of bleed on each side
    white = Image.open(out / "cellulae/tiles/png/tile-white.png")
    black = Image.open(out / "cellulae/tiles/png/tile-black.png")
    for image in (white, black):
        assert image.size == (side, side)
        assert tuple(round(v) for v in image.info["dpi"]) == (DPI, DPI)
    assert black.convert("L").getpixel((1, 1)) == 0  # black right into the bleed
    assert white.convert("L").getpixel((1, 1)) == 255


def test_overview_shows_both_faces_and_the_set_up(kit: tuple[Path, list[Path]]) -> None:
    out, _written = kit
    overview = Image.open(out / "cellulae/tiles/overview.png").convert("L")
    width, height = overview.size
    assert height > width  # the faces above the board
    assert overview.getextrema() == (0, 255)


@pytest.mark.parametrize("theme", ["classic", "ink-saver", "colour-safe"])
def test_overview_outlines_the_start_tiles(cellulae_catalogue: CellulaeCatalogue,
                                           theme: str) -> None:
    """The white start tile on its white square showed only by a faint shadow: each
    start tile is ringed by a line at least 0.5 mm wide round its face, in every
    theme."""
    from micropul_print.games.cellulae.faces import FRAME, TILE_INSET, start_squares
    from micropul_print.games.cellulae.pieces import OVERVIEW_GAP, overview_drawing

    drawing = overview_drawing(cellulae_catalogue, load_theme(theme))
    size = cellulae_catalogue.tile_size_mm
    rings = [item for item in drawing.items
             if isinstance(item, Rect) and item.stroke is not None and item.fill is None
             and item.stroke_width >= 0.5]
    for x, y in start_squares(5).values():
        left = OVERVIEW_GAP + FRAME + x * size + TILE_INSET
        top = size + 2 * OVERVIEW_GAP + FRAME + y * size + TILE_INSET
        face = size - 2 * TILE_INSET
        assert any(ring.x < left and ring.y < top and ring.x + ring.width > left + face
                   and ring.y + ring.height > top + face for ring in rings), (x, y)


# --- the PDF files, measured ----------------------------------------------------------

Matrix = tuple[float, float, float, float, float, float]


def stroked_lines(pdf: Path, page_number: int) -> list[tuple[float, float, float, float]]:
    """The page's stroked straight segments (x1, y1, x2, y2), mm from the top-left."""
    reader = PdfReader(pdf)
    page = reader.pages[page_number]
    height = float(page.mediabox.height)
    ctm: Matrix = (1, 0, 0, 1, 0, 0)
    stack: list[Matrix] = []
    start = (0.0, 0.0)
    segments: list[tuple[float, float, float, float]] = []
    lines: list[tuple[float, float, float, float]] = []

    def place(x: float, y: float) -> tuple[float, float]:
        a, b, c, d, e, f = ctm
        return (a * x + c * y + e) / PT_PER_MM, (height - (b * x + d * y + f)) / PT_PER_MM

    content: Any = ContentStream(page.get_contents(), reader)
    for operands, operator in content.operations:
        if operator == b"q":
            stack.append(ctm)
        elif operator == b"Q":
            ctm = stack.pop()
        elif operator == b"cm":
            a, b, c, d, e, f = (float(v) for v in operands)
            p, q, r, s, t, u = ctm
            ctm = (a * p + b * r, a * q + b * s, c * p + d * r, c * q + d * s,
                   e * p + f * r + t, e * q + f * s + u)
        elif operator == b"m":
            start = place(float(operands[0]), float(operands[1]))
        elif operator == b"l":
            end = place(float(operands[0]), float(operands[1]))
            segments.append((*start, *end))
            start = end
        elif operator == b"S":
            lines += segments
            segments = []
        elif operator in (b"n", b"f", b"f*", b"B", b"b"):
            segments = []
    return lines


def grid_positions(lines: list[tuple[float, float, float, float]], length: float,
                   ) -> tuple[list[float], list[float]]:
    """x of the vertical and y of the horizontal lines ``length`` mm long."""
    xs = sorted(x1 for x1, y1, x2, y2 in lines
                if math.isclose(x1, x2, abs_tol=1e-6) and math.isclose(abs(y2 - y1), length,
                                                                       abs_tol=1e-3))
    ys = sorted(y1 for x1, y1, x2, y2 in lines
                if math.isclose(y1, y2, abs_tol=1e-6) and math.isclose(abs(x2 - x1), length,
                                                                       abs_tol=1e-3))
    return xs, ys


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_board_squares_measure_30_mm_in_the_pdf(kit: tuple[Path, list[Path]],
                                                paper: str) -> None:
    out, _written = kit
    pdf = out / f"cellulae/sheets/cellulae-board-5-{paper}.pdf"
    assert len(PdfReader(pdf).pages) == 1
    xs, ys = grid_positions(stroked_lines(pdf, 0), 150.0)
    assert len(xs) == len(ys) == 4  # the lines between the 5 squares
    for positions in (xs, ys):
        for a, b in itertools.pairwise(positions):
            assert b - a == pytest.approx(30.0, abs=0.01)


@pytest.mark.parametrize(("side", "pages"), [(7, 2), (9, 4)])
@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_large_boards_split_keep_30_mm_squares(kit: tuple[Path, list[Path]], paper: str,
                                               side: int, pages: int) -> None:
    out, _written = kit
    pdf = out / f"cellulae/sheets/cellulae-board-{side}-{paper}.pdf"
    assert len(PdfReader(pdf).pages) == pages
    for number in range(pages):
        xs, ys = grid_positions(stroked_lines(pdf, number), side * 30.0)
        assert len(xs) == len(ys) == side - 1  # every line is drawn; the part clips them
        for positions in (xs, ys):
            for a, b in itertools.pairwise(positions):
                assert b - a == pytest.approx(30.0, abs=0.01)


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_tile_sheets_hold_every_tile_on_the_fewest_sheets(catalogue: CellulaeCatalogue,
                                                          theme: Theme, paper: str) -> None:
    plan = plan_tile_sheets(catalogue, theme, load_layout(paper), SheetOptions())
    fronts = [p for page in plan.pages if page.side == "front" for p in page.placements]
    assert len(fronts) == catalogue.tile_total == 81
    assert plan.card_pages == math.ceil(81 / plan.grid.capacity) == 2
    assert len(plan.pages) == 2 + 2 * plan.card_pages  # the calibration page and its back


@pytest.mark.parametrize(("flip", "offset"), [("long", (0.0, 0.0)), ("short", (0.0, 0.0)),
                                              ("long", (1.5, -0.5))])
def test_black_faces_lie_behind_the_white_ones(catalogue: CellulaeCatalogue, theme: Theme,
                                               flip: Flip, offset: tuple[float, float]) -> None:
    layout = load_layout("a4")
    options = SheetOptions(bleed=2.0, flip=flip, back_offset=offset)
    plan = plan_tile_sheets(catalogue, theme, layout, options)
    card_pages = plan.pages[2:]
    for front, back in zip(card_pages[::2], card_pages[1::2], strict=True):
        assert (front.side, back.side) == ("front", "back")
        # Each card's back is placed in the same order as its front.
        for placement, behind in zip(front.placements, back.placements, strict=True):
            first = placement.drawing.items[0]
            assert isinstance(first, Rect) and first.fill == "#ffffff"  # the white face
            first = behind.drawing.items[0]
            assert isinstance(first, Rect) and first.fill == "#000000"  # the black face
            size = placement.drawing.width
            # The front's top-right corner comes out behind the back's top-left (long
            # flip), or its bottom-left behind the back's top-left (short flip).
            corner = ((placement.x + size, placement.y) if flip == "long"
                      else (placement.x, placement.y + size))
            x, y = back_point(*corner, layout.paper_width, layout.paper_height, flip, offset)
            assert (behind.x, behind.y) == pytest.approx((x, y), abs=1e-6)


def test_tile_sheet_pdf_metadata_and_embedded_fonts(kit: tuple[Path, list[Path]]) -> None:
    out, _written = kit
    reader = PdfReader(out / "cellulae/sheets/cellulae-tiles-a4.pdf")
    assert len(reader.pages) == 6
    assert reader.metadata is not None
    assert reader.metadata.title == "Cellulae — tiles, A4"
    assert "Federico Latini" in str(reader.metadata.author)
    board = PdfReader(out / "cellulae/sheets/cellulae-board-9-letter.pdf")
    assert board.metadata is not None
    assert board.metadata.title == "Cellulae — board 9 × 9, Letter"
    for document in (reader, board):
        pages: Any = document.pages
        for page in pages:
            fonts: Any = page["/Resources"].get_object().get("/Font", {})
            for ref in fonts.values():
                font = ref.get_object()
                descendants = font.get("/DescendantFonts")
                holder = descendants[0].get_object() if descendants else font
                assert "/FontFile2" in holder["/FontDescriptor"].get_object()
    raw = (out / "cellulae/sheets/cellulae-board-9-a4.pdf").read_bytes()
    assert b"Helvetica" not in raw and b"Lato" in raw


def test_a_file_in_the_way_is_replaced_whole(tmp_path: Path, catalogue: CellulaeCatalogue,
                                             theme: Theme) -> None:
    target = tmp_path / "cellulae/tiles/svg/tile-white.svg"
    target.parent.mkdir(parents=True)
    target.write_text("old", encoding="utf-8")
    build(catalogue, theme, tmp_path, parts=frozenset({"svg"}))
    assert target.read_text(encoding="utf-8").startswith("<svg ")
    assert sorted(p.name for p in target.parent.iterdir()) == ["tile-black.svg", "tile-white.svg"]


def test_the_contract_is_documented() -> None:
    doc = (ROOT / "docs" / "output-layout.md").read_text(encoding="utf-8")
    section = doc[doc.index("## Cellulae"):]
    for path in ("cellulae/tiles/svg/tile-white.svg", "tile-black.svg",
                 "cellulae/tiles/png/tile-white.png", "tile-black.png",
                 "cellulae/tiles/overview.png", "cellulae/sheets/cellulae-tiles-a4.pdf",
                 "cellulae/sheets/cellulae-board-5-a4.pdf", "`-letter.pdf`",
                 "cellulae/rules/cellulae-rules-en-a4.pdf"):
        assert f"`{path.strip('`')}`" in section, path
