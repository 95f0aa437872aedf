# The platform's image: web (gunicorn), worker and beat (celery) all run it. See docker-compose.yml.
FROM python:3.11-slim-bookworm

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

WORKDIR /app

# gettext builds the translation catalogues (locale/*/LC_MESSAGES/django.mo).
RUN apt-get update && apt-get install -y --no-install-recommends gettext \
    && rm -rf /var/lib/apt/lists/*

COPY requirements.txt .
RUN pip install -r requirements.txt

COPY . .
RUN python manage.py compilemessages -l zh_Hans -l zh_Hant \
    && python manage.py collectstatic --noinput \
    && useradd --create-home --uid 1000 bakeoff \
    && rm -rf /app/var && mkdir -p /app/var/media && chown -R bakeoff /app/var

USER bakeoff
EXPOSE 8000
CMD ["gunicorn", "-c", "config/gunicorn.py", "config.wsgi", "--bind", "0.0.0.0:8000"]
