"""The mock interview: question banks by stage and role, and practice scenarios.

An interview runs opener -> behavioural -> role (``technical``) -> closing. A local LLM picks
and adapts questions from a :class:`Bank`; without it the interview runs from the bank
alone (:meth:`Bank.plan`, :meth:`Bank.answer`). Other practice conversations (salary
negotiation, networking) run on the same engine from a :class:`Scenario` file.
"""

from __future__ import annotations

from coach.interview.banks import (
    PLAN_STAGES,
    STAGES,
    Bank,
    BankFile,
    BankQuestion,
    CandidateAnswer,
    builtin_banks,
    load_bank_file,
    match_family,
    render,
)
from coach.interview.scenario import PERSONAS, Scenario, builtin_scenarios, load_scenario

__all__ = [
    "PERSONAS",
    "PLAN_STAGES",
    "STAGES",
    "Bank",
    "BankFile",
    "BankQuestion",
    "CandidateAnswer",
    "Scenario",
    "builtin_banks",
    "builtin_scenarios",
    "load_bank_file",
    "load_scenario",
    "match_family",
    "render",
]
