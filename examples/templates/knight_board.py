# Grundy values of every square of the knight game on an N x N board.
#
# A coin on square (r, c) (rows and columns from 0) moves to (r+1, c-2),
# (r-1, c-2), (r-2, c+1) or (r-2, c-1), staying on the board; the player
# who cannot move loses. Several coins are a sum: XOR their squares' values.
#
# Input:  N
# Output: N rows of N values; row r, column c is G(r, c).
import sys
from functools import lru_cache

n = int(sys.stdin.read())
STEPS = [(+1, -2), (-1, -2), (-2, +1), (-2, -1)]


@lru_cache(maxsize=None)
def grundy(r, c):
    """The memoised mex: each square's value from its options' values."""
    seen = set()
    for dr, dc in STEPS:
        nr, nc = r + dr, c + dc
        if 0 <= nr < n and 0 <= nc < n:
            seen.add(grundy(nr, nc))
    m = 0
    while m in seen:
        m += 1
    return m


# Every move lowers r + c, so the recursion is at most 2N deep; raise
# Python's limit for large boards.
sys.setrecursionlimit(max(1000, 4 * n + 100))
for r in range(n):
    print(*(grundy(r, c) for c in range(n)))
