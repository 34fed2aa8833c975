"""Run the plain-text rules vectors in tests/vectors/*.txt (format at the top of each file
and in docs/rules-engine.md). Each vector is one test, named after its file and title."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from micropul_print.games.micropul.model import QUADRANT_NAMES, Catalogue
from micropul_print.games.micropul.rules import Board, Placement

HERE = Path(__file__).parent


@dataclass
class Vector:
    file: str
    name: str
    line: int
    lines: list[tuple[int, str]] = field(default_factory=list)


def read_vectors() -> Iterator[Vector]:
    for path in sorted(HERE.glob("*.txt")):
        current: Vector | None = None
        for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            text = raw.split("#", 1)[0].strip()
            if not text:
                continue
            if text.startswith("vector:"):
                if current is not None:
                    yield current
                current = Vector(path.name, text.removeprefix("vector:").strip(), number)
            elif current is None:
                raise ValueError(f"{path.name}:{number}: a line before the first 'vector:'")
            else:
                current.lines.append((number, text))
        if current is not None:
            yield current


VECTORS = list(read_vectors())


def _quadrant(name: str) -> int:
    return QUADRANT_NAMES.index(name)


def run_vector(vector: Vector, catalogue: Catalogue) -> None:
    board = Board(catalogue)
    last: Placement | None = None
    for number, text in vector.lines:
        where = f"{vector.file}:{number}: {text!r}"
        head, _, tail = text.partition(":")
        words = head.split()
        verb = words[0]
        if verb == "place":
            tile, x, y, rotation = map(int, words[1:5])
            last = board.place(tile, x, y, rotation, check=len(board) > 0)
        elif verb == "stone":
            board.add_stone(int(words[1]), int(words[2]), int(words[3]), _quadrant(words[4]))
        elif verb == "illegal":
            tile, x, y, rotation = map(int, words[1:5])
            reason = board.legality(tile, x, y, rotation)
            assert reason == tail.strip(), f"{where}: got {reason!r}"
        elif verb == "legal":
            tile = int(words[1])
            found = board.legal_placements(tile)
            wanted = tail.strip()
            if wanted.isdigit():
                assert len(found) == int(wanted), f"{where}: got {len(found)}: {found}"
            else:
                expected = (
                    []
                    if wanted == "none"
                    else sorted(tuple(map(int, item.split(","))) for item in wanted.split())
                )
                assert found == expected, f"{where}: got {found}"
        elif verb == "activated":
            assert last is not None, f"{where}: no placement yet"
            catalysts = sorted((c.x, c.y, c.position, c.kind) for c in last.activated)
            claimed: list[tuple[int, int, str, str]] = []
            if tail.strip() != "none":
                for item in tail.split(","):
                    x_, y_, position, kind = item.split()
                    claimed.append((int(x_), int(y_), position, kind))
            assert catalysts == sorted(claimed), f"{where}: got {catalysts}"
        elif verb in ("draws", "plus"):
            assert last is not None, f"{where}: no placement yet"
            value = last.draws if verb == "draws" else last.plus
            assert value == int(tail), f"{where}: got {value}"
        elif verb == "group":
            x, y, q = int(words[1]), int(words[2]), _quadrant(words[3])
            spec = tail.split()
            colour, points, state = spec[0], int(spec[1]), spec[2]
            stones = tuple(sorted(int(s) for s in spec[4:])) if spec[3:4] == ["stones"] else ()
            matches = [g for g in board.groups() if (x, y, q) in g.quadrants]
            assert len(matches) == 1, f"{where}: no micropul there"
            group = matches[0]
            seen = (group.colour, group.points, "closed" if group.closed else "open", group.stones)
            assert seen == (colour, points, state, stones), f"{where}: got {seen}"
        elif verb == "groups":
            assert len(board.groups()) == int(tail), f"{where}: got {len(board.groups())}"
        elif verb == "score":
            score = board.group_scores().get(int(words[1]), 0)
            assert score == int(tail), f"{where}: got {score}"
        else:
            raise AssertionError(f"{where}: unknown line")


@pytest.mark.parametrize("vector", VECTORS, ids=[f"{v.file}:{v.line}" for v in VECTORS])
def test_vector(vector: Vector, catalogue: Catalogue) -> None:
    run_vector(vector, catalogue)


def test_there_are_enough_vectors() -> None:
    assert len(VECTORS) >= 15


def test_a_wrong_expectation_fails(catalogue: Catalogue) -> None:
    """The runner really compares: a vector with a false claim raises."""
    wrong = Vector("inline", "wrong", 1, [(2, "place 41 0 0 0"), (3, "legal 47: 2")])
    with pytest.raises(AssertionError, match="got 4"):
        run_vector(wrong, catalogue)
