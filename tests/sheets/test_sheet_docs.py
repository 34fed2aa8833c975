"""The numbers docs/output-layout.md gives are the ones the layouts produce."""

from __future__ import annotations

import re
from pathlib import Path

from micropul_print.sheets.layout import load_layout, plan_grid

DOC = (Path(__file__).parents[2] / "docs/output-layout.md").read_text(encoding="utf-8")


def test_cards_per_page_table_matches_the_layouts() -> None:
    rows = re.findall(r"^\| (A4|Letter)(?:, `--bleed (\d+)`)? \| (\d+) \((\d+) x (\d+)\) \|",
                      DOC, flags=re.MULTILINE)
    assert len(rows) == 4
    for label, bleed, per_page, columns, rows_ in rows:
        grid = plan_grid(load_layout(label.lower()), 30.0, 30.0, float(bleed or 0))
        assert (grid.capacity, grid.columns, grid.rows) == (int(per_page), int(columns),
                                                            int(rows_))
