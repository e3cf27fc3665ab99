"""`vision.degrade`: the one way both evaluations resize, relight, add noise to and recompress a picture."""

from __future__ import annotations

import numpy as np
import pytest

from vision import degrade


@pytest.fixture()
def picture() -> np.ndarray:
    rng = np.random.default_rng(3)
    return rng.integers(0, 256, (60, 80, 3), dtype=np.uint8)


def test_light_is_multiplied_rounded_and_clipped(picture: np.ndarray) -> None:
    dim = degrade.relit(picture, 0.55)
    expected = np.clip(np.round(picture.astype(np.float32) * 0.55), 0, 255).astype(np.uint8)
    assert dim.dtype == np.uint8 and np.array_equal(dim, expected)
    bright = degrade.relit(picture, 2.0)
    assert bright.max() == 255 and np.array_equal(bright[picture >= 128], np.full((picture >= 128).sum(), 255))
    assert degrade.relit(picture, 1.0) is picture  # nothing asked, nothing done


def test_noise_comes_from_the_generator_given(picture: np.ndarray) -> None:
    a = degrade.relit(picture, 1.0, 5.0, np.random.default_rng(1))
    b = degrade.relit(picture, 1.0, 5.0, np.random.default_rng(1))
    assert np.array_equal(a, b) and not np.array_equal(a, picture)
    with pytest.raises(ValueError, match="random generator"):
        degrade.relit(picture, 1.0, 5.0)


def test_resize_and_jpeg(picture: np.ndarray) -> None:
    assert degrade.resized(picture, 0.5).shape == (30, 40, 3)
    assert degrade.resized(picture, 1.5).shape == (90, 120, 3)
    assert degrade.resized(picture, 1.0) is picture
    again = degrade.recompressed(picture, 30)
    assert again.shape == picture.shape and again.dtype == np.uint8 and not np.array_equal(again, picture)


@pytest.mark.parametrize(("kwargs", "message"), [({"scale": 0.1}, "scaled by 0.25 to 2.0, not 0.1"),
                                                 ({"light": 3.0}, "light is multiplied by 0.3 to 2.0, not 3.0"),
                                                 ({"noise": -1.0}, "noise is 0 to 50.0 grey levels, not -1.0"),
                                                 ({"jpeg": 5}, "JPEG quality is 10 to 100, not 5")])
def test_out_of_range_is_named(kwargs: dict[str, float], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        degrade.check(**kwargs)


def test_a_camera_view_resizes_then_relights_with_noise_then_recompresses(picture: np.ndarray) -> None:
    assert degrade.camera_view(picture) is picture  # the identity by default
    seen = degrade.camera_view(picture, np.random.default_rng(4), jpeg=60, noise=3.0, scale=0.5, light=0.8)
    step = degrade.relit(degrade.resized(picture, 0.5), 0.8, 3.0, np.random.default_rng(4))
    assert np.array_equal(seen, degrade.recompressed(step, 60)) and seen.shape == (30, 40, 3)
    with pytest.raises(ValueError, match="JPEG quality"):
        degrade.camera_view(picture, jpeg=5)
