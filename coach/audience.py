"""The AI audience: questions about a talk, one at a time, grounded in what was said.

A 0.5B model left alone answers its own questions, drifts out of role or asks three
things at once. So the model gets a short prompt that names one point of the talk to ask
about (a different one each time), its reply is constrained to ``{"question": "..."}`` by a
JSON-schema grammar, and the question is checked (one question, short, not a repeat,
refers to the talk). A bad question is retried once; after that a plain question is built
from the talk's key terms, so the session always goes on. A larger GGUF passes the checks
more often from the same code.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field

from coach.errors import OptionsError
from coach.llm import ChatModel, Message
from coach.transcript import tokens

PERSONAS: dict[str, str] = {
    "curious": "a curious, friendly member of the audience who wants to understand more",
    "skeptical": "a skeptical member of the audience who doubts claims and asks for evidence",
    "expert": "an expert in the field who asks precise, technical questions",
}
"""Built-in personas; any other text is used as a custom persona."""

_STOP = set(
    "a an the and or but so of to in on at for with by from as is are was were be been being "
    "it its this that these those there here we you i he she they them our your my me us "
    "do does did have has had not no yes can could will would should may might must just "
    "very really about into than then also more most some any all each every one two what "
    "which who whom when where why how thank thanks good morning everyone today want make "
    "like let's lets get got go going think know well okay um uh er ah hm".split()
)  # fmt: skip

QUESTION_SCHEMA = {
    "type": "object",
    "properties": {"question": {"type": "string", "maxLength": 200}},
    "required": ["question"],
}
"""The reply grammar: exactly one question string."""


@dataclass(frozen=True)
class AudienceOptions:
    """How the audience behaves."""

    persona: str = "curious"
    """curious, skeptical, expert, or a custom persona description."""
    max_words: int = 30
    """A question longer than this many words is rejected."""
    repeat_overlap: float = 0.6
    """A question sharing this share of its content words with an earlier one is a repeat."""
    retries: int = 1
    """LLM attempts after the first before falling back to a built question."""
    max_tokens: int = 80
    """Token budget of one question."""

    def __post_init__(self) -> None:
        if self.max_words < 5:
            raise OptionsError(f"max_words must be at least 5, not {self.max_words}")
        if not 0 < self.repeat_overlap <= 1:
            raise OptionsError("repeat_overlap must be in (0, 1]")

    @property
    def persona_text(self) -> str:
        """The persona as the prompt states it."""
        return PERSONAS.get(self.persona, self.persona)


@dataclass(frozen=True)
class Question:
    """One question from the audience."""

    text: str
    """The question as spoken."""
    focus: str
    """The point of the talk it was asked to be about."""
    source: str
    """"llm" or "fallback" (built from the talk's key terms)."""
    attempts: int
    """LLM attempts made (0 for a fallback without a model)."""
    rejected: list[str] = field(default_factory=list)
    """Why earlier attempts were rejected."""


def key_terms(transcript: str, *, limit: int = 12) -> list[str]:
    """Points of a talk worth asking about: numbers with their noun, names, frequent words.

    Pure and deterministic: numbers first ("140 changes"), then capitalised names that do
    not start a sentence ("Gerrit"), then the most frequent content words ("review").
    """
    terms: list[str] = []
    for m in re.finditer(r"\b(\d[\d,.]*%?)\s+([A-Za-z][a-z-]+(?:\s+[a-z]+)?)", transcript):
        noun = m.group(2).split()[0]
        if noun.lower() not in _STOP:
            terms.append(f"{m.group(1)} {noun}")
    for m in re.finditer(r"(?<![.!?]\s)(?<!^)\b([A-Z][a-zA-Z]{2,})\b", transcript):
        word = m.group(1)
        if word.lower() not in _STOP and word not in terms:
            terms.append(word)
    counts = Counter(t for t in tokens(transcript) if t not in _STOP and len(t) > 3)
    for word, n in counts.most_common():
        if n < 2 and len(terms) >= 3:
            break
        if not any(word in t.lower() for t in terms):
            terms.append(word)
    out: list[str] = []
    for t in terms:
        if t.lower() not in (o.lower() for o in out):
            out.append(t)
    return out[:limit]


def _content(text: str) -> set[str]:
    return {t for t in tokens(text) if t not in _STOP and len(t) > 2}


def check_question(
    text: str, *, transcript: str, asked: list[str], options: AudienceOptions = AudienceOptions()
) -> str | None:
    """Why a generated question is not usable, or None if it is.

    Rejects: empty; not ending in "?"; more than one question; text after the question
    (the model answering itself); too long; a repeat of an earlier question; no word of
    its own that the talk used (not grounded).
    """
    q = text.strip()
    if not q:
        return "empty"
    if q.count("?") == 0:
        return "not a question"
    if q.count("?") > 1:
        return "more than one question"
    if not q.endswith("?"):
        return "says more after the question"
    if len(q.split()) > options.max_words:
        return f"longer than {options.max_words} words"
    words = _content(q)
    for earlier in asked:
        prev = _content(earlier)
        if words and len(words & prev) / len(words) >= options.repeat_overlap:
            return "repeats an earlier question"
    if not words & _content(transcript):
        return "does not refer to the talk"
    return None


_FALLBACKS = {
    "curious": "You mentioned {term}. Could you tell us more about that?",
    "skeptical": "What evidence supports what you said about {term}?",
    "expert": "How exactly does {term} work in practice, and what are its limits?",
}


def fallback_question(term: str, persona: str) -> str:
    """A plain question about one key term, in the persona's manner."""
    return _FALLBACKS.get(persona, _FALLBACKS["curious"]).format(term=term)


def parse_question(reply: str) -> str:
    """The question out of the model's JSON reply (tolerates a reply cut short)."""
    try:
        return str(json.loads(reply).get("question", "")).strip()
    except (json.JSONDecodeError, AttributeError):
        m = re.search(r'"question"\s*:\s*"((?:[^"\\]|\\.)*)', reply)
        return m.group(1).strip() if m else ""


class Audience:
    """Asks questions about one talk; keeps the conversation (and the KV cache) going."""

    def __init__(
        self, llm: ChatModel | None, transcript: str, options: AudienceOptions = AudienceOptions()
    ) -> None:
        self.llm = llm
        self.transcript = transcript
        self.options = options
        self.terms = key_terms(transcript) or ["your main point"]
        self.asked: list[str] = []
        self._used_terms: list[str] = []
        self.messages: list[Message] = [
            {
                "role": "system",
                "content": (
                    f"You are {options.persona_text}. You just heard the talk below. When asked, "
                    "reply with ONE short question to the speaker (under "
                    f"{options.max_words} words) about the point you are given. Never answer "
                    'it yourself. Reply only as JSON: {"question": "..."}.\n\nThe talk:\n'
                    + transcript
                ),
            }
        ]

    def _next_focus(self) -> str:
        for term in self.terms:
            if term not in self._used_terms:
                self._used_terms.append(term)
                return term
        self._used_terms = []
        return self._next_focus()

    def next_question(self) -> Question:
        """Generate, check, retry once, else fall back; the question joins the history."""
        focus = self._next_focus()
        rejected: list[str] = []
        attempts = 0
        if self.llm is not None:
            prompt = {"role": "user", "content": f"Ask about: {focus}"}
            for attempt in range(1 + self.options.retries):
                attempts += 1
                reply = self.llm.complete(
                    [*self.messages, prompt], schema=QUESTION_SCHEMA,
                    max_tokens=self.options.max_tokens,
                    temperature=None if attempt == 0 else 0.9,
                )  # fmt: skip
                text = parse_question(reply)
                reason = check_question(
                    text, transcript=self.transcript, asked=self.asked, options=self.options
                )
                if reason is None:
                    self._remember(prompt, text)
                    return Question(text, focus, "llm", attempts, rejected)
                rejected.append(f"{reason}: {text!r}")
        text = fallback_question(focus, self.options.persona)
        self._remember({"role": "user", "content": f"Ask about: {focus}"}, text)
        return Question(text, focus, "fallback", attempts, rejected)

    def _remember(self, prompt: Message, question: str) -> None:
        self.asked.append(question)
        self.messages += [
            prompt,
            {"role": "assistant", "content": json.dumps({"question": question})},
        ]

    def questions(self, n: int) -> Iterator[Question]:
        """``n`` questions in a row."""
        for _ in range(n):
            yield self.next_question()
