"""Writing the kit: only inside the output directory, all or nothing, and an earlier
build's files of the same part removed when this build no longer makes them."""

from __future__ import annotations

import json
import os
import stat
from collections.abc import Callable
from pathlib import Path

import pytest

from micropul_print.base.errors import UserError
from micropul_print.kit.outputs import (
    MANIFEST,
    STAGING_PREFIX,
    OutputDir,
    Staging,
    check_directory_target,
    check_file_target,
    read_manifest,
    write_atomic,
)


def test_a_committed_build_moves_its_files_into_place(tmp_path: Path) -> None:
    staging = Staging(tmp_path / "out")
    with staging as output:
        path = output.write_bytes("tiles/a.svg", b"a")
        assert path == tmp_path / "out" / "tiles" / "a.svg" and not path.exists()
        staging.commit({"game/tiles": [path]})
    assert path.read_bytes() == b"a"
    assert read_manifest(tmp_path / "out") == {"game/tiles": ["tiles/a.svg"]}
    assert [p.name for p in (tmp_path / "out").iterdir() if p.name.startswith(".")] == [MANIFEST]


def test_a_failed_build_leaves_the_previous_kit_and_nothing_staged(tmp_path: Path) -> None:
    out = tmp_path / "out"
    staging = Staging(out)
    with staging as output:
        staging.commit({"game/tiles": [output.write_bytes("a.svg", b"old")]})
    with pytest.raises(KeyboardInterrupt), Staging(out) as output:
        output.write_bytes("a.svg", b"new")
        output.write_bytes("b.svg", b"new")
        raise KeyboardInterrupt
    assert sorted(p.name for p in out.iterdir()) == [MANIFEST, "a.svg"]
    assert (out / "a.svg").read_bytes() == b"old"


def test_a_failed_first_build_leaves_no_output_directory(tmp_path: Path) -> None:
    with pytest.raises(UserError), Staging(tmp_path / "new") as output:
        output.write_bytes("a.svg", b"x")
        raise UserError([])
    assert not (tmp_path / "new").exists()


def test_only_the_rebuilt_parts_files_that_are_no_longer_made_are_removed(
        tmp_path: Path) -> None:
    out = tmp_path / "out"
    first = Staging(out)
    with first as output:
        first.commit({"g/tiles": [output.write_bytes(f"t/{n}.svg", b"x") for n in "abc"],
                      "g/sheets": [output.write_bytes("s/a4.pdf", b"x")]})
    (out / "mine.txt").write_text("the user's own file")
    second = Staging(out)
    with second as output:  # the catalogue lost tile c; the sheets were not rebuilt
        removed = second.commit({"g/tiles": [output.write_bytes(f"t/{n}.svg", b"y")
                                             for n in "ab"]})
    assert removed == [out / "t" / "c.svg"]
    assert sorted(str(p.relative_to(out)) for p in out.rglob("*") if p.is_file()) == [
        MANIFEST, "mine.txt", "s/a4.pdf", "t/a.svg", "t/b.svg"]
    assert json.loads((out / MANIFEST).read_text())["parts"] == {
        "g/sheets": ["s/a4.pdf"], "g/tiles": ["t/a.svg", "t/b.svg"]}


def test_a_link_out_of_the_output_directory_is_refused(tmp_path: Path) -> None:
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    out = tmp_path / "out"
    out.mkdir()
    (out / "tiles").symlink_to(outside)
    with pytest.raises(UserError) as problem:
        OutputDir(out).write_bytes("tiles/a.svg", b"x")
    assert "refusing to write outside the output directory" in str(problem.value)
    assert list(outside.iterdir()) == []
    with pytest.raises(UserError):
        OutputDir(out).write_bytes("../escape.svg", b"x")


def test_each_path_of_a_folder_resolved_once_is_still_checked(tmp_path: Path) -> None:
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    out = tmp_path / "out"
    (out / "tiles").mkdir(parents=True)
    (out / "tiles" / "b.svg").symlink_to(outside / "b.svg")  # a file leading out
    (out / "tiles" / "c.svg").symlink_to(out / "c.svg")  # one leading back in
    output = OutputDir(out)
    assert output.path("tiles/a.svg") == out.resolve() / "tiles" / "a.svg"
    with pytest.raises(UserError) as problem:
        output.path("tiles/b.svg")
    assert f"the path leads to {(outside / 'b.svg').resolve()}" in str(problem.value)
    assert output.path("tiles/c.svg") == out.resolve() / "c.svg"
    assert output.path("tiles/../d.svg") == out.resolve() / "d.svg"
    with pytest.raises(UserError):
        output.path("tiles/../../escape.svg")


def test_a_file_linked_to_another_file_of_the_kit_is_refused_where_it_is_met(
        tmp_path: Path) -> None:
    out = tmp_path / "out"
    (out / "tiles").mkdir(parents=True)
    (out / "tiles" / "b.svg").symlink_to("a.svg")
    staging = tmp_path / "staging"
    output = OutputDir(out, staging=staging)
    output.write_bytes("tiles/b.svg", b"b")
    with pytest.raises(UserError) as problem:
        output.write_bytes("tiles/a.svg", b"a")
    assert str(problem.value) == (f"{out.resolve() / 'tiles/a.svg'}: error: another file "
                                  "of the kit is a symbolic link to this one: remove the "
                                  "link and build again")
    output = OutputDir(out, staging=tmp_path / "staging2")
    output.write_bytes("tiles/a.svg", b"a")
    with pytest.raises(UserError) as problem:
        output.write_bytes("tiles/b.svg", b"b")
    assert str(problem.value) == (f"{out.resolve() / 'tiles/b.svg'}: error: this file of "
                                  f"the kit is a symbolic link to {out.resolve() / 'tiles/a.svg'}"
                                  ", another of its files: remove the link and build again")


def test_a_staging_folder_left_by_a_killed_build_is_cleared(tmp_path: Path) -> None:
    leftover = tmp_path / f"{STAGING_PREFIX}dead"
    (leftover / "tiles").mkdir(parents=True)
    with Staging(tmp_path):
        pass
    assert not leftover.exists()


def test_a_file_given_as_the_output_directory(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("x")
    with pytest.raises(UserError, match="cannot write the kit here"), Staging(blocker):
        pass


def test_an_atomic_write_over_a_directory_names_the_target_not_its_temporary_file(
        tmp_path: Path) -> None:
    (tmp_path / "taken").mkdir()
    with pytest.raises(IsADirectoryError) as caught:
        write_atomic(tmp_path / "taken", b"data")
    assert caught.value.filename == str(tmp_path / "taken")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["taken"]


def _problem(check: Callable[[Path, str], None], target: Path) -> str:
    with pytest.raises(UserError) as caught:
        check(target, "the thing")
    (diagnostic,) = caught.value.diagnostics
    return str(diagnostic)


def test_where_a_file_or_a_directory_cannot_be_written_is_told_beforehand(
        tmp_path: Path) -> None:
    (tmp_path / "folder").mkdir()
    (tmp_path / "file.txt").write_text("x")
    assert _problem(check_file_target, tmp_path / "folder") == (
        f"{tmp_path / 'folder'}: error: cannot write the thing here: this is a directory, "
        "not a file")
    assert _problem(check_file_target, tmp_path / "file.txt" / "a" / "b.json") == (
        f"{tmp_path / 'file.txt' / 'a' / 'b.json'}: error: cannot write the thing here: "
        f"{tmp_path / 'file.txt'} is a file, not a directory")
    assert _problem(check_directory_target, tmp_path / "file.txt") == (
        f"{tmp_path / 'file.txt'}: error: cannot write the thing here: this is a file, "
        "not a directory")
    # What can be written passes, a folder still to be made included.
    check_file_target(tmp_path / "file.txt", "the thing")
    check_file_target(tmp_path / "new" / "deeper" / "x.json", "the thing")
    check_directory_target(tmp_path / "folder", "the thing")
    check_directory_target(tmp_path / "new" / "dir", "the thing")


def test_an_atomic_write_never_replaces_a_pipe_or_device(tmp_path: Path) -> None:
    """Renaming over a FIFO or a device would replace it with a regular file (as root,
    /dev/null itself): the write is refused and the special file stays."""
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    with pytest.raises(OSError) as caught:
        write_atomic(fifo, b"data")
    assert (caught.value.filename, caught.value.strerror) == (
        str(fifo), "this is a pipe, not a file")
    assert stat.S_ISFIFO(fifo.stat().st_mode)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["fifo"]
    assert _problem(check_file_target, fifo) == (
        f"{fifo}: error: cannot write the thing here: this is a pipe, not a file")
    assert _problem(check_file_target, Path("/dev/null")) == (
        "/dev/null: error: cannot write the thing here: this is a device, not a file")


@pytest.mark.parametrize(("name", "text"), [
    ("nested_past_the_parser_s_depth", "[" * 100_000),
    ("a_nul_in_a_name", json.dumps({"parts": {"game/tiles": ["a\0b", "", "kept.svg"]}})),
])
def test_a_spoilt_manifest_is_read_as_far_as_it_is_usable(
        name: str, text: str, tmp_path: Path) -> None:
    """Both ended in an internal error (RecursionError, 'embedded null byte')."""
    (tmp_path / MANIFEST).write_text(text, encoding="utf-8")
    expected = {"game/tiles": ["kept.svg"]} if "parts" in text else {}
    assert read_manifest(tmp_path) == expected
    staging = Staging(tmp_path)
    with staging as output:
        staging.commit({"game/tiles": [output.write_bytes("a.svg", b"a")]})
    assert read_manifest(tmp_path) == {"game/tiles": ["a.svg"]}


def test_a_pipe_as_the_manifest_is_refused_before_anything_is_staged(tmp_path: Path) -> None:
    """Reading it hung the build; a device linked there filled the memory."""
    os.mkfifo(tmp_path / MANIFEST)
    assert read_manifest(tmp_path) == {}
    with pytest.raises(UserError) as caught, Staging(tmp_path):
        pass
    assert [str(d) for d in caught.value.diagnostics] == [
        f"{tmp_path / MANIFEST}: error: cannot write the build's manifest: this is a pipe, "
        "not a file"]
    assert sorted(p.name for p in tmp_path.iterdir()) == [MANIFEST]


def test_a_folder_in_the_way_of_one_file_moves_none_of_them(tmp_path: Path) -> None:
    """All or nothing at the commit too: a folder where a file goes, or a file where a
    folder goes, is found before any file moves, and named at its place in the output
    directory (the error named the staging folder, after half the files had moved)."""
    out = tmp_path / "out"
    staging = Staging(out)
    with pytest.raises(UserError) as caught, staging as output:
        (out / "sheets" / "b.pdf").mkdir(parents=True)
        (out / "tiles").write_text("x")
        made = [output.write_bytes(name, b"new")
                for name in ("sheets/a.pdf", "sheets/b.pdf", "tiles/c.svg")]
        staging.commit({"game/sheets": made[:2], "game/tiles": made[2:]})
    assert [str(d) for d in caught.value.diagnostics] == [
        f"{out / 'sheets' / 'b.pdf'}: error: cannot write this file of the kit here: this "
        "is a directory, not a file",
        f"{out / 'tiles' / 'c.svg'}: error: cannot write this file of the kit here: "
        f"{out / 'tiles'} is a file, not a directory"]
    assert sorted(p.relative_to(out).as_posix() for p in out.rglob("*")) == [
        "sheets", "sheets/b.pdf", "tiles"]


def test_a_new_file_follows_the_umask_and_a_replaced_one_keeps_its_mode(
        tmp_path: Path) -> None:
    previous = os.umask(0o077)
    try:
        write_atomic(tmp_path / "new.pdf", b"new")
        staging = Staging(tmp_path / "out")
        with staging as output:
            staged = output.write_bytes("tiles/a.svg", b"a")
            staging.commit({"game/tiles": [staged]})
    finally:
        os.umask(previous)
    assert stat.S_IMODE((tmp_path / "new.pdf").stat().st_mode) == 0o600
    assert stat.S_IMODE(staged.stat().st_mode) == 0o600
    for mode in (0o600, 0o664):
        kept = tmp_path / f"kept-{mode:o}.toml"
        kept.write_bytes(b"old")
        kept.chmod(mode)
        write_atomic(kept, b"new")
        assert (kept.read_bytes(), stat.S_IMODE(kept.stat().st_mode)) == (b"new", mode)


@pytest.mark.parametrize("journal", [
    "[[[", json.dumps({"staging": f"{STAGING_PREFIX}x", "moves": ["../../etc/passwd"],
                       "remove": []})])
def test_a_damaged_journal_is_removed_and_said(
        journal: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """One pointing out of the output directory is damaged too: never followed."""
    from micropul_print.kit.outputs import JOURNAL

    (tmp_path / f"{STAGING_PREFIX}x").mkdir()
    (tmp_path / JOURNAL).write_text(journal)
    staging = Staging(tmp_path)
    with staging as output:
        staging.commit({"game/tiles": [output.write_bytes("a.svg", b"a")]})
    assert sorted(p.name for p in tmp_path.iterdir()) == [MANIFEST, "a.svg"]
    assert capsys.readouterr().err == (
        f"note: {tmp_path}: removed a damaged commit journal ({JOURNAL}) an earlier build "
        "left: the kit may be incomplete; build it again\n")


def test_a_staging_folder_of_a_running_build_is_left_alone(tmp_path: Path) -> None:
    """A second build is refused while the first holds the lock, and removes nothing."""
    first = Staging(tmp_path)
    with first as output:
        output.write_bytes("a.svg", b"a")
        with pytest.raises(UserError) as caught, Staging(tmp_path):
            pass
        assert [str(d) for d in caught.value.diagnostics] == [
            f"{tmp_path}: error: another micropul-print build is writing into this "
            "directory: wait for it to end, or build into another one"]
        first.commit({"game/tiles": [tmp_path / "a.svg"]})
    assert sorted(p.name for p in tmp_path.iterdir()) == [MANIFEST, "a.svg"]
