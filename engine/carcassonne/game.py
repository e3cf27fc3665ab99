"""Carcassonne solo (Hans im Glück 2020): three colours take turns, only the lowest colour scores.

A move lays the drawn tile and names where the colour's meeple goes; the engine scores what the
tile completes (in the player's order, else the best one), draws the next tile, discards tiles
that fit nowhere, and at the end scores the meeples still on the board. Undo replays the game
from its setup: a push then costs nothing and the state never needs copying.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.carcassonne import goals as goal_table
from engine.carcassonne.board import (
    DELTA,
    MAX_COORD,
    MONASTERY,
    Board,
    Oriented,
    oriented,
    pos_of,
    xy_of,
)
from engine.carcassonne.features import FeatureGraph, Plan
from engine.carcassonne.moves import Move, Ref, format_move, parse_move
from engine.carcassonne.scoring import (
    FINAL_POINTS_PER_MEEPLE,
    Unit,
    award,
    best_orders,
    feature_points,
    majority,
    order_value,
)
from engine.carcassonne.solo import read_options, read_setup, start_scores
from engine.carcassonne.tiles import DIRECTIONS, START_TILE
from engine.game import FINISHED, PLAYING, Game, IllegalMove

KIND_NAMES = {"C": "city", "R": "road", "F": "field"}
START_POS = pos_of(0, 0)
NEW_MEEPLE = -1  # stands for the meeple a move is placing, before it has an id
END_NO_MEEPLE, END_TILES_OUT = "no-meeple", "tiles-out"


@dataclass(frozen=True, slots=True)
class Meeple:
    colour: int
    pos: int
    part: int  # index of the tile's part it stands on (len(parts) = the monastery)


@dataclass(frozen=True, slots=True)
class Pending:
    """A feature the planned tile completes that holds meeples, so it will be scored."""

    kind: str
    at: tuple[int, int]  # (pos, part) of one of its parts
    tiles: int
    shields: int
    meeples: tuple[int, ...]  # ids, NEW_MEEPLE for the one being placed
    colours: tuple[int, ...]
    group: int  # index in the plan's groups, -1 for a monastery

    @property
    def unit(self) -> Unit:
        return Unit(feature_points(self.kind, self.tiles, self.shields), majority(self.colours))


@dataclass(slots=True)
class Turn:
    """Everything a legal move will do, worked out before anything changes."""

    plan: Plan
    part: int | None
    owed: bool
    pending: list[Pending]
    order1: list[int]  # the player's prefix of completions
    order2: list[int]  # the player's prefix of final meeple scorings


class Carcassonne(Game):
    name = "carcassonne"

    def __init__(self, setup: dict[str, Any], options: dict[str, Any]) -> None:
        super().__init__(setup, options)
        self.rules = read_options(options)
        self.initial_stacks = read_setup(setup, self.rules.colours)
        self._reset()

    def _reset(self) -> None:
        n = self.rules.colours
        self.board = Board()
        self.graph = FeatureGraph()
        start = oriented(START_TILE, 0)
        self.graph.commit(self.graph.plan(START_POS, start))
        self.board.place(START_POS, start)
        self.stacks: list[list[str]] = [stack[::-1] for stack in self.initial_stacks]  # top last
        self.colour = 0
        self.scores = start_scores(n)
        self.supply = [self.rules.meeples] * n
        self.meeples: dict[int, Meeple] = {}
        self._meeple_ids = 0
        self.scorings: list[dict[str, Any]] = []
        self.goals: dict[str, int] = {}
        self.monasteries_scored = 0
        self.discarded: list[tuple[str, int]] = []
        self.end: str | None = None
        self.turn = 0
        self.history: list[Move] = []
        self._warnings: list[str] = []
        if not self._draw():
            self._finish(END_TILES_OUT, [])

    # -- record boundary ----------------------------------------------------------------------
    def parse_move(self, raw: Any) -> Move:
        return parse_move(raw)

    def format_move(self, move: Move) -> dict[str, Any]:
        return format_move(move)

    # -- rules --------------------------------------------------------------------------------
    @property
    def tile(self) -> str | None:
        """The tile the current colour has drawn, None once the game is over."""
        return None if self.end else self.stacks[self.colour][-1]

    def legal_moves(self) -> list[Move]:
        if self.end:
            return []
        letter = self.tile
        assert letter is not None
        moves = []
        for pos, rotation in self.board.placements(letter):
            tile = oriented(letter, rotation)
            x, y = xy_of(pos)
            free = self.graph.plan(pos, tile).free_parts() if self.supply[self.colour] else []
            spots = [tile.spot_of(part) for part in free] or [None]
            moves.extend(Move(letter, x, y, rotation, spot) for spot in spots)
        return moves

    def check(self, move: Move) -> IllegalMove | None:
        try:
            self._turn(move)
        except IllegalMove as problem:
            return problem
        return None

    def _turn(self, move: Move) -> Turn:
        """Work out what a move does; raises IllegalMove naming the first rule it breaks."""
        if self.end:
            raise IllegalMove("game-over", f"the game is already {self.status}")
        letter = self.tile
        if move.tile != letter:
            raise IllegalMove("wrong-tile", f"colour {self.colour + 1} has drawn {letter}, not {move.tile}")
        tile = oriented(move.tile, move.rot)
        pos = self._position(move)
        plan = self.graph.plan(pos, tile)
        part = self._meeple_part(move, plan)
        owed = bool(plan.free_parts())
        pending = self._pending(plan, part)
        order1, order2 = self._order(move, plan, part, owed, pending)
        return Turn(plan, part, owed, pending, order1, order2)

    def _position(self, move: Move) -> int:
        where = f"({move.x}, {move.y})"
        if max(abs(move.x), abs(move.y)) > MAX_COORD:
            raise IllegalMove("not-adjacent", f"{where} touches no laid tile")
        pos = pos_of(move.x, move.y)
        if pos in self.board.tiles:
            raise IllegalMove("occupied", f"a tile already lies at {where}")
        if pos not in self.board.frontier:
            raise IllegalMove("not-adjacent", f"{where} touches no laid tile along an edge")
        tile = oriented(move.tile, move.rot)
        side = self.board.mismatch(pos, tile)
        if side is not None:
            theirs = self.board.tiles[pos + DELTA[side]].edges[(side + 2) % 4]
            raise IllegalMove(
                "edges-mismatch",
                f"{move.tile} at {move.rot}° puts a {KIND_NAMES[tile.edges[side]]} on its {DIRECTIONS[side]} edge "
                f"against a {KIND_NAMES[theirs]}",
            )
        return pos

    def _meeple_part(self, move: Move, plan: Plan) -> int | None:
        colour, tile = self.colour, plan.tile
        free = plan.free_parts()
        if move.meeple is None:
            if free and self.supply[colour]:
                spots = ", ".join(tile.spot_of(p) for p in free)
                raise IllegalMove("meeple-owed", f"colour {colour + 1} must place a meeple on a free feature ({spots})")
            return None
        part = tile.part_at(move.meeple)
        if part < 0:
            what = "has no monastery" if move.meeple == MONASTERY else f"has a field on its {move.meeple} edge"
            raise IllegalMove("no-feature", f"{move.tile} at {move.rot}° {what}; meeples never go on fields")
        if not self.supply[colour]:
            raise IllegalMove("no-meeple-left", f"colour {colour + 1} has no meeple left")
        if part not in free:
            raise IllegalMove("feature-taken", f"the feature at {move.meeple} already holds a meeple")
        return part

    def _pending(self, plan: Plan, part: int | None) -> list[Pending]:
        colour, tile = self.colour, plan.tile
        out = []
        for gi, group in enumerate(plan.groups):
            ids = group.meeples
            if part is not None and part < len(tile.parts) and plan.group_of[part] == gi:
                ids += (NEW_MEEPLE,)
            if group.open or not ids:
                continue
            at = (plan.pos, group.parts[0])
            out.append(Pending(group.kind, at, len(group.tiles), group.shields, ids, self._colours(ids), gi))
        for mpos in plan.monasteries_done:
            ids = self.graph.meeples[self.graph.part_nodes[mpos][-1]]
            if ids:
                at = (mpos, len(self.board.tiles[mpos].parts))
                out.append(Pending(MONASTERY, at, 9, 0, ids, self._colours(ids), -1))
        if plan.own_monastery_done and part == len(tile.parts):
            out.append(Pending(MONASTERY, (plan.pos, part), 9, 0, (NEW_MEEPLE,), (colour,), -1))
        return out

    def _colours(self, ids: tuple[int, ...]) -> tuple[int, ...]:
        return tuple(self.colour if m == NEW_MEEPLE else self.meeples[m].colour for m in ids)

    def _order(
        self, move: Move, plan: Plan, part: int | None, owed: bool, pending: list[Pending]
    ) -> tuple[list[int], list[int]]:
        """The player's `order` as prefixes of the completions and of the final meeple scorings."""
        if not move.order:
            return [], []
        first: list[int] = []
        then: list[int] = []
        finals: list[int] | None = None
        for ref in move.order:
            target = self._ref_part(ref, plan)
            hit = next((i for i, p in enumerate(pending) if target and self._names(target, p, plan)), None)
            if hit is not None:
                chosen = first
            else:
                if finals is None:
                    finals = self._final_meeples(plan, part, pending) if self._ends(plan, part, owed) else []
                hit = next((i for i, m in enumerate(finals) if target and self._stands(m, target, plan, part)), None)
                chosen = then
            if hit is None:
                raise IllegalMove("bad-order", f"{list(ref)} names no feature this move scores")
            if hit in chosen:
                raise IllegalMove("bad-order", f"{list(ref)} names a scoring already in the order")
            chosen.append(hit)
        return first, then

    def _ref_part(self, ref: Ref, plan: Plan) -> tuple[int, int] | None:
        x, y, spot = ref
        if max(abs(x), abs(y)) > MAX_COORD:
            return None
        pos = pos_of(x, y)
        tile = plan.tile if pos == plan.pos else self.board.tiles.get(pos)
        part = tile.part_at(spot) if tile else -1
        return (pos, part) if part >= 0 else None

    def _names(self, target: tuple[int, int], pending: Pending, plan: Plan) -> bool:
        pos, part = target
        if pending.group < 0:
            return target == pending.at
        group = plan.groups[pending.group]
        if pos == plan.pos:
            return part in group.parts
        nodes = self.graph.part_nodes[pos]
        return part < len(nodes) and self.graph.find(nodes[part]) in group.roots

    def _stands(self, meeple: int, target: tuple[int, int], plan: Plan, part: int | None) -> bool:
        if meeple == NEW_MEEPLE:
            return target == (plan.pos, part)
        m = self.meeples[meeple]
        return target == (m.pos, m.part)

    def _final_meeples(self, plan: Plan, part: int | None, pending: list[Pending]) -> list[int]:
        """Meeples still on the board once this move's completions are scored (the new one as NEW_MEEPLE)."""
        scored = {m for p in pending for m in p.meeples}
        ids = [*self.meeples, *([NEW_MEEPLE] if part is not None else [])]
        return [m for m in ids if m not in scored]

    def _ends(self, plan: Plan, part: int | None, owed: bool) -> bool:
        if part is None and owed:
            return True
        board = self.board.copy()
        board.place(plan.pos, plan.tile)
        left = [t for i, stack in enumerate(self.stacks) for t in (stack[:-1] if i == self.colour else stack)]
        return not any(board.can_place(t) for t in set(left))

    # -- applying -----------------------------------------------------------------------------
    def _apply(self, move: Move) -> None:
        self.history.append(move)
        self._play(self._turn(move), move)

    def _play(self, turn: Turn, move: Move | None = None) -> None:
        plan, part, colour = turn.plan, turn.part, self.colour
        nodes = self.graph.commit(plan)
        self.board.place(plan.pos, plan.tile)
        self.stacks[colour].pop()
        self.turn += 1
        new_id = NEW_MEEPLE
        if part is not None:
            new_id = self._meeple_ids
            self._meeple_ids += 1
            self.meeples[new_id] = Meeple(colour, plan.pos, part)
            self.graph.add_meeple(nodes[part], new_id)
            self.supply[colour] -= 1
        end = END_NO_MEEPLE if part is None and turn.owed else None
        self.colour = (colour + 1) % len(self.stacks)
        if end is None and not self._draw():
            end = END_TILES_OUT
        pending = [_with_id(p, new_id) for p in turn.pending]
        units = [p.unit for p in pending]
        finals = self._final_units(pending) if end else None
        if len(units) > 1 or finals:
            then = None if finals is None else [u for _, u in finals]
            order1, order2 = best_orders(self.scores, units, then, turn.order1, turn.order2)
            if turn.order1 or turn.order2:
                self._warn_order(units, then, (order1, order2), best_orders(self.scores, units, then))
        else:
            order1, order2 = list(range(len(units))), []
        for i in order1:
            self._score_feature(pending[i], units[i])
        if end:
            self._finish(end, [finals[i] for i in order2] if finals else [])

    def _draw(self) -> bool:
        """Bring up the next tile that fits somewhere, discarding the others; False when none is left."""
        n = len(self.stacks)
        while True:
            colour = next(((self.colour + k) % n for k in range(n) if self.stacks[(self.colour + k) % n]), None)
            if colour is None:
                return False
            self.colour = colour
            letter = self.stacks[colour][-1]
            if self.board.can_place(letter):
                return True
            self.discarded.append((self.stacks[colour].pop(), colour))

    def _final_units(self, pending: list[Pending]) -> list[tuple[int, Unit]]:
        scored = {m for p in pending for m in p.meeples}
        return [
            (m, Unit(FINAL_POINTS_PER_MEEPLE, (meeple.colour,)))
            for m, meeple in self.meeples.items()
            if m not in scored
        ]

    def _score_feature(self, pending: Pending, unit: Unit) -> None:
        receivers = award(self.scores, unit)
        for m in pending.meeples:
            self.supply[self.meeples.pop(m).colour] += 1
        self.graph.clear_meeples(self.graph.node_at(*pending.at))
        self._record(
            pending.kind,
            pending.at,
            unit,
            receivers,
            tiles=pending.tiles,
            shields=pending.shields,
            meeples=sorted(c + 1 for c in pending.colours),
        )
        if receivers:
            met = goal_table.feature_goals(pending.kind, unit.points, len(receivers))
            if pending.kind == MONASTERY:
                self.monasteries_scored += 1
                met += goal_table.monastery_goals(self.monasteries_scored)
            self._meet(met)

    def _finish(self, end: str, finals: list[tuple[int, Unit]]) -> None:
        """The end: each meeple left on the board, in order, pays 2 to its colour if that one is lowest."""
        self.end = end
        for m, unit in finals:
            meeple = self.meeples[m]
            receivers = award(self.scores, unit)
            self._record("final", (meeple.pos, meeple.part), unit, receivers, meeples=[meeple.colour + 1])
            self._meet([])
        if not self.discarded and not any(self.stacks):
            self._meet([goal_table.ALL_TILES])

    def _record(self, kind: str, at: tuple[int, int], unit: Unit, receivers: tuple[int, ...], **extra: Any) -> None:
        pos, part = at
        x, y = xy_of(pos)
        entry: dict[str, Any] = {"turn": self.turn, "kind": kind, "at": [x, y, self.board.tiles[pos].spot_of(part)]}
        entry.update(extra)
        entry.update(points=unit.points, majority=[c + 1 for c in unit.colours], to=[c + 1 for c in receivers])
        self.scorings.append(entry)

    def _meet(self, met: list[str]) -> None:
        for goal in [*met, *goal_table.total_goals(self.scores)]:
            self.goals.setdefault(goal, self.turn)

    def _warn_order(
        self,
        units: list[Unit],
        then: list[Unit] | None,
        chosen: tuple[list[int], list[int]],
        best: tuple[list[int], list[int]],
    ) -> None:
        got = order_value(self.scores, units, chosen[0], then, chosen[1])
        could = order_value(self.scores, units, best[0], then, best[1])
        if got < could:
            self._warnings.append(
                f"turn {self.turn}: the order given leaves the lowest score at {got[0]} "
                f"(scores {sorted(got)}); the best order leaves {could[0]} ({sorted(could)})"
            )

    # -- undo -----------------------------------------------------------------------------------
    def _snapshot(self) -> int:
        return len(self.history)

    def _restore(self, snapshot: int) -> None:
        moves = self.history[:snapshot]
        self._reset()
        for move in moves:
            self._apply(move)

    # -- outcome --------------------------------------------------------------------------------
    @property
    def status(self) -> str:
        return FINISHED if self.end else PLAYING

    @property
    def score(self) -> int | None:
        return min(self.scores) if self.end else None

    def best_order(self, move: Move) -> list[list[Any]]:
        """The order of scorings the engine would choose for `move` (refs, as a record's `order`)."""
        turn = self._turn(move._replace(order=None))
        plan, part = turn.plan, turn.part
        units = [p.unit for p in turn.pending]
        ends = self._ends(plan, part, turn.owed)
        finals = self._final_meeples(plan, part, turn.pending) if ends else []
        then = [Unit(FINAL_POINTS_PER_MEEPLE, (self._colours((m,))[0],)) for m in finals] if ends else None
        order1, order2 = best_orders(self.scores, units, then)
        refs = [self._ref(plan, turn.pending[i].at) for i in order1]
        for i in order2:
            m = finals[i]
            refs.append(self._ref(plan, (plan.pos, part) if m == NEW_MEEPLE else self._meeple_at(m)))
        return refs

    def _meeple_at(self, m: int) -> tuple[int, int]:
        return self.meeples[m].pos, self.meeples[m].part

    def _ref(self, plan: Plan, at: tuple[int, int | None]) -> list[Any]:
        pos, part = at
        tile: Oriented = plan.tile if pos == plan.pos else self.board.tiles[pos]
        x, y = xy_of(pos)
        return [x, y, tile.spot_of(part if part is not None else 0)]

    def state(self) -> dict[str, Any]:
        return {
            "scores": list(self.scores),
            "meeples_left": list(self.supply),
            "result": min(self.scores),
            "goals": [{"goal": goal, "turn": turn} for goal, turn in self.goals.items()],
            "scorings": list(self.scorings),
            "colour": None if self.end else self.colour + 1,
            "tile": self.tile,
            "end": self.end,
            "stacks_left": [len(stack) for stack in self.stacks],
            "discarded": [{"tile": t, "colour": c + 1} for t, c in self.discarded],
            "tiles_placed": len(self.board.order),
            "board": [self._laid(pos) for pos in self.board.order],
            "meeples": [self._meeple_json(m) for m in self.meeples.values()],
        }

    def _laid(self, pos: int) -> dict[str, Any]:
        x, y = xy_of(pos)
        tile = self.board.tiles[pos]
        return {"x": x, "y": y, "tile": tile.letter, "rot": tile.rotation}

    def _meeple_json(self, meeple: Meeple) -> dict[str, Any]:
        x, y = xy_of(meeple.pos)
        return {"colour": meeple.colour + 1, "x": x, "y": y, "spot": self.board.tiles[meeple.pos].spot_of(meeple.part)}

    def warnings(self) -> list[str]:
        return list(self._warnings)


def _with_id(pending: Pending, new_id: int) -> Pending:
    if NEW_MEEPLE not in pending.meeples:
        return pending
    ids = tuple(new_id if m == NEW_MEEPLE else m for m in pending.meeples)
    return Pending(pending.kind, pending.at, pending.tiles, pending.shields, ids, pending.colours, pending.group)
