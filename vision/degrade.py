"""What a real camera does to a picture beyond what the drawn scenes and the real photos show: resized (a camera
further off or nearer), its light multiplied (a dimmer or brighter room), sensor noise (a dim room) and saved again
as a JPEG (a webcam's MJPEG stream). The card evaluation reads the real photos so, the board evaluation its drawn
boards, one way to do each so both measure the same thing; the board reader undoes a change of light with `relit`
too (`vision.light.back_in_light`)."""

from __future__ import annotations

import cv2
import numpy as np

SCALES = (0.25, 2.0)  # the least and most a picture is resized by
LIGHTS = (0.3, 2.0)  # the least and most a picture's light is multiplied by
JPEG_QUALITIES = (10, 100)
MOST_NOISE = 50.0  # grey levels (sd)


def check(scale: float = 1.0, light: float = 1.0, noise: float = 0.0, jpeg: int | None = None) -> None:
    """A ValueError naming the first value out of its range."""
    if jpeg is not None and not JPEG_QUALITIES[0] <= jpeg <= JPEG_QUALITIES[1]:
        raise ValueError(f"JPEG quality is {JPEG_QUALITIES[0]} to {JPEG_QUALITIES[1]}, not {jpeg}")
    if not 0.0 <= noise <= MOST_NOISE:
        raise ValueError(f"noise is 0 to {MOST_NOISE} grey levels, not {noise}")
    if not SCALES[0] <= scale <= SCALES[1]:
        raise ValueError(f"a picture is scaled by {SCALES[0]} to {SCALES[1]}, not {scale}")
    if not LIGHTS[0] <= light <= LIGHTS[1]:
        raise ValueError(f"a picture's light is multiplied by {LIGHTS[0]} to {LIGHTS[1]}, not {light}")


def resized(image: np.ndarray, factor: float) -> np.ndarray:
    """The picture resized by `factor`: area-averaged down, bilinear up."""
    check(scale=factor)
    if factor == 1.0:
        return image
    how = cv2.INTER_AREA if factor < 1.0 else cv2.INTER_LINEAR
    return cv2.resize(image, None, fx=factor, fy=factor, interpolation=how)


def relit(image: np.ndarray, light: float, noise: float = 0.0, rng: np.random.Generator | None = None) -> np.ndarray:
    """The picture with its light multiplied by `light` and sensor noise of `noise` grey levels (drawn from `rng`)
    added, rounded and clipped at black and white."""
    check(light=light, noise=noise)
    if light == 1.0 and not noise:
        return image
    lit = image.astype(np.float32) * light
    if noise:
        if rng is None:
            raise ValueError("sensor noise needs a random generator (rng)")
        lit += rng.normal(0.0, noise, image.shape).astype(np.float32)
    return np.clip(np.round(lit), 0, 255).astype(np.uint8)


def recompressed(image: np.ndarray, quality: int) -> np.ndarray:
    """The picture saved again as a JPEG of this quality and read back."""
    check(jpeg=quality)
    ok, buf = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, quality])
    if not ok:
        raise RuntimeError("OpenCV could not encode the picture as JPEG")
    return cv2.imdecode(buf, cv2.IMREAD_COLOR)


def camera_view(image: np.ndarray, rng: np.random.Generator | None = None, jpeg: int | None = None,
                noise: float = 0.0, scale: float = 1.0, light: float = 1.0) -> np.ndarray:
    """The picture as a worse camera shows it: resized by `scale`, its light multiplied by `light` with sensor noise
    of `noise` grey levels (drawn from `rng`), then saved again as a JPEG of quality `jpeg` (None: not saved)."""
    image = relit(resized(image, scale), light, noise, rng)
    return recompressed(image, jpeg) if jpeg is not None else image
