"""Run the plain-text Cellulae vectors in tests/vectors/cellulae/*.txt (format at the top
of each file). Each vector is one test, named after its file and line.

They live in a folder of their own: tests/vectors/test_vectors.py reads every
tests/vectors/*.txt as a Micropul vector."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from micropul_print.games.cellulae.rules import BLACK, COLOURS, Board, Move

HERE = Path(__file__).resolve().parents[2] / "vectors" / "cellulae"


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


def position(rows: str, turn: str = BLACK) -> Board:
    grid = rows.split("/")
    tiles = {}
    for y, row in enumerate(grid):
        assert len(row) == len(grid), f"row {row!r} is not {len(grid)} squares long"
        for x, char in enumerate(row):
            if char != ".":
                tiles[(x, y)] = {"B": "black", "W": "white"}[char]
    return Board.from_tiles(len(grid), tiles, turn)


def squares(text: str) -> list[tuple[int, int]]:
    if text == "none":
        return []
    return [(int(x), int(y)) for x, _, y in (item.partition(",") for item in text.split())]


def run_vector(vector: Vector) -> None:
    board: Board | None = None
    flipped: list[tuple[int, int]] | None = None
    for number, text in vector.lines:
        where = f"{vector.file}:{number}: {text!r}"
        head, _, tail = text.partition(":")
        words = head.split()
        verb, tail = words[0], tail.strip()
        if verb == "start":
            board = Board(int(words[1]))
            continue
        if verb == "position":
            board = position(words[1], *words[2:3])
            continue
        assert board is not None, f"{where}: no 'start' or 'position' yet"
        if verb == "quiet" and not tail:
            board.quiet = int(words[1])
        elif verb == "play":
            move = Move.parse(" ".join(words[1:]))
            flipped = board.flipped_by(move)
            board.apply_action(move)
        elif verb == "illegal":
            reason = board.illegal_reason(Move.parse(" ".join(words[1:])))
            assert reason == tail, f"{where}: got {reason!r}"
        elif verb == "flipped":
            assert flipped is not None, f"{where}: nothing played yet"
            assert flipped == squares(tail), f"{where}: got {flipped}"
        elif verb == "legal":
            assert words[1] in COLOURS, f"{where}: unknown colour"
            found = sorted(str(move) for move in board.legal_actions(words[1]))
            if tail.isdigit():
                assert len(found) == int(tail), f"{where}: got {len(found)}: {found}"
            else:
                wanted = [] if tail == "none" else sorted(m.strip() for m in tail.split(";"))
                assert found == wanted, f"{where}: got {found}"
        elif verb == "board":
            assert "/".join(board.rows()) == tail, f"{where}: got {'/'.join(board.rows())}"
        elif verb == "turn":
            assert board.turn == tail, f"{where}: got {board.turn}"
        elif verb == "counts":
            counts = board.counts()
            got = f"{counts['black']} {counts['white']}"
            assert got == tail, f"{where}: got {got}"
        elif verb == "quiet":
            assert board.quiet == int(tail), f"{where}: got {board.quiet}"
        elif verb == "over":
            reason = board.end_reason() or "no"
            assert reason == tail, f"{where}: got {reason!r}"
        elif verb == "winner":
            outcome = board.outcome()
            assert outcome is not None, f"{where}: the game is not over"
            assert (outcome.winner or "draw") == tail, f"{where}: got {outcome.winner}"
        else:
            raise AssertionError(f"{where}: unknown line")


@pytest.mark.parametrize("vector", VECTORS, ids=[f"{v.file}:{v.line}" for v in VECTORS])
def test_vector(vector: Vector) -> None:
    run_vector(vector)


def test_there_are_vectors_for_every_rule() -> None:
    assert len(VECTORS) >= 10


def test_a_wrong_expectation_fails() -> None:
    """The runner really compares: a vector with a false claim raises."""
    wrong = Vector("inline", "wrong", 1, [(2, "start 5"), (3, "legal black: 4")])
    with pytest.raises(AssertionError, match="got 5"):
        run_vector(wrong)
    unknown = Vector("inline", "unknown", 1, [(2, "start 5"), (3, "castle: 1")])
    with pytest.raises(AssertionError, match="unknown line"):
        run_vector(unknown)
