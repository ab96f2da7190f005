"""A study's README.md as the recipe's explanations point into it: its
section headings, and the anchor each gets where GitHub renders the file."""

from __future__ import annotations

import re
from pathlib import Path

README = "README.md"
_HEADING = re.compile(r"^#{1,6}\s+(.+?)\s*#*\s*$")
_FENCE = re.compile(r"^(```|~~~)")


def headings(file: Path) -> list[str]:
    """The text of every Markdown heading of file (outside code fences), in
    order; none if there is no such file."""
    if not file.is_file():
        return []
    found, fenced = [], False
    for line in file.read_text().splitlines():
        if _FENCE.match(line):
            fenced = not fenced
        elif not fenced and (match := _HEADING.match(line)):
            found.append(match.group(1))
    return found


def anchor(heading: str) -> str:
    """The anchor GitHub gives a heading: lower case, inline code marks
    dropped, punctuation but hyphens and underscores removed, each space a
    hyphen ("3. CUBIC through S(10,100)" -> "3-cubic-through-s10100").
    Repeated headings (GitHub numbers them -1, -2) are not told apart."""
    text = heading.strip().lower().replace("`", "")
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")
