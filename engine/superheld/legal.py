"""The moves the rules allow now.

Two choices are listed in a reduced form, since listing every variant would explode: trades are
the minimal ones (no card could be left out) with one card per value, and monster turns list
every walk, coin split and purchase but no trades. `check` accepts every legal variant.
"""

from __future__ import annotations

from collections.abc import Iterator
from itertools import combinations, product

from engine.superheld.battle import MAX_DEPLOYED, MAX_DEPLOYED_PER_HERO, MAX_GIFT
from engine.superheld.building import forest_placed
from engine.superheld.coop import MONSTER_REWARD
from engine.superheld.deck import KING, MAP_CARDS, is_forest_card, is_village, value
from engine.superheld.journey import COINS, START_VALUE, take_problem
from engine.superheld.map import CARD_LONG_MM, CARD_SHORT_MM, Rect, overlapping
from engine.superheld.moves import Capital, Deploy, Fight, Give, MonsterTurn, Move, Place, Start, Turn
from engine.superheld.state import BATTLE, BUILD, FOREST_SIZE, JOURNEY, MAP_SIZE, START, State


def legal_moves(s: State) -> list[Move]:
    producer = {BUILD: _building, START: _starts, JOURNEY: _journey, BATTLE: _battle}.get(s.phase)
    return list(producer(s)) if producer is not None else []


def _building(s: State) -> Iterator[Move]:
    if len(s.rects) == MAP_SIZE:
        yield from (Capital(c) for c in sorted(s.rects) if value(c) == KING)
        return
    forest_due = s.forest_rule and forest_placed(s) < FOREST_SIZE
    cards = [c for c in sorted(MAP_CARDS - set(s.rects)) if is_forest_card(c) or not forest_due]
    for rect in _free_spots(s):
        grid = (round(rect.x / CARD_SHORT_MM), round(rect.y / CARD_LONG_MM))
        on_grid = (grid[0] * CARD_SHORT_MM, grid[1] * CARD_LONG_MM) == (rect.x, rect.y)
        yield from (Place(c, rect, grid if on_grid else None) for c in cards)


def _free_spots(s: State) -> list[Rect]:
    """Portrait spots edge to edge with a placed card and lying on none (the origin on an empty table)."""
    if not s.rects:
        return [Rect(0.0, 0.0, CARD_SHORT_MM, CARD_LONG_MM)]
    spots: set[Rect] = set()
    for r in s.rects.values():
        for x, y in ((r.x - CARD_SHORT_MM, r.y), (r.x + r.w, r.y), (r.x, r.y - CARD_LONG_MM), (r.x, r.y + r.h)):
            spots.add(Rect(x, y, CARD_SHORT_MM, CARD_LONG_MM))
    return sorted(spot for spot in spots if not any(overlapping(spot, r) for r in s.rects.values()))


def _starts(s: State) -> Iterator[Move]:
    twos = sorted(c for c in s.present if value(c) == START_VALUE)
    yield from (Start(cards) for cards in product(twos, repeat=len(s.heroes)))


def _journey(s: State) -> Iterator[Move]:
    hero = s.hero
    here = hero.at
    takeable = take_problem(s, here, s.to_move) is None
    who = s.to_move if len(s.heroes) > 1 else None
    for go in [None, *sorted(n for n in s.adj[here] if n in s.present)]:
        for take in (False, True) if takeable and go is not None else (False,):
            coins = hero.coins + COINS[(is_village(here), take)]
            if coins < 0:
                yield Turn(go, take, hero=who)  # legal, and lost for want of coins
                continue
            for buy in (False, True) if s.lower_deck and coins >= 1 else (False,):
                ghosts = hero.ghosts + [s.lower_deck[-1]] if buy else hero.ghosts
                stand = here if go is None else go
                for trade in [(), *minimal_trades(ghosts, hero.warriors, s, stand)]:
                    yield Turn(go, take, buy, trade, who)
    yield from _monster_turns(s)


def minimal_trades(ghosts: list[int], warriors: list[int], s: State, stand: int) -> list[tuple[int, ...]]:
    """Trades whose sum beats the top warrior plus `stand` and that need every card they give."""
    if not s.warrior_deck or not ghosts:
        return []
    need = value(s.warrior_deck[-1]) + value(stand)
    by_value: dict[int, list[int]] = {}
    for c in ghosts:
        by_value.setdefault(value(c), []).append(c)
    values = sorted(by_value, reverse=True)
    found: list[tuple[int, ...]] = []

    def extend(i: int, chosen: list[int], total: int) -> None:
        # values are added high to low, so the last card added is the smallest: minimal when it tips the sum
        for j in range(i, len(values)):
            v = values[j]
            for k in range(1, len(by_value[v]) + 1):
                cards = chosen + by_value[v][:k]
                if total + k * v > need:
                    found.append(tuple(cards))
                    break
                extend(j + 1, cards, total + k * v)

    extend(0, [], 0)
    for w in {value(c): c for c in reversed(warriors)}.values():
        if value(w) <= need:  # a warrior beating the need alone would make every lower ghost superfluous
            extend(0, [w], value(w))
    return found


def _monster_turns(s: State) -> Iterator[Move]:
    first, second = s.heroes[0], s.heroes[-1]
    if len(s.heroes) < 2 or first.at != second.at or first.at not in s.monsters:
        return
    here = first.at
    if take_problem(s, here, None) is not None:
        return
    exits = sorted(n for n in s.adj[here] if n in s.present)
    splits = [(a, MONSTER_REWARD - a) for a in range(MONSTER_REWARD + 1)]
    for go, coins in product(product(exits, repeat=2), splits):
        for buy in product((False, True), repeat=2):
            if sum(buy) <= len(s.lower_deck) and all(c >= 1 or not b for c, b in zip(
                    (first.coins + coins[0], second.coins + coins[1]), buy, strict=True)):
                yield MonsterTurn((go[0], go[1]), coins, (buy[0], buy[1]))


def _battle(s: State) -> Iterator[Move]:
    if any(s.deployed):
        yield from (Fight(c) for allies in s.deployed for c in allies)
        return
    limit = min(MAX_DEPLOYED, len(s.warrior_deck))
    per_hero = MAX_DEPLOYED_PER_HERO[len(s.heroes)]
    options = [[a for k in range(min(per_hero, limit) + 1) for a in combinations(h.warriors, k)] for h in s.heroes]
    for allies in product(*options):
        if 0 < sum(map(len, allies)) <= limit:
            yield Deploy(tuple(allies))
    if len(s.heroes) < 2:
        return
    for to, hero in enumerate(s.heroes):
        giver = s.heroes[1 - to]
        if not hero.warriors:
            for k in range(1, min(MAX_GIFT, len(giver.warriors)) + 1):
                yield from (Give(cards, to) for cards in combinations(giver.warriors, k))
