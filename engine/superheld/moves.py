"""The moves of a Superheld record and their JSON form (parse and format are inverses).

Heroes are numbered 1 and 2 in records and 0 and 1 inside the engine.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.superheld.deck import code, codes, parse
from engine.superheld.map import Rect, card_rect, grid_rect


@dataclass(frozen=True, slots=True)
class Place:
    """Map building: lay one card; `grid` keeps the record's (col, row) when it used the grid form."""

    card: int
    rect: Rect
    grid: tuple[int, int] | None = None
    orient: str = "portrait"


@dataclass(frozen=True, slots=True)
class Capital:
    card: int


@dataclass(frozen=True, slots=True)
class Start:
    cards: tuple[int, ...]  # one village of value 2 per hero


@dataclass(frozen=True, slots=True)
class Turn:
    """A normal turn: move (or stay), maybe take the card left, maybe buy, maybe trade."""

    go: int | None  # None: stay
    take: bool = False
    buy: bool = False
    trade: tuple[int, ...] = ()
    hero: int | None = None  # co-op: who plays (checked against the turn order)


@dataclass(frozen=True, slots=True)
class MonsterTurn:
    """Co-op: both heroes defeat a monster village together (parts per hero, in hero order)."""

    go: tuple[int, int]
    coins: tuple[int, int]
    buy: tuple[bool, bool] = (False, False)
    trade: tuple[tuple[int, ...], tuple[int, ...]] = ((), ())
    first: int = 0  # who buys and trades first
    next: int | None = None  # who plays the next normal turn (None: as if it were a normal turn of the one to move)


@dataclass(frozen=True, slots=True)
class Deploy:
    allies: tuple[tuple[int, ...], ...]  # per hero


@dataclass(frozen=True, slots=True)
class Fight:
    ally: int
    against: int | None = None  # the wizard's warrior seen on the table, when the record names it


@dataclass(frozen=True, slots=True)
class Give:
    cards: tuple[int, ...]
    to: int


Move = Place | Capital | Start | Turn | MonsterTurn | Deploy | Fight | Give

_KEYS: dict[str, set[str]] = {
    "place": {"place", "col", "row", "x", "y", "orient"},
    "capital": {"capital"},
    "start": {"start"},
    "go": {"go", "take", "buy", "trade", "hero"},
    "stay": {"stay", "take", "buy", "trade", "hero"},
    "monster": {"monster", "go", "coins", "buy", "trade", "first", "next"},
    "deploy": {"deploy"},
    "fight": {"fight", "against"},
    "give": {"give", "to"},
}


def parse_move(raw: Any) -> Move:
    if raw == "stay":
        return Turn(None)
    if not isinstance(raw, dict):
        raise ValueError("a Superheld move is a JSON object such as {\"go\": \"9H\", \"take\": true}")
    kinds = [k for k in _KEYS if k in raw]
    if kinds[:1] == ["go"] and "monster" in raw:
        kinds = ["monster"]
    if len(kinds) != 1:
        raise ValueError(f"a move names exactly one of {sorted(_KEYS)}, got {sorted(raw)}")
    kind = kinds[0]
    unknown = set(raw) - _KEYS[kind]
    if unknown:
        raise ValueError(f"unknown field(s) {sorted(unknown)} in a {kind!r} move")
    return _PARSERS[kind](raw)


def _number(raw: dict[str, Any], key: str, kind: type = int) -> Any:
    v = raw[key]
    if isinstance(v, bool) or not isinstance(v, (int, float) if kind is float else int):
        raise ValueError(f"{key} must be {'a number' if kind is float else 'an integer'}, got {v!r}")
    return v


def _flag(raw: dict[str, Any], key: str) -> bool:
    v = raw.get(key, False)
    if not isinstance(v, bool):
        raise ValueError(f"{key} must be true or false, got {v!r}")
    return v


def _hero(v: Any, key: str) -> int:
    if v not in (1, 2) or isinstance(v, bool):
        raise ValueError(f"{key} must be hero 1 or 2, got {v!r}")
    return v - 1


def _cards(v: Any, key: str) -> tuple[int, ...]:
    if not isinstance(v, list):
        raise ValueError(f"{key} must be a list of card codes, got {v!r}")
    cards = tuple(parse(c) for c in v)
    if len(set(cards)) != len(cards):
        raise ValueError(f"{key} names a card twice")
    return cards


def _pair(raw: dict[str, Any], key: str, default: Any) -> list[Any]:
    v = raw.get(key, default)
    if not isinstance(v, list) or len(v) != 2:
        raise ValueError(f"{key} must be a list of two entries, one per hero, got {v!r}")
    return v


def _parse_place(raw: dict[str, Any]) -> Place:
    card = parse(raw["place"])
    if "col" in raw or "row" in raw:
        if {"x", "y", "orient"} & set(raw):
            raise ValueError("give either col/row (grid form) or x/y/orient (mm), not both")
        col, row = _number(raw, "col"), _number(raw, "row")
        return Place(card, grid_rect(col, row), (col, row))
    orient = raw.get("orient", "portrait")
    return Place(card, card_rect(_number(raw, "x", float), _number(raw, "y", float), orient), None, orient)


def _parse_turn(raw: dict[str, Any]) -> Turn:
    if "stay" in raw:
        if raw["stay"] is not True:
            raise ValueError("stay must be true")
        go = None
    else:
        go = parse(raw["go"])
    hero = _hero(raw["hero"], "hero") if "hero" in raw else None
    return Turn(go, _flag(raw, "take"), _flag(raw, "buy"), _cards(raw.get("trade", []), "trade"), hero)


def _parse_monster(raw: dict[str, Any]) -> MonsterTurn:
    if raw["monster"] is not True:
        raise ValueError("monster must be true")
    go = tuple(parse(c) for c in _pair(raw, "go", None))
    coins = _pair(raw, "coins", None)
    if any(isinstance(c, bool) or not isinstance(c, int) for c in coins):
        raise ValueError(f"coins must be two integers, got {coins!r}")
    buy = _pair(raw, "buy", [False, False])
    if any(not isinstance(b, bool) for b in buy):
        raise ValueError(f"buy must be two booleans, got {buy!r}")
    trade = tuple(_cards(t, f"trade[{i}]") for i, t in enumerate(_pair(raw, "trade", [[], []])))
    first = _hero(raw.get("first", 1), "first")
    nxt = _hero(raw["next"], "next") if "next" in raw else None
    return MonsterTurn((go[0], go[1]), (coins[0], coins[1]), (buy[0], buy[1]), (trade[0], trade[1]), first, nxt)


def _parse_deploy(raw: dict[str, Any]) -> Deploy:
    allies = raw["deploy"]
    if isinstance(allies, list) and allies and all(isinstance(a, list) for a in allies):
        return Deploy(tuple(_cards(a, f"deploy[{i}]") for i, a in enumerate(allies)))
    return Deploy((_cards(allies, "deploy"),))


def _parse_give(raw: dict[str, Any]) -> Give:
    if "to" not in raw:
        raise ValueError("a give move names the receiving hero: {\"give\": [...], \"to\": 2}")
    return Give(_cards(raw["give"], "give"), _hero(raw["to"], "to"))


def _parse_fight(raw: dict[str, Any]) -> Fight:
    return Fight(parse(raw["fight"]), parse(raw["against"]) if "against" in raw else None)


_PARSERS = {
    "place": _parse_place,
    "capital": lambda raw: Capital(parse(raw["capital"])),
    "start": lambda raw: Start(tuple(parse(c) for c in raw["start"]) if isinstance(raw["start"], list)
                               else (parse(raw["start"]),)),
    "go": _parse_turn,
    "stay": _parse_turn,
    "monster": _parse_monster,
    "deploy": _parse_deploy,
    "fight": _parse_fight,
    "give": _parse_give,
}


def format_move(move: Move, heroes: int) -> dict[str, Any]:
    """The record form; `heroes` (1 or 2) picks the solo or co-op shape of start and deploy."""
    match move:
        case Place(card, rect, grid, orient):
            if grid is not None:
                return {"place": code(card), "col": grid[0], "row": grid[1]}
            return {"place": code(card), "x": rect.x, "y": rect.y, "orient": orient}
        case Capital(card):
            return {"capital": code(card)}
        case Start(cards):
            return {"start": codes(cards) if heroes > 1 else code(cards[0])}
        case Turn(go, take, buy, trade, hero):
            out: dict[str, Any] = {"stay": True} if go is None else {"go": code(go)}
            out |= {k: True for k, v in (("take", take), ("buy", buy)) if v}
            if trade:
                out["trade"] = codes(trade)
            if hero is not None:
                out["hero"] = hero + 1
            return out
        case MonsterTurn(go, coins, buy, trade, first, nxt):
            out = {"monster": True, "go": codes(go), "coins": list(coins), "buy": list(buy),
                   "trade": [codes(t) for t in trade], "first": first + 1}
            if nxt is not None:
                out["next"] = nxt + 1
            return out
        case Deploy(allies):
            return {"deploy": [codes(a) for a in allies] if heroes > 1 else codes(allies[0])}
        case Fight(ally, against):
            return {"fight": code(ally)} | ({"against": code(against)} if against is not None else {})
        case Give(cards, to):
            return {"give": codes(cards), "to": to + 1}
    raise TypeError(f"not a Superheld move: {move!r}")
