"""Writing generated files: atomically, only inside the chosen output directory, and
all or nothing.

A build writes into a staging folder inside the output directory; only when every job
has succeeded are its files moved into place (:meth:`Staging.commit`), so a failed or
interrupted build leaves the previous kit as it was and no half-written file. A
manifest (``.micropul-print-manifest.json``) remembers which files each part of each
game's kit wrote, so that a later build of that part removes the ones it no longer
makes, and nothing else.
"""

from __future__ import annotations

import contextlib
import errno
import json
import os
import shutil
import stat
import tempfile
from collections.abc import Iterable, Mapping
from pathlib import Path

from micropul_print.errors import Diagnostic, UserError

MANIFEST = ".micropul-print-manifest.json"
STAGING_PREFIX = ".micropul-print-staging-"
MANIFEST_MAX_BYTES = 64 * 1024 * 1024  # some 100 bytes a file: far more than any kit


class OutputDir:
    """The one directory a build may write into; refuses any path that leaves it,
    through ``..`` or through a symbolic link. With ``staging``, files go there under
    the same relative paths (and :meth:`path` still names their final place)."""

    def __init__(self, root: str | Path, *, staging: Path | None = None) -> None:
        self.root = Path(root).resolve()
        self.staging = staging
        self._folders: set[Path] = set()  # folders of the staging known to exist

    def path(self, relative: str | Path) -> Path:
        """Where ``relative`` lies in the output directory; UserError if that is not
        inside it."""
        target = (self.root / relative).resolve()
        if target != self.root and self.root not in target.parents:
            raise UserError([Diagnostic(str(self.root / relative), 0, 0,
                                        f"refusing to write outside the output directory "
                                        f"{self.root} (the path leads to {target})")])
        return target

    def write_bytes(self, relative: str | Path, data: bytes) -> Path:
        """Write one file atomically; returns its final path."""
        target = self.path(relative)
        if self.staging is None:
            write_atomic(target, data)
            return target
        # The staging folder is this build's own and new, and commit() moves its files
        # into place atomically: written straight (a temporary file and a rename for each
        # of a kit's hundreds of files took more time than drawing the tiles).
        where = self.staging / target.relative_to(self.root)
        if where.parent not in self._folders:
            where.parent.mkdir(parents=True, exist_ok=True)
            self._folders.add(where.parent)
        with open(where, "wb") as handle:
            handle.write(data)
        return target


def write_atomic(target: Path, data: bytes) -> None:
    """Write ``data`` to a temporary file beside ``target``, then rename it over
    ``target``: readers never see a half-written file, and a crash leaves the old one.
    An OSError names ``target``, never the temporary file the user did not ask for.
    A device, pipe or socket at ``target`` is refused: renaming over it would replace,
    say, /dev/null itself for a user who may (root may). A file replaced keeps its
    permissions; a new one gets those the umask allows."""
    if target.is_dir():
        raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), str(target))
    special = not_regular(target)
    if special:
        raise OSError(errno.EINVAL, special, str(target))
    target.parent.mkdir(parents=True, exist_ok=True)
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp",
                                   dir=target.parent)
    except OSError as exc:
        raise type(exc)(exc.errno, exc.strerror, str(target)) from None
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        os.chmod(tmp, _mode_for(target))  # mkstemp makes it 0o600, whatever the umask
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _mode_for(target: Path) -> int:
    """The permissions of the file written at ``target``: the old file's, when one is
    replaced (a configuration kept private stays so); else those open() would give a
    new file, 0o666 less the umask."""
    try:
        return stat.S_IMODE(os.stat(target).st_mode)
    except (OSError, ValueError):  # a new file
        umask = os.umask(0)  # the umask can only be read by setting it
        os.umask(umask)
        return 0o666 & ~umask


def not_regular(target: Path) -> str:
    """Why ``target``, which exists, is no file to write over ("" for a regular file, a
    folder or a missing one): a device, a pipe or a socket, as the inputs' reader
    tells them apart."""
    from micropul_print.yamlsource import not_a_file

    try:
        mode = os.stat(target).st_mode
    except (OSError, ValueError):  # missing, or a name no file can have: found out later
        return ""
    why = "" if stat.S_ISDIR(mode) else not_a_file(mode)
    return f"this {why}" if why else ""


def _unwritable(target: Path) -> str | None:
    """Why nothing can be made at ``target`` (its nearest existing folder is a file or
    not writable), or None."""
    for folder in target.parents:
        if folder.exists():
            if not folder.is_dir():
                return f"{folder} is a file, not a directory"
            if not os.access(folder, os.W_OK | os.X_OK):
                return f"{folder} is not writable"
            return None
    return None


def check_file_target(target: Path, what: str) -> None:
    """UserError if ``what`` cannot be written as the file ``target``: asked before the
    work that makes it (an analysis may take an hour), not after."""
    problem = _file_problem(target)
    if problem is not None:
        raise UserError([Diagnostic(str(target), 0, 0, f"cannot write {what} here: {problem}")])


def _file_problem(target: Path) -> str | None:
    """Why no file can be written at ``target``, or None."""
    return ("this is a directory, not a file" if target.is_dir()
            else not_regular(target) or _unwritable(target))


def check_directory_target(target: Path, what: str) -> None:
    """UserError if ``what`` cannot be written into the directory ``target`` (see
    :func:`check_file_target`)."""
    if target.is_dir():
        problem = (None if os.access(target, os.W_OK | os.X_OK)
                   else f"{target} is not writable")
    elif target.exists():
        problem = "this is a file, not a directory"
    else:
        problem = _unwritable(target)
    if problem is not None:
        raise UserError([Diagnostic(str(target), 0, 0, f"cannot write {what} here: {problem}")])


class Staging:
    """A build's staging folder: ``with Staging(root) as output:`` gives the OutputDir to
    write through; leaving the block by an exception (a problem, Ctrl-C, SIGTERM)
    removes everything staged, and :meth:`commit` moves the files into place."""

    def __init__(self, root: str | Path) -> None:
        self.root = Path(root)
        self.output: OutputDir | None = None
        self._created: Path | None = None  # the output directory, if this build made it
        self._committed = False

    def __enter__(self) -> OutputDir:
        root = self.root.resolve()
        if root.exists() and not root.is_dir():
            raise UserError([Diagnostic(str(self.root), 0, 0,
                                        "cannot write the kit here: this is a file, not a "
                                        "directory")])
        special = not_regular(root / MANIFEST)  # found now, not after the files moved in
        if special:
            raise UserError([Diagnostic(str(root / MANIFEST), 0, 0,
                                        f"cannot write the build's manifest: {special}")])
        if not root.exists():
            self._created = root
        root.mkdir(parents=True, exist_ok=True)
        for leftover in root.glob(f"{STAGING_PREFIX}*"):  # of a build killed outright
            shutil.rmtree(leftover, ignore_errors=True)
        staging = Path(tempfile.mkdtemp(prefix=STAGING_PREFIX, dir=root))
        self.output = OutputDir(root, staging=staging)
        return self.output

    def __exit__(self, *exc: object) -> None:
        if self.output is not None and self.output.staging is not None:
            shutil.rmtree(self.output.staging, ignore_errors=True)
        if self._created is not None and not self._committed:
            with contextlib.suppress(OSError):  # a failed first build leaves no folder
                self._created.rmdir()

    def commit(self, made: Mapping[str, Iterable[Path]], *,
               keep_unmade: bool = False) -> list[Path]:
        """Move every staged file into place and update the manifest: ``made`` maps each
        part of the kit this build made (e.g. ``<game>/sheets``) to its files. Files the
        manifest lists for those parts and this build did not make are removed; other
        parts' files are left alone. With ``keep_unmade`` (a build that remade only some
        files of its parts, such as one language's rulebook), they are kept, and stay in
        the manifest while they exist. Returns the files removed."""
        output = self.output
        assert output is not None and output.staging is not None, "commit inside the block"
        root, staging = output.root, output.staging
        made_files = {part: sorted({output.path(p).relative_to(root).as_posix()
                                    for p in paths}) for part, paths in made.items()}
        # Every target first, so that a folder (or a file where a folder must go) in the
        # way of one file moves none: the kit was left half replaced, and the error named
        # the staging folder.
        blocked = [Diagnostic(str(target), 0, 0,
                              f"cannot write this file of the kit here: {problem}")
                   for files in made_files.values() for relative in files
                   if (problem := _file_problem(target := output.path(relative))) is not None]
        if blocked:
            raise UserError(blocked)
        for files in made_files.values():
            for relative in files:
                target = output.path(relative)  # again: a link may have appeared meanwhile
                target.parent.mkdir(parents=True, exist_ok=True)
                os.replace(staging / relative, target)
        manifest = read_manifest(root)
        removed: list[Path] = []
        for part, files in made_files.items():
            if keep_unmade:
                kept = [f for f in manifest.get(part, ()) if (root / f).is_file()]
                manifest[part] = sorted({*kept, *files})
                continue
            for relative in sorted(set(manifest.get(part, ())) - set(files)):
                with contextlib.suppress(UserError):
                    stale = output.path(relative)
                    if stale.is_file() and not stale.is_symlink():
                        stale.unlink()
                        removed.append(stale)
                        _remove_empty_parents(stale.parent, root)
            manifest[part] = files
        self._committed = True
        write_atomic(root / MANIFEST, (json.dumps(
            {"written_by": "micropul-print", "parts": dict(sorted(manifest.items()))},
            indent=1, ensure_ascii=False) + "\n").encode("utf-8"))
        return removed


def read_manifest(root: Path) -> dict[str, list[str]]:
    """What earlier builds wrote into ``root``, part by part (empty if nothing, or if the
    manifest is not one of ours)."""
    from micropul_print.yamlsource import read_input_bytes

    # A pipe, a device or a link to one is not read (it hung, or filled the memory).
    raw, _problem = read_input_bytes(root / MANIFEST, MANIFEST_MAX_BYTES)
    try:
        data = json.loads(raw or b"")
    except (ValueError, RecursionError):  # not ours, or nested past the parser's depth
        return {}
    parts = data.get("parts") if isinstance(data, dict) else None
    if not isinstance(parts, dict):
        return {}
    return {str(part): [f for f in files if isinstance(f, str) and f and "\0" not in f]
            for part, files in parts.items() if isinstance(files, list)}


def _remove_empty_parents(folder: Path, root: Path) -> None:
    while folder != root and root in folder.parents:
        try:
            folder.rmdir()
        except OSError:  # not empty, or not ours to remove
            return
        folder = folder.parent
