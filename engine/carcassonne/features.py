"""Roads, cities and monasteries as they grow: a union-find over the parts of the laid tiles.

Every road or city part of a laid tile is a node; a feature is a set of nodes under one root, and
the root carries what the rules ask about it: open edges (0 = complete), tiles, shields, meeples.
A tile is first *planned* (which features it would join, what they would become) without touching
the graph, then committed; `check` and `push` therefore read the very same computation.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.carcassonne.board import DELTA, MONASTERY, NEIGHBOURS8, Oriented, opposite


@dataclass(slots=True)
class Group:
    """One feature as it would be once the planned tile lies: new parts plus the features they join."""

    kind: str
    parts: list[int]  # indices into the new tile's parts
    roots: list[int]  # roots of the existing features joined
    open: int
    tiles: frozenset[int]
    shields: int
    meeples: tuple[int, ...]  # meeple ids already on the joined features


@dataclass(slots=True)
class Plan:
    pos: int
    tile: Oriented
    groups: list[Group]
    group_of: list[int]  # new part index -> index in groups
    monasteries_done: list[int]  # positions of laid monasteries this tile surrounds completely
    own_neighbours: int  # tiles around the new tile (counts for its own monastery)

    def free_parts(self) -> list[int]:
        """Parts of the new tile a meeple may take: its monastery, and parts on meeple-free features."""
        free = [i for i, g in enumerate(self.group_of) if not self.groups[g].meeples]
        if self.tile.monastery:
            free.append(len(self.tile.parts))
        return free

    @property
    def own_monastery_done(self) -> bool:
        return self.tile.monastery and self.own_neighbours == 8


class FeatureGraph:
    def __init__(self) -> None:
        self.parent: list[int] = []
        self.kind: list[str] = []
        self.open: list[int] = []
        self.tiles: list[frozenset[int]] = []
        self.shields: list[int] = []
        self.meeples: list[tuple[int, ...]] = []
        self.part_nodes: dict[int, tuple[int, ...]] = {}  # pos -> node per part, the monastery last
        self.edge_nodes: dict[int, tuple[int, int, int, int]] = {}  # pos -> node at each side, -1 = field
        self.monastery_neighbours: dict[int, int] = {}  # monastery pos -> tiles around it (8 = complete)

    def find(self, node: int) -> int:
        parent = self.parent
        while parent[node] != node:
            parent[node] = parent[parent[node]]
            node = parent[node]
        return node

    def node_at(self, pos: int, part: int) -> int:
        return self.part_nodes[pos][part]

    # -- planning -----------------------------------------------------------------------------
    def plan(self, pos: int, tile: Oriented) -> Plan:
        parts = tile.parts
        joined: list[list[int]] = [[] for _ in parts]
        matched = [0] * len(parts)
        edge_nodes = self.edge_nodes
        for d in range(4):
            i = tile.edge_part[d]
            if i < 0:
                continue
            across = edge_nodes.get(pos + DELTA[d])
            if across is None:
                continue
            matched[i] += 1
            root = self.find(across[opposite(d)])
            if root not in joined[i]:
                joined[i].append(root)
        groups: list[Group] = []
        group_of = [0] * len(parts)
        for members, roots in _clusters(joined):
            group_of_members = len(groups)
            for i in members:
                group_of[i] = group_of_members
            groups.append(self._group(pos, tile, members, roots, matched))
        around = [pos + off for off in NEIGHBOURS8]
        neighbours = self.monastery_neighbours
        done = [p for p in around if neighbours.get(p) == 7]
        own = sum(p in edge_nodes for p in around) if tile.monastery else 0
        return Plan(pos, tile, groups, group_of, done, own)

    def _group(self, pos: int, tile: Oriented, members: list[int], roots: list[int], matched: list[int]) -> Group:
        parts = tile.parts
        meeples: tuple[int, ...] = ()
        for r in roots:
            meeples += self.meeples[r]
        return Group(
            kind=parts[members[0]].kind,
            parts=members,
            roots=roots,
            open=sum(self.open[r] for r in roots) + sum(len(parts[i].sides) - 2 * matched[i] for i in members),
            tiles=frozenset((pos,)).union(*(self.tiles[r] for r in roots)),
            shields=sum(self.shields[r] for r in roots) + sum(parts[i].shield for i in members),
            meeples=meeples,
        )

    # -- committing ---------------------------------------------------------------------------
    def commit(self, plan: Plan) -> tuple[int, ...]:
        """Lay the planned tile into the graph; returns the new nodes (one per part, monastery last)."""
        tile, pos = plan.tile, plan.pos
        nodes = [self._new_node(part.kind, len(part.sides), pos, part.shield) for part in tile.parts]
        for group in plan.groups:
            root = group.roots[0] if group.roots else nodes[group.parts[0]]
            for other in group.roots[1:]:
                self.parent[other] = root
            for i in group.parts:
                self.parent[nodes[i]] = root
            self.open[root] = group.open
            self.tiles[root] = group.tiles
            self.shields[root] = group.shields
            self.meeples[root] = group.meeples
        neighbours = self.monastery_neighbours
        for off in NEIGHBOURS8:
            if pos + off in neighbours:
                neighbours[pos + off] += 1
        if tile.monastery:
            nodes.append(self._new_node(MONASTERY, 0, pos, 0))
            neighbours[pos] = plan.own_neighbours
        edge_part = tile.edge_part
        self.edge_nodes[pos] = tuple(nodes[i] if i >= 0 else -1 for i in edge_part)  # type: ignore[assignment]
        self.part_nodes[pos] = tuple(nodes)
        return self.part_nodes[pos]

    def _new_node(self, kind: str, open_edges: int, pos: int, shields: int) -> int:
        node = len(self.parent)
        self.parent.append(node)
        self.kind.append(kind)
        self.open.append(open_edges)
        self.tiles.append(frozenset((pos,)))
        self.shields.append(shields)
        self.meeples.append(())
        return node

    def add_meeple(self, node: int, meeple: int) -> None:
        root = self.find(node)
        self.meeples[root] += (meeple,)

    def clear_meeples(self, node: int) -> tuple[int, ...]:
        """Take every meeple off the feature of `node` (it was scored); returns their ids."""
        root = self.find(node)
        gone, self.meeples[root] = self.meeples[root], ()
        return gone


def _clusters(joined: list[list[int]]) -> list[tuple[list[int], list[int]]]:
    """Group the new tile's parts that join a common feature (a road looping back onto the tile)."""
    clusters: list[tuple[list[int], list[int]]] = []
    for i, roots in enumerate(joined):
        members, merged = [i], list(roots)
        keep = []
        for c_members, c_roots in clusters:
            if any(r in merged for r in c_roots):
                members = c_members + members
                merged = c_roots + [r for r in merged if r not in c_roots]
            else:
                keep.append((c_members, c_roots))
        clusters = [*keep, (members, merged)]
    clusters.sort(key=lambda c: min(c[0]))
    for members, _ in clusters:
        members.sort()
    return clusters
