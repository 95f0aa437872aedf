"""The API's read of a track's results: the standing table as the track's page and its JSON
export show it to the reader (the same ``export_rows``: before publication only what the blind
phase lets the reader see, after it the newest results version the reader may see, through
``leaderboard/published.py``), for a token as for a session."""

from __future__ import annotations

import json

from django.utils import translation
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework.decorators import api_view
from rest_framework.request import Request
from rest_framework.response import Response

from bakeoff.previews import honours_preview

from . import exports
from .views.exports import export_rows
from .views.reading import track_reading


@honours_preview
@extend_schema(
    operation_id="results_retrieve",
    summary="A track's results: its standing table (the newest results version you may see)",
    description=(
        "As the track's results.json: results_version, gold_version and its checksums, rows "
        "(each run's label, rank, figures and signature), not_significantly_different, "
        "post_bakeoff. 404 while the track's results are not yours to see."
    ),
    parameters=[
        OpenApiParameter("bakeoff", OpenApiTypes.STR, OpenApiParameter.PATH, description="slug"),
        OpenApiParameter("track", OpenApiTypes.STR, OpenApiParameter.PATH, description="slug"),
        OpenApiParameter(
            "view",
            OpenApiTypes.STR,
            enum=["public", "participant"],
            description=(
                "For an organiser of the bakeoff: the results as the public, or as a site's "
                "members (with site), see them; ignored for anyone else"
            ),
        ),
        OpenApiParameter(
            "site", OpenApiTypes.INT, description="With view=participant: the site's id"
        ),
    ],
    responses={200: OpenApiTypes.OBJECT},
)
@api_view(["GET"])
def track_results(request: Request, bakeoff: str, track: str) -> Response:
    with translation.override("en"):  # run labels, as the export gives them to scripts
        reading = track_reading(request._request, bakeoff, track, None)
        the_track, rows, ranking, version, post_rows = export_rows(request._request, reading)
        body = exports.to_json(the_track, rows, ranking, version, post_rows)
    return Response(json.loads(body))
