"""What the page shows, read from the kit folder and the catalogue: the tiles (each its
SVG, with its catalogue entry), the back, the pages of each sheet, board and rulebook
PDF, by file name as docs/output-layout.md fixes them.

The view is plain data (JSON for the page's script); every text in it is shown by the
script as text (``textContent``), never as markup.
"""

from __future__ import annotations

import base64
import hashlib
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

# Bounds on what is read for the page: the kit of one game has a few hundred files.
MAX_KIT_FILES = 5000
MAX_CATALOGUE_BYTES = 4 * 1024 * 1024
MAX_INLINE_BYTES = 64 * 1024  # a tile's SVG sent inline; a larger one by its address
MAX_ENTRY_LINES = 12  # of a tile's catalogue entry, shown on hover

_TILE = re.compile(r"^tile-(?P<name>.+)\.svg$")
_RULES = re.compile(r"^(?P<game>.+)-rules-(?P<lang>[a-z]{2,3}(?:[-_][A-Za-z]+)?)-"
                    r"(?P<paper>[a-z0-9]+)\.pdf$")


def kit_files(kit: Path) -> dict[str, str]:
    """Every regular file of the kit (symbolic links left out) as {relative path:
    short content hash}, at most MAX_KIT_FILES."""
    found: dict[str, str] = {}
    if not kit.is_dir():
        return found
    for path in sorted(kit.rglob("*")):
        if len(found) >= MAX_KIT_FILES:
            break
        relative = path.relative_to(kit)
        if any(part.startswith(".") for part in relative.parts):
            continue  # the build's staging folder and manifest
        if path.is_symlink() or not path.is_file():
            continue
        try:
            found[relative.as_posix()] = hashlib.sha1(path.read_bytes()).hexdigest()[:12]
        except OSError:
            continue  # replaced while read: the next scan has it
    return found


@dataclass(frozen=True)
class CatalogueEntry:
    """A tile's place in the catalogue file and its text there."""

    where: str
    text: str


_entries_cache: dict[tuple[str, int, int], tuple[str, str, dict[str, CatalogueEntry]]] = {}


def catalogue_entries(catalogue: Path | None,
                      ) -> tuple[str, str, dict[str, CatalogueEntry]]:
    """As :func:`read_entries`, read again only when the file changed."""
    if catalogue is None:
        return "", "", {}
    try:
        stat = catalogue.stat()
    except OSError:
        return "", "", {}
    key = (str(catalogue), stat.st_mtime_ns, stat.st_size)
    if key not in _entries_cache:
        _entries_cache.clear()
        _entries_cache[key] = read_entries(catalogue)
    return _entries_cache[key]


def read_entries(catalogue: Path | None) -> tuple[str, str, dict[str, CatalogueEntry]]:
    """The set's name, its game and each tile's entry in ``catalogue`` (by its ``id``, as the kit
    names its files: ``7`` for tile-07.svg), as far as the file can be read; a file
    that cannot be read gives none (the build says what is wrong with it)."""
    if catalogue is None:
        return "", "", {}
    try:
        data = catalogue.read_bytes()[:MAX_CATALOGUE_BYTES + 1]
    except OSError:
        return "", "", {}
    if len(data) > MAX_CATALOGUE_BYTES:
        return "", "", {}
    import yaml

    text = data.decode("utf-8", "replace")
    try:
        root = yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.YAMLError:
        return "", "", {}
    if not isinstance(root, yaml.MappingNode):
        return "", "", {}
    lines = text.splitlines()
    name = game = ""
    entries: dict[str, CatalogueEntry] = {}
    for key, value in root.value:
        if not isinstance(key, yaml.ScalarNode):
            continue
        if key.value in ("name", "game") and isinstance(value, yaml.ScalarNode):
            if key.value == "name":
                name = value.value
            else:
                game = value.value
        if key.value == "tiles" and isinstance(value, yaml.SequenceNode):
            for item in value.value:
                ident = _id_of(item)
                if ident is None:
                    continue
                first, last = item.start_mark.line, item.end_mark.line
                if last >= len(lines) or not lines[last][:item.end_mark.column].strip(" -"):
                    last -= 1  # the entry ends where the next one (or the file) starts
                shown = lines[first:max(first, last) + 1][:MAX_ENTRY_LINES]
                entries[ident] = CatalogueEntry(f"{catalogue.name}:{first + 1}",
                                                "\n".join(line.rstrip() for line in shown))
    return name, game, entries


def _id_of(item: Any) -> str | None:
    import yaml

    if not isinstance(item, yaml.MappingNode):
        return None
    for key, value in item.value:
        if isinstance(key, yaml.ScalarNode) and key.value == "id" and isinstance(
                value, yaml.ScalarNode):
            return str(value.value)
    return None


def _tile_key(name: str) -> tuple[int, int, str]:
    """Tiles by number, then by name; the back last."""
    if name == "back":
        return (2, 0, name)
    return (0, int(name), name) if name.isdigit() else (1, 0, name)


def tiles_view(files: dict[str, str], entries: dict[str, CatalogueEntry],
               kit: Path | None = None) -> list[dict[str, Any]]:
    """Each tile's SVG (the back last), numbered, with its catalogue entry. With ``kit``
    (the folder), each SVG inline as a data: address: the page gets every tile with its
    state, in one answer instead of 49 (and an edited tile with the state that says
    so); without, its address under /kit/."""
    tiles = []
    for path, digest in files.items():
        folder, _slash, name = path.rpartition("/")
        found = _TILE.match(name)
        if found is None or not folder.endswith("tiles/svg"):
            continue
        label = found["name"]
        number = (label.lstrip("0") or "0") if label.isdigit() else label
        entry = entries.get(number)
        src = f"/kit/{path}?v={digest}"
        if kit is not None:
            try:
                data = (kit / path).read_bytes()
            except OSError:
                data = None
            if data is not None and len(data) <= MAX_INLINE_BYTES:
                src = "data:image/svg+xml;base64," + base64.b64encode(data).decode("ascii")
        tiles.append({
            "key": label, "src": src, "path": path,
            "label": f"tile {number}" if label != "back" else "back",
            "where": entry.where if entry else "", "entry": entry.text if entry else "",
        })
    tiles.sort(key=lambda tile: _tile_key(str(tile["key"])))
    return tiles


def pdf_groups(files: dict[str, str]) -> dict[str, Any]:
    """The PDFs the page shows, by kind: tile sheets, boards, and the rulebooks (not the
    booklets) by language."""
    sheets: list[dict[str, str]] = []
    boards: list[dict[str, str]] = []
    rules: dict[str, list[dict[str, str]]] = {}
    for path, digest in files.items():
        folder, _slash, name = path.rpartition("/")
        item = {"path": path, "version": digest, "name": name}
        if folder.endswith("sheets") and name.endswith(".pdf"):
            (boards if "-board-" in name else sheets).append(item)
        elif folder.endswith("rules"):
            found = _RULES.match(name)
            if found is not None and "booklet" not in name:
                rules.setdefault(found["lang"], []).append(item)
    return {"sheets": sheets, "boards": boards, "rules": dict(sorted(rules.items()))}
