"""A Drawing as readable text, one primitive per line (groups indent their items).

Golden tests compare these lines instead of pixels, so a change in any tile picture
shows up as a plain, reviewable diff.
"""

from __future__ import annotations

from dataclasses import fields

from micropul_print.draw.primitives import Drawing, Group, Primitive


def drawing_lines(drawing: Drawing) -> list[str]:
    lines = [f"Drawing {_value(drawing.width)} x {_value(drawing.height)}"]
    for item in drawing.items:
        lines += _item_lines(item, "  ")
    return lines


def _item_lines(item: Primitive, indent: str) -> list[str]:
    parts = [type(item).__name__]
    for f in fields(item):
        if f.name == "items":
            continue
        parts.append(f"{f.name}={_value(getattr(item, f.name))}")
    lines = [indent + " ".join(parts)]
    if isinstance(item, Group):
        for child in item.items:
            lines += _item_lines(child, indent + "  ")
    return lines


def mm_text(value: float) -> str:
    """A length as short stable text: at most 4 decimals, no trailing zeros, never "-0"."""
    text = f"{value:.4f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def _value(value: object) -> str:
    if isinstance(value, float):
        return mm_text(value)
    if isinstance(value, tuple):
        return "[" + " ".join(_value(v) for v in value) + "]"
    if isinstance(value, str):
        return repr(value) if (" " in value or not value) else value
    return str(value)
