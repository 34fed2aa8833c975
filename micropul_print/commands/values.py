"""Command-line values, parsed by one set of functions with stated limits: a value out
of range or not a plain number is a usage error naming the limit, never a traceback
or a run that cannot end."""

from __future__ import annotations

import argparse
import re
from collections.abc import Callable

# Plain decimal integers: ASCII digits only ('²' or Arabic-Indic digits are not ones
# a user typed on purpose), no '_' separators, at most 19 digits before any conversion.
_WHOLE = re.compile(r"[+-]?[0-9]{1,19}")

MAX_SIMULATED_GAMES = 1_000_000  # per mode: minutes at the engines' speed, not years
MAX_SEED = 2**63 - 1
MAX_JOBS = 1024  # worker processes: more than any machine's cores, fewer than a fork bomb


def every_or_one(choice: str, every: tuple[str, ...]) -> tuple[str, ...]:
    """What a choice option names: ``all`` names every one of ``every``."""
    return every if choice == "all" else (choice,)


def whole_number(low: int, high: int, what: str) -> Callable[[str], int]:
    """An argparse type: a whole number from ``low`` to ``high``."""
    def parse(text: str) -> int:
        if not _WHOLE.fullmatch(text.strip()):
            raise argparse.ArgumentTypeError(f"{what} must be a whole number from {low} to "
                                             f"{high}, got {text!r}")
        value = int(text)
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"{what} must be from {low} to {high}, "
                                             f"got {value}")
        return value
    return parse


def comma_list(text: str) -> list[str]:
    """An argparse type: names separated by commas (blanks dropped), at least one."""
    names = [name.strip() for name in text.split(",") if name.strip()]
    if not names:
        raise argparse.ArgumentTypeError("expected a comma-separated list")
    return names


def bot_list(text: str) -> list[str]:
    """An argparse type: bot specs separated by commas, at least one. A blank one is kept
    (''), for the bots' check to refuse: dropped, ``greedy,`` would play solitaire."""
    names = [name.strip() for name in text.split(",")]
    if not any(names):
        raise argparse.ArgumentTypeError("expected a comma-separated list")
    return names
