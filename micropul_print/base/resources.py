"""Files shipped inside the package (catalogues, schemas, themes, layouts, books,
fonts), found with importlib.resources so that an installed wheel needs no checkout.

The tool reads them as ordinary files (their paths appear in messages, and readers
take paths), so the package must be installed as files on disk, as pip installs
wheels; a zipped import of the package is not supported.
"""

from __future__ import annotations

from importlib.resources import files
from pathlib import Path


def package_file(package: str, *parts: str) -> Path:
    """The path of a file or folder shipped in ``package`` (a dotted module name)."""
    found = files(package).joinpath(*parts)
    if not isinstance(found, Path):  # a zipped install: nothing to hand readers a path
        raise RuntimeError(f"{package} must be installed as files on disk, not zipped")
    return found
