"""Practice scenarios: other conversations run on the interview engine from one TOML file.

A scenario says who the partner is (``persona``), what they say first (``opening_line``),
what the user practises (``goals``) and the partner's turns (``[[question]]`` entries, the
same fields as in a question bank). Two ship with coach: ``salary-negotiation`` (a hiring
manager makes an offer and the user negotiates it) and ``networking`` (small talk at a
meetup with a quiet person, so the user practises re-engaging with open questions).
``load_scenario`` takes one of those names or the path of your own file.

Top-level keys of a scenario file:

=================  =========  ===========================================================
key                required   meaning
=================  =========  ===========================================================
name               no         short name (default: the file name without ``.toml``)
role               yes        the job the practice is about; fills ``{role}``
persona            yes        warm, neutral, skeptical, or a description of the partner
opening_line       yes        the partner's first line
goals              yes        what the user practises, one line each
stage_order        no         stages in the order they are played (default: the stages
                              the questions use, in interview order)
max_questions      no         at most this many turns (default: all the questions)
reengage           no         true when the partner is quiet and gives short answers
notes              no         extra instructions for the partner (the LLM's prompt)
[[question]]       yes        the partner's turns: text, stage, type, follow_ups, keywords
=================  =========  ===========================================================
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from coach.errors import OptionsError
from coach.interview.banks import (
    STAGES,
    Bank,
    BankQuestion,
    builtin_banks,
    check_keys,
    check_placeholders,
    data_dir,
    data_error,
    get_str,
    get_str_list,
    parse_questions,
    read_toml,
    toml_type,
)

PERSONAS: dict[str, str] = {
    "warm": "a warm, encouraging interviewer who puts the candidate at ease",
    "neutral": "a neutral, professional interviewer who keeps to the point",
    "skeptical": "a skeptical interviewer who probes claims and asks for evidence",
}
"""Built-in personas; any other non-empty text is used as a description of the partner."""

_REQUIRED = ("role", "persona", "opening_line", "goals", "question")
_OPTIONAL = ("name", "stage_order", "max_questions", "reengage", "notes")
_SCENARIO_KEYS = (*_REQUIRED, *_OPTIONAL)


@dataclass(frozen=True)
class Scenario:
    """A practice conversation, as :func:`load_scenario` reads it."""

    name: str
    """Short name, e.g. ``networking``."""
    role: str
    """The job the practice is about; fills ``{role}`` (the CLI's ``--role`` may replace
    it)."""
    persona: str
    """warm, neutral, skeptical, or free text describing the partner."""
    opening_line: str
    """What the partner says first; may hold ``{role}``, ``{a_role}`` and ``{company}``."""
    goals: list[str]
    """What the user practises, one line each (shown before and scored after)."""
    questions: list[BankQuestion]
    """The partner's turns, in file order."""
    stage_order: list[str]
    """The stages in the order they are played."""
    max_questions: int
    """At most this many turns in one run."""
    reengage: bool = False
    """True when the partner is quiet and gives short answers, so the user has to keep the
    conversation going with open questions."""
    notes: str = ""
    """Extra instructions for the partner, for the LLM's prompt."""
    path: Path | None = field(default=None, compare=False)
    """The file it was read from."""

    @property
    def persona_text(self) -> str:
        """The persona as a description: a built-in's description, or the free text."""
        return PERSONAS.get(self.persona, self.persona)

    def bank(self) -> Bank:
        """The scenario's turns as a :class:`Bank` (with the general replies to the user's
        questions at the closing), so the engine treats a scenario like an interview."""
        general = [a for f in builtin_banks() if not f.is_family for a in f.answers]
        return Bank(
            entries=tuple(self.questions),
            answers=tuple(general),
            role=self.role,
            family=f"scenario:{self.name}",
        )

    def plan(self, n: int | None = None) -> list[BankQuestion]:
        """The turns to play, in ``stage_order`` and then file order.

        At most ``min(n, max_questions)``; when turns are dropped, they are dropped from
        before the last one, so a scenario that ends with a closing still ends with it.

        Raises:
            OptionsError: ``n`` is not a whole number of 0 or more.
        """
        if n is not None and (isinstance(n, bool) or not isinstance(n, int) or n < 0):
            raise OptionsError(f"the number of questions must be a whole number >= 0, not {n!r}")
        limit = self.max_questions if n is None else min(n, self.max_questions)
        ordered = [q for s in self.stage_order for q in self.questions if q.stage == s]
        if len(ordered) <= limit:
            return ordered
        if limit == 0:
            return []
        return [*ordered[: limit - 1], ordered[-1]]


def builtin_scenarios() -> dict[str, Path]:
    """The shipped scenarios by name (``networking``, ``salary-negotiation``)."""
    folder = data_dir() / "scenarios"
    return {p.stem: p for p in sorted(folder.glob("*.toml"))}


def load_scenario(path_or_name: str | os.PathLike[str]) -> Scenario:
    """Read and validate a scenario: a built-in name or the path of a TOML file.

    Args:
        path_or_name: ``salary-negotiation``, ``networking``, or a path.

    Raises:
        OptionsError: one line naming the file and the problem: not found, not TOML, a
            required key missing, an unknown key, a value of the wrong type, an empty
            persona or goal, an empty question list, or a stage not in ``stage_order``.
    """
    builtins = builtin_scenarios()
    key = str(path_or_name).strip()
    if key in builtins:
        path = builtins[key]
    else:
        path = Path(path_or_name)
        if not path.is_file():
            names = ", ".join(builtins)
            raise OptionsError(
                f"scenario {key!r} not found: use a built-in name ({names}) "
                "or the path of a .toml scenario file"
            )
    data = read_toml(path)
    check_keys(data, _SCENARIO_KEYS, path=path, where="")
    for k in _REQUIRED:
        if k not in data:
            hint = "add [[question]] entries" if k == "question" else f"add {k} = ..."
            raise data_error(path, f"missing required key '{k}': {hint}")
    name = get_str(data, "name", path=path, where="", default=path.stem)
    role = get_str(data, "role", path=path, where="")
    persona = get_str(data, "persona", path=path, where="")
    if persona.casefold() in PERSONAS:
        persona = persona.casefold()
    opening_line = get_str(data, "opening_line", path=path, where="")
    check_placeholders(opening_line, path=path, where="", key="opening_line")
    goals = get_str_list(data, "goals", path=path, where="")
    if not goals:
        raise data_error(path, "goals is empty: list what the user practises, one string each")
    questions = parse_questions(data, path=path, source=f"scenario {name}")
    stage_order = _stage_order(data, questions, path=path)
    max_questions = _max_questions(data, default=len(questions), path=path)
    reengage = data.get("reengage", False)
    if not isinstance(reengage, bool):
        raise data_error(path, f"'reengage' must be true or false, not {toml_type(reengage)}")
    notes = get_str(data, "notes", path=path, where="", default="", allow_empty=True)
    return Scenario(
        name=name,
        role=role,
        persona=persona,
        opening_line=opening_line,
        goals=list(goals),
        questions=list(questions),
        stage_order=stage_order,
        max_questions=max_questions,
        reengage=reengage,
        notes=notes,
        path=path,
    )


def _stage_order(
    data: dict[str, Any], questions: tuple[BankQuestion, ...], *, path: Path
) -> list[str]:
    used = [s for s in STAGES if any(q.stage == s for q in questions)]
    if "stage_order" not in data:
        return used
    order = list(get_str_list(data, "stage_order", path=path, where=""))
    if not order:
        raise data_error(path, f"stage_order is empty: list the stages to play, e.g. {used}")
    for s in order:
        if s not in STAGES:
            raise data_error(path, f"stage_order has unknown stage '{s}'; use {', '.join(STAGES)}")
        if order.count(s) > 1:
            raise data_error(path, f"stage_order lists '{s}' twice")
        if s not in used:
            raise data_error(path, f"stage_order lists '{s}' but no question has that stage")
    for i, q in enumerate(questions, 1):
        if q.stage not in order:
            raise data_error(
                path,
                f"question {i}: stage '{q.stage}' is not in stage_order {order}; "
                "add it there or change the question's stage",
            )
    return order


def _max_questions(data: dict[str, Any], *, default: int, path: Path) -> int:
    value = data.get("max_questions", default)
    if isinstance(value, bool) or not isinstance(value, int):
        raise data_error(path, f"'max_questions' must be a whole number, not {toml_type(value)}")
    if value < 1:
        raise data_error(path, f"'max_questions' must be 1 or more, not {value}")
    return value


__all__ = ["PERSONAS", "Scenario", "builtin_scenarios", "load_scenario"]
