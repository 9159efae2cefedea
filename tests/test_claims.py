"""Claims of a talk, questions planned from them, numbers said as spoken (pure)."""

from __future__ import annotations

import pytest

from coach.analysis.claims import (
    ASK_KINDS,
    PERSONA_KINDS,
    find_claims,
    number_words,
    persona_kinds,
    plan_questions,
    spoken_numbers,
)

TALK = (
    "Good morning everyone. Today I want to talk about our bus network. "
    "Last year we lost 900 trips a day on route 12, because the buses were stuck in traffic. "
    "A bus lane on Hill Road would cut the trip from 40 minutes to 25. "
    "It would cost about $2.4 million, which the road safety fund can cover. "
    "Some shop owners worry about losing parking, but a study in Leeds found sales rose 4%. "
    "The council votes on the plan in March. "
    "Thank you."
)


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("School starts at 845 instead of 730.", "School starts at eight forty-five instead of "
         "seven thirty."),
        ("We open at 9:00 and close at 5:30 pm.", "We open at nine o'clock and close at five "
         "thirty pm."),
        ("In 2019 we had 900 trips.", "In twenty nineteen we had nine hundred trips."),
        ("It costs $2.4 million.", "It costs two point four million dollars."),
        ("Sales rose 40% in 2003.", "Sales rose forty percent in two thousand three."),
        ("She came 3rd and then 21st.", "She came third and then twenty-first."),
        ("We had 300 students at 845.", "We had three hundred students at eight forty-five."),
        ("A 1,250 page report.", "A one thousand two hundred fifty page report."),
        ("No numbers here.", "No numbers here."),
        # as tiny.en writes them
        ("Our school started 845 instead of 730.", "Our school started eight forty-five "
         "instead of seven thirty."),
        ("An extra $200 ,000 a year.", "An extra two hundred thousand dollars a year."),
        ("Some 2 -3rds of students.", "Some two-thirds of students."),
        ("The shop opens at 9 and 1200 people came.", "The shop opens at nine and one "
         "thousand two hundred people came."),
        # a price after "at" is no clock time (round bk: "stayed at six forty")
        ("The full share stayed at $640 for 20 weeks.", "The full share stayed at six "
         "hundred forty dollars for twenty weeks."),
        ("A coffee at $3.50 and a bun at £0.80.", "A coffee at three dollars fifty and a "
         "bun at eighty pence."),
        ("Prices rose to $12.00 and then $2.4 million.", "Prices rose to twelve dollars and "
         "then two point four million dollars."),
    ],
)  # fmt: skip
def test_numbers_are_said_as_a_speaker_would(text: str, said: str) -> None:
    assert spoken_numbers(text) == said


def test_number_words() -> None:
    assert number_words(0) == "zero"
    assert number_words(845) == "eight hundred forty-five"
    assert number_words(2_400_017) == "two million four hundred thousand seventeen"


def test_claims_are_the_sentences_that_claim_something() -> None:
    claims = find_claims(TALK)
    texts = [c.text for c in claims]
    assert not any(t.startswith(("Good morning", "Today I want", "Thank")) for t in texts)
    assert len(claims) == 5
    lost = claims[0]
    assert "nine hundred trips" in lost.text and "900" not in lost.text
    assert {"figure", "cause"} <= set(lost.types)
    assert "proposal" in claims[1].types or "comparison" in claims[1].types
    assert "cost" in claims[2].types
    assert {"objection", "study"} <= set(claims[3].types)
    assert "next_step" in claims[4].types


def test_personas_reach_for_their_own_kinds() -> None:
    claims = find_claims(TALK)
    for persona, first in (("skeptical", {"evidence", "objection", "cost", "limits"}),
                           ("expert", {"method", "limits", "transfer", "evidence"}),
                           ("curious", {"example", "transfer", "next_steps", "clarification",
                                        "cost"})):  # fmt: skip
        plans = plan_questions(claims, persona, 4)
        assert len(plans) == 4
        assert all(p.kind in first for p in plans), (persona, [p.kind for p in plans])
        assert len({p.claim.index for p in plans}) == 4  # four different claims
        assert all(p.kind in ASK_KINDS for p in plans)


def test_a_described_persona_is_followed() -> None:
    kinds = persona_kinds("a city council member worried about the budget")
    assert kinds[0] == "cost" and "next_steps" in kinds[:4]
    plans = plan_questions(find_claims(TALK), "a treasurer who checks every cost", 2)
    assert plans[0].kind == "cost"
    assert persona_kinds("skeptical") == PERSONA_KINDS["skeptical"]


def test_plans_continue_from_what_was_asked() -> None:
    claims = find_claims(TALK)
    first = plan_questions(claims, "expert", 2)
    more = plan_questions(claims, "expert", 3, asked=first)
    assert {p.claim.index for p in more}.isdisjoint({p.claim.index for p in first})
    again = plan_questions(claims, "expert", 10)
    assert len(again) == 10  # claims are reused once all were asked about


def test_no_claims_no_plans() -> None:
    assert find_claims("Hello. Thank you.") == []
    assert plan_questions([], "curious", 3) == []


@pytest.mark.parametrize(
    ("heard", "said"),
    [
        ("will cost around 900 pounds", "will cost around nine hundred pounds"),
        ("came back to around 400 a week", "came back to around four hundred a week"),
        ("we open at 700 and close at 930", "we open at seven o'clock and close at nine thirty"),
        (
            "The governors decide on 12 December.",
            "The governors decide on the twelfth of December.",
        ),
        ("a vote on June 12", "a vote on June twelfth"),
        ("in March 2024 we had 40 crashes", "in March twenty twenty-four we had forty crashes"),
        ("booked back in before 2200. Every", "booked back in before twenty-two hundred. Every"),
        ("at 2130 the doors close", "at twenty-one thirty the doors close"),
        ("it rose by 2200 last year", "it rose by two thousand two hundred last year"),
        ("we had 2200 visitors", "we had two thousand two hundred visitors"),
    ],
)
def test_amounts_are_not_times_and_dates_are_said_as_dates(heard: str, said: str) -> None:
    assert spoken_numbers(heard) == said


@pytest.mark.parametrize(
    ("heard", "said"),
    [
        ("about euros 15,000 for slate", "about fifteen thousand euros for slate"),
        ("I'm asking for pound 8400", "I'm asking for eight thousand four hundred pounds"),
        ("₹6.8 lakh for the chargers", "six point eight lakh rupees for the chargers"),
        ("the euro is strong", "the euro is strong"),
    ],
)  # fmt: skip
def test_currency_written_before_the_number_is_said_after_it(heard: str, said: str) -> None:
    assert spoken_numbers(heard) == said


def test_an_ask_opened_with_today_is_a_claim_not_the_talks_announcement() -> None:
    assert find_claims("Today I'm asking the assembly to vote on a change to our payment rules.")
    assert not find_claims("Today I'm going to talk about our payment rules and the change.")


def test_a_number_written_with_a_comma_is_a_count_not_a_year() -> None:
    # round aw: "You said you had installed thirteen twelve. Is that more or less than
    # usual?" (0 of 8; the talk said "one thousand three hundred and twelve" stoves, and
    # tiny.en wrote "1 ,312")
    said = spoken_numbers("By the end of October, we had installed 1 ,312.")
    assert said == "By the end of October, we had installed one thousand three hundred twelve."
    assert spoken_numbers("The hall was built in 1912.") == "The hall was built in nineteen twelve."
    assert spoken_numbers("That was 1998.") == "That was nineteen ninety-eight."
