"""The board reader's faster forms give what the plain forms give (speed itself is `companion tiles-bench`'s)."""

from __future__ import annotations

import cv2
import numpy as np

from vision.tiles.combs import _fits, _pitches
from vision.tiles.pipeline import MEEPLE_REACH, near_cells
from vision.tiles.reader import PATCH


def test_stamped_squares_equal_the_dilated_tile_mask() -> None:
    """Cells on every border of the board and in its middle: the same pixels as one elliptic dilation."""
    rng = np.random.default_rng(3)
    nx, ny = 9, 7
    shape = (ny * PATCH, nx * PATCH)
    cells = [(i, j) for i in range(nx) for j in range(ny) if rng.random() < 0.4] + [(0, 0), (nx - 1, ny - 1)]
    on_tiles = np.zeros(shape, np.uint8)
    for i, j in cells:
        on_tiles[j * PATCH:(j + 1) * PATCH, i * PATCH:(i + 1) * PATCH] = 1
    reach = 2 * round(MEEPLE_REACH * PATCH) + 1
    expected = cv2.dilate(on_tiles, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (reach, reach))) > 0
    got = near_cells([(i * PATCH, j * PATCH) for i, j in cells], shape)
    assert got.shape == shape and got.dtype == bool
    assert np.array_equal(got, expected)
    assert not near_cells([], shape).any()


def test_all_pitches_at_once_score_as_one_pitch_at_a_time() -> None:
    """`_fits` against the per-pitch loop it replaced, on peaks of a 6-tile row with a stray peak."""
    rng = np.random.default_rng(5)
    pos = np.r_[12.0 + 37.5 * np.arange(7) + rng.normal(0, 0.8, 7), 101.3]
    peaks = np.c_[pos, rng.uniform(0.3, 1.0, len(pos))]
    pitches = _pitches(float(np.ptp(pos)) + 3)
    share, phase = _fits(peaks, pitches)
    for k, p in enumerate(pitches):
        d = (pos[:, None] - pos[None, :]) % p
        d = np.minimum(d, p - d)
        hits = ((d < max(2.0, 0.07 * p)) * peaks[:, 1][:, None]).sum(axis=0)
        j = int(np.argmax(hits))
        assert share[k] == hits[j] / peaks[:, 1].sum() and phase[k] == pos[j] % p
    best = pitches[int(np.argmax(np.where(share >= 0.9 * share.max(), pitches, 0)))]
    assert abs(best - 37.5) < 2.0  # the largest well-fitting pitch is the row's


def test_crops_cut_at_once_equal_crops_cut_one_by_one() -> None:
    """The verifier's batch of crops against each crop cut and converted on its own, a board's border included."""
    from vision.tiles import verifier
    from vision.tiles.board import random_board
    from vision.tiles.meeples import Blob, Calibration, _distance
    from vision.tiles.scene import SceneSpec, compose

    rng = np.random.default_rng(21)
    s = compose(random_board(8, rng), SceneSpec(styles=("classic",)), rng)
    board = cv2.resize(s.image, (5 * PATCH, 4 * PATCH))
    crop = np.zeros((14, 9), bool)
    crop[1:13, 1:8] = True
    blobs = [Blob("red", (0.0, 0.0), (0, 0), crop), Blob("blue", (0.0, 0.0), (5 * PATCH - 9, 4 * PATCH - 14), crop),
             Blob("yellow", (0.0, 0.0), (100, 60), crop[:, :5])]
    cal = Calibration()
    got = verifier.inputs(board, blobs, PATCH, cal)
    half = verifier.SIDE // 2
    pad = cv2.copyMakeBorder(board, half, half, half, half, cv2.BORDER_CONSTANT, value=(0, 0, 0))
    for n, blob in enumerate(blobs):
        (x, y), (h, w) = blob.origin, blob.crop.shape
        x0 = int(np.clip(x + w // 2, 0, pad.shape[1] - 2 * half))
        y0 = int(np.clip(y + h // 2, 0, pad.shape[0] - 2 * half))
        window = pad[y0:y0 + 2 * half, x0:x0 + 2 * half]
        lab = cv2.cvtColor(window, cv2.COLOR_BGR2LAB).astype(np.float32)
        near = 1 - np.clip(_distance(lab, cal.colours[blob.colour]) / verifier.DISTANCE_SCALE, 0, 1)
        assert np.array_equal(got[n, :3], (window.astype(np.float32) / 255 - 0.5).transpose(2, 0, 1))
        assert np.array_equal(got[n, 4], near)
        assert got[n, 3].sum() == blob.crop.sum()  # the whole candidate lies in its crop
    # the first crop is centred on (4, 7): its first 5 rows and 8 columns lie beyond the corner, black padding
    assert (got[0, :3, :5, :] == -0.5).all() and (got[0, :3, :, :8] == -0.5).all()
    assert (got[0, :3, 5:, 8:] > -0.5).any()


def test_the_pieces_median_is_numpys_bit_for_bit() -> None:
    from vision.tiles.meeples import _median

    rng = np.random.default_rng(7)
    for n in (1, 2, 3, 4, 57, 100, 331):
        values = (rng.random(n) * 60).astype(np.float32)
        assert _median(values) == float(np.median(values))
        assert _median(values.astype(np.float64)) == float(np.median(values.astype(np.float64)))
    assert np.isnan(_median(np.zeros(0, np.float32)))


def test_readings_come_in_canonical_rotations_without_asking_the_engine() -> None:
    """The matcher's hypotheses are each letter's distinct rotations, which are their own canonical rotation."""
    from vision.tiles.catalog import canonical_rotation
    from vision.tiles.matcher import _table

    keys = _table().keys
    assert len(keys) == len(set(keys)) > 24
    assert all(canonical_rotation(letter, rotation) == rotation for letter, rotation in keys)


def test_edge_evidence_of_a_board_at_once_equals_tile_by_tile() -> None:
    from vision.tiles.matcher import EDGE_KINDS, EDGE_SIGMA, _edge_logliks, edge_models, expectations
    from vision.tiles.reader import TileFeatures

    tiles = list(expectations().values())[:20]
    hidden = TileFeatures(tiles[0].sides.copy(), tiles[0].middles.copy(), tiles[0].centre, tiles[0].corners,
                          tiles[0].blue, 0.7, tiles[0].clearest.copy())
    hidden.sides[1] = hidden.middles[2] = hidden.clearest[3] = np.nan  # hidden windows: no evidence
    tiles.append(hidden)
    together = _edge_logliks(tiles)
    assert together.shape == (len(tiles), 4, 3) and np.isfinite(together).all()
    for k, f in enumerate(tiles):  # the per-tile form it replaced
        obs = np.stack([f.sides, f.middles, f.clearest], axis=1)
        one = np.stack([-np.nansum((obs - edge_models()[kind]) ** 2, axis=1) / (2 * EDGE_SIGMA**2)
                        for kind in EDGE_KINDS], axis=1)
        assert np.array_equal(together[k], one)


def test_the_canvas_from_the_hulls_rim_equals_the_canvas_from_every_point() -> None:
    """`_fit_canvas` takes its hulls from each row's ends (and the first and last rows): same scale and size."""
    from vision.tiles.board import random_board
    from vision.tiles.board_mask import _board_mask, _fill_holes
    from vision.tiles.combs import _fit_canvas, _rectifiers
    from vision.tiles.scene import SceneSpec, compose

    rng = np.random.default_rng(8)
    s = compose(random_board(30, rng), SceneSpec(styles=("classic",)), rng)
    work = cv2.resize(s.image, None, fx=0.625, fy=0.625, interpolation=cv2.INTER_AREA)
    mask = _fill_holes(_board_mask(cv2.cvtColor(work, cv2.COLOR_BGR2LAB))[0])
    grey = cv2.GaussianBlur(cv2.cvtColor(work, cv2.COLOR_BGR2GRAY), (0, 0), 1.0)
    rect = _rectifiers(grey, mask)[0]
    to_canvas, size = _fit_canvas(rect, mask)
    ys, xs = np.nonzero(mask)  # the plain form: hulls of every (sampled) point
    step = max(1, len(xs) // 20000)
    pts = cv2.perspectiveTransform(np.c_[xs[::step], ys[::step]][None].astype(np.float64), rect)[0]
    hull_img = cv2.contourArea(cv2.convexHull(np.c_[xs[::step], ys[::step]].astype(np.float32)))
    hull_rect = cv2.contourArea(cv2.convexHull(pts.astype(np.float32)))
    lo, hi = np.percentile(pts, 0.2, axis=0), np.percentile(pts, 99.8, axis=0)
    scale = min(float(np.sqrt(hull_img / hull_rect)), 1400.0 / float((hi - lo).max()))
    shift = np.array([[scale, 0, -scale * lo[0] + 6], [0, scale, -scale * lo[1] + 6], [0, 0, 1]])
    assert np.array_equal(to_canvas, shift @ rect)  # bit for bit
    assert size == (int(scale * (hi[0] - lo[0]) + 12), int(scale * (hi[1] - lo[1]) + 12))


def test_the_outline_fits_percentiles_are_numpys_bit_for_bit() -> None:
    from vision.tiles.outline_fit import _percentiles

    rng = np.random.default_rng(9)
    for n in (2, 3, 17, 500, 1501):
        values = rng.normal(0, 8, (n, 2))
        values[: n // 3] = np.round(values[: n // 3])  # ties
        for q in ((1.0, 99.0), (0.0, 100.0), (25.0, 50.0)):
            assert np.array_equal(_percentiles(values, q), np.percentile(values, q, axis=0))
    values[0, 1] = np.nan
    assert np.isnan(_percentiles(values, (1.0, 99.0))[:, 1]).all()


def test_blob_stats_from_the_blobs_pixels_equal_opencvs() -> None:
    """A large sparse mask (own stats) and a small one (OpenCV's): same labels and (x, y, w, h, area) rows."""
    from vision.tiles.meeples import SPARSE_SIZE, labelled

    rng = np.random.default_rng(11)
    large = np.zeros((400, 500), np.uint8)
    assert large.size >= SPARSE_SIZE
    for _ in range(120):
        x, y = rng.integers(0, 490), rng.integers(0, 390)
        large[y:y + rng.integers(1, 12), x:x + rng.integers(1, 12)] = 1
    large[0, :] = 1  # a blob along the border
    small = (rng.random((40, 60)) < 0.3).astype(np.uint8)
    for mask in (large, small, np.zeros((300, 300), np.uint8)):
        for algorithm in (cv2.CCL_DEFAULT, cv2.CCL_SAUF):
            n, labels, stats = labelled(mask, algorithm)
            rn, rlabels, rstats, _ = cv2.connectedComponentsWithStatsWithAlgorithm(mask, 8, cv2.CV_32S, algorithm)
            assert n == rn and np.array_equal(labels, rlabels)
            assert stats.dtype == rstats.dtype and np.array_equal(stats[1:], rstats[1:])
    assert labelled(large)[0] > 50


def test_field_and_shield_masks_from_opencv_planes_equal_the_numpy_forms() -> None:
    from vision.tiles.reader import blue_mask, green_lead

    rng = np.random.default_rng(12)
    board = rng.integers(0, 256, (96, 144, 3), dtype=np.uint8)
    for bgr in (board, board[3:90:2, 5:140:3]):  # a strided view too
        b, g, r = (bgr[..., i].astype(np.float32) for i in range(3))
        assert np.array_equal(green_lead(bgr), (g - np.maximum(r, b)) / (g + 1.0))
        b16, g16, r16 = (bgr[..., i].astype(np.int16) for i in range(3))
        top = np.maximum(r16, g16)
        assert np.array_equal(blue_mask(bgr), (b16 - top > 12) & (b16 * 100 > 118 * top))


def test_mask_pixels_come_as_numpy_lists_them() -> None:
    from vision.tiles.board_mask import pixels

    rng = np.random.default_rng(13)
    mask = rng.random((45, 80)) < 0.4
    ys, xs = np.nonzero(mask)
    for m in (mask, mask.astype(np.uint8)):
        px, py = pixels(m)
        assert np.array_equal(px, xs) and np.array_equal(py, ys)
    strided = mask[::2, 1::3]
    sy, sx = np.nonzero(strided)
    px, py = pixels(strided)
    assert np.array_equal(px, sx) and np.array_equal(py, sy)
    px, py = pixels(np.zeros((5, 5), bool))
    assert len(px) == len(py) == 0
