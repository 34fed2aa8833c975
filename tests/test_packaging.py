"""Packaging: the file-list checks of `python3 tasks.py wheel-check` (which builds the
sdist and the wheel and runs the installed tool), the dependency pins against what the
tests run with, and the data the installed package reads."""

from __future__ import annotations

import tomllib
from importlib import metadata
from importlib.resources import files
from pathlib import Path
from typing import Any

import pytest
from packaging.requirements import Requirement

import tasks
from micropul_print.backends import fonts

ROOT = Path(__file__).resolve().parent.parent
PROJECT: dict[str, Any] = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
NEEDED = list(tasks.SDIST_NEEDS)


def sdist_of(*names: str) -> list[str]:
    """An sdist listing: the needed entries (a file inside each folder) plus ``names``."""
    return [need + "x.py" if need.endswith("/") else need for need in NEEDED] + list(names)


def test_an_sdist_with_every_tracked_file_passes() -> None:
    tracked = [*sdist_of("tests/data/a.yaml"), ".ci/run", ".gitignore"]
    assert tasks.sdist_problems(sdist_of("tests/data/a.yaml", "PKG-INFO", "setup.cfg",
                                         "micropul_print.egg-info/SOURCES.txt"),
                                tracked) == []


def test_an_sdist_missing_a_tracked_file_names_it() -> None:
    tracked = sdist_of("tests/data/a.yaml", "tiledefs/micropul.yaml")
    assert tasks.sdist_problems(sdist_of("tests/data/a.yaml"), tracked) == [
        "sdist lacks tiledefs/micropul.yaml (git tracks it: see MANIFEST.in)"]


def test_an_sdist_holding_untracked_files_names_them() -> None:
    names = sdist_of("tests/__pycache__/x.pyc", "output/tiles/svg/tile-01.svg")
    assert tasks.sdist_problems(names, sdist_of()) == [
        "sdist holds output/tiles/svg/tile-01.svg, which git does not track",
        "sdist holds tests/__pycache__/x.pyc, which git does not track",
    ]


def test_outside_a_git_checkout_the_needed_entries_are_still_checked() -> None:
    names = [name for name in sdist_of() if not name.startswith(("tests/", "CHANGELOG"))]
    assert tasks.sdist_problems(names, None) == ["sdist lacks CHANGELOG.md",
                                                 "sdist lacks tests/"]


def test_a_wheel_needs_its_data_and_licences_and_nothing_else() -> None:
    good = [*tasks.WHEEL_NEEDS, "micropul_print/__init__.py",
            "micropul_print-0.1.0.dist-info/METADATA"]
    assert tasks.wheel_problems(good, "0.1.0") == []
    bad = [name for name in good if not name.endswith("py.typed")]
    bad += ["tests/test_cli.py", "micropul_print/__pycache__/cli.cpython-311.pyc"]
    assert tasks.wheel_problems(bad, "0.1.0") == [
        "wheel lacks micropul_print/py.typed",
        "wheel holds micropul_print/__pycache__/cli.cpython-311.pyc",
        "wheel holds tests/test_cli.py",
    ]


def test_every_shipped_game_has_an_example_position() -> None:
    games = PROJECT["project"]["entry-points"]["micropul_print.games"]
    assert sorted(tasks.EXAMPLE_POSITIONS) == sorted(games)
    for path in tasks.EXAMPLE_POSITIONS.values():
        assert (ROOT / path).is_file(), path


def _requirements() -> list[Requirement]:
    project = PROJECT["project"]
    return [Requirement(text) for text in
            [*project["dependencies"], *project["optional-dependencies"]["dev"]]]


@pytest.mark.parametrize("requirement", _requirements(), ids=str)
def test_the_tests_run_with_a_pinned_release(requirement: Requirement) -> None:
    """Each range names the releases this suite passes with: the installed one is inside,
    and the range is closed above."""
    assert requirement.specifier.contains(metadata.version(requirement.name)), (
        f"{requirement.name} {metadata.version(requirement.name)} is outside {requirement}")
    assert any(spec.operator == "<" for spec in requirement.specifier), requirement


def test_the_dev_extras_pin_the_build_backend_as_the_build_system_does() -> None:
    backend = [Requirement(text) for text in PROJECT["build-system"]["requires"]]
    assert backend == [requirement for requirement in _requirements()
                       if requirement.name == "setuptools"]


def test_the_package_finds_its_fonts_and_type_marker() -> None:
    package = files("micropul_print")
    assert package.joinpath("py.typed").is_file()
    assert package.joinpath("lato", "OFL.txt").read_text(encoding="utf-8").startswith(
        "Copyright (c) 2010-2011 by tyPoland Lukasz Dziedzic")
    for face in (fonts.REGULAR, fonts.BOLD, fonts.ITALIC, fonts.BOLD_ITALIC):
        assert face.read_bytes()[:4] == b"\x00\x01\x00\x00", face  # TrueType outlines
