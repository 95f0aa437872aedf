"""The project's URLs and one that fails, for the tests of error logging."""

from django.http import HttpRequest, HttpResponse
from django.urls import path

from config.urls import urlpatterns as project


class Boom(Exception):
    pass


def fail(request: HttpRequest) -> HttpResponse:
    raise Boom("provoked by the test of error logging")


urlpatterns = [path("fail/", fail), *project]
