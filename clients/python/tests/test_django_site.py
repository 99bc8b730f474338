"""Django's admin over a model keyed by each type (tests/django_site: its
tests, run by Django's test runner in a process of their own, since Django
is configured once a process): admin login, the add, change, list, history
and delete pages, and migrate from an empty database with the migration
the manual gives (the extension first, then the models and DEFAULTs)."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pgkuid
from conftest import require_module

require_module("django")
require_module("psycopg2")

SITE = Path(__file__).resolve().parent / "django_site"


def test_admin(server):
    """Django's test runner makes a database from template1 with the
    migrations and runs things/tests.py against it."""
    env = dict(os.environ,
               UID_DJANGO_TEST_DATABASE="uid_python_tests_%d_django" % os.getpid(),
               PYTHONPATH=os.pathsep.join([str(SITE), str(Path(pgkuid.__file__).parents[1])]))
    out = subprocess.run([sys.executable, "-m", "django", "test", "things", "--settings=settings",
                          "--noinput", "-v", "2"],
                         cwd=str(SITE), env=env, capture_output=True, text=True)
    assert out.returncode == 0, out.stdout + out.stderr
    assert "Applying things.0001_initial... OK" in out.stdout + out.stderr
    assert "Ran 2 tests" in out.stderr, out.stderr
