"""What a talk claims, and which question a real audience member would ask about each claim.

An audience member does not ask about a word; they ask about something the speaker
claimed: a figure ("we lost nine hundred trips a day"), a comparison, a cause, a
proposal, a cost, an objection the speaker raised, a next step. :func:`find_claims` reads
the talk's sentences and labels each claim with what it does; :func:`plan_questions`
picks, for a persona, which claim to ask about next and what kind of question to ask
(evidence, objection, does it carry over, cost or side effect, what next and who decides,
clarification, an example, method, limits), so that a skeptical listener presses on
evidence and weak links, an expert on method and limits, a curious one on applications.

Transcripts write numbers as digits ("845", "$2 million"); :func:`spoken_numbers` says
them back in words as a speaker would ("eight forty-five", "two million dollars"), so a
question never reads a digit string aloud.

All functions here are pure: text in, dataclasses out, no model.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from coach.analysis.answers import content_stems
from coach.text import prose_sentences
from coach.transcript import tokens

CLAIM_TYPES = (
    "figure", "comparison", "cause", "proposal", "cost", "objection", "next_step", "study",
    "experience",
)  # fmt: skip
"""What a claim sentence does (one sentence can do several)."""

ASK_KINDS = (
    "evidence", "objection", "transfer", "cost", "next_steps", "clarification", "example",
    "method", "limits",
)  # fmt: skip
"""Kinds of question a real audience asks about a claim."""

ASK_KIND_LABEL: dict[str, str] = {
    "evidence": "the evidence behind it",
    "objection": "a doubt or counter-argument",
    "transfer": "whether it holds elsewhere",
    "cost": "its cost or a side effect",
    "next_steps": "what happens next",
    "clarification": "what exactly is meant",
    "example": "a concrete example",
    "method": "how it was done or measured",
    "limits": "where it stops holding",
}
"""Each kind of question in a few words, as the model's prompt names it (short enough
that the model does not copy it into the question)."""

MISSING_TEXT: dict[str, str] = {
    "evidence": "what it rests on",
    "objection": "the objection itself",
    "transfer": "whether it would hold elsewhere",
    "cost": "the cost or the risk",
    "next_steps": "who decides and when",
    "clarification": "what it means",
    "example": "a concrete example",
    "method": "how it was done",
    "limits": "where it would not hold",
}
"""What an answer to each kind must give; a follow-up names it when the answer did not."""

PERSONA_KINDS: dict[str, tuple[str, ...]] = {
    "skeptical": ("evidence", "objection", "cost", "limits"),
    "expert": ("method", "limits", "transfer", "evidence"),
    "curious": ("example", "transfer", "next_steps", "clarification", "cost"),
}
"""The order in which each built-in persona reaches for kinds of question."""

_PERSONA_CUES: tuple[tuple[str, tuple[str, ...]], ...] = (
    (r"\b(budget|money|financ|cost|taxpayer|accountant|investor|treasurer|cfo)", ("cost",)),
    (
        r"\b(doubt|skeptic|sceptic|critic|hostile|tough|challeng|worr|concern)",
        ("evidence", "objection"),
    ),
    (
        r"\b(expert|scientist|researcher|engineer|statistic|technical|specialist|academic)",
        ("method", "limits"),
    ),  # fmt: skip
    (
        r"\b(parent|resident|neighbou?r|student|customer|patient|user|employee|staff)",
        ("transfer", "example"),
    ),  # fmt: skip
    (
        r"\b(manager|director|executive|board|council|decision|boss|mayor)",
        ("next_steps", "cost"),
    ),  # fmt: skip
    (r"\b(curious|friendly|new|beginner|child|kid)", ("example", "clarification")),
)


def persona_kinds(persona: str) -> tuple[str, ...]:
    """The kinds of question a persona asks, in the order it reaches for them.

    A built-in persona (curious, skeptical, expert) has its own order; a described one
    ("a city council member worried about the budget") gets the kinds its words point to
    first, then a balanced mix.
    """
    if persona in PERSONA_KINDS:
        return PERSONA_KINDS[persona]
    low = persona.lower()
    kinds: list[str] = []
    for pattern, ks in _PERSONA_CUES:
        if re.search(pattern, low):
            kinds.extend(k for k in ks if k not in kinds)
    for k in ("evidence", "example", "objection", "next_steps", "transfer", "cost"):
        if k not in kinds:
            kinds.append(k)
    return tuple(kinds)


# -- numbers as spoken ------------------------------------------------------------------------

_ONES = ("zero one two three four five six seven eight nine ten eleven twelve thirteen "
         "fourteen fifteen sixteen seventeen eighteen nineteen").split()  # fmt: skip
_TENS = "_ _ twenty thirty forty fifty sixty seventy eighty ninety".split()
_SCALES = ((10**12, "trillion"), (10**9, "billion"), (10**6, "million"), (1000, "thousand"))


def number_words(n: int) -> str:
    """A whole number in words, as said in American English (845 -> "eight hundred
    forty-five"; no "and")."""
    if n < 0:
        return "minus " + number_words(-n)
    if n < 20:
        return _ONES[n]
    if n < 100:
        tens, ones = divmod(n, 10)
        return _TENS[tens] + (f"-{_ONES[ones]}" if ones else "")
    if n < 1000:
        hundreds, rest = divmod(n, 100)
        return f"{_ONES[hundreds]} hundred" + (f" {number_words(rest)}" if rest else "")
    for scale, name in _SCALES:
        if n >= scale:
            high, rest = divmod(n, scale)
            return f"{number_words(high)} {name}" + (f" {number_words(rest)}" if rest else "")
    raise AssertionError("unreachable")


def _year_words(n: int) -> str:
    if 2000 <= n <= 2009:
        return number_words(n)
    high, low = divmod(n, 100)
    if low == 0:
        return f"{number_words(high)} hundred"
    return f"{number_words(high)} " + (f"oh {_ONES[low]}" if low < 10 else number_words(low))


def _time_words(hour: int, minute: int) -> str:
    if minute == 0:
        return f"{number_words(hour)} o'clock"
    return f"{number_words(hour)} " + (f"oh {_ONES[minute]}" if minute < 10 else
                                       number_words(minute))  # fmt: skip


def _decimal_words(text: str) -> str:
    whole, _, frac = text.partition(".")
    words = number_words(int(whole or "0"))
    if frac:
        words += " point " + " ".join(_ONES[int(d)] for d in frac)
    return words


_ORDINAL_ENDS = {"one": "first", "two": "second", "three": "third", "five": "fifth",
                 "eight": "eighth", "nine": "ninth", "twelve": "twelfth"}  # fmt: skip


def _ordinal_words(n: int) -> str:
    words = number_words(n)
    head, _, last = words.rpartition(" ")
    sep = " " if head else ""
    if "-" in last:
        h2, _, last2 = last.rpartition("-")
        head, sep, last = f"{head}{sep}{h2}".strip(), "-", last2
    if last in _ORDINAL_ENDS:
        last = _ORDINAL_ENDS[last]
    elif last.endswith("y"):
        last = last[:-1] + "ieth"
    else:
        last += "th"
    return f"{head}{sep}{last}"


_TIME_AFTER = (
    r"(?=\s*(?:a\.?m\.?|p\.?m\.?|o'clock|in the (?:morning|afternoon|evening)|at night)\b)"
)
_NUMBER_RE = re.compile(
    r"(?P<cur>[$£€₹₦₱¥])?(?P<num>\d{1,3}(?:,\d{3})+|\d+(?:\.\d+)?)"
    r"(?P<colon>:\d\d)?(?P<ord>st|nd|rd|th)?(?P<pct>\s?%)?"
    r"(?P<scale>\s+(?:thousand|million|billion|trillion|lakh|crore))?"
)
_FROM_BEFORE = re.compile(r"\b(?:from|to)\s+$", re.I)
"""A number after "from" is a time only where the sentence speaks of clock times."""
_MONTH_NAMES = (
    "January|February|March|April|May|June|July|August|September|October|November|December"
)
_NOT_A_TIME_AFTER = (
    r"\s*(?:pounds?|dollars?|euros?|pence|cents?|percent|people|a (?:day|week|month|year)|"
    r"per\b|each|times|metres|meters|miles|kilometres|kilometers|km|kg|words|visits|"
    r"patients|members|customers|users|students|pupils|children|kids|households|riders|"
    r"trips|calls|emails|pages|staff|[a-z]+s\b(?! (?:at|in the) ))"
)
"""What follows a count, an amount or a price, never a clock time ("around 900 pounds",
"around 400 a week")."""
_CLOCK_CUES = re.compile(
    r"\b(start|starts|started|starting|begin|begins|began|open|opens|opened|close|closes|"
    r"closed|bell|wake|o'clock|a\.?m\.?|p\.?m\.?)\b",
    re.I,
)
"""Words that make a bare 3-4 digit number a clock time ("started 845 instead of 730")."""


_AFTER_TIME = (
    r"\s*(?:$|[^\w\s]|(?:instead|and|or|to|until|till|in|on|every|each|then|rather|sharp|"
    r"start|starts|bell|shift)\b)"
)
"""What may follow a bare number for it to be read as a time (not "845 parents")."""


def _fraction_words(num: int, den: int) -> str:
    names = {2: "half", 3: "third", 4: "quarter", 5: "fifth", 8: "eighth", 10: "tenth"}
    name = names.get(den, _ordinal_words(den))
    if name == "half":
        return "one half" if num == 1 else f"{number_words(num)} halves"
    return f"{number_words(num)}-{name}" + ("s" if num > 1 else "")


_YEAR_BEFORE = re.compile(
    r"\b(in|since|by|until|from|of|to|before|after|during|year|january|february|march|april|"
    r"may|june|july|august|september|october|november|december),?\s+$",
    re.I,
)
_TIME_BEFORE = re.compile(r"\b(at|by|until|from|before|after|around|till)\s+$", re.I)
_CLOCK_BEFORE = re.compile(r"\b(at|until|before|after|till)\s+$", re.I)
"""Before a number from 2100 to 2359 that is a 24-hour time, not a count ("by" is not:
"it rose by 2200")."""
CURRENCIES = (
    r"dollars?|pounds?|euros?|cents?|pence|rupees?|shillings?|yen|yuan|renminbi|pesos?|reais|"
    r"rand|naira|cedis?|kwacha|birr|dirhams?|dinars?|liras?|lire|zloty|zlotys|zlotych|forints?|"
    r"koruna|kroner|kronor|krona|kronur|francs?|rubles?|roubles?|hryvnias?|lari|tenge|taka|"
    r"baht|ringgit|rupiah|riels?|kyats?|leones?|lei|leva|quetzales|bolivianos|colones|"
    r"lempiras|cordobas|rials?|riyals?|shekels?|manat|afghanis?|pula|kwanza|meticais|"
    r"ouguiyas?|dalasis?|lilangeni|emalangeni|maloti|ngultrum|rufiyaa|somoni|drachmas?|"
    r"guilders?|marks?(?= (?:a|an|each|per|for)\b)"
)
"""Names of money said after an amount ("eight hundred rupees", "twenty shillings"), for a
regular expression: the talks are given in many countries. Words that are also common
English ("won", "real", "dong", "kip") are left out."""

_CURRENCY = {"$": "dollars", "£": "pounds", "€": "euros", "₹": "rupees", "₦": "naira",
             "₱": "pesos", "¥": "yen"}  # fmt: skip
_CENTS = {"dollars": "cents", "euros": "cents", "pounds": "pence"}
"""The hundredth of a currency, for prices written with two decimals ("$0.75")."""


def spoken_numbers(text: str) -> str:
    """``text`` with every number written in words as a speaker would say it (pure).

    "8:45" and "845" after "at" or before "a.m." are times ("eight forty-five");
    "2019" after "in" or "since" is a year ("twenty nineteen") and "2200" after "before" a
    24-hour time ("twenty-two hundred"); "$2.4 million" is "two
    point four million dollars"; "40%" is "forty percent"; "3rd" is "third"; anything
    else is a plain number ("900" -> "nine hundred").
    """

    # Whisper's spacing of numbers: "$200 ,000", "$1 .2 million", "2 -3rds"
    text = re.sub(r"(\d) ,(\d{3})\b", r"\1,\2", text)
    text = re.sub(r"(\d) \.(\d)", r"\1.\2", text)
    text = re.sub(r"\bo '\s?clock\b", "o'clock", text)
    # the currency Whisper writes out before the number: "euros 15,000", "pound 8400"
    text = re.sub(
        r"\b(euro|pound|dollar|rupee)s? (\d[\d,.]*\d|\d)((?: (?:thousand|million|billion))?)\b",
        lambda m: f"{m.group(2)}{m.group(3)} {m.group(1).lower()}s",
        text,
        flags=re.I,
    )
    # "9 -5 drivers" is ninety-five; "400 -650" is a range, four hundred to six fifty
    text = re.sub(r"\b([2-9]) -([1-9])\b(?!\s*(?:st|nd|rd|th)s?\b)", r"\1\2", text)
    text = re.sub(r"\b(\d{2,}) -(\d+)\b", r"\1 to \2", text)
    text = re.sub(r"\b(\d) -(\d+)(?:st|nd|rd|th)s\b",
                  lambda m: _fraction_words(int(m.group(1)), int(m.group(2))), text)  # fmt: skip
    # dates as said: "12 June" -> "the twelfth of June", "June 12" -> "June twelfth"
    text = re.sub(
        rf"\b(?:the )?([1-9]|[12]\d|3[01])(?:st|nd|rd|th)?(?: of)? ({_MONTH_NAMES})\b",
        lambda m: f"the {_ordinal_words(int(m.group(1)))} of {m.group(2)}",
        text,
    )
    month_day = rf"\b({_MONTH_NAMES}) ([1-9]|[12]\d|3[01])(?:st|nd|rd|th)?\b(?!\s*(?:%|percent))"
    text = re.sub(month_day, lambda m: f"{m.group(1)} {_ordinal_words(int(m.group(2)))}", text)
    clock_words = bool(_CLOCK_CUES.search(text))

    def clock_cued(before: str, after: str) -> bool:
        """A number read as a clock time by its neighbours: "at 845", "730 a.m.", but not
        "around 900 pounds", nor "from 400" unless the sentence speaks of clock times."""
        return not re.match(_NOT_A_TIME_AFTER, after) and bool(
            re.match(_TIME_AFTER, after)
            or (_TIME_BEFORE.search(before) and (clock_words or not _FROM_BEFORE.search(before)))
        )

    def is_time(m: re.Match[str]) -> bool:
        n = m.group("num")
        return (
            m.group("colon") is not None
            or (n.isdigit() and 100 <= int(n) <= 1259 and int(n) % 100 < 60
                and 1 <= int(n) // 100 <= 12 and not m.group("cur") and not m.group("pct")
                and clock_cued(text[: m.start()], text[m.end():]))
        )  # fmt: skip

    # a sentence that gives one time ("at 845") gives its neighbours as times too ("instead
    # of 730")
    timed = [m for m in _NUMBER_RE.finditer(text) if is_time(m)]
    time_context = bool(timed)

    def say(m: re.Match[str]) -> str:
        raw = m.group("num").replace(",", "")
        before = text[: m.start()]
        after = text[m.end() :]
        scale = (m.group("scale") or "").strip()
        unit = _CURRENCY.get(m.group("cur") or "", "")
        if m.group("colon"):
            return (
                _time_words(int(raw), int(m.group("colon")[1:])) if "." not in raw else m.group(0)
            )
        if "." in raw and unit in _CENTS and not scale and re.fullmatch(r"\d+\.\d\d", raw):
            # "$3.50" is "three dollars fifty", "$0.75" "seventy-five cents"
            whole, cents = (int(x) for x in raw.split("."))
            if not whole:
                return f"{number_words(cents)} {_CENTS[unit]}"
            return f"{number_words(whole)} {unit}" + (f" {number_words(cents)}" if cents else "")
        if "." in raw:
            words = _decimal_words(raw)
        elif m.group("ord"):
            return _ordinal_words(int(raw))
        else:
            n = int(raw)
            timeish = clock_cued(before, after) or (
                not re.match(_NOT_A_TIME_AFTER, after)
                and (time_context or clock_words)
                and bool(re.match(_AFTER_TIME, after))
            )
            timeish = timeish and not unit and not m.group("pct")  # "stayed at $640"
            if timeish and 100 <= n <= 1259 and n % 100 < 60 and 1 <= n // 100 <= 12:
                return _time_words(n // 100, n % 100)
            if timeish and 1 <= n <= 12 and not unit:
                return number_words(n)
            plain = not unit and not scale and not m.group("pct")
            if (
                plain
                and 2100 <= n <= 2359
                and n % 100 < 60
                and _CLOCK_BEFORE.search(before)
                and (not re.match(_NOT_A_TIME_AFTER, after))
            ):
                return _year_words(n)  # a 24-hour time: "before 2200" is "twenty-two hundred"
            if (
                1100 <= n <= 2099
                and plain
                # "we had installed 1,312" is a count (but "just over 1,600" is said
                # "sixteen hundred" either way)
                and not ("," in m.group("num") and n % 100)
                and (_YEAR_BEFORE.search(before) or not re.match(r"\s*[a-z]", after))
            ):
                return _year_words(n)
            words = number_words(n)
        if scale:
            words += f" {scale}"
        if m.group("pct"):
            words += " percent"
        if unit:
            words += f" {unit}"
        return words

    said = _NUMBER_RE.sub(say, text)
    return re.sub(r"\b(dollars|pounds|euros|percent) \1\b", r"\1", said)


# -- claims -----------------------------------------------------------------------------------

_NUMBER_WORDS = frozenset(
    "two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen "
    "sixteen seventeen eighteen nineteen twenty thirty forty fifty sixty seventy eighty "
    "ninety hundred thousand million billion percent half third quarter double doubled "
    "twice triple tripled halved dozen".split()
)

_CUES: dict[str, re.Pattern[str]] = {
    "comparison": re.compile(
        r"\b(than|compared|versus|vs|instead of|twice|doubled?|tripled?|halved|half as|"
        r"as (?:much|many|fast|good) as|more|less|fewer|cheaper|faster|slower|higher|lower|"
        r"better|worse|rose|fell|dropped|increased|decreased|went (?:up|down)|cut)\b",
        re.I,
    ),
    "cause": re.compile(
        r"\b(because|since|due to|so that|thanks to|led to|leads to|caused?|causes|"
        r"the reason|that's why|which means|means that|as a result|results? in|"
        r"resulted|drives?|driven by|explains?)\b",
        re.I,
    ),
    "proposal": re.compile(
        r"\b(we should|you should|i propose|i'm proposing|i am proposing|i recommend|"
        r"we recommend|my proposal|the proposal|i suggest|we suggest|we need to|"
        r"i'm asking|i am asking|we're asking|we are asking|we want to|let's|plan is|"
        r"we plan|we will|we'll|i want us to|should be|must|would)\b",
        re.I,
    ),
    "cost": re.compile(
        r"(\b(cost|costs|costing|budget|price|prices|priced|spend|spending|spent|pay|paid|"
        r"fund|funded|funding|afford|fee|fees|savings?|"
        r"save|saves|saved|expensive|cheap|" + CURRENCIES + r")\b|[$£€])",
        re.I,
    ),
    "objection": re.compile(
        r"\b(some people|critics|you might|you may|i know what|worry|worried|concern|"
        r"concerns|objection|skeptic|doubt|the risk|risks|but|however|although|"
        r"on the other hand|the downside|the problem|the catch)\b",
        re.I,
    ),
    "next_step": re.compile(
        r"\b(next|pilot|trial|vote|approval|approve|decide|decision|deadline|launch|"
        r"roll out|rollout|starting in|start in|by (?:january|february|march|april|may|"
        r"june|july|august|september|october|november|december|spring|summer|autumn|"
        r"fall|winter|the end)|phase|timeline|council|board)\b",
        re.I,
    ),
    "study": re.compile(
        r"\b(study|studies|research|survey|surveyed|data|found|find|findings|showed|"
        r"shows|measured|measure|experiment|trial|evidence|report|analysis|sample|"
        r"tested|test|results?)\b",
        re.I,
    ),
    "experience": re.compile(
        r"\b(i|we) (?:tried|learned|learnt|noticed|saw|started|stopped|built|changed|"
        r"moved|ran|introduced|switched|found)\b",
        re.I,
    ),
}

_FILLED = re.compile(r"(?:,\s*)?(?<![\w'])(?:um+|uh+|er+m?|ah+|hm+|mm+)\b,?\s*", re.I)
"""Filled pauses, left out of a claim as the model sees it."""

_FILLER_SENTENCE = re.compile(
    r"^(thank|thanks|good (?:morning|afternoon|evening)|hello|hi\b|welcome|my name|"
    r"today (?:i|we)(?!(?:'m| am|'re| are) (?:here to )?(?:ask|propos|request|recommend))|"
    r"in this talk|i'm going to talk|i am going to talk|i'll talk|"
    r"let me (?:start|begin|tell)|so,? that's|that's all|any questions|questions\?)",
    re.I,
)

_KIND_WEIGHT = {"figure": 1.0, "comparison": 1.0, "cause": 0.9, "proposal": 1.2, "cost": 1.0,
                "objection": 0.8, "next_step": 0.7, "study": 1.0, "experience": 0.5}  # fmt: skip

_TYPE_ORDER = ("proposal", "cost", "objection", "study", "cause", "comparison", "next_step",
               "experience", "figure")  # fmt: skip
"""The most telling type first: it decides which kinds of question fit a claim best."""

_CLAIM_KINDS: dict[str, tuple[str, ...]] = {
    "figure": ("evidence", "method", "clarification", "limits"),
    "comparison": ("evidence", "objection", "method", "transfer", "limits"),
    "cause": ("evidence", "objection", "limits", "method"),
    "proposal": ("cost", "objection", "next_steps", "transfer", "example"),
    "cost": ("cost", "evidence", "next_steps", "clarification"),
    "objection": ("objection", "evidence", "limits"),
    "next_step": ("next_steps", "cost", "objection"),
    "study": ("method", "limits", "transfer", "evidence"),
    "experience": ("example", "transfer", "limits"),
}
"""Which kinds of question fit each kind of claim, best first."""


@dataclass(frozen=True)
class Claim:
    """One sentence of a talk that claims something worth a question."""

    index: int
    """Position of the sentence in the talk (0-based)."""
    text: str
    """The sentence, numbers in words as spoken."""
    types: tuple[str, ...]
    """What it does: figure, comparison, cause, proposal, cost, objection, next_step, study,
    experience."""
    weight: float
    """How much a listener would want to ask about it (higher first)."""
    terms: frozenset[str] = field(default_factory=frozenset)
    """Stems of its content words (for grounding and for spreading questions out)."""

    def fitting_kinds(self) -> list[str]:
        """Kinds of question that fit this claim, best first."""
        out: list[str] = []
        for t in self.types:
            out.extend(k for k in _CLAIM_KINDS[t] if k not in out)
        return out or ["clarification", "example"]


def talk_sentences(transcript: str) -> list[str]:
    """The talk's sentences, in order (:func:`coach.text.prose_sentences`: a transcript's
    punctuation decides; a stop followed by a lower-case word, where Whisper closed an
    utterance mid-sentence, does not end one, nor does "Mr." before a name)."""
    return prose_sentences(" ".join(transcript.split()))


ANNOUNCEMENT = (
    r"^(?:so,? |and |now,? |okay,? |right,? )?(?:"
    r"(?:here's|here is|this is) (?:(?:the|my|our) ask|what (?P<p>i'm|we're|i am|we are) "
    r"(?P<v>asking(?: for)?|proposing|recommending))|"
    r"(?:my|our|the) ask is this|"
    r"what (?P<p2>i'm|we're|i am|we are) (?P<v2>proposing) is (?:this|simple)|"
    r"what (?:are|am) (?:we|i) (?:actually )?asking for)"
)
"""The words of a sentence that only announces the ask ("So my ask is this."), with who
asks (``p``/``p2``) and how (``v``/``v2``) where it says."""
ANNOUNCED_ASK = re.compile(ANNOUNCEMENT + r"\W*$", re.I)
"""A sentence that only announces the ask: the next sentence says it, and
:func:`find_claims` reads the two as one, joined by ": "."""


def find_claims(transcript: str, *, min_words: int = 6) -> list[Claim]:
    """The claims of a talk, in order of appearance (pure).

    A sentence is a claim when it holds a figure, a comparison, a cause, a proposal, a
    cost, an objection, a next step, a study or a first-hand experience. Greetings,
    sign-offs, announcements of the topic and questions to the audience are not claims;
    nor is a sentence shorter than ``min_words`` words.
    """
    claims: list[Claim] = []
    sentences = talk_sentences(transcript)
    for i, sentence in enumerate(sentences):
        said = _FILLED.sub(" ", spoken_numbers(sentence)).strip()
        said = re.sub(r"\s+([,.?!])", r"\1", " ".join(said.split()))
        said = said[:1].upper() + said[1:]
        announced = i > 0 and ANNOUNCED_ASK.match(sentences[i - 1].strip())
        if announced:  # "So my ask is this. Approve the project in principle today."
            said = f"{sentences[i - 1].strip().rstrip('.:?!')}: {said[:1].lower()}{said[1:]}"
        words = tokens(said)
        if len(words) < min_words or _FILLER_SENTENCE.match(said) or said.endswith("?"):
            continue
        types = ["proposal"] if announced else []
        if any(w in _NUMBER_WORDS for w in words) or re.search(r"\d", sentence):
            types.append("figure")
        types.extend(t for t, pattern in _CUES.items() if pattern.search(said) and t not in types)
        if not types:
            continue
        weight = min(2.5, sum(_KIND_WEIGHT[t] for t in types)) + min(len(words), 30) / 60
        types.sort(key=_TYPE_ORDER.index)
        claims.append(
            Claim(i, said, tuple(types), round(weight, 3), frozenset(content_stems(said)))
        )
    return claims


@dataclass(frozen=True)
class PlannedQuestion:
    """What to ask next: one claim and the kind of question to ask about it."""

    claim: Claim
    kind: str
    """One of :data:`ASK_KINDS`."""


def plan_questions(
    claims: Sequence[Claim],
    persona: str,
    n: int,
    *,
    asked: Iterable[PlannedQuestion] = (),
    kinds_for: Callable[[Claim], Sequence[str] | Mapping[str, float]] | None = None,
) -> list[PlannedQuestion]:
    """The next ``n`` (claim, kind) pairs for a persona (pure, deterministic).

    Each pick is the (claim, kind) pair that scores best: a weighty claim, a kind early in
    the persona's order (:func:`persona_kinds`) that fits the claim and has been used least
    so far; a claim already asked about waits until every other was used, and one sharing
    most of its words with an earlier one waits too. So the persona holds across turns
    while the questions move through the talk. ``kinds_for`` narrows the kinds that fit a
    claim (by default :meth:`Claim.fitting_kinds`), for instance to those a question can
    be written for. When it maps each kind to how likely its question is to be acceptable
    (:func:`coach.analysis.asking.kind_probabilities`), that likelihood leads the score
    and the persona's order only leans on it: a persona still prefers its kinds, but not
    at the price of a question a listener would not ask.
    """
    fits = kinds_for or Claim.fitting_kinds
    found = {c.index: fits(c) for c in claims}  # once per claim: it can be costly
    kinds = {i: list(k) for i, k in found.items()}
    likely = {i: k for i, k in found.items() if isinstance(k, Mapping)}
    order = persona_kinds(persona)
    done = list(asked)
    used_claims = [p.claim.index for p in done]
    kind_uses = {k: sum(p.kind == k for p in done) for k in ASK_KINDS}
    out: list[PlannedQuestion] = []
    pool = sorted((c for c in claims if kinds[c.index]), key=lambda c: (-c.weight, c.index))
    while len(out) < n and pool:
        fresh = [c for c in pool if c.index not in used_claims]
        if not fresh:
            used_claims = []
            fresh = pool

        def overlap(c: Claim) -> float:
            seen = [p.claim.terms for p in done + out]
            return max((len(c.terms & s) / max(1, len(c.terms)) for s in seen), default=0.0)

        def score(c: Claim, k: str, top: float = max(c.weight for c in pool)) -> float:
            if c.index in likely:
                rank = order.index(k) if k in order else len(order)
                return (6.0 * likely[c.index][k] + 0.5 * c.weight / top - 0.3 * rank
                        - 0.5 * kind_uses.get(k, 0) - 2.0 * (overlap(c) > 0.5))  # fmt: skip
            rank = order.index(k) if k in order else 3 * len(order)
            return (c.weight / top - 0.6 * rank - 1.0 * kind_uses.get(k, 0)
                    - 2.0 * (overlap(c) > 0.5) - 0.1 * kinds[c.index].index(k))  # fmt: skip

        pairs = [(c, k) for c in fresh for k in kinds[c.index]]
        if not pairs:
            break
        claim, kind = max(pairs, key=lambda ck: (score(*ck), -ck[0].index))
        kind_uses[kind] = kind_uses.get(kind, 0) + 1
        planned = PlannedQuestion(claim, kind)
        out.append(planned)
        used_claims.append(claim.index)
    return out
