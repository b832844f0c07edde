"""The classic variants from Python: `staircase`, `moore:K` and
`hackenbush:FILE`, alone and in sums with other families."""

import pathlib

import pytest

import grundy

ROOT = pathlib.Path(__file__).resolve().parents[3]
TREE = ROOT / "examples" / "hackenbush-tree.txt"


def test_staircase_in_a_sum():
    r = grundy.value("staircase 3,1,2 + nim 4")
    assert [c.grundy for c in r.components] == [1, 4]
    assert r.nim_sum == 5
    assert r.winner == "first"
    assert grundy.Move(component=1, frm="4", to=["1"]) in r.winning_moves


def test_staircase_winning_moves_from_even_steps():
    r = grundy.value("staircase 5,2,4,7")
    assert sorted(m.to[0] for m in r.winning_moves) == ["4,2,4,7", "5,2,5,6"]


def test_moore_values_and_theorem():
    assert grundy.value("moore:2 3,5,6").nim_sum == 14
    assert grundy.value("moore:1 3,5,7").nim_sum == 3 ^ 5 ^ 7
    big = grundy.value("moore:2 1000000,1000000,1000000")
    assert big.nim_sum == 0 and big.winner == "second"
    with pytest.raises(ValueError, match="by Moore's theorem the player to move wins"):
        grundy.value("moore:2 1000000,1000000,999999")


def test_hackenbush_from_a_file():
    r = grundy.value(f"hackenbush:{TREE} all + staircase 0,5")
    assert [c.grundy for c in r.components] == [5, 0]
    assert r.winning_moves[0].to == ["1,2,3,5"]


@pytest.mark.parametrize(
    "words, message",
    [
        ("moore:0 1,2", "1 <= K <= 1000"),
        ("staircase 1,x", "unexpected 'x'"),
        (f"hackenbush:{TREE} 9", "is not an edge"),
    ],
)
def test_bad_input_is_a_value_error(words, message):
    with pytest.raises(ValueError, match=message):
        grundy.value(words)


def test_a_missing_graph_file_is_an_os_error():
    with pytest.raises(OSError, match="cannot read graph file"):
        grundy.value("hackenbush:/no/such/file all")
