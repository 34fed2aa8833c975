"""The kit orchestration: the Micropul side of the sheets, reproducibility, progress."""

from __future__ import annotations

import io
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from pypdf import PdfReader
from pypdf.generic import ContentStream

from micropul_print.catalogue.loader import load_catalogue
from micropul_print.draw.theme import load_theme
from micropul_print.kit.build import KitOptions, build_kit, format_summary
from micropul_print.kit.outputs import MANIFEST, OutputDir
from micropul_print.kit.plan import game_kit, plan_tile_sheets
from micropul_print.sheets.layout import load_layout
from micropul_print.sheets.pages import SheetOptions

PT_PER_MM = 72 / 25.4


def micropul_kit() -> Any:
    """Micropul's pieces in the classic theme, as a build resolves them."""
    from micropul_print.game import registry

    return game_kit(registry.get("micropul"), load_catalogue(), load_theme("classic"),
                    OutputDir(Path("unused")))


def test_micropul_sheets_hold_48_tiles_and_6_stones() -> None:
    art = micropul_kit()
    a4 = plan_tile_sheets(art, load_layout("a4"), SheetOptions())
    fronts = [p for p in a4.pages if p.side == "front"]
    assert [len(p.placements) for p in fronts] == [0, 48 + 6]
    stones = [pl.drawing for pl in fronts[1].placements[48:]]
    assert all(d.width == 14.0 for d in stones)
    assert len(set(stones)) == 2  # three of each player's colour
    letter = plan_tile_sheets(art, load_layout("letter"), SheetOptions())
    # Letter's page holds exactly 48: the stones go on the calibration sheet.
    assert [len(p.placements) for p in letter.pages if p.side == "front"] == [6, 48]


def test_stones_are_round_chips_with_the_bleed_and_a_cut_circle_on_the_front_only(
        ) -> None:
    art = micropul_kit()
    plan = plan_tile_sheets(art, load_layout("a4"), SheetOptions(bleed=3.0, calibration=False))
    stones = [(page.side, pl) for page in plan.pages for pl in page.placements if pl.round]
    assert [side for side, _pl in stones] == ["front"] * 6 + ["back"] * 6
    assert {pl.drawing.width for _side, pl in stones} == {14.0 + 2 * 3.0}
    fronts = {pl.drawing for side, pl in stones if side == "front"}
    backs = {pl.drawing for side, pl in stones if side == "back"}
    assert len(fronts) == len(backs) == 2 and not fronts & backs  # back: no cut circle


def test_every_card_has_the_same_back() -> None:
    art = micropul_kit()
    plan = plan_tile_sheets(art, load_layout("a4"), SheetOptions(bleed=2.0, calibration=False))
    backs = {pl.drawing for page in plan.pages if page.side == "back"
             for pl in page.placements if pl.drawing.width > 20}
    assert len(backs) == 1


def build(out: Path, **options: Any) -> list[str]:
    messages: list[str] = []
    kit_options = KitOptions(dpi=30, langs=("en",), **options)
    report = build_kit(out, kit_options, progress=messages.append)
    assert sorted(report.files) == sorted(p for p in out.rglob("*")
                                          if p.is_file() and p.name != MANIFEST)
    return messages


def test_two_builds_give_identical_bytes_for_every_file(tmp_path: Path) -> None:
    first, second = tmp_path / "first", tmp_path / "second"
    build(first)
    build(second)
    names = sorted(p.relative_to(first) for p in first.rglob("*")
                   if p.is_file() and p.name != MANIFEST)
    assert names == sorted(p.relative_to(second) for p in second.rglob("*")
                           if p.is_file() and p.name != MANIFEST)
    assert len(names) > 100
    for name in names:
        assert (first / name).read_bytes() == (second / name).read_bytes(), name


def test_progress_names_each_sheet_and_summary_counts_files(tmp_path: Path) -> None:
    messages = build(tmp_path, parts=frozenset({"sheets"}), papers=("letter",))
    assert messages == [f"writing {tmp_path.resolve()}/sheets/micropul-tiles-letter.pdf"]
    report = build_kit(tmp_path, KitOptions(parts=frozenset({"sheets"}), papers=("a4",)))
    summary = format_summary(report)
    assert summary.startswith("wrote 1 file (1 sheet), ")
    assert "KiB" in summary


def _sheet(out: Path, paper: str) -> PdfReader:
    return PdfReader(io.BytesIO((out / f"sheets/micropul-tiles-{paper}.pdf").read_bytes()))


def test_real_sheet_tiles_measure_30_mm_and_fonts_are_embedded(tmp_path: Path) -> None:
    build_kit(tmp_path, KitOptions(parts=frozenset({"sheets"})))
    for paper in ("a4", "letter"):
        reader = _sheet(tmp_path, paper)
        page = reader.pages[2]  # after the calibration page and its back
        clips: list[tuple[float, float]] = []
        last = (0.0, 0.0)
        for operands, op in ContentStream(page.get_contents(), reader).operations:
            if op == b"re":
                last = (abs(float(operands[2])), abs(float(operands[3])))
            elif op in (b"W", b"W*"):
                clips.append(last)
        tiles = [c for c in clips if c[0] > 20]
        assert len(tiles) == 48
        for width, height in tiles:  # page units are points: no scaling around the clip
            assert width == pytest.approx(30 * PT_PER_MM, abs=0.01 * PT_PER_MM)
            assert height == pytest.approx(30 * PT_PER_MM, abs=0.01 * PT_PER_MM)
        meta = reader.metadata
        assert meta is not None
        assert meta.title == f"Micropul — tiles, {'A4' if paper == 'a4' else 'Letter'}"
        assert "Lassonde" in str(meta.author)
        for number in range(len(reader.pages)):
            resources: Any = reader.pages[number]["/Resources"].get_object()
            for font in resources.get("/Font", {}).values():
                descriptor = font.get_object()["/FontDescriptor"].get_object()
                assert "/FontFile2" in descriptor


def test_bleed_reaches_sheets_and_pngs(tmp_path: Path) -> None:
    from PIL import Image

    build(tmp_path / "zero", bleed=0.0, parts=frozenset({"png", "sheets"}), papers=("a4",))
    build(tmp_path / "three", bleed=3.0, parts=frozenset({"png", "sheets"}), papers=("a4",))

    def png_width(root: Path) -> int:
        with Image.open(root / "tiles/png/tile-01.png") as image:
            return image.width

    assert png_width(tmp_path / "zero") < png_width(tmp_path / "three")
    assert len(_sheet(tmp_path / "zero", "a4").pages) == 4
    assert len(_sheet(tmp_path / "three", "a4").pages) == 6  # 35 a page: two tile sheets


def test_unknown_part_is_a_programming_error(tmp_path: Path) -> None:
    with pytest.raises(ValueError):
        build_kit(tmp_path, KitOptions(parts=frozenset({"posters"})))


def test_svg_only_build_writes_the_same_svg_files_as_a_full_build(tmp_path: Path) -> None:
    svg_dir = "tiles/svg"
    build(tmp_path / "svg", parts=frozenset({"svg"}))
    build(tmp_path / "all", parts=frozenset({"png"}))
    svg_only = sorted(p.name for p in (tmp_path / "svg" / svg_dir).iterdir())
    complete = sorted(p.name for p in (tmp_path / "all" / svg_dir).iterdir())
    assert svg_only == complete
    for name in svg_only:  # the same pictures, byte for byte
        assert (tmp_path / "svg" / svg_dir / name).read_bytes() == (
            tmp_path / "all" / svg_dir / name).read_bytes()


def test_worker_processes_write_what_one_process_writes(tmp_path: Path) -> None:
    serial: list[str] = []
    parallel: list[str] = []
    options = KitOptions(dpi=30, langs=("en", "it"), papers=("letter",))
    one = build_kit(tmp_path / "one", options._replace(jobs=1), progress=serial.append)
    two = build_kit(tmp_path / "two", options._replace(jobs=2), progress=parallel.append)
    assert [p.relative_to(one.root) for p in one.files] == [
        p.relative_to(two.root) for p in two.files]
    assert one.counts == two.counts == {"tile files": 99, "sheets": 1, "rulebooks": 4}
    for path in one.files:
        assert path.read_bytes() == (two.root / path.relative_to(one.root)).read_bytes()
    # Progress is told in the jobs' order, whichever worker finished first.
    assert [m.replace("/two/", "/one/") for m in parallel] == serial


@pytest.mark.parametrize("jobs", [1, 2])
def test_every_missing_language_is_reported_before_anything_is_written(
        tmp_path: Path, jobs: int) -> None:
    from micropul_print.base.errors import UserError

    with pytest.raises(UserError) as problem:
        build_kit(tmp_path, KitOptions(dpi=30, langs=("xx", "en", "yy"), jobs=jobs,
                                       parts=frozenset({"sheets", "rulebooks"})))
    messages = [d.message for d in problem.value.diagnostics]
    # Checked before any job starts, whatever the number of workers: both, at once.
    assert [m.split(" (it has")[0] for m in messages] == [
        "the Micropul rulebook has no language 'xx'", "the Micropul rulebook has no language 'yy'"]
    assert not any(tmp_path.iterdir())  # nothing written


def test_small_builds_stay_in_one_process() -> None:
    from micropul_print.kit.pool import workers_for

    assert workers_for(None, [1, 1]) == 1  # the SVG files and one sheet: the benchmark (b)
    assert workers_for(None, [3]) == 1
    assert workers_for(1, [3, 4, 4]) == 1
    assert workers_for(2, [3, 4, 4]) == 2
    assert workers_for(8, [3, 4]) == 2  # never more workers than jobs


@pytest.mark.parametrize("workers", [1, 2])
def test_problems_found_in_workers_are_diagnostics(workers: int) -> None:
    from micropul_print.base.errors import Diagnostic, UserError
    from micropul_print.kit.plan import KitJob, Written
    from micropul_print.kit.pool import run_jobs

    def failing(name: str) -> KitJob:
        def run(say: Callable[[str], None]) -> Written:
            say(f"starting {name}")
            raise UserError([Diagnostic(f"{name}.yaml", 1, 1, "broken")])
        return KitJob("part", run, cost=1)

    with pytest.raises(UserError) as problem:
        run_jobs([failing("a"), failing("b")], workers, lambda _message: None)
    found = [str(d) for d in problem.value.diagnostics]
    # In one process the first problem stops; workers each report theirs, in job order.
    assert found == (["a.yaml:1:1: error: broken"] if workers == 1 else
                     ["a.yaml:1:1: error: broken", "b.yaml:1:1: error: broken"])


def test_workers_take_the_tile_files_first_then_the_longest_jobs() -> None:
    import time

    from micropul_print.kit.plan import TILE_FILES, KitJob, Written
    from micropul_print.kit.pool import NoEvents, _run_in_workers

    def job(part: str, cost: int) -> KitJob:
        # Runs in a worker: tells when it started, as its one "path".
        return KitJob(part, lambda _say: Written([Path(str(time.monotonic_ns()))]), cost=cost)

    jobs = [job("sheets", 1), job("rulebooks", 4), job(TILE_FILES, 2), job("rulebooks", 3)]
    # One worker takes them one after the other, in the order they were handed over.
    started = [int(written.paths[0].name) for written in
               _run_in_workers(jobs, 1, lambda _message: None, NoEvents())]
    assert sorted(range(len(jobs)), key=lambda i: started[i]) == [2, 1, 3, 0]


@pytest.mark.parametrize(("folder", "stray", "where"), [
    ("micropul", "sheets/stray.pdf", "outside its folder micropul/ (its output_dir)"),
    ("", "elsewhere/x.svg", None),  # a game at the root may use any free folder
    ("", "cellulae/x.svg", "into cellulae/, another game's folder"),
])
def test_a_game_writing_outside_its_folder_is_refused_and_nothing_is_swapped_in(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, folder: str, stray: str,
        where: str | None) -> None:
    from dataclasses import replace

    from micropul_print.base.errors import UserError
    from micropul_print.game import registry
    from micropul_print.kit import build as kit
    from micropul_print.kit.plan import GameKit, KitJob, Written

    shipped = registry.get

    class Stray(type(shipped("micropul"))):  # type: ignore[misc]
        info = replace(shipped("micropul").info, output_dir=folder)

    def jobs(game_kit: GameKit, *_: Any, **_options: Any) -> list[KitJob]:
        # A plan gone wrong: the micropul kit writes the stray file, the other nothing.
        if game_kit.info.name != "micropul":
            return []
        return [KitJob("svg", lambda _say: Written([game_kit.output.write_bytes(stray, b"x")]),
                       cost=1)]

    games = {"micropul": Stray()}
    monkeypatch.setattr(registry, "get", lambda name: games.get(name) or shipped(name))
    monkeypatch.setattr(kit, "kit_jobs", jobs)
    options = KitOptions(games=("micropul", "cellulae"), parts=frozenset({"svg"}), jobs=1)
    out = tmp_path / "out"
    if where is None:
        assert build_kit(out, options).files == [out.resolve() / stray]
        return
    with pytest.raises(UserError) as caught:
        build_kit(out, options)
    assert [str(d) for d in caught.value.diagnostics] == [
        f"micropul-print: error: the game 'micropul' wrote {stray} {where}"]
    assert not out.exists()


@pytest.mark.parametrize("workers", [1, 2])
def test_a_bug_in_a_plugins_job_is_blamed_on_the_plugin_even_from_a_worker(
        workers: int, monkeypatch: pytest.MonkeyPatch) -> None:
    import sys
    import types
    from importlib.metadata import EntryPoint

    from micropul_print.game import registry
    from micropul_print.kit.plan import KitJob, Written
    from micropul_print.kit.pool import run_jobs

    module = types.ModuleType("buggy_kit_plugin")
    exec(compile("def run(say):\n    return [1 // 0]\n", "buggy_kit_plugin.py", "exec"),
         module.__dict__)
    monkeypatch.setitem(sys.modules, "buggy_kit_plugin", module)
    found = {**registry._entry_points(),
             "buggy": EntryPoint("buggy", "buggy_kit_plugin:GAME", registry.GROUP)}
    monkeypatch.setattr(registry, "_entry_points", lambda: found)
    jobs = [KitJob("part", module.run, cost=1), KitJob("part", lambda _say: Written(), cost=1)]
    with pytest.raises(ZeroDivisionError) as bug:
        run_jobs(jobs, workers, lambda _message: None)
    assert registry.plugin_blamed(bug.value) == "buggy"


class _Told:
    """A BuildEvents that records what it is told, in order."""

    def __init__(self) -> None:
        self.told: list[str] = []

    def planned(self, labels: Any) -> None:
        self.told.append(f"planned {list(labels)}")

    def started(self, index: int) -> None:
        self.told.append(f"started {index}")

    def said(self, index: int, message: str) -> None:
        self.told.append(f"said {index} {message}")

    def finished(self, index: int, files: Any, seconds: float) -> None:
        self.told.append(f"finished {index}")


def test_jobs_planned_before_the_checks_start_while_they_run_and_are_told_after(
        tmp_path: Path) -> None:
    import time

    from micropul_print.kit.plan import KitJob, Written
    from micropul_print.kit.pool import run_jobs

    marker = tmp_path / "started"

    def first(say: Callable[[str], None]) -> Written:
        say("first")
        marker.write_text("")
        return Written([marker])

    def late(say: Callable[[str], None]) -> Written:
        say("late")
        return Written([tmp_path / "late"])

    messages: list[str] = []
    events = _Told()
    early = [KitJob("svg", first, cost=1)]

    def then() -> tuple[list[KitJob], int]:
        waited = time.monotonic() + 30
        while not marker.exists() and time.monotonic() < waited:
            time.sleep(0.01)
        assert marker.exists()  # the first job ran while this waited
        assert messages == [] and events.told == []  # and nothing was told of it
        return [KitJob("rulebooks", late, cost=3), *early], 2

    results = run_jobs(early, 2, messages.append, events, then=then)
    assert [written.paths for written in results] == [[tmp_path / "late"], [marker]]
    assert messages == ["late", "first"]  # in job order
    assert {"started 1", "finished 1", "started 0", "finished 0"} <= set(events.told)


def test_a_job_done_before_its_started_news_came_is_told_started_then_finished(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """A worker's news goes through a queue flushed by a thread of its own, and may
    come after the job's result (it did on a busy machine: "started" was then dropped
    as late news). Every job is told started, and before it is told finished."""
    import multiprocessing.queues

    from micropul_print.kit.plan import KitJob, Written
    from micropul_print.kit.pool import run_jobs

    put = multiprocessing.queues.Queue.put

    def news_lost(queue: Any, item: Any, *args: Any, **kwargs: Any) -> None:
        if isinstance(item, tuple) and item[1:2] == ("started",):
            return  # as late as it gets: never
        put(queue, item, *args, **kwargs)

    monkeypatch.setattr(multiprocessing.queues.Queue, "put", news_lost)

    def job(name: str) -> Callable[[Callable[[str], None]], Written]:
        return lambda say: Written([tmp_path / name])

    events = _Told()
    jobs = [KitJob("rulebooks", job(str(n)), cost=3) for n in range(4)]
    run_jobs(jobs, 2, lambda message: None, events)
    for index in range(4):
        told = [event for event in events.told if event.endswith(f" {index}")]
        assert told == [f"started {index}", f"finished {index}"], events.told


def test_checks_that_fail_stop_the_jobs_started_before_them_and_nothing_is_told() -> None:
    import multiprocessing

    from micropul_print.base.errors import Diagnostic, UserError
    from micropul_print.kit.plan import KitJob, Written
    from micropul_print.kit.pool import run_jobs

    def slow(say: Callable[[str], None]) -> Written:
        import time

        say("slow")
        time.sleep(60)
        return Written()

    def then() -> tuple[list[KitJob], int]:
        raise UserError([Diagnostic("rules.po", 3, 1, "stale")])

    messages: list[str] = []
    events = _Told()
    with pytest.raises(UserError) as problem:
        run_jobs([KitJob("svg", slow, cost=1)], 2, messages.append, events, then=then)
    assert [str(d) for d in problem.value.diagnostics] == ["rules.po:3:1: error: stale"]
    assert messages == [] and events.told == []
    assert multiprocessing.active_children() == []  # the early worker is gone


def _failing_check(monkeypatch: pytest.MonkeyPatch) -> None:
    import micropul_print.rulebook as rulebook
    from micropul_print.base.errors import Diagnostic, UserError

    def check(*_args: Any, **_kwargs: Any) -> Any:
        raise UserError([Diagnostic("book.po", 7, 1, "a stale translation")])

    monkeypatch.setattr(rulebook, "check_rulebook", check)


def test_a_failed_rulebook_check_says_only_its_problem_and_leaves_the_kit_whole(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from micropul_print.base.errors import UserError

    out = tmp_path / "kit"
    options = KitOptions(dpi=30, langs=("en",), papers=("a4",), booklets=False, jobs=2)
    build_kit(out, options)
    before = {path: path.read_bytes() for path in out.rglob("*") if path.is_file()}
    _failing_check(monkeypatch)
    messages: list[str] = []
    events = _Told()
    with pytest.raises(UserError) as problem:
        build_kit(out, options._replace(dpi=40), progress=messages.append, events=events)
    assert [str(d) for d in problem.value.diagnostics] == [
        "book.po:7:1: error: a stale translation"]
    assert messages == [] and events.told == []
    assert {path: path.read_bytes() for path in out.rglob("*") if path.is_file()} == before
    fresh = tmp_path / "fresh"
    with pytest.raises(UserError):
        build_kit(fresh, options)
    assert not fresh.exists()


def test_the_rulebook_check_is_said_before_what_a_build_finds_after_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import fcntl

    from micropul_print.base.errors import UsageError, UserError
    from micropul_print.kit.outputs import LOCK

    options = KitOptions(dpi=30, langs=("en",), papers=("a4",), booklets=False, jobs=2)
    with pytest.raises(UsageError):  # a tile the set does not have
        build_kit(tmp_path / "a", options._replace(tiles=(99,)))
    (tmp_path / "file").write_text("")
    with pytest.raises(UserError, match="cannot write the kit here"):
        build_kit(tmp_path / "file", options)
    locked = tmp_path / "locked"
    locked.mkdir()
    with (locked / LOCK).open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # another build writes there
        with pytest.raises(UserError, match="another micropul-print build"):
            build_kit(locked, options)
        _failing_check(monkeypatch)
        for out, asked in [(tmp_path / "b", options._replace(tiles=(99,))),
                           (tmp_path / "file", options), (locked, options)]:
            with pytest.raises(UserError) as problem:
                build_kit(out, asked)
            assert [str(d) for d in problem.value.diagnostics] == [
                "book.po:7:1: error: a stale translation"]


def test_german_books_cost_most_and_start_first() -> None:
    """German's hyphenation patterns (1 MB) make its books the longest and largest jobs:
    started first, on fresh workers, they end neither last nor on a grown worker."""
    from micropul_print.kit.plan import rulebook_jobs
    from micropul_print.kit.pool import _start_order

    langs = ["en", "de", "es", "fr", "it", "pl"]
    pieces = [piece for job in rulebook_jobs(micropul_kit(), KitOptions(), langs)
              for piece in job.split()]
    assert [piece.label for piece in pieces][:2] == ["rulebook en a4,letter",
                                                     "rulebook de a4,letter"]
    assert [pieces[i].label for i in _start_order(pieces)][:2] == [
        "rulebook de a4,letter", "booklet de a4,letter"]
