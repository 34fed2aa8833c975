"""The registry: a broken or clashing game plugin is one warning line and leaves the
other games working; the game it names is refused with the same line as an error."""

from __future__ import annotations

import sys
import types
from collections.abc import Iterator
from dataclasses import replace
from importlib.metadata import EntryPoint
from pathlib import Path

import pytest

from micropul_print import cli
from micropul_print.base.errors import UserError
from micropul_print.game import registry
from micropul_print.game.plugin import GameRules, members

SHIPPED = [EntryPoint("micropul", "micropul_print.games.micropul:GAME", registry.GROUP),
           EntryPoint("cellulae", "micropul_print.games.cellulae:GAME", registry.GROUP)]


def _clear() -> None:
    for cached in (registry._scan, registry._load):
        cached.cache_clear()
    registry._FAILED.clear()


@pytest.fixture
def plugins(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[EntryPoint]]:
    """The registered entry points: the shipped games, then what a test appends."""
    found = list(SHIPPED)
    monkeypatch.setattr(registry, "entry_points", lambda group: list(found))
    _clear()
    yield found
    _clear()


def _module(monkeypatch: pytest.MonkeyPatch, name: str, **members: object) -> None:
    module = types.ModuleType(name)
    for key, value in members.items():
        setattr(module, key, value)
    monkeypatch.setitem(sys.modules, name, module)


def test_a_plugin_that_fails_to_import_is_left_out(plugins: list[EntryPoint]) -> None:
    plugins.append(EntryPoint("zzz", "no_such_plugin_module:GAME", registry.GROUP))
    assert registry.game_names() == ["micropul", "cellulae"]
    assert [str(d) for d in registry.broken()] == [
        "no_such_plugin_module:GAME: warning: the game plugin 'zzz' failed to load: "
        "ModuleNotFoundError: No module named 'no_such_plugin_module' (left out)"]
    with pytest.raises(UserError) as caught:
        registry.get("zzz")
    assert [str(d) for d in caught.value.diagnostics] == [
        "no_such_plugin_module:GAME: error: the game plugin 'zzz' failed to load: "
        "ModuleNotFoundError: No module named 'no_such_plugin_module'"]


def test_a_plugin_that_exits_while_importing_does_not_end_the_tool(
        plugins: list[EntryPoint], monkeypatch: pytest.MonkeyPatch) -> None:
    class Exits(types.ModuleType):
        def __getattr__(self, name: str) -> object:
            raise SystemExit(3)

    monkeypatch.setitem(sys.modules, "exiting_plugin", Exits("exiting_plugin"))
    plugins.append(EntryPoint("eee", "exiting_plugin:GAME", registry.GROUP))
    assert registry.game_names() == ["micropul", "cellulae"]
    assert [d.message for d in registry.broken()] == [
        "the game plugin 'eee' failed to load: SystemExit: 3 (left out)"]


def test_a_plugin_lacking_members_or_misnamed_is_left_out(
        plugins: list[EntryPoint], monkeypatch: pytest.MonkeyPatch) -> None:
    game = registry.get("cellulae")
    # Half a game: its info and its rules, no printing data.
    _module(monkeypatch, "half_plugin", GAME=types.SimpleNamespace(
        info=replace(game.info, name="half"),
        **{member: getattr(game, member) for member in members(GameRules)}))
    _module(monkeypatch, "misnamed_plugin", GAME=game)
    plugins += [EntryPoint("half", "half_plugin:GAME", registry.GROUP),
                EntryPoint("other", "misnamed_plugin:GAME", registry.GROUP)]
    _clear()
    assert registry.game_names() == ["micropul", "cellulae"]
    messages = [d.message for d in registry.broken()]
    assert messages[0] == (f"the entry point 'half' of the group {registry.GROUP} is not "
                           "a game named 'half' (it lacks theme_problems, pieces, rulebook) "
                           "(left out)")
    assert messages[1] == (f"the entry point 'other' of the group {registry.GROUP} is not "
                           "a game named 'other' (left out)")


def test_a_plugin_named_like_a_shipped_game_replaces_neither(
        plugins: list[EntryPoint], monkeypatch: pytest.MonkeyPatch) -> None:
    _module(monkeypatch, "impostor_plugin", GAME=registry.get("cellulae"))
    # First on the path: it used to stand in for the shipped game unnoticed.
    plugins.insert(0, EntryPoint("micropul", "impostor_plugin:GAME", registry.GROUP))
    _clear()
    assert registry.game_names() == ["cellulae"]
    assert [str(d) for d in registry.broken()] == [
        "impostor_plugin:GAME: warning: the game 'micropul' is registered more than once: "
        "impostor_plugin:GAME, micropul_print.games.micropul:GAME; uninstall all but one "
        "(left out)"]
    with pytest.raises(UserError):
        registry.get("micropul")


def test_one_package_found_twice_on_the_path_is_no_clash(plugins: list[EntryPoint]) -> None:
    plugins.append(SHIPPED[1])
    assert registry.game_names() == ["micropul", "cellulae"] and registry.broken() == []


def test_the_other_games_work_beside_a_broken_plugin(
        plugins: list[EntryPoint], capsys: pytest.CaptureFixture[str]) -> None:
    plugins.append(EntryPoint("zzz", "no_such_plugin_module:GAME", registry.GROUP))
    assert cli.main(["catalogue", "--game", "cellulae", "--json"]) == 0
    out, err = capsys.readouterr()
    assert '"game": "cellulae"' in out
    assert err.splitlines() == [
        "no_such_plugin_module:GAME: warning: the game plugin 'zzz' failed to load: "
        "ModuleNotFoundError: No module named 'no_such_plugin_module' (left out)"]


def test_a_bug_in_a_plugin_names_the_plugin(
        plugins: list[EntryPoint], monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    from micropul_print.commands import catalogue

    code = compile("def run(args):\n    return 1 // 0\n", "buggy_plugin.py", "exec")
    module = types.ModuleType("buggy_plugin.commands")
    exec(code, module.__dict__)
    plugins.append(EntryPoint("buggy", "buggy_plugin:GAME", registry.GROUP))
    monkeypatch.setattr(catalogue, "run", module.run)
    assert cli.main(["catalogue"]) == 70
    assert capsys.readouterr().err.splitlines()[-1] == (
        "micropul-print: internal error in the game plugin 'buggy': ZeroDivisionError: "
        "integer division or modulo by zero (this is a bug of that plugin; "
        "MICROPUL_PRINT_TRACEBACK=1 shows where)")
    assert registry.plugin_of("micropul_print.games.micropul") is None


def test_a_broken_plugin_is_imported_once_however_often_the_games_are_listed(
        plugins: list[EntryPoint], monkeypatch: pytest.MonkeyPatch) -> None:
    attempts: list[str] = []

    class Fails(types.ModuleType):
        def __getattr__(self, name: str) -> object:
            attempts.append(name)
            raise ImportError("cannot import it")

    monkeypatch.setitem(sys.modules, "failing_plugin", Fails("failing_plugin"))
    plugins.append(EntryPoint("fff", "failing_plugin:GAME", registry.GROUP))
    for _ in range(3):
        assert registry.game_names() == ["micropul", "cellulae"] and registry.broken()
    assert attempts == ["GAME"]


def test_a_shipped_game_failing_after_it_loaded_is_a_bug_of_the_tool(
        plugins: list[EntryPoint]) -> None:
    problem = RuntimeError("no book")
    with pytest.raises(RuntimeError) as caught:
        registry.leave_out(registry.get("cellulae"), "rulebook", problem)
    assert caught.value is problem and registry.game_names() == ["micropul", "cellulae"]


def test_the_shipped_entry_points_are_read_as_importlib_metadata_reads_them() -> None:
    from importlib.metadata import entry_points

    own = registry._own_entry_points(registry.GROUP)
    assert own is not None  # no plugin installed: read without importlib.metadata
    assert ([(e.name, e.value, e.module) for e in own]
            == [(e.name, e.value, e.module) for e in entry_points(group=registry.GROUP)])
    assert [type(e.load()).__name__ for e in own] == ["CellulaeGame", "MicropulGame"]


def test_another_distribution_declaring_the_group_is_read_by_importlib_metadata(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    info = tmp_path / "dominoes-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: dominoes\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text(f"[{registry.GROUP}]\ndominoes = dominoes:GAME\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    assert registry._own_entry_points(registry.GROUP) is None
    assert "dominoes" in [e.name for e in registry.entry_points(registry.GROUP)]
