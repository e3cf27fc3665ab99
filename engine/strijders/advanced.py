"""The advanced round: after the reveal, both players' effects run in order, then the classic settle.

Each player's effects are, in this order, their laid card's, their VIP cards' in their own public
winners pile, and their karma cards' on the opponent's points pile. A lone raadslid's owner goes
first; otherwise the lower revealed score goes first, and a tie asks for rock-paper-scissors (only
when both players have effects, since otherwise the order changes nothing). A raadslid's steps
that change or read the opponent's laid card do nothing when that card is a raadslid too.
"""

from __future__ import annotations

from engine.strijders.catalog import KARMA, RAADSLID, SUPERHELD, VIP
from engine.strijders.classic import settle
from engine.strijders.effects import expand, run_step, touches_opponent_card
from engine.strijders.table import MANUAL, RPS, Action, Table

# rock-paper-scissors: throw -> the throw it beats
BEATS: dict[str, str] = {"rock": "scissors", "scissors": "paper", "paper": "rock"}


def begin_effects(table: Table) -> None:
    """Right after the reveal: order the effects (or ask for rock-paper-scissors) and run them."""
    actions = [player_actions(table, 0), player_actions(table, 1)]
    first = first_player(table, bool(actions[0] and actions[1]))
    if first is None:
        table.phase = RPS
        return
    start_effects(table, first, actions)


def first_player(table: Table, both_have_effects: bool) -> int | None:
    """Who resolves first, or None when rock-paper-scissors must decide."""
    raadslid = [table.specs[c].type == RAADSLID for c in table.field]
    if raadslid[0] != raadslid[1]:
        return 0 if raadslid[0] else 1
    low, high = table.scores
    if low != high:
        return 0 if low < high else 1
    return None if both_have_effects else 0


def order_effects(table: Table, first: int) -> None:
    """After rock-paper-scissors: its winner resolves first."""
    start_effects(table, first, [player_actions(table, 0), player_actions(table, 1)])


def start_effects(table: Table, first: int, actions: list[list[Action]]) -> None:
    table.first = first
    table.queue = (*actions[first], *actions[1 - first])
    table.cursor = 0
    resolve(table)


def effect_sources(table: Table, player: int) -> list[int]:
    vips = [c for c in table.winners[player] if table.specs[c].type == VIP]
    karmas = [c for c in table.points[1 - player] if table.specs[c].type == KARMA]
    return [table.field[player], *vips, *karmas]


def player_actions(table: Table, player: int) -> list[Action]:
    opponent_card = table.specs[table.field[1 - player]]
    actions: list[Action] = []
    for source in effect_sources(table, player):
        spec = table.specs[source]
        steps = expand(spec.steps, opponent_card.steps, opponent_card.type == SUPERHELD)
        immune = spec.type == RAADSLID and opponent_card.type == RAADSLID
        actions.extend(Action(player, source, s) for s in steps if not (immune and touches_opponent_card(s)))
    return actions


def resolve(table: Table) -> None:
    """Run queued steps until a manual step waits for the players' scores, or settle the round."""
    queue = table.queue
    while table.cursor < len(queue):
        owner, _, step = queue[table.cursor]
        if step.op == "manual":
            table.phase = MANUAL
            return
        run_step(table, step, owner)
        table.cursor += 1
    settle(table)


def enter_manual(table: Table, scores: tuple[int, int]) -> None:
    table.scores = list(scores)
    table.cursor += 1
    resolve(table)


def rps_winner(a: str, b: str) -> int | None:
    """0 or 1 for the winning throw, None for a draw."""
    if a == b:
        return None
    return 0 if BEATS[a] == b else 1


def hand_penalty(table: Table, player: int) -> int:
    """At the end each card a player still holds counts -1."""
    return len(table.hands[player])
