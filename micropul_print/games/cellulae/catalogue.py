"""The Cellulae catalogue (``game: cellulae``): model and reader.

A Cellulae set is one kind of tile, printed many times: white on one face, black on
the other. The catalogue says who made the game, how the two faces look (one mark
filling the face, named for the theme, like a Micropul face), the boards it is played
on with the tiles each needs, and the printed tile size. Format: docs/cellulae.md.

The loader calls the reader through the game plugin (micropul_print.games.cellulae);
it checks every key with the same helpers, and reports at the same file:line:col.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from micropul_print.base.errors import Diagnostic, errors_in, quoted
from micropul_print.base.yamlsource import (
    Where,
    YamlMapping,
    YamlNode,
    YamlScalar,
    check_keys,
    describe,
    expect_int,
    expect_mapping,
    expect_sequence,
    expect_text,
    explain,
    join_choices,
    number_value,
)
from micropul_print.catalogue.header import CatalogueHeader

GAME = "cellulae"
WHITE = "white"
BLACK = "black"
FACE_COLOURS = (WHITE, BLACK)

# Bounds that keep a check and a build short: the set check plays its games on every
# board (a 99 x 99 board took 6 s, 1001 x 1001 over a minute), and a 25 x 25 board of
# 30 mm tiles is already 75 cm across.
MAX_BOARD_SIDE = 25
MAX_TILES = 1000


@dataclass(frozen=True)
class CellFace:
    """One face of the tile: the player colour it shows, and the theme mark that fills it."""

    colour: str  # WHITE or BLACK
    mark: str  # a theme mark name, drawn over the whole face (e.g. square-light)
    # Where the mark is written, so that a theme without it is reported there.
    mark_where: Where | None = field(default=None, compare=False)


@dataclass(frozen=True)
class BoardSize:
    side: int  # squares along each edge (odd)
    tiles: int  # tiles the board needs: one per square
    # (line, column) of its entry, for the set check's messages ((0, 0): unknown)
    at: tuple[int, int] = field(default=(0, 0), compare=False, repr=False)

    @property
    def label(self) -> str:
        return f"{self.side} × {self.side}"


@dataclass(frozen=True)
class CellulaeCatalogue:
    """A Cellulae set: what :class:`micropul_print.game.api.Catalogue` asks of every
    game's catalogue (``game``, ``name``, ``source``, ``game_at``), and its own parts."""

    game: str
    name: str
    source: str = ""
    # (line, column) of the file's game key, for messages about the game (0, 0: unknown)
    game_at: tuple[int, int] = field(default=(0, 0), compare=False, repr=False)
    author: str = ""
    faces: tuple[CellFace, ...] = ()  # the tile's two faces: white, then black
    tile_total: int = 0  # tiles in the printed set
    boards: tuple[BoardSize, ...] = ()  # by side, smallest first
    tile_size_mm: float = 30.0
    # (line, column) of top-level keys (name, author, tile_size_mm, boards, tile_count),
    # for the set check's messages; a key absent: unknown.
    key_at: dict[str, tuple[int, int]] = field(default_factory=dict, compare=False,
                                               repr=False)

    def face(self, colour: str) -> CellFace:
        return next(face for face in self.faces if face.colour == colour)

    @property
    def sides(self) -> tuple[int, ...]:
        return tuple(board.side for board in self.boards)

    def board(self, side: int) -> BoardSize:
        return next(board for board in self.boards if board.side == side)

    def to_json(self) -> dict[str, object]:
        """The catalogue JSON of a Cellulae set (docs/cellulae.md)."""
        return {
            "game": self.game,
            "name": self.name,
            "author": self.author,
            "tile_size_mm": self.tile_size_mm,
            "tile_count": self.tile_total,
            "faces": [{"colour": face.colour, "mark": face.mark} for face in self.faces],
            "boards": [{"side": board.side, "tiles": board.tiles} for board in self.boards],
        }


def read_cellulae(header: CatalogueHeader, out: list[Diagnostic]) -> CellulaeCatalogue | None:
    """The loader's reader for ``game: cellulae``: the set, or None if there is any error."""
    root = header.root
    author_node = root.get("author")
    author = None if author_node is None else expect_text(author_node, "'author'", out)
    size = _tile_size(root.get("tile_size_mm"), out)
    boards = _boards(root.get("boards"), out)
    if len(header.tiles) > 1 or (not header.tiles and not errors_in(out)):
        out.append(
            header.tiles_node.diagnostic(
                f"Cellulae has one kind of tile (expected one entry in 'tiles', "
                f"got {len(header.tiles)})"
            )
        )
    kinds = [_tile_kind(entry, out) for entry in header.tiles]
    total = sum(kind[0] for kind in kinds if kind is not None)
    count_node = header.tile_count_node
    if header.tile_count is not None and count_node is not None and kinds and all(kinds):
        if header.tile_count != total:
            out.append(
                count_node.diagnostic(
                    f"'tile_count' is {header.tile_count} but the tiles listed add up to "
                    f"{total} (expected them to agree)"
                )
            )
        else:
            _enough_tiles(total, boards, count_node, out)
    if (
        errors_in(out)
        or header.name is None
        or author is None
        or size is None
        or boards is None
        or len(kinds) != 1
        or kinds[0] is None
    ):
        return None
    return CellulaeCatalogue(
        game=header.game,
        name=header.name,
        source=header.source,
        game_at=header.game_at,
        author=author,
        faces=kinds[0][1],
        tile_total=total,
        boards=tuple(sorted(boards, key=lambda board: board.side)),
        tile_size_mm=size,
        key_at={key: (node.line, node.col) for key in _LOCATED
                if (node := root.key_node(key) if key == "boards" else root.get(key))},
    )


# The top-level keys whose place the catalogue keeps (CellulaeCatalogue.key_at): their
# values, but the 'boards' key itself (where a removed board is reported, as a removed
# Micropul tile is at 'tiles').
_LOCATED = ("name", "author", "tile_size_mm", "boards", "tile_count")


TILE_SIZE_MM = (5.0, 150.0)  # the printed tile sizes a catalogue may ask for


def _tile_size(node: YamlNode | None, out: list[Diagnostic]) -> float | None:
    if node is None:
        return None
    value = number_value(node)
    # .nan and .inf fail the comparison. Below 5 mm nobody can pick a tile up, and a
    # page of 0.0001 mm tiles took gigabytes to plan; above 150 mm a tile with the
    # largest bleed no longer fits inside an A4 or Letter sheet's margins.
    if value is None or not TILE_SIZE_MM[0] <= value <= TILE_SIZE_MM[1]:
        low, high = TILE_SIZE_MM
        out.append(
            node.diagnostic(
                f"'tile_size_mm' must be a length in millimetres from {low:g} to {high:g}, "
                f"got {describe(node)}{explain(node)}"
            )
        )
        return None
    return float(value)


def _boards(node: YamlNode | None, out: list[Diagnostic]) -> list[BoardSize] | None:
    if node is None:
        return None
    sequence = expect_sequence(node, "'boards'", out)
    if sequence is None:
        return None
    if not sequence.items:
        out.append(sequence.diagnostic("'boards' is empty (expected at least one board)"))
        return None
    before = len(out)
    boards: list[BoardSize] = []
    first_at: dict[int, YamlNode] = {}
    for item in sequence.items:
        board = _board(item, out)
        if board is None:
            continue
        side_node = item.get("side") if isinstance(item, YamlMapping) else None
        first = first_at.setdefault(board.side, side_node or item)
        if first is not (side_node or item):
            out.append(
                (side_node or item).diagnostic(
                    f"board {board.label} is listed twice (first at line {first.line}; "
                    "expected each side once)"
                )
            )
            continue
        boards.append(board)
    return None if errors_in(out[before:]) else boards


def _board(node: YamlNode, out: list[Diagnostic]) -> BoardSize | None:
    mapping = expect_mapping(node, "a board", out)
    if mapping is None:
        return None
    before = len(out)
    out.extend(check_keys(mapping, "board", ["side", "tiles"]))
    side_node, tiles_node = mapping.get("side"), mapping.get("tiles")
    side = None if side_node is None else expect_int(side_node, "'side'", out)
    tiles = None if tiles_node is None else expect_int(tiles_node, "'tiles'", out)
    if side is not None and side_node is not None:
        if side < 3:
            out.append(side_node.diagnostic(f"board side {side} is too small (expected 3 or more)"))
            side = None
        elif side > MAX_BOARD_SIDE:
            out.append(side_node.diagnostic(
                f"board side {side} is too large (expected at most {MAX_BOARD_SIDE})"))
            side = None
        elif side % 2 == 0:
            out.append(
                side_node.diagnostic(
                    f"board side {side} is even (expected an odd side, so that a full board "
                    "cannot end in a tie)"
                )
            )
            side = None
    if side is not None and tiles is not None and tiles_node is not None and tiles != side * side:
        out.append(
            tiles_node.diagnostic(
                f"a {side} × {side} board needs {side * side} tiles, one per square, "
                f"not {tiles}"
            )
        )
    if errors_in(out[before:]) or side is None or tiles is None:
        return None
    return BoardSize(side, tiles, (node.line, node.col))


def _tile_kind(node: YamlNode, out: list[Diagnostic]) -> tuple[int, tuple[CellFace, ...]] | None:
    """(how many such tiles the set has, its faces: white then black), or None on error."""
    mapping = expect_mapping(node, "a tile", out)
    if mapping is None:
        return None
    before = len(out)
    out.extend(check_keys(mapping, "tile", ["id", "count", "faces"]))
    id_node, count_node = mapping.get("id"), mapping.get("count")
    tile_id = None if id_node is None else expect_int(id_node, "'id'", out)
    if tile_id is not None and id_node is not None and tile_id < 1:
        out.append(id_node.diagnostic(f"tile id {tile_id} is not allowed (expected 1 or more)"))
    count = None if count_node is None else expect_int(count_node, "'count'", out)
    if count is not None and count_node is not None and count < 1:
        out.append(count_node.diagnostic(f"'count' is {count} (expected 1 or more tiles)"))
    elif count is not None and count_node is not None and count > MAX_TILES:
        out.append(count_node.diagnostic(
            f"'count' is {count} (expected at most {MAX_TILES} tiles)"))
    faces = _faces(mapping.get("faces"), out)
    if errors_in(out[before:]) or count is None or faces is None:
        return None
    return count, faces


def _faces(node: YamlNode | None, out: list[Diagnostic]) -> tuple[CellFace, ...] | None:
    if node is None:
        return None
    sequence = expect_sequence(node, "'faces'", out)
    if sequence is None:
        return None
    if len(sequence.items) != 2:
        out.append(
            sequence.diagnostic(
                f"'faces' has {len(sequence.items)} "
                f"face{'' if len(sequence.items) == 1 else 's'} "
                "(expected 2: a white face and a black face)"
            )
        )
        return None
    before = len(out)
    faces = [_face(item, out) for item in sequence.items]
    if errors_in(out[before:]):
        return None
    found = [face for face in faces if face is not None]
    colours = [face.colour for face in found]
    if len(found) == 2 and colours[0] == colours[1]:
        out.append(
            sequence.items[1].diagnostic(
                f"both faces are {colours[0]} (expected one white face and one black face)"
            )
        )
        return None
    return tuple(sorted(found, key=lambda face: FACE_COLOURS.index(face.colour)))


def _face(node: YamlNode, out: list[Diagnostic]) -> CellFace | None:
    mapping = expect_mapping(node, "a face", out)
    if mapping is None:
        return None
    before = len(out)
    out.extend(check_keys(mapping, "face", ["colour", "mark"]))
    colour_node, mark_node = mapping.get("colour"), mapping.get("mark")
    colour = None
    if colour_node is not None:
        text = colour_node.raw if isinstance(colour_node, YamlScalar) else None
        if text in FACE_COLOURS:
            colour = text
        else:
            shown = quoted(text) if text is not None else describe(colour_node)
            out.append(
                colour_node.diagnostic(
                    f"unknown face colour {shown} (expected {join_choices(FACE_COLOURS)})"
                )
            )
    mark = None if mark_node is None else expect_text(mark_node, "'mark'", out)
    if errors_in(out[before:]) or colour is None or mark is None:
        return None
    return CellFace(colour, mark, None if mark_node is None else mark_node.where)


def _enough_tiles(
    total: int, boards: Sequence[BoardSize] | None, node: YamlNode, out: list[Diagnostic]
) -> None:
    """Replication needs a tile from the supply for every square: the set must hold as
    many tiles as the largest board has squares."""
    if not boards:
        return
    largest = max(boards, key=lambda board: board.side)
    if total < largest.tiles:
        out.append(
            node.diagnostic(
                f"the set has {total} tiles but the {largest.label} board needs "
                f"{largest.tiles} (expected at least one tile per square of every board)"
            )
        )


__all__ = ["GAME", "BoardSize", "CellFace", "CellulaeCatalogue", "read_cellulae"]
