"""A student's name: what the instructor's page shows and the class tells
apart. Printable text (no control characters such as NUL, CR or LF, no
invisible format characters such as bidi overrides or zero-width ones), no
`<` or `>` (no markup anywhere it is shown), at most max_name_chars, spaces
collapsed. Two names are the same name when they differ only in case or in
Unicode's compatibility forms (name_key): `Bob`, `BOB` and `ｂｏｂ` are one
student.
"""

from __future__ import annotations

import unicodedata

MARKUP = frozenset("<>")


def name_problem(name: str) -> str | None:
    """Why name is not a name (without the `name:` prefix), or None."""
    odd = next((character for character in name if not character.isprintable() or character in MARKUP), None)
    if odd is not None:
        return (f"must be printable text without < or >; it has U+{ord(odd):04X} "
                f"({unicodedata.name(odd, 'a control character').lower()})")
    if not tidy(name):
        return "must have a letter or a digit, not only spaces"
    return None


def tidy(name: str) -> str:
    """name as kept: surrounding spaces dropped, runs of spaces made one."""
    return " ".join(name.split())


def name_key(name: str) -> str:
    """What makes two names one: compatibility forms folded, case folded."""
    return unicodedata.normalize("NFKC", tidy(name)).casefold()
