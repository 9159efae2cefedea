"""Can a local LLM tell which of the audience's grounded questions fit? (a negative result)

Blind reviewers rejected many grounded questions ("You said <clause>. <frame>") because the
frame does not fit the clause ("side effects" of three learners starting in September) or
the quote holds a misheard word ("migrated ... to posters"). This bench asks whether a
local LLM, shown the sentences around the quote and the question, could filter those out:
it asks for one word, yes or no, and takes P(yes) from the first token's logits.

The labels are the reviewers' verdicts (the share of reviewers who accepted a question),
from every judged round (``bench/train_ranker.py`` collects them), so the judge is
independent of coach's code. It reports the ROC AUC of P(yes) against "accepted by at
least half the reviewers", and the acceptable share of the questions it would keep at
three cut-offs, against the base rate.

Run: ``.venv/bin/python bench/question_verifier.py --llm NAME [--limit N]``. Figures go
to ``bench/results/question_verifier.json`` (one entry per model).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

import train_ranker  # noqa: E402
from results import write_results  # noqa: E402

from coach.analysis.claims import spoken_numbers, talk_sentences  # noqa: E402
from coach.llm import resolve_gguf  # noqa: E402

SYSTEM = (
    "You judge questions from an audience member after a talk. You see a few sentences the "
    "speaker said and one question. Answer yes if the question makes sense for what the "
    "speaker said there: it fits that kind of statement, the quoted words read as sensible "
    "English, and a thoughtful listener could ask it. Answer no if the question does not fit "
    "the statement (for example asking about side effects of something that is not a plan, "
    "asking how a figure was measured when it is not a measurement, asking what could delay "
    "something that is not happening), or if the quote contains a word that looks misheard. "
    "Answer with one word: yes or no."
)
"""Written before any figure was seen, and not changed after."""


def judged_rows() -> list[dict]:
    """Every judged grounded question with the heard sentence it quotes and its neighbours."""
    out = []
    cache: dict[str, list[str]] = {}
    for r in train_ranker.rows(set()):
        m = train_ranker._SAID.match(r["question"])
        if not m:
            continue
        clause = m.group(1)
        if r["talk"] not in cache:
            text = (train_ranker.HEARD[""] / f"{r['talk']}.txt").read_text(encoding="utf-8")
            cache[r["talk"]] = [spoken_numbers(s) for s in talk_sentences(text)]
        sentences = cache[r["talk"]]
        i = train_ranker.locate(clause, sentences)
        context = " ".join(sentences[max(0, i - 1) : i + 2])
        out.append({**r, "context": context})
    return out


def prompt(row: dict) -> str:
    user = (f'The speaker said: "{row["context"]}"\n\nQuestion: "{row["question"]}"\n\n'
            "Does this question make sense here? Answer yes or no.")  # fmt: skip
    return (f"<|im_start|>system\n{SYSTEM}<|im_end|>\n<|im_start|>user\n{user}<|im_end|>\n"
            "<|im_start|>assistant\n")  # fmt: skip


def p_yes(llm, text: str, yes: list[int], no: list[int]) -> float:  # type: ignore[no-untyped-def]
    """P(yes) of the first reply token, reusing the cached prompt prefix."""
    import llama_cpp

    tokens = llm.tokenize(text.encode(), add_bos=False, special=True)
    cached = list(llm._input_ids[: llm.n_tokens])
    n = 0
    while n < min(len(cached), len(tokens) - 1) and cached[n] == tokens[n]:
        n += 1
    llm.n_tokens = n
    llm.eval(tokens[n:])
    logits = np.ctypeslib.as_array(
        llama_cpp.llama_get_logits_ith(llm._ctx.ctx, -1), shape=(llm.n_vocab(),)
    ).astype(np.float64)
    ly, ln = np.logaddexp.reduce(logits[yes]), np.logaddexp.reduce(logits[no])
    return 1.0 / (1.0 + math.exp(ln - ly))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--llm", required=True, help="manifest name or GGUF path")
    ap.add_argument("--limit", type=int, default=300, help="judged questions to score, in order")
    ap.add_argument("--threads", type=int, default=2)
    args = ap.parse_args()
    from llama_cpp import Llama
    from sklearn.metrics import roc_auc_score

    rows = judged_rows()[: args.limit]
    llm = Llama(model_path=str(resolve_gguf(args.llm)), n_ctx=1024, n_batch=128,
                n_threads=args.threads, verbose=False)  # fmt: skip
    first = lambda w: llm.tokenize(w.encode(), add_bos=False, special=True)[0]  # noqa: E731
    yes, no = [first("yes"), first("Yes")], [first("no"), first("No")]
    start = time.perf_counter()
    scores = [p_yes(llm, prompt(r), yes, no) for r in rows]
    seconds = (time.perf_counter() - start) / max(1, len(rows))
    labels = np.array([r["label"] for r in rows])
    order = np.sort(scores)
    keep = {}
    for share in (0.7, 0.5, 0.3):
        cut = order[int((1 - share) * len(order))]
        kept = labels[np.array(scores) >= cut]
        keep[f"top_{int(share * 100)}pct"] = round(float(kept.mean()), 3)
    figures = {
        "questions": len(rows),
        "base_rate": round(float(labels.mean()), 3),
        "auc": round(float(roc_auc_score(labels >= 0.5, scores)), 3),
        "acceptable_kept": keep,
        "seconds_per_question": round(seconds, 2),
        "threads": args.threads,
    }
    path = ROOT / "bench" / "results" / "question_verifier.json"
    old = json.loads(path.read_text())["figures"] if path.exists() else {}
    write_results("question_verifier", {**old, args.llm: figures})
    print(args.llm, json.dumps(figures))
    return 0


if __name__ == "__main__":
    sys.exit(main())
