// Grundy values G(0..N) of a heap game, by the mex rule.
//
// The game: a move takes s stones from one heap, for some s in a set S.
// If `split` is 1 the stones left may also be divided into two non-empty
// heaps (take-and-break: Kayles takes 1 or 2 pins and may split the row).
// With split 0 it is a subtraction game.
//
// Input:  k s_1 ... s_k split N      (Kayles to 20: "2 1 2 1 20")
// Output: G(0) G(1) ... G(N) on one line.
#include <bits/stdc++.h>
using namespace std;

// The minimum excludant: the least value not among `values`. A position
// with m options has a value of at most m, so m + 1 flags are enough.
int mex(const vector<int>& values) {
    vector<bool> seen(values.size() + 1, false);
    for (int v : values)
        if (v < (int)seen.size()) seen[v] = true;
    int m = 0;
    while (seen[m]) m++;
    return m;
}

int main() {
    int k;
    cin >> k;
    vector<int> take(k);
    for (int& s : take) cin >> s;
    int split, n;
    cin >> split >> n;

    // g[h] is the Grundy value of one heap of h stones. Every move makes
    // the heap smaller, so g[0..h-1] are known when g[h] is computed.
    vector<int> g(n + 1);
    for (int h = 0; h <= n; h++) {
        vector<int> options;  // the values of the positions one move leaves
        for (int s : take) {
            if (s > h) continue;
            int rest = h - s;
            options.push_back(g[rest]);  // one heap (or none, when rest = 0)
            if (split)
                // Two heaps a and rest - a: a sum, so its value is the XOR.
                for (int a = 1; a <= rest / 2; a++)
                    options.push_back(g[a] ^ g[rest - a]);
        }
        g[h] = mex(options);  // no options (a lost position): mex = 0
    }

    for (int h = 0; h <= n; h++) cout << g[h] << (h < n ? ' ' : '\n');
}
