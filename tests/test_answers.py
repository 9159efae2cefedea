"""Answer judgement (pure): addressed, partial, off the topic or dodged, with the reason.

The figures that count are `make bench-judge`'s, on pairs written before this code by
someone who never saw it; these tests pin the behaviour of each rule.
"""

from __future__ import annotations

import pytest

from coach.analysis.answers import (
    Relevance,
    _judge_weights,
    gives,
    judge_answer,
    topic_overlap,
    wanted,
)

CLAIM = "A protected bike lane on Elm Street would cost one point two million dollars."


@pytest.mark.parametrize(
    ("question", "asks"),
    [
        ("How much would the lane cost each year?", "an amount"),
        ("When does the council vote?", "a time"),
        ("Who decides whether it goes ahead?", "who"),
        ("Why did ridership go up?", "a reason"),
        ("How did you count the trips?", "how it was found"),
        ("Could you give us an example?", "an example"),
        ("What happens if the vote fails?", "what happens"),
        ("Where would the skate park go?", "a place"),
        ("Would the result hold in a smaller town?", "yes or no"),
        ("Tell me about yourself.", ""),
    ],
)
def test_what_a_question_asks_for(question: str, asks: str) -> None:
    assert wanted(question) == asks


def test_words_the_question_used_do_not_count_as_given() -> None:
    q = "How was the sleep survey run?"
    assert not gives("The survey was really interesting to everyone.", "how it was found", q)
    assert gives("An online form in homerooms, filled in by eight hundred students.",
                 "how it was found", q)  # fmt: skip


def test_topic_overlap_leaves_numbers_out_and_matches_word_families() -> None:
    assert topic_overlap("Who decides?", "The decision is the council's.") == ["decid"]
    assert topic_overlap("three chats at once", "Three of us run a marathon.") == []


@pytest.mark.parametrize(
    ("question", "answer", "verdict"),
    [
        ("How did you count the nine hundred trips?", "We put two counters on the lamp posts "
         "for three weeks and checked them against a manual count.", "addressed"),
        ("How did you count the nine hundred trips?", "Nine hundred trips is a lot, and it "
         "shows how many people ride there already.", "partial"),
        ("What would the lane cost to maintain?", "I really enjoyed preparing this talk. My "
         "dog sat with me the whole weekend.", "off_topic"),
        ("Wouldn't shops lose customers?", "That's a great question, and it's something "
         "we'll keep an eye on as we go.", "dodged"),
        ("How much more would the buses cost?", "I'm not totally sure, but roughly two "
         "hundred thousand dollars a year, because the runs can't be shared.", "addressed"),
        ("Who decides, and when?", "The council votes in March.", "addressed"),
        ("Why two reviewers for payments?", "Because four of the breaks were in payments.",
         "addressed"),
        ("Why two reviewers for payments?", "", "no_answer"),
    ],
)  # fmt: skip
def test_verdicts(question: str, answer: str, verdict: str) -> None:
    j = judge_answer(question, answer, context=CLAIM)
    assert j.verdict == verdict, j.reason
    assert j.addressed == (verdict == "addressed")
    assert j.reason


# --- with a judge model's odds (the weights in coach/analysis/answer_judge.json) ---

Q_WHO = "Who will pay for the repair?"
A_ON_TOPIC = "The roof has leaked for years and it really needs doing, buckets are everywhere."
A_GIVES = "About a fortnight, maybe less, and we'd do it over the summer holidays."


def test_without_odds_the_judgement_is_the_rules_alone() -> None:
    j = judge_answer(Q_WHO, A_ON_TOPIC, context="Fixing the gym roof.")
    assert j.support is None and "judge model" not in j.reason


def test_confident_no_overrules_a_rules_pass_and_says_why() -> None:
    q = "How long will the gym be closed?"
    a = "The gym roof has leaked for years, the gym buckets are everywhere and gym classes moved."
    assert judge_answer(q, a).addressed  # shares "gym", gives "years": the rules let it pass
    j = judge_answer(q, a, support=0.02)
    assert not j.addressed and j.verdict == "partial"
    assert "judge model gives 2%" in j.reason and j.support == 0.02


def test_confident_yes_overrules_a_rules_miss() -> None:
    q = "How long will the gym be closed?"
    assert not judge_answer(q, "A fortnight.").addressed  # too short, shares no word
    j = judge_answer(q, "A fortnight.", support=0.97)
    assert j.addressed and j.verdict == "addressed"
    assert "judge model gives 97%" in j.reason and "by the words alone" in j.reason


def test_a_deflection_stays_dodged_when_the_model_is_unsure() -> None:
    j = judge_answer("What will it cost?", "I'd rather not put a number on it tonight, we'll "
                     "see what the quotes say.", support=0.5)  # fmt: skip
    assert j.verdict == "dodged" and not j.addressed


def test_no_answer_is_no_answer_whatever_the_model_says() -> None:
    assert judge_answer(Q_WHO, "", support=0.99).verdict == "no_answer"


def test_the_judgement_rises_with_the_odds() -> None:
    verdicts = [judge_answer(Q_WHO, A_GIVES, support=p).addressed
                for p in (0.01, 0.1, 0.3, 0.5, 0.7, 0.9, 0.99)]  # fmt: skip
    assert verdicts == sorted(verdicts)  # once addressed, more confidence keeps it so
    assert verdicts[0] is False and verdicts[-1] is True


def test_a_missed_answer_off_the_subject_is_off_topic_and_on_it_partial() -> None:
    q = "How long will the gym be closed?"
    a = "The gym roof has leaked for years, the gym buckets are everywhere and gym classes moved."
    off = judge_answer(q, a, support=0.02, on_subject=0.05)
    on = judge_answer(q, a, support=0.02, on_subject=0.95)
    assert (off.verdict, on.verdict) == ("off_topic", "partial")
    assert "5% that it is about the question's subject" in off.reason
    dodge = judge_answer("What will it cost?", "I'd rather not put a number on it tonight, we'll "
                         "see what the quotes say.", support=0.5, on_subject=0.01)  # fmt: skip
    assert dodge.verdict == "dodged"  # a deflection stays one, whatever the subject


def test_relevance_is_the_gain_the_question_gives_each_token() -> None:
    r = Relevance.from_logprobs([-1.0, -2.0, -0.5], [-3.0, -2.5, -0.5])
    assert r.total_nats == pytest.approx(2.5) and r.per_token_nats == pytest.approx(2.5 / 3)
    assert Relevance.from_logprobs([], []) == Relevance(0.0, 0.0)
    assert Relevance.from_logprobs([-1.0, -1.0], [-2.0]).total_nats == pytest.approx(1.0)


def test_the_judgement_rises_with_the_questions_gain_and_none_counts_as_typical() -> None:
    said = [judge_answer(Q_WHO, A_GIVES, support=0.4, relevance=Relevance(g, g * 20)).addressed
            for g in (-1.0, 0.0, 0.3, 0.6, 1.0, 2.0, 4.0)]  # fmt: skip
    assert said == sorted(said) and said[0] is False and said[-1] is True
    typical = Relevance(**_judge_weights()["typical_gain"])
    for p in (0.1, 0.4, 0.6, 0.9):
        assert judge_answer(Q_WHO, A_GIVES, support=p) == judge_answer(
            Q_WHO, A_GIVES, support=p, relevance=typical
        )
