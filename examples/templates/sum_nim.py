# Who wins a sum of heaps, and how: the nim-sum of the heaps' Grundy values.
#
# The game is the one of heap_mex.py: a move takes s stones (s in S) from
# one heap and, if `split` is 1, may divide what is left into two heaps.
#
# Input:  k s_1 ... s_k split       the rules
#         m h_1 ... h_m             the heaps
# Output: "nim-sum X: first player wins" (or second), then one line per
#         winning move: "heap I: H -> A" or "heap I: H -> A + B".
import sys
from functools import reduce
from operator import xor


def mex(values):
    seen = set(values)
    m = 0
    while m in seen:
        m += 1
    return m


def main():
    data = list(map(int, sys.stdin.read().split()))
    k = data[0]
    take = data[1 : 1 + k]
    split = data[1 + k]
    m = data[2 + k]
    heaps = data[3 + k : 3 + k + m]

    def moves(h):
        """Every move from a heap of h: the heaps it leaves (none, one or two)."""
        for s in take:
            if s > h:
                continue
            rest = h - s
            yield [rest] if rest else []
            if split:
                for a in range(1, rest // 2 + 1):
                    yield [a, rest - a]

    # Tabulate g up to the largest heap (the mex DP of heap_mex.py); the
    # value of several heaps left by one move is the XOR of their values.
    g = []
    for h in range(max(heaps, default=0) + 1):
        g.append(mex(reduce(xor, (g[p] for p in left), 0) for left in moves(h)))

    # Sprague-Grundy: the sum is lost for the player to move exactly when
    # the XOR of the values is 0.
    x = reduce(xor, (g[h] for h in heaps), 0)
    print(f"nim-sum {x}: {'first' if x else 'second'} player wins")

    # A winning move changes one heap so that the nim-sum becomes 0: heap i
    # must go to a position of value x ^ g[h_i].
    if x:
        for i, h in enumerate(heaps):
            want = x ^ g[h]
            for left in moves(h):
                if reduce(xor, (g[p] for p in left), 0) == want:
                    shown = " + ".join(map(str, left)) or "nothing"
                    print(f"heap {i + 1}: {h} -> {shown}")


main()
