"""Speed and memory of `coach score` against a bare faster-whisper transcription.

Builds a batch of at least --minutes of audio: practice-clip-sized files (--file-s, default
60 s) made by joining the real clips of ../shared/eval in a temporary folder. Then, in two
separate processes:
  1. bare: faster-whisper's own transcribe() on each file (same model, int8, its default
     beam of 5, the same thread count as coach);
  2. coach: the full scoring pipeline (VAD, ASR with word times, filler recovery, pitch,
     the rest of the analysis, and the JSON report) over the same files.
Prints the real-time factor (compute seconds per audio second) of each, coach's split into
ASR and everything else, and each process's peak memory (max RSS).
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import time
from pathlib import Path


def _batch(eval_dir: Path, minutes: float, tmp: Path, file_s: float) -> tuple[list[str], float]:
    """Practice-clip-sized files (about ``file_s`` long) made by joining the eval clips,
    with 0.5 s of silence between, written to ``tmp`` (outside the repo)."""
    import numpy as np

    from coach import SAMPLE_RATE
    from coach.audio import load, write_wav

    clips = sorted(
        p for p in (eval_dir / "clips").iterdir() if p.suffix in {".wav", ".flac", ".mp3"}
    )
    audio = [load(p) for p in clips]
    gap = np.zeros(SAMPLE_RATE // 2, np.float32)
    files: list[str] = []
    total, k = 0.0, 0
    while total < minutes * 60:
        parts, length = [], 0.0
        while length < file_s:
            y = audio[k % len(audio)]
            parts += [y, gap]
            length += (y.size + gap.size) / SAMPLE_RATE
            k += 1
        path = tmp / f"practice_{len(files):02d}.wav"
        write_wav(path, np.concatenate(parts), SAMPLE_RATE)
        files.append(str(path))
        total += length
    return files, total


def _child_bare(files: list[str], model: str) -> dict:
    from faster_whisper import WhisperModel

    from coach.asr import default_threads, resolve_model

    t0 = time.perf_counter()
    # faster-whisper's defaults, with the same thread count coach uses
    m = WhisperModel(
        resolve_model(model), device="cpu", compute_type="int8", cpu_threads=default_threads()
    )
    load = time.perf_counter() - t0
    t0 = time.perf_counter()
    for f in files:
        segments, _ = m.transcribe(f, language="en")
        for _ in segments:
            pass
    return {"load_s": load, "run_s": time.perf_counter() - t0}


def _child_coach(files: list[str], model: str) -> dict:
    from coach.asr import AsrOptions, Transcriber
    from coach.render import render
    from coach.score import ScoreOptions, score_file

    options = ScoreOptions(asr=AsrOptions(model=model))
    t0 = time.perf_counter()
    t = Transcriber.load(options.asr)
    load = time.perf_counter() - t0
    t0 = time.perf_counter()
    asr = feat = analysis = 0.0
    reports = []
    for f in files:
        r = score_file(f, t, options)
        asr += r.timings_s.get("asr_s", 0.0)
        feat += r.timings_s.get("features_s", 0.0)
        analysis += r.timings_s.get("analysis_s", 0.0)
        r.tracks = None  # keep memory to what a streaming writer would hold
        reports.append(r)
    t1 = time.perf_counter()
    render(reports, "json")
    report_s = time.perf_counter() - t1
    return {"load_s": load, "run_s": time.perf_counter() - t0, "asr_s": asr,
            "features_s": feat, "analysis_s": analysis, "report_s": report_s}  # fmt: skip


def _child_long(files: list[str], model: str) -> dict:
    """Score one long file (the batch joined end to end many times), streaming it."""
    from coach.asr import AsrOptions, Transcriber
    from coach.score import ScoreOptions, score_file

    options = ScoreOptions(asr=AsrOptions(model=model))
    t = Transcriber.load(options.asr)
    t0 = time.perf_counter()
    r = score_file(files[0], t, options)
    return {"run_s": time.perf_counter() - t0, "duration_s": r.duration_s,
            "words": r.word_count, "error": r.error}  # fmt: skip


def _long_file(files: list[str], minutes: float, path: Path) -> float:
    """Write a wav of ``minutes`` by repeating the batch files, block by block."""
    import soundfile as sf

    from coach import SAMPLE_RATE
    from coach.audio import load, to_int16

    total = 0.0
    with sf.SoundFile(path, "w", SAMPLE_RATE, 1, subtype="PCM_16") as out:
        while total < minutes * 60:
            for f in files:
                y = load(f)
                out.write(to_int16(y))
                total += y.size / SAMPLE_RATE
                if total >= minutes * 60:
                    break
    return total


def _run_child(kind: str, files: list[str], model: str) -> dict:
    proc = subprocess.run(
        [sys.executable, __file__, "--child", kind, "--asr-model", model],
        input=json.dumps(files), capture_output=True, text=True,
    )  # fmt: skip
    if proc.returncode != 0:
        raise SystemExit(f"bench child {kind} failed:\n{proc.stderr[-2000:]}")
    out = json.loads(proc.stdout.strip().splitlines()[-1])
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--eval", type=Path, default=Path("../shared/eval"))
    ap.add_argument("--minutes", type=float, default=10.0)
    ap.add_argument("--asr-model", default="tiny.en")
    ap.add_argument("--file-s", type=float, default=60.0, help="length of each practice file")
    ap.add_argument(
        "--long-minutes", type=float, default=0.0,
        help="also score one file this long, to check memory on long recordings",
    )  # fmt: skip
    ap.add_argument("--child", choices=["bare", "coach", "long"], help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        files = json.loads(sys.stdin.read())
        fn = {"bare": _child_bare, "coach": _child_coach, "long": _child_long}[args.child]
        res = fn(files, args.asr_model)
        res["max_rss_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        print(json.dumps(res))
        return 0
    if not (args.eval / "clips").is_dir():
        print(f"bench: no {args.eval / 'clips'}; pass --eval DIR", file=sys.stderr)
        return 2
    import tempfile

    with tempfile.TemporaryDirectory(prefix="coach-bench-") as tmp:
        files, audio_s = _batch(args.eval, args.minutes, Path(tmp), args.file_s)
        print(
            f"batch: {len(files)} files of about {args.file_s:.0f} s made from "
            f"{args.eval / 'clips'}, {audio_s / 60:.1f} min of audio, ASR {args.asr_model}"
        )
        bare = _run_child("bare", files, args.asr_model)
        coach = _run_child("coach", files, args.asr_model)
        long = None
        if args.long_minutes > 0:
            long_path = Path(tmp) / "long.wav"
            long_s = _long_file(files, args.long_minutes, long_path)
            long = _run_child("long", [str(long_path)], args.asr_model)
    beyond = coach["run_s"] - bare["run_s"]
    print(f"\n{'':34s}{'seconds':>10s}{'x real time':>13s}")

    def row(label: str, seconds: float) -> None:
        print(f"{label:34s}{seconds:10.1f}{seconds / audio_s:13.4f}")

    row("bare faster-whisper transcribe", bare["run_s"])
    row("coach score (whole pipeline)", coach["run_s"])
    print(
        f"{'  of which ASR (word times)':34s}{coach['asr_s']:10.1f}{coach['asr_s'] / audio_s:13.4f}"
    )
    print(f"{'  decode, VAD, pitch, energy':34s}{coach['features_s']:10.1f}"
          f"{coach['features_s'] / audio_s:13.4f}")  # fmt: skip
    print(f"{'  analysis (fillers, pace...)':34s}{coach['analysis_s']:10.1f}"
          f"{coach['analysis_s'] / audio_s:13.4f}")  # fmt: skip
    print(f"{'  report rendering (JSON)':34s}{coach['report_s']:10.2f}"
          f"{coach['report_s'] / audio_s:13.4f}")  # fmt: skip
    print(f"\ncoach beyond the bare transcription: {beyond:+.1f} s "
          f"({beyond / bare['run_s']:+.0%} of it)")  # fmt: skip
    print(
        f"coach beyond its own ASR: {coach['run_s'] - coach['asr_s']:.1f} s "
        f"({(coach['run_s'] - coach['asr_s']) / bare['run_s']:.0%} of the bare transcription)"
    )
    print(f"model load: bare {bare['load_s']:.2f} s, coach {coach['load_s']:.2f} s")
    print(f"peak memory (max RSS): bare {bare['max_rss_mb']:.0f} MB, "
          f"coach {coach['max_rss_mb']:.0f} MB")  # fmt: skip
    if long is not None:
        print(f"\none {long_s / 60:.0f}-minute file: {long['run_s']:.0f} s "
              f"({long['run_s'] / long_s:.3f} x real time), {long['words']} words, "
              f"peak memory {long['max_rss_mb']:.0f} MB, error: {long['error']}")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
