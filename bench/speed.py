"""Speed and memory of `coach score` against the fair baseline, bare faster-whisper.

One file of at least --minutes of audio is made by joining the real clips of
../shared/eval (0.5 s of silence between) in a temporary folder. In the same run, each
of these is timed as a whole process (interpreter start, imports, model load, decoding,
everything), alternately, --repeats times:

  1. bare: faster-whisper's own ``transcribe()`` with what coach needs from it: the same
     model, int8, greedy decoding (beam_size=1), its Silero VAD (vad_filter=True) and
     word times (word_timestamps=True), with half the CPUs as threads (coach's default
     for one worker; on 2 cores one thread);
  2. bare, every CPU: the same with as many threads as CPUs, so that it may use the
     whole machine as coach's workers do; the faster of 1 and 2 is the fair baseline;
  3. bare, batched: faster-whisper's ``BatchedInferencePipeline`` (batch_size=8, its
     VAD, word times, every CPU as threads), its own answer to parallel recognition,
     for reference: it writes no filled pauses and cuts at its own VAD;
  4. coach: ``coach score FILE -f json -o OUT --no-history``, the whole pipeline (its
     pieces dealt to two workers with one model copy each on a 2-core machine);
  5. coach --fast: the same with ``--fast`` (the voiced audio recognised as one piece,
     the filler prompt priming only its first window, as coach did before it was cut
     into primed pieces).

Prints the wall time and real-time factor of each (median of the repeats), coach's time
split into start-up (interpreter, imports, model load), decoding, VAD, pitch and loudness
tracks, ASR, analysis and the rest (report writing), and each process's peak memory
(max RSS). Figures go to bench/results/speed.json.

Run: ``.venv/bin/python bench/speed.py`` (or ``make bench-speed``).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
from results import write_results  # noqa: E402

from coach.asr import default_threads, default_workers  # noqa: E402

BARE = ("bare", "bare_all_cpus", "bare_batched")
"""The baselines, run as whole processes (see the module's docstring)."""

STAGES = ("decode_s", "vad_s", "asr_s", "tracks_wait_s", "analysis_s")
"""coach's stages one after another (the pitch and loudness tracks run beside the ASR:
only the wait for them after it is counted)."""


def _long_file(eval_dir: Path, minutes: float, path: Path) -> tuple[float, int | None]:
    """Write a 16 kHz wav of at least ``minutes`` by joining the eval clips in turn.

    Returns:
        The audio's length (s) and its lexical words by truth.json (None without it).
    """
    import numpy as np
    import soundfile as sf

    from coach import SAMPLE_RATE
    from coach.audio import load, to_int16

    clips = sorted(
        p for p in (eval_dir / "clips").iterdir() if p.suffix in {".wav", ".flac", ".mp3"}
    )
    audio = [load(p) for p in clips]
    gap = np.zeros(SAMPLE_RATE // 2, np.int16)
    truth_file = eval_dir / "truth.json"
    truth = json.loads(truth_file.read_text()) if truth_file.is_file() else {}
    total, k, words = 0.0, 0, 0
    with sf.SoundFile(path, "w", SAMPLE_RATE, 1, subtype="PCM_16") as out:
        while total < minutes * 60:
            y = audio[k % len(audio)]
            out.write(to_int16(y))
            out.write(gap)
            total += (y.size + gap.size) / SAMPLE_RATE
            words += truth.get(clips[k % len(clips)].name, {}).get("words", 0)
            k += 1
    return total, (words if truth else None)


def _child_bare(path: str, model: str, threads: int, batched: bool = False) -> dict[str, Any]:
    from faster_whisper import BatchedInferencePipeline, WhisperModel

    from coach.asr import resolve_model

    m = WhisperModel(resolve_model(model), device="cpu", compute_type="int8", cpu_threads=threads)
    if batched:
        segments, _ = BatchedInferencePipeline(m).transcribe(
            path, language="en", beam_size=1, vad_filter=True, word_timestamps=True,
            batch_size=8,
        )  # fmt: skip
    else:
        segments, _ = m.transcribe(
            path, language="en", beam_size=1, vad_filter=True, word_timestamps=True
        )
    words = sum(len(s.words or []) for s in segments)
    return {"words": words}


def _child_coach(path: str, out: str, fast: bool = False) -> dict[str, Any]:
    from coach.cli import main

    code = main(["score", path, "-f", "json", "-o", out, "--no-history",
                 *(["--fast"] if fast else [])])  # fmt: skip
    return {"exit": code}


def _run(argv: list[str]) -> dict[str, Any]:
    """Run one child process; its wall time (s) and what it printed last (JSON)."""
    t0 = time.perf_counter()
    proc = subprocess.run(argv, capture_output=True, text=True)
    wall = time.perf_counter() - t0
    if proc.returncode != 0:
        raise SystemExit(f"bench child failed: {' '.join(argv)}\n{proc.stderr[-2000:]}")
    res = json.loads(proc.stdout.strip().splitlines()[-1])
    res["wall_s"] = round(wall, 3)
    return res


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--eval", type=Path, default=Path("../shared/eval"))
    ap.add_argument("--minutes", type=float, default=10.0)
    ap.add_argument("--asr-model", default="tiny.en")
    ap.add_argument("--repeats", type=int, default=2, help="runs of each, alternately")
    ap.add_argument("--no-write", action="store_true", help="do not write bench/results")
    ap.add_argument("--child", choices=[*BARE, "coach", "coach_fast"], help=argparse.SUPPRESS)
    ap.add_argument("--file", help=argparse.SUPPRESS)
    ap.add_argument("--out", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        if args.child in BARE:
            threads = default_threads() if args.child == "bare" else os.cpu_count() or 1
            res = _child_bare(args.file, args.asr_model, threads, args.child == "bare_batched")
        else:
            res = _child_coach(args.file, args.out, fast=args.child == "coach_fast")
        res["max_rss_mb"] = round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)
        print(json.dumps(res))
        return 0
    if not (args.eval / "clips").is_dir():
        print(f"bench: no {args.eval / 'clips'}; pass --eval DIR", file=sys.stderr)
        return 2
    runs: dict[str, list[dict[str, Any]]] = {k: [] for k in (*BARE, "coach", "coach_fast")}
    with tempfile.TemporaryDirectory(prefix="coach-bench-") as tmp:
        path = Path(tmp) / "long.wav"
        audio_s, truth_words = _long_file(args.eval, args.minutes, path)
        out = Path(tmp) / "report.json"
        print(
            f"{audio_s / 60:.1f} min of audio from {args.eval / 'clips'}, ASR "
            f"{args.asr_model}, {default_threads()} threads, {args.repeats} runs each"
        )
        me = [sys.executable, __file__, "--asr-model", args.asr_model, "--file", str(path)]
        for _ in range(args.repeats):
            for name in BARE:
                runs[name].append(_run([*me, "--child", name]))
            r = _run([*me, "--child", "coach", "--out", str(out)])
            report = json.loads(out.read_text())
            r["timings_s"] = report["timings_s"]
            r["words"] = report["word_count"]  # lexical: fillers and cut-offs left out
            r["all_words"] = len(report["words"])  # every word, as bare's "words" counts
            runs["coach"].append(r)
            fast = _run([*me, "--child", "coach_fast", "--out", str(out)])
            fast["words"] = json.loads(out.read_text())["word_count"]
            runs["coach_fast"].append(fast)
            print(f"  bare {runs['bare'][-1]['wall_s']:.1f} s, every CPU "
                  f"{runs['bare_all_cpus'][-1]['wall_s']:.1f} s, batched "
                  f"{runs['bare_batched'][-1]['wall_s']:.1f} s, coach {r['wall_s']:.1f} s, "
                  f"coach --fast {fast['wall_s']:.1f} s")  # fmt: skip
    figures = summarize(runs, audio_s, args.asr_model, default_threads())
    figures["truth_lexical_words"] = truth_words
    _print(figures)
    if not args.no_write:
        print(f"\nwritten {write_results('speed', figures)}")
    return 0


def summarize(
    runs: dict[str, list[dict[str, Any]]], audio_s: float, model: str, threads: int
) -> dict[str, Any]:
    """Medians over the repeats; coach's split from its report's timings."""
    med = {k: statistics.median(r["wall_s"] for r in v) for k, v in runs.items()}
    stages = {s: statistics.median(r["timings_s"].get(s, 0.0) for r in runs["coach"])
              for s in STAGES}  # fmt: skip
    # what the report's stages do not cover: interpreter, imports, model load, report writing
    startup = med["coach"] - sum(stages.values())
    fair = min(("bare", "bare_all_cpus"), key=lambda k: med[k])
    return {
        "audio_s": round(audio_s, 1),
        "asr_model": model,
        "cpu_threads": threads,
        "cpus": os.cpu_count(),
        "asr_workers": default_workers(),
        "baseline": "faster-whisper transcribe(), int8, beam_size=1, vad_filter=True, "
        "word_timestamps=True, the faster of cpu_threads as coach's per worker and of "
        "every CPU; whole process",
        "fair_baseline": fair,
        "wall_s": {k: round(v, 2) for k, v in med.items()},
        "rtf": {k: round(v / audio_s, 4) for k, v in med.items()},
        "coach_over_bare": round(med["coach"] / med[fair], 3),
        "coach_fast_over_bare": round(med["coach_fast"] / med[fair], 3),
        "coach_over_batched": round(med["coach"] / med["bare_batched"], 3),
        "coach_split_s": {
            **{k: round(v, 2) for k, v in stages.items()},
            "startup_and_rest_s": round(startup, 2),
        },  # fmt: skip
        "coach_tracks_beside_asr_s": round(
            statistics.median(r["timings_s"].get("tracks_s", 0.0) for r in runs["coach"]), 2
        ),
        "peak_mb": {k: max(r["max_rss_mb"] for r in v) for k, v in runs.items()},
        "runs": runs,
    }


def _print(f: dict[str, Any]) -> None:
    print(f"\n{'':36s}{'seconds':>10s}{'x real time':>13s}")
    for label, key in (("bare faster-whisper", "bare"), ("bare, every CPU", "bare_all_cpus"),
                       ("bare, batched (reference)", "bare_batched"),
                       ("coach score", "coach"), ("coach score --fast", "coach_fast")):  # fmt: skip
        print(f"{label:36s}{f['wall_s'][key]:10.1f}{f['rtf'][key]:13.4f}")
    a = f["audio_s"]
    for label, key in (("  start-up (imports, model) + rest", "startup_and_rest_s"),
                       ("  decoding", "decode_s"), ("  VAD (webrtcvad)", "vad_s"),
                       ("  ASR", "asr_s"), ("  waiting for pitch/loudness", "tracks_wait_s"),
                       ("  analysis", "analysis_s")):  # fmt: skip
        v = f["coach_split_s"][key]
        print(f"{label:36s}{v:10.2f}{v / a:13.4f}")
    v = f["coach_tracks_beside_asr_s"]
    print(f"{'  (pitch/loudness CPU, beside ASR)':36s}{v:10.2f}{v / a:13.4f}")
    print(
        f"\ncoach / fair baseline ({f['fair_baseline']}): {f['coach_over_bare']:.2f}, "
        f"coach --fast / fair baseline: {f['coach_fast_over_bare']:.2f}, "
        f"coach / batched: {f['coach_over_batched']:.2f}"
    )
    words = [(r["words"], r.get("all_words")) for r in f["runs"]["coach"]]
    print(f"words: bare {[r['words'] for r in f['runs']['bare']]} (all), coach "
          f"{words} (lexical, all); truth {f.get('truth_lexical_words')} lexical")  # fmt: skip
    print(f"peak memory (max RSS): bare {f['peak_mb']['bare']:.0f} MB, "
          f"coach {f['peak_mb']['coach']:.0f} MB")  # fmt: skip


if __name__ == "__main__":
    sys.exit(main())
