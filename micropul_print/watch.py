"""`build --watch`: build, then rebuild the parts a changed input affects, until Ctrl-C.

The inputs watched are the build's own: each game's catalogue, the theme, the
configuration file, the page layout of each paper and the locale file of each
rulebook language. What a change rebuilds:

- a catalogue whose edit changed some tiles' faces only (micropul_print.kit.changes):
  those tiles' SVG and PNG files and the sheets, committed first, then the overview and,
  only if one of their figures (or the legend) shows an edited tile, the rulebooks;
- any other edit of a catalogue: that game's whole kit;
- the theme: every drawing, so every part of every game (the rulebooks' figures too);

(both as two builds: the tile files and sheets first, committed, then the rulebooks;)
- a page layout: the sheets of that paper;
- a locale file: that game's rulebook in that language, and nothing else;
- the configuration file: it is read again (the command line still wins), and the
  parts the changed settings touch are rebuilt (the sheets alone for the duplex, back
  offset, scale or calibration page; the sheets and rulebooks for the paper; the
  rulebooks alone for the languages; everything otherwise), and the inputs watched are
  found again. Its name is watched for when there is none yet: made while watching, it
  is read. Removed, its settings stay until it is back.

Each rebuild prints one line; a problem is printed as file:line:col and watching goes
on. File events come from watchfiles (a Rust notify backend with debouncing, rather
than polling by hand). Ctrl-C ends the command with status 130.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from micropul_print.base.errors import Diagnostic, UsageError, UserError
from micropul_print.game import registry

if TYPE_CHECKING:
    from micropul_print.kit.build import KitOptions, KitReport
    from micropul_print.kit.changes import KitState

# How long a burst of file events is gathered into one rebuild (an editor's save is
# often a write, a rename and a touch), in milliseconds.
DEBOUNCE_MS = 300
# How long no event must come before a burst is over: a save's events come within a
# millisecond or two, and watchfiles' default (50 ms) was a tenth of a tile's rebuild.
STEP_MS = 20
WAKE_MS = 500  # the watcher's wait for events before it yields nothing
# Set by serve to its process id: a watch whose parent is gone (serve killed outright,
# no chance to end its children) ends at its next wake instead of running forever.
PARENT_ENV = "MICROPUL_PRINT_WATCH_PARENT"

# KitOptions fields whose change rebuilds only some parts (any other: everything). The
# rulebooks follow the sheets' papers.
_PARTS_OF = {"papers": frozenset({"sheets", "rulebooks"}), "flip": frozenset({"sheets"}),
             "back_offset": frozenset({"sheets"}), "scale": frozenset({"sheets"}),
             "calibration": frozenset({"sheets"}), "langs": frozenset({"rulebooks"})}


class Input(NamedTuple):
    """A watched file: what it is and which part of which game it feeds."""

    path: Path  # absolute
    kind: str  # catalogue, theme, configuration, layout or locale
    game: str | None = None  # catalogue, locale: whose
    key: str | None = None  # layout: the paper; locale: the language


class Rebuild(NamedTuple):
    """A part of the work a change asks for: one game's ``parts``, limited to some
    papers or languages (None: all those of the build), and to the tile files of some
    faces (None: all, the overview with them; else those faces' files alone, and the
    overview if ``overview``)."""

    game: str
    parts: frozenset[str]
    papers: frozenset[str] | None = None
    langs: frozenset[str] | None = None
    faces: frozenset[str] | None = None
    overview: bool = True


Builder = Callable[..., "KitReport"]


def watch(args: argparse.Namespace, options_of: Callable[[argparse.Namespace], KitOptions],
          build: Builder, *, out: Callable[[str], None] | None = None,
          missing: Callable[[argparse.Namespace], list[Diagnostic]] = lambda _args: [],
          ) -> int:
    """Build as asked, then watch; returns only through Ctrl-C (KeyboardInterrupt).
    ``missing``: the inputs the configuration file names that are not there, each at
    its value: said instead of building, and the build waits for them to be made."""
    import watchfiles

    say = out or (lambda line: print(line, flush=True))
    started_in = _working_folder()
    options = options_of(args)
    waiting = _said(missing(args))  # for the inputs to be made: no build until then
    first = None if waiting else _attempt(
        lambda: build(Path(args.out), options, quiet=args.quiet))
    # Each game's kit as last built whole, to compare a catalogue's edit with.
    kits: dict[str, KitState] = {}
    if first is not None:
        _remember(kits, [(Rebuild(game, frozenset(options.parts)), first)
                         for game in first.catalogues], options)
        if not args.quiet:
            from micropul_print.kit.build import format_summary

            say(format_summary(first))
    back: list[Path] = []  # folders removed and made again: their inputs count as changed
    while True:
        _require_working_folder(started_in)
        inputs = watched_inputs(args, options)
        by_path = {item.path: item for item in inputs}
        # An input not there yet is looked for at every wake: its folder may be missing
        # too, and is not waited for as a removed one.
        awaited = [item for item in inputs
                   if item.kind in ("catalogue", "theme") and not item.path.exists()]
        folders = sorted({item.path.parent for item in inputs
                          if item not in awaited or item.path.parent.is_dir()})
        _wait_until_there(folders, started_in)
        identities = {folder: _identity(folder) for folder in folders}
        reload = announced = False
        # An empty set comes every WAKE_MS: the first one says the watcher is in place,
        # so "watching" is never said before a change can be seen.
        for changes in watchfiles.watch(*folders, debounce=DEBOUNCE_MS, step=STEP_MS,
                                        recursive=False,
                                        watch_filter=_only(frozenset(by_path)),
                                        rust_timeout=WAKE_MS, yield_on_timeout=True):
            if not announced:
                print(f"watching {len(inputs)} files (Ctrl-C to stop)", file=sys.stderr,
                      flush=True)
                announced = True
            _end_if_orphaned()
            _require_working_folder(started_in)
            # A folder removed (and perhaps made again) is no longer watched by the
            # system: its later saves came to nothing, and nothing was said.
            gone_folders = [f for f in folders if _identity(f) != identities[f]]
            if gone_folders:
                _wait_until_there(gone_folders, started_in, removed=True)
                back = gone_folders
                break
            made = [item for item in awaited if item.path.exists()]
            awaited = [item for item in awaited if item not in made]
            if waiting and missing(args):  # said already; the configuration may change
                changes = {(change, path) for change, path in changes
                           if by_path[Path(path)].kind == "configuration"}
                made = []
            elif waiting:  # the build skipped, whole (one made before its watch began)
                waiting = False
                made = made or [item for item in inputs if item.kind == "theme"]
            changes = {*changes, *((watchfiles.Change.added, str(item.path)) for item in made)}
            if back:
                changes = {(watchfiles.Change.modified, str(item.path)) for item in inputs
                           if item.path.parent in back and item.path.is_file()}
                back = []
                if not changes:
                    continue
            changed = sorted({by_path[Path(p)] for _change, p in changes if Path(p) in by_path})
            gone = [item for item in changed
                    if item.kind == "configuration" and not item.path.is_file()]
            if gone:
                # Deleted to be written again (a git checkout, an editor's save): read
                # as no file, it rebuilt the shipped set over the variant's kit.
                print(f"{gone[0].path.name} removed: not rebuilt; its settings still apply "
                      "until it is back", file=sys.stderr, flush=True)
                changed = [item for item in changed if item not in gone]
            if not changed:
                continue
            names = ", ".join(item.path.name for item in changed)
            if any(item.kind == "configuration" for item in changed):
                before = options
                try:
                    fresh = _reloaded(args)
                    fresh_options = options_of(fresh)
                except UserError as exc:
                    _problems(exc)
                    continue
                except UsageError as exc:  # settings that conflict: the file's to fix
                    _usage_problem(exc, names)
                    continue
                except Exception as exc:  # a bug: said, and watching goes on
                    _bug(exc)
                    continue
                moved = Path(fresh.out) != Path(args.out)
                args, options = fresh, fresh_options
                kits.clear()  # what the kits were made of was read with other settings
                waiting = _said(missing(args))
                if waiting:
                    break  # the inputs it names are watched for
                # The other inputs changed with it (a folder made again) rebuild too.
                work = merged([*config_rebuilds(before, options), *rebuilds(
                    [item for item in changed if item.kind != "configuration"], options)])
                if moved:  # a new output folder (no option of the kit): the whole kit there
                    work = merged([*work, *(Rebuild(game, frozenset(options.parts))
                                            for game, _path in _catalogues(options))])
                reload = True
                kits.clear()
                _run(work, options, kits, Path(args.out), build, say, names)
            else:
                rebuild_changed(changed, options, kits, Path(args.out), build, say, names)
            if reload:
                break  # the inputs themselves may have changed: find them again


def until_mended(config_file: Path, problem: UserError,
                 resolve: Callable[[], object]) -> None:
    """Before a watch's first build, a configuration file with problems: each is
    printed, and the file alone is watched until ``resolve`` (reading it) succeeds.
    Building meanwhile from the defaults would have written the shipped set where the
    file's settings (its ``out`` among them) were meant."""
    import watchfiles

    _problems(problem)
    path = config_file.resolve()
    announced = False
    # An empty set comes every WAKE_MS: the first one says the watcher is in place.
    for changes in watchfiles.watch(path.parent, debounce=DEBOUNCE_MS, recursive=False,
                                    watch_filter=_only(frozenset({path})),
                                    rust_timeout=WAKE_MS, yield_on_timeout=True):
        if not announced:
            print(f"watching {config_file.name} until its problems are mended (Ctrl-C to "
                  "stop)", file=sys.stderr, flush=True)
            announced = True
        _end_if_orphaned()
        if not changes or not path.is_file():
            continue
        try:
            resolve()
        except UserError as exc:
            _problems(exc)
            continue
        except Exception as exc:  # a bug: said, and watching goes on
            _bug(exc)
            continue
        print(f"{config_file.name} changed: building", file=sys.stderr, flush=True)
        return


def _only(paths: frozenset[Path]) -> Callable[[object, str], bool]:
    """A watchfiles filter letting through the events of ``paths`` alone."""
    def ours(_change: object, path: str) -> bool:
        return Path(path) in paths
    return ours


def watched_inputs(args: argparse.Namespace, options: KitOptions) -> list[Input]:
    """Every file the build reads that a designer edits."""
    from micropul_print.config import CONFIG_NAME, config_path
    from micropul_print.draw.theme import THEME_NAMES, THEMES_DIR
    from micropul_print.rulebook.locales import TRANSLATION_SUFFIX, language_files
    from micropul_print.sheets.layout import layout_path

    found: list[Input] = []
    for game, catalogue in _catalogues(options):
        found.append(Input(catalogue.resolve(), "catalogue", game))
        book = registry.get(game).rulebook
        if book is not None and "rulebooks" in options.parts:
            files = language_files(book.locales_dir)
            for lang in options.langs or book.languages():
                path = files.get(lang, book.locales_dir / f"{lang}{TRANSLATION_SUFFIX}")
                found.append(Input(path.resolve(), "locale", game, lang))
    theme = (THEMES_DIR / f"{options.theme}.yaml" if options.theme in THEME_NAMES
             else Path(options.theme))
    found.append(Input(theme.resolve(), "theme"))
    if "sheets" in options.parts:
        found += [Input(layout_path(paper).resolve(), "layout", key=paper)
                  for paper in options.papers]
    config = config_path(args)
    if config is None and not getattr(args, "no_config", False):
        # Not there yet: the file the command would read is watched for, and read once
        # it is made (calibrate writes it).
        config = Path(CONFIG_NAME)
    if config is not None:
        found.append(Input(config.resolve(), "configuration"))
    return list(dict.fromkeys(found))


def rebuilds(changed: Iterable[Input], options: KitOptions) -> list[Rebuild]:
    """What the changed inputs (no configuration among them) ask to rebuild."""
    games = [game for game, _path in _catalogues(options)]
    everything = frozenset(options.parts)
    work: list[Rebuild] = []
    for item in changed:
        if item.kind == "theme":
            work += _tiles_first(games, everything)
        elif item.kind == "catalogue" and item.game is not None:
            # The game it names now: it may have been unreadable when watching began.
            given = options.catalogue is not None and item.path == options.catalogue.resolve()
            work += _tiles_first([(given and _game_of(item.path)) or item.game], everything)
        elif item.kind == "layout" and item.key is not None:
            work += [Rebuild(game, frozenset({"sheets"}), papers=frozenset({item.key}))
                     for game in games]
        elif item.kind == "locale" and item.game is not None and item.key is not None:
            work.append(Rebuild(item.game, frozenset({"rulebooks"}),
                                langs=frozenset({item.key})))
    # Rulebooks last (stable: the rest keeps its order), as _tiles_first lays them out.
    return sorted(merged(work), key=lambda rebuild: "rulebooks" in rebuild.parts)


def _tiles_first(games: Sequence[str], parts: frozenset[str]) -> list[Rebuild]:
    """``parts`` of ``games`` rebuilt as two builds, each committed when done: every
    game's tile files and sheets, then the rulebooks (most of a kit's time), so that
    the tiles of an edited face or colour land without waiting for the books."""
    books = parts & {"rulebooks"}
    first = [Rebuild(game, parts - books) for game in games if parts - books]
    return first + [Rebuild(game, books) for game in games if books]


def config_rebuilds(before: KitOptions, after: KitOptions) -> list[Rebuild]:
    """What a change of settings asks to rebuild."""
    changed = {field for field in after._fields
               if getattr(before, field) != getattr(after, field)}
    if not changed:
        return []
    parts = frozenset(after.parts)
    if changed <= _PARTS_OF.keys():
        parts &= frozenset().union(*(_PARTS_OF[field] for field in changed))
    return [Rebuild(game, parts) for game, _path in _catalogues(after)] if parts else []


def merged(work: Sequence[Rebuild]) -> list[Rebuild]:
    """The same work without repeats: a rebuild another one covers is dropped, and two
    of the same parts of a game make one, for the papers or languages of both."""
    result: list[Rebuild] = []
    for item in work:
        for index, known in enumerate(result):
            if known.game != item.game:
                continue
            if _covers(known, item):
                break
            if _covers(item, known):
                result[index] = item
                break
            if known.parts == item.parts:
                result[index] = Rebuild(item.game, item.parts, _union(known.papers, item.papers),
                                        _union(known.langs, item.langs),
                                        _union(known.faces, item.faces),
                                        known.overview or item.overview)
                break
        else:
            result.append(item)
    return result


def _covers(a: Rebuild, b: Rebuild) -> bool:
    """Whether rebuilding ``a`` rebuilds everything ``b`` asks for."""
    def within(mine: frozenset[str] | None, theirs: frozenset[str] | None) -> bool:
        return mine is None or (theirs is not None and theirs <= mine)

    return (b.parts <= a.parts and within(a.papers, b.papers) and within(a.langs, b.langs)
            and within(a.faces, b.faces) and (a.overview or not b.overview))


def _union(a: frozenset[str] | None, b: frozenset[str] | None) -> frozenset[str] | None:
    return None if a is None or b is None else a | b


def _catalogues(options: KitOptions) -> list[tuple[str, Path]]:
    """Each game the build makes, with the catalogue it reads."""
    from micropul_print.catalogue.loader import read_catalogue

    given_game = None
    if options.catalogue is not None:
        catalogue, _diagnostics = read_catalogue(options.catalogue)
        given_game = catalogue.game if catalogue is not None else None
    games = list(options.games or [given_game or registry.default_game().info.name])
    given = options.catalogue
    return [(game, given if given is not None and _stands_for(given_game, game)
             else registry.get(game).shipped_catalogue()) for game in games]


def _stands_for(its_game: str | None, game: str) -> bool:
    """Whether the given catalogue (of ``its_game``, None while it cannot be read) is
    the one ``game`` builds from. An unreadable one stands for every game: it is the
    file being edited, and its build says what is wrong with it (the shipped catalogue
    built in its place would overwrite the variant's kit without a word)."""
    return its_game in (game, None)


def _rebuild(work: Sequence[Rebuild], options: KitOptions, out: Path, build: Builder,
             say: Callable[[str], None], names: str, *, loaded: object = None,
             then: Callable[[], Sequence[Rebuild]] | None = None,
             ) -> tuple[list[tuple[Rebuild, KitReport]], bool]:
    """Run ``work``, a build (and a commit) each, in order, then the work ``then``
    finds; say what was rebuilt. Returns each rebuild done with its report, and whether
    all were (one failed: its problems said, the later ones not run). ``loaded``: the
    given catalogue, read already (build_kit)."""
    started = time.perf_counter()
    if not work and then is not None:
        work, then = then(), None
    if not work:
        say(f"{names} changed: nothing to rebuild")
        return [], True
    done: list[tuple[Rebuild, KitReport]] = []
    for item in _then(list(work), then):
        given = options.catalogue
        stands = given is not None and _stands_for(
            getattr(loaded, "game", None) if loaded is not None else _game_of(given), item.game)
        partial = options._replace(
            games=(item.game,), parts=item.parts,
            # The given catalogue stands for its own game only.
            catalogue=given if stands else None,
            papers=(tuple(p for p in options.papers if p in item.papers)
                    if item.papers is not None else options.papers),
            langs=tuple(sorted(item.langs)) if item.langs is not None else options.langs,
            tile_faces=item.faces, tile_overview=item.overview)
        some = item.papers is not None or item.langs is not None or item.faces is not None
        extra = {"loaded": loaded} if loaded is not None and stands else {}

        def one(partial: KitOptions = partial, some: bool = some,
                extra: dict[str, object] = extra) -> KitReport:
            return build(out, partial, quiet=True, keep_unmade=some, **extra)

        report = _attempt(one)
        if report is None:
            return done, False
        done.append((item, report))
    what = "; ".join(_describe(item) for item, _report in done)
    files = sum(len(report.files) for _item, report in done)
    say(f"{names} changed: rebuilt {what} ({files} file{'s' if files != 1 else ''}, "
        f"{time.perf_counter() - started:.1f} s)")
    return done, True


def rebuild_changed(changed: Sequence[Input], options: KitOptions, kits: dict[str, KitState],
                    out: Path, build: Builder, say: Callable[[str], None], names: str) -> None:
    """Rebuild what the ``changed`` inputs (no configuration among them) ask for: the
    edited tiles alone after an edit of tiles (_tiles_edited), else the parts they feed
    (rebuilds); ``kits`` is kept up to date (what each game's kit is made of)."""
    from micropul_print.kit.outputs import read_manifest

    # Read before the edited tiles' commit, which drops the files gone from the manifest.
    listed = read_manifest(out)
    if _kit_gone(out) or not _tiles_edited(changed, options, kits, out, build, say, names,
                                           listed):
        _run(merged([*rebuilds(changed, options), *incomplete(out, options, listed)]),
             options, kits, out, build, say, names)


def incomplete(out: Path, options: KitOptions, listed: dict[str, list[str]]) -> list[Rebuild]:
    """The parts of the kit with a file ``listed`` (the manifest's parts) that the kit's
    folder lacks (deleted by hand): rebuilt whole with the next change, which would
    otherwise remake the edited tile's files alone and leave them missing. One look at
    each file the manifest lists (a few hundred)."""
    from micropul_print.kit.plan import TILE_FILES

    games = {game for game, _path in _catalogues(options)}
    work: list[Rebuild] = []
    for scope, files in listed.items():
        game, _sep, part = scope.partition("/")
        if game not in games or all(os.path.lexists(out / name) for name in files):
            continue
        # The tile files are one part of the manifest for the SVG and PNG parts both.
        parts = frozenset({"svg", "png"} if part == TILE_FILES else {part})
        if parts & frozenset(options.parts):
            work.append(Rebuild(game, parts & frozenset(options.parts)))
    return work


def _kit_gone(out: Path) -> bool:
    """Whether the kit's folder lost the last build's manifest (removed, emptied, by
    `rm -rf output` say): the parts an edit touches, rebuilt alone, made a kit of one
    tile's files there; the whole kit is rebuilt instead."""
    from micropul_print.kit.outputs import MANIFEST

    return not os.path.lexists(out / MANIFEST)


def _run(work: Sequence[Rebuild], options: KitOptions, kits: dict[str, KitState], out: Path,
         build: Builder, say: Callable[[str], None], names: str) -> None:
    """_rebuild, and what each game's kit is made of remembered (or forgotten: the
    kit of a failed rebuild is the old one, or part of it)."""
    if _kit_gone(out):
        kits.clear()
        work = merged([*work, *(Rebuild(game, frozenset(options.parts))
                                for game, _path in _catalogues(options))])
    done, finished = _rebuild(work, options, out, build, say, names)
    if not finished and _changed_kit(done, out):
        for item in work:
            kits.pop(item.game, None)
    elif finished:
        _remember(kits, done, options)


def _changed_kit(done: Sequence[object], out: Path) -> bool:
    """Whether a rebuild that failed changed the kit: some of its builds were committed,
    or the last one's commit was broken off (the next build finishes it)."""
    from micropul_print.kit.outputs import JOURNAL

    return bool(done) or os.path.lexists(out / JOURNAL)


def _then(work: list[Rebuild],
          then: Callable[[], Sequence[Rebuild]] | None) -> Iterable[Rebuild]:
    """``work``'s items, then (once they are done) those ``then`` finds."""
    yield from work
    if then is not None:
        yield from then()


def _tiles_edited(changed: Sequence[Input], options: KitOptions, kits: dict[str, KitState],
                  out: Path, build: Builder, say: Callable[[str], None], names: str,
                  listed: dict[str, list[str]]) -> bool:
    """Rebuild after an edit of the given catalogue that changed some tiles' faces only
    (micropul_print.kit.changes): those tiles' SVG and PNG files and the sheets, in a
    commit of their own so that they land first; then the overview and the rulebooks,
    only if they show an edited tile. False (nothing done) for any other change: the
    caller rebuilds as before, and reports the catalogue's problems."""
    from micropul_print.catalogue.loader import load_catalogue
    from micropul_print.kit.changes import books_change, changed_faces, kit_state

    given = options.catalogue
    if (given is None or len(changed) != 1 or changed[0].kind != "catalogue"
            or changed[0].path != given.resolve()):
        return False
    try:
        catalogue = load_catalogue(given, strict=options.strict)
        before = kits.get(catalogue.game)
        if before is None or (options.games is not None
                              and catalogue.game not in options.games):
            return False
        after = kit_state(before.game, catalogue, before.theme, options)
        faces = changed_faces(before, after)
        same = faces is not None and before.catalogue == after.catalogue
    except Exception:  # a problem (or a bug) the whole rebuild says, at its place
        return False
    if faces is None:
        return False
    if same:  # a comment, spaces
        if missing := incomplete(out, options, listed):
            _run(missing, options, kits, out, build, say, names)
        else:
            say(f"{names} changed: nothing to rebuild")
        return True
    game = catalogue.game
    parts = frozenset(options.parts)
    first = [Rebuild(game, parts - {"rulebooks"}, faces=faces, overview=False)]

    def later() -> list[Rebuild]:
        # Asked once the tiles' files are in place: reading the book's positions takes
        # longer than writing a tile's files.
        try:
            books = "rulebooks" in parts and books_change(before, after, faces)
        except Exception:  # a bug of the game's: its books are rebuilt, which says it
            books = True
        rest = (parts & {"png"}) | (frozenset({"rulebooks"}) if books else frozenset())
        return [*([Rebuild(game, rest, faces=frozenset())] if rest else []),
                *incomplete(out, options, listed)]

    kits.pop(game)  # until the kit is the edited catalogue's
    done, finished = _rebuild([item for item in first if item.parts], options, out, build,
                              say, names, loaded=catalogue, then=later)
    if finished and all(report.theme == before.theme for _item, report in done):
        kits[game] = after
    elif not finished and not _changed_kit(done, out):
        kits[game] = before  # the kit is as it was
    return True


def _remember(kits: dict[str, KitState], done: Sequence[tuple[Rebuild, KitReport]],
              options: KitOptions) -> None:
    """Keep what each game's kit is now made of after ``done``: known once all its parts
    were built of one catalogue and theme; forgotten when a part was built of another
    catalogue or theme than the kit's (the next edit then rebuilds it whole)."""
    from micropul_print.kit.changes import kit_state

    for game in dict.fromkeys(item.game for item, _report in done):
        mine = [(item, report) for item, report in done if item.game == game]
        made = [(report.catalogues.get(game), report.theme) for _item, report in mine]
        catalogue, theme = made[0]
        alike = catalogue is not None and all(c == catalogue and t == theme for c, t in made)
        whole = frozenset().union(*(item.parts for item, _report in mine
                                    if item.papers is None and item.langs is None
                                    and item.faces is None))
        known = kits.get(game)
        if alike and whole >= frozenset(options.parts):
            kits[game] = kit_state(registry.get(game), catalogue, theme, options)
        elif known is not None and not (alike and catalogue == known.catalogue
                                        and theme == known.theme):
            del kits[game]


def _describe(item: Rebuild) -> str:
    parts = ", ".join(sorted(item.parts))
    limits = sorted(item.papers or ()) + sorted(item.langs or ()) + sorted(item.faces or ())
    if item.faces is not None and not item.faces and item.overview and "png" in item.parts:
        limits.append("overview")
    return f"{item.game} {parts}" + (f" ({', '.join(limits)})" if limits else "")


def _game_of(catalogue: Path) -> str | None:
    from micropul_print.catalogue.loader import read_catalogue

    found, _diagnostics = read_catalogue(catalogue)
    return found.game if found is not None else None


def _attempt(action: Callable[[], KitReport]) -> KitReport | None:
    """Run a build; its problems are printed, located, and watching goes on."""
    try:
        return action()
    except UserError as exc:
        _problems(exc)
        return None
    except UsageError as exc:  # a value only the build could judge (a game's own)
        _usage_problem(exc)
        return None
    except Exception as exc:  # a bug: said, and watching goes on
        _bug(exc)
        return None


def _bug(exc: Exception) -> None:
    """A bug met while watching: said in one line, as the command line says it, and the
    watch goes on (it ended the watch, which then rebuilt nothing)."""
    import os
    import traceback

    if os.environ.get("MICROPUL_PRINT_TRACEBACK") == "1":
        traceback.print_exception(exc)
    print(registry.internal_error_line(exc), file=sys.stderr)
    print("still watching", file=sys.stderr, flush=True)


def _working_folder() -> str:
    import os

    return os.getcwd()


def _end_if_orphaned() -> None:
    """End the watch quietly once the process that started it under PARENT_ENV is gone
    (the system gave this one to another parent): nobody reads its output any more."""
    import os

    expected = os.environ.get(PARENT_ENV, "")
    if expected.isascii() and expected.isdigit() and os.getppid() != int(expected):
        raise SystemExit(1)


def _require_working_folder(started_in: str) -> None:
    """UserError once the folder the watch was started in is removed: every relative
    path (the configuration file's, the output's) led nowhere, and the watcher ended
    with an internal error."""
    import os

    try:
        os.getcwd()
    except OSError:
        raise UserError([Diagnostic(started_in, 0, 0, "the folder this watch was started "
                                    "in was removed while watching: its files cannot be "
                                    "found any more; start the watch again from a folder "
                                    "that exists")]) from None


def _identity(folder: Path) -> tuple[int, int] | None:
    """Which folder is at ``folder`` now (None: none): one removed and made again is
    another."""
    import os

    try:
        status = os.stat(folder)
    except OSError:
        return None
    return status.st_dev, status.st_ino


def _wait_until_there(folders: Sequence[Path], started_in: str, *,
                      removed: bool = False) -> None:
    """Wait for every folder of ``folders`` to exist (a variant folder removed, to be
    made again by a checkout or a copy), saying so; Ctrl-C ends the wait."""
    missing = [folder for folder in folders if not folder.is_dir()]
    if missing:
        print(f"{missing[0]} was removed: waiting for it to be made again (Ctrl-C to "
              "stop)", file=sys.stderr, flush=True)
    while missing:
        time.sleep(WAKE_MS / 1000)
        _end_if_orphaned()
        _require_working_folder(started_in)
        missing = [folder for folder in folders if not folder.is_dir()]
    if removed:
        print(f"{', '.join(str(f) for f in folders)}: made again: watching it again",
              file=sys.stderr, flush=True)


def _usage_problem(exc: UsageError, changed: str | None = None) -> None:
    """A usage error, as the command line says it; for a changed configuration, that
    its settings before the change stay in force until it is fixed."""
    from micropul_print.base.errors import PROG, usage_error

    print(usage_error(f"{PROG} build", str(exc)), file=sys.stderr, flush=True)
    if changed is not None:
        print(f"{changed} changed: not rebuilt; the settings before the change still "
              "apply", file=sys.stderr, flush=True)


def _said(problems: Sequence[Diagnostic]) -> bool:
    """Whether there are ``problems``; each is printed."""
    for diagnostic in problems:
        print(diagnostic, file=sys.stderr, flush=True)
    return bool(problems)


def _problems(exc: UserError) -> None:
    for diagnostic in exc.diagnostics:
        print(diagnostic, file=sys.stderr, flush=True)


def _reloaded(args: argparse.Namespace) -> argparse.Namespace:
    from micropul_print import config

    return config.reload(args, "build")
