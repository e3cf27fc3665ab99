"""The grid's pitch: the two vanishing points that undo the perspective, then combs of tile borders searched on
the rectified edges."""

from __future__ import annotations

import cv2
import numpy as np

from vision.tiles.board_mask import pixels
from vision.tiles.geometry import peak_offset
from vision.tiles.lone_tile import _angle_diff
from vision.tiles.outline_fit import SLOP, _fit_outline

MIN_PITCH = 14.0  # rectified px
PITCH_STEP = 0.75  # comb search step; the least-squares refinement takes it from there
PITCH_SHARE = 0.02  # the step for large pitches, as a share of the pitch (combs' tolerance is 0.07 of it)
Comb = tuple[float, float, float, float]


def _best_comb(grey: np.ndarray, board_mask: np.ndarray, rect: np.ndarray, arm: np.ndarray | None,
               outline: np.ndarray, square: bool = False) -> tuple[np.ndarray, float, float] | None:
    """The grid (picture -> board units) the outline fits best among the pitch candidates on the board as `rect`
    rectifies it, the share of the outline that fits it, and its score (the share beyond chance, and among
    equal fits the larger pitch: rectifications compare by it). `square`: square combs are tried too
    (`_square_combs`)."""
    best: tuple[float, np.ndarray] | None = None
    for score, fitted in _comb_fits(grey, board_mask, rect, arm, outline, square):
        if best is None or score > best[0]:
            best = (score, fitted)
    if best is None:
        return None
    return (*_fit_outline(best[1], outline), best[0])


def _comb_fits(grey: np.ndarray, board_mask: np.ndarray, rect: np.ndarray, arm: np.ndarray | None,
               outline: np.ndarray, square: bool = False) -> list[tuple[float, np.ndarray]]:
    """Each pitch candidate on the board as `rect` rectifies it, fitted to the outline (picture -> board units), with
    its score (`_best_comb`), in the order tried."""
    to_canvas, canvas_size = _fit_canvas(rect, board_mask)
    canvas = cv2.warpPerspective(grey, to_canvas, canvas_size, flags=cv2.INTER_LINEAR)
    fg = cv2.warpPerspective(board_mask.astype(np.uint8), to_canvas, canvas_size, flags=cv2.INTER_NEAREST)
    ignore = None if arm is None else cv2.warpPerspective(arm.astype(np.uint8), to_canvas, canvas_size,
                                                          flags=cv2.INTER_NEAREST) > 0
    guesses, doubled = _pitch_candidates(canvas, fg, ignore, square)
    if doubled:
        # of twice the best guess's pitch only the phase the outline fits best as it stands is refined
        guesses.append(max(doubled, key=lambda c: _fit_outline(_comb(c) @ to_canvas, outline, 0, 1500)[1]))
    fits = []
    for px, ox, py, oy in guesses:
        fitted, inliers = _fit_outline(_comb((px, ox, py, oy)) @ to_canvas, outline, rounds=5, sample=1500)
        # inliers beyond chance (a fine comb catches stray points), and among equal fits the larger
        # pitch (a half pitch fits the same outline just as well)
        chance = min(0.9, 2 * max(2.0 / min(px, py), SLOP))
        fits.append(((inliers - chance) / (1 - chance) + 0.05 * np.log(min(px, py)), fitted))
    return fits


def _comb(comb: tuple[float, float, float, float]) -> np.ndarray:
    """Canvas px -> grid units for a comb (pitch and offset per axis)."""
    px, ox, py, oy = comb
    return np.array([[1 / px, 0, -ox / px], [0, 1 / py, -oy / py], [0, 0, 1]])


def _segments(grey: np.ndarray, mask: np.ndarray, arm: np.ndarray | None = None) -> np.ndarray:
    edges = cv2.Canny(grey, 20, 60)
    near = cv2.dilate(mask.astype(np.uint8), np.ones((9, 9), np.uint8)) > 0
    if arm is not None:
        near &= ~arm  # an arm's long straight sides are no tile edges
    edges[~near] = 0
    side = max(grey.shape)
    lines = cv2.HoughLinesP(edges, 1, np.pi / 360, threshold=20, minLineLength=max(10, side // 60), maxLineGap=2)
    found = np.zeros((0, 4), np.float64) if lines is None else lines.reshape(-1, 4).astype(np.float64)
    outline = _outline_segments(mask, max(10, side // 60))
    if arm is not None and len(outline):
        middle = np.round((outline[:, :2] + outline[:, 2:]) / 2).astype(int)
        middle = np.clip(middle, 0, [mask.shape[1] - 1, mask.shape[0] - 1])
        outline = outline[~arm[middle[:, 1], middle[:, 0]]]
    return np.vstack([found, outline])


def _outline_segments(mask: np.ndarray, min_length: int) -> np.ndarray:
    """Straight runs of the board's outline: tile sides, so they run along the two grid directions."""
    contours, _ = cv2.findContours(mask.astype(np.uint8), cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    segments: list[np.ndarray] = []
    for contour in contours:
        poly = cv2.approxPolyDP(contour, 1.5, True).reshape(-1, 2).astype(np.float64)
        ends = np.hstack([poly, np.roll(poly, -1, axis=0)])
        segments.append(ends[np.linalg.norm(ends[:, 2:] - ends[:, :2], axis=1) >= min_length])
    return np.vstack(segments) if segments else np.zeros((0, 4))


def _rectifiers(grey: np.ndarray, mask: np.ndarray, arm: np.ndarray | None = None) -> list[np.ndarray]:
    """Image px -> rectified planes where the two tile-edge families run along x and y: the vanishing points'
    first, then with one family or both taken as parallel lines (in their dominant direction).

    Short tile sides, each laid a degree or two askew, place a vanishing point poorly (a tenth or more of
    the pitch across the board on small tiles, most when an arm hides half of them); a parallel family is
    then the better start, and the outline fit finds the perspective from there.
    """
    h, w = grey.shape
    f = float(max(h, w))
    norm = np.array([[1 / f, 0, -w / (2 * f)], [0, 1 / f, -h / (2 * f)], [0, 0, 1]])
    segs = _segments(grey, mask, arm)
    if len(segs) < 2:
        return [norm]
    p1 = np.c_[segs[:, :2], np.ones(len(segs))] @ norm.T
    p2 = np.c_[segs[:, 2:], np.ones(len(segs))] @ norm.T
    d = p2[:, :2] - p1[:, :2]
    length = np.linalg.norm(d, axis=1)
    angle = np.degrees(np.arctan2(d[:, 1], d[:, 0])) % 180
    a1, a2 = _two_directions(angle, length)
    fam1 = _angle_diff(angle, a1) < 20
    fam2 = _angle_diff(angle, a2) < 20
    v1 = _vanishing_point(p1[fam1], p2[fam1], length[fam1], a1)
    v2 = _vanishing_point(p1[fam2], p2[fam2], length[fam2], a2)
    par1, par2 = (np.array([np.cos(np.radians(a)), np.sin(np.radians(a)), 0.0]) for a in (a1, a2))
    out = [_rectify(u1, u2, a1, a2) for u1, u2 in ((v1, v2), (v1, par2), (par1, v2), (par1, par2))]
    ends = np.vstack([p1, p2])
    return [r @ norm for r in out if r is not None and _ahead(r, ends)] or [norm]


def _ahead(rect: np.ndarray, points: np.ndarray) -> bool:
    """Whether the points (normalised, homogeneous: the edge segments' ends) all lie on one side of the line
    `rect` sends to infinity. A vanishing point placed inside the board (a road's sides taken for a family of tile
    sides) puts that horizon across the board, which no camera sees: the grid fitted there folds the board onto
    a line (`tune-small8.yaml` 57: three tiles read as 703)."""
    w = points @ rect[2]
    return bool((w > 0).all() or (w < 0).all())


def _rectify(v1: np.ndarray, v2: np.ndarray, a1: float, a2: float) -> np.ndarray | None:
    """Normalised image -> plane where the families meeting at v1 and v2 (directions a1, a2) run along x, y."""
    line = np.cross(v1, v2)
    if abs(line[2]) < 1e-9:
        return None
    line = line / line[2]
    proj = np.array([[1, 0, 0], [0, 1, 0], line])
    d1 = _direction_at_centre(proj, v1, a1, axis=0)
    d2 = _direction_at_centre(proj, v2, a2, axis=1)
    basis = np.array([[d1[0], d2[0]], [d1[1], d2[1]]])
    if abs(np.linalg.det(basis)) < 1e-6:
        return None
    affine = np.eye(3)
    affine[:2, :2] = np.linalg.inv(basis)
    return affine @ proj


def _two_directions(angle: np.ndarray, weight: np.ndarray) -> tuple[float, float]:
    """The dominant edge direction and the strongest one roughly across it; the nearer-horizontal first."""
    hist = np.bincount(np.round(angle).astype(int) % 180, weights=weight, minlength=180)
    hist = np.convolve(np.r_[hist[-3:], hist, hist[:3]], np.ones(5) / 5, mode="same")[3:-3]
    first = int(np.argmax(hist))
    across = [(first + 90 + k) % 180 for k in range(-35, 36)]
    second = max(across, key=lambda a: hist[a])
    a, b = float(first), float(second)
    horizontal = min((a, b), key=lambda x: min(x, 180 - x))
    vertical = b if horizontal == a else a
    return horizontal, vertical


def _vanishing_point(p1: np.ndarray, p2: np.ndarray, length: np.ndarray, angle: float) -> np.ndarray:
    """Where one family's lines meet (homogeneous, unit), by RANSAC then weighted least squares."""
    rad = np.radians(angle)
    fallback = np.array([np.cos(rad), np.sin(rad), 0.0])
    if len(p1) < 2:
        return fallback
    lines = np.cross(p1, p2)
    lines /= np.linalg.norm(lines[:, :2], axis=1, keepdims=True)
    mids = (p1 + p2) / 2
    dirs = (p2[:, :2] - p1[:, :2]) / length[:, None]
    rng = np.random.default_rng(0)
    pairs = np.array([rng.choice(len(p1), 2, replace=False) for _ in range(min(150, len(p1) * (len(p1) - 1) // 2))])
    best = fallback
    if len(pairs):
        # every sampled pair's meeting point scored at once: the length of the segments pointing at it
        v = np.cross(lines[pairs[:, 0]], lines[pairs[:, 1]])
        size = np.linalg.norm(v, axis=1)
        ok = size >= 1e-12
        if ok.any():
            v = v[ok] / size[ok, None]
            best = v[int(np.argmax((_inliers(v, mids, dirs) * length).sum(axis=1)))]
    keep = _inliers(best[None], mids, dirs)[0]
    if keep.sum() >= 2:
        a = lines[keep] * np.sqrt(length[keep])[:, None]
        best = np.linalg.svd(a, full_matrices=False)[2][-1]
    return best / np.linalg.norm(best)


def _inliers(v: np.ndarray, mids: np.ndarray, dirs: np.ndarray, tol_deg: float = 3.0) -> np.ndarray:
    """(K, N): which segments point at each of K vanishing points (homogeneous rows of `v`)."""
    to_v = v[:, None, :2] - mids[None, :, :2] * v[:, None, 2:]
    to_v /= np.linalg.norm(to_v, axis=2, keepdims=True) + 1e-12
    cross = np.abs(dirs[None, :, 0] * to_v[..., 1] - dirs[None, :, 1] * to_v[..., 0])
    return cross < np.sin(np.radians(tol_deg))


def _direction_at_centre(proj: np.ndarray, v: np.ndarray, angle: float, axis: int) -> np.ndarray:
    """The family's direction after `proj`, signed to point right (axis 0) or down (axis 1) in the image."""
    d = (proj @ v)[:2]
    d = d / (np.linalg.norm(d) + 1e-12)
    rad = np.radians(angle)
    step = np.array([np.cos(rad), np.sin(rad)])
    if step[axis] < 0:
        step = -step
    a = proj @ np.array([0.0, 0.0, 1.0])
    b = proj @ np.array([step[0] * 1e-3, step[1] * 1e-3, 1.0])
    moved = b[:2] / b[2] - a[:2] / a[2]
    return d if float(np.dot(moved, d)) >= 0 else -d


def _fit_canvas(rect: np.ndarray, mask: np.ndarray) -> tuple[np.ndarray, tuple[int, int]]:
    """Scale and shift the rectified plane so the board fills a canvas as fine as the picture."""
    xs, ys = pixels(mask)
    step = max(1, len(xs) // 20000)
    xs, ys = xs[::step], ys[::step]
    pts = cv2.perspectiveTransform(np.c_[xs, ys][None].astype(np.float64), rect)[0]
    lo = np.percentile(pts, 0.2, axis=0)
    hi = np.percentile(pts, 99.8, axis=0)
    # the hulls from a few hundred points rather than 20,000: only a row's first and last point can lie on
    # the hull, or any point of the first or last row (the points come row by row). The rectified plane's
    # hull is the same set mapped (a projective map keeps lines), and after float rounding too: any other
    # point lies at least 1/1000 px inside (integer points off a line through integer points)
    ends = np.flatnonzero(np.diff(ys))
    rim = np.unique(np.r_[0, ends, ends + 1, len(ys) - 1, np.flatnonzero((ys == ys[0]) | (ys == ys[-1]))])
    hull_img = cv2.contourArea(cv2.convexHull(np.c_[xs[rim], ys[rim]].astype(np.float32)))
    hull_rect = cv2.contourArea(cv2.convexHull(pts[rim].astype(np.float32)))
    s = float(np.sqrt(max(hull_img, 1.0) / max(hull_rect, 1e-12)))
    s = min(s, 1400.0 / max(float((hi - lo).max()), 1e-12))
    pad = 6.0
    shift = np.array([[s, 0, -s * lo[0] + pad], [0, s, -s * lo[1] + pad], [0, 0, 1]])
    size = (int(s * (hi[0] - lo[0]) + 2 * pad), int(s * (hi[1] - lo[1]) + 2 * pad))
    return shift @ rect, size


def _outline_peaks(fg: np.ndarray, axis: int, ignore: np.ndarray | None = None) -> np.ndarray:
    """Positions along one axis where the board's outline runs across: every one lies on a grid line."""
    steps = np.abs(np.diff(fg.astype(np.float32), axis=1 - axis, prepend=0))
    if ignore is not None:
        steps[ignore] = 0
    outline = steps.sum(axis=axis)
    outline = cv2.GaussianBlur(outline.reshape(1, -1), (0, 0), 1.0).ravel()
    top = outline.max()
    if top <= 0:
        return np.zeros(0)
    is_peak = (outline >= np.r_[outline[1:], 0]) & (outline > np.r_[0, outline[:-1]]) & (outline > 0.12 * top)
    idx = np.nonzero(is_peak)[0].astype(np.float64)
    if len(idx) == 0:
        return np.zeros((0, 2))
    # sub-pixel peak centres
    v = outline
    i = idx.astype(int)
    left, mid, right = v[np.maximum(i - 1, 0)], v[i], v[np.minimum(i + 1, len(v) - 1)]
    return np.c_[idx + peak_offset(left, mid, right), np.sqrt(mid / top)]


def _fits(peaks: np.ndarray, pitches: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """For each pitch: the (strength-weighted) share of outline peaks on the best comb, and its phase.

    All pitches at once (a few at a time, to bound memory): for pitch p, peak i lies on the comb through
    peak j when their distance modulo p is within the comb's tolerance.
    """
    pos, weight = peaks[:, 0], peaks[:, 1]
    apart = pos[:, None] - pos[None, :]  # (i, j): peak i relative to a comb through peak j
    share = np.zeros(len(pitches))
    phase = np.zeros(len(pitches))
    step = max(1, 2_000_000 // max(apart.size, 1))
    for k0 in range(0, len(pitches), step):
        p = pitches[k0:k0 + step, None, None]
        d = apart[None] % p
        d = np.minimum(d, p - d)
        hits = ((d < np.maximum(2.0, 0.07 * p)) * weight[None, :, None]).sum(axis=1)  # (pitches, j)
        j = np.argmax(hits, axis=1)
        share[k0:k0 + step] = hits[np.arange(len(j)), j] / weight.sum()
        phase[k0:k0 + step] = pos[j] % p[:, 0, 0]
    return share, phase


def _refine(peaks: np.ndarray, p: float, phase: float) -> tuple[float, float]:
    """Least-squares pitch and phase from the peaks that sit on the comb."""
    peaks = peaks[:, 0]
    n = np.round((peaks - phase) / p)
    on = np.abs(peaks - phase - n * p) < max(2.0, 0.07 * p)
    if len(np.unique(n[on])) >= 2:
        slope, intercept = np.polyfit(n[on], peaks[on], 1)
        return float(slope), float(intercept % slope)
    return p, phase % p


def _pitch_candidates(canvas: np.ndarray, fg: np.ndarray, ignore: np.ndarray | None = None, square: bool = False
                      ) -> tuple[list[Comb], list[Comb]]:
    """(pitch x, offset x, pitch y, offset y) worth trying, from the board outline; best guess first.

    Every stretch of outline lies on a grid line, so the true pitch puts the outline peaks on one
    comb; so does any divisor of it, hence the largest well-fitting pitch is the first guess. Tiles
    are square and the rectification keeps the axes' scales within a few tens of percent, so the axes
    are paired (a 1x3 row gets its pitch from the short axis). A residual tilt smears the peaks, so
    the next-best combs are offered too; the caller keeps the one the whole outline fits best. Returns
    those (with `square`, the best guess's pitches made square too) and, apart, twice the best guess's
    pitch at its four phases.
    """
    peaks_x, peaks_y = _outline_peaks(fg, 0, ignore), _outline_peaks(fg, 1, ignore)
    if len(peaks_x) < 2 or len(peaks_y) < 2:
        h, w = fg.shape
        return [(float(w), 0.0, float(h), 0.0)], []
    px = _pitches(float(np.ptp(peaks_x[:, 0])) + 3)
    py = _pitches(float(np.ptp(peaks_y[:, 0])) + 3)
    share_x, phase_x = _fits(peaks_x, px)
    share_y, phase_y = _fits(peaks_y, py)
    ratio = np.abs(np.log(px[:, None] / py[None, :]))
    pairs: list[tuple[int, int]] = []
    good_x = share_x >= 0.9 * share_x.max()
    good_y = share_y >= 0.9 * share_y.max()
    ok = good_x[:, None] & good_y[None, :] & (ratio < 0.25)
    if ok.any():
        size = np.where(ok, np.minimum(px[:, None], py[None, :]) - 5 * ratio, -np.inf)
        i, j = np.unravel_index(np.argmax(size), size.shape)
        pairs.append((int(i), int(j)))
    for i in _top_peaks(share_x, 3):
        for j in _top_peaks(share_y, 3):
            if ratio[i, j] < 0.3 and (i, j) not in pairs:
                pairs.append((i, j))
    if not pairs:
        pairs = _across_pairs(share_x, share_y, ratio)
    combs: list[Comb] = []
    for i, j in pairs[:7]:
        rx, ox = _refine(peaks_x, px[i], phase_x[i])
        ry, oy = _refine(peaks_y, py[j], phase_y[j])
        combs.append((rx, ox, ry, oy))
    # tiles laid askew or an arm across the board blur the outline's peaks, so a comb at twice the best
    # guess's pitch can fit worse than the guess itself: offer it too, at each of its four phases
    if not combs:
        return [], []
    rx, ox, ry, oy = combs[0]
    doubled: list[Comb] = []
    if 2 * min(rx, ry) < min(np.ptp(peaks_x[:, 0]), np.ptp(peaks_y[:, 0])):
        doubled = [(2 * rx, ox + a * rx, 2 * ry, oy + b * ry) for a in (0, 1) for b in (0, 1)]
    if square:
        combs += _square_combs(peaks_x, peaks_y, rx, ry)
    out: list[Comb] = []
    for rx, ox, ry, oy in combs:
        if not any(_same_comb(rx, ox, qx, qox) and _same_comb(ry, oy, qy, qoy) for qx, qox, qy, qoy in out):
            out.append((rx, ox, ry, oy))  # neighbouring combs often refine to the same grid: fit it once
    return out, doubled


def _square_combs(peaks_x: np.ndarray, peaks_y: np.ndarray, rx: float, ry: float) -> list[Comb]:
    """The best guess's pitch on either axis taken for both, each axis at its own best phase for it.

    Tiles are square, and where the rectification kept the board's aspect the pitch one axis's outline shows
    holds across too. Tiles laid apart or askew along the other axis smear its outline peaks, and then its
    own best comb can be at a wrong pitch (a 72-tile board's rows read at 0.8 of their pitch, a whole board
    lost); the outline fit judges these as it judges every guess, so a canvas whose aspect is off keeps its
    own pair. Tried only in the searches run again when the first fit is poor (`find_grid`): where the outline
    fits well, a square comb moved the fitted grid by a fraction of a pixel and nothing more.
    """
    if abs(np.log(rx / ry)) < 0.02:
        return []  # already square
    out: list[Comb] = []
    for p in (rx, ry):
        pitch = np.array([p])
        (_, (phase_x,)), (_, (phase_y,)) = _fits(peaks_x, pitch), _fits(peaks_y, pitch)
        out.append((*_refine(peaks_x, p, phase_x), *_refine(peaks_y, p, phase_y)))
    return out


def _across_pairs(share_x: np.ndarray, share_y: np.ndarray, ratio: np.ndarray) -> list[tuple[int, int]]:
    """Each axis's top pitches, paired with the other axis's best pitch within a square's reach of it.

    Used when no top pitch of one axis is near a top pitch of the other: a few tiles' sides laid askew
    smear one axis's outline peaks, so its best combs are at twice the pitch (every other side on the comb)
    and the board got no grid at all; the axis whose outline is clean still names the pitch.
    """
    near = ratio < 0.25
    pairs: list[tuple[int, int]] = []
    for i in _top_peaks(share_x, 3):
        if near[i].any():
            pairs.append((i, int(np.argmax(np.where(near[i], share_y, -1.0)))))
    for j in _top_peaks(share_y, 3):
        if near[:, j].any():
            pairs.append((int(np.argmax(np.where(near[:, j], share_x, -1.0))), j))
    pairs.sort(key=lambda ij: -(share_x[ij[0]] + share_y[ij[1]]))
    return list(dict.fromkeys(pairs))


def _pitches(longest: float) -> np.ndarray:
    """Pitches to try up to `longest`: PITCH_STEP apart, or a fixed share of the pitch for large tiles (a
    comb's tolerance grows with its pitch, so a finer step would find nothing new)."""
    out = [MIN_PITCH]
    while out[-1] + PITCH_STEP < longest:
        out.append(out[-1] + max(PITCH_STEP, PITCH_SHARE * out[-1]))
    return np.array(out)


def _same_comb(p: float, offset: float, q: float, other: float) -> bool:
    shift = abs(offset - other) % p
    return abs(p - q) < 0.01 * p and min(shift, p - shift) < 0.02 * p


def _top_peaks(values: np.ndarray, count: int) -> list[int]:
    """Indices of the highest local maxima."""
    is_peak = (values >= np.r_[values[1:], -np.inf]) & (values > np.r_[-np.inf, values[:-1]])
    idx = np.nonzero(is_peak)[0]
    return [int(i) for i in idx[np.argsort(-values[idx])][:count]]
