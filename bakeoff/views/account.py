"""The account page: the personal API token, created and revoked here."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST
from rest_framework.authtoken.models import Token

from ..access import AuthenticatedHttpRequest


@login_required
def account(request: AuthenticatedHttpRequest) -> HttpResponse:
    token = Token.objects.filter(user=request.user).first()
    return render(request, "bakeoff/account.html", {"token": token})


@login_required
@require_POST
def token_create(request: AuthenticatedHttpRequest) -> HttpResponse:
    Token.objects.filter(user=request.user).delete()
    Token.objects.create(user=request.user)
    messages.success(request, "A new token was created; the old one no longer works.")
    return redirect("account")


@login_required
@require_POST
def token_revoke(request: AuthenticatedHttpRequest) -> HttpResponse:
    Token.objects.filter(user=request.user).delete()
    messages.success(request, "Your token was revoked.")
    return redirect("account")
