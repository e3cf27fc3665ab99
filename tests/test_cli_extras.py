"""A command that needs a package of an extra (pyproject.toml) names it on a runtime-only install, not a traceback.

Each case runs the real `companion` entry point in a fresh interpreter with the package made unimportable the way
Python itself marks a module missing (`sys.modules[name] = None`), since this machine has the extras installed.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _without(module: str, *argv: str) -> subprocess.CompletedProcess[str]:
    code = (f"import sys; sys.modules[{module!r}] = None\n"
            "from companion.cli import main\n"
            f"sys.exit(main({list(argv)!r}))")
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300, cwd=ROOT)


@pytest.mark.parametrize(("module", "argv", "package"), [
    ("yaml", ("tiles-eval", str(ROOT / "datasets/tiles/quick.yaml")), "pyyaml"),
    ("PIL", ("vision-bench", "--runs", "1"), "pillow"),
])
def test_a_missing_extra_is_named(module: str, argv: tuple[str, ...], package: str) -> None:
    done = _without(module, *argv)
    assert done.returncode == 2, done.stderr
    assert done.stdout == ""
    assert f"companion {argv[0]}: error: this command needs the Python package {package}" in done.stderr
    assert "pip install -e '.[test]'" in done.stderr and "Traceback" not in done.stderr


def test_a_missing_module_no_extra_installs_still_raises() -> None:
    done = _without("vision.tiles.evaluate", "tiles-eval", str(ROOT / "datasets/tiles/quick.yaml"))
    assert done.returncode == 1 and "ModuleNotFoundError" in done.stderr
