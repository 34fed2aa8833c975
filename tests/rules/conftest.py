from __future__ import annotations

import pytest

from micropul_print.catalogue.loader import load_catalogue
from micropul_print.catalogue.model import Catalogue


@pytest.fixture(scope="session")
def catalogue() -> Catalogue:
    return load_catalogue()
