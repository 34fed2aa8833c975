"""Edgematch (the test plugin) loaded from its folder, for the lab's tests that do not go
through the command line."""

from __future__ import annotations

import sys
from pathlib import Path
from types import ModuleType

PLUGIN = Path(__file__).resolve().parents[1] / "plugins" / "edgematch"


def edgematch() -> ModuleType:
    """The Edgematch plugin module (tests/plugins/edgematch), imported by path."""
    if str(PLUGIN) not in sys.path:
        sys.path.insert(0, str(PLUGIN))
    import edgematch as module

    return module


def edgematch_catalogue() -> object:
    """The plugin's shipped catalogue, built without the registry (the plugin is not
    installed in this process)."""
    import yaml

    module = edgematch()
    data = yaml.safe_load(module.GAME.shipped_catalogue().read_text("utf-8"))
    tiles = tuple(module.EdgeTile(t["id"], t["edges"]) for t in data["tiles"])
    return module.EdgeCatalogue("edgematch", data["name"], tiles)
