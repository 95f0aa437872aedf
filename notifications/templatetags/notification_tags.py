"""Filters of the mail templates."""

from __future__ import annotations

from django import template
from django.utils.html import urlize
from django.utils.safestring import SafeString, mark_safe

from notifications.columns import align

register = template.Library()


@register.filter
def mail_html(text: str) -> SafeString:
    """A plain-text mail as HTML: paragraphs, line breaks and links; the footer (after the
    ``-- `` line) left out, since the HTML layout has its own."""
    body = text.split("\n-- \n")[0].strip()
    paragraphs = [p for p in body.split("\n\n") if p.strip()]
    html = "".join(
        "<p>" + "<br>".join(urlize(line, autoescape=True) for line in p.split("\n")) + "</p>\n"
        for p in paragraphs
    )
    return mark_safe(html)


class ColumnsNode(template.Node):
    def __init__(self, nodelist: template.NodeList) -> None:
        self.nodelist = nodelist

    def render(self, context: template.Context) -> str:
        return align(self.nodelist.render(context))


@register.tag
def columns(parser: template.base.Parser, token: template.base.Token) -> ColumnsNode:
    """``{% columns %}label<TAB>value ...{% endcolumns %}``: every value starts in the same
    display column, in the reader's language (notifications/columns.py)."""
    nodelist = parser.parse(("endcolumns",))
    parser.delete_first_token()
    return ColumnsNode(nodelist)
