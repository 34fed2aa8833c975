"""`micropul-print calibrate --offset X,Y --scale X,Y`: save what the calibration page
reads into the configuration file, so that every later build uses it.

The values are checked by the same functions as build's ``--back-offset`` and
``--scale``, and written into the ``[build]`` table of ``micropul-print.toml`` (or
``--config FILE``), which is created if need be; the file's other lines and comments
stay as they are (tomlkit edits the document in place). Without values, the command
says what the file holds and how to read the page.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from micropul_print.commands.build import _offset, _scale
from micropul_print.commands.values import file_name

HELP = "save the back offset and scale read on the calibration page into the configuration"

OFFSET_KEY, SCALE_KEY = "back-offset", "scale"  # build's options, as the file names them


def add_arguments(parser: argparse.ArgumentParser) -> None:
    from micropul_print.config import CONFIG_NAME

    parser.add_argument("--offset", type=_offset, metavar="X,Y",
                        help="the back offset in mm read on the gauges offset X and offset Y "
                             "(saved as the build's back-offset)")
    parser.add_argument("--scale", type=_scale, metavar="X[,Y]",
                        help="the printer's scale in per cent read on the lines scale X and "
                             "scale Y (one value for both)")
    parser.add_argument("--config", dest="config_file", metavar="FILE", default=CONFIG_NAME,
                        type=file_name,
                        help=f"the configuration file to write (default: ./{CONFIG_NAME})")


def run(args: argparse.Namespace) -> int:
    from micropul_print.cli import configurable_commands
    from micropul_print.config import read_config, toml_value

    path = Path(args.config_file)
    commands = configurable_commands()
    # A file with problems is reported, never edited: each problem at its place.
    current = read_config(path, commands).get("build", {}) if path.exists() else {}
    defaults = commands["build"].defaults
    values = {OFFSET_KEY: args.offset, SCALE_KEY: args.scale}
    if all(value is None for value in values.values()):
        for key in values:
            found = current.get(key)
            value, line = (found.value, found.line) if found else (defaults[key], 0)
            where = f"{path}:{line}" if line else "the default"
            print(f"{key} = {toml_value(value)}  ({where})")
        print("Print pages 1-2 of a tile sheet double-sided at 100 %, read the gauges and "
              "scale lines of the calibration page, then: micropul-print calibrate "
              "--offset X,Y --scale X,Y", file=sys.stderr)
        return 0
    changed = {key: value for key, value in values.items() if value is not None}
    from micropul_print.kit.outputs import check_file_target

    check_file_target(path, "the configuration")  # a read-only place, as every output says
    write_build_settings(path, changed)
    for key, value in changed.items():
        found = current.get(key)
        before = found.value if found else defaults[key]
        print(f"{path}: [build] {key} = {toml_value(value)} (was {toml_value(before)})")
    print("The next build uses them; its calibration page's middle pairs and the ruler's "
          "150 mm should then read the same numbers.", file=sys.stderr)
    return 0


def write_build_settings(target: Path, values: dict[str, tuple[float, float]]) -> None:
    """Set ``values`` in the file's [build] table, creating the file or the table if
    need be and keeping every other line; written atomically (a symbolic link is
    written through, and stays a link)."""
    import tomlkit

    from micropul_print.base.errors import Diagnostic, UserError
    from micropul_print.base.yamlsource import read_input_bytes
    from micropul_print.kit.outputs import write_atomic

    text = ""
    if target.exists():  # a pipe or device is refused, never awaited
        data, problem = read_input_bytes(target)
        if data is None:
            raise UserError([Diagnostic(str(target), 0, 0, f"cannot read: {problem}")])
        text = data.decode("utf-8", errors="replace")
    document = tomlkit.parse(text)
    table = document.get("build")
    if table is None:
        if text.strip():
            document.add(tomlkit.nl())
        table = tomlkit.table()
        document.add("build", table)
    for key, (x, y) in values.items():
        old = table.get(key)
        if isinstance(old, tomlkit.items.Array) and len(old) == 2:
            old[0], old[1] = x, y  # in place: comments between the items stay
            continue
        array = tomlkit.array()
        array.extend([x, y])
        table[key] = array
    written = tomlkit.dumps(document)
    if "\r\n" in text:  # a file saved on Windows: tomlkit ends the lines it adds by LF
        written = written.replace("\r\n", "\n").replace("\n", "\r\n")
    try:  # through a link, to the shared file it names: renaming over the link unlinked it
        write_atomic(target.resolve(), written.encode("utf-8"))
    except OSError as exc:
        raise UserError([Diagnostic(str(target), 0, 0,
                                    f"cannot write: {exc.strerror or exc}")]) from None
