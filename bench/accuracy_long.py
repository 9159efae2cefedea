"""Filled pauses on one long recording: does the filler prompt reach every 30 s window?

The clips of ../shared/eval are joined into one file of at least --minutes (in turn,
0.5 s of silence between, as ``bench/speed.py`` does, by its own function). Each system
recognises the whole file in one run; its words and filled pauses are then cut back to
each clip's stretch of the file (by their middle) and scored against that clip's truth
with the in-order matching of ``bench/accuracy.py`` (the same functions), one row per
occurrence of a clip. Figures are given for the dev and held-out clips apart
(``bench/data/accuracy_split.json``; tune on dev only).

The systems, in one run:

  1. coach as ``coach score`` runs it: the voiced audio cut at its pauses into pieces of
     at most ``AsrOptions.prompt_chunk_s`` seconds, each recognised on its own and primed
     with the filler prompt, dealt to two recogniser workers on a machine with two or more
     CPUs. The clips here are joined with 0.5 s of silence between, so pieces end where
     clips do more often than they would in a talk;
  2. coach before that, filler prompt in the first window only (``prompt_chunk_s=None``:
     faster-whisper's ``initial_prompt`` with ``condition_on_previous_text=False`` primes
     only the first window of a ``transcribe()`` call, and the 10-minute file is one call),
     one worker with both workers' threads, as ``coach score --fast``;
  3. coach, filler prompt in every window (``prompt_chunk_s=None,
     prompt_every_window=True``: the prompt passed as ``hotwords``);
  (``--pieces-s``: more piece lengths, to choose on dev)
  4. plain faster-whisper: the same model, ``transcribe()`` with beam_size=1,
     word_timestamps=True, no prompt, everything else its defaults (no VAD); a word
     whose text is a filled pause ("um", "uh", ...) is a filled pause, the rest are
     words as coach counts them (cut-offs and laughter left out).

Prints filled-pause precision, recall and F1 (in order), false fillers, the word-count
error pooled over words, and each system's compute time; writes
``bench/results/accuracy_long.json``.

Run: ``.venv/bin/python bench/accuracy_long.py`` (or ``make bench-accuracy-long``).
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

from coach import SAMPLE_RATE
from coach.analysis.fillers import is_lexical
from coach.asr import AsrOptions, Transcriber, default_threads, default_workers, resolve_model
from coach.report import ReportWord
from coach.score import ScoreOptions, score_file
from coach.text import filled_pause_form
from coach.transcript import Word, split_words, tokens

sys.path.insert(0, str(Path(__file__).resolve().parent))
from accuracy import (  # noqa: E402
    SPLIT,
    found_sequence,
    match_in_order,
    over_silence,
    report_events,
    summarize,
    truth_sequence,
)
from results import load_truth, write_results  # noqa: E402
from speed import _long_file  # noqa: E402

GAP_S = 0.5
"""Silence between clips in the joined file (``bench/speed.py``)."""

Event = tuple[str, float, float]


def layout(eval_dir: Path, minutes: float) -> list[tuple[str, float, float]]:
    """(clip, start_s, end_s) of each occurrence in the file ``_long_file`` writes: the
    clip's audio and the silence after it."""
    from coach.audio import load

    clips = sorted(
        p for p in (eval_dir / "clips").iterdir() if p.suffix in {".wav", ".flac", ".mp3"}
    )
    sizes = [load(p).size for p in clips]
    gap = SAMPLE_RATE // 2
    out, pos, k = [], 0, 0
    while pos / SAMPLE_RATE < minutes * 60:
        n = sizes[k % len(clips)]
        out.append((clips[k % len(clips)].name, pos / SAMPLE_RATE, (pos + n + gap) / SAMPLE_RATE))
        pos += n + gap
        k += 1
    return out


def _occurrence(t_s: float, spans: list[tuple[str, float, float]]) -> int | None:
    for i, (_c, a, b) in enumerate(spans):
        if a <= t_s < b:
            return i
    return None


def rows_for(
    spans: list[tuple[str, float, float]],
    truth: dict,
    words: list[tuple[str, float, float, bool]],
    fillers: list[Event],
    voiced: Any = None,
    frame_s: float = 0.0,
) -> dict[str, dict]:
    """One row per occurrence, as ``accuracy.clip_figures`` makes them.

    Args:
        spans: (clip, start_s, end_s) of each occurrence.
        truth: truth.json.
        words: (text, start_s, end_s, lexical) of every word but the filled pauses.
        fillers: the filled pauses (kind, start_s, end_s).
        voiced: the file's voice-activity frames (for fillers over silence), or None.
        frame_s: their length, seconds.
    """
    w_by: list[list[tuple[str, float, float, bool]]] = [[] for _ in spans]
    f_by: list[list[Event]] = [[] for _ in spans]
    for w in words:
        i = _occurrence((w[1] + w[2]) / 2, spans)
        if i is not None:
            w_by[i].append(w)
    for f in fillers:
        i = _occurrence((f[1] + f[2]) / 2, spans)
        if i is not None:
            f_by[i].append(f)
    rows: dict[str, dict] = {}
    for i, (clip, _a, _b) in enumerate(spans):
        t = truth[clip]
        found = found_sequence([(text, s) for text, s, _e, _lex in w_by[i]], f_by[i])
        tp, fp, fn = match_in_order(truth_sequence(t["transcript"]), found)
        rows[f"{clip}#{i}"] = {
            "filled_truth": t["filled_pause_count"],
            "filled_found": len(f_by[i]),
            "order": {"tp": tp, "fp": fp, "fn": fn},
            "over_silence": over_silence(f_by[i], voiced, frame_s) if voiced is not None else 0,
            "words_truth": t["words"],
            "words_found": sum(lex for *_x, lex in w_by[i]),
        }
    return rows


def run_coach(path: Path, asr: AsrOptions) -> tuple[list, list[Event], Any, float, float]:
    """``coach score`` of the file: words, filled pauses, voice frames, frame length and
    the ASR's compute time (s)."""
    transcriber = Transcriber.load(asr)
    r = score_file(path, transcriber, ScoreOptions(asr=asr))
    if r.error:
        raise SystemExit(f"bench: coach failed on {path}: {r.error}")
    kept, fillers = report_events(r)
    words = [(w.text, w.start_s, w.end_s, _lexical(w)) for w in kept]
    tracks = r.tracks
    return words, fillers, tracks.voiced, tracks.vad_frame_s, r.timings_s.get("asr_s", 0.0)


def _lexical(w: ReportWord) -> bool:
    """A word coach counts (as ``fillers.lexical_words``: not a filler, cut-off or
    laughter)."""
    return not w.filler and is_lexical(Word(w.text, w.start_s, w.end_s))


def run_plain(path: Path, model: str) -> tuple[list, list[Event], float]:
    """Bare faster-whisper on the file: words, filled pauses and its compute time (s)."""
    from faster_whisper import WhisperModel

    m = WhisperModel(resolve_model(model), device="cpu", compute_type="int8",
                     cpu_threads=default_threads(), local_files_only=True)  # fmt: skip
    t0 = time.process_time()
    segments, _ = m.transcribe(str(path), language="en", beam_size=1, word_timestamps=True)
    raw = [Word(w.word.strip(), w.start, w.end) for s in segments for w in s.words or []]
    cpu = time.process_time() - t0
    words, fillers = [], []
    for w in split_words([w for w in raw if w.text]):
        kind = filled_pause_form(" ".join(tokens(w.text)))
        if kind:
            fillers.append((kind, w.start_s, w.end_s))
        else:
            words.append((w.text, w.start_s, w.end_s, is_lexical(w)))
    return words, fillers, cpu


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--eval", type=Path, default=Path("../shared/eval"))
    ap.add_argument("--minutes", type=float, default=10.0)
    ap.add_argument("--asr-model", default="tiny.en")
    ap.add_argument(
        "--pieces-s",
        type=float,
        nargs="*",
        default=[],
        help="also recognise in pieces of at most these seconds, each primed (to choose "
        "AsrOptions.prompt_chunk_s on dev)",
    )
    ap.add_argument("--no-write", action="store_true", help="do not write bench/results")
    args = ap.parse_args()
    truth = load_truth(args.eval)
    if truth is None:
        return 2
    split = json.loads(SPLIT.read_text())
    spans = layout(args.eval, args.minutes)
    missing = {c for c, _a, _b in spans} - set(truth)
    if missing:
        print(f"bench: clips without truth: {sorted(missing)}", file=sys.stderr)
        return 2
    base = AsrOptions(model=args.asr_model, workers=0)  # as coach score
    figures: dict[str, Any] = {"eval": str(args.eval), "asr_model": args.asr_model,
                               "split_file": "bench/data/accuracy_split.json",
                               "systems": {}}  # fmt: skip
    with tempfile.TemporaryDirectory(prefix="coach-bench-") as tmp:
        path = Path(tmp) / "long.wav"
        audio_s, truth_words = _long_file(args.eval, args.minutes, path)
        if abs(audio_s - spans[-1][2]) > 1e-3:
            raise SystemExit(f"bench: layout {spans[-1][2]:.3f} s != file {audio_s:.3f} s")
        figures |= {"audio_s": round(audio_s, 1), "occurrences": len(spans),
                    "truth_words": truth_words}  # fmt: skip
        print(f"{audio_s / 60:.1f} min of audio, {len(spans)} clips in turn, ASR "
              f"{args.asr_model}, {default_threads()} threads")  # fmt: skip
        results: dict[str, tuple[dict[str, dict], float]] = {}
        workers = default_workers()  # one worker with the threads coach score's would have
        one_piece = replace(base, workers=1, cpu_threads=workers * default_threads(workers))
        for name, options in (
            (f"coach (pieces of at most {base.prompt_chunk_s:g} s, each primed)", base),
            ("coach, faster-whisper's window split", replace(base, last_window_ends=False)),
            # one piece: one worker with both workers' threads, as coach score --fast
            ("coach, prompt in first window", replace(one_piece, prompt_chunk_s=None)),
            ("coach, prompt in every window",
             replace(one_piece, prompt_chunk_s=None, prompt_every_window=True)),
            *((f"coach, prompt in each piece of at most {s:g} s",
               replace(base, prompt_chunk_s=s)) for s in args.pieces_s),
        ):  # fmt: skip
            t0 = time.perf_counter()
            words, fillers, voiced, frame_s, asr_s = run_coach(path, options)
            print(f"  {name}: {time.perf_counter() - t0:.1f} s (ASR {asr_s:.1f} s)")
            results[name] = (rows_for(spans, truth, words, fillers, voiced, frame_s), asr_s)
        t0 = time.perf_counter()
        words, fillers, cpu = run_plain(path, args.asr_model)
        print(f"  plain faster-whisper: {time.perf_counter() - t0:.1f} s")
        results["plain faster-whisper"] = (rows_for(spans, truth, words, fillers), cpu)
    for name, (rows, asr_s) in results.items():
        sys_fig: dict[str, Any] = {"asr_s": round(asr_s, 1), "clips": rows}
        for s in ("dev", "held_out"):
            part = {c: r for c, r in rows.items() if c.split("#")[0] in split[s]}
            sys_fig[s] = summarize(part)
        sys_fig["all"] = summarize(rows)
        figures["systems"][name] = sys_fig
    _print(figures)
    if not args.no_write:
        print(f"\nwritten {write_results('accuracy_long', figures)}")
    return 0


def _print(figures: dict[str, Any]) -> None:
    names = list(figures["systems"])
    for split in ("dev", "held_out", "all"):
        s0 = figures["systems"][names[0]][split]
        print(f"\n{split}: {s0['clips']} clip occurrences, {s0['filled_pauses_truth']} "
              "filled pauses")  # fmt: skip
        print(f"{'':28s}" + "".join(f"{n:>32s}" for n in names))

        def line(label: str, get: Any, split: str = split) -> None:
            cells = [get(figures["systems"][n][split]) for n in names]
            print(f"{label:28s}" + "".join(f"{c!s:>32s}" for c in cells))

        line("in order P/R/F1", lambda s: "{precision:.2f}/{recall:.2f}/{f1:.2f}".format(
            **s["in_order"]))  # fmt: skip
        line("  hits/false/missed", lambda s: "{tp}/{fp}/{fn}".format(**s["in_order"]))
        line("over silence (voice act.)", lambda s: s["over_silence"])
        line("false fillers (clips)", lambda s: f"{s['false_filler_clips']} of {s['clean_clips']}")
        line("word-count error, pooled", lambda s: f"{s['word_count_error_pooled']:.1%}")
        line("  per clip", lambda s: f"{s['word_count_error']:.1%}")


if __name__ == "__main__":
    sys.exit(main())
