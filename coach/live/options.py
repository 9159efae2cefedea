"""Options of a spoken session (a rehearsal or an interview)."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field

from coach.audience import AudienceOptions
from coach.errors import OptionsError
from coach.live.recorder import LiveOptions


@dataclass(frozen=True)
class RehearseOptions:
    """Options of a rehearsal session."""

    live: LiveOptions = field(default_factory=LiveOptions)
    """Capture, segmentation and analysis (the same analysis as `coach score`)."""
    audience: AudienceOptions = field(default_factory=AudienceOptions)
    """Persona and question checks."""
    questions: int = 3
    """New questions to ask after the talk (0: report only)."""
    follow_ups: bool = True
    """Ask one follow-up when an answer dodged its question."""
    end_silence_s: float | None = 10.0
    """A live talk ends after this much silence, seconds (None: only Enter or Ctrl-C)."""
    turn_silence_s: float = 1.2
    """An answer ends after this much silence following speech, seconds."""
    answer_wait_s: float = 15.0
    """No speech this long after a question: no answer, move on (seconds)."""
    max_answer_s: float = 240.0
    """An answer is cut off after this long, seconds."""
    min_answer_words: int = 8
    """Answers shorter than this many words do not address a question."""
    follow_up_budget_s: float = 1.2
    """A follow-up the LLM has not finished this many seconds after the end of the answer
    (or by the end of the line said before it, if that is later) is replaced by the plain
    follow-up for the question's kind, so it is heard within 2 s: its speech is
    synthesised after it is written (about 0.4 s on 2 cores). In bench-latency with the
    model wording every question, a budget of 1.8 s had follow-ups heard at 2.18 s p95
    after the decision, 1.5 s at 2.21 s (6 follow-ups)."""
    ear_wait_s: float = 0.4
    """At the end of a live talk, how long the audience's recogniser may take to catch up
    on the last utterance, seconds (what it has not heard again is quoted as heard live)."""
    opening_wait_s: float = 0.6
    """After the talk, a question ready within this many seconds (prepared during the
    talk, then synthesised) is asked at once; otherwise the opening line ("Thank you for
    the talk.") is said while it is made."""
    answer_hangover_s: float = 0.3
    """Utterance hangover inside answers, seconds: shorter than the talk's, so the last
    utterance closes, and starts transcribing, 0.9 s before the silence that ends the turn
    (a Whisper call costs about a second however short the audio, for its 30 s window)."""

    def __post_init__(self) -> None:
        if self.questions < 0:
            raise OptionsError(f"questions must be 0 or more, not {self.questions}")
        if self.turn_silence_s < self.answer_hangover_s:
            raise OptionsError(
                f"the end-of-answer silence ({self.turn_silence_s} s) must not be shorter "
                f"than the answer's utterance hangover ({self.answer_hangover_s} s)"
            )

    @property
    def answer_live(self) -> LiveOptions:
        """Live options for answers: the answer hangover, pitch measured every 3 s."""
        hangover = min(self.live.endpoint.hangover_s, self.answer_hangover_s)
        endpoint = dataclasses.replace(self.live.endpoint, hangover_s=hangover)
        return dataclasses.replace(self.live, endpoint=endpoint, feature_block_s=2.97)
