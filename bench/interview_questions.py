"""Interviewer question quality, judged blind: what coach's interviewer says, per role.

``generate`` plans interviews for roles the banks were not written around (split dev /
test as below) and three personas, and lets the interviewer say each planned question
(the LLM's wording, checked; the bank's wording as the fallback) with each model named
in ``--llm``, and once with no model at all (the banks alone). Every question goes into
one review file per role, shuffled, with ids and no sign of which system asked it; the
key is kept apart. ``score`` reads the blind reviewer's verdicts (``verdicts/*.jsonl``)
and writes ``bench/results/interview_questions.json``.

The roles were chosen before any tuning: dev roles may be used to tune, test roles only
report.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))
from questions import score_verdicts  # noqa: E402
from results import peak_rss_mb  # noqa: E402

OUT = ROOT / "bench" / "results" / "interview_questions"
ROLES = {
    "dev": ("junior data analyst", "product manager"),
    "test": ("marketing coordinator", "registered nurse", "line cook", "primary school teacher",
             "plumber", "accountant"),
}  # fmt: skip
PERSONAS = ("warm", "neutral", "skeptical")

RUBRIC = """# Rubric for interview questions

You see the job a candidate is interviewing for, and the questions an interviewer asked
(in a real interview each would be asked aloud, one at a time). Judge each on its own.

ACCEPTABLE only if all four hold:
1. It is one natural, grammatical English question or request ("Tell me about a time
   ..."), addressed to the candidate (a short lead-in sentence before it is fine).
2. It fits this job (a general interview question, such as about motivation or teamwork,
   fits any job; a question about another job's work does not).
3. It is asked in the interviewer's voice: it does not speak about "the candidate" in the
   third person, does not answer itself, does not speak as the candidate.
4. A real interviewer for this job might plausibly ask it.

Otherwise NOT_ACCEPTABLE, with the number of the first rule it breaks.
"""


def generate(models: list[str], per_persona: int, seed: int) -> None:
    from coach.interview.interviewer import Interviewer, InterviewOptions
    from coach.llm import ChatModel, LlmOptions

    OUT.mkdir(parents=True, exist_ok=True)
    items: list[dict] = []
    perf: dict[str, dict] = {}
    for model in [*models, ""]:
        llm = ChatModel.load(LlmOptions(model=model)) if model else None
        times: list[float] = []
        for split, roles in ROLES.items():
            for role in roles:
                for i, persona in enumerate(PERSONAS):
                    opts = InterviewOptions(role=role, persona=persona, questions=per_persona,
                                            seed=i, llm_wording=True)  # fmt: skip
                    iv = Interviewer(llm, opts)
                    while (q := iv.next_question()) is not None:
                        dt = (q.ready_at or 0) - (q.started_at or 0)
                        times.append(dt)
                        items.append({
                            "split": split, "role": role, "system": "coach",
                            "model": model or "none (banks)", "persona": persona,
                            "question": q.spoken_text, "stage": q.stage, "source": q.source,
                            "seconds": round(dt, 2), "rejected": q.rejected,
                        })  # fmt: skip
                print(f"{model or 'banks'} {role}: done", flush=True)
        perf[model or "none (banks)"] = {
            "peak_rss_mb": peak_rss_mb(),
            "seconds_p50": round(sorted(times)[len(times) // 2], 2) if times else None,
        }
        del llm
    rng = random.Random(seed)
    by_role: dict[str, list[dict]] = defaultdict(list)
    for item in items:
        by_role[item["role"]].append(item)
    (OUT / "RUBRIC.md").write_text(RUBRIC)
    key: list[dict] = []
    n = 0
    for role, group in by_role.items():
        rng.shuffle(group)
        lines = [f"# Job: {role}", "", "## Questions", ""]
        seen: dict[str, str] = {}
        for item in group:
            if item["question"] in seen:  # the same words are judged once
                item["id"] = seen[item["question"]]
                key.append(item)
                continue
            n += 1
            item["id"] = seen[item["question"]] = f"i{n:04d}"
            key.append(item)
            lines.append(f"- {item['id']}: {item['question']}")
        (OUT / f"review_{role.replace(' ', '_')}.md").write_text("\n".join(lines) + "\n")
    with (OUT / "key.jsonl").open("w") as f:
        for item in key:
            f.write(json.dumps(item, ensure_ascii=False) + "\n")
    (OUT / "generation.json").write_text(json.dumps(perf, indent=2) + "\n")
    print(json.dumps(perf, indent=2))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("stage", choices=("generate", "score", "all"))
    models = ["qwen2.5-coder-0.5b-instruct", "qwen2.5-coder-1.5b-instruct"]
    ap.add_argument("--llm", nargs="+", default=models)
    ap.add_argument("--per-persona", type=int, default=6)
    ap.add_argument("--seed", type=int, default=7)
    args = ap.parse_args()
    t0 = time.monotonic()
    if args.stage in ("generate", "all"):
        generate(args.llm, args.per_persona, args.seed)
        print(f"generated in {time.monotonic() - t0:.0f} s")
    if args.stage in ("score", "all"):
        return score_verdicts(OUT, "interview_questions", group_by="role")
    return 0


if __name__ == "__main__":
    sys.exit(main())
