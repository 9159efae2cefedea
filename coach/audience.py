"""The AI audience: questions about a talk, one at a time, grounded in what was said.

A 0.5B model left alone answers its own questions, drifts out of role or asks three
things at once. So the model gets a short prompt that names one point of the talk to ask
about (a different one each time), its reply is constrained to ``{"question": "..."}`` by a
JSON-schema grammar, and the question is checked (one question, short, not a repeat,
refers to the talk). A bad question is retried once; after that a plain question is built
from the talk's key terms, so the session always goes on. A larger GGUF passes the checks
more often from the same code.

Every turn sends the same system prompt (persona, rules, the talk) plus one user message,
so llama.cpp reuses the cached system prompt and each turn costs only its own tokens. The
reply streams: its text is pulled out of the JSON as tokens arrive and cut into sentences,
so a lead-in sentence can be spoken while the question is still being generated; the
question itself is spoken only after it passed the checks.
"""

from __future__ import annotations

import itertools
import json
import re
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field

from coach.analysis.answers import STOP_WORDS
from coach.errors import OptionsError
from coach.llm import ChatModel, Message
from coach.transcript import tokens
from coach.tts import split_sentences

PERSONAS: dict[str, str] = {
    "curious": "a curious, friendly member of the audience who wants to understand more",
    "skeptical": "a skeptical member of the audience who doubts claims and asks for evidence",
    "expert": "an expert in the field who asks precise, technical questions",
}
"""Built-in personas; any other text is used as a custom persona."""

_STOP = STOP_WORDS | set(
    "two good morning everyone today want make let's lets get got go going think know".split()
)

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
    grammar: bool = False
    """Constrain the reply to the JSON schema with a grammar. Off by default: with
    llama-cpp-python 0.3 every token the model would not have chosen costs a pass over the
    whole vocabulary (measured 10 s for a first token, 23 s for 10 tokens, against 0.7 s
    unconstrained); the reply is parsed from the stream either way, and a reply without
    the key is retried."""
    context_words: int = 700
    """Longer talks are condensed to about this many words for the prompt (the sentences
    that carry the key terms), so a 20-minute talk fits the context and stays quick."""

    def __post_init__(self) -> None:
        if self.max_words < 5:
            raise OptionsError(f"max_words must be at least 5, not {self.max_words}")
        if not 0 < self.repeat_overlap <= 1:
            raise OptionsError("repeat_overlap must be in (0, 1]")
        if not self.persona.strip():
            raise OptionsError("the audience persona is empty: use curious, skeptical, expert "
                               "or a description")  # fmt: skip

    @property
    def persona_text(self) -> str:
        """The persona as the prompt states it."""
        return PERSONAS.get(self.persona, self.persona)


@dataclass
class Question:
    """One question from the audience, with how it was made."""

    text: str
    """The question as spoken (a lead-in sentence, if any, is in ``lead_in``)."""
    focus: str
    """The point of the talk it was asked to be about."""
    source: str
    """"llm" or "fallback" (built from the talk's key terms)."""
    attempts: int
    """LLM attempts made (0 for a fallback without a model)."""
    rejected: list[str] = field(default_factory=list)
    """Why earlier attempts were rejected."""
    kind: str = "question"
    """"question" (a new point) or "follow_up" (pressing on the previous answer)."""
    lead_in: str = ""
    """A statement spoken before the question ("You said 23 builds broke."), or ""."""
    started_at: float | None = None
    """time.monotonic() when generation started."""
    first_token_at: float | None = None
    """time.monotonic() of the model's first token (None for a fallback without a model)."""
    ready_at: float | None = None
    """time.monotonic() when the question was checked and ready to speak."""
    stage: str = ""
    """Interview stage (opener, behavioral, technical, closing); "" for the audience."""

    @property
    def spoken_text(self) -> str:
        """What is said: the lead-in, if any, then the question."""
        return f"{self.lead_in} {self.text}".strip()

    def to_dict(self) -> dict[str, object]:
        """JSON-ready (times relative to ``started_at``, seconds)."""

        def rel(t: float | None) -> float | None:
            return None if t is None or self.started_at is None else round(t - self.started_at, 3)

        return {
            "kind": self.kind,
            "stage": self.stage,
            "text": self.text,
            "lead_in": self.lead_in,
            "focus": self.focus,
            "source": self.source,
            "attempts": self.attempts,
            "rejected": self.rejected,
            "first_token_s": rel(self.first_token_at),
            "ready_s": rel(self.ready_at),
        }


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


def condense(transcript: str, *, max_words: int = 700) -> str:
    """The talk cut to about ``max_words`` words for the prompt (pure).

    A short talk is returned as it is. A longer one keeps its first and last sentences and,
    in between, the sentences that name its key terms, in their original order, marking
    each cut with "...".
    """
    words = transcript.split()
    if len(words) <= max_words:
        return transcript
    sentences = [s for s in re.split(r"(?<=[.!?])\s+", transcript.strip()) if s]
    terms = [t.lower() for t in key_terms(transcript, limit=20)]

    def rank(i: int) -> int:  # the best key term a sentence names: numbers, names first
        low = sentences[i].lower()
        return min((r for r, t in enumerate(terms) if t in low), default=len(terms))

    keep = {0, len(sentences) - 1}
    budget = max_words - sum(len(sentences[i].split()) for i in keep) - 1
    for i in sorted(range(len(sentences)), key=lambda i: (rank(i), i)):
        n = len(sentences[i].split()) + 1  # with a possible "..." before it
        if i in keep or rank(i) == len(terms) or n > budget:
            continue
        keep.add(i)
        budget -= n
    parts: list[str] = []
    last = -1
    for i in sorted(keep):
        if last >= 0 and i != last + 1:
            parts.append("...")
        parts.append(sentences[i])
        last = i
    return " ".join(parts)


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


def check_lead_in(text: str, *, transcript: str, max_words: int = 20) -> str | None:
    """Why a statement before the question should not be spoken, or None if it may.

    A lead-in must be short and must not recite the talk back (a small model likes to
    copy whole sentences of the prompt): more than 8 words in a row from the talk is
    recitation.
    """
    words = tokens(text)
    if len(words) > max_words:
        return f"lead-in longer than {max_words} words"
    talk = " " + " ".join(tokens(transcript)) + " "
    for i in range(len(words) - 8):
        if " " + " ".join(words[i : i + 9]) + " " in talk:
            return "lead-in recites the talk"
    return None


_FALLBACKS = {
    "curious": "You mentioned {term}. Could you tell us more about that?",
    "skeptical": "What evidence supports what you said about {term}?",
    "expert": "How exactly does {term} work in practice, and what are its limits?",
}
_FOLLOW_UP_FALLBACKS = {
    "curious": "Could you give us one concrete example about {term}?",
    "skeptical": "I'm still not clear. What numbers or evidence do you have on {term}?",
    "expert": "Specifically, how did you measure or test {term}?",
}


def fallback_question(term: str, persona: str, *, follow_up: bool = False) -> str:
    """A plain question about one key term, in the persona's manner."""
    table = _FOLLOW_UP_FALLBACKS if follow_up else _FALLBACKS
    return table.get(persona, table["curious"]).format(term=term)


def parse_question(reply: str) -> str:
    """The question out of the model's JSON reply (tolerates a reply cut short)."""
    try:
        return str(json.loads(reply).get("question", "")).strip()
    except (json.JSONDecodeError, AttributeError):
        m = re.search(r'"question"\s*:\s*"((?:[^"\\]|\\.)*)', reply)
        return m.group(1).strip() if m else ""


_ESCAPES = {'"': '"', "\\": "\\", "/": "/", "b": "", "f": "", "n": " ", "r": " ", "t": " "}


def json_string_pieces(pieces: Iterable[str], key: str) -> Iterator[str]:
    """Stream the value of ``"key": "..."`` out of JSON text arriving in pieces.

    Yields the decoded text of the string as it arrives (escapes resolved, line breaks as
    spaces) and stops at its closing quote, so a caller can act on the words before the
    reply is complete. Yields nothing if the key never appears.
    """
    opener = re.compile(r'"' + re.escape(key) + r'"\s*:\s*"')
    buffer = ""
    pos: int | None = None
    escape = ""
    for piece in pieces:
        buffer += piece
        if pos is None:
            m = opener.search(buffer)
            if m is None:
                continue
            pos = m.end()
        out = []
        while pos < len(buffer):
            ch = buffer[pos]
            pos += 1
            if escape:
                escape += ch
                if escape.startswith("\\u"):
                    if len(escape) == 6:
                        try:
                            out.append(chr(int(escape[2:], 16)))
                        except ValueError:
                            pass
                        escape = ""
                    continue
                out.append(_ESCAPES.get(ch, ch))
                escape = ""
            elif ch == "\\":
                escape = "\\"
            elif ch == '"':
                if out:
                    yield "".join(out)
                return
            else:
                out.append(ch)
        if out:
            yield "".join(out)


def _repeats(text: str, original: Question) -> str | None:
    """A follow-up that only says its question again (most of its words) is no use."""
    words, prev = _content(text), _content(original.text)
    if words and len(words & prev) / len(words) >= 0.8:
        return "repeats the question it follows up"
    return None


def generate_question(
    llm: ChatModel | None,
    messages: list[Message],
    *,
    grounding: str,
    asked: list[str],
    options: AudienceOptions,
    fallback: str,
    focus: str,
    kind: str = "question",
    follow_up_to: Question | None = None,
    started: float | None = None,
    stage: str = "",
    extra_check: Callable[[str], str | None] | None = None,
) -> Iterator[str | Question]:
    """Generate one checked question, streaming; the engine under every asking role.

    The model's reply (``{"question": ...}``, grammar-constrained) is read as it streams:
    a lead-in sentence that passes :func:`check_lead_in` is yielded at once; the question
    is yielded once :func:`check_question` passes (against ``grounding`` and ``asked``;
    a follow-up must not repeat ``follow_up_to``). A failed attempt is retried
    ``options.retries`` times at a higher temperature, then ``fallback`` is used.

    ``extra_check`` adds a role's own rule (the interviewer must not talk about "the
    candidate" in the third person).

    Yields:
        Sentences to speak as they are ready, and last the :class:`Question` record.
    """
    started = time.monotonic() if started is None else started
    rejected: list[str] = []
    attempts = 0
    first_token: list[float] = []
    lead_in = ""
    if llm is not None:
        for attempt in range(1 + options.retries):
            attempts += 1
            question = ""
            reason: str | None = "empty"
            for kind_, text in _attempt(llm, messages, attempt, first_token, grounding, options):
                if kind_ == "lead_in":
                    if not lead_in:  # a retry's lead-in is not spoken a second time
                        lead_in = text
                        yield text
                    continue
                question = text
                reason = check_question(  # the lead-in counts for length and grounding
                    f"{lead_in} {text}".strip(), transcript=grounding, asked=asked,
                    options=options,
                ) or (_repeats(text, follow_up_to) if follow_up_to else None) or (
                    extra_check(f"{lead_in} {text}".strip()) if extra_check else None
                )  # fmt: skip
            if reason is None:
                yield question
                yield Question(question, focus, "llm", attempts, rejected, kind, lead_in,
                               started, first_token[0] if first_token else None,
                               time.monotonic(), stage)  # fmt: skip
                return
            rejected.append(f"{reason}: {question!r}")
    yield fallback
    source = "fallback" if llm is not None or not stage else "bank"
    yield Question(fallback, focus, source, attempts, rejected, kind, lead_in, started,
                   first_token[0] if first_token else None, time.monotonic(), stage)  # fmt: skip


def _attempt(
    llm: ChatModel,
    messages: list[Message],
    attempt: int,
    first_token: list[float],
    grounding: str,
    options: AudienceOptions,
) -> Iterator[tuple[str, str]]:
    """One generation: ("lead_in", sentence) for an acceptable statement before the
    question, then ("question", text) with the rest (checked by the caller)."""
    raw = llm.stream(
        messages, schema=QUESTION_SCHEMA if options.grammar else None,
        max_tokens=options.max_tokens,
        temperature=None if attempt == 0 else 0.9,
    )  # fmt: skip

    def timed() -> Iterator[str]:
        for piece in raw:
            if not first_token:
                first_token.append(time.monotonic())
            yield piece

    buffer = ""
    statements = 0
    pieces = reply_text_pieces(timed(), "question")
    try:
        for piece in pieces:
            buffer += piece
            done, buffer = split_sentences(buffer)
            for sentence in done:
                if "?" in sentence:
                    # stop generating at the question: whatever the model would say next
                    # (answering itself, a second question) is never generated or spoken
                    yield "question", sentence.strip('"')
                    return
                statements += 1
                if statements > 1:  # rambling: a question comes first or not at all
                    yield "question", ""
                    return
                if check_lead_in(sentence, transcript=grounding) is None:
                    yield "lead_in", sentence
        yield "question", buffer.strip().strip('"').strip()
    finally:
        pieces.close()
        raw.close()


def reply_text_pieces(pieces: Iterable[str], key: str = "question") -> Iterator[str]:
    """The reply's text as it streams, whether the model wrote ``{"key": "..."}`` (or a
    fenced JSON block) as asked, or plain text: the first visible character decides."""
    stream = iter(pieces)
    head = ""
    for piece in stream:
        head += piece
        if head.strip():
            break
    start = head.lstrip()
    if start[:1] in ("{", "`"):
        yield from json_string_pieces(itertools.chain([head], stream), key)
        return
    yield start.lstrip('"')
    for piece in stream:
        yield piece


class Audience:
    """Asks questions about one talk; see the module docstring."""

    def __init__(
        self, llm: ChatModel | None, transcript: str, options: AudienceOptions = AudienceOptions()
    ) -> None:
        self.llm = llm
        self.transcript = transcript
        self.options = options
        self.terms = key_terms(transcript) or ["your main point"]
        self.asked: list[str] = []
        self._used_terms: list[str] = []
        self.system: Message = {
            "role": "system",
            "content": (
                f"You are {options.persona_text}. You just heard the talk below. When asked, "
                "reply with ONE short question to the speaker (under "
                f"{options.max_words} words) about the point you are given. Never answer "
                'it yourself. Reply only as JSON: {"question": "..."}.\n\nThe talk:\n'
                + condense(transcript, max_words=options.context_words)
            ),
        }

    def _next_focus(self) -> str:
        for term in self.terms:
            if term not in self._used_terms:
                self._used_terms.append(term)
                return term
        self._used_terms = []
        return self._next_focus()

    def warm_up(self) -> None:
        """Process the system prompt now (into the KV cache), so the first question is quick."""
        if self.llm is not None:
            self.llm.complete([self.system, {"role": "user", "content": "Ready?"}], max_tokens=1)

    def ask(
        self, *, follow_up_to: Question | None = None, answer: str = "", why: str = ""
    ) -> Iterator[str | Question]:
        """Generate the next question, streaming.

        Args:
            follow_up_to: the question whose answer dodged it, for a follow-up; None for a
                question about a new point of the talk.
            answer: the answer that dodged it (for a follow-up).
            why: why the answer did not address the question (for a follow-up).

        Yields:
            Sentences to speak, as soon as each is ready (a checked lead-in first, then the
            checked question), and last the :class:`Question` record.
        """
        started = time.monotonic()
        if follow_up_to is None:
            kind, focus = "question", self._next_focus()
            prompt = f"Ask about: {focus}"
            asked = self.asked
            grounding = self.transcript
        else:
            kind, focus = "follow_up", follow_up_to.focus
            prompt = (
                f'You asked: "{follow_up_to.text}" The speaker answered: "{answer.strip()}" '
                f"That did not answer it ({why}). Ask ONE short follow-up question that "
                f"presses for a concrete answer about: {focus}"
            )
            asked = [q for q in self.asked if q != follow_up_to.text]
            grounding = self.transcript + " " + follow_up_to.text
        messages = [self.system, {"role": "user", "content": prompt}]
        fallback = fallback_question(focus, self.options.persona, follow_up=kind == "follow_up")
        for item in generate_question(
            self.llm, messages, grounding=grounding, asked=asked, options=self.options,
            fallback=fallback, focus=focus, kind=kind, follow_up_to=follow_up_to,
            started=started,
        ):  # fmt: skip
            if isinstance(item, Question):
                self.asked.append(item.text)
            yield item

    def next_question(self) -> Question:
        """Generate a whole question about a new point (not streamed)."""
        for item in self.ask():
            if isinstance(item, Question):
                return item
        raise AssertionError("Audience.ask ended without a Question")

    def questions(self, n: int) -> Iterator[Question]:
        """``n`` questions in a row."""
        for _ in range(n):
            yield self.next_question()
