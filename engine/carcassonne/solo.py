"""The solo set-up: how many colours and meeples, the stacks, and where the score markers start."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from engine.carcassonne.tiles import TILES, shuffled_tiles
from engine.game import RecordError

COLOUR_CHOICES: tuple[int, ...] = (3, 4)  # the rules' three colours, or the option of a fourth
DEFAULT_COLOURS = 3
DEFAULT_MEEPLES = 4
MAX_MEEPLES = 20
MAX_STACK_TILES = 300  # keeps every position well inside the board's coordinate range
OPTIONS: dict[str, str] = {
    "colours": "3 (default) or 4: a fourth colour, stacks 18/18/18/17",
    "meeples": "meeples per colour, 1..20 (default 4)",
}


@dataclass(frozen=True, slots=True)
class SoloRules:
    colours: int = DEFAULT_COLOURS
    meeples: int = DEFAULT_MEEPLES


def read_options(options: dict[str, Any]) -> SoloRules:
    unknown = sorted(set(options) - set(OPTIONS))
    if unknown:
        known = "; ".join(f"{k}: {v}" for k, v in OPTIONS.items())
        raise RecordError(f"unknown option(s) {unknown}; known: {known}", "options")
    colours = options.get("colours", DEFAULT_COLOURS)
    if not isinstance(colours, int) or isinstance(colours, bool) or colours not in COLOUR_CHOICES:
        raise RecordError(f"must be one of {list(COLOUR_CHOICES)}, got {colours!r}", "options.colours")
    meeples = options.get("meeples", DEFAULT_MEEPLES)
    if not isinstance(meeples, int) or isinstance(meeples, bool) or not 1 <= meeples <= MAX_MEEPLES:
        raise RecordError(f"must be a whole number 1..{MAX_MEEPLES}, got {meeples!r}", "options.meeples")
    return SoloRules(colours=colours, meeples=meeples)


def stack_sizes(tiles: int, colours: int) -> list[int]:
    """One stack per colour, as even as can be, the larger first: 71 -> 24/24/23 or 18/18/18/17."""
    base, extra = divmod(tiles, colours)
    return [base + (i < extra) for i in range(colours)]


def deal(seed: int, colours: int) -> list[list[str]]:
    """The 71 shuffled tiles cut into the colours' stacks, each listed top first."""
    tiles = shuffled_tiles()
    random.Random(seed).shuffle(tiles)
    stacks, start = [], 0
    for size in stack_sizes(len(tiles), colours):
        stacks.append(tiles[start : start + size])
        start += size
    return stacks


def start_scores(colours: int) -> list[int]:
    """The score markers start on 1, 2, 3 (and 4) so that the colours are never all tied."""
    return list(range(1, colours + 1))


def read_setup(setup: dict[str, Any], colours: int) -> list[list[str]]:
    """The stacks (top first) from `{"seed": N}` or `{"stacks": [[letters], ...]}`."""
    unknown = sorted(set(setup) - {"seed", "stacks"})
    if unknown:
        raise RecordError(f"unknown field(s) {unknown}; give 'seed' or 'stacks'", "setup")
    if ("seed" in setup) == ("stacks" in setup):
        raise RecordError("give exactly one of 'seed' and 'stacks'", "setup")
    if "seed" in setup:
        seed = setup["seed"]
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise RecordError(f"must be a whole number, got {seed!r}", "setup.seed")
        return deal(seed, colours)
    return _read_stacks(setup["stacks"], colours)


def _read_stacks(raw: Any, colours: int) -> list[list[str]]:
    if not isinstance(raw, list) or len(raw) != colours:
        raise RecordError(f"must be a list of {colours} stacks, one per colour", "setup.stacks")
    stacks: list[list[str]] = []
    for i, stack in enumerate(raw):
        if not isinstance(stack, list):
            raise RecordError("must be a list of tile letters", f"setup.stacks[{i}]")
        letters = []
        for j, letter in enumerate(stack):
            if not isinstance(letter, str) or letter.upper() not in TILES:
                raise RecordError(f"no Carcassonne tile {letter!r}; letters are A..X", f"setup.stacks[{i}][{j}]")
            letters.append(letter.upper())
        stacks.append(letters)
    if sum(map(len, stacks)) > MAX_STACK_TILES:
        raise RecordError(f"at most {MAX_STACK_TILES} tiles in all", "setup.stacks")
    return stacks
