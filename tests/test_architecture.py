"""The shape of the code: the core never names a game, modules import each other
without cycles, and every registered game's engine has the common shape."""

from __future__ import annotations

import ast
import random
import re
from pathlib import Path

import pytest

from micropul_print.game import registry
from micropul_print.game.api import GameState

PACKAGE = Path(__file__).resolve().parents[1] / "micropul_print"
CORE = sorted(p for p in PACKAGE.rglob("*.py") if "games" not in p.relative_to(PACKAGE).parts)
# A game's name, or a notion only one game has; the tool's own name is not a game's.
GAME_WORDS = re.compile(r"micropul(?![-_]print)|cellulae|catalyst|quadrant|replicat|"
                        r"contaminat", re.IGNORECASE)


@pytest.mark.parametrize("path", CORE, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_the_core_never_names_a_game(path: Path) -> None:
    found = [f"{number}: {line.strip()}"
             for number, line in enumerate(path.read_text("utf-8").splitlines(), start=1)
             if GAME_WORDS.search(line)]
    assert found == []


def test_the_check_finds_a_game_named_in_the_core() -> None:
    assert GAME_WORDS.search("from micropul_print.games.cellulae import rules")
    assert GAME_WORDS.search("if game == 'micropul':")
    assert not GAME_WORDS.search("from micropul_print import registry  # micropul-print")


def _module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _top_level_imports(path: Path, name: str) -> set[str]:
    """Modules a module imports when it is imported (not inside functions, nor under
    TYPE_CHECKING), resolved to modules of the package."""
    tree = ast.parse(path.read_text("utf-8"))
    found: set[str] = set()
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node in tree.body:
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                base = f"{parent}.{base}" if base else parent
            found.add(base)
            found |= {f"{base}.{alias.name}" for alias in node.names}
    return {module for module in found if module.startswith("micropul_print")}


def test_no_import_cycle() -> None:
    modules = {_module_name(p): p for p in PACKAGE.rglob("*.py")}
    graph = {name: {m for m in _top_level_imports(path, name) if m in modules and m != name}
             for name, path in modules.items()}
    # A module imports its package's __init__ first: that edge is not a cycle.
    cycles: list[list[str]] = []
    state: dict[str, int] = {}

    def visit(node: str, trail: list[str]) -> None:
        state[node] = 1
        for target in sorted(graph[node]):
            if node.startswith(target + "."):
                continue
            if state.get(target) == 1:
                cycles.append([*trail[trail.index(target):], target])
            elif target not in state:
                visit(target, [*trail, target])
        state[node] = 2

    for name in sorted(graph):
        if name not in state:
            visit(name, [name])
    assert cycles == []


def _random_game(state: GameState, seed: int, limit: int = 5000) -> GameState:
    rng = random.Random(seed)
    for _ in range(limit):
        if state.is_terminal():
            break
        state.apply_action(rng.choice(list(state.legal_actions())))
    return state


@pytest.mark.parametrize("name", registry.game_names())
def test_every_game_has_the_common_engine_shape(name: str) -> None:
    from micropul_print.catalogue.loader import load_catalogue

    game = registry.get(name)
    catalogue = load_catalogue(game.shipped_catalogue())
    for variant in game.variants(catalogue):
        for seed in range(5):
            state = game.new_state(catalogue, seed=seed, variant=variant)
            assert state.turn() == 0 and not state.is_terminal()
            moves = list(state.legal_actions())
            # Every move goes through its JSON and back.
            assert [state.action_from_json(state.action_to_json(m)) for m in moves] == moves
            twin = state.clone()
            _random_game(state, seed)
            assert state.is_terminal() and state.end_reason() is not None
            assert twin.turn() == 0, "a copy must not share the original's state"
            # The copy, played the same way, plays the same game.
            assert _random_game(twin, seed).scores() == state.scores()
            returns = state.returns()
            assert len(returns) == state.players and all(r in (0.0, 0.5, 1.0) for r in returns)
            # A game that states what a score can be (the lab's intervals) keeps to it.
            score_range = getattr(state, "score_range", None)
            if score_range is not None:
                low, high = score_range
                assert all(low <= score <= high for score in state.scores())
            with pytest.raises(ValueError):
                state.action_from_json({"nonsense": 1})


def test_a_determinized_state_keeps_what_the_player_sees() -> None:
    from micropul_print.catalogue.loader import load_catalogue
    from micropul_print.games.micropul.engine import MicropulState

    game = registry.get("micropul")
    state = game.new_state(load_catalogue(game.shipped_catalogue()), seed=3)
    assert isinstance(state, MicropulState)
    _random_game(state, 3, limit=20)
    seen = state.determinized(99)
    assert seen.legal_actions() == state.legal_actions()  # hands and table are in sight

    def hidden(of: MicropulState) -> list[int]:
        return sorted([*of.match.core, *(t for pile in of.match.face_down for t in pile)])

    assert hidden(seen) == hidden(state) and seen.match.core != state.match.core


def test_the_plugin_guide_names_only_what_exists_and_every_member() -> None:
    import importlib

    from micropul_print.game.plugin import Game, members

    guide = (PACKAGE.parent / "docs" / "adding-a-game.md").read_text("utf-8")
    named = set(re.findall(r"\b((?:micropul_print|sheets)(?:\.\w+)+)", guide))
    assert len(named) > 10
    missing = []
    for dotted in sorted(named):
        parts = ("micropul_print." + dotted if dotted.startswith("sheets.") else
                 dotted).split(".")
        for split in range(len(parts), 0, -1):  # the longest importable module
            try:
                found: object = importlib.import_module(".".join(parts[:split]))
                break
            except ModuleNotFoundError:
                continue
        for attribute in parts[split:]:
            found = getattr(found, attribute, None)
        if found is None:
            missing.append(dotted)
    assert missing == []
    assert [m for m in members(Game) if f"`{m}" not in guide] == []
