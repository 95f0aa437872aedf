"""What the organisers' form pages share: a posted form goes to a service, whose refusal is shown on
the form again; a saved one says so and leaves the page."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from django import forms
from django.contrib import messages
from django.core.files.uploadedfile import UploadedFile
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django_stubs_ext import StrOrPromise

from ..errors import Refused
from ..services import uploads


@contextmanager
def refusal_shown_on(form: forms.BaseForm) -> Iterator[None]:
    """Run the block (a service call, then ``saved``); a refusal becomes the form's error and the
    view goes on to show the form again."""
    try:
        yield
    except Refused as refusal:
        form.add_error(None, refusal.message)


def saved(request: HttpRequest, message: StrOrPromise, to: str, **kwargs: Any) -> HttpResponse:
    """The success message, then the page ``to`` (a URL name and its arguments)."""
    messages.success(request, message)
    response: HttpResponse = redirect(to, **kwargs)
    return response


def form_page(
    request: HttpRequest,
    form: forms.BaseForm,
    title: StrOrPromise,
    status: int = 200,
    **context: Any,
) -> HttpResponse:
    """``bakeoff/form.html``: the form under its title (``bakeoff``, ``multipart`` and the like
    in ``context``)."""
    return render(
        request, "bakeoff/form.html", {"form": form, "title": title, **context}, status=status
    )


def uploaded_bytes(upload: UploadedFile[bytes] | None) -> bytes | None:
    return None if upload is None else uploads.read_capped(upload)
