"""Reading Micropul's catalogue (``game: micropul``): the tile entries into the model.

Called by the catalogue loader (micropul_print.catalogue.loader) with the header every
catalogue has; every problem is reported at its own line and column. The format is
described in docs/catalogue.md.
"""

from __future__ import annotations

from micropul_print.base.errors import Diagnostic, errors_in, quoted
from micropul_print.base.yamlsource import (
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
    join_choices,
)
from micropul_print.catalogue.header import CatalogueHeader
from micropul_print.games.micropul.model import (
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

# Catalogue symbols and the model values they stand for.
_QUADRANT_SYMBOLS = {"W": WHITE, "B": BLACK, "1": DOT, "2": DOUBLE, "P": PLUS, ".": EMPTY}
_COLOUR_SYMBOLS = {"W": WHITE, "B": BLACK}
_CATALYST_SYMBOLS = {"1": DOT, "2": DOUBLE, "P": PLUS}
_SYMBOLS_TEXT = ", ".join(_QUADRANT_SYMBOLS)
# The official set has 48 tiles; a designer's test set may have thousands. The set check
# is linear in the number of tiles (10,000 tiles: seconds, some 170 MB); past this many
# a catalogue is refused before any work.
MAX_MICROPUL_TILES = 10_000


def read_micropul(header: CatalogueHeader, out: list[Diagnostic]) -> Catalogue | None:
    if not header.tiles and isinstance(header.root.get("tiles"), YamlSequence):
        out.append(header.tiles_node.diagnostic(
            "'tiles' is empty (expected the tiles of the set, a start tile among them)"))
        return None
    if len(header.tiles) > MAX_MICROPUL_TILES:
        out.append(header.tiles_node.diagnostic(
            f"{len(header.tiles):,} tiles are listed (expected at most {MAX_MICROPUL_TILES:,})"))
        return None
    tiles: list[Tile] = []
    tile_at: dict[int, tuple[int, int]] = {}
    seen: dict[int, YamlNode] = {}
    starts: list[tuple[Tile | None, YamlNode]] = []  # tiles marked 'start: true'
    for entry in header.tiles:
        tile, start_node = _micropul_tile(entry, seen, out)
        if tile is not None:
            tiles.append(tile)
            tile_at[tile.id] = (entry.line, entry.col)
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
                    f"got {first_start.face_text()}"
                )
            )
    if header.name is None or errors_in(out):
        return None
    return Catalogue(
        game=header.game,
        name=header.name,
        tiles=tuple(sorted(tiles, key=lambda t: t.id)),
        source=header.source,
        game_at=header.game_at,
        tile_at=tile_at,
        tiles_at=(header.tiles_node.line, header.tiles_node.col),
        name_at=_at(header.root.get("name")),
    )


def _at(node: YamlNode | None) -> tuple[int, int]:
    return (0, 0) if node is None else (node.line, node.col)


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
