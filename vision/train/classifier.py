"""Train the index-crop classifier (a small CNN, 54 classes) on generated crops and export it to ONNX.

    nice -n 10 python -m vision.train.classifier /tmp/cards-synth models/cards-index.onnx --epochs 12

Fine-tune the shipped model on synthetic crops mixed with real ones (the `tune` half of a folder of
annotated photos, rank-only labels, see `vision.train.real_crops`):

    nice -n 10 python -m vision.train.classifier /tmp/cards-synth models/cards-index.onnx \
        --init models/cards-index.onnx --real ../shared/data/real-cards-dev --epochs 4

The face reader is the same network on whole-card crops (faces_*.npz), trained with `--kind face`:

    nice -n 10 python -m vision.train.classifier /tmp/cards-synth models/cards-face.onnx --kind face --epochs 6

The court reader (`models/cards-face-court.onnx`) is the face reader at a larger size, on faces cut at that size
(`datasets/cards/synth-court.yaml`), started from the face reader's weights (`resized`) and then tuned on courts:

    nice -n 10 python -m vision.train.classifier /tmp/cards-court /tmp/court8.onnx --kind court --epochs 5 \
        --init models/cards-face.onnx --real ../shared/data/real-cards-dev --skew 6
    nice -n 10 python -m vision.train.classifier /tmp/cards-court models/cards-face-court.onnx --kind court \
        --courts --epochs 4 --init /tmp/court8.onnx --real ../shared/data/real-cards-dev --skew 6

Session 13 tuned it twice more on courts, from session 12's reader (`git show 2ab3d51:models/cards-face-court.onnx
> /tmp/court/court12.onnx`), first with the faces of seeds 6, 7 and 8 (a folder of links to the three sets'
faces_*.npz), then of seeds 6 to 10:

    nice -n 10 python -m vision.train.classifier /tmp/court/all /tmp/court/court13.onnx --kind court \
        --courts --epochs 4 --init /tmp/court/court12.onnx --real ../shared/data/real-cards-dev --skew 6
    nice -n 10 python -m vision.train.classifier /tmp/court/all5 models/cards-face-court.onnx --kind court \
        --courts --epochs 3 --init /tmp/court/court13.onnx --real ../shared/data/real-cards-dev --skew 6

Session 18 tuned it once more on fresh courts: `datasets/cards/synth-court.yaml` with `seed: 11`, 12 and 13 (each
seed into its own folder, their faces_*.npz linked into /tmp/court/all3), then from the shipped reader:

    nice -n 2 python -m vision.train.classifier /tmp/court/all3 /tmp/court/court18.onnx --kind court --courts \
        --epochs 3 --threads 2 --init models/cards-face-court.onnx --real ../shared/data/real-cards-dev --skew 6

then with seeds 14 and 15 too (the five seeds linked into /tmp/court/s11-15):

    nice -n 2 python -m vision.train.classifier /tmp/court/s11-15 /tmp/court/court18b.onnx --kind court --courts \
        --epochs 2 --threads 2 --init /tmp/court/court18.onnx --real ../shared/data/real-cards-dev --skew 6

and copied to `models/cards-face-court.onnx` (its int8 copy by `vision.train.quantize`, see `models/cards.md`).

Session 19 tuned it on printed courts (`datasets/cards/synth-court-art.yaml` at seeds 20, 21 and 22) beside the
generator's own (`synth-court.yaml` at seeds 16 and 17), the five seeds' faces_*.npz linked into /tmp/court/art5:

    nice -n 2 python -m vision.train.classifier /tmp/court/art5 /tmp/court/court19.onnx --kind court --courts \
        --epochs 3 --threads 2 --init models/cards-face-court.onnx --real ../shared/data/real-cards-dev --skew 6

The crops come from `vision.synth.generate` (crops_*.npz, faces_*.npz). The network is small on purpose: one
batch of 56 crops must take a few milliseconds on this CPU.
"""

from __future__ import annotations

import argparse
import glob
import time
from pathlib import Path

import cv2
import numpy as np

from vision.cards.geometry import COURT_FACE_H, COURT_FACE_W, CROP_H, CROP_W, FACE_H, FACE_W
from vision.cards.labels import CROP_CLASSES

# What each reader is trained on: the generator's file prefix and the crop size (w, h).
KINDS: dict[str, tuple[str, tuple[int, int]]] = {"index": ("crops", (CROP_W, CROP_H)),
                                                  "face": ("faces", (FACE_W, FACE_H)),
                                                  "court": ("faces", (COURT_FACE_W, COURT_FACE_H))}


def load(folder: Path, split: str, kind: str = "index") -> tuple[np.ndarray, np.ndarray]:
    """The crops of `kind` in `folder`, shrunk to its reader's size where they were cut larger (the court
    reader's 40 x 56 faces then also train the face reader)."""
    prefix, (w, h) = KINDS[kind]
    xs, ys = [], []
    for f in sorted(glob.glob(str(folder / f"{prefix}_{split}_*.npz"))):
        d = np.load(f)
        if len(d["y"]):
            x = d["x"]
            if x.shape[1:3] != (h, w):
                x = np.stack([cv2.resize(c, (w, h), interpolation=cv2.INTER_AREA) for c in x])
            xs.append(x)
            ys.append(d["y"])
    return np.concatenate(xs), np.concatenate(ys).astype(np.int64)


def build_model(batchnorm: bool = True, size: tuple[int, int] = (CROP_W, CROP_H)):  # noqa: ANN201 - torch is lazy
    """The CNN for crops of `size` (w, h); without batch norm it has the layout of the exported ONNX graph (norms
    folded into the convs), so an exported model can be loaded back for fine-tuning."""
    import torch.nn as nn

    def conv(cin: int, cout: int) -> list:
        if batchnorm:
            return [nn.Conv2d(cin, cout, 3, padding=1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(inplace=True)]
        return [nn.Conv2d(cin, cout, 3, padding=1), nn.ReLU(inplace=True)]

    def block(cin: int, cout: int) -> list:
        return [*conv(cin, cout), *conv(cout, cout), nn.MaxPool2d(2)]

    return nn.Sequential(*block(3, 24), *block(24, 48), *block(48, 96), nn.Flatten(), nn.Dropout(0.3),
                         nn.Linear(96 * (size[1] // 8) * (size[0] // 8), 192), nn.ReLU(inplace=True),
                         nn.Linear(192, len(CROP_CLASSES)))


def load_onnx(path: Path, size: tuple[int, int] | None = None):  # noqa: ANN201
    """The exported classifier as a torch model (no batch norm), its weights taken from the ONNX initializers;
    with `size` (w, h) unlike the export's, the model for that size (`resized`)."""
    import onnx
    import torch
    from onnx import numpy_helper

    graph = onnx.load(str(path)).graph
    weights = {i.name: numpy_helper.to_array(i) for i in graph.initializer}
    dims = [d.dim_value for d in graph.input[0].type.tensor_type.shape.dim]  # n, 3, h, w
    model = build_model(batchnorm=False, size=(dims[3], dims[2]))
    layers = [m for m in model if isinstance(m, torch.nn.Conv2d | torch.nn.Linear)]
    nodes = [n for n in graph.node if n.op_type in ("Conv", "Gemm")]
    if len(nodes) != len(layers):
        raise ValueError(f"{path}: {len(nodes)} conv/linear layers, the classifier has {len(layers)}")
    with torch.no_grad():
        for layer, node in zip(layers, nodes, strict=True):
            layer.weight.copy_(torch.from_numpy(weights[node.input[1]].copy()))
            layer.bias.copy_(torch.from_numpy(weights[node.input[2]].copy()))
    return model if size is None or size == (dims[3], dims[2]) else resized(model, (dims[3], dims[2]), size)


def resized(model, old: tuple[int, int], size: tuple[int, int]):  # noqa: ANN001, ANN201
    """The network for crops of `old` size (w, h) made for another `size`: the convolutions as they are, the first
    dense layer's weights over the last feature map interpolated onto the new map and scaled by the area ratio, so
    a larger crop starts from what the smaller one learnt instead of from scratch."""
    import torch
    import torch.nn.functional as F

    new = build_model(batchnorm=False, size=size)
    old_dense = [m for m in model if isinstance(m, torch.nn.Linear)]
    new_dense = [m for m in new if isinstance(m, torch.nn.Linear)]
    old_convs = [m for m in model if isinstance(m, torch.nn.Conv2d)]
    new_convs = [m for m in new if isinstance(m, torch.nn.Conv2d)]
    channels = old_convs[-1].out_channels
    with torch.no_grad():
        for a, b in zip(old_convs, new_convs, strict=True):
            b.load_state_dict(a.state_dict())
        first = old_dense[0].weight
        old_hw = (old[1] // 8, old[0] // 8)
        grid = first.reshape(first.shape[0] * channels, 1, *old_hw)
        target = (size[1] // 8, size[0] // 8)
        grid = F.interpolate(grid, size=target, mode="bilinear", align_corners=True)
        scale = (old_hw[0] * old_hw[1]) / (target[0] * target[1])
        new_dense[0].weight.copy_(grid.reshape(first.shape[0], -1) * scale)
        new_dense[0].bias.copy_(old_dense[0].bias)
        new_dense[1].load_state_dict(old_dense[1].state_dict())
    return new


def augment(x: np.ndarray, rng: np.random.Generator, turn: bool = False, skew: float = 0.0) -> np.ndarray:
    """Photometric jitter and small shifts on a uint8 batch (N, H, W, 3) -> float (N, 3, H, W) in 0..1; with
    `turn`, half the crops turned by 180 degrees (a face reads the same either way up, an index does not); with
    `skew`, half of them warped as an outline off by up to `skew` degrees and 6% of its size would cut them."""
    n = len(x)
    if skew:
        x = x.copy()
        h, w = x.shape[1:3]
        for i in np.nonzero(rng.random(n) < 0.5)[0]:
            m = cv2.getRotationMatrix2D((w / 2 + rng.normal(0, 1), h / 2 + rng.normal(0, 1)),
                                        float(rng.uniform(-skew, skew)), float(rng.uniform(0.94, 1.06)))
            x[i] = cv2.warpAffine(x[i], m, (w, h), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    f = x.astype(np.float32) / 255.0
    if turn:
        half = rng.random(n) < 0.5
        f[half] = f[half, ::-1, ::-1]
    f = f * rng.uniform(0.6, 1.4, (n, 1, 1, 1)) + rng.uniform(-0.2, 0.2, (n, 1, 1, 1))
    f = f * rng.uniform(0.85, 1.15, (n, 1, 1, 3))
    mean = f.mean(axis=(1, 2, 3), keepdims=True)
    f = (f - mean) * rng.uniform(0.6, 1.3, (n, 1, 1, 1)) + mean
    f += rng.normal(0, 1, (n, 1, 1, 1)) * rng.uniform(0, 0.05) * rng.standard_normal(f.shape)
    for i in np.nonzero(rng.random(n) < 0.5)[0]:
        f[i] = np.roll(f[i], (int(rng.integers(-2, 3)), int(rng.integers(-2, 3))), axis=(0, 1))
    return np.ascontiguousarray(f.clip(0, 1).transpose(0, 3, 1, 2), dtype=np.float32)


def normalise(x: np.ndarray) -> np.ndarray:
    return np.ascontiguousarray((x.astype(np.float32) / 255.0).transpose(0, 3, 1, 2))


def set_loss(logits, masks):  # noqa: ANN001, ANN201
    """-log P(label set): a one-class set is cross-entropy; a rank-only real label sums its four suits."""
    import torch

    allowed = logits.masked_fill(~masks, float("-inf"))
    return (torch.logsumexp(logits, 1) - torch.logsumexp(allowed, 1)).mean()


def one_hot(y: np.ndarray) -> np.ndarray:
    masks = np.zeros((len(y), len(CROP_CLASSES)), bool)
    masks[np.arange(len(y)), y] = True
    return masks


def courts_and_as_many(x: np.ndarray, y: np.ndarray, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """Every crop of a court card and about as many others drawn at random: the court reader is only ever shown
    faces the face reader takes for courts, so it is tuned on those, the others kept so it still says which are not."""
    from vision.cards.identity import COURTS

    court = COURTS[y]
    other = ~court
    keep = court | (other & (rng.random(len(y)) < court.sum() / max(int(other.sum()), 1)))
    return x[keep], y[keep]


def train(folder: Path, out: Path, epochs: int, threads: int, init: Path | None = None, real: Path | None = None,
          real_share: float = 0.25, kind: str = "index", skew: float = 0.0, courts: bool = False) -> None:
    import torch

    torch.set_num_threads(threads)
    torch.manual_seed(6)
    rng = np.random.default_rng(6)
    x, y = load(folder, "train", kind)
    xv, yv = load(folder, "val", kind)
    if courts:
        pick = np.random.default_rng(12)
        x, y = courts_and_as_many(x, y, pick)
        xv, yv = courts_and_as_many(xv, yv, pick)
    size = KINDS[kind][1]
    masks = one_hot(y)
    xr, mr = (np.zeros((0, *x.shape[1:]), np.uint8), np.zeros((0, masks.shape[1]), bool))
    if real is not None:
        from vision.train.real_crops import collect

        xr, mr = collect(real, "tune", kind=kind)
    print(f"train {len(x)} synthetic + {len(xr)} real crops, val {len(xv)} crops, {len(CROP_CLASSES)} classes",
          flush=True)
    model = load_onnx(init, size) if init is not None else build_model(size=size)
    lr = 5e-4 if init is not None else 3e-3
    opt = torch.optim.AdamW(model.parameters(), lr=lr, weight_decay=1e-4)
    n_real = int(128 * real_share) if len(xr) else 0
    steps = epochs * -(-len(x) // (128 - n_real))  # batches per epoch: the synthetic part of each is 128 - n_real
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=lr, total_steps=steps)
    for epoch in range(epochs):
        model.train()
        order = rng.permutation(len(x))
        start, total = time.time(), 0.0
        for b in range(0, len(x), 128 - n_real):
            idx = order[b:b + 128 - n_real]
            xb, mb = x[idx], masks[idx]
            if n_real:
                ridx = rng.integers(0, len(xr), n_real)
                xb, mb = np.concatenate([xb, xr[ridx]]), np.concatenate([mb, mr[ridx]])
            batch = torch.from_numpy(augment(xb, rng, turn=kind != "index", skew=skew))
            loss = set_loss(model(batch), torch.from_numpy(mb))
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            total += float(loss.detach()) * len(idx)
        acc = accuracy(model, xv, yv)
        print(f"epoch {epoch + 1}/{epochs} loss {total / len(x):.4f} val acc {acc:.4f} ({time.time() - start:.0f} s)",
              flush=True)
    export(model, out, size)


def accuracy(model, x: np.ndarray, y: np.ndarray) -> float:  # noqa: ANN001
    import torch

    model.eval()
    with torch.no_grad():
        pred = np.concatenate([model(torch.from_numpy(normalise(x[b:b + 512]))).argmax(1).numpy()
                               for b in range(0, len(x), 512)])
    return float((pred == y).mean())


def export(model, out: Path, size: tuple[int, int] = (CROP_W, CROP_H)) -> None:  # noqa: ANN001
    import torch

    model.eval()
    out.parent.mkdir(parents=True, exist_ok=True)
    dummy = torch.zeros(1, 3, size[1], size[0])
    torch.onnx.export(model, dummy, str(out), input_names=["crops"], output_names=["logits"],
                      dynamic_axes={"crops": {0: "n"}, "logits": {0: "n"}}, opset_version=17, dynamo=False)
    print(f"exported {out} ({out.stat().st_size / 1e6:.2f} MB)", flush=True)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("folder", type=Path)
    p.add_argument("out", type=Path)
    p.add_argument("--epochs", type=int, default=12)
    p.add_argument("--threads", type=int, default=1)
    p.add_argument("--init", type=Path, default=None, help="start from this exported ONNX classifier")
    p.add_argument("--real", type=Path, default=None, help="annotated real photos: mix crops of their tune half")
    p.add_argument("--real-share", type=float, default=0.25, help="the share of each batch the real crops fill")
    p.add_argument("--kind", choices=sorted(KINDS), default="index",
                   help="index corners, whole faces, or whole faces at the court reader's size")
    p.add_argument("--courts", action="store_true", help="train on every court crop and as many others")
    p.add_argument("--skew", type=float, default=0.0, help="warp half of each batch as an outline this many "
                   "degrees off would (0: none)")
    a = p.parse_args()
    train(a.folder, a.out, a.epochs, a.threads, a.init, a.real, a.real_share, kind=a.kind, skew=a.skew,
          courts=a.courts)


if __name__ == "__main__":
    main()
