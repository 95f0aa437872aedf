"""Request bodies sent without a length (``Transfer-Encoding: chunked``), for Django.

Django reads ``CONTENT_LENGTH`` bytes of a body and no more, so a chunked upload reaches it empty.
The shipped proxy (nginx) buffers bodies and sends their length, but a server that terminates the
input itself (gunicorn says so with ``wsgi.input_terminated``) hands chunked bodies through: this
wrapper spools such a body to a temporary file, up to the upload cap, and sets its length. Memory
stays at one chunk whatever the size; a body beyond the cap is answered 413 before Django sees it.
"""

from __future__ import annotations

import json
import tempfile
from collections.abc import Callable, Iterable
from typing import Any

Environ = dict[str, Any]
StartResponse = Callable[..., Any]
WSGIApp = Callable[[Environ, StartResponse], Iterable[bytes]]

CHUNK = 64 << 10
# Room for the multipart envelope around the file, as bakeoff.services.uploads allows.
ENVELOPE = 64 << 10
SPOOL_IN_MEMORY = 1 << 20


def is_unsized_chunked(environ: Environ) -> bool:
    return (
        bool(environ.get("wsgi.input_terminated"))
        and not environ.get("CONTENT_LENGTH")
        and "chunked" in str(environ.get("HTTP_TRANSFER_ENCODING", "")).lower()
    )


class ChunkedBodies:
    def __init__(self, app: WSGIApp, limit: Callable[[], int]) -> None:
        self.app = app
        self.limit = limit

    def __call__(self, environ: Environ, start_response: StartResponse) -> Iterable[bytes]:
        if not is_unsized_chunked(environ):
            return self.app(environ, start_response)
        cap = self.limit() + ENVELOPE
        # Django has read the whole body by the time the application answers.
        with tempfile.SpooledTemporaryFile(max_size=SPOOL_IN_MEMORY) as spool:
            size = 0
            while chunk := environ["wsgi.input"].read(CHUNK):
                size += len(chunk)
                if size > cap:
                    return too_large(start_response, cap - ENVELOPE)
                spool.write(chunk)
            spool.seek(0)
            environ["wsgi.input"] = spool
            environ["CONTENT_LENGTH"] = str(size)
            return self.app(environ, start_response)


def too_large(start_response: StartResponse, cap: int) -> list[bytes]:
    body = json.dumps(
        {
            "code": "upload_too_large",
            "detail": f"The file is larger than the limit of {cap:,} bytes.",
            "limit": cap,
        }
    ).encode()
    start_response(
        "413 Content Too Large",
        [("Content-Type", "application/json"), ("Content-Length", str(len(body)))],
    )
    return [body]
