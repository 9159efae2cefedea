"""The answer judge's model: how likely an answer is to give what its question asked for.

Rules tell a deflection or an aside from an answer well, but not an answer that stays on
the topic without giving what was asked ("Who will pay for it?" / "The roof has leaked for
years") from one that gives it in other words ("How long will it take?" / "About a
fortnight"). A local LLM asked one yes-or-no question about the pair tells them apart
better (on the dev pairs of ``bench/data``, ROC AUC 0.84 for Qwen2.5-Coder-1.5B, 0.57 for
the 0.5B; ``bench/results/judge_fit*.json``): :class:`AnswerJudge` reads its odds of
"yes" from the first reply token's logits (no sampling), and how much likelier the
question makes the answer (:meth:`AnswerJudge.relevance`, from the tokens' log-
probabilities); :func:`coach.analysis.answers.judge_answer` weighs both with the rules'
own evidence.

It takes about 6 s an answer on two cores (odds 1.9 s, gain 3.7 s), too slow to decide
a follow-up between turns, so a session decides those by the words at once and the model
reads every answer again when the questions are over
(:meth:`coach.live.engine.Conversation._weigh_answers`).
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from pathlib import Path

from coach.analysis.answers import Relevance
from coach.llm import ChatModel, LlmOptions, Message, resolve_gguf

DEFAULT_JUDGE = "qwen2.5-coder-1.5b-instruct"
"""Manifest name of the default judge model (the 0.5B model cannot tell: AUC 0.57)."""

SYSTEM = (
    "You check answers given after a talk or in a job interview. You see the situation, the "
    "question and the spoken answer. Say yes if the answer gives what the question asked for "
    "(an amount if it asked how much, a reason if it asked why, how it was found if it asked "
    "how it was measured, who if it asked who, an example if it asked for one, a clear "
    "position if it was a yes-or-no question). Say no if the answer avoids the question, "
    "talks about something else, or stays on the topic without giving what was asked. "
    "Answer with one word: yes or no."
)
"""Written before any figure was seen; one zero-shot variant and one with seven worked
examples were tried on the dev pairs, and the examples made it worse (AUC 0.74)."""

SUBJECT_SYSTEM = (
    "You check answers given after a talk or in a job interview. You see the situation, the "
    "question and the spoken answer. Say yes if the answer is about the subject the question "
    "asks about, even if it does not answer it fully. Say no if it is about something else "
    "(another subject, a personal story, a word of the question used in another sense). "
    "Answer with one word: yes or no."
)
"""For an answer that missed: off the topic, or on it without what was asked? (ROC AUC
0.93 for off-topic answers on the dev pairs; the rules' shared words mistake a word
reused in another sense for the topic.)"""

ASKS = {
    "answered": (SYSTEM, "Does the answer give what the question asked for? Answer yes or no."),
    "on_subject": (SUBJECT_SYSTEM, "Is the answer about the subject of the question? Answer "
                   "yes or no."),
}  # fmt: skip
"""What the judge model can be asked about a pair: its instructions and the last line."""


def relevance_prompts(context: str, question: str) -> tuple[str, str]:
    """The plain-text prompts an answer is scored after (pure): the situation and the
    question, and the situation alone (:meth:`AnswerJudge.relevance`)."""
    situation = context.strip() or "A question after a talk."
    return f"{situation}\nQuestion: {question.strip()}\nAnswer:", f"{situation}\nAnswer:"


MAX_RELEVANCE_TOKENS = 200
"""Answer tokens the relevance reading scores (about 150 words; the rest adds little)."""

MAX_ANSWER_WORDS = 400
"""Words of an answer the judge reads (a longer one is judged on its start)."""

ASKS_SYSTEM = "You read the transcript of a talk and answer a question about it."
ASKS_QUESTION = (
    "Does the speaker ask the listeners to approve, fund, vote for, sign up for or take part "
    "in something specific? Answer yes or no."
)
"""Whether a talk puts something forward, whatever its wording
(:meth:`AnswerJudge.asks_listeners`); worded before any figure, as in the experiment of
``bench/results/questions/experiments/proposal_classifier``."""

ASKS_N_CTX = 4096
"""Context the judge model is loaded with when it also reads a talk for its ask (a
twenty-minute talk's words; the answers alone need 1024)."""


def asks_messages(transcript: str, *, max_words: int) -> list[Message]:
    """The chat that asks whether a talk asks its listeners for something (pure). A talk
    longer than ``max_words`` is read from a later start, dropped in whole blocks of a
    quarter of ``max_words`` so that the next, longer transcript starts the same way (its
    start stays in the model's cache)."""
    words = transcript.split()
    block = max(1, max_words // 4)
    drop = -(-max(0, len(words) - max_words) // block) * block
    text = ("... " if drop else "") + " ".join(words[drop:])
    return [{"role": "system", "content": ASKS_SYSTEM},
            {"role": "user", "content": f"Transcript:\n{text}\n\n{ASKS_QUESTION}"}]  # fmt: skip


@dataclass(frozen=True)
class JudgeOptions:
    """Answer-judge settings."""

    model: str = DEFAULT_JUDGE
    """A manifest name or a path to any GGUF file."""
    threads: int = 0
    """CPU threads; 0 uses every logical CPU."""


def judge_messages(
    context: str, question: str, answer: str, *, ask: str = "answered"
) -> list[Message]:
    """The chat that asks whether ``answer`` gave what ``question`` asked, or with
    ``ask="on_subject"`` whether it is about the question's subject at all (pure)."""
    system, last = ASKS[ask]
    words = answer.split()
    if len(words) > MAX_ANSWER_WORDS:  # the context holds about three minutes of speech
        answer = " ".join(words[:MAX_ANSWER_WORDS]) + " ..."
    user = (
        f"Situation: {context.strip() or 'A question after a talk.'}\n"
        f'Question: "{question.strip()}"\nAnswer: "{answer.strip()}"\n\n{last}'
    )
    return [{"role": "system", "content": system}, {"role": "user", "content": user}]


class AnswerJudge:
    """A GGUF model asked whether an answer gave what was asked; make one with :meth:`load`."""

    def __init__(self, model: ChatModel) -> None:
        self.model = model

    @classmethod
    def load(
        cls,
        options: JudgeOptions | None = None,
        *,
        loaded: ChatModel | None = None,
        free_loaded: bool = False,
        n_ctx: int = 1024,
        threads: int | None = None,
    ) -> AnswerJudge:
        """Load the judge's GGUF (never downloads).

        ``loaded``: a chat model already in memory (the session's LLM); used as the judge,
        not loaded twice, when it is the same GGUF file. ``free_loaded``: otherwise close it
        before the judge loads, so the two are never in memory together (only when nothing
        else uses it any more). ``n_ctx``: its context (:data:`ASKS_N_CTX` to read talks
        too); ``threads``: CPU threads in place of the options' (a session's share).

        Raises:
            ModelError: the model is not fetched or cannot be loaded; says what to do.
        """
        options = options or JudgeOptions()
        path = resolve_gguf(options.model, flag="--judge-model", default=DEFAULT_JUDGE)
        if loaded is not None and not loaded.closed:
            if _same_file(loaded.path, path):
                return cls(loaded)
            if free_loaded:
                loaded.close()
        # the instructions, a question and a 400-word answer
        threads = options.threads if threads is None else threads
        return cls(ChatModel.load(LlmOptions(model=str(path), n_ctx=n_ctx,
                                             threads=threads)))  # fmt: skip

    def support(self, context: str, question: str, answer: str, *, ask: str = "answered") -> float:
        """The model's probability, 0 to 1, that ``answer`` gave what ``question`` asked
        for (``context``: one line on the situation, e.g. the talk's claim); with
        ``ask="on_subject"``, that it is about the question's subject."""
        messages = judge_messages(context, question, answer, ask=ask)
        yes, _no = self.model.choice_probs(messages, ["yes", "no"])
        return yes

    def asks_listeners(self, transcript: str, *, cancel: threading.Event | None = None) -> float:
        """The model's probability, 0 to 1, that the talk asks its listeners to approve,
        fund, vote for, sign up for or take part in something specific, whatever the words
        of its ask (:data:`ASKS_QUESTION`; about 8 s for a whole five-minute talk on two
        cores, a fraction of a second for each new utterance after the talk so far). Read
        from the first reply token's logits, no sampling; ``cancel`` stops it early.

        Raises:
            GenerationCancelled: ``cancel`` was set.
        """
        room = self.model.options.n_ctx - 160  # the instructions, question and reply
        messages = asks_messages(transcript, max_words=max(50, int(room / 1.6)))
        yes, _no = self.model.choice_probs(messages, ["yes", "no"], cancel=cancel)
        return yes

    def relevance(self, context: str, question: str, answer: str) -> Relevance:
        """How much hearing ``question`` makes ``answer`` likelier to the model (see
        :class:`coach.analysis.answers.Relevance`): two passes over the answer's tokens,
        no sampling."""
        asked, alone = relevance_prompts(context, question)
        said = " " + " ".join(answer.split())
        return Relevance.from_logprobs(
            self.model.continuation_logprobs(asked, said, max_tokens=MAX_RELEVANCE_TOKENS),
            self.model.continuation_logprobs(alone, said, max_tokens=MAX_RELEVANCE_TOKENS),
        )


def _same_file(a: Path, b: Path) -> bool:
    """True when two paths name one file (a symlink or a relative path included)."""
    try:
        return a.samefile(b)
    except OSError:
        return False
