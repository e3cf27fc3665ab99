"""A board that is one convex outline: a lone tile, a compact board in a squarish outline, or a strip one tile wide;
its four sides from the outline's straight lines, and the tile borders inside it."""

from __future__ import annotations

from collections.abc import Callable

import cv2
import numpy as np

INNER_RATIO = 0.5  # edge strength midway between a squarish outline's would-be tile borders against them, at most
MAX_INNER = 5  # tiles across a squarish outline looked for
# edge strength (Sobel, blurred grey levels) added to both sides of that ratio: flat art shows no edge along most
# lines, and none midway against none on the borders is no border (a flat lone tile saved again as a coarse JPEG:
# some lines 0.0 midway against 0.0 to 0.2 on the would-be borders, read as 5 x 5 tiles)
INNER_FLOOR = 1.0
SQUARISH = 1.55  # a lone tile's outline sides' ratio at most (perspective)
# a board that is one convex quadrilateral whose sides' ratio lies above SQUARISH and up to this is a strip of tiles
# one tile wide, counted by its borders (`_strip_tiles`; session 39, `tune-small.yaml`: two tiles were read as one
# 2:1 cell and as 258 cells of a comb at a seventh of their pitch, a strip of four as three)
STRIP_MOST = MAX_INNER + 0.5
STRIP_SLACK = 1.5  # a strip's tiles lie within this factor of its outline's sides' ratio (perspective: 1.6-2.8 for
# two tiles, 2.5-3.6 for three on the small sets)
STRIP_FILL = 0.95  # share of a strip's quadrilateral its board fills, at least (a board of steps leaves notches)
# tiles: how far a strip's border may lie from where its outline's quadrilateral puts it (tiles laid apart, shifted
# and turned a little put a seam a few working px off the line)
STRIP_BAND = np.linspace(-0.06, 0.06, 7)
STRIP_PROFILE = np.linspace(0.05, 0.95, 37)  # where along a strip the edge strength it is measured against lies
# a count's borders' mean log edge strength (against the strip's typical) is weighed against this many times the log
# of its ratio to the outline's sides' ratio (session 39, 132 strips of 2-5 tiles drawn for it, seed 3920000: the
# sides' ratio alone counts 124 right, the borders alone 122, both 128 with a weight of 4 or 6, 124-127 with 0.5-3)
STRIP_PRIOR = 4.0
# and against this many times the mean share of its borders' lines that shows the table (a gap between tiles laid
# apart; session 40: strips drawn for it and the small tuning sets, 194 strips, 186 -> 190 right with 5 or 6, 189
# with 3-4 and 8, one lost at 8: a gap the mask shows inside a tile; two tiles each halved by its road, read as four)
STRIP_GAP = 5.0
LINE_NEAR = 0.015  # of a lone tile's side: outline points this near a line lie on it
LINE_LEAST = 0.2  # of a lone tile's side: the fewest outline points (px) a side of it holds
SAME_SIDE = np.pi / 4  # radians: lines whose feet from the middle lie this near in direction face one side
ACROSS = 40.0  # degrees: a lone tile's opposite sides run within this of parallel (strong keystone: up to some 37)
SIDE_BEYOND = 0.2  # share of a lone tile's outline beyond a line along a side at most (a figure's and its shadow's)
LINES_FILL = 0.92  # share of those lines' quadrilateral the mask fills, at least
LINES_BEYOND = 0.09  # of its area: the most of the mask beyond it (a figure's head and body over the table)
HULL_FILL = 0.78  # share of its hull a lone tile's mask fills, at least (notches of pale roads and cities)
LONE_FILL = 0.85  # share of the quadrilateral a lone tile's four longest sides span that its mask fills, at least
STREAK_KERNEL = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (9, 9))  # working px: thinner table streaks go


def _inner_borders(grey: np.ndarray, to_unit: np.ndarray) -> tuple[int, int]:
    """Tiles across and down a squarish outline (picture -> unit square): (1, 1) for a single tile.

    n tiles across show a tile border all along the lines at k/n, and none along the lines midway
    between them (which cross tiles); a single tile's art has no such full-length lines.
    """
    strength = _line_strength(grey, to_unit)
    # ratio[axis][n]: edge midway between the would-be borders against the weakest border; n = 1 has none
    ratio = [{1: INNER_RATIO}, {1: INNER_RATIO}]
    for axis in (0, 1):
        for n in range(2, MAX_INNER + 1):
            borders = strength(axis, np.arange(1, n) / n)
            between = strength(axis, (np.arange(n) + 0.5) / n)
            ratio[axis][n] = float((np.median(between) + INNER_FLOOR) / (float(borders.min()) + INNER_FLOOR))
    # the outline is squarish, so the counts across and down are alike (3 x 2 is, 2 x 1 is not)
    pairs = [(nx, ny) for nx in ratio[0] for ny in ratio[1] if max(nx, ny) <= 1.5 * min(nx, ny)]
    return min(pairs, key=lambda c: (max(ratio[0][c[0]], ratio[1][c[1]]), c[0] * c[1]))  # both axes must show them


def _line_strength(grey: np.ndarray, to_unit: np.ndarray) -> Callable[[int, np.ndarray], np.ndarray]:
    """Median edge strength along lines of a quadrilateral (picture -> unit square): (axis, unit positions `at`)
    -> one per position (axis 0: the lines x = at)."""
    edges = np.hypot(cv2.Sobel(grey, cv2.CV_32F, 1, 0), cv2.Sobel(grey, cv2.CV_32F, 0, 1))
    edges = cv2.dilate(edges, np.ones((3, 3), np.uint8))  # a border a pixel off the line still counts
    return _along_lines(edges, to_unit, np.median)


def _along_lines(values: np.ndarray, to_unit: np.ndarray, reduce: Callable[..., np.ndarray]
                 ) -> Callable[[int, np.ndarray], np.ndarray]:
    """`values` (float32, 0 beyond the picture) sampled along lines of a quadrilateral (picture -> unit square) and
    reduced per line: (axis, unit positions `at`) -> one per position (axis 0: the lines x = at)."""
    inv = np.linalg.inv(to_unit)
    t = np.linspace(0.03, 0.97, 48)

    def along(axis: int, at: np.ndarray) -> np.ndarray:
        u = np.repeat(at, len(t))
        v = np.tile(t, len(at))
        pts = np.stack([u, v] if axis == 0 else [v, u], axis=1)[None].astype(np.float64)
        image = cv2.perspectiveTransform(pts, inv)[0].astype(np.float32)
        samples = cv2.remap(values, image[:, 0].copy(), image[:, 1].copy(), cv2.INTER_LINEAR, borderValue=0)
        return reduce(samples.reshape(len(at), len(t)), axis=1)

    return along


def _strip_tiles(grey: np.ndarray, to_unit: np.ndarray, aspect: float, board: np.ndarray) -> tuple[int, int]:
    """Tiles across and down a strip one tile wide (picture -> unit square) whose outline's sides' ratio (across
    against down) is `aspect`: of the counts that ratio allows, the one whose borders stand out most from the
    strip's edge strength along its length, and show the table most (`board`: the board's mask before any closing),
    weighed against how far the count lies from that ratio.

    Perspective stretches a strip's ratio by up to a third either way, and its borders are seams a few px off
    their ideal lines, faint between two fields, while city walls run along tile sides: neither tells the count
    alone. Where the ratio allows one count only, no border need show (a lone tile needs none either). Midway lines
    are no measure here, as a meeple or a road along a tile's middle may well lie on them; the table showing
    through a gap is, where tiles lie apart (a road's edges along a tile's middle are as strong as a seam).
    """
    axis, ratio = (0, aspect) if aspect >= 1 else (1, 1 / aspect)
    counts = strip_counts(aspect)
    best = counts[0]
    if len(counts) > 1:
        strength = _line_strength(grey, to_unit)
        table = _along_lines((~board).astype(np.float32), to_unit, np.mean)
        typical = max(float(np.median(strength(axis, STRIP_PROFILE))), 1e-6)

        def likely(n: int) -> float:
            at = np.arange(1, n) / n
            seams = np.max([strength(axis, at + d / n) for d in STRIP_BAND], axis=0)
            gaps = np.max([table(axis, at + d / n) for d in STRIP_BAND], axis=0)
            return (float(np.mean(np.log(np.maximum(seams, 1e-6) / typical))) + STRIP_GAP * float(np.mean(gaps))
                    - STRIP_PRIOR * abs(np.log(n / ratio)))

        best = max(counts, key=likely)
    return (best, 1) if axis == 0 else (1, best)


def block_counts(aspect: float, most: int) -> list[tuple[int, int]]:
    """(across, along) the tile counts of a block two or more tiles wide whose outline's sides' ratio is `aspect`
    (`_single_tile` takes it for a strip's): its tiles' ratio within STRIP_SLACK of the outline's, `most` tiles at
    most (`tune-small8.yaml` 196: two columns of three large flat tiles, ratio 1.74, counted as a strip of two)."""
    ratio = max(aspect, 1 / aspect)
    return [(m, n) for m in range(2, most // 2 + 1) for n in range(m + 1, most // m + 1)
            if ratio / STRIP_SLACK <= n / m <= ratio * STRIP_SLACK]


def strip_counts(aspect: float) -> range:
    """The tile counts a strip one tile wide whose outline's sides' ratio is `aspect` may hold (perspective): never
    empty, as a ratio from SQUARISH to STRIP_MOST allows 2 (under 2) up to 4-5 tiles."""
    ratio = max(aspect, 1 / aspect)
    return range(max(2, int(np.ceil(ratio / STRIP_SLACK))), min(MAX_INNER, int(ratio * STRIP_SLACK)) + 1)


def _single_tile(mask: np.ndarray, most: float = SQUARISH) -> np.ndarray | None:
    """The corners TL TR BR BL when the board is one convex quadrilateral whose sides' ratio is at most `most`: a
    single tile (SQUARISH), or with a larger `most` also a strip of tiles one tile wide (`STRIP_MOST`).

    (Otherwise a rectangle of several tiles is longer than perspective makes a square look, and goes on to the
    general search.)
    """
    # a thin bright streak of the table joined to the tile (a wooden or white table's grain) is no part of it
    opened = cv2.morphologyEx(mask.astype(np.uint8), cv2.MORPH_OPEN, STREAK_KERNEL)
    contours, _ = cv2.findContours(opened, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    largest = max((cv2.contourArea(c) for c in contours), default=0.0)
    contours = [c for c in contours if cv2.contourArea(c) >= 0.05 * largest]  # what the opening left of a streak
    if not contours or len(contours) > 3:
        return None
    # pale roads and cities notch a tile's outline or cut it in two; the hull of the pieces stays square
    hull = cv2.convexHull(np.vstack(contours))
    area = sum(cv2.contourArea(c) for c in contours)
    quad = None
    for eps in (0.02, 0.03, 0.045, 0.06):
        approx = cv2.approxPolyDP(hull, eps * cv2.arcLength(hull, True), True).reshape(-1, 2).astype(np.float64)
        if len(approx) == 4:
            quad = approx
            break
    hull_area = cv2.contourArea(hull)
    lines = None
    if quad is None or cv2.contourArea(quad.astype(np.float32)) < 0.9 * hull_area:
        # a meeple standing over the tile's edge bulges the hull out of square, and the corners the hull's
        # simplification keeps then cut the tile: its four longest sides still run along the tile's, and the
        # tile fills what they span (a board of several tiles leaves steps and gaps in it: at most 0.79 of it on
        # the tuning sets, lone tiles 0.90 or more)
        quad = _longest_sides(hull)
        # a figure over the edge may hide a side from the hull altogether: the lines its outline runs along
        lines = _lines_quad(opened, largest, hull_area, quad) if area >= HULL_FILL * hull_area else None
        quad = quad if lines is None else lines
        if quad is not None and area < LONE_FILL * cv2.contourArea(quad.astype(np.float32)):
            return None
    if quad is None or area < HULL_FILL * hull_area or (quad is not lines and cv2.contourArea(
            quad.astype(np.float32)) < 0.9 * hull_area):
        return None
    sides = np.linalg.norm(quad - np.roll(quad, -1, axis=0), axis=1)
    a, b = (sides[0] + sides[2]) / 2, (sides[1] + sides[3]) / 2
    if max(a, b) / min(a, b) > most or _corner_unseen(quad, opened):
        return None
    if max(a, b) / min(a, b) > SQUARISH and area < STRIP_FILL * cv2.contourArea(quad.astype(np.float32)):
        return None  # a long outline the board does not fill is no strip: steps of a board of several rows
    centre = quad.mean(axis=0)
    angle = np.arctan2(quad[:, 1] - centre[1], quad[:, 0] - centre[0])
    quad = quad[np.argsort(angle)]  # clockwise on screen (y down), starting anywhere
    first = int(np.argmin(quad.sum(axis=1)))
    return np.roll(quad, -first, axis=0)


def _corner_unseen(quad: np.ndarray, mask: np.ndarray) -> bool:
    """Whether a corner lies beyond the picture (by `LINE_NEAR` of its side) while the mask reaches no border: a
    tile the picture shows whole shows its corners, and a quadrilateral reaching past them spans no tile (the hull's
    sides along a small board's steps)."""
    border = mask[[0, -1], :].any() or mask[:, [0, -1]].any()
    side = float(np.sqrt(abs(cv2.contourArea(quad.astype(np.float32)))))
    h, w = mask.shape[:2]
    margin = LINE_NEAR * side
    outside = (quad[:, 0] < -margin) | (quad[:, 1] < -margin) | (quad[:, 0] > w - 1 + margin) | (
        quad[:, 1] > h - 1 + margin)
    return bool(not border and outside.any())


def _lines_quad(opened: np.ndarray, largest: float, hull_area: float, quad: np.ndarray | None) -> np.ndarray | None:
    """The quadrilateral of the outline's four straightest lines (`_outline_lines`) where it holds a tile
    (`_holds_tile`) and more of the outline lies on its sides than on `quad`'s (the hull's longest sides); else None.
    """
    dense, _ = cv2.findContours(opened, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    dense = [c for c in dense if cv2.contourArea(c) >= 0.05 * largest]
    side = float(np.sqrt(hull_area))
    lines = _outline_lines(dense, side, opened.shape)
    if lines is None or not _holds_tile(lines, opened):
        return None
    return lines if quad is None or _on_sides(lines, dense, side) > _on_sides(quad, dense, side) else None


def _outline_lines(contours: list[np.ndarray], side: float, shape: tuple[int, ...]) -> np.ndarray | None:
    """The quadrilateral of the four straight lines the most outline points lie on (within `LINE_NEAR` of `side`),
    found one after another, each fitted to its points; None when four are not found or do not close.

    A figure standing over a lone tile's edge makes the hull run from the tile's corners up to its head, and the
    tile's own side, cut in two by the figure, is no side of the hull; its two pieces still lie on one line. The
    picture's border (`shape`: the mask's), where a head or a tile runs off it, is no line of the tile.
    """
    points = np.vstack(contours).reshape(-1, 2).astype(np.float64)
    inner = (points > 0).all(axis=1) & (points[:, 0] < shape[1] - 1) & (points[:, 1] < shape[0] - 1)
    near = LINE_NEAR * side
    seeds = [cv2.approxPolyDP(c, near, True).reshape(-1, 2).astype(np.float64) for c in contours]
    sides = np.vstack([np.stack([p, np.roll(p, -1, axis=0)], axis=1) for p in seeds])  # (sides, 2 ends, xy)
    sides = sides[np.linalg.norm(sides[:, 1] - sides[:, 0], axis=1) >= near]
    start, step = sides[:, 0], sides[:, 1] - sides[:, 0]
    joined = _joined(points, sides, _on_lines(points, start, step, near), near)
    start, step = np.vstack([start, joined[0]]), np.vstack([step, joined[1]])
    length = np.hypot(step[:, 0], step[:, 1])
    centre = points.mean(axis=0)
    # (lines, points): which outline points lie on each simplified side's line; a line with the tile beyond it (a
    # pale road's notch across the tile, its pieces joined) is none
    on = _on_lines(points, start, step, near) & (_beyond(points, start, step, centre, near) <= SIDE_BEYOND)[:, None]
    free = inner.copy()
    # the side of the middle each line lies on and its direction: a pale road's notch runs along a side, on that
    # side of the middle, and a figure's shoulder over a side runs across the opposite side, not along it
    facing = _facing(centre, start, step / length[:, None])
    heading = np.degrees(np.arctan2(step[:, 1], step[:, 0]))
    lines: list[tuple[float, np.ndarray, np.ndarray]] = []  # (the angle it faces, a point, unit direction)
    for _ in range(4):
        counts = (on & free).sum(axis=1) if len(on) else np.zeros(0, int)
        for toward, _, u in lines:
            apart = _angle_apart(facing, toward)
            askew = _angle_diff(heading, float(np.degrees(np.arctan2(u[1], u[0]))))
            counts[(apart < SAME_SIDE) | ((apart > np.pi - SAME_SIDE) & (askew > ACROSS))] = 0
        if len(counts) == 0 or counts.max() < LINE_LEAST * side:
            return None
        best = on[int(np.argmax(counts))] & free
        vx, vy, x, y = cv2.fitLine(points[best].astype(np.float32), cv2.DIST_L2, 0, 0.01, 0.01).ravel()
        p, u = np.array([x, y], np.float64), np.array([vx, vy], np.float64)
        lines.append((float(_facing(centre, p[None], u[None])[0]), p, u))
        free &= ~best
    lines.sort(key=lambda line: line[0])
    corners = []
    for (_, p, u), (_, q, v) in zip(lines, lines[1:] + lines[:1], strict=True):
        m = np.array([u, -v]).T
        if abs(np.linalg.det(m)) < 0.3:  # lines within some 17 degrees of parallel meet nowhere near a corner
            return None
        s, _ = np.linalg.solve(m, q - p)
        corners.append(p + s * u)
    return np.array(corners)


def _normals(step: np.ndarray) -> np.ndarray:
    """Unit normals of lines with directions `step` (N, 2)."""
    return np.stack([-step[:, 1], step[:, 0]], axis=1) / np.hypot(step[:, 0], step[:, 1])[:, None]


def _on_lines(points: np.ndarray, start: np.ndarray, step: np.ndarray, near: float) -> np.ndarray:
    """(lines, points): whether each point lies within `near` of each line (a point `start`, direction `step`)."""
    normal = _normals(step)
    return np.abs(points @ normal.T - (start * normal).sum(axis=1)).T <= near


def _beyond(points: np.ndarray, start: np.ndarray, step: np.ndarray, centre: np.ndarray, near: float) -> np.ndarray:
    """Per line (a point `start`, direction `step`), the share of `points` beyond it by more than `near`, on the side
    away from `centre`: the tile lies beyond a pale road's notch across it, only a figure beyond a side."""
    normal = _normals(step)
    offset = ((start - centre) * normal).sum(axis=1)
    return (((points - centre) @ normal.T) * np.sign(offset) - np.abs(offset) > near).mean(axis=0)


def _joined(points: np.ndarray, sides: np.ndarray, on: np.ndarray, near: float) -> tuple[np.ndarray, np.ndarray]:
    """(starts, steps) of the lines fitted to the outline points on two of the simplified outline's sides (`sides`:
    (N, 2 ends, xy); `on`: `_on_lines` of them) that lie on one line: all four ends within twice `near` of the line
    through the two farthest apart.

    A figure standing on a side cuts it in two pieces, each a short side of the simplified outline whose own
    direction is a few degrees off (the mask's rim is ragged): neither one's line reaches the other piece.
    """
    starts, steps = [np.zeros((0, 2))], [np.zeros((0, 2))]
    for i, j in zip(*np.triu_indices(len(sides), 1), strict=True):
        ends = np.vstack([sides[i], sides[j]])
        gap = np.linalg.norm(ends[:, None] - ends[None], axis=2)
        a, b = np.unravel_index(int(np.argmax(gap)), gap.shape)
        u = (ends[b] - ends[a]) / max(float(gap[a, b]), 1e-9)
        both = on[i] | on[j]
        if np.abs((ends - ends[a]) @ np.array([-u[1], u[0]])).max() > 2 * near or both.sum() < 2:
            continue
        vx, vy, x, y = cv2.fitLine(points[both].astype(np.float32), cv2.DIST_L2, 0, 0.01, 0.01).ravel()
        starts.append(np.array([[x, y]], np.float64))
        steps.append(np.array([[vx, vy]], np.float64) * gap[a, b])
    return np.vstack(starts), np.vstack(steps)


def _facing(centre: np.ndarray, start: np.ndarray, direction: np.ndarray) -> np.ndarray:
    """Angles (radians) from `centre` to the nearest point of each line (points `start`, unit `direction`)."""
    foot = start + ((centre - start) * direction).sum(axis=1)[:, None] * direction
    return np.arctan2(foot[:, 1] - centre[1], foot[:, 0] - centre[0])


def _angle_apart(a: np.ndarray, b: float) -> np.ndarray:
    """|a - b| in radians, folded to 0..pi."""
    return np.abs((a - b + np.pi) % (2 * np.pi) - np.pi)


def _holds_tile(quad: np.ndarray, mask: np.ndarray) -> bool:
    """Whether the mask fills a quadrilateral (`LINES_FILL`) and lies beyond it only as a figure over a tile's edge
    does (`LINES_BEYOND` of its area): four lines along part of a larger board's outline leave more of it out."""
    inside = np.zeros(mask.shape, np.uint8)
    cv2.fillPoly(inside, [np.round(quad).astype(np.int32)], 1)
    area = max(int(inside.sum()), 1)
    shown = mask > 0
    within = int((shown & (inside > 0)).sum())
    return within >= LINES_FILL * area and int(shown.sum()) - within <= LINES_BEYOND * area


def _on_sides(quad: np.ndarray, contours: list[np.ndarray], side: float) -> int:
    """How many outline points lie within `LINE_NEAR` of `side` of a quadrilateral's sides."""
    points = np.vstack(contours).reshape(-1, 2).astype(np.float64)
    near = np.zeros(len(points), bool)
    for a, b in zip(quad, np.roll(quad, -1, axis=0), strict=True):
        ab = b - a
        t = np.clip((points - a) @ ab / max(float(ab @ ab), 1e-9), 0, 1)
        near |= np.linalg.norm(points - (a + t[:, None] * ab), axis=1) <= LINE_NEAR * side
    return int(near.sum())


def _longest_sides(hull: np.ndarray) -> np.ndarray | None:
    """The quadrilateral the four longest sides of a convex hull's outline span (their lines met in turn), or None.

    A bulge splits a side in two pieces on one line, which count as one side as long as both together.
    """
    poly = cv2.approxPolyDP(hull, 0.01 * cv2.arcLength(hull, True), True).reshape(-1, 2).astype(np.float64)
    if len(poly) < 4:
        return None
    side = np.roll(poly, -1, axis=0) - poly
    length = np.linalg.norm(side, axis=1)
    normal = np.c_[-side[:, 1], side[:, 0]] / np.maximum(length, 1e-9)[:, None]
    near = 0.01 * float(length.sum())
    # each side's line: the longest side whose line it lies on (parallel, both its ends near it)
    owner = np.arange(len(poly))
    for k in np.argsort(-length):
        for j in range(len(poly)):
            ends = np.abs((poly[[j, (j + 1) % len(poly)]] - poly[k]) @ normal[k])
            if owner[j] == j and j != k and length[j] < length[k] and abs(normal[j] @ normal[k]) > 0.99 \
                    and ends.max() < near:
                owner[j] = owner[k]
    total = np.bincount(owner, weights=length, minlength=len(poly))
    kept = np.sort(np.argsort(-total)[:4])
    if (total[kept] <= 0).any():
        return None
    corners = []
    for a, b in zip(kept, np.roll(kept, -1), strict=True):
        # poly[a] + s side[a] = poly[b] + t side[b]
        m = np.array([side[a], -side[b]]).T
        if abs(np.linalg.det(m)) < 1e-9 * length[a] * length[b]:
            return None
        s, _ = np.linalg.solve(m, poly[b] - poly[a])
        corners.append(poly[a] + s * side[a])
    return np.array(corners)


def _angle_diff(a: np.ndarray, b: float) -> np.ndarray:
    d = np.abs(a - b) % 180
    return np.minimum(d, 180 - d)
