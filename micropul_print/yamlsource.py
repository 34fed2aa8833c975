"""Safe YAML input as a tree of located values; knows nothing about any game.

Files are parsed into PyYAML *events* (libyaml's C parser when available) and composed
here, iteratively, into immutable nodes that carry their file, line and column. Nothing
is ever constructed from a tag, so no YAML input can run code; anything beyond the
standard tags is refused. Composing ourselves (rather than ``yaml.compose``) lets us
report duplicate keys, bound alias expansion before it happens, refuse recursive
aliases and deep nesting (libyaml's composer recurses in C and crashes on a few
hundred thousand nested brackets), and point at the exact alias or tag at fault.

Every problem is a :class:`~micropul_print.errors.Diagnostic`; nothing here raises on
bad input. Lines and columns are 1-based; columns count characters.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import ClassVar, Protocol, TypeVar

import yaml
from yaml.constructor import ConstructorError, SafeConstructor
from yaml.resolver import Resolver

from micropul_print.errors import Diagnostic, Severity, errors_in

T = TypeVar("T")

MAX_BYTES = 1024 * 1024  # refuse larger files before reading them
MAX_NODES = 100_000  # nodes after expanding every alias
MAX_DEPTH = 100  # nested lists/mappings

ScalarValue = str | int | float | bool | None

_YAML_TAG = "tag:yaml.org,2002:"
_SCALAR_TAGS = ("str", "int", "float", "bool", "null")
_STANDARD_TAGS = "!!str, !!int, !!float, !!bool, !!null, !!map and !!seq"

_Parser: type[yaml.SafeLoader] | type[yaml.CSafeLoader]
try:
    _Parser = yaml.CSafeLoader
except AttributeError:  # PyYAML built without libyaml: same events, slower
    _Parser = yaml.SafeLoader


class _StandardResolver(Resolver):
    """Plain scalars resolve only to the standard tags: no timestamps, no merge keys."""

    def __init__(self) -> None:
        super().__init__()
        self.yaml_implicit_resolvers = {
            first: [(tag, rx) for tag, rx in resolvers if tag[len(_YAML_TAG) :] in _SCALAR_TAGS]
            for first, resolvers in Resolver.yaml_implicit_resolvers.items()
        }


_RESOLVER = _StandardResolver()


def _resolve(text: str, implicit: tuple[bool, bool]) -> str:
    """The tag of an untagged scalar: int, float, bool or null when plain and it looks
    like one (YAML 1.1 rules, as PyYAML), else str."""
    tag: str = _RESOLVER.resolve(yaml.ScalarNode, text, implicit)  # type: ignore[no-untyped-call]
    return tag


_CONSTRUCTOR = SafeConstructor()


@dataclass(frozen=True)
class Where:
    """A place in an input file; ``line`` and ``col`` are 1-based, 0 means unknown."""

    file: str
    line: int
    col: int

    def diagnostic(self, message: str, severity: Severity = Severity.ERROR) -> Diagnostic:
        return Diagnostic(self.file, self.line, self.col, message, severity)


@dataclass(frozen=True, eq=False)
class YamlNode:
    """A value read from a YAML file, with where it starts."""

    where: Where
    kind: ClassVar[str] = "a value"

    @property
    def file(self) -> str:
        return self.where.file

    @property
    def line(self) -> int:
        return self.where.line

    @property
    def col(self) -> int:
        return self.where.col

    def diagnostic(self, message: str, severity: Severity = Severity.ERROR) -> Diagnostic:
        return self.where.diagnostic(message, severity)


@dataclass(frozen=True, eq=False)
class YamlScalar(YamlNode):
    """A scalar. ``raw`` is its text as written (after unquoting), so ``1`` in
    ``symbol: 1`` can be read as the symbol "1"; ``value`` is the resolved value."""

    value: ScalarValue
    raw: str
    tag: str  # one of "str", "int", "float", "bool", "null"
    style: str | None = None  # None: plain; "'" or '"': quoted; "|" or ">": block
    kind: ClassVar[str] = "a scalar"

    def where_at(self, offset: int) -> Where:
        """Where character ``offset`` of ``raw`` lies in the file, when that is certain
        (a one-line plain or simply quoted scalar); otherwise where the scalar starts."""
        if "\n" in self.raw or not 0 <= offset <= len(self.raw):
            return self.where
        if self.style is None:
            shift = 0
        elif self.style == "'" and "'" not in self.raw:
            shift = 1  # double quotes may hide escapes: no way back to columns
        else:
            return self.where
        return Where(self.file, self.line, self.col + shift + offset)


@dataclass(frozen=True, eq=False)
class YamlSequence(YamlNode):
    items: tuple[YamlNode, ...]
    kind: ClassVar[str] = "a list"


@dataclass(frozen=True, eq=False)
class YamlMapping(YamlNode):
    """A mapping with scalar keys, in file order; keys are looked up by their text."""

    entries: tuple[tuple[YamlScalar, YamlNode], ...]
    kind: ClassVar[str] = "a mapping"
    _index: dict[str, int] = field(default_factory=dict, repr=False)

    def __post_init__(self) -> None:
        for position, (key, _) in enumerate(self.entries):
            self._index.setdefault(key.raw, position)

    def get(self, key: str) -> YamlNode | None:
        position = self._index.get(key)
        return None if position is None else self.entries[position][1]

    def key_node(self, key: str) -> YamlScalar | None:
        position = self._index.get(key)
        return None if position is None else self.entries[position][0]

    def __contains__(self, key: object) -> bool:
        return key in self._index

    def keys(self) -> list[str]:
        return [key.raw for key, _ in self.entries]


# ---------------------------------------------------------------------------
# Reading


def read_yaml(
    path: str | Path, *, max_bytes: int = MAX_BYTES, max_nodes: int = MAX_NODES
) -> tuple[YamlNode | None, list[Diagnostic]]:
    """Read one YAML document from ``path`` (shown in messages as given).

    Returns the tree, or None when the file cannot be used as YAML, and every
    diagnostic found. A tree may come with errors that spoil no structure (a duplicate
    key keeps its first value), so callers can go on collecting their own problems.
    """
    file = str(path)
    data, problem = _read_bytes(Path(path), max_bytes)
    if data is None:
        return None, [Diagnostic(file, 0, 0, problem)]
    return parse_yaml(data, file, max_nodes=max_nodes)


def read_document(
    path: str | Path, build: Callable[[YamlNode, list[Diagnostic]], T | None]
) -> tuple[T | None, list[Diagnostic]]:
    """Read ``path`` and ``build`` a value from its tree (``build`` appends its own
    problems to the list it is given). Returns the value, None if there is any error,
    and every diagnostic in file order."""
    root, diagnostics = read_yaml(path)
    value = build(root, diagnostics) if root is not None else None
    diagnostics = in_file_order(diagnostics)
    return (None if errors_in(diagnostics) else value), diagnostics


def _read_bytes(path: Path, max_bytes: int) -> tuple[bytes | None, str]:
    try:
        if path.is_dir():
            return None, "is a directory, not a file"
        if path.is_fifo() or path.is_socket():  # opening a pipe would wait for a writer
            return None, "is a pipe or socket, not a file"
        with path.open("rb") as handle:
            size = os.fstat(handle.fileno()).st_size
            if size > max_bytes:
                return None, _too_large(size, max_bytes)
            # Read one byte past the limit: devices and pipes report no size.
            data = handle.read(max_bytes + 1)
    except FileNotFoundError:
        return None, "file not found"
    except PermissionError:
        return None, "cannot read file: permission denied"
    except OSError as exc:
        return None, f"cannot read file: {(exc.strerror or str(exc)).lower()}"
    if len(data) > max_bytes:
        return None, f"file is larger than the limit of {max_bytes} bytes ({_mib(max_bytes)})"
    return data, ""


def _mib(size: int) -> str:
    return f"{size / (1024 * 1024):g} MiB"


def _too_large(size: int, max_bytes: int) -> str:
    return (
        f"file is too large: {size} bytes ({_mib(size)}); "
        f"the limit is {max_bytes} bytes ({_mib(max_bytes)})"
    )


def parse_yaml(
    data: bytes | str, file: str, *, max_nodes: int = MAX_NODES
) -> tuple[YamlNode | None, list[Diagnostic]]:
    """Parse one YAML document; ``file`` names it in diagnostics. See :func:`read_yaml`."""
    if isinstance(data, bytes):
        text = _decode(data, file)
        if isinstance(text, Diagnostic):
            return None, [text]
    else:
        text = data
    text = text.removeprefix("\ufeff")
    return _Composer(file, max_nodes).compose(text)


def _decode(data: bytes, file: str) -> str | Diagnostic:
    data = data.removeprefix(b"\xef\xbb\xbf")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line_start = data.rfind(b"\n", 0, exc.start) + 1
        line = data.count(b"\n", 0, exc.start) + 1
        col = len(data[line_start : exc.start].decode("utf-8")) + 1
        return Diagnostic(
            file,
            line,
            col,
            f"file is not valid UTF-8: byte 0x{data[exc.start]:02x} cannot be decoded "
            "(save the file as UTF-8)",
        )


class _Mark(Protocol):
    """A position as PyYAML's pure-Python and libyaml parsers both give it (0-based)."""

    line: int
    column: int


class _Fatal(Exception):
    """Stops composing: the rest of the file cannot be read safely."""


@dataclass
class _Open:
    """A mapping or sequence whose end event has not come yet."""

    where: Where
    is_mapping: bool
    anchor: str | None
    size: int = 1
    items: list[YamlNode] = field(default_factory=list)
    keys_seen: dict[tuple[str, ScalarValue], Where] = field(default_factory=dict)
    skip_value: bool = False  # the pending value belongs to a refused key


class _Composer:
    def __init__(self, file: str, max_nodes: int) -> None:
        self.file = file
        self.max_nodes = max_nodes
        self.diagnostics: list[Diagnostic] = []
        self.spoiled = False  # an error that leaves no usable tree
        self.stack: list[_Open] = []
        self.anchors: dict[str, tuple[YamlNode, int]] = {}
        self.open_anchors: set[str] = set()
        self.expanded = 0
        self.documents = 0
        self.root: YamlNode | None = None

    def where(self, mark: _Mark | None) -> Where:
        if mark is None:
            return Where(self.file, 0, 0)
        return Where(self.file, mark.line + 1, mark.column + 1)

    def error(self, where: Where, message: str, *, spoils: bool = True) -> None:
        self.diagnostics.append(where.diagnostic(message))
        self.spoiled = self.spoiled or spoils

    def compose(self, text: str) -> tuple[YamlNode | None, list[Diagnostic]]:
        try:
            for event in yaml.parse(text, Loader=_Parser):
                self.handle(event)
        except _Fatal:
            pass
        except yaml.MarkedYAMLError as exc:
            self.error(self.where(exc.problem_mark or exc.context_mark), _syntax_message(exc))
        except yaml.YAMLError as exc:  # unmarked: e.g. a reader error on odd characters
            self.error(Where(self.file, 0, 0), f"invalid YAML: {exc}")
        if not self.diagnostics and self.documents == 0:
            self.error(Where(self.file, 0, 0), "file is empty (no YAML content)")
        return (None if self.spoiled else self.root), self.diagnostics

    def handle(self, event: yaml.Event) -> None:
        if isinstance(event, yaml.DocumentStartEvent):
            self.documents += 1
            if self.documents > 1:
                self.error(
                    self.where(event.start_mark),
                    "several YAML documents in one file (expected one; remove the '---' line)",
                )
                raise _Fatal
        elif isinstance(event, yaml.ScalarEvent):
            self.scalar(event)
        elif isinstance(event, yaml.AliasEvent):
            self.alias(event)
        elif isinstance(event, yaml.MappingStartEvent | yaml.SequenceStartEvent):
            self.start(event)
        elif isinstance(event, yaml.MappingEndEvent | yaml.SequenceEndEvent):
            self.end()

    def count(self, nodes: int, where: Where, *, alias: bool = False) -> None:
        self.expanded += nodes
        if self.expanded > self.max_nodes:
            if alias:
                message = (
                    f"aliases expand to more than {self.max_nodes} values "
                    "(is this a 'billion laughs' alias bomb?)"
                )
            else:
                message = f"more than {self.max_nodes} values in one file (the limit)"
            self.error(where, message)
            raise _Fatal

    def scalar(self, event: yaml.ScalarEvent) -> None:
        where = self.where(event.start_mark)
        self.count(1, where)
        tag = event.tag
        if tag is None or tag == "!":
            tag = _resolve(event.value, event.implicit)
        short = tag[len(_YAML_TAG) :] if tag.startswith(_YAML_TAG) else ""
        value: ScalarValue = event.value
        if short not in _SCALAR_TAGS:
            self.bad_tag(where, tag)
            short = "str"
        elif short != "str":
            try:
                value = _construct(short, event.value)
            except (ValueError, KeyError, ConstructorError):
                self.error(where, f"{event.value!r} is not a valid !!{short} value")
                short = "str"
        node = YamlScalar(where, value, event.value, short, event.style or None)  # libyaml: ''
        if event.anchor is not None:
            self.anchors[event.anchor] = (node, 1)
        self.add(node, 1)

    def bad_tag(self, where: Where, tag: str) -> None:
        shown = "!!" + tag[len(_YAML_TAG) :] if tag.startswith(_YAML_TAG) else tag
        self.error(
            where,
            f"unsupported tag {shown!r} (only the standard tags {_STANDARD_TAGS} are allowed)",
        )

    def alias(self, event: yaml.AliasEvent) -> None:
        where = self.where(event.start_mark)
        name = event.anchor
        if name in self.open_anchors:
            self.error(where, f"recursive alias '*{name}' (it refers to a value that contains it)")
            raise _Fatal
        if name not in self.anchors:
            self.error(where, f"undefined alias '*{name}' (expected an anchor '&{name}' before it)")
            raise _Fatal
        node, size = self.anchors[name]
        self.count(size, where, alias=True)
        self.add(node, size)

    def start(self, event: yaml.MappingStartEvent | yaml.SequenceStartEvent) -> None:
        where = self.where(event.start_mark)
        self.count(1, where)
        is_mapping = isinstance(event, yaml.MappingStartEvent)
        expected = _YAML_TAG + ("map" if is_mapping else "seq")
        if event.tag not in (None, "!", expected):
            self.bad_tag(where, event.tag)
        if len(self.stack) >= MAX_DEPTH:
            self.error(where, f"lists and mappings are nested more than {MAX_DEPTH} levels deep")
            raise _Fatal
        if event.anchor is not None:
            self.open_anchors.add(event.anchor)
        self.stack.append(_Open(where, is_mapping, event.anchor))

    def end(self) -> None:
        frame = self.stack.pop()
        node: YamlNode
        if frame.is_mapping:
            pairs = zip(frame.items[0::2], frame.items[1::2], strict=True)
            entries = tuple((key, value) for key, value in pairs if isinstance(key, YamlScalar))
            node = YamlMapping(frame.where, entries)
        else:
            node = YamlSequence(frame.where, tuple(frame.items))
        if frame.anchor is not None:
            self.open_anchors.discard(frame.anchor)
            self.anchors[frame.anchor] = (node, frame.size)
        self.add(node, frame.size)

    def add(self, node: YamlNode, size: int) -> None:
        if not self.stack:
            self.root = node
            return
        frame = self.stack[-1]
        frame.size += size
        if not frame.is_mapping:
            frame.items.append(node)
            return
        if len(frame.items) % 2 == 1:  # a value
            if frame.skip_value:
                frame.items.pop()
                frame.skip_value = False
            else:
                frame.items.append(node)
            return
        # A key: a plain value that appears once.
        if not isinstance(node, YamlScalar):
            self.error(node.where, f"mapping keys must be plain values, not {node.kind}")
            frame.items.append(node)
            frame.skip_value = True
            return
        identity = (node.tag, node.value)
        first = frame.keys_seen.get(identity)
        if first is not None:
            self.error(
                node.where,
                f"duplicate key {node.raw!r} (already set at line {first.line}; "
                "each key may appear once)",
                spoils=False,
            )
            frame.items.append(node)
            frame.skip_value = True
            return
        frame.keys_seen[identity] = node.where
        frame.items.append(node)


def _construct(tag: str, text: str) -> ScalarValue:
    node = yaml.ScalarNode(_YAML_TAG + tag, text)
    if tag == "int":
        return int(_CONSTRUCTOR.construct_yaml_int(node))
    if tag == "float":
        return float(_CONSTRUCTOR.construct_yaml_float(node))
    if tag == "bool":
        return bool(_CONSTRUCTOR.construct_yaml_bool(node))
    _CONSTRUCTOR.construct_yaml_null(node)
    return None


def _syntax_message(exc: yaml.MarkedYAMLError) -> str:
    problem = (exc.problem or "").strip() or "cannot parse this"
    message = f"invalid YAML: {problem}"
    if exc.context:
        context = exc.context.strip()
        mark = exc.context_mark
        if mark is not None and exc.problem_mark is not None and mark.line != exc.problem_mark.line:
            context += f" started at line {mark.line + 1}"
        message += f" ({context})"
    return message


# ---------------------------------------------------------------------------
# Helpers for validators: each reports what is wrong and what was expected.


def describe(node: YamlNode) -> str:
    """How a value is named in a message: quoted scalars, or its kind."""
    if isinstance(node, YamlScalar):
        if node.tag == "null" and node.raw in ("", "~"):
            return "nothing"
        return repr(node.raw)
    return node.kind


def join_choices(choices: Sequence[str], last: str = "or") -> str:
    """``a, b or c``."""
    if len(choices) <= 1:
        return "".join(choices)
    return f"{', '.join(choices[:-1])} {last} {choices[-1]}"


def check_keys(
    mapping: YamlMapping, what: str, required: Iterable[str], optional: Iterable[str] = ()
) -> list[Diagnostic]:
    """Unknown keys are warnings (a typo should not stop a build unless strict);
    missing required keys are errors, reported at the mapping."""
    required = list(required)
    known = [*required, *optional]
    found: list[Diagnostic] = []
    for key, _ in mapping.entries:
        if key.raw not in known:
            found.append(
                key.diagnostic(
                    f"unknown key {key.raw!r} in {what} (expected {join_choices(known)})",
                    Severity.WARNING,
                )
            )
    for name in required:
        if name not in mapping:
            found.append(mapping.diagnostic(f"{what} is missing the required key {name!r}"))
    return found


def expect_mapping(node: YamlNode, what: str, diagnostics: list[Diagnostic]) -> YamlMapping | None:
    if isinstance(node, YamlMapping):
        return node
    diagnostics.append(node.diagnostic(f"{what} must be a mapping of keys, got {describe(node)}"))
    return None


def expect_sequence(
    node: YamlNode, what: str, diagnostics: list[Diagnostic]
) -> YamlSequence | None:
    if isinstance(node, YamlSequence):
        return node
    diagnostics.append(node.diagnostic(f"{what} must be a list, got {describe(node)}"))
    return None


def expect_int(node: YamlNode, what: str, diagnostics: list[Diagnostic]) -> int | None:
    if isinstance(node, YamlScalar) and node.tag == "int" and isinstance(node.value, int):
        return node.value
    diagnostics.append(node.diagnostic(f"{what} must be a whole number, got {describe(node)}"))
    return None


def expect_bool(node: YamlNode, what: str, diagnostics: list[Diagnostic]) -> bool | None:
    if isinstance(node, YamlScalar) and node.tag == "bool" and isinstance(node.value, bool):
        return node.value
    diagnostics.append(node.diagnostic(f"{what} must be true or false, got {describe(node)}"))
    return None


def expect_text(node: YamlNode, what: str, diagnostics: list[Diagnostic]) -> str | None:
    """Any non-empty scalar, as written: ``name: 1984`` is the text "1984"."""
    if isinstance(node, YamlScalar) and node.tag != "null" and node.raw.strip():
        return node.raw
    diagnostics.append(node.diagnostic(f"{what} must be a non-empty text, got {describe(node)}"))
    return None


def in_file_order(diagnostics: Iterable[Diagnostic]) -> list[Diagnostic]:
    """Sorted by position; file-level problems (line 0) first, ties keep their order."""
    return sorted(diagnostics, key=lambda d: (d.file, d.line, d.col))
