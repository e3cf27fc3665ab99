"""A Superheld map is laid from one deck, which holds each card once: two cards of it read as one code cannot
both be right, and the codes that are likeliest together, each once, are found by an assignment."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from vision.assignment import min_cost_assignment
from vision.cards.detect import DETECTOR
from vision.detections import CardDetections


def test_the_cheapest_assignment_is_found() -> None:
    rng = np.random.default_rng(0)
    for _ in range(200):
        n = int(rng.integers(1, 6))
        m = int(rng.integers(n, 8))
        cost = rng.random((n, m)) * 10
        got = min_cost_assignment(cost)
        best = min(sum(cost[i, p[i]] for i in range(n)) for p in itertools.permutations(range(m), n))
        assert len(set(got.tolist())) == n
        assert cost[np.arange(n), got].sum() == pytest.approx(best)


def test_an_assignment_needs_a_column_for_each_row() -> None:
    with pytest.raises(ValueError, match="no more rows than columns"):
        min_cost_assignment(np.zeros((3, 2)))


def test_a_map_of_two_decks_keeps_its_twins() -> None:
    """More than 52 cards are two decks (the synthetic maps of 53-56 cards are), where a card may lie twice."""
    from vision.cards import one_deck

    n = 53
    square = np.array([[0, 0], [63, 0], [63, 88], [0, 88]], np.float32)
    cards = CardDetections(["QS"] * 2 + ["back"] * (n - 2), np.stack([square + [70 * k, 0] for k in range(n)]),
                           np.ones(n, np.float32), np.full(n, -1, np.int16), np.ones(n, bool))
    assert one_deck(np.zeros((100, 100, 3), np.uint8), cards) is cards


@pytest.mark.skipif(not DETECTOR.exists(), reason="card models not built")
def test_cards_read_as_other_cards_of_a_map_get_their_own_codes_back() -> None:
    from vision.cards import one_deck
    from vision.synth.layouts import superheld_map
    from vision.synth.scene import compose
    from vision.truth import truth_detections

    restored = 0
    for seed in (5, 6, 7):
        rng = np.random.default_rng(seed)
        placements, _ = superheld_map(rng, n=24, style=seed)
        image, truths, _ = compose(placements, rng, hands=0, max_tilt=0.2, effects=False, fill=(0.8, 0.9))
        cards = truth_detections(truths)
        faces = [i for i, c in enumerate(cards.codes) if c != "back"]
        misread = cards[np.arange(len(cards))]
        pairs = list(zip(faces[0::2], faces[1::2], strict=False))[:4]
        for a, b in pairs:
            misread.codes[b] = cards.codes[a]  # card b read as card a
        fixed = one_deck(image, misread)
        assert len(set(c for c in fixed.codes if c != "back")) == len(faces)  # no card twice
        assert [fixed.codes[i] for i in faces if i not in {b for _, b in pairs}] == \
            [cards.codes[i] for i in faces if i not in {b for _, b in pairs}]  # a card read once keeps its code
        restored += sum(fixed.codes[a] == cards.codes[a] and fixed.codes[b] == cards.codes[b] for a, b in pairs)
    assert restored >= 10, restored  # of 12 pairs
