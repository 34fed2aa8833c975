"""`micropul-print analyse [CATALOGUE]`: self-play games between bots, in every variant and
mode of the game, and what a designer learns from them (docs/analysis.md): seat balance,
a rating ladder, game length, branching, how games end, drama, per-piece figures, a
solitaire par table; ``--against`` compares a second catalogue on the same seeds, and
several catalogues (or a folder of them) make a sweep: every set on the same seeds,
each compared with the first. Reads ``micropul-print.toml`` as build does (in a folder
made by ``init``, plain ``analyse`` analyses that folder's catalogue). Never loads the
drawing libraries unless ``--report`` asks for the HTML page."""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

from micropul_print.commands.values import (
    MAX_JOBS,
    MAX_SEED,
    MAX_SIMULATED_GAMES,
    bot_list,
    comma_list,
    file_name,
    folder_name,
    path_name,
    require_seeds,
    whole_number,
)
from micropul_print.config import ConfigSpec
from micropul_print.game import registry

HELP = "play bots against each other and report on how the set plays (see docs/analysis.md)"
DEFAULT_BOTS = "random,greedy,lookahead"
MAX_SETS = 50  # a sweep's catalogues: each is played in full
CATALOGUE_SUFFIXES = (".yaml", ".yml")
# Every option but --json (a stream, or a file asked for each time) may be set in the
# configuration file; paths in the file are relative to it (docs/configuration.md).
CONFIG = ConfigSpec(exclude=frozenset({"json"}),
                    paths={"catalogue": (), "against": (), "report": ()})


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("catalogue", metavar="CATALOGUE", nargs="*", type=file_name,
                        help="tile catalogue (default: the shipped catalogue of --game); "
                        "several, or a folder of them (*.yaml), make a sweep: every set "
                        f"played on the same seeds and compared with the first (at most "
                        f"{MAX_SETS})")
    names = registry.game_names()
    parser.add_argument("--game", choices=names,
                        help=f"analyse the catalogue shipped for this game (default: {names[0]})")
    parser.add_argument("--games", metavar="N", default=100,
                        type=whole_number(1, MAX_SIMULATED_GAMES, "the number of games"),
                        help="games of each part: each seat order of each pairing of bots, "
                        "each bot alone in a solitaire mode, in each variant, at most "
                        f"{MAX_SIMULATED_GAMES:,} (default 100)")
    parser.add_argument("--bots", metavar="A,B,...", type=bot_list,
                        default=bot_list(DEFAULT_BOTS),
                        help="the bots: random, greedy, lookahead[:NODES][:Ns][:dDEPTH]"
                        f"[:greedy][:cC][:wW] (default {DEFAULT_BOTS})")
    parser.add_argument("--anchor", metavar="BOT",
                        help="the two-player ladder's reference: its rating is 0 and the "
                        "others are measured from it (default: greedy if it plays, else "
                        "the first bot; solitaire has no ladder)")
    parser.add_argument("--no-mirror", dest="mirror", action="store_false",
                        help="play no bot against itself (the lookahead against itself is "
                        "the dearest pairing); the first-player edge is then a seat term "
                        "fitted to the lopsided pairings in both seat orders")
    parser.add_argument("--seed", metavar="S", type=whole_number(0, MAX_SEED, "the seed"),
                        default=0,
                        help="game k of every part is dealt with seed S + k (default 0)")
    parser.add_argument("--variants", metavar="V,...", type=comma_list("variant", "5,7"),
                        help="only these variants (default: every variant of the catalogue)")
    parser.add_argument("--players", metavar="P,...",
                        type=comma_list("player count", "1,2"),
                        help="only these player counts (e.g. 1: the solitaire mode alone)")
    parser.add_argument("--jobs", metavar="J",
                        type=whole_number(1, MAX_JOBS, "the number of worker processes"),
                        help="worker processes (default: one per CPU; 1: no worker)")
    parser.add_argument("--scheduler", metavar="ADDRESS",
                        help="send the games to this Dask scheduler (tcp://host:8786) instead "
                        "of local workers (needs the [cluster] extra)")
    parser.add_argument("--against", metavar="CATALOGUE", type=file_name,
                        help="also play this catalogue of the same game on the same seeds, "
                        "and report which differences are significant")
    parser.add_argument("--json", metavar="FILE", type=path_name("file", "a file, - for stdout"),
                        help="write the report's JSON to FILE (- for stdout, instead of the "
                        "text summary)")
    parser.add_argument("--report", metavar="DIR", type=folder_name,
                        help="write DIR/report.html (one self-contained page, needs the "
                        "[lab] extra) and DIR/report.json; a name ending in .html is the "
                        "page itself, its JSON beside it")
    parser.add_argument("--strict", action="store_true",
                        help="treat warnings of the catalogues as errors")
    parser.add_argument("--skill-trace", metavar="BOT", nargs="?", const="lookahead",
                        help="instead of the ladder, play BOT (default lookahead) at 1, 2, "
                        "4, 8 and 16 times its node budget, each against the one below, "
                        "and report each step's win rate (--games per seat order)")


def _load(path: str | None, game: str | None, strict: bool) -> Any:
    from micropul_print.base.errors import without_errors
    from micropul_print.catalogue.loader import read_catalogue, require_game, shipped_catalogue

    found, diagnostics = read_catalogue(path or shipped_catalogue(game))
    catalogue = without_errors(found, diagnostics, strict)
    if path:
        require_game(catalogue, game)
    for diagnostic in diagnostics:
        print(diagnostic, file=sys.stderr)
    return catalogue


def catalogue_paths(given: Any) -> list[str]:
    """The catalogues named on the command line (or by the configuration file, one
    path), each folder among them replaced by its catalogues (*.yaml, *.yml, sorted by
    name); UsageError past MAX_SETS, or for a folder without any."""
    from micropul_print.base.errors import Diagnostic, UsageError, UserError

    named = [given] if isinstance(given, str) else list(given or [])
    paths: list[str] = []
    broken: list[Diagnostic] = []
    for path in named:
        folder = Path(path)
        if folder.is_dir():
            entries = sorted((found for found in folder.iterdir()
                              if found.suffix.lower() in CATALOGUE_SUFFIXES), key=str)
            problems = [Diagnostic(str(found), 0, 0, problem) for found in entries
                        if (problem := _not_a_catalogue_file(found))]
            inside = [str(found) for found in entries if found.is_file()]
            if not inside and not problems:
                raise UsageError(f"{path}: a folder without any catalogue (*.yaml) to sweep")
            broken += problems
            paths += inside
        else:
            paths.append(path)
        if len(paths) > MAX_SETS:
            raise UsageError(f"a sweep takes at most {MAX_SETS} catalogues, not "
                             f"{len(paths)} or more")
    if broken:  # a sweep analyses all of its sets or none
        raise UserError(broken)
    return paths


def _not_a_catalogue_file(found: Path) -> str | None:
    """What keeps a *.yaml entry of a sweep folder from being read, when it is not a
    file to read nor a folder: a link in a loop or to nothing, a device. (A file that
    cannot be read is read, and its reader says why.)"""
    import errno
    import os
    import stat

    from micropul_print.base.filekind import kind_of_mode

    try:
        mode = found.stat().st_mode
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            return ("a symbolic link in a loop (following it leads back to it): no "
                    "catalogue to read; remove it or point it at a catalogue")
        if exc.errno == errno.ENOENT and found.is_symlink():
            return (f"a symbolic link to {os.readlink(found)!r}, which is not there: no "
                    "catalogue to read; remove it or point it at a catalogue")
        return f"cannot be looked at: {exc.strerror or exc}"
    if stat.S_ISREG(mode) or stat.S_ISDIR(mode):
        return None
    return f"{kind_of_mode(mode)}, not a file: no catalogue to read"


def load_sets(paths: list[str], game: str | None, strict: bool) -> list[Any]:
    """Every catalogue of a sweep, or UserError with every problem of every one of them
    (at file:line:col) before any game is played: a sweep analyses all of its sets or
    none."""
    from micropul_print.base.errors import Diagnostic, UserError, errors_in, with_the_rest
    from micropul_print.catalogue.loader import read_catalogue, require_game

    found_sets = []
    problems: list[Diagnostic] = []
    warnings: list[Diagnostic] = []
    for path in paths:
        found, diagnostics = read_catalogue(path)
        errors = errors_in(diagnostics, strict)
        if found is None or errors:
            problems += with_the_rest(errors, diagnostics) if errors else diagnostics
            continue
        warnings += diagnostics
        try:
            require_game(found, game)
        except UserError as exc:
            problems += exc.diagnostics
            continue
        found_sets.append(found)
    if not problems and found_sets:
        first = found_sets[0]
        for other in found_sets[1:]:
            if other.game != first.game:
                line, col = other.game_at
                problems.append(Diagnostic(other.source, line, col, f"a sweep compares sets "
                                           f"of one game: {first.source} is a {first.game} "
                                           f"catalogue, this is a {other.game} one"))
    if problems:
        raise UserError(problems)
    for diagnostic in warnings:
        print(diagnostic, file=sys.stderr)
    return found_sets


class _Progress:
    """On a terminal, one line rewritten as games finish; in a pipe (a log), one line
    per finished part."""

    def __init__(self, plans: list[tuple[str, Any]], terminal: bool) -> None:
        self.terminal = terminal
        self.total = sum(len(b.seeds) for _, plan in plans for b in plan.batches)
        self.done = 0
        self.left: dict[tuple[int, int], int] = {}
        self.labels: dict[tuple[int, int], str] = {}
        for number, (prefix, plan) in enumerate(plans):
            for batch in plan.batches:
                key = (number, batch.part)
                self.left[key] = self.left.get(key, 0) + len(batch.seeds)
                self.labels[key] = prefix + plan.parts[batch.part].label()
        self.started = time.perf_counter()

    def callback(self, number: int) -> Any:
        def done(batch: Any, games: list[Any]) -> None:
            self.done += len(games)
            key = (number, batch.part)
            self.left[key] -= len(games)
            if self.terminal:
                print(f"\ranalyse: {self.done}/{self.total} games", end="", file=sys.stderr,
                      flush=True)
            elif self.left[key] == 0:
                seconds = time.perf_counter() - self.started
                print(f"analyse: {self.labels[key]}: done ({self.done}/{self.total} games, "
                      f"{seconds:.0f} s)", file=sys.stderr, flush=True)
        return done

    def finish(self) -> None:
        if self.terminal and self.total:
            print(file=sys.stderr)


def run(args: argparse.Namespace) -> int:
    from micropul_print.lab import report

    if args.report is None:
        return _run(args)
    with report.plotting_config():
        return _run(args)


def _run(args: argparse.Namespace) -> int:
    from micropul_print.base.errors import Diagnostic, UsageError, UserError
    from micropul_print.base.shown import shown_source
    from micropul_print.config import missing_inputs
    from micropul_print.game.registry import shipped_catalogues
    from micropul_print.lab import analyse, report
    from micropul_print.lab.runner import SchedulerLost, check_scheduler, run_plan

    missing = missing_inputs(args, CONFIG)
    if missing:
        raise UserError(missing)
    require_seeds(args)  # game k is dealt seed S + k
    paths = catalogue_paths(args.catalogue)
    sweep = len(paths) > 1
    if sweep and args.against:
        raise UsageError("--against compares two catalogues, a sweep (several catalogues) "
                         "compares each with the first: give one or the other")
    if sweep:
        sets = load_sets(paths, args.game, args.strict)
        catalogue = sets[0]
    else:
        catalogue = _load(paths[0] if paths else None, args.game, args.strict)
        sets = [catalogue]
    if getattr(args, "skill_trace", None) is not None:
        if sweep:
            raise UsageError("--skill-trace plays one catalogue: give one, not a sweep")
        return _skill_trace(args, catalogue)
    # Its game is checked below, where the message can name --against (not --game).
    against = _load(args.against, None, args.strict) if args.against else None
    shipped, here = shipped_catalogues(), Path.cwd()
    named = [*(paths or [str(catalogue.source)]),
             *([args.against] if against is not None else [])]
    shown = [shown_source(path, shipped, within=here) for path in named]
    if against is not None and against.game != catalogue.game:
        line, col = against.game_at
        raise UserError([Diagnostic(against.source, line, col, f"--against needs a "
                                    f"{catalogue.game} catalogue, this is a {against.game} one")])
    if args.scheduler is not None:
        try:
            import distributed  # noqa: F401
        except ImportError:
            raise UsageError("--scheduler needs Dask's distributed package: "
                             "pip install 'micropul-print[cluster]'") from None
    check_report_targets(args, [*sets, *([] if against is None else [against])])
    try:
        plans = [(found, _plan(analyse, found, args)) for found in sets]
        if against is not None:
            plans.append((against, _plan(analyse, against, args)))
    except ValueError as exc:  # a bot unknown or named twice
        raise _value_problem(args, "bots", str(exc)) from None
    try:
        anchor = analyse.choose_anchor(args.bots, args.anchor)
    except ValueError as exc:
        raise _value_problem(args, "anchor", str(exc)) from None
    if args.scheduler is not None:
        check_scheduler(args.scheduler)  # before any game: a wrong address is told at once
    progress = _Progress([("" if len(plans) == 1 else f"{shown[n]}: ", p)
                          for n, (_, p) in enumerate(plans)], sys.stderr.isatty())
    outcomes: list[tuple[dict[int, list[Any]], bool]] = []
    complete = True
    lost = None
    try:
        for number, (cat, plan) in enumerate(plans):
            if not complete:
                outcomes.append(({}, False))
                continue
            try:
                results, complete = run_plan(plan, cat, jobs=args.jobs,
                                             scheduler=args.scheduler,
                                             done=progress.callback(number),
                                             told=_tell)
            except SchedulerLost as exc:  # reported as an interruption is, then said
                lost = exc
                results, complete = exc.results, False
            outcomes.append((results, complete))
    finally:
        progress.finish()
    document = report.build_report(plans, outcomes, args.bots, anchor, paths=shown,
                                   sweep=sweep)
    if args.json != "-":  # first: should a file fail to be written, the figures are shown
        print(report.format_text(document), end="", flush=True)
    if args.json is not None:
        report.write_json(document, args.json)
    if args.report is not None:
        report.write_report(document, Path(args.report))
    if lost is not None:
        print(f"micropul-print: {lost}: the report covers the games played so far",
              file=sys.stderr)
        return 1
    if not document["complete"]:
        print("micropul-print: interrupted: the report covers the games played so far",
              file=sys.stderr)
        return 130
    return 0


def _tell(message: str) -> None:
    """What the run met on the way (a Dask worker lost), on a line of its own."""
    print(f"\nanalyse: {message}" if sys.stderr.isatty() else f"analyse: {message}",
          file=sys.stderr, flush=True)


def check_not_read(target: Path, catalogues: list[Any], option: str, what: str) -> None:
    """UserError if the file ``target`` is one of the ``catalogues`` the command reads:
    writing ``what`` there replaced the user's catalogue (``analyse set.yaml --json
    set.yaml``, ``play set.yaml --record set.yaml``)."""
    import os

    from micropul_print.base.errors import Diagnostic, UserError

    for catalogue in catalogues:
        source = str(catalogue.source)
        try:
            same = target.is_file() and os.path.samefile(target, source)
        except (OSError, ValueError):  # not there, or not a name the system takes
            same = False
        if same:
            raise UserError([Diagnostic(str(target), 0, 0, (
                f"{option}: this is {source}, a catalogue this command reads: {what} would "
                "replace it; give another file"))])


def check_report_targets(args: argparse.Namespace, catalogues: list[Any]) -> None:
    """Refuse, before any game, a ``--report`` or ``--json`` that cannot be written:
    matplotlib missing, a loop of links on the way, a report file linked out, a file
    that is one of the ``catalogues`` read."""
    from micropul_print.base.errors import Diagnostic, UserError
    from micropul_print.kit.outputs import (
        check_directory_target,
        check_file_target,
        check_output_file,
    )
    from micropul_print.lab import report

    def naming(option: str, problem: UserError) -> UserError:
        # Said at the path, which may be one the user never typed (report.json beside
        # the page): the option says which of the two outputs it is.
        return UserError([Diagnostic(d.file, d.line, d.col, f"{option}: {d.message}",
                                     d.severity) for d in problem.diagnostics])

    if args.report is not None:
        report.require_plotting()
        folder, page, data = report.report_files(Path(args.report))
        try:
            check_directory_target(folder, "the report")
            for name in (page, data):  # as write_report will: no link out, no loop
                check_output_file(folder, name, "the report")
        except UserError as problem:
            raise naming("--report", problem) from None
        for name in (page, data):
            check_not_read(folder / name, catalogues, "--report", "the report")
    if args.json not in (None, "-"):
        try:
            check_file_target(Path(args.json), "the report's JSON")
        except UserError as problem:
            raise naming("--json", problem) from None
        check_not_read(Path(args.json), catalogues, "--json", "the report's JSON")


def _skill_trace(args: argparse.Namespace, catalogue: Any) -> int:
    """``--skill-trace``: the steps of lab.skilltrace played, then its report."""
    from micropul_print.base.errors import UsageError
    from micropul_print.kit.outputs import OutputDir
    from micropul_print.lab import report, skilltrace
    from micropul_print.lab.runner import run_plan

    if args.against is not None or args.scheduler is not None:
        raise UsageError("--skill-trace plays one catalogue on local workers: it takes "
                         "neither --against nor --scheduler")
    try:
        plan = skilltrace.plan(catalogue.game, catalogue, args.skill_trace, args.games,
                               args.seed, variants=args.variants)
    except ValueError as exc:
        raise _value_problem(args, "skill-trace", str(exc)) from None
    check_report_targets(args, [catalogue])  # before the first game, as a ladder's run does
    progress = _Progress([("skill trace: ", plan)], sys.stderr.isatty())
    try:
        results, complete = run_plan(plan, catalogue, jobs=args.jobs, scheduler=None,
                                     done=progress.callback(0))
    finally:
        progress.finish()
    document = skilltrace.document(plan, catalogue, args.skill_trace, results, complete)
    if args.json != "-":
        print(skilltrace.format_text(document), end="", flush=True)
    if args.json is not None:
        report.write_json(document, args.json)
    if args.report is not None:
        folder, page, data = report.report_files(Path(args.report))
        output = OutputDir(folder)
        output.write_bytes(data, report.dumps(document).encode("utf-8"))
        output.write_bytes(page, report.skill_trace_html(document).encode("utf-8"))
    return 0 if complete else 130


# The options whose values are judged once the catalogue is read (not by argparse), and
# whose messages do not name them: their usage errors start as argparse's do.
_ARGUMENTS = {"bots": "--bots", "variants": "--variants", "players": "--players",
              "variant": "--variant"}


def _value_problem(args: argparse.Namespace, key: str, message: str) -> Exception:
    """``message`` at the value's place when ``key`` came from micropul-print.toml (a
    usage error about an option the user never typed would mislead), else as a usage
    error in the command's own words, ``argument --KEY:`` first as argparse says its
    own (an unknown bot alone did not say which option it came from)."""
    from micropul_print.base.errors import UsageError, UserError
    from micropul_print.config import value_problem

    problem = value_problem(args, key, message)
    if isinstance(problem, UserError):
        return problem
    option = _ARGUMENTS.get(key)
    return UsageError(message if option is None else f"argument {option}: {message}")


def _plan(analyse: Any, catalogue: Any, args: argparse.Namespace) -> Any:
    from micropul_print.game.plugin import players_in_words

    game = registry.get(catalogue.game)
    variants = game.variants(catalogue)
    players = game.info.player_counts
    for key, named in (("variants", args.variants), ("players", args.players)):
        twice = sorted({value for value in named or () if list(named).count(value) > 1})
        if twice:  # each would be played again, and counted once
            what = "a variant" if key == "variants" else "a player count"
            raise _value_problem(args, key, f"{what} is named twice in {','.join(named)}: "
                                 f"{', '.join(twice)}")
    for variant in args.variants or ():
        if variant not in variants:
            raise _value_problem(args, "variants", f"{catalogue.name} has no variant "
                                 f"{variant!r} (it has: {', '.join(variants)})")
    for count in args.players or ():
        if count not in map(str, players):  # compared as text: '²' and '1_0' are no counts
            raise _value_problem(args, "players", f"{game.info.title} takes "
                                 f"{players_in_words(game.info.player_counts)}, not {count}")
    planned = analyse.plan(catalogue.game, catalogue, args.bots, args.games, args.seed,
                           variants=args.variants,
                           players=None if args.players is None
                           else [int(p) for p in args.players],
                           mirror=args.mirror)
    if not planned.parts:  # one bot, no mirror and no solitaire: it analysed nothing, rc 0
        why = ("and --players leaves out the solitaire" if 1 in game.info.player_counts
               else f"and {game.info.title} has no solitaire")
        raise _value_problem(args, "mirror", f"no mirror pairing (no bot against itself) "
                             f"with one bot ({args.bots[0]}) leaves no game to play, {why}; "
                             "give a second bot, or let the bot play itself")
    return planned
