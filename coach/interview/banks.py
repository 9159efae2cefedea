"""Question banks: what the interviewer can ask, stage by stage, for a given role.

An interview runs through four stages: the opener (small talk, "tell me about yourself"),
behavioural questions ("Tell me about a time when..."), questions specific to the role
(called ``technical`` even for sales or design) and the closing ("What questions do you have
for us?"). The questions live in TOML files under ``coach/interview/data/banks/``:
``general.toml`` holds the role-independent stages, and one file per role family (data,
software, product, sales, design, operations) holds the role questions, chosen by matching
the role against the family's ``match`` list. A role no family matches gets ``generic.toml``,
whose questions name the role through the ``{role}`` and ``{a_role}`` placeholders.

The LLM picks and adapts questions from a :class:`Bank`; without it (or when it misbehaves)
:meth:`Bank.plan` gives a complete interview from the bank alone, and :meth:`Bank.answer`
gives the interviewer's in-role reply to the candidate's own questions at the closing.

Every bank file is validated on load; a problem raises :class:`~coach.errors.OptionsError`
with one line naming the file, the entry and what to change.
"""

from __future__ import annotations

import random
import re
import tomllib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from coach.errors import OptionsError

STAGES: tuple[str, ...] = ("opener", "behavioral", "technical", "closing")
"""The stages of an interview, in the order they happen."""

PLAN_STAGES: tuple[str, ...] = (*STAGES, "full")
"""What :meth:`Bank.plan` accepts: one stage, or ``full`` for the whole arc."""

PLACEHOLDERS: tuple[str, ...] = ("role", "a_role", "company")
"""Placeholders a question may hold: ``{role}`` ("data analyst"), ``{a_role}`` ("a data
analyst", with the right article) and ``{company}``."""

DEFAULT_COMPANY = "our company"
"""What ``{company}`` becomes when no company was given (the interviewer is speaking)."""

FULL_OPENER_TYPES: tuple[str, ...] = ("introduction",)
"""Opener types a full interview starts with unless ``prefer_types`` says otherwise."""

FULL_CLOSING_TYPES: tuple[str, ...] = ("candidate-questions",)
"""Closing types a full interview ends with, so the candidate gets to ask their questions."""

_TYPE_RE = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")
_TYPE_MAX_CHARS = 30
_PLACEHOLDER_RE = re.compile(r"\{(" + "|".join(PLACEHOLDERS) + r")\}")
_VOWEL_ACRONYMS = frozenset("hr it ml rn sre sdr seo mba nhs ngo mri fx llm".split())
_A_BEFORE_U = ("uni", "use", "usu", "ut", "ux", "ui", "ur", "eu")
_AN_BEFORE_H = ("hour", "honest", "honor", "honour", "heir")

_BANK_KEYS = ("family", "question", "candidate_question_answers")
_FAMILY_KEYS = ("name", "match")
_QUESTION_KEYS = ("text", "stage", "type", "follow_ups", "keywords")
_ANSWER_KEYS = ("topic", "match", "answer")

_NO_ANSWER = "That is a good question. I will make sure someone gets back to you about it."


@dataclass(frozen=True)
class BankQuestion:
    """One question the interviewer can ask."""

    text: str
    """What the interviewer says; may hold ``{role}``, ``{a_role}`` and ``{company}``."""
    stage: str
    """opener, behavioral, technical or closing."""
    type: str
    """A short lowercase category: teamwork, conflict, sql, system-design, motivation..."""
    follow_ups: tuple[str, ...] = ()
    """Pointed prompts for a vague answer ("What was the result, in numbers?")."""
    keywords: tuple[str, ...] = ()
    """Role words the question is about ("sql", "window function")."""
    source: str = ""
    """Where it comes from: bank name and 1-based entry number, e.g. ``general:7``."""


@dataclass(frozen=True)
class CandidateAnswer:
    """An in-role reply to a common question the candidate asks at the closing."""

    topic: str
    """What the candidate asked about: team, next-steps, culture, day-to-day..."""
    match: tuple[str, ...]
    """Lower-case words or phrases that, starting a word of the candidate's question, select
    this answer; empty for the answer to anything else."""
    answer: str
    """The reply; may hold ``{role}``, ``{a_role}`` and ``{company}``."""
    source: str = ""
    """Bank name and 1-based entry number, e.g. ``general:3``."""


@dataclass(frozen=True)
class BankFile:
    """One validated bank file, as :func:`load_bank_file` returns it."""

    path: Path
    """The file it was read from."""
    name: str
    """The family name, or the file name without ``.toml`` for a general bank."""
    match: tuple[str, ...] | None
    """Lower-case role words of a family (``None`` for a general bank; empty for the
    fallback family used when no other matches)."""
    questions: tuple[BankQuestion, ...]
    """The questions, in file order."""
    answers: tuple[CandidateAnswer, ...] = ()
    """Replies to the candidate's questions, in file order."""

    @property
    def is_family(self) -> bool:
        """True for a role family (the file has a ``[family]`` table)."""
        return self.match is not None

    @property
    def is_fallback(self) -> bool:
        """True for the family used when no other family matches (an empty ``match``)."""
        return self.match == ()


@dataclass(frozen=True)
class Bank:
    """The questions for one role: general stages plus the best-matching role family."""

    entries: tuple[BankQuestion, ...]
    """Every question, general ones first, no two with the same text."""
    answers: tuple[CandidateAnswer, ...] = ()
    """Replies to the candidate's questions, the family's before the general ones."""
    role: str = ""
    """The role the bank was built for, as given (whitespace tidied)."""
    family: str = ""
    """Name of the role family used ("data", "generic", ...); empty if none."""

    @classmethod
    def for_role(cls, role: str, *, banks: Sequence[BankFile] | None = None) -> Bank:
        """The bank for ``role``: the general questions and the best-matching family.

        The family whose ``match`` has the longest entry starting a word of the role wins
        ("data engineer" beats "engineer"); a tie goes to the family with more matching
        entries, then to the earlier file. A role no family matches gets the fallback
        family (``generic.toml``).

        Args:
            role: The job title, e.g. "Junior Data Analyst"; case does not matter.
            banks: Bank files to use instead of the shipped ones (tests, custom banks).

        Raises:
            OptionsError: the role is empty.
        """
        role = normalise_role(role)
        if not role:
            raise OptionsError("the role is empty: give a job title, e.g. 'junior data analyst'")
        files = builtin_banks() if banks is None else tuple(banks)
        general = [f for f in files if not f.is_family]
        family = match_family(role, files)
        if family is None:
            family = next((f for f in files if f.is_fallback), None)
        parts = [*general, family] if family is not None else general
        entries: list[BankQuestion] = []
        seen: set[str] = set()
        for part in parts:
            for q in part.questions:
                if q.text.casefold() not in seen:
                    seen.add(q.text.casefold())
                    entries.append(q)
        answers = [*(family.answers if family else ()), *(a for g in general for a in g.answers)]
        return cls(
            entries=tuple(entries),
            answers=tuple(answers),
            role=role,
            family=family.name if family else "",
        )

    def counts(self) -> dict[str, int]:
        """Number of questions per stage, every stage listed."""
        return {s: sum(q.stage == s for q in self.entries) for s in STAGES}

    def questions(
        self,
        stage: str,
        *,
        exclude: Iterable[BankQuestion | str] = (),
        prefer_types: Sequence[str] = (),
    ) -> list[BankQuestion]:
        """The questions of one stage, preferred types first, otherwise in bank order.

        Args:
            stage: opener, behavioral, technical or closing.
            exclude: Questions already asked (the :class:`BankQuestion` or its template
                text) to leave out.
            prefer_types: Types to put first, most wanted first (the session's history
                decides: say the types the candidate's answers were weakest on).

        Raises:
            OptionsError: unknown stage.
        """
        _check_stage(stage, STAGES)
        excluded = _exclusions(exclude)
        pool = [q for q in self.entries if q.stage == stage and q.text.casefold() not in excluded]
        return _prefer(pool, prefer_types)

    def plan(
        self,
        stage: str,
        n: int,
        *,
        prefer_types: Sequence[str] = (),
        exclude: Iterable[BankQuestion | str] = (),
        seed: int = 0,
    ) -> list[BankQuestion]:
        """Up to ``n`` questions to ask, in order, never the same question twice.

        For one stage: that stage's questions, preferred types first, shuffled by ``seed``
        within each group. For ``full``: one opener (an introduction unless
        ``prefer_types`` names an opener type), then behavioural and role questions taking
        turns (behavioural first; when one runs out the other fills in), then one closing
        (the candidate's questions, by default). ``n`` counts all of them, so ``n=1`` is
        just the opener and ``n=2`` the opener and the closing. Fewer than ``n`` come back
        when the bank runs out. The same bank, arguments and seed give the same plan.

        Args:
            stage: opener, behavioral, technical, closing or full.
            n: How many questions, 0 or more.
            prefer_types: Types to ask first, most wanted first.
            exclude: Questions already asked, to leave out.
            seed: Picks one of the possible orders.

        Raises:
            OptionsError: unknown stage, or ``n`` not a whole number of 0 or more.
        """
        _check_stage(stage, PLAN_STAGES)
        if isinstance(n, bool) or not isinstance(n, int) or n < 0:
            raise OptionsError(f"the number of questions must be a whole number >= 0, not {n!r}")
        exclude = tuple(exclude)
        if stage != "full":
            return self._shuffled(stage, prefer_types, exclude, seed)[:n]
        if n == 0:
            return []
        opener = self._shuffled("opener", (*prefer_types, *FULL_OPENER_TYPES), exclude, seed)[:1]
        closing = self._shuffled("closing", (*prefer_types, *FULL_CLOSING_TYPES), exclude, seed)
        closing = closing[:1] if n > len(opener) else []
        behavioral = self._shuffled("behavioral", prefer_types, exclude, seed)
        technical = self._shuffled("technical", prefer_types, exclude, seed)
        middle: list[BankQuestion] = []
        want = n - len(opener) - len(closing)
        while len(middle) < want and (behavioral or technical):
            behavioral_turn = len(middle) % 2 == 0
            source = behavioral if (behavioral_turn and behavioral) or not technical else technical
            middle.append(source.pop(0))
        return [*opener, *middle, *closing]

    def render(
        self, question: BankQuestion | str, role: str | None = None, company: str | None = None
    ) -> str:
        """The text of ``question`` with its placeholders filled; see :func:`render`.

        ``role`` defaults to the bank's role.
        """
        return render(question, role or self.role, company)

    def match_answer(self, candidate_question: str) -> CandidateAnswer | None:
        """The reply entry that fits the candidate's question best, or ``None``.

        The entry with the most ``match`` words starting a word of the question wins (a
        family's reply beats a general one on a tie); with no match, the catch-all entry
        (empty ``match``).
        """
        text = candidate_question.casefold()
        best: CandidateAnswer | None = None
        best_hits = 0
        for a in self.answers:
            hits = sum(_starts_word(m, text) for m in a.match)
            if hits > best_hits:
                best, best_hits = a, hits
        if best is None:
            best = next((a for a in self.answers if not a.match), None)
        return best

    def answer(
        self, candidate_question: str, *, role: str | None = None, company: str | None = None
    ) -> str:
        """The interviewer's in-role reply to a question the candidate asks at the closing.

        Used when no LLM answers. ``role`` defaults to the bank's role.
        """
        found = self.match_answer(candidate_question)
        return self.render(found.answer if found else _NO_ANSWER, role, company)

    def _shuffled(
        self,
        stage: str,
        prefer_types: Sequence[str],
        exclude: Sequence[BankQuestion | str],
        seed: int,
    ) -> list[BankQuestion]:
        pool = self.questions(stage, exclude=exclude)
        # A string seed is hashed with SHA-512, so the order is the same on every run and
        # each stage has its own order (adding a question to one stage leaves the others).
        random.Random(f"{seed}:{stage}").shuffle(pool)
        return _prefer(pool, prefer_types)


def render(question: BankQuestion | str, role: str, company: str | None = None) -> str:
    """Fill ``{role}``, ``{a_role}`` and ``{company}`` in a question or reply.

    Args:
        question: A :class:`BankQuestion` or a template string.
        role: The job title, e.g. "junior data analyst" (kept as typed).
        company: The company name; empty or ``None`` gives "our company".

    Returns:
        The text, its first letter upper-cased.

    Raises:
        OptionsError: the role is empty.
    """
    text = question.text if isinstance(question, BankQuestion) else question
    role = normalise_role(role)
    if not role:
        raise OptionsError("the role is empty: give a job title, e.g. 'junior data analyst'")
    values = {
        "role": role,
        "a_role": with_article(role),
        "company": " ".join((company or "").split()) or DEFAULT_COMPANY,
    }
    out = _PLACEHOLDER_RE.sub(lambda m: values[m.group(1)], text)
    return out[:1].upper() + out[1:]


def normalise_role(role: str) -> str:
    """``role`` with its whitespace tidied ("  data   analyst " -> "data analyst")."""
    return " ".join(str(role).split())


def with_article(role: str) -> str:
    """``role`` after "a" or "an" by its first sound: "a data analyst", "an engineer", "a UX
    designer", "an HR officer"."""
    role = normalise_role(role)
    first = role.split(" ", 1)[0]
    low = first.casefold()
    if (first.isupper() and len(first) > 1 and first[0] in "AEFHILMNORSX") or (
        low in _VOWEL_ACRONYMS
    ):
        vowel_sound = True
    elif low.startswith("u"):
        vowel_sound = not low.startswith(_A_BEFORE_U)
    elif low.startswith("h"):
        vowel_sound = low.startswith(_AN_BEFORE_H)
    else:
        vowel_sound = low[:1] in ("a", "e", "i", "o") and not low.startswith(("one", "eu"))
    return f"{'an' if vowel_sound else 'a'} {role}"


def match_family(role: str, banks: Sequence[BankFile]) -> BankFile | None:
    """The family whose ``match`` fits ``role`` best, or ``None`` (fallback not included).

    A ``match`` entry fits when it starts a word of the role, case-insensitively ("design"
    fits "UX Designer", "ui" does not fit "recruiter"). The longest fitting entry wins; a tie
    goes to more fitting entries, then to the earlier file.
    """
    text = normalise_role(role).casefold()
    best: BankFile | None = None
    best_key = (0, 0)
    for f in banks:
        if not f.match:
            continue
        hits = [m for m in f.match if _starts_word(m, text)]
        if hits:
            key = (max(map(len, hits)), len(hits))
            if key > best_key:
                best, best_key = f, key
    return best


def data_dir() -> Path:
    """The folder of the shipped data files (``banks/`` and ``scenarios/``)."""
    return Path(str(resources.files("coach.interview") / "data"))


@cache
def builtin_banks() -> tuple[BankFile, ...]:
    """The shipped bank files, validated, in file-name order (read once per process)."""
    folder = data_dir() / "banks"
    paths = sorted(folder.glob("*.toml"))
    if not paths:
        raise OptionsError(f"no question banks in {folder}: reinstall coach")
    return tuple(load_bank_file(p) for p in paths)


def load_bank_file(path: str | Path) -> BankFile:
    """Read and validate one bank file.

    A bank file holds ``[[question]]`` entries (``text``, ``stage``, ``type`` and optional
    ``follow_ups`` and ``keywords``), optional ``[[candidate_question_answers]]`` (``topic``,
    ``match``, ``answer``) and, for a role family, ``[family]`` with ``name`` and ``match``
    (role words; an empty list makes it the fallback family).

    Raises:
        OptionsError: one line naming the file, the entry (1-based) and the problem: the
            file is missing or not TOML (with tomllib's line and column), a key is unknown
            or missing or of the wrong type, a stage is unknown, a text is empty or repeated,
            or a placeholder is not ``{role}``, ``{a_role}`` or ``{company}``.
    """
    path = Path(path)
    data = read_toml(path)
    check_keys(data, _BANK_KEYS, path=path, where="")
    name = path.stem
    match: tuple[str, ...] | None = None
    if "family" in data:
        family = data["family"]
        if not isinstance(family, dict):
            raise data_error(path, f"'family' must be a table ([family]), not {toml_type(family)}")
        check_keys(family, _FAMILY_KEYS, path=path, where="[family]: ")
        name = get_str(family, "name", path=path, where="[family]: ")
        match = tuple(
            m.casefold() for m in get_str_list(family, "match", path=path, where="[family]: ")
        )
    questions = parse_questions(data, path=path, source=name)
    answers = _parse_answers(data, path=path, source=name)
    return BankFile(path=path, name=name, match=match, questions=questions, answers=answers)


# ---- validation helpers, shared with scenario.py ------------------------------------------


def data_error(path: Path, problem: str) -> OptionsError:
    """An OptionsError naming ``path``, on one line."""
    return OptionsError(" ".join(f"{path}: {problem}".split()))


def read_toml(path: Path) -> dict[str, Any]:
    """The TOML file at ``path`` (a bank or a scenario); a missing or malformed file is an
    OptionsError naming it."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise data_error(path, "no such file: check the path") from None
    except IsADirectoryError:
        raise data_error(path, "is a folder, not a .toml file") from None
    except UnicodeDecodeError:
        raise data_error(path, "is not UTF-8 text: save it as UTF-8 TOML") from None
    except OSError as exc:
        raise data_error(path, f"cannot be read ({exc.strerror})") from None
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise data_error(path, f"is not valid TOML: {exc}") from None


def toml_type(value: object) -> str:
    """How a TOML value's type reads in a message."""
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int | float):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "a table"
    return "a date or time"


def check_keys(table: dict[str, Any], allowed: Sequence[str], *, path: Path, where: str) -> None:
    """Raise an OptionsError naming the keys of ``table`` that are not ``allowed``."""
    unknown = [k for k in table if k not in allowed]
    if unknown:
        names = ", ".join(repr(k) for k in unknown)
        raise data_error(
            path,
            f"{where}unknown key{'s' if len(unknown) > 1 else ''} {names}; "
            f"allowed: {', '.join(allowed)}",
        )


def get_str(
    table: dict[str, Any],
    key: str,
    *,
    path: Path,
    where: str,
    default: str | None = None,
    allow_empty: bool = False,
) -> str:
    """``table[key]`` as a stripped string; ``default`` when absent (``None``: required)."""
    if key not in table:
        if default is None:
            raise data_error(path, f"{where}missing required key '{key}'")
        return default
    value = table[key]
    if not isinstance(value, str):
        raise data_error(path, f"{where}'{key}' must be a string, not {toml_type(value)}")
    value = value.strip()
    if not value and not allow_empty:
        raise data_error(path, f"{where}'{key}' is empty")
    return value


def get_str_list(
    table: dict[str, Any],
    key: str,
    *,
    path: Path,
    where: str,
    required: bool = True,
) -> tuple[str, ...]:
    """``table[key]`` as a tuple of non-empty stripped strings (``()`` when absent and not
    required)."""
    if key not in table:
        if required:
            raise data_error(path, f"{where}missing required key '{key}'")
        return ()
    value = table[key]
    if not isinstance(value, list):
        raise data_error(path, f"{where}'{key}' must be a list of strings, not {toml_type(value)}")
    out: list[str] = []
    for i, item in enumerate(value, 1):
        if not isinstance(item, str):
            raise data_error(
                path, f"{where}'{key}' item {i} must be a string, not {toml_type(item)}"
            )
        if not item.strip():
            raise data_error(path, f"{where}'{key}' item {i} is empty")
        out.append(item.strip())
    return tuple(out)


def check_placeholders(text: str, *, path: Path, where: str, key: str) -> None:
    """Raise an OptionsError when ``text`` has a placeholder other than the known ones, or a
    stray brace."""
    rest = _PLACEHOLDER_RE.sub("", text)
    if "{" in rest or "}" in rest:
        bad = re.search(r"\{[^{}]*\}", rest)
        what = f"unknown placeholder {bad.group(0)}" if bad else "a stray '{' or '}'"
        raise data_error(
            path, f"{where}'{key}' has {what}; use {{role}}, {{a_role}} or {{company}} only"
        )


def _parse_question(raw: object, *, path: Path, index: int, source: str) -> BankQuestion:
    where = f"question {index}: "
    if not isinstance(raw, dict):
        raise data_error(path, f"{where}must be a table ([[question]]), not {toml_type(raw)}")
    check_keys(raw, _QUESTION_KEYS, path=path, where=where)
    text = get_str(raw, "text", path=path, where=where)
    stage = get_str(raw, "stage", path=path, where=where)
    if stage not in STAGES:
        raise data_error(path, f"{where}unknown stage '{stage}'; use {_alternatives(STAGES)}")
    qtype = get_str(raw, "type", path=path, where=where)
    if not _TYPE_RE.match(qtype) or len(qtype) > _TYPE_MAX_CHARS:
        raise data_error(
            path,
            f"{where}type '{qtype}' must be a short lowercase word, or words joined by '-', "
            "like 'teamwork' or 'system-design'",
        )
    follow_ups = get_str_list(raw, "follow_ups", path=path, where=where, required=False)
    keywords = get_str_list(raw, "keywords", path=path, where=where, required=False)
    check_placeholders(text, path=path, where=where, key="text")
    for f in follow_ups:
        check_placeholders(f, path=path, where=where, key="follow_ups")
    return BankQuestion(
        text=text,
        stage=stage,
        type=qtype,
        follow_ups=follow_ups,
        keywords=keywords,
        source=f"{source}:{index}",
    )


def parse_questions(data: dict[str, Any], *, path: Path, source: str) -> tuple[BankQuestion, ...]:
    """The ``[[question]]`` entries of a bank or scenario file, checked."""
    if "question" not in data:
        raise data_error(
            path, "has no questions: add [[question]] entries with text, stage and type"
        )
    raw = data["question"]
    if not isinstance(raw, list):
        raise data_error(
            path, f"'question' must be a list of [[question]] tables, not {toml_type(raw)}"
        )
    if not raw:
        raise data_error(path, "the question list is empty: add at least one [[question]]")
    questions: list[BankQuestion] = []
    first_seen: dict[str, int] = {}
    for index, entry in enumerate(raw, 1):
        q = _parse_question(entry, path=path, index=index, source=source)
        key = q.text.casefold()
        if key in first_seen:
            raise data_error(
                path, f"question {index}: repeats the text of question {first_seen[key]}"
            )
        first_seen[key] = index
        questions.append(q)
    return tuple(questions)


def _parse_answers(data: dict[str, Any], *, path: Path, source: str) -> tuple[CandidateAnswer, ...]:
    raw = data.get("candidate_question_answers", [])
    if not isinstance(raw, list):
        raise data_error(
            path,
            "'candidate_question_answers' must be a list of [[candidate_question_answers]] "
            f"tables, not {toml_type(raw)}",
        )
    answers: list[CandidateAnswer] = []
    topics: dict[str, int] = {}
    for index, entry in enumerate(raw, 1):
        where = f"candidate_question_answers {index}: "
        if not isinstance(entry, dict):
            raise data_error(path, f"{where}must be a table, not {toml_type(entry)}")
        check_keys(entry, _ANSWER_KEYS, path=path, where=where)
        topic = get_str(entry, "topic", path=path, where=where)
        if topic in topics:
            raise data_error(path, f"{where}repeats the topic '{topic}' of entry {topics[topic]}")
        topics[topic] = index
        match = tuple(m.casefold() for m in get_str_list(entry, "match", path=path, where=where))
        text = get_str(entry, "answer", path=path, where=where)
        check_placeholders(text, path=path, where=where, key="answer")
        answers.append(CandidateAnswer(topic, match, text, source=f"{source}:{index}"))
    return tuple(answers)


def _alternatives(items: Sequence[str]) -> str:
    return ", ".join(items[:-1]) + " or " + items[-1]


def _check_stage(stage: str, allowed: Sequence[str]) -> None:
    if stage not in allowed:
        raise OptionsError(f"unknown stage {stage!r}: use {_alternatives(allowed)}")


def _exclusions(exclude: Iterable[BankQuestion | str]) -> set[str]:
    return {(q.text if isinstance(q, BankQuestion) else str(q)).casefold() for q in exclude}


def _prefer(pool: list[BankQuestion], prefer_types: Sequence[str]) -> list[BankQuestion]:
    """``pool`` with the preferred types first, in ``prefer_types`` order; stable."""
    rank: dict[str, int] = {}
    for t in prefer_types:
        rank.setdefault(t, len(rank))
    return sorted(pool, key=lambda q: rank.get(q.type, len(rank)))


def _starts_word(needle: str, haystack: str) -> bool:
    """Whether ``needle`` occurs in ``haystack`` (both lower case) at the start of a word."""
    return re.search(r"(?<![a-z0-9])" + re.escape(needle), haystack) is not None


__all__ = [
    "DEFAULT_COMPANY",
    "FULL_CLOSING_TYPES",
    "FULL_OPENER_TYPES",
    "PLACEHOLDERS",
    "PLAN_STAGES",
    "STAGES",
    "Bank",
    "BankFile",
    "BankQuestion",
    "CandidateAnswer",
    "builtin_banks",
    "data_dir",
    "load_bank_file",
    "match_family",
    "normalise_role",
    "render",
    "with_article",
]
