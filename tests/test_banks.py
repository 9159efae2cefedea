"""Question banks and practice scenarios: the shipped files, role matching, plans, errors."""

from __future__ import annotations

from pathlib import Path

import pytest

from coach.errors import OptionsError
from coach.interview import (
    STAGES,
    Bank,
    BankQuestion,
    Scenario,
    builtin_banks,
    builtin_scenarios,
    load_bank_file,
    load_scenario,
    match_family,
    render,
)
from coach.interview.banks import data_dir, with_article

FAMILIES = (
    "data",
    "software",
    "product",
    "sales",
    "design",
    "operations",
    "marketing",
    "healthcare",
    "education",
    "hospitality",
)


def _bank(name: str):
    return next(f for f in builtin_banks() if f.name == name)


def _write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def _one_line_error(exc: pytest.ExceptionInfo[OptionsError], path: Path) -> str:
    msg = str(exc.value)
    assert "\n" not in msg
    assert path.name in msg
    return msg


# ---- shipped banks ----------------------------------------------------------------------


def test_shipped_banks_load_and_validate():
    names = {f.name for f in builtin_banks()}
    assert {"general", "generic", *FAMILIES} <= names
    for f in builtin_banks():
        assert f.questions, f.name
        assert load_bank_file(f.path) == f  # loading again gives the same result
        for q in f.questions:
            assert q.stage in STAGES and q.type and q.text
            assert q.source.startswith(f"{f.name}:")


def test_general_bank_counts():
    general = _bank("general")
    assert not general.is_family
    counts = {s: sum(q.stage == s for q in general.questions) for s in STAGES}
    assert counts["opener"] >= 4
    assert counts["behavioral"] >= 8
    assert counts["closing"] >= 4
    assert counts["technical"] == 0
    assert any(q.type == "candidate-questions" for q in general.questions)
    assert {"team", "next-steps", "culture", "day-to-day"} <= {a.topic for a in general.answers}


@pytest.mark.parametrize("name", [*FAMILIES, "generic"])
def test_family_banks_have_role_questions(name: str):
    family = _bank(name)
    assert family.is_family
    assert sum(q.stage == "technical" for q in family.questions) >= 8
    assert family.is_fallback == (name == "generic")


def test_follow_ups_are_present_for_behavioral_questions():
    general = _bank("general")
    assert all(q.follow_ups for q in general.questions if q.stage == "behavioral")


# ---- role matching ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("role", "family"),
    [
        ("Junior Data Analyst", "data"),
        ("data engineer", "data"),
        ("Senior Software Engineer", "software"),
        ("frontend developer", "software"),
        ("Product Manager", "product"),
        ("project manager", "product"),
        ("customer success manager", "sales"),
        ("sales engineer", "sales"),
        ("UX Designer", "design"),
        ("product designer", "design"),
        ("office administrator", "operations"),
        ("financial analyst", "operations"),
        ("plumber", "generic"),
        ("barista", "hospitality"),
        ("marketing coordinator", "marketing"),  # not operations' "coordinator"
        ("registered nurse", "healthcare"),
        ("primary school teacher", "education"),
        ("line cook", "hospitality"),
        ("recruiter", "generic"),  # "ui" must not match inside a word
    ],
)
def test_role_matching(role: str, family: str):
    bank = Bank.for_role(role)
    assert bank.family == family
    assert bank.role == " ".join(role.split())


def test_unknown_role_gets_general_plus_generic_role_questions():
    bank = Bank.for_role("plumber")
    assert match_family("plumber", builtin_banks()) is None
    counts = bank.counts()
    assert counts["opener"] >= 4 and counts["behavioral"] >= 8 and counts["closing"] >= 4
    technical = bank.questions("technical")
    assert len(technical) >= 8
    assert any("{a_role}" in q.text or "{role}" in q.text for q in technical)
    rendered = [bank.render(q) for q in technical]
    assert "What draws you to working as a plumber?" in rendered
    assert not any("{" in r for r in rendered)


def test_empty_role_is_an_error():
    with pytest.raises(OptionsError, match="role is empty"):
        Bank.for_role("   ")


def test_family_questions_join_general_ones():
    bank = Bank.for_role("data scientist")
    sources = {q.source.split(":")[0] for q in bank.entries}
    assert sources == {"general", "data"}
    assert len({q.text for q in bank.entries}) == len(bank.entries)


# ---- questions and plans ----------------------------------------------------------------


def test_questions_prefer_types_first_and_exclude():
    bank = Bank.for_role("junior data analyst")
    plain = bank.questions("behavioral")
    preferred = bank.questions("behavioral", prefer_types=("conflict", "failure"))
    assert [q.type for q in preferred[:2]] == ["conflict", "failure"]
    assert sorted(q.text for q in preferred) == sorted(q.text for q in plain)
    fewer = bank.questions("behavioral", exclude=(plain[0], plain[1].text))
    assert len(fewer) == len(plain) - 2
    assert plain[0] not in fewer and plain[1] not in fewer
    with pytest.raises(OptionsError, match="unknown stage 'behavioural'"):
        bank.questions("behavioural")


def test_plan_full_arc_order():
    bank = Bank.for_role("junior data analyst")
    plan = bank.plan("full", 8, seed=3)
    assert len(plan) == 8
    assert plan[0].stage == "opener"
    assert plan[-1].stage == "closing"
    assert plan[-1].type == "candidate-questions"
    middle = [q.stage for q in plan[1:-1]]
    assert middle == ["behavioral", "technical"] * 3
    assert len({q.text for q in plan}) == len(plan)


def test_plan_is_deterministic_per_seed():
    bank = Bank.for_role("software developer")
    assert bank.plan("full", 10, seed=7) == bank.plan("full", 10, seed=7)
    assert Bank.for_role("software developer").plan("full", 10, seed=7) == bank.plan(
        "full", 10, seed=7
    )
    orders = {tuple(q.text for q in bank.plan("full", 10, seed=s)) for s in range(5)}
    assert len(orders) > 1


def test_plan_never_repeats_even_when_asked_for_more_than_the_bank_holds():
    bank = Bank.for_role("barista")
    total = len(bank.entries)
    plan = bank.plan("full", 1000)
    assert len({q.text for q in plan}) == len(plan)
    # one opener and one closing, every behavioural and role question
    counts = bank.counts()
    assert len(plan) == 1 + counts["behavioral"] + counts["technical"] + 1 < total
    assert plan[0].stage == "opener" and plan[-1].stage == "closing"
    single = bank.plan("technical", 1000)
    assert len(single) == counts["technical"] and len(set(single)) == len(single)


def test_plan_prefer_types_honoured():
    bank = Bank.for_role("junior data analyst")
    plan = bank.plan("full", 6, prefer_types=("conflict", "sql"), seed=11)
    assert plan[1].type == "conflict"
    assert plan[2].type == "sql"
    assert plan[4].type == "sql"  # both sql questions come before any other role question
    one_stage = bank.plan("behavioral", 3, prefer_types=("failure",), seed=5)
    assert one_stage[0].type == "failure"
    closing = bank.plan("full", 3, prefer_types=("final-pitch",))
    assert closing[-1].type == "final-pitch"


def test_plan_small_and_bad_counts():
    bank = Bank.for_role("product owner")
    assert bank.plan("full", 0) == []
    assert [q.stage for q in bank.plan("full", 1)] == ["opener"]
    assert [q.stage for q in bank.plan("full", 2)] == ["opener", "closing"]
    assert [q.stage for q in bank.plan("full", 3)] == ["opener", "behavioral", "closing"]
    with pytest.raises(OptionsError, match="whole number"):
        bank.plan("full", -1)
    with pytest.raises(OptionsError, match="use opener, behavioral, technical, closing or full"):
        bank.plan("middle", 3)


def test_plan_exclude_leaves_out_asked_questions():
    bank = Bank.for_role("sales representative")
    first = bank.plan("full", 6, seed=1)
    second = bank.plan("full", 6, seed=1, exclude=first)
    assert not {q.text for q in first} & {q.text for q in second}


# ---- placeholders -----------------------------------------------------------------------


def test_render_fills_placeholders():
    q = BankQuestion(
        text="What made you apply for the {role} position at {company}? Why {a_role}?",
        stage="opener",
        type="motivation",
    )
    assert (
        render(q, "data  analyst", "Acme")
        == "What made you apply for the data analyst position at Acme? Why a data analyst?"
    )
    assert render("{company} is hiring.", "analyst") == "Our company is hiring."
    with pytest.raises(OptionsError, match="role is empty"):
        render(q, "", "Acme")


@pytest.mark.parametrize(
    ("role", "expected"),
    [
        ("data analyst", "a data analyst"),
        ("engineer", "an engineer"),
        ("UX designer", "a UX designer"),
        ("HR officer", "an HR officer"),
        ("user researcher", "a user researcher"),
        ("office manager", "an office manager"),
        ("barista", "a barista"),
    ],
)
def test_with_article(role: str, expected: str):
    assert with_article(role) == expected


def test_every_shipped_text_renders_without_braces():
    for f in builtin_banks():
        bank = Bank.for_role("nurse", banks=[f])
        for q in f.questions:
            for text in (q.text, *q.follow_ups):
                out = bank.render(text, company="Acme")
                assert "{" not in out and "}" not in out
        for a in f.answers:
            assert "{" not in bank.render(a.answer)


def test_answers_to_candidate_questions():
    bank = Bank.for_role("junior data analyst")
    day = bank.answer("What does a typical day look like?", company="Acme")
    assert day.startswith("Day to day, a junior data analyst here")
    team = bank.match_answer("Who would I be working with?")
    assert team is not None and team.topic == "team"
    assert bank.match_answer("What are the next steps?").topic == "next-steps"
    assert bank.match_answer("How would you describe the culture?").topic == "culture"
    assert bank.match_answer("Do you like dogs?").topic == "other"
    assert "Acme" in Bank.for_role("barista").answer("Who is on the team?", company="Acme")


# ---- invalid bank files -----------------------------------------------------------------

GOOD_QUESTION = '[[question]]\ntext = "Why us?"\nstage = "opener"\ntype = "motivation"\n'


@pytest.mark.parametrize(
    ("content", "needle"),
    [
        ('[[question]]\ntext = "Why us?\nstage = "opener"\n', "not valid TOML"),
        ('[[question]]\ntext = "Why?"\nstage = "middle"\ntype = "x"\n', "unknown stage 'middle'"),
        ('[[question]]\nstage = "opener"\ntype = "x"\n', "missing required key 'text'"),
        ('[[question]]\ntext = "  "\nstage = "opener"\ntype = "x"\n', "'text' is empty"),
        ("question = []\n", "question list is empty"),
        ("[family]\nname = 'x'\nmatch = ['x']\n", "has no questions"),
        (GOOD_QUESTION + "colour = 'red'\n", "unknown key 'colour'"),
        (GOOD_QUESTION + "[[question]]\nfoo = 1\n", "question 2: unknown key 'foo'"),
        (GOOD_QUESTION + GOOD_QUESTION, "question 2: repeats the text of question 1"),
        (
            '[[question]]\ntext = "Why {team}?"\nstage = "opener"\ntype = "x"\n',
            "unknown placeholder {team}",
        ),
        (
            '[[question]]\ntext = "Why?"\nstage = "opener"\ntype = "Team Work"\n',
            "type 'Team Work'",
        ),
        (
            '[[question]]\ntext = "Why?"\nstage = "opener"\ntype = "x"\nfollow_ups = "So?"\n',
            "'follow_ups' must be a list of strings, not a string",
        ),
        ("[family]\nname = 'x'\n" + GOOD_QUESTION, "[family]: missing required key 'match'"),
        (
            GOOD_QUESTION + "[[candidate_question_answers]]\ntopic = 'team'\nmatch = []\n",
            "candidate_question_answers 1: missing required key 'answer'",
        ),
    ],
)
def test_invalid_bank_files(tmp_path: Path, content: str, needle: str):
    path = _write(tmp_path, "broken_bank.toml", content)
    with pytest.raises(OptionsError) as exc:
        load_bank_file(path)
    msg = _one_line_error(exc, path)
    assert needle in msg


def test_bad_toml_reports_the_line(tmp_path: Path):
    path = _write(tmp_path, "bad.toml", GOOD_QUESTION + "[[question]]\ntext = = 'x'\n")
    with pytest.raises(OptionsError) as exc:
        load_bank_file(path)
    assert "line 6" in _one_line_error(exc, path)


def test_missing_bank_file(tmp_path: Path):
    path = tmp_path / "nowhere.toml"
    with pytest.raises(OptionsError) as exc:
        load_bank_file(path)
    assert "no such file" in _one_line_error(exc, path)


def test_custom_banks_for_role(tmp_path: Path):
    general = _write(tmp_path, "general.toml", GOOD_QUESTION)
    family = _write(
        tmp_path,
        "chefs.toml",
        "[family]\nname = 'kitchen'\nmatch = ['chef', 'cook']\n"
        '[[question]]\ntext = "How do you plan a menu, {a_role}?"\nstage = "technical"\n'
        'type = "menu"\n',
    )
    files = [load_bank_file(general), load_bank_file(family)]
    bank = Bank.for_role("Head Chef", banks=files)
    assert bank.family == "kitchen"
    assert [bank.render(q) for q in bank.plan("full", 5)] == [
        "Why us?",
        "How do you plan a menu, a Head Chef?",
    ]
    assert Bank.for_role("pilot", banks=files).family == ""


# ---- scenarios --------------------------------------------------------------------------


def test_builtin_scenarios_resolve_and_validate():
    assert set(builtin_scenarios()) >= {"salary-negotiation", "networking"}
    for name in builtin_scenarios():
        s = load_scenario(name)
        assert isinstance(s, Scenario)
        assert s.name == name
        assert s.role and s.persona and s.opening_line and s.goals and s.questions
        assert load_scenario(s.path) == s  # the same file by path
        plan = s.plan()
        assert 0 < len(plan) <= s.max_questions
        assert len({q.text for q in plan}) == len(plan)
        assert plan[0].stage == s.stage_order[0] and plan[-1].stage == s.stage_order[-1]
        bank = s.bank()
        for text in (s.opening_line, *(q.text for q in s.questions)):
            assert "{" not in bank.render(text, company="Acme")


def test_salary_negotiation_scenario():
    s = load_scenario("salary-negotiation")
    assert not s.reengage
    goals = " ".join(s.goals).lower()
    assert "number" in goals and "package" in goals
    assert s.plan()[-1].type == "candidate-questions"  # the last turn survives the cap
    assert len(s.plan()) == s.max_questions < len(s.questions)
    assert s.plan(3)[-1].stage == "closing"


def test_networking_scenario_is_a_quiet_partner():
    s = load_scenario("networking")
    assert s.reengage
    assert "open question" in " ".join(s.goals).lower()
    assert "quiet" in s.persona_text


def test_persona_names_and_free_text(tmp_path: Path):
    path = _write(tmp_path, "custom.toml", _scenario_text(persona='"Skeptical"'))
    s = load_scenario(path)
    assert s.persona == "skeptical" and "evidence" in s.persona_text
    assert s.name == "custom" and s.stage_order == ["opener"] and s.max_questions == 1
    free = load_scenario(
        _write(tmp_path, "free.toml", _scenario_text(persona='"a tired landlord"'))
    )
    assert free.persona_text == "a tired landlord"


def _scenario_text(**overrides: str | None) -> str:
    """A small valid scenario; ``overrides`` are raw TOML values, or ``None`` to drop a key."""
    values: dict[str, str | None] = {
        "role": '"tenant"',
        "persona": '"warm"',
        "opening_line": '"Hello, about the rent."',
        "goals": '["ask for a repair"]',
        **overrides,
    }
    head = "".join(f"{k} = {v}\n" for k, v in values.items() if v is not None)
    return head + GOOD_QUESTION


@pytest.mark.parametrize(
    ("content", "needle"),
    [
        (_scenario_text(role=None), "missing required key 'role'"),
        (_scenario_text(opening_line=None), "missing required key 'opening_line'"),
        (_scenario_text().replace(GOOD_QUESTION, ""), "missing required key 'question'"),
        (_scenario_text().replace(GOOD_QUESTION, "question = []\n"), "question list is empty"),
        (_scenario_text(persona='"  "'), "'persona' is empty"),
        (_scenario_text(goals="[]"), "goals is empty"),
        (_scenario_text(goals='"be brave"'), "'goals' must be a list of strings, not a string"),
        ("mood = 'grim'\n" + _scenario_text(), "unknown key 'mood'"),
        ("reengage = 'yes'\n" + _scenario_text(), "'reengage' must be true or false"),
        ("max_questions = 0\n" + _scenario_text(), "'max_questions' must be 1 or more"),
        ("max_questions = 2.5\n" + _scenario_text(), "'max_questions' must be a whole number"),
        (
            "stage_order = ['closing']\n" + _scenario_text(),
            "stage_order lists 'closing' but no question has that stage",
        ),
        ("stage_order = ['middle']\n" + _scenario_text(), "unknown stage 'middle'"),
        (
            _scenario_text() + '[[question]]\ntext = "Bye"\nstage = "closing"\ntype = "x"\n'
            "[[question]]\nstage = 'closing'\n",
            "question 3: missing required key 'text'",
        ),
        ("name = 'x'\nrole = 'y\n", "not valid TOML"),
    ],
)
def test_invalid_scenarios(tmp_path: Path, content: str, needle: str):
    path = _write(tmp_path, "broken_scenario.toml", content)
    with pytest.raises(OptionsError) as exc:
        load_scenario(path)
    assert needle in _one_line_error(exc, path)


def test_stage_not_in_stage_order(tmp_path: Path):
    text = "stage_order = ['opener']\n" + _scenario_text()
    text += '[[question]]\ntext = "Bye"\nstage = "closing"\ntype = "x"\n'
    path = _write(tmp_path, "order.toml", text)
    with pytest.raises(OptionsError) as exc:
        load_scenario(path)
    assert "question 2: stage 'closing' is not in stage_order" in _one_line_error(exc, path)


def test_unknown_scenario_name():
    with pytest.raises(OptionsError, match="networking, salary-negotiation"):
        load_scenario("speed-dating")


# ---- packaging --------------------------------------------------------------------------


def test_data_files_sit_inside_the_package():
    """The data files live under coach/interview/data, which hatchling ships in the wheel
    with the package (checked by building the wheel by hand; see the report)."""
    folder = data_dir()
    assert folder.parts[-3:] == ("coach", "interview", "data")
    assert {p.name for p in (folder / "banks").glob("*.toml")} >= {
        f"{n}.toml" for n in ("general", "generic", *FAMILIES)
    }
    assert {p.name for p in (folder / "scenarios").glob("*.toml")} >= {
        "salary-negotiation.toml",
        "networking.toml",
    }
