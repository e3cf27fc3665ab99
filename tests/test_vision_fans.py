"""A Scoundrel weapon stack: each monster lies on the card before it and shows only the top of the one under it."""

from __future__ import annotations

import numpy as np

from vision.cards.geometry import CARD_H_MM, CARD_W_MM, INDEX_BOX_MM, card_to_image
from vision.synth.scene import Placement, compose

STACK = ["7D", "5S", "9C", "QS"]  # the weapon first, then the monsters slain with it, each 24 mm further down


def _stack_scene(seed: int) -> tuple[np.ndarray, list]:
    placements = [Placement(code, (0.0, 24.0 * k), 0.0, 0, 0, "weapon") for k, code in enumerate(STACK)]
    image, truths, _ = compose(placements, np.random.default_rng(seed), (960, 720), max_tilt=0.1, effects=False,
                               fill=(0.45, 0.55), max_turn=20.0)
    return image, truths


def test_an_index_at_a_cards_own_corner_is_its_own_and_one_further_in_is_not() -> None:
    from vision.cards import _at_own_index

    card = np.array([[100, 100], [163, 100], [163, 188], [100, 188]], np.float32)  # 1 px per mm
    h = card_to_image(card)
    own = INDEX_BOX_MM.mean(axis=0)
    points = np.array([own, [CARD_W_MM - own[0], CARD_H_MM - own[1]], own + [0, 24], own + [0, 48]], np.float32)
    in_image = (h[:2, :2] @ points.T).T + h[:2, 2]
    assert _at_own_index(in_image, card[None]).tolist() == [True, True, False, False]
