"""A game's pieces as the core's kit reads them: drawings in millimetres with their
sizes, and the few words its files' metadata say about them. A game gives one
:class:`KitPieces` per catalogue and theme (Game.pieces); the core's plan
(micropul_print.kit.plan) decides which files are made of them, on which papers.

Drawings are asked for by bleed (art beyond the cut line, mm), as each file needs
them: a game keeps them if it likes (each face drawn once per build).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import field
from typing import TYPE_CHECKING

from micropul_print.base.record import record

if TYPE_CHECKING:
    from micropul_print.draw.primitives import Drawing
    from micropul_print.sheets.pages import Card

# By bleed (mm): the drawings with that much art beyond the cut line.
ByBleed = Callable[[float], Sequence["Card"]]


@record
class FaceGrid:
    """An overview made of the tile images' cut squares, ``columns`` to a row, ``gap``
    pixels apart on a grey backdrop, painted at the overview's resolution: the first
    ``count`` images of TileImages.faces, cut from the PNG files when ``reusable``
    (they show all the overview shows), else ``fallback()`` (one drawing per tile,
    cut size, no bleed) painted again."""

    count: int
    columns: int
    gap: int
    reusable: bool
    fallback: Callable[[], Sequence[Drawing]]
    # One line under each image (its number): the faces' own numbers are a few pixels
    # high at the overview's resolution.
    captions: Sequence[str] = ()


@record
class TileImages:
    """The tile image files (tiles/svg/<stem>.svg and tiles/png/<stem>.png):
    ``faces(bleed)`` gives (file stem, drawing) of each face in order; the SVG files
    have no bleed, the PNG files ``png_bleed`` unless the build says. ``overview``: a
    drawing painted at the overview's resolution (tiles/overview.png), or a FaceGrid."""

    faces: Callable[[float], Sequence[tuple[str, Drawing]]]
    overview: Callable[[], Drawing] | FaceGrid
    png_bleed: float = 3.0


@record
class BoardPiece:
    """A board printed at its true size over as many pages as it needs, split only on
    ``stops`` (mm from its left/top edge: the seams between its squares)."""

    key: str  # in its file name: <game>-board-<key>-<paper>.pdf
    drawing: Callable[[], Drawing]  # drawn when its file is made
    title: str  # "<set> — board 5 × 5"
    stops: Sequence[float]
    # The PDF's subject; {pages} is replaced by "2 A4 pages".
    subject: str


@record
class Numbered:
    """The numbers of the cards (in the order of KitPieces.cards), which ``--tiles``
    chooses from; ``source`` and ``at`` (line, column) locate them for messages."""

    numbers: Sequence[int]
    source: str
    at: tuple[int, int] = (0, 0)


@record
class KitPieces:
    """Everything the kit prints of one game's catalogue in one theme."""

    name: str  # the set's name, in titles and footers
    author: str  # the PDFs' author line
    card_size: tuple[float, float]  # cut size of a card (tile), mm
    cards: ByBleed  # every card of the set, front and back, in order
    images: TileImages
    tokens: ByBleed = lambda _bleed: ()  # smaller pieces cut from the sheets' free slots
    # The print shop's pieces: each different card once (name, card), e.g. one tile
    # "tile (print 49)" of a set of identical tiles.
    shop_cards: Callable[[float], Sequence[tuple[str, Card]]] | None = None
    boards: Sequence[BoardPiece] = ()
    numbered: Numbered | None = None  # None: no numbers, no reprint
    # The PDFs' subjects, by file: "sheets", "gutter-fold", "print-shop" (see
    # kitplan.SUBJECTS for the defaults and the words they may use).
    subjects: Mapping[str, str] = field(default_factory=dict)
    # Modules drawing the pieces: imported before the build forks its workers.
    imports: tuple[str, ...] = ()
