"""Files shipped inside the package (catalogues, schemas, themes, layouts, books,
fonts), found as importlib.resources finds them, so that an installed wheel needs no
checkout: beside the package's own files, read from disk (importlib.resources itself
is asked only for a package loaded otherwise; importing it cost every command some
5 ms).

The tool reads them as ordinary files (their paths appear in messages, and readers
take paths), so the package must be installed as files on disk, as pip installs
wheels; a zipped import of the package is not supported.
"""

from __future__ import annotations

import importlib
from importlib.machinery import SourceFileLoader, SourcelessFileLoader
from pathlib import Path


def package_file(package: str, *parts: str) -> Path:
    """The path of a file or folder shipped in ``package`` (a dotted module name)."""
    spec = importlib.import_module(package).__spec__
    if (spec is not None and spec.origin and spec.submodule_search_locations is not None
            and isinstance(spec.loader, SourceFileLoader | SourcelessFileLoader)):
        # What importlib.resources.files gives a package loaded from a file: its folder.
        return Path(spec.origin).parent.joinpath(*parts)
    from importlib.resources import files

    found = files(package).joinpath(*parts)
    if not isinstance(found, Path):  # a zipped install: nothing to hand readers a path
        raise RuntimeError(f"{package} must be installed as files on disk, not zipped")
    return found
