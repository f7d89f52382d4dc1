"""Slurm host lists: "n[1-3,7],gpu01" for n1, n2, n3, n7 and gpu01, as sbatch --exclude and --nodelist take
them (the syntax of `scontrol show hostnames` / `scontrol show hostlist`, slurm.conf(5) "NodeName")."""

from __future__ import annotations

import re
from collections.abc import Iterable

_NUMBERED = re.compile(r"^(.*?)(\d+)$")
_BRACKETS = re.compile(r"^([^\[\],]*)\[([^\]]+)\]([^\[\],]*)$")


class HostlistError(ValueError):
    pass


def expand(hostlist: str) -> list[str]:
    """Each host of a Slurm host list, in its order: "n[1-2],x" -> ["n1", "n2", "x"]; a range keeps its
    zero padding ("gpu[08-10]" -> gpu08, gpu09, gpu10)."""
    hosts: list[str] = []
    for part in _split(hostlist):
        match = _BRACKETS.match(part)
        if not match:
            if "[" in part or "]" in part:
                raise HostlistError(f"host list {hostlist!r}: cannot read {part!r}")
            hosts.append(part)
            continue
        prefix, ranges, suffix = match.groups()
        for piece in ranges.split(","):
            low, _, high = piece.partition("-")
            if not low.isdigit() or (high and not high.isdigit()):
                raise HostlistError(f"host list {hostlist!r}: {piece!r} is not a number or a range of numbers")
            first, last = int(low), int(high or low)
            if last < first:
                raise HostlistError(f"host list {hostlist!r}: the range {piece!r} runs backwards")
            if last - first > 100_000:
                raise HostlistError(f"host list {hostlist!r}: the range {piece!r} is too long")
            digits = len(low) if low.startswith("0") else 0
            hosts += [f"{prefix}{number:0{digits}d}{suffix}" for number in range(first, last + 1)]
    return hosts


def compress(hosts: Iterable[str]) -> str:
    """The shortest usual host list for `hosts`: numbered names with one prefix and padding folded into
    ranges, the rest as they are ("n1,n2,n3,n7,x" -> "n[1-3,7],x"); sorted, no repeats."""
    groups: dict[tuple[str, int], list[int]] = {}
    plain: list[str] = []
    for host in sorted(set(hosts)):
        match = _NUMBERED.match(host)
        if not match:
            plain.append(host)
            continue
        prefix, digits = match.groups()
        width = len(digits) if digits.startswith("0") and len(digits) > 1 else 0
        groups.setdefault((prefix, width), []).append(int(digits))
    for prefix, width in [key for key in groups if key[1]]:  # gpu10 belongs with gpu08 and gpu09
        unpadded = groups.get((prefix, 0), [])
        moved = [number for number in unpadded if len(str(number)) == width]
        groups[(prefix, width)] += moved
        if moved:
            groups[(prefix, 0)] = [number for number in unpadded if number not in moved]
    parts = []
    for (prefix, width), numbers in sorted(groups.items()):
        if not numbers:
            continue
        numbers.sort()
        runs: list[tuple[int, int]] = []
        for number in numbers:
            if runs and number == runs[-1][1] + 1:
                runs[-1] = (runs[-1][0], number)
            else:
                runs.append((number, number))
        text = ",".join(f"{a:0{width}d}" if a == b else f"{a:0{width}d}-{b:0{width}d}" for a, b in runs)
        parts.append(f"{prefix}{text}" if len(numbers) == 1 else f"{prefix}[{text}]")
    return ",".join(sorted(parts + plain))


def _split(hostlist: str) -> list[str]:
    """The comma-separated parts of a host list, commas inside brackets kept."""
    parts, depth, current = [], 0, ""
    for char in hostlist.strip():
        if char == "[":
            depth += 1
        elif char == "]":
            depth -= 1
        if char == "," and depth == 0:
            parts.append(current)
            current = ""
        else:
            current += char
    parts.append(current)
    if depth != 0:
        raise HostlistError(f"host list {hostlist!r}: unbalanced brackets")
    return [part.strip() for part in parts if part.strip()]
