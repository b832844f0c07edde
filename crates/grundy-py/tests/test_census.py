"""Tests of the census from Python: rows against `grundy.period`, the local
run against the command line's file, and the Dask driver on a LocalCluster of
two worker processes, one of them killed mid-run, against the local census.
"""

import os
import pathlib
import subprocess
import sys

import pytest

import grundy
import grundy.census as census
from grundy import _grundy

from test_grundy import CLI, needs_cli

COLUMNS = ["code", "preperiod", "period", "saltus", "proven", "computed_to", "max_value",
           "rare_mask", "rare_count", "same_as", "fingerprint"]


def without_seconds(rows):
    return [{c: r[c] for c in COLUMNS} for r in rows]


@pytest.mark.parametrize("code", ["0.07", "0.137", "0.6", "0.16", "sub:2,5,7", "hex:0.F"])
def test_census_row_agrees_with_period(code):
    r = census.row(code, 2048)
    p = grundy.period(code, 2048)
    assert (r["preperiod"], r["period"], r["proven"]) == (p.preperiod, p.period, p.proven)
    assert r["computed_to"] == p.checked_to + 1
    assert len(r["fingerprint"]) == 32


def test_bad_codes_and_files_are_value_errors(tmp_path):
    with pytest.raises(ValueError):
        census.row("0.9", 100)
    with pytest.raises(ValueError):
        _grundy.CensusLog("octal", 0, 100)
    path = tmp_path / "x.csv"
    _grundy.CensusLog("octal", 1, 1024, str(path))
    with pytest.raises(ValueError, match="holds the census"):
        _grundy.CensusLog("octal", 2, 1024, str(path))


@needs_cli
def test_local_census_is_the_command_lines_file(tmp_path):
    ours = tmp_path / "py.csv"
    theirs = tmp_path / "cli.csv"
    rows = census.run("octal", 2, max=4096, out=str(ours), zero_seconds=True)
    subprocess.run([CLI, "census", "octal", "--digits", "2", "--max", "4096", "--out", str(theirs),
                    "--zero-seconds", "-q"], check=True)
    assert ours.read_bytes() == theirs.read_bytes()
    assert len(rows) == 63 and rows[6]["code"] == "0.07" and rows[6]["preperiod"] == 53


@needs_cli
def test_python_m_grundy_census_prints_the_table():
    args = ["census", "octal", "--digits", "1", "--max", "4096", "--zero-seconds"]
    ours = subprocess.run([sys.executable, "-m", "grundy", *args], check=True, capture_output=True, text=True)
    theirs = subprocess.run([CLI, *args], check=True, capture_output=True, text=True)
    assert ours.stdout == theirs.stdout
    assert "| 0.4 | 54 | 34 | 0 | yes |" in ours.stdout


distributed = pytest.importorskip("distributed")


@pytest.fixture(scope="module")
def cluster():
    from distributed import Client, LocalCluster

    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
                      worker_dashboard_address=None) as c, Client(c) as client:
        yield client


MAX = 1 << 15


def test_dask_census_equals_the_local_one_with_a_worker_killed(cluster, tmp_path):
    client = cluster
    local = census.run("octal", 2, max=MAX, out=str(tmp_path / "local.csv"), zero_seconds=True)
    killed = []

    def kill_one(row):
        # After a few rows, end a worker that is computing something.
        if killed or len(seen) < 5:
            seen.append(row)
            return
        busy = [w for w, keys in client.processing().items() if keys] or list(client.scheduler_info()["workers"])
        killed.append(busy[0])
        try:
            client.run(os._exit, 1, workers=[busy[0]], wait=False)
        except Exception:
            pass

    seen = []
    path = tmp_path / "dask.csv"
    rows = census.run_dask("octal", 2, client, max=MAX, out=str(path), zero_seconds=True, on_row=kill_one)
    assert killed, "a worker was killed"
    assert without_seconds(rows) == without_seconds(local)
    assert path.read_bytes() == (tmp_path / "local.csv").read_bytes()


def test_dask_census_resumes(cluster, tmp_path):
    path = tmp_path / "resume.jsonl"

    class Stop(Exception):
        pass

    count = []

    def stop(row):
        count.append(row)
        if len(count) == 20:
            raise Stop

    with pytest.raises(Stop):
        census.run_dask("octal", 2, cluster, max=4096, out=str(path), zero_seconds=True, on_row=stop)
    kept = path.read_text().splitlines()
    assert len(kept) >= 1 + 20
    rows = census.run_dask("octal", 2, cluster, max=4096, out=str(path), zero_seconds=True)
    local = census.run("octal", 2, max=4096, out=str(tmp_path / "local.jsonl"), zero_seconds=True)
    assert without_seconds(rows) == without_seconds(local)
    assert path.read_bytes() == (tmp_path / "local.jsonl").read_bytes()
