"""serve's parts without a server: reading the watcher's lines, the page's view of a
kit folder, the path rule, the lab's search."""

from __future__ import annotations

import base64
import json
from pathlib import Path

import pytest

from micropul_print.serve import lab, view
from micropul_print.serve.kitwatch import Children, KitWatcher, Problem, parse_problem
from micropul_print.serve.server import safe_relative


def test_a_located_problem_line_is_read_with_its_place() -> None:
    line = "mine.yaml:12:9: error: unknown symbol 'X' (expected one of W, B, 1, 2, P, .)"
    assert parse_problem(line, "build") == Problem(
        "mine.yaml:12:9", "error", "unknown symbol 'X' (expected one of W, B, 1, 2, P, .)",
        "build")
    assert parse_problem("theme.yaml: warning: no colours", "check") == Problem(
        "theme.yaml", "warning", "no colours", "check")
    assert parse_problem("micropul-print build: error: argument --paper: bad", "build") == \
        Problem("micropul-print build", "error", "argument --paper: bad", "build")
    assert parse_problem("watching 11 files (Ctrl-C to stop)", "build") is None


def _watcher(tmp_path: Path) -> tuple[KitWatcher, list[str]]:
    said: list[str] = []
    return KitWatcher(tmp_path, [], None, Children(), lambda: None, said.append), said


def test_the_watchers_lines_make_its_status(tmp_path: Path) -> None:
    watcher, said = _watcher(tmp_path)
    watcher.line("watching 11 files (Ctrl-C to stop)")
    assert (watcher.status.building, watcher.status.built) == (False, True)
    watcher.line("v.yaml:3:5: error: bad face")
    watcher.line("v.yaml:9:5: error: bad face too")
    assert [p.where for p in watcher.status.build_problems] == ["v.yaml:3:5", "v.yaml:9:5"]
    watcher._last_problem -= 10  # a later failed rebuild replaces the list
    watcher.line("v.yaml:4:5: error: still bad")
    assert [p.where for p in watcher.status.build_problems] == ["v.yaml:4:5"]
    watcher.line("v.yaml changed: rebuilt micropul sheets, svg (50 files, 0.4 s)")
    assert watcher.status.build_problems == []
    assert watcher.status.version == 5
    assert said[-1].startswith("v.yaml changed: rebuilt")


def test_a_first_build_that_failed_leaves_no_kit(tmp_path: Path) -> None:
    watcher, _said = _watcher(tmp_path)
    watcher.line("v.yaml:3:5: error: bad face")
    watcher.line("watching 11 files (Ctrl-C to stop)")
    assert (watcher.status.building, watcher.status.built) == (False, False)


def test_the_view_of_a_kit_folder(tmp_path: Path) -> None:
    for name in ("pieces/tiles/svg/tile-02.svg", "pieces/tiles/svg/tile-10.svg",
                 "pieces/tiles/svg/tile-back.svg", "pieces/sheets/g-tiles-a4.pdf",
                 "pieces/sheets/g-board-5-a4.pdf", "books/rules/g-rules-pl-a4.pdf",
                 "books/rules/g-rules-pl-booklet-a4.pdf", "pieces/.hidden/x.svg"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(name)
    (tmp_path / "pieces" / "tiles" / "svg" / "tile-03.svg").symlink_to(tmp_path / "x")
    files = view.kit_files(tmp_path)
    assert ".hidden" not in json.dumps(list(files)) and "tile-03" not in json.dumps(list(files))
    tiles = view.tiles_view(files, {"2": view.CatalogueEntry("v.yaml:9", "- id: 2")})
    assert [(t["key"], t["label"], t["where"]) for t in tiles] == [
        ("02", "tile 2", "v.yaml:9"), ("10", "tile 10", ""), ("back", "back", "")]
    inline = view.tiles_view(files, {}, tmp_path)
    assert inline[0]["src"] == "data:image/svg+xml;base64," + base64.b64encode(
        b"pieces/tiles/svg/tile-02.svg").decode()
    assert inline[0]["path"] == "pieces/tiles/svg/tile-02.svg"
    groups = view.pdf_groups(files)
    assert [s["name"] for s in groups["sheets"]] == ["g-tiles-a4.pdf"]
    assert [s["name"] for s in groups["boards"]] == ["g-board-5-a4.pdf"]
    assert [s["name"] for s in groups["rules"]["pl"]] == ["g-rules-pl-a4.pdf"]


def test_catalogue_entries_give_each_tiles_line_and_text(tmp_path: Path) -> None:
    catalogue = tmp_path / "v.yaml"
    catalogue.write_text("game: micropul\nname: Mine\ntiles:\n  - id: 1\n    face:\n"
                         "      - W .\n      - . .\n  - id: 2\n    face: [B ., . .]\n")
    name, game, entries = view.catalogue_entries(catalogue)
    assert (name, game) == ("Mine", "micropul")
    assert entries["1"] == view.CatalogueEntry("v.yaml:4", "  - id: 1\n    face:\n"
                                               "      - W .\n      - . .")
    assert entries["2"].where == "v.yaml:8"
    catalogue.write_text("tiles: [unclosed")
    assert view.catalogue_entries(catalogue) == ("", "", {})


@pytest.mark.parametrize("text", ["..", "../x", "a/../b", "%2e%2e/x", "%2E%2e", "a//b", "/etc",
                                  "a/", "./a", "a\\b", "%5c", "a%00", "c:x", ""])
def test_safe_relative_refuses_what_could_leave_the_folder(text: str) -> None:
    assert safe_relative(text) is None


def test_safe_relative_keeps_a_plain_path() -> None:
    assert safe_relative("pieces/tiles/svg/tile-01.svg") == "pieces/tiles/svg/tile-01.svg"
    assert safe_relative("a%20b.pdf") == "a b.pdf"


def test_the_lab_finds_reports_and_records_two_folders_deep(tmp_path: Path) -> None:
    record = {"game": "micropul", "moves": []}
    for name in ("r/report.html", "a/b/report.html", "a/b/c/report.html", "g.json",
                 "a/g2.json", "a/b/c/g3.json", ".hidden/report.html", "r/report.json"):
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(record) if name.endswith(".json") else "<html></html>")
    (tmp_path / "other.json").write_text("[1, 2]")
    found = lab.find_lab_files([tmp_path], tmp_path / "serve-folder")
    assert [(f.kind, f.label) for f in found] == [
        ("report", "r/report.html"), ("report", "a/b/report.html"),
        ("record", "g.json"), ("record", "a/g2.json")]


def test_the_configured_report_folder(tmp_path: Path) -> None:
    (tmp_path / "micropul-print.toml").write_text('[analyse]\nreport = "lab/run.html"\n')
    assert lab.report_folder(tmp_path) == tmp_path / "lab"
    (tmp_path / "micropul-print.toml").write_text("[analyse\n")
    assert lab.report_folder(tmp_path) is None


def test_serve_follows_the_build_s_catalogue_of_the_configuration_it_watches(
        tmp_path: Path) -> None:
    """serve read its page's catalogue once, at start-up, and its check ran [check]'s
    catalogue, which may differ from the build's: both follow [build] now."""
    import shutil

    from micropul_print.catalogue.loader import shipped_catalogue
    from micropul_print.serve.app import ServeApp, ServeOptions

    for name in ("built.yaml", "checked.yaml", "edited.yaml"):
        shutil.copy(shipped_catalogue("micropul"), tmp_path / name)
    config = tmp_path / "micropul-print.toml"
    config.write_text('[build]\ncatalogue = "built.yaml"\n[check]\ncatalogue = '
                      '"checked.yaml"\n', encoding="utf-8")
    app = ServeApp(ServeOptions(cwd=tmp_path), tmp_path / "served", echo=None)  # type: ignore[arg-type]
    try:
        assert app.catalogue == tmp_path / "built.yaml"
        assert app._check_words() == ["built.yaml"]  # as build names it
        assert app.lab.catalogue() == tmp_path / "built.yaml"
        config.write_text('[build]\ncatalogue = "edited.yaml"\n', encoding="utf-8")
        assert app.catalogue == tmp_path / "edited.yaml"
        assert app._check_words() == ["edited.yaml"]
        assert app.lab.catalogue() == tmp_path / "edited.yaml"
    finally:
        app.stopping = True
        app._warm_wanted.set()


def test_a_problem_build_and_check_both_report_is_listed_once_as_the_cli_names_it(
        tmp_path: Path) -> None:
    """serve's /state listed each catalogue error twice: from build, at the path the
    configuration names (relative), and from check, at the absolute path serve gave it."""
    from micropul_print.serve.app import ServeApp, ServeOptions

    (tmp_path / "micropul-print.toml").write_text('[build]\ncatalogue = "./v.yaml"\n',
                                                  encoding="utf-8")
    app = ServeApp(ServeOptions(cwd=tmp_path), tmp_path / "served", echo=None)  # type: ignore[arg-type]
    try:
        (where,) = app._check_words()
        pieces, books = app.watchers
        pieces.line("v.yaml:3:5: error: bad face")
        books.line("v.yaml:3:5: error: bad face")
        pieces.status.check_problems = [
            Problem(f"{where}:3:5", "error", "bad face", "check"),
            Problem(f"{where}:1:1", "warning", "a warning check alone gives", "check")]
        _version, problems, _facts, _situation = app._status()
        assert problems == [Problem("v.yaml:3:5", "error", "bad face", "build"),
                            Problem("v.yaml:1:1", "warning", "a warning check alone gives",
                                    "check")]
    finally:
        app.stopping = True
        app._warm_wanted.set()
