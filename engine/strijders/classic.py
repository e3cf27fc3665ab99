"""The classic round, which the advanced variant ends with too: reveal, compare, share out, draw back.

Higher score wins: the loser's card goes to the winner's points pile and the winner's own card to
the winner's public winners pile. A tie puts each card on the opponent's points pile.
"""

from __future__ import annotations

from engine.strijders.catalog import RARITY_POINTS
from engine.strijders.table import LAY, RoundResult, Table

TIE = -1
# scoring option -> points one card on a points pile is worth
SCORINGS: dict[str, dict[str, int]] = {
    "plain": dict.fromkeys(RARITY_POINTS, 1),
    "rarity": RARITY_POINTS,
}


def reveal(table: Table, a_id: str, b_id: str) -> None:
    table.field = [table.take_from_hand(0, a_id), table.take_from_hand(1, b_id)]
    table.scores = [table.specs[c].score for c in table.field]


def round_winner(scores: list[int]) -> int:
    if scores[0] == scores[1]:
        return TIE
    return 0 if scores[0] > scores[1] else 1


def settle(table: Table) -> None:
    """Share out the laid cards by the current scores, draw back to five, start the next round."""
    winner = round_winner(table.scores)
    a, b = table.field
    if winner == TIE:
        table.points[1].append(a)
        table.points[0].append(b)
    else:
        table.winners[winner].append(table.field[winner])
        table.points[winner].append(table.field[1 - winner])
    table.last = RoundResult(table.round, (a, b), (table.scores[0], table.scores[1]), winner)
    table.field = []
    table.scores = [0, 0]
    table.phase, table.queue, table.cursor, table.first = LAY, (), 0, -1
    table.refill(0)
    table.refill(1)
    if not is_over(table):
        table.round += 1


def is_over(table: Table) -> bool:
    """Over once a player has played all their cards: nothing left to lay at the start of a round."""
    return table.phase == LAY and not (table.hands[0] and table.hands[1])


def pile_value(table: Table, player: int, scoring: str) -> int:
    worth = SCORINGS[scoring]
    return sum(worth[table.specs[c].rarity] for c in table.points[player])
