"""docs/architecture.md's module map matches the tree: every module it lists exists, every package is listed.

The map is the first code block of the file. Each line is cut into cells at runs of two or more spaces; a cell that
is a bare name (``ledger``), a package (``search/``), a name with a note (``loading (aliases, GGUF, cache)``), a
package with its modules (``vanishing/{lemma1,corollary1}``, ``separability/theorem2``) or a name with siblings
sharing its stem (``gradient (+ _sensitivity, secular)``: ``gradient_sensitivity``, ``secular``) lists modules;
any other cell is prose. A name is looked up in the top-level package (``theorems/``, ``strategies/``,
``empirical/``) whose section it stands in.
"""

import pathlib
import re

ROOT = pathlib.Path(__file__).resolve().parents[2]
PACKAGES = ("theorems", "strategies", "empirical")
NAME = r"[a-z_][a-z0-9_]*"
_TREE = re.compile(r"^[│├└─\s]*")
_CELL = re.compile(rf"^(?P<name>{NAME})(?P<slash>/)?(?:\{{(?P<members>[a-z0-9_,]+)\}}|(?P<member>{NAME}))?"
                   r"(?: \((?P<note>.*)\))?$")


def map_block(text: str) -> list[str]:
    return text.split("```", 2)[1].splitlines()[1:]


def listed(lines: list[str]) -> dict[str, dict[str, set[str]]]:
    """``{top-level package: {"modules": names, "packages": names}}`` as the map lists them."""
    found = {package: {"modules": set(), "packages": set()} for package in PACKAGES}
    root = None
    for line in lines:
        top = re.match(rf"^({'|'.join(PACKAGES)})/", line)
        if top:
            root, line = top.group(1), line[top.end():]
        if root is None:
            continue
        for cell in re.split(r"\s{2,}", _TREE.sub("", line).strip()):
            match = _CELL.match(cell)
            if not match:
                continue
            name, entry = match.group("name"), found[root]
            if match.group("slash"):
                entry["packages"].add(name)
            else:
                entry["modules"].add(name)
            entry["modules"].update(filter(None, (match.group("members") or "").split(",")))
            entry["modules"].update(filter(None, [match.group("member")]))
            note = match.group("note") or ""
            if note.startswith("+ "):
                for extra in re.split(r",\s*", note[2:]):
                    entry["modules"].add(name + extra if extra.startswith("_") else extra)
    return found


def tree(package: str) -> dict[str, set[str]]:
    base = ROOT / package
    modules = {path.stem for path in base.rglob("*.py") if path.stem != "__init__"}
    packages = {path.parent.name for path in base.rglob("__init__.py") if path.parent != base}
    return {"modules": modules, "packages": packages}


def test_every_module_the_map_lists_exists():
    found = listed(map_block((ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")))
    missing = {package: sorted(found[package]["modules"] - tree(package)["modules"] - tree(package)["packages"])
               for package in PACKAGES}
    assert not any(missing.values()), f"docs/architecture.md lists modules that are not in the tree: {missing}"


def test_every_package_is_in_the_map():
    found = listed(map_block((ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")))
    unlisted = {package: sorted(tree(package)["packages"] - found[package]["packages"]) for package in PACKAGES}
    assert not any(unlisted.values()), f"packages missing from docs/architecture.md's map: {unlisted}"
    assert all(found[package]["modules"] for package in PACKAGES)  # the parser read every section


def test_every_module_is_named_in_the_map_or_the_text():
    text = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    found = listed(map_block(text))
    named = set(re.findall(rf"`(?:[a-z_/]*/)?({NAME})(?:\.py)?`", text))
    unnamed = {package: sorted(tree(package)["modules"] - found[package]["modules"] - named) for package in PACKAGES}
    assert not any(unnamed.values()), f"modules docs/architecture.md never names: {unnamed}"


def test_the_parser_reads_each_kind_of_cell():
    lines = ["theorems/        the public API: prose", "├── engine/       statement  search/  precision (+ ball, _forms)",
             "│                 checker/  certificate   (verify_proof(): prose",
             "├── statements/   vanishing/{lemma1,corollary1}  separability/theorem2"]
    found = listed(lines)["theorems"]
    assert found["packages"] == {"engine", "search", "checker", "statements", "vanishing", "separability"}
    assert found["modules"] == {"statement", "precision", "ball", "precision_forms", "certificate", "lemma1",
                                "corollary1", "theorem2"}
