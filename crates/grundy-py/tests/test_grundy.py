"""Tests of `import grundy`: the contract's examples, agreement with the
command line's JSON, games defined in Python, errors and interruption.

The CLI comparisons run the `grundy` binary: $GRUNDY_BIN, else
target/release/grundy or target/debug/grundy under the repository root (or
$CARGO_TARGET_DIR); they are skipped, with the reason, when none is built.
"""

import json
import os
import pathlib
import signal
import subprocess
import threading
import time

import numpy as np
import pytest

import grundy

ROOT = pathlib.Path(__file__).resolve().parents[3]


def _cli():
    candidates = []
    if os.environ.get("GRUNDY_BIN"):
        candidates.append(pathlib.Path(os.environ["GRUNDY_BIN"]))
    targets = [ROOT / "target"]
    if os.environ.get("CARGO_TARGET_DIR"):
        targets.insert(0, pathlib.Path(os.environ["CARGO_TARGET_DIR"]))
    for t in targets:
        candidates += [t / "release" / "grundy", t / "debug" / "grundy"]
    for c in candidates:
        if c.is_file() and os.access(c, os.X_OK):
            return str(c)
    return None


CLI = _cli()
if CLI is None and os.environ.get("GRUNDY_REQUIRE_CLI"):
    raise RuntimeError("GRUNDY_REQUIRE_CLI is set but no grundy binary was found (GRUNDY_BIN)")
needs_cli = pytest.mark.skipif(
    CLI is None,
    reason="the grundy binary is not built (cargo build --release -p grundy-cli, or set GRUNDY_BIN)",
)


def cli_json(*args):
    out = subprocess.run([CLI, *args], check=True, capture_output=True, text=True)
    return json.loads(out.stdout)


# --- the contract's examples -------------------------------------------------


def test_contract_value():
    r = grundy.value("sub:1,2,3 3 4 5 + nim 7")
    assert r.winner == "first"
    assert r.nim_sum == 5
    assert r.components[0] == grundy.Component(game="sub:1-3", position="3", grundy=3)
    assert [c.grundy for c in r.components] == [3, 0, 1, 7]
    assert grundy.Move(component=3, frm="7", to=["2"]) in r.winning_moves
    assert r.winning_moves_truncated is False
    assert "Move(component=3, frm='7', to=['2'])" in repr(r)


def test_contract_misere():
    r = grundy.value("0.07 5 9 + nim 3", misere=True)
    assert r.winner in ("first", "second")
    assert r.method in ("bouton", "genus", "search")
    assert r.nim_sum is None


def test_contract_seq():
    a = grundy.seq("0.07", 1000)
    assert isinstance(a, np.ndarray) and a.shape == (1001,)
    assert a.dtype == np.uint16
    # Dawson's Kayles, OEIS A002187.
    assert list(a[:16]) == [0, 0, 1, 1, 2, 0, 3, 1, 1, 0, 3, 3, 2, 2, 4, 0]
    b = grundy.seq("0.07", 1000, start=500)
    assert b.shape == (501,)
    assert (b == a[500:]).all()


def test_contract_period():
    p = grundy.period("0.137")
    assert (p.preperiod, p.period, p.saltus, p.proven) == (52, 34, 0, True)
    assert "Period(" in repr(p) and "preperiod=52" in repr(p)


def test_contract_table():
    t = grundy.table("knight:8")
    assert t.shape == (8, 8)
    assert t[0, 0] == 0


def test_period_and_table_of_a_game_object_name_what_to_use():
    class Countdown(grundy.Game):
        def moves(self, n):
            return [n - 1] if n > 0 else []

    game = Countdown()
    with pytest.raises(TypeError, match=r"period\(\) takes a game spec such as '0.07', not Countdown; .*grundy.seq"):
        grundy.period(game)
    with pytest.raises(TypeError, match=r"table\(\) takes a game spec"):
        grundy.table(game)


def test_contract_nimbers():
    assert grundy.nim_add(5, 3) == 6
    assert grundy.nim_add(2**100, 1) == 2**100 + 1
    assert grundy.nim_mul(2, 2) == 3
    assert grundy.nim_mul(5, 3) == grundy.nim_mul(3, 5)
    for a in (1, 2, 3, 5, 255, 2**63 + 7):
        assert grundy.nim_mul(a, grundy.nim_inv(a)) == 1
    with pytest.raises(ValueError):
        grundy.nim_inv(0)
    with pytest.raises(ValueError):
        grundy.nim_mul(2**64, 1)
    with pytest.raises(ValueError):
        grundy.nim_add(-1, 1)


class Stones(grundy.Game):
    def moves(self, pos):
        return [pos - k for k in (1, 2, 3) if k <= pos]


def test_contract_python_game():
    r = grundy.value(Stones(), 10, 11)
    # Values n mod 4: 2 xor 3 = 1.
    assert r.nim_sum == 1 and r.winner == "first"
    assert [c.position for c in r.components] == [10, 11]
    assert all(isinstance(m.frm, int) for m in r.winning_moves)


# --- agreement with the command line -------------------------------------------

SUMS = [
    "sub:1,2,3 3 4 5 + nim 7",
    "kayles 10 11 + dawson 7",
    "knight:8 3,4 7,7",
    "choco 3x5 + choco 4x4",
    "treblecross ..X......X",
    "nim 3 5 6",
    "0.137 20 + 4.07 9 + grundy 17",
    "nim 1267650600228229401496703205376 5",
    "div:2,3,6 1000000000000000000",
]


@needs_cli
@pytest.mark.parametrize("words", SUMS)
def test_value_matches_cli(words):
    assert grundy.value(words).to_dict() == cli_json("value", *words.split(), "--json")


@needs_cli
@pytest.mark.parametrize("words", ["0.07 5 9 + nim 3", "nim 1 1 1", "kayles 4 6", "sub:1,2,3 3 4 5"])
def test_misere_matches_cli(words):
    r = grundy.value(words, misere=True)
    assert r.to_dict() == cli_json("value", *words.split(), "--misere", "--json")


@needs_cli
def test_max_moves_matches_cli():
    r = grundy.value("nim 7 7 7", max_moves=2)
    assert r.winning_moves_truncated and len(r.winning_moves) == 2
    assert r.to_dict() == cli_json("value", "nim", "7", "7", "7", "--max-moves", "2", "--json")


@needs_cli
@pytest.mark.parametrize("game", ["0.07", "sub:1,2,3", "kayles", "0.1777", "grundy"])
def test_seq_matches_cli(game):
    expected = cli_json("seq", game, "--from", "3", "--to", "400", "--json")["values"]
    assert grundy.seq(game, 400, start=3).tolist() == expected


@needs_cli
@pytest.mark.parametrize("game", ["0.137", "0.07", "sub:2,5,7"])
def test_period_matches_cli(game):
    assert grundy.period(game).to_dict() == cli_json("period", game, "--json")


@needs_cli
@pytest.mark.parametrize("game", ["knight:8", "choco:6x7"])
def test_table_matches_cli(game):
    assert grundy.table(game).tolist() == cli_json("table", game, "--json")["table"]


# --- games defined in Python ----------------------------------------------------


class Kayles(grundy.Game):
    def moves(self, n):
        return [
            grundy.Sum([a, n - take - a])
            for take in (1, 2)
            if take <= n
            for a in range((n - take) // 2 + 1)
        ]


def test_python_kayles_matches_builtin():
    assert grundy.seq(Kayles(), 30).tolist() == grundy.seq("kayles", 30).tolist()
    for n in range(31):
        assert grundy.value(Kayles(), n).nim_sum == grundy.value("kayles", n).nim_sum


def test_python_kayles_in_a_mixed_sum():
    mixed = grundy.value([(Kayles(), 10, 11), ("nim", 3)])
    builtin = grundy.value("kayles 10 11 + nim 3")
    assert mixed.nim_sum == builtin.nim_sum
    assert mixed.winner == builtin.winner
    assert len(mixed.winning_moves) == len(builtin.winning_moves)
    # Moves of the Python game give Python values back; split heaps as ints.
    for m in mixed.winning_moves:
        if m.component < 2:
            assert isinstance(m.frm, int) and all(isinstance(t, int) for t in m.to)
    words = grundy.value(Kayles(), 10, 11, "+ nim 3")
    assert words.to_dict() == mixed.to_dict()


class Knight(grundy.Game):
    name = "py-knight"

    def __init__(self, n):
        self.n = n

    def moves(self, pos):
        r, c = pos
        return [
            (r + dr, c + dc)
            for dr, dc in ((1, -2), (-1, -2), (-2, 1), (-2, -1))
            if 0 <= r + dr < self.n and 0 <= c + dc < self.n
        ]


def test_python_knight_matches_table():
    table = grundy.table("knight:8")
    game = Knight(8)
    ours = [[grundy.value(game, (r, c)).nim_sum for c in range(8)] for r in range(8)]
    assert ours == table.tolist()
    r = grundy.value(game, (3, 4), (7, 7))
    assert r.components[0].game == "py-knight"
    assert r.components[0].position == (3, 4)
    assert all(isinstance(m.frm, tuple) for m in r.winning_moves)


class Frozen(grundy.Game):
    """Positions are frozensets of heaps: any hashable object crosses intact."""

    def moves(self, heaps):
        out = []
        for h in heaps:
            for k in range(1, h + 1):
                out.append(frozenset((heaps - {h}) | ({h - k} if h - k else set())))
        return out


def test_opaque_positions_come_back_as_themselves():
    game = Frozen()
    memo = {}

    def reference(heaps):
        if heaps not in memo:
            options = {reference(o) for o in game.moves(heaps)}
            memo[heaps] = next(v for v in range(len(options) + 1) if v not in options)
        return memo[heaps]

    start = frozenset({1, 3, 4})
    r = grundy.value(game, start)
    assert r.components[0].position is start
    assert r.nim_sum == reference(start) != 0
    assert all(isinstance(t, frozenset) for m in r.winning_moves for t in m.to)
    assert r.to_json()  # not JSON values: written with str


class Cycle(grundy.Game):
    def moves(self, n):
        return [(n + 1) % 3]


def test_cycles_get_generalised_values():
    r = grundy.value(Cycle(), 0)
    assert r.winner == "draw"
    assert isinstance(r.nim_sum, str) and r.nim_sum.startswith("inf")


class Boom(grundy.Game):
    def moves(self, n):
        if n == 3:
            raise ZeroDivisionError("boom at 3")
        return [n - 1] if n else []


class BadOption(grundy.Game):
    def moves(self, n):
        return [[1, 2], {}]


def test_exceptions_from_python_reach_the_caller():
    with pytest.raises(ZeroDivisionError, match="boom at 3") as info:
        grundy.value(Boom(), 10)
    # The traceback reaches into the user's code.
    assert any(entry.name == "moves" for entry in info.traceback)
    with pytest.raises(ZeroDivisionError):
        grundy.seq(Boom(), 10)
    with pytest.raises(TypeError, match="hashable"):
        grundy.value(BadOption(), 1)


def test_state_budget_applies_to_python_games():
    class Endless(grundy.Game):
        def moves(self, n):
            return [n + 1]

    with pytest.raises(ValueError, match="state budget"):
        grundy.value(Endless(), 0, max_states=1000)


# --- errors ------------------------------------------------------------------


@pytest.mark.parametrize(
    "words,message",
    [
        ("sub:1,x 3", "expected a number"),
        ("foo 3", "foo"),
        ("nim -3", "negative"),
        ("nim", "needs at least one position"),
        ("+ nim 3", "cannot start"),
        ("knight:8 9,9", "9,9"),
    ],
)
def test_bad_input_is_a_value_error(words, message):
    with pytest.raises(ValueError, match=message):
        grundy.value(words)


def test_other_errors():
    with pytest.raises(ValueError, match="not heap sizes"):
        grundy.seq("knight:8", 10)
    with pytest.raises(ValueError, match="no table"):
        grundy.table("nim")
    with pytest.raises(ValueError, match="after"):
        grundy.seq("nim", 3, start=5)
    with pytest.raises(TypeError):
        grundy.value(42, 3)
    with pytest.raises(TypeError):
        grundy.value(object(), 3)


@needs_cli
def test_error_messages_match_cli():
    out = subprocess.run([CLI, "value", "sub:1,x", "3"], capture_output=True, text=True)
    first = out.stderr.splitlines()[0]
    assert first.startswith("error: ")
    first = first[len("error: "):]
    with pytest.raises(ValueError) as info:
        grundy.value("sub:1,x 3")
    assert str(info.value).splitlines()[0] == first


# --- arrays, interruption, display --------------------------------------------


def test_dtypes_widen():
    assert grundy.seq("nim", 65535).dtype == np.uint16
    wide = grundy.seq("nim", 70000)
    assert wide.dtype == np.uint32 and wide[-1] == 70000
    assert grundy.table("knight:8").dtype == np.uint16


@pytest.fixture
def ctrl_c_raises():
    """Ctrl-C raises KeyboardInterrupt, as in a terminal, even where the
    tests were started with SIGINT ignored (a shell's background job)."""
    before = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, before)


def test_ctrl_c_stops_a_long_seq(ctrl_c_raises):
    timer = threading.Timer(0.3, lambda: os.kill(os.getpid(), signal.SIGINT))
    started = time.monotonic()
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            grundy.seq("0.6", 10**7)
            # Too fast to be interrupted on this machine: wait for the signal.
            time.sleep(5)
    finally:
        timer.cancel()
    assert time.monotonic() - started < 5


def test_progress_callback_and_bar():
    seen = []
    grundy._grundy.sequence("0.1777", 0, 3_000_000, grundy.DEFAULT_MAX_STATES, lambda d, t: seen.append((d, t)))
    assert seen and seen[-1] == (seen[-1][1], seen[-1][1])
    # With or without tqdm installed, progress=True works.
    assert grundy.seq("0.07", 100, progress=True).shape == (101,)


def test_html_and_json():
    r = grundy.value("nim 3 5 7")
    page = r._repr_html_()
    assert "<table>" in page and "nim-sum" in page and "first player wins" in page
    assert json.loads(r.to_json()) == r.to_dict()
    m = grundy.value("0.07 5 9 + nim 3", misere=True)
    assert "misère" in m._repr_html_()
    assert json.loads(m.to_json())["play"] == "misere"


def test_sum_object():
    s = grundy.Sum([1, 2])
    assert s.parts == (1, 2) and len(s) == 2 and repr(s) == "Sum([1, 2])"


def test_games_listing():
    names = [g["spec"] for g in grundy.games()]
    assert "nim" in names and "kayles" in names


def test_python_dash_m():
    import sys

    out = subprocess.run(
        [sys.executable, "-m", "grundy", "value", "nim", "3", "5", "7"],
        check=True,
        capture_output=True,
        text=True,
    )
    assert json.loads(out.stdout) == grundy.value("nim 3 5 7").to_dict()
    bad = subprocess.run([sys.executable, "-m", "grundy", "value", "foo", "3"], capture_output=True, text=True)
    assert bad.returncode == 2 and bad.stderr.startswith("error: ")


class Slow(grundy.Game):
    def moves(self, n):
        time.sleep(0.0001)
        return [n - 1] if n else []


def test_ctrl_c_stops_a_python_game(ctrl_c_raises):
    timer = threading.Timer(0.3, lambda: os.kill(os.getpid(), signal.SIGINT))
    started = time.monotonic()
    timer.start()
    try:
        with pytest.raises(KeyboardInterrupt):
            grundy.value(Slow(), 10**6)
            time.sleep(5)
    finally:
        timer.cancel()
    assert time.monotonic() - started < 5


class Chain(grundy.Game):
    def moves(self, n):
        return [n - 1] if n else []


def test_long_python_games_do_not_exhaust_the_stack():
    assert grundy.value(Chain(), 200_000).nim_sum == 0
    assert grundy.value(Chain(), 90_000, Chain(), 3, misere=True).winner == "second"
    assert grundy.seq(Chain(), 1000).tolist() == [n % 2 for n in range(1001)]


def test_pattern_and_its_code_run():
    p = grundy.pattern("sub:1,3,4")
    assert (p.kind, p.preperiod, p.period, p.proven) == ("periodic", 0, 7, True)
    assert p.to_dict()["block"] == [0, 1, 0, 1, 2, 3, 2]
    namespace = {}
    exec(p.code("python"), namespace)
    values = grundy.seq("sub:1,3,4", 200)
    assert [namespace["grundy"](n) for n in range(201)] == list(values)
    assert "int grundy(long long n)" in p.code("cpp")
    assert "fn grundy(n: u64) -> u32" in p.code("rust")
    assert "Pattern(game='sub:1,3,4', kind='periodic'" in repr(p)
    assert "<table>" in p._repr_html_()
    wins = grundy.pattern("choco:12x12", outcome=True)
    assert wins.kind == "periodic-2d" and wins.proven is False
    namespace = {}
    exec(wins.code("python"), namespace)
    table = grundy.table("choco:12x12")
    for r in range(12):
        for c in range(12):
            assert namespace["first_player_wins"](r + 1, c + 1) == (table[r, c] != 0)
    # A sum of two heap games: proven, and its code is the XOR of the parts.
    both = grundy.pattern("sub:1,2 + sub:1,3")
    assert both.kind == "periodic-2d" and both.proven is True
    namespace = {}
    exec(both.code("python"), namespace)
    a, b = grundy.seq("sub:1,2", 50), grundy.seq("sub:1,3", 50)
    for r in range(51):
        for c in range(51):
            assert namespace["grundy"](r, c) == a[r] ^ b[c]
    none = grundy.pattern("div:2,3,6", max=500)
    assert none.kind == "none"
    with pytest.raises(ValueError, match="no code to write"):
        none.code("cpp")
    with pytest.raises(ValueError, match="the languages are"):
        p.code("java")
    with pytest.raises(ValueError):
        grundy.pattern("sub:")


def test_misere_quotient():
    q = grundy.quotient("0.75", max_heap=12)
    assert (q.order, q.p_size) == (8, 2)
    assert q.table.shape == (8, 8)
    assert sorted(q.relations) == ["a^2 = 1", "b^3 = b", "bc = ab", "c^2 = b^2"]
    assert [q.elements[x] for x in q.p_portion] == ["a", "b^2"]
    assert q.outcome([1]) == "P" and q.outcome([]) == "N"
    # Every outcome from the table is the one grundy.value finds.
    for heaps in ([5, 6], [1, 2, 3], [4, 4, 7], [9, 10, 11, 12]):
        r = grundy.value("0.75 " + " ".join(map(str, heaps)), misere=True)
        assert (r.winner == "second") == (q.outcome(heaps) == "P"), heaps
    assert "Cayley" not in q._repr_html_() and "<table>" in q._repr_html_()
    assert "order=8" in repr(q)
    # A small sum is answered by search over heap sizes, and agrees with
    # the quotient of the heaps it holds.
    kayles = grundy.value("kayles 1 2 3 4 5 6 7 8", misere=True)
    assert kayles.method == "search"
    kq = grundy.quotient("kayles", max_heap=8)
    assert (kayles.winner == "second") == (kq.outcome(list(range(1, 9))) == "P")
    with pytest.raises(ValueError, match="beyond the quotient"):
        q.outcome([13])
    with pytest.raises(ValueError, match="heap games"):
        grundy.quotient("knight:8")
    with pytest.raises(ValueError):
        grundy.quotient("0.07", max_heap=-1)
    with pytest.raises(TypeError):
        grundy.quotient(grundy.Game)
