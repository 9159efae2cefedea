"""The question ranker: features, the fitted weights it ships with, and how the audience
uses it to order and stop (pure, no model)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from coach.analysis import asking, ranking
from coach.analysis.asking import ranked_questions
from coach.analysis.claims import find_claims
from coach.analysis.ranking import QuestionRanker, clause_position, question_features
from coach.audience import Audience, AudienceOptions

TALK = (
    "Good evening everyone. Thanks for having me. "
    "Last spring we ran a six week trial with a bus every ten minutes on the number four. "
    "Ridership went up from three thousand to four thousand one hundred a day. "
    "It needs four more buses and eight more drivers, about two million dollars a year. "
    "The council's transport fund would cover most of that. "
    "So I propose that we make the ten-minute service permanent from September. "
    "Let's open it up for questions before you vote."
)


def test_features_say_where_the_clause_sits_and_what_it_is() -> None:
    f = question_features("you ran a trial", "How was that measured?", "method",
                          frozenset({"study"}), index=0, sentences=5)  # fmt: skip
    assert f["frame=How was that measured?"] == 1.0
    assert f["kind=method"] == 1.0 and f["facet=study"] == 1.0
    assert f["first=you"] == 1.0 and f["position"] == 0.0
    assert f["first_two_sentences"] == 1.0 and f["last_two_sentences"] == 0.0
    assert f["words/10"] == pytest.approx(0.4)
    last = question_features("so it ends with", "Why?", "", frozenset(), index=4, sentences=5)
    assert last["position"] == 1.0 and last["last_two_sentences"] == 1.0
    assert last["first=so"] == 1.0 and last["ends_on_stop_word"] == 1.0
    assert not any(k.startswith("kind=") for k in last)
    assert clause_position(3, 1) == 3.0 and clause_position(1, 3) == 0.5


def test_a_missing_or_broken_weights_file_ranks_every_question_alike(tmp_path: Path) -> None:
    broken = tmp_path / "ranker.json"
    broken.write_text("{not json")
    for path in (tmp_path / "missing.json", broken):
        r = QuestionRanker.load(path)
        assert r.probability({"frame=How was that measured?": 1.0}) == 0.5
        assert r.ask_above == 0.0


def test_the_shipped_ranker_was_fitted_on_blind_verdicts() -> None:
    data = json.loads(ranking.RANKER_FILE.read_text())
    r = ranking.default_ranker()
    assert r.weights and 0.0 < r.ask_above < 1.0
    assert data["about"]["rows"] >= 500  # judged questions it learned from
    cv = data["about"]["leave_one_set_out"]["per_talk"]
    assert cv["top1"] > cv["all"]  # ranked first beats the average, on unseen talk sets


def test_a_quoted_result_ranks_above_the_closing_line() -> None:
    claims = find_claims(TALK)
    result = next(c for c in claims if "Ridership" in c.text)
    p_result = max(p for _l, _q, p in ranked_questions(result, "method", TALK)
                   + ranked_questions(result, "evidence", TALK))  # fmt: skip
    closing = question_features("let's open it up for questions before you vote",
                                "Are there any side effects you're worried about?", "cost",
                                asking.facets("let's open it up for questions before you vote"),
                                index=7, sentences=8)  # fmt: skip
    assert p_result > ranking.default_ranker().probability(closing)


def test_ranked_questions_put_the_likeliest_first() -> None:
    talk = "Ridership went up from three thousand to four thousand a day last month."
    claim = find_claims(talk)[0]
    ranked = ranked_questions(claim, "evidence", talk)
    likelihoods = [p for *_lq, p in ranked]
    assert len(ranked) >= 2 and likelihoods == sorted(likelihoods, reverse=True)
    assert all(lead.startswith("You said ") for lead, _q, _p in ranked)


REPORT = TALK.replace(
    "So I propose that we make the ten-minute service permanent from September. ", ""
)
"""The talk without its proposal (which is asked about as a whole first, unranked)."""


def _ranker_preferring(frame: str, monkeypatch: pytest.MonkeyPatch) -> None:
    r = QuestionRanker({f"frame={frame}": 4.0}, -2.0, ask_above=0.5)
    monkeypatch.setattr(asking, "default_ranker", lambda: r)
    monkeypatch.setattr("coach.audience.default_ranker", lambda: r)


def test_the_audience_asks_its_likeliest_question_first(monkeypatch: pytest.MonkeyPatch) -> None:
    later = "How was that measured?"  # not the curious one's first
    _ranker_preferring(later, monkeypatch)
    audience = Audience(None, REPORT, AudienceOptions(persona="curious", wording="grounded"))
    first = audience.next_question(optional=True)
    assert first is not None and first.text == later
    assert first.likelihood == pytest.approx(0.88, abs=0.01)
    assert first.to_dict()["likelihood"] == pytest.approx(first.likelihood, abs=1e-3)


def test_after_the_first_the_audience_asks_only_likely_questions(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _ranker_preferring("No frame is called this.", monkeypatch)  # every question at 0.12
    audience = Audience(None, REPORT, AudienceOptions(wording="grounded"))
    asked = list(audience.questions(4))
    # the best it has, then one more on the same point (no new quote), then it stops:
    # nothing else a listener would likely ask
    assert len(asked) == 2
    assert asked[0].likelihood == pytest.approx(0.12, abs=0.01)
    assert asked[0].lead_in.startswith("You said ")
    assert asked[1].lead_in == "Still on that point." and asked[1].focus == asked[0].focus
    assert audience.next_question() is not None  # not optional: it still asks


def test_a_likely_question_comes_first_for_a_curious_listener_too(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _ranker_preferring("What could delay that?", monkeypatch)
    plan = REPORT.replace(
        "Let's", "We will make the ten-minute service permanent from September. Let's"
    )
    audience = Audience(None, plan, AudienceOptions(wording="grounded", persona="curious"))
    asked = list(audience.questions(2))
    assert asked and asked[0].text == "What could delay that?"
