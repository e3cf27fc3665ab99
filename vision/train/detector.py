"""Train the card detector (YOLO11n-OBB from its .yaml, nothing downloaded) and export it to ONNX.

    nice -n 10 python -m vision.train.detector /tmp/cards-synth/data.yaml --epochs 10 --imgsz 416
    python -m vision.train.detector /tmp/cards-synth/data.yaml --export models/cards-obb.onnx

Training is resumable: run the same command again and it continues from `last.pt`. Needs the
`train` extras (torch, ultralytics); the runtime never imports them.
"""

from __future__ import annotations

import argparse
import shutil
from pathlib import Path

RUNS = Path("/tmp/cards-runs")
NAME = "obb"


def train(data: str, epochs: int, imgsz: int, batch: int, fraction: float) -> Path:
    from ultralytics import YOLO

    last = RUNS / NAME / "weights" / "last.pt"
    if last.exists():
        model = YOLO(str(last))
        try:
            model.train(resume=True, plots=False, amp=False)
        except AssertionError:  # the run already finished
            pass
    else:
        model = YOLO("yolo11n-obb.yaml")
        model.train(data=data, epochs=epochs, imgsz=imgsz, batch=batch, workers=2, device="cpu", plots=False,
                    amp=False, project=str(RUNS), name=NAME, exist_ok=True, close_mosaic=max(1, epochs // 5),
                    fraction=fraction, patience=100, seed=6, deterministic=False, degrees=0.0, fliplr=0.5,
                    mosaic=1.0, scale=0.4, translate=0.1, cache=False, val=True)
    return RUNS / NAME / "weights"


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
    p.add_argument("--export", type=Path, default=None, help="export best.pt to this ONNX path instead of training")
    a = p.parse_args()
    if a.export is not None:
        weights = RUNS / NAME / "weights"
        best = weights / "best.pt" if (weights / "best.pt").exists() else weights / "last.pt"
        export(best, a.export, a.imgsz)
        return
    train(a.data, a.epochs, a.imgsz, a.batch, a.fraction)


if __name__ == "__main__":
    main()
