"""Fixtures every test may use: the shipped catalogues, read once per session, and
a variant folder made by init.

``catalogue`` is the first registered game's (Micropul's); tests/games/cellulae/
overrides it with Cellulae's, so each game's tests name their catalogue alike.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from micropul_print.catalogue.loader import load_catalogue, shipped_catalogue
from micropul_print.games.cellulae.catalogue import CellulaeCatalogue
from micropul_print.games.micropul.model import Catalogue


@pytest.fixture(scope="session")
def catalogue() -> Catalogue:
    loaded = load_catalogue(shipped_catalogue("micropul"))
    assert isinstance(loaded, Catalogue)
    return loaded


@pytest.fixture(scope="session")
def cellulae_catalogue() -> CellulaeCatalogue:
    loaded = load_catalogue(shipped_catalogue("cellulae"))
    assert isinstance(loaded, CellulaeCatalogue)
    return loaded


@pytest.fixture
def variant_folder(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> Path:
    """A folder made by init, ``bluebird``, its tile 1 changed: a black micropul where
    the shipped tile has a white one."""
    from micropul_print.cli import main

    folder = tmp_path / "bluebird"
    assert main(["init", str(folder)]) == 0
    capsys.readouterr()
    catalogue = folder / "micropul.yaml"
    text = catalogue.read_text(encoding="utf-8")
    tile = "  - id: 1\n    face:\n      - W .\n"
    assert tile in text
    catalogue.write_text(text.replace(tile, tile.replace("W .", "B ."), 1), encoding="utf-8")
    return folder
