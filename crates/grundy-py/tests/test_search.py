"""Tests of the search of one big position from Python: here and on a Dask
LocalCluster of two worker processes, against the plain local search; with a
worker killed mid-run; and a stopped driver resumed from its facts file.
"""

import os
import random

import pytest

import grundy
import grundy.search as search
from grundy import _grundy


def local_nimber(game, position):
    return search.run(game, position, tt_size=1 << 24, threads=1)["nimber"]


def random_board(rng, rows, cols):
    return "/".join("".join("." if rng.random() < 0.8 else "#" for _ in range(cols))
                    for _ in range(rows))


def test_the_local_search_agrees_with_value():
    for board in ["3x4", "4x5", "5x6"]:
        assert local_nimber("cram", board) == grundy.value(f"cram {board}").nim_sum
    assert local_nimber("chomp", "6x7") == grundy.value("chomp 6x7").nim_sum


def test_engines_exchange_facts_of_their_own_board_only():
    a = _grundy.SearchEngine("cram", "5x6", 1 << 22)
    b = _grundy.SearchEngine("cram", "5x6", 1 << 22)
    other = _grundy.SearchEngine("cram", "4x7", 1 << 22)
    (root,) = a.components()
    value = a.nimber(root)
    facts = a.new_facts(0, [root])
    assert a.new_facts(0, [root]) != facts, "facts already sent are not sent again"
    assert b.merge(facts) > 0
    assert b.known(root)[0] == value
    with pytest.raises(ValueError, match="for cram 5x6"):
        other.merge(facts)
    with pytest.raises(ValueError, match="checksum"):
        b.merge(facts[:-1] + bytes([facts[-1] ^ 1]))


def test_bad_input_is_a_value_error():
    with pytest.raises(ValueError):
        _grundy.SearchEngine("cram", "5y6")
    with pytest.raises(ValueError):
        _grundy.SearchEngine("kayles", "5x6")
    with pytest.raises(ValueError):
        search.run_dask("cram", "3x3", "tcp://127.0.0.1:1", depth=0)


distributed = pytest.importorskip("distributed")


@pytest.fixture(scope="module")
def cluster():
    from distributed import Client, LocalCluster

    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
                      worker_dashboard_address=None) as c, Client(c) as client:
        yield client


@pytest.fixture
def small_splits(monkeypatch):
    # Small boards split into tasks too, so that the driver's expansion is tried.
    monkeypatch.setattr(search, "SPLIT_SIZE", 4)


@pytest.mark.parametrize("depth", [1, 2])
def test_distributed_equals_local_on_every_board_up_to_4x5(cluster, small_splits, depth):
    for rows in range(1, 5):
        for cols in range(1, 6):
            board = f"{rows}x{cols}"
            got = search.run_dask("cram", board, cluster, depth=depth)
            assert got["nimber"] == local_nimber("cram", board), board


def test_distributed_equals_local_on_random_positions(cluster, small_splits):
    rng = random.Random(20261126)
    for _ in range(12):
        board = random_board(rng, rng.randint(3, 5), rng.randint(3, 6))
        got = search.run_dask("cram", board, cluster, depth=2)
        assert got["nimber"] == local_nimber("cram", board), board
    got = search.run_dask("chomp", "5x6", cluster, depth=2)
    assert got["nimber"] == local_nimber("chomp", "5x6")


def test_tasks_over_their_budget_are_split_and_the_answer_is_the_same(cluster):
    got = search.run_dask("cram", "5x6", cluster, depth=1, budget=2000)
    assert got["split"] > 0
    assert got["nimber"] == local_nimber("cram", "5x6")


def test_a_worker_killed_mid_run_changes_nothing(cluster, small_splits):
    client = cluster
    killed = []

    def kill_one(done):
        # After a few tasks, end a worker that is computing something.
        if killed or done < 5:
            return
        busy = [w for w, keys in client.processing().items() if keys]
        workers = busy or list(client.scheduler_info()["workers"])
        killed.append(workers[0])
        try:
            client.run(os._exit, 1, workers=[workers[0]], wait=False)
        except Exception:
            pass

    got = search.run_dask("cram", "5x6", client, depth=2, on_task=kill_one)
    assert killed, "a worker was killed"
    assert got["nimber"] == local_nimber("cram", "5x6")
    client.wait_for_workers(2, timeout=60)


def test_a_stopped_driver_resumes_from_its_facts(cluster, small_splits, tmp_path):
    facts = str(tmp_path / "cram-5x5.facts")
    whole = search.run_dask("cram", "5x5", cluster, depth=2)
    with pytest.raises(search.Stopped):
        search.run_dask("cram", "5x5", cluster, facts=facts, depth=2, max_tasks=whole["tasks"] // 2)
    assert os.path.getsize(facts) > 0
    resumed = search.run_dask("cram", "5x5", cluster, facts=facts, depth=2)
    assert resumed["nimber"] == whole["nimber"] == local_nimber("cram", "5x5")
    assert resumed["loaded"] > 0
    assert resumed["tasks"] < whole["tasks"]
    # A damaged facts file is refused, not believed.
    with open(facts, "r+b") as f:
        f.seek(40)
        byte = f.read(1)
        f.seek(40)
        f.write(bytes([byte[0] ^ 0xFF]))
    with pytest.raises(ValueError, match="checksum"):
        search.run_dask("cram", "5x5", cluster, facts=facts)
