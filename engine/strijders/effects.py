"""The effect-step language: what a catalog can say about a card's effect, so the referee runs it.

An effect is a list of steps, written as text (`"self +2; draw self 1"`) in JSON and CSV alike.
Steps compose left to right; anything the language cannot say is the `manual` step, where the
players enter the resulting scores. `who` is always seen from the card's owner: `self` or
`opponent`; a score step changes the round score of that player's laid card.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:
    from engine.strijders.table import Table

WHO: tuple[str, ...] = ("self", "opponent")
ALL = 0  # `look who all`: the whole deck

# op -> the arguments its text form takes after the op word (see README: the effect steps)
STEP_ARGS: dict[str, tuple[str, ...]] = {
    "add": ("who", "signed"),  # add self +2 (also written `self +2`)
    "set": ("who", "number"),  # set opponent 0
    "copy": ("who",),  # copy opponent: own score becomes the opponent's; copy self: the other way
    "swap": (),  # the two laid cards exchange scores
    "draw": ("who", "count"),  # that player draws from their own deck into their hand
    "discard": ("who", "count"),  # the top cards of that player's deck go to their discard pile
    "look": ("who", "count_or_all"),  # look at that deck's top cards; the deck is shuffled afterwards
    "shuffle": ("who",),
    "mimic": (),  # run the opponent's laid card's effect as one's own (never a superheld's)
    "manual": (),  # the players carry it out and enter both resulting scores
}
# steps that change or read the opponent's laid card, which a raadslid cannot do to a raadslid
CARD_OPS: frozenset[str] = frozenset({"copy", "swap"})
OPPONENT_CARD_OPS: frozenset[str] = frozenset({"add", "set"})
_SHORT_ADD = re.compile(r"^(self|opponent)\s+([+-]\d+)$")
_NUMBER = re.compile(r"^[+-]?\d+$")


class Step(NamedTuple):
    op: str
    who: str = ""
    n: int = 0


NO_EFFECT: tuple[Step, ...] = ()
MANUAL: tuple[Step, ...] = (Step("manual"),)


def parse_effect(value: object) -> tuple[Step, ...]:
    """Steps from `"a; b"` text or a list of step texts; `none` is an effect that does nothing."""
    if isinstance(value, str):
        texts = [t for t in (part.strip() for part in value.split(";")) if t]
    elif isinstance(value, list) and all(isinstance(t, str) for t in value):
        texts = [t.strip() for t in value]
    else:
        raise ValueError("an effect is step text ('self +2; draw self 1') or a list of step texts")
    if texts == ["none"]:
        return NO_EFFECT
    if not texts:
        raise ValueError("the effect is empty (write 'none' for a card without effect)")
    steps = []
    for i, text in enumerate(texts):
        try:
            steps.append(parse_step(text))
        except ValueError as exc:
            raise ValueError(f"step {i + 1} {text!r}: {exc}") from None
    return tuple(steps)


def parse_step(text: str) -> Step:
    short = _SHORT_ADD.match(text)
    if short:
        return Step("add", short[1], int(short[2]))
    op, *args = text.split()
    kinds = STEP_ARGS.get(op)
    if kinds is None:
        raise ValueError(f"unknown step {op!r}; known: {', '.join(STEP_ARGS)} (or 'self +N', 'opponent -N')")
    if len(args) != len(kinds):
        shape = " ".join([op, *(k.upper() for k in kinds)])
        raise ValueError(f"expected '{shape}'")
    who, n = "", 0
    for kind, arg in zip(kinds, args, strict=True):
        if kind == "who":
            if arg not in WHO:
                raise ValueError(f"{arg!r} is neither 'self' nor 'opponent'")
            who = arg
        else:
            n = _read_number(kind, arg)
    return Step(op, who, n)


def _read_number(kind: str, arg: str) -> int:
    if kind == "count_or_all" and arg == "all":
        return ALL
    if not _NUMBER.match(arg):
        raise ValueError(f"{arg!r} is not a whole number")
    n = int(arg)
    if kind in ("count", "count_or_all") and n < 1:
        raise ValueError(f"a count must be at least 1, got {n}")
    return n


def format_step(step: Step) -> str:
    if step.op == "add":
        return f"{step.who} {step.n:+d}"
    args = [step.who] if step.who else []
    kinds = STEP_ARGS[step.op]
    if len(kinds) == 2:
        args.append("all" if kinds[1] == "count_or_all" and step.n == ALL else str(step.n))
    return " ".join([step.op, *args])


def format_effect(steps: tuple[Step, ...]) -> str:
    return "; ".join(format_step(s) for s in steps) if steps else "none"


def touches_opponent_card(step: Step) -> bool:
    """Whether the step changes or reads the opponent's laid card (a raadslid cannot, on a raadslid)."""
    return step.op in CARD_OPS or (step.op in OPPONENT_CARD_OPS and step.who == "opponent")


def expand(steps: tuple[Step, ...], opponent_steps: tuple[Step, ...], opponent_superheld: bool) -> tuple[Step, ...]:
    """Replace `mimic` by the opponent card's steps and shuffle every deck looked at, after the effect."""
    out: list[Step] = []
    for step in steps:
        if step.op != "mimic":
            out.append(step)
        elif not opponent_superheld:
            out.extend(s for s in opponent_steps if s.op != "mimic")
    looked = dict.fromkeys(s.who for s in out if s.op == "look")
    return (*out, *(Step("shuffle", who) for who in looked))


# -- running a step on the table ------------------------------------------------------------------
def _target(step: Step, owner: int) -> int:
    return owner if step.who == "self" else 1 - owner


def _add(table: Table, step: Step, owner: int) -> None:
    table.scores[_target(step, owner)] += step.n


def _set(table: Table, step: Step, owner: int) -> None:
    table.scores[_target(step, owner)] = step.n


def _copy(table: Table, step: Step, owner: int) -> None:
    source = _target(step, owner)
    table.scores[1 - source] = table.scores[source]


def _swap(table: Table, step: Step, owner: int) -> None:
    table.scores.reverse()


def _draw(table: Table, step: Step, owner: int) -> None:
    table.draw(_target(step, owner), step.n)


def _discard(table: Table, step: Step, owner: int) -> None:
    player = _target(step, owner)
    deck, pile = table.decks[player], table.discards[player]
    for _ in range(min(step.n, len(deck))):
        pile.append(deck.pop())


def _look(table: Table, step: Step, owner: int) -> None:
    """Looking changes nothing; `expand` adds the shuffle that the rules require afterwards."""


def _shuffle(table: Table, step: Step, owner: int) -> None:
    table.shuffle(_target(step, owner))


RUNNERS: dict[str, Callable[[Table, Step, int], None]] = {
    "add": _add,
    "set": _set,
    "copy": _copy,
    "swap": _swap,
    "draw": _draw,
    "discard": _discard,
    "look": _look,
    "shuffle": _shuffle,
}


def run_step(table: Table, step: Step, owner: int) -> None:
    """Carry out one automatic step (`manual` and `mimic` never reach here)."""
    RUNNERS[step.op](table, step, owner)
