"""Score many files: models loaded once per process, optional worker processes."""

from __future__ import annotations

import logging
import os
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import replace
from pathlib import Path

from coach.asr import Transcriber
from coach.report import ClipReport
from coach.score import ScoreOptions, score_file

logger = logging.getLogger(__name__)

_worker: tuple[Transcriber, ScoreOptions] | None = None


def _init_worker(options: ScoreOptions) -> None:
    global _worker
    logging.getLogger().setLevel(logging.WARNING)
    _worker = (Transcriber.load(options.asr), options)


def _score_in_worker(path: str) -> ClipReport:
    assert _worker is not None, "worker not initialised"
    transcriber, options = _worker
    return score_file(path, transcriber, options)


def score_many(
    paths: list[Path],
    options: ScoreOptions | None = None,
    *,
    jobs: int = 1,
    transcriber: Transcriber | None = None,
    on_done: Callable[[ClipReport], None] | None = None,
) -> Iterator[ClipReport]:
    """Score files, yielding reports in input order as they become available.

    Args:
        paths: audio files.
        options: scoring options.
        jobs: worker processes; each loads the recogniser once and gets
            ``cpu_count // jobs`` threads.
        transcriber: an already loaded recogniser for ``jobs == 1`` (loaded here if None).
        on_done: called with each report as soon as it is finished (any order).

    Yields:
        One ClipReport per path, in the order of ``paths``.

    Raises:
        ModelError: the recogniser cannot be loaded (before any file is scored).
    """
    options = options or ScoreOptions()
    if jobs <= 1 or len(paths) <= 1:
        t = transcriber or Transcriber.load(options.asr)
        for p in paths:
            report = score_file(p, t, options)
            if on_done:
                on_done(report)
            yield report
        return
    jobs = min(jobs, len(paths))
    threads = options.asr.cpu_threads or max(1, (os.cpu_count() or 2) // jobs)
    worker_options = replace(options, asr=replace(options.asr, cpu_threads=threads))
    # Load once here first so a missing model fails fast with one clear line.
    Transcriber.load(worker_options.asr)
    done: dict[int, ClipReport] = {}
    next_out = 0
    with ProcessPoolExecutor(
        max_workers=jobs, initializer=_init_worker, initargs=(worker_options,)
    ) as pool:
        futures = {pool.submit(_score_in_worker, str(p)): i for i, p in enumerate(paths)}
        try:
            for fut in as_completed(futures):
                i = futures[fut]
                try:
                    report = fut.result()
                except Exception as exc:  # a worker died: report the file, keep going
                    report = ClipReport(file=str(paths[i]), error=f"worker failed: {exc}")
                if on_done:
                    on_done(report)
                done[i] = report
                while next_out in done:
                    yield done.pop(next_out)
                    next_out += 1
        except BaseException:
            for f in futures:
                f.cancel()
            raise
