"""Corollary 1's weights and Lemma 1's softmax take ``T`` through the backend (so that a proof can put ``T`` on an
interval) and compute the same float64 numbers as ``softmax(temperature=T)`` did: the catalogue's verdicts rest on
them, so they are compared bit for bit, not to a tolerance."""

import numpy as np

from theorems.arithmetic.precision import F64
from theorems.maths.normalisers import softmax, softmax_on_box
from theorems.statements.vanishing import corollary1


def _instances(seed=0, count=200):
    rng = np.random.default_rng(seed)
    for _ in range(count):
        length, dim = rng.integers(1, 13), rng.integers(1, 4)
        T = float(np.exp(rng.uniform(np.log(0.1), np.log(100.0))))
        yield {"q": rng.uniform(-2, 2, dim), "keys": rng.uniform(-2, 2, (length, dim)), "T": T}


def test_corollary1_weights_are_the_softmax_of_the_logits_bit_for_bit():
    for instance in _instances():
        expected = softmax(temperature=instance["T"])(instance["keys"] @ instance["q"], xp=F64)
        # bitwise: the same float64 operations in the same order, so the catalogue's verdicts cannot move
        assert np.array_equal(corollary1.weights(instance, F64), expected), instance


def test_softmax_on_box_at_a_float_temperature_is_softmax():
    for instance in _instances(seed=1):
        logits = instance["keys"] @ instance["q"]
        normaliser = softmax_on_box(temperature=instance["T"])
        assert normaliser.name == softmax(temperature=instance["T"]).name
        # bitwise: at a float T it is softmax itself
        assert np.array_equal(normaliser(logits, xp=F64), softmax(temperature=instance["T"])(logits, xp=F64))
