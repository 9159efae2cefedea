"""Grounded questions: whole clauses quoted back, frames that fit the claim, never asking
what the talk said (pure functions, no model)."""

from __future__ import annotations

import re

import pytest

from coach.analysis.asking import (
    FRAMES,
    UNSURE_BELOW,
    _second_person,
    ask_clause,
    disputed_words,
    facets,
    fitting_kinds,
    frames_for,
    grounded_questions,
    has_unsure,
    is_tribute,
    put_forward,
    quotable_clause,
    said_clause,
    scripted,
    unsure_set,
    unsure_words,
    whole_frame_kinds,
    whole_proposal_questions,
)
from coach.analysis.claims import ASK_KINDS, find_claims, spoken_numbers

TALK = (
    "Good evening. Right now the average customer waits nine hours for a first reply. "
    "In a two week trial in October, customers who used chat got a first reply in four "
    "minutes, and their satisfaction score went from 71 to 84. "
    "The software costs about $400 a month. "
    "The risk is that complicated billing questions don't fit well into chat. "
    "So I propose that we switch the help page to chat in November."
)


def _claim(fragment: str):
    return next(c for c in find_claims(TALK) if fragment in c.text)


def _asks(claim, kind: str, talk: str) -> list[str]:
    """The grounded questions of one kind about a claim, without their lead-ins."""
    return [q for _l, q in grounded_questions(claim, kind, talk)]


@pytest.mark.parametrize(
    ("sentence", "clause"),
    [
        ("Last year we merged 140 changes without review.",
         "Last year we merged 140 changes without review"),
        # the clause with the figure, not the one before it
        ("It needs four more buses, and the total cost is about two million dollars a year.",
         "the total cost is about two million dollars a year"),
        # a recogniser's slip after a whole clause is left out
        ("In the trial we moved one hundred sixty patients and to add to go.",
         "In the trial we moved one hundred sixty patients"),
        # opening on when, then subject and verb: whole
        ("By December we had sixty-two.", "By December we had sixty-two"),
    ],
)  # fmt: skip
def test_quotable_clause_is_a_whole_clause(sentence: str, clause: str) -> None:
    assert quotable_clause(sentence) == clause


@pytest.mark.parametrize(
    "sentence",
    [
        "When from sixty-one percent to seventy-four percent over the term.",  # no main clause
        "Next, we'll the plan to the park board in April.",  # words no speaker says
        "Every three decibels is roughly a in the sound energy.",  # an article, no noun
        "Last week we had seventeenth.",  # "seventeen" heard as an ordinal
        "In June we had third or four dishes on the specials board.",
        "So you can check our figures yourselves.",  # speaks to the audience
        "It does, for a season.",  # leans on the sentence before
    ],
)
def test_no_fragment_is_quoted(sentence: str) -> None:
    assert quotable_clause(sentence) == ""


def test_said_clause_speaks_to_the_speaker() -> None:
    assert said_clause("Our team answered about 12,000 emails.") == (
        "your team answered about 12,000 emails"
    )
    assert said_clause("I think we should stop the trial, because it is slow.") == (
        "you think you should stop the trial"
    )
    # a name keeps its capital when the talk writes it mid-sentence too
    talk = "Toronto tried it first. A study in Toronto found sales went up."
    assert said_clause("Toronto saw sales go up by a fifth.", talk=talk).startswith("Toronto")


def test_facets_name_what_a_claim_does() -> None:
    assert {"change", "figure"} <= facets("Satisfaction went from seventy-one to eighty-four.")
    assert "money" in facets("The software costs about four hundred dollars a month.")
    assert "plan" in facets("So I propose that we switch the help page to chat.")
    assert "plan" not in facets("I want to share a result from our pond study.")
    assert "worry" in facets("Some shop owners worry they'll lose customers.")
    assert "estimate" not in facets("Ridership went up to four thousand a day.")


def test_every_frame_is_a_question_of_a_known_kind() -> None:
    for frame in FRAMES:
        assert frame.kind in ASK_KINDS
        assert frame.text.endswith("?") and frame.text[0].isupper()
        assert not frame.needs & frame.avoid


def test_a_measured_change_gets_method_and_example_questions() -> None:
    claim = _claim("satisfaction score")
    kinds = fitting_kinds(claim, TALK)
    assert {"example", "method"} <= set(kinds)
    (lead_in, question), *_ = grounded_questions(claim, "method", TALK)
    assert lead_in == "You said their satisfaction score went from seventy-one to eighty-four."
    assert question == "How was that measured?"
    # not "Could something else have caused that change?": blind reviewers accepted it in
    # 32 % of verdicts over rounds aa-ch, the lowest of any frame
    assert "evidence" not in kinds


def test_a_question_the_talk_answers_is_not_asked() -> None:
    claim = _claim("I propose")
    # the talk gives the cost: "what would it cost" is not asked
    cost = [q for _lead, q in grounded_questions(claim, "cost", TALK)]
    assert "What would it cost, and who would pay for it?" not in cost
    # the talk names its risk: "any side effects?" is not asked; without it, it is
    side = "Are there any side effects you're worried about?"
    assert side not in cost
    unsaid = TALK.replace(
        "The risk is that complicated billing questions don't fit well into chat. ", ""
    )
    assert side in [q for _lead, q in grounded_questions(claim, "cost", unsaid)]


def test_a_price_is_not_measured() -> None:
    claim = _claim("software costs")
    assert "method" not in fitting_kinds(claim, TALK)
    assert grounded_questions(claim, "method", TALK) == []


def test_asked_questions_are_not_repeated() -> None:
    claim = _claim("satisfaction score")
    first = grounded_questions(claim, "evidence", TALK)
    spoken = [f"{lead} {q}" for lead, q in first[:1]]
    again = grounded_questions(claim, "evidence", TALK, asked=spoken)
    assert all(f"{lead} {q}" not in spoken for lead, q in again)


def test_a_clause_with_a_word_the_recogniser_was_unsure_of_is_not_quoted() -> None:
    sentence = "So I'm proposing we bring the hall down to 26 pounds an hour for community groups."
    heard = [(w, 0.9) for w in sentence.split()]

    def unsure(word: str) -> frozenset:
        return unsure_set(unsure_words([(w, 0.1 if w == word else p) for w, p in heard]))

    assert "hall" in said_clause(sentence)
    assert said_clause(sentence, unsure=unsure("hall")) == ""
    assert said_clause(sentence, unsure=unsure("26")) == ""  # a figure, said in words
    # an unsure word elsewhere in the talk, between other words, does not count
    elsewhere = unsure_set([("of", "the", "year")])
    assert "hall" in said_clause(sentence, unsure=elsewhere)
    assert said_clause(sentence, unsure=unsure_set([("bring", "the", "hall")])) == ""


def test_disputed_words_are_those_the_other_recogniser_wrote_otherwise() -> None:
    ear = "We cut the wait to 26 hours with a one-page checklist.".split()
    live = "we cut the weight to twenty-six hours with a one page check list".split()
    # numbers, case, punctuation and hyphens alike; "wait" and "checklist." differ
    assert disputed_words(ear, live) == [("the", "wait", "to"), ("one-page", "checklist.", "")]
    assert disputed_words(ear, ear) == []
    assert disputed_words(["we", "had", "nine"], ["we", "had"]) == [("had", "nine", "")]


def test_a_clause_with_a_disputed_word_is_not_quoted() -> None:
    talk = "Last year we spent 47,000 pounds on printing across the three floors."
    heard_otherwise = talk.replace("printing", "painting").split()
    unsure = disputed_words(talk.split(), heard_otherwise)
    assert has_unsure("we spent forty-seven thousand pounds on printing", unsure_set(unsure))
    assert not has_unsure("we spent forty-seven thousand pounds", unsure_set(unsure))


def test_unsure_words_are_those_below_the_threshold_with_their_neighbours() -> None:
    words = [("the", 0.99), ("haul", 0.31), ("down", 0.9), ("26", UNSURE_BELOW - 0.01)]
    assert unsure_words(words) == [("the", "haul", "down"), ("down", "26", "")]
    assert unsure_words(words, below=0.2) == []
    assert has_unsure("we brought the haul down", unsure_set(unsure_words(words)))
    # a rarer word is unsure wherever it is said; a stop word only where it was said
    assert has_unsure("the haul was big", unsure_set(unsure_words(words)))
    the = unsure_set([("saw", "the", "bus")])
    assert has_unsure("we saw the bus", the)
    assert not has_unsure("we took the train", the)


def test_money_spent_is_not_asked_what_it_went_on() -> None:
    # dropped after round aq: "What did most of that money go on?" was acceptable to blind
    # reviewers 8 times in 60 over rounds aa-aq ("a new second-hand fridge cost eight
    # hundred fifty dollars", "each test cost sixty-two pounds": it went on the fridge)
    for talk in ("Last year we spent just under 47,000 pounds on printing across the floors.",
                 "A new second-hand fridge cost us 850 dollars.",
                 "Our compute bill was about 9,400 dollars a month."):  # fmt: skip
        for claim in find_claims(talk):
            assert "What did most of that money go on?" not in _asks(claim, "cost", talk)
    assert all("went on" not in f.text and "go on" not in f.text for f in FRAMES)


def test_all_of_a_number_named_before_is_no_count_to_compare() -> None:
    talk = "Good evening. The sensors flagged 87 homes. Our surveyors visited all 87."
    claim = next(c for c in find_claims(talk) if "visited" in c.text)
    assert "Is that more or less than usual?" not in _asks(claim, "evidence", talk)


def test_the_talks_own_plan_is_no_claim() -> None:
    """How the speaker will go about the talk is not a plan to ask side effects of."""
    assert quotable_clause("I'm going to start with a room rather than a number.") == ""
    assert quotable_clause("I'll start with the good news from the first six months.") == ""
    assert quotable_clause("We're going to start with two pilot schools in September.")
    said = "That leaves a gap of about seventy-four thousand, which I'll be honest."
    assert quotable_clause(said) == "That leaves a gap of about seventy-four thousand"


def test_a_time_of_day_is_no_figure_to_compare() -> None:
    talk = "First, returns get booked back in before 2200, every night, no exceptions."
    assert "figure" not in facets(spoken_numbers(talk))
    for claim in find_claims(talk):
        assert "Is that more or less than usual?" not in _asks(claim, "evidence", talk)


def test_a_measure_the_talk_names_is_not_asked_for() -> None:
    talk = ("I propose a six-month trial starting in June. And at the end we compare the night "
            "falls with the same months last year.")  # fmt: skip
    claim = find_claims(talk)[0]
    assert "What will you measure to know whether it's working?" not in _asks(claim, "method", talk)


def test_a_period_the_talk_sets_against_the_one_before_is_not_asked_if_typical() -> None:
    talk = "Last month we had eleven falls on this ward. The month before it was six."
    claim = find_claims(talk)[0]
    asks = _asks(claim, "evidence", talk)
    assert "Was that a typical period, or could it have been an unusual one?" not in asks
    assert "Is that more or less than usual?" not in asks


def test_a_figure_that_came_down_is_a_change_not_a_tally() -> None:
    talk = ("The mould temperature swung by as much as nine degrees across a shift. With the "
            "controllers, the swing came down to under two degrees.")  # fmt: skip
    claim = next(c for c in find_claims(talk) if "came down" in c.text)
    assert "change" in facets(spoken_numbers(claim.text))
    assert "Is that more or less than usual?" not in _asks(claim, "evidence", talk)


def test_a_method_the_talk_describes_is_not_asked_for() -> None:
    talk = ("Over the four weeks before the switch, our median pipeline took eighty minutes. "
            "The ninetieth percentile went from thirty-one minutes to twenty-two. I've tried to "
            "control for that by looking only at run time, not wait time.")  # fmt: skip
    claim = next(c for c in find_claims(talk) if "percentile" in c.text)
    assert "How was that measured?" not in _asks(claim, "method", talk)


def test_a_move_from_one_thing_to_another_is_no_trend() -> None:
    clause = "we've now migrated the full history from the old Oracle database to Postgres"
    assert "shift" not in facets(clause)
    assert "shift" in facets("bookings dropped from forty a week to thirty")


def test_a_change_the_speaker_denies_is_not_asked_whether_it_is_a_trend() -> None:
    talk = "I don't think the yield went down by more than a tenth in the dry fields."
    for claim in find_claims(talk):
        assert "Is that a trend, or could it be a one-off?" not in _asks(claim, "evidence", talk)


def test_a_total_is_not_asked_whether_it_is_usual() -> None:
    talk = "So we had 61 tunnel sessions in total, spread over the whole neighbourhood."
    for claim in find_claims(talk):
        assert "Is that more or less than usual?" not in _asks(claim, "evidence", talk)


def test_a_drop_the_talk_says_recovered_later_is_not_asked_if_a_one_off() -> None:
    talk = ("In the first month, bookings dropped by about a fifth. Two of my regulars were "
            "very vexed with me. But by May, no shows were down to about one in twelve. And "
            "bookings came back up not all the way, but close.")  # fmt: skip
    claim = next(c for c in find_claims(talk) if "dropped" in c.text)
    assert "Is that a trend, or could it be a one-off?" not in _asks(claim, "evidence", talk)


def test_a_first_time_is_no_trend_and_a_funding_ask_is_a_decision() -> None:
    talk = "The first voyage went from Newark to Houston, and fuel use fell by a fifth."
    for claim in find_claims(talk):
        assert "Is that a trend, or could it be a one-off?" not in _asks(claim, "evidence", talk)
    assert "first" not in facets("the grant goes in on the first of February")
    ask = "we'd like the PTA to fund the first year of the reading app"
    assert "decision" in facets(ask)


def test_one_of_them_is_no_figure_and_sending_people_home_is_no_plan() -> None:
    assert "figure" not in facets("one of them also got a new bakery manager in September")
    logistics = "This will take about ten minutes and then we'll let the night shift go home."
    assert quotable_clause(logistics) == ""


def test_showing_the_numbers_is_no_plan_with_side_effects() -> None:
    assert "plan" not in facets("we want to put the numbers in front of everyone")


def test_a_plan_to_measure_again_is_asked_what_could_delay_it_not_its_side_effects() -> None:
    # round cl: "Are there any side effects you're worried about?" of it, 0 of 4
    talk = ("The trial plots held water longer. We'll start measuring again when digging "
            "begins in February, and we'll share the results in June.")  # fmt: skip
    claim = next(c for c in find_claims(talk) if "measuring" in c.text)
    assert "measuring" in facets(claim.text)
    assert "Are there any side effects you're worried about?" not in _asks(claim, "cost", talk)
    assert not any("strongest argument" in q for q in _asks(claim, "objection", talk))
    assert "measuring" not in facets("We'll start charging a fee in March.")


def test_a_cause_given_for_a_result_is_not_asked_how_they_know() -> None:
    # blind reviewers accepted 4 of 67 "How do you know that's what caused it?" (rounds d-w)
    talk = "Our margins are down this year because of the new supermarket contract."
    claim = find_claims(talk)[0]
    assert "How do you know that's what caused it?" not in _asks(claim, "evidence", talk)


def test_a_tally_asks_whether_it_is_usual_unless_the_talk_compares_it() -> None:
    talk = "Good evening. Last season we had 38 paid-up members."
    claim = find_claims(talk)[0]
    asks = _asks(claim, "evidence", talk)
    assert "Is that more or less than usual?" in asks
    told = talk + " The year before it was 52."
    claim = find_claims(told)[0]
    assert "Is that more or less than usual?" not in _asks(claim, "evidence", told)


@pytest.mark.parametrize(
    "sentence",
    [
        "So let's start with a bit that hurt, because it matters to all of us here.",
        "Let's get the hard bit out of the way first, and then the good news.",
        "I expect two objections, so let me get ahead of them right now.",
        "We'll report back at the June meeting either way, good or bad.",
        "I want to spend five minutes on something very unglamorous tonight.",
        "It's been three months now since we cut the menu right down.",
    ],
)
def test_signposts_and_dates_are_not_questioned(sentence: str) -> None:
    claims = find_claims(sentence)
    assert all(not fitting_kinds(c, sentence) for c in claims)


@pytest.mark.parametrize(
    "sentence",
    [
        "If it's not carrying at least twenty people a night on average, we'll say so.",
        "A customer comes in and buys, let's say, two kilos of rice on credit from the shop.",
        "For the barbers it was even worse because the clippers, you know, the electric ones.",
    ],
)
def test_no_condition_and_no_clause_cut_before_its_end_is_quoted(sentence: str) -> None:
    for clause in (quotable_clause(sentence), said_clause(sentence)):
        assert not clause.lower().startswith("if ")
        assert not clause.endswith(("buys", "because the clippers"))


SCRIPT = """# Phone pouches

We'd like to pilot locking phone pouches for all 640 students next school year. The cost
is about $14,000 for the pouches and the unlocking bases. Last year we logged 212
discipline referrals that involved a phone. Filming fights, posting in class, that kind of
thing.
"""


def test_a_sentence_said_from_the_script_is_quoted_in_its_words() -> None:
    heard = (
        "We'd like to pilot locking phone pouches for all 640 students next school year. "
        "The cost is about $40,000 for the pouches and the unlocking bases. "
        "Honestly, my own kids hate the idea."
    )
    text, from_script = scripted(heard, SCRIPT)
    assert "fourteen thousand dollars for the pouches" in text  # not the misheard forty
    assert "forty thousand" not in text and "40,000" not in text
    assert text.endswith("Honestly, my own kids hate the idea.")  # ad-libbed: as heard
    assert any("fourteen thousand" in line for line in from_script)
    assert not any("kids" in line for line in from_script)


def test_two_script_sentences_heard_as_one_come_back_once() -> None:
    heard = (
        "Last year we logged 212 discipline referrals that involved a phone, filming fights, "
        "posting in class, that kind of thing. That kind of thing."
    )
    text, _ = scripted(heard, SCRIPT)
    assert text.count("two hundred twelve discipline referrals") == 1
    assert text.count("that kind of thing") == 1


def test_without_a_match_the_talk_stays_as_heard() -> None:
    heard = "Our choir sang at the harvest supper and raised nine hundred pounds."
    assert scripted(heard, SCRIPT) == (heard, frozenset())


def test_no_plan_questions_for_a_condition_or_a_story() -> None:
    talk = (
        "The roof needs replacing before winter. "
        "If we don't get the grant, we'll be back here again with a bucket. "
        "My sister decided she was going to be a figure skater at fifteen."
    )
    claims = [c for c in find_claims(talk) if "bucket" in c.text or "skater" in c.text]
    assert len(claims) == 2
    for claim in claims:
        asked = [q for kind in ASK_KINDS for _l, q in grounded_questions(claim, kind, talk)]
        assert "What could delay that?" not in asked
        assert "Are there any side effects you're worried about?" not in asked


def test_a_signpost_is_not_quoted() -> None:
    sentence = "The other thing, and I want to be upfront, is that the hall would be closed."
    assert "upfront" not in quotable_clause(sentence)


def test_a_proposal_cut_before_what_it_proposes_is_not_quoted() -> None:
    for cut in ("My proposal is that every fourth-form student.",
                "My proposal is that every fourth-form student, that is two hundred forty "
                "students, gets four hours of training."):  # fmt: skip
        assert not quotable_clause(cut).endswith("student")
    whole = "My proposal is that every fourth-form student gets four hours of training."
    assert quotable_clause(whole).endswith("gets four hours of training")


def test_a_reason_for_ones_own_choice_is_not_asked_how_it_caused_it() -> None:
    assert "motive" in facets("We did not do a satisfaction survey, partly because of time.")


def _fits(talk: str) -> list[str]:
    """Every frame that fits a claim of the talk, claim by claim."""
    return [f.text for c in find_claims(talk) for f in frames_for(c, talk)]


def _frames(sentence: str) -> list[str]:
    """Every frame asked of a one-claim talk (after a neutral opening sentence)."""
    return _fits(f"Thank you all for coming tonight. {sentence} That is where we are.")


@pytest.mark.models
@pytest.mark.parametrize(
    ("sentence", "not_asked"),
    [   # blind reviewers rejected each of these (rounds ac-af) as a frame that misfits
        ("We'll review it all again at the end of August.",
         "Are there any side effects you're worried about?"),
        ("We'd send it out on the first of September and bring the results back the "
         "October meeting for a final decision.",
         "What will you measure to know whether it's working?"),
        ("We moved training from half past four to half past five last spring.",
         "Is that a trend, or could it be a one-off?"),
        ("Two concerns came up from branch managers.",
         "Is that a trend, or could it be a one-off?"),
        ("Our target was fifteen hundred, so we fell short, mainly because the pickup was "
         "off the road for five weeks in September.",
         "Is that a trend, or could it be a one-off?"),
        ("I had made that boy run laps maybe thirty times over the season.",
         "How was that measured?"),
        ("We've got three new learners from the school starting in September.",
         "Are there any side effects you're worried about?"),
        ("And the staff knew the trial was happening, so some of that improvement might "
         "just be people making an extra effort.",
         "Did anything in those results surprise you?"),
    ],
)  # fmt: skip
def test_a_frame_is_not_asked_of_a_claim_it_does_not_fit(sentence: str, not_asked: str) -> None:
    assert not_asked not in _frames(sentence)


@pytest.mark.models
def test_a_procedural_step_still_gets_its_next_step_question() -> None:
    asked = _frames("We'll send the consultation out to every family on the first of September.")
    assert "What could delay that?" in asked
    assert "Are there any side effects you're worried about?" not in asked


@pytest.mark.models
def test_a_measure_that_changed_is_still_a_possible_trend() -> None:
    asked = _frames("Over the six months, missed handovers came down to eighteen percent.")
    assert "Is that a trend, or could it be a one-off?" in asked


@pytest.mark.parametrize(
    ("sentence", "said"),
    [
        (
            "I'm here to ask the board for one thing: funding for a mobile clinic van to "
            "cover the upper valley, starting next winter.",
            "you're asking the board for funding for a mobile clinic van to cover the upper valley",
        ),
        (
            "So the ask is to extend the same arrangement to the pick team from the start of "
            "next quarter as another six month trial.",
            "you're asking to extend the same arrangement to the pick team",
        ),
        (
            "What I'm asking for tonight is thirty-eight thousand pounds for next financial year "
            "and the committee's approval to make the coordinator post permanent.",
            "you're asking for thirty-eight thousand pounds for next financial year",
        ),
        (
            "So, the ask is a six month trial of a four day week for the studio.",
            "you're asking for a six month trial of a four day week for the studio",
        ),
        (
            "What I'm asking for today is a three month trial from the first of January, "
            "which we'd review in March.",
            "you're asking for a three month trial from the first of January",
        ),
        (
            "I'm asking you to vote to make this a formal claim so we go in with the branch "
            "behind us.",
            "you're asking us to vote to make this a formal claim",
        ),
        (
            "I'm asking the board to approve a trial on those eleven routes from the first of "
            "September to the end of February with a full report back in March.",
            "you're asking the board to approve a trial on those eleven routes",
        ),
        (  # the parser reads "child" as a second object of "fund"
            "I'm here to ask the committee to fund a two-year program of free swimming "
            "lessons for every year five and six child in our state schools.",
            "you're asking the committee to fund a two-year program of free swimming lessons",
        ),
        (  # round bj: "you want you to approve" is no English, and this was not quoted
            "I want you to approve buying a catalytic afterburner for the roaster and I want "
            "us to order it this week.",
            "you're asking us to approve buying a catalytic afterburner for the roaster",
        ),
        (
            "I'd like engineering leadership to approve a standing budget for the "
            "maintainers, starting in April.",
            "you'd like engineering leadership to approve a standing budget for the maintainers",
        ),
    ],
)
def test_the_talks_ask_is_said_back_as_a_clause(sentence: str, said: str) -> None:
    """An ask no clause of the sentence states whole ("for one thing: funding for ...")
    is said back as the speaker's ask, cut at its first comma or joining word and, when
    long, at a preposition."""
    assert said_clause(spoken_numbers(sentence)) == said


def test_an_ask_with_a_word_the_parser_cannot_place_is_not_said_back() -> None:
    """tiny.en's "ran" for "rand" (round ce: 0 of 8 verdicts on the quote)."""
    heard = "So I'm asking for eighty thousand ran in total from the customer experience budget."
    assert "ran in total" not in said_clause(heard)
    assert said_clause(heard.replace(" ran ", " rand ")).startswith(
        "you're asking for eighty thousand rand"
    )


@pytest.mark.parametrize(
    "sentence",
    [
        "What we're asking for is simple.",
        "What we're asking for is pretty simple on paper.",
        "What I'd like from you today is agreement in principle so we can apply in March.",
        "What I'm proposing is that whenever a full plot comes free, we split it in two.",
        "So what I'm asking for is help.",
        "I'm asking for your vote tonight to go ahead with the purchase.",
    ],
)
def test_an_ask_that_names_nothing_is_not_said_back(sentence: str) -> None:
    clause = quotable_clause(spoken_numbers(sentence))
    assert not re.match(r"^(?:i'm|we're|i'd) (?:asking|proposing|like)\b", clause, re.I), clause
    assert not ask_clause("What we're asking for is simple.")


def test_a_money_ask_is_asked_whether_the_figure_is_firm_unless_the_talk_says() -> None:
    ask = "We're asking the trust for nine hundred thousand dollars to replace the hoists."
    talk = f"The old hoists are forty years old. {ask} Thank you."
    fits = _fits(talk)
    assert "Is that figure a firm quote, or still an estimate?" in fits
    assert "Where will that money come from?" not in fits  # asked of whoever gives it
    sum_only = (
        "The hoists are forty years old. We're asking the trust for nine hundred thousand dollars."
    )
    fits_sum = _fits(sum_only)
    assert "Are there any side effects you're worried about?" not in fits_sum  # of a sum?
    assert "Are there any side effects you're worried about?" in fits  # of replacing them
    quoted = f"The old hoists are forty years old. We have a fixed price from the installer. {ask}"
    fits = _fits(quoted)
    assert "Is that figure a firm quote, or still an estimate?" not in fits


def test_a_share_of_a_sum_just_named_is_not_measured() -> None:
    talk = (
        "The whole project comes to forty thousand dollars. "
        "About sixty percent of that is the dryers themselves. Thank you."
    )
    fits = _fits(talk)
    assert "How was that measured?" not in fits
    shares = "We counted every van for six weeks. About sixty percent of them were late."
    # counted: the talk says how (the rule above is about money, not every share)
    assert "How was that measured?" not in _fits(shares)


def test_what_people_said_is_not_asked_how_it_was_measured() -> None:
    talk = (
        "Carers told us about missed visits. Sixty-eight percent said it happens at least weekly."
    )
    fits = _fits(talk)
    assert "How was that measured?" not in fits


def test_what_the_speaker_had_done_is_no_plan() -> None:
    """A "we'd" before a past participle is "we had": a result, not something proposed."""
    assert "plan" not in facets("we'd also lost about two thousand nine hundred containers")
    assert "plan" in facets("we'd only run it when there's an order with a deadline")


def test_a_story_told_in_the_past_gets_no_plan_questions() -> None:
    talk = (
        "The generator died at seven, with ninety guests due. "
        "Second, my head cook, mama tote. we had two gas burners in the van for emergencies "
        "and we set them up at the back and started rotating the pots to keep the food hot. "
        "Everyone ate."
    )  # as tiny.en heard it: the sentence runs on, and the clause quoted is the second
    fits = _fits(talk)
    assert "Are there any side effects you're worried about?" not in fits
    assert "What will you measure to know whether it's working?" not in fits


def test_the_speakers_us_is_not_said_back_as_you_you() -> None:
    assert not said_clause("This year we want us to have proper numbers on every truck.")
    assert said_clause("For winter, we're proposing we add two Saturday pottery sections.")


def test_thanking_someone_is_not_quoted() -> None:
    assert not quotable_clause("We want to thank the community health agents especially.")


def test_a_change_is_tied_to_something_done_only_when_something_was_done() -> None:
    """ "Did anything in those results surprise you?" needs something done before the
    change; "Could something else have caused that change?" is never asked."""
    surprise, other_cause = (
        "Did anything in those results surprise you?",
        "Could something else have caused that change?",
    )
    market = (
        "If the price falls hard between the day we pay you and the day we sell, we lose. "
        "In the bad year of twenty nineteen, the price fell around thirty percent in a few months."
    )
    assert surprise not in _fits(market)  # "when": a time
    clients = (
        "We asked retailers to check the flat number at checkout. "
        "Two big clients did it and their failure rate went from about seven percent to under four."
    )
    assert surprise in _fits(clients)
    assert other_cause not in _fits(clients)
    cut = (
        "Just to remind you what we changed at under-fourteens. "
        "We cut the number of competitive fixtures from about eighteen to twelve."
    )
    assert surprise not in _fits(cut)  # the thing done


@pytest.mark.parametrize(
    ("talk", "said"),
    [
        (
            "So here's what I'm asking. Approve the project in principle today.",
            "you're asking us to approve the project in principle today",
        ),
        (
            "So my ask is this. Fund six loggers for both warehouses at four hundred pounds each.",
            "you're asking us to fund six loggers for both warehouses at four hundred pounds each",
        ),
        (
            "So what are we actually asking for? A fitted out van, which we've been quoted at "
            "about one hundred sixty thousand dollars.",
            "you're asking for a fitted out van",
        ),
        ("What I'm proposing is this. From the next main harvest, we pay sixty percent.", ""),
        # round bq: "You said you're proposing there's an empty upper floor above the old
        # bakery on the same street."
        ("So here's what we're proposing. There's an empty upper floor above the old bakery "
         "on the same street.", ""),
    ],
)  # fmt: skip
def test_an_ask_announced_in_a_sentence_of_its_own_is_said_with_the_next(
    talk: str, said: str
) -> None:
    claims = find_claims(talk)
    quotes = [said_clause(c.text, talk=talk) for c in claims]
    assert (said in quotes) if said else not any(q.startswith("you're proposing") for q in quotes)


@pytest.mark.parametrize(
    ("sentence", "what"),
    [
        ("So here's my ask: I'd like approval for two things.", "what you're asking for"),
        ("So what I'm proposing as a one-season trial.", "your proposal"),  # "is", misheard
        ("We're recommending that nighttime minimums be added as a trigger.",
         "your recommendation"),
        ("I'd like the board's approval to go ahead in March.", "what you're asking for"),
        # round bj, and earlier talks given no question about their proposal
        ("I want you to approve buying a catalytic afterburner.", "what you're asking for"),
        ("I want to ask this group to fund a response car.", "what you're asking for"),
        ("We want the committee to amend clause seven.", "what you're asking for"),
        ("So the concrete ask is approval to hire one engineer.", "what you're asking for"),
        ("I'm going to ask you for two million euros today.", "what you're asking for"),
        ("I'm here on behalf of the patrol captains to ask the committee to approve it.",
         "what you're asking for"),
        ("If you approve this tonight, we sign the agreement in December.",
         "what you're asking for"),
        # round bk: those who decide, asked to decide, with the speaker in the sentence
        ("So what we are hoping is that this committee will agree in principle to back a "
         "Breton club.", "what you're asking for"),
        ("Tonight the board is asking the members to approve a new decanter to replace the "
         "machine we have used since the nineties.", "what you're asking for"),
        # round bo: two proposals given no question at all
        ("So what we'd suggest is that rotation is the default.", "your suggestion"),
        ("So could we put it to a vote today?", "what you're asking for"),
        ("We'd strongly recommend a second crew.", "your recommendation"),
        # round br: two more
        ("What we'd like from you tonight is a recommendation to full council to fund a "
         "pilot.", "what you're asking for"),
        ("If the trust board agrees tonight, the application goes in by the end of March.",
         "what you're asking for"),
        # round bt, whose brief gave no example wordings of the ask: three more
        ("So here's what I'd like from you tonight.", "what you're asking for"),
        ("Let's have a show of hands.", "what you're asking for"),
        ("Can we agree to start the lease in March?", "what you're asking for"),
        ("For the rest, I'm suggesting ten a month from each family.", "your suggestion"),
        # round bw: two pitches asked nothing of them as a whole
        ("I would like this council to pay for a roofing school, a small one.",
         "what you're asking for"),
        ("So, we have come to borrow three million francs from this credit union.",
         "what you're asking for"),
        # round bx: two more
        ("So tonight I'm putting it to the assembly for a vote.", "what you're asking for"),
        ("Motion three on your sheet asks the members to let the committee spend the reserve.",
         "what you're asking for"),
        # asks no pattern found in rounds bi-cc (23 proposals given no question of the
        # whole): a decision or money wanted, what the speaker needs from the room
        ("I'd like a decision from this group by the end of the month.",
         "what you're asking for"),
        ("I'd like the committee's go-ahead to spend up to seven thousand.",
         "what you're asking for"),
        ("The stands are cheap, and I'd like a small reserve for replacements.",
         "what you're asking for"),
        ("What I'm looking for from council tonight is a line in next year's budget.",
         "what you're asking for"),
        ("So what I need from this room tonight is two things.", "what you're asking for"),
        ("So here's what I would like this committee to put into next year's budget.",
         "what you're asking for"),
        ("So the committee needs a show of hands today.", "what you're asking for"),
        ("We'd like partners to be able to stay overnight in any single room.",
         "what you're asking for"),
        ("What I'd like to do is replace the four old sets with wireless ones.",
         "what you're asking for"),
        ("So here is my idea.", "your idea"),
        ("So we'd like the board to recommend to the City Council a five-year lease.",
         "what you're asking for"),
        # round cd: two proposals given no question at all
        ("If this goes through tonight, we place the order within a fortnight.",
         "what you're asking for"),
        ("So vote for them together.", "what you're asking for"),
        ("If they assembly agrees today, the committee will place the order this month.",
         "what you're asking for"),
        # round ce: one more
        ("The canton's share, which is what you're voting on, is two million francs.",
         "what you're asking for"),
        ("When the chair calls item nine, please lift your card high.",
         "what you're asking for"),
        # round cf: two of three proposals with no question at all
        ("If council will pay for the eight stations, we will do the rest.",
         "what you're asking for"),
        ("If we can get a yes before the end of the month, the stations arrive in time.",
         "what you're asking for"),
        ("Here's the idea.", "your idea"),
        ("So the motion I would put to you is a simple one.", "what you're asking for"),
        ("If you can find it, we would order in the spring.", "what you're asking for"),
        # round cg: three of five proposals with no question of the whole
        ("So here's what I'm after.", "what you're asking for"),
        ("So I have two requests of this committee.", "what you're asking for"),
        ("So I have to request of this committee.", "what you're asking for"),  # tiny.en
        ("Let us have the roof, and let us have the money.", "what you're asking for"),
        ("So, can I count you in?", "what you're asking for"),
        ("So here's my idea \u2013 our verges.", "your idea"),
        # proposals of rounds bw-cf that still had no question of the whole
        ("Put those fourteen crossings into next year's budget and you will cover most "
         "journeys.", "what you're asking for"),
        ("First, releasing the eighteen hundred euros from the parents' fund.",
         "what you're asking for"),
        ("Will this meeting give the board a mandate to commission the facade?",
         "what you're asking for"),
        ("Before you go home, I'd like you to put a tick or a cross next to yours.",
         "what you're asking for"),
        # reports of rounds ca-cf whose recommendations had no question of the whole
        ("I'd like us to apply to the province for money to buy enough racks.",
         "what you're asking for"),
        ("I'd like us to vote tonight on whether the association asks them to keep the signs.",
         "what you're asking for"),
        ("For next season, I'll be asking the committee for a spare net panel.",
         "what you're asking for"),
        ("So the recommendation from Fives is threefold.", "your recommendation"),
        ("So, for next summer, three proposals.", "your proposal"),
        # round cj: four of five proposals had no question at all
        ("Let's vote today, and have those radios in our hands by May.",
         "what you're asking for"),
        ("So when the vote is called, give me two things, please.", "what you're asking for"),
        ("So here is the proposal put plainly, sixty-four thousand from the savings.",
         "your proposal"),
        ("So this is what I want.", "what you're asking for"),
        ("I'll tell you straight off what I'm after, because the coffee's getting cold.",
         "what you're asking for"),
        ("I would like the guild to buy a second-hand quilting machine.",
         "what you're asking for"),
        # round ci: a proposal with no question at all
        ("We'd like the members of the Aros Small Boat Club to approve spending six thousand.",
         "what you're asking for"),
        ("So I'll ask for a show of hands.", "what you're asking for"),
    ],
)  # fmt: skip
def test_the_speaker_putting_something_forward_is_found(sentence: str, what: str) -> None:
    talk = f"Good evening. Our pump fails twice a year. {sentence} Thank you."
    assert put_forward(talk) == (2, what)


@pytest.mark.parametrize(
    "sentence",
    [
        "So I'd like to propose a toast to Morag.",
        "I'm asking you to imagine a Tuesday in January.",
        "The council proposed a new bus lane last year.",  # not the speaker's
        "We're not proposing any change tonight.",
        "I was asking myself why it kept failing.",
        "I want you to imagine the pump failing at night.",
        "I need you to remember one number.",
        "If you approved of it then, you would have said so.",
        "The parish council asked me to report back now that it's done.",
        "Last year our council voted to fund the new pool.",
        "The board will approve the budget in March.",  # not the speaker's ask
        "I'd suggest you keep the avocado in the fridge.",  # advice
        "What I'd suggest is we keep it going for another season.",  # no change
        "Can we vote with our feet?",
        "If the council agrees to resurface the road next year, traffic will slow.",
        "Can we agree that nobody likes a cold shower?",
        "We have come to love the old hall.",
        "We're putting the chairs to the side for the dance.",
        "Last year's motion asked the council to close the road.",
        "The council will pay for the new roof in March.",
        "What I'd like to do is walk you through the results.",  # an outline of the talk
        "What I'd like to do tonight is tell you how it went.",
        "That's my idea of a good Sunday.",
        "The board needs a new treasurer.",
        "I'd like a cup of tea after this.",
        "If they agree with us, the club will grow.",
        "My grandmother would vote for anyone with a moustache.",
        "If it passes the inspection, the ferry sails on Monday.",
        "Raise your hand if you've ever missed the last bus.",
        "If you're caught in one, raise your hand and ride the current.",
        "If the members agree with the referee, the match goes on.",
        "Here's the idea behind the design.",
        "If you can find it in the shops, buy the blue one.",
        "Let us have a moment of silence for Ray.",
        "I have to ask you to bear with me.",
        "Can I count the number of hands? Eleven.",
        "Put the kettle on before the guests arrive.",
        "We put the money from the fund into new boats last year.",
        "I'd like you to meet my colleague Sarah.",
        "First, put the onions in the pan.",
        "I'd like us to think about a girls' team one day.",  # a thought, no ask
        "I'd like us to keep doing the testing together.",  # what already runs
        "I'd like us to be honest with ourselves about the risk.",
        "I'll be asking you to imagine the harbour in winter.",
        "The recommendation from the ministry was ignored.",
        "The three proposals we tried last year all failed.",
        "Give me a moment to find the slide.",
        "This is what I want you to remember about tides.",
        "Let's vote with our feet and walk.",
        "Here's the plan for the evening: a tour, then dinner.",
        "I'll tell you what I found in the attic.",
        "I'll ask for a show of hands: who has been to the island before?",
        "The guild would like the town to buy more of our quilts one day, but that's a dream.",
    ],
)
def test_what_is_not_put_forward(sentence: str) -> None:
    assert put_forward(f"Good evening. {sentence} Thank you.") is None


def test_whole_proposal_questions_leave_out_what_the_talk_answers() -> None:
    talk = "Good evening. So here's my ask: fund two more vans. Thank you."
    asked = whole_proposal_questions(talk, ("cost",))
    assert [k for k, _q in asked] == ["cost", "objection", "next_steps"]
    assert (
        asked[1][1] == "What do you see as the strongest argument against what you're asking for?"
    )
    told = talk.replace("Thank you.", "I know the objections: the cost, and the risk to staff.")
    assert [k for k, _q in whole_proposal_questions(told)] == ["next_steps"]
    assert whole_proposal_questions("Good evening. The vans were late twice. Thank you.") == []
    # the talk names its problems in its own words: no "any side effects?"
    honest = talk.replace("Thank you.", "I have to be honest about the problems. Thank you.")
    assert "cost" not in [k for k, _q in whole_proposal_questions(honest)]
    bigger = talk.replace("Thank you.", "The bigger problem is drying in the rainy season.")
    assert "cost" not in [k for k, _q in whole_proposal_questions(bigger)]


def test_a_talk_that_raises_its_own_objection_and_problem_is_not_asked_them() -> None:
    # round be: an alpaca co-operative's ask for shearing machines, asked the strongest
    # argument against it and its side effects (0 of 8 each): the speaker had said "I have
    # to be honest with you about the problem" and "Some of the older shearers will say
    # scissors were good enough for their grandparents"
    talk = "Good evening. I'm asking the assembly to approve four shearing machines. Thank you."
    assert [k for k, _q in whole_proposal_questions(talk)] == ["objection", "cost", "next_steps"]
    said = talk.replace("Thank you.", "I have to be honest with you about the problem: "
                        "they cut the animal. Some of the older shearers will say scissors "
                        "were good enough for their grandparents.")  # fmt: skip
    assert [k for k, _q in whole_proposal_questions(said)] == ["next_steps"]
    # a question the speaker heard and answers is no objection raised (round aq: the
    # strongest argument against was accepted 4 of 4 after it)
    asked = talk.replace("Thank you.", "Some of you have asked why not just keep repairing?")
    assert "objection" in [k for k, _q in whole_proposal_questions(asked)]


@pytest.mark.parametrize(
    "ending",
    [
        "So would you all stand and raise whatever you've got in your glass.",
        "Please, everyone, race your glasses to Frank.",  # "raise", as tiny.en heard it
        "We hope retirement brings you plenty of fishing.",
        "To Jimmy.",
        # round ck: "To Rewa." heard as "To rewind."
        "So everyone on your feet if you can still stand. To rewind.",
        "We're going to miss her scones and the look she gave us when we were late.",
    ],
)
def test_a_toast_is_known_by_its_ending(ending: str) -> None:
    talk = f"Frank started here in 1987. He fixed every press we ever had. {ending}"
    assert is_tribute(talk)


def test_a_proposal_signed_off_warmly_is_no_toast() -> None:
    talk = "We ask for two more evenings. Thank you and God bless you. To conclude, vote yes."
    assert not is_tribute(talk)
    assert not is_tribute("Our pump fails twice a year. To Jimmy we owe the fix, in part.")
    assert not is_tribute("Without the bus, we're going to miss the early shift. Vote yes.")
    assert not is_tribute("Everyone who signs is on the list, and you'll be on your feet all day.")


def test_a_count_of_points_the_talk_goes_on_to_make_is_no_tally() -> None:
    # round am: "Is that more or less than usual?" of "three things came out of that pilot"
    # (0 of 8 blind verdicts); "two concerns came up" asked "is that a trend?" (round ae)
    # round aq: "You said the project had four parts. Is that more or less than usual?"
    for sentence in ("Three things came out of that pilot. First, cost.",
                     "Two concerns came up from branch managers.",
                     "The project had four parts. The first was the cap."):  # fmt: skip
        assert not {"tally", "shift"} & facets(sentence.split(".")[0])
    assert "tally" in facets("thirty-eight families came to the first session")


def test_how_the_talk_begins_is_no_plan() -> None:
    # round aq: "You said you want to begin with the date that everyone in this room
    # remembers. Are there any side effects you're worried about?" (0 of 14 verdicts)
    assert "plan" not in facets("I want to begin with the date that everyone here remembers")
    assert "plan" in facets("I want to begin charging for parking next year")
    assert "plan" in facets("we would like to start with eight residents in June")


def test_a_signpost_is_no_plan() -> None:
    # round ap: "You said you want to preempt the obvious objection. Are there any side
    # effects you're worried about?" (0 of 8)
    talk = "I want to preempt the obvious objection about the 40,000 dollars."
    assert not set(_fits(talk)) & {f.text for f in FRAMES if "plan" in f.needs}


def test_what_a_plan_would_bring_is_not_the_plan() -> None:
    # round aq: "You said you would also use much less water from the well. Are there any
    # side effects you're worried about?" and "the strongest argument against it?" (0 of 10)
    assert "plan" not in facets("we would also use much less water from the well")
    assert "plan" not in facets("we'll see fewer complaints at the front desk")
    assert "plan" in facets("we will hire more staff for the weekend shifts")


def test_a_reading_from_a_device_is_not_asked_how_it_was_measured() -> None:
    # round am: "the phone showed about forty percent battery. How was that measured?" (0 of 8)
    talk = "I took my glove off and the phone showed about 40 % battery. Then went black."
    fits = _fits(talk)
    assert "How was that measured?" not in fits


def test_a_recommendation_to_keep_what_runs_is_no_proposal() -> None:
    # round an: "If it's approved, what could still hold it up?" after a year's report on a
    # tracking app that ended "My recommendation is that we keep it" (0 of 8 verdicts)
    report = (
        "Parent calls fell from ninety a week to twenty-two. My recommendation is that we keep it."
    )
    assert put_forward(report) is None
    assert whole_proposal_questions(report) == []
    assert put_forward("My recommendation is that we extend it to the rural routes.") is not None


@pytest.mark.parametrize(
    "sentence",
    [
        "the current lights went up in two thousand four",  # round an: "a trend?" 0 of 8
        "your target is ten days from agreement to payment",  # round an: "something else
        # have caused that change?" 0 of 4, "anything surprise you?" 0 of 2
    ],
)
def test_a_date_or_a_target_is_no_measured_change(sentence: str) -> None:
    assert not {"change", "shift", "result", "tally"} & facets(sentence)


def test_a_year_beside_a_measured_figure_keeps_the_change() -> None:
    assert "change" in facets("in two thousand four, sales went up from ninety to a hundred")
    assert "change" in facets("our occupancy last year was higher than in two thousand eight")


def test_what_is_due_within_the_week_is_not_asked_what_could_delay_it() -> None:
    # 0 of 33 blind verdicts (rounds to an): "the detailed accounts will be circulated next
    # week. What could delay that?"
    assert "date" not in facets("the detailed accounts will be circulated next week")
    assert "date" in facets("we start next week and finish in march")


def test_coming_back_with_the_figures_says_what_will_be_measured() -> None:
    # round an: "What will you measure to know whether it's working?" 0 of 8, of a pitch that
    # had said "I'll come back to Council next fall with a tonnage, the participation rate"
    talk = (
        "I'm asking council for seventy-two thousand dollars to run a curbside battery pilot. "
        "I'll come back to Council next fall with a tonnage and the participation rate."
    )
    fits = _fits(talk)
    assert "What will you measure to know whether it's working?" not in fits


def test_a_proposal_to_measure_is_no_plan_with_side_effects() -> None:
    # round ao: "you propose you measure three things from day one. Are there any side
    # effects you're worried about?" (0 of 8)
    assert "plan" not in facets("I propose we measure three things from day one")
    assert "plan" in facets("I propose we hire a link worker for a year")


def test_a_currency_heard_as_a_sound_is_not_quoted() -> None:
    # round ao: "members pay sixty nah per bird" (sixty naira): 0 of 6
    talk = "We propose that members pay 60 nah per bird for each round."
    assert quotable_clause(spoken_numbers(talk)) == ""
    assert quotable_clause("We propose that members pay sixty naira per bird for each round.")
    # round bw: "each apprentice would get fifty thousand like a month" (lek): 0 of 4
    said = "Each apprentice would get fifty thousand {} a month while they train."
    assert "like" not in quotable_clause(said.format("like"))
    assert "lek" in quotable_clause(said.format("lek"))
    assert quotable_clause("We had fifty like that one in the first week of the trial.")


def test_advice_to_the_listeners_is_no_proposal() -> None:
    # round ap: "If it's approved, what could still hold it up?" after an explainer on smoke
    # alarms that said "That's what we recommend for kitchens" (0 of 8)
    for advice in ("That's what we recommend for kitchens because it won't go off.",
                   "We always recommend that you test the alarm every month."):  # fmt: skip
        assert put_forward(advice) is None
    assert put_forward("We recommend that the council funds a second crew.") is not None


def test_a_consequence_after_because_if_is_a_condition() -> None:
    # round ar: "You said you'll lose a lot more than two members. What could delay that?"
    # (0 of 8: the talk said "Because if the cooling fails again in August, ...")
    talk = "Because if the cooling fails again in August, we'll lose a lot more than two members."
    assert not _fits(talk)


def test_a_study_to_come_is_no_plan_with_side_effects() -> None:
    # round ar: "You said you'll start a proper study of the coins. Are there any side effects
    # you're worried about?" (0 of 8)
    assert "plan" not in facets("we'll start a proper study of the coins in the summer")
    assert "plan" in facets("we'll start a pilot of the new rota in two wards")


def test_when_the_ask_is_made_is_not_the_ask() -> None:
    # round ar: "You said you're asking the committee for this morning." (0 of 16)
    said = ask_clause("I'm asking the committee for two things this morning, approval for a "
                      "one-semester trial of lab notebooks in two research groups.")  # fmt: skip
    assert said.startswith("I'm asking the committee for approval for a one-semester trial")


def test_an_action_plan_is_no_future_to_delay() -> None:
    # round ar: "You said a second warning means a formal corrective action plan and possibly
    # fewer orders next year. What could delay that?" (0 of 8)
    talk = "A second warning means a formal corrective action plan and possibly fewer orders."
    assert "future" not in facets(talk)
    assert "future" in facets("we plan to open the second site in March")


def test_what_a_sentence_works_out_is_not_asked_how_it_was_measured() -> None:
    # round ar: "You said the average one earns back its cost with some to spare. How was
    # that measured?" (0 of 8: it follows from the figures said just before; the first half
    # of the sentence held a word the recogniser was unsure of)
    # (a payback is worked out wherever it is said: test_a_payback_is_worked_out_not_measured)
    talk = ("We net about $11 a copy. That means the title breaks even at roughly 600 copies, "
            "and the average 1 sells about 900 copies in its first year.")  # fmt: skip
    unsure = unsure_set([("title", "breaks", "even")])
    claim = next(c for c in find_claims(talk) if "nine hundred" in c.text)
    assert "sells about" in quotable_clause(claim.text, unsure=unsure)
    assert "How was that measured?" not in [f.text for f in frames_for(claim, talk, unsure=unsure)]
    said = talk.replace("That means the", "In the end the")
    claim = next(c for c in find_claims(said) if "nine hundred" in c.text)
    assert "How was that measured?" in [f.text for f in frames_for(claim, said, unsure=unsure)]


def test_what_would_have_happened_is_no_plan() -> None:
    # round as: "You said you would have fixed it in half the time. Are there any side
    # effects you're worried about?" (0 of 24 with its follow-ups)
    talk = "We would have fixed it in half the time and I would have been at the party."
    assert not set(_fits(talk)) & {f.text for f in FRAMES if "plan" in f.needs}


def test_what_happens_after_the_talk_is_no_plan() -> None:
    # round as: "You said you will taste the young wines afterwards. Are there any side
    # effects you're worried about?" (0 of 16 with its follow-ups)
    assert "plan" not in facets("we will taste the young wines afterwards, all 14 of them")
    assert "plan" in facets("we will replace the 14 oldest barrels next spring")


def test_those_with_nothing_after_it_is_not_quoted() -> None:
    # round as: "You said you will cover those from your ministry grant." (0 of 16: those
    # were the actors' allowances, said the sentence before)
    assert not quotable_clause("We will cover those from our ministry grant of 9,000 lari.")
    assert quotable_clause("We will cover those costs from our ministry grant of 9,000 lari.")


def test_one_point_to_come_is_no_estimate() -> None:
    # round as: "You said one thing worked better than you expected. What is that based on?"
    assert "estimate" not in facets("one thing worked better than we expected")


def test_the_worries_a_talk_lists_answer_its_side_effects() -> None:
    # round at: "If this goes ahead, are there any side effects you're worried about?" after
    # "Now the worries, because I know you have them." (0 of 8), and of a trial after "What
    # could go wrong?" (0 of 4)
    for said in ("Now the worries, because I know you have them.", "What could go wrong?"):
        talk = f"So I'm proposing a cargo ropeway for 40 villages. {said} Landslides. Thank you."
        asked = [q for _kind, q in whole_proposal_questions(talk)]
        assert asked and not any("side effects" in q for q in asked)


def test_a_rule_put_forward_is_not_asked_how_it_was_measured() -> None:
    # round at: "You said you'd suggest three no shows in a month means a week off booking.
    # How was that measured?" (0 of 4)
    talk = (
        "So we'd suggest three no shows in a month means a week off booking, people "
        "gaming it with bots, possibly."
    )
    assert "How was that measured?" not in _fits(talk)


def test_a_count_of_price_quotes_is_no_tally() -> None:
    # round at: "You said you've had two quotes for the booking system. Is that more or less
    # than usual?" (0 of 8)
    assert "Is that more or less than usual?" not in _fits(
        "We've had two quotes for the booking system, both under 9,000 dollars."
    )


def test_data_said_not_to_show_is_no_study_result() -> None:
    # round at: "You said one summer is not the kind of data that shows up in skin cancer
    # figures. Did anything in those results surprise you?" (0 of 8: there were none)
    talk = (
        "One summer is not the kind of data that shows up in skin cancer figures and we "
        "didn't have a budget to track it."
    )
    assert "Did anything in those results surprise you?" not in _fits(talk)


def test_the_best_in_years_says_whether_it_was_typical() -> None:
    # round au: "You said you had blue whales in the bay on eleven days in June. Was that a
    # typical period, or could it have been an unusual one?" (0 of 8: "which is the best
    # we've had in four years")
    talk = ("We had blue whales in the bay on 11 days in June, which is the best we've had "
            "in four years, and the photo ended up in the newspapers.")  # fmt: skip
    assert "Was that a typical period, or could it have been an unusual one?" not in _fits(talk)
    assert "Was that a typical period, or could it have been an unusual one?" in _fits(
        "We had blue whales in the bay on 11 days in June, and the photo made the papers."
    )


def test_a_surprise_told_anywhere_answers_the_surprise_question() -> None:
    # round au: "You said during the pilot, that rose to thirty-four percent. Did anything in
    # those results surprise you?" (0 of 2: "That one surprised us more", two sentences on)
    talk = ("After we brought in the new shortlisting, the share rose from 22 % to 34 %. "
            "Applicants over 50 also did better, going from 9 % to 13 %. The panels liked "
            "it. That one surprised us more.")  # fmt: skip
    assert "Did anything in those results surprise you?" not in _fits(talk)


def test_a_payback_is_worked_out_not_measured() -> None:
    # rounds ac, ar and av: "You said you expect the system to pay for itself in a little
    # over three years. What is that based on?" and the like (0 of 24: the talk gave the
    # costs and savings it comes from)
    for sentence in (
        "We expect the system to pay for itself in a little over three years.",
        "The payback is a bit under five years.",
        "The average one earns back its cost with some to spare.",
    ):
        assert "derived" in facets(sentence.lower())
        asked = _frames(sentence)
        assert "What is that based on?" not in asked
        assert "How was that measured?" not in asked
    assert "derived" not in facets("we expect to save about forty thousand a year")


def test_going_on_as_now_is_nothing_to_delay() -> None:
    # round av: "You said you will stay on the platforms. What could delay that?" (0 of 2)
    assert "What could delay that?" not in _frames("We will stay on the platforms from next April.")
    assert "What could delay that?" in _frames("We will move off the platforms from next April.")


def test_what_a_plan_buys_is_not_measured_as_working() -> None:
    # round av: "You said you would fit it with four stainless steel sinks. What will you
    # measure to know whether it's working?" (0 of 2; rounds g and q likewise, 0 of 3)
    asked = "What will you measure to know whether it's working?"
    assert asked not in _frames("We would fit the station with four steel sinks, starting in May.")
    assert asked not in _frames("We would buy four steel sinks for a trial starting in May.")
    assert asked in _frames("We would like a three month trial of the station starting in May.")


def test_a_clause_does_not_end_where_the_orders_came() -> None:
    # round aw: "You said almost sixty percent of orders came. How was that measured?" (0 of
    # 6: "between November and February" cut off; tiny.en heard "came but we November")
    assert quotable_clause("Almost sixty percent of orders came between November and "
                           "February.") == ("Almost sixty percent of orders came between "
                                            "November and February")  # fmt: skip
    assert not quotable_clause("Almost sixty percent of orders came but we November and February.")


def test_a_count_set_against_its_target_is_not_asked_whether_it_is_usual() -> None:
    # round aw: "You said you had installed thirteen twelve. Is that more or less than
    # usual?" (0 of 8: the first round of a stove exchange, set against a target of fifteen
    # hundred just before)
    asked = "Is that more or less than usual?"
    talk = "Our target was 1,500 households. By the end of October, we had installed 1,312."
    assert asked not in _fits(talk)
    assert asked in _fits("By the end of October, we had installed 1,312 stoves in the district.")


def test_where_someone_sat_is_no_count() -> None:
    # round ax: "You said a woman came and sat two chairs away. ... Still on that point. Is
    # that more or less than usual?" (0 of 8, a personal story)
    assert "tally" not in facets("a woman came and sat two chairs away")
    assert "tally" not in facets("we live three doors down from the school")
    assert "tally" in facets("we had two chairs in the hall")


def test_a_risk_that_pushes_the_work_into_next_year_answers_what_could_hold_it_up() -> None:
    # round ay: "If it's approved, what could still hold it up?" of a talk that had said
    # "a wet summer could push the end date into the following year" (0 of 8)
    talk = ("I'm asking the council to approve the rebuild of the channel this spring. "
            "The work would start in June. A wet summer could push the end date into the "
            "following year.")  # fmt: skip
    asked = [q for _k, q in whole_proposal_questions(talk)]
    assert "If your request is approved, what could still hold it up?" not in asked
    plain = talk.replace(" A wet summer could push the end date into the following year.", "")
    assert "If your request is approved, what could still hold it up?" in [
        q for _k, q in whole_proposal_questions(plain)
    ]


def test_a_trial_that_ran_from_one_month_to_another_is_nothing_to_delay() -> None:
    # round az: "You said you were responsible for the exoskeleton trial on the lashing
    # crews that ran from February to April. What could delay that?" (0 of 8: it had ended)
    asked = "What could delay that?"
    assert asked not in _frames("I ran the exoskeleton trial on the lashing crews that ran "
                                "from February to April.")  # fmt: skip
    assert asked in _frames("We will run the exoskeleton trial on the lashing crews from "
                            "February to April.")  # fmt: skip


def test_a_comparison_with_other_spending_is_no_change() -> None:
    # round az: "You said that is less than the district spent resurfacing a single
    # kilometer of road. Could something else have caused that change?" and "Did anything
    # in those results surprise you?" (0 of 32)
    assert "change" not in facets("that is less than the district spent resurfacing a road")
    assert "change" not in facets("the question i get asked more than any other")
    assert "change" in facets("we spent less than last year on heating")
    assert "change" in facets("the wait is shorter than it was")


def test_an_explainers_opening_is_no_plan() -> None:
    # round az: "You said you want to answer the question you get asked more than any
    # other. Are there any side effects you're worried about?" (0 of 32, a talk on why the
    # sea is salty)
    assert "plan" not in facets("i want to answer the question i get asked more than any other")
    assert _frames("Tonight I want to answer the question I get asked more than any other.") == []
    assert "plan" in facets("we want to open the pool two hours earlier on weekdays")


def test_who_pays_is_not_asked_for_side_effects() -> None:
    # round az: "You said you're asking the company to pay half from the development fund.
    # Are there any side effects you're worried about?" (0 of 4; rounds ao and earlier:
    # "members pay sixty naira per bird", "the PTA to fund the first year", 0 of 11)
    asked = "Are there any side effects you're worried about?"
    for sentence in (
        "I'm asking the company to pay half from the development fund.",
        "I propose that members pay sixty naira per bird for each round.",
    ):
        assert asked not in _frames(sentence)
    assert asked in _frames("I propose that members vaccinate every bird for each round.")


def test_what_typically_happens_is_not_asked_whether_it_is_usual() -> None:
    # round au: "You said it joined typically last between twenty and thirty. Is that more
    # or less than usual?" (0 of 8: the clause says what is usual)
    asked = "Is that more or less than usual?"
    assert asked not in _frames("A good joint typically lasts for twenty years before repair.")
    assert asked in _frames("Last winter we had twenty joints fail before the repair.")


@pytest.mark.parametrize(
    ("told", "left_out"),
    [  # round bf: whole proposals asked what the talk had said (0 of 6 to 0 of 8 each)
        ("Many people fear that a number on the door is the first step to eviction.", "cost"),
        ("There is also a practical problem. Maps go out of date.", "cost"),
        ("I must be honest about the difficulties. The cots would be closer.", "cost"),
        ("Many people fear that a number on the door is the first step to eviction.", "objection"),
        (
            "But it's school ground, so it's the Board of Governors who have to approve it.",
            "next_steps",
        ),
        ("It goes to the full council in December, and only they can approve it.", "next_steps"),
        # round bg (0 of 4 for the argument against)
        ("Now I'm not going to pretend there's no catch. The ring stays up.", "objection"),
        ("Now I'm not going to pretend there's no catch. The ring stays up.", "cost"),
    ],
)
def test_what_a_proposal_already_said_is_not_asked_of_it_whole(told: str, left_out: str) -> None:
    talk = "Good evening. I'm asking the committee to approve the plan. Thank you."
    assert left_out in [k for k, _q in whole_proposal_questions(talk)]
    said = talk.replace("Thank you.", f"{told} Thank you.")
    assert left_out not in [k for k, _q in whole_proposal_questions(said)]


def test_a_relative_clause_is_not_cut_at_its_and() -> None:
    # round bf: "You said you're going to recruit harder among people who live." (0 of 8)
    sentence = ("And we're going to recruit harder among people who live and work right here "
                "in town, including retired folk who fancy the shore crew.")  # fmt: skip
    assert not said_clause(sentence).endswith("people who live")
    heard = ("Symptoms reported over the phone aren't a diagnosis, and about one in five "
             "mothers we called and turned out to be fine.")  # fmt: skip
    assert not said_clause(heard).endswith("mothers you called")
    kept = "We will recruit harder among people who live nearby and we will train them."
    assert said_clause(kept) != ""


def test_round_bh_misfits_are_not_asked() -> None:
    # round bh: a hire that is one line of a plan asked its side effects and what will show
    # it works (0 of 8), a day's number asked whether it is usual (0 of 4), and "in" heard
    # as "and" before a month quoted back (4 of 8)
    hire = "We'd also hire one full-time technician at about thirty-two thousand a year."
    assert "step" in facets(hire)
    assert not {
        "Are there any side effects you're worried about?",
        "What will you measure to know whether it's working?",
    } & set(_frames(hire))
    plan = "We'd also run the insect unit ourselves for thirty-two thousand a year."
    assert "Are there any side effects you're worried about?" in _frames(plan)
    assert "Is that more or less than usual?" not in _frames("We called every mother on day seven.")
    assert "Is that more or less than usual?" in _frames("We called seven mothers last week.")


@pytest.mark.parametrize(
    ("heard", "said"),
    [
        # round bh: "in" heard as "and"
        ("Completion went from fifty-seven percent and October to eighty-three percent in May.",
         "Completion went from fifty-seven percent in October to eighty-three percent in May."),
        # round bi: "two" heard as "to" (0 of 8)
        ("We're proposing to convert to unused consultation rooms on the ground floor.",
         "We're proposing to convert two unused consultation rooms on the ground floor."),
        # round bk: "seventy-one percent said" heard as "721 % said" (0 of 8)
        ("721 % said they had not rested at all during their split.",
         "71 % said they had not rested at all during their split."),
        # round bm: "ninety-four decibels" heard as "nine to four decibels" (0 of 8)
        ("In the woodwind row, the average over three hours was nine to four decibels.",
         "In the woodwind row, the average over three hours was ninety-four decibels."),
    ],
)  # fmt: skip
def test_a_recogniser_slip_is_not_quoted_but_the_words_said_are(heard: str, said: str) -> None:
    assert said_clause(spoken_numbers(heard)) == ""
    assert said_clause(spoken_numbers(said)) != ""


def test_round_bi_misfits_are_not_asked() -> None:
    # round bi: a clean record asked whether it is a trend (0 of 8), and "two" heard as
    # "to" quoted back (0 of 8)
    clean = "In six months nothing was dropped, and nothing landed in the wrong place."
    assert "Is that a trend, or could it be a one-off?" not in _frames(clean)
    assert "change" in facets("In six months the late deliveries dropped from nine to two.")


def test_round_bk_misfits_are_not_asked() -> None:
    # round bk: a route asked whether it is a trend (0 of 8), and "seventy-one percent
    # said" heard as "721 % said" quoted back (0 of 8)
    trend = "Is that a trend, or could it be a one-off?"
    route = "The walk from the metro station up to our health centre is about nine hundred metres."
    assert trend not in _frames(route)
    assert not {"change", "shift", "result"} & facets(route)
    moved = "The walk from the station took twenty minutes, and now it's down to twelve."
    assert "change" in facets(moved)
    assert {"change", "shift"} <= facets("The wait went from nine hours to under six.")
    assert trend in _frames("The share of late buses went from one in five to one in ten.")
    # more than a whole is no slip (sealed8: "exceed one hundred ten percent of the
    # expected total")
    assert said_clause(
        "Collections that day came to one hundred ten percent of the expected total."
    )


def test_round_bm_misfits_are_not_asked() -> None:
    # round bm: an intention that names only a time ("Tonight I want to do something more
    # useful than complain"), and "ninety-four decibels" heard as "nine to four decibels"
    assert said_clause("Tonight I want to do something more useful than complain.") == ""
    assert said_clause("Tonight I want to ask for two new benches on Calle Mayor.") != ""
    assert said_clause("We'll ask the members again next March.") != ""  # a date is a point
    assert said_clause("The bins hold two to three kilos of glass each week.") != ""
    # what the speaker's side gives is no price to firm up (0 of 8), and the signature a
    # plan still needs answers what could hold it up (0 of 8)
    firm = "Is that figure a firm quote, or still an estimate?"
    assert firm not in _frames("Our association will contribute eight thousand euros to it.")
    assert firm in _frames("The pump-out station will cost eight thousand euros to install.")
    hold = "If your request is approved, what could still hold it up?"
    ask = "Good evening. So my ask is this: approve the floodlights for the school pitch."
    assert hold in dict(whole_proposal_questions(f"{ask} Thank you.")).values()
    signed = f"{ask} If you approve it, it still needs a signature from the education office."
    assert hold not in dict(whole_proposal_questions(signed)).values()


def test_a_question_asked_in_other_words_is_not_asked_again() -> None:
    # round bn: "Still on that point. Is that more or less than usual?" straight after "Was
    # that a typical period, or could it have been an unusual one?" (0 of 8)
    talk = "Good evening. This year we had thirty-one applications for the internship. Thanks."
    claim = next(c for c in find_claims(talk) if "thirty-one" in c.text)
    first = grounded_questions(claim, "evidence", talk)
    assert [q for _lead, q in first] == [
        "Was that a typical period, or could it have been an unusual one?",
        "Is that more or less than usual?",
    ]
    asked = [f"{first[0][0]} I'm not convinced yet. {first[0][1]}"]
    assert grounded_questions(claim, "evidence", talk, asked=asked) == []
    # and an estimate that says it rests on what was said before ("If that happens, ...")
    based = "What is that based on?"
    assert based not in _frames("If that happens, we would lose around seventy farms.")
    assert based in _frames("We expect to lose around seventy farms in ten years.")


def test_when_a_plan_is_booked_for_is_a_step() -> None:
    # round bf: "You said you want to book it for February when it's quiet. What will you
    # measure to know whether it's working?" (0 of 8)
    asked = "What will you measure to know whether it's working?"
    assert "step" in facets("We want to book it for February when it's quiet.")
    assert asked not in _frames("We want to book it for February when it's quiet.")
    assert asked in _frames("We want to train all four mechanics on electric cars this winter.")


def test_a_named_place_or_a_routine_is_no_figure_or_plan() -> None:
    # round bo: "You said a grandmother from Block eight told you she came for the tomatoes.
    # Is that more or less than usual?" (0 of 8)
    told = "A grandmother from Block eight told me she came for the tomatoes."
    assert "tally" not in facets(told)
    assert "Is that more or less than usual?" not in _frames(told)
    assert "Is that more or less than usual?" in _frames("Eight families came for the tomatoes.")
    # round bo: "You said you'll open the sluice gate over there. What do you see as the
    # strongest argument against it?" (0 of 16 with the other plan questions), an explainer
    routine = (
        "Twice a month on the big spring tides, we'll open the sluice gate over there "
        "and let the sea into the first pond."
    )
    against = "What do you see as the strongest argument against it?"
    assert against not in _frames(routine)
    plan = "We'll open the sluice gate twice a month and let the sea into the first pond."
    assert against in _frames(plan)


def test_a_span_or_a_setup_is_not_a_change_or_a_count() -> None:
    # round bp: "You said average time from landing to release was about ninety seconds.
    # Could something else have caused that change?" (0 of 8)
    span = "Average time from landing to release was about ninety seconds."
    assert not {"change", "shift"} & facets(span)
    assert "change" in facets("Average time went from three minutes to about ninety seconds.")
    # "You said each station had four bins. Is that more or less than usual?" (0 of 8)
    usual = "Is that more or less than usual?"
    assert "tally" not in facets("Each station had four bins.")
    assert usual not in _frames("Each station had four bins.")
    assert usual in _frames("We called seven mothers last week.")
    # "You said you can only have it one morning a month. How often does that happen?"
    often = "How often does that happen?"
    hall = (
        "We can only have it one morning a month, it costs sixty dollars a session and "
        "everything has to be packed into cars afterwards."
    )
    assert often not in _frames(hall)


def test_a_survey_named_anywhere_says_how_reports_were_measured() -> None:
    # round bq: "You said your testers reported an average of nineteen extra hours a week
    # in those last eight weeks. How was that measured?", the talk of its overtime survey
    # saying "This is self-reported." later (0 of 8)
    measured = "How was that measured?"
    claim = "Our testers reported an average of nineteen extra hours a week in May."
    assert measured in _fits(f"Good morning. {claim} That is a lot.")
    surveyed = (
        f"Good morning. {claim} That is a lot. Art was lower. Audio was lower "
        "still. Remember this is self-reported."
    )
    assert measured not in _fits(surveyed)
    # and "they still fell a bit soft" (tiny.en's "felt") is no fall: "Is that a trend?"
    assert not {"change", "shift"} & facets("They still fell a bit soft, but looked lovely.")


def test_what_others_will_feel_and_what_goes_on_as_before_are_no_plans() -> None:
    # round bs: "You said some families will feel that's unfair. What could delay that?"
    # and "You said you'll keep attendance records the same way you always have. Are there
    # any side effects you're worried about?" (0 of 8 each)
    feel = "Some families will feel that's unfair when we start in March."
    assert "What could delay that?" not in _frames(feel)
    assert "plan" not in facets("We'll keep attendance records the same way we always have.")
    assert "plan" in facets("We'll keep attendance records on the new tablets from May.")


def test_a_break_even_is_no_plan_and_a_test_at_start_and_end_is_a_method() -> None:
    # round bu: "You said you need to reach about five thousand five hundred kilos to break
    # even. Are there any side effects you're worried about?" (0 of 8)
    even = "We need to reach about five thousand five hundred kilos to break even."
    assert "plan" not in facets(even)
    assert "plan" in facets("We need to reach every farm on the island by June.")
    # "You said the average time went from fourteen seconds to just under eleven point
    # five. How was that measured?", after "Camilla did a simple test at the start and the
    # end. The one where you stand up from a chair ..." (0 of 8)
    times = "The average time went from fourteen seconds to just under eleven."
    assert "How was that measured?" in _frames(times)
    tested = (
        "Hello. Camilla did a simple test at the start and the end. You stand up from a "
        f"chair and walk. {times} Thanks."
    )
    assert "How was that measured?" not in _fits(tested)


def test_a_promise_about_the_meeting_is_no_plan() -> None:
    # round bv: "You said you promise you'll be out before choir practice. What will you
    # measure to know whether it's working?" (0 of 8)
    assert "plan" not in facets("I promise we'll be out before choir practice.")
    assert "plan" in facets("I promise we'll fit the barrier before the turtles nest.")


@pytest.mark.parametrize("money", ["rupees", "shillings", "pesos", "naira", "kronor", "pula"])
def test_money_in_any_currency_is_money(money: str) -> None:
    # round bs: "You said the average cost of parts was eight hundred rupees a chair. How
    # was that measured?" (a price is not measured)
    said = f"The average cost of parts was eight hundred {money} a chair."
    assert "money" in facets(said)
    assert "How was that measured?" not in _frames(said)
    assert "money" not in facets("He won the race by eight hundred metres.")


def test_filing_the_paperwork_is_a_step() -> None:
    # "You said you will submit the city application by the end of March. What will you
    # measure to know whether it's working?" (0 of 2)
    asked = "What will you measure to know whether it's working?"
    filed = "We will submit the city application by the end of March."
    assert "step" in facets(filed)
    assert asked not in _frames(filed)
    assert "step" not in facets("We will file down the sharp edges of every bench.")


def test_the_deciders_themselves_are_no_hold_up() -> None:
    talk = "Good evening. I'm asking you to approve the plan. Only you can approve it tonight."
    assert "next_steps" in [k for k, _q in whole_proposal_questions(talk)]
    # naming a risk is no answer to the side effects (round at: 8 of 8 accepted after
    # "There's one risk I cannot fully answer today")
    named = talk + " There's one risk I cannot fully answer today."
    assert "cost" in [k for k, _q in whole_proposal_questions(named)]


def test_a_named_disruption_answers_whether_the_period_was_typical() -> None:
    # round be: "You said you had roadworks on Perkinova for three months. Was that a
    # typical period, or could it have been an unusual one?" (0 of 8: the talk had named
    # the roadworks as the caveat)
    asked = "Was that a typical period, or could it have been an unusual one?"
    said = "Last year we had roadworks on Perkinova for three months, which pushed traffic away."
    assert asked not in _frames(said)
    assert asked in _frames("Last year we counted nine collisions on Perkinova in three months.")


def test_an_overspend_is_money_and_is_not_asked_how_it_was_measured() -> None:
    # round be: "You said you went over by six thousand six hundred, roughly ten percent.
    # How was that measured?" (0 of 8: the talk gave the budget and the final cost)
    asked = "How was that measured?"
    told = (
        "The repair was budgeted at sixty thousand and came to sixty-six thousand six "
        "hundred. So we went over by six thousand six hundred, roughly ten percent."
    )
    assert asked not in _frames(told)
    assert facets("So we went over by six thousand six hundred.") >= {"money"}
    assert "money" not in facets("So we went over by six hundred hours.")


def test_a_method_told_a_few_sentences_before_answers_how_it_was_measured() -> None:
    # rounds ac, x, o: "You said the share of tires below the limit dropped from nineteen
    # percent to six. How was that measured?" (2 of 4), "median earnings ... How was that
    # measured?" (0 of 4), and others: the talk had told how, three to six sentences before
    asked = "How was that measured?"
    method = "Every morning the marshal clips a gauge to each tire and the app records the depth."
    filler = (
        "The drivers were sceptical at first. Some of them still are. The owners were "
        "kinder. The insurers noticed."
    )
    result = (
        "Over five months, the share of tires below the limit dropped from nineteen percent to six."
    )
    assert asked not in _fits(f"We started in March. {method} {filler} {result}")
    assert asked in _fits(f"We started in March. {filler} {result}")
    # a method told of something else does not answer it
    other = method.replace("each tire", "each bus").replace("depth", "mileage")
    assert asked in _fits(f"We started in March. {other} {filler} {result}")


def test_where_the_money_comes_from_or_a_draw_is_not_measured_as_working() -> None:
    # round ba: "You said you propose you take forty thousand from your reserve fund. What
    # will you measure to know whether it's working?" and the same of "a lottery for the
    # order, drawn publicly here in the hall" (0 of 16)
    asked = "What will you measure to know whether it's working?"
    for sentence in (
        "I propose we take forty thousand from our reserve fund for the two machines.",
        "I'm proposing a lottery for the order, drawn publicly here in the hall.",
    ):
        assert asked not in _frames(sentence)
    assert asked in _frames("I propose we hire two threshing machines for the whole season.")


def test_a_drawback_for_others_is_no_step_to_delay() -> None:
    # round bx: "You said you'd hold it on a Wednesday, so younger ones will be up late on
    # a school night. What could delay that?" (0 of 6)
    asked = "What could delay that?"
    talk = (
        "Good evening. I'd like us to move sports day to the evening this year. We'd hold it "
        "on a Wednesday, so younger ones will be up late on a school night, and the principal "
        "has agreed in principle to a nine o'clock start the next morning. Thank you."
    )
    claim = next(c for c in find_claims(talk) if "Wednesday" in c.text)
    assert asked not in [f.text for f in frames_for(claim, talk)]
    assert asked in _frames("We will hold it on a Wednesday in March.")


def test_where_something_comes_from_is_no_change() -> None:
    # round bx: "You said that familiar green comes from oxygen, roughly sixty to one hundred
    # fifty miles up. Is that a trend, or could it be a one-off?" (0 of 8)
    asked = "Is that a trend, or could it be a one-off?"
    said = "That familiar green comes from oxygen, roughly sixty to one hundred fifty miles up."
    assert not {"change", "shift"} & facets(said)
    assert asked not in _frames(said)
    assert {"change", "shift"} <= facets("Waiting times went from forty minutes to twelve.")


def test_a_count_after_the_talk_said_it_was_the_first_time_is_not_compared_with_usual() -> None:
    # round ca: "You said you had forty-six volunteers and nine staff on the phones. Is
    # that more or less than usual?" (0 of 8: "This summer, for the first time, we ran a
    # structured telephone check")
    asked = "Is that more or less than usual?"
    count = "We had forty-six volunteers and nine staff on the phones."
    first = f"Good morning. This summer, for the first time, we ran a telephone check. {count}"
    claim = next(c for c in find_claims(first) if "forty-six" in c.text)
    assert asked not in [f.text for f in frames_for(claim, first)]
    again = first.replace("for the first time, ", "")
    claim = next(c for c in find_claims(again) if "forty-six" in c.text)
    assert asked in [f.text for f in frames_for(claim, again)]


def test_a_choice_made_in_the_meeting_is_no_plan() -> None:
    # round cc: "You said you would suggest that you choose the three tonight. What will you
    # measure to know whether it's working?" (0 of 4; its side effects 0 of 4)
    assert "plan" not in facets("I would suggest we choose the three tonight")
    assert "plan" not in facets("We will elect the new treasurer today")
    assert "plan" in facets("I would suggest we choose the three trainees in March")


def test_a_year_followed_by_from_says_when() -> None:
    # round cb: "You said the explanation came in nineteen ninety-seven from a group at the
    # University of Chicago. Is that more or less than usual?" (0 of 8)
    said = "The explanation came in nineteen ninety-seven from a group at the University."
    assert "tally" not in facets(said)
    assert "Is that more or less than usual?" not in _frames(said)
    assert "change" in facets("Membership went up in two thousand four by a third.")


def test_a_journey_or_a_thing_moved_is_no_change() -> None:
    # round bz: "Is that a trend, or could it be a one-off?" of "people fly here from Europe
    # and Japan to train at two thousand four hundred meters" and of "sand is taken off the
    # sea side, carried over the top, and dropped down the forest side" (0 of 16)
    for said in (
        "People fly here from Europe and Japan to train at two thousand four hundred meters.",
        "Sand has taken off the seaside, carried over the top, and dropped down the forest side.",
    ):
        assert not {"change", "shift"} & facets(said), said
    assert {"change", "shift"} <= facets("The share fell from nineteen percent to six.")
    assert "change" in facets("Prices dropped over the summer by a third.")
    # round cg: "Could something else have caused that change?" of a rule for the roof (0
    # of 8); a person going up is no measure that rose
    rule = ("Nobody goes up except the two on duty, always with a teacher and only after we "
            "fit a proper railing which the staff have quoted at six thousand.")  # fmt: skip
    assert not {"change", "shift"} & facets(rule)
    assert "change" in facets("Fares go up by ten percent in May.")
    assert "change" in facets("Visitors went up from nine thousand to twelve thousand.")


def test_a_drawback_the_speaker_will_not_hide_answers_the_side_effects() -> None:
    # round bz: "If your recommendation goes ahead, are there any side effects you're
    # worried about?" after "Here's the part I don't want to hide." and its costs (0 of 8)
    talk = (
        "Good evening. My recommendation is that we switch line two to bronze dies. Here's "
        "the part I don't want to hide. Output falls from nine tonnes a day to six. Thank you."
    )
    kinds = [k for k, _q in whole_proposal_questions(talk)]
    assert "cost" not in kinds and "next_steps" in kinds
    assert "cost" in [
        k
        for k, _q in whole_proposal_questions(
            talk.replace("Here's the part I don't want to hide. ", "")
        )
    ]


def test_the_purpose_of_what_was_done_is_no_plan() -> None:
    # round by: "You said you would photograph both flanks of any animal passing." asked
    # its side effects, the strongest argument against it and what will show it works (8
    # of 16: "Each camera was paired with another facing it so we would photograph ...")
    said = "Each camera was paired with another facing it so we would photograph both flanks."
    assert "plan" not in facets(said)
    assert "plan" in facets("We would pair each camera with another so we could photograph both.")
    assert whole_frame_kinds("Are there any side effects you're worried about?") == ("cost",)
    assert whole_frame_kinds("How was that measured?") == ()


def test_how_a_group_pays_its_part_is_not_measured_as_working() -> None:
    # round bw: "You said you would borrow the rest from the mutual savings bank. What will
    # you measure to know whether it's working?" and the same of "you will put that in as
    # your share" (0 of 10); the side effects of borrowing were accepted (6 of 6)
    asked = "What will you measure to know whether it's working?"
    for sentence in (
        "We would borrow the rest from the mutual savings bank.",
        "We will put that in as our share.",
        "We will put our savings in as our own contribution.",
    ):
        assert asked not in _frames(sentence)
        assert "Are there any side effects you're worried about?" in _frames(sentence)
    assert asked in _frames(
        "We would open the press to every family in the village on market days."
    )


def test_a_count_of_something_done_for_the_first_time_is_not_compared_with_usual() -> None:
    # round ba: "You said you had forms for almost nine hundred birds this way. Is that more
    # or less than usual?" (0 of 8: "and now, for the first time, we have a map")
    asked = "Is that more or less than usual?"
    said = "We had forms for almost nine hundred birds this way"
    assert asked not in _frames(f"{said}, and now, for the first time, we have a map.")
    assert asked in _frames(f"{said}, and now we have a map.")


def test_a_bare_answer_is_not_quoted() -> None:
    # round au: "You said you should, and this proposal isn't instead of trees. Are there
    # any side effects you're worried about?" (0 of 8: the verb is the question before's)
    assert not quotable_clause("We should, and this proposal isn't instead of trees.")
    assert quotable_clause("We should plant trees, and this proposal isn't instead of them.")


def test_what_is_still_kept_is_no_plan() -> None:
    # round ay: "You said in other words, you would still keep more than eighty percent of
    # the reserve for emergencies. Are there any side effects you're worried about?" (0 of 8)
    said = "In other words, we would still keep more than eighty percent of the reserve for storms."
    assert "plan" not in facets(said.lower())
    assert "Are there any side effects you're worried about?" not in _frames(said)
    assert "plan" in facets("we would keep the library open until seven on weekdays")


def test_a_proposal_is_said_back_with_to_not_you() -> None:
    # rounds w, az and ba: "You said you propose you take forty thousand from your reserve
    # fund" (reviewers: "garbled pronouns", "awkward")
    assert _second_person("I propose we take forty thousand from our reserve fund", "") == (
        "you propose to take forty thousand from your reserve fund"
    )
    assert _second_person("I'm proposing we run it for one season", "") == (
        "you're proposing to run it for one season"
    )
    assert _second_person("We recommend we expand to two hundred homes", "") == (
        "you recommend that you expand to two hundred homes"
    )
    # the committee's proposal to the members is said back as it was
    assert _second_person("The committee is proposing we pay for it from three sources", "") == (
        "the committee is proposing you pay for it from three sources"
    )


def test_a_number_heard_as_two_is_not_quoted_and_an_anchor_is_no_change() -> None:
    # rounds f and aj: "your membership has gone from six to two to ninety-one" (sixty-two,
    # 0 of 2), "entries in the accident book went from seven to four to sixty-nine" (0 of 16);
    # round ao: "the captain dropped anchor. Is that a trend, or could it be a one-off?"
    assert not quotable_clause(
        "Our membership has gone from six to two to ninety-one in three years."
    )
    assert quotable_clause("Our membership has gone from sixty-two to ninety-one in three years.")
    assert "change" not in facets(
        "the crew thought the propeller had hit one, the captain dropped anchor"
    )
    assert "change" in facets("the price dropped to four dollars a kilo")


def test_what_a_batch_of_twenty_had_is_no_tally() -> None:
    # round ao: "You said the second batch of twenty had lithium packs. Is that more or less
    # than usual?" (0 of 8: what they had, not how many)
    assert "tally" not in facets("the second batch of twenty had lithium packs")
    assert "tally" in facets("nine of the twenty had lithium packs")


def test_a_question_about_the_whole_proposal_names_it() -> None:
    # round bb: one reviewer rejected every "If it's approved, what could still hold it up?"
    # as about no specific point (0 of 16; the other reviewer 15 of 16)
    talk = "I'm proposing a new crossing outside the school. It would open in May."
    asked = [q for _k, q in whole_proposal_questions(talk)]
    assert "If your proposal is approved, what could still hold it up?" in asked
    assert "If your proposal goes ahead, are there any side effects you're worried about?" in asked
    asked = [q for _k, q in whole_proposal_questions(talk.replace("proposing", "asking for"))]
    assert "If your request is approved, what could still hold it up?" in asked


def test_what_someone_would_do_in_a_story_is_no_estimate() -> None:
    # round bc: "You said he would bring his string across yours, give one sharp pull. What
    # is that based on?" (0 of 8, a story of a kite festival)
    assert "estimate" not in facets("he would bring his string across yours, give one sharp pull")
    assert "estimate" in facets("we would bring in about forty thousand a year")


def test_asking_the_board_is_a_step_with_no_side_effects() -> None:
    # round bc: "You said you will ask the board formally in June. Are there any side
    # effects you're worried about?" (0 of 8)
    asked = _frames("I will ask the board formally in June to extend the reading dogs.")
    assert "Are there any side effects you're worried about?" not in asked
    assert "step" in facets("i will ask the board formally in june")


def test_a_retirement_is_a_tribute_and_asking_others_to_check_is_a_step() -> None:
    # round bd: a school cook's retirement ("who retires this Friday after forty-one years")
    # was asked "Could something else have caused that change?" (0 of 16); "You said you
    # have asked the fire police to inspect the plan. What will you measure ...?" (0 of 8)
    assert is_tribute("Today we thank Mrs Dube, who retires this Friday after forty-one years.")
    assert not is_tribute("The old pump retired in May and the new one is twice as fast.")
    assert "step" in facets("we have asked the fire police to inspect the plan")
    assert "step" not in facets("we will ask parents to pick up before five")


def test_a_person_turning_up_in_a_story_is_not_asked_how_often_it_happens() -> None:
    """Rounds be and cf: "How often does that happen?" of "a woman came and sat two chairs
    away" and "sitting beside me was a woman from Buenos Aires", 0 of 16 verdicts."""
    assert "presence" in facets("Sitting beside me was a woman from Buenos Aires, maybe fifty.")
    assert "presence" in facets("Around midnight a woman came and sat two chairs away.")
    assert "presence" not in facets("A patient fell twice on the night shift.")
    from coach.audience import Audience, AudienceOptions

    for said in (
        "Sitting beside me was a woman from Buenos Aires, maybe fifty.",
        "Around midnight a woman came and sat two chairs away.",
    ):
        talk = (
            "I want to tell you about the night the chairlift stopped. It was the last lift "
            f"of the day, and the wind was rising. {said} Then the lift stopped and we hung "
            "there for forty minutes. I learnt to ask before I climb on."
        )
        asked = [q.text for q in Audience(None, talk, AudienceOptions()).questions(4)]
        assert "How often does that happen?" not in asked, said
