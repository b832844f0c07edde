# Grundy values G(0..N) of a heap game, by the mex rule.
#
# The game: a move takes s stones from one heap, for some s in a set S.
# If `split` is 1 the stones left may also be divided into two non-empty
# heaps (take-and-break: Kayles takes 1 or 2 pins and may split the row).
# With split 0 it is a subtraction game.
#
# Input:  k s_1 ... s_k split N      (Kayles to 20: "2 1 2 1 20")
# Output: G(0) G(1) ... G(N) on one line.
import sys


def mex(values):
    """The minimum excludant: the least value not in `values`."""
    seen = set(values)
    m = 0
    while m in seen:
        m += 1
    return m


def main():
    data = list(map(int, sys.stdin.read().split()))
    k = data[0]
    take = data[1 : 1 + k]
    split, n = data[1 + k], data[2 + k]

    # g[h] is the Grundy value of one heap of h stones. Every move makes the
    # heap smaller, so g[0..h-1] are known when g[h] is computed.
    g = [0] * (n + 1)
    for h in range(n + 1):
        options = []  # the values of the positions one move leaves
        for s in take:
            if s > h:
                continue
            rest = h - s
            options.append(g[rest])  # one heap (or none, when rest = 0)
            if split:
                # Two heaps a and rest - a: a sum, so its value is the XOR.
                for a in range(1, rest // 2 + 1):
                    options.append(g[a] ^ g[rest - a])
        g[h] = mex(options)  # no options (a lost position): mex = 0

    print(*g)


main()
