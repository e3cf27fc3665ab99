"""Train the card detector (YOLO11n-OBB from its .yaml, nothing downloaded) and export it to ONNX.

    nice -n 10 python -m vision.train.detector /tmp/cards-synth/data.yaml --epochs 10 --imgsz 416
    python -m vision.train.detector /tmp/cards-synth/data.yaml --export models/cards-obb.onnx [--last]

A further stage starts from the previous stage's weights under another run name, e.g.
    nice -n 10 python -m vision.train.detector DATA --epochs 8 --name obb2 --init /tmp/cards-runs/obb/weights/last.pt

A stage can also start from the shipped ONNX model, when no checkpoint of it is left (fine-tuning on real
photos, `vision.train.real_boxes`):
    python -m vision.train.detector DATA --from-onnx models/cards-obb.onnx /tmp/cards-init.pt
    nice -n 10 python -m vision.train.detector DATA --epochs 8 --name obb5 --init /tmp/cards-init.pt --warmup 0.5

Training is resumable: run the same command again and it continues from `last.pt`. Needs the
`train` extras (torch, ultralytics); the runtime never imports them.
"""

from __future__ import annotations

import argparse
import ast
import shutil
from pathlib import Path

RUNS = Path("/tmp/cards-runs")
NAME = "obb"


def train(data: str, epochs: int, imgsz: int, batch: int, fraction: float, name: str = NAME,
          init: Path | None = None, warmup: float = 3.0, lr0: float | None = None, degrees: float = 0.0) -> Path:
    from ultralytics import YOLO

    last = RUNS / name / "weights" / "last.pt"
    if last.exists():
        model = YOLO(str(last))
        try:
            model.train(resume=True, plots=False, amp=False)
        except AssertionError:  # the run already finished
            pass
    else:
        model = YOLO(str(init) if init else "yolo11n-obb.yaml")
        # ultralytics picks AdamW at about 0.0014 for runs this short; a fine-tune may want a gentler step
        rate = {"optimizer": "AdamW", "lr0": lr0} if lr0 is not None else {}
        model.train(**rate, data=data, epochs=epochs, imgsz=imgsz, batch=batch, workers=2, device="cpu", plots=False,
                    amp=False, project=str(RUNS), name=name, exist_ok=True, close_mosaic=max(1, epochs // 5),
                    fraction=fraction, patience=100, seed=6, warmup_epochs=warmup, deterministic=False, degrees=degrees,
                    fliplr=0.5, mosaic=1.0, scale=0.4, translate=0.1, cache=False, val=True)
    return RUNS / name / "weights"


def checkpoint_from_onnx(onnx_path: Path, out: Path, images: list[Path], imgsz: int) -> None:
    """An ultralytics checkpoint with the weights of an exported model, so training can go on from it.

    The export folded each batch norm into its convolution. Unfolding needs the statistics of each
    convolution's output: the model is first made exact with neutral batch norms (mean 0, variance 1, the
    folded bias as shift), run on `images`, and each batch norm is then given the measured mean and variance
    with a scale and shift that keep the function, so it starts where the export left off in train mode too.
    """
    import cv2
    import numpy as np
    import onnx
    import torch
    from onnx import numpy_helper
    from ultralytics.nn.modules import Conv
    from ultralytics.nn.tasks import OBBModel

    from vision.cards.detect import letterbox

    exported = onnx.load(str(onnx_path))
    weights = {i.name: torch.from_numpy(numpy_helper.to_array(i).copy()) for i in exported.graph.initializer}
    names = ast.literal_eval(next(p.value for p in exported.metadata_props if p.key == "names"))
    model = OBBModel("yolo11n-obb.yaml", nc=len(names), verbose=False)
    model.names = names
    convs = {name: m for name, m in model.named_modules() if isinstance(m, Conv)}
    with torch.no_grad():
        for name, m in convs.items():
            m.conv.weight.copy_(weights.pop(f"{name}.conv.weight"))
            bias = weights.pop(f"{name}.conv.bias")
            m.bn.weight.fill_(1.0)
            m.bn.bias.copy_(bias)
            m.bn.running_mean.zero_()
            m.bn.running_var.fill_(1.0 - m.bn.eps)
        rest = dict(model.named_parameters())
        for key in [k for k in weights if k in rest]:
            rest[key].copy_(weights.pop(key))
        batch = np.stack([letterbox(cv2.imread(str(p)), imgsz)[0][..., ::-1] for p in images]) / 255.0
        x = torch.from_numpy(batch.transpose(0, 3, 1, 2).astype(np.float32))
        stats: dict[str, tuple[torch.Tensor, torch.Tensor]] = {}
        hooks = [m.conv.register_forward_hook(lambda _m, _i, z, n=name: stats.__setitem__(
            n, (z.mean(dim=(0, 2, 3)), z.var(dim=(0, 2, 3))))) for name, m in convs.items()]
        model.eval()
        model(x)
        for h in hooks:
            h.remove()
        for name, m in convs.items():
            mean, var = stats[name]
            m.bn.running_mean.copy_(mean)
            m.bn.running_var.copy_(var)
            m.bn.weight.copy_(torch.sqrt(var + m.bn.eps))
            m.bn.bias.add_(mean)
    left = [k for k in weights if not k.startswith("/") and not k.startswith("onnx::") and "dfl" not in k]
    if left:
        raise ValueError(f"{onnx_path}: weights with no place in the model: {left[:5]}")
    torch.save({"model": model.float(), "train_args": {"task": "obb", "imgsz": imgsz}}, out)
    print(f"wrote {out} from {onnx_path} ({len(convs)} convolutions unfolded on {len(images)} images)")


def export(weights: Path, out: Path, imgsz: int) -> None:
    from ultralytics import YOLO

    model = YOLO(str(weights))
    # any input size: `vision.cards.update` reads a changed region at the card scale of a whole frame
    path = model.export(format="onnx", imgsz=imgsz, dynamic=True, simplify=False, opset=17)
    out.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(path, out)
    print(f"exported {out} ({out.stat().st_size / 1e6:.1f} MB)")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("data")
    p.add_argument("--epochs", type=int, default=10)
    p.add_argument("--imgsz", type=int, default=416)
    p.add_argument("--batch", type=int, default=16)
    p.add_argument("--fraction", type=float, default=1.0)
    p.add_argument("--name", default=NAME, help="run name under /tmp/cards-runs (one per training stage)")
    p.add_argument("--init", type=Path, default=None, help="start from these weights instead of the .yaml")
    p.add_argument("--export", type=Path, default=None, help="export best.pt to this ONNX path instead of training")
    p.add_argument("--last", action="store_true", help="export last.pt (the last epoch) instead of best.pt")
    p.add_argument("--warmup", type=float, default=3.0, help="warm-up epochs (less when fine-tuning)")
    p.add_argument("--lr0", type=float, default=None, help="AdamW's learning rate (default: ultralytics' choice)")
    p.add_argument("--degrees", type=float, default=0.0,
                   help="turn each training picture by up to this many degrees either way (the real photos show "
                        "cards mostly upright)")
    p.add_argument("--from-onnx", nargs=2, type=Path, metavar=("ONNX", "PT"), default=None,
                   help="write a checkpoint with an exported model's weights (calibrated on DATA's val images)")
    a = p.parse_args()
    if a.from_onnx is not None:
        val = sorted((Path(a.data).parent / "images" / "val").glob("*.jpg"))[:32]
        checkpoint_from_onnx(a.from_onnx[0], a.from_onnx[1], val, a.imgsz)
        return
    if a.export is not None:
        weights = RUNS / a.name / "weights"
        best = weights / "best.pt" if (weights / "best.pt").exists() and not a.last else weights / "last.pt"
        export(best, a.export, a.imgsz)
        return
    train(a.data, a.epochs, a.imgsz, a.batch, a.fraction, a.name, a.init, a.warmup, a.lr0, a.degrees)


if __name__ == "__main__":
    main()
