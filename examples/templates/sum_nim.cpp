// Who wins a sum of heaps, and how: the nim-sum of the heaps' Grundy values.
//
// The game is the one of heap_mex.cpp: a move takes s stones (s in S) from
// one heap and, if `split` is 1, may divide what is left into two heaps.
//
// Input:  k s_1 ... s_k split       the rules
//         m h_1 ... h_m             the heaps
// Output: "nim-sum X: first player wins" (or second), then one line per
//         winning move: "heap I: H -> A" or "heap I: H -> A + B".
#include <bits/stdc++.h>
using namespace std;

int k, split_allowed;
vector<int> take;
vector<int> g;  // g[h]: the Grundy value of one heap of h

int mex(const vector<int>& values) {
    vector<bool> seen(values.size() + 1, false);
    for (int v : values)
        if (v < (int)seen.size()) seen[v] = true;
    int m = 0;
    while (seen[m]) m++;
    return m;
}

// Every move from a heap of h: the heaps it leaves (none, one or two).
vector<vector<int>> moves(int h) {
    vector<vector<int>> out;
    for (int s : take) {
        if (s > h) continue;
        int rest = h - s;
        if (rest == 0) out.push_back({});
        else out.push_back({rest});
        if (split_allowed)
            for (int a = 1; a <= rest / 2; a++) out.push_back({a, rest - a});
    }
    return out;
}

// The value of what a move leaves: the XOR of its heaps' values.
int value(const vector<int>& heaps) {
    int x = 0;
    for (int h : heaps) x ^= g[h];
    return x;
}

int main() {
    cin >> k;
    take.resize(k);
    for (int& s : take) cin >> s;
    cin >> split_allowed;
    int m;
    cin >> m;
    vector<int> heaps(m);
    for (int& h : heaps) cin >> h;

    // Tabulate g up to the largest heap (the mex DP of heap_mex.cpp).
    int n = heaps.empty() ? 0 : *max_element(heaps.begin(), heaps.end());
    g.assign(n + 1, 0);
    for (int h = 0; h <= n; h++) {
        vector<int> options;
        for (auto& left : moves(h)) options.push_back(value(left));
        g[h] = mex(options);
    }

    // Sprague-Grundy: the sum is lost for the player to move exactly when
    // the XOR of the values is 0.
    int x = 0;
    for (int h : heaps) x ^= g[h];
    cout << "nim-sum " << x << ": " << (x ? "first" : "second") << " player wins\n";

    // A winning move changes one heap so that the nim-sum becomes 0: heap i
    // must go to a position of value x ^ g[h_i].
    for (int i = 0; i < m && x != 0; i++) {
        int want = x ^ g[heaps[i]];
        for (auto& left : moves(heaps[i])) {
            if (value(left) != want) continue;
            cout << "heap " << i + 1 << ": " << heaps[i] << " -> ";
            if (left.empty()) cout << "nothing";
            for (size_t j = 0; j < left.size(); j++) cout << (j ? " + " : "") << left[j];
            cout << '\n';
        }
    }
}
