#!/usr/bin/env python3
"""Checks the relative links and images of README.md and the manual (docs/src/**/*.md).

For every Markdown link or image whose target is a relative path (inline
`[text](target)`, `![alt](target)`, or a reference definition `[name]: target`):
the file must exist, relative to the file that links to it; and a `#fragment`
must name a heading of the target (GitHub and mdBook slugs: lowercase, spaces to
'-', punctuation other than '-' and '_' removed, a repeated heading gets -1, -2,
...) or an explicit HTML `id`/`name`. Links inside code spans and fenced code
blocks are not links. External links (http, https, mailto, any URL scheme) are
not fetched, only counted as skipped.

Prints one line per broken link (file:line: target: why) and a summary line;
exits 1 when a link is broken, 0 otherwise. Python 3 standard library only.
Usage: python3 scripts/check_doc_links.py
"""
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

FENCE = re.compile(r"^\s{0,3}(```+|~~~+)")
CODE_SPAN = re.compile(r"(`+)(.+?)\1", re.S)
# [text](target) and ![alt](target); the text may hold one level of brackets
INLINE = re.compile(r"!?\[(?:[^\[\]]|\[[^\[\]]*\])*\]\(\s*(<[^>]*>|[^()\s]*(?:\([^()\s]*\)[^()\s]*)*)(?:\s+(?:\"[^\"]*\"|'[^']*'|\([^)]*\)))?\s*\)")
REFERENCE = re.compile(r"^\s{0,3}\[[^\]]+\]:\s*(<[^>]*>|\S+)")
SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*:")
ATX = re.compile(r"^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$")
SETEXT = re.compile(r"^\s{0,3}(=+|-+)\s*$")
HTML_ID = re.compile(r"""\b(?:id|name)\s*=\s*["']([^"']+)["']""")


def markdown_files():
    files = [ROOT / "README.md"]
    files += sorted((ROOT / "docs" / "src").rglob("*.md"))
    return [f for f in files if f.is_file()]


def prose_lines(text):
    """(line number, line) outside fenced code blocks."""
    fence = None
    for number, line in enumerate(text.splitlines(), 1):
        m = FENCE.match(line)
        if fence:
            if m and m.group(1)[0] == fence[0] and len(m.group(1)) >= len(fence):
                fence = None
            continue
        if m:
            fence = m.group(1)
            continue
        yield number, line


def heading_text(raw):
    """A heading's text as rendered: links to their text, no code marks or HTML tags."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", raw)
    text = re.sub(r"<[^>]+>", "", text)
    return text.replace("`", "")


def slug(text):
    out = []
    for ch in text.strip().lower():
        if ch.isalnum() or ch in "-_":
            out.append(ch)
        elif ch.isspace():
            out.append("-")
    return "".join(out)


_anchors = {}


def anchors(path):
    """Every fragment the file answers to: heading slugs and explicit HTML ids."""
    if path in _anchors:
        return _anchors[path]
    found, seen = set(), {}
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        _anchors[path] = found
        return found
    previous = None
    for _, line in prose_lines(text):
        headings = []
        m = ATX.match(line)
        if m:
            headings.append(m.group(2))
        elif previous is not None and previous.strip() and not ATX.match(previous) and SETEXT.match(line):
            headings.append(previous.strip())
        for h in headings:
            base = slug(heading_text(h))
            n = seen.get(base, 0)
            found.add(base if n == 0 else f"{base}-{n}")
            seen[base] = n + 1
        found.update(HTML_ID.findall(line))
        previous = line
    _anchors[path] = found
    return found


def links(text):
    """(line number, target) of every link and image outside code."""
    for number, line in prose_lines(text):
        line = CODE_SPAN.sub(lambda m: " " * len(m.group(0)), line)
        for m in INLINE.finditer(line):
            yield number, m.group(1)
        m = REFERENCE.match(line)
        if m:
            yield number, m.group(1)


def main():
    checked = skipped = 0
    broken = []
    for source in markdown_files():
        text = source.read_text(encoding="utf-8")
        shown = source.relative_to(ROOT)
        for number, target in links(text):
            target = target.strip()
            if target.startswith("<") and target.endswith(">"):
                target = target[1:-1].strip()
            if SCHEME.match(target):
                skipped += 1
                continue
            checked += 1
            path_part, _, fragment = target.partition("#")
            if not path_part and not fragment:
                broken.append(f"{shown}:{number}: {target or '(empty)'}: empty link")
                continue
            if path_part.startswith("/"):
                broken.append(f"{shown}:{number}: {target}: absolute path (use a relative one)")
                continue
            path_part = re.sub(r"%20", " ", path_part.split("?")[0])
            dest = (source.parent / path_part).resolve() if path_part else source
            if not dest.exists():
                broken.append(f"{shown}:{number}: {target}: no such file")
                continue
            if fragment:
                if dest.is_dir() or dest.suffix.lower() not in (".md", ".markdown", ".html", ".htm"):
                    broken.append(f"{shown}:{number}: {target}: a fragment into a file that has no headings")
                elif fragment not in anchors(dest):
                    broken.append(f"{shown}:{number}: {target}: no heading or id '{fragment}' in the target")
    for line in broken:
        print(line)
    print(f"{checked} links checked, {len(broken)} broken ({skipped} external links skipped)")
    return 1 if broken else 0


if __name__ == "__main__":
    sys.exit(main())
