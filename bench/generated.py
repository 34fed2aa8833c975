"""A generated Micropul catalogue of any size, as a designer's script might write one:
random faces in colour-swapped pairs (tiles 2k-1 and 2k), one start tile, a few big
tiles. For the benchmarks of ``check`` on large sets."""

from __future__ import annotations

import random
from pathlib import Path

_SMALL = ("W", "B", "1", "2", "P", ".")
_WEIGHTS = (3, 3, 1, 1, 1, 2)
_SWAP = {"W": "B", "B": "W"}


def generated_catalogue(tiles: int, seed: int = 0) -> str:
    """The YAML text of a catalogue of ``tiles`` tiles (an even number, 2 or more)."""
    if tiles < 2 or tiles % 2:
        raise ValueError(f"a generated catalogue has an even number of tiles, not {tiles}")
    rng = random.Random(seed)
    lines = ["game: micropul", f"name: Generated {tiles}", f"tile_count: {tiles}", "tiles:"]
    for first in range(1, tiles + 1, 2):
        if first == 1:
            faces = [["W", "W", "B", "B"], ["B", "B", "W", "W"]]
        elif rng.random() < 0.02:
            colour, catalyst = rng.choice("WB"), rng.choice("12P")
            for tile_id, c in ((first, colour), (first + 1, _SWAP[colour])):
                lines += [f"  - id: {tile_id}", f"    big: {{colour: {c}, catalyst: {catalyst}}}"]
            continue
        else:
            face = rng.choices(_SMALL, _WEIGHTS, k=4)
            while not {"W", "B"} & set(face):
                face = rng.choices(_SMALL, _WEIGHTS, k=4)
            faces = [face, [_SWAP.get(q, q) for q in face]]
        for tile_id, (tl, tr, br, bl) in zip((first, first + 1), faces, strict=True):
            lines.append(f"  - id: {tile_id}")
            if tile_id == 1:
                lines.append("    start: true")
            lines += ["    face:", f"      - {tl} {tr}", f"      - {bl} {br}"]
    return "\n".join(lines) + "\n"


def write_generated(path: Path, tiles: int, seed: int = 0) -> Path:
    path.write_text(generated_catalogue(tiles, seed), encoding="utf-8")
    return path
