"""A part the user names: by its catalog id, its name, or words of its name, case-insensitive; and for a name
that names nothing, the ids and names closest to it ("did you mean ...?")."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from difflib import get_close_matches

from gpuconfig.core.catalog.model import Part

CUTOFF = 0.6  # difflib's own default: below it, two spellings have too little in common to suggest
# How far below the closest a suggestion may be: a typo's right part, not every part that shares a word.
MARGIN = 0.1
LISTED = 5  # parts an ambiguous name lists

# A part of each kind, as messages say it ("is not a GPU in the catalog"); other kinds read as their id.
_A_PART = {
    "gpu": "a GPU",
    "cpu": "a CPU",
    "psu": "a PSU",
    "ssd": "an SSD",
    "ram": "a RAM kit",
    "cloud": "a cloud instance",
}


class PartNotFound(ValueError):
    """The text names no part, or more than one. The message is one line; `suggestions` are the parts it
    offers: the closest ones, the ones the text could mean, or the part of another kind it names."""

    def __init__(self, message: str, suggestions: Sequence[Part] = ()) -> None:
        super().__init__(message)
        self.suggestions = tuple(suggestions)


def find_part(text: str, parts: Sequence[Part], kind: str | None = None) -> Part:
    """The one part of `kind` (any kind for None) among `parts` that `text` names: its id, its name (either
    without the vendor in front), or words that all appear in its id or name and in no other part's, where
    a part whose words the others all have too wins ("rtx 3090" is the 3090, not the 3090 Ti). Case and
    extra spaces do not count. Raises PartNotFound, saying what was meant where it can tell."""
    wanted = [p for p in parts if kind is None or p.kind == kind]
    typed = _plain(text)
    exact = [p for p in wanted if p.id.lower() == typed]
    if not exact:
        exact = [p for p in wanted if _is_named(typed, p)]
    matches = exact or _word_matches(text, wanted)
    if len(matches) == 1:
        return matches[0]
    if matches:
        listed = ", ".join(_labelled(p) for p in matches[:LISTED])
        more = f" or {len(matches) - LISTED} more" if len(matches) > LISTED else ""
        raise PartNotFound(f"{text!r} could be any of {len(matches)}: {listed}{more}; give more of its name", matches)
    if kind is not None:
        other = next((p for p in parts if p.kind != kind and (p.id.lower() == typed or _is_named(typed, p))), None)
        if other is not None:
            raise PartNotFound(
                f"{text!r} is not a {kind} in the catalog but {_a_part(other.kind)} ({other.name})", [other]
            )
    what = f"{_a_part(kind)} in the catalog" if kind else "in the catalog"
    near = closest_parts(text, wanted)
    hint = f"; did you mean {either([_labelled(p) for p in near])}?" if near else ""
    raise PartNotFound(f"{text!r} is not {what}{hint}", near)


def closest_parts(text: str, parts: Sequence[Part], n: int = 3) -> list[Part]:
    """Up to `n` parts spelled most like `text`, closest first, by the typing slips (a letter wrong, missing,
    extra, or two swapped) between them: the whole text against the id and the name, or word by word against
    their words, whichever is closer."""
    typed, words = _plain(text), _words(text)
    scored = []
    for position, part in enumerate(parts):
        whole = max(_likeness(typed, form) for form in (part.id, _plain(part.name), _plain_name(part)))
        tokens = _part_words(part)
        by_word = sum(max(_likeness(w, t) for t in tokens) for w in words) / len(words) if words else 0.0
        scored.append((max(whole, by_word), position, part))
    scored = sorted((s for s in scored if s[0] >= CUTOFF), key=lambda s: (-s[0], s[1]))
    return [part for score, _, part in scored[:n] if score >= scored[0][0] - MARGIN]


def closest(text: str, names: Iterable[str], n: int = 3) -> list[str]:
    """Up to `n` of `names` spelled most like `text`, case-insensitive, closest first (difflib's measure)."""
    by_lower = {name.lower(): name for name in names}
    return [by_lower[m] for m in get_close_matches(text.lower(), list(by_lower), n=n, cutoff=CUTOFF)]


def either(choices: Sequence[str]) -> str:
    """The choices as a sentence says them: "a", "a or b", "a, b or c"."""
    if len(choices) < 2:
        return "".join(choices)
    return f"{', '.join(choices[:-1])} or {choices[-1]}"


def _word_matches(text: str, parts: Sequence[Part]) -> list[Part]:
    words = _words(text)
    if not words:
        return []
    matches = [p for p in parts if words <= _part_words(p)]
    # The part whose words every other match also has: what the text names, the rest are its variants.
    plainest = [p for p in matches if all(_part_words(p) <= _part_words(o) for o in matches)]
    return plainest if len(plainest) == 1 else matches


def _is_named(typed: str, part: Part) -> bool:
    """Whether the text, made plain, is the part's name, with or without the vendor in front of either."""
    return bool(typed) and _plain_name(part) in (typed, _without_vendor(typed, part))


def _a_part(kind: str) -> str:
    return _A_PART.get(kind, f"a {kind}")


def _labelled(part: Part) -> str:
    return f"{part.name} ({part.id})"


def _plain(text: str) -> str:
    return " ".join(text.lower().split())


def _plain_name(part: Part) -> str:
    return _without_vendor(_plain(part.name), part)


def _without_vendor(text: str, part: Part) -> str:
    vendor = _plain(part.vendor)
    return text[len(vendor) + 1 :] if vendor and text.startswith(f"{vendor} ") else text


def _words(text: str) -> set[str]:
    """Runs of letters and runs of digits: "RTX-4090", "rtx 4090" and "rtx4090" are the same words."""
    return set(re.findall(r"[a-z]+|[0-9]+", text.lower()))


def _part_words(part: Part) -> set[str]:
    return _words(f"{part.id} {part.name} {part.vendor}")


def _likeness(a: str, b: str) -> float:
    """1 for the same text, less by each slip it takes to turn one into the other: a letter wrong, missing or
    extra, or (half a slip, the commonest) two neighbours swapped. "4900" is half a slip from "4090", one
    from "4000", two from "4060"."""
    before: list[float] = [float(j) for j in range(len(b) + 1)]
    row = before
    for i in range(1, len(a) + 1):
        earlier, before, row = before, row, [float(i)] + [0.0] * len(b)
        for j in range(1, len(b) + 1):
            row[j] = min(before[j] + 1, row[j - 1] + 1, before[j - 1] + (a[i - 1] != b[j - 1]))
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1] != b[j - 2]:
                row[j] = min(row[j], earlier[j - 2] + 0.5)
    return 1 - row[-1] / max(len(a), len(b), 1)


def named_ids(text: str, names: Mapping[str, str]) -> list[str]:
    """The ids of `names` (id -> name) that `text` names: the id or the name in any letters, else every one
    whose id and name hold all of its words (more than one: ambiguous)."""
    typed = _plain(text)
    exact = [i for i, name in names.items() if typed in (i.lower(), _plain(name))]
    if exact:
        return exact
    words = _words(text)
    if not words:
        return []
    return [i for i, name in names.items() if words <= _words(f"{i} {name}")]
