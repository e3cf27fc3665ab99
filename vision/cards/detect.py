"""Stage 1: the YOLO-OBB card detector through onnxruntime (no torch, no ultralytics at run time).

Output of the exported model: [1, 4 + nc + 1, N] = cx, cy, w, h (letterboxed pixels), nc class
scores (already through a sigmoid), angle in radians. Classes: 0 face-up card, 1 face-down card,
2 index corner.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from pathlib import Path

import cv2
import numpy as np

from vision.cards.geometry import TURNS, turned_back

MODELS = Path(__file__).resolve().parents[2] / "models"
DETECTOR = MODELS / "cards-obb.onnx"
CARD, BACK, INDEX = 0, 1, 2
FULL_SIZE = 416  # the square a whole frame is read at (the training size)
TURNED_BOX_SCORE = 0.7  # a box of the picture turned a quarter counts from this score (`detect_turned`; real tune
# half: at 0 recall 99.24% -> 99.62% and 7 -> 16 extra cards, at 0.5 14, at 0.7 10; turned a quarter 89.31% ->
# 97.71%, 97.33%, 96.56%)


@dataclass
class Boxes:
    """Rotated boxes in image pixels: corner quads (N, 4, 2), class ids and scores."""

    quads: np.ndarray
    classes: np.ndarray
    scores: np.ndarray

    def __getitem__(self, keep: np.ndarray) -> Boxes:
        """The boxes a boolean mask or an index array picks."""
        return Boxes(self.quads[keep].reshape(-1, 4, 2), self.classes[keep], self.scores[keep])

    def of(self, cls: int, least: float = 0.0) -> Boxes:
        """The boxes of one class scoring at least `least`."""
        return self[(self.classes == cls) & (self.scores >= least)]

    @staticmethod
    def merge(parts: list[Boxes]) -> Boxes:
        """One set of the boxes of each part, in turn."""
        return Boxes(np.concatenate([b.quads.reshape(-1, 4, 2) for b in parts]),
                     np.concatenate([b.classes for b in parts]), np.concatenate([b.scores for b in parts]))


VNNI = frozenset({"avx512_vnni", "avx_vnni", "amx_int8"})  # x86 flags of an int8 dot product that keeps 32-bit sums


@cache
def int8_exact(cpuinfo: Path = Path("/proc/cpuinfo")) -> bool:
    """Whether onnxruntime's int8 kernels keep their sums on this CPU.

    On x86 without VNNI they multiply u8 activations by s8 weights in 16-bit pairs that saturate (SSSE3/AVX2
    pmaddubsw), and the int8 card readers then misread cards their float sources read (session 34, an AMD Zen 1:
    21 tests of readings failed, int8 and float outputs up to 0.54 apart). A CPU whose flags are not to be read
    (no /proc/cpuinfo, or no x86 "flags" line: ARM runs its own kernels) is taken to be exact.
    """
    try:
        text = cpuinfo.read_text()
    except OSError:
        return True
    flags = next((line.split(":", 1)[1].split() for line in text.splitlines() if line.startswith("flags")), None)
    return flags is None or bool(VNNI & set(flags))


def source_of(int8: Path) -> Path:
    """The float model an int8 copy is made from: `cards-index.int8.onnx` <- `cards-index.onnx`."""
    if not int8.name.endswith(".int8.onnx"):
        raise ValueError(f"not an int8 model name: {int8.name}")
    return int8.with_name(int8.name.removesuffix(".int8.onnx") + ".onnx")


def runnable(path: Path) -> Path:
    """The model to run for a shipped int8 reader: its float source where the int8 kernels are not exact here."""
    if path.name.endswith(".int8.onnx") and not int8_exact():
        source = source_of(path)
        if source.exists():
            return source
    return path


def session(path: Path, threads: int = 2):  # noqa: ANN201 - onnxruntime.InferenceSession
    import onnxruntime as ort

    opts = ort.SessionOptions()
    opts.intra_op_num_threads = threads
    opts.inter_op_num_threads = 1
    opts.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    # No spin-waiting after a run: the card pipeline runs three sessions in turn (detector, index, face), and
    # each one's idle threads spinning for the next run starved the others (detector + three classifier runs:
    # 136 ms with spinning, 62 ms without, on this 2-core machine).
    opts.add_session_config_entry("session.intra_op.allow_spinning", "0")
    return ort.InferenceSession(str(path), opts, providers=["CPUExecutionProvider"])


@cache
def _detector(path: str):  # noqa: ANN202
    if not Path(path).exists():
        raise FileNotFoundError(f"card detector model missing: {path}")
    return session(Path(path))


def letterbox(image: np.ndarray, size: int) -> tuple[np.ndarray, float, tuple[float, float]]:
    """Resize keeping the aspect ratio, pad to size x size with grey 114; returns the scale and padding."""
    h, w = image.shape[:2]
    scale = min(size / h, size / w)
    nw, nh = int(round(w * scale)), int(round(h * scale))
    resized = cv2.resize(image, (nw, nh), interpolation=cv2.INTER_AREA if scale < 1 else cv2.INTER_LINEAR)
    px, py = (size - nw) / 2, (size - nh) / 2
    top, left = int(round(py - 0.1)), int(round(px - 0.1))
    out = cv2.copyMakeBorder(resized, top, size - nh - top, left, size - nw - left, cv2.BORDER_CONSTANT,
                             value=(114, 114, 114))
    return out, scale, (left, top)


def detect(image: np.ndarray, conf: float = 0.3, iou: float = 0.5, model: Path = DETECTOR,
           size: int | None = None) -> Boxes:
    """Rotated card, back and index boxes in image pixels. `size` (a multiple of 32) is the square the image
    is letterboxed to when the model takes any size: a small crop is read at a small size, fast and at the
    card scale the model was trained on; by default, and for a fixed-size model, the model's own size."""
    sess = _detector(str(model))
    fixed = sess.get_inputs()[0].shape[2]
    size = int(fixed) if isinstance(fixed, int) else (size or FULL_SIZE)
    boxed, scale, (left, top) = letterbox(image, size)
    blob = np.ascontiguousarray(boxed[:, :, ::-1].transpose(2, 0, 1)[None], np.float32) / 255.0
    out = sess.run(None, {sess.get_inputs()[0].name: blob})[0][0]  # (4 + nc + 1, N)
    return decode(out, conf, iou, scale, (left, top))


def detect_turned(image: np.ndarray, first: Boxes, conf: float = 0.3, iou: float = 0.5, model: Path = DETECTOR,
                  size: int | None = None) -> tuple[Boxes, Boxes]:
    """The boxes `first` that `detect` found and those of `detect` on the image turned a quarter, taken back to
    the image, as one set (rotated NMS per class), and the turned picture's own boxes taken back. The detector
    learnt cards lying mostly upright in the picture (no turns in its training, and its last stage on the real
    photos): the real tune half turned a quarter lost a tenth of its cards (recall 99.24% -> 89.31%). The turned
    picture's boxes count from TURNED_BOX_SCORE: below it they mostly box books and cloth."""
    turned = detect(cv2.rotate(image, TURNS[90]), conf, iou, model, size)
    turned = turned[turned.scores >= TURNED_BOX_SCORE]
    turned.quads = turned_back(turned.quads, 90, image.shape).reshape(-1, 4, 2)
    return nms(Boxes.merge([first, turned]), conf, iou), turned


def nms(boxes: Boxes, conf: float, iou: float) -> Boxes:
    """Rotated NMS per class, the boxes sorted by score."""
    rects = [cv2.minAreaRect(q) for q in boxes.quads]
    chosen: list[int] = []
    for cls in np.unique(boxes.classes):
        members = np.nonzero(boxes.classes == cls)[0]
        picked = cv2.dnn.NMSBoxesRotated([rects[i] for i in members], boxes.scores[members].tolist(), conf, iou)
        chosen += [int(members[int(j)]) for j in np.array(picked).reshape(-1)]
    chosen.sort(key=lambda i: -boxes.scores[i])
    return boxes[np.array(chosen, int)]


def decode(out: np.ndarray, conf: float, iou: float, scale: float, pad: tuple[float, float]) -> Boxes:
    """Threshold, rotated NMS per class, and back to image pixels."""
    nc = out.shape[0] - 5
    scores_all = out[4:4 + nc]
    classes = scores_all.argmax(axis=0)
    scores = scores_all.max(axis=0)
    keep = scores >= conf
    if not keep.any():
        return Boxes(np.zeros((0, 4, 2), np.float32), np.zeros(0, int), np.zeros(0, np.float32))
    rects = zip(out[0, keep], out[1, keep], out[2, keep], out[3, keep], np.degrees(out[4 + nc, keep]), strict=True)
    quads = np.array([cv2.boxPoints(((float(a), float(b)), (float(c), float(d)), float(e))) for a, b, c, d, e in rects],
                     np.float32).reshape(-1, 4, 2)
    found = nms(Boxes(quads, classes[keep].astype(int), scores[keep].astype(np.float32)), conf, iou)
    return Boxes((found.quads - np.array(pad, np.float32)) / scale, found.classes, found.scores)
