from django.urls import URLPattern, URLResolver

app_name = "leaderboard"

urlpatterns: list[URLPattern | URLResolver] = []
