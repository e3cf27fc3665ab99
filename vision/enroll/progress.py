"""Progress of a long enrollment, for the dashboard's status line: a stage in words and a fraction done.

Each step reports into its own part of the whole (`part`), so the fractions the player sees only grow
however the steps are nested.
"""

from __future__ import annotations

from collections.abc import Callable

Report = Callable[[str, float], None]


class Progress:
    """Calls `report(stage, fraction of the whole)`; without a `report` it costs nothing."""

    def __init__(self, report: Report | None = None, low: float = 0.0, high: float = 1.0) -> None:
        self.report, self.low, self.high = report, low, high

    def __call__(self, stage: str, fraction: float = 0.0) -> None:
        if self.report is not None:
            self.report(stage, self.low + (self.high - self.low) * min(1.0, max(0.0, fraction)))

    def part(self, low: float, high: float) -> Progress:
        """The span `low..high` of this one, as a progress of its own."""
        span = self.high - self.low
        return Progress(self.report, self.low + span * low, self.low + span * high)


SILENT = Progress()
