// Grundy values of every square of the knight game on an N x N board.
//
// A coin on square (r, c) (rows and columns from 0) moves to (r+1, c-2),
// (r-1, c-2), (r-2, c+1) or (r-2, c-1), staying on the board; the player
// who cannot move loses. Several coins are a sum: XOR their squares' values.
//
// Input:  N
// Output: N rows of N values; row r, column c is G(r, c).
#include <bits/stdc++.h>
using namespace std;

int main() {
    int n;
    cin >> n;
    const int dr[4] = {+1, -1, -2, -2};
    const int dc[4] = {-2, -2, +1, -1};

    // Every move lowers r + c (by 1 or 3), so filling the table by
    // increasing r + c finds each square's options already computed.
    vector<vector<int>> g(n, vector<int>(n, 0));
    for (int sum = 0; sum <= 2 * (n - 1); sum++)
        for (int r = max(0, sum - (n - 1)); r <= min(sum, n - 1); r++) {
            int c = sum - r;
            bool seen[5] = {false};  // 4 moves: the value is at most 4
            for (int d = 0; d < 4; d++) {
                int nr = r + dr[d], nc = c + dc[d];
                if (nr >= 0 && nr < n && nc >= 0 && nc < n) seen[g[nr][nc]] = true;
            }
            int m = 0;
            while (seen[m]) m++;
            g[r][c] = m;
        }

    for (int r = 0; r < n; r++)
        for (int c = 0; c < n; c++) cout << g[r][c] << (c + 1 < n ? ' ' : '\n');
}
