"""Argument parsing and the one exit path: each command lives in
``micropul_print.commands.<name>``.

A command module defines ``HELP`` (one line), ``add_arguments(parser)`` and
``run(args) -> int``; one that also defines ``CONFIG`` (a config.ConfigSpec) takes its
options from the configuration file too (micropul_print.config). Command modules must
import heavy libraries (reportlab, svgwrite, Pillow) inside ``run`` only, so that
``check``, ``position`` and ``catalogue`` never load the drawing libraries.

Only the module of the command being run is imported (and, for a configurable
command, the other configurable ones, whose tables of the configuration file are
checked too): a build must not pay for the rules engine or the position reader just to
get its parser. Every module is loaded only when the command line names none (usage,
``--help``, ``--version``, a typo).

Exit statuses (docs/limits.md): 0 success; 1 invalid input, a failed check, output
that could not be written, or a Dask scheduler lost mid-run; 2 a usage error; 70 an
internal error (a bug: please report it); 130 interrupted by Ctrl-C; 143 stopped by
SIGTERM. No traceback is shown unless MICROPUL_PRINT_TRACEBACK=1.
"""

from __future__ import annotations

import argparse
import copy
import errno
import gc
import importlib
import io
import os
import re
import sys
from collections.abc import Iterator, Mapping, Sequence
from types import ModuleType
from typing import TYPE_CHECKING, NoReturn, TextIO

from micropul_print import __version__, config
from micropul_print.base import interrupts
from micropul_print.base.errors import (
    PROG,
    Diagnostic,
    Severity,
    UsageError,
    UserError,
    failure_summary,
    printable,
    take_warnings,
    usage_error,
)
from micropul_print.base.interrupts import Terminated
from micropul_print.game import registry

if TYPE_CHECKING:
    from _typeshed import SupportsWrite

COMMANDS = ("check", "catalogue", "position", "build", "rulebook", "init", "calibrate",
            "analyse", "play", "replay", "serve")

EXIT_OK, EXIT_INVALID, EXIT_USAGE, EXIT_INTERNAL = 0, 1, 2, 70
EXIT_INTERRUPTED, EXIT_TERMINATED = 130, 143


class Parser(argparse.ArgumentParser):
    """argparse with no abbreviated options, and a "did you mean" for a misspelt
    command, option or choice."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        kwargs.setdefault("allow_abbrev", False)
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]

    def _print_message(self, message: str, file: SupportsWrite[str] | None = None) -> None:
        """As argparse's, but a failed write to stdout (--help into a full disk) is
        raised, to be reported, where argparse drops it and exits 0."""
        stdout: TextIO = sys.stdout
        if not message or file is not stdout:
            super()._print_message(message, file)
            return
        stdout.write(message)
        stdout.flush()

    def error(self, message: str) -> NoReturn:
        self.print_usage(sys.stderr)
        # An unknown option is this parser's (the command's): its options are the ones
        # to suggest, not another command's.
        hint = _hint(message, sorted(self._option_string_actions))
        self.exit(EXIT_USAGE, f"{usage_error(self.prog, message)}{hint}\n")


def _hint(message: str, options: list[str]) -> str:
    """" (did you mean ...?)" for the first misspelt word the message names, if any:
    a choice, or one of ``options``."""
    choice = re.search(r"invalid choice: '([^']*)' \(choose from (.*)\)", message)
    if choice:
        word, found = choice.group(1), re.findall(r"'([^']*)'|([\w-]+)", choice.group(2))
        candidates = [a or b for a, b in found]
    else:
        unknown = re.search(r"unrecognized arguments: (\S+)", message)
        if not unknown or not unknown.group(1).startswith("-"):
            return ""
        word, candidates = unknown.group(1).split("=")[0], options
    import difflib  # only for a mistake

    close = difflib.get_close_matches(word, candidates, n=1, cutoff=0.6)
    return f" (did you mean '{close[0]}'?)" if close else ""


def _load(name: str) -> ModuleType | None:
    try:
        return importlib.import_module(f"micropul_print.commands.{name}")
    except ModuleNotFoundError as exc:
        if exc.name == f"micropul_print.commands.{name}":
            return None  # command not built yet
        raise


def build_parser(only: str | None = None) -> tuple[argparse.ArgumentParser,
                                                   dict[str, ModuleType]]:
    """The parser with every command, or with the command ``only`` alone (its module is
    the only one imported). The defaults of configurable options are hidden (see
    :func:`configurable`) until :func:`main` fills them in."""
    games = registry.games()
    parser = Parser(
        prog=PROG,
        description="Print-and-play kit generator and rules engines for tile games: "
                    + "; ".join(game.info.summary for game in games) + ".",
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    modules: dict[str, ModuleType] = {}
    for name in COMMANDS if only is None else (only,):
        module = _load(name)
        if module is None:
            continue
        modules[name] = module
        command = sub.add_parser(name, help=module.HELP, description=module.HELP)
        module.add_arguments(command)
        if hasattr(module, "CONFIG"):
            _CONFIGURED[name] = configurable(name, command, module)
            _CONFIGURED[name].hide_defaults()
    return parser, modules


# The configurable options of each command whose parser build_parser made.
_CONFIGURED: dict[str, config.CommandOptions] = {}


def configurable(name: str, parser: argparse.ArgumentParser,
                 module: ModuleType) -> config.CommandOptions:
    """The options of ``parser`` that the configuration file may set, then the
    configuration file's own options added to it."""
    options = config.CommandOptions(name, parser, module.CONFIG)
    config.add_config_arguments(parser)
    return options


def configurable_commands(running: str | None = None) -> dict[str, config.CommandOptions]:
    """The configurable options of every command that has a table in the configuration
    file (the whole file is checked whichever command runs): the ``running`` command's
    from its parser, the others' from parsers made for the purpose."""
    found: dict[str, config.CommandOptions] = {}
    for name in COMMANDS:
        if name == running and name in _CONFIGURED:
            found[name] = _CONFIGURED[name]
            continue
        module = _load(name)
        if module is not None and hasattr(module, "CONFIG"):
            parser = Parser(prog=f"{PROG} {name}")
            module.add_arguments(parser)
            found[name] = configurable(name, parser, module)
    return found


class _Commands(Mapping[str, config.CommandOptions]):
    """configurable_commands(running), made only when something beyond the running
    command's own options is asked for: a run without a configuration file (or whose
    file the command line overrides whole) needs no other command's module or parser."""

    def __init__(self, running: str) -> None:
        self._running = running
        self._every: dict[str, config.CommandOptions] | None = None

    def _all(self) -> dict[str, config.CommandOptions]:
        if self._every is None:
            self._every = configurable_commands(self._running)
        return self._every

    def __getitem__(self, name: str) -> config.CommandOptions:
        if name == self._running and name in _CONFIGURED and self._every is None:
            return _CONFIGURED[name]
        return self._all()[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._all())

    def __len__(self) -> int:
        return len(self._all())


def _command_parser(parser: argparse.ArgumentParser,
                    command: str) -> argparse.ArgumentParser:
    """The parser of ``command`` among those of ``parser`` (made by build_parser)."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            found: argparse.ArgumentParser = action.choices[command]
            return found
    return parser


def command_named(argv: Sequence[str]) -> str | None:
    """The command ``argv`` runs, when its first word is one (no option comes before a
    command: the only top-level options, --help and --version, take no value)."""
    return argv[0] if argv and argv[0] in COMMANDS else None


# A value that starts like an option but is a number or a list of numbers: -1.5,0.5, in
# every form a number option reads (-.5, -1e1, -1,+1; an infinity, for its range error).
_NUMBER = r"(?:(?:\d+(?:\.\d*)?|\.\d+)(?:e[+-]?\d+)?|inf(?:inity)?|nan)"
_NEGATIVE_VALUE = re.compile(rf"-{_NUMBER}(?:\s*,\s*[+-]?{_NUMBER})*\s*", re.IGNORECASE)


def join_negative_values(words: Sequence[str]) -> list[str]:
    """``--opt -1.5,0.5`` as ``--opt=-1.5,0.5``: argparse takes a word starting with a
    dash for an option unless it is a single negative number."""
    joined: list[str] = []
    for word in words:
        if (joined and _NEGATIVE_VALUE.fullmatch(word) and joined[-1].startswith("--")
                and "=" not in joined[-1]):
            joined[-1] = f"{joined[-1]}={word}"
        else:
            joined.append(word)
    return joined


def _resolved(args: argparse.Namespace) -> tuple[list[config.Setting], argparse.Namespace]:
    """The command's settings (config.resolve) and its arguments filled in from them.
    ``build --watch`` with a configuration file that has problems prints them and
    waits for the file to be mended, as it does for a problem met while watching,
    instead of ending."""
    commands = _Commands(args.command)
    try:
        return config.resolve(args, args.command, commands), args
    except UserError as problem:
        path = config.config_path(args)
        if args.command != "build" or not getattr(args, "watch", False) or path is None:
            raise
        from micropul_print.watch import until_mended

        found: list[tuple[list[config.Setting], argparse.Namespace]] = []

        def resolve() -> None:
            trial = copy.copy(args)  # resolve fills in what it reads: not twice
            found.append((config.resolve(trial, args.command, commands), trial))

        until_mended(path, problem, resolve)
        return found[-1]


def main(argv: list[str] | None = None) -> int:
    _open_closed_streams()
    _escape_what_stdout_cannot_encode()
    words = join_negative_values(sys.argv[1:] if argv is None else argv)
    # The signals are noted as they come: a library that turns the handler's exception
    # into KeyboardInterrupt (watchfiles does, for any signal) must not make a SIGTERM
    # look like Ctrl-C, and one whose exception was lost must still end the command.
    previous = interrupts.install()
    take_warnings()  # none left from an earlier run in this process
    strict = False
    try:
        parser, modules = build_parser(command_named(words))
        for problem in registry.broken():  # said on every run, until it is mended
            print(problem, file=sys.stderr)
        args, unknown = parser.parse_known_args(words)
        if unknown:  # the command's own usage error: argparse leaves it to the top level
            _command_parser(parser, args.command).error(
                f"unrecognized arguments: {' '.join(unknown)}")
        strict = bool(getattr(args, "strict", False))
        if args.command in _CONFIGURED:
            settings, args = _resolved(args)
            setattr(args, config.SETTINGS, settings)  # for config.reload (build --watch)
            # How config.reload finds the commands' options again, without importing
            # this module (which imports the commands).
            setattr(args, config.COMMANDS, configurable_commands)
            if args.show_config:
                print(config.format_settings(args.command, config.config_path(args), settings))
                return EXIT_OK
        code: int = modules[args.command].run(args)
        if code == EXIT_OK:  # a signal whose exception was swallowed on the way ends it
            interrupts.raise_if_lost()
        sys.stdout.flush()  # a full disk or a closed pipe shows here, not at exit
        for diagnostic in take_warnings():  # of the inputs the command could use
            print(diagnostic, file=sys.stderr)
    except UserError as exc:
        shown = (*exc.diagnostics, *take_warnings())
        for diagnostic in shown:
            print(diagnostic, file=sys.stderr)
        if strict and _failed_by_strict(shown):  # or it looks like a run that succeeded
            warnings = [d for d in shown if d.severity is Severity.WARNING]
            print(failure_summary(words[0], warnings), file=sys.stderr)
        return EXIT_INVALID
    except UsageError as exc:  # a value only the command's run could judge
        command = f"{PROG} {words[0]}" if words else PROG
        print(usage_error(command, str(exc)), file=sys.stderr)
        return EXIT_USAGE
    except (KeyboardInterrupt, Terminated) as stop:
        if isinstance(stop, Terminated) or interrupts.terminated():
            print(f"{PROG}: stopped (SIGTERM)", file=sys.stderr)
            return EXIT_TERMINATED
        print(f"{PROG}: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except OSError as exc:
        if exc.filename is None and _working_folder_gone():
            print(f"{PROG}: error: the current folder was removed while the command ran: "
                  "start it again from a folder that exists", file=sys.stderr)
            return EXIT_INVALID
        if exc.filename is not None:  # a file or folder the system refused: the user's to fix
            where = printable(str(exc.filename))
            print(f"{where}: error: cannot write or read it: {exc.strerror or exc}",
                  file=sys.stderr)
            return EXIT_INVALID
        if exc.errno not in (errno.EPIPE, errno.ENOSPC, errno.EIO) and not isinstance(
                exc, BrokenPipeError):
            return _internal_error(exc)
        _silence_stdout()
        if exc.errno != errno.EPIPE:  # a reader that went away needs no message
            print(f"{PROG}: cannot write the output: {exc.strerror or exc}", file=sys.stderr)
        return EXIT_INVALID
    except Exception as exc:  # a bug: one line, the traceback on request
        return _internal_error(exc)
    finally:
        interrupts.restore(previous)
    return code


def _failed_by_strict(diagnostics: Sequence[Diagnostic]) -> int:
    """The number of warnings that failed a run under --strict, 0 if an error did."""
    if any(d.severity is Severity.ERROR for d in diagnostics):
        return 0
    return sum(d.severity is Severity.WARNING for d in diagnostics)


def entry() -> int:
    """The ``micropul-print`` command (and ``python -m micropul_print``): :func:`main`,
    then everything the run left is frozen out of the garbage collector, since the
    process is about to end. The interpreter's last collection would otherwise search
    it all for cycles, only to free it: some 60 ms of a default build's exit."""
    code = main()
    gc.freeze()
    return code


def _working_folder_gone() -> bool:
    """Whether the working directory was removed (os.getcwd fails, and with it every
    relative path's resolve)."""
    try:
        os.getcwd()
    except OSError:
        return True
    return False


def _open_closed_streams() -> None:
    """Python makes sys.stdout (sys.stderr) None when its descriptor was closed: what
    would be written there goes to /dev/null instead, as into a shell's ``>/dev/null``.
    The open takes the lowest free descriptor, the closed one, so workers inherit it."""
    for name in ("stdout", "stderr"):
        if getattr(sys, name) is None:
            setattr(sys, name, open(os.devnull, "w", encoding="utf-8"))  # noqa: SIM115 (kept open)


def _escape_what_stdout_cannot_encode() -> None:
    """A character the output's encoding lacks (a name with 'ü' under
    PYTHONIOENCODING=ascii, or a C locale Python does not coerce) is written as ``\\xfc``,
    as on stderr, where Python does so itself: it stopped the command with an internal
    error, a UnicodeEncodeError."""
    if isinstance(sys.stdout, io.TextIOWrapper) and sys.stdout.errors == "strict":
        sys.stdout.reconfigure(errors="backslashreplace")


def _silence_stdout() -> None:
    """Point stdout at /dev/null, so the interpreter's last flush at exit cannot fail."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass


def _internal_error(exc: BaseException) -> int:
    if os.environ.get("MICROPUL_PRINT_TRACEBACK") == "1":
        import traceback  # a bug's path only

        traceback.print_exception(exc)
    # A bug met in a game plugin's code is that plugin's to mend: the line says which one.
    print(registry.internal_error_line(exc), file=sys.stderr)
    return EXIT_INTERNAL
