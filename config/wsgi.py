import os

from django.conf import settings
from django.core.wsgi import get_wsgi_application

from config.chunked import ChunkedBodies

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

application = ChunkedBodies(
    get_wsgi_application(), limit=lambda: int(settings.BAKEOFF_MAX_UPLOAD_BYTES)
)
