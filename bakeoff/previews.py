"""An organiser's preview (``?view=``, ``access.preview_for``) follows the links of the page.

A page that honours the preview is marked by ``honours_preview``: the mark is the list of those
pages (``access.preview_for`` refuses to run in any other), and the same decorator gives each link
of a previewed page to a marked page the preview's parameters, so that the organiser reading the
results as the public reads on as the public, through the track's table, its runs, its exports and
its plots, until a link leaves the preview: to a page that does not honour it (registration, an
upload, an organiser's page), or one that names its own ``view`` (the banner's choices and its way
back, ``templates/bakeoff/_preview.html``).

Every link, whoever built it (a template, a table column, a view), is carried here, in one place,
rather than by each of them: a link added later cannot forget it. Only previewed pages are
rewritten; they are rendered for the organiser alone, never kept in a shared representation.
"""

from __future__ import annotations

import functools
import html
import re
from collections.abc import Callable
from typing import Any, TypeVar
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from django.http import HttpRequest
from django.http.response import HttpResponseBase
from django.template.response import SimpleTemplateResponse
from django.urls import Resolver404, resolve

from .access import HONOURS_PREVIEW, PREVIEW_OF_REQUEST, Preview

View = TypeVar("View", bound=Callable[..., HttpResponseBase])

# The address of a link or an embedded image as the templates write it: double quotes, escaped.
_LINK = re.compile(r'(\s(?:href|src)=")([^"]*)(")')


def honours_preview(view: View) -> View:
    """Marks ``view`` as one that shows a page as the previewed reader sees it, and carries the
    preview into the page's links to the other such pages."""

    @functools.wraps(view)
    def previewed(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        response = view(request, *args, **kwargs)
        preview: Preview | None = getattr(request, PREVIEW_OF_REQUEST, None)
        if preview is not None:
            carry_links(response, preview, request.path)
        return response

    setattr(previewed, HONOURS_PREVIEW, True)
    return previewed  # type: ignore[return-value]


def honours(path: str) -> bool:
    """Whether the page at ``path`` honours a preview."""
    try:
        match = resolve(path)
    except Resolver404:
        return False
    return bool(getattr(match.func, HONOURS_PREVIEW, False))


def carried(url: str, preview: Preview, here: str) -> str:
    """``url`` (a link of the page at ``here``) with the preview's parameters, where it leads to a
    page that honours the preview and names no ``view`` of its own; else ``url`` as it is."""
    parts = urlsplit(url)
    if parts.scheme or parts.netloc or not url or url.startswith("#"):
        return url  # another site, a permanent link to cite, or a place in this page
    query = parse_qsl(parts.query, keep_blank_values=True)
    if any(name in ("view", "site") for name, _value in query):
        return url
    if not honours(parts.path or here):
        return url
    query.extend(preview.parameters)
    return urlunsplit(parts._replace(query=urlencode(query)))


def carry_links(response: HttpResponseBase, preview: Preview, here: str) -> None:
    """Carries the preview into every link of an HTML ``response``."""
    if isinstance(response, SimpleTemplateResponse) and not response.is_rendered:
        # as an API's answer: its type is known once rendered
        response.add_post_render_callback(lambda rendered: carry_links(rendered, preview, here))
        return
    if getattr(response, "streaming", False) or not response.get("Content-Type", "").startswith(
        "text/html"
    ):
        return

    def carry(found: re.Match[str]) -> str:
        url = html.unescape(found.group(2))
        changed = carried(url, preview, here)
        if changed == url:
            return found.group(0)
        return found.group(1) + html.escape(changed) + found.group(3)

    content = response.content.decode(response.charset)  # type: ignore[attr-defined]
    response.content = _LINK.sub(carry, content)  # type: ignore[attr-defined]
