from django.contrib import admin
from django.urls import include, path

urlpatterns = [
    path("admin/", admin.site.urls),
    path("accounts/", include("allauth.urls")),
    path("api/", include("bakeoff.api.urls")),
    path("api/", include("leaderboard.api_urls")),
    path("", include("analysis.urls")),
    path("", include("psychometric.urls")),
    path("", include("notifications.urls")),
    path("", include("leaderboard.urls")),
    path("", include("bakeoff.urls")),
]

# Server errors answer JSON on the API (bakeoff/views/errors.py).
handler500 = "bakeoff.views.errors.server_error"
# An address the API does not have answers JSON there too (bakeoff/views/errors.py).
handler404 = "bakeoff.views.errors.not_found"
# allauth's rate limits answer 429 with Retry-After (config/ratelimits.py).
handler429 = "config.ratelimits.too_many_requests"
