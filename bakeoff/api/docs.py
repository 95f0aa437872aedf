"""The browsable page of the API's description: Swagger UI, served from the sidecar package's
static files (nothing loaded from outside), its script in a file of its own and its styles with
the request's nonce, as the Content-Security-Policy of every page requires."""

from __future__ import annotations

from drf_spectacular.views import SpectacularSwaggerSplitView
from rest_framework.permissions import AllowAny


class SwaggerPage(SpectacularSwaggerSplitView):
    template_name = "bakeoff/api_docs.html"
    permission_classes = [AllowAny]  # noqa: RUF012  (as the base class declares it)
    title = "Bakeoff API"
