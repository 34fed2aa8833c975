"""The ``check`` command, through the real command line."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from micropul_print.cli import main

SMALL_SET = """\
game: micropul
name: Small
tile_count: 3
tiles:
  - id: 1
    start: true
    face: [W W, B B]
  - id: 2
    face: [B B, W W]
  - id: 3
    face: [W ., . 1]
"""


def test_the_shipped_set_passes(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", "--games", "20", "--seed", "3"]) == 0
    out, err = capsys.readouterr()
    # No progress for a short run that is not on a terminal; the set's notices, located.
    assert [line.split(": ", 1)[1] for line in err.splitlines()] == [
        "notice: tile 36 is the same as tile 35 (line 155) turned 90 degrees clockwise",
        "notice: tile 42 is the same as tile 41 (line 175) turned 180 degrees",
        "notice: tile 46 is the same as tile 45 (line 188) turned 180 degrees",
    ]
    assert "micropul.yaml:159:5: notice: tile 36" in err
    assert out.splitlines()[1] == "official set (Micropul 1.2.1)"
    assert "catalysts that can be activated: 46 of 46" in out
    assert "20 two-player games (random policy, seeds 3..22)" in out
    assert "20 solitaire games" in out
    assert out.endswith("check passed\n")


def test_same_seed_same_report(capsys: pytest.CaptureFixture[str]) -> None:
    def figures() -> list[str]:
        assert main(["check", "--games", "10"]) == 0
        out = capsys.readouterr().out
        return [line for line in out.splitlines() if "games/s" not in line]

    assert figures() == figures()


def test_a_set_with_problems_fails(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "small.yaml"
    path.write_text(SMALL_SET, encoding="utf-8")
    assert main(["check", str(path), "--games", "5"]) == 1
    out, err = capsys.readouterr()
    assert err.splitlines() == [
        f"{path}:8:5: notice: tile 2 is the same as tile 1 (line 5) turned 180 degrees",
        f"{path}:10:5: notice: tile 3 has no colour-swapped twin in the set",
        f"{path}:10:5: error: tile 3: the one-dot catalyst at br can never be activated",
    ]
    assert out.splitlines()[1] == (
        "variant of Micropul 1.2.1: 3 tiles changed, 0 tiles added, 45 tiles removed")
    assert out.endswith("check failed: 1 problem(s) with the set\n")
    assert "games (random policy" not in out


def test_an_invalid_catalogue_exits_1(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "broken.yaml"
    path.write_text(SMALL_SET.replace("tile_count: 3", "tile_count: 4"), encoding="utf-8")
    assert main(["check", str(path)]) == 1
    out, err = capsys.readouterr()
    assert out == "" and f"{path}:3:" in err


def test_usage_errors_exit_2() -> None:
    for argv in (["check", "--games", "-1"], ["check", "--seed", "x"]):
        with pytest.raises(SystemExit) as info:
            main(argv)
        assert info.value.code == 2



def test_a_catalogue_of_the_config_file_that_is_not_there_is_refused_at_its_value(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """It was named as a path alone, "/tmp/.../nope.yaml: error: file not found", as
    though typed, where the other commands point at the file's line."""
    monkeypatch.chdir(tmp_path)
    Path("micropul-print.toml").write_text('[check]\ncatalogue = "nope.yaml"\n')
    assert main(["check", "--games", "1"]) == 1
    assert capsys.readouterr().err == ("micropul-print.toml:2:13: error: catalogue: file not "
                                       "found: 'nope.yaml'\n")

def test_imports_no_drawing_library() -> None:
    code = (
        "import sys; from micropul_print.cli import main; "
        "assert main(['check', '--games', '2']) == 0; "
        "bad = [m for m in sys.modules if m.split('.')[0] in {'reportlab', 'svgwrite', 'PIL'}]; "
        "assert not bad, bad"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


@pytest.mark.parametrize(("game", "expected"), [
    ("micropul", ["no two-player games simulated", "no solitaire games simulated"]),
    ("cellulae", [f"no games simulated on {side} × {side}" for side in (5, 7, 9)]),
])
def test_no_games_says_none_were_simulated(
        game: str, expected: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", "--game", game, "--games", "0"]) == 0
    out = capsys.readouterr().out
    assert [line for line in out.splitlines() if "simulated" in line] == expected
    assert "seeds" not in out and "games/s" not in out


def test_one_game_names_its_seed(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", "--games", "1", "--seed", "7"]) == 0
    out = capsys.readouterr().out
    assert "1 two-player game (random policy, seed 7): " in out
    assert "1 solitaire game (random policy, seed 7): " in out


def test_warnings_are_shown_after_the_errors(tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    """With an error in the catalogue, check printed the error alone and hid the
    warning: every problem comes in one run, errors first."""
    path = tmp_path / "broken.yaml"
    path.write_text(SMALL_SET.replace("tile_count: 3", "colour: red\ntile_count: 4"),
                    encoding="utf-8")
    assert main(["check", str(path)]) == 1
    out, err = capsys.readouterr()
    assert out == ""
    assert err.splitlines() == [
        f"{path}:4:13: error: 'tile_count' is 4 but 3 tiles are listed (expected them to "
        "agree)",
        f"{path}:3:1: warning: unknown key 'colour' in the catalogue (expected game, name, "
        "tile_count or tiles)",
    ]


def test_a_seed_whose_last_game_passes_the_largest_is_refused(
        capsys: pytest.CaptureFixture[str]) -> None:
    """Game k is dealt seed S + k: the largest seed with two games dealt 2^63."""
    largest = 2**63 - 1
    assert main(["check", "--seed", str(largest), "--games", "2"]) == 2
    assert capsys.readouterr().err.splitlines() == [
        f"micropul-print check: error: --seed {largest} with --games 2 deals seeds up to "
        f"{largest + 1}, past the largest seed, {largest}: the seed must be at most "
        f"{largest - 1}",
    ]
    assert main(["check", "--seed", str(largest - 1), "--games", "2"]) == 0


@pytest.mark.parametrize(("command", "table", "typed", "expected"), [
    ("check", "[check]\nseed = 9223372036854775807\ngames = 2\n", [],
     "micropul-print.toml:2:8: error: seed: seed"),
    ("check", "[check]\ngames = 2\n", ["--seed", "9223372036854775807"],
     "micropul-print.toml:2:9: error: games: seed"),
    ("analyse", "[analyse]\nseed = 9223372036854775807\n", ["--games", "2"],
     "micropul-print.toml:2:8: error: seed: seed"),
])
def test_a_seed_past_the_largest_from_the_config_file_is_blamed_on_the_file(
        command: str, table: str, typed: list[str], expected: str, tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """The seed and the number of games from micropul-print.toml were refused as a usage
    error about --seed and --games, options the user never typed (status 2)."""
    largest = 2**63 - 1
    monkeypatch.chdir(tmp_path)
    Path("micropul-print.toml").write_text(table, encoding="utf-8")
    assert main([command, *typed]) == 1
    assert capsys.readouterr().err.splitlines() == [
        f"{expected} {largest} with 2 games deals seeds up to {largest + 1}, past the "
        f"largest seed, {largest}: the seed must be at most {largest - 1}",
    ]


def test_a_long_check_in_a_pipe_tells_its_progress_a_line_a_tenth() -> None:
    """In a pipe or a log, check wrote its terminal progress ("\\rcheck: ...") with no
    line end, and an interruption's message ran on in the same line."""
    done = subprocess.run([sys.executable, "-m", "micropul_print", "check", "--games", "5000"],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert "\r" not in done.stderr
    progress = [line for line in done.stderr.splitlines() if line.startswith("check: ")]
    assert progress == [f"check: {n}/10000 games" for n in range(1000, 10001, 1000)]


@pytest.mark.parametrize("game", ["micropul", "cellulae"])
def test_check_names_the_shipped_catalogue_not_its_site_packages_path(
        capsys: pytest.CaptureFixture[str], game: str) -> None:
    """check printed the installed package's absolute path (site-packages/...) of the
    shipped catalogue, in its summary and its notices: now shipped:NAME, as the lab's
    reports name it."""
    from micropul_print.catalogue.loader import shipped_catalogue

    assert main(["check", "--no-config", "--game", game, "--games", "1"]) == 0
    out, err = capsys.readouterr()
    shipped = str(shipped_catalogue(game))
    assert out.splitlines()[0].startswith(f"catalogue shipped:{game}.yaml: valid (")
    assert shipped not in out + err
    assert all(line.startswith(f"shipped:{game}.yaml:") for line in err.splitlines()
               if ": notice: " in line)


def test_check_names_a_user_catalogue_as_given(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "small.yaml").write_text(SMALL_SET, encoding="utf-8")
    main(["check", "--no-config", "small.yaml", "--games", "1"])
    assert capsys.readouterr().out.splitlines()[0] == "catalogue small.yaml: valid (3 tiles)"
