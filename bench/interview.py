"""How the interviewer follows up: scripted interviews driven by recorded answers.

Runs --interviews mock interviews (default 20: five roles x three personas, seeds varied)
through the virtual mic with the default models (tiny.en, the GGUF, Piper), answering with
the eight shipped interview recordings in order. Which recordings are vague is known from
their manifest (written when they were made, not judged by coach), so the bench prints
the share of vague answers (to a behavioural or role question that was not itself a
follow-up) that got a follow-up, and where the questions came from.

Whether the interviewer's questions are good is not judged here (coach's own checks
cannot grade coach): `bench/interview_questions.py` sends them to a blind reviewer.
With --realtime, one more interview is paced in real time and its response times are
printed as `make bench-latency` does. Figures go to bench/results/interview.json.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).resolve().parent))
from results import write_results  # noqa: E402

ROLES = ("junior data analyst", "software engineer", "product manager", "sales representative",
         "UX designer")  # fmt: skip
PERSONAS = ("warm", "neutral", "skeptical")


def run(models, answers: list[Path], role: str, persona: str, seed: int, *, realtime: bool):  # type: ignore[no-untyped-def]
    from coach.interview.interviewer import Interview, Interviewer, InterviewOptions
    from coach.live.events import QuietEvents
    from coach.live.folder import SessionFolder
    from coach.live.inputs import FileInput
    from coach.live.options import RehearseOptions
    from coach.sinks import WavSink

    options = InterviewOptions(role=role, persona=persona, questions=6, seed=seed)
    with tempfile.TemporaryDirectory() as tmp:
        folder = SessionFolder(Path(tmp) / "iv")
        session = Interview(
            FileInput(None, answers, realtime=realtime), models,
            WavSink(folder.file("audience.wav")), folder, RehearseOptions(),
            events=QuietEvents(), make_interviewer=lambda llm: Interviewer(llm, options),
        )  # fmt: skip
        return session.run()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--interviews", type=int, default=20)
    ap.add_argument("--realtime", action="store_true", help="also one interview in real time")
    ap.add_argument("--llm-model", default="qwen2.5-coder-0.5b-instruct")
    ap.add_argument("--no-write", action="store_true", help="do not write bench/results")
    args = ap.parse_args()

    import json

    from coach.live.models import Models, live_asr_options, session_threads
    from coach.llm import LlmOptions
    from coach.tts import TtsOptions

    manifest = json.loads((ROOT / "audio_fixtures" / "manifest.json").read_text())
    answers = [ROOT / "audio_fixtures" / n for n in manifest["interview_answers"]]
    asr_threads, llm_threads = session_threads(with_llm=True)  # as `coach interview`
    models = Models(live_asr_options(threads=asr_threads),
                    LlmOptions(model=args.llm_model, threads=llm_threads), TtsOptions(),
                    lines=())  # fmt: skip
    labels = [manifest["fixtures"][n]["vague"] for n in manifest["interview_answers"]]
    turns = vague = followed = 0
    sources: Counter[str] = Counter()
    t0 = time.monotonic()
    for i in range(args.interviews):
        role, persona = ROLES[i % len(ROLES)], PERSONAS[i % len(PERSONAS)]
        res = run(models, answers, role, persona, seed=i, realtime=False)
        print(f"interview {i + 1:2d}: {role} ({persona}), {res.status}, "
              f"{len(res.exchanges)} questions")  # fmt: skip
        used = 0  # the recordings answer in order: exchange j got recording `used`
        for j, e in enumerate(res.exchanges):
            q = e.question
            turns += 1
            sources[q.source] += 1
            if e.answer is None:
                continue
            is_vague = labels[used % len(labels)]
            used += 1
            if (is_vague and q.stage in ("behavioral", "technical") and q.kind == "question"
                    and j + 1 < len(res.exchanges)):  # fmt: skip
                vague += 1
                followed += res.exchanges[j + 1].question.kind == "follow_up"
    elapsed = time.monotonic() - t0
    print(f"\n{args.interviews} interviews, {turns} interviewer questions, {elapsed:.0f} s")
    print(f"vague answers followed up: {followed} of {vague} "
          f"({followed / max(vague, 1):.0%}, target >= 90 %)")  # fmt: skip
    print(f"question sources: {dict(sources)}")
    figures = {"interviews": args.interviews, "llm": args.llm_model, "questions": turns,
               "vague_answers": vague, "followed_up": followed,
               "followed_up_share": round(followed / max(vague, 1), 3),
               "sources": dict(sources), "elapsed_s": round(elapsed, 1)}  # fmt: skip
    if not args.no_write:
        print(f"written {write_results('interview', figures)}")
    if args.realtime:
        from latency import print_timings

        res = run(models, answers, ROLES[0], "neutral", seed=99, realtime=True)
        print("\none interview in real time:")
        print_timings(res, fast=False)
    return 0


if __name__ == "__main__":
    sys.exit(main())
