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
import sys
import tempfile
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path

from micropul_print.base.errors import Diagnostic, UserError, printable
from micropul_print.base.filekind import kind_of_mode

MANIFEST = ".micropul-print-manifest.json"
STAGING_PREFIX = ".micropul-print-staging-"
MANIFEST_MAX_BYTES = 64 * 1024 * 1024  # some 100 bytes a file: far more than any kit


class OutputDir:
    """The one directory a build may write into; refuses any path that leaves it,
    through ``..`` or through a symbolic link. With ``staging``, files go there under
    the same relative paths (and :meth:`path` still names their final place)."""

    def __init__(self, root: str | Path, *, staging: Path | None = None) -> None:
        self.root = resolved_output(Path(root), "into this directory")
        self.staging = staging
        self._folders: set[Path] = set()  # folders of the staging known to exist
        self._resolved: dict[str, str] = {}  # a relative folder -> where it leads
        self._inside = os.path.join(str(self.root), "")  # what every path inside starts with

    def path(self, relative: str | Path) -> Path:
        """Where ``relative`` lies in the output directory; UserError if that is not
        inside it, or if a loop of symbolic links is in the way.

        Each folder is resolved once (a build names hundreds of files in a few folders,
        each several times: resolving every path, a system call for each part of it,
        was a tenth of the tile unit's time); the file itself is looked at every time,
        and resolved when it is a symbolic link."""
        folder_name, name = os.path.split(os.fspath(relative))
        target = None
        if name not in ("", ".", ".."):
            folder = self._resolved.get(folder_name)
            if folder is None:
                folder = str(resolved_output(self.root / folder_name, "this file"))
                self._resolved[folder_name] = folder
            place = os.path.join(folder, name)
            try:
                if not stat.S_ISLNK(os.lstat(place).st_mode):
                    target = Path(place)
            except FileNotFoundError:
                target = Path(place)
            except (OSError, ValueError):  # as resolve meets it, below
                pass
        if target is None:
            target = resolved_output(self.root / relative, "this file")
        # Both resolved: inside is a matter of their names (Path.parents made a Path for
        # each folder up to the root, every time).
        if target != self.root and not str(target).startswith(self._inside):
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
        try:
            if where.parent not in self._folders:
                where.parent.mkdir(parents=True, exist_ok=True)
                self._folders.add(where.parent)
            # Made, not opened: a second file of the kit led here (a symbolic link in the
            # kit to another of its files) and overwrote the first, which the kit then
            # lacked, the link left showing the other file's picture.
            with open(where, "xb") as handle:
                handle.write(data)
        except OSError as exc:
            if not isinstance(exc, FileExistsError):
                # A full disk, a file-size limit (ulimit -f): the staging folder goes,
                # the kit as it was. `rulebook` and `replay` showed an internal error.
                raise UserError([Diagnostic(str(target), 0, 0, "cannot write: "
                                            f"{exc.strerror or exc}")]) from None
            place = self.root / relative
            problem = (Diagnostic(str(place), 0, 0, f"this file of the kit is a symbolic "
                                  f"link to {target}, another of its files: remove the link "
                                  "and build again")
                       if os.path.islink(place) else
                       Diagnostic(str(target), 0, 0, "another file of the kit is a "
                                  "symbolic link to this one: remove the link and build "
                                  "again"))
            raise UserError([problem]) from None
        return target


def resolved_output(path: Path, what: str) -> Path:
    """``path`` made absolute, its links followed; UserError, at ``path``, if a loop of
    symbolic links is on the way (Python's RuntimeError, an internal error before) or
    its name cannot be a file's (a NUL character)."""
    try:
        return path.resolve()
    except (RuntimeError, OSError) as exc:
        if isinstance(exc, OSError) and exc.errno != errno.ELOOP:
            raise
        raise UserError([Diagnostic(str(path), 0, 0, f"cannot write {what}: {LOOP}")]) from None
    except ValueError:
        raise UserError([Diagnostic(printable(str(path)), 0, 0, f"cannot write {what}: the "
                                    "name holds a NUL character")]) from None


LOOP = ("a loop of symbolic links is on the way (each leads to the next and back): "
        "remove it, or write somewhere else")
# How many entries of an output directory refuse_link_loops looks at: a kit has a few
# hundred; a directory far larger than any kit is not searched to its end.
MAX_SCANNED_ENTRIES = 100_000


def refuse_link_loops(root: Path) -> None:
    """UserError naming every symbolic link in ``root`` (and below, links not followed)
    that leads round in a loop: found before any work, where writing through one failed
    half way through a build (or with an internal error)."""
    problems: list[Diagnostic] = []
    seen = 0
    try:
        os.stat(root)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise UserError([Diagnostic(str(root), 0, 0, f"cannot write here: {LOOP}")]) from None
        return
    for folder, dirs, files in os.walk(root):
        dirs[:] = [d for d in dirs if not d.startswith(STAGING_PREFIX)]
        for name in (*dirs, *files):
            seen += 1
            path = os.path.join(folder, name)
            if not os.path.islink(path):
                continue
            try:
                os.stat(path)
            except OSError as exc:
                if exc.errno == errno.ELOOP:
                    problems.append(Diagnostic(printable(path), 0, 0,
                                               f"in the output directory: {LOOP}"))
        if seen > MAX_SCANNED_ENTRIES:
            break
    if problems:
        raise UserError(sorted(problems))


def check_output_directory(path: Path, what: str) -> None:
    """UserError if ``what`` cannot be written into the directory ``path`` because of a
    loop of symbolic links, as it or inside it, or something other than a directory
    there or on its way: asked before any work."""
    root = resolved_output(path, what)
    problem = not_a_directory(path)
    if problem is not None:
        raise UserError([Diagnostic(str(path), 0, 0, f"cannot write {what}: {problem}")])
    refuse_link_loops(root)


SHOWN_FOREIGN = 3  # names of files no build made shown in the refusal
# Besides hidden files (what a build leaves at the top of its folder, the manifest, the
# lock, the journal and staging folders, is hidden; so are .DS_Store and .gitkeep),
# what a file browser leaves in any folder it shows: a folder holding only these is as
# good as empty, or a user who looked into a new folder could not build into it.
SYSTEM_MADE = frozenset({"Thumbs.db", "desktop.ini"})


def foreign_contents(root: Path) -> str | None:
    """Why a kit may not be written into ``root`` (None: it may): a folder that holds
    files no build made (``build --out /``, or the home folder, would mix a kit into
    them, and a later build would own them). An empty folder, a missing one, or a
    previous kit's (its manifest at the top) may take a kit."""
    try:
        names = sorted(os.listdir(root))
    except (OSError, ValueError):  # not there, or not a folder: said by the other checks
        return None
    if MANIFEST in names:
        return None
    foreign = [name for name in names
               if not name.startswith(".") and name not in SYSTEM_MADE]
    if not foreign:
        return None
    shown = ", ".join(printable(name) for name in foreign[:SHOWN_FOREIGN])
    more = f" and {len(foreign) - SHOWN_FOREIGN} more" if len(foreign) > SHOWN_FOREIGN else ""
    return (f"{printable(str(root))} holds files no build made ({shown}{more}), and no "
            "previous kit: give an empty folder, a new one or a previous kit's")


def kind_of(path: Path) -> str:
    """What is at the existing ``path``, in a word or two (base.filekind.kind_of_mode):
    a file, a directory, a device, a pipe or a socket."""
    return kind_of_mode(os.stat(path).st_mode)


def not_a_directory(target: Path) -> str | None:
    """Why no directory can be at ``target`` (None: one is, or may be made): something
    else is there ("this is a device, not a directory", for /dev/null), or in the place
    of one of its folders."""
    try:
        return None if target.is_dir() else f"this is {kind_of(target)}, not a directory"
    except (OSError, ValueError):  # not there (or a loop, a name no file can have)
        return folder_in_the_way(target)


def folder_in_the_way(target: Path) -> str | None:
    """Why the folders of ``target`` cannot be made (None: they are there, or can be):
    the nearest that exists is not a directory ("/dev/null is a device, not a
    directory", for /dev/null/kit)."""
    for folder in target.parents:
        if folder.exists():
            return None if folder.is_dir() else f"{folder} is {kind_of(folder)}, not a directory"
    return None


def check_output_file(folder: Path, name: str, what: str) -> None:
    """UserError unless ``what`` can be written as ``folder``/``name`` through an
    OutputDir, as it will be: no link leading out of ``folder``, no loop of links, a
    writable place. Asked before the work that makes it."""
    target = OutputDir(folder).path(name)
    check_file_target(target, what)


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
    in_the_way = folder_in_the_way(target)  # mkdir said "File exists" of /dev/null
    if in_the_way:
        raise NotADirectoryError(errno.ENOTDIR, in_the_way, str(target))
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
    try:
        mode = os.stat(target).st_mode
    except (OSError, ValueError):  # missing, or a name no file can have: found out later
        return ""
    if stat.S_ISREG(mode) or stat.S_ISDIR(mode):
        return ""
    return f"this is {kind_of_mode(mode)}, not a file"


def _unwritable(target: Path) -> str | None:
    """Why nothing can be made at ``target`` (a loop of links on the way, its nearest
    existing folder is a file or not writable), or None."""
    try:
        os.stat(target)
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            return LOOP
    except ValueError:
        return "the name holds a NUL character"
    in_the_way = folder_in_the_way(target)
    if in_the_way:
        return in_the_way
    folder = next((folder for folder in target.parents if folder.exists()), None)
    return None if folder is None else _not_writable(folder)


def _not_writable(folder: Path) -> str | None:
    """Why no file can be made in the existing ``folder``, or None: asked of the system
    by making one (and removing it), since permissions alone do not tell (root, a
    read-only file system, an immutable folder)."""
    if not os.access(folder, os.W_OK | os.X_OK):
        return f"{folder} is not writable"
    try:
        fd, probe = tempfile.mkstemp(prefix=".micropul-print-probe-", dir=folder)
    except OSError as exc:
        return f"{folder} is not writable ({(exc.strerror or str(exc)).lower()})"
    os.close(fd)
    os.unlink(probe)
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
        problem = _not_writable(target)
    else:
        problem = not_a_directory(target) or _unwritable(target)
    if problem is not None:
        raise UserError([Diagnostic(str(target), 0, 0, f"cannot write {what} here: {problem}")])


class Staging:
    """A build's staging folder: ``with Staging(root) as output:`` gives the OutputDir to
    write through; leaving the block by an exception (a problem, Ctrl-C, SIGTERM)
    removes everything staged, and :meth:`commit` moves the files into place, all of
    them or none.

    While the block runs, the output directory is locked (:data:`LOCK`, fcntl.flock): a
    second build into it is refused at once. Entering the block first finishes the
    commit of a build killed outright during its own (:data:`JOURNAL`), and refuses an
    output directory with a symbolic link loop in it, before any work."""

    def __init__(self, root: str | Path) -> None:
        self.root = Path(root)
        self.output: OutputDir | None = None
        self.notes: list[str] = []  # what entering found and mended, said on stderr
        self._created: Path | None = None  # the output directory, if this build made it
        self._committed = False
        self._lock: _Lock | None = None
        self._folder: Path | None = None  # the staging folder (its kit/ is output.staging)
        self._keep_folder = False  # a commit stopped half way: the next build finishes it

    def __enter__(self) -> OutputDir:
        root = resolved_output(self.root, "the kit")
        problem = not_a_directory(self.root)
        if problem is not None:
            raise UserError([Diagnostic(str(self.root), 0, 0,
                                        f"cannot write the kit here: {problem}")])
        special = not_regular(root / MANIFEST)  # found now, not after the files moved in
        if special:
            raise UserError([Diagnostic(str(root / MANIFEST), 0, 0,
                                        f"cannot write the build's manifest: {special}")])
        refuse_link_loops(root)
        if not root.exists():
            self._created = root
        root.mkdir(parents=True, exist_ok=True)
        try:
            self._lock = _Lock.take(root)
            self.notes += recover(root)
            for leftover in sorted(root.glob(f"{STAGING_PREFIX}*")):  # of a build killed
                if _holds_files(leftover):  # stopped before its commit began
                    self.notes.append(f"{root}: removed the staged files of an earlier build "
                                      "stopped outright before its commit: the kit is as it "
                                      "was before that build")
                shutil.rmtree(leftover, ignore_errors=True)
            self._folder = Path(tempfile.mkdtemp(prefix=STAGING_PREFIX, dir=root))
        except BaseException:
            self._release()
            raise
        for note in self.notes:
            print(f"note: {note}", file=sys.stderr)
        self.output = OutputDir(root, staging=self._folder / _KIT)
        return self.output

    def __exit__(self, *exc: object) -> None:
        self._release()

    def _release(self) -> None:
        if self._folder is not None and not self._keep_folder:
            shutil.rmtree(self._folder, ignore_errors=True)
        if self._lock is not None:
            self._lock.release()
            self._lock = None
        if self._created is not None and not self._committed and not self._keep_folder:
            with contextlib.suppress(OSError):  # a failed first build leaves no folder
                self._created.rmdir()

    def commit(self, made: Mapping[str, Iterable[Path]], *,
               keep_unmade: bool = False) -> list[Path]:
        """Move every staged file into place and update the manifest: ``made`` maps each
        part of the kit this build made (e.g. ``<game>/sheets``) to its files. Files the
        manifest lists for those parts and this build did not make are removed; other
        parts' files are left alone. With ``keep_unmade`` (a build that remade only some
        files of its parts, such as one language's rulebook), they are kept, and stay in
        the manifest while they exist. Returns the files removed.

        All or nothing: everything the commit needs (every target writable, room for the
        new manifest) is checked, and the manifest written into the staging folder,
        before the first file moves; then the journal (:data:`JOURNAL`: what is about to
        move and be removed) is written, the files moved, the stale ones removed, the
        manifest moved into place and the journal removed, with Ctrl-C and SIGTERM held
        back until the end (then acted on). A build killed outright meanwhile is
        finished by the next build into the directory (:func:`recover`)."""
        from micropul_print.base import interrupts

        output = self.output
        assert output is not None and self._folder is not None, "commit inside the block"
        # A Ctrl-C or SIGTERM whose exception was lost on the way (raised where Python
        # only reports exceptions) still stops the build before anything moves.
        interrupts.raise_if_lost()
        root, folder = output.root, self._folder
        made_files = {part: sorted({output.path(p).relative_to(root).as_posix()
                                    for p in paths}) for part, paths in made.items()}
        moves = sorted({relative for files in made_files.values() for relative in files})
        manifest = read_manifest(root)
        stale: list[str] = []
        ours = _OurFiles(output)
        for part, files in made_files.items():
            if keep_unmade:
                kept = [f for f in manifest.get(part, ()) if ours(f)]
                manifest[part] = sorted({*kept, *files})
                continue
            stale += [relative for relative in sorted(set(manifest.get(part, ())) - set(files))
                      if relative not in moves and ours(relative)]
            manifest[part] = files
        stale = sorted(set(stale))
        # Every target first, so that a folder (or a file where a folder must go) in the
        # way of one file moves none: the kit was left half replaced, and the error named
        # the staging folder.
        # Each file's place, found once for the checks below (output.path asks the system
        # about the file each time; they asked it three times a file).
        targets = {relative: output.path(relative) for relative in [*moves, *stale]}
        in_the_way: dict[Path, str | None] = {}
        blocked = [Diagnostic(str(target), 0, 0,
                              f"cannot write this file of the kit here: {problem}")
                   for relative in moves
                   if (problem := _place_problem(target := targets[relative], in_the_way))
                   is not None]
        # A file the system will not let go of (immutable, append-only, another user's in
        # a sticky folder) stopped the commit half-way: each one is found now.
        blocked += [Diagnostic(str(target), 0, 0, f"cannot replace this file of the kit: "
                               f"{problem}")
                    for target in [*targets.values(), root / MANIFEST]
                    if (problem := _unreplaceable(target)) is not None]
        if blocked:
            raise UserError(blocked)
        staged = folder / _KIT
        missing = [relative for relative in moves if not (staged / relative).is_file()]
        if missing:
            raise UserError([Diagnostic(str(root / relative), 0, 0, "this file of the kit "
                                        "was never written (a job claimed it)")
                             for relative in missing])
        self._check_places(root, list(targets.values()))
        # The manifest is written where it will be moved from: a full disk or a file-size
        # limit (RLIMIT_FSIZE) is met now, before any file of the kit has moved.
        text = (json.dumps({"written_by": "micropul-print",
                            "parts": dict(sorted(manifest.items()))},
                           indent=1, ensure_ascii=False) + "\n").encode("utf-8")
        journal = (json.dumps({"written_by": "micropul-print", "staging": folder.name,
                               "moves": moves, "remove": stale}, indent=0,
                              ensure_ascii=False) + "\n").encode("utf-8")
        fault = _Fault.from_environment()
        with interrupts.held():
            fault.step()
            try:
                _write_new(folder / _NEW_MANIFEST, text, root / MANIFEST, "the build's manifest")
                _write_new(root / JOURNAL, journal, root / JOURNAL, "the build's journal")
            except UserError:
                with contextlib.suppress(OSError):
                    (root / JOURNAL).unlink()
                raise
            try:
                removed = _apply(root, folder, moves, stale, fault)
            except BaseException as exc:  # after the checks above: a disk failing, a race
                self._keep_folder = True  # for the next build to finish from the journal
                if not isinstance(exc, OSError):
                    raise
                where = printable(str(exc.filename or root))
                if folder.as_posix() in where:
                    where = str(root)
                raise UserError([Diagnostic(where, 0, 0, "the kit was left half replaced: "
                                            f"{exc.strerror or exc}; the next build into "
                                            f"{root} finishes it")]) from None
            self._committed = True
        return removed

    def _check_places(self, root: Path, targets: Sequence[Path]) -> None:
        """UserError unless a file can be moved into (and removed from) the folder of
        each of ``targets``: tried by moving a file from the staging folder into each,
        so that permissions, a read-only file system, a folder on another device and
        whatever else the system refuses are all found before the first file moves."""
        assert self._folder is not None
        folders = sorted({target.parent for target in targets} | {root})
        problems = []
        for folder in folders:
            where = next((f for f in (folder, *folder.parents) if f.exists()), root)
            if not where.is_dir():
                continue  # a file where a folder must go: told by _place_problem
            problem = _cannot_move_into(self._folder, where)
            if problem is not None:
                problems.append(Diagnostic(str(folder), 0, 0, f"cannot write the kit's "
                                           f"files here: {problem}"))
        if problems:
            raise UserError(problems)


# In a staging folder: the files of the kit, under their relative paths, and the new
# manifest, moved into place last.
_KIT = "kit"
_NEW_MANIFEST = "manifest.json"
LOCK = ".micropul-print.lock"
JOURNAL = ".micropul-print-journal.json"
JOURNAL_MAX_BYTES = MANIFEST_MAX_BYTES


def _holds_files(folder: Path) -> bool:
    """Whether any file is left in ``folder`` (a staging folder whose files all moved
    into place holds none)."""
    return any(files for _folder, _dirs, files in os.walk(folder))


def _place_problem(target: Path, folders: dict[Path, str | None]) -> str | None:
    """Why ``target`` is no place for a file of the kit (a folder or a device there, a
    file where one of its folders must go), or None. Whether its folder is writable is
    asked once per folder (Staging._check_places), not once per file; what is in the
    way of its folder, once per folder too (``folders`` keeps the answers)."""
    if target.is_dir():
        return "this is a directory, not a file"
    special = not_regular(target)
    if special:
        return special
    folder = target.parent
    if folder not in folders:
        folders[folder] = folder_in_the_way(target)
    return folders[folder]


# Linux's inode flags (FS_IOC_GETFLAGS, _IOR('f', 1, long)): a file so flagged cannot be
# renamed over or removed, by root either.
_FS_IOC_GETFLAGS = 0x80086601
_FS_IMMUTABLE_FL, _FS_APPEND_FL = 0x10, 0x20


def _unreplaceable(target: Path) -> str | None:
    """Why the existing file ``target`` cannot be replaced or removed although its folder
    takes new files (immutable or append-only; another user's file in a sticky folder),
    or None (also when there is no such file)."""
    try:
        info = target.lstat()
        folder = target.parent.stat()
    except OSError:
        return None
    if not stat.S_ISREG(info.st_mode):
        return None
    euid = os.geteuid() if hasattr(os, "geteuid") else 0
    if (folder.st_mode & stat.S_ISVTX and euid != 0
            and euid not in (info.st_uid, folder.st_uid)):
        return "it is another user's file in a sticky folder"
    flags = _inode_flags(target)
    if flags & _FS_IMMUTABLE_FL:
        return "it is immutable (chattr +i)"
    if flags & _FS_APPEND_FL:
        return "it is append-only (chattr +a)"
    return None


def _inode_flags(target: Path) -> int:
    """The file's Linux inode flags; 0 where they cannot be read (another system)."""
    if not sys.platform.startswith("linux"):
        return 0
    import fcntl

    try:
        fd = os.open(target, os.O_RDONLY | os.O_NONBLOCK | os.O_NOFOLLOW)
    except OSError:
        return 0
    try:
        answer = fcntl.ioctl(fd, _FS_IOC_GETFLAGS, bytes(8))
    except OSError:  # a file system without flags
        return 0
    finally:
        os.close(fd)
    return int.from_bytes(answer[:4], sys.byteorder)


def _is_our_file(output: OutputDir, relative: str) -> bool:
    """Whether ``relative`` (from the manifest) is a regular file inside the output
    directory, not a link: the only kind a build removes."""
    try:
        target = output.path(relative)
    except UserError:
        return False
    return target.is_file() and not (output.root / relative).is_symlink()


class _OurFiles:
    """_is_our_file of many files, each folder resolved once (a watch's rebuild of one
    tile asks it of the hundred files its parts made before)."""

    def __init__(self, output: OutputDir) -> None:
        self.output = output
        self.folders: dict[str, Path | None] = {}

    def __call__(self, relative: str) -> bool:
        parent, _, name = relative.rpartition("/")
        if name in ("", ".", ".."):
            return _is_our_file(self.output, relative)
        if parent not in self.folders:
            try:
                self.folders[parent] = self.output.path(parent or ".")
            except UserError:
                self.folders[parent] = None
        folder = self.folders[parent]
        if folder is None:
            return False
        try:  # not followed: a link is not ours to remove
            return stat.S_ISREG(os.lstat(folder / name).st_mode)
        except (OSError, ValueError):
            return False


def _cannot_move_into(staging: Path, folder: Path) -> str | None:
    """Why a file staged in ``staging`` cannot be moved into ``folder`` (and removed
    from there), or None."""
    try:
        fd, probe = tempfile.mkstemp(prefix=".micropul-print-probe-", dir=staging)
        os.close(fd)
    except OSError as exc:
        return exc.strerror or str(exc)
    moved = folder / Path(probe).name
    try:
        os.replace(probe, moved)
        os.unlink(moved)
    except OSError as exc:
        Path(probe).unlink(missing_ok=True)
        if exc.errno == errno.EXDEV:
            return "it is on another device than the output directory"
        return (exc.strerror or str(exc)).lower()
    return None


def _write_new(where: Path, data: bytes, named: Path, what: str) -> None:
    """Write ``data`` at ``where``; a failure (a full disk, a file-size limit) is a
    UserError naming ``named``, saying that nothing of the kit changed."""
    try:
        write_atomic(where, data)
    except OSError as exc:
        reason = exc.strerror or str(exc)
        if exc.errno == errno.EFBIG:
            reason = f"{reason} (a limit on the size of files this process may write)"
        raise UserError([Diagnostic(str(named), 0, 0, f"cannot write {what}: {reason}; "
                                    "nothing of the kit was changed")]) from None


def _apply(root: Path, folder: Path, moves: Sequence[str], stale: Sequence[str],
           fault: _Fault) -> list[Path]:
    """The commit's steps once its journal is written; run again from the start by
    :func:`recover` after a build killed during them, so each step can be taken twice:
    a file already moved is not in the staging folder any more, one already removed is
    not there either."""
    output = OutputDir(root)
    kit = folder / _KIT
    for relative in moves:
        fault.step()
        source = kit / relative
        if not os.path.lexists(source):
            continue  # moved already
        target = output.path(relative)  # again: a link may have appeared meanwhile
        target.parent.mkdir(parents=True, exist_ok=True)
        os.replace(source, target)
    removed: list[Path] = []
    for relative in stale:
        fault.step()
        try:
            target = output.path(relative)
        except UserError:
            continue
        if target.is_file() and not (root / relative).is_symlink():
            target.unlink()
            removed.append(target)
            _remove_empty_parents(target.parent, root)
    fault.step()
    if (folder / _NEW_MANIFEST).is_file():
        os.replace(folder / _NEW_MANIFEST, root / MANIFEST)
    fault.step()
    (root / JOURNAL).unlink(missing_ok=True)
    fault.step()
    shutil.rmtree(folder, ignore_errors=True)
    return removed


def recover(root: Path) -> list[str]:
    """Finish the commit of a build killed outright during it, from its journal (called
    with the lock held); returns what was done, in words, for the user."""
    if not os.path.lexists(root / JOURNAL):
        return []
    from micropul_print.base.yamlsource import read_input_bytes

    raw, _problem = read_input_bytes(root / JOURNAL, JOURNAL_MAX_BYTES)
    try:
        data = json.loads(raw or b"")
    except (ValueError, RecursionError):
        data = None
    folder_name = data.get("staging") if isinstance(data, dict) else None
    moves = data.get("moves") if isinstance(data, dict) else None
    stale = data.get("remove") if isinstance(data, dict) else None
    usable = (isinstance(folder_name, str) and folder_name.startswith(STAGING_PREFIX)
              and "/" not in folder_name and "\0" not in folder_name
              and isinstance(moves, list) and isinstance(stale, list)
              and all(isinstance(f, str) and f and "\0" not in f and not os.path.isabs(f)
                      and ".." not in Path(f).parts for f in [*moves, *stale]))
    if not usable:
        (root / JOURNAL).unlink(missing_ok=True)
        return [f"{root}: removed a damaged commit journal ({JOURNAL}) an earlier build "
                "left: the kit may be incomplete; build it again"]
    assert isinstance(folder_name, str) and isinstance(moves, list) and isinstance(stale, list)
    folder = root / folder_name
    if not folder.is_dir():
        (root / JOURNAL).unlink(missing_ok=True)
        return [f"{root}: an earlier build was stopped while it moved its files into place, "
                "and its staged files are gone: the kit may be incomplete; build it again"]
    waiting = sum(os.path.lexists(folder / _KIT / relative) for relative in moves)
    try:
        _apply(root, folder, moves, stale, _Fault(None))
    except (OSError, UserError) as exc:
        reason = (exc.strerror if isinstance(exc, OSError) else None) or str(exc)
        raise UserError([Diagnostic(str(root), 0, 0, "an earlier build was stopped while "
                                    "it moved its files into place, and its commit cannot "
                                    f"be finished: {printable(reason)}; mend that and build "
                                    f"again, or remove {JOURNAL} to give the commit up "
                                    "(the kit may then be incomplete)")]) from None
    return [f"{root}: an earlier build was stopped while it moved its files into place: "
            f"its commit was completed ({waiting} of its {len(moves)} files moved now)"]


class _Lock:
    """The output directory's advisory lock (fcntl.flock on :data:`LOCK`), held for the
    whole build: a second build into the same directory is refused at once, and so
    never removes the first one's staging folder. The kernel releases it however the
    process ends (SIGKILL included); the file is removed when the build ends."""

    def __init__(self, fd: int, path: Path) -> None:
        self.fd = fd
        self.path = path

    @classmethod
    def take(cls, root: Path) -> _Lock:
        import fcntl

        path = root / LOCK
        special = not_regular(path)
        if special:
            raise UserError([Diagnostic(str(path), 0, 0, f"cannot lock the output "
                                        f"directory: {special}")])
        while True:
            try:
                fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC,
                             0o644)
            except OSError as exc:
                raise UserError([Diagnostic(str(root), 0, 0, "cannot write the kit here: "
                                            f"{(exc.strerror or str(exc)).lower()}")]) from None
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError as exc:
                os.close(fd)
                if exc.errno in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES):
                    raise UserError([Diagnostic(str(root), 0, 0, "another micropul-print "
                                                "build is writing into this directory: wait "
                                                "for it to end, or build into another "
                                                "one")]) from None
                raise
            # The file may have been removed (by the build that held it, ending) between
            # the open and the lock: a lock on it would lock nothing.
            try:
                same = os.path.samestat(os.fstat(fd), os.stat(path, follow_symlinks=False))
            except OSError:
                same = False
            if same:
                return cls(fd, path)
            os.close(fd)

    def release(self) -> None:
        with contextlib.suppress(OSError):
            self.path.unlink()  # while still held: see take
        os.close(self.fd)


class _Fault:
    """A test's fault injected into the commit (``MICROPUL_PRINT_COMMIT_FAULT=N`` or
    ``N:SIGNAL``, e.g. ``3:KILL``): the signal (SIGKILL by default) is sent to this
    process just before the commit's step N (0: before its journal is written, then one
    step per file moved, per file removed, the manifest, the journal, the staging
    folder). Unset, nothing happens."""

    def __init__(self, at: tuple[int, int] | None) -> None:
        self.at = at
        self.count = 0

    @classmethod
    def from_environment(cls) -> _Fault:
        import signal

        spec = os.environ.get("MICROPUL_PRINT_COMMIT_FAULT", "")
        step, _, name = spec.partition(":")
        if not step.isdigit():
            return cls(None)
        signum = getattr(signal, f"SIG{name.upper() or 'KILL'}", signal.SIGKILL)
        return cls((int(step), int(signum)))

    def step(self) -> None:
        if self.at is not None and self.count == self.at[0]:
            os.kill(os.getpid(), self.at[1])
        self.count += 1


def read_manifest(root: Path) -> dict[str, list[str]]:
    """What earlier builds wrote into ``root``, part by part (empty if nothing, or if the
    manifest is not one of ours)."""
    from micropul_print.base.yamlsource import read_input_bytes

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
