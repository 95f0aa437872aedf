"""The organiser's list of a bakeoff's mail; each user's choice of optional mails, on the account
page and by the one-click link in each optional mail."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.models import User
from django.core import signing
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext_lazy as _
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST

from bakeoff.access import AuthenticatedHttpRequest, organised_or_404

from .forms import PreferenceForm
from .kinds import KINDS, PREFERENCES
from .mail import read_unsubscribe_token
from .models import Mail, MailPreference, MailStatus

LISTED = 500  # the newest mails shown on the organiser's page


@login_required
def mail_list(request: AuthenticatedHttpRequest, slug: str) -> HttpResponse:
    bakeoff = organised_or_404(request, slug)
    mails = Mail.objects.filter(bakeoff=bakeoff).select_related("recipient")
    counts = {status: mails.filter(status=status).count() for status in MailStatus.values}
    return render(
        request,
        "notifications/mail_list.html",
        {
            "bakeoff": bakeoff,
            "mails": mails[:LISTED],
            "counts": counts,
            "kinds": KINDS,
            "listed": LISTED,
        },
    )


@login_required
@require_POST
def preferences(request: AuthenticatedHttpRequest) -> HttpResponse:
    instance, _created = MailPreference.objects.get_or_create(user=request.user)
    form = PreferenceForm(request.POST, instance=instance)
    if form.is_valid():
        form.save()
        messages.success(request, _("Your mail preferences were saved."))
    return redirect("account")


def _refusal(request: HttpRequest, reason: str, status: int) -> HttpResponse:
    return render(request, "notifications/unsubscribe.html", {"refusal": reason}, status=status)


@csrf_exempt  # mail programs POST the one-click link without a session (RFC 8058)
def unsubscribe(request: HttpRequest, token: str) -> HttpResponse:
    """GET asks to confirm (link checkers and previews must not unsubscribe anyone); POST turns
    the mails off. A forged link, or a link of another account than the one signed in here,
    changes nothing."""
    try:
        user_id, preference = read_unsubscribe_token(token)
    except signing.BadSignature:
        return _refusal(request, "This link is not valid: nothing was changed.", 400)
    user = User.objects.filter(pk=user_id).first()
    if user is None or preference not in PREFERENCES:
        return _refusal(request, "This link is not valid: nothing was changed.", 400)
    if request.user.is_authenticated and request.user.pk != user.pk:
        return _refusal(
            request,
            "This link was sent to another account than the one you are logged in with: "
            "nothing was changed.",
            403,
        )
    label = PREFERENCES[preference]
    done = False
    if request.method == "POST":
        MailPreference.objects.update_or_create(user=user, defaults={preference: False})
        done = True
    return render(
        request,
        "notifications/unsubscribe.html",
        {"label": label, "done": done, "account": user},
    )
