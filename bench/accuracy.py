"""Accuracy of coach against real speech with ground truth (../shared/eval).

Every clip is scored by four configurations: the plain Whisper transcript (no filler
prompt, no fillers from the audio), coach as it was before issue 8 (Whisper's own times
for fillers and for the pace span, no trailing-edge rules, webrtcvad's voice), coach
with webrtcvad's voice track instead of Silero's (``VadOptions(neural=False)``), and
coach. The first two measure pauses and silence from webrtcvad's voice. Figures are given
for the dev clips and the held-out clips apart (``bench/data/accuracy_split.json``, fixed
before any result was looked at: rules may be tuned on dev only).

Filled pauses (um, uh, hm, er, ah) are scored as events, never as counts, so a wrong
filler and a missed one do not cancel:

- in order, on every clip: the truth transcript and coach's words (its filled pauses put
  in by time) are aligned word by word; a hit is a filled pause of the same kind at the
  same place (coach's "uh/um", found in the sound, matches uh or um);
- in time, where the truth has word times (``acoustic_corpus.wav``): a hit is the same
  kind with onsets within 0.3 s. The truth's fillers without times are left out, and so
  are as many of coach's unmatched fillers of their kind (``untimed``);
- fillers over silence: reported filled pauses with more than half of their span on
  frames the clip's voice activity calls non-speech (must be 0), and, where the truth has
  word times, those whose middle lies in a silence of at least 0.25 s between its words.

Precision, recall and F1 of the events; false fillers on the clips with none; word-count
error; and on ``acoustic_corpus.wav`` words per minute and pause agreement against the
forced-aligner word times. Figures go to ``bench/results/accuracy.json``.

Run: ``.venv/bin/python bench/accuracy.py`` (or ``make bench-accuracy``).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np

from coach.analysis.acoustic import AcousticOptions
from coach.analysis.fillers import FillerOptions, filled_pause_form
from coach.analysis.pace import PaceOptions
from coach.asr import AsrOptions, Transcriber
from coach.report import ClipReport, ReportWord
from coach.score import ScoreOptions, score_file
from coach.transcript import tokens

sys.path.insert(0, str(Path(__file__).resolve().parent))
from results import load_truth, write_results  # noqa: E402

FILLED = {"um", "uh", "hm", "er", "ah"}
NON_LEXICAL = FILLED | {"yknow"}
SPLIT = Path(__file__).resolve().parent / "data" / "accuracy_split.json"
HIT_S = 0.3
"""Largest onset difference (s) of a timed hit."""
TRUTH_SILENCE_S = 0.25
"""A gap this long between the truth's aligned words is silence (the pause floor)."""

Event = tuple[str, float, float]
"""(kind, start_s, end_s) of a filled pause."""


def _compatible(truth_kind: str, found_kind: str) -> bool:
    return truth_kind == found_kind or (found_kind == "uh/um" and truth_kind in {"uh", "um"})


def _prf(tp: int, fp: int, fn: int) -> dict[str, Any]:
    p = tp / (tp + fp) if tp + fp else 1.0
    r = tp / (tp + fn) if tp + fn else 1.0
    f1 = 2 * p * r / (p + r) if p + r else 0.0
    return {"tp": tp, "fp": fp, "fn": fn, "precision": round(p, 3), "recall": round(r, 3),
            "f1": round(f1, 3)}  # fmt: skip


def truth_sequence(transcript: str) -> list[str]:
    """Truth words, filled pauses as ``<kind>`` ("'er" is her, a word)."""
    out: list[str] = []
    for raw in transcript.split():
        out += [f"<{raw}>"] if raw in FILLED else tokens(raw)
    return out


def found_sequence(words: list[tuple[str, float]], fillers: list[Event]) -> list[str]:
    """coach's words (``(text, start_s)``, filled pauses left out) with its filled pauses
    put in by time as ``<kind>``."""
    seq = [(start, 1, t) for text, start in words for t in tokens(text)]
    seq += [(start, 0, f"<{kind}>") for kind, start, _ in fillers]
    return [t for _, _, t in sorted(seq)]


def _sub_cost(t: str, f: str) -> float:
    """Cost of aligning truth token ``t`` with found token ``f``: a filler never pairs
    with a word (that costs a deletion and an insertion), and two fillers cost a little,
    so that on a tie the words pair and a filler on the wrong side of a word misses."""
    tf, ff = t.startswith("<"), f.startswith("<")
    if tf != ff:
        return 2.0
    if tf:
        return 0.01 if _compatible(t[1:-1], f[1:-1]) else 1.0
    return 0.0 if t == f else 1.0


def match_in_order(truth: list[str], found: list[str]) -> tuple[int, int, int]:
    """(hits, false fillers, missed fillers) of two word sequences aligned word by word
    (least edits: Levenshtein with the costs of :func:`_sub_cost`)."""
    n, m = len(truth), len(found)
    d = np.zeros((n + 1, m + 1))
    d[:, 0], d[0, :] = np.arange(n + 1), np.arange(m + 1)
    for i in range(1, n + 1):
        for j in range(1, m + 1):
            d[i, j] = min(d[i - 1, j] + 1, d[i, j - 1] + 1,
                          d[i - 1, j - 1] + _sub_cost(truth[i - 1], found[j - 1]))  # fmt: skip
    hits = 0
    i, j = n, m
    while i > 0 and j > 0:
        if np.isclose(d[i, j], d[i - 1, j - 1] + _sub_cost(truth[i - 1], found[j - 1])):
            t, f = truth[i - 1], found[j - 1]
            hits += t.startswith("<") and f.startswith("<") and _compatible(t[1:-1], f[1:-1])
            i, j = i - 1, j - 1
        elif np.isclose(d[i, j], d[i - 1, j] + 1):
            i -= 1
        else:
            j -= 1
    want = sum(t.startswith("<") for t in truth)
    got = sum(f.startswith("<") for f in found)
    return hits, got - hits, want - hits


def match_in_time(truth: list[Event], found: list[Event], untimed: dict[str, int]) -> dict:
    """Timed hits: same kind, onsets within ``HIT_S``, nearest pairs first. Up to
    ``untimed[kind]`` unmatched found fillers of a kind are set aside, not counted."""
    pairs = sorted(
        (abs(t[1] - f[1]), i, j)
        for i, t in enumerate(truth)
        for j, f in enumerate(found)
        if _compatible(t[0], f[0]) and abs(t[1] - f[1]) <= HIT_S + 1e-9
    )
    used_t: set[int] = set()
    used_f: set[int] = set()
    for _d, i, j in pairs:
        if i not in used_t and j not in used_f:
            used_t.add(i)
            used_f.add(j)
    left = dict(untimed)
    set_aside = 0
    for j, f in enumerate(found):
        if j in used_f:
            continue
        kind = next((k for k, n in left.items() if n > 0 and _compatible(k, f[0])), None)
        if kind is not None:
            left[kind] -= 1
            set_aside += 1
            used_f.add(j)
    res = _prf(len(used_t), len(found) - len(used_f), len(truth) - len(used_t))
    res["untimed"] = set_aside
    return res


def over_silence(fillers: list[Event], voiced: np.ndarray, frame_s: float) -> int:
    """Filled pauses with more than half of their span on non-speech frames."""
    n = 0
    for _kind, a, b in fillers:
        i, j = int(round(a / frame_s)), max(int(round(b / frame_s)), int(round(a / frame_s)) + 1)
        seg = voiced[i:j]
        if seg.size == 0 or seg.mean() < 0.5:
            n += 1
    return n


def over_truth_silence(fillers: list[Event], word_times: list[dict]) -> int:
    """Filled pauses whose middle lies in a gap of at least ``TRUTH_SILENCE_S`` between the
    truth's aligned words (before the first word and after the last count too)."""
    edges = [(-1e9, word_times[0]["start"])]
    edges += [(a["end"], b["start"]) for a, b in zip(word_times, word_times[1:], strict=False)]
    edges.append((word_times[-1]["end"], 1e9))
    gaps = [(a, b) for a, b in edges if b - a >= TRUTH_SILENCE_S - 1e-9]
    return sum(any(a < (s + e) / 2 < b for a, b in gaps) for _k, s, e in fillers)


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


def report_events(r: ClipReport) -> tuple[list[ReportWord], list[Event]]:
    """coach's words without its filled pauses, and its filled pauses (kind, start, end)."""
    fillers = [(it.text, it.start_s, it.end_s) for it in r.fillers.items
               if it.kind == "filled_pause"]  # fmt: skip
    words = [w for w in r.words
             if not (w.filler and filled_pause_form(" ".join(tokens(w.text))))]  # fmt: skip
    return words, fillers


def clip_figures(t: dict, r: ClipReport) -> dict[str, Any]:
    """Everything measured on one clip against its truth."""
    report_words, fillers = report_events(r)
    words = [(w.text, w.start_s) for w in report_words]
    tp, fp, fn = match_in_order(truth_sequence(t["transcript"]), found_sequence(words, fillers))
    tracks = r.tracks
    row: dict[str, Any] = {
        "filled_truth": t["filled_pause_count"],
        "filled_found": len(fillers),
        "order": {"tp": tp, "fp": fp, "fn": fn},
        "over_silence": over_silence(fillers, tracks.voiced, tracks.vad_frame_s) if tracks else 0,
        "words_truth": t["words"],
        "words_found": r.word_count,
        "fillers": [[k, float(a), float(b)] for k, a, b in fillers],
    }
    if "word_times" in t:
        wt = t["word_times"]
        timed = [(w["word"], w["start"], w["end"]) for w in wt if w["word"] in FILLED]
        untimed = dict(t["filled_pauses"])
        for k, _a, _b in timed:
            untimed[k] = untimed.get(k, 0) - 1
        row["timed"] = match_in_time(timed, fillers, {k: n for k, n in untimed.items() if n})
        row["over_truth_silence"] = over_truth_silence(fillers, wt)
        lex = [w for w in wt if w["word"] not in NON_LEXICAL]
        true_wpm = len(lex) / (lex[-1]["end"] - lex[0]["start"]) * 60
        tp_ = truth_pauses(wt, r.pauses.threshold_s)
        found = [(p.start_s, p.end_s) for p in r.pauses.items]
        pp, pr, perr = pause_agreement(tp_, found)
        row["pace"] = {"wpm_true": round(true_wpm, 1), "wpm": r.pace.wpm,
                       "wpm_error": round(abs(r.pace.wpm - true_wpm) / true_wpm, 4),
                       "span_true": [lex[0]["start"], lex[-1]["end"]],
                       "speaking_s": r.pace.speaking_s}  # fmt: skip
        row["pauses"] = {"precision": round(pp, 3), "recall": round(pr, 3),
                         "boundary_error_s": round(perr, 3), "truth": len(tp_),
                         "found": len(found)}  # fmt: skip
    return row


READ_SPEECH = ("librispeech_", "jfk", "common_voice_")
"""Clips of read speech by their source (``../shared/eval/README.md``: LibriSpeech, the
1961 address, Common Voice sentences), where issue 8's word-count target applies; the
``mfa_*`` clips are acted disfluencies of three to seventeen words."""


def _word_count_error(rows: list[dict]) -> float:
    return round(
        sum(abs(r["words_found"] - r["words_truth"]) / max(1, r["words_truth"]) for r in rows)
        / max(1, len(rows)),
        4,
    )


def summarize(rows: dict[str, dict]) -> dict[str, Any]:
    """Figures over a set of clips."""
    o = {k: sum(r["order"][k] for r in rows.values()) for k in ("tp", "fp", "fn")}
    clean = [r for r in rows.values() if r["filled_truth"] == 0]
    out: dict[str, Any] = {
        "clips": len(rows),
        "filled_pauses_truth": sum(r["filled_truth"] for r in rows.values()),
        "in_order": _prf(o["tp"], o["fp"], o["fn"]),
        "over_silence": sum(r["over_silence"] for r in rows.values()),
        "false_filler_clips": sum(r["filled_found"] > 0 for r in clean),
        "clean_clips": len(clean),
        "word_count_error": _word_count_error(list(rows.values())),
        # every clip's words together: a word more on a three-word clip is not 33 %
        "word_count_error_pooled": round(
            sum(abs(r["words_found"] - r["words_truth"]) for r in rows.values())
            / max(1, sum(r["words_truth"] for r in rows.values())),
            4,
        ),
        "read_speech_clips": sum(c.startswith(READ_SPEECH) for c in rows),
        "read_speech_word_count_error": _word_count_error(
            [r for c, r in rows.items() if c.startswith(READ_SPEECH)]
        ),
    }
    timed = [r for r in rows.values() if "timed" in r]
    if timed:
        t = {k: sum(r["timed"][k] for r in timed) for k in ("tp", "fp", "fn", "untimed")}
        out["timed"] = {**_prf(t["tp"], t["fp"], t["fn"]), "untimed": t["untimed"],
                        "clips": len(timed)}  # fmt: skip
        out["over_truth_silence"] = sum(r["over_truth_silence"] for r in timed)
    return out


def run(options: ScoreOptions, eval_dir: Path, truth: dict) -> tuple[dict, float]:
    """Score every clip: (figures per clip, real-time factor)."""
    transcriber = Transcriber.load(options.asr)
    rows, audio_s = {}, 0.0
    t0 = time.perf_counter()
    for clip, t in truth.items():
        r = score_file(eval_dir / "clips" / clip, transcriber, options)
        audio_s += r.duration_s
        if r.error:
            print(f"  {clip}: {r.error}", file=sys.stderr)
        rows[clip] = clip_figures(t, r)
    return rows, (time.perf_counter() - t0) / max(audio_s, 1e-9)


def configurations(base: ScoreOptions) -> dict[str, ScoreOptions]:
    """The systems compared."""
    webrtcvad = replace(base.vad, neural=False)  # the voice track before Silero's
    before = replace(
        base,
        asr=replace(base.asr, prompt_chunk_s=None),  # one piece, primed in its first window
        fillers=FillerOptions(place=False),
        pace=PaceOptions(voiced_edges=False),
        # the trailing-edge and clip-end rules off
        acoustic=AcousticOptions(word_edge_s=float("-inf"), clip_end_s=0.0),
        vad=webrtcvad,
    )
    plain = replace(base, asr=replace(base.asr, initial_prompt=None),
                    acoustic=AcousticOptions(enabled=False), vad=webrtcvad)  # fmt: skip
    # faster-whisper's own split of a window: the words after a piece's last timestamp
    # recognised again in a window of their own (coach before 2026-11-27)
    own_split = replace(base, asr=replace(base.asr, last_window_ends=False))
    return {"plain whisper": plain, "coach before issue 8": before,
            "coach, webrtcvad voice": replace(base, vad=webrtcvad),
            "coach, faster-whisper's window split": own_split, "coach": base}  # fmt: skip


def _print(figures: dict[str, Any], detail: bool) -> None:
    names = list(figures["systems"])
    for split in ("dev", "held_out"):
        s0 = figures["systems"][names[0]][split]
        print(f"\n{split}: {s0['clips']} clips, {s0['filled_pauses_truth']} filled pauses")
        print(f"{'':30s}" + "".join(f"{n:>22s}" for n in names))

        def line(label: str, get: Any, split: str = split) -> None:
            cells = [get(figures["systems"][n][split]) for n in names]
            print(f"{label:30s}" + "".join(f"{c!s:>22s}" for c in cells))

        def prf(d: dict) -> str:
            return f"{d['precision']:.2f}/{d['recall']:.2f}/{d['f1']:.2f}"

        line("in order P/R/F1", lambda s: prf(s["in_order"]))
        line("  hits/false/missed", lambda s: "{tp}/{fp}/{fn}".format(**s["in_order"]))
        if "timed" in s0:
            line("timed (0.3 s) P/R/F1", lambda s: prf(s["timed"]))
            line("  hits/false/missed/untimed",
                 lambda s: "{tp}/{fp}/{fn}/{untimed}".format(**s["timed"]))  # fmt: skip
            line("over silence (truth)", lambda s: s["over_truth_silence"])
        line("over silence (voice act.)", lambda s: s["over_silence"])
        line("false fillers (clips)", lambda s: f"{s['false_filler_clips']} of {s['clean_clips']}")
        line("word-count error", lambda s: f"{s['word_count_error']:.1%}")
        line("  pooled over words", lambda s: f"{s['word_count_error_pooled']:.1%}")
        line("  read speech", lambda s: f"{s['read_speech_word_count_error']:.1%} "
             f"({s['read_speech_clips']} clips)")  # fmt: skip
    ac = figures["systems"]["coach"]["clips"].get("acoustic_corpus.wav")
    if ac:
        print("\nacoustic_corpus.wav (held out):")
        for n in names:
            c = figures["systems"][n]["clips"]["acoustic_corpus.wav"]
            p, q = c["pace"], c["pauses"]
            print(f"  {n:24s} wpm {p['wpm']:.1f} (truth {p['wpm_true']:.1f}, error "
                  f"{p['wpm_error']:.1%}); pauses P {q['precision']:.2f} R {q['recall']:.2f} "
                  f"boundary error {q['boundary_error_s']:.3f} s")  # fmt: skip
    for n in names:
        print(f"real-time factor {n}: {figures['systems'][n]['rtf']:.3f}")
    if detail:
        for n in names:
            print(f"\n{n}: clip, filled pauses truth/found, in order hits/false/missed, "
                  "over silence, words truth/found")  # fmt: skip
            for clip, c in figures["systems"][n]["clips"].items():
                o = c["order"]
                print(f"  {clip:34s} {c['filled_truth']}/{c['filled_found']}  "
                      f"{o['tp']}/{o['fp']}/{o['fn']}  {c['over_silence']}  "
                      f"{c['words_truth']}/{c['words_found']}")  # fmt: skip


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--eval", type=Path, default=Path("../shared/eval"))
    ap.add_argument("--asr-model", default="tiny.en")
    ap.add_argument("--split", choices=["dev", "held_out", "both"], default="both",
                    help="clips to score (tune on dev only)")  # fmt: skip
    ap.add_argument("--detail", action="store_true", help="print every clip")
    ap.add_argument("--no-write", action="store_true", help="do not write bench/results")
    args = ap.parse_args()
    truth = load_truth(args.eval)
    if truth is None:
        return 2
    split = json.loads(SPLIT.read_text())
    missing = set(truth) - set(split["dev"]) - set(split["held_out"])
    if missing:
        print(f"bench: clips in no split of {SPLIT}: {sorted(missing)}", file=sys.stderr)
        return 2
    splits = ["dev", "held_out"] if args.split == "both" else [args.split]
    clips = {c: t for c, t in truth.items() if any(c in split[s] for s in splits)}
    base = ScoreOptions(asr=AsrOptions(model=args.asr_model))
    figures: dict[str, Any] = {"eval": str(args.eval), "asr_model": args.asr_model,
                               "hit_s": HIT_S, "split_file": "bench/data/accuracy_split.json",
                               "systems": {}}  # fmt: skip
    for name, opts in configurations(base).items():
        rows, rtf = run(opts, args.eval, clips)
        sys_fig: dict[str, Any] = {"rtf": round(rtf, 4), "clips": rows}
        for s in ("dev", "held_out"):
            part = {c: r for c, r in rows.items() if c in split[s]}
            sys_fig[s] = summarize(part) if part else {"clips": 0, "filled_pauses_truth": 0}
        figures["systems"][name] = sys_fig
    print(f"\nAccuracy on {len(clips)} clips of {args.eval}, ASR {args.asr_model}")
    if args.split == "both":
        _print(figures, args.detail)
    else:
        _print_one(figures, args.split, args.detail)
    if not args.no_write and args.split == "both":
        print(f"\nwritten {write_results('accuracy', figures)}")
    return 0


def _print_one(figures: dict[str, Any], split: str, detail: bool) -> None:
    for name, s in figures["systems"].items():
        print(f"\n{name} ({split}):", json.dumps({k: v for k, v in s[split].items()}))
        if detail:
            for clip, c in s["clips"].items():
                o = c["order"]
                print(f"  {clip:34s} {c['filled_truth']}/{c['filled_found']}  "
                      f"{o['tp']}/{o['fp']}/{o['fn']}  over silence {c['over_silence']}  "
                      f"{c['fillers']}")  # fmt: skip


if __name__ == "__main__":
    sys.exit(main())
