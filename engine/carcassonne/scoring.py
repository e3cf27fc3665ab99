"""The solo scoring: points go only to a colour that is lowest on the track, so the order matters.

A scoring is a `Unit`: points for the majority colours of a completed feature, or 2 points for the
colour of a meeple left on the board at the end. The rules let the player choose the order of a
turn's scorings; `best_orders` finds the order that leaves the scores best. "Best" is the leximin
order of the score vector (first the lowest score, the result; then the second lowest, and so on),
taken after the final scoring when the game ends this turn, else after this turn's scorings.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

ROAD_POINTS_PER_TILE = 1
CITY_POINTS_PER_TILE = 2
CITY_POINTS_PER_SHIELD = 2
MONASTERY_POINTS = 9
FINAL_POINTS_PER_MEEPLE = 2


@dataclass(frozen=True, slots=True)
class Unit:
    points: int
    colours: tuple[int, ...]  # the majority colours; all of them score, or none


def feature_points(kind: str, tiles: int, shields: int) -> int:
    table = {
        "road": tiles * ROAD_POINTS_PER_TILE,
        "city": tiles * CITY_POINTS_PER_TILE + shields * CITY_POINTS_PER_SHIELD,
        "monastery": MONASTERY_POINTS,
    }
    return table[kind]


def majority(meeple_colours: Iterable[int]) -> tuple[int, ...]:
    """The colours with the most meeples on a feature (ties: all of them), sorted."""
    counts = Counter(meeple_colours)
    if not counts:
        return ()
    top = max(counts.values())
    return tuple(sorted(c for c, n in counts.items() if n == top))


def receives(scores: Sequence[int], unit: Unit) -> bool:
    """The lowest-colour rule: one of the majority colours is lowest (ties count as lowest)."""
    low = min(scores)
    return any(scores[c] == low for c in unit.colours)


def award(scores: list[int], unit: Unit) -> tuple[int, ...]:
    """Score `unit` onto `scores` in place; returns the colours that received the points."""
    if not receives(scores, unit):
        return ()
    for c in unit.colours:
        scores[c] += unit.points
    return unit.colours


def leximin(scores: Sequence[int]) -> tuple[int, ...]:
    return tuple(sorted(scores))


Memo = dict[tuple[tuple[int, ...], tuple[int, ...]], tuple[tuple[int, ...], tuple[int, ...]]]


def best_orders(
    scores: Sequence[int],
    first: Sequence[Unit],
    then: Sequence[Unit] | None,
    fixed_first: Sequence[int] = (),
    fixed_then: Sequence[int] = (),
) -> tuple[list[int], list[int]]:
    """Orders (indices into `first`, `then`) that give the best scores.

    `first` are the turn's completions; `then` the end-of-game meeple scorings, or None when the
    game goes on. `fixed_*` are the indices the player already put first, in that order. Equal
    units are interchangeable, so the search runs over counts per kind of unit, memoised on the
    scores: a few hundred states even for the final scoring of 20 meeples.
    """
    free1 = [i for i in range(len(first)) if i not in fixed_first]
    free2 = [i for i in range(len(then or ())) if i not in fixed_then]
    kinds1, counts1, items1 = _kinds([first[i] for i in free1])
    kinds2, counts2, items2 = _kinds([then[i] for i in free2] if then is not None else [])
    memo1: Memo = {}
    memo2: Memo = {}

    def final_phase(s: tuple[int, ...]) -> tuple[tuple[int, ...], tuple[int, ...]]:
        if then is None:
            return leximin(s), ()
        after = list(s)
        play_out(after, then, fixed_then)
        return _search(tuple(after), counts2, kinds2, memo2, None, eager=True)

    start = list(scores)
    play_out(start, first, fixed_first)
    seq1 = _search(tuple(start), counts1, kinds1, memo1, final_phase, eager=False)[1]
    for k in seq1:
        award(start, kinds1[k])
    seq2 = final_phase(tuple(start))[1]
    order1 = [*fixed_first, *(free1[i] for i in _expand(seq1, items1))]
    order2 = [*fixed_then, *(free2[i] for i in _expand(seq2, items2))]
    return order1, order2


def _search(
    scores: tuple[int, ...],
    counts: tuple[int, ...],
    kinds: list[Unit],
    memo: Memo,
    terminal: Callable[[tuple[int, ...]], tuple[tuple[int, ...], tuple[int, ...]]] | None,
    eager: bool,
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Best (leximin value, kind sequence) from here.

    `eager` (the final phase, which nothing follows): a unit that cannot score now is best left for
    last, where it can only add points, so only units that score now are tried.
    """
    key = (scores, counts)
    found = memo.get(key)
    if found is not None:
        return found
    best: tuple[tuple[int, ...], tuple[int, ...]] | None = None
    for k, n in enumerate(counts):
        if n == 0:
            continue
        unit = kinds[k]
        if eager and not receives(scores, unit):
            continue
        after = list(scores)
        award(after, unit)
        rest = counts[:k] + (n - 1,) + counts[k + 1 :]
        value, seq = _search(tuple(after), rest, kinds, memo, terminal, eager)
        if best is None or value > best[0]:
            best = (value, (k, *seq))
    if best is None:  # nothing left (or, eager, nothing left that can score)
        tail = tuple(k for k, n in enumerate(counts) for _ in range(n))
        best = (terminal(scores)[0] if terminal else leximin(scores), tail)
    memo[key] = best
    return best


def _kinds(units: Sequence[Unit]) -> tuple[list[Unit], tuple[int, ...], list[list[int]]]:
    kinds: list[Unit] = []
    items: list[list[int]] = []
    for i, unit in enumerate(units):
        if unit in kinds:
            items[kinds.index(unit)].append(i)
        else:
            kinds.append(unit)
            items.append([i])
    return kinds, tuple(len(x) for x in items), items


def _expand(seq: Sequence[int], items: list[list[int]]) -> list[int]:
    taken = [0] * len(items)
    out = []
    for k in seq:
        out.append(items[k][taken[k]])
        taken[k] += 1
    return out


def play_out(scores: list[int], units: Sequence[Unit], order: Sequence[int]) -> list[tuple[int, ...]]:
    """Award units in `order` onto `scores` in place; the receivers of each, in that order."""
    return [award(scores, units[i]) for i in order]


def order_value(
    scores: Sequence[int],
    first: Sequence[Unit],
    order1: Sequence[int],
    then: Sequence[Unit] | None,
    order2: Sequence[int],
) -> tuple[int, ...]:
    """The leximin value of given orders (for comparing a player's order with the best one)."""
    s = list(scores)
    play_out(s, first, order1)
    if then is not None:
        play_out(s, then, order2)
    return leximin(s)
