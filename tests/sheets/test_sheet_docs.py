"""The numbers docs/output-layout.md gives are the ones the layouts produce."""

from __future__ import annotations

import re
from pathlib import Path

from micropul_print.draw.bounds import Box
from micropul_print.sheets.layout import load_layout, plan_grid

DOC = (Path(__file__).parents[2] / "docs/output-layout.md").read_text(encoding="utf-8")
ROW = r"^\| (A4|Letter)(?:, `--bleed (\d+)`)? \| (\d+) \((\d+) [x×] (\d+)\) \|"


def test_cards_per_page_table_matches_the_layouts() -> None:
    duplex = DOC[:DOC.index("| gutter fold |")]
    rows = re.findall(ROW, duplex, flags=re.MULTILINE)
    assert len(rows) == 4
    for label, bleed, per_page, columns, rows_ in rows:
        grid = plan_grid(load_layout(label.lower()), 30.0, 30.0, float(bleed or 0))
        assert (grid.capacity, grid.columns, grid.rows) == (int(per_page), int(columns),
                                                            int(rows_))


def test_gutter_fold_table_matches_the_layouts() -> None:
    fold = DOC[DOC.index("| gutter fold |"):]
    rows = re.findall(ROW, fold, flags=re.MULTILINE)
    assert len(rows) == 2
    for label, _bleed, per_page, columns, rows_ in rows:
        layout = load_layout(f"gutterfold-{label.lower()}")
        assert layout.fold_gap is not None
        band = layout.margin + layout.footer_band
        half = Box(layout.margin, band, layout.paper_width / 2 - layout.fold_gap,
                   layout.paper_height - band)
        grid = plan_grid(layout, 30.0, 30.0, area=half)
        assert (grid.capacity, grid.columns, grid.rows) == (int(per_page), int(columns),
                                                            int(rows_))
