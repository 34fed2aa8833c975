"""The rulebook's structure, read from ``book.yaml``: the order of its blocks, the
text key of each, and its figures with the claims the rules engine must confirm.

The structure names texts by key only; the words live in the language catalogues
(:mod:`micropul_print.rulebook.locales`). Format: docs/rulebook.md.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from micropul_print.catalogue.model import QUADRANT_NAMES
from micropul_print.errors import Diagnostic, UserError, errors_in
from micropul_print.yamlsource import (
    Where,
    YamlNode,
    YamlScalar,
    YamlSequence,
    check_keys,
    describe,
    expect_int,
    expect_mapping,
    expect_sequence,
    expect_text,
    in_file_order,
    join_choices,
    read_yaml,
)

BOOK_FILE = Path(__file__).parent / "book.yaml"

# What a claim may be about, and the properties of each subject it may state.
SUBJECT_PROPERTIES: dict[str, tuple[str, ...]] = {
    "placement": ("legal", "reason", "draws", "plus", "tile"),
    "group": ("colour", "points", "closed", "stones"),
    "legal_placements": ("count",),
}
# Legend rows show a tile symbol (a quadrant value, or a big tile) or a figure mark.
LEGEND_MARKS = ("highlight", "group", "cross", "stone")


@dataclass(frozen=True)
class Title:
    keys: tuple[str, ...]  # name, tagline, further lines
    where: Where


@dataclass(frozen=True)
class Heading:
    key: str
    where: Where
    level: int = 1


@dataclass(frozen=True)
class Paragraph:
    key: str
    where: Where
    lead: bool = False  # the opening paragraph, set apart from the rules


@dataclass(frozen=True)
class Bullets:
    keys: tuple[str, ...]
    where: Where


@dataclass(frozen=True)
class LegendRow:
    text: str  # key
    symbol: str = ""  # a quadrant value of the catalogue, or "big"
    mark: str = ""  # one of LEGEND_MARKS


@dataclass(frozen=True)
class Legend:
    caption: str
    rows: tuple[LegendRow, ...]
    where: Where


@dataclass(frozen=True)
class Claim:
    """One fact about a figure: ``subject`` (e.g. placement 3) has ``prop`` ==
    ``expected``. With ``name``, the engine's value fills ``{name}`` in the texts."""

    subject: str
    key: int | tuple[int, int, str]  # placement number, tile id, or (x, y, quadrant)
    prop: str
    expected: bool | int | str
    name: str
    where: Where

    def describe(self) -> str:
        """The claim in words, as it appears in messages."""
        if self.subject == "group":
            assert isinstance(self.key, tuple)
            x, y, quadrant = self.key
            about = f"the group at ({x}, {y}, {quadrant})"
        elif self.subject == "legal_placements":
            about = f"the legal placements of tile {self.key}"
        else:
            about = f"placement {self.key}"
        expected = str(self.expected).lower() if isinstance(self.expected, bool) else self.expected
        return f"{about}: {self.prop} is {expected}"


@dataclass(frozen=True)
class Figure:
    position: str  # path relative to the rulebook package
    caption: str  # key
    claims: tuple[Claim, ...]
    highlight: tuple[int, ...] | None  # placement numbers, 1-based; None: the last one
    where: Where
    outline: tuple[tuple[int, int, str], ...] = ()  # a micropul of each group to outline

    @property
    def legal_tile(self) -> int | None:
        """The tile whose legal placements a claim counts (at most one per figure)."""
        for claim in self.claims:
            if claim.subject == "legal_placements" and isinstance(claim.key, int):
                return claim.key
        return None


Block = Title | Heading | Paragraph | Bullets | Legend | Figure


@dataclass(frozen=True)
class Book:
    blocks: tuple[Block, ...]
    source: str
    # Names and terms no line may break inside (a word with a hyphen in the list, or a
    # word starting with a listed word without one: "Micropul" covers "micropulu").
    unbreakable: tuple[str, ...] = ()
    # The pages the book is designed to fill: a language that fits in them keeps the
    # largest figures without trying smaller ones (None: always try them).
    pages: int | None = None

    @property
    def figures(self) -> tuple[Figure, ...]:
        return tuple(b for b in self.blocks if isinstance(b, Figure))

    def text_keys(self) -> list[tuple[str, Where]]:
        """Every text key the structure names, with where it names it."""
        found: list[tuple[str, Where]] = []
        for block in self.blocks:
            if isinstance(block, Title | Bullets):
                found.extend((key, block.where) for key in block.keys)
            elif isinstance(block, Heading | Paragraph):
                found.append((block.key, block.where))
            elif isinstance(block, Legend):
                found.append((block.caption, block.where))
                found.extend((row.text, block.where) for row in block.rows)
            else:
                found.append((block.caption, block.where))
        return found


def load_book(path: Path = BOOK_FILE) -> Book:
    """Read and check the structure; raise UserError listing every problem."""
    root, problems = read_yaml(path)
    blocks: list[Block] = []
    unbreakable: tuple[str, ...] = ()
    pages: int | None = None
    if root is not None:
        mapping = expect_mapping(root, "the rulebook structure", problems)
        if mapping is not None:
            problems.extend(check_keys(mapping, "the rulebook structure", ["blocks"],
                                       ["unbreakable", "pages"]))
            words = mapping.get("unbreakable")
            if words is not None:
                unbreakable = _text_list(words, "'unbreakable'", problems) or ()
            budget = mapping.get("pages")
            if budget is not None:
                pages = expect_int(budget, "'pages'", problems)
                if pages is not None and pages < 1:
                    problems.append(budget.diagnostic(
                        f"'pages' must be at least 1, got {pages}"))
                    pages = None
            node = mapping.get("blocks")
            items = expect_sequence(node, "'blocks'", problems) if node is not None else None
            for item in items.items if items is not None else ():
                block = _block(item, problems)
                if block is not None:
                    blocks.append(block)
    book = Book(tuple(blocks), str(path), unbreakable, pages)
    problems.extend(_check_figures(book))
    if errors_in(problems):
        raise UserError(in_file_order(errors_in(problems)))
    return book


_BLOCK_KINDS = ("title", "lead", "heading", "subheading", "paragraph", "bullets", "legend",
                "figure")


def _block(node: YamlNode, out: list[Diagnostic]) -> Block | None:
    mapping = expect_mapping(node, "a block", out)
    if mapping is None:
        return None
    if len(mapping.entries) != 1 or mapping.keys()[0] not in _BLOCK_KINDS:
        out.append(mapping.diagnostic(
            f"a block is one of {join_choices(_BLOCK_KINDS)} with its content, "
            f"got the keys {', '.join(mapping.keys()) or 'none'}"))
        return None
    kind, body = mapping.keys()[0], mapping.entries[0][1]
    where = mapping.where
    if kind in ("heading", "subheading", "paragraph", "lead"):
        key = expect_text(body, f"a {kind}", out)
        if key is None:
            return None
        if kind in ("paragraph", "lead"):
            return Paragraph(key, where, lead=kind == "lead")
        return Heading(key, where, 1 if kind == "heading" else 2)
    if kind in ("title", "bullets"):
        keys = _text_list(body, f"a {kind}", out)
        if keys is None:
            return None
        return Title(keys, where) if kind == "title" else Bullets(keys, where)
    if kind == "legend":
        return _legend(body, where, out)
    return _figure(body, where, out)


def _text_list(node: YamlNode, what: str, out: list[Diagnostic]) -> tuple[str, ...] | None:
    sequence = expect_sequence(node, what, out)
    if sequence is None:
        return None
    keys = [expect_text(item, f"a key in {what}", out) for item in sequence.items]
    if not keys or None in keys:
        if not keys:
            out.append(node.diagnostic(f"{what} needs at least one key"))
        return None
    return tuple(k for k in keys if k is not None)


def _legend(node: YamlNode, where: Where, out: list[Diagnostic]) -> Legend | None:
    mapping = expect_mapping(node, "a legend", out)
    if mapping is None:
        return None
    out.extend(check_keys(mapping, "a legend", ["caption", "rows"]))
    caption_node, rows_node = mapping.get("caption"), mapping.get("rows")
    caption = expect_text(caption_node, "'caption'", out) if caption_node else None
    rows_seq = expect_sequence(rows_node, "'rows'", out) if rows_node else None
    rows: list[LegendRow] = []
    for item in rows_seq.items if rows_seq is not None else ():
        row = expect_mapping(item, "a legend row", out)
        if row is None:
            continue
        out.extend(check_keys(row, "a legend row", ["text"], ["symbol", "mark"]))
        text_node, symbol_node, mark_node = row.get("text"), row.get("symbol"), row.get("mark")
        text = expect_text(text_node, "'text'", out) if text_node else None
        if (symbol_node is None) == (mark_node is None):
            out.append(row.diagnostic("a legend row has either 'symbol' or 'mark'"))
            continue
        symbol = expect_text(symbol_node, "'symbol'", out) if symbol_node else ""
        mark = expect_text(mark_node, "'mark'", out) if mark_node else ""
        if mark_node is not None and mark not in LEGEND_MARKS:
            out.append(mark_node.diagnostic(
                f"unknown mark {describe(mark_node)} (expected {join_choices(LEGEND_MARKS)})"))
            continue
        if text is not None and symbol is not None and mark is not None:
            rows.append(LegendRow(text, symbol, mark))
    if caption is None or rows_seq is None:
        return None
    return Legend(caption, tuple(rows), where)


def _figure(node: YamlNode, where: Where, out: list[Diagnostic]) -> Figure | None:
    mapping = expect_mapping(node, "a figure", out)
    if mapping is None:
        return None
    out.extend(check_keys(mapping, "a figure", ["position", "caption"],
                          ["claims", "highlight", "outline"]))
    position_node, caption_node = mapping.get("position"), mapping.get("caption")
    position = expect_text(position_node, "'position'", out) if position_node else None
    caption = expect_text(caption_node, "'caption'", out) if caption_node else None
    claims: list[Claim] = []
    claims_node = mapping.get("claims")
    claim_items = expect_sequence(claims_node, "'claims'", out) if claims_node else None
    for item in claim_items.items if claim_items is not None else ():
        claim = _claim(item, out)
        if claim is not None:
            claims.append(claim)
    highlight: list[int] | None = None
    highlight_node = mapping.get("highlight")
    if highlight_node is not None:
        highlight = []
        numbers = expect_sequence(highlight_node, "'highlight'", out)
        for item in numbers.items if numbers is not None else ():
            number = expect_int(item, "a placement number", out)
            if number is not None:
                highlight.append(number)
    outline: list[tuple[int, int, str]] = []
    outline_node = mapping.get("outline")
    if outline_node is not None:
        groups = expect_sequence(outline_node, "'outline'", out)
        for item in groups.items if groups is not None else ():
            quadrant = _claim_subject("group", item, out)
            if isinstance(quadrant, tuple):
                outline.append(quadrant)
    if position is None or caption is None:
        return None
    return Figure(position, caption, tuple(claims),
                  None if highlight is None else tuple(highlight), where, tuple(outline))


def _claim(node: YamlNode, out: list[Diagnostic]) -> Claim | None:
    mapping = expect_mapping(node, "a claim", out)
    if mapping is None:
        return None
    given = mapping.keys()
    subjects = [k for k in given if k in SUBJECT_PROPERTIES]
    if len(subjects) != 1:
        out.append(mapping.diagnostic(
            f"a claim names exactly one subject: {join_choices(list(SUBJECT_PROPERTIES))}"))
        return None
    subject = subjects[0]
    props = SUBJECT_PROPERTIES[subject]
    stated = [k for k in given if k in props]
    out.extend(check_keys(mapping, f"a claim about a {subject}", [subject], [*props, "as"]))
    if len(stated) != 1:
        out.append(mapping.diagnostic(
            f"a claim about a {subject} states exactly one of {join_choices(props)}"))
        return None
    prop = stated[0]
    subject_node, value_node = mapping.get(subject), mapping.get(prop)
    assert subject_node is not None and value_node is not None
    key = _claim_subject(subject, subject_node, out)
    expected = _claim_value(prop, value_node, out)
    name = ""
    name_node = mapping.get("as")
    if name_node is not None:
        name = expect_text(name_node, "'as'", out) or ""
    if key is None or expected is None:
        return None
    return Claim(subject, key, prop, expected, name, mapping.where)


def _claim_subject(subject: str, node: YamlNode,
                   out: list[Diagnostic]) -> int | tuple[int, int, str] | None:
    if subject != "group":
        return expect_int(node, f"the {subject} claimed about", out)
    items = node.items if isinstance(node, YamlSequence) else ()
    if (len(items) == 3 and all(isinstance(i, YamlScalar) for i in items[:2])
            and isinstance(items[2], YamlScalar) and items[2].raw in QUADRANT_NAMES):
        x, y = expect_int(items[0], "x", out), expect_int(items[1], "y", out)
        if x is not None and y is not None:
            return (x, y, items[2].raw)
        return None
    out.append(node.diagnostic(
        f"a group is named by one of its micropul: [x, y, quadrant], quadrant one of "
        f"{join_choices(QUADRANT_NAMES)}; got {describe(node)}"))
    return None


_BOOL_PROPS = ("legal", "closed")
_TEXT_PROPS = ("reason", "colour")


def _claim_value(prop: str, node: YamlNode, out: list[Diagnostic]) -> bool | int | str | None:
    if prop in _BOOL_PROPS:
        if isinstance(node, YamlScalar) and isinstance(node.value, bool):
            return node.value
        out.append(node.diagnostic(f"'{prop}' must be true or false, got {describe(node)}"))
        return None
    if prop in _TEXT_PROPS:
        return expect_text(node, f"'{prop}'", out)
    return expect_int(node, f"'{prop}'", out)


def _check_figures(book: Book) -> list[Diagnostic]:
    """Problems across the claims of a figure: one placeholder given twice, two
    tiles counted (the engine lists the legal placements of one tile per position)."""
    problems: list[Diagnostic] = []
    for figure in book.figures:
        counted = {c.key for c in figure.claims if c.subject == "legal_placements"}
        if len(counted) > 1:
            problems.append(figure.where.diagnostic(
                "a figure may count the legal placements of one tile only"))
        named: dict[str, Where] = {}
        for claim in figure.claims:
            if claim.name in named:
                problems.append(claim.where.diagnostic(
                    f"placeholder '{claim.name}' is already given by the claim at line "
                    f"{named[claim.name].line}"))
            if claim.name:
                named[claim.name] = claim.where
    return problems
