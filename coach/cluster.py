"""Score many clips on a Ray cluster: the same per-clip scoring as `coach score`.

Why actors, not Ray Data: the costly part of scoring a clip is loading the recogniser
(a second or more, and its memory), so each Ray worker is one long-lived actor that loads
the models once in ``__init__`` and then scores clip after clip. Plain ``ray`` is enough
(Ray Data would add pandas and pyarrow and a streaming executor whose retries work per
batch); the driver here keeps every actor at most ``inflight`` clips busy, so a
cluster's clips start as fast as its workers free up, results come back as they finish and
are handed on in input order (a bounded window: memory on the driver stays bounded too).

A lost worker (its process killed, its node gone) is restarted by Ray (``max_restarts``)
and loads the models again; the clips it held are sent again, up to ``max_attempts``
times each, so none is lost and none is written twice. A clip that fails to score is a
report with its ``error``, as in a local run.

Models: a worker loads the recogniser from the folder the head resolved, when that folder
is readable on its node (the same machine, or a shared path such as an NFS mount or
``$COACH_MODELS_DIR`` on shared storage). With ``ship_models`` the head also puts the
folder's files in Ray's object store once; a worker on a node without the folder unpacks
them into a node-local cache. Nothing is downloaded from the internet.

Ray is imported only here, and only when a Ray run starts (the optional extra
``coach[ray]``).
"""

from __future__ import annotations

import hashlib
import logging
import math
import os
import tempfile
import time
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from coach.errors import CoachError, ModelError, OptionsError
from coach.report import ClipReport
from coach.score import ScoreOptions

logger = logging.getLogger(__name__)

RAY_MISSING = "--ray needs Ray: pip install 'coach[ray]' (or pip install ray)"
"""The one line shown when Ray is not installed."""


@dataclass(frozen=True)
class RayOptions:
    """How a Ray run is set up."""

    address: str | None = None
    """None starts a Ray instance on this machine for the run; otherwise what
    ``ray.init(address=...)`` takes: "auto" (the cluster this machine belongs to),
    "HOST:6379" or "ray://HOST:10001"."""
    workers: int = 0
    """Actors, each scoring one clip at a time with the models loaded once; 0 gives one
    per CPU of the cluster."""
    num_cpus: int = 0
    """CPUs of the local Ray instance (only when ``address`` is None); 0 gives every CPU
    of this machine."""
    cpus_per_worker: float = 1.0
    """Ray CPUs each actor reserves."""
    inflight: int = 2
    """Clips queued on an actor at once: the next one is there when the current one ends."""
    max_ahead: int = 64
    """Clips a run may finish ahead of the oldest unfinished one (bounds the reports the
    driver holds to put them in input order)."""
    max_attempts: int = 3
    """Times a clip is sent to a worker that dies under it before it is reported failed."""
    max_restarts: int = 4
    """Times Ray restarts each lost actor."""
    ship_models: bool = False
    """Also put the model folder in the object store, for nodes that cannot read it."""
    object_store_mb: int = 0
    """Object store of the local Ray instance, MB; 0 gives 128 MB (enough when the models
    are not shipped) or 512 MB when they are."""
    keep_tracks: bool = False
    """Bring the per-frame tracks back (only the HTML charts need them)."""


def import_ray() -> Any:
    """Import Ray, or fail with one line saying how to install it.

    Raises:
        OptionsError: Ray is not installed.
    """
    try:
        import ray
    except ImportError:
        raise OptionsError(RAY_MISSING) from None
    return ray


def pack_model(folder: str | os.PathLike[str]) -> dict[str, bytes]:
    """The files of a model folder (not recursive), by name, to ship to other nodes."""
    folder = Path(folder)
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir()) if p.is_file()}


def unpack_model(files: dict[str, bytes], cache: Path | None = None) -> Path:
    """Write shipped model files into a node-local cache folder and return it.

    The folder is named by a hash of the contents, so a second worker on the node (or a
    later run) finds it ready; it is written under a temporary name and renamed, so a
    worker never sees it half written.
    """
    digest = hashlib.sha256()
    for name in sorted(files):
        digest.update(name.encode())
        digest.update(hashlib.sha256(files[name]).digest())
    cache = cache or Path(tempfile.gettempdir()) / "coach-models"
    target = cache / digest.hexdigest()[:16]
    if target.is_dir():
        return target
    cache.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(dir=cache, prefix=".unpack-"))
    for name, data in files.items():
        (tmp / name).write_bytes(data)
    try:
        tmp.rename(target)
    except OSError:  # another worker got there first
        for p in tmp.iterdir():
            p.unlink()
        tmp.rmdir()
    return target


def local_model(path: str, shipped: list[Any] | None) -> str:
    """The model folder a worker loads: ``path`` if this node can read it, else the shipped
    copy unpacked here.

    Args:
        path: the folder the head resolved.
        shipped: None, or a one-element list holding the object-store reference of
            :func:`pack_model`'s files (in a list so Ray does not fetch it unless needed).

    Raises:
        ModelError: the folder is not on this node and no copy was shipped.
    """
    if (Path(path) / "model.bin").is_file():
        return path
    if not shipped:
        raise ModelError(
            f"model folder {path} is not readable on this Ray node: put the models on a shared "
            "path (--asr-model /shared/models/tiny.en, or COACH_MODELS_DIR on every node), "
            "or connect with --ray ADDRESS so the head ships them"
        )
    import ray

    files = shipped[0] if isinstance(shipped[0], dict) else ray.get(shipped[0])
    return str(unpack_model(files))


class ClipScorer:
    """One Ray worker: loads the recogniser once, then scores clip after clip.

    Used as a Ray actor (see :class:`RayScorer`); plain Python otherwise, so it is tested
    without Ray too.
    """

    def __init__(
        self,
        options: ScoreOptions,
        model_path: str,
        shipped: list[Any] | None = None,
        cwd: str | None = None,
    ) -> None:
        from coach.asr import Transcriber

        logging.getLogger("faster_whisper").setLevel(logging.WARNING)
        if cwd and os.path.isdir(cwd):  # relative paths mean what they mean on the head
            os.chdir(cwd)
        folder = local_model(model_path, shipped)
        self.options = options
        self.transcriber = Transcriber.load(replace(options.asr, model=folder))

    def pid(self) -> int:
        """The worker's process id (to check it is alive, and for tests that kill it)."""
        return os.getpid()

    def cpu_s(self) -> float:
        """CPU seconds the worker has used since it started (every thread), seconds."""
        return time.process_time()

    def peak_rss_mb(self) -> float:
        """The worker's peak resident memory so far, MB (Linux: ru_maxrss is in KB)."""
        import resource

        return round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)

    def score(self, source: str, keep_tracks: bool = False) -> ClipReport:
        """Score one clip exactly as a local run does (errors become the report's error)."""
        from coach.score import score_file

        report = score_file(source, self.transcriber, self.options)
        if report.asr_model:
            report.asr_model = self.options.asr.model  # the name, as a local run writes it
        if not keep_tracks:
            report.tracks = None
        return report


def _one_line(exc: BaseException) -> str:
    cause = getattr(exc, "cause", None) or exc
    text = str(cause).strip().splitlines()
    return f"{type(cause).__name__}: {text[0] if text else ''}".rstrip(": ")


def local_blas_threads() -> str:
    """The thread count numpy's OpenBLAS uses in this process, as its variables decide it.

    Ray starts workers with ``OMP_NUM_THREADS=1``, and OpenBLAS's thread count changes the
    order of the sums in Whisper's mel filterbank: a word's time moved by a 20 ms frame,
    and on a 10-minute file the words themselves changed. Workers given this process's
    count give the JSON a local run gives."""
    for name in ("OPENBLAS_NUM_THREADS", "GOTO_NUM_THREADS", "OMP_NUM_THREADS"):
        if os.environ.get(name, "").strip().isdigit():
            return os.environ[name].strip()
    return str(os.cpu_count() or 1)


class RayScorer:
    """Ray workers that score clips; a context manager (the workers end with it).

    Example::

        with RayScorer(ScoreOptions(), RayOptions(num_cpus=2)) as scorer:
            for report in scorer.score(["a.wav", "b.wav"]):
                print(report.file, report.pace.wpm)
    """

    def __init__(self, options: ScoreOptions, ray_options: RayOptions = RayOptions()) -> None:
        self.options = options
        self.ray_options = ray_options
        self.pids: list[int] = []
        """The workers' process ids, as last seen (a restarted worker gets a new one)."""
        self._ray: Any = None
        self._started_ray = False
        self._actors: list[Any] = []

    def __enter__(self) -> RayScorer:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def workers(self) -> int:
        """Workers in the run."""
        return len(self._actors)

    def start(self) -> None:
        """Start or join Ray, then start the workers and wait until each has loaded its
        models.

        Raises:
            OptionsError: Ray is not installed.
            ModelError: the model is missing on the head, or a worker cannot load it.
        """
        from coach.asr import resolve_model

        model_path = resolve_model(self.options.asr.model)  # a missing model: one line, now
        if Path(model_path).is_dir():
            model_path = os.path.abspath(model_path)
        ray = self._ray = import_ray()
        try:
            self._start(ray, model_path)
        except BaseException:
            self.close()
            raise

    def _start(self, ray: Any, model_path: str) -> None:
        ro = self.ray_options
        quiet = logging.getLogger().getEffectiveLevel() > logging.INFO
        if not ray.is_initialized():
            if ro.address is None:
                store_mb = ro.object_store_mb or (512 if ro.ship_models else 128)
                wanted = math.ceil(ro.workers * ro.cpus_per_worker)
                ray.init(
                    num_cpus=ro.num_cpus or max(os.cpu_count() or 1, wanted),
                    include_dashboard=False,
                    object_store_memory=store_mb * 1024 * 1024,
                    log_to_driver=not quiet,
                    logging_level=logging.WARNING if quiet else logging.INFO,
                    # Ray runs workers at nice 15 to keep its own daemons responsive; here
                    # the workers are the job, and at nice 15 any other busy process on
                    # the machine starves them (`--jobs` processes run at 0 too).
                    _system_config={"worker_niceness": 0},
                )
            else:
                ray.init(
                    address=ro.address,
                    log_to_driver=not quiet,
                    logging_level=logging.WARNING if quiet else logging.INFO,
                )
            self._started_ray = True
        cpus = int(ray.cluster_resources().get("CPU", 1))
        fit = max(1, int(cpus // ro.cpus_per_worker))
        if ro.workers > fit:
            logger.warning("%d Ray workers asked, %d fit the cluster's %d CPUs", ro.workers,
                           fit, cpus)  # fmt: skip
        n = min(ro.workers, fit) if ro.workers else fit
        threads = self.options.asr.cpu_threads or max(1, int(ro.cpus_per_worker))
        worker_options = replace(self.options, asr=replace(self.options.asr, cpu_threads=threads))
        shipped = [ray.put(pack_model(model_path))] if ro.ship_models else None
        actor_cls = ray.remote(
            num_cpus=ro.cpus_per_worker,
            max_restarts=ro.max_restarts,
            max_task_retries=0,
            runtime_env={"env_vars": {"OPENBLAS_NUM_THREADS": local_blas_threads()}},
        )(ClipScorer)
        self._actors = [
            actor_cls.remote(worker_options, model_path, shipped, os.getcwd()) for _ in range(n)
        ]
        try:
            self.pids = ray.get([a.pid.remote() for a in self._actors])
        except ray.exceptions.RayActorError as exc:
            raise ModelError(f"a Ray worker could not start: {_one_line(exc)}") from None
        logger.info("%d Ray workers on %d CPUs", n, cpus)

    def worker_pids(self) -> list[int]:
        """Ask every worker its process id (waits for one being restarted)."""
        self.pids = self._ray.get([a.pid.remote() for a in self._actors])
        return self.pids

    def worker_cpu_s(self) -> list[float]:
        """Each worker's CPU seconds since it started (model load included)."""
        return self._ray.get([a.cpu_s.remote() for a in self._actors])

    def worker_peak_mb(self) -> list[float]:
        """Each worker's peak resident memory so far, MB (since its last restart)."""
        return self._ray.get([a.peak_rss_mb.remote() for a in self._actors])

    def close(self) -> None:
        """End the workers, and Ray if this run started it."""
        ray = self._ray
        if ray is None:
            return
        for a in self._actors:
            try:
                ray.kill(a, no_restart=True)
            except Exception:  # noqa: BLE001 - already gone
                pass
        self._actors = []
        if self._started_ray:
            ray.shutdown()
            self._started_ray = False
        self._ray = None

    def score(
        self,
        sources: Sequence[str | os.PathLike[str]],
        *,
        on_done: Callable[[ClipReport], None] | None = None,
    ) -> Iterator[ClipReport]:
        """Score clips on the workers, yielding one report per source in input order.

        Args:
            sources: paths or URIs every worker can read.
            on_done: called with each report as soon as it is back (any order).

        Raises:
            CoachError: every worker was lost for good.
        """
        ray = self._ray
        assert ray is not None, "call start() first"
        ro = self.ray_options
        names = [str(s) for s in sources]
        n = len(names)
        todo = deque(range(n))
        attempts = [0] * n
        load = [0] * len(self._actors)
        alive = [True] * len(self._actors)
        checking: dict[Any, int] = {}  # pid() call -> actor, after a worker was lost
        running: dict[Any, tuple[int, int]] = {}  # score() call -> (clip, actor)
        done: dict[int, ClipReport] = {}
        next_out = 0

        def finish(i: int, report: ClipReport) -> None:
            done[i] = report
            if on_done:
                on_done(report)

        def lost(a: int) -> None:
            if alive[a] and all(k != a for k in checking.values()):
                checking[self._actors[a].pid.remote()] = a

        try:
            while next_out < n:
                while todo and todo[0] < next_out + ro.max_ahead:
                    free = [a for a in range(len(load)) if alive[a] and a not in
                            checking.values() and load[a] < ro.inflight]  # fmt: skip
                    if not free:
                        break
                    a = min(free, key=lambda k: load[k])
                    i = todo.popleft()
                    ref = self._actors[a].score.remote(names[i], ro.keep_tracks)
                    running[ref] = (i, a)
                    load[a] += 1
                if not running and not checking:
                    if not any(alive):
                        raise CoachError(
                            "every Ray worker was lost: see the Ray logs (ray logs, or "
                            "/tmp/ray/session_latest/logs) and run again with --resume"
                        )
                if running or checking:
                    ready, _ = ray.wait([*running, *checking], num_returns=1)
                    for ref in ready:
                        if ref in checking:
                            a = checking.pop(ref)
                            try:
                                self.pids[a] = ray.get(ref)
                                logger.warning("Ray worker %d is back (pid %d)", a, self.pids[a])
                            except ray.exceptions.ActorUnavailableError:  # still restarting
                                time.sleep(0.2)
                                checking[self._actors[a].pid.remote()] = a
                            except ray.exceptions.RayError as exc:
                                alive[a] = False
                                logger.warning("Ray worker %d is gone: %s", a, _one_line(exc))
                            continue
                        i, a = running.pop(ref)
                        load[a] -= 1
                        try:
                            finish(i, ray.get(ref))
                        except ray.exceptions.RayActorError as exc:
                            attempts[i] += 1
                            logger.warning("%s: its Ray worker was lost (%s)", names[i],
                                           _one_line(exc))  # fmt: skip
                            lost(a)
                            if attempts[i] >= ro.max_attempts:
                                finish(i, ClipReport(file=names[i], error=(
                                    f"worker lost {attempts[i]} times while scoring this clip "
                                    "(it may crash the decoder, or the node ran out of memory)"
                                )))  # fmt: skip
                            else:
                                todo.appendleft(i)
                                todo = deque(sorted(todo))
                        except ray.exceptions.RayError as exc:  # a bug: report it, go on
                            error = f"worker failed: {_one_line(exc)}"
                            finish(i, ClipReport(file=names[i], error=error))
                while next_out in done:
                    yield done.pop(next_out)
                    next_out += 1
        finally:
            for ref in running:
                try:
                    ray.cancel(ref)
                except Exception:  # noqa: BLE001 - finished meanwhile
                    pass


def score_on_ray(
    sources: Sequence[str | os.PathLike[str]],
    options: ScoreOptions | None = None,
    ray_options: RayOptions = RayOptions(),
    *,
    on_done: Callable[[ClipReport], None] | None = None,
) -> Iterator[ClipReport]:
    """Score clips on Ray (see :class:`RayScorer`), yielding reports in input order.

    Raises:
        OptionsError: Ray is not installed.
        ModelError: the model is missing, or a worker cannot load it.
        CoachError: every worker was lost for good.
    """
    with RayScorer(options or ScoreOptions(), ray_options) as scorer:
        yield from scorer.score(sources, on_done=on_done)
