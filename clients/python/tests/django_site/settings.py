"""A Django site for tests/test_django_site.py: the admin over a model keyed
by each of uid's types (the app things), on the server of the libpq
environment.  Django's test runner makes its database,
UID_DJANGO_TEST_DATABASE, from nothing with the app's migrations."""
import os

SECRET_KEY = "only for the tests"
DEBUG = False
ALLOWED_HOSTS = ["testserver"]
USE_TZ = True
TIME_ZONE = "UTC"
DEFAULT_AUTO_FIELD = "django.db.models.AutoField"
ROOT_URLCONF = "urls"
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]    # fast, for tests only

DATABASES = {"default": {
    "ENGINE": "django.db.backends.postgresql",
    "NAME": os.environ.get("PGDATABASE", ""),
    "USER": os.environ.get("PGUSER", ""),
    "HOST": os.environ.get("PGHOST", ""),
    "PORT": os.environ.get("PGPORT", ""),
    "TEST": {"NAME": os.environ["UID_DJANGO_TEST_DATABASE"]},
}}

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "things",
]
MIDDLEWARE = [
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
]
TEMPLATES = [{
    "BACKEND": "django.template.backends.django.DjangoTemplates",
    "APP_DIRS": True,
    "OPTIONS": {"context_processors": [
        "django.template.context_processors.request",
        "django.contrib.auth.context_processors.auth",
        "django.contrib.messages.context_processors.messages",
    ]},
}]
