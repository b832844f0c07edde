#!/usr/bin/env python3
"""Every relative link of README.md, CHANGELOG.md and the guide (docs/src)
points at a file that exists, and every `#anchor` into a Markdown file at a
heading it has. Exits 1 naming each broken link."""
import pathlib
import re
import sys

root = pathlib.Path(__file__).resolve().parent.parent
pages = [root / "README.md", root / "CHANGELOG.md", *sorted((root / "docs/src").rglob("*.md"))]
link = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")
fence = re.compile(r"^(```|~~~)")


def anchors(path):
    """The ids mdBook and forges give a page's headings."""
    ids = set()
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("#"):
            text = line.lstrip("#").strip().lower()
            ids.add(re.sub(r"[^\w\- ]", "", text).replace(" ", "-"))
    return ids


broken = []
for page in pages:
    in_code = False
    for number, line in enumerate(page.read_text(encoding="utf-8").splitlines(), 1):
        if fence.match(line.strip()):
            in_code = not in_code
            continue
        if in_code:
            continue
        for target in link.findall(line):
            if re.match(r"^[a-z]+:", target) or target.startswith("#"):
                continue
            path, _, anchor = target.partition("#")
            resolved = (page.parent / path).resolve()
            where = f"{page.relative_to(root)}:{number}: {target}"
            if not resolved.exists():
                broken.append(f"{where} (no such file)")
            elif anchor and resolved.suffix == ".md" and anchor not in anchors(resolved):
                broken.append(f"{where} (no such heading)")
for b in broken:
    print(b)
sys.exit(1 if broken else 0)
