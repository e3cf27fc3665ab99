"""The cheapest one-to-one assignment of rows to columns (the Hungarian method), as scipy is no runtime need."""

from __future__ import annotations

import numpy as np


def min_cost_assignment(cost: np.ndarray) -> np.ndarray:
    """(rows,): the column each row takes, no column twice, the summed cost least. Needs rows <= columns.
    Shortest augmenting paths with potentials (O(rows^2 columns)), each step over all columns at once."""
    cost = np.asarray(cost, np.float64)
    n, m = cost.shape
    if n > m:
        raise ValueError(f"an assignment needs no more rows than columns, got {n} x {m}")
    u, v = np.zeros(n + 1), np.zeros(m + 1)
    owner = np.zeros(m + 1, int)  # owner[j]: the row (1-based) holding column j; column 0 is the free start
    way = np.zeros(m + 1, int)
    for i in range(1, n + 1):
        owner[0], j0 = i, 0
        least = np.full(m + 1, np.inf)
        used = np.zeros(m + 1, bool)
        while True:
            used[j0] = True
            i0 = owner[j0]
            free = ~used[1:]
            reduced = cost[i0 - 1] - u[i0] - v[1:]
            better = free & (reduced < least[1:])
            least[1:][better] = reduced[better]
            way[1:][better] = j0
            j1 = 1 + int(np.argmin(np.where(free, least[1:], np.inf)))
            delta = least[j1]
            u[owner[used]] += delta
            v[used] -= delta
            least[~used] -= delta
            j0 = j1
            if owner[j0] == 0:
                break
        while j0:
            j1 = way[j0]
            owner[j0] = owner[j1]
            j0 = j1
    out = np.zeros(n, int)
    taken = np.nonzero(owner[1:])[0]
    out[owner[1:][taken] - 1] = taken
    return out
