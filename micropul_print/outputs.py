"""Writing generated files: atomically, and only inside the chosen output directory."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path


class OutputDir:
    """The one directory a build may write into; refuses any path that leaves it."""

    def __init__(self, root: str | Path) -> None:
        self.root = Path(root).resolve()

    def path(self, relative: str | Path) -> Path:
        target = (self.root / relative).resolve()
        if target != self.root and self.root not in target.parents:
            raise ValueError(f"refusing to write outside {self.root}: {relative}")
        return target

    def write_bytes(self, relative: str | Path, data: bytes) -> Path:
        target = self.path(relative)
        write_atomic(target, data)
        return target


def write_atomic(target: Path, data: bytes) -> None:
    """Write ``data`` to a temporary file beside ``target``, then rename it over
    ``target``: readers never see a half-written file, and a crash leaves the old one."""
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        os.chmod(tmp, 0o644)
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
