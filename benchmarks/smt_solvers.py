"""One SMT-LIB question to one solver, in a process of its own (a solver past its time limit is killed).

``ask("cvc5", text, 60)`` returns ``(answer, model, seconds)``: ``answer`` the solver's ``sat``/``unsat``/``unknown
(reason)``, ``"timeout"`` when the process had to be killed, or ``"error: …"``; ``model`` the real values of the
declared constants (exact fractions as strings) when cvc5 says sat. Run as a script it is that process: the question
on standard input, ``python smt_solvers.py NAME SECONDS``, one JSON line out.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from fractions import Fraction

PACKAGES = {"cvc5": ("cvc5", "pip install cvc5"), "z3": ("z3", "pip install z3-solver")}
"""Each solver: the Python module it needs and the command that installs it."""
GRACE_SECONDS = 10
"""A solver still running this long after its own time limit is killed (then reported as ``timeout``)."""


def missing(solvers) -> list[str]:
    """A sentence for each of ``solvers`` whose Python package cannot be imported, naming it and its install command."""
    import importlib

    problems = []
    for name in solvers:
        module, command = PACKAGES[name]
        try:
            importlib.import_module(module)
        except ImportError as error:
            problems.append(f"{name}: the Python package {module!r} is not installed or does not load ({error}); "
                            f"install it with `{command}`")
    return problems


def version(name: str) -> str:
    if name == "cvc5":
        import cvc5
        return f"cvc5 {cvc5.__version__}"
    import z3
    return f"z3 {z3.get_version_string()}"


def ask(name: str, text: str, seconds: float) -> tuple[str, dict | None, float]:
    """Solver ``name``'s answer to the SMT-LIB ``text`` within ``seconds`` (its own limit, then a kill)."""
    if name not in PACKAGES:
        raise ValueError(f"unknown solver {name!r}; known: {', '.join(PACKAGES)}")
    start = time.perf_counter()
    try:
        done = subprocess.run([sys.executable, __file__, name, repr(float(seconds))], input=text, text=True,
                              capture_output=True, timeout=seconds + GRACE_SECONDS)
    except subprocess.TimeoutExpired:
        return "timeout", None, time.perf_counter() - start
    if done.returncode != 0:
        return f"error: exit {done.returncode}: {done.stderr.strip()[-300:]}", None, time.perf_counter() - start
    result = json.loads(done.stdout.strip().splitlines()[-1])
    return result["answer"], result["model"], result["seconds"]


def _cvc5(text: str, seconds: float):
    import cvc5

    solver = cvc5.Solver()
    solver.setOption("tlimit-per", str(int(seconds * 1000)))
    parser = cvc5.InputParser(solver)
    parser.setStringInput(cvc5.InputLanguage.SMT_LIB_2_6, text, "question")
    symbols = parser.getSymbolManager()
    answer = ""
    while not (command := parser.nextCommand()).isNull():
        answer += command.invoke(solver, symbols)
    answer = answer.strip()
    if answer != "sat":
        return answer, None
    values = {str(t): solver.getValue(t) for t in symbols.getDeclaredTerms() if t.getSort().isReal()}
    return answer, {name: str(Fraction(v.getRealValue())) for name, v in values.items() if v.isRealValue()}


def _z3(text: str, seconds: float):
    import z3

    solver = z3.Solver()
    solver.set("timeout", int(seconds * 1000))
    solver.add(z3.parse_smt2_string(text))
    answer = solver.check()
    return (f"unknown ({solver.reason_unknown()})" if answer == z3.unknown else str(answer)), None


def _main(name: str, seconds: str) -> None:
    text = sys.stdin.read()
    start = time.perf_counter()
    try:
        answer, model = {"cvc5": _cvc5, "z3": _z3}[name](text, float(seconds))
    except Exception as error:  # the solver's own error is an answer to report, not a crash of the benchmark
        answer, model = f"error: {type(error).__name__}: {error}", None
    print(json.dumps({"answer": answer, "model": model, "seconds": time.perf_counter() - start}))


if __name__ == "__main__":
    _main(*sys.argv[1:])
