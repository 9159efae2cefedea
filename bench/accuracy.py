"""Accuracy of coach against real speech with ground truth (../shared/eval).

Prints, for the plain Whisper transcript and for coach's full pipeline:
filled-pause precision, recall and count error; false fillers on clips that have none;
discourse "you know" counts; word-count error; and, on acoustic_corpus.wav, words per
minute and pause agreement against the forced-aligner word times.

Counts are compared per clip (the truth has no times for most fillers): a clip with
truth n and detection m contributes min(n, m) true positives, max(0, m - n) false
positives and max(0, n - m) misses.
"""

from __future__ import annotations

import argparse
import sys
import time
from dataclasses import replace
from pathlib import Path

from coach.analysis.acoustic import AcousticOptions
from coach.asr import AsrOptions, Transcriber
from coach.score import ScoreOptions, score_file

sys.path.insert(0, str(Path(__file__).resolve().parent))
from results import load_truth  # noqa: E402

FILLED = {"um", "uh", "hm", "er", "ah"}
NON_LEXICAL = FILLED | {"yknow"}


def truth_pauses(word_times: list[dict], min_s: float) -> list[tuple[float, float]]:
    """Silent gaps of at least min_s between consecutive aligned words (fillers included)."""
    out = []
    for a, b in zip(word_times, word_times[1:], strict=False):
        if b["start"] - a["end"] >= min_s - 1e-9:
            out.append((a["end"], b["start"]))
    return out


def pause_agreement(
    truth: list[tuple[float, float]], found: list[tuple[float, float]]
) -> tuple[float, float, float]:
    """(precision, recall, mean boundary error s) of pauses, matched by overlap."""
    matched_t, errs = set(), []
    tp = 0
    for a, b in found:
        hits = [i for i, (c, d) in enumerate(truth) if min(b, d) - max(a, c) > 0]
        if hits:
            tp += 1
            c, d = truth[hits[0]]
            errs.append((abs(a - c) + abs(b - d)) / 2)
            matched_t.update(hits)
    p = tp / len(found) if found else 1.0
    r = len(matched_t) / len(truth) if truth else 1.0
    return p, r, (sum(errs) / len(errs) if errs else 0.0)


def run(name: str, options: ScoreOptions, eval_dir: Path, truth: dict) -> dict:
    transcriber = Transcriber.load(options.asr)
    tp = fp = fn = 0
    false_clips, none_clips = 0, 0
    word_err, disc_err = [], []
    rows = []
    t0 = time.perf_counter()
    audio_s = 0.0
    acoustic = None
    for clip, t in truth.items():
        r = score_file(eval_dir / "clips" / clip, transcriber, options)
        audio_s += r.duration_s
        if r.error:
            print(f"  {clip}: {r.error}", file=sys.stderr)
        got = sum(r.fillers.filled_pauses.values())
        want = t["filled_pause_count"]
        tp += min(got, want)
        fp += max(0, got - want)
        fn += max(0, want - got)
        if want == 0:
            none_clips += 1
            false_clips += got > 0
        word_err.append(abs(r.word_count - t["words"]) / max(1, t["words"]))
        disc_err.append(abs(r.fillers.discourse.get("you know", 0) - t["discourse_fillers"]))
        rows.append((clip, want, got, t["words"], r.word_count, r.fillers.discourse))
        if "word_times" in t:
            acoustic = (t, r)
    elapsed = time.perf_counter() - t0
    res = {
        "name": name,
        "precision": tp / (tp + fp) if tp + fp else 1.0,
        "recall": tp / (tp + fn) if tp + fn else 1.0,
        "count_error": (fp + fn) / max(1, tp + fn),
        "tp": tp, "fp": fp, "fn": fn,
        "false_filler_clips": false_clips,
        "clean_clips": none_clips,
        "word_count_error": sum(word_err) / len(word_err),
        "you_know_error": sum(disc_err),
        "rtf": elapsed / audio_s,
        "rows": rows,
    }  # fmt: skip
    if acoustic:
        t, r = acoustic
        wt = t["word_times"]
        lex = [w for w in wt if w["word"] not in NON_LEXICAL]
        true_wpm = len(lex) / (lex[-1]["end"] - lex[0]["start"]) * 60
        res["wpm_true"] = true_wpm
        res["wpm"] = r.pace.wpm
        res["wpm_error"] = abs(r.pace.wpm - true_wpm) / true_wpm
        tp_ = truth_pauses(wt, r.pauses.threshold_s)
        found = [(p.start_s, p.end_s) for p in r.pauses.items]
        res["pause_p"], res["pause_r"], res["pause_err_s"] = pause_agreement(tp_, found)
        res["pauses_true"], res["pauses_found"] = len(tp_), len(found)
        fast = [w for w in lex if w["end"] <= 7.6]
        slow = [w for w in lex if w["start"] >= 8.6]
        res["fast_true"] = len(fast) / (fast[-1]["end"] - fast[0]["start"]) * 60
        res["slow_true"] = len(slow) / (slow[-1]["end"] - slow[0]["start"]) * 60
        res["timeline"] = [(p.start_s, p.end_s, p.wpm, p.flag) for p in r.pace.timeline]
    return res


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--eval", type=Path, default=Path("../shared/eval"))
    ap.add_argument("--asr-model", default="tiny.en")
    ap.add_argument("--beam-size", type=int, default=AsrOptions.beam_size)
    ap.add_argument("--threads", type=int, default=AsrOptions.cpu_threads)
    ap.add_argument("--repetition-penalty", type=float, default=AsrOptions.repetition_penalty)
    ap.add_argument("--temperatures", type=float, nargs="+", default=AsrOptions.temperatures)
    ap.add_argument("--detail", action="store_true", help="print every clip")
    args = ap.parse_args()
    truth = load_truth(args.eval)
    if truth is None:
        return 2
    base = ScoreOptions(
        asr=AsrOptions(
            model=args.asr_model,
            beam_size=args.beam_size,
            cpu_threads=args.threads,
            temperatures=tuple(args.temperatures),
            repetition_penalty=args.repetition_penalty,
        )
    )
    configs = [
        ("plain whisper", replace(base, asr=replace(base.asr, initial_prompt=None),
                                  acoustic=AcousticOptions(enabled=False))),
        ("coach", base),
    ]  # fmt: skip
    results = [run(name, opts, args.eval, truth) for name, opts in configs]
    total = sum(t["filled_pause_count"] for t in truth.values())
    print(f"\nAccuracy on {len(truth)} clips of {args.eval} ({total} filled pauses), "
          f"ASR {args.asr_model}\n")  # fmt: skip
    head = f"{'':28s}" + "".join(f"{r['name']:>16s}" for r in results)
    print(head)

    def line(label: str, key: str, fmt: str = "{:.2f}") -> None:
        print(f"{label:28s}" + "".join(f"{fmt.format(r[key]):>16s}" for r in results))

    line("filled-pause precision", "precision")
    line("filled-pause recall", "recall")
    line("filled-pause count error", "count_error")
    line("  true pos / false pos", "tp", "{}")
    line("  missed", "fn", "{}")
    print(
        f"{'false fillers (clips)':28s}"
        + "".join(
            f"{str(r['false_filler_clips']) + ' of ' + str(r['clean_clips']):>16s}" for r in results
        )
    )
    line("'you know' count error", "you_know_error", "{}")
    line("word-count error (mean)", "word_count_error", "{:.1%}")
    if "wpm" in results[-1]:
        line("acoustic_corpus wpm", "wpm", "{:.1f}")
        print(f"{'  truth wpm':28s}{results[-1]['wpm_true']:>16.1f}")
        line("  wpm error", "wpm_error", "{:.1%}")
        line("pause precision", "pause_p")
        line("pause recall", "pause_r")
        line("pause boundary error (s)", "pause_err_s", "{:.3f}")
        line("pauses truth", "pauses_true", "{}")
        line("pauses found", "pauses_found", "{}")
        r = results[-1]
        print(f"\npace timeline (coach) vs truth fast {r['fast_true']:.0f} wpm / "
              f"slow {r['slow_true']:.0f} wpm:")  # fmt: skip
        for a, b, wpm, flag in r["timeline"]:
            print(f"  {a:5.1f}-{b:5.1f} s  {wpm:6.1f} wpm  {flag or ''}")
    line("real-time factor", "rtf", "{:.3f}")
    if args.detail:
        for r in results:
            print(f"\n{r['name']}: clip, filled pauses truth/found, words truth/found")
            for clip, want, got, tw, gw, disc in r["rows"]:
                print(f"  {clip:34s} {want}/{got}   {tw}/{gw}   {disc or ''}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
