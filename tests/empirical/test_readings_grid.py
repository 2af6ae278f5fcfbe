"""The readings grid: names, what each claim admits, and the readings a model cannot have."""

import pytest

from empirical.readings.claims import CLAIMS
from empirical.readings.grid import AXES, Reading, check_applies, default_readings, parse, valid_names

pytestmark = pytest.mark.empirical


def test_a_name_round_trips_in_a_canonical_order_and_defaults_vanish():
    assert parse("x=keys+sink=dropped") == parse("sink=dropped+x=keys")
    assert parse("x=keys+sink=dropped").name == "sink=dropped+x=keys"
    assert parse("x=values").name == "baseline" and parse("baseline") == Reading()


@pytest.mark.parametrize("name", ["x=queries", "sinks=dropped", "x", "", "x=keys+x=output"])
def test_an_unknown_or_doubled_reading_is_refused_with_the_valid_names(name):
    with pytest.raises(ValueError) as error:
        parse(name)
    assert "x=keys" in str(error.value) or "twice" in str(error.value)


def test_every_claim_has_at_least_four_readings_on_an_encoder_and_a_decoder():
    for claim in CLAIMS:
        for causal in (False, True):
            readings = default_readings(claim, causal=causal, has_output_projection=True)
            assert len(readings) >= 4 and readings[0] == Reading()
            assert all(reading.admits(claim) for reading in readings)
            assert (Reading((("queries", "context"),)) in readings) == causal


def test_each_axis_documents_every_choice_with_its_source():
    for axis in AXES.values():
        assert len(axis.choices) >= 2
        for choice in axis.choices:
            assert choice.computes and choice.source
    assert len(valid_names()) == 1 + sum(len(axis.choices) - 1 for axis in AXES.values())


def test_readings_a_model_cannot_have_are_refused_and_others_pass():
    with pytest.raises(ValueError, match="encoder without a causal mask"):
        check_applies(parse("queries=context"), causal=False, has_output_projection=True, model="minilm")
    with pytest.raises(ValueError, match="W_O is not exposed"):
        check_applies(parse("x=output"), causal=True, has_output_projection=False, model="t5")
    check_applies(parse("queries=context+x=output"), causal=True, has_output_projection=True, model="gpt2")
    check_applies(parse("queries=context"), causal=None, has_output_projection=None, model="unknown yet")
