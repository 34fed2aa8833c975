"""The keys every catalogue has, whatever the game, as the loader read them: what a
game's catalogue reader (plugin.GameRules.read_catalogue) is given."""

from __future__ import annotations

from micropul_print.base.record import record
from micropul_print.base.yamlsource import YamlMapping, YamlNode


@record
class CatalogueHeader:
    """The keys every catalogue has, whatever the game."""

    game: str
    name: str | None
    tile_count: int | None
    tile_count_node: YamlNode | None
    tiles: tuple[YamlNode, ...]
    tiles_node: YamlNode  # the 'tiles' key: where problems of the whole list are reported
    source: str
    root: YamlMapping  # the whole file, for the game's own top-level keys
    game_at: tuple[int, int] = (0, 0)  # (line, column) of the game key, for messages
