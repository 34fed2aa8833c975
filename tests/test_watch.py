"""build --watch: a change rebuilds the parts it affects (one line each), a problem is
reported at its place and watching goes on, Ctrl-C ends with status 130. The waits
below are bounded (a line is awaited, up to a generous limit), never timed."""

from __future__ import annotations

import argparse
import os
import queue
import signal
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from micropul_print.kit.build import KitOptions, build_kit
from micropul_print.watch import Input, Rebuild, config_rebuilds, merged, rebuilds

LIMIT = 240.0  # seconds to wait for a line before giving up (a failure, not a timing)


class Watcher:
    """A `build --watch` process whose output lines are read as they come."""

    def __init__(self, folder: Path, *args: str) -> None:
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        self.process = subprocess.Popen(
            [sys.executable, "-m", "micropul_print", "build", "--watch", *args], cwd=folder,
            env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        self.lines: queue.Queue[tuple[str, str]] = queue.Queue()
        for name in ("stdout", "stderr"):
            stream = getattr(self.process, name)
            threading.Thread(target=self._read, args=(name, stream), daemon=True).start()

    def _read(self, name: str, stream: Iterator[str]) -> None:
        for line in stream:
            self.lines.put((name, line.rstrip("\n")))

    def wait_for(self, found: Callable[[str, str], bool]) -> str:
        """The first line (stream, text) ``found`` accepts; fails if none comes."""
        seen: list[str] = []
        while True:
            try:
                name, line = self.lines.get(timeout=LIMIT)
            except queue.Empty:
                pytest.fail(f"no such line came; saw: {seen}")
            seen.append(line)
            if found(name, line):
                return line


@pytest.fixture()
def variant(tmp_path: Path) -> Path:
    from micropul_print.cli import main

    assert main(["init", str(tmp_path / "variant")]) == 0
    return tmp_path / "variant"


def test_a_change_rebuilds_a_problem_is_shown_and_ctrl_c_ends_it(variant: Path) -> None:
    watcher = Watcher(variant, "--only", "svg,sheets", "--paper", "a4")
    try:
        watcher.wait_for(lambda name, line: line.startswith("watching 4 files"))
        theme = variant / "theme.yaml"
        text = theme.read_text()
        theme.write_text(text.replace("outline_width: 0.2", "outline_width: 0.3"))
        line = watcher.wait_for(lambda name, line: name == "stdout" and "changed" in line)
        assert line.startswith("theme.yaml changed: rebuilt micropul sheets, svg (50 files, ")
        assert 'stroke-width="0.3"' in (variant / "output/tiles/svg/tile-01.svg").read_text()

        theme.write_text(text.replace("outline_width: 0.2", "outline_width: thin"))
        line = watcher.wait_for(lambda name, line: name == "stderr" and "error" in line)
        assert line.endswith("theme.yaml:9:18: error: face.outline_width must be a length in "
                             "millimetres; got 'thin'")
        # Still watching: the configuration now asks for short-edge duplex.
        config = variant / "micropul-print.toml"
        config.write_text(config.read_text().replace('# duplex = "long"', 'duplex = "short"'))
        theme.write_text(text)
        line = watcher.wait_for(lambda name, line: name == "stdout" and "changed" in line)
        assert line.startswith(("micropul-print.toml changed: rebuilt micropul sheets (",
                                "micropul-print.toml, theme.yaml changed: rebuilt"))
    finally:
        watcher.process.send_signal(signal.SIGINT)
        assert watcher.process.wait(timeout=LIMIT) == 130
    assert watcher.wait_for(lambda name, line: name == "stderr" and "interrupted" in line)


def test_a_broken_catalogue_is_reported_never_built_over_by_the_shipped_one(
        variant: Path) -> None:
    # A save that breaks the variant's catalogue used to rebuild the shipped set into
    # the variant's output, without a word: its game could not be read, so the
    # catalogue was taken for another game's.
    catalogue = variant / "micropul.yaml"
    text = catalogue.read_text()
    watcher = Watcher(variant, "--only", "svg", "--quiet")
    try:
        watcher.wait_for(lambda name, line: line.startswith("watching "))
        tile = variant / "output/tiles/svg/tile-01.svg"
        before = tile.read_bytes()
        broken = text.replace("      - W .\n", "      - X .\n", 1)
        assert broken != text
        catalogue.write_text(broken)
        line = watcher.wait_for(lambda name, line: "error" in line or "changed" in line)
        assert line == ("micropul.yaml:21:9: error: unknown symbol 'X' (expected one of W, B, "
                        "1, 2, P, .)")
        assert tile.read_bytes() == before
        catalogue.write_text(text.replace("      - W .\n", "      - B .\n", 1))
        line = watcher.wait_for(lambda name, line: "error" in line or "changed" in line)
        # The kit was left as it was: the mended edit is of tile 1 alone.
        assert line.startswith("micropul.yaml changed: rebuilt micropul svg (tile-01) "
                               "(1 file, ")
        assert tile.read_bytes() != before
    finally:
        watcher.process.send_signal(signal.SIGINT)
        assert watcher.process.wait(timeout=LIMIT) == 130


def test_settings_that_conflict_are_reported_and_watching_goes_on(variant: Path) -> None:
    """A saved configuration whose settings conflict (cut files without the duplex
    sheets) ended the watch with status 2; it is reported, the settings before it stay,
    and the next good save rebuilds."""
    config = variant / "micropul-print.toml"
    text = config.read_text()
    watcher = Watcher(variant, "--only", "sheets", "--paper", "a4", "--quiet")
    try:
        watcher.wait_for(lambda name, line: line.startswith("watching "))
        conflict = text.replace('# layout = "duplex"', 'layout = "gutter-fold"').replace(
            "# cut-files = false", "cut-files = true")
        assert conflict.count("gutter-fold") == 1 and conflict.count("cut-files = true") == 1
        config.write_text(conflict)
        line = watcher.wait_for(lambda name, line: "error" in line or "changed" in line)
        assert line.startswith("micropul-print build: error: argument --cut-files: the cut "
                               "files go with the duplex sheets")
        line = watcher.wait_for(lambda name, line: "changed" in line)
        assert line == ("micropul-print.toml changed: not rebuilt; the settings before the "
                        "change still apply")
        assert watcher.process.poll() is None
        config.write_text(text.replace('# duplex = "long"', 'duplex = "short"'))
        line = watcher.wait_for(lambda name, line: "error" in line or "changed" in line)
        assert line.startswith("micropul-print.toml changed: rebuilt micropul sheets (")
    finally:
        watcher.process.send_signal(signal.SIGINT)
        assert watcher.process.wait(timeout=LIMIT) == 130


def test_a_configuration_made_while_watching_is_read(variant: Path) -> None:
    """A configuration file made while watching (calibrate writes one) was never read:
    only one there when watching began was watched."""
    config = variant / "micropul-print.toml"
    text = config.read_text()
    config.unlink()
    watcher = Watcher(variant, "--only", "svg", "--quiet")
    try:
        line = watcher.wait_for(lambda name, line: line.startswith("watching "))
        assert line == "watching 3 files (Ctrl-C to stop)"
        config.write_text(text)
        line = watcher.wait_for(lambda name, line: "error" in line or "changed" in line)
        assert line.startswith("micropul-print.toml changed: rebuilt micropul svg (")
        line = watcher.wait_for(lambda name, line: line.startswith("watching "))
        assert line == "watching 3 files (Ctrl-C to stop)"
    finally:
        watcher.process.send_signal(signal.SIGINT)
        assert watcher.process.wait(timeout=LIMIT) == 130


def test_a_new_out_in_the_configuration_builds_the_whole_kit_there(variant: Path) -> None:
    """`out` is no option of the kit itself: changing it alone said "nothing to
    rebuild", and the new folder stayed empty until another edit (which then wrote only
    the parts it touched there)."""
    config = variant / "micropul-print.toml"
    watcher = Watcher(variant, "--only", "svg", "--quiet")
    try:
        line = watcher.wait_for(lambda name, line: line.startswith("watching "))
        config.write_text(config.read_text().replace('# out = "output"', 'out = "kit2"'))
        line = watcher.wait_for(lambda name, line: "error" in line or "changed" in line)
        assert line.startswith("micropul-print.toml changed: rebuilt micropul svg (49 files")
        assert sorted(p.name for p in (variant / "kit2/tiles/svg").iterdir()) == sorted(
            p.name for p in (variant / "output/tiles/svg").iterdir())
    finally:
        watcher.process.send_signal(signal.SIGINT)
        assert watcher.process.wait(timeout=LIMIT) == 130


def test_a_new_out_holding_files_no_build_made_is_refused_and_watching_goes_on(
        variant: Path) -> None:
    """As at the start: a folder of someone else's files, saved as `out` while watching,
    was built into."""
    config = variant / "micropul-print.toml"
    (variant / "mine").mkdir()
    (variant / "mine" / "notes.txt").write_text("mine")
    text = config.read_text()
    line = next(n for n, row in enumerate(text.splitlines(), 1) if "# out = " in row)
    watcher = Watcher(variant, "--only", "svg", "--quiet")
    try:
        watcher.wait_for(lambda name, line: line.startswith("watching "))
        config.write_text(text.replace('# out = "output"', 'out = "mine"'))
        assert watcher.wait_for(lambda name, line: "error" in line or "changed" in line) == (
            f"micropul-print.toml:{line}:7: error: out: mine holds files no build made "
            "(notes.txt), and no previous kit: give an empty folder, a new one or a "
            "previous kit's")
        assert sorted(p.name for p in (variant / "mine").iterdir()) == ["notes.txt"]
        config.write_text(text.replace('# out = "output"', 'out = "kit2"'))
        assert watcher.wait_for(lambda name, line: "error" in line or "changed" in line
                                ).startswith("micropul-print.toml changed: rebuilt micropul svg")
    finally:
        watcher.process.send_signal(signal.SIGINT)
        assert watcher.process.wait(timeout=LIMIT) == 130


def test_an_edit_after_the_kit_s_folder_was_removed_builds_the_whole_kit_again(
        variant: Path) -> None:
    """`rm -rf output` while watching, then a tile's face edited: tile-01.svg alone was
    written, a kit of one file."""
    import shutil

    catalogue = variant / "micropul.yaml"
    watcher = Watcher(variant, "--only", "svg", "--quiet")
    try:
        watcher.wait_for(lambda name, line: line.startswith("watching "))
        shutil.rmtree(variant / "output")
        catalogue.write_text(catalogue.read_text().replace(
            "  - id: 1\n    face:\n      - W .\n", "  - id: 1\n    face:\n      - W W\n", 1))
        line = watcher.wait_for(lambda name, line: "error" in line or "changed" in line)
        assert line.startswith("micropul.yaml changed: rebuilt micropul svg (49 files")
        assert len(list((variant / "output/tiles/svg").iterdir())) == 49
    finally:
        watcher.process.send_signal(signal.SIGINT)
        assert watcher.process.wait(timeout=LIMIT) == 130


def test_a_configuration_removed_then_restored_keeps_its_settings(variant: Path) -> None:
    """A configuration deleted and written again (git checkout, some editors) was read
    as no file: the shipped set in the classic theme was built over the variant's kit,
    and the file, no longer watched, was never read again."""
    config = variant / "micropul-print.toml"
    text = config.read_text()
    theme = variant / "theme.yaml"
    themed = theme.read_text()
    watcher = Watcher(variant, "--only", "svg", "--quiet")
    try:
        watcher.wait_for(lambda name, line: line.startswith("watching "))
        tile = variant / "output/tiles/svg/tile-01.svg"
        before = tile.read_bytes()
        config.unlink()
        line = watcher.wait_for(lambda name, line: "removed" in line or "changed" in line)
        assert line == ("micropul-print.toml removed: not rebuilt; its settings still apply "
                        "until it is back")
        assert tile.read_bytes() == before
        config.write_text(text)
        line = watcher.wait_for(lambda name, line: "error" in line or "changed" in line)
        assert line == "micropul-print.toml changed: nothing to rebuild"
        watcher.wait_for(lambda name, line: line.startswith("watching "))  # found again
        theme.write_text(themed.replace("outline_width: 0.2", "outline_width: 0.3"))
        line = watcher.wait_for(lambda name, line: "error" in line or "changed" in line)
        assert line.startswith("theme.yaml changed: rebuilt micropul svg (")
        assert 'stroke-width="0.3"' in tile.read_text()
    finally:
        watcher.process.send_signal(signal.SIGINT)
        assert watcher.process.wait(timeout=LIMIT) == 130


def test_a_variant_unreadable_when_watching_begins_is_the_file_watched(
        tmp_path: Path) -> None:
    from micropul_print.cli import main
    from micropul_print.watch import watched_inputs

    assert main(["init", "--game", "cellulae", str(tmp_path / "v")]) == 0
    catalogue = tmp_path / "v" / "cellulae.yaml"
    catalogue.write_text(catalogue.read_text() + "\nnonsense: [\n")
    options = KitOptions(catalogue=catalogue, parts=frozenset({"svg"}))
    watched = [item for item in watched_inputs(argparse.Namespace(no_config=True), options)
               if item.kind == "catalogue"]
    assert [item.path for item in watched] == [catalogue.resolve()]
    # Mended, it rebuilds its own game, whichever game it was taken for.
    catalogue.write_text(catalogue.read_text().replace("\nnonsense: [\n", ""))
    assert rebuilds(watched, options) == [Rebuild("cellulae", frozenset({"svg"}))]


def test_sigterm_while_watching_is_143_not_ctrl_c_s_130(variant: Path) -> None:
    """watchfiles turns any signal's exception into KeyboardInterrupt: SIGTERM said
    "interrupted" and exited 130."""
    watcher = Watcher(variant, "--only", "svg", "--quiet")
    watcher.wait_for(lambda name, line: line.startswith("watching "))
    watcher.process.send_signal(signal.SIGTERM)
    assert watcher.process.wait(timeout=LIMIT) == 143
    assert watcher.wait_for(lambda name, line: name == "stderr" and "micropul-print:" in line) \
        == "micropul-print: stopped (SIGTERM)"


def test_what_each_input_rebuilds() -> None:
    options = KitOptions(games=("micropul", "cellulae"))
    everything = frozenset(options.parts)
    tiles, books = everything - {"rulebooks"}, frozenset({"rulebooks"})
    # The tile files and sheets of every game first, then the rulebooks.
    assert rebuilds([Input(Path("/t.yaml"), "theme")], options) == [
        Rebuild("micropul", tiles), Rebuild("cellulae", tiles), Rebuild("micropul", books),
        Rebuild("cellulae", books)]
    assert rebuilds([Input(Path("/it.yaml"), "locale", "cellulae", "it")], options) == [
        Rebuild("cellulae", frozenset({"rulebooks"}), langs=frozenset({"it"}))]
    assert rebuilds([Input(Path("/a4.yaml"), "layout", key="a4"),
                     Input(Path("/pl.yaml"), "locale", "micropul", "pl"),
                     Input(Path("/it.yaml"), "locale", "micropul", "it")], options) == [
        Rebuild("micropul", frozenset({"sheets"}), papers=frozenset({"a4"})),
        Rebuild("cellulae", frozenset({"sheets"}), papers=frozenset({"a4"})),
        Rebuild("micropul", frozenset({"rulebooks"}), langs=frozenset({"pl", "it"}))]
    assert rebuilds([Input(Path("/pl.yaml"), "locale", "micropul", "pl"),
                     Input(Path("/t.yaml"), "theme")], options) == [
        Rebuild("micropul", tiles), Rebuild("cellulae", tiles), Rebuild("micropul", books),
        Rebuild("cellulae", books)]
    assert rebuilds([Input(Path("/c.yaml"), "catalogue", "micropul")], options) == [
        Rebuild("micropul", tiles), Rebuild("micropul", books)]
    assert merged([Rebuild("m", frozenset({"rulebooks"}), langs=frozenset({"it"})),
                   Rebuild("m", frozenset({"rulebooks"}), langs=frozenset({"pl"}))]) == [
        Rebuild("m", frozenset({"rulebooks"}), langs=frozenset({"it", "pl"}))]


def test_what_a_change_of_settings_rebuilds() -> None:
    before = KitOptions()
    assert config_rebuilds(before, before) == []
    assert config_rebuilds(before, before._replace(back_offset=(1.0, 0.0))) == [
        Rebuild("micropul", frozenset({"sheets"}))]
    assert config_rebuilds(before, before._replace(langs=("en",))) == [
        Rebuild("micropul", frozenset({"rulebooks"}))]
    assert config_rebuilds(before, before._replace(theme="ink-saver")) == [
        Rebuild("micropul", frozenset(before.parts))]
    # The rulebooks follow the sheets' papers: a change of paper left the old paper's.
    assert config_rebuilds(before, before._replace(papers=("letter",))) == [
        Rebuild("micropul", frozenset({"sheets", "rulebooks"}))]
    assert config_rebuilds(before, before._replace(papers=("letter",), flip="short")) == [
        Rebuild("micropul", frozenset({"sheets", "rulebooks"}))]


def test_a_change_of_paper_leaves_what_a_fresh_build_would(tmp_path: Path) -> None:
    from micropul_print.kit.outputs import read_manifest
    from micropul_print.watch import _rebuild

    options = KitOptions(langs=("en",), parts=frozenset({"rulebooks"}), booklets=False,
                         papers=("a4",))
    build_kit(tmp_path, options)
    letter = options._replace(papers=("letter",))
    said: list[str] = []
    _rebuild(config_rebuilds(options, letter), letter, tmp_path,
             lambda out, kit, *, quiet, keep_unmade: build_kit(out, kit,
                                                               keep_unmade=keep_unmade),
             said.append, "micropul-print.toml")
    assert said[0].startswith("micropul-print.toml changed: rebuilt micropul rulebooks (1 "
                              "file, ")
    assert [p.name for p in (tmp_path / "rules").iterdir()] == ["micropul-rules-en-letter.pdf"]
    assert read_manifest(tmp_path)["micropul/rulebooks"] == ["rules/micropul-rules-en-letter.pdf"]


def test_a_rebuild_of_one_language_keeps_the_others(tmp_path: Path) -> None:
    options = KitOptions(langs=("en", "it"), parts=frozenset({"rulebooks"}), booklets=False,
                         papers=("a4",))
    build_kit(tmp_path, options)
    rules = tmp_path / "rules"
    assert sorted(p.name for p in rules.iterdir()) == ["micropul-rules-en-a4.pdf",
                                                       "micropul-rules-it-a4.pdf"]
    build_kit(tmp_path, options._replace(langs=("it",)), keep_unmade=True)
    assert sorted(p.name for p in rules.iterdir()) == ["micropul-rules-en-a4.pdf",
                                                       "micropul-rules-it-a4.pdf"]
    build_kit(tmp_path, options._replace(langs=("it",)))  # a whole build of the part
    assert sorted(p.name for p in rules.iterdir()) == ["micropul-rules-it-a4.pdf"]


def test_a_configuration_with_problems_at_the_start_is_waited_for(variant: Path) -> None:
    """A configuration problem when watching began ended the watch (status 1), though
    the same problem met while watching is printed and waited out."""
    config = variant / "micropul-print.toml"
    text = config.read_text()
    config.write_text("[build]\nscale = 80\n")
    watcher = Watcher(variant, "--only", "svg", "--quiet")
    try:
        line = watcher.wait_for(lambda name, line: "error" in line)
        assert line.startswith("micropul-print.toml:2:9: error: scale: each scale must be "
                               "between 90 and 110 per cent")
        line = watcher.wait_for(lambda name, line: line.startswith("watching "))
        assert line == ("watching micropul-print.toml until its problems are mended "
                        "(Ctrl-C to stop)")
        assert watcher.process.poll() is None
        assert not any(variant.rglob("*.svg"))  # nothing built from the defaults
        config.write_text(text)
        line = watcher.wait_for(lambda name, line: "changed" in line)
        assert line == "micropul-print.toml changed: building"
        line = watcher.wait_for(lambda name, line: line.startswith("watching "))
        assert line == "watching 3 files (Ctrl-C to stop)"
        assert any(variant.rglob("tile-01.svg"))
    finally:
        watcher.process.send_signal(signal.SIGINT)
        assert watcher.process.wait(timeout=LIMIT) == 130
