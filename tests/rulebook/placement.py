"""Reading where a layout put things (``layout.Laid.placed``)."""

from __future__ import annotations

import itertools

from micropul_print.rulebook import layout


def headings_alone(laid: layout.Laid) -> list[layout.Placed]:
    """The headings whose next text is not in their column: left alone at its foot."""
    text = [p for p in laid.placed if p.kind in ("text", "heading")]
    return [heading for heading, after in itertools.pairwise(text)
            if heading.kind == "heading"
            and (heading.page, heading.column) != (after.page, after.column)]
