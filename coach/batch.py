"""Score many files: models loaded once per process, optional worker processes; list
files of clips, and output written row by row so a run can be resumed."""

from __future__ import annotations

import logging
import os
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import replace
from pathlib import Path

from coach.asr import Transcriber
from coach.errors import OptionsError
from coach.report import HEADLINE_COLUMNS, ClipReport
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
    paths: Sequence[str | os.PathLike[str]],
    options: ScoreOptions | None = None,
    *,
    jobs: int = 1,
    transcriber: Transcriber | None = None,
    on_done: Callable[[ClipReport], None] | None = None,
) -> Iterator[ClipReport]:
    """Score files, yielding reports in input order as they become available.

    Args:
        paths: audio files (paths, or URLs FFmpeg opens).
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


def is_uri(source: str) -> bool:
    """True for "scheme://..." sources (file://, http://, https://...)."""
    head, sep, _ = source.partition("://")
    return bool(sep) and head.isalpha() and len(head) > 1


def read_list(path: str | os.PathLike[str]) -> list[str]:
    """The clips named in a list file: one path or URI per line.

    Blank lines and lines starting with "#" are skipped; a ``file://`` URI becomes its
    path; a relative path is taken from the list file's folder; other URIs (http,
    https... anything FFmpeg opens) are kept as they are, for the workers to read.

    Raises:
        OptionsError: the list file cannot be read.
    """
    from urllib.parse import unquote, urlparse

    path = Path(path)
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError) as exc:
        raise OptionsError(f"cannot read the list file {path}: {exc}") from None
    out: list[str] = []
    for line in lines:
        item = line.strip()
        if not item or item.startswith("#"):
            continue
        if item.startswith("file://"):
            item = unquote(urlparse(item).path)
        if not is_uri(item) and not os.path.isabs(item):
            item = str(path.parent / item)
        out.append(item)
    return out


def _key(source: str) -> str:
    return source if is_uri(source) else os.path.normpath(os.path.abspath(source))


def resume_format(path: Path) -> str:
    """The format of a ``--resume`` file from its name: "csv" for .csv, else "json" (JSON
    Lines)."""
    return "csv" if path.suffix.lower() == ".csv" else "json"


def written_files(path: Path) -> set[str]:
    """The clips a partly written JSON Lines or CSV output already holds (``--resume``).

    A last line cut off by a killed run is removed from the file, so the clip is scored
    again and the file stays valid.

    Returns:
        The files of the rows present, normalised (absolute paths; URIs as they are).

    Raises:
        OptionsError: the file is not coach's JSON Lines or CSV.
    """
    import csv
    import json

    if not path.exists() or path.stat().st_size == 0:
        return set()
    data = path.read_bytes()
    keep = data.rfind(b"\n") + 1  # complete lines only
    if keep < len(data):
        logger.warning("%s: dropping a cut-off last row", path)
        with path.open("r+b") as f:
            f.truncate(keep)
    text = data[:keep].decode("utf-8")
    files: set[str] = set()
    if resume_format(path) == "csv":
        rows = csv.DictReader(text.splitlines())
        if rows.fieldnames and rows.fieldnames != HEADLINE_COLUMNS:
            raise OptionsError(
                f"{path} is not a coach CSV (its header differs): resume with the file a "
                "previous `coach score -f csv` wrote"
            )
        for row in rows:
            files.add(_key(row["file"]))
        return files
    for n, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            files.add(_key(json.loads(line)["file"]))
        except (ValueError, KeyError, TypeError):
            raise OptionsError(
                f"{path}:{n} is not a JSON line of coach's (no file): resume with the JSON "
                "Lines file a previous run wrote"
            ) from None
    return files


def still_to_score(sources: list[str], written: set[str]) -> list[str]:
    """``sources`` without those already written (and without repeats)."""
    seen = set(written)
    out = []
    for s in sources:
        k = _key(s)
        if k not in seen:
            seen.add(k)
            out.append(s)
    return out


class RowWriter:
    """Appends one JSON line or CSV row per clip to a file as each clip is done, flushed at
    once, so an interrupted run keeps every finished row (``--resume``)."""

    def __init__(self, path: Path, fmt: str) -> None:
        self.path = path
        self.fmt = fmt
        new = not path.exists() or path.stat().st_size == 0
        self._file = path.open("a", encoding="utf-8", newline="")
        if fmt == "csv" and new:
            self._file.write(",".join(HEADLINE_COLUMNS) + "\n")
            self._file.flush()

    def write(self, report: ClipReport) -> None:
        """Append the clip's row and flush it."""
        from coach.render.csv import render_csv
        from coach.render.json import json_line

        if self.fmt == "csv":
            self._file.write(render_csv([report]).split("\n", 1)[1])
        else:
            self._file.write(json_line(report) + "\n")
        self._file.flush()

    def close(self) -> None:
        """Close the file."""
        self._file.close()

    def __enter__(self) -> RowWriter:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
