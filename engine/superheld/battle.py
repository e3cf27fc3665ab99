"""The final battle: allies against the wizard's ghost warriors under the 21-rule."""

from __future__ import annotations

import random

from engine.game import LOST, WON, IllegalMove
from engine.superheld.deck import code, codes, value
from engine.superheld.moves import Deploy, Fight, Give
from engine.superheld.state import BATTLE, COOP, OVER, State

BLACKJACK = 21  # two warriors summing to this: the lower one wins
MAX_DEPLOYED = 4
MAX_DEPLOYED_PER_HERO = {1: 4, 2: 2}  # heroes in play -> allies each may deploy
MAX_GIFT = 2
ALLY_WINS, TIE, WIZARD_WINS = 1, 0, -1


def duel(ally: int, wizard: int) -> int:
    """+1 when the ally wins, -1 when the wizard's warrior wins, 0 for equal values."""
    a, w = value(ally), value(wizard)
    if a == w:
        return TIE
    if a + w == BLACKJACK:
        return ALLY_WINS if a < w else WIZARD_WINS
    return ALLY_WINS if a > w else WIZARD_WINS


def final_score(s: State) -> int | None:
    """Won: the heroes' coins together; lost: 0 (nothing is earned); None while playing."""
    if s.result == WON:
        return sum(h.coins for h in s.heroes)
    return 0 if s.result == LOST else None


def start_battle(s: State) -> None:
    s.phase = BATTLE
    s.deployed = [[] for _ in s.heroes]
    s.spent = [[] for _ in s.heroes]
    settle(s)


def settle(s: State) -> None:
    """Won when the wizard has no warriors left; lost when the heroes have no allies."""
    if not s.warrior_deck and not s.wizard_fought:
        s.result, s.phase = WON, OVER
    elif not any(h.warriors for h in s.heroes):
        s.lose("no-allies", "the heroes have no ghost warriors left to fight the wizard's")


def require_battle(s: State, what: str) -> None:
    if s.phase != BATTLE:
        raise IllegalMove("wrong-phase", f"{what} is only possible in the final battle; the game is in its "
                                         f"{s.phase} phase")


def apply_deploy(s: State, move: Deploy) -> None:
    require_battle(s, "deploying allies")
    if any(s.deployed):
        raise IllegalMove("round-in-progress", "every deployed ally fights before the next round's deployment")
    if len(move.allies) != len(s.heroes):
        raise IllegalMove("hero-count", f"deploy one list of allies per hero ({len(s.heroes)})")
    total = sum(len(a) for a in move.allies)
    per_hero = MAX_DEPLOYED_PER_HERO[len(s.heroes)]
    if total == 0:
        raise IllegalMove("deploy-none", "deploy at least one ally")
    if total > MAX_DEPLOYED or any(len(a) > per_hero for a in move.allies):
        raise IllegalMove("too-many-allies", f"at most {MAX_DEPLOYED} allies per round"
                                             + (f", {per_hero} per hero" if len(s.heroes) > 1 else ""))
    if total > len(s.warrior_deck):
        raise IllegalMove("more-than-wizard", f"never more allies than the wizard's face-down warriors "
                                              f"({len(s.warrior_deck)})")
    for hero, allies in zip(s.heroes, move.allies, strict=True):
        for c in allies:
            if c not in hero.warriors:
                raise IllegalMove("not-held", f"{code(c)} is not among the hero's allies "
                                              f"({' '.join(codes(hero.warriors)) or 'none'})")
    s.deployed = [list(a) for a in move.allies]
    s.rounds += 1


def apply_fight(s: State, move: Fight) -> None:
    require_battle(s, "a fight")
    owner = next((i for i, d in enumerate(s.deployed) if move.ally in d), None)
    if owner is None:
        if not any(s.deployed):
            raise IllegalMove("no-round", "deploy allies before a fight")
        raise IllegalMove("not-deployed", f"{code(move.ally)} is not deployed and waiting to fight this round")
    if move.against is not None:
        if move.against not in s.warrior_deck:
            raise IllegalMove("not-in-wizard-deck", f"{code(move.against)} is not in the wizard's deck")
        s.warrior_deck.remove(move.against)  # the table is the truth: the card seen is the one turned up
        s.warrior_deck.append(move.against)
    ally, wizard, hero = move.ally, s.warrior_deck.pop(), s.heroes[owner]
    s.deployed[owner].remove(ally)
    outcome = duel(ally, wizard)
    if outcome == WIZARD_WINS:
        hero.warriors.remove(ally)
        s.wizard_fought += [wizard, ally]
    else:
        s.spent[owner].append(ally)
        if outcome == ALLY_WINS:
            hero.warriors.append(wizard)  # joins the hero whose ally won, usable next round
        else:
            s.wizard_fought.append(wizard)
    if not any(s.deployed):
        end_round(s)
    settle(s)


def end_round(s: State) -> None:
    s.spent = [[] for _ in s.heroes]
    if not s.warrior_deck and s.wizard_fought:
        reshuffle(s)


def reshuffle(s: State) -> None:
    """The fought pile becomes the wizard's new deck; the shuffle comes from the seed and the count."""
    deck = s.wizard_fought[:]
    random.Random(s.seed * 1_000_003 + s.reshuffles).shuffle(deck)
    s.warrior_deck, s.wizard_fought = deck, []
    s.reshuffles += 1


def apply_give(s: State, move: Give) -> None:
    require_battle(s, "giving allies")
    if s.variant != COOP:
        raise IllegalMove("not-coop", "allies are given only between the two heroes of the co-op game")
    if any(s.deployed):
        raise IllegalMove("round-in-progress", "allies are given between rounds")
    receiver, giver = s.heroes[move.to], s.heroes[1 - move.to]
    if receiver.warriors:
        raise IllegalMove("receiver-has-allies", f"hero {move.to + 1} still has allies; only a hero with none "
                                                 "may receive some")
    if not 1 <= len(move.cards) <= MAX_GIFT:
        raise IllegalMove("give-limit", f"give 1 to {MAX_GIFT} allies, not {len(move.cards)}")
    for c in move.cards:
        if c not in giver.warriors:
            raise IllegalMove("not-held", f"hero {2 - move.to} has no ally {code(c)} to give")
        giver.warriors.remove(c)
        receiver.warriors.append(c)
