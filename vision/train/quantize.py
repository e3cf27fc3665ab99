"""Int8 copies of the card readers, the ones the runtime runs (`vision.cards.identity`).

The index, face and court readers are small CNNs whose convolutions take most of a frame's time (56 cards: about
100 ms of 180 on this 2-core machine). Quantized to int8 (static, per channel, QDQ) they run about 2 times faster
(3 under load) on the CPU's integer dot-product units and read the same cards (session 16: `models/cards.md`). The
float models stay the trained weights: fine-tuning starts from them (`vision.train.classifier --init`), and each
int8 copy is made from its float source with activation ranges calibrated on the crops the pipeline itself reads:

    python -m vision.train.quantize --real ../shared/data/real-cards-dev

Needs the `train` extra (`onnx`); the runtime loads the int8 files with onnxruntime alone.
"""

from __future__ import annotations

import argparse
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import cv2
import numpy as np

from vision.cards import identity
from vision.cards.detect import source_of
from vision.evaluate import synthetic_scenes
from vision.real_photos import real_images

READERS = (identity.CLASSIFIER, identity.FACE_READER, identity.COURT_READER)  # the int8 files the runtime runs
CALIBRATION_SEED = 31337  # generator scenes no evaluation or training set uses
CALIBRATION_CROPS = 1024  # per reader, drawn at random from those recorded


@contextmanager
def _recorded(crops: dict[str, list[np.ndarray]]) -> Iterator[None]:
    """Run the pipeline on its float readers, keeping every batch of crops each reader is given (`classify` is
    replaced in each module that imported it)."""
    from vision.cards import readings

    classify = identity.classify
    holders = (identity, readings)

    def spy(batch: np.ndarray, model: Path = identity.CLASSIFIER) -> np.ndarray:
        crops.setdefault(Path(model).name, []).append(batch.copy())
        return classify(batch, source_of(Path(model)))

    for module in holders:
        module.classify = spy  # type: ignore[attr-defined]
    try:
        yield
    finally:
        for module in holders:
            module.classify = classify  # type: ignore[attr-defined]


def calibration_crops(scenes: int = 16, seed: int = CALIBRATION_SEED, real: Path | None = None,
                      every: int = 3) -> dict[str, np.ndarray]:
    """The crops each reader reads in `scenes` generator scenes and every `every`-th photo of the real tune
    half: uint8 (N, H, W, 3) per int8 model name."""
    from vision.cards import predict

    recorded: dict[str, list[np.ndarray]] = {}
    with _recorded(recorded):
        for *_, image, _ in synthetic_scenes(seed, scenes):
            predict(image)
        for photo, _ in (real_images(real, "tune")[::every] if real else []):
            image = cv2.imread(str(photo))
            if image is None:
                raise ValueError(f"unreadable calibration photo: {photo}")
            predict(image)
    return {name: np.concatenate(batches) for name, batches in recorded.items()}


def quantize(source: Path, target: Path, crops: np.ndarray, seed: int = 0) -> None:
    """Write `target`, the int8 (QDQ, per-channel weights) copy of `source`, its activation ranges the min and max
    over up to CALIBRATION_CROPS of `crops`. Only the convolutions are quantized: they are the time, and the dense
    layers kept in float read closer to the float model (face reader: 99.91% of 1134 crops alike, 99.12% with
    them quantized; court reader 98.88% against 96.65%)."""
    import onnxruntime as ort
    from onnxruntime.quantization import (
        CalibrationDataReader,
        CalibrationMethod,
        QuantFormat,
        QuantType,
        quantize_static,
    )
    from onnxruntime.quantization.shape_inference import quant_pre_process

    name = ort.InferenceSession(str(source), providers=["CPUExecutionProvider"]).get_inputs()[0].name
    pick = np.random.default_rng(seed).permutation(len(crops))[:CALIBRATION_CROPS]
    blob = crops[pick].transpose(0, 3, 1, 2).astype(np.float32) / 255.0

    class Batches(CalibrationDataReader):
        def __init__(self) -> None:
            self.batches = iter([{name: blob[i:i + 64]} for i in range(0, len(blob), 64)])

        def get_next(self) -> dict[str, np.ndarray] | None:
            return next(self.batches, None)

    prepared = target.with_name(target.name + ".pre")
    try:
        quant_pre_process(str(source), str(prepared))
        quantize_static(str(prepared), str(target), Batches(), quant_format=QuantFormat.QDQ, per_channel=True,
                        activation_type=QuantType.QUInt8, weight_type=QuantType.QInt8,
                        op_types_to_quantize=["Conv"], calibrate_method=CalibrationMethod.MinMax)
    finally:
        prepared.unlink(missing_ok=True)


def agreement(target: Path, crops: np.ndarray, batch: int = 56) -> dict[str, float]:
    """How closely an int8 reader follows its float source on `crops`: the share read as the same class, that
    share among the crops the float reader reads at SURE_READING or more, and the median ms of a `batch` of crops
    through each (a map's 56 cards)."""
    from vision.bench import _time

    exact, fast = identity.classify(crops, source_of(target)), identity.classify(crops, target)
    same = exact.argmax(axis=1) == fast.argmax(axis=1)
    sure = exact.max(axis=1) >= identity.SURE_READING
    ms = {}
    for name, model in (("float_ms", source_of(target)), ("int8_ms", target)):
        identity.classify(crops[:batch], model)  # warm-up: the session loads once
        ms[name], _ = _time(lambda model=model: identity.classify(crops[:batch], model), 20)
    return {"crops": float(len(crops)), "same": float(same.mean()), "same_sure": float(same[sure].mean()), **ms}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--scenes", type=int, default=16, help="generator scenes to record crops on")
    parser.add_argument("--seed", type=int, default=CALIBRATION_SEED)
    parser.add_argument("--real", type=Path, default=None, help="the real photos' folder (its tune half is used)")
    parser.add_argument("--compare", action="store_true",
                        help="write nothing: print how closely the shipped int8 readers follow their float sources "
                             "on the crops recorded (use another --seed than the calibration's)")
    parser.add_argument("--only", choices=[r.name for r in READERS], default=None,
                        help="quantize (or compare) this reader alone: the one just tuned, the others kept as shipped")
    args = parser.parse_args(argv)
    crops = calibration_crops(args.scenes, args.seed, args.real)
    for target in READERS:
        if args.only is not None and target.name != args.only:
            continue
        if target.name not in crops:
            raise SystemExit(f"no crops were read by {target.name}: more scenes are needed")
        if args.compare:
            got = agreement(target, crops[target.name])
            print(f"{target.name}: {got['crops']:.0f} crops, same class {100 * got['same']:.2f}% (of those the float "
                  f"reader reads surely {100 * got['same_sure']:.2f}%); 56 crops {got['float_ms']:.1f} ms float, "
                  f"{got['int8_ms']:.1f} ms int8")
            continue
        quantize(source_of(target), target, crops[target.name])
        print(f"{target.name}: {len(crops[target.name])} crops recorded, written from {source_of(target).name}")


if __name__ == "__main__":
    main()
