"""Build progress: events as they happen (from worker processes too), one line per part
in a pipe in a fixed order, a live line per part on a terminal, and a summary that says
what to print and how."""

from __future__ import annotations

import io
import re
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

import pytest

from micropul_print.kit.build import KitOptions, build_kit, format_summary
from micropul_print.kit.progress import LineProgress, LiveProgress


class Recorder:
    def __init__(self) -> None:
        self.labels: list[str] = []
        self.events: list[tuple[str, int, str]] = []

    def planned(self, labels: Sequence[str]) -> None:
        self.labels = list(labels)

    def started(self, index: int) -> None:
        self.events.append(("started", index, ""))

    def said(self, index: int, message: str) -> None:
        self.events.append(("said", index, message))

    def finished(self, index: int, files: Sequence[Path], seconds: float) -> None:
        self.events.append(("finished", index, str(len(files))))


@pytest.mark.parametrize("jobs", [1, 2])
def test_each_job_is_told_as_it_goes(tmp_path: Path, jobs: int) -> None:
    recorder = Recorder()
    build_kit(tmp_path, KitOptions(dpi=30, langs=("en", "it"), papers=("a4",), jobs=jobs,
                                   booklets=False), events=recorder)
    assert recorder.labels == ["micropul tiles", "micropul sheets a4",
                               "micropul rulebook en a4", "micropul rulebook it a4"]
    for index in range(len(recorder.labels)):
        kinds = [kind for kind, i, _m in recorder.events if i == index]
        assert kinds[0] == "started" and kinds.count("finished") == 1
    # The tiles count their steps, and (from a worker too) are told before they end.
    tiles = [m for kind, i, m in recorder.events[:recorder.events.index(("finished", 0, "99"))]
             if kind == "said" and i == 0]
    assert tiles and all(re.search(r"\d+/48$|overview$", m) for m in tiles)


def test_lines_in_a_pipe_come_in_the_jobs_order(tmp_path: Path) -> None:
    stream = io.StringIO()
    lines = LineProgress(tmp_path, stream)
    lines.planned(["a", "b", "c"])
    lines.finished(2, [tmp_path / "x" / "c.pdf"], 0.25)
    lines.finished(1, [tmp_path / "b1", tmp_path / "b2"], 1.0)
    assert stream.getvalue() == ""
    lines.finished(0, [], 0.0)
    assert stream.getvalue() == "a: 0 files (0.0 s)\nb: 2 files (1.0 s)\nc: x/c.pdf (0.2 s)\n"


def test_a_pipe_gets_one_line_per_part_and_what_to_print(tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "micropul_print", "build", "--game", "all", "--no-config",
         "--only", "sheets,rulebooks", "--lang", "en", "--paper", "a4", "--duplex", "short",
         "--booklet", "--out", str(tmp_path)], capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stderr
    assert [re.sub(r" \(\d+\.\d s\)$", "", line) for line in result.stderr.splitlines()] == [
        "micropul sheets a4: sheets/micropul-tiles-a4.pdf",
        "micropul rulebook en a4: rules/micropul-rules-en-a4.pdf",
        "micropul booklet en a4: rules/micropul-rules-en-booklet-a4.pdf",
        "cellulae sheets a4: 4 files",
        "cellulae rulebook en a4: cellulae/rules/cellulae-rules-en-a4.pdf",
        "cellulae booklet en a4: cellulae/rules/cellulae-rules-en-booklet-a4.pdf"]
    summary = result.stdout.splitlines()
    assert summary[1:] == [
        'to print, at 100 % ("Actual size"; never "Fit to page" or "Shrink to fit"):',
        "  sheets/micropul-tiles-a4.pdf: A4, double-sided, flip on the short edge, 2 sheets",
        "  cellulae/sheets/cellulae-tiles-a4.pdf: A4, double-sided, flip on the short edge, "
        "3 sheets",
        "  cellulae/sheets/cellulae-board-5-a4.pdf: A4, single-sided, 1 sheet",
        "  cellulae/sheets/cellulae-board-7-a4.pdf: A4, single-sided, 2 sheets",
        "  cellulae/sheets/cellulae-board-9-a4.pdf: A4, single-sided, 4 sheets",
        # The books say how they are printed, whatever --duplex: a book's portrait pages
        # on the long edge, a booklet's landscape sheets on the short edge.
        "  rules/micropul-rules-en-a4.pdf: A4, double-sided, flip on the long edge, 2 sheets",
        "  rules/micropul-rules-en-booklet-a4.pdf: A4, landscape, double-sided, flip on the "
        "short edge, 2 sheets",
        "  cellulae/rules/cellulae-rules-en-a4.pdf: A4, double-sided, flip on the long edge, "
        "2 sheets",
        "  cellulae/rules/cellulae-rules-en-booklet-a4.pdf: A4, landscape, double-sided, "
        "flip on the short edge, 2 sheets",
        # And in one line, what more the build can make.
        "also available: the kit on letter paper (--paper letter); gutter-fold sheets "
        "(--layout gutter-fold or all); cut files (--cut-files); a print shop's file "
        "(--print-shop)"]


def test_the_books_of_every_language_are_one_line_per_paper(tmp_path: Path) -> None:
    # Cellulae's books: each language's book and booklet take the same sheets.
    report = build_kit(tmp_path, KitOptions(parts=frozenset({"rulebooks"}),
                                            games=("cellulae",), langs=("en", "it", "es")))
    rules = "cellulae/rules/cellulae-rules-{en,es,it}"
    assert format_summary(report).splitlines()[1:-1] == [
        'to print, at 100 % ("Actual size"; never "Fit to page" or "Shrink to fit"):',
        f"  {rules}-a4.pdf: A4, double-sided, flip on the long edge, 2 sheets each "
        "(3 files)",
        f"  {rules}-letter.pdf: Letter, double-sided, flip on the long edge, 2 sheets "
        "each (3 files)",
        f"  {rules}-booklet-a4.pdf: A4, landscape, double-sided, flip on the short edge, "
        "2 sheets each (3 files)",
        f"  {rules}-booklet-letter.pdf: Letter, landscape, double-sided, flip on the "
        "short edge, 2 sheets each (3 files)"]


def test_the_summary_says_the_pages_are_already_scaled(tmp_path: Path) -> None:
    report = build_kit(tmp_path, KitOptions(parts=frozenset({"sheets"}), papers=("letter",),
                                            scale=(97.0, 98.5)))
    assert format_summary(report).splitlines()[2:-1] == [
        "  sheets/micropul-tiles-letter.pdf: Letter, double-sided, flip on the long edge, "
        "2 sheets",  # the stones on the calibration sheet, as on A4
        "  (already enlarged for a printer that prints at 97 % x 98.5 %: --scale)"]


def test_the_live_display_ends_with_every_part_counted() -> None:
    stream = io.StringIO()
    with LiveProgress(stream) as live:
        live.planned(["micropul tiles", "micropul sheets a4"])
        live.started(0)
        live.said(0, "writing tile files: tile 1/48")
        live.said(0, "writing tile files: tile 48/48")
        live.started(1)
        live.finished(1, [Path("/out/sheets/micropul-tiles-a4.pdf")], 0.5)
        live.finished(0, [Path(f"/out/{n}") for n in range(99)], 2.0)
    shown = stream.getvalue()
    assert re.search(r"micropul tiles .*48/48 .*99 files", shown)
    assert re.search(r"micropul sheets a4 .*1/1 .*micropul-tiles-a4\.pdf", shown)


@pytest.mark.parametrize(("names", "pattern"), [
    (["micropul-rules-en-a4.pdf", "micropul-rules-es-a4.pdf"], "micropul-rules-{en,es}-a4.pdf"),
    (["rules-pt_BR-a4.pdf", "rules-pt_PT-a4.pdf"], "rules-pt_{BR,PT}-a4.pdf"),
    (["x.pdf", "y.pdf"], "{x,y}.pdf"),
    (["book-en.pdf", "book-en-x.pdf"], "{book-en-x.pdf,book-en.pdf}"),
    (["book-en-a4.pdf"], "book-en-a4.pdf"),
])
def test_the_summary_factors_names_at_whole_segments_not_inside_one(
        names: list[str], pattern: str) -> None:
    """The books of en and es were summed up as micropul-rules-e{n,s}-a4.pdf."""
    from micropul_print.kit.build import _pattern

    assert _pattern(names) == pattern
