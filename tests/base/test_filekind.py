"""base.filekind: one wording of what a file mode is, for inputs and outputs alike."""

from __future__ import annotations

import os
import socket
import stat
from pathlib import Path

import pytest

from micropul_print.base.filekind import kind_of_mode
from micropul_print.base.yamlsource import not_a_file
from micropul_print.kit.outputs import kind_of, not_regular


@pytest.mark.parametrize(("mode", "kind"), [
    (stat.S_IFREG | 0o644, "a file"),
    (stat.S_IFDIR | 0o755, "a directory"),
    (stat.S_IFIFO | 0o600, "a pipe"),
    (stat.S_IFSOCK | 0o600, "a socket"),
    (stat.S_IFCHR | 0o666, "a device"),
    (stat.S_IFBLK | 0o660, "a device"),
])
def test_kind_of_mode_names_each_kind(mode: int, kind: str) -> None:
    assert kind_of_mode(mode) == kind


def test_a_socket_is_called_a_socket_by_the_inputs_reader_and_the_outputs_alike(
        tmp_path: Path) -> None:
    """The reader said 'a pipe or socket', the outputs 'a socket': one wording now."""
    where = tmp_path / "s"
    server = socket.socket(socket.AF_UNIX)
    try:
        server.bind(str(where))
        mode = os.stat(where).st_mode
        assert not_a_file(mode) == "is a socket, not a file"
        assert kind_of(where) == "a socket"
        assert not_regular(where) == "this is a socket, not a file"
    finally:
        server.close()


def test_a_pipe_is_called_a_pipe_by_the_inputs_reader_and_the_outputs_alike(
        tmp_path: Path) -> None:
    where = tmp_path / "p"
    os.mkfifo(where)
    assert not_a_file(os.stat(where).st_mode) == "is a pipe, not a file"
    assert kind_of(where) == "a pipe"
    assert not_regular(where) == "this is a pipe, not a file"
