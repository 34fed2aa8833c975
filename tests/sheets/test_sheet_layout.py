from __future__ import annotations

from pathlib import Path

import pytest

from micropul_print.base.errors import UserError
from micropul_print.sheets.layout import LAYOUT_NAMES, MIN_MARGIN, load_layout, plan_grid

A4_TEXT = (Path(__file__).parents[2] / "micropul_print/sheets/layouts/a4.yaml").read_text()


def test_bundled_layouts_load() -> None:
    a4 = load_layout("a4")
    letter = load_layout("letter")
    assert (a4.paper_width, a4.paper_height) == (210.0, 297.0)
    assert (letter.paper_width, letter.paper_height) == (215.9, 279.4)
    for name in LAYOUT_NAMES:
        assert load_layout(name).margin >= MIN_MARGIN


def test_a4_holds_54_and_letter_48_tiles_of_30_mm() -> None:
    a4 = plan_grid(load_layout("a4"), 30.0, 30.0)
    letter = plan_grid(load_layout("letter"), 30.0, 30.0)
    assert (a4.columns, a4.rows) == (6, 9)
    assert (letter.columns, letter.rows) == (6, 8)


def test_bleed_widens_the_gutter_to_twice_the_bleed() -> None:
    grid = plan_grid(load_layout("a4"), 30.0, 30.0, bleed=3.0)
    assert grid.gutter == 6.0
    assert (grid.columns, grid.rows) == (5, 7)


@pytest.mark.parametrize("paper", LAYOUT_NAMES)
@pytest.mark.parametrize("bleed", [0.0, 0.5, 1.0, 2.0, 3.0, 5.0])
def test_grid_is_centred_and_leaves_room_for_marks_and_margin(paper: str, bleed: float) -> None:
    layout = load_layout(paper)
    grid = plan_grid(layout, 30.0, 30.0, bleed)
    room = bleed + layout.crop_marks.offset + layout.crop_marks.min_length
    assert grid.left - room >= layout.margin - 1e-9
    assert grid.top - room >= layout.margin + layout.footer_band - 1e-9
    assert grid.left + grid.width / 2 == pytest.approx(layout.paper_width / 2)
    assert grid.top + grid.height / 2 == pytest.approx(layout.paper_height / 2)
    # One more column or row would not fit: the grid is the largest possible.
    wider = (grid.columns + 1) * 30 + grid.columns * grid.gutter + 2 * room
    taller = (grid.rows + 1) * 30 + grid.rows * grid.gutter + 2 * room
    assert wider > layout.paper_width - 2 * layout.margin
    assert taller > layout.paper_height - 2 * (layout.margin + layout.footer_band)


def test_shared_edges_are_one_cut_line() -> None:
    grid = plan_grid(load_layout("a4"), 30.0, 30.0)
    assert len(grid.cut_lines_x()) == grid.columns + 1
    bled = plan_grid(load_layout("a4"), 30.0, 30.0, bleed=2.0)
    assert len(bled.cut_lines_x()) == 2 * bled.columns


def test_card_too_large_for_the_paper_is_a_user_error() -> None:
    with pytest.raises(UserError) as caught:
        plan_grid(load_layout("a4"), 250.0, 30.0)
    assert "does not fit on A4" in str(caught.value)


def test_margin_below_5_mm_is_reported_at_its_line(tmp_path: Path) -> None:
    path = tmp_path / "tight.yaml"
    path.write_text(A4_TEXT.replace("margin: 5.0", "margin: 3.0"))
    with pytest.raises(UserError) as caught:
        load_layout(path)
    (diagnostic,) = caught.value.diagnostics
    line = A4_TEXT.splitlines().index("margin: 5.0") + 1
    assert (diagnostic.file, diagnostic.line, diagnostic.col) == (str(path), line, 9)
    assert "below 5 mm" in diagnostic.message


def test_every_problem_is_reported_at_once(tmp_path: Path) -> None:
    path = tmp_path / "bad.yaml"
    text = A4_TEXT.replace("gutter: 0.0", "gutter: wide").replace("width: 0.2", "width: -1")
    path.write_text(text.replace("cut_lines: true", "cut_lines: maybe"))
    with pytest.raises(UserError) as caught:
        load_layout(path)
    messages = [d.message for d in caught.value.diagnostics]
    assert len(messages) == 3
    assert any("'gutter'" in m for m in messages)
    assert any("'crop_marks.width'" in m for m in messages)
    assert any("'cut_lines'" in m for m in messages)
    assert all(d.line > 0 for d in caught.value.diagnostics)


def test_unknown_layout_and_broken_yaml_are_user_errors(tmp_path: Path) -> None:
    with pytest.raises(UserError, match="known layouts: a4, letter, gutterfold-a4, "
                                        "gutterfold-letter"):
        load_layout(tmp_path / "missing.yaml")
    broken = tmp_path / "broken.yaml"
    broken.write_text("paper: {width: 1\n")
    with pytest.raises(UserError, match="invalid YAML"):
        load_layout(broken)


def test_a_bad_fold_gap_is_reported_at_its_line(tmp_path: Path) -> None:
    path = tmp_path / "fold.yaml"
    path.write_text(A4_TEXT + "fold: {gap: -2}\n")
    with pytest.raises(UserError) as caught:
        load_layout(path)
    (diagnostic,) = caught.value.diagnostics
    assert diagnostic.message == "'fold.gap' must be a non-negative number of millimetres"
    assert diagnostic.line == len(A4_TEXT.splitlines()) + 1
    assert load_layout("a4").fold_gap is None
