"""A rulebook's structure, read from its game's ``book.yaml``: the order of its
blocks, the text key of each, and its figures with the claims the rules engine must
confirm.

The structure names texts by key only; the words live in the language catalogues
(:mod:`micropul_print.rulebook.locales`). What a claim may be about, how its subject
and value are written and which figure marks exist differ per game: the game gives
them as :class:`BookRules`. Format: docs/rulebook.md.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

from micropul_print.base.errors import Diagnostic, UserError, errors_in
from micropul_print.base.yamlsource import (
    Where,
    YamlNode,
    check_keys,
    describe,
    expect_bool,
    expect_int,
    expect_mapping,
    expect_sequence,
    expect_text,
    in_file_order,
    join_choices,
    read_yaml,
)

Square = tuple[int, int]
# A claim's subject: a number (placement, turn, tile), a name (a player), a square
# (x, y) or a part of a square (x, y, name): whatever its game's rules read.
ClaimKey = int | str | tuple[int, int] | tuple[int, int, str]
# What a claim states: a flag, a count, a word, or a set of squares (in reading order).
ClaimValue = bool | int | str | tuple[Square, ...]


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
class Ruling:
    """A ruling of this edition (where the original rules are silent): a heading and a
    paragraph, set in a box so that a reader tells it from the original rules.

    It rules on the paragraph or list just before it in ``book.yaml``, its ``anchor``
    (that block's index in :attr:`Book.blocks`): the page layout sets the box after
    that block and before the next heading, in every language."""

    heading: str  # key
    text: str  # key
    where: Where
    anchor: int = -1  # set by load_book; -1 until then


@dataclass(frozen=True)
class LegendRow:
    text: str  # key
    symbol: str = ""  # a symbol of the game's pieces, as its figure art names them
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
    key: ClaimKey
    prop: str
    expected: ClaimValue
    name: str
    where: Where
    about: str = ""  # the subject in words ("placement 2"), from the game's rules

    def describe(self) -> str:
        """The claim in words, as it appears in messages."""
        return f"{self.about or f'{self.subject} {self.key}'}: {self.prop} is " \
               f"{shown(self.expected)}"


def shown(value: ClaimValue) -> str:
    """A claimed or engine value as messages write it."""
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, tuple):
        return "[" + ", ".join(f"[{x}, {y}]" for x, y in value) + "]"
    return str(value)


@dataclass(frozen=True)
class Figure:
    position: str  # path relative to the game's book folder
    caption: str  # key
    claims: tuple[Claim, ...]
    # Placements (or turns) to mark, 1-based; None: the last one.
    highlight: tuple[int, ...] | None
    where: Where
    # Groups to outline, each named as the subject of a "group" claim (for games whose
    # book rules allow the "outline" figure option).
    outline: tuple[ClaimKey, ...] = ()


Block = Title | Heading | Paragraph | Bullets | Ruling | Legend | Figure


@dataclass(frozen=True)
class Book:
    blocks: tuple[Block, ...]
    source: str
    # Names and terms no line may break inside (a word with a hyphen in the list, or a
    # word starting with a listed word without one: "Game" covers the inflected "Games").
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
            elif isinstance(block, Ruling):
                found.extend((key, block.where) for key in (block.heading, block.text))
            elif isinstance(block, Legend):
                found.append((block.caption, block.where))
                found.extend((row.text, block.where) for row in block.rows)
            else:
                found.append((block.caption, block.where))
        return found


SubjectReader = Callable[[str, YamlNode, list[Diagnostic]], tuple[ClaimKey, str] | None]
ValueReader = Callable[[str, YamlNode, list[Diagnostic]], ClaimValue | None]


@dataclass(frozen=True)
class BookRules:
    """What one game's book.yaml may say, beyond the blocks every book has."""

    # What a claim may be about, and the properties of each subject it may state.
    subjects: Mapping[str, tuple[str, ...]]
    # A subject's node -> (its key, the subject in words), or None (problem reported).
    read_subject: SubjectReader
    # A property's node -> its value, or None (problem reported).
    read_value: ValueReader
    # Figure marks a legend row may show (its other rows show a tile symbol).
    legend_marks: tuple[str, ...]
    # Keys a figure may have besides position, caption and claims.
    figure_options: tuple[str, ...] = ("highlight",)
    # Problems across the claims of one figure (beyond a placeholder given twice).
    check_figure: Callable[[Figure], list[Diagnostic]] = lambda _figure: []
    # Tile symbols a legend row may show (None: any, the game's art decides).
    legend_symbols: tuple[str, ...] | None = None


def load_book(path: Path, rules: BookRules) -> Book:
    """Read and check the structure of a book whose game has ``rules``; raise
    UserError listing every problem."""
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
                block = _block(item, rules, problems)
                if isinstance(block, Ruling):
                    block = _anchored(block, blocks, problems)
                if block is not None:
                    blocks.append(block)
    book = Book(tuple(blocks), str(path), unbreakable, pages)
    problems.extend(_check_figures(book, rules))
    # The book is the project's own source, not a user's input: a warning (an unknown
    # key, such as an option another game's book has) is a mistake in it, never noise.
    if errors_in(problems, strict=True):
        raise UserError(in_file_order(errors_in(problems, strict=True)))
    return book


def _anchored(ruling: Ruling, before: list[Block], out: list[Diagnostic]) -> Ruling | None:
    """``ruling`` anchored to the block just before it, which must be the paragraph or
    list it rules on (after a heading, a figure or another ruling, the box would not
    follow a rule on the page)."""
    anchor = before[-1] if before else None
    if isinstance(anchor, Bullets) or (isinstance(anchor, Paragraph) and not anchor.lead):
        return dataclasses.replace(ruling, anchor=len(before) - 1)
    out.append(ruling.where.diagnostic(
        "a ruling comes right after the paragraph or list it rules on, got "
        f"{_kind_name(anchor)} before it"))
    return None


def _kind_name(block: Block | None) -> str:
    """What ``block`` is, as book.yaml names it, with its article."""
    if block is None:
        return "nothing"
    if isinstance(block, Heading):
        return "a heading" if block.level == 1 else "a subheading"
    if isinstance(block, Paragraph):
        return "the lead" if block.lead else "a paragraph"
    return {Title: "the title", Bullets: "a list", Ruling: "a ruling", Legend: "the legend",
            Figure: "a figure"}[type(block)]


_BLOCK_KINDS = ("title", "lead", "heading", "subheading", "paragraph", "bullets", "ruling",
                "legend", "figure")


def _block(node: YamlNode, rules: BookRules, out: list[Diagnostic]) -> Block | None:
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
    if kind == "ruling":
        keys = _text_list(body, "a ruling", out)
        if keys is None:
            return None
        if len(keys) != 2:
            out.append(body.diagnostic(f"a ruling is [heading key, text key], got "
                                       f"{len(keys)} key{'s' if len(keys) != 1 else ''}"))
            return None
        return Ruling(keys[0], keys[1], where)
    if kind == "legend":
        return _legend(body, where, rules, out)
    return _figure(body, where, rules, out)


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


def _legend(node: YamlNode, where: Where, rules: BookRules,
            out: list[Diagnostic]) -> Legend | None:
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
        if mark_node is not None and mark not in rules.legend_marks:
            out.append(mark_node.diagnostic(
                f"unknown mark {describe(mark_node)} "
                f"(expected {join_choices(rules.legend_marks)})"))
            continue
        if (symbol_node is not None and rules.legend_symbols is not None
                and symbol not in rules.legend_symbols):
            out.append(symbol_node.diagnostic(
                f"unknown symbol {describe(symbol_node)} "
                f"(expected {join_choices(rules.legend_symbols)})"))
            continue
        if text is not None and symbol is not None and mark is not None:
            rows.append(LegendRow(text, symbol, mark))
    if caption is None or rows_seq is None:
        return None
    return Legend(caption, tuple(rows), where)


def _figure(node: YamlNode, where: Where, rules: BookRules,
            out: list[Diagnostic]) -> Figure | None:
    mapping = expect_mapping(node, "a figure", out)
    if mapping is None:
        return None
    out.extend(check_keys(mapping, "a figure", ["position", "caption"],
                          ["claims", *rules.figure_options]))
    position_node, caption_node = mapping.get("position"), mapping.get("caption")
    position = expect_text(position_node, "'position'", out) if position_node else None
    caption = expect_text(caption_node, "'caption'", out) if caption_node else None
    claims: list[Claim] = []
    claims_node = mapping.get("claims")
    claim_items = expect_sequence(claims_node, "'claims'", out) if claims_node else None
    for item in claim_items.items if claim_items is not None else ():
        claim = _claim(item, rules, out)
        if claim is not None:
            claims.append(claim)
    highlight: list[int] | None = None
    highlight_node = mapping.get("highlight")
    if highlight_node is not None and "highlight" in rules.figure_options:
        highlight = []
        numbers = expect_sequence(highlight_node, "'highlight'", out)
        for item in numbers.items if numbers is not None else ():
            number = expect_int(item, "a placement number", out)
            if number is not None:
                highlight.append(number)
    outline: list[ClaimKey] = []
    outline_node = mapping.get("outline")
    if outline_node is not None and "outline" in rules.figure_options:
        groups = expect_sequence(outline_node, "'outline'", out)
        for item in groups.items if groups is not None else ():
            group = rules.read_subject("group", item, out)
            if group is not None:
                outline.append(group[0])
    if position is None or caption is None:
        return None
    return Figure(position, caption, tuple(claims),
                  None if highlight is None else tuple(highlight), where, tuple(outline))


def _claim(node: YamlNode, rules: BookRules, out: list[Diagnostic]) -> Claim | None:
    mapping = expect_mapping(node, "a claim", out)
    if mapping is None:
        return None
    given = mapping.keys()
    subjects = [k for k in given if k in rules.subjects]
    if len(subjects) != 1:
        out.append(mapping.diagnostic(
            f"a claim names exactly one subject: {join_choices(list(rules.subjects))}"))
        return None
    subject = subjects[0]
    props = rules.subjects[subject]
    stated = [k for k in given if k in props]
    out.extend(check_keys(mapping, f"a claim about a {subject}", [subject], [*props, "as"]))
    if len(stated) != 1:
        out.append(mapping.diagnostic(
            f"a claim about a {subject} states exactly one of {join_choices(props)}"))
        return None
    prop = stated[0]
    subject_node, value_node = mapping.get(subject), mapping.get(prop)
    assert subject_node is not None and value_node is not None
    key = rules.read_subject(subject, subject_node, out)
    expected = rules.read_value(prop, value_node, out)
    name = ""
    name_node = mapping.get("as")
    if name_node is not None:
        name = expect_text(name_node, "'as'", out) or ""
    if key is None or expected is None:
        return None
    return Claim(subject, key[0], prop, expected, name, mapping.where, key[1])


def read_bool(prop: str, node: YamlNode, out: list[Diagnostic]) -> bool | None:
    """A property stated as true or false."""
    return expect_bool(node, f"'{prop}'", out)


def _check_figures(book: Book, rules: BookRules) -> list[Diagnostic]:
    """Problems across the claims of a figure: the game's own, and one placeholder
    given twice."""
    problems: list[Diagnostic] = []
    for figure in book.figures:
        problems.extend(rules.check_figure(figure))
        named: dict[str, Where] = {}
        for claim in figure.claims:
            if claim.name in named:
                problems.append(claim.where.diagnostic(
                    f"placeholder '{claim.name}' is already given by the claim at line "
                    f"{named[claim.name].line}"))
            if claim.name:
                named[claim.name] = claim.where
    return problems
