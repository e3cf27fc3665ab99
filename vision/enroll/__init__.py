"""Enrollment: the player teaches the companion a deck, a tile edition or the Strijders cards, once.

Modules: `store` (named profiles on disk, export/import), `locate` (outlines on a cloth), `grids`
(the grids the dashboard shows), `canon` and `features` (canonical crops and their descriptors),
`templates` (samples to a profile, with its learned metric), `deck`, `edition`, `strijders` (the
three enrollments), `matcher` (run time), `synthetic` and `evaluate` (measurement).
"""

from __future__ import annotations

from vision.enroll.store import Profile, ProfileError, ProfileStore, default_root

__all__ = ["Profile", "ProfileError", "ProfileStore", "default_root"]
