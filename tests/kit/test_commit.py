"""The kit is all or nothing, whatever happens during the commit: real builds in a
subprocess, the output folder's files compared with a manifest of them taken before
and after (micropul_print.kit.outputs.Staging.commit)."""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
import resource
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from micropul_print.kit.outputs import JOURNAL, LOCK, MANIFEST, STAGING_PREFIX

TOOL = [sys.executable, "-m", "micropul_print"]
# An old kit of two languages, and a new one of one language in another theme: the
# commit moves two files into place and removes two (the French ones).
OLD = ["rulebook", "--lang", "en,fr", "--paper", "a4", "--theme", "classic", "--quiet"]
NEW = ["rulebook", "--lang", "en", "--paper", "a4", "--theme", "ink-saver", "--quiet"]
# A build of another part of the kit, which finishes an interrupted commit first.
OTHER = ["build", "--only", "svg", "--quiet"]


def run(args: list[str], out: Path, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*TOOL, *args, "--out", str(out), "--no-config"],
                          capture_output=True, text=True, timeout=300,
                          env={**os.environ, **env})


def files(out: Path) -> dict[str, str]:
    """Every file of the folder (its own bookkeeping too), with a digest of its bytes."""
    return {p.relative_to(out).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(out.rglob("*")) if p.is_file() or p.is_symlink()}


def rulebooks(snapshot: dict[str, str]) -> dict[str, str]:
    return {name: digest for name, digest in snapshot.items() if name.startswith("rules/")}


@pytest.fixture(scope="module")
def kits(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, str], dict[str, str]]:
    """The rulebooks of the old kit and of the new one, each built cleanly."""
    found = []
    for args in (OLD, NEW):
        out = tmp_path_factory.mktemp("kit") / "out"
        done = run(args, out)
        assert done.returncode == 0, done.stderr
        found.append(rulebooks(files(out)))
    return found[0], found[1]


def old_kit(tmp_path: Path) -> Path:
    out = tmp_path / "out"
    done = run(OLD, out)
    assert done.returncode == 0, done.stderr
    return out


def bookkeeping(out: Path) -> list[str]:
    return sorted(p.name for p in out.iterdir() if p.name.startswith(
        (STAGING_PREFIX, JOURNAL, LOCK)))


# Steps of the commit of NEW over OLD: the journal, 2 files moved, 2 removed, the
# manifest, the journal removed, the staging folder removed.
STEPS = 8


@pytest.mark.parametrize("step", range(STEPS + 1))
def test_a_build_killed_at_any_step_of_its_commit_is_finished_by_the_next(
        tmp_path: Path, step: int, kits: tuple[dict[str, str], dict[str, str]]) -> None:
    old, new = kits
    out = old_kit(tmp_path)
    assert rulebooks(files(out)) == old
    killed = run(NEW, out, MICROPUL_PRINT_COMMIT_FAULT=str(step))
    if step == STEPS:  # past the last step: the fault never comes
        assert killed.returncode == 0, killed.stderr
        assert rulebooks(files(out)) == new
        assert bookkeeping(out) == []
        return
    assert killed.returncode == -signal.SIGKILL, killed.stderr
    after = run(OTHER, out)
    assert after.returncode == 0, after.stderr
    snapshot = files(out)
    manifest = json.loads((out / MANIFEST).read_text())["parts"]
    if step == 0:  # before the journal: nothing had changed, nothing to finish
        assert rulebooks(snapshot) == old
        assert after.stderr == (f"note: {out}: removed the staged files of an earlier build "
                                "stopped outright before its commit: the kit is as it was "
                                "before that build\n")
    elif step == STEPS - 1:  # the journal removed: only the staging folder was left
        assert rulebooks(snapshot) == new
        assert after.stderr == ""
    else:
        assert rulebooks(snapshot) == new
        assert after.stderr.startswith(f"note: {out}: an earlier build was stopped while it "
                                       "moved its files into place: its commit was "
                                       "completed"), after.stderr
    assert sorted(manifest["micropul/rulebooks"]) == sorted(rulebooks(snapshot))
    assert manifest["micropul/tile files"]
    assert bookkeeping(out) == []


@pytest.mark.parametrize(("signame", "status"), [("INT", 130), ("TERM", 143)])
@pytest.mark.parametrize("step", [0, 2, 5])
def test_ctrl_c_or_sigterm_during_the_commit_waits_for_its_end(
        tmp_path: Path, step: int, signame: str, status: int,
        kits: tuple[dict[str, str], dict[str, str]]) -> None:
    """Held back while the files move, then acted on: the kit is the new one, whole."""
    _old, new = kits
    out = old_kit(tmp_path)
    stopped = run(NEW, out, MICROPUL_PRINT_COMMIT_FAULT=f"{step}:{signame}")
    assert stopped.returncode == status, stopped.stderr
    assert "Traceback" not in stopped.stderr
    assert rulebooks(files(out)) == new
    assert bookkeeping(out) == []


def test_a_second_build_into_a_locked_folder_is_refused_and_changes_nothing(
        tmp_path: Path) -> None:
    out = old_kit(tmp_path)
    before = files(out)
    with (out / LOCK).open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # as a build in progress holds it
        refused = run(NEW, out)
        assert files(out) == {**before, LOCK: hashlib.sha256(b"").hexdigest()}
    assert refused.returncode == 1
    assert refused.stderr == (f"{out}: error: another micropul-print build is writing into "
                              "this directory: wait for it to end, or build into another "
                              "one\n")


def test_two_builds_at_once_the_second_refused_the_first_unharmed(tmp_path: Path) -> None:
    out = tmp_path / "out"
    first = subprocess.Popen([*TOOL, "build", "--game", "all", "--dpi", "600", "--quiet",
                              "--no-config", "--out", str(out)],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 120
    while not (out.is_dir() and any(out.glob(f"{STAGING_PREFIX}*"))):
        assert first.poll() is None and time.monotonic() < deadline, first.stderr
        time.sleep(0.01)
    second = run(NEW, out)
    _, err = first.communicate(timeout=300)
    assert first.returncode == 0, err
    assert second.returncode == 1
    assert "another micropul-print build is writing into this directory" in second.stderr
    assert STAGING_PREFIX not in second.stderr
    assert bookkeeping(out) == []
    assert not any(name.startswith("rules/micropul-rules-en-a4") and "ink" in name
                   for name in files(out))


def _limit_file_size(limit: int) -> None:
    resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))


def test_a_file_size_limit_met_by_the_manifest_changes_nothing(
        tmp_path: Path, kits: tuple[dict[str, str], dict[str, str]]) -> None:
    """The new manifest is larger than the limit, every file of the kit smaller: it was
    met after the files had moved, leaving a new kit with the old manifest."""
    out = old_kit(tmp_path)
    manifest = json.loads((out / MANIFEST).read_text())
    manifest["parts"]["elsewhere/notes"] = [f"notes/{n:06d}-{'x' * 40}.txt"
                                            for n in range(6000)]
    (out / MANIFEST).write_text(json.dumps(manifest))
    biggest = max(p.stat().st_size for p in (out / "rules").iterdir())
    limit = biggest * 2
    assert (out / MANIFEST).stat().st_size > limit
    before = files(out)
    limited = subprocess.run([*TOOL, *NEW, "--out", str(out), "--no-config"],
                             capture_output=True, text=True, timeout=300,
                             preexec_fn=lambda: _limit_file_size(limit))
    assert limited.returncode == 1
    assert limited.stderr == (f"{out / MANIFEST}: error: cannot write the build's manifest: "
                              "File too large (a limit on the size of files this process "
                              "may write); nothing of the kit was changed\n")
    assert files(out) == before


def test_a_file_size_limit_met_by_a_staged_rulebook_is_a_located_error(
        tmp_path: Path) -> None:
    """`rulebook` under `ulimit -f` smaller than a PDF: an internal error (status 70),
    the OSError of the staged file's write uncaught."""
    out = old_kit(tmp_path)
    before = files(out)
    limit = min(p.stat().st_size for p in (out / "rules").iterdir()) // 2
    limited = subprocess.run([*TOOL, *NEW, "--out", str(out), "--no-config"],
                             capture_output=True, text=True, timeout=300,
                             preexec_fn=lambda: _limit_file_size(limit))
    assert limited.returncode == 1
    assert limited.stderr == (f"{out.resolve() / 'rules/micropul-rules-en-a4.pdf'}: error: "
                              "cannot write: File too large\n")
    assert files(out) == before


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes into read-only folders")
def test_a_read_only_folder_of_the_kit_refuses_the_build_before_any_file_moves(
        tmp_path: Path) -> None:
    out = old_kit(tmp_path)
    before = files(out)
    (out / "rules").chmod(0o555)
    try:
        refused = run(NEW, out)
    finally:
        (out / "rules").chmod(0o755)
    assert refused.returncode == 1
    assert refused.stderr.startswith(f"{out / 'rules'}: error: cannot write the kit's files "
                                     "here:")
    assert files(out) == before


def test_an_immutable_folder_of_the_kit_refuses_the_build_before_any_file_moves(
        tmp_path: Path) -> None:
    """What root cannot write either (chattr +i): found by trying, once per folder."""
    out = old_kit(tmp_path)
    before = files(out)
    if subprocess.run(["chattr", "+i", str(out / "rules")], capture_output=True).returncode:
        pytest.skip("chattr +i is not available here")
    try:
        refused = run(NEW, out)
    finally:
        subprocess.run(["chattr", "-i", str(out / "rules")], check=True)
    assert refused.returncode == 1
    assert refused.stderr == (f"{out / 'rules'}: error: cannot write the kit's files here: "
                              "operation not permitted\n")
    assert files(out) == before


@pytest.mark.parametrize(("flag", "said"), [("+i", "it is immutable (chattr +i)"),
                                            ("+a", "it is append-only (chattr +a)")])
def test_a_file_that_cannot_be_replaced_refuses_the_build_before_any_file_moves(
        tmp_path: Path, flag: str, said: str) -> None:
    """A kit file the system will not let go of (its folder takes new files): the commit
    stopped half-way, about half the files replaced, the message naming no file."""
    out = old_kit(tmp_path)
    before = files(out)
    kept = out / "rules" / "micropul-rules-en-a4.pdf"
    if subprocess.run(["chattr", flag, str(kept)], capture_output=True).returncode:
        pytest.skip(f"chattr {flag} is not available here")
    try:
        refused = run(NEW, out)
    finally:
        subprocess.run(["chattr", flag.replace("+", "-"), str(kept)], check=True)
    assert refused.returncode == 1
    assert refused.stderr == (f"{kept}: error: cannot replace this file of the kit: "
                              f"{said}\n")
    assert files(out) == before
