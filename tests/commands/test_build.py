"""`micropul-print build` through the command line entry point."""

from __future__ import annotations

import io
import math
from pathlib import Path

import pytest
from pypdf import PdfReader

from micropul_print.cli import main
from micropul_print.kit.outputs import MANIFEST, STAGING_PREFIX

ROOT = Path(__file__).parents[2]
CATALOGUE_TEXT = (ROOT / "tiledefs/micropul.yaml").read_text(encoding="utf-8")
FAST = ["--dpi", "30"]  # small PNGs: the tests are about files, not pixels
# The line of each shipped catalogue's `game:` key, where a message about its game points.
GAME_LINE = {game: next(n for n, line in enumerate(
    (ROOT / f"tiledefs/{game}.yaml").read_text(encoding="utf-8").splitlines(), 1)
    if line.startswith("game:")) for game in ("micropul", "cellulae")}


def files_under(root: Path) -> set[str]:
    """The kit's files (the build's manifest aside)."""
    return {str(p.relative_to(root)) for p in root.rglob("*")
            if p.is_file() and p.name != MANIFEST}


def test_build_writes_the_contract_files_and_nothing_outside_out(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    workdir = tmp_path / "cwd"
    workdir.mkdir()
    monkeypatch.chdir(workdir)
    out = tmp_path / "kit"
    assert main(["build", "--out", str(out), "--lang", "en", *FAST]) == 0
    written = files_under(out)
    # The default build: one paper (A4 when none is configured), the rulebooks as books.
    assert {"sheets/micropul-tiles-a4.pdf",
            "tiles/svg/tile-01.svg", "tiles/svg/tile-48.svg", "tiles/svg/tile-back.svg",
            "tiles/png/tile-01.png", "tiles/png/tile-back.png", "tiles/overview.png",
            "rules/micropul-rules-en-a4.pdf"} <= written
    assert not [name for name in written if "letter" in name or "booklet" in name]
    assert not any(name.endswith(".tmp") for name in written)  # atomic writes left nothing
    assert (out / MANIFEST).is_file() and not any(STAGING_PREFIX in name for name in written)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["cwd", "kit"]
    assert list(workdir.iterdir()) == []
    captured = capsys.readouterr()
    assert "micropul sheets a4: sheets/micropul-tiles-a4.pdf (" in captured.err  # a line a part
    assert f"wrote {len(written)} files" in captured.out
    # What was built, then in one line what more there is and how to ask for it.
    assert captured.out.splitlines()[-1] == (
        "also available: Cellulae's kit (--game cellulae or all); the kit on letter paper "
        "(--paper letter); the rulebooks as booklets (--booklet); gutter-fold sheets "
        "(--layout gutter-fold or all); cut files (--cut-files); a print shop's file "
        "(--print-shop)")


def test_the_second_paper_and_the_booklets_come_on_request_or_from_the_configuration(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["build", "--out", str(tmp_path / "all"), "--only", "sheets,rulebooks",
                 "--lang", "en", "--paper", "all", "--booklet", "--no-config"]) == 0
    assert {name for name in files_under(tmp_path / "all") if name.startswith("rules/")} == {
        f"rules/micropul-rules-en{kind}-{paper}.pdf" for kind in ("", "-booklet")
        for paper in ("a4", "letter")}
    assert "also available:" in capsys.readouterr().out  # gutter fold, cut files...
    config = tmp_path / "letter.toml"
    config.write_text('[build]\npaper = "letter"\nbooklet = true\n', encoding="utf-8")
    assert main(["build", "--out", str(tmp_path / "l"), "--only", "sheets,rulebooks",
                 "--lang", "en", "--config", str(config), "--quiet"]) == 0
    assert files_under(tmp_path / "l") == {
        "sheets/micropul-tiles-letter.pdf", "rules/micropul-rules-en-letter.pdf",
        "rules/micropul-rules-en-booklet-letter.pdf"}


def test_everything_asked_for_leaves_nothing_more_to_offer(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["build", "--game", "all", "--paper", "all", "--layout", "all", "--booklet",
                 "--cut-files", "--print-shop", "--only", "svg,sheets,rulebooks", "--lang",
                 "en", "--out", str(tmp_path / "k"), "--no-config"]) == 0
    assert "also available" not in capsys.readouterr().out


def test_gutter_fold_alone_offers_the_duplex_sheets_and_cut_files_with_them(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """--cut-files alone would be refused without the duplex sheets: the summary names
    the option that goes with it."""
    assert main(["build", "--layout", "gutter-fold", "--only", "sheets", "--no-config",
                 "--out", str(tmp_path / "k")]) == 0
    more = capsys.readouterr().out.splitlines()[-1]
    assert "duplex sheets (--layout duplex or all)" in more
    assert "cut files (--layout all --cut-files)" in more
    assert "(--cut-files)" not in more


def test_only_svg_and_sheets_on_one_paper(tmp_path: Path) -> None:
    assert main(["build", "--out", str(tmp_path), "--only", "svg,sheets", "--paper", "a4",
                 "--quiet"]) == 0
    written = files_under(tmp_path)
    assert "sheets/micropul-tiles-a4.pdf" in written
    assert "sheets/micropul-tiles-letter.pdf" not in written
    assert len([n for n in written if n.startswith("tiles/svg/")]) == 49
    assert not [n for n in written if n.startswith(("tiles/png", "rules"))]


def test_a_file_of_the_kit_linked_to_another_of_its_files_is_refused_changing_nothing(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """tiles/svg/tile-03.svg a link to tile-04.svg (inside the kit, so followed): both
    were written to one place, the second over the first, and the build said it was
    done, tile 3's file showing tile 4."""
    assert main(["build", "--out", str(tmp_path), "--only", "svg", "--quiet"]) == 0
    svg = tmp_path / "tiles/svg"
    before = {p.name: p.read_bytes() for p in svg.iterdir()}
    (svg / "tile-03.svg").unlink()
    (svg / "tile-03.svg").symlink_to("tile-04.svg")
    assert main(["build", "--out", str(tmp_path), "--only", "svg", "--quiet"]) == 1
    (line,) = capsys.readouterr().err.splitlines()
    # Tile 3 is written first, through the link; then tile 4 finds its place taken.
    assert line == (f"{svg.resolve() / 'tile-04.svg'}: error: another file of the kit is a "
                    "symbolic link to this one: remove the link and build again")
    assert (svg / "tile-03.svg").readlink() == Path("tile-04.svg")
    assert (svg / "tile-04.svg").read_bytes() == before["tile-04.svg"]
    assert sorted(p.name for p in tmp_path.iterdir()) == [MANIFEST, "tiles"]


def test_quiet_prints_nothing(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["build", "--out", str(tmp_path), "--only", "sheets", "--paper", "letter",
                 "--quiet"]) == 0
    assert capsys.readouterr() == ("", "")


def sheet(out: Path, paper: str = "a4") -> PdfReader:
    return PdfReader(io.BytesIO((out / f"sheets/micropul-tiles-{paper}.pdf").read_bytes()))


def test_sheet_options_reach_the_pdf(tmp_path: Path) -> None:
    plain, options = tmp_path / "plain", tmp_path / "options"
    assert main(["build", "--out", str(plain), "--only", "sheets", "--paper", "all",
                 "--quiet"]) == 0
    assert main(["build", "--out", str(options), "--only", "sheets", "--paper", "all", "--quiet",
                 "--no-calibration", "--bleed", "3", "--duplex", "short",
                 "--back-offset", "0.5,-0.5", "--no-numbers"]) == 0
    assert len(sheet(plain).pages) == 4  # calibration + back, tiles + backs
    assert len(sheet(plain, "letter").pages) == 4  # the stones on the calibration sheet
    assert len(sheet(options).pages) == 4  # 35 tiles a page with 3 mm bleed: 2 sheets
    assert "fronts, page 1/2" in sheet(options).pages[0].extract_text()
    assert "calibration" in sheet(plain).pages[0].extract_text()


@pytest.mark.parametrize("arguments", [
    ["--bleed", "-1"], ["--bleed", "wide"], ["--bleed", "11"], ["--paper", "a3"],
    ["--back-offset", "1"], ["--back-offset", "1,x"], ["--back-offset", "30,0"],
    ["--lang", "xx"], ["--lang", ""], ["--dpi", "0"], ["--dpi", "many"],
    ["--duplex", "diagonal"], ["--only", "svg,pdf"], ["one.yaml", "two.yaml"],
])
def test_bad_options_are_usage_errors(arguments: list[str], tmp_path: Path,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as caught:
        main(["build", "--out", str(tmp_path / "out"), *arguments])
    assert caught.value.code == 2
    assert "usage:" in capsys.readouterr().err
    assert not (tmp_path / "out").exists()


@pytest.mark.parametrize(("arguments", "message"), [
    (["--back-offset", "１,２"], "argument --back-offset: expected two millimetre values X,Y "
                                "such as 0.5,-1: '１,２'"),
    (["--bleed", "٢"], "argument --bleed: not a number of millimetres: '٢'"),
    (["--bleed", "1_0"], "argument --bleed: not a number of millimetres: '1_0'"),
    (["--scale", "٩٧"], "argument --scale: expected the printer's scale in per cent, X,Y or "
                        "one value for both, such as 97 or 97,98.5: '٩٧'"),
    (["--back-offset", "1.123456789012345678901234,0"],
     "argument --back-offset: expected two millimetre values X,Y such as 0.5,-1: "
     "'1.123456789012345678901234,0'"),
])
def test_decimal_options_take_plain_ascii_digits_only(
        arguments: list[str], message: str, tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    """As the whole-number options (--dpi): float() also reads '٢', '1_0' or 25 digits."""
    with pytest.raises(SystemExit) as caught:
        main(["build", "--out", str(tmp_path / "out"), *arguments])
    assert caught.value.code == 2
    assert capsys.readouterr().err.splitlines()[-1] == f"micropul-print build: error: {message}"


@pytest.mark.parametrize(("text", "value"), [
    ("1.5", 1.5), (".5", 0.5), ("5.", 5.0), ("-1e1", -10.0), ("+2E-1", 0.2), (" 3 ", 3.0),
    ("1.234567890123456789", 1.234567890123456789), ("inf", math.inf),
])
def test_plain_decimal_numbers_are_read(text: str, value: float) -> None:
    from micropul_print.commands.values import decimal_number

    assert decimal_number(text) == value


@pytest.mark.parametrize(("command", "out"), [("build", ""), ("rulebook", ""), ("build", " ")])
def test_an_empty_out_is_a_usage_error_not_this_folder(
        command: str, out: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """As init's empty DIR: an unset shell variable, not "here"."""
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SystemExit) as caught:
        main([command, "--out", out, "--no-config"])
    assert caught.value.code == 2
    assert capsys.readouterr().err.splitlines()[-1] == (
        f"micropul-print {command}: error: argument --out: an empty folder name; give a "
        "folder, . for this one")
    assert list(tmp_path.iterdir()) == []


def test_bad_catalogue_is_reported_with_its_place_and_nothing_is_written(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.yaml"
    bad.write_text(CATALOGUE_TEXT.replace("      - W .\n      - . .", "      - W X\n      - . .",
                                          1), encoding="utf-8")
    assert main(["build", str(bad), "--out", str(tmp_path / "out")]) == 1
    err = capsys.readouterr().err
    assert f"{bad}:" in err and ": error: " in err
    assert "Traceback" not in err
    assert not (tmp_path / "out").exists()


def test_missing_catalogue_and_unknown_theme_are_user_errors(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["build", str(tmp_path / "none.yaml"), "--out", str(tmp_path / "o")]) == 1
    assert main(["build", "--theme", "no-such-theme", "--out", str(tmp_path / "o")]) == 1
    err = capsys.readouterr().err
    assert err.count("error:") >= 2
    assert "Traceback" not in err
    assert not (tmp_path / "o").exists()


def test_every_build_option_is_documented() -> None:
    import argparse

    from micropul_print.commands import build

    parser = argparse.ArgumentParser()
    build.add_arguments(parser)
    printing = (ROOT / "docs/printing.md").read_text(encoding="utf-8")
    options = [s for action in parser._actions for s in action.option_strings
               if s not in ("-h", "--help")]
    assert len(options) > 10
    for option in options:
        assert f"`{option}" in printing, option
    assert "CATALOGUE" in printing


def test_unwritable_output_directory_is_a_user_error(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a directory")
    assert main(["build", "--out", str(blocker), "--only", "sheets"]) == 1
    err = capsys.readouterr().err
    assert "cannot write" in err and "Traceback" not in err
    assert blocker.read_text() == "not a directory"


def test_game_all_builds_each_game_as_its_own_build_would(tmp_path: Path) -> None:
    options = ["--lang", "en", "--paper", "a4", "--quiet", *FAST]
    assert main(["build", "--game", "all", "--out", str(tmp_path / "all"), *options]) == 0
    assert main(["build", "--game", "micropul", "--out", str(tmp_path / "m"), *options]) == 0
    assert main(["build", "--game", "cellulae", "--out", str(tmp_path / "c"), *options]) == 0
    micropul, cellulae = files_under(tmp_path / "m"), files_under(tmp_path / "c")
    assert micropul and cellulae
    assert all(name.startswith("cellulae/") for name in cellulae)
    assert not any(name.startswith("cellulae/") for name in micropul)
    assert {"cellulae/sheets/cellulae-tiles-a4.pdf", "cellulae/sheets/cellulae-board-5-a4.pdf",
            "cellulae/tiles/svg/tile-white.svg", "cellulae/tiles/png/tile-black.png",
            "cellulae/tiles/overview.png"} <= cellulae
    assert files_under(tmp_path / "all") == micropul | cellulae
    for name in micropul:
        assert (tmp_path / "all" / name).read_bytes() == (tmp_path / "m" / name).read_bytes()
    for name in cellulae:
        assert (tmp_path / "all" / name).read_bytes() == (tmp_path / "c" / name).read_bytes()


def test_a_catalogue_builds_the_kit_of_its_own_game(tmp_path: Path) -> None:
    cellulae = str(ROOT / "tiledefs/cellulae.yaml")
    assert main(["build", cellulae, "--out", str(tmp_path), "--only", "svg", "--quiet"]) == 0
    assert files_under(tmp_path) == {"cellulae/tiles/svg/tile-white.svg",
                                     "cellulae/tiles/svg/tile-black.svg"}


def test_a_catalogue_of_another_game_than_asked_is_a_user_error(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    cellulae = str(ROOT / "tiledefs/cellulae.yaml")
    assert main(["build", cellulae, "--game", "micropul", "--out", str(tmp_path / "o")]) == 1
    line = GAME_LINE["cellulae"]
    assert capsys.readouterr().err == (
        f"{cellulae}:{line}:7: error: this is a cellulae catalogue, but the build asks for "
        "micropul only: leave --game out, or give that game's catalogue\n")
    assert not (tmp_path / "o").exists()


def test_with_every_game_a_catalogue_stands_for_its_own_game(tmp_path: Path) -> None:
    mine = tmp_path / "my-micropul.yaml"
    mine.write_text(CATALOGUE_TEXT.replace("name: Micropul", "name: My Micropul", 1),
                    encoding="utf-8")
    assert "name: My Micropul" in mine.read_text(encoding="utf-8")
    assert main(["build", str(mine), "--game", "all", "--only", "sheets", "--paper", "a4",
                 "--out", str(tmp_path / "o"), "--quiet"]) == 0
    assert files_under(tmp_path / "o") == {
        "sheets/micropul-tiles-a4.pdf", "cellulae/sheets/cellulae-tiles-a4.pdf",
        "cellulae/sheets/cellulae-board-5-a4.pdf", "cellulae/sheets/cellulae-board-7-a4.pdf",
        "cellulae/sheets/cellulae-board-9-a4.pdf"}
    title = sheet(tmp_path / "o").metadata.title  # type: ignore[union-attr]
    assert title is not None and title.startswith("My Micropul")


def test_every_problem_of_every_game_is_reported_before_anything_is_written(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from micropul_print.game import registry

    shipped = tmp_path / "tiledefs"
    shipped.mkdir()
    (shipped / "micropul.yaml").write_text(
        CATALOGUE_TEXT.replace("      - W .\n      - . .", "      - W X\n      - . .", 1),
        encoding="utf-8")
    (shipped / "cellulae.yaml").write_text("game: cellulae\n", encoding="utf-8")
    for game in ("micropul", "cellulae"):  # each game's shipped catalogue, broken
        monkeypatch.setattr(registry.get(game), "shipped_catalogue",
                            lambda game=game: shipped / f"{game}.yaml")
    assert main(["build", "--game", "all", "--out", str(tmp_path / "o")]) == 1
    err = capsys.readouterr().err
    assert f"{shipped / 'micropul.yaml'}:" in err and f"{shipped / 'cellulae.yaml'}:" in err
    assert "Traceback" not in err
    assert not (tmp_path / "o").exists()


def test_a_face_mark_the_theme_lacks_is_reported_at_its_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = (ROOT / "tiledefs/cellulae.yaml").read_text(encoding="utf-8")
    line = next(n for n, row in enumerate(text.splitlines(), 1) if "mark: square-dark" in row)
    column = text.splitlines()[line - 1].index("square-dark") + 1
    typo = tmp_path / "typo.yaml"
    typo.write_text(text.replace("mark: square-dark", "mark: sqaure-dark"), encoding="utf-8")
    assert main(["build", str(typo), "--only", "svg", "--out", str(tmp_path / "o")]) == 1
    assert capsys.readouterr().err == (
        f"{typo}:{line}:{column}: error: theme 'classic' has no mark 'sqaure-dark' (it has: "
        "back-emblem, back-fill, blank, disc-dark, disc-light, dot1, dot2, plus, square-dark, "
        "square-light, stone-1, stone-2)\n")
    assert not (tmp_path / "o").exists()


def test_each_game_writes_its_rulebooks_in_the_languages_asked(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["build", "--game", "cellulae", "--only", "rulebooks", "--lang", "pl,en",
                 "--paper", "all", "--booklet", "--out", str(tmp_path / "c"), "--quiet"]) == 0
    assert files_under(tmp_path / "c") == {
        *(f"cellulae/rules/cellulae-rules-{lang}{kind}-{paper}.pdf" for lang in ("en", "pl")
          for kind in ("", "-booklet") for paper in ("a4", "letter"))}
    with pytest.raises(SystemExit) as caught:
        main(["build", "--game", "all", "--lang", "xx", "--out", str(tmp_path / "a")])
    assert caught.value.code == 2
    err = capsys.readouterr().err
    assert "argument --lang: unknown language 'xx'; choose from en,de,es,fr,it,pl" in err
    assert not (tmp_path / "a").exists()


def test_layout_gutter_fold_writes_fold_sheets_for_both_games_and_papers(
        tmp_path: Path) -> None:
    assert main(["build", "--game", "all", "--only", "sheets", "--layout", "gutter-fold",
                 "--out", str(tmp_path), "--quiet", "--paper", "all"]) == 0
    written = files_under(tmp_path)
    folds = {"sheets/micropul-tiles-gutterfold-a4.pdf": 2,
             "sheets/micropul-tiles-gutterfold-letter.pdf": 2,
             "cellulae/sheets/cellulae-tiles-gutterfold-a4.pdf": 3,
             "cellulae/sheets/cellulae-tiles-gutterfold-letter.pdf": 4}  # output-layout.md
    assert set(folds) <= written
    assert not {"sheets/micropul-tiles-a4.pdf", "cellulae/sheets/cellulae-tiles-a4.pdf"} & written
    assert "cellulae/sheets/cellulae-board-5-a4.pdf" in written  # boards are no tiles
    for name, pages in folds.items():
        reader = PdfReader(tmp_path / name)
        assert len(reader.pages) == pages, name
        assert b"/Duplex /Simplex" in (tmp_path / name).read_bytes()  # single-sided


def test_cut_files_beside_sheets_with_registration_marks(tmp_path: Path) -> None:
    assert main(["build", "--game", "all", "--only", "sheets", "--paper", "a4", "--cut-files",
                 "--out", str(tmp_path), "--quiet"]) == 0
    written = files_under(tmp_path)
    # A4 with marks holds 51 a page: Micropul's 48 tiles on page 3, its stones (3 slots
    # too few) on the calibration page; Cellulae's 81 tiles on pages 3 and 5.
    assert {name for name in written if name.endswith(".svg")} == {
        "sheets/micropul-cut-a4.svg", "cellulae/sheets/cellulae-cut-a4.svg",
        "sheets/micropul-cut-a4-page1.svg", "sheets/micropul-cut-a4-page3.svg",
        "cellulae/sheets/cellulae-cut-a4-page3.svg", "cellulae/sheets/cellulae-cut-a4-page5.svg"}
    pages = len(PdfReader(tmp_path / "sheets/micropul-tiles-a4.pdf").pages)
    assert pages == 4
    svg = (tmp_path / "sheets/micropul-cut-a4-page3.svg").read_text(encoding="utf-8")
    assert 'width="210mm"' in svg and 'id="registration-marks"' in svg
    assert svg.count("<path") >= 48  # a cut path per tile (and the marks')


def test_tiles_writes_a_reprint_of_those_tiles_only(tmp_path: Path) -> None:
    assert main(["build", "--only", "sheets", "--tiles", "7,12,31",
                 "--out", str(tmp_path), "--quiet", "--paper", "all"]) == 0
    assert files_under(tmp_path) == {
        "sheets/micropul-tiles-a4.pdf", "sheets/micropul-tiles-letter.pdf",
        "sheets/micropul-reprint-a4.pdf", "sheets/micropul-reprint-letter.pdf"}
    for paper, label in (("a4", "A4"), ("letter", "Letter")):
        reader = PdfReader(tmp_path / f"sheets/micropul-reprint-{paper}.pdf")
        # One sheet: the three fronts, then their backs; the calibration page is the
        # full sheets' (it took a sheet of its own).
        assert len(reader.pages) == 2
        assert reader.metadata is not None
        assert reader.metadata.title == f"Micropul — tiles 7, 12, 31, {label}"
        assert "calibration" not in "".join(page.extract_text() for page in reader.pages)


@pytest.mark.parametrize("only", ["svg", "sheets", "png", "rulebooks", "svg,sheets",
                                  "sheets,rulebooks"])
@pytest.mark.parametrize(("tiles", "missing"), [
    ("49", "no tile 49"),
    ("1-49", "no tile 49"),
    ("7,49,50,60-10000", "no tiles 49 and 50, no tiles 60 to 10000"),
    ("0", "no tile 0"),
    ("-3", "no tile -3"),
    ("-2-2", "no tiles -2 to 0"),
    ("99999999999999999999", "no tile 99999999999999999999"),
])
def test_a_tile_number_outside_the_set_is_a_usage_error_whatever_only_says(
        tiles: str, missing: str, only: str, tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    """--tiles 49 --only svg built the 48 tiles and ended with 0; 0 and -3 were refused
    without the set's numbering; with sheets, the error was at the catalogue's line."""
    assert main(["build", "--only", only, f"--tiles={tiles}", "--out", str(tmp_path / "o")]) == 2
    assert capsys.readouterr().err == (
        f"micropul-print build: error: argument --tiles: {missing} in Micropul (its tiles "
        "are numbered 1 to 48)\n")
    assert not (tmp_path / "o").exists()


def test_a_tile_number_outside_a_set_of_a_long_name_is_said_in_one_short_line(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The set's name (no bound of its own, up to the file's 1 MiB) was quoted whole: a
    100,000-character line."""
    catalogue = tmp_path / "long.yaml"
    name = "x" * 100_000
    catalogue.write_text(CATALOGUE_TEXT.replace("name: Micropul\n", f"name: {name}\n"),
                         encoding="utf-8")
    assert main(["build", str(catalogue), "--only", "svg", "--tiles", "49",
                 "--out", str(tmp_path / "o")]) == 2
    assert capsys.readouterr().err.splitlines()[-1] == (
        f"micropul-print build: error: argument --tiles: no tile 49 in '{name[:60]}…' "
        "(100000 characters) (its tiles are numbered 1 to 48)")


def test_a_tile_number_outside_the_set_from_the_configuration_is_located_there(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "micropul-print.toml").write_text('[build]\ntiles = "3,49"\n')
    assert main(["build", "--only", "svg", "--out", "o"]) == 1
    assert capsys.readouterr().err == (
        "micropul-print.toml:2:9: error: tiles: no tile 49 in Micropul (its tiles are "
        "numbered 1 to 48)\n")
    assert not (tmp_path / "o").exists()


def test_tiles_of_a_game_without_numbers_is_a_usage_error(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["build", "--game", "cellulae", "--only", "sheets", "--tiles", "3",
                 "--out", str(tmp_path / "o")]) == 2
    assert capsys.readouterr().err == (
        "micropul-print build: error: argument --tiles: the Cellulae tiles have no numbers "
        "(they are all alike): leave --tiles out for this game\n")
    assert not (tmp_path / "o").exists()


def test_print_shop_with_tiles_writes_a_print_shop_reprint_of_those_tiles_only(
        tmp_path: Path) -> None:
    """--print-shop --tiles wrote the 48 tiles only: a shop reprinting two lost tiles
    would have been sent all of them."""
    assert main(["build", "--only", "sheets", "--paper", "a4", "--print-shop",
                 "--tiles", "12,7", "--out", str(tmp_path), "--quiet"]) == 0
    assert files_under(tmp_path) == {
        "sheets/micropul-tiles-a4.pdf", "sheets/micropul-reprint-a4.pdf",
        "sheets/micropul-tiles-print-shop.pdf", "sheets/micropul-reprint-print-shop.pdf"}
    full = PdfReader(tmp_path / "sheets/micropul-tiles-print-shop.pdf")
    reprint = PdfReader(tmp_path / "sheets/micropul-reprint-print-shop.pdf")
    assert len(full.pages) == 96
    # Tile 12's front and back, then tile 7's, in the order asked, as in the full file.
    assert [page.extract_text().strip() for page in reprint.pages] == ["12", "", "7", ""]
    assert [full.pages[i].extract_text().strip() for i in (22, 12)] == ["12", "7"]
    assert reprint.metadata is not None
    assert reprint.metadata.title == "Micropul — tiles 12, 7, for a print shop"
    mm = 72 / 25.4
    for page in reprint.pages:
        assert [round(float(v) / mm, 3) for v in page.trimbox] == [3.0, 3.0, 33.0, 33.0]


def test_tiles_with_every_game_reprints_the_games_that_number_theirs(tmp_path: Path) -> None:
    """--game all (make, with tiles = ... in the configuration) took --tiles as meant for
    Cellulae too and refused the build, telling to leave --tiles out "for this game"."""
    assert main(["build", "--game", "all", "--only", "sheets", "--paper", "a4",
                 "--tiles", "7", "--out", str(tmp_path), "--quiet"]) == 0
    reprints = sorted(p.relative_to(tmp_path).as_posix() for p in tmp_path.rglob("*reprint*"))
    assert reprints == ["sheets/micropul-reprint-a4.pdf"]


CUT_FILES_WITHOUT_DUPLEX = (
    "micropul-print build: error: argument --cut-files: the cut files go with the duplex "
    "sheets, which --layout gutter-fold leaves out: use --layout all for both kinds of "
    "sheet, or leave --cut-files out\n")


def test_cut_files_with_gutter_fold_alone_is_a_usage_error(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Gutter-fold sheets alone have no duplex sheets to register: --cut-files wrote
    nothing and said nothing."""
    assert main(["build", "--only", "sheets", "--layout", "gutter-fold", "--cut-files",
                 "--out", str(tmp_path / "o")]) == 2
    assert capsys.readouterr().err == CUT_FILES_WITHOUT_DUPLEX
    assert not (tmp_path / "o").exists()


def test_cut_files_with_gutter_fold_alone_from_the_configuration_file(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = tmp_path / "micropul-print.toml"
    config.write_text('[build]\nlayout = "gutter-fold"\ncut-files = true\n', encoding="utf-8")
    assert main(["build", "--config", str(config), "--only", "sheets",
                 "--out", str(tmp_path / "o")]) == 2
    assert capsys.readouterr().err == CUT_FILES_WITHOUT_DUPLEX
    assert not (tmp_path / "o").exists()
    # With the duplex sheets beside the gutter-fold ones, the cut files are made.
    assert main(["build", "--config", str(config), "--only", "sheets", "--layout", "all",
                 "--paper", "a4", "--out", str(tmp_path / "o"), "--quiet"]) == 0
    assert (tmp_path / "o" / "sheets" / "micropul-cut-a4.svg").is_file()

def test_every_pdf_of_the_sheets_asks_for_the_flip_of_duplex_short(tmp_path: Path) -> None:
    """Viewer preferences of every sheet file: actual size, and double-sided with the
    --duplex flip (the print-shop file said long edge whatever --duplex was), or
    single-sided (gutter fold, boards)."""
    assert main(["build", "--game", "all", "--only", "sheets", "--paper", "letter",
                 "--duplex", "short", "--layout", "all", "--print-shop", "--cut-files",
                 "--out", str(tmp_path), "--quiet"]) == 0
    for path in sorted(tmp_path.rglob("*.pdf")):
        data = path.read_bytes()
        single = "gutterfold" in path.name or "board" in path.name
        assert b"/PrintScaling /None" in data, path.name
        assert (b"/Duplex /Simplex" if single else b"/Duplex /DuplexFlipShortEdge") in data, (
            path.name)


def test_with_bleed_every_page_of_every_sheet_pdf_has_trim_and_bleed_boxes(
        tmp_path: Path) -> None:
    """PDF/X practice, boards included (they had no boxes)."""
    assert main(["build", "--game", "all", "--only", "sheets", "--paper", "a4", "--bleed", "3",
                 "--layout", "all", "--print-shop", "--no-calibration",
                 "--out", str(tmp_path), "--quiet"]) == 0
    pdfs = sorted(tmp_path.rglob("*.pdf"))
    assert any("board" in path.name for path in pdfs)
    for path in pdfs:
        for page in PdfReader(path).pages:
            assert "/TrimBox" in page and "/BleedBox" in page, path.name


def test_print_shop_file_has_one_face_a_page_with_its_trim_and_bleed_boxes(
        tmp_path: Path) -> None:
    assert main(["build", "--game", "all", "--only", "sheets", "--paper", "a4",
                 "--print-shop", "--out", str(tmp_path), "--quiet"]) == 0
    written = files_under(tmp_path)
    assert {"sheets/micropul-tiles-print-shop.pdf",
            "cellulae/sheets/cellulae-tiles-print-shop.pdf"} <= written
    mm = 72 / 25.4
    for name, pages in (("sheets/micropul-tiles-print-shop.pdf", 96),
                        ("cellulae/sheets/cellulae-tiles-print-shop.pdf", 2)):
        reader = PdfReader(tmp_path / name)
        assert len(reader.pages) == pages, name  # each tile's front, then its back
        page = reader.pages[0]
        assert round(float(page.mediabox.width) / mm, 3) == 36.0  # 30 mm and 3 mm bleed
        assert [round(float(v) / mm, 3) for v in page.trimbox] == [3.0, 3.0, 33.0, 33.0]
        assert [round(float(v) / mm, 3) for v in page.bleedbox] == [0.0, 0.0, 36.0, 36.0]


def test_a_build_prints_the_warnings_of_its_catalogue_and_theme(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A build read its catalogue and theme through the same gate as check, but
    printed none of their warnings: an unknown key went unseen."""
    catalogue = tmp_path / "variant.yaml"
    shipped = (ROOT / "micropul_print/games/micropul/micropul.yaml").read_text("utf-8")
    catalogue.write_text(shipped.replace("\nname: Micropul\n", "\nname: Micropul\nfoo: 1\n", 1),
                         encoding="utf-8")
    theme = tmp_path / "theme.yaml"
    theme.write_text((ROOT / "micropul_print/draw/themes/classic.yaml").read_text("utf-8")
                     + "bogus: 3\n", encoding="utf-8")
    lines = len(theme.read_text("utf-8").splitlines())
    code = main(["build", str(catalogue), "--no-config", "--theme", str(theme), "--only", "svg",
                 "--paper", "a4", "--quiet", "--out", str(tmp_path / "out")])
    assert code == 0
    err = capsys.readouterr().err.splitlines()
    assert [line for line in err if ": warning: " in line] == [
        f"{catalogue}:16:1: warning: unknown key 'foo' in the catalogue (expected game, name, "
        "tile_count or tiles)",
        f"{theme}:{lines}:1: warning: unknown key 'bogus' in theme (expected face, number, "
        "label, marks, name or description)",
    ]


def test_a_theme_s_problems_are_shown_beside_the_catalogue_s(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A catalogue's errors ended build and rulebook before the theme was read, so its
    problems came only in a second run."""
    catalogue = tmp_path / "bad.yaml"
    shipped = (ROOT / "micropul_print/games/micropul/micropul.yaml").read_text("utf-8")
    catalogue.write_text(shipped.replace("tile_count: 48", "tile_count: 47", 1), "utf-8")
    theme = tmp_path / "theme.yaml"
    theme.write_text("name: t\nface:\n  outline_width: banana\n", "utf-8")
    for argv in (["build", str(catalogue)], ["rulebook", "--catalogue", str(catalogue)]):
        code = main([*argv, "--no-config", "--theme", str(theme), "--out",
                     str(tmp_path / "out")])
        assert code == 1
        err = capsys.readouterr().err.splitlines()
        assert err[0].startswith(f"{catalogue}:") and ": error: 'tile_count' is 47" in err[0]
        assert f"{theme}:3:18: error: face.outline_width must be a length in millimetres; " \
               "got 'banana'" in err


def test_build_out_a_folder_of_other_files_is_refused_at_the_option(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """build --out / (or the home folder) wrote a kit among the files there, and the next
    build took them for its own: a folder holding files no build made, and no previous
    kit, is refused before any work."""
    monkeypatch.chdir(tmp_path)
    mine = tmp_path / "mine"
    mine.mkdir()
    for name in ("a.txt", "b.txt", "c.txt", "d.txt", "notes"):
        (mine / name).write_text("mine", encoding="utf-8")
    assert main(["build", "--no-config", "--out", "mine", "--only", "svg", "--quiet"]) == 2
    assert capsys.readouterr().err == (
        "micropul-print build: error: argument --out: mine holds files no build made "
        "(a.txt, b.txt, c.txt and 2 more), and no previous kit: give an empty folder, a "
        "new one or a previous kit's\n")
    assert sorted(p.name for p in mine.iterdir()) == ["a.txt", "b.txt", "c.txt", "d.txt",
                                                       "notes"]


def test_build_out_of_the_configuration_a_folder_of_other_files_is_refused_at_its_line(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "micropul-print.toml").write_text('[build]\nout = "."\n', encoding="utf-8")
    assert main(["build", "--only", "svg", "--quiet"]) == 1
    assert capsys.readouterr().err == (
        "micropul-print.toml:2:7: error: out: . holds files no build made "
        "(micropul-print.toml), and no previous kit: give an empty folder, a new one or a "
        "previous kit's\n")


def test_build_out_an_empty_folder_or_a_previous_kit_is_built_into(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "kit").mkdir()
    assert main(["build", "--no-config", "--out", "kit", "--only", "svg", "--quiet"]) == 0
    (tmp_path / "kit" / "tiles" / "mine.txt").write_text("mine", encoding="utf-8")
    assert main(["build", "--no-config", "--out", "kit", "--only", "svg", "--quiet"]) == 0
    assert (tmp_path / "kit" / "tiles" / "mine.txt").exists()


def test_build_out_a_folder_of_only_what_file_browsers_leave_is_built_into(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A new folder opened in a file browser gets .DS_Store, Thumbs.db or desktop.ini
    (or holds a .gitkeep): still an empty folder to a user, and kept as it is."""
    monkeypatch.chdir(tmp_path)
    kit = tmp_path / "kit"
    kit.mkdir()
    for name in (".DS_Store", ".gitkeep", "Thumbs.db", "desktop.ini"):
        (kit / name).write_text("system", encoding="utf-8")
    assert main(["build", "--no-config", "--out", "kit", "--only", "svg", "--quiet"]) == 0
    assert (kit / ".DS_Store").read_text(encoding="utf-8") == "system"
    assert (kit / "Thumbs.db").exists()
    assert (kit / "tiles").is_dir()


def test_rulebook_out_a_folder_of_other_files_is_refused_at_the_option(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "mine").mkdir()
    (tmp_path / "mine" / "a.txt").write_text("mine", encoding="utf-8")
    assert main(["rulebook", "--no-config", "--out", "mine", "--lang", "en"]) == 2
    assert capsys.readouterr().err == (
        "micropul-print rulebook: error: argument --out: mine holds files no build made "
        "(a.txt), and no previous kit: give an empty folder, a new one or a previous "
        "kit's\n")
