"""Throughput of `coach score --ray` against `coach score --jobs 2`, and Ray's cost per clip.

The clips are the audio of ../shared/eval (or your own, with --list FILE), listed in a
list file once (N clips) and --times times over (N x times clips). Each run is a whole
process, start-up included: `coach score --list LIST -f json -o OUT --no-history` with
``--jobs 2`` (two local worker processes), and with ``--ray`` (a Ray instance started on
this machine for the run, one worker per CPU; or ``--ray ADDRESS`` with --address). The
two modes run alternately, --repeats times, and the medians are kept.

From the two list lengths each mode's wall time splits into a fixed part (interpreter,
Ray start-up, model loads) and a cost per clip: per clip = (wall(long) - wall(short)) /
(clips(long) - clips(short)). Ray's overhead per clip is its cost per clip minus that of
``--jobs 2``. The JSON of every clip (compute times aside) is compared between the modes.
Wall times on a machine shared with other work measure the share of the cores a run got,
so each mode also scores the long list once more in this process to count the CPU seconds
it used per clip (see ``_cpu``), and each Ray worker's peak memory.

Figures go to bench/results/ray.json; `bench/tables.py ray` makes the README table.

Run: ``.venv/bin/python bench/ray_bench.py`` (or ``make bench-ray``); against a cluster:
``.venv/bin/python bench/ray_bench.py --address auto --list clips.txt --no-write``.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from results import write_results  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
COACH = [sys.executable, "-m", "coach"]
AUDIO = {".wav", ".flac", ".mp3", ".m4a", ".ogg"}


def _clips(args: argparse.Namespace) -> list[str]:
    if args.list:
        from coach.batch import read_list

        return read_list(args.list)
    return sorted(str(p) for p in (args.eval / "clips").iterdir() if p.suffix in AUDIO)


def _run(mode: str, listing: Path, out: Path, args: argparse.Namespace) -> float:
    """Wall seconds of one whole `coach score` process."""
    if mode == "jobs":
        extra = ["--jobs", str(args.jobs)]
    else:
        extra = ["--ray", args.address] if args.address else ["--ray"]
    cmd = [*COACH, "score", "--list", str(listing), "-f", "json", "-o", str(out),
           "--no-history", "--asr-model", args.asr_model, *extra]  # fmt: skip
    t0 = time.perf_counter()
    proc = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)
    wall = time.perf_counter() - t0
    if proc.returncode not in (0, 1):  # 1: some clip has an error row (reported, not fatal)
        sys.exit(f"bench: {' '.join(cmd)} failed ({proc.returncode}):\n{proc.stderr[-2000:]}")
    return wall


def _rows(path: Path) -> list[dict[str, Any]]:
    rows = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    return rows


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--eval", type=Path, default=ROOT.parent / "shared" / "eval")
    ap.add_argument("--list", type=Path, help="your own clips: one path or URI per line")
    ap.add_argument("--times", type=int, default=3, help="the long list: the clips this often")
    ap.add_argument("--repeats", type=int, default=2, help="runs of each, alternately")
    ap.add_argument("--jobs", type=int, default=2, help="local worker processes to compare")
    ap.add_argument("--address", help="a Ray cluster (auto, HOST:6379, ray://HOST:10001)")
    ap.add_argument(
        "--cores", type=int, default=os.cpu_count() or 1,
        help="CPUs of the Ray run (this machine's; a cluster's with --address)",
    )  # fmt: skip
    ap.add_argument("--asr-model", default="tiny.en")
    ap.add_argument("--no-write", action="store_true", help="do not write bench/results")
    args = ap.parse_args()

    clips = _clips(args)
    if len(clips) < 2:
        sys.exit("bench: fewer than 2 clips; pass --eval DIR or --list FILE")
    audio_s = _audio_seconds(clips)
    load_before = os.getloadavg()[0]
    lengths = {"short": 1, "long": args.times}
    walls: dict[str, dict[str, list[float]]] = {
        m: {k: [] for k in lengths} for m in ("jobs", "ray")
    }
    with tempfile.TemporaryDirectory(prefix="coach-bench-ray-") as tmp:
        lists = {}
        for k, times in lengths.items():
            lists[k] = Path(tmp, f"{k}.txt")
            lists[k].write_text("".join(f"{c}\n" for c in clips * times))
        outs: dict[str, Path] = {}
        for r in range(args.repeats):
            for k in lengths:
                for m in ("jobs", "ray") if r % 2 == 0 else ("ray", "jobs"):
                    outs[m] = Path(tmp, f"{m}-{k}.jsonl")
                    wall = _run(m, lists[k], outs[m], args)
                    walls[m][k].append(round(wall, 2))
                    n = len(clips) * lengths[k]
                    print(f"run {r + 1}: {m:4} {n:4d} clips {wall:7.2f} s "
                          f"({n / wall * 60:.1f} clips/min)", flush=True)  # fmt: skip
        same, compared = _compare(outs["jobs"], outs["ray"])

    n_short, n_long = len(clips), len(clips) * args.times
    figures: dict[str, Any] = {
        "clips": len(clips),
        "clips_long": n_long,
        "audio_s_per_clip": round(audio_s / len(clips), 2),
        "asr_model": args.asr_model,
        "jobs": args.jobs,
        "ray_address": args.address or "local (ray.init on this machine, one worker per CPU)",
        "cores": args.cores,
        "repeats": args.repeats,
        "wall_s": walls,
        "same_json_per_clip": f"{same}/{compared}",
        "load_average_1min": [round(load_before, 2), round(os.getloadavg()[0], 2)],
    }
    figures["modes"] = {}
    for m in ("jobs", "ray"):
        short = statistics.median(walls[m]["short"])
        long = statistics.median(walls[m]["long"])
        per_clip = (long - short) / (n_long - n_short)
        figures["modes"][m] = {
            "wall_s_short": round(short, 2),
            "wall_s_long": round(long, 2),
            "clips_per_min_long": round(n_long / long * 60, 1),
            "per_clip_s": round(per_clip, 3),
            "fixed_s": round(short - n_short * per_clip, 2),
            "clips_per_min_at_scale": round(60 / per_clip, 1) if per_clip > 0 else None,
        }
    figures["cpu"] = _cpu(clips * args.times, args)
    cores = args.cores
    modes = figures["modes"]
    figures["ray_overhead_per_clip_s"] = round(
        modes["ray"]["per_clip_s"] - modes["jobs"]["per_clip_s"], 3
    )
    figures["ray_core_s_per_clip"] = round(modes["ray"]["per_clip_s"] * cores, 3)
    figures["ray_clips_per_min_per_worker_core"] = round(60 / figures["ray_core_s_per_clip"], 1)
    figures["ray_clips_per_min_per_worker_core_cpu"] = round(
        60 / figures["cpu"]["ray_cpu_s_per_clip"], 1
    )
    print(json.dumps(figures, indent=2))
    if not args.no_write:
        print(f"wrote {write_results('ray', figures)}")
    return 0


def _cpu(clips: list[str], args: argparse.Namespace) -> dict[str, Any]:
    """CPU seconds per clip of each mode over the long list, in this process.

    Wall times on a shared machine measure the share of the cores a run got; CPU time
    measures what the run cost. --jobs: this process and its worker processes (reaped when
    the pool closes, so counted in RUSAGE_CHILDREN). Ray: this process (the driver) and
    every worker from its start (imports and model load included), and Ray's daemons
    (GCS, raylet, agents) as far as this process reaps them when Ray shuts down. Also each
    Ray worker's peak memory.
    """
    import resource

    from coach.asr import AsrOptions
    from coach.batch import score_many
    from coach.cluster import RayOptions, RayScorer
    from coach.score import ScoreOptions

    def used(who: int = -99) -> float:
        if who == -99:
            return used(resource.RUSAGE_SELF) + used(resource.RUSAGE_CHILDREN)
        r = resource.getrusage(who)
        return r.ru_utime + r.ru_stime

    options = ScoreOptions(asr=AsrOptions(model=args.asr_model))
    n = len(clips)
    t0 = used()
    for _ in score_many(clips, options, jobs=args.jobs):
        pass
    jobs_s = used() - t0
    t0, k0 = used(resource.RUSAGE_SELF), used(resource.RUSAGE_CHILDREN)
    with RayScorer(options, RayOptions(address=args.address)) as scorer:
        for _ in scorer.score(clips):
            pass
        workers_s = sum(scorer.worker_cpu_s())
        peaks = scorer.worker_peak_mb()
    driver_s = used(resource.RUSAGE_SELF) - t0
    daemons_s = used(resource.RUSAGE_CHILDREN) - k0  # Ray's processes this one reaped
    return {
        "clips": n,
        "jobs_cpu_s_per_clip": round(jobs_s / n, 3),
        "ray_cpu_s_per_clip": round((workers_s + driver_s + daemons_s) / n, 3),
        "ray_workers_cpu_s_per_clip": round(workers_s / n, 3),
        "ray_driver_cpu_s_per_clip": round(driver_s / n, 3),
        "ray_reaped_cpu_s_per_clip": round(daemons_s / n, 3),
        "ray_overhead_cpu_s_per_clip": round((workers_s + driver_s + daemons_s - jobs_s) / n, 3),
        "ray_worker_peak_mb": peaks,
    }


def _audio_seconds(clips: list[str]) -> float:
    from coach.audio import is_url, probe

    total = 0.0
    for c in clips:
        if not is_url(c):
            total += probe(c).duration_s or 0.0
    return total


def _compare(a: Path, b: Path) -> tuple[int, int]:
    """Clips whose JSON (compute times aside) is the same in both outputs, of those in
    both."""
    ra, rb = _rows(a), _rows(b)
    same = 0
    for x, y in zip(ra, rb, strict=False):
        x.pop("timings_s", None)
        y.pop("timings_s", None)
        same += x == y
    return same, min(len(ra), len(rb))


if __name__ == "__main__":
    sys.exit(main())
