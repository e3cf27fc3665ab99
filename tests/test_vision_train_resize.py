"""A classifier exported at one crop size, loaded back for another (`vision.train.classifier.resized`): the larger
face reader of session 12 was fine-tuned from the smaller one this way."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

MODELS = Path(__file__).resolve().parents[1] / "models"


def _layers(model, kind):  # noqa: ANN001, ANN202
    return [m for m in model if isinstance(m, kind)]


def test_resized_keeps_the_convolutions_and_reads_the_new_size() -> None:
    torch = pytest.importorskip("torch", reason="training needs the .[train] extra")
    pytest.importorskip("onnx", reason="training needs the .[train] extra")
    from vision.train.classifier import load_onnx

    onnx_path = next(p for p in (MODELS / "cards-index.onnx", MODELS / "cards-face.onnx") if p.exists())
    small = load_onnx(onnx_path)
    large = load_onnx(onnx_path, (56, 80))
    for a, b in zip(_layers(small, torch.nn.Conv2d), _layers(large, torch.nn.Conv2d), strict=True):
        assert torch.equal(a.weight, b.weight) and torch.equal(a.bias, b.bias)
    assert torch.equal(_layers(small, torch.nn.Linear)[1].weight, _layers(large, torch.nn.Linear)[1].weight)
    assert _layers(large, torch.nn.Linear)[0].in_features == 96 * (80 // 8) * (56 // 8)
    large.eval()
    with torch.no_grad():
        out = large(torch.zeros(2, 3, 80, 56))
    assert out.shape == (2, _layers(small, torch.nn.Linear)[1].out_features)


def test_resized_dense_layer_answers_a_uniform_map_alike() -> None:
    """Weights interpolated over the map and scaled by the area ratio: a feature map that is the same everywhere
    gives the first dense layer the same input sum at either size when the weights do not vary over the map."""
    torch = pytest.importorskip("torch", reason="training needs the .[train] extra")
    from vision.train.classifier import build_model, resized

    old = build_model(batchnorm=False, size=(32, 44))
    dense = _layers(old, torch.nn.Linear)[0]
    rng = np.random.default_rng(3)
    per_channel = torch.from_numpy(rng.normal(0, 0.1, (dense.out_features, 96, 1, 1)).astype(np.float32))
    with torch.no_grad():
        dense.weight.copy_(per_channel.expand(-1, -1, 44 // 8, 32 // 8).reshape(dense.out_features, -1))
    new = resized(old, (32, 44), (40, 56))
    new_dense = _layers(new, torch.nn.Linear)[0]
    features = torch.from_numpy(rng.random((1, 96, 1, 1)).astype(np.float32))
    with torch.no_grad():
        a = dense(features.expand(-1, -1, 44 // 8, 32 // 8).reshape(1, -1))
        b = new_dense(features.expand(-1, -1, 56 // 8, 40 // 8).reshape(1, -1))
    assert torch.allclose(a, b, atol=1e-4)


def test_faces_cut_at_the_court_readers_size_are_shrunk_for_the_face_reader(tmp_path: Path) -> None:
    """`classifier.load`: a folder of 40 x 56 faces (synth-court.yaml) trains the 32 x 44 face reader too, and the
    court reader gets them as cut."""
    from vision.cards.geometry import COURT_FACE_H, COURT_FACE_W, FACE_H, FACE_W
    from vision.train.classifier import load

    x = np.zeros((3, COURT_FACE_H, COURT_FACE_W, 3), np.uint8)
    x[:, :, : COURT_FACE_W // 2] = 200  # left half pale: it stays the left half when shrunk
    np.savez(tmp_path / "faces_train_0.npz", x=x, y=np.array([1, 2, 3]))
    faces, labels = load(tmp_path, "train", "face")
    assert faces.shape == (3, FACE_H, FACE_W, 3) and labels.tolist() == [1, 2, 3]
    assert (faces[:, :, : FACE_W // 2 - 1] == 200).all() and (faces[:, :, FACE_W // 2 + 1:] == 0).all()
    courts, _ = load(tmp_path, "train", "court")
    assert np.array_equal(courts, x)
