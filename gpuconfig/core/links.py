"""Links to sources in the documents and views gpuconfig writes: only a web address becomes a link.

A source may say anything (an imported price list's file: or smb: address, a shop's name), and a click on a
link opens whatever it points to; so an address that is not http or https is shown as text, never linked.
"""

from __future__ import annotations

from html import escape
from urllib.parse import urlsplit

from gpuconfig.core.markdown import md_line

WEB_SCHEMES = ("http", "https")


def _web_address(url: str) -> bool:
    try:
        return urlsplit(url).scheme.lower() in WEB_SCHEMES
    except ValueError:  # not an address at all (an unclosed '[' of an IPv6 host)
        return False


def _as_text(url: str, text: str) -> str:
    return url if text == url else f"{text}: {url}"


def web_link(url: str, text: str, style: str = "") -> str:
    """HTML: `text` linked to `url` when it is a web address (with `style` on the link), else both as text;
    everything escaped."""
    if not _web_address(url):
        return escape(_as_text(url, text))
    css = f' style="{escape(style, quote=True)}"' if style else ""
    return f'<a href="{escape(url, quote=True)}"{css}>{escape(text)}</a>'


def markdown_web_link(url: str, text: str) -> str:
    """Markdown: the same, for a line of a Markdown document."""
    if not _web_address(url):
        return md_line(_as_text(url, text))
    return f"[{md_line(text)}]({url})"
