"""The command line loads only the module of the command it runs."""

from __future__ import annotations

import subprocess
import sys

import pytest

from micropul_print import cli


def _modules_after(code: str) -> set[str]:
    """Module names imported by a fresh interpreter running ``code``."""
    script = f"import sys\n{code}\nprint('\\n'.join(sorted(sys.modules)))"
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                            check=True)
    return set(result.stdout.split())


def test_a_named_command_imports_its_module_alone() -> None:
    loaded = _modules_after("from micropul_print import cli\n"
                            "cli.build_parser(cli.command_named(['build', '--help']))")
    commands = {m for m in loaded if m.startswith("micropul_print.commands.")}
    assert commands == {"micropul_print.commands.build"}
    assert "micropul_print.games.micropul.rules" not in loaded


def test_no_command_lists_every_command(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        cli.main(["--help"])
    assert exit_.value.code == 0
    usage = capsys.readouterr().out
    for name in cli.COMMANDS:
        assert f"    {name}" in usage


@pytest.mark.parametrize("argv, expected", [
    (["build", "--only", "svg"], "build"),
    (["check"], "check"),
    (["--help"], None),
    ([], None),
    (["bulid"], None),
    (["--version", "build"], None),
])
def test_command_named(argv: list[str], expected: str | None) -> None:
    assert cli.command_named(argv) == expected


def test_a_misspelt_command_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        cli.main(["bulid"])
    assert exit_.value.code == 2
    assert "invalid choice: 'bulid'" in capsys.readouterr().err
