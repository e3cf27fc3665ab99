"""The referee: which move (or short sequence) explains what the camera now sees.

The search runs the engine itself: every legal sequence up to `max_depth` moves is pushed and popped on
the live game, and the table model says whether the state it reaches looks like the observation. When
no legal sequence does, a single illegal move that would produce the table names the violation; when
nothing does, the observation is a probable misread and the player decides.

A table whose moves hide what they play (a face-down tile, seen only once laid) names, with `drawn`,
the reveals the view implies before any move; the search then runs on the game as those reveals make
it, and every verdict carries them. A table whose moves lie on the view (`moves_in_view`) reads the
moves to try as violations off the view.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from typing import Any

from companion.live_game import LiveGame
from engine.game import PLAYING, Game
from engine.match import Match

SUGGESTIONS = 4
EARLIER_MISREAD = 3  # cards by which a misread view may differ from the state it is taken for (`distance`): one card
# read as another (a 9S as 9C: 2) and one too many or lost (1); a view of the table three moves on differed by 4


@dataclass
class Verdict:
    kind: str  # same | moves | violation | ambiguous | misread
    moves: list[str] = field(default_factory=list)
    reveals: list[tuple[str, str]] = field(default_factory=list)
    options: list[dict[str, Any]] = field(default_factory=list)  # ambiguous alternatives or misread guesses
    rule: str = ""
    message: str = ""


def explain(live: LiveGame, view: Any, confirmed: frozenset[str], max_depth: int = 2,
            earlier: Any = None) -> Verdict:
    """What explains `view`; `earlier` is the view still awaiting the player (a probable misread), if any.

    A misread view may still have shown the room rightly (a deal read with a card too many on the weapon): the new
    view is first tried after the moves and the deal that room implies (`_after_earlier`), so a card dealt and moved
    on since is neither lost to the referee nor taken for one not laid yet. A room read wrong leaves a card the new
    view does not show, or finds no place for one it does, and the view is then explained as the game stands.
    """
    if earlier is not None and getattr(live.table, "room_reveals", None) is not None:
        verdict = _after_earlier(live, view, earlier, confirmed, max_depth)
        if verdict is not None:
            return verdict
    return _explain(live, view, confirmed, max_depth)


def _after_earlier(live: LiveGame, view: Any, earlier: Any, confirmed: frozenset[str],
                   max_depth: int) -> Verdict | None:
    """What explains `view` passing through the room of `earlier`, read as it was or with one card left out (a card
    read where none lies, `room_readings`): the fewest moves after which that room is one the game may hold
    (`room_reveals`: the cards it deals) with the rest of the view a few misread cards off at most (EARLIER_MISREAD),
    those cards known to lie there, then what explains `view`. Where several do (a monster fought with the weapon
    or bare, then the weapon replaced) the player is asked; None where none does."""
    assert live.table is not None
    for reading, left_out in live.table.room_readings(earlier):
        for depth in range(max_depth + 1):
            found = _through(live, view, reading, left_out, confirmed, depth, max_depth)
            if len(found) == 1:
                return found[0]
            if found:
                options = [{"moves": v.moves, "reveals": v.reveals} for v in found]
                return Verdict("ambiguous", options=options, message=f"{len(found)} move sequences explain the table")
    return None


def _through(live: LiveGame, view: Any, reading: Any, left_out: int, confirmed: frozenset[str], depth: int,
             max_depth: int) -> list[Verdict]:
    """The explanations of `view` after `depth` moves that lead to the room of `reading` (see `_after_earlier`)."""
    table, game = live.table, live.match.game
    assert table is not None
    found: dict[tuple[Any, ...], Verdict] = {}
    for moves, pairs, still in _fits(game, table, confirmed, depth, lambda g, c: table.room_reveals(g, reading, c)):
        still = still | table.confirmed(reading)
        ghost = _revealed(live, pairs, moves)
        if ghost.table.distance(ghost.match.game, reading) + left_out > EARLIER_MISREAD:
            continue  # the rest of that view was another table, not this one misread
        later = _explain(ghost, view, still, max_depth)
        if later.kind in ("same", "moves", "violation"):
            kind = "moves" if later.kind == "same" and moves else later.kind
            ways = [Verdict(kind, moves + later.moves, pairs + later.reveals, rule=later.rule, message=later.message)]
        elif later.kind == "ambiguous":
            ways = [Verdict("moves", moves + o["moves"], pairs + o["reveals"]) for o in later.options]
        else:
            ways = []
        for way in ways:
            found.setdefault((tuple(way.moves), tuple(map(tuple, way.reveals))), way)
    return list(found.values())


def retraction(live: LiveGame, view: Any, last: list[str], max_depth: int = 2) -> Verdict | None:
    """What explains `view` in place of `last`, the moves the camera's previous view was taken for, where no move
    after them does and the view shows a card they took out of sight (`shown`): a monster taken for fought bare, as
    the still lost it from the weapon, lies on the weapon after all. A view that only loses a card is no such
    evidence: a still may lose any card. Only legal moves take their place: a violation named so would rest on two
    stills read wrong (the demo through a worse camera then took misread stills for a monster fought on a blunted
    weapon). None where nothing else explains it (or the table shows no cards)."""
    table = live.table
    moves = live.match.record.moves
    if not last or table is None or getattr(table, "shown", None) is None or moves[-len(last):] != last:
        return None
    before = _detached(live)
    record = live.record()
    before.match = Match.replay(replace(record, moves=record.moves[:-len(last)]))
    if not (table.shown(before.match.game) - table.shown(live.match.game)) & set(view.cards()):
        return None
    verdict = _explain(before, view, frozenset(), max_depth)
    if verdict.kind not in ("same", "moves") or verdict.moves[:len(last)] == last:
        return None
    return verdict


def _explain(live: LiveGame, view: Any, confirmed: frozenset[str], max_depth: int) -> Verdict:
    live, drawn = _with_drawn(live, view)
    table, game = live.table, live.match.game
    assert table is not None
    for depth in range(max_depth + 1):
        found = [{"moves": moves, "reveals": drawn + reveals}
                 for moves, reveals, _ in _fits(game, table, confirmed, depth,
                                                lambda g, still: table.fit(g, view, still))]
        if len(found) == 1:
            only = found[0]
            return Verdict("moves" if depth else "same", only["moves"], only["reveals"])
        if found:
            return Verdict("ambiguous", options=found, message=f"{len(found)} move sequences explain the table")
    violation = _violation(game, table, view, confirmed)
    if violation is not None:
        violation.reveals = drawn
        return violation
    guesses = [{**g, "reveals": drawn} for g in _guesses(game, table, view)]
    return Verdict("misread", options=guesses, message="no move explains what the camera sees")


def _with_drawn(live: LiveGame, view: Any) -> tuple[LiveGame, list[tuple[str, str]]]:
    """The game as the reveals the view implies before any move make it (a copy), and those reveals."""
    drawn = getattr(live.table, "drawn", None)
    pairs = drawn(live.match.game, view) if drawn is not None else []
    if not pairs:
        return live, []
    return _revealed(live, pairs), pairs


def _revealed(live: LiveGame, pairs: list[tuple[str, str]], moves: list[str] | None = None) -> LiveGame:
    """A copy of the game with those reveals made and then those moves played; the live one is untouched."""
    ghost = _detached(live)
    ghost.reveal(pairs)  # replays into a new match where there are reveals
    if moves:
        if ghost.match is live.match:
            ghost.match = Match.replay(ghost.record())
        for raw in moves:
            ghost.match.play(raw)
    return ghost


def _detached(live: LiveGame) -> LiveGame:
    """A copy of the game sharing its match until one is replayed, with a table of its own to reveal cards on."""
    ghost = copy.copy(live)
    ghost.table = copy.deepcopy(live.table)
    return ghost


def _fits(game: Game, table: Any, confirmed: frozenset[str], depth: int,
          fit: Callable[[Game, frozenset[str]], Any]) -> list[tuple[list[str], Any, frozenset[str]]]:
    """(moves, reveals, the room cards still known to lie there) for each legal sequence of `depth` moves after
    which `fit(game, those cards)` gives the reveals (None: no fit)."""
    out = []
    for moves in _sequences(game, table, depth):
        still = confirmed
        for raw in moves:
            still = table.after_move(still, raw)
        reveals = fit(game, still)
        if reveals is not None:
            out.append((moves, reveals, still))
    return out


def _sequences(game: Game, table: Any, depth: int) -> Iterator[list[str]]:
    """Each legal sequence of `depth` moves of seen cards, with the game in the state after it while yielded."""
    if depth == 0:
        yield []
        return
    if game.status != PLAYING:
        return
    for move in game.legal_moves():
        raw = game.format_move(move)
        if not table.observable(raw):
            continue
        game.push(move)
        try:
            for rest in _sequences(game, table, depth - 1):
                yield [raw, *rest]
        finally:
            game.pop()


def _violation(game: Game, table: Any, view: Any, confirmed: frozenset[str]) -> Verdict | None:
    if game.status != PLAYING:
        return None
    in_view = getattr(table, "moves_in_view", False)
    tries = table.wellformed_moves(game, view) if in_view else table.wellformed_moves(game)
    for raw in tries:
        move = game.parse_move(raw)
        problem = game.check(move)
        if problem is None:
            continue
        ghost = table.imagine(game, move)  # what the table would look like had the rules allowed it
        if table.fit(ghost, view, table.after_move(confirmed, raw)) is not None:
            return Verdict("violation", [raw], rule=problem.rule, message=problem.message)
    return None


def _guesses(game: Game, table: Any, view: Any) -> list[dict[str, Any]]:
    """The legal single moves whose table is closest to the observation, for the player to confirm."""
    scored = []
    for moves in _sequences(game, table, 1):
        scored.append((table.distance(game, view), moves))
    scored.sort(key=lambda item: item[0])
    return [{"moves": moves, "reveals": [], "distance": d} for d, moves in scored[:SUGGESTIONS]]
