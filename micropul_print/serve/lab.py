"""The lab's files the page lists: the reports ``analyse --report`` wrote (each
``report.html``, a self-contained page) and the game records ``play --record`` wrote,
found under the configured report folder (``report`` in the ``[analyse]`` table of
micropul-print.toml) and under the working folder, two folders deep at most. A record
opens in the replay viewer, whose pictures are ``replay --out``'s.

The page names each file by its number in the list, never by a path: the server is
never asked for a path outside the kit.
"""

from __future__ import annotations

import json
import os
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from micropul_print.serve.kitwatch import Children, ChildrenStopped, parse_problem, tool_command

MAX_DEPTH = 2  # folders below each place searched
MAX_ENTRIES = 2000  # folder entries looked at in one search
MAX_FOUND = 100  # reports, and records, listed
MAX_RECORD_BYTES = 5 * 1024 * 1024
MAX_REPORT_BYTES = 50 * 1024 * 1024
REPLAY_SECONDS = 300.0
RESCAN_SECONDS = 2.0
_SKIPPED = {"node_modules", "__pycache__", ".venv", "venv"}


@dataclass(frozen=True)
class LabFile:
    kind: str  # "report" or "record"
    path: Path
    label: str  # relative to the folder it was found in


def report_folder(cwd: Path) -> Path | None:
    """The configured report folder: ``report`` in ``[analyse]`` of the working folder's
    micropul-print.toml (a name ending in .html is the page itself)."""
    import tomllib

    config = cwd / "micropul-print.toml"
    try:
        with config.open("rb") as handle:
            table = tomllib.loads(handle.read(1024 * 1024).decode("utf-8")).get("analyse")
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError, RecursionError):
        return None  # build says what is wrong with the file
    value = table.get("report") if isinstance(table, dict) else None
    if not isinstance(value, str) or not value or "\0" in value:
        return None
    folder = config.parent / value
    return folder.parent if folder.suffix == ".html" else folder


def _walk(root: Path, budget: list[int]) -> list[Path]:
    """Files under ``root``, MAX_DEPTH folders deep, hidden ones and links left out."""
    found: list[Path] = []
    pending = [(root, 0)]
    while pending and budget[0] > 0:
        folder, depth = pending.pop(0)
        try:
            entries = sorted(os.scandir(folder), key=lambda entry: entry.name)
        except OSError:
            continue
        for entry in entries:
            budget[0] -= 1
            if budget[0] <= 0:
                break
            if entry.name.startswith(".") or entry.is_symlink():
                continue
            if entry.is_dir() and depth < MAX_DEPTH and entry.name not in _SKIPPED:
                pending.append((Path(entry.path), depth + 1))
            elif entry.is_file():
                found.append(Path(entry.path))
    return found


def _is_record(path: Path) -> bool:
    try:
        if path.stat().st_size > MAX_RECORD_BYTES:
            return False
        data = json.loads(path.read_bytes())
    except (OSError, ValueError, RecursionError):
        return False
    return isinstance(data, dict) and isinstance(data.get("moves"), list) and isinstance(
        data.get("game"), str)


def find_lab_files(places: list[Path], skip: Path) -> list[LabFile]:
    """Reports and records under ``places`` (``skip``: serve's own folder)."""
    budget = [MAX_ENTRIES]
    reports: list[LabFile] = []
    records: list[LabFile] = []
    seen: set[Path] = set()
    for place in places:
        for path in _walk(place, budget):
            resolved = path.resolve()
            if resolved in seen or resolved.is_relative_to(skip):
                continue
            seen.add(resolved)
            label = path.relative_to(place).as_posix()
            if path.name == "report.html" and len(reports) < MAX_FOUND:
                reports.append(LabFile("report", path, label))
            elif path.suffix == ".json" and path.name != "report.json" and (
                    len(records) < MAX_FOUND and _is_record(path)):
                records.append(LabFile("record", path, label))
    return reports + records


class Lab:
    """The lab's files, searched again at most every RESCAN_SECONDS, and the replays
    drawn into ``folder``."""

    def __init__(self, cwd: Path, folder: Path, catalogue: Callable[[], Path | None],
                 set_name: Callable[[], str], children: Children) -> None:
        self.cwd = cwd
        self.folder = folder
        self.catalogue = catalogue  # asked at each replay: the configuration may change
        self.set_name = set_name
        self._children = children
        self._lock = threading.Lock()
        self._files: list[LabFile] = []
        self._searched = -RESCAN_SECONDS
        self._replays: dict[int, tuple[float, dict[str, Any]]] = {}

    def files(self) -> list[LabFile]:
        with self._lock:
            if time.monotonic() - self._searched >= RESCAN_SECONDS:
                configured = report_folder(self.cwd)
                places = [p for p in (configured, self.cwd) if p is not None and p.is_dir()]
                self._files = find_lab_files(places, self.folder.resolve())
                self._searched = time.monotonic()
            return list(self._files)

    def view(self) -> dict[str, Any]:
        listed = self.files()
        return {"reports": [{"id": n, "label": f.label} for n, f in enumerate(listed)
                            if f.kind == "report"],
                "records": [{"id": n, "label": f.label} for n, f in enumerate(listed)
                            if f.kind == "record"]}

    def get(self, number: int, kind: str) -> LabFile | None:
        listed = self.files()
        if 0 <= number < len(listed) and listed[number].kind == kind:
            return listed[number]
        return None

    def report_page(self, number: int) -> bytes | None:
        found = self.get(number, "report")
        if found is None:
            return None
        try:
            if found.path.stat().st_size > MAX_REPORT_BYTES:
                return None
            return found.path.read_bytes()
        except OSError:
            return None

    def replay(self, number: int) -> dict[str, Any] | None:
        """The replay of record ``number``: each turn's picture and move, or the
        problems ``replay`` found; drawn again when the record changes."""
        found = self.get(number, "record")
        if found is None:
            return None
        try:
            stamp = found.path.stat().st_mtime
        except OSError:
            return None
        with self._lock:
            known = self._replays.get(number)
            if known is not None and known[0] == stamp:
                return known[1]
        out = self.folder / f"replay-{number}"
        words = ["replay", str(found.path), "--out", str(out)]
        try:
            record = json.loads(found.path.read_bytes())
        except (OSError, ValueError, RecursionError):
            record = {}
        catalogue = self.catalogue()
        if (catalogue is not None and isinstance(record, dict)
                and record.get("catalogue") == self.set_name()):
            words += ["--catalogue", str(catalogue)]
        try:
            code, out_text, err = self._children.run(tool_command(*words),
                                                     timeout=REPLAY_SECONDS, cwd=self.cwd)
        except ChildrenStopped:
            return None
        turns = sorted(out.glob("turn-*.svg")) if code == 0 else []
        moves = record.get("moves") if isinstance(record, dict) else None
        moves = moves if isinstance(moves, list) else []
        # replay writes each move in the game's notation (moves.txt, "N. P2 26 @ ...").
        written = _notation(out / "moves.txt") if code == 0 else []
        if len(written) == len(moves):
            moves = [{"notation": line} for line in written]
        result: dict[str, Any] = {
            "label": found.label,
            "turns": [{"src": f"/replay/{number}/{index}.svg?v={stamp}",
                       "move": _move_text(moves[index - 1]) if 0 < index <= len(moves)
                       else "set-up"} for index in range(len(turns))],
            "problems": [] if code == 0 else [
                {"where": p.where, "severity": p.severity, "message": p.message}
                for p in (parse_problem(line, "replay") for line in err.splitlines())
                if p is not None] or [{"where": "", "severity": "error",
                                       "message": (err or out_text).strip()[-500:]}],
        }
        with self._lock:
            self._replays[number] = (stamp, result)
        return result

    def turn_picture(self, number: int, turn: int) -> bytes | None:
        with self._lock:
            known = self._replays.get(number)
        if known is None or not 0 <= turn < len(known[1]["turns"]):
            return None
        pictures = sorted((self.folder / f"replay-{number}").glob("turn-*.svg"))
        try:
            return pictures[turn].read_bytes()
        except (OSError, IndexError):
            return None


def _notation(path: Path) -> list[str]:
    """The moves of replay's moves.txt, without their numbers; none if unreadable."""
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError):
        return []
    return [line.partition(". ")[2] or line for line in lines]


def _move_text(move: object) -> str:
    """A move as the page shows it: its notation when the record gives one."""
    if isinstance(move, dict) and isinstance(move.get("notation"), str):
        return str(move["notation"])
    return json.dumps(move, ensure_ascii=False, separators=(", ", ": "))[:300]
