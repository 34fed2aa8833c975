"""`micropul-print init [--game G] DIR`: start a variant of a game in DIR, ready to edit
and build: the game's shipped catalogue (with the JSON Schema its modeline names, beside
it, so that editors check it as it is typed), a theme, and a configuration file whose
tables point every command at them. Existing files are never overwritten.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import re
import sys
from pathlib import Path

HELP = "start a variant of a game in a folder: its catalogue, a theme and a configuration"

THEME_FILE = "theme.yaml"
STARTING_THEME = "classic"
# The line a catalogue's comment header carries for yaml-language-server.
MODELINE = re.compile(r"^#\s*yaml-language-server:\s*\$schema=(\S+)\s*$", re.MULTILINE)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    from micropul_print.game import registry

    names = registry.game_names()
    parser.add_argument("folder", metavar="DIR",
                        help="where to write the files (made if need be)")
    parser.add_argument("--game", choices=names, default=None,
                        help=f"the game whose catalogue is copied (default: {names[0]})")


def run(args: argparse.Namespace) -> int:
    from micropul_print.base.errors import Diagnostic, UsageError, UserError, printable
    from micropul_print.commands.values import path_too_long
    from micropul_print.config import CONFIG_NAME
    from micropul_print.draw.theme import THEMES_DIR
    from micropul_print.game import registry
    from micropul_print.kit.outputs import check_directory_target, not_a_directory, write_atomic

    if not args.folder.strip():  # an unset shell variable, not "here"
        raise UsageError("argument DIR: an empty folder name; give a folder, . for this one")
    too_long = path_too_long(args.folder, "folder")
    if too_long:
        raise UsageError(f"argument DIR: {too_long}")
    game = registry.get(args.game) if args.game else registry.default_game()
    folder = Path(args.folder)
    shipped = game.shipped_catalogue()
    catalogue_text = shipped.read_text(encoding="utf-8")
    variant_text = named_variant(catalogue_text, variant_name(folder, game.info.title))
    files: dict[str, bytes] = {shipped.name: variant_text.encode("utf-8")}
    schema = schema_named(catalogue_text)
    if schema is not None and (shipped.parent / schema).is_file():
        files[schema] = (shipped.parent / schema).read_bytes()
    files[THEME_FILE] = (THEMES_DIR / f"{STARTING_THEME}.yaml").read_bytes()
    files[CONFIG_NAME] = configuration(shipped.name, game.info.title).encode("utf-8")

    in_the_way = not_a_directory(folder)  # a file, a device (/dev/null), as it or above
    if in_the_way:
        raise UserError([Diagnostic(str(folder), 0, 0, f"{in_the_way}: init writes its "
                                    "files into a folder")])
    if folder.is_symlink() and not folder.exists():  # else "cannot write: File exists"
        raise UserError([Diagnostic(str(folder), 0, 0, f"a link to {os.readlink(folder)}, "
                                    "which leads nowhere: make that folder, or choose "
                                    "another one")])
    # A read-only place, as every output says it ("cannot write: Operation not permitted")
    check_directory_target(folder, "the variant")
    # lexists: a symbolic link that leads nowhere is a file of the user's too.
    there = [name for name in files if os.path.lexists(folder / name)]
    if there:  # every one named, and nothing written
        raise UserError([Diagnostic(str(folder / name), 0, 0, "already exists: init writes "
                                    "only new files (move it away, or choose another "
                                    "folder)") for name in there])
    # All or nothing: a file-size limit or Ctrl-C at the second file left the first,
    # and the next init refused it ("already exists").
    made = [parent for parent in (folder, *folder.parents) if not os.path.lexists(parent)]
    written: list[Path] = []
    target = folder
    try:
        for name, data in files.items():
            target = folder / name
            write_atomic(target, data)
            written.append(target)
    except BaseException as exc:
        for path in written:
            with contextlib.suppress(OSError):
                path.unlink()
        for parent in made:  # deepest first, as init made them
            with contextlib.suppress(OSError):
                parent.rmdir()
        if not isinstance(exc, OSError):
            raise
        raise UserError([Diagnostic(str(target), 0, 0,
                                    f"cannot write: {exc.strerror or exc}")]) from None
    for name in files:  # a folder's name may hold ESC or U+202E: printed, they act
        print(printable(str(folder / name)))
    print(f"A variant of {game.info.title} in {printable(str(folder))}: edit {shipped.name} "
          f"and {THEME_FILE}, "
          f"then, in that folder, micropul-print check and micropul-print build "
          "(--watch rebuilds as you edit).", file=sys.stderr)
    return 0


# The catalogue's top-level ``name:`` line (its set name).
NAME_LINE = re.compile(r"^name:[^\n]*$", re.MULTILINE)
MAX_VARIANT_NAME = 60  # a set name is a heading: a folder's long name is cut


def variant_name(folder: Path, title: str) -> str:
    """The set name of a new variant: its folder's name (``my-variant``), so that
    ``check`` does not take it for the official set renamed, and every report tells it
    from the official one; ``TITLE variant`` when the folder's name is the game's own
    (or none, the root)."""
    from micropul_print.backends.fonts import missing_letters

    # Only what the sheets can print: a letter Lato lacks (an emoji) warned on every
    # check of the fresh variant; a control character (a newline) broke its headings.
    name = "".join(char if char.isprintable() else " " for char in folder.resolve().name)
    lacking = set(missing_letters(name))
    name = "".join(char for char in name if char not in lacking)
    name = " ".join(name.split())[:MAX_VARIANT_NAME].strip()
    if not name or name.casefold() == title.casefold():
        return f"{title} variant"
    return name


def named_variant(catalogue_text: str, name: str) -> str:
    """The shipped catalogue's text with ``name`` as its set name (the rest as it is,
    comments and all); quoted as JSON, which YAML reads as it is whatever the name
    holds."""
    return NAME_LINE.sub(lambda _: "name: " + json.dumps(name, ensure_ascii=False),
                         catalogue_text, count=1)


def schema_named(catalogue_text: str) -> str | None:
    """The schema file a catalogue's modeline names beside it, if it names one there
    (a plain file name, not a URL nor a path)."""
    found = MODELINE.search(catalogue_text)
    if found is None:
        return None
    name = found.group(1)
    return name if re.fullmatch(r"[\w.-]+", name) and not name.startswith(".") else None


def configuration(catalogue: str, title: str) -> str:
    """The configuration file of a new variant: every command reads the folder's
    catalogue and theme; the build's other options are listed, commented out, with
    their defaults."""
    from micropul_print.base.paper import DEFAULT_PAPER, PAPER_NAMES
    from micropul_print.cli import configurable_commands
    from micropul_print.config import toml_value

    commands = configurable_commands()
    chosen = {"catalogue": catalogue, "theme": THEME_FILE}
    lines = [
        f"# micropul-print settings of this {title} variant: every command run in this",
        "# folder reads them (docs/configuration.md), and the command line wins over them.",
        "# Paths are relative to this file.",
    ]
    for name, options in sorted(commands.items(), key=lambda item: item[0] != "build"):
        lines += ["", f"[{name}]"]
        for key in options.actions:
            if key in chosen:
                lines.append(f"{key} = {toml_value(chosen[key])}")
        if name != "build":
            continue
        # The paper printed on, set once: the build makes the kit for it alone.
        lines += [f"# The paper you print on: {' or '.join(map(repr, PAPER_NAMES))} (\"all\": "
                  "the kit on each).".replace("'", '"'),
                  f"paper = {toml_value(DEFAULT_PAPER)}"]
        for key, default in options.defaults.items():
            if key not in chosen and default is not None and key not in ("game", "paper"):
                lines.append(f"# {key} = {toml_value(default)}")
    return "\n".join(lines) + "\n"
