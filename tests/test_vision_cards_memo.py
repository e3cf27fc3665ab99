"""A picture's reading works out each reader crop and its paper lightness once (`vision.cards.memo`), and reads
the same cards as without the memo."""

from __future__ import annotations

import numpy as np
import pytest

from vision.bench import standard_scene
from vision.cards import predict
from vision.cards.backs import paper_lightness
from vision.cards.geometry import face_crop, index_crop
from vision.cards.identity import CLASSIFIER, FACE_READER, classify, read_crops
from vision.cards.memo import one_picture, picture_memo


@pytest.fixture(scope="module")
def scene() -> tuple[np.ndarray, list]:
    return standard_scene()


def test_a_quad_read_twice_in_one_picture_is_read_once(scene: tuple[np.ndarray, list]) -> None:
    image, truths = scene
    quads = [t.corners for t in truths[:3]]

    @one_picture
    def twice() -> tuple[np.ndarray, np.ndarray, int]:
        first = read_crops(image, quads + [quads[0]], (index_crop, (1.0,)))
        memo = picture_memo(image)
        assert memo is not None
        held = len(memo)
        again = read_crops(image, quads[::-1], (index_crop, (1.0,)))
        assert len(memo) == held  # nothing new was read
        return first, again, held

    first, again, held = twice()
    assert held == 3  # the repeated quad was read once
    alone = classify(np.stack([index_crop(image, q) for q in quads]))
    assert np.array_equal(first[:3], alone) and np.array_equal(first[3], alone[0])
    assert np.array_equal(again, alone[::-1])


def test_the_memo_tells_pictures_models_and_crops_apart(scene: tuple[np.ndarray, list]) -> None:
    image, truths = scene
    other = np.ascontiguousarray(image[:, ::-1])
    quad = truths[0].corners

    @one_picture
    def read() -> list[np.ndarray]:
        return [read_crops(image, [quad], (index_crop, (1.0,))), read_crops(other, [quad], (index_crop, (1.0,))),
                read_crops(image, [quad], (index_crop, (1.6,))),
                read_crops(image, [quad], (face_crop, ()), FACE_READER)]

    plain, mirrored, zoomed, face = read()
    assert np.array_equal(plain, classify(index_crop(image, quad)[None]))
    assert np.array_equal(mirrored, classify(index_crop(other, quad)[None]))
    assert np.array_equal(zoomed, classify(index_crop(image, quad, 1.6)[None]))
    assert np.array_equal(face, classify(face_crop(image, quad)[None], FACE_READER))
    assert not np.array_equal(plain, mirrored) and not np.array_equal(plain, zoomed)


def test_the_memo_lasts_one_reading(scene: tuple[np.ndarray, list]) -> None:
    image, _ = scene
    assert picture_memo(image) is None  # outside a reading nothing is kept
    lightness = one_picture(lambda: (paper_lightness(image), picture_memo(image)))
    value, memo = lightness()
    assert memo is not None and memo[paper_lightness] == value
    assert picture_memo(image) is None
    darker = (image * 0.5).astype(np.uint8)
    assert one_picture(lambda: paper_lightness(darker))() < value  # a new picture is measured anew


def test_predict_reads_alike_with_and_without_the_memo(scene: tuple[np.ndarray, list]) -> None:
    image, _ = scene
    with_memo = predict(image)
    without = predict.__wrapped__(image)  # type: ignore[attr-defined]
    assert len(with_memo) == 56
    assert with_memo.codes == without.codes
    assert np.array_equal(with_memo.corners, without.corners)
    assert np.array_equal(with_memo.confidence, without.confidence)


def test_read_crops_names_a_mismatch(scene: tuple[np.ndarray, list]) -> None:
    image, truths = scene
    with pytest.raises(ValueError, match="2 quads but 1 crops"):
        read_crops(image, [truths[0].corners, truths[1].corners], [(index_crop, (1.0,))], CLASSIFIER)


def test_read_crops_of_no_quads_is_empty(scene: tuple[np.ndarray, list]) -> None:
    image, _ = scene
    assert read_crops(image, [], (index_crop, (1.0,))).shape == (0, classify(np.zeros((0, 1, 1, 3))).shape[1])
    assert one_picture(lambda: read_crops(image, [], []))().shape[0] == 0
