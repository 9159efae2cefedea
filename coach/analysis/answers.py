"""Did an answer address the question? A transparent judgement from the words alone.

A small LLM is a poor judge of its own conversation, so the audience (and the interviewer)
decide with rules a person can check: an answer that deflects ("I'm not sure", "I'd have
to think about it") without giving anything concrete, one too short to say anything, or
one that shares nothing with the question and gives no specifics, did not address it.
The judgement states what was measured (words, shared terms, specifics, deflections); it
never guesses how the speaker felt.
"""

from __future__ import annotations

import functools
import json
import math
import re
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any

from coach.text import NUMBER_STEMS, NUMBER_WORDS, stem, tokens
from coach.text import TOPIC_STOP_WORDS as STOP_WORDS

VERDICTS = ("addressed", "partial", "off_topic", "dodged", "no_answer")
"""Every verdict :func:`judge_answer` gives."""

JUDGE_FILE = Path(__file__).with_name("answer_judge.json")
"""The weights that combine the rules' evidence with a judge model's odds (written by
``bench/train_judge.py`` from the dev pairs)."""

DEFLECTIONS = (
    "not sure", "don't know", "do not know", "no idea", "have to think", "need to think",
    "hard to say", "can't say", "cannot say", "rather not", "get back to you", "not really",
    "haven't thought", "have not thought", "good question", "pass on that", "no comment",
    "can't remember", "don't remember", "depends",
)  # fmt: skip
"""Phrases that put a question off rather than answer it."""

_NOT_ACTIONS = frozenset(
    "think guess feel hope believe mean suppose would could might am was don't didn't "
    "can't not".split()
)
_FIRST_PERSON_RE = re.compile(r"\b(?:i|we)\s+([a-z]+(?:ed|t)|[a-z]+)\b")


@dataclass(frozen=True)
class Relevance:
    """How much hearing the question makes the answer likelier to a language model: the
    answer's log-probability after the situation and the question, less its
    log-probability after the situation alone (pointwise mutual information), in nats.

    An answer that gives what was asked follows from its question; a dodge, an aside or
    an answer to another question is about as likely without it. On the dev pairs of
    ``bench/data`` this gain separates addressed answers from the rest with a ROC AUC of
    0.76-0.79 (Qwen2.5-Coder-1.5B), and adds to the yes-or-no odds of
    :meth:`coach.judging.AnswerJudge.support` (``bench/results/judge_fit.json``).
    """

    per_token_nats: float
    """Mean gain per answer token."""
    total_nats: float
    """Summed gain over the answer's tokens."""

    @classmethod
    def from_logprobs(cls, with_question: list[float], without: list[float]) -> Relevance:
        """From the answer's per-token log-probabilities with and without the question
        (the same tokens; where one reading stopped sooner, the tokens both scored count;
        an empty answer gains nothing)."""
        gains = [a - b for a, b in zip(with_question, without, strict=False)]
        total = sum(gains)
        return cls(total / len(gains) if gains else 0.0, total)


def content_stems(text: str, *, stop: frozenset[str] = STOP_WORDS) -> set[str]:
    """Stems of the topic words of ``text`` (``stop`` words and short words dropped)."""
    return {stem(t) for t in tokens(text) if t not in stop and len(t) > 2}


def specifics(text: str) -> list[str]:
    """Concrete details in ``text``: numbers ("23", "sixty") and first-person actions ("we
    added", "I wrote"), in order of appearance."""
    found: list[str] = []
    toks = tokens(text)
    for t in toks:
        if t[0].isdigit() or t in NUMBER_WORDS:
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
    support: float | None = None
    """The judge model's probability (0-1) that the answer gave what was asked; None when
    the answer was judged by its words alone."""

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready."""
        return asdict(self)


_WANTS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("an amount", re.compile(
        r"\bhow (?:many|much|long|often|big|far|soon|fast)\b|\bwhat (?:percentage|share|"
        r"proportion)\b|\b(?:cost|price|spend|budget|pay|afford|salary|expect(?:ing)?)\b")),
    ("a time", re.compile(r"^(?:so |and |but )?when\b|\bby when\b|\bhow soon\b|\btimeline\b|"
                          r"\bdeadline\b|\band when\b")),
    ("who", re.compile(
        r"^(?:so,? |and )?who\b|\bwho (?:[a-z]+s|will|would|is|are|should|can)\b")),
    ("a place", re.compile(r"^(?:so,? |and |but )?where\b(?!.*\bcome from\b)")),
    ("a reason", re.compile(
        r"^(?:so,? |and |but )?(?:why|how come)\b|\bwhat (?:made|makes|caused)\b")),
    ("how it was found", re.compile(
        r"\bhow (?:did|do|was|were|will|would) (?:you|they|we|it)?\s*(?:\w+ )?(?:measure|count|"
        r"know|test|find|track|check|collect|run|calculate|estimate|survey|get)|\bbased on\b|"
        r"\bevidence\b|\bwhere does\b.*\bcome from\b|\bhow was\b.*\b(?:run|done|measured|"
        r"counted|chosen)\b|\bmethod")),
    ("an example", re.compile(
        r"\bexample\b|\btell me about a time\b|\ba time (?:when|you)\b|\bdescribe a\b|"
        r"\bwalk me through\b|\binstance\b|\bstory\b")),
    ("what happens", re.compile(r"\bwhat (?:happens|would happen|if)\b|\bwhat do you do\b|"
                                r"\bwhat does .* do\b|\bhow (?:would|will|do) you\b")),
)  # fmt: skip
"""What kind of answer a question asks for, by its wording (first match wins)."""

_GIVES: dict[str, re.Pattern[str]] = {
    "an amount": re.compile(
        r"\d|\b(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|"
        r"twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|hundred|thousand|million|"
        r"billion|dozen|half|quarter|third|couple|few|several|most|all|none|nothing|free|"
        r"percent|dollars?|pounds?|euros?|pence|cents?|hours?|minutes?|days?|weeks?|months?|"
        r"years?|cheap|expensive)\b"
    ),
    "a time": re.compile(
        r"\d|\b(?:january|february|march|april|may|june|july|august|september|october|"
        r"november|december|spring|summer|autumn|fall|winter|monday|tuesday|wednesday|"
        r"thursday|friday|saturday|sunday|today|tomorrow|tonight|week|weeks|month|months|"
        r"year|years|day|days|soon|next|after|before|until|by|already|now|quarter)\b"
    ),
    "who": re.compile(
        r"\b(?:i|we|me|us|they|they'd|they'll|i'd|we'd|"
        r"the (?:council|board|team|committee|manager|head|director|"
        r"school|city|department|office|leadership|staff|teachers|students|parents|"
        r"customers)|my (?:manager|boss|team)|nobody|everyone|nobody|whoever|[a-z]+ team)\b"
    ),
    "a place": re.compile(
        r"\b(?:on|at|in|behind|next to|near|beside|opposite|inside|outside|corner|street|"
        r"road|room|building|floor|site|ground|centre|center|side|end|upstairs|downstairs)\b"
    ),
    "a reason": re.compile(
        r"\b(?:mostly|mainly|partly|largely|it's the|it is the|we think|the main|"
        r"because|since|so that|so|due to|the reason|that's why|that is why|caused|"
        r"causes|led to|leads to|means|meant|otherwise|in order to|to avoid|to make|"
        r"thanks to|as a result|which is why)\b"
    ),
    "how it was found": re.compile(
        r"\b(?:measured|measure|counted|count|counter|counters|survey|surveyed|data|records?|"
        r"logs?|logged|tracked|track|compared|comparing|comparison|study|studies|asked|"
        r"sample|observed|sensors?|form|questionnaire|interviews?|interviewed|tested|test|"
        r"checked|looked at|went through|pulled|spreadsheet|numbers from|came from|comes "
        r"from|from the|based on|audit|timed|weighed|clicker)\b"
    ),
    "an example": re.compile(
        r"\b(?:once|last (?:year|month|week|spring|summer|autumn|winter|time)|one time|for "
        r"example|for instance|when i|when we|at my|in my last|a few (?:weeks|months|years) "
        r"ago|there was|yesterday|i (?:\w+ed|did|found|saw|made|built|wrote|took|told|"
        r"went|got|ran|led|set|had|asked|fixed|traced|kept|put|brought|sent|gave|spoke|"
        r"caught|chose|felt|knew|left|met|paid|sold|taught|thought|won))\b"
    ),
    "what happens": re.compile(
        r"\b(?:then|would|we'd|i'd|they'd|it'd|will|we'll|i'll|they'll|it'll|first|start|"
        r"starts|stay|stays|keep|keeps|go|goes|get|gets|move|moves|fall back|switch|use|"
        r"uses|hold|holds|let|lets|ask|asks|check|route|routed|call|send|leave|leaves)\b"
    ),
}
"""Words that give each kind of answer."""

_YES_NO = re.compile(
    r"^(?:so,? |and |but )?(?:is|are|was|were|do|does|did|would|will|can|could|should|has|"
    r"have|had|wouldn't|won't|isn't|aren't|doesn't|don't|didn't|couldn't|shouldn't)\b",
    re.I,
)
_STANCE = re.compile(
    r"\b(?:yes|yeah|yep|no|nope|not|never|isn't|aren't|wasn't|weren't|won't|doesn't|don't|"
    r"didn't|can't|couldn't|wouldn't|probably|likely|unlikely|definitely|certainly|"
    r"partly|mostly|depends|maybe|some|might|sure|absolutely|quite|actually|exactly|"
    r"true|false|right|wrong|agree|doubt)\b"
)

_MORE_DEFLECTIONS = (
    "have to check", "need to check", "i'll check", "we'll see", "wait and see",
    "take it from there", "keep an eye on", "take that offline", "another conversation",
    "another time", "get into that", "go into that", "rather not", "can't think of",
    "off the top of my head", "more interested in", "not the right time", "too early to say",
    "hard to put a figure", "lots of moving parts", "that's a great question",
    "great question", "it's complicated", "it's a long story",
)  # fmt: skip


_DEFLECTING = re.compile(
    r"\b(?:i'd|i would|i'll|i will|we'd|we would)\s+(?:rather|prefer|hate to|not want to|"
    r"want to be careful|leave|keep (?:us|the focus|it))\b"
    r"|\bnot (?:going|able|in a position|the person|the right person) to (?:speculate|say|"
    r"comment|share|go into|answer|speak)\b"
    r"|\bwouldn't want to\b|\bspeak (?:for|to) (?:them|that)\b|\b(?:one|that's one|a question) "
    r"for (?:the|our|my) [a-z ]{1,30}(?:rather than me|to answer|to speak to|team)\b"
    r"|\b(?:let's|we'll|we will|we'd) (?:see|wait|learn|find out|have to see)\b|\bas we go\b"
    r"|\bcomes back\b|\bwhen there's something to share\b|\b(?:best|better) (?:discussed|"
    r"left|kept)\b|\btoo early\b|\bhard to say\b|\bsorted out\b|\bmoving parts\b"
    r"|\bput a (?:number|figure) on\b|\bcan't (?:go into|share|say|comment)\b"
)
"""How a deflection is built, beyond the fixed phrases: declining ("I'd rather keep the
focus..."), handing off ("that's one for the parks team rather than me"), putting off
("let's see what comes back"), refusing to speculate."""

_ASIDE = re.compile(
    r"\bmy (?:daughter|son|kids?|children|dog|cat|brother|sister|dad|mum|mom|mother|father|"
    r"partner|wife|husband|family|neighbou?r|friend)\b|\b(?:the|this|last) weekend\b|"
    r"\bthis morning\b|\bspeaking of\b|\bbefore i forget\b|\bdid anyone (?:else )?see\b|"
    r"\bfunny\b|\bat the moment i'm\b|\bi'm (?:really |particularly )?into\b|\bholiday\b"
)
"""Signs of a personal aside (family, pets, the weekend): an answer made of them is about
something else, whatever word it shares with the question."""


def wanted(question: str) -> str:
    """What kind of answer ``question`` asks for ("an amount", "a reason", ...), or "" for
    an open question (pure)."""
    q = " ".join(tokens(question))
    for name, pattern in _WANTS:
        if pattern.search(q):
            return name
    if _YES_NO.match(question.strip()):
        return "yes or no"
    return ""


def gives(answer: str, kind: str, question: str = "") -> bool:
    """Whether ``answer`` gives the kind of answer ``kind`` names (pure). Words the
    question itself used do not count ("How was the survey run?" is not answered by
    "the survey was interesting")."""
    text = " ".join(tokens(answer))
    asked = set(tokens(question))
    if kind == "yes or no":
        pattern = _STANCE
        return any(m.group(0) not in asked for m in _STANCE.finditer(text)) or any(
            m.group(0) not in asked for m in _GIVES["a reason"].finditer(text)
        )
    pattern = _GIVES.get(kind)
    if pattern is None:
        return True
    return any(not set(m.group(0).split()) <= asked for m in pattern.finditer(text))


def topic_overlap(a: str, b: str) -> list[str]:
    """Topic stems two texts share (numbers left out; two long words sharing their first
    four letters count: "decides" and "decision")."""
    sa = {t for t in content_stems(a) if t not in NUMBER_STEMS and not t[0].isdigit()}
    sb = {t for t in content_stems(b) if t not in NUMBER_STEMS and not t[0].isdigit()}
    shared = sa & sb
    long_b = {t[:4]: t for t in sb if len(t) >= 5}
    shared |= {t for t in sa if len(t) >= 5 and t[:4] in long_b}
    return sorted(shared)


def judge_answer(
    question: str, answer: str, *, min_words: int = 8, context: str = "",
    support: float | None = None, on_subject: float | None = None,
    relevance: Relevance | None = None, weights: dict[str, Any] | None = None,
) -> AnswerJudgement:  # fmt: skip
    """Judge whether ``answer`` addressed ``question`` (pure; see the module docstring).

    The verdict is one of:

    * ``dodged``: a deflection ("I'd have to check", "we'll see") with nothing of the kind
      the question asks for;
    * ``off_topic``: no topic word shared with the question or its context (the claim the
      question was about, the talk) and nothing of the kind asked for;
    * ``partial``: on the topic, but without the kind of answer the question asks for (an
      amount, a time, who, a reason, how it was found, an example, what happens);
    * ``addressed`` otherwise.

    Args:
        question: the question as asked.
        answer: the answer's transcript (fillers may be left in).
        min_words: a shorter answer that gives nothing asked for is too short.
        context: what the question was about (the claim, or the talk), for relevance.
        support: a judge model's probability that the answer gave what was asked
            (:meth:`coach.judging.AnswerJudge.support`), or None to judge by the words
            alone. With it, the rules' evidence and the model's odds are weighed by the
            logistic model in ``answer_judge.json`` (fitted on the dev pairs only).
        on_subject: the judge model's probability that the answer is about the question's
            subject at all; for an answer that missed, it tells off the topic (below
            ``on_subject_below`` in ``answer_judge.json``) from partial, unless the answer
            deflected.
        relevance: how much the question made the answer likelier to the judge model
            (:meth:`coach.judging.AnswerJudge.relevance`), weighed with ``support``; None
            counts as the dev pairs' median gain (``typical_gain`` in ``answer_judge.json``).
        weights: the fitted weights to use instead of ``answer_judge.json``'s (fitting).
    """
    judged, evidence = _by_rules(question, answer, min_words=min_words, context=context)
    if support is None or judged.verdict == "no_answer":
        return judged
    weights = weights or _judge_weights()
    if relevance is None and "typical_gain" in weights:
        relevance = Relevance(**weights["typical_gain"])
    p = _logistic(weights, judge_features(evidence, support, relevance))
    said = f"the judge model gives {support:.0%} that it answered"
    if p >= weights["threshold"]:
        if judged.addressed:
            return replace(judged, support=support, reason=f"{judged.reason}; {said}")
        return replace(judged, addressed=True, verdict="addressed", support=support,
                       reason=f"{said}, though by the words alone: {judged.reason}")  # fmt: skip
    if judged.addressed:
        kind = "dodged" if judged.deflections else "partial" if evidence["topic"] else "off_topic"
        judged = replace(judged, addressed=False, verdict=kind,
                         reason=f"{said}, too few to count it ({judged.reason})")  # fmt: skip
    else:
        judged = replace(judged, reason=f"{judged.reason}; {said}")
    if on_subject is not None and judged.verdict in ("partial", "off_topic"):
        kind = "off_topic" if on_subject < weights["on_subject_below"] else "partial"
        judged = replace(judged, verdict=kind, reason=f"{judged.reason}; {on_subject:.0%} "
                         "that it is about the question's subject")  # fmt: skip
    return replace(judged, support=support)


def judge_features(
    evidence: dict[str, float], support: float, relevance: Relevance | None = None
) -> dict[str, float]:
    """The features the fitted judge weighs (pure): the rules' verdict, their evidence,
    the model's log-odds (divided by 5 to keep the scales alike) and, when measured, the
    question's gain in the answer's likelihood (per token, and in total divided by 10)."""
    p = min(max(support, 1e-4), 1 - 1e-4)
    gain = relevance or Relevance(0.0, 0.0)
    return {**evidence, "model_log_odds": math.log(p / (1 - p)) / 5,
            "gain_per_token": gain.per_token_nats, "gain_total": gain.total_nats / 10}  # fmt: skip


def _logistic(weights: dict[str, Any], features: dict[str, float]) -> float:
    z = weights["bias"] + sum(w * features.get(k, 0.0) for k, w in weights["weights"].items())
    return 1 / (1 + math.exp(-z))


@functools.cache
def _judge_weights() -> dict[str, Any]:
    return json.loads(JUDGE_FILE.read_text())


def _by_rules(
    question: str, answer: str, *, min_words: int, context: str
) -> tuple[AnswerJudgement, dict[str, float]]:
    """The judgement from the words alone, and the evidence it rests on as numbers (the
    verdict one-hot, deflections, the kind asked for and whether it was given, shared
    topic words, length and specifics), for :func:`judge_features`."""
    toks = [t for t in tokens(answer) if t not in ("um", "uh", "er", "ah", "hm", "mm")]
    text = " ".join(toks)
    shared = sorted(content_stems(question) & content_stems(answer))
    topic = topic_overlap(f"{question} {context}", answer)
    found = specifics(answer)
    dodges = [d for d in (*DEFLECTIONS, *_MORE_DEFLECTIONS)
              if re.search(rf"\b{re.escape(d)}\b", text)]  # fmt: skip
    dodges += [m.group(0) for m in _DEFLECTING.finditer(text)]
    asides = [m.group(0) for m in _ASIDE.finditer(text)]
    asks = wanted(question)
    gave = gives(answer, asks, question) if asks else bool(found or topic)
    n = len(toks)

    def verdict(kind: str, reason: str) -> tuple[AnswerJudgement, dict[str, float]]:
        evidence = {f"rules_{v}": float(kind == v) for v in VERDICTS[:4]}
        evidence |= {
            "deflects": float(bool(dodges)), "asks_a_kind": float(bool(asks)),
            "gave_that_kind": float(bool(asks) and gave), "topic": min(len(topic), 4) / 4,
            "log_words": math.log1p(n) / 4, "specifics": min(len(found), 4) / 4,
        }  # fmt: skip
        judged = AnswerJudgement(kind == "addressed", kind, reason, n, shared, found, dodges)
        return judged, evidence

    if n == 0:
        return verdict("no_answer", "no answer was heard")
    if dodges and not (topic and (gave if asks else found)):
        return verdict("dodged", f"deflected ({dodges[0]!r}) without giving "
                       f"{asks or 'an answer'}")  # fmt: skip
    if asides and not (asks and gave and found):
        return verdict("off_topic", f"a personal aside ({asides[0]!r}), not an answer")
    if not topic and not (asks and gave):
        return verdict("off_topic", "shared no topic word with the question or what it was "
                       "about")  # fmt: skip
    if n < min_words and not (asks and gave):
        return verdict("partial", f"too short to answer ({n} words)")
    if asks and not gave:
        return verdict("partial", f"on the topic, but did not give {asks}")
    detail = [f"gave {asks}"] if asks else []
    if topic:
        said = {}  # each shared stem as the answer said it ("minutes", not "minut")
        for t in toks:
            said.setdefault(stem(t), t)
        detail.append("picked up " + ", ".join(said.get(t, t) for t in topic[:3]))
    if found:
        detail.append("specifics (" + ", ".join(found[:3]) + ")")
    return verdict("addressed", "; ".join(detail))
