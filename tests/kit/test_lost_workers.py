"""micropul_print.kit.pool: a worker process that ends before its job is done (killed,
the system out of memory, a job calling os._exit) stops the build with one line and
status 1, the previous kit untouched. The pool started another worker and waited for
the lost job's result for ever, every process idle."""

from __future__ import annotations

import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

# A build (the command line after argv[1:3]) whose job of label argv[1] ends its worker
# process as argv[2] says: "SIGKILL" (as kill -9 or the out-of-memory killer does) or
# an exit status for os._exit, as the job runs; "SIGKILL as taken": as the worker takes
# the job, before it starts. Two workers, however many CPUs there are.
_ENDING_A_JOB = textwrap.dedent("""
    import dataclasses, os, runpy, signal, sys
    from micropul_print.kit import build, pool

    label, how = sys.argv[1:3]
    del sys.argv[1:3]
    main = os.getpid()
    running = pool._run_job

    def end(_say):
        if how == "SIGKILL":
            os.kill(os.getpid(), signal.SIGKILL)
        os._exit(int(how))

    def ending(index, *args, **kwargs):
        job = pool._PENDING[index]
        if os.getpid() != main and (job.label or job.part) == label:
            if how == "SIGKILL as taken":
                os.kill(os.getpid(), signal.SIGKILL)
            pool._PENDING[index] = dataclasses.replace(job, run=end)
        return running(index, *args, **kwargs)

    pool._run_job = ending
    build.workers_for = lambda _asked, costs: pool.workers_for(2, costs)
    runpy.run_module("micropul_print", run_name="__main__")
""")

_BUILD = ["build", "--paper", "a4", "--lang", "en,fr"]


def _files(root: Path) -> dict[str, bytes]:
    return {str(path.relative_to(root)): path.read_bytes()
            for path in sorted(root.rglob("*")) if path.is_file()}


@pytest.fixture(scope="module")
def previous_kit(tmp_path_factory: pytest.TempPathFactory) -> Path:
    kit = tmp_path_factory.mktemp("previous") / "kit"
    built = subprocess.run([sys.executable, "-m", "micropul_print", *_BUILD, "--out",
                            str(kit)], capture_output=True, text=True, timeout=600)
    assert built.returncode == 0, built.stderr
    return kit


@pytest.mark.parametrize(("label", "how", "said"), [
    # The tile files run in the early worker, while the rulebooks are checked.
    ("tiles", "SIGKILL", "the worker process running micropul tiles was killed by signal "
                         "SIGKILL before its job was done"),
    # The others in the pool's workers.
    ("rulebook fr a4", "SIGKILL", "the worker process running micropul rulebook fr a4 was "
                                  "killed by signal SIGKILL before its job was done"),
    ("sheets a4", "3", "the worker process running micropul sheets a4 ended with exit "
                       "status 3 before its job was done"),
    ("rulebook en a4", "0", "the worker process running micropul rulebook en a4 ended "
                            "with exit status 0 before its job was done"),
    # Which job it took is not known yet: the build stops all the same.
    ("rulebook fr a4", "SIGKILL as taken", "a worker process of the build was killed by "
                                           "signal SIGKILL before the build was done"),
])
def test_a_worker_that_ends_before_its_job_is_done_stops_the_build_and_keeps_the_kit(
        previous_kit: Path, tmp_path: Path, label: str, how: str, said: str) -> None:
    kit = tmp_path / "kit"
    shutil.copytree(previous_kit, kit)
    before = _files(kit)
    # The timeout only bounds a hang (the bug): the build takes seconds.
    build = subprocess.run([sys.executable, "-c", _ENDING_A_JOB, label, how, *_BUILD,
                            "--out", str(kit)],
                           capture_output=True, text=True, timeout=300)
    assert (build.returncode, build.stdout) == (1, ""), build.stderr
    assert "Traceback" not in build.stderr
    assert build.stderr.splitlines()[-1] == (
        f"micropul-print: error: {said} (a crash, or the system out of memory): nothing "
        "was written, the output folder is as it was")
    assert _files(kit) == before  # nothing staged, half-written or swapped in is left
    assert sorted(path.name for path in kit.iterdir()) == sorted(
        path.name for path in previous_kit.iterdir())
