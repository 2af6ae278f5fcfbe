"""``python -m empirical readings``: every claim under every reading it admits, one forward pass per window.

For each length the model runs once (:class:`empirical.setup.Setup`); for each combination of the
heads axes (``x``, ``logits``, ``sink``, ``queries``) the heads are derived once and every claim and reading
that shares them is measured, the KS variants of Alg. 3 sharing one distance grid, ``distance=norm``
sharing ``sum``'s pass, the two Fig. 4 claims sharing one ``g``. Writes ``DIR/readings.json`` and
``DIR/readings.md`` (per claim and reading: the measured figure, the paper's, reproduced or not).

>>> run(model="minilm", text=WAR_AND_PEACE, out="out/readings-minilm")     # doctest: +SKIP
"""

from __future__ import annotations

import dataclasses
import json
import sys
import time
from pathlib import Path
from types import SimpleNamespace

import numpy as np

from empirical import algorithms
from empirical.grids import EPSILONS, PAPER_LENGTHS, PAPER_NS, SEPARABILITY_NS, TEMPERATURES
from empirical.heads.loading import gguf_architecture, is_causal, gguf_file
from empirical.heads.projections import OUTPUT_PROJECTIONS, output_projections
from empirical.heads.rows import map_rows, valid_rows
from empirical.readings import claims as claims_module
from empirical.readings.claims import CLAIMS, verdict
from empirical.readings.derive import derive
from empirical.readings.distances import distances
from empirical.readings.grid import (AXES, NEEDS_OUTPUT_PROJECTION, Reading, check_applies, default_readings, parse,
                                     valid_names)
from empirical.readings.sensitivity import sensitivity_rows
from empirical.readings.table import markdown
from empirical.runner import jsonable
from empirical.setup import Setup
from empirical.spec import RunSpec
from theorems.errors import InvalidArgument
from theorems.maths.gradient_sensitivity import fig4_claims, Sensitivity

MULTI_LENGTH = ("fig2a", "fig2c")
"""Claims measured on every length of the grid; the others at the longest."""


@dataclasses.dataclass(frozen=True)
class Work:
    """How much is computed: the grids of the algorithms and the query rows per head (``None``: all)."""

    lengths: tuple = PAPER_LENGTHS
    ns: tuple = PAPER_NS
    separability_ns: tuple = SEPARABILITY_NS
    temperatures: tuple = TEMPERATURES
    epsilons: tuple = EPSILONS
    tokens: int | None = None
    n: int = 5


# ----------------------------------------------------------------------------------------------
# what is asked, checked before the model loads


def model_facts(model: str, *, offline: bool | None = None) -> dict:
    """``{model_type, causal, output_projection}`` from the config alone (values None when it cannot be read)."""
    name = str(model)
    known = {"minilm": ("bert", False), "smollm2": ("llama", True)}
    model_type = causal = None
    if name.lower() in known:
        model_type, causal = known[name.lower()]
    else:
        config = None
        path = Path(name).expanduser()
        try:
            gguf = gguf_file(path) if path.exists() else None
        except Exception:  # noqa: BLE001 - an unreadable path is reported when the model loads
            gguf = None
        if gguf is not None:
            config = SimpleNamespace(model_type=gguf_architecture(gguf), architectures=None, is_decoder=False)
        elif (path / "config.json").is_file():
            raw = json.loads((path / "config.json").read_text())
            config = SimpleNamespace(model_type=raw.get("model_type"), architectures=raw.get("architectures"),
                                     is_decoder=raw.get("is_decoder", False))
        else:
            try:
                # here, not at the top: `import empirical.readings.runner` stays free of transformers
                from transformers import AutoConfig
                config = AutoConfig.from_pretrained(name, local_files_only=True)
            except Exception:  # noqa: BLE001 - not in the cache: decided after loading
                config = None
        if config is not None and config.model_type:
            model_type, causal = config.model_type, is_causal(config)
    return {"model_type": model_type, "causal": causal,
            "output_projection": None if model_type is None else model_type in OUTPUT_PROJECTIONS}


def check_request(*, model: str, claims, readings, offline: bool | None = None) -> dict:
    """Claim and reading names, and whether each reading applies to the model: refused before loading.

    Returns ``{claims, readings (None: each claim's default grid), facts}``.

    >>> check_request(model="minilm", claims=["fig9"], readings=None)
    Traceback (most recent call last):
        ...
    theorems.errors.InvalidArgument: unknown claim 'fig9'; valid claims: fig2a, fig2b, fig2c, fig3, fig4-slope, fig4-coincide
    """
    chosen = list(CLAIMS) if not claims else list(dict.fromkeys(claims))
    for claim in chosen:
        if claim not in CLAIMS:
            raise InvalidArgument(f"unknown claim {claim!r}; valid claims: {', '.join(CLAIMS)}")
    parsed = None if not readings else [parse(name) for name in dict.fromkeys(readings)]
    for reading in parsed or []:
        if not any(reading.admits(claim) for claim in chosen):
            raise InvalidArgument(f"reading {reading.name!r} changes nothing in the claims {', '.join(chosen)}; "
                             f"each axis applies to: " + "; ".join(
                                 f"{axis}: {', '.join(grid_axis.claims)}" for axis, grid_axis in AXES.items()))
    facts = model_facts(model, offline=offline)
    for reading in parsed or []:
        check_applies(reading, causal=facts["causal"], has_output_projection=facts["output_projection"],
                      model=f"model {model!r} ({facts['model_type']})")
    return {"claims": chosen, "readings": parsed, "facts": facts}


def plan(request: dict, *, causal: bool, has_output_projection: bool) -> dict[str, list[Reading]]:
    """Per claim, the readings to run: the given ones it admits, else its default grid."""
    out = {}
    for claim in request["claims"]:
        if request["readings"] is None:
            out[claim] = default_readings(claim, causal=causal, has_output_projection=has_output_projection)
        else:
            out[claim] = [r for r in request["readings"] if r.admits(claim)]
    return {claim: readings for claim, readings in out.items() if readings}


# ----------------------------------------------------------------------------------------------
# measuring


def _distance_pass(setup, heads, length: int, work: Work, memo: dict) -> dict:
    """Figs. 2a-c's quantities at every ``N`` they use, from one pass (:mod:`empirical.readings.distances`)."""
    if "distances" not in memo:
        keys = heads.k.shape[-2]
        critical = tuple(n for n in algorithms.critical_grid(length) if n < keys)
        plain = tuple(sorted({work.n, *work.ns}))
        grid = tuple(sorted(set(critical) | {n for n in plain if n < keys}))
        values = distances(heads, grid=grid, norm_ns=grid, tokens=work.tokens, budget=8 * setup.budget)
        memo["distances"] = {"grid": grid, "critical": critical, **values}
    return memo["distances"]


def _medians(shared: dict, n: int) -> dict:
    """Head medians of the token means of ``d̃`` (both readings) and the estimate at ``N = n``."""
    k = shared["grid"].index(n)
    return {name: claims_module.head_median(claims_module.token_means(shared[name][..., k]))
            for name in ("distance_sum", "distance_norm", "estimate")}


def _separability(setup, length: int, work: Work, memo: dict) -> list[dict]:
    if "separability" not in memo:
        result = algorithms.separability(setup, length=length, ns=work.separability_ns, tokens=work.tokens)
        memo["separability"] = [{"n": p["n"], "median": p["stats"]["fraction"]["median"]} for p in result["points"]]
    return memo["separability"]


def _sensitivity(setup, heads, reading: Reading, work: Work, memo: dict) -> dict:
    key = ("g", reading.get("perturb"), reading.get("eps"))
    if key not in memo:
        index = valid_rows(heads, min_keys=1, tokens=work.tokens)
        function = sensitivity_rows(heads, work.temperatures, work.epsilons, perturb=key[1], eps=key[2],
                                    seed=setup.seed)
        mapped = map_rows(heads, function, index=index, width=len(work.temperatures), budget=setup.budget)
        g = claims_module.token_means(mapped.values["g"])  # [heads, n_T, n_ε]
        result = Sensitivity(np.asarray(work.temperatures, dtype=float), np.asarray(work.epsilons, dtype=float), g,
                             np.zeros(g.shape[:2]))
        memo[key] = {"claims": fig4_claims(result), "g_max_over_heads": result.curves()[0].tolist()}
    return memo[key]


def measure(claim: str, reading: Reading, *, setup, heads, length: int, work: Work, memo: dict) -> list[dict]:
    """The parts of ``claim``'s figure at ``length`` under ``reading`` (heads already derived)."""
    if claim in ("fig2a", "fig2b", "fig2c"):
        shared = _distance_pass(setup, heads, length, work, memo)
    if claim == "fig2a":
        return [{"length": length, "n": work.n, "median": _medians(shared, work.n)}]
    if claim == "fig2b":
        return [{"n": n, "median": _medians(shared, n)} for n in work.ns if n in shared["grid"]]
    if claim == "fig2c":
        columns = [shared["grid"].index(n) for n in shared["critical"]]
        p_values = claims_module.ks_p_values(shared["distance_sum"][..., columns], shared["estimate"][..., columns],
                                             reading)
        return [claims_module.critical_point(length, shared["critical"], p_values, reading)]
    if claim == "fig3":
        return _separability(setup, length, work, memo)
    return [_sensitivity(setup, heads, reading, work, memo)]


def measure_all(setup, chosen: dict[str, list[Reading]], work: Work, *, projections=None,
                progress: bool = True) -> tuple[dict, dict]:
    """``({claim: {reading name: parts}}, timings)``: one forward pass per length, heads derived once per key."""
    lengths = setup.lengths(work.lengths)
    longest = max(lengths)
    wanted = {claim: (lengths if claim in MULTI_LENGTH else [longest]) for claim in chosen}
    parts = {claim: {reading.name: [] for reading in readings} for claim, readings in chosen.items()}
    timings = {}
    for length in sorted({length for needed in wanted.values() for length in needed}):
        began = time.perf_counter()
        base = setup.heads(length)
        timings[f"forward L={length}"] = time.perf_counter() - began
        keys = list(dict.fromkeys(reading.heads_key() for claim, readings in chosen.items() if length in wanted[claim]
                                  for reading in readings))
        for key in keys:
            began = time.perf_counter()
            derived = derive(base, Reading(key), projections=projections)
            local = setup.with_sources(heads=lambda wanted, derived=derived, length=length:
                                       derived if wanted == length else setup.heads(wanted))
            memo: dict = {}
            for claim, readings in chosen.items():
                if length not in wanted[claim]:
                    continue
                for reading in readings:
                    if reading.heads_key() == key:
                        parts[claim][reading.name] += measure(claim, reading, setup=local, heads=derived,
                                                              length=length, work=work, memo=memo)
            del derived, local, memo
            name = Reading(key).name
            timings[f"L={length} {name}"] = time.perf_counter() - began
            if progress:
                print(f"L={length} {name}: {timings[f'L={length} {name}']:.1f} s", file=sys.stderr, flush=True)
    return parts, timings


# ----------------------------------------------------------------------------------------------
# the whole run


def adjudicate(chosen: dict[str, list[Reading]], parts: dict) -> dict:
    """Per claim: the paper's claim, the criterion, every reading's figure and verdict, and where it reproduces."""
    out = {}
    for claim, readings in chosen.items():
        entry = CLAIMS[claim]
        results = {}
        for reading in readings:
            results[reading.name] = {"reading": reading.describe(), **verdict(claim, parts[claim][reading.name], reading)}
        out[claim] = {"figure": entry.figure, "paper": entry.paper, "criterion": entry.criterion,
                      "readings": results, "tried": len(results),
                      "reproduced_under": [name for name, r in results.items() if r["reproduced"]]}
    return out


def run(*, model: str, text, out, claims=None, readings=None, windows: int = 1, work: Work = Work(),
        offline: bool | None = None, tokenizer: str | None = None, device: str = "cpu", progress: bool = True,
        loaded=None) -> dict:
    """Check the request, load the model once, measure every claim under its readings, write the outputs.

    ``loaded`` (a :class:`~empirical.heads.loading.LoadedModel`) skips loading (tests); ``text=None``
    feeds seeded random token ids.
    """
    # here, not at the top: `import empirical.readings.runner` stays free of matplotlib
    from empirical.reproduce import versions

    request = check_request(model=model, claims=claims, readings=readings, offline=offline)
    spec = RunSpec.from_options(model=model, offline=offline, tokenizer=tokenizer, text=text, out=out, windows=windows,
                                device=device, progress=False, lengths=work.lengths, ns=work.ns,
                                separability_ns=work.separability_ns, temperatures=work.temperatures,
                                epsilons=work.epsilons)
    if work.tokens is not None and (isinstance(work.tokens, bool) or not isinstance(work.tokens, int)
                                    or work.tokens < 1):
        raise InvalidArgument(f"--tokens={work.tokens!r} must be a positive integer (or 0 on the command line: every token)")
    began = time.perf_counter()
    loaded = loaded if loaded is not None else spec.model.load()
    facts = {"model_type": loaded.model.config.model_type, "causal": loaded.causal}
    facts["output_projection"] = facts["model_type"] in OUTPUT_PROJECTIONS
    for reading in request["readings"] or []:  # the facts known only now (a hub id not in the cache)
        check_applies(reading, causal=loaded.causal, has_output_projection=facts["output_projection"],
                      model=f"model {model!r} ({facts['model_type']})")
    chosen = plan(request, causal=loaded.causal, has_output_projection=facts["output_projection"])
    needs_w_o = any(change in NEEDS_OUTPUT_PROJECTION for readings in chosen.values() for r in readings
                    for change in r.changes)
    projections = output_projections(loaded) if needs_w_o else None
    setup = Setup.from_spec(spec, loaded=loaded)
    parts, timings = measure_all(setup, chosen, work, projections=projections, progress=progress)
    results = {"model": loaded.describe(), "facts": facts, "text": None if text is None else str(text),
               "windows": windows, "lengths": setup.lengths(work.lengths), "work": dataclasses.asdict(work), "claims": adjudicate(chosen, parts),
               "parts": parts, "timings": {**timings, "total": time.perf_counter() - began}, "versions": versions(),
               "valid_readings": valid_names()}
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    (out / "readings.json").write_text(json.dumps(jsonable(results), indent=1, ensure_ascii=False))
    (out / "readings.md").write_text(markdown(results))
    return results
