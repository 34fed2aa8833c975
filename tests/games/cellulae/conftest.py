"""Cellulae's tests: ``catalogue`` is Cellulae's shipped catalogue."""

from __future__ import annotations

import pytest

from micropul_print.games.cellulae.catalogue import CellulaeCatalogue


@pytest.fixture(scope="session")
def catalogue(cellulae_catalogue: CellulaeCatalogue) -> CellulaeCatalogue:
    return cellulae_catalogue
