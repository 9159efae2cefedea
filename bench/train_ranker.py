"""Fit the audience's question ranker to blind reviewers' verdicts (``make train-ranker``).

Every grounded question ("You said <clause>. <frame>") that two blind reviewers judged in
an earlier round of ``bench-questions`` (``bench/results/questions/key.jsonl`` and
``verdicts/*.jsonl``) is one row; its label is the share of reviewers who found it
acceptable. The features are the product's own (:func:`coach.analysis.ranking.question_features`),
computed from the talk as coach heard it (``bench/data/talks/heard``).

Before fitting on everything, it reports leave-one-talk-set-out figures: for each talk
set, a model fitted on the other sets ranks that set's questions, and the table shows the
acceptable share of all its questions against that of the top one and top two per talk,
and of the questions at or above each threshold. The threshold written as ``ask_above``
is chosen from those figures by a rule fixed here (the lowest threshold whose held-out
precision is at least 1.4 times the base rate), never from a round that later reports.

``--exclude SPLIT`` leaves a talk set out of the fit, so a round can measure the ranker on
talks it never learned from.

Writes ``coach/analysis/question_ranker.json`` and ``bench/results/ranker.json``.
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import sys
from collections import defaultdict
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from results import commit, write_results  # noqa: E402

from coach.analysis import asking  # noqa: E402
from coach.analysis.claims import spoken_numbers, talk_sentences  # noqa: E402
from coach.analysis.ranking import RANKER_FILE, question_features  # noqa: E402
from coach.audience import STANCES  # noqa: E402

_STANCE_LINES = sorted({line for lines in STANCES.values() for line in lines.values()})

QDIR = ROOT / "bench" / "results" / "questions"
HEARD = {"base": ROOT / "bench/data/talks/heard_base", "": ROOT / "bench/data/talks/heard"}
_SAID = re.compile(r"^You said (.*?)\. ([^.]*\?)$")
THRESHOLDS = (0.2, 0.25, 0.3, 0.35, 0.4, 0.5)
C = 0.5
"""Inverse L2 strength of the logistic fit (sklearn's default scale), fixed before fitting."""


def _words(text: str) -> list[str]:
    return re.findall(r"[a-z0-9']+", text.lower())


def locate(clause: str, sentences: list[str]) -> int:
    """The sentence a quoted clause came from: the one sharing most of its words (the
    clause is said back in the second person, so "I" became "you")."""
    want = set(_words(clause)) - {"you", "you're", "you'd", "you've", "your"}
    scores = [len(want & set(_words(s))) for s in sentences]
    return int(np.argmax(scores)) if scores else 0


def rows(exclude: set[str]) -> list[dict]:
    key = {}
    for line in (QDIR / "key.jsonl").open():
        d = json.loads(line)
        key[d["id"]] = d
    votes: dict[tuple[str, str, str, str], list[bool]] = defaultdict(list)
    for path in sorted((QDIR / "verdicts").glob("*.jsonl")):
        for line in path.open():
            v = json.loads(line)
            k = key.get(v["id"])
            if k is None or k["system"] == "baseline" or k["split"] in exclude:
                continue
            ear = "base" if "base" in str(k.get("ear", "")) + str(k.get("model", "")) else ""
            votes[(k["split"], k["talk"], k["question"], ear)].append(v["verdict"] == "ACCEPTABLE")
    kinds = {f.text: f.kind for f in asking.FRAMES}
    out = []
    sentence_cache: dict[tuple[str, str], list[str]] = {}
    for (split, talk, question, ear), vs in votes.items():
        for stance in _STANCE_LINES:  # a persona's stance is no part of the clause
            question = question.replace(f" {stance} ", " ")
        m = _SAID.match(question)
        if not m:
            continue  # a plain, model-worded or "Still on that point." question
        clause, frame = m.groups()
        if (talk, ear) not in sentence_cache:
            text = (HEARD[ear] / f"{talk}.txt").read_text(encoding="utf-8")
            sentence_cache[(talk, ear)] = [spoken_numbers(s) for s in talk_sentences(text)]
        sentences = sentence_cache[(talk, ear)]
        index = locate(clause, sentences)
        feats = question_features(clause, frame, kinds.get(frame, ""), asking.facets(clause),
                                  index=index, sentences=len(sentences))  # fmt: skip
        out.append({"split": split, "talk": talk, "question": question,
                    "label": sum(vs) / len(vs), "features": feats})  # fmt: skip
    return out


def fit(data: list[dict], names: list[str]):  # type: ignore[no-untyped-def]
    from sklearn.linear_model import LogisticRegression

    x = np.array([[r["features"].get(n, 0.0) for n in names] for r in data])
    y = np.array([r["label"] for r in data])
    # a soft label is two weighted rows: acceptable with weight y, not with weight 1 - y
    model = LogisticRegression(C=C, max_iter=5000)
    model.fit(np.vstack([x, x]), np.r_[np.ones(len(y)), np.zeros(len(y))],
              sample_weight=np.r_[y, 1 - y])  # fmt: skip
    return model


def cross_validate(data: list[dict], names: list[str]) -> dict:
    per_talk: dict[str, list[float]] = defaultdict(list)
    scored: list[tuple[float, float]] = []
    by_split: dict[str, dict[str, float]] = {}
    for split in sorted({r["split"] for r in data}):
        train = [r for r in data if r["split"] != split]
        test = [r for r in data if r["split"] == split]
        model = fit(train, names)
        p = model.predict_proba(np.array([[r["features"].get(n, 0.0) for n in names]
                                          for r in test]))[:, 1]  # fmt: skip
        talks: dict[str, list[tuple[float, float]]] = defaultdict(list)
        for pi, r in zip(p, test, strict=True):
            talks[r["talk"]].append((float(pi), r["label"]))
            scored.append((float(pi), r["label"]))
        split_fig: dict[str, list[float]] = defaultdict(list)
        for items in talks.values():
            items.sort(key=lambda t: -t[0])
            figures = {"all": statistics.mean(lab for _p, lab in items), "top1": items[0][1],
                       "top2": statistics.mean(lab for _p, lab in items[:2])}  # fmt: skip
            for name, value in figures.items():
                per_talk[name].append(value)
                split_fig[name].append(value)
        by_split[split] = {k: round(statistics.mean(v), 3) for k, v in split_fig.items()}
        by_split[split]["talks"] = len(talks)
    base = statistics.mean(lab for _p, lab in scored)
    thresholds = {}
    for t in THRESHOLDS:
        kept = [lab for p, lab in scored if p >= t]
        thresholds[str(t)] = {
            "kept": len(kept), "of": len(scored),
            "acceptable": round(statistics.mean(kept), 3) if kept else None,
        }  # fmt: skip
    return {
        "per_talk": {k: round(statistics.mean(v), 3) for k, v in per_talk.items()},
        "talks": len(per_talk["all"]),
        "questions": len(scored),
        "base_rate": round(base, 3),
        "thresholds": thresholds,
        "by_split": by_split,
    }


def choose_threshold(cv: dict) -> float:
    for t in THRESHOLDS:
        acc = cv["thresholds"][str(t)]["acceptable"]
        if acc is not None and acc >= 1.4 * cv["base_rate"]:
            return t
    return 0.0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--exclude", action="append", default=[], metavar="SPLIT",
                    help="a talk set to leave out of the fit (repeatable)")  # fmt: skip
    args = ap.parse_args()
    data = rows(set(args.exclude))
    names = sorted({n for r in data for n in r["features"]})
    cv = cross_validate(data, names)
    ask_above = choose_threshold(cv)
    model = fit(data, names)
    weights = {
        n: round(float(w), 4) for n, w in zip(names, model.coef_[0], strict=True) if abs(w) >= 1e-4
    }
    about = {
        "rows": len(data),
        "splits": sorted({r["split"] for r in data}),
        "excluded": sorted(args.exclude),
        "C": C,
        "commit": commit(),
        "leave_one_set_out": cv,
    }
    doc = {"intercept": round(float(model.intercept_[0]), 4), "ask_above": ask_above,
           "weights": dict(sorted(weights.items())), "about": about}  # fmt: skip
    RANKER_FILE.write_text(json.dumps(doc, indent=1) + "\n", encoding="utf-8")
    path = write_results("ranker", {"ask_above": ask_above, **about})
    print(f"{len(data)} judged questions from {len(about['splits'])} talk sets; "
          f"leave-one-set-out, acceptable share per talk: all {cv['per_talk']['all']:.0%}, "
          f"top 1 {cv['per_talk']['top1']:.0%}, top 2 {cv['per_talk']['top2']:.0%}")  # fmt: skip
    for t, f in cv["thresholds"].items():
        acc = f"{f['acceptable']:.0%}" if f["acceptable"] is not None else "-"
        print(f"  at or above {t}: {f['kept']}/{f['of']} questions, {acc} acceptable")
    print(f"ask_above = {ask_above}; wrote {RANKER_FILE.relative_to(ROOT)} and {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
