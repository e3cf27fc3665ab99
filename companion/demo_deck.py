"""The demo's deck, enrolled the way a player enrolls theirs: one photo of the deck laid in the `one` grid.

The photo (`datasets/demo/demo-deck-enrollment.jpg`) is rendered by the same synthetic generator and
card style the demo video uses (style 0, back design 0); `python -m companion.demo_deck` renders it
again. The profile is built from it by the normal enrollment path (`vision.enroll.deck.enroll_photos`,
what `companion enroll cards demo-deck --photo PHOTO` does) the first time the demo needs it, and kept
in the player's profile store: the built profile is ~17 MB of arrays, the photo 0.4 MB.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

import cv2
import numpy as np

from companion.demo_render import DEMO_DIR

PROFILE_NAME = "demo-deck"
PHOTO = DEMO_DIR / "demo-deck-enrollment.jpg"
STYLE = 0  # the face style demo_render draws
BACK_DESIGN = 0
SEED = 88
PHOTO_SIZE = (4000, 3000)  # a phone camera's 12 megapixels
STAMP = "demo_photo_sha256"  # manifest key: which photo the stored profile was enrolled from


def enrollment_photo(seed: int = SEED) -> np.ndarray:
    """The whole deck and its back laid in the enrollment grid on a cloth, photographed from one side."""
    from vision.enroll.grids import deck_grids
    from vision.enroll.synthetic import deck_photo

    return deck_photo(STYLE, deck_grids(1)["one"], (BACK_DESIGN,), np.random.default_rng(seed), PHOTO_SIZE).image


def write_photo(path: Path = PHOTO) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    if not cv2.imwrite(str(path), enrollment_photo(), [cv2.IMWRITE_JPEG_QUALITY, 90]):
        raise OSError(f"cannot write {path}")
    return path


def ensure_profile(root: Path | None = None, photo: Path = PHOTO) -> Path:
    """The demo deck's profile folder in the store at `root` (default: the player's), enrolled if missing or stale."""
    from vision.enroll.deck import enroll_photos
    from vision.enroll.store import ProfileError, ProfileStore

    store = ProfileStore(root)
    stamp = hashlib.sha256(photo.read_bytes()).hexdigest()
    try:
        if store.manifest(PROFILE_NAME).get(STAMP) == stamp:
            return store.path(PROFILE_NAME)
    except ProfileError:
        pass
    image = cv2.imread(str(photo), cv2.IMREAD_COLOR)
    if image is None:
        raise OSError(f"cannot read the demo deck's enrollment photo {photo}")
    profile, _ = enroll_photos(PROFILE_NAME, [(image, "one")], backs=1)
    profile.manifest[STAMP] = stamp
    return store.save(profile, overwrite=True)


if __name__ == "__main__":
    print(write_photo())
