"""Reading a tile catalogue (tiledefs/*.yaml) into the validated model.

The header key ``game`` selects the schema that reads the rest of the file: each game
registers one reader in :data:`GAMES`. Every problem in the file is collected in one
pass and reported at its own line and column; the format is described in
docs/catalogue.md.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path

from micropul_print.catalogue.cellulae import CELLULAE_KEYS, read_cellulae
from micropul_print.catalogue.model import (
    BLACK,
    DOT,
    DOUBLE,
    EMPTY,
    MICROPUL,
    PLUS,
    WHITE,
    BigMicropul,
    Catalogue,
    Tile,
)
from micropul_print.errors import Diagnostic, UserError, errors_in, quoted, usable
from micropul_print.yamlsource import (
    YamlMapping,
    YamlNode,
    YamlScalar,
    YamlSequence,
    check_keys,
    describe,
    expect_bool,
    expect_int,
    expect_mapping,
    expect_sequence,
    expect_text,
    join_choices,
    read_document,
)

# tiledefs/ sits beside the package in the repository (editable install).
TILEDEFS: Path = Path(__file__).resolve().parents[2] / "tiledefs"
DEFAULT_CATALOGUE: Path = TILEDEFS / "micropul.yaml"


def shipped_catalogue(game: str | None) -> Path:
    """The catalogue shipped for ``game`` (tiledefs/<game>.yaml); Micropul's by default."""
    return TILEDEFS / f"{game}.yaml" if game else DEFAULT_CATALOGUE

_HEADER_KEYS = ("game", "name", "tile_count", "tiles")


@dataclass(frozen=True)
class CatalogueHeader:
    """The keys every catalogue has, whatever the game."""

    game: str
    name: str | None
    tile_count: int | None
    tile_count_node: YamlNode | None
    tiles: tuple[YamlNode, ...]
    tiles_node: YamlNode  # the 'tiles' key: where problems of the whole list are reported
    source: str
    root: YamlMapping  # the whole file, for the game's own top-level keys


# A game's reader turns the tile entries into a catalogue, or None if it found errors.
GameReader = Callable[[CatalogueHeader, list[Diagnostic]], Catalogue | None]


@dataclass(frozen=True)
class GameSchema:
    """How one game's catalogue is read: its reader, and the top-level keys it adds to
    the header keys every catalogue has (the loader checks them, like the header's)."""

    read: GameReader
    required_keys: tuple[str, ...] = ()


def read_catalogue(path: str | Path) -> tuple[Catalogue | None, list[Diagnostic]]:
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


def load_catalogue(path: str | Path = DEFAULT_CATALOGUE, strict: bool = False) -> Catalogue:
    """Read a catalogue; raise UserError with every error (and warning, if strict)."""
    return usable(*read_catalogue(path), strict)


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
    schema = None
    if game is not None and game_node is not None:
        schema = GAMES.get(game)
        if schema is None:
            out.append(
                game_node.diagnostic(
                    f"unknown game {quoted(game)} (expected {join_choices(list(GAMES))})"
                )
            )
    game_keys = () if schema is None else schema.required_keys
    out.extend(check_keys(root, "the catalogue", (*_HEADER_KEYS, *game_keys)))
    name_node = root.get("name")
    name = None if name_node is None else expect_text(name_node, "'name'", out)
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
    header = CatalogueHeader(
        game, name, tile_count, count_node, tiles, tiles_key or root, source, root
    )
    catalogue = schema.read(header, out)
    if catalogue is None or game_node is None:
        return catalogue
    return replace(catalogue, game_at=(game_node.line, game_node.col))


# ---------------------------------------------------------------------------
# Micropul

# Catalogue symbols and the model values they stand for.
_QUADRANT_SYMBOLS = {"W": WHITE, "B": BLACK, "1": DOT, "2": DOUBLE, "P": PLUS, ".": EMPTY}
_COLOUR_SYMBOLS = {"W": WHITE, "B": BLACK}
_CATALYST_SYMBOLS = {"1": DOT, "2": DOUBLE, "P": PLUS}
_SYMBOLS_TEXT = ", ".join(_QUADRANT_SYMBOLS)
_TILE_KEYS = ("id", "face", "big", "start")
# The official set has 48 tiles. The set check compares every pair of tiles: 1,000
# tiles took 28 s, 12,000 ran past 10 minutes and 11 GB.
MAX_MICROPUL_TILES = 200


def _read_micropul(header: CatalogueHeader, out: list[Diagnostic]) -> Catalogue | None:
    if not header.tiles and isinstance(header.root.get("tiles"), YamlSequence):
        out.append(header.tiles_node.diagnostic(
            "'tiles' is empty (expected the tiles of the set, a start tile among them)"))
        return None
    if len(header.tiles) > MAX_MICROPUL_TILES:
        out.append(header.tiles_node.diagnostic(
            f"{len(header.tiles)} tiles are listed (expected at most {MAX_MICROPUL_TILES})"))
        return None
    tiles: list[Tile] = []
    seen: dict[int, YamlNode] = {}
    starts: list[tuple[Tile | None, YamlNode]] = []  # tiles marked 'start: true'
    for entry in header.tiles:
        tile, start_node = _micropul_tile(entry, seen, out)
        if tile is not None:
            tiles.append(tile)
        if start_node is not None:
            starts.append((tile, start_node))
    listed = len(header.tiles)
    count_node = header.tile_count_node
    if header.tile_count is not None and count_node is not None and header.tile_count != listed:
        out.append(
            count_node.diagnostic(
                f"'tile_count' is {header.tile_count} but {listed} tiles are listed "
                "(expected them to agree)"
            )
        )
    if header.tiles and not starts:
        out.append(
            header.tiles_node.diagnostic("no start tile (expected one tile with 'start: true')")
        )
    for _, node in starts[1:]:
        out.append(
            node.diagnostic(
                f"a second start tile (the first is at line {starts[0][1].line}; "
                "expected exactly one)"
            )
        )
    first_start = starts[0][0] if starts else None
    if first_start is not None:
        whites = first_start.quadrants.count(WHITE)
        blacks = first_start.quadrants.count(BLACK)
        if first_start.big is not None or (whites, blacks) != (2, 2):
            out.append(
                starts[0][1].diagnostic(
                    f"start tile {first_start.id} must have two white and two black micropul, "
                    f"got {_face_text(first_start)}"
                )
            )
    if header.name is None or errors_in(out):
        return None
    return Catalogue(
        game=header.game,
        name=header.name,
        tiles=tuple(sorted(tiles, key=lambda t: t.id)),
        source=header.source,
    )


def _micropul_tile(
    node: YamlNode, seen: dict[int, YamlNode], out: list[Diagnostic]
) -> tuple[Tile | None, YamlNode | None]:
    """The tile (None if the entry has errors) and its ``start`` node if it says true."""
    entry = expect_mapping(node, "a tile", out)
    if entry is None:
        return None, None
    before = len(out)
    out.extend(check_keys(entry, "tile", ["id"], ["face", "big", "start"]))
    tile_id = _tile_id(entry, seen, out)
    face_node, big_node = entry.get("face"), entry.get("big")
    quadrants: tuple[str, str, str, str] | None = None
    big: BigMicropul | None = None
    if face_node is not None and big_node is not None:
        out.append(
            _later(face_node, big_node).diagnostic("a tile has either 'face' or 'big', not both")
        )
    elif face_node is None and big_node is None:
        out.append(entry.diagnostic("a tile needs 'face' (two rows of symbols) or 'big'"))
    elif face_node is not None:
        quadrants = _face(face_node, out)
    elif big_node is not None:
        big = _big(big_node, out)
        if big is not None:
            quadrants = (big.colour,) * 4
    start_node = entry.get("start")
    start = start_node is not None and bool(expect_bool(start_node, "'start'", out))
    marked = start_node if start else None
    if errors_in(out[before:]) or tile_id is None or quadrants is None:
        return None, marked
    return Tile(tile_id, quadrants, start=start, big=big), marked


def _later(first: YamlNode, second: YamlNode) -> YamlNode:
    return max(first, second, key=lambda node: (node.line, node.col))


def _tile_id(entry: YamlMapping, seen: dict[int, YamlNode], out: list[Diagnostic]) -> int | None:
    node = entry.get("id")
    if node is None:
        return None
    tile_id = expect_int(node, "'id'", out)
    if tile_id is None:
        return None
    if tile_id < 1:
        out.append(node.diagnostic(f"tile id {tile_id} is not allowed (expected 1 or more)"))
        return None
    first = seen.setdefault(tile_id, node)
    if first is not node:
        out.append(
            node.diagnostic(
                f"duplicate tile id {tile_id} (already used at line {first.line}; "
                "expected each id once)"
            )
        )
        return None
    return tile_id


def _face(node: YamlNode, out: list[Diagnostic]) -> tuple[str, str, str, str] | None:
    rows = expect_sequence(node, "'face'", out)
    if rows is None:
        return None
    if len(rows.items) != 2:
        out.append(
            rows.diagnostic(f"'face' has {len(rows.items)} rows (expected 2 rows of 2 symbols)")
        )
        return None
    read = [_row(row, out) for row in rows.items]
    top, bottom = read
    if top is None or bottom is None:
        return None
    # Rows read left to right; quadrants run clockwise: tl, tr, br, bl.
    quadrants = (top[0], top[1], bottom[1], bottom[0])
    if not any(q in MICROPUL for q in quadrants):
        out.append(node.diagnostic("tile has no micropul (expected at least one W or B)"))
        return None
    return quadrants


def _row(node: YamlNode, out: list[Diagnostic]) -> tuple[str, str] | None:
    if not isinstance(node, YamlScalar) or node.tag == "null":
        out.append(node.diagnostic(f"a row must be two symbols like 'W .', got {describe(node)}"))
        return None
    text = node.raw
    symbols = text.split(" ")
    if "" in symbols or len(symbols) != 2:
        if "" not in symbols and all(len(s) == 1 for s in symbols):
            count = len(symbols)
            problem = f"row {quoted(text)} has {count} symbol{'' if count == 1 else 's'}"
        else:
            problem = f"row {quoted(text)} is not two symbols separated by one space"
        out.append(node.diagnostic(f"{problem} (expected 2, like 'W .')"))
        return None
    values: list[str] = []
    offset = 0
    for symbol in symbols:
        value = _QUADRANT_SYMBOLS.get(symbol)
        if value is None:
            out.append(
                node.where_at(offset).diagnostic(
                    f"unknown symbol {quoted(symbol)} (expected one of {_SYMBOLS_TEXT})"
                )
            )
        else:
            values.append(value)
        offset += len(symbol) + 1
    if len(values) != 2:
        return None
    return values[0], values[1]


def _big(node: YamlNode, out: list[Diagnostic]) -> BigMicropul | None:
    mapping = expect_mapping(node, "'big'", out)
    if mapping is None:
        return None
    before = len(out)
    out.extend(check_keys(mapping, "'big'", ["colour", "catalyst"]))
    colour = _symbol(mapping.get("colour"), _COLOUR_SYMBOLS, "big micropul colour", out)
    catalyst = _symbol(mapping.get("catalyst"), _CATALYST_SYMBOLS, "big micropul catalyst", out)
    if errors_in(out[before:]) or colour is None or catalyst is None:
        return None
    return BigMicropul(colour, catalyst)


def _symbol(
    node: YamlNode | None, symbols: dict[str, str], what: str, out: list[Diagnostic]
) -> str | None:
    if node is None:
        return None
    text = node.raw if isinstance(node, YamlScalar) else None
    value = None if text is None else symbols.get(text)
    if value is None:
        shown = quoted(text) if text is not None else describe(node)
        out.append(
            node.diagnostic(f"unknown {what} {shown} (expected {join_choices(list(symbols))})")
        )
    return value


def _face_text(tile: Tile) -> str:
    if tile.big is not None:
        return f"a big {tile.big.colour} micropul"
    symbol = {value: key for key, value in _QUADRANT_SYMBOLS.items()}
    tl, tr, br, bl = (symbol[q] for q in tile.quadrants)
    return f"'{tl} {tr}' above '{bl} {br}'"


GAMES: dict[str, GameSchema] = {
    "micropul": GameSchema(_read_micropul),
    "cellulae": GameSchema(read_cellulae, CELLULAE_KEYS),
}
