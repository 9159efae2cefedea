"""What a session produced: per-turn timings, the questions and answers, the whole result."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from coach.analysis.answers import AnswerJudgement
from coach.audience import Question
from coach.report import ClipReport, headline


@dataclass
class TurnTiming:
    """When things happened in one turn, seconds since the session started (monotonic).

    A turn runs from the end of the person's speech (the talk, or an answer) to the first
    audio of the audience's reply.
    """

    turn: int
    """0 for the talk, then one per answer."""
    after: str
    """"talk" or "answer"."""
    speech_end_s: float | None = None
    """The person stopped speaking (from stream times; None when not paced in real time)."""
    decided_s: float | None = None
    """coach decided the turn was over (enough silence, end of input, Enter)."""
    transcript_s: float | None = None
    """The whole transcript of the turn was ready."""
    llm_start_s: float | None = None
    """Generation of the question asked next started (before ``decided_s`` when it was
    generated while the person answered)."""
    llm_first_token_s: float | None = None
    """The LLM's first token of that question."""
    question_ready_s: float | None = None
    """The question passed its checks."""
    first_audio_s: float | None = None
    """The first audio of the reply went out (the acknowledgement)."""
    question_audio_s: float | None = None
    """The first audio of the question itself went out (its quote of the talk, when the
    question starts with one)."""
    question_sentence_audio_s: float | None = None
    """The question's own sentence went out, when its quote was said before the turn's
    transcript was ready (the talk's first question: :meth:`coach.audience.Audience.take_early`)."""
    reply: str = ""
    """"question", "follow_up" or "closing"."""
    quick_utterances: int = 0
    """Utterances of the talk or answer heard by the recogniser with every core (the LLM
    thread was idle: :meth:`coach.live.models.Models.quick_transcriber`)."""

    def stages(self) -> dict[str, float | None]:
        """Durations, seconds: each stage and the end-to-end figures."""

        def d(a: float | None, b: float | None) -> float | None:
            return None if a is None or b is None else round(b - a, 3)

        return {
            "end_of_turn_wait_s": d(self.speech_end_s, self.decided_s),
            "transcript_after_decision_s": d(self.decided_s, self.transcript_s),
            "llm_first_token_s": d(self.llm_start_s, self.llm_first_token_s),
            "llm_question_s": d(self.llm_start_s, self.question_ready_s),
            "response_after_decision_s": d(self.decided_s, self.first_audio_s),
            "question_after_decision_s": d(self.decided_s, self.question_audio_s),
            "question_sentence_after_decision_s": d(self.decided_s, self.question_sentence_audio_s),
            "end_to_end_s": d(self.speech_end_s, self.first_audio_s),
            "question_end_to_end_s": d(self.speech_end_s, self.question_audio_s),
        }

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready: the moments and the stages."""
        moments = {k: (None if v is None else round(v, 3)) for k, v in self.__dict__.items()
                   if k.endswith("_s")}  # fmt: skip
        return {"turn": self.turn, "after": self.after, "reply": self.reply, **moments,
                "quick_utterances": self.quick_utterances, "stages": self.stages()}  # fmt: skip


@dataclass
class Exchange:
    """One question and its answer."""

    index: int
    """1-based position in the Q&A."""
    question: Question
    """What the audience asked."""
    answer_file: str = ""
    """The answer's recording in the session folder."""
    answer: ClipReport | None = None
    """The answer's delivery report (None: no answer recording was left)."""
    judgement: AnswerJudgement | None = None
    """Whether it addressed the question."""
    feedback: Any = None
    """Content feedback (coach.analysis.star.AnswerFeedback) in an interview, else None."""
    reply: str = ""
    """What the asker said back in answer to the person's own question (the closing)."""

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready."""
        a = self.answer
        return {
            "index": self.index,
            "question": self.question.to_dict(),
            "answer_file": self.answer_file,
            "answer_transcript": a.transcript if a else "",
            "answer_delivery": headline(a) if a else None,
            "judgement": self.judgement.to_dict() if self.judgement else None,
            "feedback": self.feedback.to_dict() if self.feedback is not None else None,
            "reply": self.reply,
        }


@dataclass
class SessionResult:
    """What a session (a rehearsal or an interview) produced."""

    folder: Path
    """The session folder."""
    kind: str = "rehearse"
    """"rehearse" or "interview"."""
    context: dict[str, Any] = field(default_factory=dict)
    """What the session was about: role, company, persona, scenario, question types it
    leaned toward..."""
    practice: list[str] = field(default_factory=list)
    """The most valuable things to practise next (an interview's report)."""
    talk: ClipReport | None = None
    """The talk's report."""
    exchanges: list[Exchange] = field(default_factory=list)
    """Questions and answers, in order."""
    timings: list[TurnTiming] = field(default_factory=list)
    """Per-turn timings."""
    script: Any = None
    """Script coverage (coach.analysis.script.ScriptCoverage), if a script was given."""
    status: str = "running"
    """"complete", "interrupted" (Ctrl-C), "device_lost", "no_speech", "failed" (an error
    stopped it; the reason is in ``notes``) or "running"."""
    notes: list[str] = field(default_factory=list)
    """One-line notes for the person (model missing, answers ran out, device lost...)."""
    ready_s: float | None = None
    """Seconds from the start of the session until it listened to the first frame."""
    models: dict[str, str] = field(default_factory=dict)
    """Models used."""
    started: str = ""
    """Local start time, ISO 8601."""

    def to_dict(self) -> dict[str, Any]:
        """The session report as JSON (schema in README.md)."""
        return {
            "schema": 1,
            "kind": self.kind,
            "started": self.started,
            "status": self.status,
            "context": self.context,
            "practice": self.practice,
            "notes": self.notes,
            "models": self.models,
            "ready_s": None if self.ready_s is None else round(self.ready_s, 3),
            "talk": self.talk.to_dict() if self.talk else None,
            "script": self.script.to_dict() if self.script is not None else None,
            "qa": [e.to_dict() for e in self.exchanges],
            "timings": [t.to_dict() for t in self.timings],
        }
