"""The registered games: every object published under the entry-point group
``micropul_print.games`` (pytest's and Sphinx's plugin mechanism). The games shipped
with the tool register there too, in pyproject.toml, so the core cannot tell them from
a game another package adds.

Nothing is imported until a game is asked for; a plugin that fails to load is
reported as a problem of that game, not as a crash of the tool.
"""

from __future__ import annotations

import functools
from importlib.metadata import EntryPoint, entry_points

from micropul_print.errors import Diagnostic, UserError
from micropul_print.gameapi import Game

GROUP = "micropul_print.games"
# What a plugin must have. Looked up on its class: an isinstance() check against the
# protocol would evaluate properties such as ``rulebook`` and import their modules.
_MEMBERS = tuple(name for name in vars(Game) if not name.startswith("_"))


@functools.cache
def _entry_points() -> dict[str, EntryPoint]:
    found: dict[str, EntryPoint] = {}
    for entry in entry_points(group=GROUP):
        # The first distribution on the path wins, as Python's own import does.
        found.setdefault(entry.name, entry)
    return found


@functools.cache
def _load(name: str) -> Game:
    entry = _entry_points()[name]
    try:
        game = entry.load()
    except Exception as exc:  # a broken plugin: its problem, said plainly
        raise UserError([Diagnostic(entry.value, 0, 0, f"the game plugin {name!r} "
                                    f"failed to load: {type(exc).__name__}: {exc}")]) from exc
    missing = [member for member in _MEMBERS if not hasattr(type(game), member)
               and member not in vars(game)]
    if missing or getattr(game, "name", None) != name:
        lacks = f" (it lacks {', '.join(missing)})" if missing else ""
        raise UserError([Diagnostic(entry.value, 0, 0, f"the entry point {name!r} of the "
                                    f"group {GROUP} is not a game named {name!r}{lacks}")])
    found: Game = game
    return found


def games() -> list[Game]:
    """Every registered game, in their declared order (then by name)."""
    return sorted((_load(name) for name in _entry_points()), key=lambda g: (g.order, g.name))


def game_names() -> list[str]:
    """The registered games' names, in order; UserError when there is none."""
    names = [game.name for game in games()]
    if not names:
        raise UserError([Diagnostic("micropul-print", 0, 0, "no game is registered: the "
                                    f"entry-point group {GROUP} is empty (is the package "
                                    "installed? `pip install .` registers the shipped games)")])
    return names


def get(name: str) -> Game:
    """The game registered as ``name``; UserError naming the registered ones if none."""
    if name not in _entry_points():
        known = ", ".join(game_names())
        raise UserError([Diagnostic("micropul-print", 0, 0,
                                    f"unknown game {name!r} (registered: {known})")])
    return _load(name)


def default_game() -> Game:
    """The game of commands given neither a catalogue nor ``--game``: the first."""
    return get(game_names()[0])
