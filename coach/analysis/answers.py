"""Did an answer address the question? A transparent judgement from the words alone.

A small LLM is a poor judge of its own conversation, so the audience (and the interviewer)
decide with rules a person can check: an answer that deflects ("I'm not sure", "I'd have
to think about it") without giving anything concrete, one too short to say anything, or
one that shares nothing with the question and gives no specifics, did not address it.
The judgement states what was measured (words, shared terms, specifics, deflections); it
never guesses how the speaker felt.
"""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass, field
from typing import Any

from coach.analysis.script import STOP_WORDS as _SCRIPT_STOP_WORDS
from coach.analysis.script import stem
from coach.transcript import tokens

STOP_WORDS = _SCRIPT_STOP_WORDS | frozenset(
    "thank thanks um uh er ah hm tell one two every each also".split()
)
"""Words that carry no topic (the script analysis's list plus a few; shared with the
audience's key terms and checks)."""

DEFLECTIONS = (
    "not sure", "don't know", "do not know", "no idea", "have to think", "need to think",
    "hard to say", "can't say", "cannot say", "rather not", "get back to you", "not really",
    "haven't thought", "have not thought", "good question", "pass on that", "no comment",
    "can't remember", "don't remember", "depends",
)  # fmt: skip
"""Phrases that put a question off rather than answer it."""

_NUMBER_WORDS = frozenset(
    "two three four five six seven eight nine ten eleven twelve fifteen twenty thirty forty "
    "fifty sixty hundred thousand million percent half dozen".split()
)
_NOT_ACTIONS = frozenset(
    "think guess feel hope believe mean suppose would could might am was don't didn't "
    "can't not".split()
)
_FIRST_PERSON_RE = re.compile(r"\b(?:i|we)\s+([a-z]+(?:ed|t)|[a-z]+)\b")


def content_stems(text: str) -> set[str]:
    """Stems of the topic words of ``text`` (stop words and short words dropped)."""
    return {stem(t) for t in tokens(text) if t not in STOP_WORDS and len(t) > 2}


def specifics(text: str) -> list[str]:
    """Concrete details in ``text``: numbers ("23", "sixty") and first-person actions ("we
    added", "I wrote"), in order of appearance."""
    found: list[str] = []
    toks = tokens(text)
    for t in toks:
        if t[0].isdigit() or t in _NUMBER_WORDS:
            found.append(t)
    for m in _FIRST_PERSON_RE.finditer(" ".join(toks)):
        verb = m.group(1)
        if verb not in _NOT_ACTIONS and verb not in STOP_WORDS:
            found.append(m.group(0))
    return found


@dataclass(frozen=True)
class AnswerJudgement:
    """Whether an answer addressed its question, and the evidence."""

    addressed: bool
    """True if the answer engaged with the question."""
    verdict: str
    """addressed, partial (on the topic, not what was asked), off_topic, dodged, or
    no_answer."""
    reason: str
    """One line a person can check, e.g. "deflected ("not sure") with nothing specific"."""
    words: int
    """Words in the answer."""
    shared_terms: list[str] = field(default_factory=list)
    """Topic stems the answer shares with the question."""
    specifics: list[str] = field(default_factory=list)
    """Numbers and first-person actions in the answer."""
    deflections: list[str] = field(default_factory=list)
    """Deflecting phrases in the answer."""

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready."""
        return asdict(self)


def judge_answer(
    question: str, answer: str, *, min_words: int = 8, context: str = "", llm: Any = None
) -> AnswerJudgement:
    """Judge whether ``answer`` addressed ``question`` (pure; see the module docstring).

    Args:
        question: the question as asked.
        answer: the answer's transcript (fillers may be left in).
        min_words: fewer words than this cannot answer a question.
    """
    toks = [t for t in tokens(answer) if t not in ("um", "uh", "er", "ah", "hm", "mm")]
    text = " ".join(toks)
    shared = sorted(content_stems(question) & content_stems(answer))
    found = specifics(answer)
    dodges = [d for d in DEFLECTIONS if re.search(rf"\b{re.escape(d)}\b", text)]
    n = len(toks)

    def verdict(addressed: bool, reason: str) -> AnswerJudgement:
        kind = "addressed" if addressed else ("dodged" if dodges else "off_topic")
        return AnswerJudgement(addressed, kind, reason, n, shared, found, dodges)

    if n == 0:
        return verdict(False, "no answer was heard")
    if dodges and not found:
        return verdict(False, f"deflected ({dodges[0]!r}) with nothing specific")
    if n < min_words:
        return verdict(False, f"too short to answer ({n} words)")
    if not shared and not found:
        return verdict(False, "shared no terms with the question and gave no specifics")
    detail = []
    if shared:
        detail.append("picked up " + ", ".join(shared[:3]))
    if found:
        detail.append("gave specifics (" + ", ".join(found[:3]) + ")")
    return verdict(True, "; ".join(detail))
