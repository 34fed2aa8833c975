"""`init`: a variant of any registered game, which check and build accept as it is, with
the schema its catalogue's modeline names beside it; existing files are never
overwritten."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema  # type: ignore[import-untyped]
import pytest
import yaml

from micropul_print.cli import main
from micropul_print.commands.init import NAME_LINE, schema_named
from micropul_print.config import CONFIG_NAME
from micropul_print.game import registry


@pytest.mark.parametrize("game", registry.game_names())
def test_a_variant_that_check_and_build_accept_unchanged(
        game: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    variant = tmp_path / "variant"
    assert main(["init", "--game", game, str(variant)]) == 0
    shipped = registry.get(game).shipped_catalogue()
    schema = schema_named(shipped.read_text(encoding="utf-8"))
    assert schema is not None
    names = [shipped.name, schema, "theme.yaml", CONFIG_NAME]
    assert capsys.readouterr().out.splitlines() == [str(variant / n) for n in names]
    assert sorted(p.name for p in variant.iterdir()) == sorted(names)
    # The catalogue is the shipped one under a set name of its own, and the schema
    # beside it accepts it.
    catalogue = variant / shipped.name
    assert catalogue.read_text("utf-8") == NAME_LINE.sub('name: "variant"',
                                                         shipped.read_text("utf-8"), count=1)
    validator = jsonschema.Draft202012Validator(json.loads((variant / schema).read_text()))
    assert list(validator.iter_errors(yaml.safe_load(catalogue.read_text()))) == []

    monkeypatch.chdir(variant)
    assert main(["check", "--games", "2"]) == 0
    capsys.readouterr()
    assert main(["build", "--only", "svg,sheets", "--paper", "a4", "--quiet"]) == 0
    built = sorted(p.relative_to(variant / "output").as_posix()
                   for p in (variant / "output").rglob("*.pdf"))
    assert built and all(f"{game}-tiles-a4.pdf" in name or "board" in name for name in built)
    assert main(["build", "--show-config"]) == 0
    shown = [" ".join(line.split()) for line in capsys.readouterr().out.splitlines()]
    assert f'theme = "theme.yaml" # {CONFIG_NAME}:7' in shown
    # The paper printed on is written in, both choices named, so a Letter user sets it
    # once; every build of the folder then makes that paper's kit.
    text = (variant / CONFIG_NAME).read_text()
    assert ('# The paper you print on: "a4" or "letter" ("all": the kit on each).\n'
            'paper = "a4"\n') in text
    assert f'paper = "a4" # {CONFIG_NAME}:9' in shown


def test_existing_files_are_never_overwritten(tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "theme.yaml").write_text("mine\n")
    (tmp_path / CONFIG_NAME).write_text("# mine\n")
    assert main(["init", str(tmp_path)]) == 1
    assert capsys.readouterr().err.splitlines() == [
        f"{tmp_path / name}: error: already exists: init writes only new files (move it "
        "away, or choose another folder)" for name in ("theme.yaml", CONFIG_NAME)]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["micropul-print.toml", "theme.yaml"]
    assert (tmp_path / "theme.yaml").read_text() == "mine\n"


@pytest.mark.parametrize("failure", [OSError(27, "File too large"), KeyboardInterrupt()])
def test_an_init_that_fails_half_way_leaves_nothing(
        failure: BaseException, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """A file-size limit (ulimit -f) or Ctrl-C at the second file left the catalogue,
    and the next init refused it: "already exists"."""
    from micropul_print.kit import outputs

    real = outputs.write_atomic
    written: list[Path] = []

    def second_fails(target: Path, data: bytes) -> None:
        if written:
            raise failure
        real(target, data)
        written.append(target)

    monkeypatch.setattr(outputs, "write_atomic", second_fails)
    variant = tmp_path / "new" / "variant"
    if isinstance(failure, OSError):
        assert main(["init", str(variant)]) == 1
        assert capsys.readouterr().err == f"{variant / 'schema.json'}: error: cannot write: " \
            "File too large\n"
    else:
        assert main(["init", str(variant)]) == 130
    assert list(tmp_path.iterdir()) == []
    monkeypatch.setattr(outputs, "write_atomic", real)
    assert main(["init", str(variant)]) == 0


def test_a_link_that_leads_nowhere_is_never_replaced(tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "theme.yaml").symlink_to(tmp_path / "nowhere.yaml")
    assert main(["init", str(tmp_path)]) == 1
    assert capsys.readouterr().err == (
        f"{tmp_path / 'theme.yaml'}: error: already exists: init writes only new files (move "
        "it away, or choose another folder)\n")
    assert [p.name for p in tmp_path.iterdir()] == ["theme.yaml"]
    assert (tmp_path / "theme.yaml").is_symlink()


def test_a_file_in_the_way_of_the_folder(tmp_path: Path,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    blocker = tmp_path / "variant"
    blocker.write_text("")
    assert main(["init", str(blocker)]) == 1
    assert capsys.readouterr().err == (f"{blocker}: error: this is a file, not a directory: "
                                       "init writes its files into a folder\n")


def test_a_folder_that_is_a_link_leading_nowhere(tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    """The folder given was a link to a folder not made: "cannot write: File exists"."""
    link = tmp_path / "variant"
    link.symlink_to(tmp_path / "gone")
    assert main(["init", str(link)]) == 1
    assert capsys.readouterr().err == (
        f"{link}: error: a link to {tmp_path / 'gone'}, which leads nowhere: make that "
        "folder, or choose another one\n")
    assert [p.name for p in tmp_path.iterdir()] == ["variant"]


def test_only_a_schema_beside_the_catalogue_is_copied() -> None:
    assert schema_named("# yaml-language-server: $schema=schema.json\ngame: x\n") == \
        "schema.json"
    assert schema_named("#yaml-language-server:  $schema=cellulae.schema.json \n") == \
        "cellulae.schema.json"
    for line in ("# yaml-language-server: $schema=https://example.org/s.json",
                 "# yaml-language-server: $schema=../s.json", "# no modeline"):
        assert schema_named(line) is None


def test_an_empty_folder_name_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(["init", ""]) == 2
    assert capsys.readouterr().err.splitlines()[-1] == (
        "micropul-print init: error: argument DIR: an empty folder name; give a folder, . "
        "for this one")
    assert list(tmp_path.iterdir()) == []


# One edit that makes each game's set a variant of the official one.
EDITS = {"micropul": ("W .", "B ."), "cellulae": ("author: Federico Latini", "author: Me")}


@pytest.mark.parametrize("game", registry.game_names())
def test_a_changed_variant_is_not_taken_for_the_official_set_renamed(
        game: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    variant = tmp_path / "my-variant"
    assert main(["init", "--game", game, str(variant)]) == 0
    catalogue = variant / registry.get(game).shipped_catalogue().name
    old, new = EDITS[game]
    text = catalogue.read_text("utf-8")
    assert old in text
    catalogue.write_text(text.replace(old, new, 1), "utf-8")
    monkeypatch.chdir(variant)
    capsys.readouterr()
    assert main(["check", "--games", "2"]) == 0
    out, err = capsys.readouterr()
    assert "variant of" in out
    assert "name of its own" not in err
    assert "warning" not in err


@pytest.mark.parametrize(("folder", "name"), [("micropul", "Micropul variant"),
                                               ("x" * 80, "x" * 60), ("Ünïcode", "Ünïcode")])
def test_a_variant_is_named_after_its_folder(tmp_path: Path, folder: str, name: str) -> None:
    assert main(["init", str(tmp_path / folder)]) == 0
    text = (tmp_path / folder / "micropul.yaml").read_text("utf-8")
    assert yaml.safe_load(text)["name"] == name


@pytest.mark.parametrize(("folder", "name"), [
    ("dice 🎲 set", "dice set"), ("🎲", "Micropul variant"), ("two\nlines", "two lines"),
    ("tab\there", "tab here")])
def test_a_variant_named_after_its_folder_keeps_only_what_the_sheets_print(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str], folder: str, name: str) -> None:
    """A folder named with an emoji gave a set name Lato lacks: every check of the fresh
    variant warned 'the font of the sheets, Lato, lacks'; a newline went into the
    headings."""
    assert main(["init", str(tmp_path / folder)]) == 0
    text = (tmp_path / folder / "micropul.yaml").read_text("utf-8")
    assert yaml.safe_load(text)["name"] == name
    monkeypatch.chdir(tmp_path / folder)
    capsys.readouterr()
    assert main(["check", "--games", "1"]) == 0
    assert "warning" not in capsys.readouterr().err
