"""Answer judgement against labels written before the judge: did an answer address its question?

``bench/data/answer_pairs.jsonl`` holds (context, question, answer, label) pairs written by
someone who never saw the judge's code, labelled addressed, partial, off_topic or dodged,
split into dev (may be used for tuning) and test (reported only). This bench runs
coach's judge (:func:`coach.analysis.answers.judge_answer`, with the model when
``--llm`` names one) on every pair and prints, per split:

* precision and recall of "addressed" (the answers coach lets pass without a follow-up);
* precision and recall of each kind of miss (partial, off_topic, dodged), and the
  confusion matrix;
* seconds per judgement.

Figures go to ``bench/results/judge.json``.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))
from results import write_results  # noqa: E402

PAIRS = sorted((ROOT / "bench" / "data").glob("answer_pairs*.jsonl"))
LABELS = ("addressed", "partial", "off_topic", "dodged")


def prf(pairs: list[tuple[str, str]], label: str) -> dict[str, float | int | None]:
    tp = sum(1 for t, p in pairs if t == label and p == label)
    fp = sum(1 for t, p in pairs if t != label and p == label)
    fn = sum(1 for t, p in pairs if t == label and p != label)
    precision = tp / (tp + fp) if tp + fp else None
    recall = tp / (tp + fn) if tp + fn else None
    f1 = (2 * precision * recall / (precision + recall)
          if precision and recall else None)  # fmt: skip
    r = lambda v: None if v is None else round(v, 3)  # noqa: E731
    return {"precision": r(precision), "recall": r(recall), "f1": r(f1), "support": tp + fn}


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--llm", default="", help="a GGUF (name or path) for the relevance check")
    ap.add_argument("--show", choices=("dev", "test", "none"), default="none",
                    help="print the wrong judgements of one split")  # fmt: skip
    ap.add_argument("--name", default="judge", help="results file name")
    args = ap.parse_args()
    from coach.analysis.answers import judge_answer

    llm = None
    if args.llm:
        from coach.llm import ChatModel, LlmOptions

        llm = ChatModel.load(LlmOptions(model=args.llm))
    rows = [json.loads(line) for path in PAIRS for line in path.open() if line.strip()]
    by_split: dict[str, list[tuple[str, str]]] = defaultdict(list)
    seconds: list[float] = []
    for row in rows:
        t0 = time.perf_counter()
        j = judge_answer(row["question"], row["answer"], context=row.get("context", ""), llm=llm)
        seconds.append(time.perf_counter() - t0)
        by_split[row["split"]].append((row["label"], j.verdict))
        if args.show == row["split"] and j.verdict != row["label"]:
            print(f"[{row['id']}] truth {row['label']} got {j.verdict} ({j.reason})\n"
                  f"  Q: {row['question']}\n  A: {row['answer']}\n")  # fmt: skip
    figures: dict[str, object] = {}
    for split in ("dev", "test"):
        pairs = by_split.get(split, [])
        if not pairs:
            continue
        addressed = [("addressed" if t == "addressed" else "missed",
                      "addressed" if p == "addressed" else "missed") for t, p in pairs]  # fmt: skip
        confusion = Counter(f"{t}->{p}" for t, p in pairs)
        figures[split] = {
            "pairs": len(pairs),
            "addressed": prf(addressed, "addressed"),
            "missed": prf(addressed, "missed"),
            **{label: prf(pairs, label) for label in LABELS[1:]},
            "accuracy_4way": round(sum(t == p for t, p in pairs) / len(pairs), 3),
            "confusion": dict(sorted(confusion.items())),
        }
        a = figures[split]["addressed"]  # type: ignore[index]
        print(f"{split}: {len(pairs)} pairs; addressed precision {a['precision']} recall "
              f"{a['recall']}; 4-way accuracy {figures[split]['accuracy_4way']}")  # type: ignore[index]  # fmt: skip
        for label in LABELS[1:]:
            m = figures[split][label]  # type: ignore[index]
            print(f"  {label:9} precision {m['precision']} recall {m['recall']} "
                  f"(n={m['support']})")  # fmt: skip
    figures["seconds_per_judgement_p50"] = round(statistics.median(seconds), 4)
    figures["seconds_per_judgement_max"] = round(max(seconds), 4)
    figures["llm"] = args.llm or None
    path = write_results(args.name, figures)
    print(f"seconds per judgement p50 {figures['seconds_per_judgement_p50']}; "
          f"figures written to {path.relative_to(ROOT)}")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
