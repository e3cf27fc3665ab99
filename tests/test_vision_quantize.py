"""The int8 card readers the runtime runs (session 16): made from their float sources, they read the same cards."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from vision.cards.detect import int8_exact
from vision.cards.geometry import COURT_FACE_H, COURT_FACE_W, face_crop, index_crop
from vision.cards.identity import CLASSIFIER, COURT_READER, FACE_READER, classify
from vision.cards.labels import CROP_CLASSES
from vision.synth.cards import card_height, render_face
from vision.synth.scene import paste_card
from vision.train.quantize import READERS, source_of

CROPS = {CLASSIFIER: lambda image, c: index_crop(image, c, 1.0), FACE_READER: face_crop,
         COURT_READER: lambda image, c: face_crop(image, c, (COURT_FACE_W, COURT_FACE_H))}


CODES = ["AS", "10H", "KD", "7C", "QS", "2H", "JC", "9D", "5S", "8H", "4C", "6D"]


# where the int8 kernels saturate, the runtime runs the float sources (`detect.runnable`): comparing them would
# compare a model with itself
EXACT = pytest.mark.skipif(not int8_exact(), reason="this CPU has no VNNI: onnxruntime's int8 kernels saturate here")


@pytest.fixture(scope="module")
def scene_crops() -> dict[Path, np.ndarray]:
    """Each reader's crops of a row of plain faces on a green cloth, 90 px wide and each a little turned, cut
    through their true outlines."""
    width, h = 90, card_height(90)
    image = np.full((int(h) + 60, 130 * len(CODES), 3), (60, 110, 50), np.uint8)
    outlines = []
    for i, code in enumerate(CODES):
        turn = np.radians(-6 + 12 * (i % 2))
        rot = np.array([[np.cos(turn), -np.sin(turn)], [np.sin(turn), np.cos(turn)]], np.float32)
        corners = np.array([[-width, -h], [width, -h], [width, h], [-width, h]], np.float32) / 2
        outlines.append(corners @ rot.T + np.array([65 + 130 * i, image.shape[0] / 2], np.float32))
        paste_card(image, render_face(code, style=0, width=width * 4), outlines[-1])
    return {model: np.stack([cut(image, o) for o in outlines]) for model, cut in CROPS.items()}


def test_an_int8_model_is_named_after_its_float_source() -> None:
    assert source_of(Path("models/cards-index.int8.onnx")) == Path("models/cards-index.onnx")
    with pytest.raises(ValueError, match="not an int8 model"):
        source_of(Path("models/cards-index.onnx"))
    assert set(READERS) == {CLASSIFIER, FACE_READER, COURT_READER}


@EXACT
@pytest.mark.parametrize("model", READERS, ids=lambda p: p.name)
def test_the_int8_reader_reads_what_its_float_source_reads(model: Path, scene_crops: dict[Path, np.ndarray]) -> None:
    if not (model.exists() and source_of(model).exists()):
        pytest.skip(f"{model.name} or its source is not shipped")
    crops = scene_crops[model]
    exact, fast = classify(crops, source_of(model)), classify(crops, model)
    sure = exact.max(axis=1) >= 0.9
    assert sure.sum() >= len(crops) * 3 // 4  # the float reader reads most whole upright cards surely
    assert (exact.argmax(axis=1) == fast.argmax(axis=1))[sure].all()
    assert np.abs(exact - fast).max() < 0.3
    assert [CROP_CLASSES[k] for k in fast.argmax(axis=1)] == CODES


@EXACT
def test_quantizing_a_reader_writes_an_int8_model_that_agrees(tmp_path: Path,
                                                              scene_crops: dict[Path, np.ndarray]) -> None:
    pytest.importorskip("onnx")
    from vision.train.quantize import quantize

    source = source_of(CLASSIFIER)
    if not source.exists():
        pytest.skip("the index reader is not shipped")
    target = tmp_path / "cards-index.int8.onnx"
    crops = scene_crops[CLASSIFIER]
    quantize(source, target, crops)
    import onnx

    ops = {n.op_type for n in onnx.load(str(target)).graph.node}
    assert {"QuantizeLinear", "DequantizeLinear"} <= ops
    assert not list(tmp_path.glob("*.pre"))  # the prepared copy is removed
    exact, fast = classify(crops, source), classify(crops, target)
    assert (exact.argmax(axis=1) == fast.argmax(axis=1)).mean() >= 0.95


@EXACT
def test_the_agreement_of_an_int8_reader_is_measured_on_crops(scene_crops: dict[Path, np.ndarray]) -> None:
    from vision.train.quantize import agreement

    if not (FACE_READER.exists() and source_of(FACE_READER).exists()):
        pytest.skip("the face reader is not shipped")
    got = agreement(FACE_READER, scene_crops[FACE_READER], batch=4)
    assert got["crops"] == len(CODES)
    assert got["same"] == got["same_sure"] == 1.0
    assert got["float_ms"] > 0 and got["int8_ms"] > 0
