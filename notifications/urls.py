from django.urls import path

from . import views

app_name = "notifications"

urlpatterns = [
    path("bakeoffs/<slug:slug>/mail/", views.mail_list, name="mail"),
    path("account/mail/", views.preferences, name="preferences"),
    path("mail/unsubscribe/<str:token>/", views.unsubscribe, name="unsubscribe"),
]
