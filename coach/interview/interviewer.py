"""The interviewer: the asking side of a mock interview (or a practice scenario).

It plans the interview from the question banks (opener, behavioural and role questions
taking turns, closing), lets the LLM say each planned question in the persona's words
(checked like the audience's questions; the bank's wording is the fallback, so the
interview runs without an LLM), judges each answer with the STAR feedback and the answer
judgement, follows up on vague answers (a skeptical interviewer presses, a warm one
encourages), and at the closing answers the candidate's own question in role.

:class:`Interviewer` is a :class:`coach.live.asker.Asker`; :class:`Interview` runs it on the
same engine as `coach rehearse`.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from coach.analysis.answers import AnswerJudgement, Relevance, judge_answer
from coach.analysis.star import feedback
from coach.audience import AudienceOptions, Question, generate_question
from coach.errors import OptionsError
from coach.interview.banks import PLAN_STAGES, Bank, BankQuestion
from coach.interview.scenario import PERSONAS, Scenario
from coach.live.asker import Verdict
from coach.live.engine import Conversation
from coach.live.results import Exchange, TurnTiming
from coach.llm import ChatModel, Message
from coach.targets import FILLERS_PER_MIN, PACE_BAND_WPM
from coach.text import split_sentences

ACKS = {
    "warm": ("Thank you, that's helpful.", "Great, thanks.", "Thanks for sharing that."),
    "neutral": ("Thank you.", "Okay, thank you.", "Thanks."),
    "skeptical": ("Okay.", "Right.", "I see."),
}
"""What the interviewer says when an answer is complete, by persona."""

GOOD_QUESTION = "Good question."
"""Said at once when the candidate asks something at the closing, before the answer."""

PRESS = {
    "warm": "That's a good start. I'd love a bit more detail.",
    "neutral": "Let me follow up on that.",
    "skeptical": "That's quite general. I'm going to push you on it.",
}
"""Said before a follow-up on a vague answer, by persona."""

MISSED = {
    "hypothetical": "a real time it happened, not what you would do",
    "no result": "how it turned out",
    "no specifics": "what you did yourself, with a detail",
    "short": "enough detail to picture it",
    "deflected": "an answer to the question",
    "hedged": "a clear answer",
}
"""What a vague answer left out, by the first words of its vagueness reason."""

PRESS_MISSED = {
    "warm": "Thanks. I didn't quite hear {missed}.",
    "neutral": "I didn't hear {missed}.",
    "skeptical": "That's quite general. I didn't hear {missed}.",
}
"""Said before a follow-up: names what the answer left out, in the persona's manner."""


def missed(reasons: list[str]) -> str:
    """What a vague answer left out, from its reasons ("" when none is known)."""
    for reason in reasons:
        for start, text in MISSED.items():
            if reason.startswith(start):
                return text
    return ""


FOLLOW_UP_STYLE = {
    "warm": "Encourage them kindly and ask for one concrete example",
    "neutral": "Ask plainly for the missing detail",
    "skeptical": "Press them firmly for evidence and numbers",
}

GENERIC_FOLLOW_UPS = {
    "warm": "Could you walk me through one specific example, and how it turned out?",
    "neutral": "What exactly did you do, and what was the result?",
    "skeptical": "What exactly did you do yourself, and what changed because of it, in numbers?",
}

_OUT_OF_ROLE = re.compile(
    r"\b(the candidate|candidate's|the interviewee|as an ai|interview question|rephrase)\b"
    r"|^(sure|okay|here is|here's|as a candidate)\b"
    r"|^i (worked|was|did|led|built|made|managed|studied|have worked|had)\b",
    re.IGNORECASE,
)


def check_in_role(text: str) -> str | None:
    """Why a question is out of the interviewer's role, or None: it talks about "the
    candidate" in the third person, speaks about the task itself ("Here is the question"),
    or speaks as the candidate."""
    m = _OUT_OF_ROLE.search(text.strip())
    return f"out of role ({m.group(0).lower()!r})" if m else None


_SECOND_PERSON = re.compile(r"\b(you|your|yours|yourself)\b", re.IGNORECASE)
_FIRST_PERSON = re.compile(r"\b(i|my|mine|myself)\b(?!')", re.IGNORECASE)


def check_adapted(text: str, original: str) -> str | None:
    """Why the LLM's wording of a bank question is out of role, or None.

    Besides :func:`check_in_role`: when the bank's question speaks to the candidate
    ("you"), the new wording must too (a small model drifts into "the person" or "I");
    and the interviewer does not ask about itself ("Where did I start...?").
    """
    why = check_in_role(text)
    if why:
        return why
    if _SECOND_PERSON.search(original) and not _SECOND_PERSON.search(text):
        return "not addressed to the candidate"
    if _FIRST_PERSON.search(text) and not _FIRST_PERSON.search(original):
        return "asks about itself ('I', 'my')"
    return None


_OPEN_QUESTION = re.compile(
    r"\b(what|how|why|which|tell me|describe|walk me)\b.*\?|\b(what|how|why)\b", re.IGNORECASE
)


@dataclass(frozen=True)
class InterviewOptions:
    """What the interview is about and how the interviewer behaves."""

    role: str = ""
    """The job, e.g. "junior data analyst" (a scenario's role when empty)."""
    company: str = ""
    """The company, or "" ("our company")."""
    persona: str = "neutral"
    """warm, neutral, skeptical, or a description."""
    stage: str = "full"
    """full, or one stage: opener, behavioral, technical, closing."""
    questions: int = 6
    """Planned questions (follow-ups come on top)."""
    prefer_types: tuple[str, ...] = ()
    """Question types to ask first (the history's weakest)."""
    seed: int = 0
    """Which of the bank's orders to use."""
    max_words: int = 35
    """A question longer than this is rejected (retried, then the bank's wording)."""
    llm_wording: bool = False
    """Let the LLM say each planned question in the persona's words. Off by default: in a
    blind review of 8 roles (`make bench-interview-questions`), 94 % of the banks' own
    questions were acceptable on the held-out roles against 84 % of the 1.5B model's
    rewordings. The LLM still answers the candidate's closing questions."""

    def __post_init__(self) -> None:
        if self.stage not in PLAN_STAGES:
            raise OptionsError(f"unknown stage {self.stage!r}: use {', '.join(PLAN_STAGES)}")
        if self.questions < 1:
            raise OptionsError(f"--questions must be at least 1, not {self.questions}")
        if not self.persona.strip():
            raise OptionsError(
                "the persona is empty: use warm, neutral, skeptical or a description"
            )


def _persona_key(persona: str) -> str:
    return persona if persona in ACKS else "neutral"


class Interviewer:
    """An :class:`coach.live.asker.Asker` that runs a planned interview (see the module doc)."""

    opening_optional = False
    """The interviewer always greets the candidate first."""

    def __init__(
        self,
        llm: ChatModel | None,
        options: InterviewOptions,
        *,
        scenario: Scenario | None = None,
        min_words: int = 8,
    ) -> None:
        self.llm = llm
        self.options = options
        self.scenario = scenario
        self.min_words = min_words
        role = options.role or (scenario.role if scenario else "")
        if not role.strip():
            raise OptionsError("give the role: --role 'junior data analyst' (or --scenario)")
        self.role = role
        self.company = options.company
        if scenario is not None:
            self.bank = scenario.bank()
            self.plan: list[BankQuestion] = scenario.plan(options.questions)
            persona = scenario.persona if options.persona == "neutral" else options.persona
        else:
            self.bank = Bank.for_role(role)
            self.plan = self.bank.plan(
                options.stage, options.questions, prefer_types=options.prefer_types,
                seed=options.seed,
            )  # fmt: skip
            persona = options.persona
        self.persona = persona
        self.style = _persona_key(persona)
        self.persona_text = PERSONAS.get(persona, persona)
        self._planned: dict[str, BankQuestion] = {}
        self._index = 0
        self._acks = 0
        self._last_answer = ""
        """The candidate's latest answer (40 words at most), for the next question's prompt:
        the next question is made while the candidate answers, so it follows the one
        before."""
        self.asked: list[str] = []
        self.check_options = AudienceOptions(persona=self.persona_text, max_words=options.max_words)
        at = f" at {self.company}" if self.company else ""
        self.system: Message = {
            "role": "system",
            "content": (
                f"You are {self.persona_text}, interviewing a candidate for the {role} role"
                f"{at}. You are given the next interview question. Say it to the candidate "
                f"in your own words as ONE short question (under {options.max_words} words), "
                "keeping its meaning. Never answer it yourself. Reply only as JSON: "
                '{"question": "..."}'
            ),
        }
        if scenario is not None:
            self.opening = self.bank.render(scenario.opening_line, role, self.company)
        else:
            greetings = {"warm": "Hi, thanks so much for coming in today.",
                         "skeptical": "Hello. Let's get started."}  # fmt: skip
            greet = greetings.get(self.style, "Hello, thanks for coming in.")
            self.opening = f"{greet} This is the interview for the {role} role{at}."
        self.closing = {
            "warm": "Thank you, I really enjoyed talking with you. We'll be in touch soon.",
            "skeptical": "Thank you for your time. We'll let you know.",
        }.get(self.style, "Thank you for your time today. We'll be in touch about next steps.")
        self.no_answer = "No problem, let's move on."
        self.no_questions = self.closing
        presses = tuple(PRESS_MISSED[self.style].format(missed=m) for m in MISSED.values())
        self.lines = (*ACKS[self.style], PRESS[self.style], GOOD_QUESTION, self.closing,
                      self.no_answer, *presses)  # fmt: skip
        self._missed: dict[str, str] = {}
        """Question text -> what its answer left out (for the follow-up's prompt)."""

    # -- asking ----------------------------------------------------------------------------

    def next_question(self) -> Question | None:
        """The next planned question, in the persona's words when the LLM says it well."""
        if self._index >= len(self.plan):
            return None
        bq = self.plan[self._index]
        self._index += 1
        text = self.bank.render(bq, self.role, self.company)
        started = time.monotonic()
        # questions are said in the persona's words; requests in the imperative ("Tell me
        # about a time..."), the closing and a scenario's lines are said as written
        adapt = (
            self.llm is not None
            and self.options.llm_wording
            and bq.stage != "closing"
            and self.scenario is None
            and text.rstrip().endswith("?")
        )
        prompt = f"Interview question: {text}"
        if self._last_answer:
            prompt = (f'The candidate just said: "{self._last_answer}"\n{prompt}\nIf it fits, '
                      "link it briefly to what they said.")  # fmt: skip
        items = generate_question(
            self.llm if adapt else None,
            [self.system, {"role": "user", "content": prompt}],
            grounding=f"{text} {self.role} {self._last_answer}", asked=self.asked,
            options=self.check_options,
            fallback=text, focus=bq.type, kind="question", started=started, stage=bq.stage,
            extra_check=lambda said: check_adapted(said, text),
        )  # fmt: skip
        question = next(i for i in items if isinstance(i, Question))
        if not adapt:
            question.source = "bank"
        self._planned[question.text] = bq
        self.asked.append(question.text)
        return question

    def judge_context(self, exchange: Exchange) -> str:
        """The situation, for the answer judge's model."""
        return f"A job interview for the {self.role} role."

    def judgement(
        self, exchange: Exchange, support: float | None = None, on_subject: float | None = None,
        relevance: Relevance | None = None,
    ) -> AnswerJudgement:  # fmt: skip
        """Whether the answer addressed the question (``support``, ``on_subject``,
        ``relevance``: the judge model's readings, as
        :func:`coach.analysis.answers.judge_answer` takes them)."""
        text = exchange.answer.transcript if exchange.answer else ""
        return judge_answer(exchange.question.spoken_text, text, min_words=self.min_words,
                            support=support, on_subject=on_subject,
                            relevance=relevance)  # fmt: skip

    def judge(self, exchange: Exchange) -> Verdict:
        """STAR feedback and the answer judgement; a vague or dodged answer to a behavioural
        or role question gets a follow-up."""
        q, report = exchange.question, exchange.answer
        text = report.transcript if report else ""
        span = None
        if report is not None and report.words:
            span = max(0.0, report.words[-1].end_s - report.words[0].start_s)
        kind = (
            q.stage if q.stage in ("behavioral", "technical", "opener", "closing") else "technical"
        )
        fb = feedback(text, question=q.text, duration_s=span, kind=kind)
        j = self.judgement(exchange)
        exchange.feedback, exchange.judgement = fb, j
        self._last_answer = " ".join(text.split()[:40])
        ack = ACKS[self.style][self._acks % len(ACKS[self.style])]
        self._acks += 1
        if q.stage == "closing":
            return Verdict(True, False, GOOD_QUESTION, "the candidate's questions")
        if self.scenario is not None and self.scenario.reengage:
            opened = bool(_OPEN_QUESTION.search(text))
            why = "asked an open question" if opened else "no open question to keep it going"
            return Verdict(opened, not opened and j.words > 0, ack, why, "")
        vague = fb.vague or not j.addressed
        reasons = "; ".join(fb.vague_reasons) or j.reason
        wants = vague and j.words > 0 and q.stage in ("behavioral", "technical")
        gap = missed(list(fb.vague_reasons)) or (
            "an answer to the question" if not j.addressed else "")  # fmt: skip
        press = PRESS_MISSED[self.style].format(missed=gap) if gap else PRESS[self.style]
        self._missed[q.text] = gap
        return Verdict(not vague, wants, ack, reasons, press)

    def follow_up(
        self, exchange: Exchange, verdict: Verdict, deadline: float | None = None
    ) -> Iterator[str | Question]:
        """A pointed follow-up: the LLM in the persona's manner, else the bank's own."""
        q = exchange.question
        bq = self._planned.get(q.text)
        answer = exchange.answer.transcript if exchange.answer else ""
        canned = [f for f in (bq.follow_ups if bq else ()) if f]
        fallback = self.bank.render(canned[0], self.role, self.company) if canned else (
            GENERIC_FOLLOW_UPS[self.style])  # fmt: skip
        use_llm = self.llm if self.scenario is None else None
        gap = self._missed.get(q.text) or "what they did themselves and how it turned out"
        prompt = (
            f'You asked: "{q.text}" The candidate answered: "{answer.strip()}" The answer '
            f"was vague ({verdict.reason}). {FOLLOW_UP_STYLE[self.style]}: ask ONE short "
            f"follow-up question that asks for {gap}."
        )
        return generate_question(
            use_llm, [self.system, {"role": "user", "content": prompt}],
            grounding=f"{q.text} {answer} {self.role} result example exactly", asked=self.asked,
            options=self.check_options, fallback=fallback, focus=q.focus, kind="follow_up",
            follow_up_to=q, stage=q.stage,
            extra_check=lambda said: check_adapted(said, "you"),  # a follow-up speaks to them
            deadline=deadline,
        )  # fmt: skip

    def respond(self, exchange: Exchange) -> Callable[[], Iterator[str]] | None:
        """At the closing, answer the candidate's own question in role."""
        if exchange.question.stage != "closing" or exchange.answer is None:
            return None
        asked = exchange.answer.transcript.strip()
        if not asked:
            return None
        return lambda: self._answer_candidate(asked)

    def _answer_candidate(self, asked: str) -> Iterator[str]:
        said = 0
        if self.llm is not None:
            at = f" at {self.company}" if self.company else ""
            messages: list[Message] = [
                {"role": "system", "content": (
                    f"You are {self.persona_text}, the interviewer for the {self.role} "
                    f"role{at}. The candidate asks you a question at the end of the "
                    "interview. Answer it in role in two or three short, plausible "
                    "sentences. Do not ask anything back.")},
                {"role": "user", "content": asked},
            ]  # fmt: skip
            buffer = ""
            stop = False
            for piece in self.llm.stream(messages, max_tokens=90):
                buffer += piece
                done, buffer = split_sentences(buffer)
                for sentence in done:
                    if not _speakable_reply(sentence):
                        stop = True  # a list or a question back: keep what was said so far
                        break
                    said += 1
                    yield sentence
                if stop or said >= 3:
                    break
            else:
                if said < 3 and _speakable_reply(buffer.strip()):
                    said += 1
                    yield buffer.strip()
        if said == 0:  # no LLM, or it said nothing usable: the bank's reply
            done, rest = split_sentences(self.bank.answer(asked, role=self.role,
                                                          company=self.company))  # fmt: skip
            yield from [*done, rest] if rest.strip() else done


def _speakable_reply(sentence: str) -> bool:
    """A plain spoken sentence: ends with . or !, no question, not a list item or header."""
    text = sentence.strip()
    return (
        len(text) > 1
        and text[-1] in ".!"
        and "?" not in text
        and not re.match(r"^([-*•#]|\d+[.)])", text)
    )


def practice_next(
    exchanges: list[Exchange], *, limit: int = 3, band_wpm: tuple[float, float] = PACE_BAND_WPM,
    fillers_per_min: float = FILLERS_PER_MIN,
) -> list[str]:  # fmt: skip
    """The most valuable things to practise next, from what was measured (pure).

    Candidates: a STAR part missing from behavioural answers, vague answers, answers
    outside their target length, and delivery across all answers (fillers per minute,
    pace, long pauses). Each is weighted by the share of answers it concerns; the top
    ``limit`` come back as one factual sentence each.

    Args:
        band_wpm: the pace band, words per minute (``--pace-band``).
        fillers_per_min: fillers per minute above which fillers are advice.
    """
    answered = [e for e in exchanges if e.answer is not None and e.feedback is not None]
    if not answered:
        return []
    found: list[tuple[float, str]] = []
    behavioral = [e for e in answered if e.question.stage == "behavioral"]
    advice = {
        "result": "end each story with what changed, with a number if you have one",
        "action": "say what you did yourself, with 'I' and a verb",
        "situation": "open with one sentence of context: where, when, what was at stake",
        "task": "say what you were responsible for before what you did",
    }
    for part, tip in advice.items():
        missing = [e for e in behavioral if not e.feedback.part(part).present]
        if missing:
            share = len(missing) / len(behavioral)
            found.append((share * 1.2, f"{part.capitalize()} missing in {len(missing)} of "
                          f"{len(behavioral)} behavioural answers: {tip}."))  # fmt: skip
    vague = [e for e in answered if e.feedback.vague and e.question.stage != "closing"]
    if vague:
        reasons = vague[0].feedback.vague_reasons[:1]
        detail = f" (e.g. {reasons[0]})" if reasons else ""
        found.append((len(vague) / len(answered),
                      f"{len(vague)} of {len(answered)} answers were vague{detail}: "
                      "give one concrete example and its outcome."))  # fmt: skip
    for verdict, tip in (("short", "aim for the target length with a full example"),
                         ("long", "stop after the result; 60-120 s is enough")):  # fmt: skip
        off = [e for e in answered if e.feedback.length_verdict == verdict]
        if off:
            found.append((0.8 * len(off) / len(answered),
                          f"{len(off)} answers ran {verdict}: {tip}."))  # fmt: skip
    speaking = sum(e.answer.pace.speaking_s for e in answered if e.answer)
    fillers = sum(e.answer.fillers.count for e in answered if e.answer)
    if speaking > 0 and fillers / (speaking / 60) > fillers_per_min:
        rate = fillers / (speaking / 60)
        found.append((min(1.0, rate / 6), f"Fillers: {rate:.1f} per minute across your answers "
                      f"(aim under {fillers_per_min:g}): pause silently instead."))  # fmt: skip
    paces = [e.answer.pace.wpm for e in answered if e.answer and e.answer.pace.wpm]
    if paces:
        mean = sum(paces) / len(paces)
        lo, hi = band_wpm
        if mean > hi or mean < lo:
            word = "fast" if mean > hi else "slow"
            found.append((0.6, f"Pace: {mean:.0f} words per minute on average, {word} "
                          f"against {lo:.0f}-{hi:.0f}: practise at a steadier pace."))  # fmt: skip
    found.sort(key=lambda t: -t[0])
    return [text for _w, text in found[:limit]]


class Interview(Conversation):
    """A mock interview (or a scenario) on the conversation engine."""

    kind = "interview"
    who = "interviewer"

    def __init__(
        self, *args: object, make_interviewer: Callable[[ChatModel | None], Interviewer],
        context: dict[str, object] | None = None, **kwargs: object,
    ) -> None:  # fmt: skip
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.make_interviewer = make_interviewer
        self.result.context = dict(context or {})

    def _body(self) -> None:
        llm = self._models_for_questions()
        if llm is None:
            self.events.note("the interview runs from the question banks (no LLM)")
        interviewer = self.make_interviewer(llm)
        self.result.context.setdefault("role", interviewer.role)
        self.result.context["persona"] = interviewer.persona
        self.result.context["plan"] = [f"{q.stage}: {q.type}" for q in interviewer.plan]
        self._qa(interviewer, TurnTiming(0, "start"))

    def _finish(self) -> None:
        self.result.practice = practice_next(
            self.result.exchanges, band_wpm=self.options.live.score.pace.band_wpm
        )
