"""How a build shows its progress (the kit.BuildEvents it is told).

On a terminal, one live line per job (the tiles, each paper's sheets, each rulebook)
with its count and elapsed time, redrawn in place by rich's progress display (rich
rather than tqdm: several live lines at once, with columns, are what its Progress is
made for; tqdm's stacked bars need positions managed by hand). In a pipe or a log, one
line per job when it ends, in the jobs' fixed order whichever worker ends first, so
two runs print the same lines.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path
from types import TracebackType
from typing import Any, TextIO

# A job's message that counts its steps ends in "N/M" ("tile 7/48").
COUNT = re.compile(r"(\d+)/(\d+)\s*$")


def what_was_written(files: Sequence[Path], root: Path | None) -> str:
    """The one file (relative to the output directory ``root``; its name alone without
    one), or how many."""
    if len(files) != 1:
        return f"{len(files)} files"
    if root is not None and root in files[0].parents:
        return files[0].relative_to(root).as_posix()
    return files[0].name if root is None else str(files[0])


class LineProgress:
    """One line per job when it ends, in job order: ``label: what (seconds)``."""

    def __init__(self, root: Path, stream: TextIO) -> None:
        self.root = root.resolve()
        self.stream = stream
        self.labels: list[str] = []
        self.ended: dict[int, str] = {}
        self.next = 0

    def planned(self, labels: Sequence[str]) -> None:
        self.labels = list(labels)

    def started(self, index: int) -> None:
        pass

    def said(self, index: int, message: str) -> None:
        pass

    def finished(self, index: int, files: Sequence[Path], seconds: float) -> None:
        self.ended[index] = (f"{self.labels[index]}: {what_was_written(files, self.root)} "
                             f"({seconds:.1f} s)")
        while self.next in self.ended:
            print(self.ended.pop(self.next), file=self.stream, flush=True)
            self.next += 1


class LiveProgress:
    """A live line per job on a terminal; use as a context manager around the build."""

    def __init__(self, stream: TextIO) -> None:
        from rich.console import Console
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            Progress,
            TextColumn,
            TimeElapsedColumn,
        )

        self.display = Progress(
            TextColumn("{task.description}"), BarColumn(bar_width=10), MofNCompleteColumn(),
            TimeElapsedColumn(), TextColumn("{task.fields[detail]}"),
            console=Console(file=stream), refresh_per_second=8)
        self.tasks: list[Any] = []

    def __enter__(self) -> LiveProgress:
        self.display.start()
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self.display.stop()

    def planned(self, labels: Sequence[str]) -> None:
        self.tasks = [self.display.add_task(label, total=None, start=False, detail="")
                      for label in labels]

    def started(self, index: int) -> None:
        self.display.start_task(self.tasks[index])

    def said(self, index: int, message: str) -> None:
        count = COUNT.search(message)
        if count:
            self.display.update(self.tasks[index], completed=int(count.group(1)),
                                total=int(count.group(2)))

    def finished(self, index: int, files: Sequence[Path], seconds: float) -> None:
        task = self.tasks[index]
        total = next(t.total for t in self.display.tasks if t.id == task)
        done = int(total) if total else max(1, len(files))
        self.display.update(task, total=done, completed=done,
                            detail=what_was_written(files, None))  # narrow: the name
        self.display.stop_task(task)
