"""Adds the guide's Run buttons to every page of a built guide: a script
and a style sheet, linked relative to each page (the guide works from any
folder of a static host)."""

import os
import sys

out = sys.argv[1]
for folder, _, files in os.walk(out):
    if os.path.relpath(folder, out).split(os.sep)[0] == "playground":
        continue
    for name in files:
        if not name.endswith(".html"):
            continue
        path = os.path.join(folder, name)
        up = os.path.relpath(out, folder).replace(os.sep, "/")
        root = "" if up == "." else up + "/"
        with open(path, encoding="utf-8") as f:
            html = f.read()
        if "examples.js" in html or "</body>" not in html:
            continue
        tags = (
            f'<link rel="stylesheet" href="{root}examples.css">\n'
            f'<script type="module" src="{root}examples.js"></script>\n'
        )
        html = html.replace("</body>", tags + "</body>", 1)
        with open(path, "w", encoding="utf-8") as f:
            f.write(html)
