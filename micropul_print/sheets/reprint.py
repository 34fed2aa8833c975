"""Reprints: sheets with only some of the cards (a lost or damaged tile, a misprint).

``--tiles 7,12,31`` names cards by their numbers; :func:`parse_numbers` reads that
text, :func:`choose` picks the cards (every unknown number reported at once) and
:func:`plan_reprint` lays them out like any sheet: fronts from the first slot on, each
back behind its front for the flip, calibration page as asked.
"""

from __future__ import annotations

from collections.abc import Sequence

from micropul_print.errors import Diagnostic, UserError
from micropul_print.sheets.layout import SheetLayout
from micropul_print.sheets.pages import (
    DEFAULT_OPTIONS,
    Card,
    SheetOptions,
    SheetPlan,
    plan_sheets,
)

MAX_RANGE = 10_000  # a range longer than any set of cards is a typo, not a request


def parse_numbers(text: str) -> tuple[int, ...]:
    """``"7,12,31"`` or ``"7-9,12"`` as card numbers, in the order given, each once.
    Raises ValueError with a message for the user (the command line's usage error)."""
    numbers: list[int] = []
    for part in text.split(","):
        part = part.strip()
        if not part:
            raise ValueError(f"empty tile number in {text!r} (write them as 7,12,31)")
        first, dash, last = part.partition("-")
        try:
            low = int(first)
            high = int(last) if dash else low
        except ValueError:
            raise ValueError(f"not a tile number: {part!r} (write them as 7,12,31 "
                             "or 7-9)") from None
        if low < 1 or high < low or high - low > MAX_RANGE:
            raise ValueError(f"not a range of tile numbers: {part!r}")
        numbers += range(low, high + 1)
    return tuple(dict.fromkeys(numbers))


def choose(cards: Sequence[Card], numbers: Sequence[int], wanted: Sequence[int], *,
           source: str, what: str = "tile") -> list[Card]:
    """The cards whose numbers (``numbers[i]`` is the number of ``cards[i]``) are
    ``wanted``, in the order wanted. Each number the set lacks is a problem reported at
    ``source`` (the catalogue), all at once."""
    if len(cards) != len(numbers):
        raise ValueError("every card needs its number")
    by_number = dict(zip(numbers, cards, strict=True))
    missing = [n for n in wanted if n not in by_number]
    if missing:
        known = f"{min(numbers)} to {max(numbers)}" if numbers else "none"
        raise UserError([Diagnostic(source, 0, 0, f"no {what} {n} in this set (its {what}s "
                                    f"are numbered {known})") for n in missing])
    return [by_number[n] for n in wanted]


def reprint_title(title: str, wanted: Sequence[int], what: str = "tile") -> str:
    """The sheets' name for a reprint: "<set name> — tiles 7, 12, 31"."""
    plural = what if len(wanted) == 1 else f"{what}s"
    return f"{title} — {plural} {', '.join(str(n) for n in wanted)}"


def plan_reprint(layout: SheetLayout, cards: Sequence[Card], numbers: Sequence[int],
                 wanted: Sequence[int], card_width: float, card_height: float, title: str,
                 *, source: str, options: SheetOptions = DEFAULT_OPTIONS,
                 what: str = "tile") -> SheetPlan:
    """The sheets of the ``wanted`` cards only (no tokens), named after them."""
    chosen = choose(cards, numbers, wanted, source=source, what=what)
    return plan_sheets(layout, chosen, card_width, card_height,
                       reprint_title(title, wanted, what), options=options)
