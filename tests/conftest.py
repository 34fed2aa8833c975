"""Fixtures every test may use: the shipped catalogues, read once per session.

``catalogue`` is the first registered game's (Micropul's); tests/games/cellulae/
overrides it with Cellulae's, so each game's tests name their catalogue alike.
"""

from __future__ import annotations

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
