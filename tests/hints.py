"""Types for annotating tests: the shared fixtures that hand out functions, and the test clients'
answers (which django-stubs and djangorestframework-stubs type with classes of their own)."""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager
from typing import TYPE_CHECKING, TypeAlias

from django.contrib.auth.models import User
from django.http import HttpResponseBase, StreamingHttpResponse
from django.test import Client

# ``with on_commit(): ...`` runs what the block enqueued after its commit.
OnCommit: TypeAlias = Callable[[], AbstractContextManager[object]]
# ``client_for(user)``: a test client signed in as the user (None: anonymous).
ClientFor: TypeAlias = Callable[[User | None], Client]

if TYPE_CHECKING:
    # An HttpResponse with what the test client adds (the request, the templates, json()).
    from django.test.client import _MonkeyPatchedWSGIResponse as Answer
    from rest_framework.response import _MonkeyPatchedResponse as ApiAnswer
else:  # the stubs' classes exist only for the type checker
    from django.http import HttpResponse as Answer
    from rest_framework.response import Response as ApiAnswer

__all__ = ["Answer", "ApiAnswer", "ClientFor", "OnCommit", "streamed"]


def streamed(answer: Answer) -> bytes:
    """The body of a streaming answer (a download): the stubs type every answer of the test client
    as an HttpResponse with ``content``."""
    response: HttpResponseBase = answer
    assert isinstance(response, StreamingHttpResponse)
    return response.getvalue()
