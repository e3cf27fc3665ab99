"""Map building, refereed card by card: the forest first, every card touching an earlier one, nothing moves."""

from __future__ import annotations

from engine.game import IllegalMove
from engine.superheld.deck import KING, code, is_forest_card, is_map_card, value
from engine.superheld.map import overlapping, touching
from engine.superheld.moves import Capital, Place
from engine.superheld.state import BUILD, FOREST_SIZE, MAP_SIZE, START, State


def forest_placed(s: State) -> int:
    return sum(1 for c in s.order if is_forest_card(c))


def apply_place(s: State, move: Place) -> None:
    card, rect = move.card, move.rect
    if s.phase != BUILD or s.capital >= 0:
        raise IllegalMove("map-complete", f"the map is finished; {code(card)} cannot be added")
    if not is_map_card(card):
        raise IllegalMove("ace-not-on-map", f"{code(card)} is an ace: aces are the skill piles, not map cards")
    if card in s.rects:
        if s.rects[card] == rect:
            raise IllegalMove("already-placed", f"{code(card)} is already on the map")
        raise IllegalMove("card-moved", f"{code(card)} was already placed elsewhere; placed cards never move")
    if s.forest_rule and forest_placed(s) < FOREST_SIZE and not is_forest_card(card):
        raise IllegalMove("forest-first", f"the Dark Forest (the eight 5s and 6s, face down) is laid before "
                                          f"any other card; {code(card)} must wait")
    for other, r in s.rects.items():
        if overlapping(rect, r):
            raise IllegalMove("overlap", f"{code(card)} would lie on {code(other)}")
    neighbours = frozenset(other for other, r in s.rects.items() if touching(rect, r))
    if s.rects and not neighbours:
        raise IllegalMove("not-touching", f"{code(card)} must touch an earlier card along an edge "
                                          "(at least 10 mm of edge, at most 6 mm apart; corners don't count)")
    s.rects = {**s.rects, card: rect}
    s.order = (*s.order, card)
    s.adj = {**s.adj, card: neighbours} | {n: s.adj[n] | {card} for n in neighbours}
    s.present.add(card)
    if s.forest_rule and is_forest_card(card):
        s.hidden.add(card)


def apply_capital(s: State, move: Capital) -> None:
    card = move.card
    if s.phase != BUILD or s.capital >= 0:
        raise IllegalMove("capital-chosen", f"the capital is already {code(s.capital)}"
                          if s.capital >= 0 else "the capital is chosen when the map is complete")
    if len(s.rects) != MAP_SIZE:
        raise IllegalMove("map-incomplete", f"the map has {len(s.rects)} of its {MAP_SIZE} cards; "
                                            "the capital is chosen once all are placed")
    if value(card) != KING:
        raise IllegalMove("capital-not-king", f"the capital must be one of the kings, not {code(card)}")
    s.capital = card
    s.phase = START
