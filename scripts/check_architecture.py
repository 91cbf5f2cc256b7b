#!/usr/bin/env python3
"""Fails when the crate map of docs/src/architecture.md disagrees with Cargo.

Cargo's side is `cargo metadata --format-version 1 --no-deps --offline` (no build,
no network): for each package of the workspace, its dependencies on other packages
of the workspace (a `path` dependency whose name is a workspace member's). Counted:
normal dependencies only (`kind` null), on every target; dev and build dependencies
are not. An optional dependency counts when a feature of the depending crate turns
it on (`dep:x`, `x` or `x/feature` in a feature's list; `x?/feature` alone does
not): the table says which crates the code can use, on the server or in the browser.
An optional dependency no feature turns on does not count. The check does not tell
which dependencies are behind a feature; the table says that in words.

The manual's side is the table under "Direct dependencies (not counting tests)" in
the section "The crate map": one row per crate, `| `crate` | depends on |`, where
every name in backticks in the second column is a dependency and a cell without one
("nothing of Gapwise's") is none. Crates are named without the `gapwise-` prefix
(`gapwise-store` is `store`). The ASCII diagram (the ```text block of that section)
must name every crate.

Prints every difference (a missing or extra dependency, an unknown crate, a crate
missing from the table or the diagram, a crate named twice) and exits 1, or prints
one summary line and exits 0. Python 3 standard library only.
Usage: python3 scripts/check_architecture.py
"""
import json
import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "src" / "architecture.md"
SECTION = "## The crate map"
TABLE_TITLE = "Direct dependencies (not counting tests)"
PREFIX = "gapwise-"


def short(name):
    """`gapwise-store` -> `store`: the name the manual uses."""
    return name[len(PREFIX):] if name.startswith(PREFIX) else name


def enabled_optional(features):
    """The names of the optional dependencies that some feature turns on."""
    names = set()
    for values in features.values():
        for value in values:
            if value.startswith("dep:"):
                names.add(value[4:])
            elif "/" in value:
                dep = value.split("/", 1)[0]
                if not dep.endswith("?"):
                    names.add(dep)
            else:
                names.add(value)
    return names


def cargo_graph(metadata):
    """{crate: set of crates} from `cargo metadata`'s JSON, in the manual's names."""
    members = set(metadata["workspace_members"])
    packages = [p for p in metadata["packages"] if p["id"] in members]
    workspace = {p["name"] for p in packages}
    graph = {}
    for package in packages:
        turned_on = enabled_optional(package.get("features", {}))
        deps = set()
        for dep in package["dependencies"]:
            if dep.get("kind") is not None or dep["name"] not in workspace or not dep.get("path"):
                continue
            if dep.get("optional") and (dep.get("rename") or dep["name"]) not in turned_on:
                continue
            if dep["name"] != package["name"]:
                deps.add(short(dep["name"]))
        graph[short(package["name"])] = deps
    return graph


def read_cargo():
    run = subprocess.run(["cargo", "metadata", "--format-version", "1", "--no-deps", "--offline"],
                         cwd=ROOT, capture_output=True, text=True)
    if run.returncode != 0:
        sys.exit(f"cargo metadata failed:\n{run.stderr}")
    return cargo_graph(json.loads(run.stdout))


def section(text):
    """The lines of "The crate map", up to the next heading of its level or above."""
    lines = text.splitlines()
    try:
        start = next(i for i, line in enumerate(lines) if line.strip() == SECTION)
    except StopIteration:
        return []
    end = next((i for i in range(start + 1, len(lines)) if re.match(r"#{1,2}\s", lines[i])), len(lines))
    return lines[start + 1:end]


def diagram(lines):
    """The text of the section's first fenced block."""
    inside, out = False, []
    for line in lines:
        if line.strip().startswith("```"):
            if inside:
                return "\n".join(out)
            inside = True
        elif inside:
            out.append(line)
    return "\n".join(out)


def cells(line):
    return [c.strip() for c in line.strip().strip("|").split("|")]


def table(lines):
    """({crate: set of crates}, [problems]) from the table after TABLE_TITLE."""
    graph, problems = {}, []
    try:
        start = next(i for i, line in enumerate(lines) if line.strip().startswith(TABLE_TITLE))
    except StopIteration:
        return graph, [f'no table "{TABLE_TITLE}"']
    rows = []
    for line in lines[start + 1:]:
        if line.strip().startswith("|"):
            rows.append(line)
        elif rows:
            break
    for line in rows[2:]:  # after the header and its |---| line
        row = cells(line)
        names = re.findall(r"`([^`]+)`", row[0])
        if len(row) < 2 or len(names) != 1:
            problems.append(f"table: a row that names no one crate: {line.strip()}")
            continue
        crate = names[0]
        if crate in graph:
            problems.append(f"table: {crate} has two rows")
        graph[crate] = set(re.findall(r"`([^`]+)`", row[1]))
    if not rows:
        problems.append(f'no table "{TABLE_TITLE}"')
    return graph, problems


def compare(cargo, doc, drawing):
    """Every difference between Cargo's graph and the manual's, as lines."""
    problems = []
    for crate in sorted(set(doc) - set(cargo)):
        problems.append(f"table: {crate} is no crate of the workspace")
    for crate in sorted(set(cargo) - set(doc)):
        problems.append(f"table: {crate} has no row")
    for crate in sorted(set(cargo) & set(doc)):
        for dep in sorted(doc[crate] - set(cargo)):
            problems.append(f"table: {crate} depends on {dep}, which is no crate of the workspace")
        for dep in sorted(cargo[crate] - doc[crate]):
            problems.append(f"table: {crate} -> {dep} is missing (Cargo has it)")
        for dep in sorted((doc[crate] & set(cargo)) - cargo[crate]):
            problems.append(f"table: {crate} -> {dep} is extra (Cargo has no such dependency)")
    for crate in sorted(cargo):
        if not re.search(rf"(?<![\w-]){re.escape(crate)}(?![\w-])", drawing):
            problems.append(f"diagram: {crate} is not named")
    return problems


def check(cargo, text):
    lines = section(text)
    if not lines:
        return [f'no section "{SECTION}"']
    doc, problems = table(lines)
    return problems + compare(cargo, doc, diagram(lines))


def main():
    cargo = read_cargo()
    problems = check(cargo, DOC.read_text(encoding="utf-8"))
    name = DOC.relative_to(ROOT)
    for problem in problems:
        print(f"{name}: {problem}")
    if problems:
        print(f"{name}: {len(problems)} differences from Cargo")
        sys.exit(1)
    edges = sum(len(d) for d in cargo.values())
    print(f"{DOC.name}: {len(cargo)} crates, {edges} dependencies, agree with Cargo")


if __name__ == "__main__":
    main()
