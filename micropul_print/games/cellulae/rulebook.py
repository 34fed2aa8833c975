"""Cellulae's rulebook: its claims (about the turns of a figure, the players and the
squares of the board after them, read from
:func:`micropul_print.games.cellulae.analysis.analyse_cellulae`, the public JSON contract),
its figures (position files of ``micropul-print position --game cellulae``, drawn on the
printed board with the sheets' tile faces) and its shared values (the catalogue's tile
and board counts, the engine's turn limit).

Claims:

=============  ========================================================================
subject        properties
=============  ========================================================================
``turn: N``    ``legal``, ``reason`` (an engine reason, or ``none``), ``action``
               (replicate, move, skip), ``flipped`` (how many tiles it turned over),
               ``flips`` (exactly which squares, ``[[x, y], ...]``), ``passes`` (for a
               movement: the occupied squares it slid over), ``replications`` and
               ``movements`` (legal for its player just before it: what the turn
               chose from)
``player: C``  ``tiles`` (showing colour C after the turns), ``replications`` and
               ``movements`` (legal for C then)
``square: XY`` ``colour`` (``black``, ``white`` or ``empty``) after the turns
``game: end``  ``over`` (true/false), ``reason`` (an engine end reason, or ``none``),
               ``winner`` (``black``, ``white``, or ``none``: a draw or a game not over)
=============  ========================================================================
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from micropul_print.base.errors import Diagnostic, UserError
from micropul_print.base.resources import package_file
from micropul_print.base.yamlsource import (
    YamlNode,
    YamlScalar,
    YamlSequence,
    describe,
    expect_int,
    expect_text,
    join_choices,
)
from micropul_print.draw.theme import Theme
from micropul_print.game.api import Catalogue
from micropul_print.games.cellulae.catalogue import CellulaeCatalogue
from micropul_print.games.cellulae.rules import COLOURS, MOVE, QUIET_LIMIT, REPLICATE
from micropul_print.rulebook.book import (
    Book,
    BookRules,
    Claim,
    ClaimKey,
    ClaimValue,
    LegendRow,
    Square,
    read_bool,
)
from micropul_print.rulebook.claims import Evaluate, Value, check_claims
from micropul_print.rulebook.games import GameRulebook
from micropul_print.rulebook.verify import VerifiedFigure

if TYPE_CHECKING:
    from micropul_print.draw.primitives import Drawing
    from micropul_print.rulebook.layout import Picture

SUBJECT_PROPERTIES: dict[str, tuple[str, ...]] = {
    "turn": ("legal", "reason", "action", "flipped", "flips", "passes", "replications",
             "movements"),
    "player": ("tiles", "replications", "movements"),
    "square": ("colour",),
    "game": ("over", "reason", "winner"),
}
LEGEND_MARKS = ("start", "highlight", "arrow", "flipped", "cross")
# The boards the book's texts name, smallest first: the standard game's, then the
# two longer ones. The catalogue must offer exactly these many.
BOARD_NAMES = ("small", "medium", "large")
SHARED_NAMES = frozenset({"tile_count", "tile_size", "quiet_limit", "quiet_each",
                          *(f"{name}_{what}" for name in BOARD_NAMES
                            for what in ("side", "tiles"))})
_SQUARE_COLOURS = {"B": "black", "W": "white", ".": "empty"}


def read_subject(subject: str, node: YamlNode,
                 out: list[Diagnostic]) -> tuple[ClaimKey, str] | None:
    """A turn number, a player colour, a square [x, y], or the end of the game."""
    if subject == "turn":
        number = expect_int(node, "the turn claimed about", out)
        return None if number is None else (number, f"turn {number}")
    if subject == "player":
        colour = expect_text(node, "the player claimed about", out)
        if colour is None:
            return None
        if colour not in COLOURS:
            out.append(node.diagnostic(f"unknown player {describe(node)} "
                                       f"(expected {join_choices(COLOURS)})"))
            return None
        return colour, f"the {colour} player"
    if subject == "game":
        word = expect_text(node, "the game claimed about", out)
        if word is None:
            return None
        if word != "end":
            out.append(node.diagnostic(f"a claim about the game is about its end: "
                                       f"'game: end', got {describe(node)}"))
            return None
        return word, "the end of the game"
    square = _square(node, out)
    return None if square is None else (square, f"square ({square[0]}, {square[1]})")


def _square(node: YamlNode, out: list[Diagnostic]) -> Square | None:
    items = node.items if isinstance(node, YamlSequence) else ()
    if len(items) == 2 and all(isinstance(i, YamlScalar) for i in items):
        x, y = expect_int(items[0], "x", out), expect_int(items[1], "y", out)
        return None if x is None or y is None else (x, y)
    out.append(node.diagnostic(f"a square is [x, y], counted from 0 at the top-left "
                               f"corner; got {describe(node)}"))
    return None


def read_value(prop: str, node: YamlNode, out: list[Diagnostic]) -> ClaimValue | None:
    if prop in ("legal", "over"):
        return read_bool(prop, node, out)
    if prop in ("reason", "action", "colour", "winner"):
        return expect_text(node, f"'{prop}'", out)
    if prop == "flips":
        if not isinstance(node, YamlSequence):
            out.append(node.diagnostic(f"'flips' is a list of squares [x, y], got "
                                       f"{describe(node)}"))
            return None
        squares = [_square(item, out) for item in node.items]
        if None in squares:
            return None
        return reading_order(s for s in squares if s is not None)
    return expect_int(node, f"'{prop}'", out)


def reading_order(squares: Any) -> tuple[Square, ...]:
    """Squares top row first, left to right (the engine's order)."""
    return tuple(sorted({(int(x), int(y)) for x, y in squares}, key=lambda s: (s[1], s[0])))


BOOK_RULES = BookRules(SUBJECT_PROPERTIES, read_subject, read_value, LEGEND_MARKS,
                       legend_symbols=COLOURS)


def evaluator(analysis: Mapping[str, Any]) -> Evaluate:
    """Claims evaluated on one analysis (with this module's additions, see
    :func:`analyse_figure`)."""
    return lambda claim: engine_value(claim, analysis)


def engine_value(claim: Claim, analysis: Mapping[str, Any]) -> tuple[Value, str]:
    """What the engine says about the claim's subject and property, or ("", why not)."""
    if claim.subject == "turn":
        assert isinstance(claim.key, int)
        turns = analysis["turns"]
        if not 1 <= claim.key <= len(turns):
            return "", f"the position has {len(turns)} turns"
        turn = turns[claim.key - 1]
        if claim.prop == "legal":
            return bool(turn["legal"]), ""
        if claim.prop == "reason":
            return str(turn["reason"] or "none"), ""
        if claim.prop == "action":
            return str(turn["action"]), ""
        if claim.prop == "flipped":
            return len(turn["flipped"]), ""
        if claim.prop == "flips":
            return reading_order(turn["flipped"]), ""
        if claim.prop in ("replications", "movements"):
            return int(turn["options"][claim.prop]), ""
        if turn["action"] != MOVE or not turn["legal"]:
            return "", f"turn {claim.key} is not a legal movement"
        return int(turn["passes"]), ""
    if claim.subject == "game":
        if claim.prop == "over":
            return bool(analysis["over"]), ""
        return str(analysis["end" if claim.prop == "reason" else "winner"] or "none"), ""
    if claim.subject == "player":
        assert isinstance(claim.key, str)
        if claim.prop == "tiles":
            return int(analysis["counts"][claim.key]), ""
        kind = REPLICATE if claim.prop == "replications" else MOVE
        legal = analysis["legal_by_player"][claim.key]
        return sum(1 for action in legal if action["action"] == kind), ""
    assert isinstance(claim.key, tuple)
    x, y = claim.key[0], claim.key[1]
    rows = analysis["board"]
    if not (isinstance(x, int) and isinstance(y, int)
            and 0 <= y < len(rows) and 0 <= x < len(rows[y])):
        return "", f"({x}, {y}) is off the {len(rows)} × {len(rows)} board"
    return _SQUARE_COLOURS[rows[y][x]], ""


def analyse_figure(position: Any, catalogue: CellulaeCatalogue) -> dict[str, Any]:
    """The engine's analysis of a figure's position, plus what the rulebook's claims
    also read: each turn's ``options`` (its player's legal replications and movements
    just before it), each legal movement's ``passes`` (occupied squares strictly
    between its start and end, on the board before it) and ``legal_by_player`` (every
    legal action of each colour after the turns)."""
    from micropul_print.games.cellulae.analysis import analyse_cellulae, position_board

    analysis = analyse_cellulae(position, catalogue)
    board = position_board(position)
    for spec, turn in zip(position.turns, analysis["turns"], strict=True):
        turn["options"] = {"replications": len(board.replications(spec.player)),
                           "movements": len(board.movements(spec.player))}
        if not turn["legal"]:
            continue
        if turn["action"] == MOVE:
            (x0, y0), (x1, y1) = turn["from"], turn["to"]
            step_x, step_y = (x1 > x0) - (x1 < x0), (y1 > y0) - (y1 < y0)
            between = [(x0 + k * step_x, y0 + k * step_y) for k in range(1, abs(x1 - x0))]
            turn["passes"] = sum(1 for square in between
                                 if board.colour_at(square) is not None)
        board.apply_action(spec.move)
    analysis["legal_by_player"] = {
        colour: analyse_cellulae(position, catalogue, colour)["legal"] for colour in COLOURS}
    return analysis


def verify_figures(book: Book, catalogue: Catalogue, root: Path) -> list[VerifiedFigure]:
    """Analyse every figure's position and check its claims; raise one UserError
    naming every figure file and claim that is false."""
    from micropul_print.games.cellulae.analysis import load_cellulae_position

    cellulae = as_cellulae(catalogue)
    verified: list[VerifiedFigure] = []
    problems: list[Diagnostic] = []
    for figure in book.figures:
        try:
            position = load_cellulae_position(root / figure.position, cellulae)
        except UserError as exc:
            problems.extend(exc.diagnostics)
            continue
        analysis = analyse_figure(position, cellulae)
        values, false = check_claims(figure, evaluator(analysis))
        problems.extend(false)
        for number in figure.highlight or ():
            if not 1 <= number <= len(position.turns):
                problems.append(figure.where.diagnostic(
                    f"figure {figure.position}: no turn {number} to highlight (the "
                    f"position has {len(position.turns)} turns)"))
        verified.append(VerifiedFigure(figure, position, analysis, values))
    if problems:
        raise UserError(problems)
    return verified


def as_cellulae(catalogue: Catalogue) -> CellulaeCatalogue:
    if not isinstance(catalogue, CellulaeCatalogue):
        raise TypeError(f"not a Cellulae catalogue: {catalogue.source}")
    return catalogue


def shared_values(catalogue: Catalogue) -> dict[str, Value]:
    """The catalogue's tile count and size and its boards (smallest first), and the
    engine's turn limit. UserError if the catalogue does not offer the boards the
    book describes."""
    cellulae = as_cellulae(catalogue)
    if len(cellulae.boards) != len(BOARD_NAMES):
        raise UserError([Diagnostic(cellulae.source, *cellulae.key_at.get("boards", (0, 0)), (
            f"the Cellulae rulebook describes {len(BOARD_NAMES)} boards (the standard "
            f"one and two longer ones); this catalogue offers {len(cellulae.boards)}"))])
    values: dict[str, Value] = {
        "tile_count": cellulae.tile_total,
        "tile_size": f"{cellulae.tile_size_mm:g}",
        "quiet_limit": QUIET_LIMIT,
        "quiet_each": QUIET_LIMIT // 2,
    }
    for name, board in zip(BOARD_NAMES, cellulae.boards, strict=True):
        values[f"{name}_side"] = board.side
        values[f"{name}_tiles"] = board.tiles
    return values


def author(catalogue: Catalogue) -> str:
    return f"{as_cellulae(catalogue).author} (game); micropul-print (rulebook)"


class CellulaeArt:
    """Cellulae's figures (the printed board with the sheets' tile faces on it) and
    legend pictures."""

    def __init__(self, catalogue: Catalogue, theme: Theme) -> None:
        from micropul_print.games.cellulae.faces import check_theme

        self.catalogue = as_cellulae(catalogue)
        self.theme = theme
        check_theme(self.catalogue, theme)

    def figure(self, verified: VerifiedFigure) -> tuple[Drawing, float]:
        from micropul_print.games.cellulae.figures import FIGURE_SCALE, figure_drawing

        drawing = figure_drawing(verified, self.catalogue, self.theme)
        return drawing, self.catalogue.tile_size_mm * FIGURE_SCALE

    def legend(self, row: LegendRow) -> Picture:
        from micropul_print.games.cellulae.figures import legend_mark, legend_symbol
        from micropul_print.rulebook import layout

        if row.mark:
            drawing, clip = legend_mark(row.mark, self.catalogue, self.theme)
            return layout.Picture(drawing, layout.LEGEND_PICTURE_MM, clip=clip)
        return layout.Picture(legend_symbol(row.symbol, self.catalogue, self.theme),
                              layout.LEGEND_PICTURE_MM, frame=True)


CELLULAE = GameRulebook(
    game="cellulae",
    folder=package_file("micropul_print.games.cellulae", "book"),
    rules=BOOK_RULES,
    output_dir="cellulae/rules",
    author=author,
    shared_names=SHARED_NAMES,
    shared_values=shared_values,
    verify_figures=verify_figures,
    art=CellulaeArt,
)
