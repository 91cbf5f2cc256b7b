#!/usr/bin/env python3
"""Fails when files of one crate import each other in a loop.

For every crate of the workspace (a folder with Cargo.toml and src/), each file of
src/ is a module; a file imports another when it names an item that the other defines,
through `use` or a path written inline (`crate::a::b::Item`, `super::Item`). A path may
also start at a child module of the file (`tables::rows(…)`). Names
are followed through re-exports (`pub use`, globs included) to the file that defines
them; a re-export itself is no import, nor is the `mod` line that declares a child.
Test modules (`#[cfg(test)] mod … { }`) are left out. The loops (strongly connected
components of two files or more) are printed with the names that tie them.

Usage: scripts/check_cycles.py [CRATE_DIR ...]   (the workspace's members by default)
"""
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ITEM = re.compile(r"^(?:pub(?:\([^)]*\))?\s+)?(?:async\s+|const\s+|unsafe\s+)*"
                  r"(fn|struct|enum|trait|type|const|static|mod|union)\s+([A-Za-z_][A-Za-z0-9_]*)")
MACRO = re.compile(r"^\s*macro_rules!\s*([A-Za-z_][A-Za-z0-9_]*)")
USE = re.compile(r"^\s*(pub(?:\([^)]*\))?\s+)?use\s+([^;]+);", re.M | re.S)
INLINE = re.compile(r"\b((?:crate|super)(?:::[A-Za-z_][A-Za-z0-9_]*)+)")
# a path that starts at a child module of the file (`tables::success_rates(...)`)
RELATIVE = re.compile(r"(?<![:\w])([a-z_][a-z0-9_]*(?:::[A-Za-z_][A-Za-z0-9_]*)+)")


def members():
    text = (ROOT / "Cargo.toml").read_text()
    found = re.search(r"members\s*=\s*\[([^\]]*)\]", text)
    return [ROOT / m for m in re.findall(r'"([^"]+)"', found.group(1))] if found else []


def without_tests(text):
    """The file up to its test module (by convention the last thing in a file)."""
    lines = text.splitlines()
    for i, line in enumerate(lines):
        if line.strip() == "#[cfg(test)]" and i + 1 < len(lines) and re.match(r"\s*(pub\s+)?mod\s+\w+\s*\{", lines[i + 1]):
            return "\n".join(lines[:i])
    return text


def strip_comments(text):
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    text = re.sub(r'"(?:\\.|[^"\\])*"', '""', text)
    return re.sub(r"//[^\n]*", "", text)


def use_paths(tree):
    """`a::{b, c::{d as e}}` -> [['a','b'], ['a','c','d']] (aliases dropped)."""
    tree = re.sub(r"\s+", "", tree)

    def expand(prefix, t):
        depth, start, parts = 0, 0, []
        if "{" not in t:
            t = re.sub(r"\bas\b.*$", "", t) if "as" in t else t
            name = t.split("as")[0] if re.search(r"[a-z0-9_]as[A-Z_a-z]", t) is None else t
            return [prefix + [s for s in name.split("::") if s]]
        head, rest = t.split("{", 1)
        rest = rest[:rest.rfind("}")]
        base = prefix + [s for s in head.split("::") if s]
        for i, ch in enumerate(rest):
            depth += ch == "{"
            depth -= ch == "}"
            if ch == "," and depth == 0:
                parts.append(rest[start:i])
                start = i + 1
        parts.append(rest[start:])
        out = []
        for p in parts:
            p = p.strip()
            if not p:
                continue
            p = re.split(r"(?<=[A-Za-z0-9_])as(?=[A-Z_a-z])", p)[0] if "::" not in p and "{" not in p else p
            out += expand(base, p)
        return out

    return expand([], tree)


class Crate:
    def __init__(self, path):
        self.path = path
        src = path / "src"
        roots = [src / "lib.rs", src / "main.rs"]
        self.files = {}  # module path (tuple) -> file
        for f in sorted(src.rglob("*.rs")):
            rel = f.relative_to(src).with_suffix("").parts
            if f in roots:
                module = ()
            elif rel[-1] == "mod":
                module = rel[:-1]
            else:
                module = rel
            if f == src / "main.rs" and (src / "lib.rs").exists():
                module = ("<bin>",)
            self.files[module] = f
        self.text = {m: strip_comments(without_tests(f.read_text(encoding="utf-8"))) for m, f in self.files.items()}
        self.items = {m: self.defined(t) for m, t in self.text.items()}
        self.reexports = {m: self.exports(m, t) for m, t in self.text.items()}

    @staticmethod
    def defined(text):
        names = set()
        for line in text.splitlines():
            if line[:1].isspace():
                continue
            m = ITEM.match(line) or MACRO.match(line)
            if m:
                names.add(m.groups()[-1])
        return names

    def exports(self, module, text):
        out = []
        for vis, tree in USE.findall(text):
            if vis:
                out += [(p, True) for p in use_paths(tree)]
        return out

    def absolute(self, module, path):
        """The path from the crate root; None when it leaves the crate."""
        if not path:
            return None
        head = path[0]
        if head == "crate":
            return list(path[1:])
        if head == "super":
            parent = list(module)
            rest = list(path)
            while rest and rest[0] == "super":
                if not parent:
                    return None
                parent.pop()
                rest.pop(0)
            return parent + rest
        if head == "self":
            return list(module) + list(path[1:])
        if tuple(list(module) + [head]) in self.files:
            return list(module) + list(path)
        if module == ("<bin>",):
            return None
        return None

    def resolve(self, path, seen=None):
        """The file that defines what `path` (from the root) names."""
        seen = seen or set()
        module = ()
        rest = list(path)
        while rest and tuple(list(module) + [rest[0]]) in self.files:
            module = tuple(list(module) + [rest.pop(0)])
        if not rest or rest == ["*"]:
            return self.files.get(module)
        name = rest[0]
        if name in self.items.get(module, set()):
            return self.files[module]
        key = (module, name)
        if key in seen:
            return self.files.get(module)
        seen.add(key)
        for target, _ in self.reexports.get(module, []):
            if target and target[-1] in (name, "*"):
                full = self.absolute(module, target if target[-1] == name else target[:-1] + [name])
                if full is not None:
                    found = self.resolve(full, seen)
                    if found is not None and (target[-1] == name or name in self.items.get(self.module_of(found), set())
                                              or self.reexported(self.module_of(found), name)):
                        return found
        return self.files.get(module)

    def module_of(self, file):
        return next(m for m, f in self.files.items() if f == file)

    def reexported(self, module, name):
        return any(t and t[-1] == name for t, _ in self.reexports.get(module, []))

    def edges(self):
        out = {}
        for module, text in self.text.items():
            source = self.files[module]
            refs = []
            for vis, tree in USE.findall(text):
                if not vis:
                    refs += use_paths(tree)
            body = USE.sub("", text)
            refs += [p.split("::") for p in INLINE.findall(body)]
            refs += [p.split("::") for p in RELATIVE.findall(body)
                     if tuple(list(module) + [p.split("::")[0]]) in self.files]
            for ref in refs:
                full = self.absolute(module, ref)
                if full is None:
                    continue
                target = self.resolve(full)
                if target is not None and target != source:
                    out.setdefault(source, {}).setdefault(target, set()).add(ref[-1])
        return out


def cycles(edges):
    index, low, stack, on, found, counter = {}, {}, [], set(), [], [0]
    nodes = set(edges) | {t for ts in edges.values() for t in ts}

    def strong(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in edges.get(v, {}):
            if w not in index:
                strong(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                found.append(sorted(comp))

    sys.setrecursionlimit(10000)
    for v in sorted(nodes):
        if v not in index:
            strong(v)
    return found


def main():
    crates = [Path(a).resolve() for a in sys.argv[1:]] or members()
    failed = False
    for path in crates:
        crate = Crate(path)
        edges = crate.edges()
        loops = cycles(edges)
        arrows = sum(len(t) for t in edges.values())
        print(f"{path.relative_to(ROOT)}: {len(crate.files)} files, {arrows} imports, {len(loops)} loops")
        for loop in loops:
            failed = True
            print(f"  loop of {len(loop)} files:")
            for a in loop:
                for b, names in sorted(edges.get(a, {}).items()):
                    if b in loop:
                        print(f"    {a.relative_to(ROOT)} -> {b.relative_to(ROOT)}: {', '.join(sorted(names))}")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
