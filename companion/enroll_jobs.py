"""Enrollment as a background job: the dashboard's request returns at once, the page polls the job's status.

Enrollment takes up to a minute of CPU, longer than a web request should wait. One worker thread runs
the jobs in turn (two at once would only both be slow on a small machine). A job writes its profile
only when it has finished; a failure leaves every stored profile as it was, and its message is kept
for the page to show.
"""

from __future__ import annotations

import logging
import threading
import time
import traceback
import uuid
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from vision.enroll.progress import Progress

log = logging.getLogger(__name__)
KEEP = 50  # finished jobs remembered for the page to read back
STATES: tuple[str, ...] = ("queued", "running", "done", "failed")

Work = Callable[[Progress], dict[str, Any]]


class JobError(ValueError):
    """A job that cannot be started or found; the message is for the player."""


@dataclass
class Job:
    id: str
    kind: str
    name: str  # the profile being taught
    state: str = "queued"
    stage: str = "waiting for the enrollment before it"
    progress: float = 0.0
    result: dict[str, Any] | None = None
    error: str | None = None
    created: float = field(default_factory=time.time)
    finished: float | None = None

    @property
    def active(self) -> bool:
        return self.state in ("queued", "running")

    def status(self) -> dict[str, Any]:
        return {"id": self.id, "kind": self.kind, "name": self.name, "state": self.state, "stage": self.stage,
                "progress": round(self.progress, 3), "result": self.result, "error": self.error}


class Jobs:
    """The jobs of one dashboard; `player_errors` are shown as they are, anything else as an internal error."""

    def __init__(self, player_errors: tuple[type[Exception], ...] = (), keep: int = KEEP) -> None:
        self.player_errors = player_errors
        self.keep = keep
        self._jobs: OrderedDict[str, Job] = OrderedDict()
        self._lock = threading.Lock()
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="enroll")

    def submit(self, kind: str, name: str, work: Work) -> Job:
        """Queue `work`; refused while another job teaches a profile of the same name."""
        with self._lock:
            busy = next((j for j in self._jobs.values() if j.active and j.name == name), None)
            if busy is not None:
                raise JobError(f"profile {name!r} is already being taught (job {busy.id}); wait for it to finish")
            job = Job(uuid.uuid4().hex[:12], kind, name)
            self._jobs[job.id] = job
            self._forget_old()
        self._pool.submit(self._run, job, work)
        return job

    def get(self, job_id: str) -> Job:
        with self._lock:
            job = self._jobs.get(job_id)
        if job is None:
            raise JobError(f"no enrollment job {job_id!r} (finished jobs are forgotten after {self.keep} more)")
        return job

    def all(self) -> list[Job]:
        with self._lock:
            return list(self._jobs.values())

    def wait(self, job_id: str, timeout: float) -> Job:
        """The job once it has finished, or as it stands after `timeout` seconds (for the CLI and tests)."""
        end = time.monotonic() + timeout
        job = self.get(job_id)
        while job.active and time.monotonic() < end:
            time.sleep(0.05)
        return job

    def shutdown(self) -> None:
        self._pool.shutdown(wait=False, cancel_futures=True)

    def _run(self, job: Job, work: Work) -> None:
        def report(stage: str, fraction: float) -> None:
            job.stage, job.progress = stage, max(job.progress, fraction)

        job.state, job.stage = "running", "starting"
        try:
            job.result = work(Progress(report))
            job.state, job.stage, job.progress = "done", "done", 1.0
        except self.player_errors as exc:
            job.error, job.state = str(exc), "failed"
        except Exception as exc:  # noqa: BLE001 - the page must learn that the job died, whatever killed it
            log.error("enrollment job %s failed:\n%s", job.id, traceback.format_exc())
            job.error, job.state = f"enrollment failed unexpectedly ({type(exc).__name__}: {exc}); nothing was saved", \
                "failed"
        finally:
            job.finished = time.time()

    def _forget_old(self) -> None:
        done = [j.id for j in self._jobs.values() if not j.active]
        for job_id in done[:max(0, len(done) - self.keep)]:
            del self._jobs[job_id]
