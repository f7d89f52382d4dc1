"""Text from the catalog, probe reports and users, placed in Markdown documents.

Markdown passes raw HTML through to whoever renders it, so '<', '>' and '&' are written as entities: a
part name or a note holding HTML is shown as text, never run.
"""

from __future__ import annotations

from html import escape


def md_text(text: object) -> str:
    """Running text, its HTML shown as text; line breaks are kept."""
    return escape(str(text), quote=False)


def md_line(text: object) -> str:
    """One line (a heading, a list item or a table cell): whitespace runs as one space, pipes escaped."""
    return md_text(" ".join(str(text).split())).replace("|", "\\|")
