"""The asking side of a conversation (the audience, an interviewer) as the engine sees it."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Protocol

from coach.analysis.answers import AnswerJudgement, Relevance
from coach.audience import Question
from coach.live.results import Exchange


@dataclass(frozen=True)
class Verdict:
    """What the asking side makes of an answer."""

    addressed: bool
    """The answer engaged with the question."""
    follow_up: bool
    """Worth a follow-up (dodged, or vague in an interview)."""
    ack: str
    """What to say first, the moment the turn ends (synthesised in advance)."""
    reason: str = ""
    """Why, in one line (the measured facts)."""
    press: str = ""
    """Said instead of ``ack`` before a follow-up ("Not quite.")."""


class Asker(Protocol):
    """The other side of the conversation: the audience, an interviewer, a scenario partner.

    The engine (:class:`Conversation`) records, times, speaks and saves; the asker decides
    what to ask and what to make of the answers.
    """

    opening: str
    """Said before the first question."""
    opening_optional: bool
    """Skip the opening when the first question is ready at once (the audience)."""
    closing: str
    """Said after the last answer."""
    no_questions: str
    """Said instead of the opening and the closing when there is no question to ask."""
    no_answer: str
    """Said when no answer was heard."""
    lines: tuple[str, ...]
    """Fixed lines worth synthesising in advance (acknowledgements)."""

    def next_question(self) -> Question | None:
        """The next new question, or None when there are no more (runs on the LLM thread)."""
        ...

    def judge(self, exchange: Exchange) -> Verdict:
        """Judge the answer as the turn ends (by its words: at once); fills
        ``exchange.judgement`` (and ``feedback``)."""
        ...

    def judgement(
        self, exchange: Exchange, support: float | None = None, on_subject: float | None = None,
        relevance: Relevance | None = None,
    ) -> AnswerJudgement:  # fmt: skip
        """The answer judgement alone, no side effects (``support``, ``on_subject``: the
        judge model's odds that the answer gave what was asked, and that it is about the
        question's subject; ``relevance``: how much the question made the answer likelier
        to it; None: by the words alone)."""
        ...

    def judge_context(self, exchange: Exchange) -> str:
        """One line on the situation for the judge model ("A job interview for ...")."""
        ...

    def follow_up(
        self, exchange: Exchange, verdict: Verdict, deadline: float | None = None
    ) -> Iterator[str | Question]:
        """Stream a follow-up: sentences, then the :class:`Question` record; a model not
        done by ``deadline`` (time.monotonic()) gives way to a plain follow-up."""
        ...

    def respond(self, exchange: Exchange) -> Callable[[], Iterator[str]] | None:
        """A reply to the person's own question (the closing of an interview), or None."""
        ...
