"""How well the AI audience behaves: questions about talks, checked one by one.

Generates --questions questions (default 24: four talks x three personas x two questions)
with the default GGUF and prints the share of the model's first attempts that were a
single, short, grounded, non-repeated question; the share of final questions that pass
(after one retry and the fallback); how many needed the fallback; and the time per
question (first attempt, with the KV cache warm after the first).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from pathlib import Path

from coach.audience import Audience, AudienceOptions, check_question
from coach.llm import ChatModel, LlmOptions

ROOT = Path(__file__).resolve().parent.parent


def talks() -> list[str]:
    """Talk transcripts: the shipped practice talk's script plus three short written ones."""
    entry = json.loads((ROOT / "audio_fixtures" / "manifest.json").read_text())
    segs = entry["fixtures"]["practice_talk.wav"]["segments"]
    practice = " ".join(s["text"] for s in segs if s["kind"] != "silence")
    return [
        practice,
        "Our city should build protected bike lanes on Main Street. In 2023 there were 41 "
        "crashes involving cyclists, and 9 people were badly hurt. Paris added 300 kilometres "
        "of lanes and cycling doubled. The cost is about 2 million dollars, less than one "
        "parking garage. Shops worry about parking, but studies from Toronto show sales rose.",
        "Today I will explain how we cut our cloud bill by 38 percent. First we measured: 60 "
        "percent of spend was idle test servers. We moved batch jobs to spot instances and "
        "added autoscaling with Kubernetes. Reserved instances saved another 12 percent. The "
        "hard part was getting teams to tag their resources.",
        "Sleep is the cheapest performance tool we have. Adults need 7 to 9 hours. After 17 "
        "hours awake, reaction time is like having a blood alcohol level of 0.05 percent. "
        "Caffeine has a half-life of about 5 hours, so an afternoon coffee still works at "
        "bedtime. Keep the bedroom cool and dark, and keep the same wake time every day.",
    ]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--llm-model", default=LlmOptions.model)
    ap.add_argument("--per-persona", type=int, default=2)
    args = ap.parse_args()
    llm = ChatModel.load(LlmOptions(model=args.llm_model))
    first_ok = final_ok = fallback = total = 0
    reasons: Counter[str] = Counter()
    times = []
    for talk in talks():
        for persona in ("curious", "skeptical", "expert"):
            aud = Audience(llm, talk, AudienceOptions(persona=persona))
            for _ in range(args.per_persona):
                t0 = time.perf_counter()
                q = aud.next_question()
                times.append(time.perf_counter() - t0)
                total += 1
                first_ok += q.source == "llm" and q.attempts == 1
                fallback += q.source == "fallback"
                final_ok += check_question(q.text, transcript=talk, asked=aud.asked[:-1]) is None
                for r in q.rejected:
                    reasons[r.split(":")[0]] += 1
                print(f"  [{persona:9s}] {q.source:8s} {q.text}")
    times.sort()
    print(f"\n{total} questions from {args.llm_model}")
    print(f"well-formed on the model's first attempt: {first_ok / total:.0%}")
    print(f"well-formed as asked (after retry/fallback): {final_ok / total:.0%}")
    print(f"fallback questions: {fallback} of {total}")
    print(f"rejections: {dict(reasons) or 'none'}")
    print(f"time per question: p50 {times[len(times) // 2]:.2f} s, "
          f"p95 {times[int(len(times) * 0.95) - 1]:.2f} s")  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
