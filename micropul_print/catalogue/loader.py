"""Reading a tile catalogue (YAML) into the validated model of its game.

The header key ``game`` names a registered game (micropul_print.game.registry), whose own
reader turns the rest of the file into its catalogue. Every problem in the file is
collected in one pass and reported at its own line and column; the format is described
in docs/catalogue.md.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from micropul_print.base.errors import Diagnostic, Severity, UserError, quoted, usable
from micropul_print.base.yamlsource import (
    YamlMapping,
    YamlNode,
    check_keys,
    describe,
    expect_int,
    expect_sequence,
    expect_text,
    join_choices,
    read_document,
)
from micropul_print.catalogue.header import CatalogueHeader as CatalogueHeader
from micropul_print.game import registry
from micropul_print.game.api import Catalogue
from micropul_print.game.plugin import Game


def shipped_catalogue(game: str | None) -> Path:
    """The catalogue shipped with ``game`` (the first registered game's by default)."""
    return (registry.default_game() if game is None else registry.get(game)).shipped_catalogue()


_HEADER_KEYS = ("game", "name", "tile_count", "tiles")


def read_catalogue(path: str | Path) -> tuple[Any, list[Diagnostic]]:
    """The catalogue (None if there is any error) and every diagnostic, in file order."""
    return read_document(path, lambda root, out: _read(root, str(path), out))


def require_game(catalogue: Catalogue, game: str | None) -> None:
    """Raise UserError when a command was given both a catalogue and a ``--game`` it is
    not of (the file's own ``game:`` decides which rules apply, so one must go)."""
    if game is None or catalogue.game == game:
        return
    line, col = catalogue.game_at
    raise UserError([Diagnostic(catalogue.source, line, col,
                                f"this is a {catalogue.game} catalogue, but --game asks for "
                                f"{game}: leave --game out, or give a {game} catalogue")])


def load_catalogue(path: str | Path | None = None, strict: bool = False) -> Any:
    """Read a catalogue (None: the first registered game's shipped one); raise
    UserError with every error (and warning, if strict)."""
    return usable(*read_catalogue(shipped_catalogue(None) if path is None else path), strict)


def _read(root: YamlNode, source: str, out: list[Diagnostic]) -> Catalogue | None:
    if not isinstance(root, YamlMapping):
        out.append(
            root.diagnostic(
                f"a catalogue must be a mapping with the keys {join_choices(_HEADER_KEYS, 'and')}, "
                f"got {describe(root)}"
            )
        )
        return None
    game_node = root.get("game")
    game = None if game_node is None else expect_text(game_node, "'game'", out)
    schema: Game | None = None
    if game is not None and game_node is not None:
        names = registry.game_names()
        if game in names:
            schema = registry.get(game)
        else:
            out.append(
                game_node.diagnostic(
                    f"unknown game {quoted(game)} (expected {join_choices(names)})")
            )
    game_keys = () if schema is None else schema.info.catalogue_keys
    out.extend(check_keys(root, "the catalogue", (*_HEADER_KEYS, *game_keys)))
    name_node = root.get("name")
    name = None if name_node is None else expect_text(name_node, "'name'", out)
    if name is not None and name_node is not None and not name.isascii():
        from micropul_print.backends.fonts import missing_letters

        missing = missing_letters(name)
        if missing:  # the name is printed on every sheet, in Lato
            letters = ", ".join(f"{quoted(char)} (U+{ord(char):04X})" for char in missing)
            # A warning: the catalogue is still good for everything but the footers
            # (--strict makes it an error, as every warning).
            out.append(name_node.diagnostic(
                f"'name' has {letters}, which the font of the sheets, Lato, lacks: the PDF "
                f"would leave {'them' if len(missing) > 1 else 'it'} out",
                Severity.WARNING))
    count_node = root.get("tile_count")
    tile_count = None if count_node is None else expect_int(count_node, "'tile_count'", out)
    tiles_node = root.get("tiles")
    tiles: tuple[YamlNode, ...] = ()
    if tiles_node is not None:
        sequence = expect_sequence(tiles_node, "'tiles'", out)
        if sequence is not None:
            tiles = sequence.items
    if schema is None or game is None:
        return None
    tiles_key = root.key_node("tiles")
    header = CatalogueHeader(game, name, tile_count, count_node, tiles, tiles_key or root,
                             source, root, (game_node.line, game_node.col) if game_node else (0, 0))
    return schema.read_catalogue(header, out)
