"""The real-photo folder reader and its fixed split: tuning and held-out halves never share a photo."""

from __future__ import annotations

from pathlib import Path

import pytest

from vision.real_photos import read_voc, real_images

VOC = """<annotation><size><width>40</width><height>30</height></size>
<object><name>Queen</name><bndbox><xmin>1</xmin><ymin>2</ymin><xmax>11</xmax><ymax>22</ymax></bndbox></object>
<object><name>ten</name><bndbox><xmin>5</xmin><ymin>6</ymin><xmax>15</xmax><ymax>26</ymax></bndbox></object>
</annotation>"""


def _folder(tmp_path: Path, n: int) -> Path:
    for i in range(n):
        (tmp_path / f"img{i}.jpg").write_bytes(b"x")
        (tmp_path / f"img{i}.xml").write_text(VOC)
    (tmp_path / "orphan.xml").write_text(VOC)  # no image: not listed
    return tmp_path


def test_split_halves_are_disjoint_and_cover_all(tmp_path: Path) -> None:
    folder = _folder(tmp_path, 7)
    every = real_images(folder)
    tune, held = real_images(folder, "tune"), real_images(folder, "held-out")
    assert len(every) == 7 and len(tune) == 4 and len(held) == 3
    assert set(tune).isdisjoint(held) and set(tune) | set(held) == set(every)


def test_unknown_split_is_refused(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="unknown split 'test'"):
        real_images(tmp_path, "test")


def test_voc_names_are_lower_case_with_boxes(tmp_path: Path) -> None:
    path = tmp_path / "a.xml"
    path.write_text(VOC)
    assert read_voc(path) == [("queen", (1.0, 2.0, 11.0, 22.0)), ("ten", (5.0, 6.0, 15.0, 26.0))]
