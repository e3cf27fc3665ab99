"""The 14 solo goals ("Doelstellingen") as data, and which of them a scoring meets.

A feature goal counts a scoring that actually paid points; "with N colours" means at least N
colours received them (a tied majority). Totals are the result: the lowest colour's score.
"""

from __future__ import annotations

from collections.abc import Sequence

# id, kind, least points, most points (None: no bound), least colours receiving
FEATURE_GOALS: tuple[tuple[str, str, int, int | None, int], ...] = (
    ("road-10", "road", 10, None, 1),
    ("road-10-2-colours", "road", 10, None, 2),
    ("road-10-3-colours", "road", 10, None, 3),
    ("road-5-3-colours", "road", 5, 5, 3),
    ("city-16", "city", 16, None, 1),
    ("city-16-2-colours", "city", 16, None, 2),
    ("city-16-3-colours", "city", 16, None, 3),
    ("city-8-10-3-colours", "city", 8, 10, 3),
)
# id, monasteries scored (9 points each, paid)
MONASTERY_GOALS: tuple[tuple[str, int], ...] = (("monasteries-3", 3), ("monasteries-4", 4))
# id, least result
TOTAL_GOALS: tuple[tuple[str, int], ...] = (("total-40", 40), ("total-50", 50), ("total-60", 60))
ALL_TILES = "all-tiles"
GOALS: tuple[str, ...] = (
    *(g[0] for g in FEATURE_GOALS),
    *(g[0] for g in MONASTERY_GOALS),
    *(g[0] for g in TOTAL_GOALS),
    ALL_TILES,
)


def feature_goals(kind: str, points: int, receivers: int) -> list[str]:
    return [
        goal
        for goal, goal_kind, least, most, colours in FEATURE_GOALS
        if kind == goal_kind and points >= least and (most is None or points <= most) and receivers >= colours
    ]


def monastery_goals(scored: int) -> list[str]:
    return [goal for goal, least in MONASTERY_GOALS if scored >= least]


def total_goals(scores: Sequence[int]) -> list[str]:
    return [goal for goal, least in TOTAL_GOALS if min(scores) >= least]
