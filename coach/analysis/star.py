"""Content feedback on interview answers: STAR coverage, specificity, vagueness and length.

Behavioural questions ("Tell me about a time when...") are best answered with a short story
in four parts (STAR): the **situation**, the speaker's **task**, the **actions** they took and
the **result**. :func:`feedback` checks an answer's transcript for each part with cue
phrases and a tense/person heuristic, scores how specific it is, says whether it is vague and
why, and compares its length with a target for the kind of question. Everything is read from
the words alone (no model), so every verdict can be checked against the answer:

* The answer is split into sentences at ``.`` ``?`` ``!``; a sentence longer than
  :attr:`StarOptions.max_sentence_words` (typical of unpunctuated recogniser output) is cut
  into clauses before "and", "so", "but", "then"... Fillers (um, you know, kind of...) are
  dropped with :func:`coach.analysis.fillers.tag_fillers` before the cues are matched.
* Questions the candidate asks ("...?") and hypothetical sentences ("I would...", "I'd
  probably...", with no past-tense action) count for no part.
* **Situation**: :data:`SITUATION_CUES` or a time/place anchor (:data:`ANCHOR_CUES`), in a
  sentence up to the first action (context comes first).
* **Task**: :data:`TASK_CUES` ("I was responsible", "my job was", "the goal was"...).
* **Action**: "I" followed (at most two adverbs later) by a past-tense verb: a regular
  "-ed" form or one of :data:`IRREGULAR_PAST`, minus :data:`NOT_ACTIONS` ("I was", "I
  felt"). "We ..." actions count for specificity at :attr:`StarOptions.we_action_weight`
  but not for the action part: the interviewer wants what the candidate did.
* **Result**: :data:`RESULT_PHRASES` anywhere ("as a result", "in the end"); outcome verbs
  (:data:`RESULT_VERBS`), percentages and changes "from X to Y" in or after the first
  action sentence; a number with a unit (:data:`RESULT_UNITS`) after it. When there is no
  action at all these count in the second half of the answer only.

**Specificity** (0..1) counts concrete details: distinct numbers (as
:func:`coach.analysis.answers.specifics` finds them, "23", "sixty"), named things (capitalised
words inside a sentence, acronyms: "Postgres", "API"), time/place anchors and "I" actions,
plus "we" actions at a lower weight; per 100 words (at least
:attr:`StarOptions.specificity_floor_words`), divided by
:attr:`StarOptions.full_specificity_per_100`, capped at 1.

An answer is **vague** when any of these holds, each listed in ``vague_reasons``: it is
shorter than :attr:`StarOptions.min_words` for its kind and has no number or first-person
action (a short, concrete answer is only short); it has no number, named thing or
first-person action; it deflects (:data:`coach.analysis.answers.DEFLECTIONS`) with no number
or "I" action; it is only hypothetical while the question asks for a real time (behavioural
kinds, or :data:`PAST_QUESTION_CUES`); a behavioural answer has no result; or it is thick
with hedges (:data:`HEDGE_CUES`).

Feedback states what was said and measured; it never guesses how the candidate felt.
"""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass, field
from typing import Any

from coach.analysis.answers import STOP_WORDS, judge_answer, specifics
from coach.analysis.fillers import lexical_words, tag_fillers
from coach.errors import OptionsError
from coach.text import HEDGE_CUES, abbreviated, tokens
from coach.transcript import Word, split_words

PARTS = ("situation", "task", "action", "result")
"""The four STAR parts, in the order a story tells them."""

KINDS = ("behavioral", "technical", "opener", "closing")
"""Question kinds :class:`StarOptions` has targets for."""

_KIND_LABELS = {
    "behavioral": "behavioural",
    "technical": "technical",
    "opener": "opening",
    "closing": "closing",
}
_KIND_ALIASES = {"behavioural": "behavioral", "opening": "opener", "close": "closing"}

# --- cue patterns ---------------------------------------------------------------------------
# Every pattern is a regular expression matched against the lower-case tokens of one
# sentence joined by single spaces, fillers dropped ("um, I kind of wrote it" -> "i wrote
# it"), with "%" read as " percent". Patterns are whole words: "(?<![\w'])" and "(?![\w'])"
# are added around each one.

_JOB = (
    r"(?:job|company|startup|role|employer|internship|placement|team|workplace|firm|agency|"
    r"bank|school|university|college|uni|club|office|store|shop|restaurant|hospital|lab)"
)

ANCHOR_CUES: tuple[str, ...] = (
    r"(?:last|this|that|next) (?:year|month|week|summer|spring|autumn|fall|winter|quarter|"
    r"sprint|semester|term|weekend)",
    r"(?:that|the same|the next|the following|one) (?:day|morning|afternoon|evening|night|week)",
    r"(?:19|20)\d\d",
    r"(?:january|february|march|april|june|july|august|september|october|november|december)",
    r"(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)",
    r"\w+ (?:years?|months?|weeks?|days?) (?:ago|away|before)",
    r"(?:yesterday|overnight)",
    rf"(?:at|in|with) (?:my|our|the|a|an) (?:\w+ )?{_JOB}(?:'s)?",
    r"(?:in|during) (?:my|our|the) (?:first|second|third|fourth|final|last) "
    r"(?:year|month|week|day|semester|term|sprint|job|role)",
    r"(?:during|in) (?:my|our|the) (?:internship|placement|degree|masters|phd|apprenticeship)",
    r"at (?:university|college|school|uni|work)",
    r"q[1-4]",
)
"""Time and place anchors ("last year", "in 2021", "one Friday", "at my last job"): they set
the scene and count as specifics."""

SITUATION_CUES: tuple[str, ...] = (
    r"(?:when|while|back when) (?:i|we) (?:was|were|worked|joined|started|had)",
    r"i (?:worked|was working|was interning|interned) (?:at|for|as|in|on)",
    r"i was (?:a|an|the)(?= (?!bit |little |lot )\w)",
    r"(?:our|my) (?:team|company|department|manager|lead|boss|client|customer|project|"
    r"product|startup|group|class|app|website|site|service|system|course)",
    r"the (?:project|company|client|customer|context|background)",
    r"there (?:was|were)",
    r"we (?:had|were) (?:a|an|this|one|two|three|some|about|only)",
    r"(?:at|around) the time",
    r"(?:one|this) time",
    r"back (?:then|in)",
    r"a (?:passenger|patient|customer|client|colleague|coworker|student|user|teammate) "
    r"(?:called|came|complained|asked|wanted|needed|had|was)",
    r"years of experience",
    r"i've (?:been|worked) (?:at|with|for|in)",
    r"the situation was",
)
"""Context setting ("when I was", "our team", "there was", "the project"); any of
:data:`ANCHOR_CUES` counts too."""

TASK_CUES: tuple[str, ...] = (
    r"i was (?:responsible|in charge|tasked|asked|assigned|supposed|expected|brought in|hired)",
    r"responsible for",
    r"in charge of",
    r"(?:my|our) (?:job|role|task|responsibility|goal|aim|brief|assignment|mission|"
    r"objective|priority) (?:was|is)",
    r"(?:the|our) (?:goal|aim|objective|task|challenge|problem|priority|deadline|target|"
    r"ask|issue) (?:was|were)",
    r"(?:i|we) (?:had|wanted|was trying|were trying|was hoping) to",
    r"(?:i|we) needed",
    r"it was (?:my|our) (?:job|responsibility|role|task)",
    r"had to be",
    r"(?:asked|wanted|needed|told) (?:me|us) to",
    r"it was (?:up to|on) (?:me|us)",
    r"deadline",
)
"""The speaker's responsibility, goal or problem ("I was responsible", "my job was",
"I needed to", "the goal was", "had to")."""

RESULT_PHRASES: tuple[str, ...] = (
    r"as a result",
    r"in the end",
    r"(?:at|by) the end(?! of the day)",
    r"(?:which|that|this|it) (?:led|lead) to",
    r"resulted in",
    r"the (?:result|outcome|impact) (?:was|were)",
    r"ended up",
    r"since then",
    r"ever since",
    r"from then on",
    r"to this day",
    r"(?:worked|turned|played) out",
    r"(?:it|that|this) worked",
    r"went (?:well|smoothly|fine|great)",
    r"got (?:better|faster|easier|approved|promoted|fixed|resolved|signed)",
    r"paid off",
    r"(?:on|ahead of) (?:time|schedule)",
    r"under budget",
    r"made it (?:to|on|in|through)",
    r"thank(?:ed)? (?:me|us|the team)",
    r"haven't (?:had|seen)",
    r"never (?:had|saw|happened)",
)
"""Outcome phrases, counted anywhere ("as a result", "in the end", "which led to")."""

RESULT_VERBS: tuple[str, ...] = (
    r"reduced|increased|saved|improved|launched|shipped|doubled|halved|tripled|grew|dropped|"
    r"fell|rose|won|exceeded|beat|boosted|lowered|recovered|retained|renewed|released|"
    r"delivered|finished|completed|passed|approved|signed|adopted",
    r"went (?:down|up|from|to|live)",
    r"so we \w+ed",
    r"(?:percent|per cent)",
    r"from (?:about |around |over |under |roughly )?# (?:\w+ )?(?:down |up )?to "
    r"(?:about |around |over |under |roughly |just |only )?#",
)
"""Outcomes counted in or after the first action sentence: "reduced", "launched", "went
down", "so we shipped", a percentage, a change "from 20 to 5" ("#" stands for any number,
as :func:`coach.analysis.answers.specifics` finds them)."""

RESULT_UNITS: tuple[str, ...] = (
    "percent", "ms", "milliseconds", "seconds", "minutes", "hours", "days", "weeks", "months",
    "years", "users", "customers", "clients", "people", "students", "volunteers", "tickets",
    "bugs", "errors", "incidents", "requests", "queries", "points", "dollars", "pounds",
    "euros", "k", "x",
)  # fmt: skip
"""A number followed by one of these ("40 minutes", "300 users") after the first action
sentence is a measured result."""

IRREGULAR_PAST = frozenset(
    """
    built rebuilt wrote rewrote made remade took led ran set sent spoke met found went began
    brought taught sat told chose drew gave kept held put broke split paid bought sold drove
    flew fought caught dealt shut spent stood left threw sought laid lent oversaw undertook
    overcame won did redid said rang cut hit withdrew forgave forbade upheld
    """.split()
)
"""Irregular past-tense verbs that are actions after "I" ("I built", "I wrote")."""

NOT_ACTIONS = frozenset(
    """
    was were had felt thought knew wanted needed liked loved hated hoped wished wondered
    assumed believed used guessed meant seemed got became joined noticed realised realized
    remembered forgot learned learnt enjoyed heard saw understood supposed expected owned
    need feed speed bleed red bed shed
    """.split()
)
"""Past forms after "I" that are states, thoughts or context, not actions ("I was", "I
felt"); also words ending in "ed" that are not past tense ("need")."""

CONTEXT_AFTER = {"worked": frozenset("at for as in there".split())}
"""Verbs that set the scene, not act, before these words ("I worked at a bank" is context,
"I worked late" an action)."""

ACTION_ADVERBS = frozenset(
    """
    then also just quickly first finally eventually personally immediately actually really
    even still later soon essentially initially ultimately already basically myself
    """.split()
)
"""Adverbs allowed between "I" and its verb ("I then wrote", "I quickly set up")."""

HYPOTHETICAL_CUES: tuple[str, ...] = (
    r"(?:i|we|you) (?:would|could|might|will|should)",
    r"(?:i'd|we'd|you'd|i'll|we'll|you'll)",
    r"if (?:i|we) (?:was|were|had)",
    r"whenever (?:i|we)",
)
"""A sentence with one of these and no past-tense action is hypothetical."""

PAST_QUESTION_CUES: tuple[str, ...] = (
    r"a time",
    r"an example",
    r"an instance",
    r"(?:describe|tell me about|walk me through) (?:a|the|one) (?:situation|project|case)",
    r"have you (?:ever|worked|had|led|managed|dealt|used|been)",
    r"when (?:was the last time|did you)",
    r"tell me about when",
)
"""Questions that ask for a real past experience; a hypothetical answer misses them."""

CLAUSE_STARTS = frozenset("and so but because then which when while after until since".split())
"""Words a long unpunctuated sentence is cut before (see :attr:`StarOptions.max_sentence_words`)."""

_SELF = frozenset("i i'm i'd i've i'll".split())
_STOP_NOT_PAST = STOP_WORDS - IRREGULAR_PAST  # "i did" is an action, "i had" is not
_MONTHS_DAYS = frozenset(
    """january february march april may june july august september october november december
    monday tuesday wednesday thursday friday saturday sunday""".split()
)


def _compile(patterns: tuple[str, ...]) -> list[re.Pattern[str]]:
    return [re.compile(rf"(?<![\w'])(?:{p})(?![\w'])") for p in patterns]


_SITUATION_RE = _compile(SITUATION_CUES + ANCHOR_CUES)
_ANCHOR_RE = _compile(ANCHOR_CUES)
_TASK_RE = _compile(TASK_CUES)
_RESULT_PHRASE_RE = _compile(RESULT_PHRASES)
_RESULT_VERB_RE = _compile(RESULT_VERBS)
_HYPOTHETICAL_RE = _compile(HYPOTHETICAL_CUES)
_PAST_QUESTION_RE = _compile(PAST_QUESTION_CUES)
_HEDGE_RE = _compile(HEDGE_CUES)
_UNIT_RE = re.compile(rf"(?<![\w'])# (?:{'|'.join(RESULT_UNITS)})(?![\w'])")
_MONEY_RE = re.compile(r"[$£€]\s?\d")


@dataclass(frozen=True)
class StarOptions:
    """Targets and thresholds of answer feedback, by question kind."""

    targets_s: dict[str, tuple[float, float]] = field(
        default_factory=lambda: {
            "behavioral": (60.0, 120.0),
            "technical": (30.0, 120.0),
            "opener": (20.0, 60.0),
            "closing": (15.0, 60.0),
        }
    )
    """Answer length (seconds) that lands best, (shortest, longest), by question kind.
    Common interview coaching advice: a STAR story in one to two minutes, a "tell me about
    yourself" in under a minute."""
    min_words: dict[str, int] = field(
        default_factory=lambda: {"behavioral": 40, "technical": 25, "opener": 15, "closing": 8}
    )
    """Fewer words than this (fillers not counted) is too short for the kind of question;
    40 words is about 20 s of speech at 130 words per minute."""
    star_kinds: tuple[str, ...] = ("behavioral",)
    """Kinds whose answers should tell a STAR story: only these get messages for missing
    parts and count a missing result as vague."""
    max_sentence_words: int = 30
    """A sentence longer than this (words) is cut into clauses before "and", "so", "but"...
    (unpunctuated recogniser output is one long sentence)."""
    min_clause_words: int = 6
    """A clause cut from a long sentence has at least this many words."""
    we_action_weight: float = 0.5
    """Weight of a "we ..." action in the specificity score ("I ..." actions weigh 1)."""
    specificity_floor_words: int = 50
    """Specifics are counted per 100 words of at least this many words, so a ten-word
    answer with one number does not score as very specific."""
    full_specificity_per_100: float = 8.0
    """Specifics per 100 words that score 1.0 (about one concrete detail every 12 words)."""
    low_specificity: float = 0.25
    """Below this specificity score (0..1) the feedback asks for a concrete detail."""
    hedge_min_count: int = 3
    """An answer with at least this many hedges ("kind of", "stuff") ..."""
    hedge_per_100: float = 4.0
    """... and at least this many per 100 words is vague."""

    def __post_init__(self) -> None:
        for kind, (lo, hi) in self.targets_s.items():
            if not 0 <= lo < hi:
                raise OptionsError(
                    f"answer target for {kind!r} needs 0 <= shortest < longest (seconds), "
                    f"got {lo} and {hi}"
                )
        for kind in set(self.min_words) ^ set(self.targets_s):
            raise OptionsError(
                f"answer kind {kind!r} needs both a target (targets_s) and min_words"
            )
        if self.max_sentence_words < 2 * self.min_clause_words or self.min_clause_words < 1:
            raise OptionsError(
                "max_sentence_words must be at least twice min_clause_words (>= 1), got "
                f"{self.max_sentence_words} and {self.min_clause_words}"
            )
        if not 0 <= self.we_action_weight <= 1:
            raise OptionsError(f"we_action_weight must be in [0, 1], not {self.we_action_weight}")
        if self.full_specificity_per_100 <= 0 or self.specificity_floor_words < 1:
            raise OptionsError(
                "full_specificity_per_100 must be > 0 and specificity_floor_words >= 1"
            )

    @classmethod
    def from_value(cls, value: StarOptions | dict[str, Any] | None) -> StarOptions:
        """Options from an instance, a dict of field values, or None (the defaults)."""
        if value is None:
            return cls()
        if isinstance(value, cls):
            return value
        try:
            return cls(**value)
        except TypeError as exc:
            raise OptionsError(f"bad answer feedback options: {exc}") from exc


@dataclass(frozen=True)
class StarPart:
    """One STAR part and the evidence for it."""

    name: str
    """"situation", "task", "action" or "result"."""
    present: bool
    """True if the answer has this part."""
    sentence: str | None
    """The sentence (or clause of a long unpunctuated sentence) of the answer that showed
    the part, as transcribed; None if absent."""
    cues: list[str]
    """The cue phrases that matched in ``sentence``, normalised ("i was responsible",
    "i wrote", "as a result", "# percent" with "#" for a number)."""


@dataclass(frozen=True)
class AnswerFeedback:
    """Content feedback on one spoken answer."""

    star: list[StarPart]
    """Situation, task, action and result, in that order."""
    star_coverage: float
    """Share in [0, 1] of the four STAR parts present."""
    specificity: float
    """Score in [0, 1]: ``min(1, 100 * points / max(words, floor) / full)`` where points =
    distinct numbers + named things + time/place anchors + "I" actions + ``w`` x "we"
    actions, ``floor`` = :attr:`StarOptions.specificity_floor_words`, ``full`` =
    :attr:`StarOptions.full_specificity_per_100`, ``w`` =
    :attr:`StarOptions.we_action_weight`."""
    vague: bool
    """True if any of ``vague_reasons`` holds."""
    vague_reasons: list[str]
    """Why the answer is vague, each a measured fact ("short: 22 words, under 40 ...")."""
    words: int
    """Words in the answer, fillers not counted."""
    duration_s: float | None
    """Spoken length in seconds, if known."""
    length_verdict: str
    """"short", "ok" or "long" against ``target_s``; "unknown" without a duration."""
    target_s: tuple[float, float]
    """Target length (shortest, longest) in seconds for the question kind."""
    messages: list[str]
    """Short, factual, actionable feedback lines, most important first."""

    def part(self, name: str) -> StarPart:
        """The STAR part called ``name`` ("situation", "task", "action" or "result")."""
        for p in self.star:
            if p.name == name:
                return p
        raise KeyError(name)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready."""
        d = asdict(self)
        d["target_s"] = list(self.target_s)
        return d


# --- text preparation -----------------------------------------------------------------------


@dataclass
class _Clause:
    text: str
    """As transcribed."""
    toks: list[str]
    """Lower-case tokens without fillers, "%" as "percent"."""
    question: bool
    """Ends with "?"."""

    @property
    def joined(self) -> str:
        return " ".join(self.toks)


def _words_of(answer: str) -> tuple[list[Word], list[int], list[str]]:
    """(one Word per token of ``answer``, index of each Word's space-separated piece, the
    pieces). Times are placeholders 0.3 s apart: the filler rules need some, and with no
    gaps over 0.25 s only punctuation sets a filler off."""
    pieces = answer.split()
    words: list[Word] = []
    origin: list[int] = []
    for i, p in enumerate(pieces):
        for w in split_words([Word(p, i * 0.3, i * 0.3 + 0.25)]):
            if tokens(w.text):
                words.append(w)
                origin.append(i)
    return words, origin, pieces


def _ends_sentence(w: Word) -> bool:
    if not w.ends_sentence:
        return False
    toks = tokens(w.text)
    last = toks[-1] if toks else ""
    return not abbreviated(last)


def _cue_tokens(w: Word) -> list[str]:
    toks = tokens(w.text)
    if "%" in w.text:
        toks.append("percent")
    return toks


def _clauses(
    words: list[Word], origin: list[int], pieces: list[str], fillers: set[int], options: StarOptions
) -> list[_Clause]:
    """Sentences at . ? !, long ones cut into clauses before :data:`CLAUSE_STARTS`."""
    sentences: list[list[int]] = [[]]
    for i, w in enumerate(words):
        sentences[-1].append(i)
        if _ends_sentence(w):
            sentences.append([])

    def kept(i: int) -> bool:  # "so" stays for cues like "so we shipped"
        return i not in fillers or words[i].norm == "so"

    out: list[_Clause] = []
    for sent in sentences:
        chunks = [sent]
        remaining = sum(1 for i in sent if kept(i))
        if remaining > options.max_sentence_words:
            chunks, count = [[]], 0
            for i in sent:
                if (
                    kept(i)
                    and words[i].norm in CLAUSE_STARTS
                    and count >= options.min_clause_words
                    and remaining >= options.min_clause_words
                ):
                    chunks.append([])
                    count = 0
                chunks[-1].append(i)
                if kept(i):
                    count += 1
                    remaining -= 1
        for chunk in chunks:
            toks = [t for i in chunk if kept(i) for t in _cue_tokens(words[i])]
            if not toks:
                continue
            spans = dict.fromkeys(origin[i] for i in chunk)
            text = " ".join(pieces[p] for p in spans).strip(" ,;:")
            out.append(_Clause(text, toks, words[chunk[-1]].text.rstrip().endswith("?")))
    return out


# --- cue finding ----------------------------------------------------------------------------


def _actions(toks: list[str], subject: str) -> list[str]:
    """Past-tense actions of ``subject`` ("i" or "we"): ["i wrote", "i then called"]."""
    found = []
    for k, t in enumerate(toks):
        if t != subject:
            continue
        j = k + 1
        while j < len(toks) and j - k <= 3 and toks[j] in ACTION_ADVERBS:
            j += 1
        if j >= len(toks):
            continue
        verb = toks[j]
        nxt = toks[j + 1] if j + 1 < len(toks) else ""
        past = verb in IRREGULAR_PAST or (len(verb) > 3 and verb.endswith("ed"))
        if (
            past
            and verb not in NOT_ACTIONS
            and verb not in _STOP_NOT_PAST
            and nxt not in CONTEXT_AFTER.get(verb, ())
        ):
            found.append(" ".join(toks[k : j + 1]))
    return found


def _matches(patterns: list[re.Pattern[str]], text: str) -> list[str]:
    return [m.group(0) for p in patterns for m in p.finditer(text)]


def _mask_numbers(toks: list[str], numbers: set[str]) -> str:
    return " ".join("#" if t in numbers else t for t in toks)


def _pick(
    hits: list[tuple[int, list[str]]], clauses: list[_Clause], name: str, *, last: bool = False
) -> StarPart:
    """The part with evidence from the clause with most cues (ties: first, or last)."""
    if not hits:
        return StarPart(name, False, None, [])
    best = max(hits, key=lambda h: (len(h[1]), h[0] if last else -h[0]))
    cues = list(dict.fromkeys(best[1]))
    return StarPart(name, True, clauses[best[0]].text, cues)


def _named_things(words: list[Word]) -> list[str]:
    """Capitalised words not opening a sentence, and acronyms ("Dublin", "Redis", "API")."""
    found: dict[str, str] = {}
    for i, w in enumerate(words):
        raw = w.text.strip(" \"'()[]{},.;:?!…“”‘’")
        low = raw.lower()
        if len(raw) < 2 or not raw[0].isalpha() or low in _SELF or low in STOP_WORDS:
            continue
        if low.endswith("'s"):
            raw, low = raw[:-2], low[:-2]
        if low in _MONTHS_DAYS:
            continue
        acronym = raw.isupper() and raw.isalpha()
        opens = i == 0 or _ends_sentence(words[i - 1])
        if acronym or (raw[0].isupper() and not opens):
            found.setdefault(low, raw)
    return list(found.values())


# --- feedback -------------------------------------------------------------------------------


def feedback(
    answer: str,
    *,
    question: str = "",
    duration_s: float | None = None,
    kind: str = "behavioral",
    options: StarOptions | dict[str, Any] = StarOptions(),
) -> AnswerFeedback:
    """Content feedback on one answer's transcript (pure; see the module docstring).

    Args:
        answer: the answer as transcribed, punctuated or not, fillers may be left in.
        question: the question as asked; used to tell whether it asks for a real past
            experience (:data:`PAST_QUESTION_CUES`) and to find deflections.
        duration_s: spoken length of the answer in seconds (>= 0), or None if unknown.
        kind: "behavioral", "technical", "opener" or "closing" (the keys of
            :attr:`StarOptions.targets_s`); "behavioural" is accepted.
        options: targets and thresholds, as :class:`StarOptions` or a dict of its fields.

    Returns:
        STAR parts with evidence, specificity, vagueness with reasons, length verdict and
        messages.

    Raises:
        OptionsError: unknown ``kind``, negative ``duration_s`` or bad ``options``.
    """
    opts = StarOptions.from_value(options)
    kind = _KIND_ALIASES.get(kind, kind)
    if kind not in opts.targets_s:
        raise OptionsError(
            f"unknown answer kind {kind!r}; use one of {', '.join(sorted(opts.targets_s))}"
        )
    if duration_s is not None and not duration_s >= 0:
        raise OptionsError(f"duration_s must be a number of seconds >= 0, not {duration_s!r}")

    words, origin, pieces = _words_of(answer)
    filler_items, fillers = tag_fillers(words)
    n_words = sum(len(tokens(w.text)) for w in lexical_words(words, fillers))
    clauses = _clauses(words, origin, pieces, fillers, opts)
    clean_text = " ".join(c.joined for c in clauses)
    # numbers as specifics() finds them; "percent" is a unit here, not a number
    numbers = {s for s in specifics(clean_text) if " " not in s and s != "percent"}

    # per clause: actions, and whether the clause counts at all
    i_actions = [_actions(c.toks, "i") for c in clauses]
    we_actions = [_actions(c.toks, "we") for c in clauses]
    counts = [
        not c.question
        and (bool(i_actions[k]) or not any(p.search(c.joined) for p in _HYPOTHETICAL_RE))
        for k, c in enumerate(clauses)
    ]
    hypothetical = sum(
        1 for k, c in enumerate(clauses) if not counts[k] and not c.question
    )  # clauses dropped as hypothetical
    any_action = [k for k in range(len(clauses)) if counts[k] and (i_actions[k] or we_actions[k])]
    first_action = any_action[0] if any_action else None
    middle = (len(clauses) - 1) / 2

    situation, task, action, result = [], [], [], []
    for k, c in enumerate(clauses):
        if not counts[k]:
            continue
        text = c.joined
        if first_action is None or k <= first_action:
            if cues := _matches(_SITUATION_RE, text):
                situation.append((k, cues))
        if cues := _matches(_TASK_RE, text):
            task.append((k, cues))
        if i_actions[k]:
            action.append((k, i_actions[k]))
        cues = _matches(_RESULT_PHRASE_RE, text)
        after = k >= first_action if first_action is not None else k >= middle
        if after:
            masked = _mask_numbers(c.toks, numbers)
            cues += _matches(_RESULT_VERB_RE, masked)
            if _MONEY_RE.search(c.text):
                cues.append("money")
            if first_action is None or k > first_action:
                cues += _matches([_UNIT_RE], masked)
        if cues:
            result.append((k, cues))

    star = [
        _pick(situation, clauses, "situation"),
        _pick(task, clauses, "task"),
        _pick(action, clauses, "action"),
        _pick(result, clauses, "result", last=True),
    ]
    present = {p.name: p.present for p in star}

    # specificity
    anchors = set(_matches(_ANCHOR_RE, clean_text))
    named = _named_things(words)
    mine = list(dict.fromkeys(a for acts in i_actions for a in acts))
    ours = list(dict.fromkeys(a for acts in we_actions for a in acts))
    points = len(numbers) + len(named) + len(anchors) + len(mine)
    points += opts.we_action_weight * len(ours)
    per_100 = 100.0 * points / max(n_words, opts.specificity_floor_words)
    specificity = round(min(1.0, per_100 / opts.full_specificity_per_100), 3)

    # hedges
    hedges = [it.text for it in filler_items if it.text in ("kind of", "sort of")]
    hedges += _matches(_HEDGE_RE, " ".join(tokens(answer)))
    hedge_rate = 100.0 * len(hedges) / max(n_words, 1)

    # vagueness: each reason under a key the messages use
    is_star = kind in opts.star_kinds
    label = _KIND_LABELS.get(kind, kind)
    min_words = opts.min_words[kind]
    past_question = is_star or any(p.search(question.lower()) for p in _PAST_QUESTION_RE)
    deflections = judge_answer(question, answer).deflections
    why: dict[str, str] = {}
    if n_words == 0:
        why["empty"] = "empty: no words were heard"
    short = 0 < n_words < min_words
    if short and not (numbers or mine):  # short and concrete is short, not vague
        why["short"] = f"short: {n_words} words, under {min_words} for a {label} answer"
    if n_words and not (numbers or named or mine or ours):
        why["no_specifics"] = "no specifics: no numbers, names or first-person actions"
    if deflections and not (numbers or mine):
        why["deflected"] = f"deflected: said {deflections[0]!r} with nothing specific"
    if past_question and hypothetical and not (mine or ours):
        why["hypothetical"] = (
            "hypothetical only: says what would be done ('I would'), no past example"
        )
    if is_star and n_words and not present["result"]:
        why["no_result"] = "no result: nothing said about how it turned out"
    if len(hedges) >= opts.hedge_min_count and hedge_rate >= opts.hedge_per_100:
        why["hedged"] = f"hedged: {len(hedges)} vague words ({', '.join(dict.fromkeys(hedges))})"

    # length
    lo, hi = opts.targets_s[kind]
    if duration_s is None:
        verdict = "unknown"
    elif duration_s < lo:
        verdict = "short"
    elif duration_s > hi:
        verdict = "long"
    else:
        verdict = "ok"

    # messages, most important first: what is missing, how specific, how long
    msgs: list[str] = []
    if "empty" in why:
        msgs.append("No answer was heard: give one real example, start to finish.")
    elif "hypothetical" in why:
        msgs.append(
            "The answer says what you would do; the question asks about a real time. "
            "Pick one that happened and tell it in the past tense."
        )
    elif is_star:
        msgs += _star_messages(star, ours)
    if "empty" not in why:
        if "no_specifics" in why:
            msgs.append("No numbers, names or first-person actions: add one concrete detail.")
        elif specificity < opts.low_specificity and not short:
            msgs.append(f"Few specifics (score {specificity:.2f}): add a number, a name or a date.")
        if "deflected" in why:
            msgs.append("The answer put the question off: give one concrete example instead.")
        if "hedged" in why:
            shown = ", ".join(f"'{h}'" for h in dict.fromkeys(hedges))
            msgs.append(f"Hedging words ({shown}): say what actually happened instead.")
    if verdict in ("short", "long"):
        line = f"Answer ran {duration_s:.0f} s; {label} answers land best at {lo:.0f}-{hi:.0f} s."
        if verdict == "long" and is_star:
            line += " Keep the situation to one or two sentences."
        msgs.append(line)
    elif short:
        msgs.append(
            f"Only {n_words} words; a {label} answer needs about {min_words} or more to make "
            "its point."
        )

    return AnswerFeedback(
        star=star,
        star_coverage=sum(present.values()) / len(PARTS),
        specificity=specificity,
        vague=bool(why),
        vague_reasons=list(why.values()),
        words=n_words,
        duration_s=duration_s,
        length_verdict=verdict,
        target_s=(lo, hi),
        messages=msgs,
    )


def _star_messages(star: list[StarPart], ours: list[str]) -> list[str]:
    """One line per missing STAR part, and one for a result without a number."""
    out: list[str] = []
    have = {p.name: p for p in star}
    if not have["situation"].present:
        out.append("No situation: open with one sentence on where and when it happened.")
    if not have["task"].present:
        out.append("No task: say what you were responsible for or what the goal was.")
    if not have["action"].present:
        if ours:
            shown = ", ".join(f"'{a}'" for a in ours[:3])
            out.append(f"Every action is 'we' ({shown}): say what you did yourself, with 'I'.")
        else:
            out.append("No action: say what you did, in the first person ('I wrote...').")
    result = have["result"]
    if not result.present:
        out.append("No result: say what happened in the end, with a number if you have one.")
    elif not any("#" in c or "percent" in c or c == "money" for c in result.cues):
        out.append("The result has no number: if it was measured, say by how much.")
    return out
