"""Packaging: the dependency pins against what the tests run with, and the data the
installed package reads."""

from __future__ import annotations

import io
import tomllib
from importlib import metadata
from importlib.resources import files
from pathlib import Path
from typing import Any

import pytest
from packaging.requirements import Requirement

from micropul_print import fonts

ROOT = Path(__file__).resolve().parent.parent
PROJECT: dict[str, Any] = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))


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


def test_reportlab_keeps_the_private_frame_state_the_rulebook_layout_reads() -> None:
    """rulebook/layout.py's floats read these names; the reportlab pin holds them, and
    this fails first if a release within it renames one."""
    from reportlab.platypus import Frame, KeepTogether, Spacer

    from micropul_print.backends.pdf import PageCanvas

    canvas = PageCanvas(io.BytesIO(), pagesize=(200, 300))
    frame = Frame(0, 0, 200, 300, leftPadding=0, rightPadding=0, topPadding=0,
                  bottomPadding=0)
    assert (frame._atTop, frame._aH, frame._y - frame._y1p) == (1, 300, 300)
    assert frame.add(Spacer(10, 50), canvas)
    assert (frame._atTop, frame._y - frame._y1p, frame._getAvailableWidth()) == (0, 250, 200)
    together = KeepTogether([Spacer(10, 50), Spacer(10, 20)])
    assert together.wrapOn(canvas, 200, 60)[1] > 60  # too tall: it asks to be split
    assert together._H == 70  # its real height


def test_the_package_finds_its_fonts_and_type_marker() -> None:
    package = files("micropul_print")
    assert package.joinpath("py.typed").is_file()
    assert package.joinpath("lato", "OFL.txt").read_text(encoding="utf-8").startswith(
        "Copyright (c) 2010-2011 by tyPoland Lukasz Dziedzic")
    for face in (fonts.REGULAR, fonts.BOLD, fonts.ITALIC, fonts.BOLD_ITALIC):
        assert face.read_bytes()[:4] == b"\x00\x01\x00\x00", face  # TrueType outlines
