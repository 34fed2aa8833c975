"""``analyse --scheduler``: the batches sent to a Dask cluster (here a LocalCluster in
this process) give the very report the local workers give."""

from __future__ import annotations

from pathlib import Path

import pytest

from micropul_print.cli import main

distributed = pytest.importorskip("distributed")


def test_a_cluster_plays_the_same_games(tmp_path: Path) -> None:
    args = ["analyse", "--game", "cellulae", "--variants", "5", "--games", "4", "--bots",
            "random,greedy"]
    assert main([*args, "--jobs", "1", "--json", str(tmp_path / "local.json")]) == 0
    with distributed.LocalCluster(n_workers=1, threads_per_worker=2, processes=False,
                                  dashboard_address=None) as cluster:
        assert main([*args, "--scheduler", cluster.scheduler_address, "--json",
                     str(tmp_path / "cluster.json")]) == 0
    assert (tmp_path / "cluster.json").read_bytes() == (tmp_path / "local.json").read_bytes()
