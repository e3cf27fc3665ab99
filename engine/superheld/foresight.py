"""Advice before the player commits: what taking a card would cut off, which henchmen are already doomed.

Hidden forest cards are never named, and a hidden card's value is never used, so the advice tells
the player nothing the table does not show.
"""

from __future__ import annotations

from engine.superheld.deck import code, suit, value
from engine.superheld.journey import COIN_SUPPLY, describe, take_problem
from engine.superheld.map import reachable
from engine.superheld.state import JOURNEY, State


def warnings(s: State) -> list[str]:
    out = coin_warnings(s)
    if s.phase == JOURNEY:
        out += cut_warnings(s) + order_warnings(s)
    return out


def coin_warnings(s: State) -> list[str]:
    coins = sum(h.coins for h in s.heroes)
    if coins <= COIN_SUPPLY:
        return []
    return [f"{coins} coins in play: the game has only {COIN_SUPPLY}"]


def cut_warnings(s: State) -> list[str]:
    """Taking the card under the hero to move: would it cut off a henchman, the capital or the way back?"""
    here = s.hero.at
    if take_problem(s, here, s.to_move) is not None:
        return []
    rest = s.present - {here}
    exits = [n for n in s.adj[here] if n in rest]
    others = {h.at for i, h in enumerate(s.heroes) if i != s.to_move}
    parts = []
    for start in exits:
        part = reachable(s.adj, rest, start)
        if part not in parts:
            parts.append(part)
    if len(parts) == 1 and others <= parts[0]:
        return []
    main = next(p for p in parts if s.capital in p)
    lost = sorted((rest | others) - main)
    out = []
    if rest - main:
        named = ", ".join(describe(s, c) for c in lost if c in rest)
        out.append(f"taking {code(here)} would cut off {named} from the capital {code(s.capital)}")
    dead_ends = sorted(n for n in exits if n not in main)
    if dead_ends:
        out.append(f"taking {code(here)} and moving to {' or '.join(describe(s, n) for n in dead_ends)} would cut "
                   f"off the way back to the capital")
    if others - main:
        out.append(f"taking {code(here)} would cut the other hero off from the capital")
    return out


def order_warnings(s: State) -> list[str]:
    """Henchmen that can no longer be defeated in order: a lower card of their suit must go first and cuts them off.

    Removing cards only ever disconnects the map further, so when taking the lower card would
    separate the higher one from the capital today, no later route can save it.
    """
    visible = sorted(c for c in s.present if c not in s.hidden and c != s.capital)
    out: list[str] = []
    for low in visible:
        higher = [c for c in visible if suit(c) == suit(low) and value(c) > value(low)]
        if not higher:
            continue
        home = reachable(s.adj, s.present - {low}, s.capital)
        out += [f"{code(c)} can no longer be defeated in order: {code(low)} must be taken first, and taking it "
                f"cuts {code(c)} off from the capital" for c in higher if c not in home]
    return out
