"""Reprints: sheets with only some of the cards (a lost or damaged tile, a misprint).

``--tiles 7,12,31`` names cards by their numbers; :func:`parse_numbers` reads that
text, :func:`choose` picks the cards (every unknown number reported at once) and
:func:`plan_reprint` lays them out like any sheet: fronts from the first slot on, each
back behind its front for the flip (the kit leaves the calibration page out: the full
sheets have it).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from micropul_print.base.errors import Diagnostic, UserError, quoted
from micropul_print.sheets.layout import SheetLayout
from micropul_print.sheets.pages import (
    DEFAULT_OPTIONS,
    Card,
    SheetOptions,
    SheetPlan,
    plan_sheets,
)

MAX_RANGE = 10_000  # a range longer than any set of cards is a typo, not a request


MAX_DIGITS = 30  # a number longer than this is no tile number, not even a typo's
# One number or a range of them, in ASCII digits: int() would also take "1_0", "+7" or
# other scripts' digits, which nobody types as a tile number on purpose. A number below
# 1 (0, -3) or beyond the set is read, for the set's check to name its numbering.
_PART = re.compile(rf"(-?[0-9]{{1,{MAX_DIGITS}}})(?:\s*-\s*(-?[0-9]{{1,{MAX_DIGITS}}}))?")


def parse_numbers(text: str) -> tuple[int, ...]:
    """``"7,12,31"`` or ``"7-9,12"`` as card numbers, in the order given, each once.
    Raises ValueError with a message for the user (the command line's usage error)."""
    numbers: list[int] = []
    for part in text.split(","):
        part = part.strip()
        if not part:
            raise ValueError(f"empty tile number in {quoted(text)} (write them as 7,12,31)")
        match = _PART.fullmatch(part)
        if match is None:
            raise ValueError(f"not a tile number: {quoted(part)} (write them as 7,12,31 "
                             "or 7-9)")
        low = int(match.group(1))
        high = int(match.group(2) or low)
        if high < low:
            raise ValueError(f"not a range of tile numbers: {quoted(part)} (the lower "
                             f"number first: {high}-{low})")
        if high - low > MAX_RANGE:
            raise ValueError(f"a range of more than {MAX_RANGE:,} tile numbers: "
                             f"{quoted(part)} (no set has that many)")
        numbers += range(low, high + 1)
    return tuple(dict.fromkeys(numbers))


def numbers_outside(numbers: Sequence[int], wanted: Sequence[int], set_name: str,
                    what: str = "tile") -> str | None:
    """What of ``wanted`` the set numbered ``numbers`` lacks, and its numbering ("no
    tiles 49 and 50, no tile 0 in My set (its tiles are numbered 1 to 48)"), or None."""
    known = set(numbers)
    missing = [n for n in wanted if n not in known]
    if not missing:
        return None
    runs = ", ".join(f"no {_some(what, low, high)}" for low, high in _runs(missing))
    return f"{runs} in {set_name} (its {what}s are numbered {_numbering(numbers)})"


def _runs(numbers: Sequence[int]) -> list[tuple[int, int]]:
    """``numbers`` as runs of consecutive ones, in their order: [7, 8, 9, 12] ->
    [(7, 9), (12, 12)]."""
    runs: list[tuple[int, int]] = []
    for n in numbers:
        if runs and n == runs[-1][1] + 1:
            runs[-1] = (runs[-1][0], n)
        else:
            runs.append((n, n))
    return runs


def _some(what: str, low: int, high: int) -> str:
    """A run of card numbers: "tile 7", "tiles 7 and 8", "tiles 7 to 9"."""
    if low == high:
        return f"{what} {low}"
    return f"{what}s {low} {'and' if high == low + 1 else 'to'} {high}"


def _numbering(numbers: Sequence[int]) -> str:
    """How a set's cards are numbered: "1 to 48", or "1 to 11, 41" when there are gaps."""
    if not numbers:
        return "none"
    return ", ".join(str(low) if low == high else f"{low} to {high}"
                     for low, high in _runs(sorted(numbers)))


def choose(cards: Sequence[Card], numbers: Sequence[int], wanted: Sequence[int], *,
           source: str, what: str = "tile", at: tuple[int, int] = (0, 0)) -> list[Card]:
    """The cards whose numbers (``numbers[i]`` is the number of ``cards[i]``) are
    ``wanted``, in the order wanted. The numbers the set lacks are problems reported at
    ``source`` (the catalogue; line and column ``at``, its list of cards), all at once, a
    run of consecutive ones as one."""
    if len(cards) != len(numbers):
        raise ValueError("every card needs its number")
    by_number = dict(zip(numbers, cards, strict=True))
    missing = [n for n in wanted if n not in by_number]
    if missing:
        known = _numbering(numbers)
        line, col = at
        raise UserError([Diagnostic(
            source, line, col,
            f"no {_some(what, low, high)} in this set (its {what}s are numbered {known})")
            for low, high in _runs(missing)])
    return [by_number[n] for n in wanted]


def reprint_title(title: str, wanted: Sequence[int], what: str = "tile") -> str:
    """The sheets' name for a reprint: "<set name> — tiles 7, 12, 31", three or more
    consecutive numbers as a range ("tiles 1–20, 33"), in the order wanted."""
    plural = what if len(wanted) == 1 else f"{what}s"
    parts: list[str] = []
    for low, high in _runs(wanted):
        if high - low >= 2:
            parts.append(f"{low}\u2013{high}")
        else:
            parts += [str(n) for n in range(low, high + 1)]
    return f"{title} — {plural} {', '.join(parts)}"


def plan_reprint(layout: SheetLayout, cards: Sequence[Card], numbers: Sequence[int],
                 wanted: Sequence[int], card_width: float, card_height: float, title: str,
                 *, source: str, options: SheetOptions = DEFAULT_OPTIONS,
                 what: str = "tile", at: tuple[int, int] = (0, 0)) -> SheetPlan:
    """The sheets of the ``wanted`` cards only (no tokens), named after them."""
    chosen = choose(cards, numbers, wanted, source=source, what=what, at=at)
    return plan_sheets(layout, chosen, card_width, card_height,
                       reprint_title(title, wanted, what), options=options)
