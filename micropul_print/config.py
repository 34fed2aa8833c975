"""The configuration file: any option of a command, written once instead of on every
command line (docs/configuration.md).

``micropul-print.toml`` in the working directory (or ``--config FILE``; ``--no-config``
reads none) holds a table per command, ``[build]``, ``[rulebook]``, ``[check]``, whose
keys are the command's options: the long option's name, or for a switch the name of
what it switches (``numbers = false`` for ``--no-numbers``). Options given on the
command line win over the file, the file over the defaults.

Nothing here names an option. A command module declares ``CONFIG`` (a
:class:`ConfigSpec`), and its configurable options are the actions of its argparse
parser; a value from the file goes through the action's own ``type`` function and
``choices``, so it is checked exactly as the same value on the command line. Every
problem of the file is reported at once, at the line and column of its key or value
(tomllib gives no positions: :func:`locate` finds them in the text).
"""

from __future__ import annotations

import argparse
import codecs
import copy
import errno
import os
import re
from bisect import bisect_right
from collections.abc import Callable, Collection, Iterator, Mapping
from dataclasses import field
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from micropul_print.base.errors import Diagnostic, UserError, printable, quoted
from micropul_print.base.record import record
from micropul_print.base.yamlsource import not_a_file, read_input_bytes

if TYPE_CHECKING:
    import tomllib

CONFIG_NAME = "micropul-print.toml"
MAX_CONFIG_DEPTH = 100  # a configuration nests an array or two; tomllib overflows at ~300
MAX_CONFIG_BYTES = 1024 * 1024  # a configuration file is a few lines; refuse a huge one


@record
class ConfigSpec:
    """What a command's table may set: every option of its parser but ``exclude``
    (keys, as written in the file). ``paths``: keys whose relative values are paths,
    taken relative to the file's folder, each with the names it takes that are not
    paths (a built-in theme's name)."""

    exclude: frozenset[str] = frozenset()
    paths: Mapping[str, Collection[str]] = field(default_factory=dict)


class _Unset:
    """The default of a configurable option while parsing: tells an option the command
    line left out from one it gave."""

    def __repr__(self) -> str:
        return "UNSET"


UNSET: Any = _Unset()


class Setting(NamedTuple):
    key: str
    value: Any
    source: str  # "default", "command line" or "FILE:LINE"
    at: tuple[str, int, int] | None = None  # from the file: its name, the value's line, col


class Found(NamedTuple):
    """A value of the file, converted, with the line of its key and where it is."""

    value: Any
    line: int
    value_line: int
    value_col: int


class CommandOptions:
    """The configurable options of one command, from its parser's actions."""

    def __init__(self, command: str, parser: argparse.ArgumentParser,
                 spec: ConfigSpec) -> None:
        self.command = command
        self.spec = spec
        self.actions: dict[str, argparse.Action] = {}
        # Every action of a key: a switch and its opposite (--booklet, --no-booklet)
        # share one, and each must tell the command line from the file.
        self.every_action: dict[str, list[argparse.Action]] = {}
        for action in parser._actions:
            if action.default is argparse.SUPPRESS or action.dest in _OWN_DESTS:
                continue  # --help, and the options of the configuration itself
            key = action.dest.replace("_", "-")
            if key not in spec.exclude:
                self.actions[key] = action
                self.every_action.setdefault(key, []).append(action)
        self.defaults = {key: _default(action) for key, action in self.actions.items()}
        self._add_opposites(parser)

    def _add_opposites(self, parser: argparse.ArgumentParser) -> None:
        """Give each switch without one its opposite (--no-strict for --strict, --numbers
        for --no-numbers), so that the command line can undo what the file switched."""
        for key, actions in self.every_action.items():
            action = actions[0]
            if len(actions) > 1 or not isinstance(action.const, bool):
                continue
            option = action.option_strings[0]
            if action.const:  # --strict: true when given
                opposite, store = f"--no-{option[2:]}", "store_false"
            else:  # --no-numbers: false when given
                opposite, store = f"--{option.removeprefix('--no-')}", "store_true"
            actions.append(parser.add_argument(
                opposite, dest=action.dest, action=store, default=action.default,
                help=f"the opposite of {option}, for a '{key} = {str(action.const).lower()}' "
                     "of the configuration file"))

    def hide_defaults(self) -> None:
        """Make UNSET the default of every configurable option, so that what the command
        line gave can be told apart (:func:`resolve` puts the real defaults back)."""
        for actions in self.every_action.values():
            for action in actions:
                action.default = UNSET

    def convert(self, key: str, value: Any, base: Path) -> Any:
        """A value of the file as the command line would have given it; _Invalid if the
        option cannot take it. Relative paths are taken from ``base``."""
        action = self.actions[key]
        if action.nargs == 0:  # a switch: true or false
            if not isinstance(value, bool):
                raise _Invalid(f"{key}: expected true or false, not {_kind(value)}")
            if isinstance(action.const, bool):
                return value
            return action.const if value else self.defaults[key]
        if key in self.spec.paths and not isinstance(value, str):
            # A number or an array joined by commas made a path no one meant.
            several = (" (several catalogues, a sweep, go on the command line)"
                       if isinstance(value, list) and key == "catalogue"
                       and self.command == "analyse" else "")
            raise _Invalid(f"{key}: expected one path, as a string in quotes, not "
                           f"{'an array' if isinstance(value, list) else _kind(value)}{several}")
        text = _text(key, value)
        if key in self.spec.paths and not text.strip():  # else the file's own folder
            raise _Invalid(f"{key}: an empty path; give one, or remove the line for the "
                           "default")
        if (key in self.spec.paths and text not in self.spec.paths[key]
                and not Path(text).is_absolute()):
            text = str(base / text)
        converted: Any = text
        if action.type is not None:
            convert: Callable[[str], Any] = action.type  # type: ignore[assignment]
            try:
                converted = convert(text)
            except argparse.ArgumentTypeError as exc:
                raise _Invalid(f"{key}: {exc}") from None
            except (TypeError, ValueError):
                name = getattr(action.type, "__name__", "")
                raise _Invalid(f"{key}: invalid {name} value: {quoted(text)}") from None
        if action.choices is not None and converted not in action.choices:
            choices = [str(choice) for choice in action.choices]
            raise _Invalid(f"{key}: invalid choice: {quoted(text)} (choose from "
                           f"{', '.join(choices)}){_did_you_mean(text, choices)}")
        return converted


# The options every configurable command gets from this module.
_OWN_DESTS = frozenset({"config_file", "no_config", "show_config"})


def add_config_arguments(parser: argparse.ArgumentParser) -> None:
    group = parser.add_mutually_exclusive_group()
    from micropul_print.commands.values import file_name

    group.add_argument("--config", dest="config_file", metavar="FILE", type=file_name,
                       help=f"read the options from this file instead of ./{CONFIG_NAME}")
    group.add_argument("--no-config", action="store_true",
                       help=f"read no configuration file, not even ./{CONFIG_NAME}")
    parser.add_argument("--show-config", action="store_true",
                        help="print the settings in effect and where each comes from "
                             "(default, FILE:LINE or command line), and do nothing else")


def config_path(args: argparse.Namespace, cwd: Path | None = None) -> Path | None:
    """The configuration file to read: --config's, else ./micropul-print.toml if there
    is one; None with --no-config."""
    if getattr(args, "no_config", False):
        return None
    if getattr(args, "config_file", None):
        return Path(args.config_file)
    default = Path(CONFIG_NAME) if cwd is None else cwd / CONFIG_NAME
    return default if default.is_file() else None


# Where main leaves the settings resolve returned, for :func:`reload`.
SETTINGS = "config_settings"
# Where main leaves the function giving every command's configurable options (the
# running command's name -> CommandOptions by command), for :func:`reload`.
COMMANDS = "config_commands"


def value_problem(args: argparse.Namespace, key: str, message: str) -> Exception:
    """The error for an option's value that only the command's run can judge: at the
    value's place when it came from the configuration file (blaming an option the user
    never typed misleads), else a usage error about the option."""
    from micropul_print.base.errors import UsageError

    for setting in getattr(args, SETTINGS, ()):
        if setting.key == key and setting.at is not None:
            source, line, col = setting.at
            return UserError([Diagnostic(source, line, col, f"{key}: {message}")])
    return UsageError(f"argument --{key}: {message}")


def at_the_setting(args: argparse.Namespace, key: str, problem: UserError) -> UserError:
    """``problem`` with an option's path (``out``) that the run found it cannot use (a
    file where its folder goes, a read-only place): at the value's place when it came
    from the configuration file, where the user is to mend it, the path said in the
    message; else as it is (named by the path typed)."""
    for setting in getattr(args, SETTINGS, ()):
        if setting.key == key and setting.at is not None:
            source, line, col = setting.at
            return UserError([Diagnostic(source, line, col, f"{key}: {d.file}: {d.message}")
                              for d in problem.diagnostics])
    return problem


# The path keys that name files a command reads (not a folder it writes, or one it
# checks itself: out, locales).
INPUT_KEYS = frozenset({"catalogue", "theme"})


def missing_inputs(args: argparse.Namespace, spec: ConfigSpec) -> list[Diagnostic]:
    """Where the file names an input (INPUT_KEYS among ``spec``'s paths) that is not
    there, or is a folder (a pipe, a device): at the value, as every bad value of the
    file; the reader's own "file not found" names the path alone, as though it had been
    typed."""
    keys = {key: names for key, names in spec.paths.items() if key in INPUT_KEYS}
    problems = []
    for setting in getattr(args, SETTINGS, ()):
        if (setting.key not in keys or setting.at is None
                or not isinstance(setting.value, str) or setting.value in keys[setting.key]):
            continue
        source, line, col = setting.at
        try:
            mode = os.stat(setting.value).st_mode
        except OSError as exc:  # not there; anything else, the reader says
            if exc.errno not in (errno.ENOENT, errno.ENOTDIR):
                continue
            names = keys[setting.key]
            hint = f" (nor a built-in {setting.key}: {', '.join(names)})" if names else ""
            problems.append(Diagnostic(source, line, col, f"{setting.key}: file not found: "
                                       f"{printable(setting.value)!r}{hint}"))
            continue
        if not_a_file(mode):  # a folder, a pipe: as the reader would say it
            problems.append(Diagnostic(source, line, col, f"{setting.key}: "
                                       f"{printable(setting.value)!r} {not_a_file(mode)}"))
    return sorted(problems, key=lambda d: (d.line, d.col))


def reload(args: argparse.Namespace, command: str,
           commands: Mapping[str, CommandOptions] | None = None) -> argparse.Namespace:
    """``args`` with the configuration file read again (after it changed): what the
    command line gave stays, everything else comes from the file as it is now.
    ``commands``: by default, what main left in ``args`` (:data:`COMMANDS`)."""
    if commands is None:
        commands = getattr(args, COMMANDS)(command)
    fresh = copy.copy(args)
    for setting in getattr(args, SETTINGS, ()):
        if setting.source != "command line":
            setattr(fresh, commands[command].actions[setting.key].dest, UNSET)
    setattr(fresh, SETTINGS, resolve(fresh, command, commands))
    return fresh


def resolve(args: argparse.Namespace, command: str,
            commands: Mapping[str, CommandOptions],
            cwd: Path | None = None) -> list[Setting]:
    """Fill in every configurable option of ``command`` that the command line left out,
    from the configuration file or the default; return each setting with its source.
    The whole file is checked (every table of ``commands``): UserError lists each
    problem at its place."""
    path = config_path(args, cwd)
    values = read_config(path, commands) if path is not None else {}
    settings = []
    options = commands[command]
    table = values.get(command, {})
    for key, action in options.actions.items():
        given = getattr(args, action.dest, UNSET)
        if given is not UNSET:
            settings.append(Setting(key, given, "command line"))
            continue
        if key in table:
            found = table[key]
            settings.append(Setting(key, found.value, f"{path}:{found.line}",
                                    (str(path), found.value_line, found.value_col)))
        else:
            settings.append(Setting(key, options.defaults[key], "default"))
        setattr(args, action.dest, settings[-1].value)
    return settings


def read_config(path: Path, commands: Mapping[str, CommandOptions],
                ) -> dict[str, dict[str, Found]]:
    """Every table of the file as {command: {key: Found}}, values converted as the
    command line converts them; UserError naming every problem at its place."""
    import tomllib  # here: a run without a configuration file need not import it

    source = str(path)
    data, problem = read_input_bytes(path, MAX_CONFIG_BYTES)  # a pipe or device: refused
    if data is None:
        raise UserError([Diagnostic(source, 0, 0, "cannot read the configuration file: "
                                    f"{problem}")])
    if data.startswith(codecs.BOM_UTF8):  # TOML has none; tomllib says "invalid statement"
        raise UserError([Diagnostic(source, 1, 1, "a byte order mark starts the file: save "
                                    "it as UTF-8 without one, as TOML asks")])
    try:
        text = data.decode("utf-8")
        document = tomllib.loads(text)
    except UnicodeDecodeError as exc:
        line = data[:exc.start].count(b"\n") + 1
        raise UserError([Diagnostic(source, line, 1, "not UTF-8 text")]) from None
    except tomllib.TOMLDecodeError as exc:
        raise UserError([_syntax_error(source, text, exc)]) from None
    except ValueError:  # a whole number past Python's limit of digits (4300)
        line, col = _longest_number(text)
        raise UserError([Diagnostic(source, line, col, "a number of more than "
                                    f"{MAX_NUMBER_DIGITS} digits: no option takes one")]
                        ) from None
    except RecursionError:  # tomllib recurses once per nested array or table
        line, col = _too_deep(text)
        raise UserError([Diagnostic(source, line, col, "not valid TOML: arrays or tables "
                                    f"nested deeper than {MAX_CONFIG_DEPTH}")]) from None
    spots = locate(text)
    problems: list[Diagnostic] = []
    values: dict[str, dict[str, Found]] = {}
    names = sorted(commands)
    tables = ", ".join(f"[{name}]" for name in names[:-1]) + f" and [{names[-1]}]"
    base = path.parent
    for name, table in document.items():
        line, col, _vl, _vc = spots.get((name,), (0, 0, 0, 0))
        if name not in commands and not isinstance(table, dict):
            problems.append(Diagnostic(source, line, col, f"{printable(name)!r} is outside "
                                       "any table: options go under the table of their "
                                       f"command, {tables}"))
            continue
        if name not in commands:
            hint = _did_you_mean(name, names, brackets=True)
            problems.append(Diagnostic(source, line, col, f"unknown table "
                                       f"[{printable(name)}]{hint}: the tables are {tables}, "
                                       "one per command"))
            continue
        if not isinstance(table, dict):
            problems.append(Diagnostic(source, line, col, f"{name} must be a table "
                                       f"([{name}]) of options, not {_kind(table)}"))
            continue
        options = commands[name]
        found: dict[str, Found] = {}
        for key, value in table.items():
            line, col, value_line, value_col = spots.get((name, key), (0, 0, 0, 0))
            if key not in options.actions:
                known = sorted(options.actions)
                problems.append(Diagnostic(source, line, col, f"unknown option "
                                           f"{printable(key)!r} in [{name}]"
                                           f"{_did_you_mean(key, known)}; [{name}] takes "
                                           f"{', '.join(known)}"))
                continue
            try:
                found[key] = Found(options.convert(key, value, base), line, value_line,
                                   value_col)
            except _Invalid as exc:
                problems.append(Diagnostic(source, value_line, value_col,
                                           printable(str(exc))))
        values[name] = found
    if problems:
        raise UserError(sorted(problems, key=lambda d: (d.line, d.col)))
    return values


class _Invalid(Exception):
    """A value the option cannot take; the message names the option."""


def _default(action: argparse.Action) -> Any:
    default = action.default
    if isinstance(default, str) and action.type is not None and callable(action.type):
        return action.type(default)  # as argparse does with a string default
    return default


def _text(key: str, value: Any) -> str:
    """A value of the file as the words of the command line: numbers as written,
    arrays joined by commas (``[1.5, -0.5]`` is ``1.5,-0.5``). A NUL character or a
    whole number longer than any option takes (the command line's own bound) is
    refused here, at its place: either ended in an internal error further on."""
    values = value if isinstance(value, list) else [value]
    for item in values:
        if isinstance(item, str) and "\0" in item:
            raise _Invalid(f"{key}: the value holds a NUL character, which no option can "
                           "take (nor can the command line pass one)")
        if (isinstance(item, int) and not isinstance(item, bool)
                and abs(item) >= 10 ** MAX_NUMBER_DIGITS):
            raise _Invalid(f"{key}: a number of more than {MAX_NUMBER_DIGITS} digits: no "
                           "option takes one")
    if isinstance(value, str):
        return value
    if isinstance(value, int | float) and not isinstance(value, bool):
        return _number(value)
    if isinstance(value, list) and value and all(
            isinstance(v, str | int | float) and not isinstance(v, bool) for v in value):
        return ",".join(v if isinstance(v, str) else _number(v) for v in value)
    raise _Invalid(f"{key}: expected a string, a number or an array of them, "
                   f"not {_kind(value)}")


def _number(value: float) -> str:
    return str(value) if isinstance(value, int) else repr(float(value))


def _kind(value: Any) -> str:
    if isinstance(value, bool):
        return "true or false"
    if isinstance(value, int | float):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "an empty array" if not value else "an array of those values"
    if isinstance(value, dict):
        return "a table"
    return "a date or time"


def _did_you_mean(word: str, candidates: list[str], brackets: bool = False) -> str:
    import difflib  # only for a mistake

    close = difflib.get_close_matches(word, candidates, n=1, cutoff=0.6)
    if not close:
        return ""
    return f" (did you mean [{close[0]}]?)" if brackets else f" (did you mean {close[0]!r}?)"


# The longest whole number an option reads, as on the command line (values.py).
MAX_NUMBER_DIGITS = 19


def _longest_number(text: str) -> tuple[int, int]:
    """Where the longest run of digits in ``text`` starts (line, column): the number
    tomllib could not convert."""
    runs = list(re.finditer(r"\d+", text))
    if not runs:
        return 1, 1
    longest = max(runs, key=lambda match: len(match.group()))
    index = longest.start()
    return text.count("\n", 0, index) + 1, index - (text.rfind("\n", 0, index) + 1) + 1


_TOML_AT = re.compile(r"\(at line (\d+), column (\d+)\)$")


def _too_deep(text: str) -> tuple[int, int]:
    """Where brackets first open past MAX_CONFIG_DEPTH (brackets in strings counted too:
    this only places a message about a file tomllib could not read)."""
    depth = 0
    for index, char in enumerate(text):
        depth += (char in "[{") - (char in "]}")
        if depth > MAX_CONFIG_DEPTH:
            line = text.count("\n", 0, index) + 1
            return line, index - (text.rfind("\n", 0, index) + 1) + 1
    return 1, 1


def _syntax_error(source: str, text: str, exc: tomllib.TOMLDecodeError) -> Diagnostic:
    message = str(exc)
    at = _TOML_AT.search(message)
    if at:
        line, col = int(at.group(1)), int(at.group(2))
        message = message[:at.start()].rstrip()
    else:  # "(at end of document)"
        line = text.count("\n") + 1
        col = len(text) - text.rfind("\n")
        message = re.sub(r"\s*\(at end of document\)$", " at the end of the file", message)
    return Diagnostic(source, line, col, f"not valid TOML: {message[:1].lower()}{message[1:]}")


# --- showing the settings -----------------------------------------------------------


def format_settings(command: str, path: Path | None, settings: list[Setting]) -> str:
    """The settings in effect as TOML lines, each with where it comes from."""
    lines = [f"# micropul-print {command}: the settings in effect "
             f"(configuration file: {path if path is not None else 'none'})",
             f"[{command}]"]
    rows = [(f"{s.key} = {toml_value(s.value)}" if s.value is not None
             else f"# {s.key}: not set", s.source) for s in settings]
    width = max(len(text) for text, _source in rows) if rows else 0
    lines += [f"{text:<{width}}  # {source}" for text, source in rows]
    return "\n".join(lines)


def toml_value(value: Any) -> str:
    """``value`` written as TOML (tuples and sets as arrays)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return f"{value:g}" if isinstance(value, float) else str(value)
    if isinstance(value, frozenset | set):
        value = sorted(value)
    if isinstance(value, list | tuple):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    text = str(value)
    escaped = text.replace("\\", "\\\\").replace('"', '\\"')
    return '"' + re.sub(r"[\x00-\x1f\x7f]", lambda m: f"\\u{ord(m.group()):04x}",
                        escaped) + '"'


# --- where each key is written --------------------------------------------------------

Spot = tuple[int, int, int, int]  # key line, key column, value line, value column


def locate(text: str) -> dict[tuple[str, ...], Spot]:
    """Where each key of a valid TOML document is written: {full key path: (line, col
    of the key, line, col of its value)}, 1-based; a table header's path maps to the
    position of its name (and of it again as the value). Keys of inline tables and
    dotted keys are found too; the first place a table is named is kept."""
    return _Locator(text).run()


class _Locator:
    """A scanner that knows just enough TOML to find keys: strings, comments, arrays
    and inline tables are skipped over whole. The text was already parsed by tomllib,
    so it needs no error handling."""

    BARE = re.compile(r"[A-Za-z0-9_-]+")

    def __init__(self, text: str) -> None:
        self.text = text
        self.i = 0
        self.starts = [0] + [m.end() for m in re.finditer("\n", text)]
        self.found: dict[tuple[str, ...], Spot] = {}

    def at(self, index: int) -> tuple[int, int]:
        line = bisect_right(self.starts, index)
        return line, index - self.starts[line - 1] + 1

    def run(self) -> dict[tuple[str, ...], Spot]:
        table: tuple[str, ...] = ()
        text = self.text
        while True:
            self.skip_blank(newlines=True)
            if self.i >= len(text):
                return self.found
            if text[self.i] == "[":
                double = text.startswith("[[", self.i)
                self.i += 2 if double else 1
                table = ()
                for part, start in self.key_path():
                    table = (*table, part)
                    self.remember(table, start)
                self.i += 2 if double else 1  # the closing bracket(s)
            else:
                self.key_value(table)
            self.skip_line()

    def key_value(self, table: tuple[str, ...]) -> None:
        path, start = table, self.i
        for part, start in self.key_path():
            path = (*path, part)
            self.remember(path, start)  # each dotted prefix names a table
        self.skip_blank()
        self.i += 1  # "="
        self.skip_blank()
        self.found[path] = (*self.at(start), *self.at(self.i))
        self.value(path)

    def remember(self, path: tuple[str, ...], start: int) -> None:
        if path not in self.found:
            self.found[path] = (*self.at(start), *self.at(start))

    def key_path(self) -> Iterator[tuple[str, int]]:
        """The parts of a dotted key, each with where it starts."""
        while True:
            self.skip_blank()
            start = self.i
            yield self.key(), start
            self.skip_blank()
            if self.text.startswith(".", self.i):
                self.i += 1
                continue
            return

    def key(self) -> str:
        text = self.text
        if text[self.i] in "\"'":
            end = self.string_end()
            raw = text[self.i:end]
            self.i = end
            import tomllib  # read_config imported it

            key: str = next(iter(tomllib.loads(f"{raw} = 0")))
            return key
        match = self.BARE.match(text, self.i)
        assert match is not None, "tomllib accepted the document"
        self.i = match.end()
        return match.group()

    def value(self, path: tuple[str, ...]) -> None:
        text = self.text
        char = text[self.i] if self.i < len(text) else ""
        if char in "\"'":
            self.i = self.string_end()
        elif char in "[{":  # an array (may span lines) or an inline table (may not)
            array = char == "["
            self.i += 1
            while True:
                self.skip_blank(newlines=array)
                if text[self.i] == ("]" if array else "}"):
                    self.i += 1
                    return
                if text[self.i] == ",":
                    self.i += 1
                    continue
                if array:
                    self.value(path)
                else:
                    self.key_value(path)
        else:  # a number, a boolean or a date: up to what ends a value
            match = re.compile(r"[^,\]}\n#]*").match(text, self.i)
            assert match is not None
            self.i = match.start() + len(match.group().rstrip())

    def string_end(self) -> int:
        """The index just past the string starting at self.i."""
        text, i = self.text, self.i
        quote = text[i]
        if text.startswith(quote * 3, i):
            j = i + 3
            while True:
                if quote == '"' and text[j] == "\\":
                    j += 2
                    continue
                if text.startswith(quote * 3, j):
                    j += 3
                    while j < len(text) and text[j] == quote:  # up to two more belong in
                        j += 1
                    return j
                j += 1
        j = i + 1
        while text[j] != quote:
            j += 2 if quote == '"' and text[j] == "\\" else 1
        return j + 1

    def skip_blank(self, newlines: bool = False) -> None:
        text = self.text
        while self.i < len(text):
            char = text[self.i]
            if char in " \t\r" or (newlines and char == "\n"):
                self.i += 1
            elif char == "#":
                end = text.find("\n", self.i)
                self.i = len(text) if end < 0 else end
            else:
                return

    def skip_line(self) -> None:
        self.skip_blank()
        if self.i < len(self.text) and self.text[self.i] == "\n":
            self.i += 1
