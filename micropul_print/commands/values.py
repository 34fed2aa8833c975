"""Command-line values, parsed by one set of functions with stated limits: a value out
of range or not a plain number is a usage error naming the limit, never a traceback
or a run that cannot end."""

from __future__ import annotations

import argparse
import os
import re
from collections.abc import Callable

from micropul_print.base.errors import quoted

# Plain decimal integers: ASCII digits only ('²' or Arabic-Indic digits are not ones
# a user typed on purpose), no '_' separators, at most 19 digits before any conversion.
_WHOLE = re.compile(r"[+-]?[0-9]{1,19}")
# Plain decimal numbers likewise (1.5, .5, -1e1), at most 19 digits in all. An infinity
# or NaN passes, for the option to say its range.
_DECIMAL = re.compile(r"[+-]?(?:(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:e[+-]?[0-9]+)?"
                      r"|inf(?:inity)?|nan)", re.IGNORECASE)
MAX_DIGITS = 19
# What may surround a number: ASCII blanks only. str.strip() would also take an
# ideographic space, an em space, NBSP or U+2028, which no one types on purpose.
_BLANKS = " \t\n\r\f\v"

MAX_SIMULATED_GAMES = 1_000_000  # per mode: minutes at the engines' speed, not years
MAX_SEED = 2**63 - 1
MAX_JOBS = 1024  # worker processes: more than any machine's cores, fewer than a fork bomb


def every_or_one(choice: str, every: tuple[str, ...]) -> tuple[str, ...]:
    """What a choice option names: ``all`` names every one of ``every``."""
    return every if choice == "all" else (choice,)


def whole_number(low: int, high: int, what: str) -> Callable[[str], int]:
    """An argparse type: a whole number from ``low`` to ``high``."""
    def parse(text: str) -> int:
        if not _WHOLE.fullmatch(text.strip(_BLANKS)):
            raise argparse.ArgumentTypeError(f"{what} must be a whole number from {low} to "
                                             f"{high}, got {quoted(text)}")
        value = int(text.strip(_BLANKS))
        if not low <= value <= high:
            raise argparse.ArgumentTypeError(f"{what} must be from {low} to {high}, "
                                             f"got {value}")
        return value
    return parse


def require_seeds(args: argparse.Namespace) -> None:
    """An error unless the last seed ``args.games`` games from ``args.seed`` deal (game k
    is dealt seed S + k) is one a record or a report can store. When the seed or the
    number of games came from the configuration file, the error is at that value's
    place (the seed's first), as every value of the file is judged: a usage error would
    blame options the user never typed."""
    from micropul_print.base.errors import Diagnostic, UsageError, UserError

    seed, games = args.seed, args.games
    last = seed + games - 1
    if last <= MAX_SEED:
        return
    # The settings config.resolve left (config.SETTINGS; config imports this module).
    configured = {setting.key: setting.at for setting in getattr(args, "config_settings", ())
                  if setting.at is not None and setting.key in ("seed", "games")}
    if not configured:
        raise UsageError(f"--seed {seed} with --games {games} deals seeds up to {last}, "
                         f"past the largest seed, {MAX_SEED}: the seed must be at most "
                         f"{MAX_SEED - games + 1}")
    key = "seed" if "seed" in configured else "games"
    source, line, col = configured[key]
    raise UserError([Diagnostic(source, line, col,
                                f"{key}: seed {seed} with {games} games deals seeds up to "
                                f"{last}, past the largest seed, {MAX_SEED}: the seed must "
                                f"be at most {MAX_SEED - games + 1}")])


def decimal_number(text: str) -> float:
    """``text`` as float() reads it, if it is a plain decimal number as :func:`whole_number`
    asks of a whole one (float() also takes '١' or '1_0'); ValueError otherwise."""
    text = text.strip(_BLANKS)
    if not _DECIMAL.fullmatch(text) or sum(char.isdigit() for char in text) > MAX_DIGITS:
        raise ValueError(f"not a plain decimal number: {quoted(text)}")
    return float(text)


def path_name(what: str, give: str) -> Callable[[str], str]:
    """An argparse type: the name of a file or folder, never empty or blank. An empty
    one is an unset shell variable, not "here" nor the default a command would fall
    back on (the shipped catalogue): ``an empty {what} name; give {give}``."""
    def parse(text: str) -> str:
        if not text.strip():
            raise argparse.ArgumentTypeError(f"an empty {what} name; give {give}")
        problem = path_too_long(text, what)
        if problem:
            raise argparse.ArgumentTypeError(problem)
        return text
    return parse


# Linux's PATH_MAX and NAME_MAX (the common bound of its file systems, and macOS's):
# the system refuses a longer path or name, and a path of 200,000 folders took 90 s to
# be refused, looked at one folder at a time.
MAX_PATH_BYTES = 4096
MAX_NAME_BYTES = 255


def path_too_long(text: str, what: str) -> str:
    """Why ``text``, the name of a ``what`` (file, folder), is a path no system call
    takes (too many bytes, or a name in it too long), or "" when it is not."""
    size = len(os.fsencode(text))
    if size > MAX_PATH_BYTES:
        return (f"a {what} name of {size} bytes, {quoted(text)}: a path has at most "
                f"{MAX_PATH_BYTES} (the system's PATH_MAX)")
    longest = max(len(os.fsencode(part)) for part in text.split("/"))
    if longest > MAX_NAME_BYTES:
        return (f"a {what} name holding a name of {longest} bytes, {quoted(text)}: a file "
                f"or folder's name has at most {MAX_NAME_BYTES} (the system's NAME_MAX)")
    return ""


# Every file or folder argument of every command takes one of these (init's DIR says
# the same in its run).
folder_name = path_name("folder", "a folder, . for this one")
file_name = path_name("file", "a file")
theme_name = path_name("theme", "a built-in theme's name or a theme file")


def list_items(text: str, what: str, example: str) -> list[str]:
    """The items of a comma-separated list, blanks around each dropped; [] for a blank
    text, for the option to say what it expected. An empty item among others (``en,``,
    ``2,,1``) is refused: dropped, it would make the list another one without a word."""
    items = [item.strip() for item in text.split(",")]
    if not any(items):
        return []
    if not all(items):
        raise argparse.ArgumentTypeError(f"empty {what} in {quoted(text)} (write them as "
                                         f"{example})")
    return items


def once_each(items: list[str], what: str, text: str) -> list[str]:
    """``items`` of the list ``text``, refused when one is named twice: dropped silently,
    ``en,en`` would build one language where a slip for ``en,es`` meant two."""
    twice = next((item for n, item in enumerate(items) if item in items[:n]), None)
    if twice is not None:
        raise argparse.ArgumentTypeError(f"{what} {quoted(twice)} named twice in "
                                         f"{quoted(text)}: name each once")
    return items


def comma_list(what: str, example: str) -> Callable[[str], list[str]]:
    """An argparse type: names separated by commas, at least one, none empty."""
    def parse(text: str) -> list[str]:
        names = list_items(text, what, example)
        if not names:
            raise argparse.ArgumentTypeError("expected a comma-separated list")
        return names
    return parse


def bot_list(text: str) -> list[str]:
    """An argparse type: bot specs separated by commas, at least one. A blank one is kept
    (''), for the bots' check to refuse: dropped, ``greedy,`` would play solitaire."""
    names = [name.strip() for name in text.split(",")]
    if not any(names):
        raise argparse.ArgumentTypeError("expected a comma-separated list")
    return names
