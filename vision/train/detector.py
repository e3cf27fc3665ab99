"""Train the card detector (YOLO11n-OBB from its .yaml, nothing downloaded) and export it to ONNX.

    nice -n 10 python -m vision.train.detector /tmp/cards-synth/data.yaml --epochs 10 --imgsz 416
    python -m vision.train.detector /tmp/cards-synth/data.yaml --export models/cards-obb.onnx

A further stage starts from the previous stage's weights under another run name, e.g.
    nice -n 10 python -m vision.train.detector DATA --epochs 8 --name obb2 --init /tmp/cards-runs/obb/weights/last.pt

Training is resumable: run the same command again and it continues from `last.pt`. Needs the
`train` extras (torch, ultralytics); the runtime never imports them.
"""

from __future__ import annotations

import argparse
import shutil
from pathlib import Path

RUNS = Path("/tmp/cards-runs")
NAME = "obb"


def train(data: str, epochs: int, imgsz: int, batch: int, fraction: float, name: str = NAME,
          init: Path | None = None) -> Path:
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
        model.train(data=data, epochs=epochs, imgsz=imgsz, batch=batch, workers=2, device="cpu", plots=False,
                    amp=False, project=str(RUNS), name=name, exist_ok=True, close_mosaic=max(1, epochs // 5),
                    fraction=fraction, patience=100, seed=6, deterministic=False, degrees=0.0, fliplr=0.5,
                    mosaic=1.0, scale=0.4, translate=0.1, cache=False, val=True)
    return RUNS / name / "weights"


def export(weights: Path, out: Path, imgsz: int) -> None:
    from ultralytics import YOLO

    model = YOLO(str(weights))
    path = model.export(format="onnx", imgsz=imgsz, dynamic=False, simplify=True, opset=17)
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
    a = p.parse_args()
    if a.export is not None:
        weights = RUNS / a.name / "weights"
        best = weights / "best.pt" if (weights / "best.pt").exists() else weights / "last.pt"
        export(best, a.export, a.imgsz)
        return
    train(a.data, a.epochs, a.imgsz, a.batch, a.fraction, a.name, a.init)


if __name__ == "__main__":
    main()
