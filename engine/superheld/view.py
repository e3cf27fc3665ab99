"""The replay output: what the table shows, never the face-down cards' identities or deck orders."""

from __future__ import annotations

from typing import Any

from engine.cards import RANKS, SUITS
from engine.superheld.deck import code, codes
from engine.superheld.state import BATTLE, JOURNEY, MAP_SIZE, State


def state_json(s: State) -> dict[str, Any]:
    heroes = s.heroes
    return {
        "variant": s.variant,
        "phase": s.phase,
        "to_move": s.to_move + 1 if s.phase == JOURNEY else None,
        "map_cards": len(s.rects),
        "capital": code(s.capital) if s.capital >= 0 else None,
        "coins": [h.coins for h in heroes],
        "hero_at": [code(h.at) if h.at >= 0 else None for h in heroes],
        "skill": {name: RANKS[top - 1] + name for name, top in zip(SUITS, s.skill, strict=True)},
        "lower_ghosts": [codes(h.ghosts) for h in heroes],
        "warriors": [codes(h.warriors) for h in heroes],
        "top_warrior": _top_warrior(s),
        "defeated": sum(s.skill) - len(s.skill),
        "forest_hidden": len(s.hidden),
        "monsters": codes(sorted(s.monsters)),
        "lower_ghost_deck": len(s.lower_deck),
        "warrior_deck": len(s.warrior_deck),
        "ghosts_out": len(s.ghosts_out),
        "battle": _battle(s) if s.phase == BATTLE or s.rounds else None,
        "lost_reason": s.reason or None,
        "lost_message": s.message or None,
        "complete_map": len(s.rects) == MAP_SIZE,
    }


def _top_warrior(s: State) -> str | None:
    """Face up on the deck during the journey; in battle, the card turned up while allies wait to fight."""
    if not s.warrior_deck or (s.phase != JOURNEY and not any(s.deployed)):
        return None
    return code(s.warrior_deck[-1])


def _battle(s: State) -> dict[str, Any]:
    return {
        "round": s.rounds,
        "deployed": [codes(d) for d in s.deployed],
        "fought_this_round": [codes(d) for d in s.spent],
        "wizard_deck": len(s.warrior_deck),
        "wizard_fought": codes(s.wizard_fought),
        "reshuffles": s.reshuffles,
    }
