"""The readings grid: every choice the paper's text leaves open in its experimental setup, named.

An *axis* is one open choice (what ``x_i`` is, how the logits are scaled, ...); each has a default
(the single reading ``python -m empirical reproduce`` uses) and alternatives, each with what it computes
and where in the paper it comes from. A *reading* is the default with some axes changed; its name lists
the changes, ``x=keys`` or ``x=keys+sink=dropped``, and the default is ``baseline``. A claim admits the
axes that can change its measurement (``distance=`` only Figs. 2a-b, ``ks=`` only Fig. 2c, ...); its
default grid is the baseline and every single change of one of its axes (:func:`default_readings`).

>>> parse("x=keys+sink=dropped").name
'sink=dropped+x=keys'
>>> [r.name for r in default_readings("fig4-coincide", causal=True, has_output_projection=True)][:3]
['baseline', 'logits=unscaled', 'sink=dropped']
"""

from __future__ import annotations

import dataclasses

from theorems.errors import InvalidArgument

HEADS_AXES = ("x", "logits", "sink", "queries")
"""Axes that change the heads themselves (one derived set of heads per combination, shared by claims)."""


@dataclasses.dataclass(frozen=True)
class Choice:
    value: str
    computes: str
    source: str


@dataclasses.dataclass(frozen=True)
class Axis:
    name: str
    choices: tuple[Choice, ...]  # the first is the default
    claims: tuple[str, ...]

    @property
    def default(self) -> str:
        return self.choices[0].value

    def values(self) -> tuple[str, ...]:
        return tuple(choice.value for choice in self.choices)


DISTANCE_CLAIMS = ("fig2a", "fig2b", "fig2c", "fig3")
FIG4 = ("fig4-slope", "fig4-coincide")
ALL_CLAIMS = (*DISTANCE_CLAIMS, *FIG4)

AXES = {axis.name: axis for axis in (
    Axis("x", (
        Choice("values", "x_i = v_i, the head's value vectors",
               "the experiments' default (STATEMENTS 'Common': 'the token embeddings x_i are the head's value vectors "
               "(the paper is not explicit)'); the paper's d̃ sums α_i x_i, the head's output before W_O"),
        Choice("keys", "x_i = k_i, the head's key vectors",
               "Sec. 3 writes attention over 'token embeddings x_i' that also produce the logits; keys are the "
               "vectors the scores are computed from"),
        Choice("output", "x_i = v_i W_O^h, token i's contribution to the layer output through head h (before α_i)",
               "the attention output Σ α_i v_i W_O: the paper's 'output of the head' read after the output projection"),
        Choice("residual", "x_i = the residual stream (hidden state) entering the layer, shared by its heads",
               "'token embeddings' read literally: the layer's input vectors"),
    ), DISTANCE_CLAIMS),
    Axis("logits", (
        Choice("scaled", "the model's own logits, q·k/√d (and its mask)", "Sec. 2 softmax(qKᵀ/√d)"),
        Choice("unscaled", "q·kᵀ without the 1/√d factor (the mask kept)",
               "Alg. 5 and Corollary 3 write α = softmax(l/T) on raw scores l, with no 1/√d"),
    ), ALL_CLAIMS),
    Axis("sink", (
        Choice("kept", "every token, the first included", "the algorithms use all L tokens of the window"),
        Choice("dropped", "the first token removed as key and as query; α renormalised over the rest",
               "Corollary 2's discussion (STATEMENTS): 'what happens with an attention sink' (the first token takes "
               "most of the attention in pretrained models)"),
    ), ALL_CLAIMS),
    Axis("queries", (
        Choice("all", "every query token (each with the keys it sees)", "Algs. 1-5: 'per head, per query token'"),
        Choice("last", "only the last query token of the window (it sees every key)",
               "the next-token prediction setting of a language model: the last position's attention"),
        Choice("context", "the query tokens that see at least L/2 keys (causal models only)",
               "Alg. 1's N ≪ L regime: early causal rows see few keys, so their L is not the window's"),
    ), ALL_CLAIMS),
    Axis("distance", (
        Choice("sum", "d̃ = Σ_{i∉I_N} ‖α_i x_i − s‖ (the sum reading of Theorem 1)", "Theorem 1, Alg. 1 as printed"),
        Choice("norm", "d̃ = ‖Σ_{i∉I_N} α_i x_i − s‖ (the norm reading)", "Theorem 1's distance read as one "
               "norm of the difference of sums (docs/distance.md)"),
    ), ("fig2a", "fig2b")),
    Axis("ks", (
        Choice("means", "KS test on the per-head token means (one value per head)", "Alg. 3 as printed"),
        Choice("pooled", "KS test on every (head, token) value pooled", "Alg. 3's text: 'the distributions of d̃ and "
               "E[d̃]' without saying over what"),
    ), ("fig2c",)),
    Axis("sided", (
        Choice("two", "two-sided KS test", "Alg. 3: 'a two-sample Kolmogorov-Smirnov test'"),
        Choice("one", "one-sided KS test, H1: d̃ is stochastically larger than the estimate",
               "the claim is that the estimate reaches d̃ from below"),
    ), ("fig2c",)),
    Axis("level", (
        Choice("0.01", "reject at p < 0.01", "the paper's text"),
        Choice("0.05", "reject at p < 0.05", "the paper's pseudocode of Alg. 3"),
    ), ("fig2c",)),
    Axis("perturb", (
        Choice("logits", "l + εv, a random unit direction v in logit space", "Alg. 5 as printed"),
        Choice("query", "the query vector moved by εu (u a random unit vector), so l moves by ε·scale·K u",
               "Sec. 5 motivates the sensitivity by small changes of the token embeddings"),
    ), FIG4),
    Axis("eps", (
        Choice("absolute", "ε as given (1e-3, 0.1, 10)", "Alg. 5 as printed"),
        Choice("relative", "ε times the row's logit norm ‖l‖ (g divides by the same)",
               "ε's scale is not stated; relative to the logits it is the same perturbation for every row"),
    ), FIG4),
)}

CAUSAL_ONLY = {("queries", "context")}
NEEDS_OUTPUT_PROJECTION = {("x", "output")}


@dataclasses.dataclass(frozen=True)
class Reading:
    """The default setup with ``changes`` (axis -> non-default value)."""

    changes: tuple[tuple[str, str], ...] = ()

    @property
    def name(self) -> str:
        return "+".join(f"{axis}={value}" for axis, value in self.changes) or "baseline"

    def get(self, axis: str) -> str:
        return dict(self.changes).get(axis, AXES[axis].default)

    def heads_key(self) -> tuple:
        """The part of the reading that changes the heads (readings with the same key share them)."""
        return tuple((axis, value) for axis, value in self.changes if axis in HEADS_AXES)

    def admits(self, claim: str) -> bool:
        return all(claim in AXES[axis].claims for axis, _ in self.changes)

    def describe(self) -> dict:
        out = {}
        for axis, value in self.changes:
            choice = next(c for c in AXES[axis].choices if c.value == value)
            out[f"{axis}={value}"] = {"computes": choice.computes, "source": choice.source}
        return out


def valid_names() -> list[str]:
    """Every single change (``axis=value``), and ``baseline``; a reading joins them with ``+``."""
    return ["baseline"] + [f"{axis.name}={value}" for axis in AXES.values() for value in axis.values()[1:]]


def parse(name: str) -> Reading:
    """``'x=keys+sink=dropped'`` -> :class:`Reading`; an unknown part is refused with the valid names."""
    if not isinstance(name, str) or not name.strip():
        raise InvalidArgument(f"reading {name!r} must be a non-empty string; valid: {', '.join(valid_names())}")
    if name.strip() == "baseline":
        return Reading()
    changes = {}
    for part in name.split("+"):
        axis, _, value = part.strip().partition("=")
        if axis not in AXES or value not in AXES[axis].values():
            raise InvalidArgument(f"unknown reading {part!r} in {name!r}; valid readings: {', '.join(valid_names())} "
                             "(join several with '+')")
        if axis in changes:
            raise InvalidArgument(f"reading {name!r} sets {axis} twice")
        if value != AXES[axis].default:
            changes[axis] = value
    return Reading(tuple(sorted(changes.items())))


def check_applies(reading: Reading, *, causal: bool | None, has_output_projection: bool | None, model: str) -> None:
    """Refuse a reading the model cannot have (``None``: not known before loading, not refused here)."""
    for change in reading.changes:
        if change in CAUSAL_ONLY and causal is False:
            raise InvalidArgument(f"reading {reading.name!r} does not apply to {model}: it is an encoder without a causal "
                             "mask (every query sees every key); drop it or use a causal model")
        if change in NEEDS_OUTPUT_PROJECTION and has_output_projection is False:
            # here, not at the top: `import empirical.readings.grid` stays free of torch
            from empirical.heads.projections import OUTPUT_PROJECTIONS
            raise InvalidArgument(f"reading {reading.name!r} does not apply to {model}: its attention output projection "
                             f"W_O is not exposed (known for model types {sorted(OUTPUT_PROJECTIONS)})")


def default_readings(claim: str, *, causal: bool, has_output_projection: bool) -> list[Reading]:
    """The baseline and every single change of an axis the claim admits and the model has."""
    out = [Reading()]
    for axis in AXES.values():
        if claim not in axis.claims:
            continue
        for value in axis.values()[1:]:
            change = (axis.name, value)
            if (change in CAUSAL_ONLY and not causal) or (change in NEEDS_OUTPUT_PROJECTION and not has_output_projection):
                continue
            out.append(Reading((change,)))
    return out
