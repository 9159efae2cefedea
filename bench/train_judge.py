"""Fit the answer judge's weights on the dev pairs (``make train-judge``).

Every labelled pair of ``bench/data/answer_pairs*.jsonl`` whose split is ``dev`` is one
row; the label is whether the answer addressed its question. The features are the
product's own (:func:`coach.analysis.answers.judge_features`): the rules' verdict and
evidence, the judge model's log-odds of "yes", and how much the question made the answer
likelier to it (:class:`coach.judging.AnswerJudge`). Test pairs are never read.

It first reports five-fold cross-validated precision and recall of "addressed" on the dev
rows (rules alone, rules with the model's odds, and with the question's gain too), then
fits on all of them and picks the threshold by a rule fixed here: the one that maximises
the cross-validated F1 of "addressed". Writes ``coach/analysis/answer_judge.json`` and
``bench/results/judge_fit.json``.

The model's readings of each pair are kept in ``bench/results/judge_support/NAME*.jsonl``
(keyed by pair id and text), so a re-fit or the bench does not ask the model again.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from results import commit, write_results  # noqa: E402

from coach.analysis.answers import JUDGE_FILE, _by_rules, judge_features  # noqa: E402

PAIRS = sorted((ROOT / "bench" / "data").glob("answer_pairs*.jsonl"))
SUPPORT_DIR = ROOT / "bench" / "results" / "judge_support"


def load_pairs(split: str | None = None) -> list[dict]:
    """The labelled pairs (of one split), each with ``set``: the batch letter of
    ``answer_pairs_<letter>_*.jsonl`` ("c", "d"), "" for the first two batches."""
    rows = []
    for path in PAIRS:
        for line in path.open():
            if line.strip():
                row = json.loads(line)
                batch = re.match(r"answer_pairs_([a-z])_", path.name)
                row["set"] = batch.group(1) if batch else ""
                if split is None or row["split"] == split:
                    rows.append(row)
    return rows


def _key(row: dict) -> str:
    text = "\x1f".join((row["context"], row["question"], row["answer"]))
    return f"{row['id']}:{hashlib.sha256(text.encode()).hexdigest()[:12]}"


def supports(
    rows: list[dict], model: str, *, threads: int = 2, ask: str = "answered"
) -> tuple[list[float], float]:
    """The judge model's P(yes) for each row (cached on disk), and the seconds per new
    judgement (0.0 when all were cached); ``ask``: which question (coach.judging.ASKS)."""
    suffix = "" if ask == "answered" else f".{ask}"
    read = lambda judge, r: {"support": round(judge.support(*_pair(r), ask=ask), 6)}  # noqa: E731
    found, seconds = _readings(rows, model, suffix, read, threads=threads)
    return [d["support"] for d in found], seconds


def relevances(rows: list[dict], model: str, *, threads: int = 2) -> tuple[list, float]:
    """The judge model's :class:`~coach.analysis.answers.Relevance` for each row (cached
    on disk), and the seconds per new reading."""
    from dataclasses import asdict

    from coach.analysis.answers import Relevance

    def read(judge, r: dict) -> dict:  # type: ignore[no-untyped-def]
        return {k: round(v, 5) for k, v in asdict(judge.relevance(*_pair(r))).items()}

    found, seconds = _readings(rows, model, ".relevance", read, threads=threads)
    return [Relevance(d["per_token_nats"], d["total_nats"]) for d in found], seconds


def _pair(row: dict) -> tuple[str, str, str]:
    return row["context"], row["question"], row["answer"]


def _readings(rows: list[dict], model: str, suffix: str, read, *, threads: int):  # type: ignore[no-untyped-def]
    """One reading of the judge model per row, cached in ``judge_support/<model><suffix>
    .jsonl`` by pair id and text; ``read(judge, row)`` makes a new one (a dict)."""
    SUPPORT_DIR.mkdir(parents=True, exist_ok=True)
    path = SUPPORT_DIR / f"{Path(model).name}{suffix}.jsonl"
    cache = {}
    if path.exists():
        cache = {d.pop("key"): d for d in map(json.loads, path.open()) if d}
    missing = [r for r in rows if _key(r) not in cache]
    seconds = 0.0
    if missing:
        from coach.judging import AnswerJudge, JudgeOptions

        judge = AnswerJudge.load(JudgeOptions(model=model, threads=threads))
        start = time.perf_counter()
        with path.open("a") as out:
            for i, r in enumerate(missing, 1):
                cache[_key(r)] = read(judge, r)
                out.write(json.dumps({"key": _key(r), **cache[_key(r)]}) + "\n")
                out.flush()
                if i % 25 == 0:
                    print(f"  judged {i}/{len(missing)}", file=sys.stderr)
        seconds = (time.perf_counter() - start) / len(missing)
    return [cache[_key(r)] for r in rows], seconds


def features(
    rows: list[dict], support: list[float] | None, relevance: list | None = None
) -> tuple[list[str], np.ndarray]:
    """Feature names and matrix (the rules' evidence only when ``support`` is None)."""
    names: list[str] = []
    matrix = []
    for i, r in enumerate(rows):
        _j, evidence = _by_rules(r["question"], r["answer"], min_words=8, context=r["context"])
        gain = relevance[i] if relevance is not None else None
        f = judge_features(evidence, support[i], gain) if support is not None else evidence
        if relevance is None and support is not None:
            f = {k: v for k, v in f.items() if not k.startswith("gain_")}
        names = list(f)
        matrix.append([f[k] for k in names])
    return names, np.array(matrix)


def pick_on_subject(rows: list[dict], support: list[float], gains: list, model: str,
                    weights: dict, report: dict) -> float:  # fmt: skip
    """The ``on_subject`` odds below which a missed answer is off the topic: the one that
    gives the best four-way accuracy on dev (with ``weights`` in force)."""
    from coach.analysis.answers import judge_answer

    subject, _s = supports(rows, model, ask="on_subject")
    scores = {}
    for t in (0.2, 0.3, 0.4, 0.5, 0.6):
        trial = {**weights, "on_subject_below": t}
        said = [judge_answer(r["question"], r["answer"], context=r["context"], support=p,
                             on_subject=s, relevance=g, weights=trial).verdict
                for r, p, s, g in zip(rows, support, subject, gains, strict=True)]  # fmt: skip
        right = [v == r["label"] for v, r in zip(said, rows, strict=True)]
        scores[t] = round(float(np.mean(right)), 3)
    best = max(scores, key=lambda t: (scores[t], -abs(t - 0.5)))
    report["on_subject_4way_accuracy_dev"] = scores
    print(f"on_subject threshold by dev four-way accuracy: {scores} -> {best}")
    return best


def pr(truth: np.ndarray, said: np.ndarray) -> dict[str, float]:
    tp = int((truth & said).sum())
    p = tp / max(1, int(said.sum()))
    r = tp / max(1, int(truth.sum()))
    return {"precision": round(p, 3), "recall": round(r, 3),
            "f1": round(2 * p * r / (p + r), 3) if p + r else 0.0}  # fmt: skip


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--model", default="qwen2.5-coder-1.5b-instruct", help="judge GGUF")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--c", type=float, default=1.0, help="inverse regularisation strength")
    ap.add_argument("--report-only", action="store_true",
                    help="measure another model on dev without writing the weights")  # fmt: skip
    args = ap.parse_args()
    from sklearn.linear_model import LogisticRegression
    from sklearn.model_selection import StratifiedKFold, cross_val_predict

    rows = load_pairs("dev")
    truth = np.array([r["label"] == "addressed" for r in rows])
    support, seconds = supports(rows, args.model, threads=args.threads)
    from sklearn.metrics import roc_auc_score

    auc = round(float(roc_auc_score(truth, support)), 3)
    print(f"{args.model}: ROC AUC of its odds alone for 'addressed' on dev: {auc}")
    folds = StratifiedKFold(5, shuffle=True, random_state=0)
    report: dict[str, object] = {"dev_pairs": len(rows), "model": args.model, "C": args.c,
                                 "model_odds_auc": auc}  # fmt: skip
    gains, _gain_s = relevances(rows, args.model, threads=args.threads)
    gain_auc = round(float(roc_auc_score(truth, [g.total_nats for g in gains])), 3)
    print(f"{args.model}: ROC AUC of the question's gain alone for 'addressed' on dev: {gain_auc}")
    report["relevance_total_auc"] = gain_auc
    for name, sup, gain in (("words_only", None, None), ("with_model_odds", support, None),
                            ("with_model", support, gains)):  # fmt: skip
        _names, x = features(rows, sup, gain)
        p = cross_val_predict(LogisticRegression(C=args.c, max_iter=5000), x, truth,
                              cv=folds, method="predict_proba")[:, 1]  # fmt: skip
        best = max((pr(truth, p >= t)["f1"], t) for t in np.arange(0.3, 0.71, 0.05))
        report[name] = {"cv_at_0.5": pr(truth, p >= 0.5), "threshold": round(best[1], 2),
                        "cv_at_threshold": pr(truth, p >= best[1])}  # fmt: skip
        print(f"{name}: 5-fold CV on dev, addressed at 0.5 {report[name]['cv_at_0.5']}; "  # type: ignore[index]
              f"best threshold {best[1]:.2f}: {report[name]['cv_at_threshold']}")  # type: ignore[index]  # fmt: skip
    if args.report_only:
        path = write_results(f"judge_fit_{Path(args.model).name}", report)
        print(f"figures written to {path.relative_to(ROOT)} (weights unchanged)")
        return 0
    names, x = features(rows, support, gains)
    fit = LogisticRegression(C=args.c, max_iter=5000).fit(x, truth)
    weights = {
        "model": args.model,
        "fitted_on": f"{len(rows)} dev pairs of bench/data/answer_pairs*.jsonl",
        "commit": commit(),
        "bias": round(float(fit.intercept_[0]), 4),
        "weights": {k: round(float(w), 4) for k, w in zip(names, fit.coef_[0], strict=True)},
        "threshold": report["with_model"]["threshold"],  # type: ignore[index]
        # counted for an answer whose gain was not measured: the dev pairs' medians
        "typical_gain": {
            "per_token_nats": round(float(np.median([g.per_token_nats for g in gains])), 4),
            "total_nats": round(float(np.median([g.total_nats for g in gains])), 4),
        },
    }
    weights["on_subject_below"] = pick_on_subject(rows, support, gains, args.model, weights,
                                                  report)  # fmt: skip
    JUDGE_FILE.write_text(json.dumps(weights, indent=2) + "\n")
    report["seconds_per_new_judgement"] = round(seconds, 2)
    path = write_results("judge_fit", report)
    print(f"weights written to {JUDGE_FILE.relative_to(ROOT)}; figures to "
          f"{path.relative_to(ROOT)}")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
