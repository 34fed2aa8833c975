"""The registered games: every object published under the entry-point group
``micropul_print.games`` (pytest's and Sphinx's plugin mechanism). The games shipped
with the tool register there too, in pyproject.toml, so the core cannot tell them from
a game another package adds.

Nothing is imported until a game is asked for; a plugin that fails to load is
reported as a problem of that game, not as a crash of the tool. When no installed
distribution but this tool's own declares the group (no plugin installed), its entry
points are read straight from its metadata, without importlib.metadata (:func:`entry_points`).
"""

from __future__ import annotations

import functools
import importlib
import os
import re
import sys
from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING, Any, Protocol

from micropul_print.base.errors import (
    PROG,
    Diagnostic,
    Severity,
    UserError,
    let_through,
    printable,
)
from micropul_print.game.plugin import Game, GameInfo, members

if TYPE_CHECKING:
    from importlib.metadata import Distribution
    from pathlib import Path

GROUP = "micropul_print.games"
# What a plugin must have. Looked up on its class: an isinstance() check against the
# protocol would evaluate properties such as ``rulebook`` and import their modules.
_MEMBERS = members(Game)


class EntryPoint(Protocol):
    """What the registry reads of an entry point (importlib.metadata.EntryPoint's)."""

    @property
    def name(self) -> str: ...

    @property
    def value(self) -> str: ...

    @property
    def module(self) -> str: ...

    @property
    def dist(self) -> Distribution | None: ...

    def load(self) -> Any: ...


class _OwnEntryPoint:
    """An entry point of this tool's own distribution, read from its metadata file."""

    __slots__ = ("name", "value")

    def __init__(self, name: str, value: str) -> None:
        self.name, self.value = name, value

    @property
    def module(self) -> str:
        return self.value.partition(":")[0].strip()

    @property
    def dist(self) -> Distribution | None:
        return None  # named only for rival claims, which send the scan the long way

    def load(self) -> Any:
        target: Any = importlib.import_module(self.module)
        for attr in filter(None, self.value.partition(":")[2].strip().split(".")):
            target = getattr(target, attr)
        return target


# A metadata folder on the path, as importlib.metadata finds them.
_METADATA = (".dist-info", ".egg-info")
_OWN_METADATA = re.compile(r"micropul_print(-[^-]*)?\.(dist|egg)-info", re.IGNORECASE)


def _own_entry_points(group: str) -> list[EntryPoint] | None:
    """The ``group``'s entry points when only this tool's distribution declares it (the
    shipped games, no plugin installed), read from its entry_points.txt; None when that
    cannot be told so simply (another distribution names the group, a zip or egg on the
    path, a finder of distributions other than Python's own), for importlib.metadata
    to answer. importlib.metadata costs some 30 ms of every command: its import alone
    is a tenth of the tile unit's time."""
    finders = [finder for finder in sys.meta_path if hasattr(finder, "find_distributions")]
    # Python's own PathFinder, or the importlib_metadata backport's finder, which takes
    # its place once imported (dask imports it): both read the dist-infos of sys.path.
    if len(finders) != 1 or not (
            getattr(finders[0], "__name__", "") == "PathFinder"
            or (type(finders[0]).__name__ == "MetadataPathFinder"
                and type(finders[0]).__module__ == "importlib_metadata")):
        return None
    declaring: dict[str, str] = {}  # real path of each entry_points.txt -> its text
    for entry in sys.path:
        folder = entry or "."
        if folder.lower().endswith(".egg") or os.path.isfile(folder):
            return None
        try:
            names = os.listdir(folder)
        except OSError:  # not a folder (a path hook's name, a folder since removed)
            continue
        for name in names:
            if not name.lower().endswith(_METADATA):
                continue
            path = os.path.join(folder, name, "entry_points.txt")
            try:
                with open(path, encoding="utf-8") as handle:
                    text = handle.read()
            except (OSError, UnicodeDecodeError):  # none (most packages), or unreadable
                continue
            if group not in text:
                continue
            if not _OWN_METADATA.fullmatch(name):
                return None
            declaring[os.path.realpath(path)] = text
    # This checkout's own metadata (an egg-info beside the package) may be on the path
    # too: alike, they are one registration, as importlib.metadata would find them.
    sections = [_section(text, group) for text in declaring.values()]
    read = {tuple(found) for found in sections if found is not None}
    # None declaring it (not installed), a line importlib.metadata would judge, or
    # installs that differ: importlib.metadata's answer.
    if len(read) != 1 or None in sections:
        return None
    (found,) = read
    return [_OwnEntryPoint(name, value) for name, value in found]


def _section(text: str, group: str) -> list[tuple[str, str]] | None:
    """The ``name = value`` lines of the section ``group`` of an entry_points.txt, as
    importlib.metadata's Sectioned reads them; None for a line it would not read."""
    found: list[tuple[str, str]] = []
    section = None
    for line in map(str.strip, text.splitlines()):
        if not line or line.startswith(("#", ";")):
            continue
        if line.startswith("[") and line.endswith("]"):
            section = line[1:-1].strip()
        elif section == group:
            name, equals, value = line.partition("=")
            if not equals:
                return None
            found.append((name.strip(), value.strip()))
    return found


def entry_points(group: str) -> list[EntryPoint]:
    """The entry points of ``group`` in every installed distribution
    (importlib.metadata.entry_points), straight from this tool's own metadata when no
    other distribution declares the group."""
    own = _own_entry_points(group)
    if own is not None:
        return own
    from importlib.metadata import entry_points as installed

    return list(installed(group=group))


@functools.cache
def _scan() -> tuple[dict[str, EntryPoint], dict[str, tuple[EntryPoint, ...]]]:
    """The group's entry points, read once (it means reading every installed
    distribution's metadata): see :func:`_entry_points` and :func:`_rivals`."""
    found: dict[str, EntryPoint] = {}
    claims: dict[str, list[EntryPoint]] = {}
    for entry in entry_points(group=GROUP):
        # The first distribution on the path wins, as Python's own import does.
        found.setdefault(entry.name, entry)
        same = claims.setdefault(entry.name, [])
        if all(other.value != entry.value for other in same):  # one package found twice
            same.append(entry)
    return found, {name: tuple(rivals) for name, rivals in claims.items() if len(rivals) > 1}


def _entry_points() -> dict[str, EntryPoint]:
    """Each registered name's entry point."""
    return _scan()[0]


def _rivals() -> dict[str, tuple[EntryPoint, ...]]:
    """Names that entry points of different objects claim: neither may stand in for the
    other unnoticed (a plugin named like a shipped game would replace it)."""
    return _scan()[1]


def _origin(entry: EntryPoint) -> str:
    dist = entry.dist
    return entry.value if dist is None else f"{entry.value} ({dist.name} {dist.version})"


@functools.cache
def _load(name: str) -> Game | UserError:
    """The game, or why it cannot be used: kept, so that a broken plugin is imported
    once per run however often the games are listed."""
    try:
        return _checked(name)
    except UserError as problem:
        return problem


def _checked(name: str) -> Game:
    entry = _entry_points()[name]
    rivals = _rivals().get(name)
    if rivals:
        raise UserError([Diagnostic(entry.value, 0, 0, f"the game {name!r} is registered "
                                    f"more than once: {', '.join(map(_origin, rivals))}; "
                                    "uninstall all but one")])
    try:
        game = entry.load()
    # A broken plugin: its problem, said plainly (SystemExit too: it must not end the tool).
    except (Exception, SystemExit) as exc:
        raise UserError([Diagnostic(entry.value, 0, 0, f"the game plugin {name!r} "
                                    f"failed to load: {type(exc).__name__}: {exc}")]) from exc
    missing = [member for member in _MEMBERS if not hasattr(type(game), member)
               and member not in vars(game)]
    info = None if missing else _info(name, entry, game)
    if missing or info is None or info.name != name:
        lacks = f" (it lacks {', '.join(missing)})" if missing else ""
        raise UserError([Diagnostic(entry.value, 0, 0, f"the entry point {name!r} of the "
                                    f"group {GROUP} is not a game named {name!r}{lacks}")])
    found: Game = game
    return found


def _info(name: str, entry: EntryPoint, game: object) -> GameInfo:
    """The game's declared GameInfo, read once: what every command reads from every
    game (the help, the order of the games, the folders of a build). UserError when
    reading it raises or it is not a GameInfo, since a bad one would otherwise end
    every command, the other games' included."""
    try:
        info = game.info  # type: ignore[attr-defined]
    except (Exception, SystemExit) as exc:  # as a failed import: the plugin's problem
        raise UserError([Diagnostic(
            entry.value, 0, 0, f"the game plugin {name!r} failed to load: its info "
            f"raised {type(exc).__name__}: {exc}")]) from exc
    if not isinstance(info, GameInfo):
        raise UserError([Diagnostic(
            entry.value, 0, 0, f"the game plugin {name!r} failed to load: its info must "
            f"be a micropul_print.game.plugin.GameInfo, got {info!r}")])
    for member, (kind, fits) in _INFO_TYPES.items():
        value = getattr(info, member)
        if not fits(value):
            raise UserError([Diagnostic(
                entry.value, 0, 0, f"the game plugin {name!r} failed to load: its "
                f"info's {member} must be {kind}, got {value!r}")])
    return info


# What each member of a GameInfo must be (a dataclass checks no types).
_INFO_TYPES: dict[str, tuple[str, Callable[[object], bool]]] = {
    "name": ("a string", lambda v: isinstance(v, str)),
    "title": ("a string", lambda v: isinstance(v, str)),
    "summary": ("a string", lambda v: isinstance(v, str)),
    "order": ("an integer", lambda v: isinstance(v, int) and not isinstance(v, bool)),
    "output_dir": ("a string", lambda v: isinstance(v, str)),
    "player_counts": ("a tuple of whole numbers", lambda v: isinstance(v, tuple) and bool(v)
                      and all(isinstance(n, int) and n > 0 for n in v)),
    "catalogue_keys": ("a tuple of strings", lambda v: isinstance(v, tuple)
                       and all(isinstance(key, str) for key in v)),
}


# Games found broken after they loaded, by name: a member the core asked them for raised
# (see leave_out).
_FAILED: dict[str, UserError] = {}


def leave_out(game: Game, member: str, exc: BaseException) -> None:
    """Leave ``game`` out from now on, as a plugin that fails to load is, since its
    ``member`` raised ``exc``; its warning is printed after the command's output
    (errors.take_warnings). A shipped game's failure is the tool's bug: raised again."""
    if plugin_of(type(game).__module__) is None:
        raise exc
    name = game.info.name
    problem = Diagnostic(_entry_points()[name].value, 0, 0, f"the game plugin "
                         f"{name!r} failed to load: its {member} raised "
                         f"{type(exc).__name__}: {exc}")
    _FAILED[name] = UserError([problem])
    let_through(_warnings([problem]))


def _loaded() -> tuple[list[Game], list[Diagnostic]]:
    usable: list[Game] = []
    problems: list[Diagnostic] = []
    for name in _entry_points():
        game = _FAILED.get(name) or _load(name)
        if isinstance(game, UserError):
            problems += game.diagnostics
        else:
            usable.append(game)
    return usable, problems


def games() -> list[Game]:
    """Every registered game that loads, in their declared order (then by name). A
    broken plugin is left out (see :func:`broken`): the other games still work."""
    return sorted(_loaded()[0], key=lambda g: (g.info.order, g.info.name))


def shipped_catalogues() -> list[Path]:
    """The catalogue shipped with each game that loads, as :func:`games` orders them."""
    return [game.shipped_catalogue() for game in games()]


def broken() -> list[Diagnostic]:
    """A warning for each registered game that cannot be used, and why."""
    return _warnings(_loaded()[1])


def _warnings(problems: list[Diagnostic]) -> list[Diagnostic]:
    return [replace(d, message=f"{d.message} (left out)", severity=Severity.WARNING)
            for d in problems]


def game_names() -> list[str]:
    """The usable games' names, in order; UserError when there is none."""
    names = [game.info.name for game in games()]
    if not names:
        raise UserError([*_loaded()[1], Diagnostic(
            "micropul-print", 0, 0, "no game is registered: the entry-point group "
            f"{GROUP} is empty (is the package installed? `pip install .` registers the "
            "shipped games)")])
    return names


def get(name: str) -> Game:
    """The game registered as ``name``; UserError naming the registered ones if none,
    or saying why a registered one cannot be used."""
    if name not in _entry_points():
        known = ", ".join(game_names())
        raise UserError([Diagnostic("micropul-print", 0, 0,
                                    f"unknown game {name!r} (registered: {known})")])
    game = _FAILED.get(name) or _load(name)
    if isinstance(game, UserError):
        raise UserError(game.diagnostics)
    return game


def default_game() -> Game:
    """The game of commands given neither a catalogue nor ``--game``: the first."""
    return get(game_names()[0])


def plugin_of(module: str) -> str | None:
    """The registered game whose plugin's top-level package holds ``module``, unless it
    is this tool's own package (its bugs are the tool's)."""
    top = module.partition(".")[0]
    if top == __name__.partition(".")[0]:
        return None
    for name, entry in _entry_points().items():
        if entry.module.partition(".")[0] == top:
            return name
    return None


# Where a worker process leaves the plugin it found, for the parent (pickled with it).
_BLAMED = "micropul_print_plugin"


def plugin_blamed(exc: BaseException) -> str | None:
    """The registered game plugin in whose code ``exc`` was raised: the innermost frame
    of a plugin's package in its traceback, or what :func:`blame` noted in a worker."""
    noted = getattr(exc, _BLAMED, None)
    if isinstance(noted, str):
        return noted
    import traceback  # a bug's path only

    names = [plugin_of(frame.f_globals.get("__name__", ""))
             for frame, _line in traceback.walk_tb(exc.__traceback__)]
    return next((name for name in reversed(names) if name is not None), None)


def blame(exc: BaseException) -> None:
    """Note on ``exc`` the plugin it came from, before it leaves a worker process (its
    traceback does not travel with it)."""
    name = plugin_blamed(exc)
    if name is not None:
        setattr(exc, _BLAMED, name)


def internal_error_line(exc: BaseException) -> str:
    """The one line that reports a bug met by any command (or by the watcher, which then
    goes on): the game plugin whose code raised it, when one did, is named as its owner."""
    plugin = plugin_blamed(exc)
    where = "" if plugin is None else f" in the game plugin {plugin!r}"
    whose = "a bug" if plugin is None else "a bug of that plugin"
    return (f"{PROG}: internal error{where}: {type(exc).__name__}: {printable(str(exc))} "
            f"(this is {whose}; MICROPUL_PRINT_TRACEBACK=1 shows where)")
