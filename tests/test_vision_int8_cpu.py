"""The int8 card readers run only where onnxruntime's int8 kernels keep their sums (session 34): on an x86 CPU
without VNNI (an AMD Zen 1 here) they saturate and the runtime runs the float sources instead."""

from __future__ import annotations

from pathlib import Path

from vision.cards.detect import MODELS, int8_exact, runnable, source_of
from vision.cards.identity import CLASSIFIER


def _cpuinfo(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "cpuinfo"
    path.write_text(text)
    return path


def test_x86_flags_without_vnni_are_not_exact(tmp_path: Path) -> None:
    zen1 = "processor\t: 0\nflags\t\t: fpu sse2 ssse3 avx avx2 fma\n"
    assert not int8_exact.__wrapped__(_cpuinfo(tmp_path, zen1))
    for vnni in ("avx512_vnni", "avx_vnni", "amx_int8"):
        assert int8_exact.__wrapped__(_cpuinfo(tmp_path, zen1.replace("fma", f"fma {vnni}")))


def test_a_cpu_whose_flags_are_unknown_is_taken_as_exact(tmp_path: Path) -> None:
    arm = "processor\t: 0\nFeatures\t: fp asimd asimddp\n"
    assert int8_exact.__wrapped__(_cpuinfo(tmp_path, arm))
    assert int8_exact.__wrapped__(tmp_path / "no-such-file")


def test_the_runtime_runs_the_float_source_where_int8_is_not_exact() -> None:
    run = runnable(CLASSIFIER)
    if int8_exact():
        assert run == CLASSIFIER
    else:
        assert run == source_of(CLASSIFIER) and run.exists()
    assert runnable(MODELS / "cards-obb.onnx") == MODELS / "cards-obb.onnx"
