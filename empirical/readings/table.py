"""``readings.md``: the adjudication table of a ``readings.json`` (a summary per claim, then every reading).

>>> print(markdown(json.loads(Path("out/readings-minilm/readings.json").read_text())))   # doctest: +SKIP
"""

from __future__ import annotations


def _work(results: dict) -> str:
    work = results["work"]
    tokens = "every query token" if work["tokens"] is None else f"{work['tokens']} query tokens per head (evenly spaced)"
    model = results["model"]
    return (f"Model `{model.get('name')}` ({results['facts']['model_type']}, "
            f"{'causal' if results['facts']['causal'] else 'bidirectional'}, {model.get('layers')} layers x "
            f"{model.get('heads')} heads); text `{results['text']}`, {results['windows']} window(s) per length; "
            f"lengths {', '.join(str(n) for n in results['lengths'])}; {tokens}; "
            f"total {results['timings']['total']:.0f} s.")


def summary(results: dict) -> str:
    lines = ["| claim (paper) | criterion | readings tried | reproduced under |", "|---|---|---|---|"]
    for name, claim in results["claims"].items():
        under = ", ".join(f"`{r}`" for r in claim["reproduced_under"]) or f"none of the {claim['tried']} readings"
        lines.append(f"| {claim['figure']} `{name}`: {claim['paper']} | {claim['criterion']} | {claim['tried']} | "
                     f"{under} |")
    return "\n".join(lines)


def details(results: dict) -> str:
    lines = ["| claim | reading | measured | paper | verdict |", "|---|---|---|---|---|"]
    for name, claim in results["claims"].items():
        for reading, result in claim["readings"].items():
            verdict = "**reproduced**" if result["reproduced"] else "not reproduced"
            lines.append(f"| `{name}` | `{reading}` | {result['measured']['text']} | {claim['paper']} | {verdict} |")
    return "\n".join(lines)


def markdown(results: dict) -> str:
    """The whole page: the work, the summary table, the table of every claim and reading."""
    return "\n\n".join(["# The paper's empirical claims under each reading of its setup", _work(results),
                        summary(results), details(results)]) + "\n"
