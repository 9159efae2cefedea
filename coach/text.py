"""Words in text: tokens, stop words, stems, number words, sentences and the lexicons.

Every analysis that reads words takes them from here, so a token, a stem or a sentence
means the same thing in the script check, the answer judgement, the STAR feedback, the
hedge count and the speech of the audience. Pure functions and constants only.
"""

from __future__ import annotations

import re

# --- tokens and stems ---------------------------------------------------------------------

_TOKEN_RE = re.compile(r"[a-z0-9]+(?:['’][a-z]+)*")


def tokens(text: str) -> list[str]:
    """Split text into normalised tokens: "er...um," -> ["er", "um"]."""
    return _TOKEN_RE.findall(text.lower().replace("’", "'"))


# Function words ignored for coverage (after the NLTK/Snowball English stop list, plus
# contractions and discourse words that say nothing about a point's content).
STOP_WORDS = frozenset(
    """
    a about above after again against all also am an and any are aren't as at be because been
    before being below between both but by can can't cannot could couldn't did didn't do does
    doesn't doing don't down during each even ever every few for from further get gets got had
    hadn't has hasn't have haven't having he he'd he'll he's her here here's hers herself him
    himself his how how's i i'd i'll i'm i've if in into is isn't it it's its itself just let
    let's like lot me more most much must mustn't my myself no nor not now of off on once only
    or other ought our ours ourselves out over own really same shall shan't she she'd she'll
    she's should shouldn't so some such than that that's the their theirs them themselves then
    there there's these they they'd they'll they're they've this those through to too under
    until up us very was wasn't we we'd we'll we're we've were weren't what what's when when's
    where where's which while who who's whom why why's will with won't would wouldn't yes yet
    you you'd you'll you're you've your yours yourself yourselves okay ok well oh maybe
    """.split()
)

TOPIC_STOP_WORDS = STOP_WORDS | frozenset(
    "thank thanks um uh er ah hm tell one two every each also".split()
)
"""Words that carry no topic: :data:`STOP_WORDS` plus a few (the answer checks, the
audience's key terms)."""


def stem(token: str) -> str:
    """Light suffix stripping so plural, -ing and -ed forms match their base form.

    "reviews", "reviewing", "reviewed" -> "review"; "changes", "change" -> "chang";
    "stopped" -> "stop"; "team's" -> "team". Digits are kept as they are. The stems are
    only compared with each other, never shown.
    """
    t = token
    if t.isdigit():
        return t
    if t.endswith("'s"):
        t = t[:-2]
    if len(t) > 4 and t.endswith(("ies", "ied")):
        t = t[:-3] + "y"
    elif len(t) > 3 and t.endswith("s") and not t.endswith(("ss", "us", "is")):
        t = t[:-1]
    for suffix in ("ing", "ed"):
        if t.endswith(suffix) and len(t) - len(suffix) >= 3:
            t = t[: -len(suffix)]
            if len(t) > 3 and t[-1] == t[-2] and t[-1] not in "aeiouylsz":
                t = t[:-1]  # "stopp" -> "stop", but "fall" stays
            break
    if len(t) > 3 and t.endswith("e"):
        t = t[:-1]
    return t


# --- number words -------------------------------------------------------------------------

NUMBER_WORDS = frozenset(
    "two three four five six seven eight nine ten eleven twelve fifteen twenty thirty forty "
    "fifty sixty hundred thousand million percent half dozen".split()
)
"""Number words that make an answer specific ("sixty", "half", "a dozen")."""

NUMBER_STEMS = frozenset(
    "one two thre four five six seven eight nine ten eleven twelv fifteen twenty thirty "
    "forty fifty sixty seventy eighty ninety hundr thousand million".split()
)
"""Stems (:func:`stem`) of number words, left out of topic overlap."""


# --- sentences ----------------------------------------------------------------------------

_ABBREVIATIONS = {"mr", "mrs", "ms", "dr", "prof", "st", "vs", "etc", "e.g", "i.e", "approx"}
"""Abbreviations a period follows without ending a sentence (prose and transcripts; the
streaming splitter has its own, larger :data:`_NEVER_END`)."""
_SENTENCE_SPLIT_RE = re.compile(r"(?<=[.!?…])[\"'”’)\]]*\s+(?=[\"'“‘(\[]?[A-Z0-9])")


def abbreviated(word: str) -> bool:
    """True when a period after ``word`` (lower case, its period stripped) marks an
    abbreviation or an initial rather than the end of a sentence ("dr", "e.g", "j"; not "i")."""
    return word in _ABBREVIATIONS or (len(word) == 1 and word.isalpha() and word != "i")


def prose_sentences(paragraph: str) -> list[str]:
    """Split prose into sentences at . ? ! before a capital or digit, not after "Dr." etc."""
    out: list[str] = []
    start = 0
    for m in _SENTENCE_SPLIT_RE.finditer(paragraph):
        before = paragraph[start : m.start()].rsplit(None, 1)
        last = before[-1].lower().rstrip(".") if before else ""
        if abbreviated(last):
            continue  # "Dr. Smith", "J. Smith"
        out.append(paragraph[start : m.start()].strip())
        start = m.end()
    out.append(paragraph[start:].strip())
    return [s for s in out if tokens(s)]


_NEVER_END = frozenset(
    "mr mrs ms dr prof rev hon gen col lt sgt capt st mt vs cf e.g i.e eg ie approx ca "
    "fig dept est".split()
)
"""Words that an abbreviation period never ends a sentence after (lower case, no final
period). Titles stand before a name; "e.g." and "i.e." before an example."""

_MAYBE_END = frozenset("etc a.m p.m am pm inc ltd co corp jr sr u.s u.k".split())
"""Abbreviations that end a sentence only when the next word starts with a capital
("at 5 p.m. Then we left" is two sentences, "at 5 p.m. yesterday" one)."""

_TERMINATOR = re.compile(r"([.?!]+)[\"'\u201d\u2019)\]]*(?=\s)|\n")
"""A run of . ? ! (with closing quotes or brackets) followed by white space, or a line
break. Requiring white space after it keeps "3.5" and "e.g.," whole, and, while text is
streaming in, leaves "costs 3." undecided until the next piece shows what follows."""

_OPENERS = "\"'\u201c\u2018(["


def _word_before(buffer: str, end: int) -> str:
    """The white-space-delimited word that ends at ``end``, without opening quotes."""
    start = max(buffer.rfind(" ", 0, end), buffer.rfind("\n", 0, end), buffer.rfind("\t", 0, end))
    return buffer[start + 1 : end].lstrip(_OPENERS)


def split_sentences(buffer: str) -> tuple[list[str], str]:
    """Cut the complete sentences off the front of a text buffer.

    A sentence ends at ``.``, ``?`` or ``!`` (or a run of them, such as ``?!`` or ``...``)
    followed by white space, or at a line break. A period does not end a sentence inside a
    number ("3.5"), after a title or "e.g."/"i.e." ("Dr. Lee", "e.g. this"), after a
    single capital initial ("J. Smith") or after a list number that opens the sentence
    ("1. Why now?"); after "etc.", "p.m." and dotted acronyms it ends one only if the next
    word starts with a capital letter. A terminator at the very end of the buffer is left
    undecided (in the remainder), because more text may follow it.

    Args:
        buffer: Text received so far.

    Returns:
        ``(sentences, remainder)``: the complete sentences, stripped, in order (none is
        empty), and the text still waiting for its end, without leading white space.
        Joining the sentences and the remainder with spaces gives back the text, up to
        white space.
    """
    sentences: list[str] = []
    start = 0
    for m in _TERMINATOR.finditer(buffer):
        if m.group(0) != "\n" and not _ends_sentence(buffer, m, start):
            continue
        if m.group(0) != "\n" and _needs_lookahead(buffer, m):
            nxt = buffer[m.end() :].lstrip()
            if not nxt:
                break  # undecided until the next piece arrives
            if not nxt[0].isupper():
                continue
        sentence = buffer[start : m.end()].strip()
        if sentence:
            sentences.append(sentence)
        start = m.end()
    return sentences, buffer[start:].lstrip()


def _core(buffer: str, m: re.Match[str]) -> str:
    """The word before a terminator, lower case, without its last period."""
    return _word_before(buffer, m.start(1) + 1)[:-1].lower()


def _ends_sentence(buffer: str, m: re.Match[str], start: int) -> bool:
    run = m.group(1)
    if "?" in run or "!" in run or len(run) > 1:
        return True
    word = _word_before(buffer, m.start(1) + 1)[:-1]
    if len(word) == 1 and word.isupper():
        return False  # an initial: "J. Smith"
    if word.isdigit() and buffer[start : m.start(1)].strip() == word:
        return False  # a list number opening the sentence: "1. Why now?"
    return word.lower() not in _NEVER_END


def _needs_lookahead(buffer: str, m: re.Match[str]) -> bool:
    if m.group(1) != ".":
        return False
    core = _core(buffer, m)
    return core in _MAYBE_END or (
        "." in core and all(part.isalpha() and len(part) == 1 for part in core.split("."))
    )


# --- lexicons -----------------------------------------------------------------------------

HEDGES: dict[str, tuple[str, ...]] = {
    "i think": ("i", "think"),
    "i guess": ("i", "guess"),
    "i suppose": ("i", "suppose"),
    "i feel like": ("i", "feel", "like"),
    "maybe": ("maybe",),
    "perhaps": ("perhaps",),
    "probably": ("probably",),
    "just": ("just",),
    "sort of": ("sort", "of"),
    "kind of": ("kind", "of"),
    "a little bit": ("a", "little", "bit"),
    "somewhat": ("somewhat",),
    "hopefully": ("hopefully",),
    "i'm not sure": ("i'm", "not", "sure"),
}
"""Hedges and weak words (after Lakoff 1975 and Hyland 1998 on hedging), as token runs."""

HEDGE_CUES: tuple[str, ...] = (
    r"stuff",
    r"things",
    r"i guess",
    r"i think",
    r"a bit",
    r"a lot",
    r"lots of",
    r"or something",
    r"and so on",
    r"whatever",
    r"somehow",
    r"more or less",
    r"pretty much",
    r"various",
)
"""Vague or hedging words; "kind of" and "sort of" count too where
:func:`coach.analysis.fillers.tag_fillers` marks them as fillers."""

_FILLED_FORMS: list[tuple[re.Pattern[str], str]] = [
    (re.compile(r"^(u+h*m+|e+r+m+|h*u+m+)$"), "um"),
    (re.compile(r"^u+h+$"), "uh"),
    (re.compile(r"^e+r+h*$"), "er"),
    (re.compile(r"^a+h+$"), "ah"),
    (re.compile(r"^(h+m+|m+h*m+|h+m+h*)$"), "hm"),
]
"""Filled pauses as recognisers spell them ("umm", "uhh", "erm", "hmm"), with their
canonical form."""


def filled_pause_form(token: str) -> str | None:
    """Canonical filled-pause form of a normalised token, or None ("uhh" -> "uh")."""
    if token.startswith("'"):  # "'er" is "her", never a filler
        return None
    for pattern, canon in _FILLED_FORMS:
        if pattern.match(token):
            return canon
    return None
