"""Answer judgement against labels written before the judge: did an answer address its question?

``bench/data/answer_pairs*.jsonl`` hold (context, question, answer, label) pairs written
by people who never saw the judge's code, labelled addressed, partial, off_topic or
dodged, split into dev (may be used for tuning) and test (reported only). ``test`` is the
first two batches, ``test_c`` the third (written 2026-11-26, before the judge model's
weights were fitted), ``test_d`` the fourth (written 2026-11-26, before the judge asked
the model more than one question), ``test_f`` the sixth (written 2026-11-28 by a writer
who saw no code, data or results, while the rules of 6a809ff were being written, before
any figure of it was seen). This bench runs coach's judge
(:func:`coach.analysis.answers.judge_answer`) on every pair twice, by the words alone and
with the judge model's odds (:class:`coach.judging.AnswerJudge`, ``--judge-model``), and
prints, per split:

* precision and recall of "addressed" (the answers coach lets pass without a follow-up);
* precision and recall of each kind of miss (partial, off_topic, dodged), and the
  confusion matrix;
* seconds per judgement (the model's, per answer it had not judged before).

With the model, each pair gets its odds of "yes" and the question's gain in the answer's
likelihood (:meth:`coach.judging.AnswerJudge.relevance`).

Figures go to ``bench/results/judge.json``.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))
from results import write_results  # noqa: E402

LABELS = ("addressed", "partial", "off_topic", "dodged")
SPLITS = ("dev", "test", "test_c", "test_d", "test_f")
"""Where the pairs are reported: dev (tuned on) and the held-out batches."""


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
    ap.add_argument("--judge-model", default="qwen2.5-coder-1.5b-instruct",
                    help="GGUF (name or path) whose odds the judge weighs; 'none' for words "
                         "alone")  # fmt: skip
    ap.add_argument("--show", choices=(*SPLITS, "none"), default="none",
                    help="print the wrong judgements of one split (never tune on a test "
                         "split)")  # fmt: skip
    ap.add_argument("--name", default="judge", help="results file name")
    ap.add_argument("--time-pairs", type=int, default=20,
                    help="pairs the model is timed on, uncached (the first ones)")  # fmt: skip
    args = ap.parse_args()
    from train_judge import load_pairs, relevances, supports

    from coach.analysis.answers import judge_answer

    rows = load_pairs()
    for r in rows:
        r["group"] = r["split"] if r["split"] == "dev" or not r["set"] else f"test_{r['set']}"
    modes: dict[str, list[float | None]] = {"words_only": [None] * len(rows)}
    subject: list[float] = []
    gains: list = [None] * len(rows)
    if args.judge_model != "none":
        sup, _seconds = supports(rows, args.judge_model)
        subject, _s = supports(rows, args.judge_model, ask="on_subject")
        gains, _s = relevances(rows, args.judge_model)
        modes["with_model"] = list(sup)
    figures: dict[str, object] = {}
    seconds: list[float] = []
    for mode, sup in modes.items():
        by_split: dict[str, list[tuple[str, str]]] = defaultdict(list)
        for i, (row, p) in enumerate(zip(rows, sup, strict=True)):
            t0 = time.perf_counter()
            on, gain = (subject[i], gains[i]) if p is not None else (None, None)
            j = judge_answer(row["question"], row["answer"], context=row["context"], support=p,
                             on_subject=on, relevance=gain)  # fmt: skip
            seconds.append(time.perf_counter() - t0)
            by_split[row["group"]].append((row["label"], j.verdict))
            if args.show == row["group"] and j.verdict != row["label"]:
                print(f"[{mode} {row['id']}] truth {row['label']} got {j.verdict} ({j.reason})"
                      f"\n  Q: {row['question']}\n  A: {row['answer']}\n")  # fmt: skip
        figures[mode] = {split: _split_figures(by_split[split], f"{mode} {split}")
                         for split in SPLITS if by_split.get(split)}  # fmt: skip
    figures["seconds_per_judgement_words_p50"] = round(statistics.median(seconds), 4)
    figures["judge_model"] = None if args.judge_model == "none" else args.judge_model
    if args.judge_model != "none":
        figures["model_seconds_per_answer"] = time_model(rows[: args.time_pairs],
                                                         args.judge_model)  # fmt: skip
    path = write_results(args.name, figures)
    print(f"figures written to {path.relative_to(ROOT)}")
    return 0


def time_model(rows: list[dict], model: str) -> dict[str, float]:
    """Seconds per answer for each question the judge model is asked, on two threads,
    each pair read whole (nothing cached from an earlier pair but the instructions)."""
    from coach.judging import ASKS, AnswerJudge, JudgeOptions

    judge = AnswerJudge.load(JudgeOptions(model=model, threads=2))
    out = {}
    for ask in ASKS:
        judge.support("warm", "up?", "yes", ask=ask)
        start = time.perf_counter()
        for r in rows:
            judge.support(r["context"], r["question"], r["answer"], ask=ask)
        out[ask] = round((time.perf_counter() - start) / len(rows), 2)
    start = time.perf_counter()
    for r in rows:
        judge.relevance(r["context"], r["question"], r["answer"])
    out["relevance"] = round((time.perf_counter() - start) / len(rows), 2)
    print(f"judge model seconds per answer (n={len(rows)}): {out}")
    return out


def _split_figures(pairs: list[tuple[str, str]], name: str) -> dict[str, object]:
    addressed = [("addressed" if t == "addressed" else "missed",
                  "addressed" if p == "addressed" else "missed") for t, p in pairs]  # fmt: skip
    out: dict[str, object] = {
        "pairs": len(pairs),
        "addressed": prf(addressed, "addressed"),
        "missed": prf(addressed, "missed"),
        **{label: prf(pairs, label) for label in LABELS[1:]},
        "accuracy_4way": round(sum(t == p for t, p in pairs) / len(pairs), 3),
        "confusion": dict(sorted(Counter(f"{t}->{p}" for t, p in pairs).items())),
    }
    a = out["addressed"]
    print(f"{name}: {len(pairs)} pairs; addressed precision {a['precision']} recall "  # type: ignore[index]
          f"{a['recall']}; 4-way accuracy {out['accuracy_4way']}")  # type: ignore[index]  # fmt: skip
    return out


if __name__ == "__main__":
    sys.exit(main())
