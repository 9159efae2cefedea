"""How the interviewer behaves: scripted interviews driven by recorded answers.

Runs --interviews mock interviews (default 20: five roles x three personas, seeds varied)
through the virtual mic with the default models (tiny.en, the GGUF, Piper), answering with
the eight shipped interview recordings in order (two of them vague). Prints:

* the share of interviewer turns that are a single question in role: one question
  ending in "?" or one request in the imperative ("Tell me about a time..."), not about
  "the candidate" in the third person and not in the candidate's voice;
* the share of vague answers (to a behavioural or role question that was not itself a
  follow-up) that got a follow-up;
* turns in which the interviewer answered its own question (text after the question);
* where the questions came from (LLM, or the bank's wording after a failed check).

Targets: single in-role questions >= 95 %, vague answers followed up >= 90 %, no turn
answering its own question. With --realtime, one more interview is paced in real time
and its response times are printed as `make bench-latency` does.
"""

from __future__ import annotations

import argparse
import re
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ROLES = ("junior data analyst", "software engineer", "product manager", "sales representative",
         "UX designer")  # fmt: skip
PERSONAS = ("warm", "neutral", "skeptical")
_IMPERATIVE = re.compile(
    r"^(tell me|tell us|give me|describe|walk me|talk me|share|explain|take me)\b", re.IGNORECASE
)


def well_formed(text: str) -> str | None:
    """Why an interviewer turn is not a single in-role question, or None if it is.

    A turn is one question ending in "?", or one request in the imperative ("Tell me
    about a time...", "Walk me through..."), as interviewers ask; and it is in role
    (:func:`coach.interview.interviewer.check_in_role`: not about "the candidate" in the
    third person, not speaking about the task, not in the candidate's voice).
    """
    from coach.interview.interviewer import check_in_role

    t = text.strip()
    marks = t.count("?")
    if marks == 0 and not _IMPERATIVE.search(t):
        return "not a question"
    if marks > 1:
        return f"{marks} questions"
    if marks == 1 and not t.endswith("?"):
        return "says more after the question"
    return check_in_role(t)


def run(models, answers: list[Path], role: str, persona: str, seed: int, *, realtime: bool):  # type: ignore[no-untyped-def]
    from coach.interview.interviewer import Interview, Interviewer, InterviewOptions
    from coach.session import FileInput, QuietEvents, RehearseOptions, SessionFolder
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
    args = ap.parse_args()

    import json

    from coach.llm import LlmOptions
    from coach.session import Models, live_asr_options
    from coach.tts import TtsOptions

    manifest = json.loads((ROOT / "audio_fixtures" / "manifest.json").read_text())
    answers = [ROOT / "audio_fixtures" / n for n in manifest["interview_answers"]]
    models = Models(live_asr_options(), LlmOptions(model=args.llm_model), TtsOptions(), lines=())
    turns = bad = self_answers = vague = followed = 0
    reasons: Counter[str] = Counter()
    sources: Counter[str] = Counter()
    t0 = time.monotonic()
    for i in range(args.interviews):
        role, persona = ROLES[i % len(ROLES)], PERSONAS[i % len(PERSONAS)]
        res = run(models, answers, role, persona, seed=i, realtime=False)
        print(f"interview {i + 1:2d}: {role} ({persona}), {res.status}, "
              f"{len(res.exchanges)} questions")  # fmt: skip
        for j, e in enumerate(res.exchanges):
            q = e.question
            text = q.spoken_text
            turns += 1
            sources[q.source] += 1
            why = well_formed(text)
            if why:
                bad += 1
                reasons[why] += 1
                print(f"    not well-formed ({why}): {text}")
            if text.rstrip().endswith("?") is False and "?" in text:
                self_answers += 1
            fb = e.feedback
            if (fb is not None and (fb.vague or not e.judgement.addressed)
                    and q.stage in ("behavioral", "technical") and q.kind == "question"
                    and e.judgement.words > 0 and j + 1 < len(res.exchanges)):  # fmt: skip
                vague += 1
                followed += res.exchanges[j + 1].question.kind == "follow_up"
    elapsed = time.monotonic() - t0
    print(f"\n{args.interviews} interviews, {turns} interviewer questions, {elapsed:.0f} s")
    print(f"single in-role questions: {(turns - bad) / turns:.1%} (target >= 95 %)")
    if reasons:
        print(f"  not well-formed: {dict(reasons)}")
    print(f"vague answers followed up: {followed} of {vague} "
          f"({followed / max(vague, 1):.0%}, target >= 90 %)")  # fmt: skip
    print(f"turns answering their own question: {self_answers} (target 0)")
    print(f"question sources: {dict(sources)}")
    if args.realtime:
        from latency import print_timings

        res = run(models, answers, ROLES[0], "neutral", seed=99, realtime=True)
        print("\none interview in real time:")
        print_timings(res, fast=False)
    return 0


if __name__ == "__main__":
    sys.exit(main())
