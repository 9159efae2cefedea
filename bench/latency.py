"""Response times of `coach rehearse`: the virtual-mic loop over many question-and-answer turns.

Plays the shipped practice talk through the virtual mic in real time, then answers
--questions questions with the shipped answer recordings (cycled), with the default
models (tiny.en, the Qwen2.5 0.5B GGUF, Piper en_US-joe-medium) and the audience's speech
written to a wav. Prints, per stage and end to end, p50 and p95 over the turns that follow
an answer, the time until the session listened, and the process's peak memory with all
three models loaded.

Targets (2-core machine): reply after the end-of-turn decision p50 <= 1.0 s, p95 <= 1.8 s;
peak memory < 1.5 GB; ready to listen within 5 s of start.
"""

from __future__ import annotations

import argparse
import json
import resource
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "bench"))
from results import write_results  # noqa: E402


def quantile(values: list[float], q: float) -> float:
    """The q-quantile (0..1) of ``values`` by linear interpolation."""
    ordered = sorted(values)
    pos = q * (len(ordered) - 1)
    lo = int(pos)
    hi = min(lo + 1, len(ordered) - 1)
    return ordered[lo] + (ordered[hi] - ordered[lo]) * (pos - lo)


def stage_percentiles(timings: list, *, after: str = "answer") -> dict[str, dict[str, float]]:
    """p50, p95, max and n of every stage over the turns that follow ``after``."""
    stages: dict[str, list[float]] = {}
    for t in timings:
        if t.after != after:
            continue
        for k, v in t.stages().items():
            if v is not None:
                stages.setdefault(k, []).append(v)
    return {
        k: {"p50": round(quantile(v, 0.5), 3), "p95": round(quantile(v, 0.95), 3),
            "max": round(max(v), 3), "n": len(v)}
        for k, v in stages.items()
    }  # fmt: skip


def quick_answers(timings: list) -> int:
    """Answers with at least one utterance heard by the recogniser with every core."""
    return sum(t.after == "answer" and t.quick_utterances > 0 for t in timings)


def print_timings(result, *, fast: bool) -> dict:  # type: ignore[no-untyped-def]
    """Print the per-turn table and the p50/p95 of every stage; returns the figures."""

    def f(v: float | None) -> str:
        return "-" if v is None else f"{v:.2f}"

    print(f"\n{'turn':>4s} {'reply':10s} {'transcript':>10s} {'ack':>6s} {'question':>8s} "
          f"{'q ready':>8s} {'quick':>5s}   (s after the end-of-turn decision; quick: "
          "utterances of the talk or answer heard by the all-core recogniser)")  # fmt: skip
    for t in result.timings:
        st = t.stages()
        ready = (None if t.question_ready_s is None or t.decided_s is None
                 else t.question_ready_s - t.decided_s)  # fmt: skip
        print(f"{t.turn:4d} {t.reply:10s} {f(st['transcript_after_decision_s']):>10s} "
              f"{f(st['response_after_decision_s']):>6s} "
              f"{f(st['question_after_decision_s']):>8s} {f(ready):>8s} "
              f"{t.quick_utterances:5d}")  # fmt: skip
    turns = [t for t in result.timings if t.after == "answer"]
    figures = stage_percentiles(result.timings)
    print(f"\nstatus {result.status}; {len(turns)} turns after an answer "
          f"({sum(t.reply == 'follow_up' for t in turns)} follow-ups); "
          f"{'fast (not paced)' if fast else 'real time'}")  # fmt: skip
    print(f"{'stage (s)':34s} {'p50':>7s} {'p95':>7s} {'max':>7s}  n")
    for k, v in figures.items():
        print(f"{k:34s} {v['p50']:7.2f} {v['p95']:7.2f} {v['max']:7.2f}  {v['n']}")
    print(f"answers with an utterance heard by the all-core recogniser: "
          f"{quick_answers(result.timings)} of {len(turns)}")  # fmt: skip
    reply = figures.get("response_after_decision_s")
    question = figures.get("question_after_decision_s")
    if reply:
        print(f"reply after decision: p50 {reply['p50']:.2f} s (target <= 1.0), "
              f"p95 {reply['p95']:.2f} s (target <= 1.8)")  # fmt: skip
    if question:
        print(f"question audio after decision: p50 {question['p50']:.2f} s, "
              f"p95 {question['p95']:.2f} s")  # fmt: skip
    return figures


def spoken_talk(markdown: Path, out: Path) -> Path:
    """A bench talk (``# Title`` then paragraphs) said by the default Piper voice, sentence
    by sentence with 0.4 s between sentences and 0.8 s between paragraphs, to a wav."""
    import numpy as np
    import soundfile as sf

    from coach.tts import Speaker, TtsOptions

    speaker = Speaker.load(TtsOptions(sentence_silence_s=0.4))
    rate = speaker.sample_rate_hz
    parts: list[np.ndarray] = [np.zeros(int(0.5 * rate), dtype=np.int16)]
    paragraphs = [p for p in markdown.read_text().split("\n\n") if p.strip()]
    for paragraph in paragraphs:
        if paragraph.startswith("#"):
            continue
        parts += [chunk.samples for chunk in speaker.speak(" ".join(paragraph.split()))]
        parts.append(np.zeros(int(0.4 * rate), dtype=np.int16))
    sf.write(str(out), np.concatenate(parts), rate, subtype="PCM_16")
    return out


def main() -> int:
    started = time.monotonic()
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--questions", type=int, default=10, help="new questions (default 10)")
    ap.add_argument("--fast", action="store_true", help="no real-time pacing (not the target)")
    ap.add_argument("--llm-model", default="qwen2.5-coder-0.5b-instruct")
    ap.add_argument(
        "--audience-asr", default="none", help="the audience's recogniser (none: the live words)"
    )
    ap.add_argument(
        "--wording", default="grounded", choices=("grounded", "llm"),
        help="how new questions are worded (grounded, the default, asks only what fits the "
        "talk: a few turns; llm: the model words every question, so all --questions are asked)",
    )  # fmt: skip
    ap.add_argument(
        "--judge-model", default="qwen2.5-coder-1.5b-instruct",
        help="the answer judge's GGUF, as in coach rehearse (none: by the words alone)",
    )  # fmt: skip
    ap.add_argument(
        "--talk", type=Path, default=None,
        help="a bench talk's Markdown, said by the default Piper voice, in place of the shipped "
        "practice talk (e.g. a proposal, whose first question is about it as a whole)",
    )  # fmt: skip
    ap.add_argument(
        "--no-ask-reading", action="store_true",
        help="the judge model does not read the talk for its ask (as coach rehearse "
        "--no-ask-reading; it is loaded when the questions are over)",
    )  # fmt: skip
    ap.add_argument("--json", type=Path, help="also write the figures here")
    args = ap.parse_args()

    from coach.audience import AudienceOptions
    from coach.judging import JudgeOptions
    from coach.live.events import QuietEvents
    from coach.live.folder import SessionFolder
    from coach.live.inputs import FileInput
    from coach.live.models import Models, live_asr_options, session_threads
    from coach.live.options import RehearseOptions
    from coach.live.rehearsal import ACKS, Rehearsal
    from coach.llm import LlmOptions
    from coach.sinks import WavSink
    from coach.tts import TtsOptions

    fixtures = ROOT / "audio_fixtures"
    manifest = json.loads((fixtures / "manifest.json").read_text())
    answers = [fixtures / name for name in manifest["answers"]]
    answers = (answers * (2 * args.questions // len(answers) + 2))[: 2 * args.questions]
    with tempfile.TemporaryDirectory() as tmp:
        folder = SessionFolder(Path(tmp) / "session")
        talk_wav = fixtures / "practice_talk.wav"
        if args.talk is not None:
            talk_wav = spoken_talk(args.talk, Path(tmp) / f"{args.talk.stem}.wav")
        voice_input = FileInput(talk_wav, answers, realtime=not args.fast)
        from coach.asr import AsrOptions

        ear = None if args.audience_asr == "none" else AsrOptions(model=args.audience_asr,
                                                                  cpu_threads=1)  # fmt: skip
        asr_threads, llm_threads = session_threads(with_llm=True)  # as `coach rehearse`
        models = Models(live_asr_options(threads=asr_threads),
                        LlmOptions(model=args.llm_model, threads=llm_threads),
                        TtsOptions(threads=llm_threads),
                        lines=ACKS, ear=ear,
                        judge=None if args.judge_model == "none"
                        else JudgeOptions(model=args.judge_model),
                        read_asks=args.wording == "grounded"
                        and not args.no_ask_reading)  # fmt: skip
        sink = WavSink(folder.file("audience.wav"))
        events = QuietEvents()
        options = RehearseOptions(
            questions=args.questions, audience=AudienceOptions(wording=args.wording)
        )
        result = Rehearsal(voice_input, models, sink, folder, options, events=events,
                           started_at=started).run()  # fmt: skip
        peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        for who, text in events.lines:
            if who in ("audience", "you"):
                print(f"  {who:8s} {text}")
        figures = print_timings(result, fast=args.fast)
        talk = result.timings[0].stages() if result.timings else {}
        report_s = talk.get("transcript_after_decision_s")
        first_q_s = talk.get("question_after_decision_s")
        sentence_s = talk.get("question_sentence_after_decision_s")
        print(f"after the talk: report {report_s} s after it ended, first question {first_q_s} s"
              + (f" (its quote; the question sentence after it at {sentence_s} s)"
                 if sentence_s is not None else ""))  # fmt: skip
        if result.talk:
            after = {k: v for k, v in result.talk.timings_s.items() if k.startswith("after_end")}
            print(f"  after it ended: {after} (compute seconds)")
        print(f"ready to listen: {result.ready_s:.2f} s after start (target <= 5)")
        print(f"peak memory: {peak_mb:.0f} MB with every model loaded")
        sources = [e.question.source for e in result.exchanges]
        print(f"questions from the LLM: {sources.count('llm')} of {len(sources)} "
              f"(rest built from key terms)")  # fmt: skip
        fu = sorted(
            t.stages()["question_after_decision_s"]
            for t in result.timings
            if t.reply == "follow_up" and t.stages()["question_after_decision_s"]
        )
        follow_up = {"n": len(fu)}
        if fu:
            p95 = fu[min(len(fu) - 1, round(0.95 * (len(fu) - 1)))]
            follow_up |= {"p50": round(fu[len(fu) // 2], 2), "p95": round(p95, 2)}
        print(f"follow-ups heard after the decision: {follow_up}")
        doc = {
            "follow_up_heard_s": follow_up,
            "llm": args.llm_model, "questions": args.questions, "fast": args.fast,
            "wording": args.wording, "judge_model": args.judge_model,
            "ask_reading": args.wording == "grounded" and not args.no_ask_reading
            and args.judge_model != "none",
            "stages": figures, "ready_s": result.ready_s, "peak_mb": round(peak_mb),
            "answers_with_quick_utterances": quick_answers(result.timings),
            "talk": talk, "status": result.status,
            "talk_file": "audio_fixtures/practice_talk.wav" if args.talk is None
            else f"{args.talk.relative_to(ROOT) if args.talk.is_absolute() else args.talk} "
            "(said by the default Piper voice)",
            # compute seconds of the talk's stages; after_end_*: what ran after it ended
            "talk_compute_s": result.talk.timings_s if result.talk else None,
            "question_sources": {s: sources.count(s) for s in set(sources)},
        }  # fmt: skip
        name = "latency" + ("" if args.llm_model == LlmOptions.model else f"_{args.llm_model}")
        name += "" if args.wording == "grounded" else f"_{args.wording}-wording"
        name += "_words-judge" if args.judge_model == "none" else ""
        name += "_no-ask-reading" if args.no_ask_reading and args.judge_model != "none" else ""
        name += "" if args.talk is None else f"_{args.talk.stem}"
        print(f"figures written to {write_results(name, doc).relative_to(ROOT)}")
        if args.json:
            args.json.write_text(json.dumps(doc, indent=2))
    return 0 if result.status == "complete" else 1


if __name__ == "__main__":
    sys.exit(main())
