"""The hero's journey: moving, taking henchmen in skill order, rewards and costs, buying and trading ghosts."""

from __future__ import annotations

from engine.game import IllegalMove
from engine.superheld.battle import start_battle
from engine.superheld.deck import code, codes, is_village, suit, value
from engine.superheld.map import reachable
from engine.superheld.moves import Start, Turn
from engine.superheld.state import COOP, JOURNEY, START, Hero, State

# (village?, took the card) -> coins gained (negative: the cost of staying or passing through)
COINS: dict[tuple[bool, bool], int] = {(True, True): 1, (False, True): 0, (True, False): -1, (False, False): -2}
COIN_SUPPLY = 25  # physical coins in the box; more in play is only warned about
START_VALUE = 2


def require_phase(s: State, phase: str, what: str) -> None:
    if s.phase != phase:
        raise IllegalMove("wrong-phase", f"{what} is not possible now: the game is in its {s.phase} phase")


def apply_start(s: State, move: Start) -> None:
    require_phase(s, START, "starting")
    if len(move.cards) != len(s.heroes):
        raise IllegalMove("hero-count", f"name one start village per hero ({len(s.heroes)})")
    for card in move.cards:
        if card not in s.present or value(card) != START_VALUE:
            raise IllegalMove("start-on-2", f"a hero starts on a village of value 2, not {code(card)}")
    for hero, card in zip(s.heroes, move.cards, strict=True):
        hero.at = card
    s.phase, s.to_move = JOURNEY, 0


def step_problem(s: State, here: int, to: int) -> IllegalMove | None:
    """Why the hero cannot walk from `here` to `to` (None when it can)."""
    if to not in s.rects:
        return IllegalMove("not-on-map", f"{code(to)} is not on the map")
    if to not in s.present:
        return IllegalMove("hole", f"{code(to)} was taken: its hole can never be crossed")
    if to not in s.adj[here]:
        return IllegalMove("not-adjacent", f"{code(to)} does not share an edge with {code(here)}")
    return None


def take_problem(s: State, card: int, hero: int | None) -> IllegalMove | None:
    """Why the henchman on `card` cannot be taken now by `hero` (None: it can; `hero` None: the monster turn)."""
    if card == s.capital:
        return IllegalMove("capital", f"{code(card)} is the capital: the wizard is fought in the final battle")
    top = s.skill[suit(card)]
    if value(card) != top + 1:
        return IllegalMove("skill-order", f"{code(card)} can be taken only when its skill pile shows "
                                          f"{value(card) - 1}; it shows {top}")
    if hero is not None and card in s.monsters:
        return IllegalMove("monster-needs-both", f"a monster guards {code(card)}: both heroes defeat it together")
    if hero is not None and any(h.at == card for i, h in enumerate(s.heroes) if i != hero):
        return IllegalMove("other-hero-there", f"the other hero stands on {code(card)}")
    return None


def take(s: State, card: int) -> None:
    s.present.discard(card)
    s.skill[suit(card)] = value(card)


def enter(s: State, hero: Hero, card: int) -> None:
    hero.at = card
    s.hidden.discard(card)  # a face-down forest card is turned up on entry


def cut_off(s: State) -> list[int]:
    """Remaining cards (and heroes) that the heroes can no longer reach."""
    home = reachable(s.adj, s.present, s.heroes[0].at)
    return sorted(c for c in s.present | {h.at for h in s.heroes} if c not in home)


def lose_if_cut_off(s: State, taken: int) -> bool:
    lost = cut_off(s)
    if lost:
        s.lose("cut-off", f"taking {code(taken)} cut off {', '.join(describe(s, c) for c in lost)}")
    return bool(lost)


def describe(s: State, card: int) -> str:
    if card in s.hidden:
        return "a hidden forest card"
    return f"{code(card)} (the capital)" if card == s.capital else code(card)


def pay(s: State, hero: Hero, left: int, took: bool) -> bool:
    """Step 2 of a turn; False (and the game lost) when the hero cannot pay."""
    delta = COINS[(is_village(left), took)]
    if hero.coins + delta < 0:
        s.lose("cannot-pay", f"staying on or leaving {code(left)} costs {-delta}; the hero has {hero.coins}")
        return False
    hero.coins += delta
    return True


def buy(s: State, hero: Hero) -> None:
    if not s.lower_deck:
        raise IllegalMove("no-lower-ghosts", "the lower ghost deck is empty")
    if hero.coins < 1:
        raise IllegalMove("cannot-afford", "buying a lower ghost costs 1 coin; the hero has none")
    hero.coins -= 1
    hero.ghosts.append(s.lower_deck.pop())


def trade_need(s: State, hero: Hero) -> int:
    """The sum a trade must exceed: the top warrior plus the card the hero stands on."""
    return value(s.warrior_deck[-1]) + value(hero.at)


def trade(s: State, hero: Hero, cards: tuple[int, ...]) -> None:
    for c in cards:
        if c not in hero.ghosts and c not in hero.warriors:
            raise IllegalMove("not-held", f"the hero holds no {code(c)} to trade (lower ghosts: "
                                          f"{' '.join(codes(hero.ghosts)) or 'none'})")
    warriors = [c for c in cards if c in hero.warriors]
    ghosts = [c for c in cards if c not in warriors]
    if len(warriors) > 1:
        raise IllegalMove("one-warrior", f"at most one ghost warrior can be traded in, not {' '.join(codes(warriors))}")
    if not ghosts:
        raise IllegalMove("trade-needs-lower-ghost", "a trade gives lower ghosts (and at most one warrior)")
    if not s.warrior_deck:
        raise IllegalMove("no-warriors-left", "the ghost warrior deck is empty")
    total, need = sum(value(c) for c in cards), trade_need(s, hero)
    if total <= need:
        top = s.warrior_deck[-1]
        raise IllegalMove("trade-too-low", f"{' + '.join(codes(cards))} = {total}; the top warrior {code(top)} on "
                                           f"{code(hero.at)} needs more than {value(top)} + {value(hero.at)} = {need}")
    for c in ghosts:
        hero.ghosts.remove(c)
    s.ghosts_out.extend(ghosts)
    for c in warriors:
        hero.warriors.remove(c)
        s.warrior_deck.insert(0, c)  # face down under the deck
    hero.warriors.append(s.warrior_deck.pop())


def apply_turn(s: State, move: Turn) -> None:
    require_phase(s, JOURNEY, "a journey turn")
    if move.hero is not None and move.hero != s.to_move:
        raise IllegalMove("not-your-turn", f"it is hero {s.to_move + 1}'s turn")
    hero = s.hero
    here = hero.at
    if move.go is not None and (problem := step_problem(s, here, move.go)) is not None:
        raise problem
    if move.take:
        if move.go is None:
            raise IllegalMove("take-needs-leaving", f"{code(here)} can only be taken when the hero leaves it")
        if (problem := take_problem(s, here, s.to_move)) is not None:
            raise problem
        take(s, here)
    if move.go is not None:
        enter(s, hero, move.go)
    if move.take and lose_if_cut_off(s, here):
        return
    if not pay(s, hero, here, move.take):
        return
    if move.buy:
        buy(s, hero)
    if move.trade:
        trade(s, hero, move.trade)
    end_turn(s, 1 - s.to_move if s.variant == COOP else 0)


def end_turn(s: State, next_hero: int) -> None:
    """Hand over the turn, or start the final battle once only the capital is left."""
    if s.present == {s.capital}:
        start_battle(s)
    s.to_move = next_hero
