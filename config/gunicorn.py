"""gunicorn's settings, wherever the platform is served: the Dockerfile, docker-compose.yml, a bare
machine (docs/deployment.md), the production tests' stack and the benchmarks all run
``gunicorn -c config/gunicorn.py config.wsgi --bind ADDRESS``.

``preload_app``: the master imports the application once (most of a second of CPU) and forks its
workers from it, so that a worker starts, or starts again after a crash or a timeout, in
milliseconds, and the workers share the imported code's memory. Importing the application opens
no connection (the database, the cache and the broker are reached on first use, in each worker),
so no socket is shared across the fork.
"""

import os

workers = int(os.environ.get("WEB_CONCURRENCY", "2"))
accesslog = "-"
preload_app = True
